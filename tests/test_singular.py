"""Singular and boundary points of one lightning layer."""
import random

import pytest
from sage.all__sagemath_singular import QQ, matrix, zero_matrix, random_matrix, ZZ

from sage_attention import LightningAttention
from sage_attention.models.jacobian import layer_derivatives as _layer_derivatives
from sage_attention.models.base import random_matrix as _random_matrix
from sage_attention.variety.singular_points import singular_point

ARCHS = [(3, 1, 1), (3, 2, 1), (3, 2, 2), (3, 1, 2), (4, 2, 2), (2, 2, 1)]


def forward_rank(M, weights, ninputs=12, seed=0):
    """Rank of d(outputs at random inputs)/d(Q, K, V): an independent exact computation."""
    rng = random.Random(seed)
    rows = []
    for _ in range(ninputs):
        X = _random_matrix(QQ, M.d, M.tokens, rng)
        derivs, _ = _layer_derivatives(M, X, weights, QQ)
        rows += [[D[i, j] for D in derivs] for i in range(M.out) for j in range(M.tokens)]
    return matrix(QQ, rows).rank()


def nonzero(r, c, rng):
    return matrix(QQ, r, c, [rng.choice([-3, -2, -1, 1, 2, 3]) for _ in range(r * c)])


@pytest.mark.parametrize("d, out, a", ARCHS)
def test_random_points_are_smooth(d, out, a):
    M = LightningAttention(d=d, t=2, a=a, out=out)
    for seed in range(3):
        w = M.random_weights(seed=seed)
        R = singular_point(M, w)
        assert not R.singular and R.reasons == () and not R.boundary
        assert R.differential_rank == M.expected_dimension() == forward_rank(M, w, seed=seed)
        P = singular_point(M, point=M.coefficients_at(w))
        assert not P.singular and not P.boundary


@pytest.mark.parametrize("d, out, a", ARCHS)
def test_constructed_singular_points(d, out, a):
    M = LightningAttention(d=d, t=2, a=a, out=out)
    rng = random.Random(d * 100 + out * 10 + a)
    gen = M.expected_dimension()
    cases = []
    # vertex: V = 0, and A = 0 (Q = 0)
    cases.append(("vertex", [(nonzero(a, d, rng), nonzero(a, d, rng), zero_matrix(QQ, out, d))]))
    cases.append(("vertex", [(zero_matrix(QQ, a, d), nonzero(a, d, rng), nonzero(out, d, rng))]))
    # rank A below a (< d): Q, K of rank a - 1
    if 2 <= a < d:
        Q = nonzero(a - 1, d, rng).stack(zero_matrix(QQ, 1, d))
        K = nonzero(a - 1, d, rng).stack(zero_matrix(QQ, 1, d))
        cases.append(("rank A < a", [(Q, K, nonzero(out, d, rng))]))
    # rank-one / rank-one: V = p k^T, A = k^T q (row V = col A = span k)
    k, q, p = nonzero(1, d, rng), nonzero(1, d, rng), nonzero(out, 1, rng)
    Q = q.stack(zero_matrix(QQ, a - 1, d))
    K = k.stack(zero_matrix(QQ, a - 1, d))
    cases.append(("rank-one / rank-one", [(Q, K, p * k)]))
    for reason, w in cases:
        R = singular_point(M, w)
        assert reason in R.reasons, (reason, R)
        assert R.singular
        assert R.differential_rank == forward_rank(M, w) < gen
        if reason != "vertex" or w[0][2] != 0:      # coefficient point (nonzero): same reason
            P = singular_point(M, point=M.coefficients_at(w))
            assert reason in P.reasons and P.singular


@pytest.mark.parametrize("d, out, a", [(3, 2, 1), (3, 2, 2), (2, 2, 1)])
def test_rank_one_not_aligned_is_smooth(d, out, a):
    # rank V = rank A = 1 but row V != col A: no rank drop, not on the boundary
    M = LightningAttention(d=d, t=2, a=a, out=out)
    rng = random.Random(7)
    k, q, p = nonzero(1, d, rng), nonzero(1, d, rng), nonzero(out, 1, rng)
    v = k + matrix(QQ, [[1] + [0] * (d - 1)])
    w = [(q.stack(zero_matrix(QQ, a - 1, d)), k.stack(zero_matrix(QQ, a - 1, d)), p * v)]
    R = singular_point(M, w)
    if a == 1:
        assert not R.singular and not R.boundary
        assert R.differential_rank == forward_rank(M, w) == M.expected_dimension()
        P = singular_point(M, point=M.coefficients_at(w))
        assert not P.singular and not P.boundary


@pytest.mark.parametrize("d, out, a", [(2, 1, 1), (3, 1, 1), (3, 2, 2)])
def test_boundary_points(d, out, a):
    M = LightningAttention(d=d, t=2, a=a, out=out, coordinate_scaling="scaled")
    rng = random.Random(11)
    k, q, p = nonzero(1, d, rng), nonzero(1, d, rng), nonzero(out, 1, rng)
    w = [(q.stack(zero_matrix(QQ, a - 1, d)), k.stack(zero_matrix(QQ, a - 1, d)), 3 * p * k)]
    assert singular_point(M, w).boundary
    assert singular_point(M, point=M.coefficients_at(w)).boundary
    # a nearby generic point is not on the boundary
    v = 3 * k + matrix(QQ, [[1] + [0] * (d - 1)])
    w2 = [(w[0][0], w[0][1], p * v)]
    assert not singular_point(M, w2).boundary


def test_boundary_separates_real_manifold_in_the_slice():
    # d = 2, d' = 1, a = 1: image points are q1 Sym(v k) (x) e_1; Sym(v k) is never definite
    # over the reals, and it is semidefinite (det = 0) exactly on the boundary v || k
    M = LightningAttention(d=2, t=2, a=1, coordinate_scaling="scaled")
    rng = random.Random(3)
    for _ in range(20):
        v, k = nonzero(1, 2, rng), nonzero(1, 2, rng)
        S = (v.transpose() * k + k.transpose() * v) / 2
        R = singular_point(M, [(matrix(QQ, [[1, 0]]), k, v)])
        assert S.det() <= 0
        assert R.boundary == (S.det() == 0)
