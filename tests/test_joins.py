"""
Invariants of one head on summed heads, against independent facts:

- one head: join_membership agrees with check_family (every member vanishes);
- where H heads fill the span (the Jacobian rank of the multi-head model equals
  the number of essential coordinates), no nonlinear member can vanish, and the
  linear relations (which cut out the span) all do;
- the flattening of H summed heads of rank a has rank <= H a, so the low-rank
  invariants of the rank-(H a) model vanish on the sums (composition).
"""
import pytest
from sage.all__sagemath_singular import Integer

from sage_attention import LightningAttention
from sage_attention.invariants import invariants, low_rank_invariants
from sage_attention.variety.joins import join_membership, summed_images
from sage_attention.variety.membership import check_family


@pytest.mark.parametrize("kw", [dict(d=2, t=3, a=1, entries=[(1, 1)]),
                                dict(d=3, t=2, a=1, entries=[(1, 1)]),
                                dict(d=3, t=1, a=1)])
def test_one_head_every_member_vanishes(kw):
    M = LightningAttention(**kw)
    for r in join_membership(M, 1, seed=2):
        fam = invariants(M, families=[r.family])
        assert r.vanishing == r.members == len(fam)
        assert check_family(M, fam, proof=False).to_dict()["all_vanish"]


def _fills_span(kw, H):
    M = LightningAttention(**{k: v for k, v in kw.items() if k != "entries"}, heads=H)
    plain = LightningAttention(**{k: v for k, v in kw.items() if k != "entries"})
    return M.dimension(seed=3) == len(plain.essential_coordinates())


@pytest.mark.parametrize("kw, H", [(dict(d=2, t=3, a=1), 2), (dict(d=3, t=1, a=1), 2)])
def test_filled_span_kills_every_nonlinear_member(kw, H):
    assert _fills_span(kw, H)
    M = LightningAttention(**kw)
    for r in join_membership(M, H, seed=4):
        if r.family == "linear":
            assert r.vanishing == r.members
        else:
            assert r.vanishing == 0


def test_low_rank_of_rank_H_a_vanishes_on_H_heads():
    one = LightningAttention(d=3, t=2, a=1, entries=[(1, 1)])
    two = LightningAttention(d=3, t=2, a=2, entries=[(1, 1)])
    assert one.coordinate_ring().variable_names() == two.coordinate_ring().variable_names()
    images = summed_images(one, 2)
    C = one.coordinate_ring()
    fam = low_rank_invariants(two)
    assert len(fam) > 0
    assert all(C(f)(*images) == 0 for f in fam.polynomials())
    # while the rank-one minors do not
    r = {x.family: x for x in join_membership(one, 2, families=["low_rank", "syzygies"])}
    assert r["low_rank"].vanishing == 0 and r["syzygies"].vanishing == r["syzygies"].members


def test_bad_input():
    M = LightningAttention(d=2, t=2, a=1)
    for bad in (0, -1, True, 1.5):
        with pytest.raises(ValueError, match="heads"):
            join_membership(M, bad)
    assert join_membership(M, Integer(1), families=["linear"])[0].heads == 1


def test_the_ideal_of_two_heads_vanishes_on_sums_of_one_head_points():
    from sage_attention.ideals.implicitization import implicitize
    from sage_attention.variety.joins import SummedHeads
    M = LightningAttention(d=3, t=2, a=1, entries=[(1, 1)])
    R = implicitize(SummedHeads(M, 2), 3, seed=1, symmetry=False, prove=False, executor=False)
    gens = R.generators_by_degree[3]
    assert len(gens) == 20
    # they are the 3-minors of the flattening: the low-rank family of rank 2
    C = M.coordinate_ring()
    minors = C.ideal([C(f) for f in low_rank_invariants(LightningAttention(
        d=3, t=2, a=2, entries=[(1, 1)])).polynomials()] + list(M.linear_relations()))
    assert R.ideal == minors
    E = M.essential_ring()
    C = M.coordinate_ring()
    where = [C.gens().index(C(str(x))) for x in E.gens()]
    for s in range(3):
        p1 = M.coefficients_at(M.random_weights(seed=10 + s))
        p2 = M.coefficients_at(M.random_weights(seed=20 + s))
        pt = [p1[i] + p2[i] for i in where]
        assert all(g(*pt) == 0 for g in gens)
        # while one point of three summed heads is off the variety (dimension 18 = span)
        p3 = M.coefficients_at(M.random_weights(seed=30 + s))
        assert any(g(*[p1[i] + p2[i] + p3[i] for i in where]) != 0 for g in gens)


def test_two_heads_that_fill_the_span_have_no_equation():
    from sage_attention.ideals.implicitization import implicitize
    from sage_attention.variety.joins import SummedHeads
    M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
    assert _fills_span(dict(d=2, t=2, a=1), 2)
    R = implicitize(SummedHeads(M, 2), 4, seed=0, symmetry=False, prove=False, executor=False)
    assert R.generators_by_degree == {}
