"""Brill's equations: the single-token rank-one model (products of three linear forms).

Checked against independent computations:

- every member composed with the parametrization is zero (exact);
- every member vanishes on products of three random linear forms written
  down directly (not through the model), and not on cubics that are not
  such products (linear form times an irreducible quadric, a random cubic);
- for d = 3 the span of the members is the 35-dimensional space of quartics
  of the vanishing ideal found by the interpolation engine, and the ideal
  they generate equals the vanishing ideal computed by Singular elimination;
- for d = 4 their span is an 875-dimensional subspace of the engine's 1085
  quartics (long: set SAGE_ATTENTION_LONG=1).
"""
import os
import random

import pytest

import sage.all__sagemath_singular  # noqa: F401  (initializes Sage)
from sage.all__sagemath_singular import GF, QQ, PolynomialRing, Sequence, ideal, matrix

from sage_attention import LightningAttention
from sage_attention.invariants import FAMILIES, brill_invariants, invariants
from sage_attention.invariants.brill import brill_polynomial
from sage_attention.variety.certificates import point_values
from sage_attention.variety.membership import check_family

LONG = bool(os.environ.get("SAGE_ATTENTION_LONG"))


def _cubic_point(M, f):
    """The coordinates of the cubic form ``f`` (in x11, x21, ...) for the model ``M``."""
    vals, extra = point_values(M, matrix([[f]]))
    assert not extra
    return vals


def _input_ring(M):
    return PolynomialRing(QQ, M.input_ring().variable_names())


def test_registered():
    assert FAMILIES["brill"] is brill_invariants


@pytest.mark.parametrize("kw", [dict(d=3, t=1, a=1),
                                dict(d=3, t=1, a=1, weight_space="AV", coordinate_scaling="scaled"),
                                dict(d=3, t=1, a=1, out=2)])
def test_members_vanish_on_the_parametrization(kw):
    M = LightningAttention(**kw)
    fam = brill_invariants(M)
    assert len(fam) == 35 * M.out
    assert fam.degrees() == (4,)
    rep = check_family(M, fam, proof=True)
    assert rep.all_vanish, rep


def test_products_of_linear_forms_and_non_products():
    M = LightningAttention(d=3, t=1, a=1)
    fam = brill_invariants(M)
    R = _input_ring(M)
    x = R.gens()
    rng = random.Random(5)

    def lin():
        return sum(rng.randint(-9, 9) * xi for xi in x)
    for _ in range(10):
        p = _cubic_point(M, lin() * lin() * lin())
        assert all(f(*p) == 0 for f in fam.polynomials())
    # degenerate products too: a cube, a square times a form
    l1, l2 = lin(), lin()
    for f in (l1 ** 3, l1 ** 2 * l2):
        p = _cubic_point(M, f)
        assert all(g(*p) == 0 for g in fam.polynomials())
    # not products of linear forms: some member is nonzero
    for f in (x[0] * (x[0] ** 2 + x[1] ** 2 + x[2] ** 2),
              lin() * (x[0] * x[1] - x[2] ** 2),
              x[0] ** 3 + x[1] ** 3 + x[2] ** 3 + 2 * x[0] * x[1] * x[2]):
        p = _cubic_point(M, f)
        assert any(g(*p) != 0 for g in fam.polynomials()), f


def test_power_is_a_single_evaluation():
    # the covariant at one triple of points is an exact Brill equation of degree 4
    M = LightningAttention(d=3, t=1, a=1)
    B = brill_polynomial(M, 1, (2, -1, 3), (1, 1, 0), (0, 4, 1))
    assert B.degree() == 4 and B.is_homogeneous()
    assert check_family(M, [B]).all_vanish


def test_span_equals_engine_quartics_d3():
    from sage_attention.ideals.implicitization import implicitize
    M = LightningAttention(d=3, t=1, a=1)
    fam = brill_invariants(M)
    res = implicitize(M, 4, seed=0, executor=False, prove=False)
    C = M.coordinate_ring()
    eng = [C(f) for f in res.generators_by_degree[4]]
    assert len(eng) == 35
    A, _ = Sequence(eng + list(fam.polynomials())).coefficients_monomials()
    # exact ranks over QQ
    assert A.rank() == 35
    assert A[:35].rank() == 35 and A[35:].rank() == 35


def test_ideal_equals_elimination_d3():
    from sage_attention.ideals.elimination import eliminate
    M = LightningAttention(d=3, t=1, a=1)
    fam = brill_invariants(M)
    res = eliminate(M)
    I = res.ideal
    C = I.ring()
    J = ideal(C, [C(f) for f in fam.polynomials()])
    assert J == I


def test_other_models_get_empty_families():
    for kw, word in ((dict(d=3, t=1, a=2), "a = 1"), (dict(d=2, t=1, a=1), "binary"),
                     (dict(d=3, t=2, a=1), "t = 1")):
        fam = brill_invariants(LightningAttention(**kw))
        assert len(fam) == 0 and word in fam.note


def test_default_union_includes_brill():
    M = LightningAttention(d=3, t=1, a=1)
    fam = invariants(M)
    assert any(inv.label.family == "brill" for inv in fam)


def test_reproducible_and_validated():
    M = LightningAttention(d=3, t=1, a=1)
    assert brill_invariants(M, seed=3, limit=4) == brill_invariants(M, seed=3, limit=4)
    for bad in (dict(seed=1.5), dict(plateau=0), dict(limit=-1), dict(bound=True)):
        with pytest.raises(ValueError):
            brill_invariants(M, **bad)
    with pytest.raises(ValueError, match="t = 1"):
        brill_polynomial(LightningAttention(d=3, t=2, a=1), 1, (1, 0, 0), (0, 1, 0), (0, 0, 1))


def test_finite_field_base():
    M = LightningAttention(d=3, t=1, a=1, base_ring=GF(101))
    fam = brill_invariants(M)
    assert len(fam) == 35
    assert check_family(M, fam).all_vanish


@pytest.mark.skipif(not LONG, reason="long (minutes): set SAGE_ATTENTION_LONG=1")
def test_span_inside_engine_quartics_d4():
    from sage_attention.ideals.implicitization import implicitize
    M = LightningAttention(d=4, t=1, a=1)
    fam = brill_invariants(M)
    # 875 members, linearly independent mod p, hence over QQ: the span has dimension 875
    assert len(fam) == 875
    res = implicitize(M, 4, seed=0, prove=False)
    C = M.coordinate_ring()
    eng = [C(f) for f in res.generators_by_degree[4]]
    assert len(eng) == 1085
    p = 8388593
    A, _ = Sequence(eng + list(fam.polynomials())).coefficients_monomials()
    A = A.change_ring(GF(p))
    assert A[1085:].rank() == 875
    # adding the Brill quartics to the engine's does not raise the rank: inside I_4
    assert A.rank() == 1085
    rng = random.Random(7)
    R = _input_ring(M)
    x = R.gens()
    for _ in range(3):
        f = 1
        for _ in range(3):
            f *= sum(rng.randint(-9, 9) * xi for xi in x)
        pt = _cubic_point(M, f)
        assert all(g(*pt) == 0 for g in fam.polynomials())
