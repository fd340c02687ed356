r"""
The generic rank of the Jacobian, by forward-mode differentiation

The dimension of the neurovariety of a lightning network is the generic
rank of the Jacobian of its parametrization. Expanding the parametrization
is expensive (a deep network has degree `3^l` in the inputs), so the rank is
computed without it: at random weights `W` and random inputs
`X_1, \dots, X_N` over a field `F`, the derivatives of the outputs
`Y(X_n)` in every weight direction are pushed forward through the layers
(exactly, over `F`), and the rank of the stacked matrix is taken. The Jacobian
of `W \mapsto (Y(X_1), \dots, Y(X_N))` has the same generic rank as the
coefficient map once the inputs are generic and numerous enough.

EXAMPLES:

The derivatives agree with finite differences of the forward pass (exact
over `\QQ`, because the network is polynomial of degree one in each `V`)::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.models.jacobian import layer_derivatives
    sage: M = LightningAttention(d=2, t=2, a=1, weight_space='AV')
    sage: (A, V), = M.random_weights(field=QQ, seed=1)
    sage: X = matrix(QQ, [[1, 2], [3, -1]])
    sage: derivs, Y = layer_derivatives(M, X, [(A, V)], QQ)
    sage: Y == M.forward(X, [(A, V)])
    True
    sage: E = matrix(QQ, 1, 2, [1, 0])
    sage: derivs[0] == M.forward(X, [(A, V + E)]) - Y
    True
"""
from sage.all__sagemath_singular import GF, QQ, matrix, zero_matrix
import logging
from math import ceil

from sage_attention.models.arguments import random_matrix
from sage_attention.models.guards import check_jacobian_size
from sage_attention.progress import redelivering_interrupts
from sage_attention.randomness import (JACOBIAN_PRIME, MINIMUM_RANK_PRIME, python_random,
                                       resolve_seed)
from sage_attention.keywords import keyword_hints

logger = logging.getLogger("sage_attention")


def rank_field(field):
    r"""
    Return the field of a randomized rank: `\GF{p}` for ``None``, else ``field`` checked.

    A rank at a random point is a certified lower bound of the generic rank
    only over an exact field; over a small prime field it may also be
    lower than over `\QQ` for every point, so primes below `2^{16}` are
    refused.

    EXAMPLES::

        sage: from sage_attention.models.jacobian import rank_field
        sage: rank_field(None)
        Finite Field of size 67108859
        sage: rank_field(QQ)
        Rational Field
        sage: rank_field(GF(7))
        Traceback (most recent call last):
        ...
        ValueError: field (=Finite Field of size 7) must be QQ or a prime field GF(p) with p >= 65536: an inexact field or a small prime does not give a certified lower bound
    """
    if field is None:
        return GF(JACOBIAN_PRIME)
    ok = (hasattr(field, "is_field") and field.is_field() and field.is_exact()
          and (field is QQ or (field.characteristic() >= MINIMUM_RANK_PRIME
                               and field.is_prime_field())))
    if not ok:
        raise ValueError(f"field (={field}) must be QQ or a prime field GF(p) with "
                         f"p >= {MINIMUM_RANK_PRIME}: an inexact field or a small prime does "
                         "not give a certified lower bound")
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


def factor(A, r):
    r"""
    Return `(B, C)` with `A = B C`, `B` of size `d \times r`.

    EXAMPLES::

        sage: from sage_attention.models.jacobian import factor
        sage: A = matrix(QQ, [[1, 2], [2, 4]])
        sage: B, C = factor(A, 1); B * C == A
        True
    """
    pivots = A.pivots()
    if len(pivots) != r:
        raise ValueError(f"matrix has rank {len(pivots)}, expected {r}")
    B = A.matrix_from_columns(pivots)
    C = A.echelon_form().matrix_from_rows(range(r))
    return B, C


def _unit(F, r, c, i, j):
    E = zero_matrix(F, r, c)
    E[i, j] = 1
    return E


def layer_derivatives(model, X, weights, F):
    r"""
    Return the derivatives `\partial Y / \partial w` at an input and weights, and `Y`.

    INPUT:

    - ``model`` -- a lightning network
    - ``X`` -- a `d \times t` matrix over ``F``
    - ``weights`` -- a list as returned by ``model.random_weights()``
    - ``F`` -- the field

    OUTPUT: a pair ``(derivs, Y)``: one `d' \times t` matrix per weight
    direction (in the order of the weight ring's variables) and the output.
    For ``'AV'`` and `a < d` the directions in `A` are the tangent
    directions `dB\, C + B\, dC` of the factorization `A = B C`.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.models.jacobian import layer_derivatives
        sage: M = LightningAttention(d=1, t=1, a=1)
        sage: w = [(matrix(QQ, [[2]]), matrix(QQ, [[3]]), matrix(QQ, [[5]]))]
        sage: derivs, Y = layer_derivatives(M, matrix(QQ, [[1]]), w, QQ)
        sage: Y, [D[0, 0] for D in derivs]      # Y = v k q x^3
        ([30], [15, 10, 6])
    """
    # forward pass, keeping the intermediate token matrices
    Xs = [X]
    As, Vs = [], []
    for w in weights:
        A, V = model.attention_and_value(w)
        As.append(A)
        Vs.append(V)
        Xs.append(V * Xs[-1] * (Xs[-1].transpose() * A * Xs[-1]))

    def propagate(start, dX):
        # push a derivative of the output of layer `start` through later layers
        for m in range(start + 1, len(weights)):
            Xm, A, V = Xs[m], As[m], Vs[m]
            M = Xm.transpose() * A * Xm
            dM = dX.transpose() * A * Xm + Xm.transpose() * A * dX
            dX = V * dX * M + V * Xm * dM
        return dX

    derivs = []
    for m, w in enumerate(weights):
        Xm, A, V = Xs[m], As[m], Vs[m]
        M = Xm.transpose() * A * Xm
        din = A.nrows()
        # directions in A
        dAs = []
        if len(w) == 3:
            Q, K = w[0], w[1]
            a = Q.nrows()
            dAs += [K.transpose() * _unit(F, a, din, k, c) for k in range(a) for c in range(din)]
            dAs += [_unit(F, a, din, k, b).transpose() * Q for k in range(a) for b in range(din)]
        else:
            r = min(model.ranks[m], din)
            if r >= din:
                dAs += [_unit(F, din, din, b, c) for b in range(din) for c in range(din)]
            else:
                B, C = factor(A, r)
                dAs += [_unit(F, din, r, b, k) * C for b in range(din) for k in range(r)]
                dAs += [B * _unit(F, r, din, k, c) for k in range(r) for c in range(din)]
        VX = V * Xm
        dout = V.nrows()
        dV_list = [_unit(F, dout, din, i, p) * Xm * M for i in range(dout) for p in range(din)]
        dA_list = [VX * (Xm.transpose() * dA * Xm) for dA in dAs]
        layer = dA_list + dV_list if len(w) == 3 else dV_list + dA_list
        derivs += [propagate(m, D) for D in layer]
    return derivs, Xs[-1]


@redelivering_interrupts()
def jacobian_rank(model, F, seed, force=False, derivatives=None, ambient=None, heads=1):
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
      dimension of the linear span, :func:`~sage_attention.sizes.span_bound`):
      the rank stops growing there, so the inputs stop as soon as it is
      reached, however many weights there are
    - ``heads`` -- (default: `1`) the rank of the sum of ``heads`` copies
      of ``model`` in disjoint weights (its columns are those of each
      copy, at independent random weights: Terracini's lemma); the size
      guard is then the caller's

    It runs under :func:`~sage_attention.progress.redelivering_interrupts`:
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
    """
    if heads == 1:
        check_jacobian_size(model, force)
    if derivatives is None:
        derivatives = layer_derivatives
    rng = python_random(seed)
    copies = [model.random_weights(field=F, seed=rng.randrange(2**32)) for _ in range(heads)]
    entries = [(i - 1, j - 1) for i, j in model.output_entries()]
    # with weights (A, V) the tangent directions are counted from the derivatives
    ncols = heads * model.nparameters() if getattr(model, "weight_space", "QKV") == "QKV" else None
    rows = []
    rank = -1
    ninputs = 0
    steps = 0
    last_inputs = 0
    per_input = len(entries)
    target = None
    top = ncols if ambient is None else min(ncols or ambient, ambient)
    while True:
        X = random_matrix(F, model.d, model.tokens, rng)
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
            # a first batch large enough to reach the largest possible rank
            target = max(1, -(-(top + 1) // per_input))
        if ninputs < target:
            continue
        new_rank = matrix(F, rows).rank()
        steps += 1
        logger.info("dimension: %d inputs, rank %d", ninputs, new_rank)
        if new_rank == rank or new_rank >= top:
            rank = new_rank
            break
        # the next rank after one more input; once the growth per input is seen, after as many
        # inputs as reach the bound at that growth (at most twice as many in all): the rows of
        # one input are far from independent (4 new dimensions per input on a model of width 30),
        # and each rank costs as much as the first (13 ranks of 1020 columns there, now 4)
        if rank >= 0:
            growth = (new_rank - rank) / (ninputs - last_inputs)
            target = ninputs + max(1, min(ninputs, ceil((top - new_rank) / growth)))
        else:
            target = ninputs + 1
        rank, last_inputs = new_rank, ninputs
    size = 201 if F.characteristic() == 0 else F.characteristic()
    bound = (steps + 1) * rank * degree_bound(model) / size
    return rank, ninputs, min(bound, 1.0)


@keyword_hints
class JacobianDimension:
    r"""
    Mixin of polynomial networks: the dimension by the generic Jacobian rank.

    A class sets ``_derivatives`` to the function computing its forward-mode
    derivatives (default: :func:`layer_derivatives`).

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.models.jacobian import JacobianDimension
        sage: isinstance(LightningAttention(d=2, t=2, a=1), JacobianDimension)
        True
    """

    _derivatives = staticmethod(layer_derivatives)

    def ambient_dimension(self):
        r"""
        Return an upper bound on every dimension of the neurovariety: the dimension of its linear span.

        It is :func:`~sage_attention.sizes.span_bound` (exact for one layer,
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
        from sage_attention.sizes import span_bound
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
        - ``field`` -- (default: the base field when it is a prime field
          `\GF{p}`, else `\GF{p}` with `p = 67108859`) the field of the
          random points: `\QQ` (exact but slower) or a prime field `\GF{p}`
          with `p \ge 2^{16}`. Over a base field of characteristic `p` the
          rank is taken modulo that `p` (the variety over `\GF{p}` may be
          smaller than over `\QQ`); a base field where a random rank is not
          certified (`\GF{q}` with `q < 2^{16}` or not prime) is refused
          (:mod:`sage_attention.fields`)
        - ``proof`` -- boolean (default: ``False``); must be ``False``: the
          rank at a random point is a certified lower bound and equals the
          dimension only with high probability
        - ``force`` -- boolean (default: ``False``); run even when the size
          guard refuses

        OUTPUT: a :class:`~sage_attention.models.reports.DimensionReport`

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

        Over a small base field the rank is refused, naming the reason::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=1, a=1, base_ring=GF(7)).dimension(seed=0)
            Traceback (most recent call last):
            ...
            ValueError: the dimension needs QQ, a number field or a prime field GF(p) with p >= 2^16, not GF(7): ...
            sage: LightningAttention(d=3, t=1, a=1, base_ring=GF(65537)).dimension_report(seed=0).field
            'Finite Field of size 65537'
        """
        from sage_attention.fields import require_field
        from sage_attention.models.reports import DimensionReport
        if proof is not None and not isinstance(proof, bool) and proof not in (0, 1):
            raise TypeError(f"proof (={proof!r}) must be True or False")
        if proof:
            raise NotImplementedError("proof=True is not available: the dimension is a rank at a "
                                      "random point; pass proof=False")
        K = self.base_ring()
        require_field("dimension", K, "the dimension")
        if field is None and K.characteristic() > 0:
            field = K
        F = rank_field(field)
        seed = resolve_seed(seed)
        ambient = self.ambient_dimension()
        rank, ninputs, bound = jacobian_rank(self, F, seed, force=force,
                                             derivatives=self._derivatives, ambient=ambient)
        expected, note = self._published()
        return DimensionReport(
            model=repr(self), dimension=rank, expected=expected, expected_note=note,
            parameters=self.nparameters(), parameter_dimension=self.parameter_dimension(),
            fiber_dimension=self.parameter_dimension() - rank,
            failure_probability=float(bound), seed=seed, field=str(F), inputs=ninputs,
            method="rank of the Jacobian at random weights and inputs (forward mode)",
            expected_kind=getattr(self, "_expected_kind", "formula"),
            ambient_dimension=ambient)

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
    """
    from sage.rings.integer import Integer
    from sage_attention.models.reports import DimensionReport
    from sage_attention.sizes import estimate_size
    if isinstance(heads, bool) or not isinstance(heads, (int, Integer)) or heads < 1:
        raise ValueError(f"heads (={heads}) must be a positive integer")
    heads = int(heads)
    if not model.is_lightning() or model.nlayers() != 1 or model.weight_space != "QKV":
        raise ValueError(f"summed heads need one lightning layer with weights 'QKV'; "
                         f"model (={model}) is not")
    F = rank_field(field)
    seed = resolve_seed(seed)
    if not force:
        check_jacobian_size(model, estimate=estimate_size(
            model.widths, model.ranks, model.tokens, "QKV", model.entries, heads=(heads,)))
    ambient = model.ambient_dimension()
    rank, ninputs, bound = jacobian_rank(model, F, seed, force=True, ambient=ambient,
                                         heads=heads)
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
