r"""
Graded pieces of the vanishing ideal over a small prime field

The interpolation engine (:mod:`sage_attention.ideals.implicitization`)
evaluates at random points of `\GF{p}` itself and needs `p \ge 2^{16}`:
over a small prime field a polynomial can vanish at every point of
`\GF{p}^n` without being zero (`x^p - x`), so no number of points of
`\GF{p}` need find the degree-`\delta` piece `I_\delta`. Here the points
come from the smallest extension `\GF{p^k}` with `p^k \ge 2^{16}`
(:func:`~sage_attention.misc.extension_points.point_field`), and the kernel
is still computed over `\GF{p}`: each row of monomial values over
`\GF{p^k}` is written as its `k` coordinate rows over `\GF{p}`
(:func:`~sage_attention.misc.extension_points.subfield_rows`), so the
nullspace over `\GF{p}` of those rows is exactly the set of polynomials
with coefficients in `\GF{p}` that vanish at the points. Every kernel
vector is then composed with the parametrization: where all vanish, the
piece is proved (:func:`graded_piece`). For small models only (Sage's
linear algebra, no engine).
"""
from itertools import combinations_with_replacement
from math import comb

from sage.all__sagemath_singular import GF, matrix

from sage_attention.misc.extension_points import point_field, random_element, subfield_rows
from sage_attention.misc.randomness import python_random, resolve_seed
from sage_attention.models.checks import positive_integer

#: the largest number of monomials of a piece this module takes
MAXIMUM_MONOMIALS = 4000


def graded_piece(model, degree, seed=None):
    r"""
    Return a basis of the degree-``degree`` piece of the vanishing ideal of ``model`` over a prime
    field `\GF{p}`, proved: polynomials in ``model.essential_ring()``.

    ALGORITHM: the values of the `N` monomials of degree `\delta` in the
    essential coordinates at the images of random weights in `\GF{p^k}`
    (`p^k \ge 2^{16}`) give rows over `\GF{p^k}`; each is written as `k`
    rows over `\GF{p}` in the basis `1, z, \dots, z^{k-1}` (a vector
    `c \in \GF{p}^N` is orthogonal to a row over `\GF{p^k}` exactly when
    it is orthogonal to its `k` coordinate rows, the coordinate maps being
    `\GF{p}`-linear and together injective). Points are added until the
    rank over `\GF{p}` stops growing. The kernel contains `I_\delta`
    (a polynomial of the ideal vanishes at every point of the variety, over
    any extension); each kernel vector is composed with the parametrization
    exactly, and if one does not vanish more points are drawn (a nonzero
    polynomial `f \circ \varphi` of degree `e` vanishes at a random point of
    `\GF{p^k}` with probability at most `e / p^k`, Schwartz--Zippel, so
    this ends). When every kernel vector vanishes on the parametrization
    the kernel is `I_\delta`: the answer is proved, whatever the points.

    INPUT:

    - ``model`` -- a model with an essential parametrization (a lightning
      network with coordinates, a network of dense layers without biases or
      residual streams) over a prime field `\GF{p}`
    - ``degree`` -- positive integer `\delta`
    - ``seed`` -- (default: ``None``) integer; the random points

    OUTPUT: a list of polynomials over `\GF{p}` in the essential ring
    (of ``model.coordinate_model()`` for a network of dense layers), a basis
    of `I_\delta` in echelon form (the kernel's)

    EXAMPLES:

    The shallow network `x \mapsto c\,(w \cdot x)^3` in two variables over
    `\GF{101}`: the binary cubics that are cubes, the twisted cubic, whose
    ideal has three quadrics (the `2 \times 2` minors of the Hankel matrix)::

        sage: from sage_attention import PolynomialNetwork
        sage: from sage_attention.ideals.small_field_pieces import graded_piece
        sage: M = PolynomialNetwork([2, 1, 1], 3, base_ring=GF(101))
        sage: Q = graded_piece(M, 2, seed=0); len(Q)
        3
        sage: phi = M.coordinate_model().essential_parametrization(); all(phi(q) == 0 for q in Q)
        True
        sage: len(graded_piece(M, 1, seed=0))
        0

    Binary quartics that are sums of two fourth powers over `\GF{7}`, one
    cubic (the catalecticant determinant), as over `\QQ`, where the engine
    finds it::

        sage: len(graded_piece(PolynomialNetwork([2, 2, 1], 4, base_ring=GF(7)), 3, seed=1))
        1
        sage: from sage_attention.ideals.implicitization import implicitize
        sage: [g.degree() for g in implicitize(PolynomialNetwork([2, 2, 1], 4), 3, seed=1).essential_generators]
        [3]

    TESTS::

        sage: graded_piece(PolynomialNetwork([2, 1, 1], 3), 2)
        Traceback (most recent call last):
        ...
        ValueError: graded_piece works over a prime field GF(p); for a model over Rational Field use sage_attention.ideals.implicitization.implicitize(model, 2)
    """
    degree = positive_integer(degree, "degree")
    K = model.base_ring()
    p = int(K.characteristic())
    if p == 0 or not K.is_prime_field():
        raise ValueError(f"graded_piece works over a prime field GF(p); for a model over {K} use "
                         f"sage_attention.ideals.implicitization.implicitize(model, {degree})")
    # a network of dense layers: its view with coordinates (homogeneous networks; the others raise)
    view = model if hasattr(model, "essential_parametrization") else model.coordinate_model()
    phi = view.essential_parametrization()
    E = phi.domain()
    n = E.ngens()
    N = comb(n + degree - 1, degree)
    if N > MAXIMUM_MONOMIALS:
        raise ValueError(f"graded_piece takes at most {MAXIMUM_MONOMIALS} monomials, and degree {degree} in "
                         f"{n} essential coordinates has {N}: lower the degree, or take the model over QQ or "
                         "GF(65537) (the interpolation engine)")
    images = [phi(x) for x in E.gens()]
    W = images[0].parent() if images else phi.codomain()
    F = point_field(p)
    k = F.degree()
    top = degree * max((f.degree() for f in images if f != 0), default=0)
    if top >= F.order():
        # a polynomial of degree >= q can vanish on all of GF(q)^n: the points would not see it
        raise ValueError(f"graded_piece needs degree * (the degree of the parametrization) below the "
                         f"{F.order()} points of GF({p}^{k}), not {top}: lower the degree")
    exponents = []
    for c in combinations_with_replacement(range(n), degree):
        e = [0] * n
        for i in c:
            e[i] += 1
        exponents.append(e)
    monomials = [E.monomial(*e) for e in exponents]
    rng = python_random(resolve_seed(seed))
    Fp = GF(p)
    rows = []

    def add_point():
        w = [random_element(F, rng) for _ in W.gens()]
        values = [f(*w) if f != 0 else F(0) for f in images]
        powers = [[F(1)] for _ in values]
        for v, pw in zip(values, powers):
            for _ in range(degree):
                pw.append(pw[-1] * v)
        row = []
        for e in exponents:
            value = F(1)
            for i, a in enumerate(e):
                if a:
                    value *= powers[i][a]
            row.append(value)
        rows.extend(subfield_rows(row, k))

    rank, must_grow = 0, False
    while True:
        # points until the rank over GF(p) stops growing over a batch (after a kernel vector failed
        # its verification: until it grows first)
        batch = max(1, N // (4 * k))
        while True:
            for _ in range(batch):
                add_point()
            A = matrix(Fp, rows)
            new = A.rank()
            grew, rank = new > rank, new
            must_grow = must_grow and not grew
            if rank == N or not (grew or must_grow):
                break
        kernel = A.right_kernel_matrix()
        basis = [E.sum(c * m for c, m in zip(v, monomials) if c) for v in kernel.rows()]
        if all(phi(f) == 0 for f in basis):
            return basis
        # a kernel vector off the variety: the points were too few or special; draw more
        must_grow = True
