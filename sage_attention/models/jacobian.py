r"""
The generic rank of the Jacobian

The dimension of the neurovariety of a lightning network is the generic
rank of the Jacobian of its parametrization. Expanding the parametrization
is expensive (a deep network has degree `3^l` in the inputs), so the rank is
computed without it: at random weights `W` and random inputs
`X_1, \dots, X_N` over a field `F`, the derivatives of the outputs
`Y(X_n)` in every weight direction are computed exactly over `F`
(:mod:`sage_attention.models.derivatives`: reverse mode for lightning
stacks, forward mode for the others), and the rank of the stacked matrix is
taken. The Jacobian of `W \mapsto (Y(X_1), \dots, Y(X_N))` has the same
generic rank as the coefficient map once the inputs are generic and
numerous enough.

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.models.jacobian import jacobian_rank
    sage: jacobian_rank(LightningAttention(d=2, t=2, a=1), GF(67108859), 0)[0]
    4
"""
from sage.all__sagemath_singular import GF, QQ, zero_matrix  # noqa: F401  (zero_matrix: an old import path)
import logging
from math import ceil

from sage_attention.models.arguments import random_matrix
from sage_attention.models.guards import check_jacobian_size
from sage_attention.misc.progress import redelivering_interrupts
from sage_attention.misc.randomness import derived_seed, python_random, resolve_seed
from sage_attention.misc.extension_points import matrix_rank, point_field
from sage_attention.misc.keywords import keyword_hints
from sage_attention.models.derivatives import factor, layer_derivatives, layer_gradients  # noqa: F401  (re-exported)
from sage_attention.models.frobenius import check_separable, frobenius_layers  # noqa: F401  (re-exported)
from sage_attention.models.characteristic import separable_rank_check
from sage_attention.settings import settings

logger = logging.getLogger("sage_attention")


def rank_field(field, base=None):
    r"""
    Return the field of the random points of a randomized rank over the base field ``base``.

    A rank at a random point is a certified lower bound of the generic rank
    only over an exact field, and it equals the generic rank except with
    the Schwartz--Zippel probability `D / |F|` per point, useful only for a
    large field `F`. So:

    - ``field=None`` gives `\GF{p}` for ``settings.JACOBIAN_PRIME`` over a
      base field of characteristic `0`, and over a base field `\GF{p}` the
      smallest field `\GF{p^k}` with at least ``settings.MINIMUM_RANK_PRIME``
      (`2^{16}`) elements (:func:`~sage_attention.misc.extension_points.point_field`):
      the rank at its points is a rank of the Jacobian over `\GF{p}`, which
      does not change under field extension;
    - a given ``field`` must be, over a base field of characteristic `0`,
      `\QQ` or a prime field `\GF{p}` with `p \ge 2^{16}`; over a base
      field of characteristic `p`, a finite field of characteristic `p` with
      at least `2^{16}` elements (a field of another characteristic would
      give the rank of the network over `\QQ`, an upper bound of the
      dimension over `\GF{p}`, not a lower one).

    EXAMPLES::

        sage: from sage_attention.models.jacobian import rank_field
        sage: rank_field(None)
        Finite Field of size 67108859
        sage: rank_field(None, GF(101)), rank_field(None, GF(65537))
        (Finite Field in z of size 101^3, Finite Field of size 65537)
        sage: rank_field(QQ)
        Rational Field
        sage: rank_field(GF(7^6, 'b'), GF(7))
        Finite Field in b of size 7^6
        sage: rank_field(GF(7))
        Traceback (most recent call last):
        ...
        ValueError: field (=Finite Field of size 7) must be QQ or a prime field GF(p) with p >= 65536: an inexact field or a small prime does not give a certified lower bound
        sage: rank_field(GF(7), GF(7))
        Traceback (most recent call last):
        ...
        ValueError: field (=Finite Field of size 7) must be a finite field of characteristic 7 with at least 65536 elements: an inexact field or a small field does not give a certified lower bound; omit field= to draw the points from GF(7^6)
    """
    p = 0 if base is None else int(base.characteristic())
    if field is None:
        return point_field(p) if p else GF(settings.JACOBIAN_PRIME)
    minimum = settings.MINIMUM_RANK_PRIME
    exact = hasattr(field, "is_field") and field.is_field() and field.is_exact()
    if p:
        # over GF(p) the rank is one over GF(p): a field of another characteristic would give the
        # rank of the network over QQ, an upper bound of the dimension over GF(p), not a lower one
        ok = (exact and field.characteristic() == p and field.is_finite()
              and field.cardinality() >= minimum)
    else:
        ok = exact and (field is QQ or (field.characteristic() >= minimum and field.is_prime_field()))
    if not ok:
        allowed = (f"a finite field of characteristic {p} with at least {minimum} elements" if p else
                   f"QQ or a prime field GF(p) with p >= {minimum}")
        k = point_field(p).degree() if p else 1
        hint = f"; omit field= to draw the points from GF({p}{'^' + str(k) if k > 1 else ''})" if p else ""
        raise ValueError(f"field (={field}) must be {allowed}: an inexact field or a small "
                         f"{'field' if p else 'prime'} does not give a certified lower bound{hint}")
    return field


def degree_bound(model):
    r"""
    Return a bound on the total degree of the Jacobian entries in the random
    weights and inputs.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.models.jacobian import degree_bound
        sage: degree_bound(LightningAttention(d=2, t=2, a=1))
        6

    A model with its own bound (e.g. a
    :class:`~sage_attention.models.stack.LayerStack`) provides
    ``jacobian_degree_bound()``::

        sage: from sage_attention import PolynomialNetwork
        sage: degree_bound(PolynomialNetwork([2, 2, 1], 2))
        5
    """
    own = getattr(model, "jacobian_degree_bound", None)
    if own is not None:
        return own()
    T = 1
    for _ in model.ranks:
        T = 3 * T + (3 if model.weight_space == "QKV" else 2)
    return T + (1 if model.weight_space == "AV" else 0)


@redelivering_interrupts()
def jacobian_rank(model, F, seed, force=False, derivatives=None, ambient=None, heads=1, gradients=None):
    r"""
    Return ``(rank, number of inputs, failure bound)`` of the Jacobian of a lightning network.

    INPUT:

    - ``model`` -- a lightning network
    - ``F`` -- the field (see :func:`rank_field`)
    - ``seed`` -- integer
    - ``force`` -- boolean (default: ``False``); run even when
      :func:`~sage_attention.models.guards.check_jacobian_size` refuses
    - ``derivatives`` -- (default: :func:`layer_derivatives`) a function
      ``(model, X, weights, F) -> (derivs, Y)``
    - ``ambient`` -- (default: ``None``) an upper bound on the rank (the
      dimension of the linear span, :func:`~sage_attention.catalog.model_sizes.span_bound`):
      the rank stops growing there, so the inputs stop as soon as it is
      reached, however many weights there are
    - ``heads`` -- (default: `1`) the rank of the sum of ``heads`` copies
      of ``model`` in disjoint weights (its columns are those of each
      copy, at independent random weights: Terracini's lemma); the size
      guard is then the caller's
    - ``gradients`` -- (default: ``None``) a reverse-mode function
      ``(model, X, weights, F, entries) -> (rows, Y)``
      (:func:`~sage_attention.models.derivatives.layer_gradients`); when
      given it computes the rows instead of ``derivatives`` (the same
      rows, in time linear in the depth)

    It runs under :func:`~sage_attention.misc.progress.redelivering_interrupts`:
    a Ctrl-C that a LinBox product swallows is raised again, so one Ctrl-C
    stops it in a Sage or Jupyter session too.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.models.jacobian import jacobian_rank
        sage: r, n, bound = jacobian_rank(LightningAttention(d=3, t=2, a=2), GF(67108859), 0)
        sage: r, bound < 1e-4
        (10, True)

    Many heads of a layer whose span has dimension `6`: the rank reaches
    the span after a few inputs and stops there (not after one input per
    weight)::

        sage: M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
        sage: jacobian_rank(M, GF(67108859), 0, ambient=6, heads=200)[:2]
        (6, 7)

    Reverse mode gives the same rank (from the rows of the first token only:
    the model is token-equivariant, so more inputs with fewer rows each)::

        sage: from sage_attention.models.derivatives import layer_gradients
        sage: D = LightningAttention(widths=[2, 2, 2, 2], ranks=[1, 1, 1], t=2)
        sage: jacobian_rank(D, GF(67108859), 0)[:2], jacobian_rank(D, GF(67108859), 0, gradients=layer_gradients)[:2]
        ((10, 8), (10, 13))
    """
    check_separable(model, F)
    if heads == 1:
        check_jacobian_size(model, force)
    if derivatives is None:
        derivatives = layer_derivatives
    rng = python_random(seed)
    copies = [model.random_weights(field=F, seed=rng.randrange(2**32)) for _ in range(heads)]
    entries = [(i - 1, j - 1) for i, j in model.output_entries()]
    if gradients is not None and getattr(model, "is_token_equivariant", lambda: False)():
        # the outputs of the first token suffice: the row of entry (i, j) at the input X is the
        # row of entry (i, 1) at X with tokens 1 and j swapped (the model is equivariant), so the
        # rows of the first token over all inputs span the rows of every entry; each input then
        # costs d' cotangents instead of d' t (the reverse mode computes only the rows it needs)
        entries = [(i, j) for i, j in entries if j == 0]
    # with weights (A, V) the tangent directions are counted from the derivatives
    ncols = heads * model.nparameters() if getattr(model, "weight_space", "QKV") == "QKV" else None
    rows = []
    rank = -1
    ninputs = 0
    steps = 0
    last_inputs = 0
    per_input = len(entries)
    target = full = None
    top = ncols if ambient is None else min(ncols or ambient, ambient)
    while True:
        X = random_matrix(F, model.d, model.tokens, rng)
        if gradients is not None:
            parts = [gradients(model, X, weights, F, entries)[0] for weights in copies]
            rows += [sum((part[e] for part in parts), []) for e in range(len(entries))]
        else:
            derivs = []
            for weights in copies:
                derivs += derivatives(model, X, weights, F)[0]
            for (i, j) in entries:
                rows.append([D[i, j] for D in derivs])
        ninputs += 1
        if ncols is None:
            ncols = len(rows[-1])
            top = ncols if ambient is None else min(ncols, ambient)
        if target is None:
            # a first batch large enough to reach the largest possible rank, reached by doubling
            # from 16 inputs: a deep stack's rank is far below its weights (84 of 326 for 41
            # layers of width 2), and the doubling stops as soon as it is found (below)
            full = max(1, -(-(top + 1) // per_input))
            target = min(full, 16)
        if ninputs < target:
            continue
        new_rank = matrix_rank(F, rows)
        steps += 1
        logger.info("dimension: %d inputs, rank %d", ninputs, new_rank)
        # the rank is found when an input added nothing: the last rank equals the one before, or
        # is below the number of inputs. (Proof of the second: at generic weights and inputs, the
        # rows of n inputs have rank R_n >= min(R, n), R the generic rank of all of them, since a
        # generic input adds a row outside a span smaller than the span of all rows. At points
        # where the rank is the generic R_n -- all but a Schwartz-Zippel fraction, counted in the
        # bound below like every rank computed -- a rank below n is R_n < n, so R_n = R.)
        if new_rank == rank or new_rank >= top or new_rank < ninputs:
            rank = new_rank
            break
        if ninputs < full:
            target = min(2 * ninputs, full)
            rank, last_inputs = new_rank, ninputs
            continue
        # the next rank after one more input; once the growth per input is seen, after as many
        # inputs as reach the bound at that growth (at most twice as many in all): the rows of
        # one input are far from independent (4 new dimensions per input on a model of width 30),
        # and each rank costs as much as the first (13 ranks of 1020 columns there, now 4)
        if rank >= 0 and last_inputs >= full:
            growth = (new_rank - rank) / (ninputs - last_inputs)
            target = ninputs + max(1, min(ninputs, ceil((top - new_rank) / growth)))
        else:
            target = ninputs + 1
        rank, last_inputs = new_rank, ninputs
    # Schwartz-Zippel over the points' field: its order (p^k over an extension GF(p^k))
    size = 201 if F.characteristic() == 0 else F.cardinality()
    bound = (steps + 1) * rank * degree_bound(model) / size
    return rank, ninputs, min(bound, 1.0)


@keyword_hints
class JacobianDimension:
    r"""
    Mixin of polynomial networks: the dimension by the generic Jacobian rank.

    A class sets ``_derivatives`` to the function computing its forward-mode
    derivatives (default: :func:`layer_derivatives`), and ``_gradients`` to
    its reverse-mode rows when it has them (default: ``None``; the lightning
    networks of one or several layers have
    :func:`~sage_attention.models.derivatives.layer_gradients`).

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.models.jacobian import JacobianDimension
        sage: isinstance(LightningAttention(d=2, t=2, a=1), JacobianDimension)
        True
    """

    _derivatives = staticmethod(layer_derivatives)
    #: the reverse-mode rows (:func:`~sage_attention.models.derivatives.layer_gradients`), or
    #: ``None`` where only the forward mode ``_derivatives`` is written
    _gradients = None

    def jacobian_mode(self):
        r"""
        Return how the Jacobian's rows are computed: ``'reverse'`` (one pass back through the layers
        per output entry) or ``'forward'`` (one pass forward per weight direction).

        EXAMPLES::

            sage: from sage_attention import LightningAttention, PolynomialNetwork
            sage: LightningAttention(d=2, t=2, a=1).jacobian_mode(), PolynomialNetwork([2, 2, 1], 2).jacobian_mode()
            ('reverse', 'reverse')
            sage: LightningAttention(d=2, t=2, a=1, heads=2).jacobian_mode()
            'forward'
        """
        return "forward" if self._gradients is None else "reverse"

    def ambient_dimension(self):
        r"""
        Return an upper bound on every dimension of the neurovariety: the dimension of its linear span.

        It is :func:`~sage_attention.catalog.model_sizes.span_bound` (exact for one layer,
        the number of essential coordinates); heads and a causal mask do not
        enlarge the span. Every :meth:`dimension_report` checks its rank
        against it and stops adding inputs when the rank reaches it.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=3, t=2, a=1, entries=[(1, 1)])
            sage: M.ambient_dimension() == len(M.essential_coordinates())
            True
            sage: LightningAttention(d=2, t=2, a=1, heads=5).ambient_dimension()
            6
        """
        from sage_attention.catalog.costs import span_bound
        return span_bound(self.widths, self.ranks, self.tokens, self.entries,
                          getattr(self, "residual", False))

    def dimension_report(self, seed=None, field=None, proof=False, force=False):
        r"""
        Return the dimension of the neurovariety, with a report.

        The dimension (of the affine cone) is the generic rank of the
        Jacobian of the parametrization. It is computed at random weights by
        forward-mode differentiation of the network at random inputs
        (:mod:`sage_attention.models.jacobian`), so the polynomials are never
        expanded: the Jacobian of weights `\mapsto (Y(X_1), \dots, Y(X_N))`
        has the same generic rank as the coefficient map once the inputs are
        generic and numerous enough. Inputs are added one at a time until a
        new one adds no rank (then every function in the kernel vanishes at
        a generic point, hence everywhere).

        INPUT:

        - ``seed`` -- (default: ``None``, drawn from Sage's random state)
          integer; the same seed gives the same random points and the same
          report
        - ``field`` -- (default: over a base field `\GF{p}`, `\GF{p}` itself
          when `p \ge 2^{16}`, else the smallest extension `\GF{p^k}` with
          `p^k \ge 2^{16}`; over a base field of characteristic `0`,
          `\GF{p}` with `p = 67108859`) the field of the random points
          (:func:`rank_field`): over characteristic `0`, `\QQ` (exact but
          slower) or a prime field `\GF{p}` with `p \ge 2^{16}`; over
          `\GF{p}`, a finite field of characteristic `p` with at least
          `2^{16}` elements. Over a base field of characteristic `p` the rank
          is one over `\GF{p}` (the variety over `\GF{p}` may be smaller
          than over `\QQ`), and over a prime below `2^{16}` it is checked
          against the rank over `\QQ` (:func:`~sage_attention.models.characteristic.separable_rank_check`: it is
          refused where they differ); a non-prime base field `\GF{q}` is
          refused (:mod:`sage_attention.catalog.fields`)
        - ``proof`` -- boolean (default: ``False``); must be ``False``: the
          rank at a random point is a certified lower bound and equals the
          dimension only with high probability
        - ``force`` -- boolean (default: ``False``); run even when the size
          guard refuses

        OUTPUT: a :class:`~sage_attention.models.reports.DimensionReport`

        Ctrl-C raises :class:`~sage_attention.misc.interrupts.ComputationInterrupted`
        (phase ``'dimension'``; nothing finished: the rank is all or nothing).

        .. WARNING::

            The result is never larger than the true dimension (a rank at a
            point, reduced modulo `p` or not, is at most the generic rank).
            It is smaller with probability at most
            ``report.failure_probability`` (Schwartz--Zippel over the random
            weights and inputs).

        ALGORITHM: [HMK2024]_ for the expected value; exact linear algebra
        over `\GF{p}` for the computed one.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=4, t=3, a=2, out=2)
            sage: D = M.dimension_report(seed=0)
            sage: D.dimension, D.expected, D.agrees
            (19, 19, True)
            sage: D.failure_probability < 1e-4
            True

        Over `\QQ` the same rank::

            sage: M.dimension_report(seed=0, field=QQ).dimension
            19

        A deep network: the rank one first layer makes the formula
        inapplicable; the computed dimension is still exact::

            sage: LightningAttention(widths=[3, 3, 3], ranks=[1, 2], t=3).dimension_report(seed=2)
            The neurovariety of LightningAttention(widths=(3, 3, 3), ranks=(1, 2), t=3) over Rational Field has dimension 18
            (no published formula: layer 1 has rank 1, so every later token matrix has rank one and later layers only see Sym(A)); the generic fiber has dimension 18.

        TESTS::

            sage: M.dimension_report(proof=True)
            Traceback (most recent call last):
            ...
            NotImplementedError: proof=True is not available: the dimension is a rank at a random point; pass proof=False
            sage: M.dimension_report(proof='maybe')
            Traceback (most recent call last):
            ...
            TypeError: proof (='maybe') must be True or False
            sage: M.dimension_report(field=RR)
            Traceback (most recent call last):
            ...
            ValueError: field (=Real Field with 53 bits of precision) must be QQ or a prime field GF(p) with p >= 65536: an inexact field or a small prime does not give a certified lower bound
            sage: M.dimension_report(field=GF(2))
            Traceback (most recent call last):
            ...
            ValueError: field (=Finite Field of size 2) must be QQ or a prime field GF(p) with p >= 65536: ...

        Over a small prime field the random points come from an extension
        with at least `2^{16}` elements, where the Schwartz--Zippel bound
        holds (the rank is field-extension invariant, so it is the rank
        over `\GF{7}`), and the rank is checked against the rank over `\QQ`
        (:func:`~sage_attention.models.characteristic.separable_rank_check`)::

            sage: from sage_attention import LightningAttention
            sage: D = LightningAttention(d=2, t=1, a=1, base_ring=GF(7)).dimension_report(seed=0)
            sage: D.dimension, D.field, D.failure_probability < 0.01
            (4, 'Finite Field in z of size 7^6', True)
            sage: D.dimension == LightningAttention(d=2, t=1, a=1).dimension(seed=0)
            True
            sage: LightningAttention(d=3, t=1, a=1, base_ring=GF(65537)).dimension_report(seed=0).field
            'Finite Field of size 65537'

        A non-prime base field is refused, naming the prime field::

            sage: LightningAttention(d=2, t=1, a=1, base_ring=GF(4, 'a')).dimension(seed=0)
            Traceback (most recent call last):
            ...
            ValueError: the dimension needs QQ, a number field or a prime field GF(p), not GF(4): ... take the model over GF(2), ...
        """
        from sage_attention.catalog.fields import require_field
        from sage_attention.models.reports import DimensionReport
        if proof is not None and not isinstance(proof, bool) and proof not in (0, 1):
            raise TypeError(f"proof (={proof!r}) must be True or False")
        if proof:
            raise NotImplementedError("proof=True is not available: the dimension is a rank at a "
                                      "random point; pass proof=False")
        K = self.base_ring()
        require_field("dimension", K, "the dimension")
        F = rank_field(field, K)
        seed = resolve_seed(seed)
        ambient = self.ambient_dimension()
        try:
            rank, ninputs, bound = jacobian_rank(self, F, seed, force=force, derivatives=self._derivatives,
                                                 ambient=ambient, gradients=self._gradients)
        except KeyboardInterrupt as e:      # the package's Ctrl-C (sage_attention.misc.interrupts)
            from sage_attention.misc.interrupts import raise_interrupted
            raise_interrupted(e, "dimension", None, "", f"the same call (seed={seed}) starts again")
        method = ("rank of the Jacobian at random weights and inputs ("
                  + ("reverse mode)" if self._gradients is not None else "forward mode)"))
        if 0 < K.characteristic() < settings.MINIMUM_RANK_PRIME:
            # the rank of the same network over QQ (modulo a large prime): an upper bound
            rank0, _, bound0 = jacobian_rank(self, GF(settings.JACOBIAN_PRIME), derived_seed(seed, "rank over QQ"),
                                             force=force, derivatives=self._derivatives, ambient=ambient,
                                             gradients=self._gradients)
            bound += separable_rank_check(int(K.characteristic()), F.degree(), rank, rank0, bound0)
            method += (f", at points of GF({K.characteristic()}^{F.degree()}); equal to the rank over QQ, "
                       "an upper bound of the dimension in characteristic p")
        expected, note = self._published()
        return DimensionReport(
            model=repr(self), dimension=rank, expected=expected, expected_note=note,
            parameters=self.nparameters(), parameter_dimension=self.parameter_dimension(),
            fiber_dimension=self.parameter_dimension() - rank,
            failure_probability=float(min(bound, 1.0)), seed=seed, field=str(F), inputs=ninputs,
            method=method, expected_kind=getattr(self, "_expected_kind", "formula"),
            ambient_dimension=ambient,
            count=getattr(self, "_parameter_count", lambda: None)())

    def dimension(self, seed=None, field=None, proof=False, force=False):
        r"""
        Return the dimension of the neurovariety (of the affine cone).

        The arguments are those of :meth:`dimension_report`, which returns
        the same number with the published formula, the failure probability
        and the seed used.

        OUTPUT: an integer

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=2, a=1)
            sage: M.dimension(seed=0)
            4
            sage: M.dimension(seed=0) == M.dimension_report(seed=0).dimension == M.expected_dimension()
            True
        """
        from sage.rings.integer import Integer
        return Integer(self.dimension_report(seed=seed, field=field, proof=proof,
                                             force=force).dimension)


def summed_heads_report(model, heads, seed=None, field=None, force=False):
    r"""
    Return the dimension of the join of ``heads`` copies of a one-layer model, with a report.

    The neurovariety of `H` summed heads is the `H`-fold join of the
    one-head variety; by Terracini's lemma its dimension is the rank of the
    Jacobian of `(W_1, \dots, W_H) \mapsto \sum_h Y(X; W_h)`, whose
    columns are those of one head at `H` independent random weights. Unlike
    ``LightningAttention(..., heads=H)`` this keeps the model's output
    entries (a slice).

    INPUT:

    - ``model`` -- a one-layer lightning model with weights ``'QKV'``
    - ``heads`` -- positive integer `H`
    - ``seed``, ``field``, ``force`` -- as for
      :meth:`JacobianDimension.dimension_report`

    OUTPUT: a :class:`~sage_attention.models.reports.DimensionReport`;
    its expected value is the join bound `\min(H \dim(\text{one head}),
    \dim(\text{span}))` with the one head's computed dimension

    EXAMPLES:

    Two rank-one heads of the one-entry slice with `d = 3`: one head has
    dimension `2 \cdot 3 + 3 - 2 = 7` (nine weights, a `GL_1` and a scaling
    acting), so the join has at most `14` dimensions, in the span of the
    `18` essential coordinates. The rank equals twice the published
    dimension of one head ([HMK2024]_), so this join is not defective::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.models.jacobian import summed_heads_report
        sage: from sage_attention.models.formulas import published_dimension
        sage: M = LightningAttention(d=3, t=2, a=1, entries=[(1, 1)])
        sage: R = summed_heads_report(M, 2, seed=0)
        sage: R.dimension, R.ambient_dimension, len(M.essential_coordinates())
        (14, 18, 18)
        sage: R.dimension == 2 * published_dimension((3, 1), (1,), 2)[0]
        True

    Two heads of the slice `(1, 1)` of a layer with `d' = 2`: the span of
    the slice has `6` dimensions, so the join (of dimension at most `12`
    for the whole layer) has dimension `6` here::

        sage: M = LightningAttention(d=2, t=2, a=1, out=2, entries=[(1, 1)])
        sage: summed_heads_report(M, 2, seed=0).dimension, len(M.essential_coordinates())
        (6, 6)

    With all output entries it is the multi-head model's dimension::

        sage: M = LightningAttention(d=3, t=2, a=1)
        sage: summed_heads_report(M, 2, seed=0).dimension == LightningAttention(d=3, t=2, a=1, heads=2).dimension(seed=0)
        True

    Over a small prime field the points come from an extension, as for one model::

        sage: summed_heads_report(LightningAttention(d=3, t=2, a=1, base_ring=GF(101)), 2, seed=0).dimension
        14
    """
    from sage.rings.integer import Integer
    from sage_attention.models.reports import DimensionReport
    from sage_attention.catalog.costs import estimate_size
    if isinstance(heads, bool) or not isinstance(heads, (int, Integer)) or heads < 1:
        raise ValueError(f"heads (={heads}) must be a positive integer")
    heads = int(heads)
    if not model.is_lightning() or model.nlayers() != 1 or model.weight_space != "QKV":
        raise ValueError(f"summed heads need one lightning layer with weights 'QKV'; "
                         f"model (={model}) is not")
    from sage_attention.catalog.fields import require_field
    K = model.base_ring()
    require_field("dimension", K, "the dimension")
    F = rank_field(field, K)
    seed = resolve_seed(seed)
    if not force:
        check_jacobian_size(model, estimate=estimate_size(
            model.widths, model.ranks, model.tokens, "QKV", model.entries, heads=(heads,)))
    ambient = model.ambient_dimension()
    rank, ninputs, bound = jacobian_rank(model, F, seed, force=True, ambient=ambient,
                                         heads=heads, derivatives=model._derivatives,
                                         gradients=model._gradients)
    if 0 < K.characteristic() < settings.MINIMUM_RANK_PRIME:
        # as for one model: the rank at points of GF(p^k) is accepted where it is the rank over QQ
        rank0, _, bound0 = jacobian_rank(model, GF(settings.JACOBIAN_PRIME), derived_seed(seed, "rank over QQ"),
                                         force=True, ambient=ambient, heads=heads,
                                         derivatives=model._derivatives, gradients=model._gradients)
        bound += separable_rank_check(int(K.characteristic()), F.degree(), rank, rank0, bound0)
    one = model.dimension_report(seed=seed, field=field, force=force).dimension
    expected = min(heads * one, ambient)
    P = heads * model.nparameters()
    return DimensionReport(
        model=f"{heads} summed heads of {model}", dimension=rank, expected=expected,
        expected_note=(f"join bound min(H dim(one head), dim(span)) = min({heads} * {one}, "
                       f"{ambient}) = {expected}, with the computed dimension of one head"),
        parameters=P, parameter_dimension=P, fiber_dimension=P - rank,
        failure_probability=float(bound), seed=seed, field=str(F), inputs=ninputs,
        method="rank of the Jacobian of the summed heads at random weights and inputs "
               "(forward mode, Terracini's lemma)",
        expected_kind="bound", ambient_dimension=ambient)
