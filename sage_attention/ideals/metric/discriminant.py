r"""
The ED discriminant of a plane curve, and the chambers of real critical points

For a curve `V(f) \subset \RR^2` the critical points of the Euclidean
distance from a data point `u` are the solutions of the Lagrange system
`f = 0`, `x - u = \lambda \nabla f`. Their number over `\CC` is the ED
degree for `u` off a curve, the *ED discriminant* [DHOST2016]_, where two of
them meet: the system and the determinant of its Jacobian in `(x, \lambda)`
vanish together. :func:`ed_discriminant` eliminates `x` and `\lambda`
(Singular, over `\QQ`). The real part of the ED discriminant cuts the plane
into chambers where the number of *real* critical points is constant (it
changes only where two real ones meet); :func:`chamber_counts` counts them
at the points of a grid by exact real root isolation (msolve).

EXAMPLES:

The ED discriminant of the ellipse `x^2 + 2 y^2 = 1` is its evolute, the
astroid-like sextic `(a u)^{2/3} + (b v)^{2/3} = (a^2 - b^2)^{2/3}` with
`a = 1, b = 1/\sqrt 2`, made polynomial::

    sage: from sage_attention.ideals.metric.discriminant import ed_discriminant
    sage: R.<x,y> = QQ[]
    sage: D = ed_discriminant(x^2 + 2*y^2 - 1); D.degree()
    6
    sage: D(1/2, 0), D(-1/2, 0)         # the cusps ((a^2 - b^2)/a, 0) on the major axis
    (0, 0)
"""
# sage.doctest: needs sage.libs.singular
from sage.all__sagemath_singular import QQ, PolynomialRing, matrix


def _lagrange(f, u_names=("u", "v")):
    """The ring ``QQ[x, y, l, u, v]`` (eliminating ``x, y, l`` first) and the Lagrange system of ``f`` in it."""
    R = f.parent()
    names = [str(g) for g in R.gens()]
    S = PolynomialRing(QQ, names + ["ed_lambda"] + list(u_names), order=f"degrevlex(3),degrevlex(2)")
    x, y, lam, u, v = S.gens()
    F = S(f)
    eqs = [F, x - u - lam * F.derivative(x), y - v - lam * F.derivative(y)]
    return S, eqs


def ed_discriminant(f):
    r"""
    Return the ED discriminant of the plane curve `V(f)` (Euclidean metric), a polynomial in the data `(u, v)`.

    INPUT:

    - ``f`` -- a nonconstant polynomial over `\QQ` in two variables (its
      reduced form is used)

    OUTPUT: a squarefree polynomial in ``u, v`` over `\QQ` (the product of
    the components of the discriminant of codimension one)

    EXAMPLES:

    The parabola `y = x^2`: its evolute is the semicubical parabola
    `27 u^2 = 16 (v - 1/2)^3`::

        sage: from sage_attention.ideals.metric.discriminant import ed_discriminant
        sage: R.<x,y> = QQ[]
        sage: D = ed_discriminant(y - x^2); u, v = D.parent().gens()
        sage: D == (v - 1/2)^3 - 27/16*u^2
        True

    A circle: every normal passes through the center, and the discriminant
    is that point alone (codimension `2`): no curve, the constant `1`::

        sage: ed_discriminant(x^2 + y^2 - 1)
        1

    TESTS::

        sage: ed_discriminant(PolynomialRing(QQ, 'x', 3).gen(0))
        Traceback (most recent call last):
        ...
        ValueError: f (=x0) must be a nonconstant polynomial in two variables
    """
    from sage_attention.ideals.metric.boundary import reduced
    R = f.parent()
    if R.ngens() != 2 or f.is_constant():
        raise ValueError(f"f (={f}) must be a nonconstant polynomial in two variables")
    g = reduced(f.change_ring(QQ))
    S, eqs = _lagrange(g)
    x, y, lam = S.gens()[:3]
    J = matrix(S, [[e.derivative(t) for t in (x, y, lam)] for e in eqs]).determinant()
    E = S.ideal(eqs + [J]).elimination_ideal([x, y, lam])
    T = PolynomialRing(QQ, ["u", "v"])
    gens = [T(h) for h in E.gens() if h != 0]
    if not gens:
        return T(0)
    from sage.all__sagemath_singular import gcd
    h = gens[0]
    for k in gens[1:]:
        h = gcd(h, k)
    if h.is_constant():
        return T(1)
    h = reduced(h)
    return h / h.lc()


def real_count(f, data):
    r"""
    Return the number of real critical points of the Euclidean distance from ``data`` on `V(f)` (msolve), or ``None``.

    ``None`` when the Lagrange system is not zero-dimensional (special data).

    EXAMPLES::

        sage: from sage_attention.ideals.metric.discriminant import real_count
        sage: R.<x,y> = QQ[]
        sage: real_count(y - x^2, [0, 1]), real_count(y - x^2, [0, -1])
        (3, 1)
    """
    from sage.rings.real_mpfi import RealIntervalField
    n = f.parent().ngens()
    names = [str(g) for g in f.parent().gens()]
    S = PolynomialRing(QQ, names + ["ed_lambda"], order="degrevlex")
    xs, lam = S.gens()[:n], S.gens()[n]
    F = S(f)
    L = S.ideal([F] + [xs[i] - QQ(data[i]) - lam * F.derivative(xs[i]) for i in range(n)])
    d = L.dimension()
    if d < 0:
        return 0
    if d > 0:
        return None
    return len(L.variety(RealIntervalField(53), algorithm="msolve", proof=False))


def chamber_counts(f, xrange, yrange, points=7):
    r"""
    Return the numbers of real critical points at the data of a grid: ``{(u, v): count}``.

    INPUT:

    - ``f`` -- a polynomial over `\QQ` in two variables
    - ``xrange``, ``yrange`` -- pairs of rationals: the box of the grid
    - ``points`` -- (default: `7`) grid points per side

    OUTPUT: a dictionary from rational points to integers (points with
    special data are left out)

    EXAMPLES:

    The parabola `y = x^2`: inside its evolute (`27 u^2 < 16 (v - 1/2)^3`)
    three real normals, outside one::

        sage: from sage_attention.ideals.metric.discriminant import chamber_counts
        sage: R.<x,y> = QQ[]
        sage: C = chamber_counts(y - x^2, (-1, 1), (-1, 2), points=3)
        sage: C[(0, 2)], C[(1, 2)], C[(0, -1)], C[(1, 1/2)]
        (3, 3, 1, 1)
    """
    xa, xb = QQ(xrange[0]), QQ(xrange[1])
    ya, yb = QQ(yrange[0]), QQ(yrange[1])
    out = {}
    for i in range(points):
        for j in range(points):
            u = xa + (xb - xa) * i / (points - 1)
            v = ya + (yb - ya) * j / (points - 1)
            c = real_count(f, (u, v))
            if c is not None:
                out[(u, v)] = c
    return out


__all__ = ["ed_discriminant", "real_count", "chamber_counts"]
