r"""
The neurovariety of a model

:class:`Neurovariety` is the object a researcher holds: the Zariski closure
of the image of the parametrization of a lightning attention model
[HMK2024]_, [ADM2026]_. It lives in the affine space of coefficient
coordinates (:meth:`ambient` is its coordinate ring); since the
parametrization is homogeneous, it is an affine cone, and the projective
variety it defines has one dimension less.

EXAMPLES:

The one-entry slice of width `2`, two tokens, rank one::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.variety.neurovariety import Neurovariety
    sage: M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
    sage: X = Neurovariety(M); X
    Neurovariety of LightningAttention(d=2, out=1, t=2, a=1, entries=((1, 1),)) over Rational Field
    sage: X is Neurovariety(M)
    True
    sage: X.minimal_generators_by_degree()
    {1: 4, 2: 3}
    sage: X.krull_dimension(), X.projective_dimension(), X.degree()
    (4, 3, 3)

The dimension agrees with the Jacobian rank (an independent computation)::

    sage: X.krull_dimension() == X.dimension(seed=0)
    True

Membership is exact (composition with the parametrization)::

    sage: C = X.ambient()
    sage: X.contains(X.vanishing_ideal().gens()[-1]), X.contains(C.gen(0))
    (True, False)

Its methods live beside it by concept: the vanishing ideal and the choice
between interpolation and elimination in
:mod:`~sage_attention.variety.vanishing_ideal`, the Hilbert series,
dimension and degree in :mod:`~sage_attention.variety.hilbert_invariants`;
its minimal generators are counted by
:mod:`sage_attention.ideals.minimal_generators`.

.. IMPORTANT::

    Test membership with ``X.contains(f)`` (composition with the
    parametrization, no Gröbner basis: milliseconds), not with
    ``f in X.vanishing_ideal()`` (Sage's generic membership computes a
    Gröbner basis of the whole ideal first, which can take minutes).
"""
# sage.doctest: needs sage.libs.singular
import logging

from sage.all__sagemath_singular import SageObject, UniqueRepresentation

from sage_attention.misc.errors import ComputationTooLarge
from sage_attention.misc.keywords import keyword_hints
from sage_attention.misc.progress import Heartbeat, interruptible, redelivering_interrupts
from sage_attention.settings import settings
# minimal generators were computed here: one implementation, in sage_attention.ideals;
# their old import path keeps working
from sage_attention.ideals.minimal_generators import minimal_basis, minimal_generators_count  # noqa: F401
from sage_attention.variety.hilbert_invariants import HilbertInvariants
from sage_attention.variety.vanishing_ideal import VanishingIdeal

logger = logging.getLogger("sage_attention")

#: the module constants that became tunables (:mod:`sage_attention.settings`)
_TUNABLES = ("DEFAULT_INTERPOLATION_DEGREE", "ELIMINATION_DEFAULT_LIMIT", "HIGHER_DEGREE_MONOMIAL_LIMIT",
             "MINBASE_VARIABLE_LIMIT")


def __getattr__(name):
    r"""
    Return the tunables once defined here (``MINBASE_VARIABLE_LIMIT``, ``HIGHER_DEGREE_MONOMIAL_LIMIT``, ...) from :data:`~sage_attention.settings.settings`.

    EXAMPLES::

        sage: from sage_attention.variety import neurovariety
        sage: from sage_attention.settings import settings
        sage: neurovariety.MINBASE_VARIABLE_LIMIT == settings.MINBASE_VARIABLE_LIMIT
        True
        sage: with settings.override(HIGHER_DEGREE_MONOMIAL_LIMIT=7):
        ....:     neurovariety.HIGHER_DEGREE_MONOMIAL_LIMIT
        7
    """
    if name in _TUNABLES:
        return getattr(settings, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@keyword_hints
class Neurovariety(VanishingIdeal, HilbertInvariants, UniqueRepresentation, SageObject):
    r"""
    The neurovariety of a lightning attention model.

    INPUT:

    - ``model`` -- a model from :func:`~sage_attention.LightningAttention`

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.neurovariety import Neurovariety
        sage: X = Neurovariety(LightningAttention(d=2, t=1, a=1))
        sage: X.model()
        LightningAttention(d=2, out=1, t=1, a=1) over Rational Field

    TESTS::

        sage: loads(dumps(X)) is X
        True
        sage: Neurovariety(3)
        Traceback (most recent call last):
        ...
        TypeError: model (=3) must be an AttentionNetwork
        sage: from sage_attention import PolynomialNetwork
        sage: Neurovariety(PolynomialNetwork([2, 1, 1], 3))
        Traceback (most recent call last):
        ...
        TypeError: model (=PolynomialNetwork(widths=(2, 1, 1), activation_degree=3) over Rational Field) must be an AttentionNetwork; for a network with dense layers, model.dimension_report() gives its dimension and sage_attention.ideals.stack_elimination.stack_vanishing_ideal(model) its vanishing ideal
    """

    @staticmethod
    def __classcall__(cls, model):
        from sage_attention.models import AttentionNetwork
        if not isinstance(model, AttentionNetwork):
            from sage_attention.models.stack import LayerStack
            hint = ("; for a network with dense layers, model.dimension_report() gives its dimension and "
                    "sage_attention.ideals.stack_elimination.stack_vanishing_ideal(model) its vanishing ideal"
                    if isinstance(model, LayerStack) else "")
            raise TypeError(f"model (={model!r}) must be an AttentionNetwork{hint}")
        return super().__classcall__(cls, model)

    def __init__(self, model):
        self._model = model
        self._results = {}

    def _repr_(self):
        return f"Neurovariety of {self._model}"

    def _latex_(self):
        r"""
        Return the LaTeX of the neurovariety: the closure of the image of the model's map.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: M = LightningAttention(d=3, t=2, a=2, out=1)
            sage: latex(M)
            \varphi^{\mathrm{light}}_{d=3,\, d'=1,\, t=2,\, a=2}
            sage: latex(Neurovariety(M))
            \overline{\mathrm{im}\,\varphi^{\mathrm{light}}_{d=3,\, d'=1,\, t=2,\, a=2}}
        """
        return r"\overline{\mathrm{im}\," + self._model._latex_() + "}"

    def model(self):
        r"""
        Return the model.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: Neurovariety(LightningAttention(d=2, t=2, a=2)).model().ranks
            (2,)
        """
        return self._model

    def ambient(self):
        r"""
        Return the coordinate ring of the ambient affine space.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: Neurovariety(LightningAttention(d=2, t=1, a=1)).ambient().ngens()
            4

        TESTS::

            sage: Neurovariety(LightningAttention(d=2, t=2, a=1, heads=2)).ambient()
            Traceback (most recent call last):
            ...
            ValueError: the ambient coordinate ring needs a lightning model with coordinates (one head, no mask, no residual stream); model (=LightningAttention(d=2, out=1, t=2, a=1, heads=2) over Rational Field) has several heads: on it use dimension or fibers (for summed heads of one layer see sage_attention.variety.joins.SummedHeads)
        """
        from sage_attention.models.checks import coordinate_model
        return coordinate_model(self._model, "the ambient coordinate ring").coordinate_ring()

    def dimension(self, seed=None):
        r"""
        Return the dimension of the affine cone, by Jacobian rank, as an integer.

        See :meth:`~sage_attention.models.polynomial.PolynomialAttentionNetwork.dimension`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: Neurovariety(LightningAttention(d=3, t=2, a=1)).dimension(seed=0)
            7
        """
        return self._model.dimension(seed=seed)

    def dimension_report(self, seed=None):
        r"""
        Return the dimension report of the model.

        See :meth:`~sage_attention.models.polynomial.PolynomialAttentionNetwork.dimension_report`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: Neurovariety(LightningAttention(d=3, t=2, a=1)).dimension_report(seed=0).agrees
            True
        """
        return self._model.dimension_report(seed=seed)

    def minimal_generators_by_degree(self, progress=False):
        r"""
        Return ``{degree: number}`` of a minimal generating set of the vanishing ideal.

        The linear relations count in degree `1`; the others come from a
        minimal basis (Singular ``minbase``) of the homogeneous ideal in the
        essential coordinates.

        INPUT:

        - ``progress`` -- boolean (default: ``False``); show the steps on
          standard error (see
          :func:`~sage_attention.ideals.minimal_generators.minimal_generators_count`)

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: Neurovariety(LightningAttention(d=2, t=2, a=2, entries=[(1, 1)])).minimal_generators_by_degree()
            {1: 4, 4: 1}
        """
        counts = minimal_generators_count(self.essential_ideal(), progress=progress)
        nlin = len(self._model.linear_relations())
        if nlin:
            counts[1] = counts.get(1, 0) + nlin
        return dict(sorted(counts.items()))

    @redelivering_interrupts()
    def minimal_generators(self, algorithm=None, degree=None, groebner=False, progress=False):
        r"""
        Return a minimal generating set of the vanishing ideal, as polynomials of :meth:`ambient`.

        The linear relations come first, then the nonlinear generators by
        increasing degree, in the coefficient coordinates (``Y11_x11x12x12``
        is the coefficient of `x_{11} x_{12}^2` in `Y_{11}`). They are the
        implicitization engine's generators: sparse, with small
        coefficients, each verified by exact composition. When the ideal
        was computed by elimination, the engine is run up to the largest
        degree of a minimal generator and its counts are checked against
        Singular's ``minbase`` of the Gröbner basis (the engine is complete
        through that degree, so its generators generate the ideal); if they
        disagree, ``minbase`` is returned.

        INPUT:

        - ``algorithm``, ``degree`` -- as for
          :meth:`~sage_attention.variety.vanishing_ideal.VanishingIdeal.vanishing_ideal`
        - ``groebner`` -- boolean (default: ``False``); return the generators
          of the vanishing ideal instead (for elimination a Gröbner basis)
        - ``progress`` -- boolean (default: ``False``); show the progress of
          each step on standard error (the vanishing ideal, ``minbase`` and
          the engine), with the seconds it has been running

        OUTPUT: a list of polynomials of :meth:`ambient`

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
            sage: X = Neurovariety(M)
            sage: G = X.minimal_generators(); [g.degree() for g in G]
            [1, 1, 1, 1, 2, 2, 2]
            sage: G[-1]
            -Y11_x12x12x21*Y11_x11x12x22 + Y11_x11x12x12*Y11_x12x21x22

        They generate the vanishing ideal (compared with Singular's elimination)::

            sage: X.ambient().ideal(G) == M.parametrization().kernel()
            True
            sage: len(X.minimal_generators(groebner=True)) >= len(G)
            True
        """
        res = self.vanishing_ideal_report(algorithm, degree, progress=progress)
        if groebner:
            return [g for g in res.ideal.gens() if g]
        C = self.ambient()
        E = self._model.essential_ring()
        toC = E.hom([C(x) for x in self._model.essential_coordinates()], C)
        lin = [C(f) for f in self._model.linear_relations()]
        if hasattr(res, "essential_generators") and hasattr(res, "complete_through_degree"):
            gens = list(res.essential_generators)
        else:
            gens = self._engine_generators(progress)
        gens = sorted(gens, key=lambda g: g.degree())
        return lin + [toC(g) for g in gens]

    def _engine_generators(self, progress=False):
        r"""
        Return minimal generators of the essential ideal (the engine's generators, checked against ``minbase``; cached).
        """
        if "engine generators" in self._results:
            return self._results["engine generators"]
        J = self.essential_ideal()
        gens = [g for g in J.gens() if g]
        if not gens:
            return []
        with Heartbeat(f"minimal generators: Singular minbase of {len(gens)} generators", progress):
            mb = interruptible(minimal_basis, J.ring().ideal(gens))
        counts = {}
        for g in mb:
            counts[int(g.degree())] = counts.get(int(g.degree()), 0) + 1
        from sage_attention.catalog.fields import field_info, refusal
        from sage_attention.ideals.implicitization import implicitize
        res, mine = None, None
        # a field the engine does not take (GF(2), say): minbase is the answer
        if not refusal("interpolation", field_info(self._model.base_ring())):
            try:
                res = implicitize(self._model, max(counts), seed=0, executor=False, prove=False,
                                  progress=progress)
            except ComputationTooLarge as e:
                # the engine's sparse generators are a nicety of elimination: beyond the memory
                # guard, minbase's generators are the answer
                logger.info("minimal generators: the engine is refused (%s); returning minbase", e.reason)
                res = None
            if res is not None:
                mine = {k: len(v) for k, v in res.generators_by_degree.items()}
        if res is not None and mine == counts and res.complete_through_degree == max(counts):
            out = list(res.essential_generators)
        elif res is None:
            out = [g / g.lc() if g.lc() else g for g in mb]
        else:
            logger.warning("minimal generators: the engine's counts %s differ from minbase %s; "
                           "returning minbase", mine, counts)
            out = [g * g.denominator() / g.lc().numerator() if g.lc() else g for g in mb]
        self._results["engine generators"] = out
        return out

    def contains(self, f):
        r"""
        Return whether the polynomial ``f`` vanishes on the neurovariety (exact).

        Delegates to :func:`~sage_attention.variety.membership.vanishes_on_model`
        (composition with the parametrization, no Gröbner basis). This is the
        fast way to test membership in the vanishing ideal: ``f in
        X.vanishing_ideal()`` computes a Gröbner basis of the whole ideal
        first (minutes where this takes milliseconds).

        INPUT:

        - ``f`` -- a polynomial of :meth:`ambient`, of the essential ring,
          or of any polynomial ring whose variables are named like
          coordinates of the model (converted by name, never by position);
          or a number (a constant)

        OUTPUT: boolean

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: M = LightningAttention(d=1, t=2, a=1)
            sage: X = Neurovariety(M)
            sage: all(X.contains(f) for f in M.linear_relations())
            True
            sage: X.contains(0), X.contains(1)
            (True, False)

        TESTS::

            sage: X.contains(PolynomialRing(QQ, 'z', 6).gen(0))
            Traceback (most recent call last):
            ...
            TypeError: f (=z0) must be a polynomial in the coordinate ring or the essential ring of the model; its variables z0 are not coordinates of LightningAttention(d=1, out=1, t=2, a=1) over Rational Field
            sage: X.contains('x')
            Traceback (most recent call last):
            ...
            TypeError: f (='x') must be a polynomial in the coordinate ring or the essential ring of the model
        """
        from sage_attention.variety.membership import vanishes_on_model
        return vanishes_on_model(self._model, f)

    def invariants(self, families=None, **options):
        r"""
        Return the invariant families of the model (see :mod:`sage_attention.invariants`).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: X = Neurovariety(LightningAttention(d=2, t=2, a=1, entries=[(1, 1)]))
            sage: len(X.invariants(['low_rank']))
            3
        """
        from sage_attention.invariants import invariants
        return invariants(self._model, families=families, **options)

    def certify(self, point, families=None, seed=None):
        r"""
        Return a certificate that ``point`` is or is not on the neuromanifold.

        See :func:`~sage_attention.variety.certificates.certify`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
            sage: Neurovariety(M).certify(M.coefficients_at(M.random_weights(seed=1))).status
            'realizable'
        """
        from sage_attention.variety.certificates import certify
        return certify(self._model, point, families=families, seed=seed)

    def ed_degree(self, metric="generic", data=None, seed=None, projective=None, backend=None, compare=False):
        r"""
        Return the ED degree of the neurovariety; see :func:`~sage_attention.variety.metric.network_ed_degree`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: X = Neurovariety(LightningAttention(d=2, t=1, a=1))
            sage: X.ed_degree('euclidean', seed=0).degree
            1
        """
        from sage_attention.variety.metric import network_ed_degree
        return network_ed_degree(self, metric, data=data, seed=seed, projective=projective, backend=backend,
                                 compare=compare)
