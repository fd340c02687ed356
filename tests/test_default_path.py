"""
The default path of Neurovariety.vanishing_ideal: interpolation through degree 4
with the whole-ideal proof; when generators are missing in at most 18
coordinates, the next degrees while they are small; then elimination.

The single tokens of width 3 and rank >= 2 (ternary cubics with a linear
factor) have no equation below degree 8: before, the default path eliminated
(20 to 45 s); now it interpolates through degree 8 and proves the 35 octics.
The answers are compared with Singular's elimination over QQ, with the
degree and dimension of the theorem of ideals/common_factor and the Jacobian
rank, and with exact membership (composition).
"""
from types import SimpleNamespace

import pytest

import sage_attention.ideals.elimination as elimination
from sage_attention import LightningAttention
from sage_attention.ideals.proofs.common_factor import common_factor_degree
from sage_attention.settings import settings
from sage_attention.variety.neurovariety import Neurovariety
from sage_attention.variety.vanishing_ideal import generators_missing


def _no_elimination(*args, **kwds):
    raise AssertionError("the default path eliminated")


@pytest.mark.parametrize("a", [2, 3])
def test_single_token_of_width_three_goes_on_to_its_octics(monkeypatch, a):
    M = LightningAttention(d=3, t=1, a=a)
    X = Neurovariety(M)
    monkeypatch.setattr(elimination, "eliminate", _no_elimination)
    R = X.vanishing_ideal_report()
    assert R.proved_complete and R.complete_through_degree == 8
    assert {k: len(v) for k, v in R.generators_by_degree.items()} == {8: 35}
    assert X.vanishing_ideal_report() is R
    # the degree and the dimension of the proved ideal against the theorem and the Jacobian rank
    assert (X.degree(), X.krull_dimension()) == common_factor_degree(M) == (21, M.dimension(seed=2))
    assert all(X.contains(g) for g in R.essential_generators[::10])
    # asked for, the degree-4 interpolation is returned as it is (zero, not proved)
    R4 = X.vanishing_ideal_report(degree=4)
    assert R4.complete_through_degree == 4 and not R4.proved_complete and not R4.essential_generators


def test_the_octics_are_the_elimination_ideal():
    # independent: Singular's elimination over QQ (about 20 s)
    M = LightningAttention(d=3, t=1, a=2)
    R = Neurovariety(M).vanishing_ideal_report()
    assert R.proved_complete
    assert R.ideal == elimination.eliminate(M).ideal


def test_beyond_the_monomial_limit_it_eliminates(monkeypatch):
    # the next degree has more monomials than the limit: elimination decides, and the
    # automatic choice is cached apart from the interpolation that was asked for
    M = LightningAttention(d=3, t=1, a=2)
    X = Neurovariety(M)
    X._results.clear()              # the variety is unique: forget what other tests computed
    eliminated = SimpleNamespace(proved_complete=True, ideal=None)
    monkeypatch.setattr(elimination, "eliminate", lambda *a, **k: eliminated)
    try:
        with settings.override(HIGHER_DEGREE_MONOMIAL_LIMIT=1000):      # degree 5: 2002 monomials
            assert X.vanishing_ideal_report() is eliminated
            assert X.vanishing_ideal_report() is eliminated
            R4 = X.vanishing_ideal_report(degree=4)
            assert R4 is not eliminated and R4.complete_through_degree == 4
            assert X.vanishing_ideal_report(algorithm="elimination") is eliminated
    finally:
        X._results.clear()          # the variety is unique: leave no stand-in behind


def test_no_higher_degrees_when_the_proof_fails_otherwise(monkeypatch):
    # generators are missing only when the ideal found is too large in dimension: a proof that
    # fails for another reason (here: not attempted) goes on to elimination at once
    report = SimpleNamespace(proved_complete=False, interrupted=False, complete_through_degree=4,
                             certificate=SimpleNamespace(hilbert=None, dimension=8))
    assert not generators_missing(report)
    report.certificate.hilbert = SimpleNamespace(dimension=10)
    assert generators_missing(report)
    report.certificate.hilbert = SimpleNamespace(dimension=8)
    assert not generators_missing(report)


def test_degree_of_an_ideal_not_proved_is_refused_without_a_hilbert_series(monkeypatch):
    # the ideal found through degree 4, not proved (no proof asked for): its Hilbert series would
    # bound the degree only from above (and on larger models not finish), so degree() says the
    # degree is not known and krull_dimension() is the Jacobian rank, neither computing a series
    import dataclasses
    from sage_attention.ideals.implicitization import implicitize
    M = LightningAttention(d=3, t=2, a=1, out=1, entries=[(1, 1)])     # rank one: no degree theorem
    X = Neurovariety(M)
    saved = dict(X._results)
    X._results.clear()
    R = implicitize(M, 4, seed=0, prove=False, executor=False)
    assert not R.proved_complete
    X._results[("automatic",)] = R

    def no_series(*args, **kwds):
        raise AssertionError("a Hilbert series was computed")
    monkeypatch.setattr(X, "hilbert_data", no_series)
    try:
        with pytest.raises(ValueError, match="not proved to be the whole vanishing ideal"):
            X.degree()
        # the published dimension of the slice (an independent formula), 7
        assert X.krull_dimension() == M.dimension_report(seed=0).expected == 7
    finally:
        X._results.clear()
        X._results.update(saved)


def test_beyond_this_machine_the_dimension_is_the_jacobian_rank_and_the_degree_refused():
    from sage_attention.misc.errors import ComputationTooLarge
    M = LightningAttention(d=8, t=3, a=4)
    X = Neurovariety(M)
    assert X.krull_dimension() == M.dimension_report(seed=0).expected == 55     # [HMK2024]'s formula
    for call in (X.degree, X.hilbert_data):
        with pytest.raises(ComputationTooLarge) as info:
            call()
        assert "dimension()" in str(info.value) and "force=True" not in str(info.value)
