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
from sage.all__sagemath_singular import GF, QQ, QuadraticField
from sage.rings.qqbar import QQbar
from sage.rings.real_mpfr import RealField
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


# ----------------------------------------------------------------------
# Real realizability
# ----------------------------------------------------------------------

REAL_MODELS = [
    dict(d=3, t=1, a=2),                       # Sym(A) of rank 3 from a rank-2 A
    dict(d=3, t=1, a=2, out=2, weight_space="AV"),
    dict(d=3, t=1, a=1, coordinate_scaling="scaled"),
    dict(d=2, t=1, a=1),
    dict(d=3, t=2, a=2, out=1, entries=[(1, 1)]),
    dict(d=2, t=2, a=1, out=2, weight_space="AV"),
]


def _all_real(weights):
    from sage.all__sagemath_singular import AA
    for layer in weights:
        for m in layer:
            for x in m.list():
                AA(x)   # raises unless x is a real number
    return True


@pytest.mark.parametrize("kw", REAL_MODELS)
def test_random_real_weights_are_certified_real(kw):
    M = LightningAttention(**kw)
    for k in range(100):
        vals = M.coefficients_at(M.random_weights(seed=5000 + k))
        c = certify(M, vals)
        assert c.status == "realizable" and c.real is True, (kw, k, c)
        assert _all_real(c.weights)
        # independent recomputation from the returned (real) weights
        assert M.coefficients_at(c.weights) == vals
        assert c.field in ("Rational Field", "Algebraic Real Field") or "Number Field" in c.field


def _inertia_by_eigenvalues(S):
    from sage.all__sagemath_singular import AA
    roots = S.change_ring(AA).charpoly().roots(AA)
    pos = sum(m for r, m in roots if r > 0)
    neg = sum(m for r, m in roots if r < 0)
    return pos, neg


def test_linear_times_sum_of_squares_is_complex_only():
    from sage.all__sagemath_singular import PolynomialRing, matrix
    M = LightningAttention(d=3, t=1, a=2)
    R = PolynomialRing(QQ, M.input_ring().variable_names())
    x = R.gens()
    c = certify(M, matrix([[x[0] * (x[0] ** 2 + x[1] ** 2 + x[2] ** 2)]]))
    assert c.status == "realizable" and c.real is False
    assert "Algebraic Field" in c.field
    assert M.coefficients_at(c.weights) == list(c.point)
    # the reason names the matrix; its eigenvalues (computed here) are 3 positive ones > a = 2
    ns = {}
    exec("from sage.all__sagemath_singular import *", ns)
    ev = eval(preparse(c.real_check), ns)
    assert sum(1 for e in ev if e > 0) == 3
    assert "3 positive" in c.real_reason and "rank <= 2" in c.real_reason



def test_scaled_coordinates_give_the_same_real_answer():
    # the same output matrices in raw and scaled coordinates: the coordinates differ by the
    # term counts, the verdict (and the obstruction matrix) must not
    from sage.all__sagemath_singular import PolynomialRing, matrix
    seen = set()
    for a in (1, 2):
        raw = LightningAttention(d=3, t=1, a=a)
        scaled = LightningAttention(d=3, t=1, a=a, coordinate_scaling="scaled")
        R = PolynomialRing(QQ, raw.input_ring().variable_names())
        x, y, z = R.gens()
        for f in (x * (x ** 2 + y ** 2 + z ** 2), x * (x ** 2 + y ** 2 - z ** 2),
                  (x + y) * (x ** 2 + 2 * y ** 2), x ** 3 + 2 * y ** 3 - 6 * x * y * z + 4 * z ** 3):
            c1, c2 = certify(raw, matrix([[f]])), certify(scaled, matrix([[f]]))
            assert (c1.status, c1.real, c1.real_check) == (c2.status, c2.real, c2.real_check), f
            seen.add((c2.status, c2.real))
            if c2.status == "realizable":
                assert scaled.coefficients_at(c2.weights) == list(c2.point)
            assert list(c1.point) != list(c2.point)
    assert {("realizable", False), ("realizable", True), ("not realizable", None)} <= seen


def test_random_complex_only_points_single_token():
    from sage.all__sagemath_singular import PolynomialRing, matrix, random_matrix, ZZ
    rng = random.Random(11)
    for (d, a) in ((3, 2), (3, 1), (2, 1), (4, 2), (4, 1)):
        M = LightningAttention(d=d, t=1, a=a)
        R = PolynomialRing(QQ, M.input_ring().variable_names())
        x = vector_of(R)
        for k in range(6):
            # a positive definite quadric of rank r with a < r <= 2a (complex rank ok, signature not)
            r = min(d, 2 * a) if a + 1 <= min(d, 2 * a) else None
            B = matrix(QQ, r, d, [rng.randint(-5, 5) for _ in range(r * d)])
            while B.rank() < r:
                B = matrix(QQ, r, d, [rng.randint(-5, 5) for _ in range(r * d)])
            S = B.transpose() * B
            q = (x * S * x)
            ell = sum(rng.randint(1, 5) * xi for xi in R.gens())
            c = certify(M, matrix([[ell * q]]))
            assert c.status == "realizable", (d, a, c)
            assert c.real is False, (d, a, c)
            assert M.coefficients_at(c.weights) == list(c.point)
            # independent: every real linear factor of ell*q is a multiple of ell (q is definite
            # of rank r >= 2, so it has none), and q has r > a positive eigenvalues
            assert _inertia_by_eigenvalues(S) == (r, 0) and r > a


def test_three_conjugate_linear_factors():
    # the norm form of Q(2^(1/3)): a product of three linear forms over a cubic field, one
    # of them real; rank one (a = 1) needs the other two to give an indefinite quadric,
    # but they are complex conjugates (a definite quadric)
    from sage.all__sagemath_singular import PolynomialRing, matrix
    M = LightningAttention(d=3, t=1, a=1)
    R = PolynomialRing(QQ, M.input_ring().variable_names())
    x, y, z = R.gens()
    N = x ** 3 + 2 * y ** 3 - 6 * x * y * z + 4 * z ** 3
    c = certify(M, matrix([[N]]))
    assert c.status == "realizable" and c.real is False, c
    assert M.coefficients_at(c.weights) == list(c.point)
    assert "2 positive and 0 negative" in c.real_reason
    # with a = 2 the same cubic is realizable with real weights
    M2 = LightningAttention(d=3, t=1, a=2)
    c2 = certify(M2, matrix([[N]]))
    assert c2.real is True and M2.coefficients_at(c2.weights) == list(c2.point)
    assert _all_real(c2.weights)


def vector_of(R):
    from sage.all__sagemath_singular import vector
    return vector(R, R.gens())


def test_complex_conjugate_factors_two_tokens():
    from sage.all__sagemath_singular import QQbar, I, vector
    rng = random.Random(12)
    M = LightningAttention(d=3, t=2, a=1, weight_space="AV")
    for k in range(5):
        p = vector(QQbar, [rng.randint(-4, 4) for _ in range(3)])
        q = vector(QQbar, [rng.randint(-4, 4) for _ in range(3)])
        while p.column().augment(q.column()).rank() < 2:
            q = vector(QQbar, [rng.randint(-4, 4) for _ in range(3)])
        v, u = p + QQbar(I) * q, p - QQbar(I) * q
        w = vector(QQbar, [rng.randint(1, 4) for _ in range(3)])
        vals = [QQ(x) for x in M.coefficients_at([(u.column() * w.row(), v.row())])]
        c = certify(M, vals)
        assert c.status == "realizable" and c.real is False, c
        assert M.coefficients_at(c.weights) == vals
        assert "no real linear factor" in c.real_reason


def test_off_variety_points_stay_not_realizable_single_token():
    from sage.all__sagemath_singular import PolynomialRing, matrix
    rng = random.Random(13)
    M = LightningAttention(d=3, t=1, a=1)
    R = PolynomialRing(QQ, M.input_ring().variable_names())
    x = R.gens()
    for k in range(10):
        ell = sum(rng.randint(-5, 5) * xi for xi in x) or x[0]
        # linear form times a quadric of rank 3: not a product of three linear forms
        q = x[0] ** 2 + rng.randint(1, 4) * x[1] ** 2 - rng.randint(1, 4) * x[2] ** 2
        c = certify(M, matrix([[ell * q]]))
        assert c.status == "not realizable", c
        assert c.value != 0 and vanishes_on_model(M, c.polynomial)


# ----------------------------------------------------------------------
# Input checks and size guard
# ----------------------------------------------------------------------

def test_bad_points_are_rejected():
    M = LightningAttention(d=2, t=2, a=1)
    with pytest.raises(TypeError, match=r"point\[0\] \(=None\)"):
        certify(M, [None] * 20)
    with pytest.raises(TypeError, match=r"point\[3\]"):
        certify(M, [0, 0, 0, "abc"] + [0] * 16)
    with pytest.raises(ValueError, match="20 coordinates"):
        certify(M, [0] * 19)
    with pytest.raises(ValueError, match="finite"):
        certify(M, [float("inf")] + [0] * 19)


def test_seed_must_be_an_integer():
    M = LightningAttention(d=2, t=2, a=1)
    for bad in (1.7, "1", True):
        with pytest.raises(ValueError, match="seed"):
            certify(M, [0] * 20, seed=bad)
    assert certify(M, [0] * 20, seed=3).status == "realizable"


def test_small_characteristic_is_refused():
    from sage.all__sagemath_singular import GF
    for p in (2, 3):
        M = LightningAttention(d=2, t=2, a=1, base_ring=GF(p))
        with pytest.raises(ValueError, match="characteristic"):
            certify(M, [0] * 20)
    M = LightningAttention(d=2, t=2, a=1, base_ring=GF(101))
    vals = M.coefficients_at(M.random_weights(seed=1))
    c = certify(M, vals)
    assert c.status == "realizable" and c.real is None and "Finite Field" in c.field


def test_certificate_to_json():
    import json
    from sage_attention.variety.export import to_json
    M = LightningAttention(d=3, t=1, a=2)
    from sage.all__sagemath_singular import PolynomialRing, matrix
    R = PolynomialRing(QQ, M.input_ring().variable_names())
    x = R.gens()
    c = certify(M, matrix([[x[0] * (x[0] ** 2 + x[1] ** 2 + x[2] ** 2)]]))
    d = json.loads(to_json(c))["data"]
    assert d["status"] == "realizable" and d["real"] is False and d["field"] == "Algebraic Field"
    assert d["real_check"].startswith("matrix(QQ")


def test_large_model_guard_and_fast_realizable_points():
    import time
    from sage_attention.misc.errors import ComputationTooLarge
    M = LightningAttention(d=6, t=3, a=3, out=6)
    vals = M.coefficients_at(M.random_weights(seed=0))
    start = time.process_time()      # CPU time: the machine may be shared
    c = certify(M, vals)
    assert time.process_time() - start < 60
    assert c.status == "realizable" and c.real is True
    assert M.coefficients_at(c.weights) == vals
    # off the variety (an essential coordinate changed with its copies): refused, not minutes
    E = M.essential_ring()
    C = M.coordinate_ring()
    e = [vals[C.gens().index(C(x))] for x in M.essential_coordinates()]
    e[0] += 1

    def lin(f):
        return sum(c * (e[k.nonzero_positions()[0]] if k.nonzero_positions() else 1)
                   for k, c in f.dict().items())
    q = [lin(f) for f in M.to_essential().im_gens()]
    with pytest.raises(ComputationTooLarge, match=r"about \d+ minors \(limit \d+\).*force=True"):
        certify(M, q)


# -- points certify cannot decide exactly are refused; decimals and number fields are read

@pytest.mark.parametrize("value,message", [
    (RealField(53)(2).sqrt(), "is a floating-point number of Real Field"),
    (QQbar(2).sqrt(), "is in Algebraic Field, which certify does not support"),
    (GF(7)(3), r"base_ring=GF\(7\)"),
])
def test_certify_refuses_points_it_cannot_decide_exactly(value, message):
    V = LightningAttention(d=2, t=1, a=1).neurovariety()
    with pytest.raises(TypeError, match=message):
        V.certify([value, 0, 0, 1])


def test_certify_takes_decimals_and_number_fields():
    V = LightningAttention(d=2, t=1, a=1).neurovariety()
    r = QuadraticField(2, "r").gen()
    assert V.certify([r, 0, 0, 1]).status == V.certify([r, QQ(0), QQ(0), QQ(1)]).status
    a = V.certify([RealField(53)("0.25"), 0, 0, 1])
    b = V.certify([QQ(1) / 4, 0, 0, 1])
    assert a.status == b.status and a.point == b.point
