"""
The numbers of minimal generators a `vanishing_ideal` statement reports after an interpolation: the
engine's counts (exact in the lowest degree, certified modulo a prime above it) against the exact
recount over QQ (a truncated Groebner basis), and the statement's option `count`.
"""
import pytest

import sage.all__sagemath_singular  # noqa: F401  (initializes Sage)

from sage_attention import LightningAttention, PolynomialNetwork, implicitize
from sage_attention.app import ideal_runners
from sage_attention.dsl import parse_spec
from sage_attention.dsl.model_checks import Checker
from sage_attention.dsl.statement_checks import check_computation
from sage_attention.ideals import minimal_generators as mg


@pytest.mark.parametrize("M,k", [(LightningAttention(d=3, t=2, a=1, entries=[(1, 1)]), 3),
                                 (LightningAttention(d=3, t=2, a=2, entries=[(1, 1)]), 4),
                                 (PolynomialNetwork([2, 2, 1], 5).coordinate_model(), 3)])
def test_the_engine_counts_agree_with_the_exact_recount(M, k):
    R = implicitize(M, k, seed=0, prove=False)
    engine, how = ideal_runners.interpolation_counts(M, R, False, False, count="engine")
    exact = mg.minimal_generators_count(R.coordinate_ideal())
    assert engine == exact
    degrees = sorted(d for d in engine if d > 1)
    # the lowest nonlinear degree is exact by the argument (independent modulo p), the others are said
    # to be upper bounds; one degree only is exact outright
    if len(degrees) > 1:
        assert f"exact in degree {degrees[0]}" in how and "was not run (`count = engine`)" in how
    else:
        assert how == "exact"


def test_count_exact_recounts_beyond_the_size_and_count_engine_never(monkeypatch):
    M = LightningAttention(d=3, t=2, a=2, entries=[(1, 1)])
    called = []
    counted = mg.minimal_generators_count
    monkeypatch.setattr(mg, "minimal_generators_count", lambda *a, **k: called.append(1) or counted(*a, **k))
    from sage_attention.settings import settings
    with settings.override(EXACT_COUNT_SIZE=10):
        skipped = ideal_runners.run_vanishing_ideal(M, None, {"degree": 4})
        assert not called and skipped["minimal_count"] == "modulo p"
        assert "write `count = exact` to run it" in skipped["text"]
        exact = ideal_runners.run_vanishing_ideal(M, None, {"degree": 4, "count": "exact"})
        assert called and exact["minimal_count"] == "exact" and "the counts are the engine's" not in exact["text"]
    called.clear()
    engine = ideal_runners.run_vanishing_ideal(M, None, {"degree": 4, "count": "engine"})
    assert not called and engine["minimal_count"] == "modulo p"
    assert engine["generators_by_degree"] == exact["generators_by_degree"] == {1: 10, 3: 30, 4: 90}


def test_the_generators_written_are_those_of_the_neurovariety():
    M = LightningAttention(d=3, t=2, a=1, entries=[(1, 1)])
    r = ideal_runners.run_vanishing_ideal(M, None, {"degree": 3})
    assert r["generators"] == [str(g) for g in M.neurovariety().minimal_generators(degree=3)]


def test_count_engine_with_elimination_is_refused_at_check():
    spec = parse_spec("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
                      "compute m { vanishing_ideal algorithm = elimination count = engine }")
    with pytest.raises(Exception, match="`count = engine` asks for the interpolation engine's counts"):
        check_computation(Checker(spec), spec.computations[0], spec.models[0], None, False)
    spec = parse_spec("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
                      "compute m { vanishing_ideal up to degree 2 count = exact }")
    assert check_computation(Checker(spec), spec.computations[0], spec.models[0], None, False) is None
