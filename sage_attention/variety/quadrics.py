r"""
Quadrics `x^T A x` with `A` of bounded rank

A quadric `q(x) = x^T A x` sees only the symmetric part
`\mathrm{Sym}(A) = (A + A^T)/2` of `A` (:func:`symmetric_matrix`). Fitting
a quadric to `x^T A x` with `\operatorname{rank} A \le a` is the step of
the fiber (:ref:`mathematics, §4 <math-4>`) that gives the matrix `A` of a
lightning layer:

- over an algebraically closed field this is possible iff
  `\operatorname{rank} q \le 2a` (:func:`matrix_of_quadric`): pair the
  squares of a diagonal form, `c_1 y_1^2 + c_2 y_2^2 = c_1 (y_1 - b y_2)(y_1 + b y_2)`;
- over `\RR` iff `q` has at most `a` positive and at most `a` negative
  eigenvalues (:func:`inertia`, :func:`real_matrix_of_rank`).

Both rest on a congruence diagonalization `S = P^T D P`
(:func:`congruence_diagonalization`), exact over any field.
"""
# sage.doctest: needs sage.libs.singular
from sage.all__sagemath_singular import matrix, vector


def symmetric_matrix(quad):
    r"""
    Return the symmetric matrix `S` of the quadratic form ``quad``: `z^T S z = ` ``quad``.

    INPUT:

    - ``quad`` -- a homogeneous quadratic polynomial in `z_1, \ldots, z_d`

    OUTPUT: a symmetric `d \times d` matrix over the base ring of ``quad``

    EXAMPLES::

        sage: from sage_attention.variety.quadrics import symmetric_matrix
        sage: R.<z1, z2> = QQ[]
        sage: S = symmetric_matrix(z1^2 + 3*z1*z2); S
        [  1 3/2]
        [3/2   0]
        sage: vector(R.gens()) * S * vector(R.gens())
        z1^2 + 3*z1*z2
    """
    R = quad.parent()
    F = R.base_ring()
    z = R.gens()
    d = len(z)
    return matrix(F, d, d, lambda i, j: quad.monomial_coefficient(z[i] * z[j])
                  * (1 if i == j else F(1) / 2))


def congruence_diagonalization(S):
    r"""
    Return ``(D, P)`` with ``S == P.transpose() * D * P``, ``D`` diagonal, ``P`` invertible.

    Symmetric Gaussian elimination (row and column operations together), over
    the field of ``S``; by Sylvester's law of inertia the signs of the
    diagonal of ``D`` are those of the eigenvalues of a real ``S``.

    INPUT:

    - ``S`` -- a symmetric square matrix over a field of characteristic not 2

    OUTPUT: a pair ``(D, P)`` of matrices over the field of ``S``

    EXAMPLES::

        sage: from sage_attention.variety.quadrics import congruence_diagonalization
        sage: S = matrix(QQ, [[0, 1], [1, 0]])
        sage: D, P = congruence_diagonalization(S); D
        [   2    0]
        [   0 -1/2]
        sage: P.transpose() * D * P == S, P.is_invertible()
        (True, True)
    """
    F = S.base_ring()
    n = S.nrows()
    S = copy_matrix(S)
    P = matrix.identity(F, n)   # S_current = P^{-T} S0 P^{-1}; track L with S0 = L^T D L
    L = matrix.identity(F, n)
    # symmetric Gaussian elimination with congruence: E S E^T
    E_total = matrix.identity(F, n)
    for k in range(n):
        if S[k, k] == 0:
            j = next((j for j in range(k + 1, n) if S[j, j] != 0), None)
            if j is not None:
                S.swap_rows(k, j)
                S.swap_columns(k, j)
                E_total.swap_rows(k, j)
            else:
                j = next((j for j in range(k + 1, n) if S[k, j] != 0), None)
                if j is None:
                    continue
                S.add_multiple_of_row(k, j, 1)
                S.add_multiple_of_column(k, j, 1)
                E_total.add_multiple_of_row(k, j, 1)
        for j in range(k + 1, n):
            if S[j, k] != 0:
                m = -S[j, k] / S[k, k]
                S.add_multiple_of_row(j, k, m)
                S.add_multiple_of_column(j, k, m)
                E_total.add_multiple_of_row(j, k, m)
    # E S0 E^T = D  =>  S0 = E^{-1} D E^{-T} = P^T D P with P = E^{-T}
    return S, E_total.inverse().transpose()


def copy_matrix(M):
    r"""
    Return a mutable copy of the matrix ``M``.

    EXAMPLES::

        sage: from sage_attention.variety.quadrics import copy_matrix
        sage: M = matrix(QQ, [[1, 2]]); M.set_immutable()
        sage: N = copy_matrix(M); N[0, 0] = 5; N, M
        ([5 2], [1 2])
    """
    from copy import copy
    return copy(M)


def inertia(S):
    r"""
    Return ``(n_plus, n_minus)``: the numbers of positive and negative eigenvalues
    of the real symmetric matrix ``S`` (over `\QQ`, a real number field or ``AA``).

    Exact: a congruence diagonalization and the signs of the diagonal
    (Sylvester's law of inertia).

    EXAMPLES::

        sage: from sage_attention.variety.quadrics import inertia
        sage: inertia(matrix(QQ, [[0, 1], [1, 0]])), inertia(identity_matrix(QQ, 3))
        ((1, 1), (3, 0))
    """
    from sage.all__sagemath_singular import AA
    D, _ = congruence_diagonalization(S)
    signs = [AA(D[i, i]).sign() for i in range(D.nrows())]
    return signs.count(1), signs.count(-1)


def real_matrix_of_rank(S, a):
    r"""
    Return a real matrix `A` of rank at most ``a`` with `\mathrm{Sym}(A) = S`, or ``None``.

    A real `A` of rank at most `a` has `x^T A x = \sum_{i \le a} (k_i \cdot x)(q_i \cdot x)
    = \sum_i \tfrac14 ((k_i + q_i) \cdot x)^2 - \tfrac14 ((k_i - q_i) \cdot x)^2`,
    so `S = \mathrm{Sym}(A)` has at most `a` positive and at most `a` negative
    eigenvalues. Conversely, if `S = P^T D P` (``D`` diagonal) has `n_+, n_- \le a`,
    each pair of a positive `D_{ii}` and a negative `D_{jj}` is the symmetric
    part of the rank-one `D_{ii} (p_i - \beta p_j)(p_i + \beta p_j)^T`,
    `\beta = \sqrt{-D_{jj}/D_{ii}}`; pairing `\operatorname{rank} S - a` of them
    leaves `a` rank-one terms.

    OUTPUT: a matrix over the field of ``S`` (when `\operatorname{rank} S \le a`)
    or over ``AA``; ``None`` if `n_+ > a` or `n_- > a`

    EXAMPLES::

        sage: from sage_attention.variety.quadrics import real_matrix_of_rank
        sage: S = diagonal_matrix(QQ, [1, 1, -1])
        sage: A = real_matrix_of_rank(S, 2); A.rank(), (A + A.T) / 2 == S
        (2, True)
        sage: real_matrix_of_rank(identity_matrix(QQ, 3), 2) is None
        True
    """
    from sage.all__sagemath_singular import AA
    F = S.base_ring()
    D, P = congruence_diagonalization(S)
    n = S.nrows()
    pos = [i for i in range(n) if AA(D[i, i]) > 0]
    neg = [i for i in range(n) if AA(D[i, i]) < 0]
    if len(pos) > a or len(neg) > a:
        return None
    k = max(0, len(pos) + len(neg) - a)
    if k == 0:
        return S
    A = matrix(AA, n, n)
    rows = [P.row(i).change_ring(AA) for i in range(n)]
    for i, j in zip(pos[:k], neg[:k]):
        b = (-AA(D[j, j]) / AA(D[i, i])).sqrt()
        A += AA(D[i, i]) * (rows[i] - b * rows[j]).column() * (rows[i] + b * rows[j]).row()
    for i in pos[k:] + neg[k:]:
        A += AA(D[i, i]) * rows[i].column() * rows[i].row()
    return A


def closure_field(F, degree):
    r"""
    Return a field over which every polynomial of degree at most ``degree`` over ``F`` splits.

    ``QQbar`` for a field of characteristic `0`; for a finite field
    `\GF{q}`, its extension `\GF{q^k}` with `k` the least common multiple of
    `1, \ldots,` ``degree`` (every irreducible factor of degree `j` splits
    in `\GF{q^j}`), into which ``F`` coerces.

    EXAMPLES::

        sage: from sage_attention.variety.quadrics import closure_field
        sage: closure_field(QQ, 2)
        Algebraic Field
        sage: K = closure_field(GF(101), 3); K.order() == 101^6, K.has_coerce_map_from(GF(101))
        (True, True)
    """
    if F.characteristic() == 0:
        from sage.all__sagemath_singular import QQbar
        return QQbar
    from math import lcm
    k = lcm(*range(1, degree + 1))
    if k == 1:
        return F
    if F.is_prime_field():
        from sage.all__sagemath_singular import GF
        return GF(F.order() ** k, "b", modulus=F["x"].irreducible_element(k))
    return F.extension(k, "b")


def matrix_of_quadric(quad, a):
    r"""
    Return ``(K, A)`` with `z^T A z = ` ``quad`` and `\operatorname{rank} A \le a`, or ``None``.

    Such an `A` exists over an algebraically closed field iff
    `\operatorname{rank} q \le 2a`. The field ``K`` is that of ``quad``
    when its symmetric matrix already has rank at most `a` or ``quad`` is a
    product of two linear forms over it; else ``QQbar`` (over a finite field
    `\GF{q}`: `\GF{q^2}`, :func:`closure_field`).

    INPUT:

    - ``quad`` -- a quadratic form in `z_1, \ldots, z_d` over `\QQ`, a
      number field, ``QQbar`` or a finite field of odd characteristic
    - ``a`` -- a positive integer, the rank bound

    OUTPUT: a pair ``(K, A)``, ``A`` a `d \times d` matrix over ``K``; or
    ``None`` when `\operatorname{rank} q > 2a`

    EXAMPLES::

        sage: from sage_attention.variety.quadrics import matrix_of_quadric
        sage: R.<z1, z2, z3> = QQ[]
        sage: matrix_of_quadric(z1*z2 - z2^2, 1)
        (
                        [ 0  0  0]
                        [ 1 -1  0]
        Rational Field, [ 0  0  0]
        )
        sage: K, A = matrix_of_quadric(z1^2 + z2^2, 1); K, A.rank()
        (Algebraic Field, 1)
        sage: z = vector(R.change_ring(K).gens()); z * A * z
        z1^2 + z2^2
        sage: matrix_of_quadric(z1^2 + z2^2 + z3^2, 1) is None
        True

    Over `\GF{7}`, where `-1` is not a square, `z_1^2 + z_2^2` splits over `\GF{49}`::

        sage: S.<z1, z2> = GF(7)[]
        sage: K, A = matrix_of_quadric(z1^2 + z2^2, 1); K.order(), A.rank()
        (49, 1)
        sage: z = vector(S.change_ring(K).gens()); z * A * z
        z1^2 + z2^2
    """
    R = quad.parent()
    F = R.base_ring()
    d = R.ngens()
    z = R.gens()
    Sm = matrix(F, d, d, lambda i, j: quad.monomial_coefficient(z[i] * z[j])
                * (1 if i == j else F(1) / 2))
    s = Sm.rank()
    if s <= a:
        return F, Sm
    if s > 2 * a:
        return None
    # a product of two rational linear forms: A = l1 l2^T
    facs = [g for g, e in quad.factor() for _ in range(e) if g.degree() == 1]
    if len(facs) == 2:
        c = quad // (facs[0] * facs[1])
        u = vector(F, [facs[0].monomial_coefficient(x) for x in z]) * F(c)
        w = vector(F, [facs[1].monomial_coefficient(x) for x in z])
        return F, u.column() * w.row()
    # diagonalize over F and pair the squares: c1 y1^2 + c2 y2^2 = c1 (y1 - b y2)(y1 + b y2)
    D, P = congruence_diagonalization(Sm)   # Sm = P^T D P
    cs = [D[i, i] for i in range(d)]
    nz = [i for i in range(d) if cs[i] != 0]
    K = closure_field(F, 2)
    A = matrix(K, d, d)
    y = [P.row(i).change_ring(K) for i in range(d)]
    k = 0
    while k < len(nz):
        i = nz[k]
        if k + 1 < len(nz):
            j = nz[k + 1]
            b = (K(-cs[j]) / K(cs[i])).sqrt()
            A += K(cs[i]) * (y[i] - b * y[j]).column() * (y[i] + b * y[j]).row()
            k += 2
        else:
            A += K(cs[i]) * y[i].column() * y[i].row()
            k += 1
    return K, A
