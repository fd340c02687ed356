r"""
Real points: realizability with real weights

A point with rational coordinates that some complex weights produce (see
:mod:`~sage_attention.variety.fibers`) may or may not be produced by *real*
weights; :func:`decide_real` decides which (:ref:`mathematics, §4 <math-4>`):

- `t = 1`: `y_i = (v_i \cdot x)\, q(x)`, `q(x) = x^T A x`. A real `A` of rank
  at most `a` has `q = \sum_{i \le a} (k_i \cdot x)(q_i \cdot x)`, a sum of `a`
  squares minus `a` squares, so `S = \mathrm{Sym}(A)` has at most `a`
  positive and at most `a` negative eigenvalues; conversely every real
  symmetric `S` with `n_+, n_- \le a` is `\mathrm{Sym}(A)` for a real `A` of
  rank at most `a` (:func:`~sage_attention.variety.quadrics.real_matrix_of_rank`).
  Since `v` is real, `v \cdot x` is a *real* linear factor of the cubic `f`
  of each row. So a real point is realizable with real weights iff for some
  real linear factor `\ell` of the first nonzero row `f`
  (:func:`real_linear_factors`: all of them, up to scale), `q = f / \ell`
  divides the other rows and has `n_+(q), n_-(q) \le a` (scaling `\ell` by
  `-1` swaps `n_+` and `n_-`). Over `\CC` the condition is only
  `\operatorname{rank} q \le 2a`.
- `t \ge 2`: `(v, A)` is determined up to `(\lambda v, A/\lambda)` by the
  cross coordinates, except that when all slice quadrics of a row are
  multiples of one quadric `g`, `v` may be either linear factor of `g`. So
  real weights exist iff `g` has a real linear factor (when the gcd of the
  slice quadrics is linear, it is real and so are the weights).

For example, `x_1 (x_1^2 + x_2^2 + x_3^2)` at `t = 1, d = 3, a = 2` is
realizable over `\overline{\QQ}` but not over `\RR`::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.variety.certificates import certify
    sage: from sage.repl.preparse import preparse
    sage: M1 = LightningAttention(d=3, t=1, a=2)
    sage: R.<x11, x21, x31> = QQ[]
    sage: c = certify(M1, matrix([[x11 * (x11^2 + x21^2 + x31^2)]])); c
    Realizable over C but not over R: weights over Algebraic Field reproduce the point exactly
    (found by solving the fiber: a linear factor of the cubic, A from the quadric);
    no real weights: every real factorization (real linear form) x (quadric) fails; ...
    sage: c.real, c.field
    (False, 'Algebraic Field')
    sage: for line in c.real_reason.split('; '): print(line)
    every real factorization (real linear form) x (quadric) fails
    x11^2 + x21^2 + x31^2 has rank 3 >= 3, so it has no linear factor
    for the real factor x11 of row 1, the quadric x11^2 + x21^2 + x31^2 has the symmetric
    matrix [(1, 0, 0), (0, 1, 0), (0, 0, 1)] with 3 positive and 0 negative eigenvalues, but
    Sym(A) of a real A of rank <= 2 has at most 2 of each
    sage: c.real_check
    'matrix(QQ, [[1, 0, 0], [0, 1, 0], [0, 0, 1]]).eigenvalues()'
    sage: eval(preparse(c.real_check))
    [1, 1, 1]

With `x_1^2 + x_2^2 - x_3^2` instead (signature `(2, 1)`) real weights exist;
they are real algebraic numbers, verified exactly::

    sage: c = certify(M1, matrix([[x11 * (x11^2 + x21^2 - x31^2)]])); c.real, c.field
    (True, 'Algebraic Real Field')
    sage: M1.coefficients_at(c.weights) == list(c.point)
    True

TESTS:

The same output matrix in scaled coordinates gets the same answer::

    sage: Ms = LightningAttention(d=3, t=1, a=2, coordinate_scaling='scaled')
    sage: c = certify(Ms, matrix([[x11 * (x11^2 + x21^2 + x31^2)]])); c.real, c.real_check
    (False, 'matrix(QQ, [[1, 0, 0], [0, 1, 0], [0, 0, 1]]).eigenvalues()')
"""
# sage.doctest: needs sage.libs.singular
import logging

from sage.all__sagemath_singular import (QQ, PolynomialRing, matrix, vector, gcd, Integer)

from sage_attention.variety.fibers import (essential_values, reproduces_point, slice_quadrics,
                                           weights_from_matrices)
from sage_attention.variety.quadrics import inertia, real_matrix_of_rank, symmetric_matrix

logger = logging.getLogger("sage_attention")


def _as_real_weights(weights):
    r"""
    Return ``weights`` over ``AA`` if every entry is real, else ``None``.
    """
    from sage.all__sagemath_singular import AA
    try:
        return [tuple(m.change_ring(AA) for m in layer) for layer in weights]
    except (TypeError, ValueError, ArithmeticError):
        return None


def _is_real_field(F):
    from sage.all__sagemath_singular import AA
    if F is QQ or F is AA:
        return True
    try:
        AA(F.gen())
        return True
    except (TypeError, ValueError, ArithmeticError, AttributeError):
        return False


def decide_real(model, vals, weights, Fw):
    r"""
    Decide whether a point realizable over `\CC` (by ``weights`` over ``Fw``)
    is realizable with real weights.

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``vals`` -- the coordinate values of the point
    - ``weights`` -- weights over ``Fw`` that produce the point
    - ``Fw`` -- their field

    OUTPUT: ``(real, weights, field, how, reason, check)``: ``real`` is
    ``True``, ``False`` or ``None`` (undecided, or the base field is not
    real); ``weights`` are real weights over ``field`` found by ``how``, or
    ``None`` when the given weights are kept; ``reason`` is a sentence and
    ``check`` ``None`` or a one-line Sage expression showing the obstruction

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.real_points import decide_real
        sage: M = LightningAttention(d=2, t=2, a=1)
        sage: w = M.random_weights(seed=1)
        sage: decide_real(M, M.coefficients_at(w), w, QQ)
        (True, None, None, None, 'the weights are real (over Rational Field)', None)
        sage: wbar = [tuple(m.change_ring(QQbar) for m in w[0])]
        sage: decide_real(M, M.coefficients_at(w), wbar, QQbar)[::4]
        (True, 'the weights are real algebraic numbers')
    """
    if model.base_ring() is not QQ:
        return (None, None, None, None,
                f"not asked: the base field {model.base_ring()} is not a subfield of R", None)
    if _is_real_field(Fw):
        return True, None, None, None, f"the weights are real (over {Fw})", None
    rw = _as_real_weights(weights)
    if rw is not None:
        from sage.all__sagemath_singular import AA
        return True, rw, AA, None, "the weights are real algebraic numbers", None
    try:
        if model.tokens == 1:
            return real_weights_single_token(model, vals)
        return _real_cross(model, vals)
    except (ArithmeticError, ValueError, TypeError, NotImplementedError) as exc:
        logger.debug("certify: real realizability failed: %s", exc)
        return None, None, None, None, f"not decided ({exc})", None


def _row_cubics(model, vals):
    r"""
    Return ``{row: cubic}``: the output rows as cubic forms in ``z1, ..., zd`` over the base ring.
    """
    d, t = model.d, model.tokens
    F0 = model.base_ring()
    names = model.input_ring().variable_names()
    S = PolynomialRing(F0, [names[(k - 1) * t] for k in range(1, d + 1)])
    z = S.gens()
    cubics = {}
    scaled = model.coordinate_scaling == "scaled"
    for c, v in zip(model.coordinates_list(), vals):
        raw = v * model.term_count(c) if scaled else v
        p, q, r = c.indices
        cubics[c.row] = cubics.get(c.row, S.zero()) + raw * z[p - 1] * z[q - 1] * z[r - 1]
    return S, cubics


def _nonzero_principal_minor(G):
    d = G.nrows()
    for i in range(d):
        for j in range(i + 1, d):
            m = G[i, i] * G[j, j] - G[i, j] ** 2
            if m:
                return (i, j), m
    return None, 0


def real_linear_factors(f):
    r"""
    Return the real linear factors of a form ``f`` over `\QQ` (a cubic or a quadric), up to scale.

    OUTPUT: a pair ``(factors, notes)``: ``factors`` is a list of pairs
    ``(K, ell)`` with ``K`` a real field (`\QQ`, a real quadratic field or
    ``AA``) and ``ell`` a linear form over ``K`` dividing ``f``; every real
    linear factor of ``f`` is a real multiple of one of them. ``notes``
    says, for each factor of ``f`` over `\QQ` that gives no real linear
    factor, why (checkable: a definite `2 \times 2` principal minor, or a
    rank).

    EXAMPLES::

        sage: from sage_attention.variety.real_points import real_linear_factors
        sage: R.<z1, z2, z3> = QQ[]
        sage: facs, notes = real_linear_factors(z1 * (z1^2 + z2^2 + z3^2))
        sage: facs
        [(Rational Field, z1)]
        sage: notes
        ['z1^2 + z2^2 + z3^2 has rank 3 >= 3, so it has no linear factor']
        sage: facs, notes = real_linear_factors(z3 * (z1^2 - 2*z2^2)); [str(l) for K, l in facs]
        ['z3', 'z1 + (-s)*z2', 'z1 + s*z2']
        sage: real_linear_factors(z3 * (z1^2 + 2*z2^2))[1]
        ['z1^2 + 2*z2^2 is definite (principal minor of rows 1, 2 of its matrix: 2 > 0), so it has no real linear factor']
    """
    from sage.all__sagemath_singular import QuadraticField, QQbar, AA
    facs, notes = [], []
    for g, e in f.factor():
        if g.degree() == 1:
            facs.append((QQ, g))
        elif g.degree() == 2:
            G = symmetric_matrix(g)
            r = G.rank()
            if r >= 3:
                notes.append(f"{g} has rank {r} >= 3, so it has no linear factor")
                continue
            ij, m = _nonzero_principal_minor(G)
            if m > 0:
                notes.append(f"{g} is definite (principal minor of rows {ij[0] + 1}, "
                             f"{ij[1] + 1} of its matrix: {m} > 0), so it has no real linear "
                             "factor")
                continue
            sf = Integer(QQ(-m).numerator() * QQ(-m).denominator()).squarefree_part()
            K = QuadraticField(sf, "s")
            gK = g.change_ring(K)
            facs += [(K, h) for h, _ in gK.factor() if h.degree() == 1]
        else:
            found = False
            for h, _ in g.change_ring(QQbar).factor():
                if h.degree() != 1:
                    continue
                c = next(x for x in h.coefficients() if x)
                h = h / c
                try:
                    facs.append((AA, h.change_ring(AA)))
                    found = True
                except (TypeError, ValueError):
                    pass
            if not found:
                notes.append(f"{g} has no real linear factor (its factors over the algebraic "
                             "numbers are not real)")
    return facs, notes


def _matrix_expression(S):
    if S.base_ring() is not QQ:
        return None
    rows = ", ".join("[" + ", ".join(str(x) for x in r) + "]" for r in S.rows())
    return f"matrix(QQ, [{rows}]).eigenvalues()"


def real_weights_single_token(model, vals):
    r"""
    Decide real realizability for `t = 1` and find real weights.

    The model is `y_i = (v_i \cdot x)\, q(x)` with real `v` and `q = x^T A x`,
    `A` real of rank at most `a`. So `q` is `f / \ell` for a real linear
    factor `\ell` of the first nonzero row `f`; the candidates are all real
    linear factors (:func:`real_linear_factors`), and `q` must have at most
    `a` positive and `a` negative eigenvalues
    (:func:`~sage_attention.variety.quadrics.real_matrix_of_rank`) and
    divide the other rows.

    INPUT:

    - ``model`` -- a one-layer lightning model with `t = 1` over `\QQ`
    - ``vals`` -- the coordinate values of a nonzero point that satisfies the
      linear relations

    OUTPUT: ``(True, weights, field, how, reason, None)`` with real weights
    verified exactly, or ``(False, None, None, None, reason, check)``
    with ``check`` ``None`` or a one-line Sage expression whose output shows
    an obstruction (the eigenvalues of a rational symmetric matrix)

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.points import point_values
        sage: from sage_attention.variety.real_points import real_weights_single_token
        sage: M = LightningAttention(d=3, t=1, a=1)
        sage: R.<x11, x21, x31> = QQ[]
        sage: vals, _ = point_values(M, matrix([[x31 * (x11^2 - 2*x21^2)]]))
        sage: real, w, K, how, reason, check = real_weights_single_token(M, vals)
        sage: real, K, M.coefficients_at(w) == vals
        (True, Algebraic Real Field, True)
        sage: vals, _ = point_values(M, matrix([[x31 * (x11^2 + 2*x21^2)]]))
        sage: real, w, K, how, reason, check = real_weights_single_token(M, vals); real, check
        (False, 'matrix(QQ, [[1, 0, 0], [0, 2, 0], [0, 0, 0]]).eigenvalues()')
        sage: print(reason.split('; ')[1])
        x11^2 + 2*x21^2 is definite (principal minor of rows 1, 2 of its matrix: 2 > 0), so it has no real linear factor
    """
    S, cubics = _row_cubics(model, vals)
    out, a, d = model.out, model.ranks[0], model.d
    rows = [i for i in model.output_rows() if cubics.get(i)]
    i0 = rows[0]
    f = cubics[i0]
    facs, notes = real_linear_factors(f)
    why = list(notes)
    check = None
    for K, ell in facs:
        SK = ell.parent()
        zk = SK.gens()
        quad, r = SK(f).quo_rem(ell)
        if r != 0:
            continue
        Sm = symmetric_matrix(quad)
        A = real_matrix_of_rank(Sm, a)
        if A is None:
            npos, nneg = inertia(Sm)
            why.append(f"for the real factor {ell} of row {i0}, the quadric {quad} has the "
                       f"symmetric\nmatrix {Sm.rows()} with {npos} positive and {nneg} "
                       f"negative eigenvalues, but\nSym(A) of a real A of rank <= {a} has at "
                       f"most {a} of each")
            check = check or _matrix_expression(Sm)
            continue
        FA = A.base_ring()
        V = matrix(FA, out, d)
        V.set_row(i0 - 1, vector(FA, [FA(ell.monomial_coefficient(zk[k])) for k in range(d)]))
        ok = True
        for i in rows[1:]:
            vi, r = SK(cubics[i]).quo_rem(quad)
            if r != 0 or (vi and vi.degree() != 1):
                why.append(f"for the real factor {ell} of row {i0}, the quadric {quad} does "
                           f"not divide row {i}")
                ok = False
                break
            V.set_row(i - 1, vector(FA, [FA(vi.monomial_coefficient(zk[k])) if vi else 0
                                         for k in range(d)]))
        if not ok:
            continue
        w = weights_from_matrices(model, A, V)
        if w is not None and reproduces_point(model, w, vals):
            return (True, w, FA, f"a real linear factor of the cubic, A real of rank <= {a} "
                    "with Sym(A) the quadric", f"the weights are real (over {FA})", None)
    if not facs:
        why.insert(0, f"row {i0} (the cubic {f}) has no real linear factor, but v . x must "
                   "be one")
    else:
        why.insert(0, "every real factorization (real linear form) x (quadric) fails")
    return False, None, None, None, "; ".join(why), check


def _real_cross(model, vals):
    r"""
    Real realizability for `t \ge 2` when the complex weights are not real.

    `(v, A)` is unique up to `(\lambda v, A / \lambda)` except when all
    slice quadrics of a row are multiples of one quadric `g`, which `v`
    must divide. So weights are real exactly when the common factor `g` of
    the slice quadrics has a real linear factor.
    """
    d = model.d
    ev = essential_values(model, vals)
    S = PolynomialRing(QQ, [f"z{k}" for k in range(1, d + 1)])
    for i in model.output_rows():
        qs = slice_quadrics(model, ev, S, i)
        if not any(qs):
            continue
        g = gcd([q for q in qs if q])
        if g.degree() != 2:
            break
        facs, notes = real_linear_factors(g)
        if facs:
            break
        G = symmetric_matrix(g)
        return (False, None, None, None,
                f"every slice quadric of row {i} is a multiple of g = {g}, and the row "
                f"V_{i} of any weights is a linear factor of g; {'; '.join(notes)}",
                _matrix_expression(G))
    return (None, None, None, None,
            "not decided: the weights found are not real and no obstruction was found", None)
