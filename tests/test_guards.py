"""The memory guard: estimates before building, refusals naming estimate, limit and force=,
and force=True reaching the computation."""
import time

import pytest

from sage.all__sagemath_singular import QQ  # noqa: F401  (initializes Sage)
from sage_attention import LightningAttention
from sage_attention.errors import ComputationTooLarge
from sage_attention.ideals.implicitization import implicitize
from sage_attention.ideals.memory import memory_limit


def _refused(fn, seconds=10):
    t0 = time.time()
    with pytest.raises(ComputationTooLarge) as info:
        fn()
    assert time.time() - t0 < seconds
    msg = str(info.value)
    assert "needs about" in msg and "limit" in msg and "force=True" in msg
    assert info.value.estimate > memory_limit()
    return msg


def test_deep_implicitization_is_refused_before_allocating():
    # degree 3 used to try to allocate 98.8 GiB (it is now refused at its
    # largest evaluation matrix, after a minute); degree 4 at once
    M = LightningAttention(widths=[2, 2, 1], ranks=[1, 1], t=2)
    msg = _refused(lambda: implicitize(M, 4, symmetry=False))
    assert "monomials of degree 4" in msg


def test_interpolation_degree_4_on_160_coordinates_is_refused():
    from sage_attention.variety.neurovariety import Neurovariety
    X = Neurovariety(LightningAttention(d=4, t=3, a=2, out=4))
    _refused(lambda: X.vanishing_ideal(algorithm="interpolation", degree=4))
    # the same model through degree 2 is well within the guard
    R = implicitize(X.model(), 2, seed=0)
    assert R.complete_through_degree == 2


def test_invariants_on_a_large_model_are_refused_and_small_ones_pass():
    from sage_attention.invariants import invariants
    msg = _refused(lambda: invariants(LightningAttention(d=8, t=3, a=4, out=8)), seconds=5)
    assert "low_rank" in msg
    fam = invariants(LightningAttention(d=8, t=3, a=4, out=8), families=["low_rank"], limit=3)
    assert len(fam) == 3
    assert len(invariants(LightningAttention(d=3, t=2, a=1))) > 0


def test_the_guard_is_realistic_and_force_reaches_the_work(monkeypatch):
    M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
    full = implicitize(M, 3, seed=0)
    monkeypatch.setenv("SAGE_ATTENTION_MEMORY_LIMIT", "2K")
    assert memory_limit() == 2048
    msg = _refused(lambda: implicitize(M, 3, seed=0))
    forced = implicitize(M, 3, seed=0, force=True)
    assert forced.ideal == full.ideal == M.parametrization().kernel()
    # the evaluation matrix of a piece is estimated too
    from sage_attention.ideals import implicitization as impl
    monkeypatch.setattr(impl, "_monomial_table_bytes", lambda n, k, g: 0)
    monkeypatch.setenv("SAGE_ATTENTION_MEMORY_LIMIT", "200")
    msg = _refused(lambda: implicitize(M, 3, seed=0, executor=False))
    assert "evaluation matrix" in msg or "span of the products" in msg


def test_force_reaches_elimination():
    from sage_attention.ideals.elimination import eliminate
    M = LightningAttention(d=6, t=2, a=2)
    with pytest.raises(ComputationTooLarge, match="force=True"):
        eliminate(M)
    with pytest.raises(ComputationTooLarge, match="did not finish within 2 s"):
        eliminate(M, force=True, timeout=2)
