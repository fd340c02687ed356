r"""
Fast linear algebra over prime fields, and lifting to the rationals

Helpers of :mod:`sage_attention.ideals.implicitization`: dense matrices over
`\GF{p}` are held as ``numpy`` ``int64`` arrays and echelonized by Sage's
LinBox-backed ``Matrix_modn_dense_double`` (fast for `p < 2^{23}`, where the
double-precision kernels can delay reductions); rational reconstruction and
Chinese remaindering lift the reduced echelon forms to `\QQ`.

EXAMPLES::

    sage: import numpy as np
    sage: from sage_attention.ideals.engine.linalg_modp import rref_modp, lift_vectors
    sage: from sage_attention.settings import settings
    sage: p = settings.LINALG_PRIMES[0]
    sage: a = np.array([[1, 2, 3], [2, 4, 6]], dtype=np.int64)
    sage: R, piv = rref_modp(a, p)
    sage: piv, R.tolist()
    ((0,), [[1, 2, 3]])
    sage: lift_vectors([[p - 1, (p + 1) // 2]], [p])      # -1, 1/2
    ([-2, 1], 2)

The primes are ``settings.LINALG_PRIMES`` (the first is the default, the
others serve Chinese remaindering; the old names ``PRIME`` and ``PRIMES`` of
this module read them), and ``settings.NUMPY_ELIMINATION_COLUMNS`` is the
widest matrix reduced in numpy rather than by LinBox
(:mod:`sage_attention.settings`).
"""
import threading
from math import gcd, isqrt

import numpy as np

from sage.all__sagemath_singular import GF, MatrixSpace
from sage.rings.finite_rings.finite_field_prime_modn import FiniteField_prime_modn

from sage_attention.settings import moved_to_settings, settings

# The default prime, the further primes used when a lift needs Chinese
# remaindering, and the widest matrix reduced in numpy are tunables
# (settings.LINALG_PRIMES, settings.NUMPY_ELIMINATION_COLUMNS); the old names read them.
__getattr__ = moved_to_settings(__name__, {"PRIME": lambda s: s.LINALG_PRIMES[0],
                                           "PRIMES": "LINALG_PRIMES",
                                           "SMALL": "NUMPY_ELIMINATION_COLUMNS"})


_THREAD_FIELDS = {}


def prime_field(p):
    r"""
    Return the field `\GF{p}` for a prime ``p``, also from a thread that is not the main one.

    ``GF(p)`` checks ``p`` with PARI, which crashes outside the main thread;
    a Dask worker runs its tasks in such a thread. There the field is built
    without the check (``p`` is one of the package's primes, checked where it
    is chosen) and kept for the thread's later calls; in the main thread it is
    Sage's unique ``GF(p)``.

    EXAMPLES::

        sage: import threading
        sage: from sage_attention.ideals.engine.linalg_modp import prime_field
        sage: prime_field(7) is GF(7)
        True
        sage: out = []
        sage: t = threading.Thread(target=lambda: out.append(prime_field(8388593).order()))
        sage: t.start(); t.join(); out
        [8388593]
    """
    if threading.current_thread() is threading.main_thread():
        return GF(p)
    F = _THREAD_FIELDS.get(p)
    if F is None:
        F = _THREAD_FIELDS[p] = FiniteField_prime_modn(p)
    return F


def to_sage(a, p):
    r"""
    Return the numpy array ``a`` (entries in `[0, p)`) as a Sage matrix over `\GF{p}`.

    This goes through the matrix's raw pickle format, which is about a
    hundred times faster than building the matrix from a list.

    EXAMPLES::

        sage: import numpy as np
        sage: from sage_attention.ideals.engine.linalg_modp import to_sage, to_numpy
        sage: M = to_sage(np.array([[1, 2], [3, 4]]), 7); M
        [1 2]
        [3 4]
        sage: to_numpy(M).tolist()
        [[1, 2], [3, 4]]
    """
    a = np.ascontiguousarray(np.asarray(a, dtype=np.int64) % p)
    nr, nc = a.shape
    MS = MatrixSpace(prime_field(p), nr, nc)
    M = MS.zero_matrix().__copy__()
    if nr and nc:
        M._unpickle((8, True, a.astype('<u8').tobytes()), 10)
    return M


def to_numpy(M):
    r"""
    Return the matrix ``M`` over `\GF{p}` as a numpy ``int64`` array.

    EXAMPLES::

        sage: from sage.all__sagemath_singular import matrix, GF
        sage: from sage_attention.ideals.engine.linalg_modp import to_numpy
        sage: to_numpy(matrix(GF(5), [[1, 4]])).tolist()
        [[1, 4]]
    """
    nr, nc = M.nrows(), M.ncols()
    if nr == 0 or nc == 0:
        return np.zeros((nr, nc), dtype=np.int64)
    data = M._pickle()[0]
    if data[0] != 8 or not data[1]:
        return np.array(M.list(), dtype=np.int64).reshape(nr, nc)
    return np.frombuffer(data[2], dtype='<u8').astype(np.int64).reshape(nr, nc)


def rref_modp(a, p):
    r"""
    Return the reduced row echelon form of ``a`` over `\GF{p}` without zero rows, and its pivots.

    EXAMPLES::

        sage: import numpy as np
        sage: from sage_attention.ideals.engine.linalg_modp import rref_modp
        sage: R, piv = rref_modp(np.array([[0, 2, 4], [1, 1, 1]]), 7)
        sage: R.tolist(), piv
        ([[1, 0, 6], [0, 1, 2]], (0, 1))

    Zero columns are left out of the elimination (the result is the same)::

        sage: a = np.array([[0, 2, 0, 4, 0], [1, 1, 0, 1, 0]])
        sage: R, piv = rref_modp(a, 7); R.tolist(), piv
        ([[1, 0, 0, 6, 0], [0, 1, 0, 2, 0]], (0, 1))
    """
    a = np.asarray(a, dtype=np.int64)
    if a.shape[0] == 0:
        return np.zeros((0, a.shape[1]), dtype=np.int64), ()
    used = np.flatnonzero((a % p).any(axis=0))
    if len(used) < 0.8 * a.shape[1]:
        # the zero columns stay zero: reduce the others, then put them back
        R, piv = rref_modp(a[:, used], p)
        out = np.zeros((R.shape[0], a.shape[1]), dtype=np.int64)
        out[:, used] = R
        return out, tuple(int(used[c]) for c in piv)
    if a.shape[1] <= settings.NUMPY_ELIMINATION_COLUMNS and p < 2 ** 31:
        return _rref_numpy(a, p)
    M = to_sage(a, p)
    E = M.echelon_form()
    piv = tuple(E.pivots())
    R = to_numpy(E)[:len(piv)]
    return R, piv


def _rref_numpy(a, p):
    r"""
    Return the reduced row echelon form of ``a`` over `\GF{p}` (`p < 2^{31}`) and its pivots, in numpy.

    EXAMPLES::

        sage: import numpy as np
        sage: from sage_attention.ideals.engine.linalg_modp import _rref_numpy, rref_modp
        sage: from sage_attention.settings import settings
        sage: a = np.array([[(3 * i + i * j * j + 1) % 7 for j in range(8)] for i in range(5)])
        sage: a[3] = (a[0] + 2 * a[1]) % 7
        sage: R, piv = _rref_numpy(a, 7)
        sage: from sage.all__sagemath_singular import matrix, GF
        sage: len(piv) == matrix(GF(7), a.tolist()).rank()
        True
        sage: big = np.concatenate([a, np.zeros((5, settings.NUMPY_ELIMINATION_COLUMNS), dtype=a.dtype)], axis=1)
        sage: R2, piv2 = rref_modp(big, 7)            # through LinBox
        sage: piv2 == piv and bool((R2[:, :8] == R).all())
        True
    """
    a = np.array(a, dtype=np.int64) % p
    nr, nc = a.shape
    piv = []
    r = 0
    for c in range(nc):
        if r == nr:
            break
        nz = np.flatnonzero(a[r:, c])
        if not len(nz):
            continue
        i = r + int(nz[0])
        if i != r:
            a[[r, i]] = a[[i, r]]
        a[r] = a[r] * pow(int(a[r, c]), p - 2, p) % p
        col = a[:, c].copy()
        col[r] = 0
        rows = np.flatnonzero(col)
        if len(rows):
            a[rows] = (a[rows] - col[rows, None] * a[r]) % p
        piv.append(c)
        r += 1
    return a[:r], tuple(piv)


def rank_modp(a, p):
    r"""
    Return the rank of ``a`` over `\GF{p}`.

    EXAMPLES::

        sage: import numpy as np
        sage: from sage_attention.ideals.engine.linalg_modp import rank_modp
        sage: rank_modp(np.array([[1, 2], [2, 4]]), 7)
        1
    """
    a = np.asarray(a, dtype=np.int64)
    if a.shape[0] == 0 or a.shape[1] == 0:
        return 0
    return to_sage(a, p).rank()


def matmul_modp(A, B, p):
    r"""
    Return ``A @ B`` modulo ``p`` (entries in `[0, p)`, `p < 2^{23}`), exactly, with floating-point BLAS.

    ``B`` is split as `B_1 2^{12} + B_0` with entries below `2^{12}`; each
    product `A B_i` has entries below `2^{35}` times the inner dimension,
    exact in double precision for an inner dimension below `2^{18}`.

    EXAMPLES::

        sage: import numpy as np
        sage: from sage_attention.ideals.engine.linalg_modp import matmul_modp
        sage: p = 8388593
        sage: A = np.array([[p - 1, 2], [3, 4]]); B = np.array([[5, p - 6], [7, 8]])
        sage: bool((matmul_modp(A, B, p) == (A @ B) % p).all())
        True
    """
    assert p < 2 ** 23 and A.shape[1] < 2 ** 18
    A = np.asarray(A, dtype=np.float64)
    B = np.asarray(B, dtype=np.int64)
    B1, B0 = B >> 12, B & 4095
    hi = (A @ B1.astype(np.float64)).astype(np.int64) % p
    lo = (A @ B0.astype(np.float64)).astype(np.int64) % p
    return (hi * 4096 + lo) % p


def reduce_modulo(G, L, p):
    r"""
    Return the rows ``G`` reduced modulo the reduced echelon form ``L = (rows, pivots)``, over `\GF{p}`.

    EXAMPLES:

    A row in the span of ``L`` reduces to zero; a row outside keeps its part
    outside the pivot columns::

        sage: import numpy as np
        sage: from sage_attention.ideals.engine.linalg_modp import rref_modp, reduce_modulo
        sage: L = rref_modp(np.array([[1, 2, 3], [0, 1, 1]]), 7)
        sage: reduce_modulo(np.array([[2, 5, 7], [0, 0, 1]]), L, 7).tolist()
        [[0, 0, 0], [0, 0, 1]]
    """
    R, piv = L
    G = np.asarray(G, dtype=np.int64) % p
    if not len(piv) or not len(G):
        return G
    return (G - matmul_modp(G[:, list(piv)], R, p)) % p


def kernel_vectors(R, piv, ncols, free, p):
    r"""
    Return the kernel vectors of the echelon form ``R`` attached to the free columns ``free``.

    The vector attached to a free column `f` has a `1` at `f`, zeros at the
    other free columns and `-R_{i,f}` at the `i`-th pivot: these vectors
    form the canonical basis of the kernel, which depends only on the row
    space (so its reduction modulo a good prime is the basis computed over
    `\GF{p}`, and rational reconstruction recovers it).

    EXAMPLES::

        sage: import numpy as np
        sage: from sage_attention.ideals.engine.linalg_modp import kernel_vectors
        sage: R = np.array([[1, 0, 6], [0, 1, 2]]); kernel_vectors(R, (0, 1), 3, [2], 7).tolist()
        [[1, 5, 1]]
    """
    out = np.zeros((len(free), ncols), dtype=np.int64)
    piv = list(piv)
    for j, f in enumerate(free):
        out[j, f] = 1
        if piv:
            out[j, piv] = (-R[:, f]) % p
    return out


def _ratrec(a, m, bound):
    r"""
    Return ``(n, d)`` with `n \equiv a d \pmod m`, `|n| \le` ``bound``, `0 < d \le` ``bound``, or ``None``.
    """
    r0, r1 = m, a % m
    t0, t1 = 0, 1
    while r1 > bound:
        q = r0 // r1
        r0, r1 = r1, r0 - q * r1
        t0, t1 = t1, t0 - q * t1
    if t1 == 0 or abs(t1) > bound:
        return None
    if t1 < 0:
        r1, t1 = -r1, -t1
    if gcd(r1, t1) != 1:
        return None
    return r1, t1


def lift_vectors(residues, primes):
    r"""
    Return the integer vector and common denominator reconstructed from ``residues`` modulo ``primes``, or ``None``.

    ``residues`` is a list (one per prime) of vectors of residues; they are
    combined by the Chinese remainder theorem (Garner's formulas) and every
    entry is reconstructed as a fraction with numerator and denominator at
    most `\sqrt{m/2}`, `m` the product of the primes (such a fraction is
    unique); the common denominator found so far is tried first, so most
    entries need no reconstruction of their own. Pure Python integers: no Sage call per
    entry.

    OUTPUT: ``(numerators, denominator)`` with ``numerators[i] / denominator``
    the `i`-th entry, or ``None`` when an entry has no such fraction (more
    primes are needed).

    EXAMPLES::

        sage: from sage_attention.ideals.engine.linalg_modp import lift_vectors
        sage: p, q = 8388593, 8388587
        sage: v = [1, 3 * pow(7, -1, p) % p, p - 123, 5 * pow(14, -1, p) % p]   # 1, 3/7, -123, 5/14
        sage: lift_vectors([v], [p])
        ([14, 6, -1722, 5], 14)

    One prime bounds the entries by `\sqrt{p/2} \approx 2048`; a larger
    entry needs more primes (with too few, the answer is another fraction
    or ``None``: lifted vectors must be verified)::

        sage: big = 123456
        sage: lift_vectors([[big % p]], [p])
        ([-1571], 1291)
        sage: lift_vectors([[big % p], [big % q]], [p, q])
        ([123456], 1)
    """
    primes = [int(q) for q in primes]
    m = primes[0]
    x = [int(r) for r in residues[0]]
    for vec, q in zip(residues[1:], primes[1:]):
        inv = pow(m % q, -1, q)
        x = [xi + m * ((int(r) - xi) * inv % q) for xi, r in zip(x, vec)]
        m *= q
    bound = isqrt(m // 2)
    half = m // 2
    den = 1
    nums = []
    for a in x:
        b = a * den % m
        if b > half:
            b -= m
        if -bound <= b <= bound:
            nums.append((b, den))
            continue
        rr = _ratrec(a, m, bound)
        if rr is None:
            return None
        n, e = rr
        den = den * e // gcd(den, e)
        nums.append((n, e))
    return [n * (den // d) for n, d in nums], den
