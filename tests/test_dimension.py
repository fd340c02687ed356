"""Dimension of single-layer lightning attention against the published formulas.

The computed dimension is the rank of a Jacobian obtained by forward-mode
differentiation of the network at random inputs (network.py). The expected
value is written out here from doc/mathematics.rst, §5 / [HMK2024], independently of
the package's own formula code, and a second, independent rank is taken from
the symbolic parametrization (the Jacobian of the coefficient polynomials).
"""
import itertools
import random

import pytest

from sage.all__sagemath_singular import GF, QQ, matrix

from sage_attention import LightningAttention
from sage_attention.models.base import AttentionNetwork


def hmk_formula(d, out, a, t):
    """doc/mathematics.rst, §5, written out independently of the package."""
    if t >= 2:
        r = min(a, d)
        return d * out + r * (2 * d - r) - 1
    s = min(2 * a, d)
    return d * out + s * (2 * d - s + 1) // 2 - 1


GRID = [(d, out, a, t, w)
        for d in (2, 3, 4)
        for out in (1, 2, 3)
        for a in range(1, d + 2)
        for t in (1, 2, 3)
        for w in ("QKV", "AV")]


@pytest.mark.parametrize("d,out,a,t,weights", GRID)
def test_jacobian_rank_equals_formula(d, out, a, t, weights):
    M = LightningAttention(d=d, t=t, a=a, out=out, weight_space=weights)
    D = M.dimension_report(seed=1000 * d + 100 * out + 10 * a + t)
    assert D.dimension == hmk_formula(d, out, a, t)
    assert D.is_well_defined()
    assert D.failure_probability < 1e-3


def symbolic_jacobian_rank(M, seed):
    """Rank of the Jacobian of the coefficient polynomials at a random point.

    For weights='AV' with a < d the point is a random rank-a matrix and the
    Jacobian is restricted to the tangent space of the determinantal
    variety, spanned by the derivatives of (B, C) -> B C.
    """
    F = GF(1000003)
    rng = random.Random(seed)
    W = M.weight_ring()
    images = M.essential_parametrization().im_gens()
    if M.weight_space == "QKV":
        pt = [QQ(rng.randrange(1000003)) for _ in W.gens()]
        J = matrix(F, [[f.derivative(x)(*pt) for x in W.gens()] for f in images])
        return J.rank()
    d, out, a = M.d, M.out, M.ranks[0]
    r = min(a, d)
    B = matrix(QQ, d, r, [rng.randrange(1000003) for _ in range(d * r)])
    C = matrix(QQ, r, d, [rng.randrange(1000003) for _ in range(r * d)])
    V = matrix(QQ, out, d, [rng.randrange(1000003) for _ in range(out * d)])
    A = B * C
    pt = V.list() + A.list()
    J = matrix(F, [[f.derivative(x)(*pt) for x in W.gens()] for f in images])
    nV = out * d
    JV, JA = J[:, :nV], J[:, nV:]
    B, C = B.change_ring(F), C.change_ring(F)
    if r == d:
        return J.rank()
    tangent = []
    for i, k in itertools.product(range(d), range(r)):
        E = matrix(F, d, r)
        E[i, k] = 1
        tangent.append((E * C).list())
    for k, j in itertools.product(range(r), range(d)):
        E = matrix(F, r, d)
        E[k, j] = 1
        tangent.append((B * E).list())
    T = matrix(F, tangent).transpose()
    return JV.augment(JA * T).rank()


@pytest.mark.parametrize("d,out,a,t,weights", [
    (2, 1, 1, 2, "QKV"), (3, 1, 2, 2, "AV"), (3, 2, 1, 3, "QKV"), (3, 2, 2, 1, "QKV"),
    (3, 1, 1, 1, "AV"), (4, 1, 2, 2, "AV"), (3, 3, 3, 2, "QKV"),
])
def test_forward_mode_rank_equals_symbolic_jacobian_rank(d, out, a, t, weights):
    M = LightningAttention(d=d, t=t, a=a, out=out, weight_space=weights)
    assert M.dimension(seed=7) == symbolic_jacobian_rank(M, seed=7)


@pytest.mark.parametrize("widths,ranks,expected", [
    ((3, 3, 3), (2, 2), 23),
    ((3, 4, 5), (2, 3), 30),
    ((3, 3, 3, 3), (2, 2, 2), 30),
    ((3, 3, 3), (1, 2), 18),
    ((3, 2, 3), (1, 1), 14),
])
def test_deep_dimensions(widths, ranks, expected):
    # values from doc/mathematics.rst, §5 (the [HMK2024] formulas and their known corrections)
    assert LightningAttention(widths=widths, ranks=ranks, t=3).dimension(seed=3) == expected


@pytest.mark.parametrize("widths,ranks,normalization", [
    ((3, 3, 3), (2, 2), ("lightning", "softmax")),
    ((3, 3, 3), (2, 2), ("softmax", "lightning")),
    ((2, 2, 2, 2), (2, 2, 2), ("lightning", "softmax", "lightning")),
    ((3, 4, 3), (3, 2), ("softmax", "lightning")),
])
def test_mixed_stack_dimension_is_the_formula_minus_one_per_lightning_layer(widths, ranks, normalization):
    # a stack mixing lightning and softmax layers: each lightning layer keeps its scaling symmetry,
    # so the computed rank is the softmax (no -l) formula minus the number of lightning layers
    M = AttentionNetwork(widths, ranks, 3, normalization=normalization)
    rs = [min(a, widths[0]) for a in ranks]
    formula = sum(r * (2 * widths[0] - r) for r in rs) + widths[0] * widths[-1]
    assert M.dimension(seed=1) == formula - normalization.count("lightning") == M.expected_dimension()
    assert "not published" in M.expected_dimension_note()


def test_dimension_is_reproducible_and_field_independent():
    M = LightningAttention(d=3, t=2, a=2, out=2)
    assert M.dimension_report(seed=5) == M.dimension_report(seed=5)
    assert M.dimension(seed=5, field=QQ) == M.dimension(seed=6)


def test_fiber_dimension_equals_symmetry_group():
    # generic fiber: orbit of GL_a x K^* (QKV, a <= d), of K^* (AV); [HMK2024]
    for d, out, a in [(2, 1, 1), (3, 2, 2), (4, 1, 3), (3, 3, 1)]:
        F = LightningAttention(d=d, t=2, a=a, out=out).fibers(seed=1)
        assert F.fiber_dimension == a * a + 1
        assert F.identifiable_up_to_symmetry
        G = LightningAttention(d=d, t=2, a=a, out=out, weight_space="AV").fibers(seed=1)
        assert G.fiber_dimension == 1


@pytest.mark.parametrize("d,a", [(16, 2), (12, 3)])
def test_wide_models_reach_the_formula_in_few_ranks(caplog, d, a):
    # the rows of one input add few dimensions (4 per input at width 30, rank 2): adding one input
    # per rank took 13 ranks of a matrix of 1000 columns there; the inputs now follow the growth seen
    import logging
    M = LightningAttention(d=d, t=2, a=a, out=d)
    with caplog.at_level(logging.INFO, logger="sage_attention"):
        D = M.dimension_report(seed=0)
    ranks = [r for r in caplog.records if r.getMessage().startswith("dimension: ")]
    assert D.dimension == hmk_formula(d, d, a, 2)
    assert D.failure_probability < 1e-3
    assert len(ranks) <= 5, [r.getMessage() for r in ranks]
