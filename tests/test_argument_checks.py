"""Options of the ideal computations that make no sense are refused naming the option, never
taken silently (a negative proof time ran no proof; a negative timeout of the Hilbert data was
ignored when the data came from the proof), and the zero ideal has no generators, not unknown
ones."""
import pytest

from sage.all__sagemath_singular import QQ, PolynomialRing
from sage_attention import LightningAttention
from sage_attention.ideals.hilbert import hilbert_data
from sage_attention.ideals.implicitization import implicitize
from sage_attention.variety.neurovariety import Neurovariety


@pytest.mark.parametrize("prove, error", [(-1, ValueError), (0, ValueError), (float("inf"), ValueError),
                                          ("yes", TypeError), ([30], TypeError)])
def test_implicitize_refuses_a_meaningless_proof_time(prove, error):
    with pytest.raises(error, match=r"prove \(=.*\) must be a positive number of seconds or None, True, False"):
        implicitize(LightningAttention(d=2, t=1, a=1), 2, prove=prove)


def test_implicitize_takes_a_proof_time():
    # a number of seconds runs the proof (the token of width 2 fills its space: the zero ideal, proved)
    R = implicitize(LightningAttention(d=2, t=1, a=1), 2, prove=5, seed=0)
    assert R.proved_complete
    assert not implicitize(LightningAttention(d=2, t=1, a=1), 2, prove=False, seed=0).proved_complete


@pytest.mark.parametrize("timeout", [-1, 0, "10"])
def test_hilbert_data_refuses_a_meaningless_timeout(timeout):
    # the data of this model come from the proof, where the timeout is never used: still refused
    X = Neurovariety(LightningAttention(d=2, t=1, a=1))
    with pytest.raises((ValueError, TypeError), match=r"timeout \(=.*\) must be a positive number of seconds"):
        X.hilbert_data(timeout=timeout)


def test_zero_ideal_has_no_generators():
    # a model that fills its space: the vanishing ideal is zero, the resolution is R itself
    H = Neurovariety(LightningAttention(d=2, t=1, a=1)).hilbert_data(betti=True)
    assert H.betti == [{0: 1}] and H.generators_by_degree == {}
    R = PolynomialRing(QQ, "x, y")
    assert hilbert_data([], R).generators_by_degree == {}
    assert hilbert_data([], R, betti=False).generators_by_degree is None
