r"""
Singular and boundary points of one lightning attention layer

For one layer with `t \ge 2` tokens the parametrization `(V, A) \mapsto T`
(:ref:`mathematics, §2 <math-2>`) is bilinear. Its differential drops rank exactly on
three kinds of weights (checked by exact Jacobian ranks in the tests):

- the **vertex**: `V = 0` or `A = 0` (the image is the zero point);
- **rank of A below a**: `0 < \operatorname{rank} A < a < d` (the singular
  locus of the determinantal variety of matrices of rank `\le a`);
- the **rank-one / rank-one locus**: `\operatorname{rank} V =
  \operatorname{rank} A = 1` with the row space of `V` equal to the column
  space of `A`, i.e. `V = p v^T`, `A = u w^T`, `v \parallel u`. There the
  cross tensor `p \otimes \operatorname{Sym}(v \otimes u) \otimes w` has a
  rank-one symmetric factor, and the swap `v \leftrightarrow u` of the
  generic fiber degenerates.

Over the reals the last locus is the **boundary** of the neuromanifold in
the real neurovariety (:ref:`mathematics, §5 <math-5>`): nearby real points of the
neurovariety have a definite symmetric factor, which is not
`\operatorname{Sym}(v \otimes u)` for real `v, u`. The vertex is a boundary
point too whenever such points exist.

A random point is smooth::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.variety.singular_points import singular_point
    sage: M = LightningAttention(d=3, t=2, a=2, out=2)
    sage: singular_point(M, M.random_weights(seed=1))
    A smooth point of LightningAttention(d=3, out=2, t=2, a=2) over Rational Field:
    the differential has the generic rank 13; not on the real boundary.

A point of the rank-one / rank-one locus::

    sage: p, v, w = matrix(QQ, [[1], [2]]), matrix(QQ, [[1, -1, 3]]), matrix(QQ, [[2, 0, 1]])
    sage: S = singular_point(M, [(w.stack(zero_matrix(QQ, 1, 3)), v.stack(zero_matrix(QQ, 1, 3)), p * v)]); S
    A singular point of LightningAttention(d=3, out=2, t=2, a=2) over Rational Field:
    the differential has rank 8 < 13 (rank of A (=1) below a (=2) < d (=3); rank-one / rank-one: rank V = rank A = 1 with row space of V = column space of A); on the real boundary.
    sage: S.reasons
    ('rank A < a', 'rank-one / rank-one')

.. NOTE::

    "Singular" is read as in [HMK2024]_: a drop of the rank of the
    differential of the parametrization. For `d = 2` and `a = 1` the
    neurovariety is the cone over a Segre variety, smooth away from the
    vertex: its rank-one / rank-one points are folds of the real
    parametrization (boundary points), not singular points of the variety.
"""
from dataclasses import dataclass, asdict

from sage.all__sagemath_singular import QQ, matrix, vector


@dataclass(frozen=True)
class SingularPointReport:
    r"""
    Whether a point of one lightning layer is singular or on the boundary.

    Attributes: ``model``, ``singular`` (bool), ``reasons`` (a tuple among
    ``'vertex'``, ``'rank A < a'``, ``'rank-one / rank-one'``),
    ``differential_rank`` (``None`` for a coefficient point),
    ``generic_rank``, ``rank_A``, ``rank_V``, ``boundary`` (bool, real
    points), ``explanation``.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.singular_points import singular_point
        sage: M = LightningAttention(d=2, t=2, a=1)
        sage: R = singular_point(M, M.random_weights(seed=0))
        sage: R.to_dict()['singular'], R.rank_A, R.rank_V
        (False, 1, 1)
    """
    model: str
    singular: bool
    reasons: tuple
    differential_rank: object
    generic_rank: int
    rank_A: int
    rank_V: int
    boundary: bool
    explanation: str

    def __repr__(self):
        kind = "singular" if self.singular else "smooth"
        if self.differential_rank is None:
            diff = "(a coefficient point: read from the ranks of its flattenings)"
        elif self.singular:
            diff = f"the differential has rank {self.differential_rank} < {self.generic_rank}"
        else:
            diff = f"the differential has the generic rank {self.generic_rank}"
        if self.reasons:
            diff += f" ({self.explanation})"
        bd = "on the real boundary" if self.boundary else "not on the real boundary"
        return f"A {kind} point of {self.model}:\n{diff}; {bd}."

    def to_dict(self):
        r"""
        Return the report as a JSON-able dictionary.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.singular_points import singular_point
            sage: M = LightningAttention(d=2, t=2, a=1)
            sage: singular_point(M, M.random_weights(seed=0)).to_dict()['reasons']
            []
        """
        d = asdict(self)
        d["reasons"] = list(self.reasons)
        return d


def _check_model(model):
    if model.nlayers() != 1 or not model.is_lightning() or model.tokens < 2:
        raise ValueError(f"model (={model}) must be one lightning layer with t >= 2 tokens")
    from sage_attention.models.checks import coordinate_model
    coordinate_model(model, "singular_point")


def _AV(weights):
    w = weights[0]
    if len(w) == 3:
        Q, K, V = w
        return K.transpose() * Q, V
    return w[0], w[1]


def _as_qkv(model, weights):
    r"""
    Return ``(Q, K, V)`` with `K^T Q = A`, padding a factorization with zeros.
    """
    w = weights[0]
    if len(w) == 3:
        return w
    A, V = w
    a, d = model.ranks[0], model.d
    s = A.rank()
    F = A.base_ring()
    if s == 0:
        return matrix(F, a, d), matrix(F, a, d), V
    piv = A.pivots()
    B = A.matrix_from_columns(piv)                       # d x s
    C = A.echelon_form().matrix_from_rows(range(s))     # s x d
    if s > a:
        raise ValueError(f"A has rank {s} > a (={a})")
    Q = C.stack(matrix(F, a - s, d))
    K = B.transpose().stack(matrix(F, a - s, d))
    return Q, K, V


def differential_rank(model, weights):
    r"""
    Return the rank of the differential of weights `\mapsto` coefficients.

    Exact: the Jacobian matrix of the parametrization (``(Q, K, V)``
    coordinates; ``(A, V)`` weights are factored `A = K^T Q` with zero
    padding) evaluated at the point, over the field of the weights.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.singular_points import differential_rank
        sage: M = LightningAttention(d=3, t=2, a=1)
        sage: differential_rank(M, M.random_weights(seed=2))
        7
    """
    _check_model(model)
    QKV = model.with_weight_space("QKV")
    Q, K, V = _as_qkv(model, weights)
    F = V.base_ring()
    phi = QKV.parametrization()
    R = QKV.weight_ring()
    pt = QKV.weights_point([(Q, K, V)])
    J = matrix(F, [[F(g.derivative(x)(pt)) for x in R.gens()] for g in phi.im_gens()])
    return J.rank()


def _classify(model, A, V):
    r"""
    Return ``(reasons, explanation, boundary)`` from `A` and `V`.
    """
    a, d = model.ranks[0], model.d
    rA, rV = A.rank(), V.rank()
    reasons, words = [], []
    if rA == 0 or rV == 0:
        reasons.append("vertex")
        words.append("vertex: " + ("V = 0" if rV == 0 else "A = 0"))
    else:
        if rA < a < d:
            reasons.append("rank A < a")
            words.append(f"rank of A (={rA}) below a (={a}) < d (={d})")
        if rA == 1 and rV == 1:
            # row space of V (one vector) against the column space of A (one vector)
            rowV = matrix(V.row_space().basis()[0])
            colA = matrix(A.column_space().basis()[0])
            if rowV.stack(colA).rank() == 1:
                reasons.append("rank-one / rank-one")
                words.append("rank-one / rank-one: rank V = rank A = 1 with row space of V "
                             "= column space of A")
    boundary = ("rank-one / rank-one" in reasons) or ("vertex" in reasons and d >= 2)
    return tuple(reasons), "; ".join(words), boundary


def singular_point(model, weights=None, point=None):
    r"""
    Say whether a point of one lightning layer is singular or on the boundary.

    INPUT:

    - ``model`` -- one lightning layer with `t \ge 2`
    - ``weights`` -- a list ``[(Q, K, V)]`` or ``[(A, V)]`` (exact entries)
    - ``point`` -- instead of ``weights``: the values of the coordinates
      (in the order of ``model.coordinate_ring().gens()``); the ranks of
      `A` and `V` are read from the cross tensors: `\operatorname{rank} A`
      is the rank of the stacked flattenings `\Phi(v_i) A`, and
      `\operatorname{rank} V` the dimension of the span of the row tensors
      (:ref:`mathematics, §3 <math-3>`)

    OUTPUT: a :class:`SingularPointReport`

    EXAMPLES:

    The vertex, and a coefficient point of the rank-one / rank-one locus::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.singular_points import singular_point
        sage: M = LightningAttention(d=3, t=2, a=1, out=2, coordinate_scaling='scaled')
        sage: Z = matrix(QQ, 2, 3)
        sage: singular_point(M, [(matrix(QQ, [[1, 2, 3]]), matrix(QQ, [[1, 0, 1]]), Z)]).reasons
        ('vertex',)
        sage: k = matrix(QQ, [[1, 1, 0]])
        sage: pt = M.coefficients_at([(matrix(QQ, [[3, 1, 2]]), k, matrix(QQ, [[2], [5]]) * k)])
        sage: R = singular_point(M, point=pt); R.singular, R.reasons, R.boundary
        (True, ('rank-one / rank-one',), True)

    TESTS::

        sage: singular_point(LightningAttention(widths=[2, 2, 2], ranks=[1, 1], t=2), point=[])
        Traceback (most recent call last):
        ...
        ValueError: model (=LightningAttention(widths=(2, 2, 2), ranks=(1, 1), t=2) over Rational Field) must be one lightning layer with t >= 2 tokens
        sage: singular_point(M)
        Traceback (most recent call last):
        ...
        ValueError: give exactly one of weights, point
    """
    _check_model(model)
    if (weights is None) == (point is None):
        raise ValueError("give exactly one of weights, point")
    generic = model.expected_dimension()
    if generic is None:
        generic = model.dimension(seed=0)
    if weights is not None:
        A, V = _AV(weights)
        reasons, words, boundary = _classify(model, A, V)
        rank = differential_rank(model, weights)
        singular = rank < generic
        return SingularPointReport(model=repr(model), singular=singular, reasons=reasons,
                                   differential_rank=rank, generic_rank=generic,
                                   rank_A=A.rank(), rank_V=V.rank(), boundary=boundary,
                                   explanation=words)
    rA, rV, A, V = _ranks_from_point(model, point)
    reasons, words, boundary = _classify(model, A, V)
    return SingularPointReport(model=repr(model), singular=bool(reasons), reasons=reasons,
                               differential_rank=None, generic_rank=generic, rank_A=rA,
                               rank_V=rV, boundary=boundary, explanation=words)


def _ranks_from_point(model, point):
    r"""
    Return ``(rank A, rank V, A', V')`` for a coefficient point: matrices
    with the same ranks and, in rank one, the same row/column relation.

    The cross tensor of row `i` is `T_i = \Phi(v_i) A` (scaled
    coordinates, recomputed from raw ones if needed). For `A \ne 0` the map
    `v \mapsto \Phi(v) A` is injective, and for `v \ne 0` so is
    `A \mapsto \Phi(v) A`; hence the ranks. In rank one, `T_i = p_i
    \operatorname{Sym}(v \otimes u) \otimes w`, and `v \parallel u` iff
    the symmetric matrix `\operatorname{Sym}(v \otimes u)` has rank one.
    """
    d = model.d
    rows = model.output_rows()
    coords = model.coordinates_list()
    F = vector(point).base_ring()
    if F is QQ or not F.is_field():
        F = QQ if F.characteristic() == 0 else F.fraction_field()
    D = [(a, b) for a in range(1, d + 1) for b in range(a, d + 1)]
    T = {}
    for c, val in zip(coords, point):
        if c.kind != "cross":
            continue
        a, b, cc = c.indices
        v = F(val)
        if model.coordinate_scaling == "raw":
            v = v / (1 if a == b else 2)          # raw: v_a A_bc + v_b A_ac; scaled halves it
        T[(c.row, (a, b), cc)] = v
    flats = [matrix(F, [[T.get((i, ab, c), 0) for c in range(1, d + 1)] for ab in D])
             for i in rows]
    F_all = flats[0]
    for f in flats[1:]:
        F_all = F_all.stack(f)
    rA = F_all.rank()
    rV = matrix(F, [f.list() for f in flats]).rank()
    if rA == 0 or rV == 0:
        return rA, rV, matrix(F, d, d), matrix(F, len(rows), d)
    if rA == 1 and rV == 1:
        # T_i = p_i s w^T with s = Sym(v (x) u) as a vector over D
        f = next(f for f in flats if f != 0)
        col = f.column(f.pivots()[0])
        S = matrix(F, d, d)
        for (a, b), x in zip(D, col):
            S[a - 1, b - 1] = S[b - 1, a - 1] = x
        if S.rank() == 1:                        # v parallel to u: aligned rank one
            e = S.row(S.pivots()[0])
            return rA, rV, matrix(F, [[x * y for y in [1] + [0] * (d - 1)] for x in e]), \
                matrix(F, [list(e)])
        # not aligned: a rank-one A whose column space differs from the row of V
        e1 = [1] + [0] * (d - 1)
        e2 = [0, 1] + [0] * (d - 2) if d >= 2 else e1
        return rA, rV, matrix(F, [[x * y for y in e1] for x in e1]), matrix(F, [e2])
    # otherwise only the ranks matter for the classification
    A = matrix(F, d, d, lambda i, j: 1 if i == j and i < rA else 0)
    V = matrix(F, len(rows), d, lambda i, j: 1 if i == j and i < rV else 0)
    return rA, rV, A, V
