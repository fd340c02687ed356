"""The base-field rules (sage_attention/catalog/fields.py) and computations over every kind of field.

Each answer is checked independently: a generator or an invariant is
composed with the parametrization; a span is a rank computed here over the
field itself.
"""
import re

import pytest
from sage.all__sagemath_singular import GF

from sage_attention import LightningAttention
from sage_attention.catalog.fields import FieldInfo, field_info, refusal, RULES

from helpers import span_rank

BIG31 = 2 ** 31 + 11          # primes just above 2^31 and 2^63
BIG63 = 2 ** 63 + 29


@pytest.mark.parametrize("p", [7, 101, 2 ** 31 - 1, BIG31, 2 ** 61 - 1, BIG63])
def test_brill_spans_the_same_35_quartics_over_every_prime_field(p):
    from sage_attention.invariants import brill_invariants
    F = GF(p)
    M = LightningAttention(d=3, t=1, a=1, base_ring=F)
    polys = [m.polynomial for m in brill_invariants(M)]
    phi = M.parametrization()
    assert all(phi(f) == 0 for f in polys)
    assert span_rank(polys, F) == 35


def test_brill_is_refused_where_its_span_would_shrink():
    from sage_attention.invariants import brill_invariants
    for p in (2, 3, 5):
        with pytest.raises(ValueError, match="brill"):
            brill_invariants(LightningAttention(d=3, t=1, a=1, base_ring=GF(p)))


def test_every_rule_refuses_an_inexact_field_and_accepts_qq():
    for task in RULES:
        assert refusal(task, FieldInfo("QQ", 0, None, "rational")) is None
        assert "exact" in refusal(task, FieldInfo("RR", 0, None, "other"))


def test_field_info_of_sage_fields():
    from sage.all__sagemath_singular import QuadraticField, QQbar, RR
    assert field_info(GF(4, "a")) == FieldInfo("GF(4)", 2, 4, "finite")
    assert field_info(QuadraticField(2)).kind == "number field"
    assert field_info(QQbar).kind == "algebraic"
    assert field_info(RR).kind == "other"


def test_certify_over_gf101_splits_over_an_extension():
    from sage_attention.variety.certificates import certify
    M = LightningAttention(d=2, t=1, a=1, base_ring=GF(101))
    # z1^3 + z1 z2^2 + z2^3 has no root modulo 101: weights exist over GF(101^3) only
    c = certify(M, [1, 0, 1, 1], seed=0)
    assert c.status == "realizable"
    assert M.coefficients_at(c.weights) == tuple(M.coordinate_ring().base_ring()(v) for v in
                                                 [1, 0, 1, 1]) or \
        list(M.coefficients_at(c.weights)) == [1, 0, 1, 1]


@pytest.mark.parametrize("p", [2, 3])
def test_low_rank_in_characteristic_2_and_3_is_refused_not_a_crash(p):
    from sage_attention.invariants import low_rank_invariants
    with pytest.raises(ValueError, match="characteristic 0 or > 3"):
        low_rank_invariants(LightningAttention(d=2, t=2, a=1, base_ring=GF(p)))


@pytest.mark.parametrize("F", [GF(2), GF(7)])
def test_dimension_over_a_small_prime_field_draws_points_from_an_extension(F):
    # the rank at points of GF(p^k), p^k >= 2^16, checked against the rank over QQ (an upper bound of the
    # dimension in characteristic p); tests/test_small_prime_fields.py proves such answers independently
    D = LightningAttention(d=2, t=1, a=1, base_ring=F).dimension_report(seed=0)
    assert D.dimension == LightningAttention(d=2, t=1, a=1).dimension(seed=0) == 4
    assert f"size {F.order()}^" in D.field and D.failure_probability < 0.01


def test_dimension_over_a_non_prime_field_is_refused_naming_the_prime_field():
    with pytest.raises(ValueError, match="prime field GF\\(p\\), not GF\\(4\\).*take the model over GF\\(2\\)"):
        LightningAttention(d=2, t=1, a=1, base_ring=GF(4, "a")).dimension(seed=0)


def test_dimension_over_a_large_prime_is_a_rank_modulo_that_prime():
    r = LightningAttention(d=3, t=1, a=1, base_ring=GF(65537)).dimension_report(seed=0)
    assert r.dimension == 7 and "65537" in r.field


@pytest.mark.parametrize("p", [BIG31, 2 ** 31 - 1, 536870923])
def test_elimination_above_2_29_is_refused_before_singular(p):
    # Sage gives Singular the ring Z/p beyond 2^29, where minbase is not implemented: the
    # minimal generators and the Hilbert data of an elimination failed inside Singular
    from sage_attention.ideals.elimination import eliminate
    with pytest.raises(ValueError, match="2\\^29"):
        eliminate(LightningAttention(d=2, t=1, a=1, base_ring=GF(p)))


def test_elimination_just_below_2_29_gives_minimal_generators_and_hilbert_data():
    from sage_attention.variety.neurovariety import Neurovariety
    M = LightningAttention(d=2, t=2, a=1, out=1, base_ring=GF(536870909))
    X = Neurovariety(M)
    G = X.minimal_generators(algorithm="elimination")
    phi = M.parametrization()
    assert all(phi(g) == 0 for g in G) and G[0].parent().ideal(G) == phi.kernel()
    assert X.krull_dimension() == M.dimension(seed=0)


@pytest.mark.parametrize("p", [65537, 1000003, 8388593])
def test_implicitize_over_gf_p_is_the_kernel_over_gf_p(p):
    # the engine computes modulo p itself; Singular's elimination over GF(p) is the independent answer
    from sage_attention.ideals.elimination import eliminate
    from sage_attention.ideals.implicitization import implicitize
    for kw, degree in ((dict(d=2, t=2, a=1, out=1, entries=[(1, 1)]), 3),
                       (dict(d=3, t=1, a=1, out=1), 4),
                       (dict(d=2, t=2, a=1, out=1, coordinate_scaling="scaled"), 3)):
        M = LightningAttention(base_ring=GF(p), **kw)
        R = implicitize(M, degree, seed=0, prove=False)
        K = eliminate(M).ideal
        assert R.ideal.ring() is K.ring()
        assert all(g in K for g in R.ideal.gens())
        # complete through its degree: every generator of K of degree <= degree is in R.ideal
        assert all(g in R.ideal for g in K.gens() if g.degree() <= degree)


@pytest.mark.parametrize("F,why", [(GF(2), "too few points"), (GF(101), "too few points"),
                                   (GF(4, "a"), "prime fields"), (GF(2 ** 31 + 11), "2^23")])
def test_implicitize_refuses_where_it_cannot_be_exact(F, why):
    from sage_attention.ideals.implicitization import implicitize
    with pytest.raises(ValueError, match=re.escape(why)):
        implicitize(LightningAttention(d=2, t=1, a=1, out=1, base_ring=F), 2)


def test_implicitize_over_gf2_returns_no_false_generator():
    # the tester's case: over GF(2) the engine lifted to QQ and returned a quadric that does not
    # vanish; now it refuses, and elimination (exact over GF(2)) gives the kernel
    from sage_attention.variety.neurovariety import Neurovariety
    M = LightningAttention(d=2, t=1, a=1, out=1, base_ring=GF(2))
    I = Neurovariety(M).vanishing_ideal(algorithm="elimination")
    phi = M.parametrization()
    assert all(phi(g) == 0 for g in I.gens())


@pytest.mark.parametrize("p", [2, 3, 101])
def test_elimination_over_a_small_field_runs_from_a_spec_as_check_accepts(p):
    # `check` accepts `vanishing_ideal algorithm = elimination` over GF(p): `run` must do it; its
    # minimal generators (Singular minbase, not the engine, which refuses such fields) vanish on the
    # parametrization and generate the kernel computed here by Singular
    from sage_attention.app.runners import run_vanishing_ideal
    from sage_attention.dsl import parse_spec, validate
    from sage_attention.variety.neurovariety import Neurovariety
    spec = parse_spec(f"model m {{ field = GF({p}); input = 2; tokens = 2; layer attention(rank = 1, out = 1) }}\n"
                      "compute m { vanishing_ideal algorithm = elimination }\n")
    validate(spec)
    M = LightningAttention(d=2, t=2, a=1, out=1, base_ring=GF(p))
    r = run_vanishing_ideal(M, "vanishing_ideal", {"algorithm": "elimination"})
    assert r["proved_complete"] and r["generators_by_degree"] == {1: 14, 2: 3}
    G = Neurovariety(M).minimal_generators(algorithm="elimination")
    phi = M.parametrization()
    assert all(phi(g) == 0 for g in G)
    assert G[0].parent().ideal(G) == phi.kernel()


def test_the_smallest_prime_of_a_randomized_rank_is_a_tunable():
    # settings.MINIMUM_RANK_PRIME is read when a field is checked (sage_attention/settings.py), by the Jacobian and
    # the interpolation rules alike, and the message names the bound and the next prime
    # the Jacobian rank takes every prime field, drawing its points from the smallest extension with at
    # least MINIMUM_RANK_PRIME elements
    from sage_attention.settings import settings
    from sage_attention.misc.extension_points import point_field
    F = FieldInfo("GF(101)", 101, 101, "finite")
    assert refusal("dimension", F) is None and refusal("fibers", F) is None
    assert "2^16 <= p < 2^23" in refusal("interpolation", F) and "GF(65537)" in refusal("interpolation", F)
    assert point_field(101).order() == 101 ** 3
    with settings.override(MINIMUM_RANK_PRIME=100):
        assert refusal("dimension", F) is None and refusal("interpolation", F) is None
        assert point_field(101).order() == 101
    with settings.override(MINIMUM_RANK_PRIME=2 ** 21):
        assert point_field(101).order() == 101 ** 4
    with settings.override(MINIMUM_RANK_PRIME=1000):
        assert "GF(p) with 1000 <= p < 2^23" in refusal("interpolation", F)
        assert "GF(1009)" in refusal("interpolation", F)
