r"""
Rank-one invariants (`a = 1`): linear relations, `2 \times 2` minors, pencil cubics

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.invariants import rank_one_invariants
    sage: from sage_attention.variety.membership import check_family
    sage: M = LightningAttention(d=3, t=2, a=1, weight_space='AV')
    sage: fam = rank_one_invariants(M); fam
    Family 'rank_one' of 93 invariants of degrees 1, 2, 3 of LightningAttention(d=3, out=1, t=2, a=1, weight_space='AV') over Rational Field
    sage: check_family(M, fam).all_vanish
    True
"""
from sage_attention.invariants.base import (guard_family, Invariant, InvariantFamily, InvariantLabel,
                                            check_model, empty)
from sage_attention.invariants.linear import linear_invariants
from sage_attention.invariants.low_rank import low_rank_invariants
from sage_attention.invariants.pencil import pencil_invariants


def rank_one_invariants(model, limit=None, force=False):
    r"""
    Return the invariants that cut out the rank-one (`a = 1`) neurovariety.

    For `a = 1`, `A = u w^T` and `T = \mathrm{Sym}(v \otimes u) \otimes w`.
    The linear relations, the `2 \times 2` minors of the flattening and the
    pencil cubics define the variety set-theoretically [ADM2026]_ (:ref:`mathematics, §3.7 <math-3>`: `\operatorname{rank} F \le 1` makes every slice
    quadric a multiple of one quadric `Z`, and the pencil cubics force
    `\operatorname{rank} Z \le 2`, so `Z` splits).

    Degrees 1, 2 and 3 (no cubics for `d < 3`). Empty unless `a = 1` and
    `t \ge 2`.

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``limit`` -- (default: ``None``) passed to the minors and the pencil
    - ``force`` -- boolean (default: ``False``); build the family even when
      its estimated memory (:func:`~sage_attention.catalog.family_costs.family_estimate`)
      is beyond the memory guard (:func:`~sage_attention.invariants.base.guard_family`)

    OUTPUT: an :class:`~sage_attention.invariants.base.InvariantFamily`;
    each label has family ``'rank_one'`` and indices starting with the
    name of the family it comes from (``'linear'``, ``'low_rank'``, ``'pencil'``).

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants import rank_one_invariants
        sage: rank_one_invariants(LightningAttention(d=2, t=2, a=1)).degrees()
        (1, 2)
        sage: rank_one_invariants(LightningAttention(d=2, t=2, a=2)).note
        'empty: the rank-one family needs a = 1 (here a = 2)'

    A family beyond this machine is refused before it is built (pass
    ``limit=`` for fewer members, or ``force=True``)::

        sage: rank_one_invariants(LightningAttention(d=12, t=2, a=1, out=12))
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the family rank_one (about 108595656 members of about 6 terms) needs about ... GiB of memory (limit ...); pass limit= for fewer members or take a smaller model; pass force=True to run it anyway
    """
    check_model(model, "rank_one")
    guard_family(model, 'rank_one', force, limit=limit)
    a = model.ranks[0]
    if a != 1:
        return empty(model, "rank_one", f"empty: the rank-one family needs a = 1 (here a = {a})")
    if model.tokens < 2:
        return empty(model, "rank_one", "empty: the rank-one family needs t >= 2 "
                     "(for t = 1 see chow_invariants)")
    out = []
    for fam in (linear_invariants(model), low_rank_invariants(model, limit=limit, force=force),
                pencil_invariants(model, limit=limit, force=force)):
        for inv in fam:
            l = inv.label
            label = InvariantLabel("rank_one", l.row, l.token, l.context,
                                   (fam.name,) + tuple(l.indices))
            out.append(Invariant(inv.polynomial, label))
    return InvariantFamily("rank_one", model, out)
