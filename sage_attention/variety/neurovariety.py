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

.. IMPORTANT::

    Test membership with ``X.contains(f)`` (composition with the
    parametrization, no Gröbner basis: milliseconds), not with
    ``f in X.vanishing_ideal()`` (Sage's generic membership computes a
    Gröbner basis of the whole ideal first, which can take minutes).
"""
# sage.doctest: needs sage.libs.singular
import logging

from sage.all__sagemath_singular import SageObject, UniqueRepresentation, cached_method

from sage_attention.errors import ComputationTooLarge
from sage_attention.keywords import keyword_hints
from sage_attention.progress import Heartbeat, interruptible, redelivering_interrupts
from sage_attention.sizes import check_size
# ``algorithm=None`` interpolates through DEFAULT_INTERPOLATION_DEGREE with the
# whole-ideal proof, and eliminates when that proof fails and there are at most
# ELIMINATION_DEFAULT_LIMIT essential coordinates (defined in sizes.py, so that
# ``sage-attention check`` evaluates the same guards)
from sage_attention.sizes import DEFAULT_INTERPOLATION_DEGREE, ELIMINATION_DEFAULT_LIMIT  # noqa: F401
from sage_attention.sizes import HIGHER_DEGREE_MONOMIAL_LIMIT

logger = logging.getLogger("sage_attention")


#: ``minimal_generators_count`` refuses (without ``force=True``) a Singular
#: ``minbase`` in more variables than this, after the linear generators
#: are removed.
MINBASE_VARIABLE_LIMIT = 60


def _remove_linear(I):
    r"""
    Return ``(number of independent linear forms in I, the other generators
    as polynomials in the remaining variables)``.

    The linear forms are solved for their pivot variables, which are
    substituted in the other generators; the result lives in a polynomial
    ring of the remaining variables (which keep their names).
    """
    from sage.all__sagemath_singular import matrix, PolynomialRing
    R = I.ring()
    gens = [g for g in I.gens() if g]
    lin = [g for g in gens if g.degree() == 1 and g.is_homogeneous()]
    rest = [g for g in gens if not (g.degree() == 1 and g.is_homogeneous())]
    if not lin:
        return 0, R, rest
    n = R.ngens()
    # a sparse matrix read off the terms (thousands of relations in tens of thousands of
    # coordinates, a few terms each: a dense matrix of monomial_coefficient calls took minutes)
    entries = {}
    for i, g in enumerate(lin):
        for e, c in g.dict().items():
            entries[i, e.nonzero_positions()[0]] = c
    A = matrix(R.base_ring(), len(lin), n, entries, sparse=True).echelon_form()
    piv = A.pivots()
    pivots = set(piv)
    keep = [j for j in range(n) if j not in pivots]
    if not keep:
        return len(piv), None, []
    S = PolynomialRing(R.base_ring(), [str(R.gen(j)) for j in keep],
                       order=R.term_order())
    from sage_attention.models.arguments import with_coordinate_latex_names
    with_coordinate_latex_names(S)
    images = [None] * n
    for j, x in zip(keep, S.gens()):
        images[j] = x
    rows = {}
    for (i, j), c in A.dict().items():       # the nonzero entries (a row of A is slow to read)
        rows.setdefault(i, []).append((j, c))
    for i, pj in enumerate(piv):
        # x_pj = - sum over the free columns of A[i, j] x_j
        images[pj] = -sum((c * images[j] for j, c in rows.get(i, ()) if j != pj), S.zero())
    phi = R.hom(images, S)
    return len(piv), S, [phi(g) for g in rest]


@redelivering_interrupts()
def minimal_generators_count(I, force=False, progress=False):
    r"""
    Return ``{degree: number}`` for a minimal generating set of a homogeneous ideal.

    The linear generators are removed first: they are solved for some of
    the variables, which are substituted in the other generators (for a
    homogeneous ideal `I` and a linear form `\ell \in I`, the minimal
    generators of `I` in degree at least `2` correspond to those of the
    image of `I` in `R/(\ell)`, again a polynomial ring). The other
    generators are then counted degree by degree in the remaining
    variables: those of degree `k` modulo a Gröbner basis of the
    lower-degree ones truncated at degree `k` (exact linear algebra over the
    base field); an inhomogeneous ideal goes to Singular's ``minbase``.
    The steps are logged at level ``INFO``.

    INPUT:

    - ``I`` -- a homogeneous ideal of a multivariate polynomial ring
    - ``force`` -- boolean (default: ``False``); run ``minbase`` (for an
      inhomogeneous ideal) even in more than :data:`MINBASE_VARIABLE_LIMIT`
      variables
    - ``progress`` -- boolean (default: ``False``); show each step and the
      seconds it has been running on standard error
      (:class:`~sage_attention.progress.Heartbeat`)

    EXAMPLES::

        sage: from sage_attention.variety.neurovariety import minimal_generators_count
        sage: R.<x,y> = QQ[]
        sage: minimal_generators_count(R.ideal([x^2, x^3, x*y, x^2*y]))
        {2: 2}

    Linear generators count in degree `1` (independent ones only), and a
    generator that is a multiple of them is not minimal::

        sage: R.<x,y,z> = QQ[]
        sage: minimal_generators_count(R.ideal([x - y, 2*x - 2*y, x^2 - y*z, y^2 - y*z, z^3]))
        {1: 1, 2: 1, 3: 1}

    TESTS:

    A homogeneous ideal is counted degree by degree, in any number of
    variables; ``minbase`` (an inhomogeneous ideal) is refused beyond the
    limit::

        sage: R = PolynomialRing(QQ, 'x', 70)
        sage: minimal_generators_count(R.ideal([R.gen(0)^2, R.gen(0)^3]))
        {2: 1}
        sage: minimal_generators_count(R.ideal([R.gen(0)^2 + R.gen(1)]))
        Traceback (most recent call last):
        ...
        ComputationTooLarge: a minimal basis (Singular minbase) in 70 variables is beyond this machine (limit 60); pass force=True to run it anyway
    """
    from sage.libs.singular.function import singular_function
    from sage_attention.errors import ComputationTooLarge
    import time
    if not (hasattr(I, "gens") and hasattr(I, "ring") and hasattr(I.ring(), "ngens")):
        raise TypeError(f"I (={I!r}) must be an ideal of a multivariate polynomial ring")
    gens = [g for g in I.gens() if g]
    if not gens:
        return {}
    with Heartbeat("minimal generators: the linear generators", progress):
        nlin, S, rest = _remove_linear(I)
    counts = {1: nlin} if nlin else {}
    rest = [g for g in rest if g]
    if not rest:
        return counts
    homogeneous = all(g.is_homogeneous() for g in rest)
    if not homogeneous and S.ngens() > MINBASE_VARIABLE_LIMIT and not force:
        raise ComputationTooLarge(f"a minimal basis (Singular minbase) in {S.ngens()} variables is "
                                  f"beyond this machine (limit {MINBASE_VARIABLE_LIMIT})", S.ngens(),
                                  force_helps=True)
    t0 = time.time()
    if homogeneous:
        # degree by degree: the generators of degree k modulo a Groebner
        # basis of the lower-degree ones truncated at k (exact), much
        # faster than minbase, which computes a whole standard basis
        from sage_attention.ideals.minimal_generators import minimal_generator_counts
        logger.info("minimal generators: %d homogeneous generators in %d variables (%d linear "
                    "generators removed), degree by degree", len(rest), S.ngens(), nlin)
        for k, c in minimal_generator_counts(S, rest, max(g.degree() for g in rest),
                                             progress=progress).items():
            counts[k] = counts.get(k, 0) + c
    else:
        logger.info("minimal generators: Singular minbase of %d generators in %d variables "
                    "(%d linear generators removed)", len(rest), S.ngens(), nlin)
        minbase = singular_function("minbase")
        with Heartbeat(f"minimal generators: Singular minbase in {S.ngens()} variables", progress):
            # in a forked child that Ctrl-C kills (Singular does not answer it)
            for k in interruptible(_minbase_degrees, S.ideal(rest)):
                counts[k] = counts.get(k, 0) + 1
    logger.info("minimal generators: %.2f s", time.time() - t0)
    return dict(sorted(counts.items()))


def minimal_basis(I):
    r"""
    Return a minimal generating set of the homogeneous ideal ``I`` (Singular's ``minbase``).

    INPUT:

    - ``I`` -- a homogeneous ideal of a multivariate polynomial ring

    OUTPUT: the list of the nonzero minimal generators

    EXAMPLES::

        sage: from sage_attention.variety.neurovariety import minimal_basis
        sage: R.<x,y> = QQ[]
        sage: sorted(minimal_basis(R.ideal([x^2, x^3, x*y, x^2*y])))
        [x*y, x^2]
    """
    from sage.libs.singular.function import singular_function
    return [g for g in singular_function("minbase")(I) if g]


def _minbase_degrees(I):
    """The degrees of the elements of Singular's ``minbase`` of ``I``."""
    return [int(g.degree()) for g in minimal_basis(I)]


def _proof_series(res):
    r"""
    Return the exact Hilbert data that the whole-ideal proof of the report ``res`` computed, or ``None``.
    """
    C = getattr(res, "certificate", None)
    if C is not None and C.proved and C.hilbert is not None and C.hilbert.certified:
        return C.hilbert
    return None


def _generators_missing(res):
    r"""
    Return whether the whole-ideal proof of the interpolation report ``res`` found the ideal too large in dimension.
    """
    C = getattr(res, "certificate", None)
    H = getattr(C, "hilbert", None)
    return H is not None and H.dimension is not None and H.dimension > C.dimension


@keyword_hints
class Neurovariety(UniqueRepresentation, SageObject):
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
        from sage_attention.ideals._checks import coordinate_model
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

    def vanishing_ideal_result(self, algorithm=None, degree=None, force=False):
        r"""
        Deprecated name of :meth:`vanishing_ideal_report`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: X = LightningAttention(d=2, t=2, a=2, entries=[(1, 1)]).neurovariety()
            sage: X.vanishing_ideal_result() is X.vanishing_ideal_report()
            doctest:warning...
            DeprecationWarning: vanishing_ideal_result is deprecated; use vanishing_ideal_report instead
            True
        """
        import warnings
        warnings.warn("vanishing_ideal_result is deprecated; use vanishing_ideal_report instead",
                      DeprecationWarning, stacklevel=2)
        return self.vanishing_ideal_report(algorithm, degree, force)

    def vanishing_ideal_report(self, algorithm=None, degree=None, force=False, progress=False):
        r"""
        Return the computation behind :meth:`vanishing_ideal` (cached).

        INPUT: as for :meth:`vanishing_ideal`

        OUTPUT: an :class:`~sage_attention.ideals.elimination.EliminationReport`
        or an :class:`~sage_attention.ideals.implicitization.ImplicitizationReport`

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: X = Neurovariety(LightningAttention(d=2, t=2, a=1, entries=[(1, 1)]))
            sage: R = X.vanishing_ideal_report(); R.proved_complete, R.certificate.method   # a Segre product
            (True, 'segre')

        Elimination on request (Singular, exact)::

            sage: X.vanishing_ideal_report(algorithm='elimination').weights
            'A = u*w^T'

        TESTS::

            sage: from sage_attention import SoftmaxAttention
            sage: Neurovariety(SoftmaxAttention(d=2, t=2, a=1)).vanishing_ideal_report()
            Traceback (most recent call last):
            ...
            ValueError: the vanishing ideal needs a lightning model with coordinates (one head, no mask, no residual stream); SoftmaxAttention(d=2, out=1, t=2, a=1) over Rational Field has none (for summed heads see sage_attention.variety.joins)
        """
        if not (self._model.is_lightning() and hasattr(self._model, "essential_coordinates")):
            raise ValueError("the vanishing ideal needs a lightning model with coordinates (one head, "
                             f"no mask, no residual stream); {self._model} has none (for summed heads "
                             "see sage_attention.variety.joins)")
        if degree is not None:
            from sage_attention.ideals._checks import positive_integer
            degree = positive_integer(degree, "degree")
        automatic = algorithm is None and degree is None
        algorithm = self._choose(algorithm, degree)
        if automatic and len(self._model.essential_coordinates()) <= ELIMINATION_DEFAULT_LIMIT:
            from sage_attention.fields import field_info, refusal
            if refusal("interpolation", field_info(self._model.base_ring())) is not None:
                algorithm = "elimination"       # e.g. a small prime field: elimination is valid there
                automatic = False
        if algorithm == "interpolation" and degree is None:
            degree = DEFAULT_INTERPOLATION_DEGREE
        # the automatic choice has its own key: it may end in another degree or in elimination,
        # and a call that asks for them gets exactly what it asks for
        key = ("automatic",) if automatic else (algorithm, degree if algorithm == "interpolation" else None)
        if key in self._results:
            return self._results[key]
        if algorithm == "elimination":
            res = self._eliminate(force, progress)
        else:
            small = len(self._model.essential_coordinates()) <= ELIMINATION_DEFAULT_LIMIT
            try:
                res = self._interpolate(degree, force, progress)
            except ComputationTooLarge as e:
                if not (automatic and small):
                    raise
                # the engine's table is beyond the memory limit: a small model is eliminated
                # (what ``sage-attention check`` estimates for it)
                logger.info("interpolation of %s refused (%s); eliminating", self._model, e.reason)
                res = self._eliminate(force, progress)
                self._results[key] = res
                return res
            if automatic and small and not res.proved_complete and not res.interrupted:
                res = self._higher_degrees(res, force, progress)
            if automatic and small and not res.proved_complete and not res.interrupted:
                # not proved whole: elimination decides (small enough)
                logger.info("interpolation of %s not proved complete; eliminating", self._model)
                res = self._eliminate(force, progress)
            elif not res.proved_complete:
                logger.warning("interpolation of %s: complete through degree %s only, "
                               "not proved complete", self._model, res.complete_through_degree)
        if not getattr(res, "interrupted", False):
            self._results[key] = res
        return res

    def _eliminate(self, force, progress):
        r"""
        Return the elimination report (cached under ``('elimination', None)``).
        """
        key = ("elimination", None)
        if key not in self._results:
            from sage_attention.ideals.elimination import eliminate
            self._results[key] = eliminate(self._model, force=force, progress=progress)
        return self._results[key]

    def _interpolate(self, degree, force, progress):
        r"""
        Return the interpolation report through ``degree`` (cached under ``('interpolation', degree)`` unless interrupted).
        """
        key = ("interpolation", degree)
        if key in self._results:
            return self._results[key]
        from sage_attention.ideals.implicitization import implicitize
        res = implicitize(self._model, degree, force=force, progress=progress)
        if not res.interrupted:
            self._results[key] = res
        return res

    def _higher_degrees(self, res, force, progress):
        r"""
        Interpolate through higher degrees while generators are missing and the next degree is small.

        Generators are missing when the whole-ideal proof found the ideal of
        a larger dimension than the variety (its Hilbert series modulo `p`
        bounds the dimension over `\QQ` from above). The next degree `k` is
        computed while its `\binom{n + k - 1}{k}` monomials in the `n`
        essential coordinates are at most
        :data:`~sage_attention.sizes.HIGHER_DEGREE_MONOMIAL_LIMIT`; the first
        result proved whole, or the last one computed, is returned.
        """
        from math import comb
        n = len(self._model.essential_coordinates())
        while not res.proved_complete and not res.interrupted and _generators_missing(res):
            k = res.complete_through_degree + 1
            if comb(n + k - 1, k) > HIGHER_DEGREE_MONOMIAL_LIMIT:
                break
            logger.info("interpolation of %s: generators are missing; through degree %d", self._model, k)
            res = self._interpolate(k, force, progress)
        return res

    def _choose(self, algorithm, degree=None):
        if algorithm is None and degree is not None:
            # a degree bound asks for interpolation up to that degree
            return "interpolation"
        if algorithm is None:
            # the engine, with its whole-ideal proof; elimination only when that proof fails
            # (up to ELIMINATION_DEFAULT_LIMIT essential coordinates)
            return "interpolation"
        if algorithm not in ("elimination", "interpolation"):
            raise ValueError(f"algorithm (={algorithm!r}) must be None, 'elimination' or "
                             "'interpolation'")
        return algorithm

    def vanishing_ideal(self, algorithm=None, degree=None, force=False, progress=False):
        r"""
        Return the vanishing ideal in :meth:`ambient` (cached).

        INPUT:

        - ``algorithm`` -- (default: ``None``) ``'elimination'`` (Singular,
          :mod:`sage_attention.ideals.elimination`: exact, complete),
          ``'interpolation'`` (degree by degree,
          :mod:`sage_attention.ideals.implicitization`: complete through
          ``degree``, and proved complete when the result says so), or
          ``None``: interpolation through degree `4` with the whole-ideal
          proof (:mod:`sage_attention.ideals.completeness`); when it is not
          proved complete and there are at most 18 essential coordinates:
          if generators are missing (the proof found the ideal of a larger
          dimension than the variety), interpolation through the next
          degrees, one at a time, while a degree has at most
          :data:`~sage_attention.sizes.HIGHER_DEGREE_MONOMIAL_LIMIT`
          monomials, until it is proved; if still not proved, elimination.
          When ``degree`` is given, ``None`` means interpolation up to
          ``degree`` (the bound is respected)
        - ``degree`` -- (default: `4`) the degree bound of interpolation
        - ``force`` -- boolean (default: ``False``); run elimination even
          when the size guard refuses
        - ``progress`` -- boolean (default: ``False``); show the progress on
          standard error: the graded pieces of interpolation, the phases of
          elimination and the seconds each has been running (the Gröbner
          basis is one Singular call: no percentage)

        OUTPUT: an ideal of :meth:`ambient`: the linear relations and the
        nonlinear generators

        Ctrl-C (``KeyboardInterrupt``) during interpolation returns what
        finished, with ``interrupted`` set in :meth:`vanishing_ideal_report`
        (not cached: a later call computes again); during elimination it
        propagates (there is no partial Gröbner basis).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: M = LightningAttention(d=2, t=2, a=2, entries=[(1, 1)])
            sage: I = Neurovariety(M).vanishing_ideal(); len(I.gens())
            5
            sage: phi = M.parametrization()
            sage: all(phi(g) == 0 for g in I.gens())
            True

        The single token of width `3` and rank `2` (the ternary cubics with a
        linear factor) has no equation of degree at most `7`: the ideal found
        through degree `4` is zero, so generators are missing, and the
        interpolation goes on to its `35` octics, proved whole::

            sage: X = Neurovariety(LightningAttention(d=3, t=1, a=2))
            sage: R = X.vanishing_ideal_report()        # long time (2 s)
            sage: R.complete_through_degree, R.proved_complete, len(R.essential_generators)  # long time
            (8, True, 35)

        Asked for, the degree-`4` interpolation is what it is::

            sage: X.vanishing_ideal_report(degree=4).proved_complete      # long time
            False

        TESTS::

            sage: Neurovariety(LightningAttention(d=6, t=2, a=2)).vanishing_ideal(algorithm='elimination')
            Traceback (most recent call last):
            ...
            ComputationTooLarge: elimination over 126 essential coordinates is far beyond this machine (limit 60); algorithm='interpolation' computes the ideal degree by degree; pass force=True to run it anyway
        """
        return self.vanishing_ideal_report(algorithm, degree, force, progress).coordinate_ideal(force=force)

    @cached_method
    def essential_ideal(self):
        r"""
        Return the vanishing ideal restricted to the essential ring.

        The vanishing ideal is generated by the linear relations and this
        ideal (pulled back to :meth:`ambient`).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: Neurovariety(LightningAttention(d=2, t=2, a=2)).essential_ideal().ngens()
            1
        """
        # the whole ideal when elimination has computed it (e.g. ``algorithm='elimination'``)
        res = self._results.get(("elimination", None)) or self.vanishing_ideal_report()
        if hasattr(res, "essential_ideal"):
            return res.essential_ideal
        E = self._model.essential_ring()
        gens = [g for g in res.essential_generators if g]
        return E.ideal(gens if gens else [E.zero()])

    def minimal_generators_by_degree(self, progress=False):
        r"""
        Return ``{degree: number}`` of a minimal generating set of the vanishing ideal.

        The linear relations count in degree `1`; the others come from a
        minimal basis (Singular ``minbase``) of the homogeneous ideal in the
        essential coordinates.

        INPUT:

        - ``progress`` -- boolean (default: ``False``); show the steps on
          standard error (see :func:`minimal_generators_count`)

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

        - ``algorithm``, ``degree`` -- as for :meth:`vanishing_ideal`
        - ``groebner`` -- boolean (default: ``False``); return the generators
          of :meth:`vanishing_ideal` instead (for elimination a Gröbner basis)
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
        Return minimal generators of :meth:`essential_ideal` (engine's generators, checked against ``minbase``; cached).
        """
        if "engine generators" in self._results:
            return self._results["engine generators"]
        from sage.libs.singular.function import singular_function
        J = self.essential_ideal()
        gens = [g for g in J.gens() if g]
        if not gens:
            return []
        with Heartbeat(f"minimal generators: Singular minbase of {len(gens)} generators", progress):
            mb = interruptible(minimal_basis, J.ring().ideal(gens))
        counts = {}
        for g in mb:
            counts[int(g.degree())] = counts.get(int(g.degree()), 0) + 1
        from sage_attention.fields import field_info, refusal
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
            if res is not None and res.interrupted:
                raise KeyboardInterrupt
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

    def hilbert_data(self, betti=False, progress=False, timeout=None):
        r"""
        Return the Hilbert series, dimension, degree and graded Betti numbers of the coordinate ring.

        They are those of the essential ring modulo the essential ideal (the
        linear relations only remove variables). When the engine's ideal is
        proved whole (without ``betti``) they are read off its completeness
        certificate, which computed them modulo `32003`: by the claim of
        :mod:`sage_attention.ideals.completeness` they are then the data over
        the base field. Otherwise they are computed modulo the primes
        `32003` and `32009` (:func:`~sage_attention.ideals.hilbert.hilbert_data`)
        from the minimal generators. The Hilbert series is exact
        (``certified``) when the ideal was computed by elimination (it is
        then read off the leading monomials of the Gröbner basis over `\QQ`)
        or proved complete (sage_attention.ideals.completeness); otherwise the
        modular series bounds the rational one from above, coefficientwise,
        and the agreement of two primes is evidence. The Betti numbers are
        those modulo `32003`, checked modulo `32009`.

        INPUT:

        - ``betti`` -- boolean (default: ``False``); also compute the graded
          Betti numbers (a minimal free resolution: slow beyond a dozen
          coordinates)
        - ``progress`` -- boolean (default: ``False``); show each step (the
          vanishing ideal, the minimal generators, the series and the
          resolution modulo each prime) and the seconds it has been running
          on standard error
        - ``timeout`` -- (default: ``None``) seconds for each resolution, or
          ``None`` for no limit; when hit, ``betti`` is ``None`` and the
          result's ``notes`` say so

        OUTPUT: a :class:`~sage_attention.ideals.hilbert.HilbertData` (cached)

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: X = Neurovariety(LightningAttention(d=2, t=2, a=1, entries=[(1, 1)]))
            sage: X.hilbert_data()
            Hilbert data modulo 32003 (equal to the data over QQ (proved)): dimension 4, degree 3
            sage: H = X.hilbert_data(betti=True); H.betti
            [{0: 1}, {2: 3}, {3: 2}]

        The data of an ideal not proved whole say so: the token of width `4`
        and rank `3` has no equation through degree `4`, so these are the
        data of the zero ideal (its degree, by
        :mod:`sage_attention.ideals.common_factor`, is `220`)::

            sage: X = Neurovariety(LightningAttention(d=4, t=1, a=3))
            sage: X.hilbert_data()
            interpolation of LightningAttention(d=4, out=1, t=1, a=3) over Rational Field: complete through degree 4 only, not proved complete
            Hilbert data modulo 32003 and 32009 (they agree): dimension 20, degree 1;
            these are the data of the ideal found (complete through degree 4), not proved to be the whole vanishing ideal: its dimension is at least the variety's (13 by Jacobian rank), and when they agree its degree is at least the variety's
        """
        from sage_attention.errors import ComputationTooLarge
        from sage_attention.ideals._checks import seconds
        timeout = seconds(timeout, "timeout")
        key = self._hilbert_key(betti, timeout)
        if key not in self._results:
            try:
                self._results[key] = self._hilbert_data(bool(betti), progress, timeout)
            except ComputationTooLarge as e:
                raise self._beyond(e, "the Hilbert data") from None
        return self._results[key]

    @staticmethod
    def _hilbert_key(betti=False, timeout=None):
        r"""
        Return the key under which :meth:`hilbert_data` caches its result.
        """
        return ("hilbert data", bool(betti), timeout)

    def _hilbert_data(self, betti, progress, timeout=None):
        from sage_attention.ideals.hilbert import hilbert_data, HilbertData, series_data
        res = self.vanishing_ideal_report(progress=progress)
        C = getattr(res, "certificate", None)
        if not betti and _proof_series(res) is not None:
            # the proof computed the Hilbert series of the reduction J_p, and it equals the
            # one over the base field (sage_attention.ideals.completeness, the claim)
            H = C.hilbert
            return HilbertData(numerator=H.numerator, dimension=H.dimension, degree=H.degree, betti=None,
                               primes=H.primes, agree=True, certified=True, timings=dict(C.timings))
        E = self._model.essential_ring()
        gens = [E(g) for g in self._engine_or_minimal(progress)]
        H = hilbert_data(gens, E, betti=betti, progress=progress, timeout=timeout)
        certified = bool(getattr(res, "proved_complete", False))
        notes = tuple(H.notes)
        if not certified and not getattr(res, "proved_complete", True):
            rank = self._jacobian_dimension(None)
            notes += (f"these are the data of the ideal found (complete through degree "
                      f"{res.complete_through_degree}), not proved to be the whole vanishing ideal: its "
                      "dimension is at least the variety's"
                      + (f" ({rank} by Jacobian rank)" if rank is not None else "")
                      + ", and when they agree its degree is at least the variety's",)
        if certified and C is not None and not C.certifies_series(H.numerator, H.dimension):
            certified = False
            notes += (f"the whole ideal is proved over QQ ({C.method}), but the Hilbert series is that of its "
                      "reductions modulo the primes, coefficientwise an upper bound of the true one, not proved "
                      "equal to it",)
        if not hasattr(res, "complete_through_degree"):
            # elimination: the essential ideal is generated by a Groebner basis over QQ
            gb = [g for g in res.essential_ideal.gens() if g]
            from sage.all__sagemath_singular import GF
            Ep = E.change_ring(GF(32003))
            num, dim, deg = series_data(Ep.ideal([Ep(g.lm()) for g in gb] if gb else [Ep.zero()]))
            certified = (num, dim, deg) == (H.numerator, H.dimension, H.degree)
            if not certified:
                logger.warning("the modular Hilbert series of %s differs from the exact one; using the exact one",
                               self._model)
                return HilbertData(numerator=num, dimension=dim, degree=deg, betti=None, primes=(),
                                   agree=True, certified=True)
        return HilbertData(numerator=H.numerator, dimension=H.dimension, degree=H.degree, betti=H.betti,
                           primes=H.primes, agree=H.agree, certified=certified, timings=H.timings, notes=notes)

    def _engine_or_minimal(self, progress=False):
        res = self.vanishing_ideal_report(progress=progress)
        if hasattr(res, "complete_through_degree"):
            return list(res.essential_generators)
        return self._engine_generators(progress)

    def krull_dimension(self, progress=False):
        r"""
        Return the Krull dimension of the coordinate ring of the affine cone.

        This is the dimension of the (affine) neurovariety, the one
        :meth:`dimension` computes by Jacobian rank; the projective variety
        has dimension one less (:meth:`projective_dimension`). It is read off
        the exact Hilbert series of the vanishing ideal when there is one at
        hand (given by its proof, or by elimination; ``progress`` as in
        :meth:`hilbert_data`), or taken from the theorem of
        :mod:`sage_attention.ideals.common_factor` where it applies (as
        :meth:`degree`). Otherwise (the ideal is not proved whole, its proof
        gives no Hilbert series, or it is beyond this machine) it is the
        Jacobian rank (:meth:`dimension`: a certified lower bound, equal to
        the dimension with high probability); the Hilbert series of the ideal
        found, which would only bound it from above, is not computed.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: Neurovariety(LightningAttention(d=2, t=1, a=1)).krull_dimension()
            4

        A model whose vanishing ideal is beyond this machine (its monomials
        of degree `4` alone would need hundreds of GiB) has a dimension all
        the same::

            sage: X = Neurovariety(LightningAttention(d=8, t=3, a=4))
            sage: X.krull_dimension()
            55
            sage: X.degree()
            Traceback (most recent call last):
            ...
            ComputationTooLarge: the degree of the neurovariety of LightningAttention(d=8, out=1, t=3, a=4) over Rational Field needs its vanishing ideal, which is beyond this machine here: the table of the 292664520 monomials of degree 4 in 288 essential coordinates needs about 632.4 GiB of memory (limit ...); vanishing_ideal(degree=...) computes it through degree ..., the largest whose table fits (...), and dimension() the dimension (Jacobian rank)
        """
        from sage_attention.errors import ComputationTooLarge
        try:
            known = self._degree_by_theorem(progress)
        except ComputationTooLarge:
            # the vanishing ideal is beyond this machine: the dimension needs none
            rank = self._jacobian_dimension(None)
            if rank is None:
                raise
            logger.info("krull_dimension of %s: the vanishing ideal is beyond this machine; the Jacobian rank",
                        self._model)
            return rank
        if known is not None:
            return known[1]
        if not self._exact_series_at_hand(progress):
            # the Hilbert series of the ideal found would only bound the dimension from above
            # (and may not finish): the Jacobian rank is the dimension
            rank = self._jacobian_dimension(None)
            if rank is not None:
                return rank
        H = self.hilbert_data(progress=progress)
        # not proved: when generators are missing the ideal found cuts out more than the variety
        return int(H.dimension) if H.certified else self._jacobian_dimension(H.dimension)

    def _beyond(self, error, what):
        r"""
        Return the :class:`~sage_attention.errors.ComputationTooLarge` of ``what`` when the vanishing ideal is beyond this machine.

        The library's refusal names fixes (``force=True``, a lower degree)
        that :meth:`degree` and :meth:`hilbert_data` do not take; this one
        names what the user can call instead.
        """
        from sage_attention.errors import ComputationTooLarge
        # the degree the refusal found to fit, when it found one (else none is promised)
        fits = error.degree
        lower = (f"vanishing_ideal(degree={fits}) computes it through degree {fits}, the "
                 "largest whose table fits" if fits else
                 "vanishing_ideal(degree=k) computes it through a lower degree k where that fits")
        return ComputationTooLarge(f"{what} of the neurovariety of {self._model} needs its vanishing ideal, "
                                   f"which is beyond this machine here: {error.reason}", error.estimate,
                                   hint=f"{lower} (sage_attention.ideals.hilbert.hilbert_data(gens, ring) "
                                   "gives the Hilbert data of any ideal), and dimension() the dimension "
                                   "(Jacobian rank)")

    def _exact_series_at_hand(self, progress=False):
        r"""
        Return whether the vanishing ideal's Hilbert series is exact and cheap: given by its proof, or by elimination.
        """
        res = self.vanishing_ideal_report(progress=progress)
        if not hasattr(res, "complete_through_degree"):
            return True         # elimination: the leading monomials of a Groebner basis over QQ
        return _proof_series(res) is not None

    def projective_dimension(self):
        r"""
        Return the dimension of the projective neurovariety.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: Neurovariety(LightningAttention(d=2, t=1, a=1)).projective_dimension()
            3
        """
        return self.krull_dimension() - 1

    def degree(self, progress=False):
        r"""
        Return the degree of the projective neurovariety (that of the affine cone).

        Read off :meth:`hilbert_data` of the vanishing ideal proved whole
        (computed modulo primes; exact when ``hilbert_data().certified``;
        ``progress`` as there). When the vanishing ideal is proved by a
        structure that gives no Hilbert series (inheritance), or is not
        proved, and the variety is one of forms with a common linear factor
        (the one-entry slices of rank at least two, the single tokens of rank
        at least two), the degree is that of the theorem of
        :mod:`sage_attention.ideals.common_factor` (exact; its structure is
        checked exactly, and its dimension must be the Jacobian rank): the
        Hilbert series of thousands of generators in 40 or more coordinates
        would not finish. Otherwise, when the ideal found is not proved
        whole, the degree is not known and a ``ValueError`` says why and
        what to compute (the degree of the ideal found would only bound the
        variety's from above); when the vanishing ideal is beyond this
        machine, a :class:`~sage_attention.errors.ComputationTooLarge` says so.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: Neurovariety(LightningAttention(d=2, t=2, a=2, entries=[(1, 1)])).degree()
            4

        The single token of width `4` and rank `2` (the cubics with a linear
        factor) has no equation of degree at most `4`; its degree is the
        theorem's. Given by the weights `A = K^T Q` and `V`, the same model
        gives no structure: the ideal found is not proved whole and cuts out
        more than the variety (generators of higher degree are missing), so
        the degree is not known and the error says so; the dimension is then
        the Jacobian rank::

            sage: Neurovariety(LightningAttention(d=4, t=1, a=2)).degree()
            interpolation of LightningAttention(d=4, out=1, t=1, a=2) over Rational Field: complete through degree 4 only, not proved complete
            220
            sage: T = Neurovariety(LightningAttention(d=4, t=1, a=2, weight_space='AV'))
            sage: T.degree()
            Traceback (most recent call last):
            ...
            ValueError: the degree of the neurovariety of LightningAttention(...) over Rational Field is not known: the ideal found (complete through degree 4) has dimension 20 and the variety 13, so generators of higher degree are missing; ...
            sage: T.krull_dimension()
            13

        The slice of width `4` and rank `2`, proved by inheritance::

            sage: X = Neurovariety(LightningAttention(d=4, t=2, a=2, out=1, entries=[(1, 1)]))
            sage: X.degree(), X.krull_dimension()
            (7280, 15)
        """
        from sage_attention.errors import ComputationTooLarge
        try:
            known = self._degree_by_theorem(progress)
        except ComputationTooLarge as e:
            raise self._beyond(e, "the degree") from None
        if known is not None:
            return known[0]
        res = self.vanishing_ideal_report(progress=progress)
        if not getattr(res, "proved_complete", True):
            # the Hilbert series of an ideal not proved whole bounds the degree only from above,
            # when its dimension is right, and would not finish on the largest ones
            through = res.complete_through_degree
            C = getattr(res, "certificate", None)
            missing = _generators_missing(res)
            why = (f"the ideal found (complete through degree {through}) has dimension {C.hilbert.dimension} "
                   f"and the variety {C.dimension}, so generators of higher degree are missing"
                   if missing else f"the ideal found (complete through degree {through}) is not proved to "
                   "be the whole vanishing ideal, and the degree of its Hilbert series would bound the "
                   "variety's only from above")
            raise ValueError(f"the degree of the neurovariety of {self._model} is not known: {why}; compute "
                             "the vanishing ideal through a higher degree or with a longer proof "
                             "(sage_attention.ideals.implicitization.implicitize(model, degree, prove=600)), or by "
                             "elimination (vanishing_ideal(algorithm='elimination'), at most 60 essential "
                             "coordinates)")
        H = self.hilbert_data(progress=progress)
        return int(H.degree)

    def _jacobian_dimension(self, otherwise):
        r"""
        Return the dimension by Jacobian rank (an integer), or ``otherwise`` where it cannot be computed (a small field).

        The rank is computed once, with the seed `0` (so the same number
        every time, reproducible by ``model.dimension(seed=0)``), and cached:
        :meth:`krull_dimension`, the note of :meth:`hilbert_data` and the
        theorem's check in :meth:`degree` share it.
        """
        key = "jacobian rank"
        if key not in self._results:
            try:
                self._results[key] = int(self._model.dimension(seed=0))
            except (ValueError, ArithmeticError):
                self._results[key] = None
        rank = self._results[key]
        if rank is None:
            return None if otherwise is None else int(otherwise)
        return rank

    def _degree_by_theorem(self, progress=False):
        r"""
        Return ``(degree, dimension)`` by :mod:`sage_attention.ideals.common_factor`, or ``None``.

        ``None`` when exact Hilbert data are known (computed, or given by the
        proof of the vanishing ideal), when the theorem does not apply, or
        when its dimension is not the Jacobian rank (or that rank cannot be
        computed). The answer is cached, so that :meth:`degree` and
        :meth:`krull_dimension` check the structure and compute the Jacobian
        rank once.
        """
        H = self._results.get(self._hilbert_key())
        if H is not None and H.certified:
            return None
        key = "degree by theorem"
        if key not in self._results:
            self._results[key] = self._compute_degree_by_theorem(progress)
        return self._results[key]

    def _compute_degree_by_theorem(self, progress=False):
        res = self.vanishing_ideal_report(progress=progress)
        if _proof_series(res) is not None:
            return None
        from sage_attention.ideals.common_factor import common_factor_degree
        known = common_factor_degree(self._model)
        if known is None or known[1] != self._jacobian_dimension(None):
            return None
        return known

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
