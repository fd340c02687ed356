r"""
The report's ideal in the model's coordinate ring is made when first read, under the memory guard.

It used to be built by the engine next to the essential generators (a
second copy of every generator, in a ring of more variables): the slice of
width 6 and rank 2 through degree 4 was killed for lack of memory there.
The ideal made later must be the same ideal, checked here against a
construction by another path (the generators' text read in the coordinate
ring, where the essential coordinates have the same names).
"""
import pytest

from sage_attention import LightningAttention
from sage_attention.misc.errors import ComputationTooLarge
from sage_attention.ideals.implicitization import implicitize


@pytest.mark.parametrize("kw, degree", [
    (dict(d=3, t=2, a=1, out=1, entries=[(1, 1)]), 3),     # linear relations and non-essential coordinates
    (dict(d=3, t=1, a=1, out=1), 4),                        # the Chow variety of split ternary cubics
    (dict(d=2, t=1, a=1), 3),                               # no generator at all
])
def test_the_ideal_is_the_generators_read_in_the_coordinate_ring(kw, degree):
    M = LightningAttention(**kw)
    R = implicitize(M, degree, seed=0, prove=False)
    C = M.coordinate_ring()
    gens = list(M.linear_relations()) + [C(str(g)) for g in R.essential_generators]
    expected = C.ideal(gens) if gens else C.ideal([C.zero()])
    assert R.ideal.ring() is C
    assert list(R.ideal.gens()) == list(expected.gens())
    assert R.ideal is R.ideal                                # made once


def test_the_guard_refuses_and_force_builds(monkeypatch):
    M = LightningAttention(d=3, t=2, a=1, out=1, entries=[(1, 1)])
    R = implicitize(M, 3, seed=0, prove=False)
    monkeypatch.setenv("SAGE_ATTENTION_MEMORY_LIMIT", "1K")
    with pytest.raises(ComputationTooLarge, match="essential_generators") as exc:
        R.ideal
    assert exc.value.estimate > 1024
    I = R.coordinate_ideal(force=True)
    monkeypatch.delenv("SAGE_ATTENTION_MEMORY_LIMIT")
    assert R.ideal is I and I.ngens() == len(R.linear_relations) + len(R.essential_generators)
