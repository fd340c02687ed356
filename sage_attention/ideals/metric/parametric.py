r"""
ED degrees through a parametrization chart

When the vanishing ideal of `X = \overline{\varphi(K^m)}` is large, count
the critical points of the loss `L(\theta) = (\varphi(\theta) - u)^T
\Lambda (\varphi(\theta) - u)` in weight space instead. The symmetries of
the parametrization make its fibers positive-dimensional, so first choose a
chart transverse to them: keep `k = \dim X` weights whose Jacobian columns
are independent at a random point and set the others to random constants
(a gauge). The chart map `\psi : K^k \to X` is then dominant and generically
finite, of degree `e` (the fiber size, counted here too).

Pure critical points (where the Jacobian of `\psi` has rank `k`) map to
critical points of `d_u` on the smooth part of `X`; for generic `u` those lie
over the general points of `X` [DHOST2016]_, each with `e` preimages, so

.. MATH::

    \#\{\text{pure critical points of } L \circ \psi\} = e \cdot \mathrm{EDdegree}(X).

Both counts are exact over `GF(p)` (one Gröbner basis each, localized at a
maximal minor `m` of `\mathrm{Jac}(\psi)` that is nonzero at a random
point, which removes the points where the Jacobian drops rank: the
spurious critical points). No pure critical point is lost: `\psi(V(m))`
has dimension less than `\dim X`, and for generic data the critical points
of `d_u` avoid any proper closed subset of `X` [DHOST2016]_ (the ED
correspondence over it does not dominate the data space); likewise the
fiber over a random point. A minor of `\mathrm{Jac}(\psi)` itself is
sparse where a random combination `B^T \mathrm{Jac}(\psi)` of its rows is
dense: for the quadrics of rank two in `21` coordinates (`k = 11`) the
determinant takes seconds instead of minutes.

EXAMPLES:

The two-neuron quadratic network `\RR^3 \to \RR^2 \to \RR`: `13` under a
generic metric, as from its vanishing ideal, with `e` pure critical points
over each one::

    sage: from sage_attention import PolynomialNetwork
    sage: from sage_attention.ideals.metric.parametric import parametric_ed_count
    sage: M = PolynomialNetwork([3, 2, 1], 2)
    sage: c = parametric_ed_count(M.parametrization(), 'generic', p=8388593, seed=1)
    sage: c['ed_degree'], c['pure'] == c['fiber'] * 13, c['dimension']
    (13, True, 5)
"""
# sage.doctest: needs sage.libs.singular
import random

from sage.all__sagemath_singular import GF, PolynomialRing, matrix, vector

from sage_attention.ideals.metric.backends import quotient_dimension
from sage_attention.ideals.metric.gram import gram_matrix


def chart(polys, rng):
    r"""
    Return ``(keep, values)``: the weights kept and random values of all weights, for a chart transverse to the fibers.

    The kept weights are the pivots of the Jacobian at the random point,
    taken in the order of decreasing degree of the map in each weight (so
    the weights in which the map is linear, like scalings, are fixed first).

    INPUT:

    - ``polys`` -- the coordinates of the map, polynomials over `GF(p)`
    - ``rng`` -- a :class:`random.Random`

    OUTPUT: a pair (list of variable indices, list of field elements)

    EXAMPLES::

        sage: import random
        sage: from sage_attention.ideals.metric.parametric import chart
        sage: R.<a,b,w> = GF(101)[]
        sage: chart([w*a^2, w*a*b, w*b^2], random.Random(int(1)))[0]     # keep a, b: fix the scaling w
        [0, 1]
    """
    P = polys[0].parent()
    F = P.base_ring()
    p = F.characteristic()
    values = [F(rng.randrange(1, p)) for _ in range(P.ngens())]
    J = matrix(F, [[f.derivative(x)(values) for x in P.gens()] for f in polys])
    order = sorted(range(P.ngens()), key=lambda i: (-max(f.degree(P.gen(i)) for f in polys), rng.random()))
    pivots = J.matrix_from_columns(order).pivots()
    return sorted(order[i] for i in pivots), values


def parametric_ed_count(phi, metric="generic", p=None, seed=None, exponents=None, data=None, backend=None):
    r"""
    Return the counts of the parametrization route: pure critical points, fiber size and their quotient, the ED degree.

    INPUT:

    - ``phi`` -- a ring map coordinates `\to` weights (the model's
      ``parametrization()``), over `\QQ` or `GF(p)`
    - ``metric`` -- (default: ``'generic'``) as for
      :func:`~sage_attention.ideals.metric.gram.gram_matrix`
    - ``p`` -- (default: the first of ``settings.ED_PRIMES``) the prime
    - ``seed`` -- (default: ``None``) the seed of the chart, data and metric
    - ``exponents`` -- (default: ``None``) for ``'bombieri_weyl'``
    - ``data`` -- (default: ``None``, random) the data point
    - ``backend`` -- (default: ``None``) see :mod:`~sage_attention.ideals.metric.backends`

    OUTPUT: a dictionary with ``'pure'`` (pure critical points of the loss
    in the chart), ``'fiber'`` (the generic fiber size of the chart map),
    ``'ed_degree'`` (their quotient; ``None`` if it is not an integer or a
    count is infinite), ``'dimension'`` (`\dim X`), ``'prime'``, ``'kept'``
    (the weights of the chart)

    EXAMPLES:

    The cone over the twisted cubic, parametrized by `(s, t) \mapsto (s^3,
    s^2 t, s t^2, t^3)`: the fiber is the cube roots of unity, and the ED
    degree under the standard metric is `7` (generic, as these coordinates are)::

        sage: from sage_attention.ideals.metric.parametric import parametric_ed_count
        sage: R.<c0,c1,c2,c3> = QQ[]
        sage: S.<s,t> = QQ[]
        sage: c = parametric_ed_count(R.hom([s^3, s^2*t, s*t^2, t^3], S), 'euclidean', seed=2)
        sage: c['pure'], c['fiber'], c['ed_degree']
        (21, 3, 7)
    """
    from sage_attention.settings import settings
    rng = random.Random(None if seed is None else int(seed))
    p = int(settings.ED_PRIMES[0] if p is None else p)
    F = GF(p)
    P0 = phi.codomain()
    P = P0.change_ring(F)
    polys = [P(phi(x)) for x in phi.domain().gens()]
    N = len(polys)
    keep, values = chart(polys, rng)
    k = len(keep)
    Q = PolynomialRing(F, [str(P.gen(i)) for i in keep] + ["ed_t"], order="degrevlex")
    sub = [Q.gen(keep.index(i)) if i in keep else values[i] for i in range(P.ngens())]
    psi = [f(sub) for f in polys]
    th = Q.gens()[:k]
    t = Q.gens()[-1]
    Jpsi = matrix(Q, [[f.derivative(x) for x in th] for f in psi])
    # a maximal minor of Jac(psi) that is nonzero at a random point: it vanishes where the rank drops
    point = [F(rng.randrange(1, p)) for _ in range(k)] + [F(0)]
    rows = matrix(F, [[f(point) for f in row] for row in Jpsi.rows()]).transpose().pivots()
    loc = 1 - t * Jpsi.matrix_from_rows(rows).determinant()
    gram = gram_matrix(metric, N, F, exponents=exponents, seed=rng.randrange(2**30))
    u = vector(F, [rng.randrange(1, p) for _ in range(N)]) if data is None else vector(F, list(data))
    resid = matrix(Q, gram) * (vector(Q, psi) - vector(Q, list(u)))
    grad = Jpsi.transpose() * resid
    pure = quotient_dimension(Q.ideal(list(grad) + [loc]), backend)
    theta1 = [F(rng.randrange(1, p)) for _ in range(k)] + [F(0)]
    fiber = quotient_dimension(Q.ideal([f - f(theta1) for f in psi] + [loc]), backend)
    ed = None
    if pure is not None and fiber and pure % fiber == 0:
        ed = pure // fiber
    return {"pure": pure, "fiber": fiber, "ed_degree": ed, "dimension": k, "prime": p,
            "kept": [str(P.gen(i)) for i in keep]}
