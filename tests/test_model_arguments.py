"""
The arguments of the models (sage_attention.models.checks): a model answers or refuses with a
clear error. Each test here failed before its fix: the constructors accepted ``d=True``,
``d='3'``, ``d=3.0``, string or inexact base rings and softmax over GF(7); ``entries=5`` and
``coefficients_at([])`` raised bare errors; the Jacobian rank over RR gave 40 instead of 26 and
over GF(2) 3 instead of 4. (Huge builds refused, not killed: tests/test_guards.py; the softmax
forward pass: tests/test_softmax.py.)
"""
import pytest
from sage.all__sagemath_singular import QQ, GF
from sage.rings.real_double import RDF
from sage.rings.real_mpfr import RR
from sage.rings.complex_mpfr import ComplexField

from sage_attention import LightningAttention, SoftmaxAttention
from sage_attention.models.softmax import numerical_dimension


@pytest.mark.parametrize("kw,what", [
    (dict(d=True, t=2, a=1), "d_0"), (dict(d="3", t=2, a=1), "d_0"),
    (dict(d=3.0, t=2, a=1), "d_0"), (dict(d=3, t=True, a=1), "tokens t"),
    (dict(d=3, t=2, a=1.5), "a_1"), (dict(widths=[3, True], ranks=[1], t=2), "d_1"),
])
def test_constructors_reject_non_integers(kw, what):
    with pytest.raises(TypeError, match=what):
        LightningAttention(**kw)
    with pytest.raises(TypeError, match=what):
        SoftmaxAttention(**kw)


def test_base_rings():
    with pytest.raises(TypeError, match="base_ring .*not a string"):
        LightningAttention(d=2, t=2, a=1, base_ring="QQ")
    for F in (RR, ComplexField(53), RDF):
        with pytest.raises(ValueError, match="exact field"):
            LightningAttention(d=2, t=2, a=1, base_ring=F)
    for F in (GF(7), RR):
        with pytest.raises(ValueError, match="QQ or RDF"):
            SoftmaxAttention(d=2, t=2, a=1, base_ring=F)
    assert SoftmaxAttention(d=2, t=2, a=1, base_ring=RDF).base_ring() is RDF
    assert LightningAttention(d=2, t=2, a=1, base_ring=GF(7)).base_ring() is GF(7)


def test_bad_entries_and_weights():
    with pytest.raises(TypeError, match="entries"):
        LightningAttention(d=2, t=2, a=1, entries=5)
    M = LightningAttention(d=2, t=2, a=1)
    for w in ([], [()], [(1, 2, 3)], None):
        with pytest.raises(ValueError, match="weights"):
            M.coefficients_at(w)


def test_inexact_fields_and_small_primes_are_refused_for_ranks():
    M = LightningAttention(widths=[4, 2, 4], ranks=[2, 2], t=3)
    L = LightningAttention(d=2, t=2, a=1)
    for F in (RR, RDF, GF(2), GF(101)):
        with pytest.raises(ValueError, match="certified lower bound"):
            L.dimension(seed=0, field=F)
    # the right answers, checked independently: a float64 SVD of the Jacobian
    # (numpy code) and the published formula d d' + r(2d - r) - 1 = 4
    assert M.dimension(seed=0) == M.dimension(seed=0, field=QQ) == 26
    assert numerical_dimension(M, seed=0).dimension == 26
    assert L.dimension(seed=0) == L.dimension(seed=1, field=GF(65537)) == 4
