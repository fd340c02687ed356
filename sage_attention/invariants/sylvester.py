r"""
Sylvester resultants of the slice quadrics restricted to lines

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.invariants import sylvester_invariants
    sage: from sage_attention.variety.membership import check_family
    sage: M = LightningAttention(d=3, t=2, a=3)
    sage: fam = sylvester_invariants(M, lines='coordinate'); fam
    Family 'sylvester' of 9 invariants of degree 4 of LightningAttention(d=3, out=1, t=2, a=3) over Rational Field
    sage: check_family(M, fam).all_vanish
    True
"""
import functools
from itertools import combinations

from sage.all__sagemath_singular import matrix, vector

from sage_attention.invariants.base import (guard_family, InvariantLabel, check_model, empty, slices,
                                            to_coordinates)


def sylvester_invariants(model, lines=None, seed=0, force=False):
    r"""
    Return the Sylvester-resultant invariants of each output row.

    The slice quadrics `Q_c(\lambda) = \lambda^T M^{(c)} \lambda` are
    `(v \cdot \lambda)(A_{:,c} \cdot \lambda)` on the neurovariety: they all
    share the linear factor `v \cdot \lambda`. Restricted to a line
    `\lambda = x p + y q` they become binary quadrics with a common root, so
    for every pair `c < e` the Sylvester resultant
    `\mathrm{Res}(Q_c|_L, Q_e|_L)` (a `4 \times 4` determinant in the
    restricted coefficients) vanishes [ADM2026]_ (:ref:`mathematics, §3.6 <math-3>`).

    More generally, any two members `\sum_c \lambda_c Q_c` and
    `\sum_c \mu_c Q_c` of the net of slice quadrics share that factor.
    The default family takes a line `x p + y q` and two members for many
    integer choices of `(p, q, \lambda, \mu)` (a fixed pseudo-random
    sequence, so the family is deterministic) and keeps a maximal linearly
    independent subset of the resultants: it spans the space of all such
    quartics, the coefficients of the resultant for a generic line and
    generic members. For `d = 3` and one output row these
    are 90 quartics, and with the other families they span the whole
    degree-4 part of the vanishing ideal for `a = 2, 3` (the quartics on the
    coordinate lines alone leave 81 minimal quartics out: see
    ``doc/generation_table.rst``).

    Degree 4. Empty when `t = 1` or `d = 1`.

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``lines`` -- (default: ``None``: ``'generic'`` for `d \le 3`,
      ``'coordinate'`` otherwise) ``'generic'`` for the generic line and
      generic members described above, or a list of lines, each a pair
      ``[p, q]`` of vectors of length `d`, for the resultants of pairs of
      slices restricted to those lines; ``'coordinate'`` takes the
      coordinate lines through `e_i` and `e_j`, `i < j`
    - ``seed`` -- integer (default: `0`); the pseudo-random choices of the
      default family
    - ``force`` -- boolean (default: ``False``); build the family even when
      its estimated memory (:func:`~sage_attention.catalog.family_costs.family_estimate`)
      is beyond the memory guard (:func:`~sage_attention.invariants.base.guard_family`)

    OUTPUT: an :class:`~sage_attention.invariants.base.InvariantFamily`;
    indices ``(('line', k), ('slices', (c, e)))``, `k` the 0-based position
    of the line, for given lines; ``(('coefficient', m),)`` for the generic
    family, ``(('p', p), ('q', q), ('lambda', lambda), ('mu', mu))`` for
    the default family.

    .. WARNING::

        The default family is found by ranks modulo a large prime at random
        points; its members always vanish on the neurovariety, but they span
        the whole space of these quartics only with high probability (a
        smaller span would need the random points to be special; the
        probability is below `10^{-6}`).

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants import sylvester_invariants
        sage: from sage_attention.variety.membership import check_family
        sage: M = LightningAttention(d=2, t=2, a=2, weight_space='AV')
        sage: fam = sylvester_invariants(M, lines=[[(1, 2), (3, -1)]]); len(fam)
        1
        sage: check_family(M, fam).all_vanish
        True

    The generic family of the one-entry slice `d = 3`::

        sage: N = LightningAttention(d=3, t=2, a=2, entries=[(1, 1)])
        sage: gen = sylvester_invariants(N); len(gen)  # long time (3 s)
        90
        sage: len(sylvester_invariants(N, lines='coordinate'))
        9

    The generic family of `d = 5` is refused before it is built::

        sage: sylvester_invariants(LightningAttention(d=5, t=2, a=2), lines='generic')
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the family sylvester (about 1562 members of about 361689 terms) needs about ... GiB of memory (limit ...); pass lines='coordinate' or take a smaller model; pass force=True to run it anyway

    TESTS::

        sage: sylvester_invariants(M, lines=[[(1, 2, 3), (1, 0, 0)]])
        Traceback (most recent call last):
        ...
        ValueError: line (=[(1, 2, 3), (1, 0, 0)]) must be a pair of vectors of length d = 2
    """
    check_model(model, "sylvester")
    guard_family(model, 'sylvester', force,
                 lines=lines if lines is None or isinstance(lines, str) else list(lines))
    d = model.d
    if model.tokens < 2:
        return empty(model, "sylvester", "empty: t = 1 has no cross tensor")
    if d < 2:
        return empty(model, "sylvester", "empty: d = 1 has a single slice")
    K = model.base_ring()
    note = ""
    if lines is None:
        lines = "generic" if d <= 3 else "coordinate"
        if d > 3:
            note = ("the coordinate lines only: for d >= 4 the generic family is large and slow "
                    "to build; ask for it with lines='generic'")
    if isinstance(lines, str):
        if lines == "generic":
            return _generic_family(model, int(seed))
        if lines != "coordinate":
            raise ValueError(f"lines (={lines!r}) must be None, 'generic', 'coordinate' "
                             "or a list of lines")
        lines = []
        for i, j in combinations(range(d), 2):
            p, q = [0] * d, [0] * d
            p[i], q[j] = 1, 1
            lines.append((p, q))
    clean = []
    for L in lines:
        try:
            p, q = L
            p, q = vector(K, p), vector(K, q)
        except (TypeError, ValueError):
            raise ValueError(f"line (={L}) must be a pair of vectors of length d = {d}") from None
        if len(p) != d or len(q) != d:
            raise ValueError(f"line (={L}) must be a pair of vectors of length d = {d}")
        clean.append((p, q))

    def gen():
        for row in model.output_rows():
            Ms = slices(model, row)
            for k, (p, q) in enumerate(clean):
                binary = []
                for M in Ms:
                    pe, qe = p.change_ring(M.base_ring()), q.change_ring(M.base_ring())
                    binary.append((pe * M * pe, 2 * (pe * M * qe), qe * M * qe))
                for c, e in combinations(range(d), 2):
                    (a0, a1, a2), (b0, b1, b2) = binary[c], binary[e]
                    z = a0.parent().zero()
                    syl = matrix([[a0, a1, a2, z], [z, a0, a1, a2],
                                  [b0, b1, b2, z], [z, b0, b1, b2]])
                    yield syl.det(), InvariantLabel("sylvester", row, None, None,
                                                    (("line", k), ("slices", (c + 1, e + 1))))
    return to_coordinates(model, gen(), "sylvester", note)


@functools.lru_cache(maxsize=64)
def _generic_family(model, seed):
    r"""
    Return the generic family (cached: models are unique and families immutable).
    """
    return to_coordinates(model, _generic(model, seed), "sylvester")


def _resultant(a, b):
    r"""
    Return the resultant of the binary quadrics with coefficients ``a`` and ``b``.
    """
    a0, a1, a2 = a
    b0, b1, b2 = b
    return (a0 * b2 - b0 * a2) ** 2 - (a0 * b1 - b0 * a1) * (a1 * b2 - b1 * a2)


def _generic(model, seed):
    r"""
    Yield a basis of the Sylvester quartics of each row, with labels.

    Numerically first: the resultant of a choice `(p, q, \lambda, \mu)` is
    evaluated at random points of the cross tensor modulo a prime; choices
    are added until a batch adds no rank; then only the chosen resultants
    are built symbolically.
    """
    import numpy as np
    from sage.all__sagemath_singular import GF
    from sage_attention.misc.randomness import python_random, numpy_generator
    from sage_attention.settings import settings
    d = model.d
    prime = settings.LINALG_PRIMES[0]
    rng = python_random(seed)
    nprng = numpy_generator(seed)
    for row in model.output_rows():
        Ms = slices(model, row)
        npoints = 64
        choices, rank, values = [], 0, None
        pts = nprng.integers(0, prime, size=(npoints, d, d, d))
        pts = (pts + pts.transpose(0, 2, 1, 3)) % prime      # symmetric slices M[r, s, c]

        def numeric(choice, pts):
            p, q, lam, mu = (np.array(x, dtype=np.int64) for x in choice)
            ML = np.einsum("nrsc,c->nrs", pts, lam) % prime
            MM = np.einsum("nrsc,c->nrs", pts, mu) % prime

            def coeffs(M):
                Mp, Mq = (M @ p) % prime, (M @ q) % prime
                return (Mp @ p % prime, 2 * (Mp @ q) % prime, Mq @ q % prime)
            a, b = coeffs(ML), coeffs(MM)
            a0, a1, a2 = a
            b0, b1, b2 = b
            x = (a0 * b2 - b0 * a2) % prime
            y = (a0 * b1 - b0 * a1) % prime
            z = (a1 * b2 - b1 * a2) % prime
            return (x * x - y * z) % prime

        rows = []
        stale = 0
        while stale < 2:
            batch = []
            for _ in range(16):
                choice = tuple(tuple(rng.randint(-3, 3) for _ in range(d)) for _ in range(4))
                batch.append(choice)
            rows_new = [numeric(c, pts) for c in batch]
            A = matrix(GF(prime), rows + rows_new)
            new_rank = A.rank()
            if new_rank == npoints:
                # too few points to see the whole span: double them and restart
                npoints *= 2
                pts = nprng.integers(0, prime, size=(npoints, d, d, d))
                pts = (pts + pts.transpose(0, 2, 1, 3)) % prime
                choices, rows, rank, stale = [], [], 0, 0
                continue
            stale = stale + 1 if new_rank == rank else 0
            rank = new_rank
            choices += batch
            rows += rows_new
        keep = matrix(GF(prime), rows).pivot_rows() if rows else ()
        for k in keep:
            p, q, lam, mu = choices[k]
            ML = sum(lam[c] * Ms[c] for c in range(d))
            MM = sum(mu[c] * Ms[c] for c in range(d))
            pv, qv = vector(ML.base_ring(), p), vector(ML.base_ring(), q)
            a = (pv * ML * pv, 2 * (pv * ML * qv), qv * ML * qv)
            b = (pv * MM * pv, 2 * (pv * MM * qv), qv * MM * qv)
            yield _resultant(a, b), InvariantLabel(
                "sylvester", row, None, None, (("p", p), ("q", q), ("lambda", lam), ("mu", mu)))
