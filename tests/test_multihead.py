"""
Multi-head, causal and residual lightning attention: the forward-mode
Jacobian rank against a separate straightforward evaluation. The test expands
the network symbolically token by token (y_j = rho x_j + sum over heads and
visible tokens n of (x_n^T A_h x_j) V_h x_n), takes the coefficients of every
monomial of every output entry as polynomials in the weights, and computes
the rank of their Jacobian at a random rational point.
"""
import itertools

import pytest
from sage.all__sagemath_singular import QQ, PolynomialRing, matrix, vector

from sage_attention import LightningAttention
from sage_attention.misc.errors import SpecError
from sage_attention.misc.randomness import python_random


def symbolic_rank(M, seed=0):
    heads = M.heads
    names = []
    for i, (a, h) in enumerate(zip(M.ranks, heads)):
        din, dout = M.widths[i], M.widths[i + 1]
        for hh in range(h):
            for letter, r, c in (("q", a, din), ("k", a, din), ("v", dout, din)):
                names += [f"{letter}{i}_{hh}_{x}_{y}" for x in range(r) for y in range(c)]
    W = PolynomialRing(QQ, names)
    g = iter(W.gens())
    layers = []
    for i, (a, h) in enumerate(zip(M.ranks, heads)):
        din, dout = M.widths[i], M.widths[i + 1]
        hs = []
        for _ in range(h):
            Q = matrix(W, a, din, [next(g) for _ in range(a * din)])
            K = matrix(W, a, din, [next(g) for _ in range(a * din)])
            V = matrix(W, dout, din, [next(g) for _ in range(dout * din)])
            hs.append((K.transpose() * Q, V))
        layers.append(hs)
    t = M.tokens
    R = PolynomialRing(W, [f"x{k}_{n}" for k in range(M.d) for n in range(t)])
    cols = [vector(R, [R.gen(k * t + n) for k in range(M.d)]) for n in range(t)]
    for hs in layers:
        new = []
        for j in range(t):
            y = cols[j] if M.residual else 0
            for A, V in hs:
                for n in range(t):
                    if M.causal and n > j:
                        continue
                    y = y + (cols[n] * A.change_ring(R) * cols[j]) * (V.change_ring(R) * cols[n])
            new.append(y)
        cols = new
    coeffs = [c for col in cols for entry in col for c in entry.coefficients()]
    rng = python_random(seed)
    pt = {x: QQ(rng.randint(-30, 30)) for x in W.gens()}
    J = matrix(QQ, [[c.derivative(x).subs(pt) for x in W.gens()] for c in coeffs])
    return J.rank()


GRID = [
    dict(d=2, t=2, a=1, heads=2),
    dict(d=2, t=2, a=1, heads=3),                       # past saturation
    dict(d=2, t=3, a=1, heads=2, out=2),
    dict(d=3, t=2, a=1, heads=2),
    dict(d=2, t=3, a=1, causal=True),
    dict(d=2, t=3, a=2, heads=2, causal=True),
    dict(d=2, t=2, a=1, out=2, residual=True),
    dict(d=2, t=3, a=1, out=2, heads=2, causal=True, residual=True),
    dict(d=2, t=1, a=1, heads=2),
    dict(widths=[2, 2, 2], ranks=[1, 1], t=2, residual=True),
    dict(widths=[2, 2, 2], ranks=[1, 1], t=2, heads=[2, 1], causal=True, residual=True),
]


@pytest.mark.parametrize("kw", GRID)
def test_dimension_equals_symbolic_jacobian_rank(kw):
    M = LightningAttention(**kw)
    assert M.dimension(seed=1) == symbolic_rank(M, seed=2)


def test_heads_saturate_at_the_linear_span():
    one = LightningAttention(d=2, t=2, a=1)
    ranks = [LightningAttention(d=2, t=2, a=1, heads=h).dimension(seed=0) for h in (1, 2, 3)]
    assert ranks[0] == one.dimension(seed=0)
    assert ranks == [min(h * ranks[0], len(one.essential_coordinates())) for h in (1, 2, 3)]


def test_one_head_without_mask_is_the_plain_layer():
    assert LightningAttention(d=3, t=2, a=1, heads=1) is LightningAttention(d=3, t=2, a=1)


def test_forward_agrees_with_the_straightforward_evaluation():
    M = LightningAttention(d=2, t=3, a=1, out=2, heads=2, causal=True, residual=True)
    w = M.random_weights(seed=4)
    X = matrix(QQ, [[1, -2, 3], [0, 5, -1]])
    cols = [X.column(n) for n in range(3)]
    expect = []
    for j in range(3):
        y = cols[j]
        for Q, K, V in w[0]:
            A = K.transpose() * Q
            y = y + sum((cols[n] * A * cols[j]) * (V * cols[n]) for n in range(j + 1))
        expect.append(y)
    assert M.forward(X, w) == matrix(QQ, expect).transpose()


def test_bad_input():
    with pytest.raises(SpecError, match="residual connections need out d_1 .=3. equal"):
        LightningAttention(d=2, t=2, a=1, out=3, residual=True)
    with pytest.raises(SpecError, match="heads of layer 1"):
        LightningAttention(d=2, t=2, a=1, heads=0)
    with pytest.raises(TypeError, match="heads of layer 1"):
        LightningAttention(d=2, t=2, a=1, heads=1.5)
    with pytest.raises(TypeError, match="causal"):
        LightningAttention(d=2, t=2, a=1, causal="yes")
    with pytest.raises(SpecError, match="one entry per layer"):
        LightningAttention(widths=[2, 2, 2], ranks=[1, 1], t=2, heads=[1, 2, 3])
