"""
The Jacobian's rows by reverse mode (models.derivatives.layer_gradients for lightning stacks,
models.stack_gradients.stack_gradients for layer stacks) against the forward mode, an independent
computation of the same derivatives (each weight direction pushed through the later layers), and
the ranks against expanded symbolic Jacobians on small networks.
"""
import random

import pytest

import sage.all__sagemath_singular  # noqa: F401  (initializes Sage)
from sage.all__sagemath_singular import GF, QQ, PolynomialRing, matrix, random_matrix

from sage_attention import LightningAttention, Network, attention, dense
from sage_attention.models.derivatives import layer_derivatives, layer_gradients
from sage_attention.models.jacobian import jacobian_rank
from sage_attention.models.stack_dimension import stack_derivatives
from sage_attention.models.stack_gradients import stack_gradients

F = GF(67108859)


def random_stack(rng):
    d, t, width, layers = rng.choice([1, 2, 3]), rng.choice([1, 2, 3]), None, []
    width = d
    for _ in range(rng.choice([1, 2, 3])):
        out = width if rng.random() < 0.3 else rng.choice([1, 2, 3])
        residual = out == width and rng.random() < 0.5
        if rng.random() < 0.5:
            layers.append(attention(a=rng.choice([1, 2]), out=out, heads=rng.choice([1, 2]),
                                    causal=rng.random() < 0.5, residual=residual))
        else:
            layers.append(dense(out=out, r=rng.choice([1, 2, 3]), bias=rng.random() < 0.4, residual=residual))
        width = out
    layers.append(dense(out=rng.choice([1, 2])))
    return Network(layers, d=d, t=t)


@pytest.mark.parametrize("trial", range(25))
def test_stack_rows_agree_with_the_forward_mode(trial):
    M = random_stack(random.Random(trial))
    w, X = M.random_weights(field=F, seed=trial), random_matrix(F, M.d, M.tokens)
    D, Y = stack_derivatives(M, X, w, F)
    entries = [(i, j) for i in range(Y.nrows()) for j in range(Y.ncols())]
    rows, Y2 = stack_gradients(M, X, w, F, entries)
    assert Y2 == Y and rows == [[Dk[i, j] for Dk in D] for i, j in entries]


@pytest.mark.parametrize("ws", ["QKV", "AV"])
@pytest.mark.parametrize("widths,ranks", [([3, 3, 2], [1, 2]), ([2, 2, 2, 2], [1, 1, 1]), ([3, 2], [3])])
def test_lightning_rows_agree_with_the_forward_mode(ws, widths, ranks):
    M = LightningAttention(widths=widths, ranks=ranks, t=2, weight_space=ws)
    w, X = M.random_weights(field=F, seed=2), random_matrix(F, widths[0], 2)
    D, Y = layer_derivatives(M, X, w, F)
    entries = [(i, j) for i in range(Y.nrows()) for j in range(Y.ncols())]
    rows, Y2 = layer_gradients(M, X, w, F, entries)
    assert Y2 == Y and rows == [[Dk[i, j] for Dk in D] for i, j in entries]


@pytest.mark.parametrize("make", [
    lambda: LightningAttention(widths=[2] * 9, ranks=[1] * 8, t=2),
    lambda: Network([dense(out=2, r=2)] * 8 + [dense(out=1)], d=2),
    lambda: Network([attention(a=1, out=2, causal=True), dense(out=3, r=2), dense(out=2)], d=2, t=3),
])
def test_the_rank_is_the_forward_modes(make):
    M = make()
    forward = jacobian_rank(M, F, 0, derivatives=M._derivatives)[0]
    assert M.dimension(seed=0) == forward


def test_a_small_stack_against_the_expanded_jacobian():
    # v (w . x)^2 + u (y . x)^2 with two inputs: binary quadrics of rank <= 2, every one: dimension 3
    M = Network([dense(out=2, r=2), dense(out=1)], d=2)
    W = PolynomialRing(QQ, "w11,w12,w21,w22,v1,v2")
    S = PolynomialRing(W, "x1,x2")
    w11, w12, w21, w22, v1, v2 = W.gens()
    x1, x2 = S.gens()
    f = v1 * (w11 * x1 + w12 * x2) ** 2 + v2 * (w21 * x1 + w22 * x2) ** 2
    J = matrix([[c.derivative(u) for u in W.gens()] for c in f.coefficients()])
    pt = [3, 5, 7, 11, 13, 17]
    assert M.dimension(seed=0) == matrix(QQ, [[e(pt) for e in row] for row in J.rows()]).rank() == 3


def test_no_token_by_token_matrix_without_a_mask(monkeypatch):
    # a transformer block on many tokens: nothing of size t x t is built (it failed with a
    # MemoryError at t = 100000: a t x t mask of 8e10 bytes), and the dimension is that of few tokens
    from sage_attention.models.layers import AttentionLayer

    def no_mask(self, F, t):
        raise AssertionError(f"a {t} x {t} mask was built")

    def block(t):
        return Network([attention(a=2, out=3, residual=True), dense(out=4, r=2), dense(out=3)], d=3, t=t)

    small = block(4).dimension(seed=0)
    monkeypatch.setattr(AttentionLayer, "_mask", no_mask)
    assert block(2000).dimension(seed=0) == small
    with pytest.raises(AssertionError, match="mask was built"):
        Network([attention(a=1, out=2, causal=True), dense(out=1)], d=2, t=3).dimension(seed=0)
