"""
The model layer answers, refuses with a clear error, or shows its size
before it runs out of memory. Each test here failed before its fix: the
constructors accepted ``d=True``, ``d='3'``, ``d=3.0``, string or inexact
base rings and softmax over GF(7); ``entries=5`` and ``coefficients_at([])``
raised bare errors; the Jacobian rank over RR gave 40 instead of 26 and over
GF(2) 3 instead of 4; two rings killed the process inside Singular; a huge
dimension raised a bare MemoryError while a cheap one was refused; the
softmax forward pass gave NaN and failed on rational input.
"""
import os
import subprocess
import sys

import numpy as np
import pytest
from sage.all__sagemath_singular import QQ, GF, matrix
from sage.rings.real_double import RDF
from sage.rings.real_mpfr import RR
from sage.rings.complex_mpfr import ComplexField

from sage_attention import LightningAttention, SoftmaxAttention
from sage_attention.errors import ComputationTooLarge
from sage_attention.models.softmax import numerical_dimension, jacobian
from sage_attention.sizes import estimate_size, check_size

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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


def run(code, limit_mb=2000, timeout=120):
    prog = ("import resource; resource.setrlimit(resource.RLIMIT_AS, "
            f"({limit_mb} << 20, {limit_mb} << 20))\n" + code)
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True,
                          env=env, timeout=timeout)


@pytest.mark.parametrize("call,needs", [
    ("LightningAttention(d=30, t=3, a=2).coordinate_ring()", "98580 variables"),
    ("LightningAttention(d=30, t=3, a=2).coordinate_ring(force=True)", "Singular cannot build it"),
    ("LightningAttention(d=12000, t=1, a=1).weight_ring()", "36000 variables"),
    ("LightningAttention(d=10**6, t=2, a=1).dimension()", "forward-mode Jacobian"),
    ("SoftmaxAttention(d=10**5, t=2, a=1).dimension()", "forward-mode Jacobian"),
])
def test_huge_builds_are_refused_not_killed(call, needs):
    r = run("from sage_attention import LightningAttention, SoftmaxAttention\n"
            "from sage_attention.errors import ComputationTooLarge\n"
            f"try:\n    {call}\nexcept ComputationTooLarge as e:\n    print('REFUSED', e)\n")
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.startswith("REFUSED") and needs in r.stdout
    if "force=True" not in call:
        # the fix: force=True, or, far beyond the limit, a smaller model (no force advised)
        assert ("force=" in r.stdout or "beyond any machine: choose a smaller model" in r.stdout) \
            and "limit" in r.stdout


def test_the_guard_estimates_what_forward_mode_builds():
    M = LightningAttention(widths=[4, 2, 4], ranks=[2, 2], t=3)
    # the DSL's guard and the model's guard both let it through ...
    check_size(estimate_size(M.widths, M.ranks, M.tokens), "jacobian")
    assert M.dimension(seed=1) == 26
    # ... and both refuse a Jacobian that does not fit
    with pytest.raises(ComputationTooLarge, match="forward-mode"):
        check_size(estimate_size((10**4, 1), (1,), 2), "jacobian")


def arr(m):
    return np.array([float(x) for x in m.list()]).reshape(m.dimensions())


def numpy_forward(M, X, weights):
    # an independent softmax network in numpy: exp(s - max) / sum, per column
    X = arr(X)
    for w in weights:
        Q, K, V = (arr(m) for m in w)
        S = X.T @ K.T @ Q @ X
        E = np.exp(S - S.max(axis=0, keepdims=True))
        X = V @ X @ (E / E.sum(axis=0, keepdims=True))
    return X


def test_softmax_forward_is_finite_and_takes_rationals():
    M = SoftmaxAttention(d=3, t=3, a=2, out=3)
    w = M.random_weights(seed=0)
    for X in (matrix(RDF, 3, 3, range(9)), matrix(QQ, 3, 3, range(9))):
        Y = M.forward(X, w)
        assert Y.base_ring() is RDF
        assert np.isfinite(arr(Y)).all()
        assert np.allclose(arr(Y), numpy_forward(M, X, w))
    # and with the forward pass of the numerical Jacobian (softmax.py)
    Wf = [tuple(arr(m) for m in layer) for layer in w]
    Xs = arr(matrix(RDF, 3, 3, range(9)))[None]
    Y0, _ = jacobian(M, Wf, Xs)
    assert np.allclose(Y0[0], arr(M.forward(matrix(RDF, 3, 3, range(9)), w)))
