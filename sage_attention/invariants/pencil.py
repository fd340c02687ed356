r"""
Pencil invariants: cubics from the `3 \times 3` minors of the slice pencil

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.invariants import pencil_invariants
    sage: from sage_attention.variety.membership import vanishes_on_model
    sage: M = LightningAttention(d=3, t=2, a=2, out=2, coordinate_scaling='scaled')
    sage: fam = pencil_invariants(M); len(fam)
    20
    sage: all(vanishes_on_model(M, f) for f in fam.polynomials())
    True
"""
from itertools import combinations

from sage_attention.invariants.base import (guard_family, InvariantLabel, check_model, empty, slices,
                                            pencil_minor_coefficients, to_coordinates)


def pencil_invariants(model, limit=None, force=False):
    r"""
    Return the cubic pencil invariants of each output row.

    The slices `M^{(c)} = (T_{\{r,s\},c})_{r,s} = \mathrm{Sym}(v \otimes A_{:,c})`
    have rank at most 2, and so does every member
    `\sum_c \lambda_c M^{(c)} = \mathrm{Sym}(v \otimes A\lambda)` of their
    pencil (:ref:`mathematics, §3 <math-3>`). Every `3 \times 3` minor of the pencil is a
    cubic form in `\lambda` whose coefficients (mixed determinants of the
    slices) vanish on the neurovariety [ADM2026]_. Minors with row set `I`
    and column set `J` equal those with `J, I` (the slices are symmetric),
    so only `I \le J` are used.

    Degree 3. Empty when `t = 1` or `d < 3`. Independent of `a`.

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``limit`` -- (default: ``None``) integer; stop after this many invariants
    - ``force`` -- boolean (default: ``False``); build the family even when
      its estimated memory (:func:`~sage_attention.catalog.family_costs.family_estimate`)
      is beyond the memory guard (:func:`~sage_attention.invariants.base.guard_family`)

    OUTPUT: an :class:`~sage_attention.invariants.base.InvariantFamily`;
    labels carry the row and the indices
    ``(('rows', I), ('columns', J), ('lambda', exponent))``.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants import pencil_invariants
        sage: M = LightningAttention(d=3, t=2, a=1)
        sage: fam = pencil_invariants(M); len(fam), fam.degrees()
        (10, (3,))
        sage: fam[9].label.indices
        (('rows', (1, 2, 3)), ('columns', (1, 2, 3)), ('lambda', (3, 0, 0)))

    For `\lambda = e_c` the coefficient is the determinant of one slice::

        sage: from sage_attention.invariants.base import slices
        sage: M.from_essential()(slices(M, 1)[0].det()) == fam[9].polynomial
        True

    A family beyond this machine is refused before it is built (pass
    ``limit=`` for fewer members, or ``force=True``)::

        sage: pencil_invariants(LightningAttention(d=12, t=2, a=2, out=12))
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the family pencil (about 106186080 members of about 6 terms) needs about ... GiB of memory (limit ...); pass limit= for fewer members or take a smaller model; pass force=True to run it anyway
    """
    check_model(model, "pencil")
    guard_family(model, 'pencil', force, limit=limit)
    d = model.d
    if model.tokens < 2:
        return empty(model, "pencil", "empty: t = 1 has no cross tensor")
    if d < 3:
        return empty(model, "pencil", f"empty: the 3 x 3 minors of the pencil need d >= 3 "
                     f"(here d = {d})")

    def gen():
        count = 0
        for row in model.output_rows():
            S = slices(model, row)
            subsets = list(combinations(range(d), 3))
            for x, I in enumerate(subsets):
                for J in subsets[x:]:
                    coeffs = pencil_minor_coefficients(S, I, J)
                    for e in sorted(coeffs):
                        label = InvariantLabel("pencil", row, None, None,
                                               (("rows", tuple(i + 1 for i in I)),
                                                ("columns", tuple(j + 1 for j in J)),
                                                ("lambda", e)))
                        yield coeffs[e], label
                        count += 1
                        if limit is not None and count >= limit:
                            return
    return to_coordinates(model, gen(), "pencil")
