"""Certificates of (non-)realizability: never a false 'realizable'.

For small one-layer models:

- random points that satisfy every linear relation but are off the variety
  (random essential coordinates) and single-coordinate perturbations of
  realizable points are certified not realizable (with a nonzero invariant
  that is checked independently: it vanishes on the parametrization, and the
  one-line check recomputes its value) or undecided with a reason, never
  realizable;
- images of random rational weights get weights back that reproduce the
  point exactly (recomputed here with ``coefficients_at``).
"""
import random

import pytest

import sage.all__sagemath_singular  # noqa: F401  (initializes Sage)
from sage.all__sagemath_singular import QQ
from sage.repl.preparse import preparse

from sage_attention import LightningAttention
from sage_attention.variety.certificates import certify
from sage_attention.variety.membership import vanishes_on_model

MODELS = [
    dict(d=2, t=2, a=1, out=1, entries=[(1, 1)]),
    dict(d=2, t=2, a=1, out=2, weight_space="AV"),
    dict(d=3, t=2, a=1, out=1, entries=[(1, 1)]),
    dict(d=3, t=2, a=2, out=1, entries=[(1, 1)], weight_space="AV", coordinate_scaling="scaled"),
    dict(d=3, t=2, a=2, out=2),
    dict(d=2, t=1, a=1, out=1, weight_space="AV"),
    dict(d=3, t=1, a=1, out=1),
]

N = 100  # points of each kind, spread over the models


def _models():
    return [LightningAttention(**kw) for kw in MODELS]


def _check_not_realizable(M, c, vals):
    assert c.status in ("not realizable", "undecided"), c
    if c.status == "undecided":
        assert c.reason
        return "undecided"
    assert c.value != 0 and c.polynomial(*vals) == c.value
    # the invariant is a true invariant: exact composition with the parametrization
    assert vanishes_on_model(M, c.polynomial)
    ns = {}
    exec("from sage.all__sagemath_singular import *\nfrom sage_attention import LightningAttention", ns)
    assert eval(preparse(c.check), ns) == c.value
    return c.kind


def test_random_points_off_the_variety():
    rng = random.Random(1)
    kinds = {}
    models = _models()
    # (d, t) = (2, 1) is excluded: every binary cubic splits, the variety is everything
    models = [M for M in models if (M.d, M.tokens) != (2, 1)]
    for k in range(N):
        M = models[k % len(models)]
        E = M.essential_ring()
        e = [QQ(rng.randint(-20, 20)) for _ in E.gens()]
        vals = [f(*e) for f in M.to_essential().im_gens()]
        assert all(f(*vals) == 0 for f in M.linear_relations())
        c = certify(M, vals)
        kind = _check_not_realizable(M, c, vals)
        kinds[kind] = kinds.get(kind, 0) + 1
    # linear relations hold, so non-realizability must come from nonlinear invariants
    assert "linear" not in kinds
    assert kinds.get("nonlinear", 0) >= N * 0.9, kinds


def test_perturbed_realizable_points():
    rng = random.Random(2)
    models = [M for M in _models() if (M.d, M.tokens) != (2, 1)]
    kinds = {}
    for k in range(N):
        M = models[k % len(models)]
        vals = M.coefficients_at(M.random_weights(seed=1000 + k))
        j = rng.randrange(len(vals))
        vals[j] += rng.choice([1, -1, 2, QQ(1) / 3])
        c = certify(M, vals)
        kind = _check_not_realizable(M, c, vals)
        kinds[kind] = kinds.get(kind, 0) + 1
    assert kinds.get("undecided", 0) <= N // 10, kinds


def test_points_on_the_variety_get_weights():
    models = _models()
    for k in range(N):
        M = models[k % len(models)]
        w = M.random_weights(seed=k)
        vals = M.coefficients_at(w)
        c = certify(M, vals)
        assert c.status == "realizable", (M, k, c)
        # independent recomputation of the point from the returned weights
        assert M.coefficients_at(c.weights) == vals
        assert c.field == str(QQ) or M.tokens == 1


def test_binary_cubics_split_over_algebraic_numbers():
    M = LightningAttention(d=2, t=1, a=1, weight_space="AV")
    vals = [QQ(3), QQ(3), QQ(5), QQ(-1)]   # 3 z1^3 + 3 z1^2 z2 + 5 z1 z2^2 - z2^3: irreducible over QQ
    c = certify(M, vals)
    assert c.status == "realizable" and "Algebraic" in c.field
    assert M.coefficients_at(c.weights) == vals


def test_matrix_and_dict_points():
    M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
    w = M.random_weights(seed=3)
    vals = M.coefficients_at(w)
    C = M.coordinate_ring()
    c = certify(M, {str(x): v for x, v in zip(C.gens(), vals)})
    assert c.status == "realizable"
    # the output matrix of the network, as cubic forms in x
    from sage.all__sagemath_singular import PolynomialRing, matrix
    R = PolynomialRing(QQ, M.input_ring().variable_names())
    W = M.weight_ring()
    pt = M.weights_point(w)
    Y = M.output_matrix()
    Yx = matrix(R, 1, 2, [sum(R(m) * W(cf)(pt) for cf, m in zip(Y[0, j].coefficients(), Y[0, j].monomials()))
                          for j in range(2)])
    c2 = certify(M, Yx)
    assert c2.status == "realizable"
    assert M.coefficients_at(c2.weights) == vals
