r"""
Report objects

The results of sage_attention's computations are frozen dataclasses that
print as a sentence, export to JSON through ``to_dict()``, and check their
own consistency through ``is_well_defined()``.

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: D = LightningAttention(d=2, t=2, a=1).dimension_report(seed=0)
    sage: D.to_dict()['dimension'], D.is_well_defined()
    (4, True)
"""
from dataclasses import dataclass, asdict


class FormulaComparison:
    r"""
    Mixin for reports with a computed ``dimension`` and a formula's
    ``expected`` value and ``expected_note``.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: D = LightningAttention(d=2, t=2, a=1).dimension_report(seed=0)
        sage: D.agrees, D.expected_phrase()
        (True, '(expected 4 from [HMK2024])')
    """

    @property
    def defect(self):
        r"""
        Return the expected minus the computed dimension (``None`` without a formula).

        For summed heads the expected value is the join bound, and a positive
        defect means the join is defective (:doc:`/multihead`). Where a
        theorem gives the expected value below the parameter count (the
        Alexander--Hirschowitz exceptions), ``count`` holds that count and
        the defect is measured from it: the variety is defective, as the
        theorem says, although it has the expected dimension.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=2, a=1, heads=2).dimension_report(seed=0).defect
            0
            sage: LightningAttention(widths=[3, 2, 3], ranks=[1, 1], t=3).dimension_report(seed=0).defect is None
            True
        """
        if self.expected is None:
            return None
        count = getattr(self, "count", None)
        return (self.expected if count is None else count) - self.dimension

    @property
    def agrees(self):
        r"""
        Whether the computed dimension equals the formula (``None`` if there is none).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(widths=[3, 2, 3], ranks=[1, 1], t=3).dimension_report(seed=0).agrees is None
            True
        """
        if self.expected is None:
            return None
        return self.expected == self.dimension

    def expected_phrase(self, hint=""):
        r"""
        Return the parenthesized comparison with the formula, for ``__repr__``.

        INPUT:

        - ``hint`` -- string (default: empty); appended when they disagree

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(widths=[3, 2, 3], ranks=[1, 1], t=3).dimension_report(seed=0).expected_phrase()
            '(no published formula: hidden width d_1 = 2 is narrower than the input (a bottleneck lowers the dimension))'
        """
        if self.expected is None:
            return f"({self.expected_note})"
        if getattr(self, "expected_kind", "formula") == "bound":
            if self.agrees and self.defect:
                return (f"(expected {self.expected}: the {self.expected_note}; defect {self.defect} "
                        "below the parameter count, as the theorem says)")
            if self.agrees:
                return f"(expected {self.expected}: the {self.expected_note})"
            return (f"(defect {self.defect}: below the {self.expected_note}; a rank at random "
                    "points is never too large, so the defect is real unless the points were "
                    "unlucky)")
        if self.agrees:
            return f"(expected {self.expected} from [HMK2024])"
        return f"(WARNING: the formula gives {self.expected}: {self.expected_note}{hint})"

    def comparison_rows(self):
        r"""
        Return the rows comparing with the formula, for the HTML tables.

        Without a formula the rows say so in words, as ``repr`` does (a
        report shows no Python ``None``).

        OUTPUT: a list of pairs ``(name, value)``

        EXAMPLES::

            sage: from sage_attention import LightningAttention, Network, attention, dense
            sage: rows = LightningAttention(d=2, t=2, a=1).dimension_report(seed=0).comparison_rows()
            sage: [name for name, value in rows], rows[0], rows[2]
            (['expected', 'formula', 'defect'], ('expected', 4), ('defect', 0))
            sage: B = Network([attention(a=2, out=3), dense(out=4, r=2), dense(out=3)], d=3, t=2)
            sage: B.dimension_report(seed=0).comparison_rows()
            [('expected', 'no expected dimension is known for a network with attention layers; 45 weights, ambient dimension 2772'),
             ('defect', 'none: no formula to compare with')]
        """
        if self.expected is None:
            return [("expected", self.expected_note),
                    ("defect", "none: no formula to compare with")]
        return [("expected", self.expected), ("formula", self.expected_note),
                ("defect", self.defect)]


@dataclass(frozen=True)
class DimensionReport(FormulaComparison):
    r"""
    The dimension of a neurovariety, computed and expected.

    Attributes: ``model`` (its description), ``dimension`` (computed),
    ``expected`` (from the published formula, or ``None``),
    ``expected_note`` (which formula), ``parameters`` (number of weights),
    ``parameter_dimension`` (dimension of the weight space),
    ``fiber_dimension``, ``failure_probability`` (an upper bound on the
    probability that ``dimension`` is too small), ``seed``, ``field``,
    ``inputs`` (random inputs used), ``method``, ``expected_kind``,
    ``ambient_dimension`` (the dimension of the linear span, an upper bound
    on every dimension, or ``None`` when unknown), ``count`` (the parameter
    count the defect is measured from when ``expected`` is a theorem's value
    below it, else ``None``).

    A report never claims a dimension above the dimension of the weight
    space or above its ambient dimension: building one raises
    ``ValueError`` (a dimension beyond the span is a wrong answer, never a
    result).

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: D = LightningAttention(d=3, t=2, a=3, out=1).dimension_report(seed=0); D
        The neurovariety of LightningAttention(d=3, out=1, t=2, a=3) over Rational Field has dimension 11
        (expected 11 from [HMK2024]); the generic fiber has dimension 10.
        sage: D.agrees
        True
        sage: D.ambient_dimension
        18

    TESTS::

        sage: from sage_attention.models.reports import DimensionReport
        sage: DimensionReport("m", 12, None, "", 24, 24, 12, 0.0, 0, "QQ", 10, "rank",
        ....:                 ambient_dimension=6)
        Traceback (most recent call last):
        ...
        ValueError: the dimension report of m claims dimension 12, above its ambient dimension 6 (the dimension of the linear span): the rank was taken of the wrong map

    A failure bound of `1` (a map of degree beyond the field's size, as for
    a deep stack) says nothing, and the report says what is proved instead::

        sage: DimensionReport("m", 3, None, "", 6, 6, 3, 1.0, 0, "GF(7)", 3, "rank")
        The neurovariety of m has dimension 3
        ...
        The failure bound of the random point is vacuous here (the degree of the map exceeds the size of GF(7)): 3 is proved a lower bound of the dimension (the rank at a point), not proved equal to it.
    """
    model: str
    dimension: int
    expected: object
    expected_note: str
    parameters: int
    parameter_dimension: int
    fiber_dimension: int
    failure_probability: float
    seed: object
    field: str
    inputs: int
    method: str
    #: ``"formula"`` (an exact formula) or ``"bound"`` (the join bound of summed heads)
    expected_kind: str = "formula"
    ambient_dimension: object = None
    #: the parameter count the defect is measured from, when the expected value is a theorem's
    #: below it (``None``: the defect is measured from ``expected``)
    count: object = None

    def __post_init__(self):
        bounds = [(self.parameter_dimension, "dimension of the weight space", "")]
        if self.ambient_dimension is not None:
            bounds.append((self.ambient_dimension, "ambient dimension",
                           " (the dimension of the linear span)"))
        for value, what, note in bounds:
            if not 0 <= self.dimension <= value:
                raise ValueError(f"the dimension report of {self.model} claims dimension "
                                 f"{self.dimension}, above its {what} {value}{note}: the "
                                 "rank was taken of the wrong map")

    def __repr__(self):
        exp = self.expected_phrase("; rerun with another seed to rule out an unlucky point")
        text = (f"The neurovariety of {self.model} has dimension {self.dimension}\n{exp}; "
                f"the generic fiber has dimension {self.fiber_dimension}.")
        if self.failure_probability is not None and self.failure_probability >= 1:
            # Schwartz-Zippel says nothing when the degree of the map exceeds the field's size (a
            # deep stack): the rank at a point is still a lower bound of the generic rank
            text += (f"\nThe failure bound of the random point is vacuous here (the degree of the map "
                     f"exceeds the size of {self.field}): {self.dimension} is proved a lower bound of the "
                     "dimension (the rank at a point), not proved equal to it.")
        return text

    def _repr_html_(self):
        r"""
        Return an HTML table of the report (Jupyter's rich display).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: h = LightningAttention(d=2, t=2, a=1).dimension_report(seed=0)._repr_html_()
            sage: '<tr><th>dimension</th><td>4</td></tr>' in h
            True

        Without a formula the table says so, in the words of ``repr``::

            sage: from sage_attention import Network, attention, dense
            sage: B = Network([attention(a=2, out=3), dense(out=4, r=2), dense(out=3)], d=3, t=2)
            sage: h = B.dimension_report(seed=0)._repr_html_()
            sage: 'None' in h, '<tr><th>defect</th><td>none: no formula to compare with</td></tr>' in h
            (False, True)
        """
        from sage_attention.misc.html import html_table
        rows = ([("model", self.model), ("dimension", self.dimension)]
                + self.comparison_rows()
                + [("parameters", self.parameters),
                   ("parameter dimension", self.parameter_dimension),
                   ("fiber dimension", self.fiber_dimension),
                   ("failure probability", self.failure_probability),
                   ("seed", self.seed), ("method", self.method)])
        return html_table(rows, caption="Dimension of the neurovariety")

    def to_dict(self):
        r"""
        Return the report as a JSON-able dictionary.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: d = LightningAttention(d=2, t=2, a=1).dimension_report(seed=0).to_dict()
            sage: d['dimension'], d['expected_dimension'], d['agrees'], d['defect']
            (4, 4, True, 0)
        """
        d = asdict(self)
        d["expected_dimension"] = self.expected
        d["agrees"] = self.agrees
        d["defect"] = self.defect
        return d

    def is_well_defined(self):
        r"""
        Check the report's internal consistency.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=1, a=1).dimension_report(seed=0).is_well_defined()
            True
        """
        return (0 <= self.dimension <= self.parameter_dimension
                and (self.ambient_dimension is None
                     or self.dimension <= self.ambient_dimension)
                and self.fiber_dimension == self.parameter_dimension - self.dimension
                and 0 <= self.failure_probability <= 1)


@dataclass(frozen=True)
class FiberReport:
    r"""
    The generic fiber of a parametrization and its known symmetries.

    Attributes: ``model``, ``fiber_dimension``, ``symmetry_group`` (a
    description), ``symmetry_dimension``, ``identifiable_up_to_symmetry``,
    ``statement`` (in words), ``dimension``, ``seed``.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: F = LightningAttention(d=2, t=2, a=1, weight_space='AV').fibers(seed=0)
        sage: F.symmetry_group, F.fiber_dimension
        ('K^*', 1)
    """
    model: str
    fiber_dimension: int
    symmetry_group: str
    symmetry_dimension: int
    identifiable_up_to_symmetry: bool
    statement: str
    dimension: int
    seed: object

    def __repr__(self):
        head = f"Generic fibers of {self.model} have dimension {self.fiber_dimension}"
        if self.identifiable_up_to_symmetry:
            head += f" = dim({self.symmetry_group})"
        return head + ":\n" + self.statement + "."

    def _repr_html_(self):
        r"""
        Return an HTML table of the report (Jupyter's rich display).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: h = LightningAttention(d=2, t=2, a=1).fibers(seed=0)._repr_html_()
            sage: '<tr><th>fiber dimension</th><td>2</td></tr>' in h
            True
        """
        from sage_attention.misc.html import html_table
        return html_table([("model", self.model), ("fiber dimension", self.fiber_dimension),
                           ("symmetry group", self.symmetry_group),
                           ("symmetry dimension", self.symmetry_dimension),
                           ("identifiable up to symmetry", self.identifiable_up_to_symmetry),
                           ("dimension", self.dimension), ("statement", self.statement)],
                          caption="Generic fibers")

    def to_dict(self):
        r"""
        Return the report as a JSON-able dictionary.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=2, a=1).fibers(seed=0).to_dict()['symmetry_dimension']
            2
        """
        return asdict(self)
