"""The compiled rings and maps against an independent expansion of Y = V X (X^T A X)."""
import random

import pytest

from sage.all__sagemath_singular import QQ, GF, PolynomialRing, matrix

from sage_attention import LightningAttention, AttentionNetwork
from sage_attention.misc.errors import SpecError


def expanded_coefficients(M):
    """Expand Y in a fresh ring and read off each (raw) coordinate's coefficient."""
    assert M.coordinate_scaling == "raw"
    W = M.weight_ring()
    names = [f"z{k}_{n}" for k in range(M.d) for n in range(M.tokens)]
    R = PolynomialRing(W, names)
    X = matrix(R, M.d, M.tokens, R.gens())
    (A,) = M.attention_matrices()
    V = M.weight_matrices()[0][-1] if M.weight_space == "QKV" else M.weight_matrices()[0][1]
    Y = V.change_ring(R) * X * (X.transpose() * A.change_ring(R) * X)
    out = []
    for c in M.coordinates_list():
        if c.kind == "cross":
            a, b, cc = c.indices
            mono = X[a - 1, c.context - 1] * X[b - 1, c.context - 1] * X[cc - 1, c.token - 1]
        else:
            a, b, cc = c.indices
            mono = X[a - 1, c.token - 1] * X[b - 1, c.token - 1] * X[cc - 1, c.token - 1]
        out.append(Y[c.row - 1, c.token - 1].monomial_coefficient(mono.monomials()[0]))
    return out, Y, R


@pytest.mark.parametrize("d,t,a,out,weights", [
    (2, 1, 1, 1, "QKV"), (2, 2, 1, 2, "AV"), (3, 2, 2, 1, "QKV"), (3, 3, 1, 2, "AV"), (2, 3, 2, 1, "QKV"),
])
def test_parametrization_is_the_expanded_output(d, t, a, out, weights):
    M = LightningAttention(d=d, t=t, a=a, out=out, weight_space=weights)
    coeffs, Y, R = expanded_coefficients(M)
    assert list(M.parametrization().im_gens()) == coeffs
    # and nothing else occurs in Y: every monomial of Y is a coordinate
    nterms = sum(len(Y[i, j].monomials()) for i in range(out) for j in range(t))
    assert nterms == sum(1 for f in coeffs if f != 0)
    assert M.ncoordinates() == M.size_estimate().coordinates == len(coeffs)


def test_scaled_coordinates_divide_by_number_of_terms():
    M = LightningAttention(d=3, t=2, a=1, weight_space="AV", coordinate_scaling="scaled")
    N = LightningAttention(d=3, t=2, a=1, weight_space="AV")
    for c, f, g in zip(M.coordinates_list(), M.parametrization().im_gens(), N.parametrization().im_gens()):
        # with weights AV every term v_p A_qr of a raw coefficient is a distinct monomial
        assert f * len(g.monomials()) == g


@pytest.mark.parametrize("d,t,a,out,coords", [
    (2, 2, 1, 1, "raw"), (3, 3, 2, 2, "scaled"), (3, 2, 3, 1, "raw"), (2, 3, 1, 3, "scaled"),
])
def test_linear_relations_and_essential_coordinates(d, t, a, out, coords):
    M = LightningAttention(d=d, t=t, a=a, out=out, coordinate_scaling=coords)
    phi = M.parametrization()
    rels = M.linear_relations()
    assert all(phi(f) == 0 for f in rels)
    # the relations and essential coordinates span: every coordinate is expressed
    D = d * (d + 1) // 2
    assert len(M.essential_coordinates()) == out * D * d
    assert len(rels) + len(M.essential_coordinates()) == M.ncoordinates()
    g = M.to_essential()
    psi = M.essential_parametrization()
    assert all(psi(g(x)) == phi(x) for x in M.coordinate_ring().gens())
    # the essential images are linearly independent (no relation is missed)
    W = M.weight_ring()
    mons = sorted({m for f in psi.im_gens() for m in f.monomials()})
    A = matrix(QQ, [[f.monomial_coefficient(m) for m in mons] for f in psi.im_gens()])
    assert A.rank() == len(psi.im_gens())


def test_cross_tensor_matches_math_md():
    M = LightningAttention(d=3, t=2, a=2, out=2, weight_space="AV")
    psi = M.essential_parametrization()
    (A,) = M.attention_matrices()
    V = M.weight_matrices()[0][1]
    for row in (1, 2):
        T = M.cross_tensor(row)
        v = V.row(row - 1)
        for (a, b, c), f in T.items():
            assert psi(f) == (v[a - 1] * A[b - 1, c - 1] + v[b - 1] * A[a - 1, c - 1]) / 2


def test_coefficients_at_agree_with_parametrization():
    for kw in (dict(d=3, t=2, a=1, out=2), dict(d=2, t=1, a=2, weight_space="AV", coordinate_scaling="scaled")):
        M = LightningAttention(**kw)
        w = M.random_weights(seed=11)
        pt = M.weights_point(w)
        assert M.coefficients_at(w) == [f(*pt) for f in M.parametrization().im_gens()]


def test_forward_agrees_with_output_matrix():
    M = LightningAttention(widths=(2, 2, 1), ranks=(1, 2), t=2)
    w = M.random_weights(seed=2)
    rng = random.Random(2)
    X = matrix(QQ, 2, 2, [rng.randint(-5, 5) for _ in range(4)])
    Y = M.output_matrix()
    pt = M.weights_point(w)
    sub = {x: X[k // 2, k % 2] for k, x in enumerate(M.input_ring().gens())}
    expected = matrix(QQ, 1, 2, [M.weight_ring()(Y[0, j].subs(sub))(*pt) for j in range(2)])
    assert M.forward(X, w) == expected


def test_unique_representation_and_validation():
    assert LightningAttention(d=3, t=2, a=1) is AttentionNetwork((3, 1), (1,), 2)
    assert LightningAttention(d=3, t=2, a=1, entries=[(1, 1), (1, 2)]) is LightningAttention(d=3, t=2, a=1)
    with pytest.raises(SpecError, match="positive integer"):
        LightningAttention(d=-1, t=2, a=1)
    with pytest.raises(SpecError, match="token in 1..2"):
        LightningAttention(d=2, t=2, a=1, entries=[(1, 3)])
    with pytest.raises(SpecError, match="characteristic"):
        LightningAttention(d=2, t=2, a=1, coordinate_scaling="scaled", base_ring=GF(3))
