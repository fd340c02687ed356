r"""
Solving the fiber: weights that produce a point

For a point of the coefficient space of one lightning layer,
:func:`solve_fiber` looks for weights `(V, A)` with `y_i = (V_i \cdot x)\,
x^T A x` that produce it (:ref:`mathematics, §4 <math-4>`):

- `t \ge 2`: the slice quadrics `z^T M^{(c)} z = (v \cdot z)(A_{:,c} \cdot z)`
  of the first nonzero row share the linear factor `v \cdot z`, so `v` is
  (a linear factor of) their gcd and the columns of `A` are the quotients;
  the other rows of `V` are quotients by a column of `A`;
- `t = 1`: the cubic of the first nonzero row is `(v \cdot z)\, z^T A z`:
  each linear factor `\ell` of it is tried, `A` is a matrix of rank at most
  `a` of the quadric `f / \ell` (:func:`~sage_attention.variety.quadrics.matrix_of_quadric`)
  and the other rows are multiples of the quadric.

The linear factors are looked for over the base field, then over a
quadratic field or `\overline{\QQ}`. Every answer is verified exactly
(:func:`reproduces_point`) before it is returned.
"""
# sage.doctest: needs sage.libs.singular
from sage.all__sagemath_singular import (QQ, PolynomialRing, matrix, vector, gcd, Integer)

from sage_attention.variety.quadrics import matrix_of_quadric


def essential_values(model, vals):
    r"""
    Return the values at ``vals`` of the essential coordinates of ``model``.

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``vals`` -- the coordinate values of a point, in the order of
      ``model.coordinate_ring().gens()``

    OUTPUT: a list, in the order of ``model.essential_coordinates()``

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.fibers import essential_values
        sage: M = LightningAttention(d=1, t=2, a=1)
        sage: M.coordinate_ring().gens(), M.essential_coordinates()
        ((Y11_x11x12x12, Y11_x11x11x11, Y12_x11x11x12, Y12_x12x12x12),
         (Y11_x11x12x12,))
        sage: essential_values(M, [5, 6, 7, 8])
        [5]
    """
    C = model.coordinate_ring()
    gens = C.gens()
    return [vals[gens.index(x)] for x in model.essential_coordinates()]


def reproduces_point(model, weights, vals):
    r"""
    Return whether ``weights`` produce exactly the point ``vals`` (exact arithmetic).

    INPUT:

    - ``model`` -- a model
    - ``weights`` -- weights of ``model``, as for ``model.coefficients_at``
    - ``vals`` -- the coordinate values of a point

    OUTPUT: a boolean

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.fibers import reproduces_point
        sage: M = LightningAttention(d=1, t=2, a=1)
        sage: w = [(matrix([[1]]), matrix([[1]]), matrix([[2]]))]
        sage: M.coefficients_at(w)
        [2, 2, 2, 2]
        sage: reproduces_point(M, w, [2, 2, 2, 2]), reproduces_point(M, w, [2, 2, 2, 3])
        (True, False)
    """
    got = model.coefficients_at(weights)
    return len(got) == len(vals) and all(g == v for g, v in zip(got, vals))


def weights_from_matrices(model, A, V):
    r"""
    Return weights of ``model`` with attention matrix ``A`` and value matrix ``V``.

    For ``weight_space='QKV'`` the factorization `A = K^T Q` takes the
    pivot columns of ``A`` for `K^T` and the rows of its echelon form for `Q`.

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``A`` -- a `d \times d` matrix
    - ``V`` -- a `d' \times d` matrix

    OUTPUT: ``[(Q, K, V)]`` or ``[(A, V)]``; ``None`` if `\operatorname{rank} A`
    exceeds the rank `a` of the model

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.fibers import weights_from_matrices
        sage: M = LightningAttention(d=2, t=1, a=1)
        sage: A = matrix(QQ, [[1, 2], [2, 4]]); V = matrix(QQ, [[1, 0]])
        sage: [(Q, K, V)] = weights_from_matrices(M, A, V); K.transpose() * Q == A
        True
        sage: weights_from_matrices(M, identity_matrix(QQ, 2), V) is None
        True
    """
    a = model.ranks[0]
    if A.rank() > a:
        return None
    if model.weight_space == "AV":
        return [(A, V)]
    F = A.base_ring()
    d = model.d
    piv = A.pivots()
    Kt = matrix(F, d, a)
    Q = matrix(F, a, d)
    E = A.echelon_form()
    for j, p in enumerate(piv):
        Kt.set_column(j, A.column(p))
        Q.set_row(j, E.row(j))
    return [(Q, Kt.transpose(), V)]


def _linear_factors(g):
    r"""
    Return ``(field, linear factors)`` of a product of linear forms ``g``
    (over `\QQ`, else a quadratic field, else ``None``).
    """
    R = g.parent()
    facs = [f for f, e in g.factor() if f.degree() == 1]
    if facs or g.degree() != 2:
        return R.base_ring(), facs
    # an irreducible quadric of rank 2 splits over Q(sqrt(-m)), m a principal 2-minor
    d = R.ngens()
    M = matrix(QQ, d, d, lambda i, j: g.monomial_coefficient(R.gen(i) * R.gen(j))
               * (1 if i == j else QQ(1) / 2))
    if M.rank() != 2:
        return None, []
    for i in range(d):
        for j in range(i + 1, d):
            m = M[i, i] * M[j, j] - M[i, j] ** 2
            if m:
                from sage.all__sagemath_singular import QuadraticField
                r = (-m).squarefree_part() if (-m) in QQ else -m
                r = QQ(-m).numerator() * QQ(-m).denominator()
                K = QuadraticField(Integer(r).squarefree_part(), "s")
                gK = g.change_ring(K)
                return K, [f for f, e in gK.factor() if f.degree() == 1]
    return None, []


def solve_fiber(model, vals):
    r"""
    Return weights of ``model`` that produce the point ``vals``, found by
    solving the fiber, or the reason why none were found.

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``vals`` -- the coordinate values of a point that satisfies the linear
      relations of ``model``

    OUTPUT: ``((weights, field, how), None)`` with weights verified by
    :func:`reproduces_point`, ``field`` their field and ``how`` a phrase; or
    ``(None, why)``

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.fibers import solve_fiber
        sage: M = LightningAttention(d=2, t=2, a=1)
        sage: p = M.coefficients_at(M.random_weights(seed=3))
        sage: (w, K, how), why = solve_fiber(M, p); K, how, why
        (Rational Field, 'v from the common linear factor of the slice quadrics', None)
        sage: M.coefficients_at(w) == p
        True

    A point of the linear span that is not an output: the quadric left by
    the linear factor `z_1` has rank `3 > 2a`::

        sage: M1 = LightningAttention(d=3, t=1, a=1, weight_space='AV')
        sage: R.<x11, x21, x31> = QQ[]
        sage: from sage_attention.variety.points import point_values
        sage: vals, _ = point_values(M1, matrix([[x11 * (x11^2 + x21^2 + x31^2)]]))
        sage: solve_fiber(M1, vals)
        (None, 'no linear factor of the cubic leaves a quadric of rank at most 2a')
    """
    if model.tokens >= 2:
        return _solve_cross(model, vals)
    return _solve_single_token(model, vals)


def slice_quadrics(model, ev, S, row):
    r"""
    Return the slice quadrics `q_c(z) = \sum_{a \le b} T_{\{a,b\},c} z_a z_b` (off-diagonal
    terms doubled) of one output row at a point, for `c = 1, \ldots, d`.

    INPUT:

    - ``model`` -- a one-layer lightning model with at least two tokens
    - ``ev`` -- the values of the essential coordinates (:func:`essential_values`)
    - ``S`` -- a polynomial ring in `d` variables
    - ``row`` -- an output row

    OUTPUT: a list of `d` quadratic forms of ``S``

    EXAMPLES:

    At the image of `v = (1, 0)`, `A = e_1 e_1^T`, the slice quadrics are
    `Sym(v \otimes A_{:,c})`: `z_1^2` for `c = 1` and `0` for `c = 2`::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.fibers import essential_values, slice_quadrics
        sage: M = LightningAttention(d=2, t=2, a=1, weight_space='AV')
        sage: w = [(matrix(QQ, [[1, 0], [0, 0]]), matrix(QQ, [[1, 0]]))]
        sage: S = PolynomialRing(QQ, 'z1, z2')
        sage: slice_quadrics(M, essential_values(M, M.coefficients_at(w)), S, 1)
        [z1^2, 0]
    """
    d = model.d
    z = S.gens()
    T = model.cross_tensor(row)
    qs = []
    for c in range(1, d + 1):
        q = S.zero()
        for a in range(1, d + 1):
            for b in range(a, d + 1):
                val = T[(a, b, c)](*ev) if T[(a, b, c)] else 0
                q += val * z[a - 1] * z[b - 1] * (1 if a == b else 2)
        qs.append(q)
    return qs


def _solve_cross(model, vals):
    d, out = model.d, model.out
    ev = essential_values(model, vals)
    F0 = model.base_ring()
    S = PolynomialRing(F0, [f"z{k}" for k in range(1, d + 1)])
    quads = {i: slice_quadrics(model, ev, S, i) for i in model.output_rows()}
    rows = [i for i in model.output_rows() if any(quads[i])]
    if not rows:
        A = matrix(F0, d, d)
        V = matrix(F0, out, d)
        return (weights_from_matrices(model, A, V), F0, "the zero point, V = 0"), None
    i0 = rows[0]
    g = gcd([q for q in quads[i0] if q])
    if g.degree() == 0:
        return None, "the slice quadrics have no common linear factor"
    Fk, cands = _linear_factors(g)
    if Fk is None or not cands:
        return None, f"the common factor {g} of the slice quadrics does not split into linear forms"
    for ell in cands:
        SK = ell.parent()
        zk = SK.gens()
        K = SK.base_ring()
        cols = []
        ok = True
        for q in quads[i0]:
            qq, r = SK(q).quo_rem(ell)
            if r != 0:
                ok = False
                break
            cols.append([qq.monomial_coefficient(zk[k]) if qq else 0 for k in range(d)])
        if not ok:
            continue
        A = matrix(K, cols).transpose()
        V = matrix(K, out, d)
        V.set_row(i0 - 1, vector(K, [ell.monomial_coefficient(zk[k]) for k in range(d)]))
        for i in model.output_rows():
            if i == i0 or not any(quads[i]):
                continue
            c = next(c for c in range(d) if A.column(c) != 0 and quads[i][c] != 0) \
                if any(A.column(c) != 0 and quads[i][c] != 0 for c in range(d)) else None
            if c is None:
                ok = False
                break
            lin = sum(A[k, c] * zk[k] for k in range(d))
            vi, r = SK(quads[i][c]).quo_rem(lin)
            if r != 0 or (vi and vi.degree() != 1):
                ok = False
                break
            V.set_row(i - 1, vector(K, [vi.monomial_coefficient(zk[k]) if vi else 0
                                        for k in range(d)]))
        if not ok:
            continue
        w = weights_from_matrices(model, A, V)
        if w is not None and reproduces_point(model, w, vals):
            return (w, K, "v from the common linear factor of the slice quadrics"), None
    return None, "no factorization of the slice quadrics gives weights of the right rank"


def _solve_single_token(model, vals):
    d, out, a = model.d, model.out, model.ranks[0]
    F0 = model.base_ring()
    S = PolynomialRing(F0, [f"z{k}" for k in range(1, d + 1)])
    z = S.gens()
    cubics = {}
    scaled = model.coordinate_scaling == "scaled"
    for x, c, v in zip(model.coordinate_ring().gens(), model.coordinates_list(), vals):
        raw = v * model.term_count(c) if scaled else v
        p, q, r = c.indices
        cubics[c.row] = cubics.get(c.row, S.zero()) + raw * z[p - 1] * z[q - 1] * z[r - 1]
    rows = [i for i in model.output_rows() if cubics.get(i)]
    if not rows:
        return (weights_from_matrices(model, matrix(F0, d, d), matrix(F0, out, d)), F0,
                "the zero point, V = 0"), None
    i0 = rows[0]
    f = cubics[i0]
    cands = [g for g, e in f.factor() if g.degree() == 1]
    if not cands and d == 2 and len(rows) == 1:
        return _solve_binary_cubic(model, f, i0, vals)
    if not cands and (F0 is QQ or F0.is_finite()):
        return _solve_single_token_qqbar(model, f, i0, rows, cubics, vals)
    if not cands:
        return None, f"the cubic {f} has no linear factor over {F0}"
    for ell in cands:
        quad = f // ell
        found = matrix_of_quadric(quad, a)
        if found is None:
            continue
        K, A = found
        SK = PolynomialRing(K, S.variable_names())
        zk = SK.gens()
        V = matrix(K, out, d)
        V.set_row(i0 - 1, vector(K, [ell.monomial_coefficient(z[k]) for k in range(d)]))
        ok = True
        for i in rows[1:]:
            vi, r = SK(cubics[i]).quo_rem(SK(quad))
            if r != 0:
                ok = False
                break
            V.set_row(i - 1, vector(K, [vi.monomial_coefficient(zk[k]) for k in range(d)]))
        if not ok:
            continue
        w = weights_from_matrices(model, A, V)
        if w is not None and reproduces_point(model, w, vals):
            return (w, K, "a linear factor of the cubic, A from the quadric"), None
    return None, "no linear factor of the cubic leaves a quadric of rank at most 2a"


def _solve_single_token_qqbar(model, f, i0, rows, cubics, vals):
    r"""
    Split the cubic ``f`` (no rational linear factor) over `\overline{\QQ}`
    (over `\GF{q}`: over `\GF{q^6}`, where every cubic and quadric splits) and solve the fiber there.
    """
    from sage_attention.variety.quadrics import closure_field
    QQbar = closure_field(f.base_ring(), 3)
    out, a, d = model.out, model.ranks[0], model.d
    SK = PolynomialRing(QQbar, f.parent().variable_names())
    zk = SK.gens()
    fK = SK(f)
    for ell, _ in fK.factor():
        if ell.degree() != 1:
            continue
        quad = fK // ell
        found = matrix_of_quadric(quad, a)
        if found is None:
            continue
        K, A = found
        A = A.change_ring(QQbar)
        V = matrix(QQbar, out, d)
        V.set_row(i0 - 1, vector(QQbar, [ell.monomial_coefficient(zk[k]) for k in range(d)]))
        ok = True
        for i in rows[1:]:
            vi, r = SK(cubics[i]).quo_rem(quad)
            if r != 0:
                ok = False
                break
            V.set_row(i - 1, vector(QQbar, [vi.monomial_coefficient(zk[k]) for k in range(d)]))
        if not ok:
            continue
        w = weights_from_matrices(model, A, V)
        if w is not None and reproduces_point(model, w, vals):
            return (w, QQbar, f"a linear factor of the cubic over {QQbar}, "
                    "A from the quadric"), None
    return None, f"the cubic {f} has no linear factor leaving a quadric of rank at most 2a"


def _solve_binary_cubic(model, f, i0, vals):
    r"""
    Split a binary cubic over `\overline{\QQ}` (over `\GF{q}`: over `\GF{q^6}`; every binary cubic splits).
    """
    from sage_attention.variety.quadrics import closure_field
    QQbar = closure_field(f.base_ring(), 3)
    out, a = model.out, model.ranks[0]
    z1, z2 = f.parent().gens()
    U = PolynomialRing(f.base_ring(), "s")
    g = U([f.monomial_coefficient(z1 ** k * z2 ** (3 - k)) for k in range(4)])
    # f = lc * prod (z1 - r z2) * z2^(3 - deg g)
    lc = g.leading_coefficient()
    lins = []
    for r, e in g.roots(QQbar):
        lins += [vector(QQbar, [1, -r])] * e
    lins += [vector(QQbar, [0, 1])] * (3 - g.degree())
    if len(lins) != 3:
        return None, f"the cubic {f} did not split"
    V = matrix(QQbar, out, 2)
    V.set_row(i0 - 1, QQbar(lc) * lins[0])
    A = lins[1].column() * lins[2].row()
    w = weights_from_matrices(model, A, V)
    if w is not None and reproduces_point(model, w, vals):
        return (w, QQbar, f"the binary cubic split over {QQbar}"), None
    return None, "the split binary cubic did not give weights of the right rank"
