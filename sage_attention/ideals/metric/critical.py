r"""
The critical ideal of the squared distance, and its degree over `GF(p)`

Let `X \subset K^n` be the variety of a prime ideal `I = (g_1, \dots, g_s)`
of codimension `c`, `\Lambda` a symmetric Gram matrix and `u` a data point.
A smooth point `x \in X` is critical for `d_u(x) = (x-u)^T \Lambda (x-u)`
when `\Lambda (x - u)` lies in the normal space, the row space of the
Jacobian `\mathrm{Jac}(I)(x)` (rank `c` there). The ED degree is the number
of such points for generic `u` [DHOST2016]_.

ALGORITHM:

Instead of the `(c+1)`-minors of `[\Lambda(x-u); \mathrm{Jac}(I)]` (there
are `\binom{s+1}{c+1}\binom{n}{c}` of them), take `c` random combinations
`h = A g` of the generators and Lagrange multipliers `\lambda \in K^c`:

.. MATH::

    I + \bigl(\Lambda(x - u) - \mathrm{Jac}(h)^T \lambda\bigr) + (1 - t\,\det(\mathrm{Jac}(h) B))

in `K[x, \lambda, t]`, with `B` a random `n \times c` matrix. At a smooth
point of `X` where `\mathrm{Jac}(h)` has rank `c`, its rows span the normal
space and `\lambda` is unique. By Cauchy-Binet `\det(\mathrm{Jac}(h) B)` is
a combination of the `c`-minors of `\mathrm{Jac}(h)`, so the last equation
(Rabinowitsch's trick) removes the singular locus of `X` (and, on a cone,
its vertex) and the points where `h` does not cut `X` transversally: the
quotient is the localization at that determinant, whose dimension is that
of the saturation. One Gröbner basis, no minors, no saturation.

For a hypersurface `V(f)` (one generator, `c = 1`) with `f(u) \neq 0` and
`\Lambda` invertible, the localization is left out (``t = 1``): at a
solution where `\nabla f(x) = 0` the equations give `\Lambda (x - u) =
0`, so `x = u`, which is not on `V(f)`; every solution is a smooth point
with a unique `\lambda`. The determinant's equation costs more than the
rest for curves of high degree (three times the time for a curve of
degree `9`, with Singular).

The random choices (`A`, `B`, `u`, a generic `\Lambda`) are seeded. A count
at random data is the generic count unless the choices lie on a proper
closed set or `p` is one of finitely many bad primes; at any data each
count (with multiplicity) is at most the generic one (parameter
continuation), so a count that drops is a count at special data or metric.

EXAMPLES:

The circle `x^2 + y^2 = 1` has ED degree `2` under the Euclidean metric
(the two points on the line through the centre) and `4` under a generic
one (an ellipse's normals through a point: `D \sum_{i<n} (D-1)^i = 4`)::

    sage: from sage_attention.ideals.metric.critical import critical_count
    sage: R.<x,y> = GF(32003)[]
    sage: I = R.ideal([x^2 + y^2 - 1])
    sage: critical_count(I, 'euclidean', seed=0, backend='singular')
    2
    sage: critical_count(I, 'generic', seed=0, backend='singular')
    4
"""
# sage.doctest: needs sage.libs.singular
import random

from sage.all__sagemath_singular import PolynomialRing, matrix, vector

from sage_attention.ideals.metric.backends import quotient_dimension
from sage_attention.ideals.metric.gram import gram_matrix


def random_point(field, n, rng):
    r"""
    Return a random point of ``field^n`` with nonzero coordinates, drawn from ``rng``.

    INPUT:

    - ``field`` -- a prime field
    - ``n`` -- integer
    - ``rng`` -- a :class:`random.Random`

    OUTPUT: a vector

    EXAMPLES::

        sage: import random
        sage: from sage_attention.ideals.metric.critical import random_point
        sage: random_point(GF(101), 3, random.Random(int(0))) == random_point(GF(101), 3, random.Random(int(0)))
        True
    """
    p = field.characteristic()
    return vector(field, [rng.randrange(1, p) for _ in range(n)])


def codimension(I):
    r"""
    Return the codimension of the ideal ``I`` in its ring.

    INPUT:

    - ``I`` -- an ideal of a polynomial ring

    OUTPUT: an integer

    EXAMPLES::

        sage: from sage_attention.ideals.metric.critical import codimension
        sage: R.<x,y,z> = GF(101)[]
        sage: codimension(R.ideal([x*y - z^2])), codimension(R.ideal([R(0)]))
        (1, 0)
    """
    R = I.ring()
    if all(g == 0 for g in I.gens()):
        return 0
    return R.ngens() - I.dimension()


def critical_ideal(I, gram, data, seed=None, codim=None):
    r"""
    Return the critical ideal of the squared distance from ``data`` on `V(I)`, localized away from the singular locus.

    INPUT:

    - ``I`` -- a prime ideal of a polynomial ring over a prime field `GF(p)`
    - ``gram`` -- the symmetric Gram matrix `\Lambda` over `GF(p)`
    - ``data`` -- the data point `u` (a vector over `GF(p)`)
    - ``seed`` -- (default: ``None``) the seed of the random combinations
    - ``codim`` -- (default: ``None``, computed) the codimension `c` of `I`

    OUTPUT: an ideal of `GF(p)[x, \lambda, t]` (see the module's ALGORITHM)

    EXAMPLES::

        sage: from sage_attention.ideals.metric.critical import critical_ideal
        sage: R.<x,y> = GF(101)[]
        sage: J = critical_ideal(R.ideal([y - x^2]), identity_matrix(GF(101), 2), vector(GF(101), [1, 2]), seed=0)
        sage: J.ring().variable_names()
        ('x', 'y', 'ed_l0', 'ed_t')
        sage: J.vector_space_dimension()     # the parabola: 3 normals through a generic point
        3
        sage: J.gens()[-1]                   # a hypersurface off the data: not localized
        ed_t - 1

    The cone `x^2 + y^2 = z^2` is singular at its vertex, where the gradient
    vanishes; the vertex is not a solution, as the data are off the cone.
    From a data point on it, the localization is needed and used::

        sage: S.<x,y,z> = GF(101)[]
        sage: I = S.ideal([x^2 + y^2 - z^2]); E = identity_matrix(GF(101), 3)
        sage: critical_ideal(I, E, vector(GF(101), [1, 2, 4]), seed=0).vector_space_dimension()
        2
        sage: J = critical_ideal(I, E, vector(GF(101), [3, 4, 5]), seed=0); J.gens()[-1] == J.ring().gens()[-1] - 1
        False
    """
    R = I.ring()
    F = R.base_ring()
    n = R.ngens()
    c = codimension(I) if codim is None else int(codim)
    gens = [g for g in I.gens() if g != 0]
    rng = random.Random(None if seed is None else int(seed))
    p = F.characteristic()
    names = list(R.variable_names()) + [f"ed_l{j}" for j in range(c)] + ["ed_t"]
    S = PolynomialRing(F, names, order="degrevlex")
    xs = S.gens()[:n]
    lam = S.gens()[n:n + c]
    t = S.gens()[-1]
    emb = R.hom(list(xs), S)
    d = vector(S, list(xs)) - vector(S, list(data))
    grad = matrix(S, gram) * d
    if c == 0:
        return S.ideal(list(grad) + list(lam) + [t - 1])
    h = [sum(F(rng.randrange(1, p)) * emb(g) for g in gens) for _ in range(c)] if len(gens) > c else \
        [emb(g) for g in gens]
    Jh = matrix(S, [[hj.derivative(x) for x in xs] for hj in h])
    B = matrix(S, n, c, lambda i, j: F(rng.randrange(1, p)))
    eqs = [grad[i] - sum(lam[j] * Jh[j, i] for j in range(c)) for i in range(n)]
    if len(gens) == 1 and gens[0](*data) != 0 and matrix(F, gram).det() != 0:
        # a hypersurface V(f) with f(u) != 0 and an invertible metric: no localization is needed
        # (where grad f = 0 the equations force Lambda (x - u) = 0, i.e. x = u, which is not on V(f))
        return S.ideal([emb(g) for g in gens] + eqs + [t - 1])
    det = (Jh * B).determinant()
    return S.ideal([emb(g) for g in gens] + eqs + [1 - t * det])


def critical_count(I, metric="generic", data=None, seed=None, exponents=None, codim=None, backend=None,
                   gram=None):
    r"""
    Return the number of critical points (with multiplicity) of the squared distance on `V(I)` over `GF(p)`.

    INPUT:

    - ``I`` -- a prime ideal of a polynomial ring over `GF(p)`
    - ``metric`` -- (default: ``'generic'``) as for
      :func:`~sage_attention.ideals.metric.gram.gram_matrix`
    - ``data`` -- (default: ``None``, random) the data point `u`
    - ``seed`` -- (default: ``None``) the seed of every random choice
    - ``exponents`` -- (default: ``None``) for ``'bombieri_weyl'``
    - ``codim`` -- (default: ``None``, computed) the codimension of `I`
    - ``backend`` -- (default: ``None``) see
      :mod:`~sage_attention.ideals.metric.backends`
    - ``gram`` -- (default: ``None``) a Gram matrix over `GF(p)`, which
      replaces ``metric``

    OUTPUT: an integer, or ``None`` when the critical set is not finite
    (the data are special)

    EXAMPLES:

    `2 \times 2` matrices of rank one (the cone over `\mathbb{P}^1 \times
    \mathbb{P}^1`): two singular values under the Frobenius metric (Eckart-Young),
    six under a generic one [DHOST2016]_::

        sage: from sage_attention.ideals.metric.critical import critical_count
        sage: R.<a,b,c,d> = GF(32003)[]
        sage: I = R.ideal([a*d - b*c])
        sage: critical_count(I, 'euclidean', seed=1), critical_count(I, 'generic', seed=1)
        (2, 6)

    At special data the count drops: from the zero matrix a whole cone of
    points is critical, and the identity (two equal singular values) has a
    curve of critical rank one matrices::

        sage: critical_count(I, 'euclidean', data=[0, 0, 0, 0]) is None
        True
        sage: critical_count(I, 'euclidean', data=[1, 0, 0, 1], seed=1) is None
        True
    """
    R = I.ring()
    F = R.base_ring()
    rng = random.Random(None if seed is None else int(seed))
    if gram is None:
        gram = gram_matrix(metric, R.ngens(), F, exponents=exponents, seed=rng.randrange(2**30))
    u = random_point(F, R.ngens(), rng) if data is None else vector(F, list(data))
    J = critical_ideal(I, gram, u, seed=rng.randrange(2**30), codim=codim)
    return quotient_dimension(J, backend)
