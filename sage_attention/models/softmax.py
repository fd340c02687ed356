r"""
Numerical dimension of normalized (softmax) attention

With a normalization `S` the network is no longer polynomial, and its
function space is not a priori inside a finite-dimensional vector space.
Following [HMK2024]_ we restrict the network to `N` random inputs
`X_1, \dots, X_N` and compute the rank of the Jacobian of

.. MATH::

    W \longmapsto (Y(X_1), \dots, Y(X_N))

at random weights `W`. Unlike the published float32 script (one backward
pass per output, maximum over several trials), the Jacobian here is built in
one vectorized forward-mode pass in float64 with exact derivatives of every
operation (the normalizer's derivative is analytic, or symbolic, or a
complex step), so one trial suffices. The rank is read off the singular
values at their largest relative gap; the gap is reported, and a warning is
attached when it is not clear.

The configuration of [HMK2024]_ (softmax, two layers, three tokens, rank two,
all widths `\delta`) has dimension `\delta^2 + \sum_i r_i(2\delta - r_i)`,
the lightning formula without the `-l` (:ref:`mathematics, §5 <math-5>`)::

    sage: from sage_attention import SoftmaxAttention
    sage: from sage_attention.models.softmax import numerical_dimension
    sage: M = SoftmaxAttention(widths=[3, 3, 3], ranks=[2, 2], t=3)
    sage: R = numerical_dimension(M, seed=0); R
    The softmax neuromanifold of SoftmaxAttention(widths=(3, 3, 3), ranks=(2, 2), t=3) over Rational Field has numerical dimension 25
    (expected 25 from [HMK2024]); singular-value gap ...
    sage: R.dimension == M.expected_dimension(), R.warning is None
    (True, True)

The same code on a lightning network agrees with the exact rank over a
prime field (no normalization: the Jacobian of a polynomial map)::

    sage: from sage_attention import LightningAttention
    sage: L = LightningAttention(widths=[3, 3, 3], ranks=[1, 2], t=3)
    sage: numerical_dimension(L, seed=1).dimension == L.dimension(seed=1) == 18
    True

A user normalizer: a pair of numpy callables (the function and its
derivative), or one callable (differentiated by a complex step)::

    sage: import numpy as np
    sage: R2 = numerical_dimension(M, seed=0, normalizer=(np.tanh, lambda s: 1 - np.tanh(s)**2))
    sage: R2.expected is None, R2.dimension <= M.nparameters()
    (True, True)
"""
import logging
import math
from dataclasses import dataclass, asdict, field

import numpy as np

from sage_attention.models.reports import FormulaComparison
from sage_attention.misc.randomness import resolve_seed, numpy_generator
from sage_attention.settings import moved_to_settings, settings

logger = logging.getLogger("sage_attention")

# A gap (ratio of consecutive singular values) below settings.SOFTMAX_CLEAR_GAP
# is "not clear"; the old name CLEAR_GAP reads it.
__getattr__ = moved_to_settings(__name__, {"CLEAR_GAP": "SOFTMAX_CLEAR_GAP"})


@dataclass(frozen=True)
class NumericalDimensionReport(FormulaComparison):
    r"""
    The numerical dimension of a (normalized) attention network.

    Attributes: ``model``, ``dimension`` (the rank read at the largest
    relative gap of the singular values), ``expected`` (formula or
    ``None``), ``expected_note``, ``parameters`` (number of weights),
    ``parameter_dimension``, ``fiber_dimension`` (parameters minus
    dimension), ``singular_values`` (normalized by the largest, decreasing),
    ``gap`` (`\sigma_k / \sigma_{k+1}` at the chosen rank `k`; against the
    float64 noise floor when `k` is the full rank), ``second_gap`` (the
    largest other gap), ``warning`` (``None`` or a sentence), ``inputs``
    (random inputs used), ``seed``, ``normalizer``, ``precision``,
    ``method``.

    EXAMPLES::

        sage: from sage_attention import SoftmaxAttention
        sage: R = SoftmaxAttention(d=3, t=2, a=2).dimension_report(seed=0)
        sage: R.dimension, R.expected, R.agrees, R.fiber_dimension
        (11, 11, True, 4)
        sage: sorted(R.to_dict())[:4]
        ['agrees', 'dimension', 'expected', 'expected_dimension']
    """
    model: str
    dimension: int
    expected: object
    expected_note: str
    parameters: int
    parameter_dimension: int
    fiber_dimension: int
    singular_values: tuple = field(repr=False)
    gap: float
    second_gap: float
    warning: object
    inputs: int
    seed: object
    normalizer: str
    precision: str
    method: str
    failure_probability: object = None

    def __repr__(self):
        exp = self.expected_phrase()
        s = (f"The {self.normalizer} neuromanifold of {self.model} has numerical dimension "
             f"{self.dimension}\n{exp}; singular-value gap {self.gap:.0e}")
        if self.warning:
            s += f"\nWARNING: {self.warning}"
        return s

    def _repr_html_(self):
        r"""
        Return an HTML table of the report (Jupyter's rich display).

        EXAMPLES::

            sage: from sage_attention import SoftmaxAttention
            sage: h = SoftmaxAttention(d=3, t=2, a=1).dimension_report(seed=0)._repr_html_()
            sage: '<tr><th>dimension</th><td>8</td></tr>' in h, 'None' in h
            (True, False)
            sage: '<tr><th>warning</th><td>none: the gap is clear</td></tr>' in h
            True

        A user normalizer has no formula, and the table says so::

            sage: import numpy as np
            sage: R = SoftmaxAttention(d=2, t=2, a=1)
            sage: from sage_attention.models.softmax import numerical_dimension
            sage: h = numerical_dimension(R, seed=0, normalizer=np.cosh)._repr_html_()
            sage: '<tr><th>expected</th><td>no published formula for the normalizer cosh</td></tr>' in h
            True
        """
        from sage_attention.misc.html import html_table
        rows = ([("model", self.model), ("normalizer", self.normalizer),
                 ("dimension", self.dimension)]
                + self.comparison_rows()
                + [("parameters", self.parameters),
                   ("fiber dimension", self.fiber_dimension),
                   ("singular-value gap", f"{self.gap:.1e}"),
                   ("second largest gap", f"{self.second_gap:.1e}"),
                   ("warning", self.warning or "none: the gap is clear"),
                   ("inputs", self.inputs), ("seed", self.seed),
                   ("precision", self.precision), ("method", self.method)])
        return html_table(rows, caption=f"Numerical dimension of the {self.normalizer} "
                                        "neuromanifold")

    def to_dict(self):
        r"""
        Return the report as a JSON-able dictionary.

        EXAMPLES::

            sage: from sage_attention import SoftmaxAttention
            sage: d = SoftmaxAttention(d=2, t=2, a=1).dimension_report(seed=1).to_dict()
            sage: d['dimension'], d['expected_dimension'], len(d['singular_values'])
            (5, 5, 6)
        """
        d = asdict(self)
        d["singular_values"] = [float(s) for s in self.singular_values]
        d["expected_dimension"] = self.expected
        d["agrees"] = self.agrees
        return d


# ----------------------------------------------------------------------
# BLAS threads
# ----------------------------------------------------------------------

def _openblas():
    r"""
    Return ``(set, get)`` ctypes functions of numpy's OpenBLAS, or ``None``.
    """
    import ctypes
    import glob
    import os
    libdir = os.path.join(os.path.dirname(os.path.dirname(np.__file__)), "numpy.libs")
    for path in glob.glob(os.path.join(libdir, "*openblas*.so*")):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for prefix, suffix in (("scipy_openblas", "64_"), ("scipy_openblas", ""),
                               ("openblas", "64_"), ("openblas", "")):
            try:
                return (getattr(lib, f"{prefix}_set_num_threads{suffix}"),
                        getattr(lib, f"{prefix}_get_num_threads{suffix}"))
            except AttributeError:
                continue
    return None


class _single_blas_thread:
    r"""
    Context manager running numpy's BLAS on one thread.

    The matrices here are small (a few hundred columns): threads only
    cost time, and much more when the cores are shared.

    EXAMPLES::

        sage: from sage_attention.models.softmax import _single_blas_thread
        sage: with _single_blas_thread():
        ....:     pass
    """
    _funcs = None

    def __enter__(self):
        if _single_blas_thread._funcs is None:
            _single_blas_thread._funcs = _openblas() or False
        self._old = None
        if self._funcs:
            setf, getf = self._funcs
            self._old = getf()
            setf(1)
        return self

    def __exit__(self, *args):
        if self._funcs and self._old:
            self._funcs[0](self._old)
        return False


# ----------------------------------------------------------------------
# normalizers
# ----------------------------------------------------------------------

class _Normalizer:
    r"""
    A positive scalar function `s` with derivative, applied column-wise as
    `S(M)_{nj} = s(M_{nj}) / \sum_m s(M_{mj})`.
    """

    def __init__(self, name, s, ds, shift=False):
        self.name, self.s, self.ds, self.shift = name, s, ds, shift

    def __call__(self, M, dM):
        r"""
        Return `(P, dP)` for a batch `M` (`... \times t \times t`) and
        tangents `dM` (`p \times ... \times t \times t`).
        """
        if self.shift:
            # exp(M - c) / sum exp(M - c): the same value, no overflow
            M = M - M.max(axis=-2, keepdims=True)
        with np.errstate(all="ignore"):         # checked below, never printed
            E = np.asarray(self.s(M))
            dE = np.asarray(self.ds(M))
            Z = E.sum(axis=-2, keepdims=True)
        self.check_values(E, dE, Z)
        P = E / Z
        G = dE * dM / Z                      # derivative of the numerator / Z
        dP = G - P * G.sum(axis=-2, keepdims=True)
        return P, dP


    def check_values(self, E, dE, Z):
        r"""
        Raise ``ValueError`` unless the normalizer's values can be normalized.

        The values `s(M_{nj})` and the derivatives must be finite, and each
        column sum `\sum_m s(M_{mj})` nonzero (it is the denominator).

        INPUT:

        - ``E``, ``dE`` -- arrays; the values of `s` and of its derivative
        - ``Z`` -- array; the column sums of ``E``

        EXAMPLES::

            sage: from sage_attention.models.softmax import _make_normalizer
            sage: import numpy as np
            sage: N = _make_normalizer(lambda x: 0*x)
            sage: N.check_values(np.zeros((2, 2)), np.zeros((2, 2)), np.zeros((1, 2)))
            Traceback (most recent call last):
            ...
            ValueError: normalizer (=<lambda>) returned values whose column sums are zero at the attention scores, so they cannot be normalized: pass a positive function, such as exp ('softmax')
            sage: N.check_values(np.ones((2, 2)), np.full((2, 2), np.nan), np.ones((1, 2)))
            Traceback (most recent call last):
            ...
            ValueError: normalizer (=<lambda>) returned non-finite derivatives (inf or nan) at the attention scores: pass a function that is finite, with a finite derivative, at every real number
        """
        if not (np.isfinite(E).all() and np.isfinite(Z).all()):
            what = "values"
        elif not np.isfinite(dE).all():
            what = "derivatives"
        else:
            if (Z == 0).any():
                raise ValueError(f"normalizer (={self.name}) returned values whose column sums "
                                 "are zero at the attention scores, so they cannot be "
                                 "normalized: pass a positive function, such as exp "
                                 "('softmax')")
            return
        raise ValueError(f"normalizer (={self.name}) returned non-finite {what} (inf or nan) "
                         "at the attention scores: pass a function that is finite, with a "
                         "finite derivative, at every real number")


def _complex_step(f):
    h = 1e-30

    def df(x):
        return np.imag(f(x + 1j * h)) / h
    return df


def _make_normalizer(normalizer):
    r"""
    Return a :class:`_Normalizer` from the user's description.

    TESTS::

        sage: from sage_attention.models.softmax import _make_normalizer
        sage: import numpy as np
        sage: N = _make_normalizer(np.exp)
        sage: float(N.ds(np.array(0.5))) == float(np.exp(0.5))
        True
        sage: _make_normalizer(3)
        Traceback (most recent call last):
        ...
        TypeError: normalizer (=3) must be 'softmax', a callable, a pair (s, ds) of callables or a Sage expression in one variable
    """
    if isinstance(normalizer, _Normalizer):
        return normalizer
    if normalizer is None or (isinstance(normalizer, str) and normalizer in ("softmax", "exp")):
        return _Normalizer("softmax", np.exp, np.exp, shift=True)
    if isinstance(normalizer, tuple) and len(normalizer) == 2 and all(map(callable, normalizer)):
        s, ds = normalizer
        return _Normalizer(getattr(s, "__name__", "user"), s, ds)
    # a Sage symbolic expression or callable symbolic function
    if hasattr(normalizer, "variables") and hasattr(normalizer, "derivative"):
        vs = normalizer.variables()
        if len(vs) != 1:
            raise ValueError(f"normalizer (={normalizer}) must be an expression in one variable")
        x = vs[0]
        expr = normalizer(x) if hasattr(normalizer, "arguments") and normalizer.arguments() else normalizer
        dexpr = expr.derivative(x)
        from sage.ext.fast_callable import fast_callable
        from sage.rings.real_double import RDF
        f = fast_callable(expr, vars=[x], domain=RDF)
        df = fast_callable(dexpr, vars=[x], domain=RDF)
        vf = np.vectorize(lambda u: float(f(u)), otypes=[float])
        vdf = np.vectorize(lambda u: float(df(u)), otypes=[float])
        return _Normalizer(str(expr), vf, vdf)
    if callable(normalizer):
        return _Normalizer(getattr(normalizer, "__name__", "user"), normalizer,
                           _complex_step(normalizer))
    raise TypeError(f"normalizer (={normalizer!r}) must be 'softmax', a callable, a pair "
                    "(s, ds) of callables or a Sage expression in one variable")


# ----------------------------------------------------------------------
# forward mode
# ----------------------------------------------------------------------

def _random_weights(model, rng):
    r"""
    Return float64 weights ``[(Q, K, V)]``, scaled so that the attention
    scores are of order one.
    """
    out = []
    for i, a in enumerate(model.ranks):
        din, dout = model.widths[i], model.widths[i + 1]
        s = 1.0 / math.sqrt(din)
        out.append((rng.standard_normal((a, din)) * s, rng.standard_normal((a, din)) * s,
                    rng.standard_normal((dout, din)) * s))
    return out


def jacobian(model, weights, X, normalizer=None, rows=None):
    r"""
    Return the Jacobian of weights `\mapsto` outputs at a batch of inputs.

    Forward mode, all weight directions at once: the tangent of each token
    matrix is an array of shape ``(P, N, width, t)``.

    INPUT:

    - ``model`` -- an :class:`~sage_attention.models.base.AttentionNetwork`
    - ``weights`` -- a list ``[(Q, K, V)]`` of float arrays, one per layer
    - ``X`` -- float array of shape ``(N, d_0, t)``
    - ``normalizer`` -- (default: ``None``, softmax) as in
      :func:`numerical_dimension`; used by the softmax layers
    - ``rows`` -- (default: all) output rows (0-based) to keep

    OUTPUT: ``(Y, J)`` with ``Y`` of shape ``(N, d_l, t)`` and ``J`` of shape
    ``(N * d_l' * t, P)`` (`d_l'` the number of kept rows), the parameters
    ordered layer by layer as ``Q, K, V``, each row by row

    EXAMPLES:

    Against central finite differences::

        sage: from sage_attention import SoftmaxAttention
        sage: from sage_attention.models.softmax import jacobian, _random_weights
        sage: import numpy as np
        sage: M = SoftmaxAttention(widths=[2, 3, 2], ranks=[1, 2], t=3)
        sage: rng = np.random.default_rng(int(0))
        sage: W = _random_weights(M, rng); X = rng.standard_normal((4, 2, 3))
        sage: Y, J = jacobian(M, W, X)
        sage: flat = np.concatenate([m.ravel() for w in W for m in w])
        sage: def F(v):
        ....:     ws, k = [], 0
        ....:     for w in W:
        ....:         ws.append(tuple(v[k + sum(m.size for m in w[:i]):][:w[i].size].reshape(w[i].shape) for i in range(3)))
        ....:         k += sum(m.size for m in w)
        ....:     return jacobian(M, ws, X)[0].ravel()
        sage: h = float(1e-6); e = np.eye(len(flat))
        sage: FD = np.array([(F(flat + h * e[i]) - F(flat - h * e[i])) / (2 * h) for i in range(len(flat))]).T
        sage: bool(np.abs(FD - J).max() < 1e-6)
        True
    """
    norm = _make_normalizer(normalizer)
    X = np.asarray(X, dtype=float)
    N, t = X.shape[0], X.shape[2]
    sizes = [sum(m.size for m in w) for w in weights]
    P = sum(sizes)
    dX = np.zeros((P, N) + X.shape[1:])
    offset = 0
    for layer, (w, kind) in enumerate(zip(weights, model.normalization)):
        Q, K, V = (np.asarray(m, dtype=float) for m in w)
        a, din = Q.shape
        dout = V.shape[0]
        A = K.T @ Q
        # tangent directions of this layer's weights
        dA = np.zeros((P, din, din))
        dV = np.zeros((P, dout, din))
        o = offset
        for k in range(a):                   # dQ[k, c]: dA = K^T E_kc
            for c in range(din):
                dA[o, :, c] = K[k, :]
                o += 1
        for k in range(a):                   # dK[k, b]: dA = E_kb^T Q
            for b in range(din):
                dA[o, b, :] = Q[k, :]
                o += 1
        for i in range(dout):
            for p in range(din):
                dV[o, i, p] = 1.0
                o += 1
        offset = o
        XT = np.swapaxes(X, -1, -2)
        AX = A @ X
        M = XT @ AX                                          # (N, t, t)
        dM = (np.swapaxes(dX, -1, -2) @ AX + XT @ (dA[:, None] @ X)
              + XT @ (A @ dX))                               # (P, N, t, t)
        if kind == "softmax":
            S, dS = norm(M, dM)
        else:
            S, dS = M, dM
        XS = X @ S
        Xn = V @ XS
        dXn = dV[:, None] @ XS + V @ (dX @ S) + V @ (X @ dS)
        X, dX = Xn, dXn
    if rows is not None:
        rows = list(rows)
        X, dX = X[:, rows, :], dX[:, :, rows, :]
    J = dX.reshape(P, -1).T
    return X, J


def _read_rank(sv):
    r"""
    Return ``(rank, gap, second_gap)`` from decreasing singular values.

    The rank is the position of the largest ratio `\sigma_k/\sigma_{k+1}`;
    for full rank the last singular value is compared with the float64
    noise floor.

    TESTS::

        sage: from sage_attention.models.softmax import _read_rank
        sage: import numpy as np
        sage: r, g, g2 = _read_rank(np.array([1, 0.5, 0.2, 1e-15, 1e-16]))
        sage: r, g > 1e13, g2 < 11
        (3, True, True)
        sage: _read_rank(np.array([1, 0.5, 0.25]))[0]
        3
    """
    sv = np.asarray(sv, dtype=float)
    if sv.size == 0 or sv[0] == 0:
        return 0, float("inf"), 1.0
    s = sv / sv[0]
    floor = np.finfo(float).eps * max(len(s), 1) * 10
    tail = np.maximum(s, floor * 1e-3)
    ratios = list(tail[:-1] / tail[1:]) + [tail[-1] / floor]
    ratios = np.array(ratios)
    k = int(np.argmax(ratios))
    gap = float(ratios[k])
    others = np.delete(ratios, k)
    second = float(others.max()) if others.size else 1.0
    return k + 1, gap, second


def _grow(model, weights, X, norm, rows, P, grow, max_inputs, rng):
    prev = None
    while True:
        with np.errstate(all="ignore"):         # checked below, never printed
            _, J = jacobian(model, weights, X, normalizer=norm, rows=rows)
        if not np.isfinite(J).all():
            raise ValueError(f"the Jacobian at {X.shape[0]} random inputs has non-finite "
                             f"entries (inf or nan): the normalizer (={norm.name}) or the "
                             "network overflows float64; pass a normalizer of moderate growth, "
                             "such as exp ('softmax', which is shifted to avoid overflow)")
        sv = np.linalg.svd(J, compute_uv=False)
        rank, gap, second = _read_rank(sv)
        logger.info("numerical dimension: %d inputs, rank %d, gap %.1e", X.shape[0], rank, gap)
        if (not grow or rank == P or (prev is not None and rank == prev)
                or X.shape[0] >= max_inputs):
            return rank, gap, second, sv, X, prev
        prev = rank
        more = min(X.shape[0], max_inputs - X.shape[0])       # double, up to max_inputs
        X = np.concatenate([X, rng.standard_normal((more,) + X.shape[1:])])


def numerical_dimension(model, seed=None, ninputs=None, normalizer=None, precision="float64",
                        max_inputs=None):
    r"""
    Return a numerical estimate of the dimension of a (normalized) network.

    INPUT:

    - ``model`` -- an :class:`~sage_attention.models.base.AttentionNetwork`
      (softmax, lightning or mixed layers; weights ``'QKV'`` or ``'AV'``,
      both giving the same function space)
    - ``seed`` -- (default: ``None``, drawn from Sage's random state)
      integer for numpy's generator; the report records the seed used
    - ``ninputs`` -- (default: ``None``) positive integer; the number `N`
      of random inputs; by default it starts at `\lceil (P + 1) / (d_l t)
      \rceil + 2` and is doubled (up to ``max_inputs``) until the rank is
      stable (the number used is reported). Fewer than `P / (d_l t)` inputs
      can only give a smaller rank
    - ``normalizer`` -- (default: ``None``, `\exp`) the scalar function of
      the softmax layers: ``'softmax'``; a pair ``(s, ds)`` of numpy
      callables (the function and its derivative); one numpy callable
      (differentiated by a complex step, so it must accept complex arrays);
      or a Sage symbolic expression in one variable (differentiated
      symbolically)
    - ``precision`` -- (default: ``'float64'``) only float64 is implemented
    - ``max_inputs`` -- (default: `16 P + 16`, `P` the number of weights)
      positive integer; a bound on `N`: the doubling stops there (with a
      warning if the rank is still growing). It must be at least the
      starting number of inputs, and at least ``ninputs`` if that is given

    OUTPUT: a :class:`NumericalDimensionReport`

    .. WARNING::

        A numerical rank. The derivatives are exact and the arithmetic is
        float64, so a clear gap (``report.gap`` above
        ``settings.SOFTMAX_CLEAR_GAP``, ``1e4`` by default; typically
        ``1e8`` or more) makes the answer reliable; ``report.warning``
        says when the gap is not clear. The estimate can only be too small
        at an unlucky random point (probability zero for the
        Gaussian weights and inputs used).

    ALGORITHM: [HMK2024]_'s restriction to finitely many inputs, with a
    float64 forward-mode Jacobian and a singular value decomposition.

    EXAMPLES::

        sage: from sage_attention import SoftmaxAttention
        sage: from sage_attention.models.softmax import numerical_dimension
        sage: R = numerical_dimension(SoftmaxAttention(d=4, t=3, a=2, out=2), seed=0)
        sage: R.dimension, R.expected, R.inputs
        (20, 20, 14)
        sage: R.singular_values[R.dimension - 1] > 1e-8 > R.singular_values[R.dimension]
        True

    A Sage expression as normalizer (here `s(x) = x^2 + 1`)::

        sage: x = polygen(QQ, 'x')
        sage: numerical_dimension(SoftmaxAttention(d=2, t=2, a=1), seed=0, normalizer=x^2 + 1).dimension
        5

    TESTS::

        sage: numerical_dimension(SoftmaxAttention(d=2, t=2, a=1), precision='mpfr')
        Traceback (most recent call last):
        ...
        NotImplementedError: precision (='mpfr') is not available; use 'float64'

    ``max_inputs`` bounds the doubling, and must leave room for the first
    inputs; ``ninputs`` is a positive integer::

        sage: M = SoftmaxAttention(d=3, t=2, a=1)
        sage: R = numerical_dimension(M, seed=0); R.inputs, R.dimension
        (14, 8)
        sage: R = numerical_dimension(M, seed=0, max_inputs=10); R.inputs, R.dimension
        (10, 8)
        sage: numerical_dimension(M, seed=0, max_inputs=1)
        Traceback (most recent call last):
        ...
        ValueError: max_inputs (=1) is smaller than the 7 random inputs the rank needs to start with (9 weights, 2 outputs per input: ceil((9 + 1)/2) + 2); pass max_inputs=7 or more, or fix the number of inputs with ninputs=
        sage: numerical_dimension(M, seed=0, max_inputs=2.5)
        Traceback (most recent call last):
        ...
        TypeError: max_inputs (=2.50000000000000) must be a positive integer
        sage: numerical_dimension(M, seed=0, ninputs=0)
        Traceback (most recent call last):
        ...
        SpecError: ninputs (=0) must be a positive integer
        sage: numerical_dimension(M, seed=0, ninputs='3')
        Traceback (most recent call last):
        ...
        TypeError: ninputs (='3') must be a positive integer
        sage: numerical_dimension(M, seed=0, ninputs=10, max_inputs=8)
        Traceback (most recent call last):
        ...
        ValueError: ninputs (=10) is larger than max_inputs (=8); pass at most max_inputs inputs, or a larger max_inputs

    A normalizer whose values cannot be normalized is refused before the
    singular value decomposition::

        sage: numerical_dimension(M, seed=0, normalizer=lambda x: 0*x)
        Traceback (most recent call last):
        ...
        ValueError: normalizer (=<lambda>) returned values whose column sums are zero at the attention scores, so they cannot be normalized: pass a positive function, such as exp ('softmax')
    """
    if precision not in ("float64", "double", None):
        raise NotImplementedError(f"precision (={precision!r}) is not available; use 'float64'")
    norm = _make_normalizer(normalizer)
    seed = resolve_seed(seed)
    rng = numpy_generator(seed)
    weights = _random_weights(model, rng)
    P = sum(sum(m.size for m in w) for w in weights)
    rows = [i - 1 for i in model.output_rows()] if hasattr(model, "output_rows") else None
    per_input = (len(rows) if rows is not None else model.widths[-1]) * model.tokens
    from sage_attention.models.arguments import integer_argument
    start = -(-(P + 1) // per_input) + 2
    if max_inputs is None:
        max_inputs = 16 * P + 16
    else:
        max_inputs = integer_argument(max_inputs, "max_inputs")
    if ninputs is None:
        if max_inputs < start:
            raise ValueError(
                f"max_inputs (={max_inputs}) is smaller than the {start} random inputs the "
                f"rank needs to start with ({P} weights, {per_input} outputs per input: "
                f"ceil(({P} + 1)/{per_input}) + 2); pass max_inputs={start} or more, or fix "
                "the number of inputs with ninputs=")
        n = start
        grow = True
    else:
        n = integer_argument(ninputs, "ninputs")
        if n > max_inputs:
            raise ValueError(f"ninputs (={n}) is larger than max_inputs (={max_inputs}); "
                             "pass at most max_inputs inputs, or a larger max_inputs")
        grow = False
    X = rng.standard_normal((n, model.widths[0], model.tokens))
    with _single_blas_thread():
        rank, gap, second, sv, X, prev = _grow(model, weights, X, norm, rows, P, grow,
                                               max_inputs, rng)
    s = sv / sv[0] if sv.size and sv[0] else sv
    warning = None
    clear_gap = settings.SOFTMAX_CLEAR_GAP
    if gap < clear_gap:
        warning = (f"the largest relative gap of the singular values ({gap:.1e}) is below "
                   f"{clear_gap:.0e}: the rank is not clear")
    elif second * 100 > gap:
        warning = (f"two gaps of similar size ({gap:.1e} and {second:.1e}): the rank is "
                   "ambiguous")
    if grow and rank != P and (prev is None or rank != prev):
        warning = ((warning + "; ") if warning else "") + (
            f"the rank did not stabilize before max_inputs (={max_inputs}) inputs")
    default = normalizer is None or normalizer in ("softmax", "exp")
    if default:
        expected, note = model.expected_dimension(), model.expected_dimension_note()
    else:
        expected, note = None, f"no published formula for the normalizer {norm.name}"
    method = ("rank at the largest singular-value gap of the float64 forward-mode Jacobian "
              f"of weights -> outputs on {X.shape[0]} random inputs")
    return NumericalDimensionReport(
        model=repr(model), dimension=rank, expected=expected, expected_note=note,
        parameters=P, parameter_dimension=P, fiber_dimension=P - rank,
        singular_values=tuple(float(v) for v in s), gap=gap, second_gap=second,
        warning=warning, inputs=int(X.shape[0]), seed=seed,
        normalizer=("lightning" if model.is_lightning() else norm.name if not default
                    else "softmax"), precision="float64",
        method=method)

