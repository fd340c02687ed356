"""Every invariant family vanishes on the parametrization (exact composition), is
non-trivial where it should be, and detects points off the variety."""
import itertools
import random

import pytest

from sage.all__sagemath_singular import QQ

from sage_attention import LightningAttention, SoftmaxAttention
from sage_attention.invariants import FAMILIES, invariants
from sage_attention.variety.membership import _free_images

GRID = [(d, a, t, out) for d in (2, 3) for a in range(1, d + 1) for t in (1, 2, 3) for out in (1, 2)]


def composed(M, f):
    """f composed with a rank-respecting parametrization, independently of vanishes_on_model's
    random-point shortcut."""
    return f(*_free_images(M, "coordinates"))


@pytest.mark.parametrize("d,a,t,out", GRID)
def test_every_family_vanishes_on_the_parametrization(d, a, t, out):
    weights = "AV" if (d + a + t + out) % 2 else "QKV"
    coords = "scaled" if (a + out) % 2 else "raw"
    M = LightningAttention(d=d, t=t, a=a, out=out, weight_space=weights, coordinate_scaling=coords)
    for name, fn in FAMILIES.items():
        # the common-quadric sextics for t = 1, d = 3 number 5005: check the first 300
        fam = fn(M, limit=300) if (name == "rows" and t == 1 and d == 3) else fn(M)
        assert fam.name == name
        for inv in fam:
            assert inv.polynomial.parent() is M.coordinate_ring()
            assert inv.polynomial != 0
            assert composed(M, inv.polynomial) == 0, (name, inv.label)


def test_entries_restriction_uses_the_rows_kept():
    M = LightningAttention(d=3, t=2, a=1, out=3, entries=[(2, 1), (3, 2)])
    fam = invariants(M, families=["low_rank", "pencil"])
    assert {inv.label.row for inv in fam} == {2, 3}
    assert all(composed(M, f) == 0 for f in fam.polynomials())


def test_nontrivial_where_expected():
    from sage_attention.invariants import low_rank_invariants, pencil_invariants
    for d in (3, 4):
        M = LightningAttention(d=d, t=2, a=d - 1)
        assert len(pencil_invariants(M)) > 0
        assert all(f != 0 and f.degree() == 3 for f in pencil_invariants(M).polynomials())
    for d, a in [(2, 1), (3, 1), (3, 2)]:
        assert len(low_rank_invariants(LightningAttention(d=d, t=2, a=a))) > 0
    assert len(low_rank_invariants(LightningAttention(d=3, t=2, a=3))) == 0
    assert len(pencil_invariants(LightningAttention(d=2, t=2, a=2))) == 0


def off_variety_point(M, seed):
    """Random values of the essential coordinates, extended by the linear relations."""
    rng = random.Random(seed)
    E = M.essential_ring()
    ess = [QQ(rng.randint(-50, 50)) for _ in E.gens()]
    to_e = M.to_essential()
    return [to_e(x)(*ess) for x in M.coordinate_ring().gens()]


@pytest.mark.parametrize("d,a,out", [(2, 1, 1), (3, 1, 1), (3, 1, 2), (3, 2, 1)])
def test_negative_control(d, a, out):
    M = LightningAttention(d=d, t=2, a=a, out=out)
    fam = invariants(M, families=["low_rank", "pencil"])
    pt = off_variety_point(M, seed=d * 10 + a)
    assert all(f(*pt) == 0 for f in M.linear_relations())
    assert any(f(*pt) != 0 for f in fam.polynomials())


def test_rank_one_cuts_out_a_point_of_the_variety_only():
    # a point on the variety satisfies all; off it some nonlinear one fails
    M = LightningAttention(d=3, t=2, a=1, weight_space="AV")
    fam = FAMILIES["rank_one"](M)
    on = M.coefficients_at(M.random_weights(seed=1))
    assert all(f(*on) == 0 for f in fam.polynomials())
    off = off_variety_point(M, seed=2)
    assert any(f(*off) != 0 for f in fam.polynomials() if f.degree() > 1)


def test_not_one_lightning_layer_raises():
    for name, fn in FAMILIES.items():
        with pytest.raises(ValueError, match="one lightning layer"):
            fn(SoftmaxAttention(d=2, t=2, a=1))
        with pytest.raises(ValueError, match="one lightning layer"):
            fn(LightningAttention(widths=[2, 2, 2], ranks=[1, 1], t=2))


def test_to_dict_is_json():
    import json
    M = LightningAttention(d=3, t=2, a=1)
    d = invariants(M, families=["pencil"]).to_dict()
    assert json.loads(json.dumps(d))["size"] == len(d["invariants"]) == 10


def test_single_token_families_on_larger_d():
    from sage_attention.invariants import single_token_low_rank_invariants, chow_invariants
    M = LightningAttention(d=4, t=1, a=1, out=2, weight_space="AV", coordinate_scaling="scaled")
    fam = single_token_low_rank_invariants(M)
    assert len(fam) == 2 and fam.degrees() == (4,)
    assert all(composed(M, f) == 0 for f in fam.polynomials())
    # negative control: a generic cubic has N of full rank and a non-split orbit
    M3 = LightningAttention(d=3, t=1, a=1)
    pt = off_variety_point(M3, seed=7)
    assert any(f(*pt) != 0 for f in chow_invariants(M3).polynomials())
    assert any(f(*off_variety_point(M, seed=8)) != 0 for f in fam.polynomials())


def test_row_coupling_negative_control():
    from sage_attention.invariants import row_coupling_invariants
    for d, a, t in [(2, 2, 2), (2, 1, 1), (3, 3, 2)]:
        M = LightningAttention(d=d, t=t, a=a, out=2)
        fam = row_coupling_invariants(M, limit=200)
        assert len(fam) > 0
        # rows taken from two independent models do not share A
        pt = off_variety_point(M, seed=d + a + t)
        assert any(f(*pt) != 0 for f in fam.polynomials())
