r"""
The graded pieces of the implicitization engine

Part of the implicitization engine (:mod:`sage_attention.ideals.implicitization`,
which explains the mathematics and proves what is computed here): every
degree splits into graded pieces of the multigrading; :func:`solve_piece`
finds the new generators of one piece, :func:`piece_orbits` finds the
orbits of the pieces under the coordinate symmetries (the engine permutes
the variables of a representative's generators); :func:`run_piece` and
:func:`run_batch` are the entry points of the workers, which
:mod:`~sage_attention.ideals.engine.workers` runs (batches, process pools,
progress).
"""
import logging
import time

import numpy as np

from sage.all__sagemath_singular import QQ
from sage_attention.misc.errors import RandomizedFailure
from sage_attention.settings import settings
from sage_attention.ideals.engine import linalg_modp as _la
from sage_attention.ideals.engine.evaluation import nullspace_data
from sage_attention.ideals.engine.product_span import monomials, multiples_pivots, verify_exactly
# the workers were defined here: their old import path keeps working
from sage_attention.ideals.engine.workers import (PieceProgress, batches, default_executor,  # noqa: F401
                                                  ignore_interrupts, stop_executor)

logger = logging.getLogger("sage_attention")


def graded_pieces(n, k, degs):
    r"""
    Return ``{multidegree: exponent array}`` for the degree ``k`` monomials.

    INPUT:

    - ``n`` -- number of variables
    - ``k`` -- the degree
    - ``degs`` -- ``n x r`` integer array, the multidegrees of the variables

    OUTPUT: a dict from multidegrees (tuples) to arrays of exponent vectors,
    in the order of the multidegrees, each array in the order of
    :func:`~sage_attention.ideals.engine.product_span.monomials` (views of one
    table: not to be written to)

    EXAMPLES::

        sage: import numpy as np
        sage: from sage_attention.ideals.engine.pieces import graded_pieces
        sage: sorted(len(v) for v in graded_pieces(2, 2, np.array([[1], [1]])).values())
        [3]
    """
    mon = monomials(n, k)
    degs = np.asarray(degs, dtype=np.int64)
    step = 1 << 16            # the int64 products in slices: no int64 copy of the whole table
    # The c-th entry of a multidegree of degree k lies in [k min_c, k max_c]
    # (min_c, max_c: the least and largest c-th degree of a variable), so a
    # run of entries whose ranges multiply to less than 2^62 is one int64 in
    # mixed radix, linear in the exponents: a few keys per monomial to sort
    # (not one per entry), and the table is reordered once, each piece a
    # view of the reordered table.
    keys = []
    if len(mon) > 1:
        low, high = k * degs.min(axis=0), k * degs.max(axis=0)
        runs, run, width = [], [], 1
        for c in range(degs.shape[1]):
            span = int(high[c] - low[c]) + 1
            if run and width * span >= 2 ** 62:
                runs.append(run)
                run, width = [], 1
            run.append(c)
            width *= span
        runs.append(run)
        if all(int(np.prod([int(high[c] - low[c]) + 1 for c in run], dtype=object)) < 2 ** 62
               for run in runs):
            radices = []
            for run in runs:
                weights, w = [], 1
                for c in reversed(run):
                    weights.append(w)
                    w *= int(high[c] - low[c]) + 1
                weights = np.array(weights[::-1], dtype=np.int64)
                per_variable = degs[:, run] @ weights
                offset = int(low[run] @ weights)
                keys.append(np.concatenate([mon[i:i + step].astype(np.int64) @ per_variable - offset
                                            for i in range(0, len(mon), step)]))
                radices.append(weights)
    if keys:
        order = (np.argsort(keys[0], kind="stable") if len(keys) == 1
                 else np.lexsort(keys[::-1]))      # stable; the first run most significant
        keys = [key[order] for key in keys]
        mon = mon[order]
        mon.flags.writeable = False           # the pieces are views of it
        del order
        change = np.zeros(len(mon) - 1, dtype=bool)
        for key in keys:
            change |= key[1:] != key[:-1]
        starts = np.concatenate([[0], np.flatnonzero(change) + 1, [len(mon)]])
        md = np.empty((len(starts) - 1, degs.shape[1]), dtype=np.int64)
        for run, weights, key in zip(runs, radices, keys):
            spans = (high[run] - low[run] + 1)[None, :]
            md[:, run] = (key[starts[:-1]][:, None] // weights[None, :]) % spans + low[run]
        return {tuple(int(c) for c in md[i]): mon[starts[i]:starts[i + 1]] for i in range(len(starts) - 1)}
    md = np.concatenate([mon[i:i + step].astype(np.int64) @ degs for i in range(0, max(len(mon), 1), step)])
    uniq, inv = np.unique(md, axis=0, return_inverse=True)
    inv = np.asarray(inv).ravel()
    order = np.argsort(inv, kind="stable")
    bounds = np.searchsorted(inv[order], np.arange(len(uniq) + 1))
    return {tuple(int(c) for c in uniq[i]): mon[order[bounds[i]:bounds[i + 1]]] for i in range(len(uniq))}


def lower_multiples(groups, pieces, k, delta, index=None):
    r"""
    Return the blocks ``(U, gens)`` of the multiples in the piece ``delta`` of degree ``k`` of the generators in ``groups``.

    The multiples of a generator of degree `j` and multidegree `\gamma` are
    its products with the monomials of degree `k - j` and multidegree
    `\delta - \gamma`: the block of those monomials and the generators.

    INPUT:

    - ``groups`` -- dict ``{(j, gamma): list of (exponent array, residues)}``
    - ``pieces`` -- dict ``{degree: {multidegree: exponent array}}`` (the
      degrees `k - j` needed; a degree `0` entry holding the unit monomial
      makes the generators of degree `k` their own multiples)
    - ``k``, ``delta`` -- the degree and multidegree of the piece
    - ``index`` -- (default: made here) ``{j: the multidegrees of degree
      j in groups}``; for each `j` the shorter of that list and the pieces
      of degree `k - j` is looked through (the engine keeps it: making it is
      a pass over ``groups``, and the pieces of degree `k - j` are few when
      `j` is the degree of many generators)

    OUTPUT: a list of ``(U, gens)``, as :class:`~sage_attention.ideals.engine.product_span.ProductSpan` takes
    (the span they generate does not depend on their order)

    EXAMPLES::

        sage: import numpy as np
        sage: from sage_attention.ideals.engine.pieces import graded_pieces, lower_multiples
        sage: degs = np.array([[1], [1]])
        sage: pieces = {1: graded_pieces(2, 1, degs)}
        sage: g = (np.array([[1, 0]], dtype=np.int16), [1])
        sage: [(len(U), len(gs)) for U, gs in lower_multiples({(1, (1,)): [g]}, pieces, 2, (2,))]
        [(2, 1)]
    """
    if index is None:
        index = {}
        for j, gd in groups:
            index.setdefault(j, []).append(gd)
    blocks = []
    for j, multidegrees in index.items():
        lower = pieces.get(k - j) if j <= k else None
        if not lower or not multidegrees:
            continue
        if len(multidegrees) <= len(lower):
            for gd in multidegrees:
                U = lower.get(tuple(a - b for a, b in zip(delta, gd)))
                if U is not None:
                    blocks.append((U, groups[(j, gd)]))
        else:
            for u, U in lower.items():
                gens = groups.get((j, tuple(a - b for a, b in zip(delta, u))))
                if gens is not None:
                    blocks.append((U, gens))
    return blocks


def monomial_table_bytes(n, k, ngrading):
    r"""
    Return the peak bytes of the table of the degree ``k`` monomials in ``n`` variables and their multidegrees.

    :func:`monomials` writes ``int16`` exponent rows, :func:`graded_pieces`
    packs the multidegrees into ``int64`` keys, sorts them and reorders the
    rows once (:func:`sage_attention.catalog.model_sizes.monomial_table` has the count).

    INPUT:

    - ``n`` -- number of variables
    - ``k`` -- the degree
    - ``ngrading`` -- the rank of the multigrading, or a bound on it
      (:func:`implicitize` passes the number of parameters, as
      :func:`sage_attention.catalog.model_sizes.monomial_table` counts it)

    OUTPUT: an integer

    EXAMPLES::

        sage: from sage_attention.ideals.engine.pieces import monomial_table_bytes
        sage: monomial_table_bytes(10, 2, 3)
        5720
    """
    from sage_attention.catalog.costs import monomial_table
    return monomial_table(n, k, ngrading)[1]


def piece_sizes(degs, k):
    r"""
    Return ``{multidegree: number of monomials}`` for the degree ``k`` monomials, without listing them.

    The variables are grouped by their multidegree (a class of `n_c`
    variables of multidegree `\delta_c`); a monomial of degree `k` takes
    `j_c` variables of each class (`\sum j_c = k`), in
    `\prod_c \binom{n_c + j_c - 1}{j_c}` ways, and has multidegree
    `\sum_c j_c \delta_c`. The counts are a product of truncated power
    series, one per class: a few thousand integer operations where
    :func:`graded_pieces` lists millions of monomials.

    INPUT:

    - ``degs`` -- ``n x r`` integer array, the multidegrees of the variables
    - ``k`` -- the degree

    OUTPUT: a dict from multidegrees (tuples) to positive integers

    EXAMPLES:

    The same sizes as :func:`graded_pieces`::

        sage: import numpy as np
        sage: from sage_attention.ideals.engine.pieces import graded_pieces, piece_sizes
        sage: degs = np.array([[1, 0], [1, 0], [0, 1], [1, 1]])
        sage: piece_sizes(degs, 3) == {d: len(m) for d, m in graded_pieces(4, 3, degs).items()}
        True
        sage: piece_sizes(np.ones((220, 1), dtype=int), 3) == {(3,): binomial(222, 3)}
        True
    """
    return piece_sizes_through(degs, k)[int(k)]


def piece_sizes_through(degs, k):
    r"""
    Return the list of :func:`piece_sizes` of the degrees `0, 1, \dots, k` (one product of series for all).

    INPUT: as for :func:`piece_sizes`

    OUTPUT: a list of ``k + 1`` dicts, the `j`-th from the multidegrees of
    degree `j` to their numbers of monomials

    EXAMPLES::

        sage: import numpy as np
        sage: from sage_attention.ideals.engine.pieces import piece_sizes, piece_sizes_through
        sage: degs = np.array([[1, 0], [1, 0], [0, 1], [1, 1]])
        sage: [piece_sizes(degs, j) for j in range(4)] == piece_sizes_through(degs, 3)
        True
    """
    from collections import Counter
    from math import comb
    k = int(k)
    classes = Counter(tuple(int(c) for c in row) for row in np.asarray(degs))
    r = np.asarray(degs).shape[1] if np.asarray(degs).ndim == 2 else 0
    # series[j] = {multidegree: count} of the monomials of degree j so far
    series = [{(0,) * r: 1}] + [{} for _ in range(k)]
    for delta, n in classes.items():
        ways = [comb(n + j - 1, j) for j in range(k + 1)]
        shifts = [tuple(j * b for b in delta) for j in range(k + 1)]
        new = [dict(s) for s in series]      # j = 0: the series so far
        for i in range(k):
            for md, count in series[i].items():
                for j in range(1, k + 1 - i):
                    key = tuple(map(int.__add__, md, shifts[j]))
                    target = new[i + j]
                    target[key] = target.get(key, 0) + count * ways[j]
        series = new
    return series


def piece_lower_bytes(N):
    r"""
    Return a lower bound of the peak bytes of :func:`solve_piece` on a piece of ``N`` monomials.

    Either the rank `\rho` of the piece's evaluation matrix or its kernel
    dimension `N - \rho` is at least `N/2`. In the first case the echelon
    form holds at least `\rho \ge N/2` rows of `N` residues (``int64``), in
    the second the kernel (its vectors, or the span of the multiples of
    lower generators in the kernel's coordinates) holds at least `N/2`
    rows of at least `N/2` residues. So at least `8 \lceil N/2 \rceil^2`
    bytes; the memory guard of the pieces (:func:`nullspace_data`,
    :class:`ProductSpan`) counts the copies on top. A piece of one
    monomial costs nothing.

    EXAMPLES::

        sage: from sage_attention.ideals.engine.pieces import piece_lower_bytes
        sage: piece_lower_bytes(1), piece_lower_bytes(1000)
        (0, 2000000)
    """
    N = int(N)
    if N <= 1:
        return 0
    half = -(-N // 2)
    return 8 * half * half


def solve_piece(ctx, k, delta, mons, blocks, seed, max_attempts=4):
    r"""
    Return the new generators of one graded piece, proved (see the module documentation).

    Modulo the first prime: the kernel of the evaluation matrix, and the
    span of the multiples of the lower generators in it; the kernel vectors
    at the free columns outside that span are the new generators. They are
    lifted to `\QQ` from as many primes as their coefficients need (a prime
    is added while a vector has no rational reconstruction or its
    reconstruction fails the exact verification; modulo a further prime
    only the columns of the pivots and of the new generators are
    echelonized, the support of the canonical kernel vectors); a
    disagreement between primes or a run out of primes restarts the piece
    with other points.

    OUTPUT: dict with keys ``kernel_dimension``, ``generators`` (list of
    ``(exponent list, list of rational strings)``), ``monomials``,
    ``rank``, ``primes``, ``attempts``, ``seconds``.

    INPUT:

    - ``ctx`` -- an :class:`~sage_attention.ideals.engine.evaluation.EvaluationContext`
    - ``k``, ``delta`` -- the degree and multidegree of the piece
    - ``mons`` -- array of the exponent vectors of its monomials
    - ``blocks`` -- the multiples of the lower generators, as in
      :class:`~sage_attention.ideals.engine.product_span.ProductSpan`
    - ``seed`` -- the seed (named in the error)
    - ``max_attempts`` -- integer (default: `4`)

    EXAMPLES:

    All quadrics of the one-entry slice in one piece (no lower generators)::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.engine.evaluation import EvaluationContext
        sage: from sage_attention.ideals.engine.product_span import monomials
        sage: M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
        sage: E = M.essential_ring(); phi = M.essential_parametrization()
        sage: ctx = EvaluationContext([phi(x) for x in E.gens()], E, seed=0)
        sage: from sage_attention.ideals.engine.pieces import solve_piece
        sage: res = solve_piece(ctx, 2, (2,), monomials(6, 2), [], 0)
        sage: res["kernel_dimension"], len(res["generators"])
        (3, 3)
        sage: solve_piece(ctx, 2, (2,), monomials(6, 2), [], 0, max_attempts=0)
        Traceback (most recent call last):
        ...
        RandomizedFailure: the graded piece (2,) of degree 2 could not be lifted and verified after 0 attempts...
    """
    t0 = time.time()
    N = len(mons)
    if N == 1:
        # a monomial in nonzero polynomials is nonzero (a domain)
        return {"kernel_dimension": 0, "generators": [], "monomials": 1, "rank": 1,
                "primes": 0, "attempts": 0, "seconds": time.time() - t0}
    native = getattr(ctx, "characteristic", 0)
    # the primes of the modular linear algebra, read when the piece is solved
    all_primes = settings.LINALG_PRIMES
    for attempt in range(max_attempts):
        p = native or all_primes[0]
        R, piv = nullspace_data(ctx, mons, p, attempt)
        pivset = set(piv)
        free = [j for j in range(N) if j not in pivset]
        K = len(free)

        def done(gens, nprimes):
            return {"kernel_dimension": K, "generators": gens, "monomials": N, "rank": len(piv),
                    "primes": nprimes, "attempts": attempt + 1, "seconds": time.time() - t0}
        if K == 0:
            return done([], 1)
        mset = set(multiples_pivots(mons, blocks, free, p, ctx.force))
        new_free = [free[j] for j in range(K) if j not in mset]
        if not new_free:
            return done([], 1)
        primes = [p]
        vecs = [_la.kernel_vectors(R, piv, N, new_free, p)]
        if native:
            # over GF(p) the kernel vectors are the generators: verify them exactly
            vs = vecs[0]
            if not all(verify_exactly(ctx, mons, [int(x) for x in vs[i]])
                       for i in range(len(new_free))):
                continue
            gens = []
            for i in range(len(new_free)):
                sel = [j for j in range(N) if vs[i][j]]
                gens.append(([[int(x) for x in mons[j]] for j in sel],
                             [str(int(vs[i][j])) for j in sel]))
            return done(gens, 1)
        lifted = {}
        while True:
            for i in range(len(new_free)):
                if i in lifted:
                    continue
                lv = _la.lift_vectors([v[i] for v in vecs], primes)
                if lv is not None and verify_exactly(ctx, mons, lv[0]):
                    lifted[i] = lv
            if len(lifted) == len(new_free) or len(primes) == len(all_primes):
                break
            # the kernel vectors wanted live on the pivots and the new free
            # columns only: modulo the next prime, echelonize just those columns
            q = all_primes[len(primes)]
            cols = sorted(set(piv) | set(new_free))
            Rq, pivq = nullspace_data(ctx, mons[cols], q, attempt, rank=len(piv))
            if [cols[j] for j in pivq] != list(piv):
                break
            primes.append(q)
            sub = _la.kernel_vectors(Rq, pivq, len(cols), [cols.index(f) for f in new_free], q)
            full = np.zeros((len(new_free), N), dtype=np.int64)
            full[:, cols] = sub
            vecs.append(full)
        if len(lifted) < len(new_free):
            continue
        gens = []
        for i in range(len(new_free)):
            nums, den = lifted[i]
            sel = [j for j in range(N) if nums[j]]
            gens.append(([[int(x) for x in mons[j]] for j in sel],
                         [str(QQ((nums[j], den))) for j in sel]))
        return done(gens, len(primes))
    raise RandomizedFailure(f"the graded piece {delta} of degree {k} could not be lifted and verified "
                            f"after {max_attempts} attempts", seeds=[seed])


def run_piece(args):
    r"""
    Executor entry point: unpack and run :func:`solve_piece`.

    INPUT: ``args`` -- the tuple of the arguments of :func:`solve_piece`

    OUTPUT: the result of :func:`solve_piece`

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.engine.evaluation import EvaluationContext
        sage: from sage_attention.ideals.engine.product_span import monomials
        sage: M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
        sage: E = M.essential_ring(); phi = M.essential_parametrization()
        sage: ctx = EvaluationContext([phi(x) for x in E.gens()], E, seed=0)
        sage: from sage_attention.ideals.engine.pieces import run_piece
        sage: run_piece((ctx, 2, (2,), monomials(6, 2), [], 0))["kernel_dimension"]
        3
    """
    return solve_piece(*args)


def run_batch(ctx, batch):
    r"""
    Executor entry point for a batch of pieces sharing one context.

    INPUT:

    - ``ctx`` -- an :class:`~sage_attention.ideals.engine.evaluation.EvaluationContext`
    - ``batch`` -- list of ``(delta, args)``, ``args`` the arguments of
      :func:`solve_piece` after ``ctx``

    OUTPUT: the list of ``(delta, result)``

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.engine.evaluation import EvaluationContext
        sage: from sage_attention.ideals.engine.product_span import monomials
        sage: M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
        sage: E = M.essential_ring(); phi = M.essential_parametrization()
        sage: ctx = EvaluationContext([phi(x) for x in E.gens()], E, seed=0)
        sage: from sage_attention.ideals.engine.pieces import run_batch
        sage: [(d, r["kernel_dimension"]) for d, r in run_batch(ctx, [((2,), (2, (2,), monomials(6, 2), [], 0))])]
        [((2,), 3)]
    """
    return [(delta, solve_piece(ctx, *args)) for delta, args in batch]


def piece_orbits(pcs, degs, generators):
    r"""
    Return ``{multidegree: (representative multidegree, permutation)}`` for the pieces ``pcs``.

    ``generators`` are coordinate permutations mapping pieces to pieces; the
    permutation ``h`` returned for a piece maps the monomials of its
    representative onto its own monomials (``h[i]`` is the image of
    coordinate ``i``). The representative of an orbit is its first piece in
    the order of ``pcs``.

    INPUT:

    - ``pcs`` -- dict ``{multidegree: monomials}`` as :func:`graded_pieces` returns
    - ``degs`` -- the multidegrees of the variables (array)
    - ``generators`` -- list of permutations of the variables

    OUTPUT: a dict

    EXAMPLES::

        sage: import numpy as np
        sage: from sage_attention.ideals.engine.pieces import graded_pieces, piece_orbits
        sage: degs = np.eye(2, dtype=np.int64)          # two coordinates, swapped
        sage: orb = piece_orbits(graded_pieces(2, 2, degs), degs, [(1, 0)])
        sage: sorted((k, v[0]) for k, v in orb.items())
        [((0, 2), (0, 2)), ((1, 1), (1, 1)), ((2, 0), (0, 2))]
    """
    n = degs.shape[0]
    ident = np.arange(n)
    out = {}
    for delta, mons in pcs.items():
        if delta in out:
            continue
        out[delta] = (delta, ident)
        todo = [(delta, ident)]
        m0 = mons[0].astype(np.int64)
        while todo:
            cur, h = todo.pop()
            for g in generators:
                gh = np.asarray(g)[h]
                img = np.zeros(n, dtype=np.int64)
                img[gh] = m0
                key = tuple(int(c) for c in img @ degs)
                if key not in out:
                    out[key] = (delta, gh)
                    todo.append((key, gh))
    return out
