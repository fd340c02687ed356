r"""
The options of the metric statements: ``ed_degree``, ``critical_points``, ``decision_boundary``

The statements of metric algebraic geometry take options that are not
integers or words alone: the data point is ``random`` or a list of numbers,
a threshold is a rational number, ``projective`` is ``true`` or
``false``, the outputs of a decision boundary are one or two output rows.
A :class:`MetricOption` is an :class:`~sage_attention.catalog.options.Option`
with these kinds; it checks a value as parsed and names the fix in the words
a spec writes. The table :data:`~sage_attention.catalog.computations.COMPUTATIONS`
declares the statements with them. This module imports no Sage.

EXAMPLES::

    sage: from sage_attention.catalog.metric_options import DATA_OPTION, THRESHOLD_OPTION
    sage: DATA_OPTION.problem("random") is None, DATA_OPTION.problem((1, -2)) is None
    (True, True)
    sage: print(DATA_OPTION.problem("randm").fix)
    write `data = random`
    sage: THRESHOLD_OPTION.problem("one")
    Problem(message='`threshold` (=one) must be a rational number', key='threshold',
            fix='write a number, e.g. `threshold = 1` or `threshold = 1/2`')
"""
import operator
from dataclasses import dataclass
from fractions import Fraction

from sage_attention.misc.text import did_you_mean, format_value
from sage_attention.catalog.options import Option, Problem


def _is_number(value):
    """Whether ``value`` is an integer or a fraction as parsed (not a boolean)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, Fraction):
        return True
    try:
        operator.index(value)
        return True
    except TypeError:
        return False


@dataclass(frozen=True)
class MetricOption(Option):
    r"""
    An option of a metric statement.

    INPUT: as for :class:`~sage_attention.catalog.options.Option`, with
    ``kind`` one of

    - ``"data"`` -- a word of ``choices`` (``random``) or, if
      ``choices`` has more than that, a list of numbers in brackets;
    - ``"bool"`` -- ``true`` or ``false``;
    - ``"number"`` -- an integer or a fraction (``1/2``, ``0.5``);
    - ``"outputs"`` -- a list of one or two distinct positive integers.

    EXAMPLES::

        sage: from sage_attention.catalog.metric_options import MetricOption
        sage: o = MetricOption("spurious", "bool", "decompose the spurious locus", default=True)
        sage: o.problem(True) is None, o.problem("yes").fix
        (True, 'write `spurious = true` or `spurious = false`')
        sage: o.describe()
        'spurious -- true or false (default: True); decompose the spurious locus'
        sage: MetricOption("outputs", "outputs").problem((1, 1)).message
        '`outputs` (=[1, 1]) must be a list of one or two distinct output rows (integers >= 1)'
    """
    #: whether ``data`` also takes a list of numbers
    point: bool = True

    def type_text(self):
        r"""
        Return what the value must be, in words.

        EXAMPLES::

            sage: from sage_attention.catalog.metric_options import DATA_OPTION, NO_POINT_DATA_OPTION
            sage: DATA_OPTION.type_text(), NO_POINT_DATA_OPTION.type_text()
            ('random or a list of numbers in brackets', 'random')
        """
        if self.kind == "data":
            words = " or ".join(self.choices)
            return words + (" or a list of numbers in brackets" if self.point else "")
        if self.kind == "bool":
            return "true or false"
        if self.kind == "number":
            return "a rational number"
        if self.kind == "outputs":
            return "a list of one or two distinct output rows (integers >= 1)"
        return Option.type_text(self)

    def problem(self, value, model=None):
        r"""
        Return what is wrong with ``value`` (a :class:`~sage_attention.catalog.options.Problem` with its fix), or ``None``.

        EXAMPLES::

            sage: from sage_attention.catalog.metric_options import DATA_OPTION, OUTPUTS_OPTION
            sage: DATA_OPTION.problem(()).fix
            'write `data = random` or the values in brackets, e.g. `data = [1, -1/2]`'
            sage: OUTPUTS_OPTION.problem((2, 1)) is None, OUTPUTS_OPTION.problem((0,)).fix
            (True, 'write the output rows, 1-based, e.g. `outputs = [1, 2]`')
        """
        shown = format_value(value)
        subject = f"`{self.name}` (={shown})"
        if self.kind == "data":
            if isinstance(value, str) and value in self.choices:
                return None
            if self.point and isinstance(value, tuple) and value and all(_is_number(v) for v in value):
                return None
            close = did_you_mean(value, self.choices) if isinstance(value, str) else ""
            fix = "write " + " or ".join(f"`{self.name} = {c}`" for c in self.choices)
            if self.point and not close:
                fix += f" or the values in brackets, e.g. `{self.name} = [1, -1/2]`"
            return Problem(f"{subject} must be {self.type_text()}{close}", self.name, fix)
        if self.kind == "bool":
            if isinstance(value, bool):
                return None
            return Problem(f"{subject} must be {self.type_text()}", self.name,
                           f"write `{self.name} = true` or `{self.name} = false`")
        if self.kind == "number":
            if _is_number(value):
                return None
            return Problem(f"{subject} must be {self.type_text()}", self.name,
                           f"write a number, e.g. `{self.name} = 1` or `{self.name} = 1/2`")
        if self.kind == "outputs":
            ok = (isinstance(value, tuple) and len(value) in (1, 2) and len(set(value)) == len(value)
                  and all(_is_number(v) and not isinstance(v, Fraction) and v >= 1 for v in value))
            if ok:
                return None
            return Problem(f"{subject} must be {self.type_text()}", self.name,
                           f"write the output rows, 1-based, e.g. `{self.name} = [1, 2]`")
        return Option.problem(self, value, model)


#: The metrics of ``ed_degree`` and ``critical_points`` (Bombieri-Weyl: polynomial networks).
METRIC_OPTION = Option("metric", "choice", "the inner product of the distance: a random symmetric Gram "
                       "matrix (`generic`), the standard one of the coordinates (`euclidean`), or the "
                       "invariant one of forms (`bombieri_weyl`: networks of dense layers without biases "
                       "or residual streams)", default="generic",
                       choices=("generic", "euclidean", "bombieri_weyl"))

#: The metrics of ``decision_boundary`` (in input space, where forms have no Bombieri-Weyl weights).
BOUNDARY_METRIC_OPTION = Option("metric", "choice", "the inner product of input space: the standard one "
                                "(`euclidean`) or a random symmetric Gram matrix (`generic`)",
                                default="euclidean", choices=("euclidean", "generic"))

#: The data point of ``ed_degree`` and ``decision_boundary``.
DATA_OPTION = MetricOption("data", "data", "the data point: random, or one value per coordinate (per input "
                           "of a decision boundary); at given data a count at random data says whether it "
                           "drops", default="random", choices=("random",))

#: The data of ``critical_points``: the loss is counted at random data only.
NO_POINT_DATA_OPTION = MetricOption("data", "data", "the data of the loss: random (in the chart of the "
                                    "weights, over GF(p))", default="random", choices=("random",),
                                    point=False)

#: ``projective`` of ``ed_degree``.
PROJECTIVE_OPTION = MetricOption("projective", "bool", "`true`: the ED degree of the projective variety "
                                 "(homogeneous coordinates: an affine cone); `false`: of the affine "
                                 "variety (for a cone, the same number)",
                                 default_doc="the cone when the coordinates are homogeneous")

#: ``spurious`` of ``critical_points``.
SPURIOUS_OPTION = MetricOption("spurious", "bool", "decompose the spurious critical locus (where the "
                               "Jacobian drops rank) by dimension", default=True, default_doc="true")

#: ``threshold`` of ``decision_boundary``.
THRESHOLD_OPTION = MetricOption("threshold", "number", "a scalar boundary is f = threshold",
                                default=0, default_doc="0")

#: ``outputs`` of ``decision_boundary``.
OUTPUTS_OPTION = MetricOption("outputs", "outputs", "two output rows i, j: the boundary f_i = f_j; one "
                              "row i: f_i = threshold", default_doc="[1, 2] with two outputs or more, "
                              "else [1]")


__all__ = ["MetricOption", "METRIC_OPTION", "BOUNDARY_METRIC_OPTION", "DATA_OPTION", "NO_POINT_DATA_OPTION",
           "PROJECTIVE_OPTION", "SPURIOUS_OPTION", "THRESHOLD_OPTION", "OUTPUTS_OPTION"]
