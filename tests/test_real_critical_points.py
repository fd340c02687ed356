"""
Real critical points of the distance to a plane curve (msolve) and the ED discriminant, against
classical geometry: a point inside the evolute of a conic has more real normals than one outside
(ellipse: 4 inside the astroid (a u)^(2/3) + (b v)^(2/3) < (a^2 - b^2)^(2/3), else 2; parabola
y = x^2: 3 inside 27 u^2 < 16 (v - 1/2)^3, else 1), and the distance to the curve is the least
distance to densely sampled points of it.
"""
import math
import random

import numpy as np
import pytest

from sage.all__sagemath_singular import QQ, PolynomialRing

from sage_attention.ideals.metric.discriminant import ed_discriminant, real_count
from sage_attention.ideals.metric.real_points import real_critical_points

R = PolynomialRing(QQ, ["x", "y"])
x, y = R.gens()


def random_points(n, seed):
    rng = random.Random(seed)
    return [(QQ(rng.randint(-150, 150)) / 100, QQ(rng.randint(-150, 150)) / 100) for _ in range(n)]


@pytest.mark.parametrize("u,v", random_points(12, 1))
def test_ellipse_real_normals_inside_and_outside_the_astroid(u, v):
    a, b = 1.0, 1 / math.sqrt(2)                    # x^2 + 2 y^2 = 1
    lhs = abs(a * float(u)) ** (2 / 3) + abs(b * float(v)) ** (2 / 3)
    rhs = (a * a - b * b) ** (2 / 3)
    if abs(lhs - rhs) < 1e-3:
        pytest.skip("too close to the evolute")
    assert real_count(x ** 2 + 2 * y ** 2 - 1, (u, v)) == (4 if lhs < rhs else 2)


@pytest.mark.parametrize("u,v", random_points(12, 2))
def test_parabola_real_normals_inside_and_outside_the_semicubical_parabola(u, v):
    inside = 27 * u ** 2 < 16 * (v - QQ(1) / 2) ** 3
    if 27 * u ** 2 == 16 * (v - QQ(1) / 2) ** 3:
        pytest.skip("on the evolute")
    assert real_count(y - x ** 2, (u, v)) == (3 if inside else 1)


def test_the_ed_discriminant_of_a_parabola_is_its_evolute():
    D = ed_discriminant(y - x ** 2)
    u, v = D.parent().gens()
    assert D * 16 == 16 * (v - QQ(1) / 2) ** 3 - 27 * u ** 2


@pytest.mark.parametrize("f,u", [(x ** 2 + 2 * y ** 2 - 1, (QQ(1) / 3, QQ(1) / 5)),
                                 (x ** 3 - y ** 2 + x - QQ(1) / 2, (QQ(1), QQ(1))),
                                 (x * y - 1, (QQ(1) / 2, QQ(-1) / 3)),
                                 (y ** 2 - x ** 3, (QQ(-1), QQ(0)))])       # a cusp at the origin
def test_the_minimum_is_the_distance_to_the_sampled_curve(f, u):
    P = real_critical_points(f, u)
    best = float("inf")
    # sample the real curve: for x on a fine grid, the real roots in y (numpy)
    dy = f.degree(y)
    coeffs = [f.coefficient({y: j}).univariate_polynomial() if dy else None for j in range(dy, -1, -1)]
    for t in np.linspace(-4, 4, 32001):
        c = [float(q(t)) if q.degree() >= 0 else 0.0 for q in coeffs]
        while c and c[0] == 0:
            c = c[1:]
        if len(c) < 2:
            continue
        for r in np.roots(c):
            if abs(r.imag) < 1e-9:
                best = min(best, math.hypot(t - float(u[0]), r.real - float(u[1])))
    radius = P.radius()
    assert radius is not None
    assert float(radius.lower()) - 1e-6 <= best <= float(radius.upper()) + 1e-3, (best, radius)
    assert P.real_count <= P.complex_count and (P.complex_count - P.real_count) % 2 == 0
