r"""
Linear invariants: the copy and symmetrization relations

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.invariants import linear_invariants
    sage: from sage_attention.variety.membership import vanishes_on_model
    sage: M = LightningAttention(d=2, t=3, a=1, out=2)
    sage: fam = linear_invariants(M); len(fam)
    84
    sage: all(vanishes_on_model(M, f) for f in fam.polynomials())
    True
"""
from sage_attention.invariants.base import (guard_family, Invariant, InvariantFamily, InvariantLabel, check_model,
                                            empty)


def linear_invariants(model, force=False):
    r"""
    Return the linear invariants of a one-layer lightning model (:ref:`mathematics, §2 <math-2>`).

    For `t \ge 2`, a cross coefficient `x_{an} x_{bn} x_{cj}` of `Y_{ij}` does
    not depend on the context token `n` nor on `j` (copy relations), and each
    pure coefficient is a fixed linear combination of cross coefficients
    (symmetrization relations) [ADM2026]_. There is one relation per
    coordinate that is not essential: it expresses that coordinate through
    the essential ones (see ``model.linear_relations()``).

    Degree 1. Empty for `t = 1` (every coordinate is essential).

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``force`` -- boolean (default: ``False``); build the family even when
      its estimated memory (:func:`~sage_attention.catalog.family_costs.family_estimate`)
      is beyond the memory guard (:func:`~sage_attention.invariants.base.guard_family`)

    OUTPUT: an :class:`~sage_attention.invariants.base.InvariantFamily`; each
    label has the row, token and context of the coordinate the relation
    expresses, and its indices `(a, b, c)`.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants import linear_invariants
        sage: M = LightningAttention(d=1, t=2, a=1)
        sage: linear_invariants(M)[2]
        linear invariant of row 1, token 2, indices (1, 1, 1), of degree 1:
        -Y11_x11x12x12 + Y12_x12x12x12
        sage: linear_invariants(LightningAttention(d=2, t=1, a=1))
        Family 'linear' of 0 invariants of LightningAttention(d=2, out=1, t=1, a=1) over Rational Field
        (empty: for t = 1 there are no linear relations)
    """
    check_model(model, "linear")
    guard_family(model, "linear", force)
    if model.tokens < 2:
        return empty(model, "linear", "empty: for t = 1 there are no linear relations")
    C = model.coordinate_ring()
    to_e, from_e = model.to_essential(), model.from_essential()
    essential = set(model.essential_coordinates())
    out = []
    for x, c in zip(C.gens(), model.coordinates_list()):
        if x in essential:
            continue
        rel = x - from_e(to_e(x))
        label = InvariantLabel("linear", c.row, c.token, c.context, tuple(c.indices))
        out.append(Invariant(rel, label))
    return InvariantFamily("linear", model, out)
