"""Softmax attention: the numerical dimension against [HMK2024]'s formula."""
import numpy as np
import pytest

from sage.all__sagemath_singular import QQ, matrix, polygen
from sage.rings.real_double import RDF
from sage_attention import SoftmaxAttention, LightningAttention
from sage_attention.models.softmax import numerical_dimension, jacobian, _random_weights, _read_rank


def expected_softmax(delta, l=2, a=2):
    """d d' + sum r_i (2 d - r_i), no -l (doc/mathematics.rst, §5), computed here."""
    r = min(a, delta)
    return delta * delta + l * r * (2 * delta - r)


@pytest.mark.parametrize("delta", range(3, 11))
def test_hmk_configuration_one_trial(delta):
    M = SoftmaxAttention(widths=[delta] * 3, ranks=[2, 2], t=3)
    R = numerical_dimension(M, seed=0)
    assert R.dimension == expected_softmax(delta)
    assert R.warning is None and R.gap > 1e8


def test_other_seed():
    M = SoftmaxAttention(widths=[5, 5, 5], ranks=[2, 2], t=3)
    assert numerical_dimension(M, seed=12345).dimension == expected_softmax(5)


def test_single_layer_formula():
    # one softmax layer: d d' + r(2d - r), proved in [HMK2024]
    for d, a, out in [(2, 1, 1), (3, 2, 2), (4, 1, 3), (3, 5, 1)]:
        r = min(a, d)
        R = SoftmaxAttention(d=d, t=3, a=a, out=out).dimension_report(seed=1)
        assert R.dimension == d * out + r * (2 * d - r)


def test_jacobian_against_finite_differences():
    M = SoftmaxAttention(widths=[3, 2, 2], ranks=[2, 1], t=3)
    rng = np.random.default_rng(4)
    W = _random_weights(M, rng)
    X = rng.standard_normal((3, 3, 3))
    Y, J = jacobian(M, W, X)
    shapes = [m.shape for w in W for m in w]
    flat = np.concatenate([m.ravel() for w in W for m in w])

    def unflat(v):
        ms, k = [], 0
        for s in shapes:
            n = int(np.prod(s))
            ms.append(v[k:k + n].reshape(s))
            k += n
        return [tuple(ms[3 * i:3 * i + 3]) for i in range(len(W))]

    # the forward value against a direct evaluation
    def direct(ws):
        Z = X.copy()
        for Q, K, V in ws:
            S = np.swapaxes(Z, 1, 2) @ K.T @ Q @ Z
            E = np.exp(S)
            Z = V @ Z @ (E / E.sum(axis=1, keepdims=True))
        return Z
    assert np.allclose(direct(W), Y)
    h = 1e-6
    FD = np.array([(direct(unflat(flat + h * e)) - direct(unflat(flat - h * e))).ravel() / (2 * h)
                   for e in np.eye(len(flat))]).T
    assert np.abs(FD - J).max() < 1e-6


def test_normalizers_agree():
    M = SoftmaxAttention(widths=[3, 3], ranks=[2], t=3)
    default = numerical_dimension(M, seed=2)
    pair = numerical_dimension(M, seed=2, normalizer=(np.exp, np.exp))  # no max-shift
    step = numerical_dimension(M, seed=2, normalizer=np.exp)            # complex step
    assert default.dimension == pair.dimension == step.dimension == 3 * 3 + 2 * 4
    assert np.allclose(default.singular_values, pair.singular_values)
    assert np.allclose(default.singular_values, step.singular_values)


def test_column_normalized_polynomial_keeps_a_scaling():
    # s(x) = x^2: S = (A-scores)^2 / column sums is invariant under A -> lambda A, so the
    # dimension is the softmax one minus one (the scaling of A survives, that of V does not).
    # (Not for a = 1: there the scores are alpha_n beta_j and beta cancels in each column.)
    x = polygen(QQ, "x")
    for d, a in [(3, 2), (4, 2)]:
        R = numerical_dimension(SoftmaxAttention(d=d, t=3, a=a), seed=0, normalizer=x ** 2)
        r = min(a, d)
        assert R.dimension == d + r * (2 * d - r) - 1
        assert R.expected is None


def test_lightning_through_the_numerical_path():
    M = LightningAttention(d=4, t=3, a=2, out=2)
    assert numerical_dimension(M, seed=0).dimension == M.dimension(seed=0) == 19


def test_gap_reading_and_warning():
    assert _read_rank(np.array([1.0, 0.9, 1e-13]))[0] == 2
    assert _read_rank(np.array([1.0, 0.9, 0.8]))[0] == 3
    # a tiny t = 1 softmax layer is degenerate: softmax of one score is 1
    R = numerical_dimension(SoftmaxAttention(d=2, t=1, a=1), seed=0)
    assert R.dimension == 2          # only V enters: Y = V x
    assert R.to_dict()["fiber_dimension"] == R.parameters - 2


# -- the forward pass: finite, on rational input too, against numpy

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
