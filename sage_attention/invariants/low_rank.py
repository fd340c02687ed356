r"""
Low-rank (determinantal) invariants: minors of the flattening

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.invariants import low_rank_invariants
    sage: from sage_attention.variety.membership import vanishes_on_model
    sage: M = LightningAttention(d=3, t=2, a=1)
    sage: fam = low_rank_invariants(M); fam
    Family 'low_rank' of 45 invariants of degree 2 of LightningAttention(d=3, out=1, t=2, a=1) over Rational Field
    sage: all(vanishes_on_model(M, f) for f in fam.polynomials())
    True
"""
from itertools import combinations

from sage_attention.invariants.base import (guard_family, InvariantLabel, check_model, empty, flattening,
                                            to_coordinates)


def low_rank_invariants(model, limit=None, force=False):
    r"""
    Return the `(a+1)`-minors of the flattening of each output row.

    The flattening `F` (rows `\{a,b\}`, columns `c`, entries
    `T_{\{a,b\},c}`) factors as `F = \Phi(v) A` (:ref:`mathematics, §3 <math-3>`), so
    `\operatorname{rank} F \le \operatorname{rank} A \le a` and every
    `(a+1) \times (a+1)` minor of `F` vanishes [ADM2026]_.

    Degree `a + 1`. Empty when `t = 1` (there is no cross tensor; see
    :func:`~sage_attention.invariants.single_token_low_rank_invariants`)
    or `a \ge d`. There are `\binom{D}{a+1}\binom{d}{a+1}` minors per row
    (`D = d(d+1)/2`), fewer after dropping zero and repeated ones.

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``limit`` -- (default: ``None``) integer; stop after this many
      invariants
    - ``force`` -- boolean (default: ``False``); build the family even when
      its estimated memory (:func:`~sage_attention.catalog.family_costs.family_estimate`)
      is beyond the memory guard (:func:`~sage_attention.invariants.base.guard_family`)

    OUTPUT: an :class:`~sage_attention.invariants.base.InvariantFamily`;
    labels carry the row and the indices ``(('rows', pairs), ('columns', cols))``.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants import low_rank_invariants
        sage: M = LightningAttention(d=2, t=2, a=1, coordinate_scaling='scaled')
        sage: low_rank_invariants(M)[0]
        low_rank invariant of row 1, indices (rows ((1, 1), (1, 2)), columns (1, 2)), of degree 2:
        -Y11_x12x12x21*Y11_x11x12x22 + Y11_x11x12x12*Y11_x12x21x22
        sage: len(low_rank_invariants(LightningAttention(d=3, t=2, a=1, out=2), limit=7))
        7

    A family beyond this machine is refused before it is built (pass
    ``limit=`` for fewer members, or ``force=True``)::

        sage: low_rank_invariants(LightningAttention(d=8, t=3, a=4, out=8))
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the family low_rank (about 168892416 members of about 120 terms) needs about ... GiB of memory (limit ...); pass limit= for fewer members or take a smaller model; pass force=True to run it anyway
    """
    check_model(model, "low_rank")
    guard_family(model, 'low_rank', force, limit=limit)
    d, a = model.d, model.ranks[0]
    if model.tokens < 2:
        return empty(model, "low_rank", "empty: t = 1 has no cross tensor "
                     "(see single_token_low_rank_invariants)")
    if a >= d:
        return empty(model, "low_rank", f"empty: the flattening has only d = {d} columns, "
                     f"so rank <= a = {a} is no constraint")

    def gen():
        count = 0
        for row in model.output_rows():
            F, pairs = flattening(model, row)
            for R in combinations(range(len(pairs)), a + 1):
                for J in combinations(range(d), a + 1):
                    m = F.matrix_from_rows_and_columns(list(R), list(J)).det()
                    if m:
                        label = InvariantLabel("low_rank", row, None, None,
                                               (("rows", tuple(pairs[i] for i in R)),
                                                ("columns", tuple(j + 1 for j in J))))
                        yield m, label
                        count += 1
                        if limit is not None and count >= limit:
                            return
    return to_coordinates(model, gen(), "low_rank")
