r"""
Critical points of the squared loss in weight space: pure and spurious

For a parametrization `\varphi` (weights `\to` function space) and data `u`,
the squared loss `L(\theta) = (\varphi(\theta) - u)^T \Lambda (\varphi(\theta)
- u)` has critical points of two kinds [TKB2020]_:

- **pure** ones, where the Jacobian of `\varphi` has full rank `\dim X`:
  they map to critical points of the distance on the smooth part of the
  function space `X`, so their number is `e \cdot \mathrm{EDdegree}(X)`,
  where `e` is the generic fiber size (in a chart transverse to the fibers'
  continuous symmetries: :mod:`~sage_attention.ideals.metric.parametric`);
- **spurious** ones, where the Jacobian drops rank: artefacts of the
  parametrization, which may form positive-dimensional components.

:func:`loss_critical_points` works in a gauge chart over `GF(p)`: it counts
the pure critical points, the fiber size and the ED degree, and gives the
dimensions and degrees of the components of the spurious critical locus
(the critical ideal restricted to the rank-drop locus, i.e. plus the
maximal minors of the Jacobian, decomposed by Singular's ``minAssGTZ``).

EXAMPLES:

The two-neuron quadratic network `\RR^2 \to \RR^2 \to \RR` fills the binary
quadrics (no equation), so its ED degree is `1`; in a chart the loss has
``fiber`` pure critical points (one point of function space, its fiber),
and the spurious ones lie where the Jacobian drops rank (here isolated
points, 13 over the algebraic closure)::

    sage: from sage_attention import PolynomialNetwork
    sage: from sage_attention.ideals.metric.loss import loss_critical_points
    sage: C = loss_critical_points(PolynomialNetwork([2, 2, 1], 2).parametrization(), seed=1); C
    Critical points of the loss modulo 8388593 in a chart of 3 weights: 4 pure (= ED degree 1 x fiber 4),
    spurious (dimension, degree) ((0, 13),)
    sage: C.pure == C.ed_degree * C.fiber
    True
"""
# sage.doctest: needs sage.libs.singular
import random
from dataclasses import dataclass

from sage.all__sagemath_singular import GF, PolynomialRing, matrix, vector

from sage_attention.ideals.metric.gram import gram_matrix
from sage_attention.ideals.metric.parametric import chart, parametric_ed_count


@dataclass(frozen=True)
class LossCriticalPoints:
    r"""
    The critical points of the loss in a chart: ``pure``, ``fiber``, ``ed_degree``, ``spurious`` and the chart.

    ``spurious`` is a tuple of ``(dimension, degree)``: the dimensions of the
    components of the spurious critical locus and their total degree
    (``None`` when not computed: too many minors). Dimensions are affine,
    in the chart.

    EXAMPLES::

        sage: from sage_attention.ideals.metric.loss import LossCriticalPoints
        sage: LossCriticalPoints(12, 4, 3, ((1, 2),), 8388593, ('a', 'b')).to_dict()['spurious']
        [[1, 2]]
    """
    pure: object
    fiber: object
    ed_degree: object
    spurious: object
    prime: int
    kept: tuple

    def to_dict(self):
        r"""
        Return a JSON-ready dictionary.

        EXAMPLES::

            sage: from sage_attention.ideals.metric.loss import LossCriticalPoints
            sage: sorted(LossCriticalPoints(1, 1, 1, (), 2, ()).to_dict())
            ['ed_degree', 'fiber', 'kept', 'prime', 'pure', 'spurious']
        """
        return {"pure": self.pure, "fiber": self.fiber, "ed_degree": self.ed_degree, "prime": self.prime,
                "spurious": None if self.spurious is None else [list(c) for c in self.spurious],
                "kept": list(self.kept)}

    def __repr__(self):
        dims = "not computed" if self.spurious is None else str(self.spurious)
        return (f"Critical points of the loss modulo {self.prime} in a chart of {len(self.kept)} weights: "
                f"{self.pure} pure (= ED degree {self.ed_degree} x fiber {self.fiber}), "
                f"spurious (dimension, degree) {dims}")


def spurious_components(phi, metric="generic", p=None, seed=None, exponents=None, max_minors=500):
    r"""
    Return the spurious critical locus in a chart: ``(dimension, degree)`` by dimension, or ``None``.

    INPUT:

    - ``phi``, ``metric``, ``p``, ``seed``, ``exponents`` -- as for
      :func:`~sage_attention.ideals.metric.parametric.parametric_ed_count`
      (the same seed gives the same chart, data and metric)
    - ``max_minors`` -- (default: `500`) give up (``None``) beyond this many maximal minors

    OUTPUT: a sorted tuple of pairs: each dimension of a component and the
    sum of the degrees of the components of that dimension (over the
    algebraic closure of `GF(p)`); or ``None``

    EXAMPLES:

    For `(s, t) \mapsto (s^2, st, t^2)` the Jacobian drops rank only at the
    origin, which is critical for the loss: one spurious point::

        sage: from sage_attention.ideals.metric.loss import spurious_components
        sage: R.<a,b,c> = QQ[]; S.<s,t> = QQ[]
        sage: spurious_components(R.hom([s^2, s*t, t^2], S), seed=1)
        ((0, 1),)
    """
    from sage_attention.settings import settings
    from sage.all__sagemath_singular import binomial
    rng = random.Random(None if seed is None else int(seed))
    p = int(settings.ED_PRIMES[0] if p is None else p)
    F = GF(p)
    P = phi.codomain().change_ring(F)
    polys = [P(phi(x)) for x in phi.domain().gens()]
    keep, values = chart(polys, rng)
    k, N = len(keep), len(polys)
    if binomial(N, k) > max_minors:
        return None
    # (the number of variables given: a multivariate ring with one weight too)
    Q = PolynomialRing(F, len(keep), [str(P.gen(i)) for i in keep], order="degrevlex")
    sub = [Q.gen(keep.index(i)) if i in keep else values[i] for i in range(P.ngens())]
    psi = [f(sub) for f in polys]
    J = matrix(Q, [[f.derivative(x) for x in Q.gens()] for f in psi])
    for _ in range(N * k):          # the random draws of parametric_ed_count's matrix B
        rng.randrange(1, p)
    gram = gram_matrix(metric, N, F, exponents=exponents, seed=rng.randrange(2**30))
    u = vector(F, [rng.randrange(1, p) for _ in range(N)])
    grad = J.transpose() * (matrix(Q, gram) * (vector(Q, psi) - vector(Q, list(u))))
    I = Q.ideal(list(grad) + J.minors(k))
    if I.dimension() < 0:
        return ()
    total = {}
    for C in I.minimal_associated_primes():
        d = int(C.dimension())
        total[d] = total.get(d, 0) + affine_degree(C, rng)
    return tuple(sorted(total.items()))


def affine_degree(C, rng):
    r"""
    Return the degree of the affine variety of ``C``: its points on a random affine subspace.

    INPUT:

    - ``C`` -- a prime ideal over `GF(p)`
    - ``rng`` -- a :class:`random.Random`

    OUTPUT: an integer

    EXAMPLES::

        sage: import random
        sage: from sage_attention.ideals.metric.loss import affine_degree
        sage: R.<x,y,z> = GF(101)[]
        sage: affine_degree(R.ideal([x*y - z^2 - 1]), random.Random(int(0)))
        2
    """
    R = C.ring()
    F = R.base_ring()
    p = F.characteristic()
    d = C.dimension()
    planes = [sum(F(rng.randrange(1, p)) * x for x in R.gens()) - F(rng.randrange(1, p)) for _ in range(d)]
    return int((C + R.ideal(planes)).vector_space_dimension())


def loss_critical_points(phi, metric="generic", p=None, seed=None, exponents=None, backend=None, spurious=True):
    r"""
    Return the pure and spurious critical points of the squared loss in a gauge chart, over `GF(p)`.

    INPUT:

    - ``phi`` -- a ring map coordinates `\to` weights (a model's ``parametrization()``)
    - ``metric``, ``p``, ``seed``, ``exponents``, ``backend`` -- as for
      :func:`~sage_attention.ideals.metric.parametric.parametric_ed_count`
    - ``spurious`` -- boolean (default: ``True``); decompose the spurious locus

    OUTPUT: a :class:`LossCriticalPoints`

    EXAMPLES::

        sage: from sage_attention import PolynomialNetwork
        sage: from sage_attention.ideals.metric.loss import loss_critical_points
        sage: C = loss_critical_points(PolynomialNetwork([3, 2, 1], 2).parametrization(), 'generic', seed=2)
        sage: C.pure, C.fiber, C.ed_degree
        (52, 4, 13)
    """
    c = parametric_ed_count(phi, metric, p=p, seed=seed, exponents=exponents, backend=backend)
    sp = spurious_components(phi, metric, p=p, seed=seed, exponents=exponents) if spurious else None
    return LossCriticalPoints(c["pure"], c["fiber"], c["ed_degree"], sp, c["prime"], tuple(c["kept"]))
