r"""
Sylvester resultants of the slice quadrics restricted to lines

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.invariants import sylvester_invariants
    sage: from sage_attention.membership import check_family
    sage: M = LightningAttention(d=3, t=2, a=3)
    sage: fam = sylvester_invariants(M); fam
    Family 'sylvester' of 9 invariants of degree 4 of LightningAttention(d=3, d'=1, t=2, a=3) over Rational Field
    sage: check_family(M, fam).all_vanish
    True
"""
from itertools import combinations

from sage.all__sagemath_singular import matrix, vector

from sage_attention.invariants.base import (InvariantLabel, check_model, empty, slices,
                                            to_coordinates)


def sylvester_invariants(model, lines=None):
    r"""
    Return the Sylvester-resultant invariants of each output row.

    The slice quadrics `Q_c(\lambda) = \lambda^T M^{(c)} \lambda` are
    `(v \cdot \lambda)(A_{:,c} \cdot \lambda)` on the neurovariety: they all
    share the linear factor `v \cdot \lambda`. Restricted to a line
    `\lambda = x p + y q` they become binary quadrics with a common root, so
    for every pair `c < e` the Sylvester resultant
    `\mathrm{Res}(Q_c|_L, Q_e|_L)` (a `4 \times 4` determinant in the
    restricted coefficients) vanishes [ADM2026]_ (MATH.md section 3, item 6).

    Degree 4. Empty when `t = 1` or `d = 1`.

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``lines`` -- (default: ``None``) a list of lines, each a pair
      ``[p, q]`` of vectors of length `d`; by default the coordinate lines
      through `e_i` and `e_j`, `i < j` (deterministic)

    OUTPUT: an :class:`~sage_attention.invariants.base.InvariantFamily`;
    indices ``(('line', k), ('slices', (c, e)))``, `k` the 0-based position
    of the line.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants import sylvester_invariants
        sage: from sage_attention.membership import check_family
        sage: M = LightningAttention(d=2, t=2, a=2, weights='AV')
        sage: fam = sylvester_invariants(M, lines=[[(1, 2), (3, -1)]]); len(fam)
        1
        sage: check_family(M, fam).all_vanish
        True

    TESTS::

        sage: sylvester_invariants(M, lines=[[(1, 2, 3), (1, 0, 0)]])
        Traceback (most recent call last):
        ...
        ValueError: line (=[(1, 2, 3), (1, 0, 0)]) must be a pair of vectors of length d = 2
    """
    check_model(model, "sylvester")
    d = model.d
    if model.tokens < 2:
        return empty(model, "sylvester", "empty: t = 1 has no cross tensor")
    if d < 2:
        return empty(model, "sylvester", "empty: d = 1 has a single slice")
    K = model.base_ring()
    if lines is None:
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
    return to_coordinates(model, gen(), "sylvester")
