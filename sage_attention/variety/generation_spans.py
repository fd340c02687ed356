r"""
The degree parts of the families' ideals, as spans modulo primes

The linear-algebra comparison of the generation report
(:mod:`sage_attention.variety.generation`, which states and proves the
shortcuts used here): in each degree `k`, the products of a family's
members with the monomials span `J_k`, echelonized modulo a prime `p` and
compared with `\dim I(X)_k` (exact, :func:`ideal_dimensions`).
:class:`ProductSpans` keeps the echelon forms of every family, so that the
union of the families reuses them, and those of the minimal generators of
`I(X)`, on whose pivot columns an element of `I(X)_k` is determined;
:func:`linear_algebra_row` makes one row of the report from them. The
primes are the first two of
:data:`~sage_attention.settings.settings`\ ``.LINALG_PRIMES``, read when a
row is computed.

EXAMPLES:

The twisted cubic's ideal has three quadrics and no linear form::

    sage: from sage_attention.variety.generation_spans import ideal_dimensions
    sage: R.<a, b, c, d> = QQ[]
    sage: ideal_dimensions(R, R.ideal([a*c - b^2, b*d - c^2, a*d - b*c]), 3)
    {1: 0, 2: 3, 3: 10}
"""
import time

import numpy as np

from sage.all__sagemath_singular import QQ
from sage_attention.ideals.engine.linalg_modp import matmul_modp, reduce_modulo
from sage_attention.settings import settings
from sage_attention.variety.generation_records import GenerationRow


def sage_rows(polys, p):
    r"""
    Return ``[(exponent array, residues mod p, degree)]`` for the nonzero homogeneous Sage polynomials ``polys``.

    INPUT:

    - ``polys`` -- homogeneous polynomials with rational coefficients
    - ``p`` -- a prime

    OUTPUT: a list of triples, one per nonzero polynomial

    EXAMPLES::

        sage: from sage_attention.variety.generation_spans import sage_rows
        sage: R.<x, y> = QQ[]
        sage: [(e.tolist(), r.tolist(), k) for e, r, k in sage_rows([x^2 - y^2/2, 0], 7)]
        [([[2, 0], [0, 2]], [1, 3], 2)]
    """
    from sage_attention.ideals.engine.product_span import residues
    return [(np.array([list(e) for e in f.exponents()], dtype=np.int16),
             residues(f.coefficients(), p), int(f.degree())) for f in polys if f]


def ideal_dimensions(E, K, bound):
    r"""
    Return ``{k: dim K_k}`` for `k \le` ``bound`` (exact: Hilbert series of the homogeneous ideal ``K``).

    INPUT:

    - ``E`` -- the polynomial ring of ``K``
    - ``K`` -- a homogeneous ideal of ``E``
    - ``bound`` -- integer; the largest degree

    OUTPUT: a dictionary from the degrees `1, \ldots,` ``bound`` to integers

    EXAMPLES::

        sage: from sage_attention.variety.generation_spans import ideal_dimensions
        sage: R.<x, y> = QQ[]
        sage: ideal_dimensions(R, R.ideal([x*y]), 3), ideal_dimensions(R, R.ideal([R.zero()]), 2)
        ({1: 0, 2: 1, 3: 2}, {1: 0, 2: 0})
    """
    from sage.all__sagemath_singular import PowerSeriesRing, binomial
    n = E.ngens()
    gens = [g for g in K.gens() if g]
    if not gens:
        return {k: 0 for k in range(1, bound + 1)}
    HS = E.ideal(gens).hilbert_series()
    T = PowerSeriesRing(QQ, "t", default_prec=bound + 2)
    s = T(HS.numerator()) / T(HS.denominator())
    return {k: int(binomial(n + k - 1, k) - s[k]) for k in range(1, bound + 1)}


class ProductSpans:
    r"""
    The degree parts of the families' ideals modulo primes, kept so that the
    union reuses them.

    ``span(key, k, p)`` returns ``(low, full)``: the echelon forms modulo
    ``p`` (rows and rank) of the span in degree ``k`` of the products of the members of
    degree `< k` with monomials, and of all members (both stop growing at
    ``dims[k]``, the exact `\dim I(X)_k`, an upper bound).

    INPUT:

    - ``n`` -- integer; the number of essential coordinates
    - ``dims`` -- ``{k: dim I(X)_k}`` for the degrees compared
    - ``kmin`` -- the minimal generators of `I(X)` in the essential ring

    The families are added to ``members`` (a dictionary from names to
    :class:`~sage_attention.variety.family_members.FamilyMembers`) by the
    caller.

    EXAMPLES:

    The ideal of the rank-one slice has three quadrics; its low-rank
    family spans them all::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants import FAMILIES
        sage: from sage_attention.variety.family_members import Composer, FamilyMembers
        sage: from sage_attention.variety.generation_spans import ProductSpans, ideal_dimensions
        sage: M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
        sage: E = M.essential_ring(); K = M.neurovariety().essential_ideal()
        sage: S = ProductSpans(E.ngens(), ideal_dimensions(E, K, 2), list(K.gens()))
        sage: S.members['low_rank'] = FamilyMembers(Composer(M), FAMILIES['low_rank'](M).polynomials())
        sage: low, full, cols = S.span('low_rank', 2, 8388593)
        sage: low[1], full[1], S.dims[2]
        (0, 3, 3)
    """

    def __init__(self, n, dims, kmin):
        from sage_attention.ideals.engine.product_span import monomials
        self.n, self.dims, self.kmin = n, dims, kmin
        self.mons = {k: monomials(n, k) for k in dims}
        self.members = {}
        self.cache = {}
        self._kmin_rows = {}

    def products(self, members, k):
        from sage_attention.ideals.engine.product_span import monomials
        return [(monomials(self.n, k - deg), [(exps, res)]) for exps, res, deg in members]

    def new(self, k, p, columns=None):
        from sage_attention.ideals.engine.product_span import ProductSpan
        return ProductSpan(self.mons[k], p, self.dims[k], columns=columns)

    def columns(self, k, p):
        r"""
        Return the columns on which an element of `I(X)_k` is determined (the pivots of ``L`` and ``quotient``), or ``None`` (bad prime).
        """
        L, quotient = self.lower(k, p)
        if quotient is None:
            return None
        return sorted(set(L[1]) | set(quotient[1]))

    def span(self, key, k, p, restrict=True):
        r"""
        Return ``(low, full, columns)``, ``low`` and ``full`` each ``(rows, rank)``, for the family ``key``.

        When the family is in `I(X)` (exact) and the prime is good, the
        rows are written on :meth:`columns` only (``restricted`` in the
        cache key), which keeps the ranks.
        """
        cols = self.columns(k, p) if restrict and self.members[key].contained else None
        ck = (key, k, p, cols is not None)
        if ck not in self.cache:
            members = self.members[key].rows(p)
            S = self.new(k, p, cols)
            S.add(self.products([m for m in members if m[2] < k], k))
            low = (S.R.astype(np.int32), S.rank)
            S.add(self.products([m for m in members if m[2] == k], k))
            self.cache[ck] = (low, (S.R.astype(np.int32), S.rank), cols)
        return self.cache[ck]

    def union(self, keys, k, p):
        r"""
        Return ``(low, full, columns)`` as :meth:`span` does, for the union of the families ``keys``.

        The spans of the families are added. When every family is in `I(X)`
        and the prime is good (:meth:`lower`), a vector of `I(X)_k` is
        determined by its entries at the pivots of ``L`` and of
        ``quotient`` (the echelon basis of `I(X)_k` they form is the
        identity there, up to a triangular block), so the spans are written
        on those columns only.
        """
        from sage_attention.ideals.engine.linalg_modp import rref_modp, rank_modp
        restrict = all(self.members[key].contained for key in keys)
        parts = [self.span(key, k, p, restrict) for key in keys]
        cols = parts[0][2] if parts else None
        out = []
        for which in (0, 1):
            rows = [part[which][0] for part in parts if part[which][1]]
            if not rows:
                width = len(self.mons[k]) if cols is None else len(cols)
                out.append((np.zeros((0, width), dtype=np.int32), 0))
                continue
            R = np.concatenate(rows).astype(np.int64)
            if cols is not None:
                out.append((R, rank_modp(R, p)))
            else:
                R, piv = rref_modp(R, p)
                out.append((R, len(piv)))
        return tuple(out) + (cols,)

    def kmin_rows(self, p):
        if p not in self._kmin_rows:
            self._kmin_rows[p] = sage_rows(self.kmin, p)
        return self._kmin_rows[p]

    def lower(self, k, p):
        r"""
        Return ``(L, quotient)`` in degree ``k`` modulo ``p``.

        ``L`` is the echelon form ``(rows, pivots)`` of `(I(X)_{<k})_k`, the
        products of the minimal generators of degree `< k`; ``quotient``
        is ``(rows, pivots)``, the echelon form of the minimal generators of
        degree ``k`` reduced modulo ``L`` (a basis of `I(X)_k / L`), or
        ``None`` when ``p`` is bad (the two ranks do not add up to
        `\dim I(X)_k`).
        """
        from sage_attention.ideals.engine.linalg_modp import rref_modp
        if ("kmin", k, p) not in self.cache:
            S = self.new(k, p)
            S.add(self.products([m for m in self.kmin_rows(p) if m[2] < k], k))
            L = (S.R, S.pivots)
            index = {tuple(m): i for i, m in enumerate(self.mons[k].tolist())}
            top = [m for m in self.kmin_rows(p) if m[2] == k]
            G = np.zeros((len(top), len(self.mons[k])), dtype=np.int64)
            for i, (exps, res, _) in enumerate(top):
                G[i, [index[tuple(e)] for e in exps.tolist()]] = res
            G = reduce_modulo(G, L, p)
            quotient = rref_modp(G, p) if len(G) else (G, ())
            if len(L[1]) + len(quotient[1]) != self.dims[k]:
                quotient = None
            self.cache["kmin", k, p] = (L, quotient)
        return self.cache["kmin", k, p]

    def mixed_rank(self, full, cols, k, p):
        r"""
        Return the rank of the span of ``full`` and the products of the minimal generators of `I(X)` of degree `< k`.

        When ``cols`` is not ``None``, the rows of ``full`` lie in `I(X)_k`
        and are written on ``cols`` (:meth:`columns`); reduced modulo ``L``
        they are combinations of the basis ``quotient`` of `I(X)_k / L`
        (:meth:`lower`), so they are determined by their entries at its
        pivots: the rank is ``|L|`` plus the rank of those columns. Else
        (rows on every monomial) the rank is that of the rows and ``L``.
        """
        from sage_attention.ideals.engine.linalg_modp import rref_modp, rank_modp
        L, quotient = self.lower(k, p)
        if cols is None:
            if not full[1]:
                return len(L[1])
            R = np.concatenate([L[0], full[0]]).astype(np.int64)
            return len(rref_modp(R, p)[1])
        if len(L[1]) >= self.dims[k] or not full[1]:
            return max(len(L[1]), full[1])
        F = full[0].astype(np.int64)
        pos = {c: i for i, c in enumerate(cols)}
        qcols = list(quotient[1])
        X = F[:, [pos[c] for c in qcols]]
        if len(L[1]):
            X = (X - matmul_modp(F[:, [pos[c] for c in L[1]]], L[0][:, qcols], p)) % p
        return len(L[1]) + rank_modp(X, p)


def linear_algebra_row(spans, name, keys, members, degrees, contained, nlin, bound, note, step):
    r"""
    Return the :class:`GenerationRow` of the members ``keys`` by linear algebra modulo primes, degree by degree.

    In degree `k`: the rank modulo `p` of the products of the members with
    monomials, first those of degree `< k` (the family's lower part), then
    all; ``spans.dims[k]`` is the exact dimension of `I(X)_k`. A rank equal
    to it proves `J_k = I(X)_k` (the members are in `I(X)` and the rank can
    only drop modulo `p`); a smaller rank is confirmed with a second prime.
    The missing minimal generators of `I(X)` in degree `k` are
    `\dim I(X)_k - \dim (J_k + (I(X)_{<k}))_k`.

    INPUT:

    - ``spans`` -- a :class:`ProductSpans` holding the families ``keys``
    - ``name`` -- the name of the row
    - ``keys`` -- the names of the families of the row
    - ``members``, ``degrees``, ``contained``, ``note`` -- the number of
      members, their degrees, whether they are all in `I(X)`, the note
    - ``nlin`` -- the number of linear relations (counted in degree `1`)
    - ``bound`` -- the largest degree compared
    - ``step`` -- a function called with each degree done (progress)

    OUTPUT: a :class:`~sage_attention.variety.generation_records.GenerationRow`

    EXAMPLES:

    Computed for each family by
    :func:`~sage_attention.variety.generation.generation_report`::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.generation import generation_report
        sage: generation_report(LightningAttention(d=2, t=2, a=1, entries=[(1, 1)]), ['low_rank']).rows[0]
        GenerationRow(family='low_rank', members=3, degrees=(2,), contained=True, generators_by_degree={1: 4, 2: 3}, generates=True, missing={}, seconds=..., note='')
    """
    start = time.time()
    counts, missing = {}, {}
    for k in range(1, bound + 1):
        target = spans.dims[k]
        for q in settings.LINALG_PRIMES[:2]:
            if len(keys) == 1:
                low, full, cols = spans.span(keys[0], k, q)
            else:
                low, full, cols = spans.union(keys, k, q)
            if full[1] >= target:
                break
        nlow, nfull = low[1], full[1]
        if nfull > nlow:
            counts[k] = nfull - nlow
        if nfull < target:
            mixed = spans.mixed_rank(full, cols, k, q)
            if target > mixed:
                missing[k] = target - mixed
        step(k)
    if nlin:
        counts[1] = counts.get(1, 0) + nlin
    return GenerationRow(name, members, degrees, contained, dict(sorted(counts.items())),
                         contained and not missing, dict(sorted(missing.items())),
                         time.time() - start, note)

