r"""
Spans of products modulo a prime, and the exact verification of generators

Part of the implicitization engine (:mod:`sage_attention.ideals.implicitization`,
which explains the mathematics): the monomials of a degree, rationals modulo
a prime, the span modulo `p` of the multiples of lower-degree generators in a
graded piece (:class:`ProductSpan`, also used by
:mod:`sage_attention.variety.generation`), and the exact verification of a
generator by composition with the parametrization.
"""
import numpy as np

from sage.all__sagemath_singular import QQ, lcm
from sage_attention.misc.memory import check_memory
from sage_attention.ideals.engine import linalg_modp as _la
from sage_attention.settings import settings


def monomials(n, k):
    r"""
    Return the exponent vectors (rows, ``int16``) of all monomials of degree ``k`` in ``n`` variables.

    INPUT:

    - ``n`` -- number of variables
    - ``k`` -- the degree

    OUTPUT: a numpy array of shape ``(binomial(n + k - 1, k), n)``

    EXAMPLES::

        sage: from sage_attention.ideals.engine.product_span import monomials
        sage: monomials(2, 2).tolist()                  # x0^2, x0 x1, x1^2
        [[2, 0], [1, 1], [0, 2]]
        sage: monomials(3, 2).shape
        (6, 3)
    """
    if k == 0:
        return np.zeros((1, n), dtype=np.int16)
    # The rows of degree e + 1 whose last variable is j are those of degree e
    # whose last variable is at most j (a prefix: the rows are ordered by
    # their last variable), times x_j. Each degree is written once into an
    # array of its final size (no copies to concatenate: the table of degree
    # 4 in 126 variables alone is 2.8 GB).
    cur = np.eye(n, dtype=np.int16)
    ends = np.arange(1, n + 1)            # ends[j]: the rows whose last variable is <= j
    for _ in range(k - 1):
        out = np.empty((int(ends.sum()), n), dtype=np.int16)
        new_ends = np.empty(n, dtype=np.int64)
        pos = 0
        for j in range(n):
            e = int(ends[j])
            out[pos:pos + e] = cur[:e]
            out[pos:pos + e, j] += 1
            pos += e
            new_ends[j] = pos
        cur, ends = out, new_ends
    return cur


def _void(a):
    a = np.ascontiguousarray(a)
    return a.view(np.dtype((np.void, a.dtype.itemsize * a.shape[1]))).ravel()


def residues(coeffs, p=None):
    r"""
    Return the rationals ``coeffs`` modulo ``p`` as a numpy array.

    INPUT:

    - ``coeffs`` -- a list of rationals whose denominators are prime to ``p``
    - ``p`` -- a prime (default: ``settings.LINALG_PRIMES[0]``, the prime
      of the modular linear algebra)

    OUTPUT: a numpy ``int64`` array of residues in `[0, p)`

    EXAMPLES::

        sage: from sage.all__sagemath_singular import QQ
        sage: from sage_attention.ideals.engine.product_span import residues
        sage: residues([QQ(1), QQ(-1), QQ(1/2)], 7).tolist()
        [1, 6, 4]
    """
    p = settings.LINALG_PRIMES[0] if p is None else p
    return np.array([int(c.numerator() % p) * pow(int(c.denominator()), -1, p) % p for c in coeffs],
                    dtype=np.int64)


class ProductSpan:
    r"""
    The span modulo ``p`` of products `u g` (monomials `u`, polynomials `g`)
    inside the space of the monomials ``mons``, kept in echelon form.

    ``add(blocks)`` adds the products; ``blocks`` is a list of ``(U, gens)``
    with ``U`` an array of monomial exponents and ``gens`` a list of
    polynomials ``(exps, residues)`` (exponent array, coefficients modulo
    ``p``) such that every product lies among ``mons``. With ``columns`` the
    products are written in those coordinates only (the others are dropped).
    Rows are echelonized in chunks of about ``2 target`` rows and nothing
    more is added once the rank reaches ``target`` (a known upper bound).

    INPUT:

    - ``mons`` -- array of exponent vectors, the monomials of the space
    - ``p`` -- a prime
    - ``target`` -- integer; an upper bound of the rank
    - ``columns`` -- (default: ``None``, all) list of indices into ``mons``
    - ``force`` -- boolean (default: ``False``); skip the memory guard

    Used by the engine for the multiples of the lower-degree generators in a
    graded piece (in the coordinates of its kernel) and by
    :mod:`sage_attention.variety.generation` for the degree parts of a family's ideal.

    EXAMPLES::

        sage: import numpy as np
        sage: from sage.all__sagemath_singular import QQ
        sage: from sage_attention.ideals.engine.product_span import ProductSpan, monomials, residues
        sage: mons = monomials(2, 2)                   # x0^2, x0 x1, x1^2
        sage: g = (np.array([[1, 0], [0, 1]], dtype=np.int16), residues([QQ(1), QQ(-1)], 7))   # x0 - x1
        sage: S = ProductSpan(mons, 7, target=3)
        sage: S.add([(monomials(2, 1), [g])]), S.pivots
        (2, (0, 1))
        sage: ProductSpan(mons, 7, target=2, columns=[1, 2]).add([(monomials(2, 1), [g])])
        2
    """

    def __init__(self, mons, p, target, columns=None, force=False):
        self.p, self.target = p, target
        self.force = force
        self.dtype, self.n = mons.dtype, mons.shape[1]
        keys = _void(mons)
        self.order = np.argsort(keys)
        self.skeys = keys[self.order]
        N = len(mons)
        if columns is None:
            self.col_of, self.ncols = np.arange(N), N
        else:
            self.col_of = np.full(N, -1, dtype=np.int64)
            self.col_of[np.asarray(columns, dtype=np.int64)] = np.arange(len(columns))
            self.ncols = len(columns)
        self.R = np.zeros((0, self.ncols), dtype=np.int64)
        self.pivots = ()

    @property
    def rank(self):
        return len(self.pivots)

    def add(self, blocks):
        r"""
        Add the products of ``blocks`` and return the rank.
        """
        chunk = max(2 * self.target, 64)
        pending, npending = [], 0
        # the products of a block are written chunk rows at a time: split U
        blocks = [(U[i:i + chunk], gens) for U, gens in blocks for i in range(0, len(U), chunk)]
        for U, gens in blocks:
            if self.rank >= self.target:
                break
            U = np.asarray(U, dtype=self.dtype)
            per = max(1, chunk // max(1, len(U)))
            for s in range(0, len(gens), per):
                group = gens[s:s + per]
                check_memory(5 * 8 * (self.rank + npending + len(U) * len(group)) * self.ncols,
                             f"the span of the products ({self.rank + npending + len(U) * len(group)} "
                             f"rows x {self.ncols} columns)", self.force, lower_degree=True)
                T = np.concatenate([e for e, _ in group]).astype(self.dtype)
                gi = np.concatenate([np.full(len(e), i, dtype=np.int64) for i, (e, _) in enumerate(group)])
                cp = np.concatenate([cs for _, cs in group])
                prod = (U[:, None, :] + T[None, :, :]).reshape(-1, self.n)
                cols = self.col_of[self.order[np.searchsorted(self.skeys, _void(prod))]]
                rows = (np.arange(len(U))[:, None] * len(group) + gi[None, :]).ravel()
                vals = np.broadcast_to(cp, (len(U), len(cp))).ravel()
                keep = cols >= 0
                block = np.zeros((len(U) * len(group), self.ncols), dtype=np.int64)
                block[rows[keep], cols[keep]] = vals[keep]
                pending.append(block)
                npending += len(block)
                if npending >= chunk:
                    self._reduce(pending)
                    pending, npending = [], 0
                    if self.rank >= self.target:
                        return self.rank
        if pending:
            self._reduce(pending)
        return self.rank

    def _reduce(self, pending):
        self.R, self.pivots = _la.rref_modp(np.concatenate([self.R] + pending), self.p)


def multiples_pivots(mons, blocks, free, p, force=False):
    r"""
    Return the pivots of the span of the multiples of the lower generators, in the kernel coordinates.

    ``blocks`` is a list of ``(U, gens)`` as in :class:`ProductSpan`: the
    monomials ``U`` of the complementary multidegree and the generators of
    one lower multidegree. Every multiple lies in the kernel, and a kernel
    vector is determined by its entries at the ``free`` (non-pivot) columns
    of the evaluation matrix, so the multiples are written in those ``K``
    coordinates only; the work stops as soon as they span the whole kernel
    (rank ``K``: no new generator in this piece).

    OUTPUT: the tuple of pivots, indices into ``free``.

    INPUT:

    - ``mons`` -- array of the exponents of the monomials of the piece
    - ``blocks`` -- list of ``(U, gens)``
    - ``free`` -- list of the free columns of the evaluation matrix
    - ``p`` -- a prime
    - ``force`` -- boolean (default: ``False``); skip the memory guard

    EXAMPLES::

        sage: import numpy as np
        sage: from sage.all__sagemath_singular import QQ
        sage: from sage_attention.ideals.engine.product_span import multiples_pivots, monomials, residues
        sage: mons = monomials(2, 2)                   # x0^2, x0 x1, x1^2
        sage: g = (np.array([[1, 0], [0, 1]], dtype=np.int16), residues([QQ(1), QQ(-1)], 7))   # x0 - x1
        sage: multiples_pivots(mons, [(monomials(2, 1), [g])], [1, 2], 7)
        (0, 1)
    """
    if not free or not blocks:
        return ()
    S = ProductSpan(mons, p, len(free), columns=free, force=force)
    S.add(blocks)
    return S.pivots


def verify_exactly(ctx, mons, coeffs):
    r"""
    Return whether ``sum c_j m_j`` composed with the parametrization is zero (exact).

    The composition is done with FLINT's multivariate polynomials
    (``python-flint``) when available, else with Sage's. When the context
    has an :attr:`~sage_attention.ideals.engine.evaluation.EvaluationContext.envelope`
    (the images under a map `\psi` with `\varphi = L \circ \psi`, checked
    exactly by :func:`~sage_attention.ideals.engine.evaluation.envelope_images`),
    the polynomial is composed with `\psi` first: zero there implies zero
    after `L`, that is on `\varphi`. Otherwise, and when `\psi` gives a
    nonzero result, it is composed with `\varphi` itself; once a polynomial
    vanishes on `\varphi` but not on `\psi` (the image of `\psi` is then
    larger), `\psi` is no longer tried in this context.

    INPUT:

    - ``ctx`` -- an :class:`~sage_attention.ideals.engine.evaluation.EvaluationContext`
    - ``mons`` -- array (or list) of exponent vectors in the essential coordinates
    - ``coeffs`` -- list of integers or rationals, one per monomial

    OUTPUT: boolean

    EXAMPLES::

        sage: import numpy as np
        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.engine.evaluation import EvaluationContext
        sage: from sage_attention.ideals.engine.product_span import verify_exactly
        sage: M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
        sage: E = M.essential_ring(); phi = M.essential_parametrization()
        sage: ctx = EvaluationContext([phi(x) for x in E.gens()], E)
        sage: g = E.gens()[0] * E.gens()[2] - E.gens()[1]**2; phi(g) == 0
        False
        sage: mons = np.array([list(e) for e in g.exponents()]); c = [int(a) for a in g.coefficients()]
        sage: verify_exactly(ctx, mons, c), verify_exactly(ctx, mons, [0] * len(c))
        (False, True)

    Without ``python-flint`` Sage composes (same answers)::

        sage: ctx._flint = None
        sage: verify_exactly(ctx, mons, c), verify_exactly(ctx, mons, [0] * len(c))
        (False, True)

    With the envelope of the model (generic attention matrices; here
    `a < d`, so its image is larger): a generator of the ideal vanishes on
    `\varphi` but not on `\psi`, so it is verified on `\varphi`, and then
    `\psi` is no longer tried; a polynomial that is not in the ideal is
    refused either way::

        sage: from sage_attention.ideals.engine.evaluation import envelope_images
        sage: M = LightningAttention(d=2, t=2, a=1, out=1)
        sage: E = M.essential_ring(); phi = M.essential_parametrization()
        sage: images = [phi(x) for x in E.gens()]
        sage: ctx = EvaluationContext(images, E, envelope=envelope_images(M, images, E))
        sage: from sage_attention.ideals.implicitization import implicitize
        sage: g = implicitize(M, 2, seed=0).essential_generators[0]
        sage: psi = ctx.envelope; g(*psi) == 0, g(*images) == 0
        (False, True)
        sage: mons = np.array([list(e) for e in g.exponents()]); c = [g.monomial_coefficient(m) for m in g.monomials()]
        sage: verify_exactly(ctx, mons, c), ctx.envelope_useful
        (True, False)
        sage: verify_exactly(ctx, mons, [x + 1 for x in c])
        False
    """
    if getattr(ctx, "envelope", None) is not None and getattr(ctx, "envelope_useful", True):
        if _composes_to_zero(ctx, mons, coeffs, ctx.envelope, ctx.flint_envelope):
            return True
        zero = _composes_to_zero(ctx, mons, coeffs, ctx.images, ctx.flint)
        if zero:
            # the image of psi is larger than the variety: stop trying it first
            ctx.envelope_useful = False
        return zero
    return _composes_to_zero(ctx, mons, coeffs, ctx.images, ctx.flint)


def _composes_to_zero(ctx, mons, coeffs, images, flint_data):
    r"""
    Return whether ``sum c_j m_j`` composed with ``images`` is zero (exact; ``flint_data()`` as :meth:`EvaluationContext.flint`).
    """
    p = getattr(ctx, "characteristic", 0)
    if p:
        # over GF(p): compose the integer lifts over ZZ and reduce modulo p
        # (composition commutes with the reduction ZZ -> GF(p))
        E = ctx.ring
        F = E.base_ring()
        f = E({tuple(int(x) for x in m): F(int(c)) for m, c in zip(mons, coeffs) if int(c) % p})
        return f(*images) == 0
    fl = flint_data()
    if fl is not None:
        ectx, wctx, fimages, coeff = fl
        if not all(isinstance(c, int) for c in coeffs):
            coeffs = [QQ(c) for c in coeffs]
            den = lcm([c.denominator() for c in coeffs] or [1])
            coeffs = [int(c * den) for c in coeffs]
        rows = mons.tolist() if hasattr(mons, "tolist") else mons
        d = {tuple(m): coeff(c) for m, c in zip(rows, coeffs) if c}
        if not d:
            return True
        return ectx.from_dict(d).compose(*fimages, ctx=wctx).is_zero()
    E = ctx.ring
    f = E({tuple(int(x) for x in m): QQ(c) for m, c in zip(mons, coeffs) if c})
    return f(*images) == 0
