r"""
Context syzygies: linear relations among the maximal minors of the flattening

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.invariants import context_syzygies
    sage: from sage_attention.variety.membership import check_family
    sage: M = LightningAttention(d=3, t=2, a=3)
    sage: fam = context_syzygies(M); len(fam), fam.degrees()
    (10, (3,))
    sage: check_family(M, fam).all_vanish
    True
"""
from itertools import combinations, combinations_with_replacement

from sage.all__sagemath_singular import PolynomialRing, matrix

from sage_attention.invariants.base import (guard_family, InvariantLabel, check_model, empty, flattening,
                                            to_coordinates)


def phi_matrix(R, v):
    r"""
    Return `\Phi(v)`: the `D \times d` matrix with
    `\Phi_{\{a,b\},c} = (v_a [b = c] + v_b [a = c])/2` over ``R``.
    """
    d = len(v)
    pairs = list(combinations_with_replacement(range(d), 2))
    half = R.base_ring()(1) / 2
    return matrix(R, len(pairs), d,
                  [[half * ((v[a] if b == c else 0) + (v[b] if a == c else 0)) for c in range(d)]
                   for a, b in pairs])


def minor_relations(phi, size):
    r"""
    Return the row subsets of ``phi`` of the given size and a basis (echelon
    form) of the linear relations among the corresponding maximal minors.
    """
    subsets = list(combinations(range(phi.nrows()), size))
    minors = [phi.matrix_from_rows(list(S)).det() for S in subsets]
    monos = sorted({m for p in minors for m in p.monomials()})
    K = phi.base_ring().base_ring()
    coeff = matrix(K, len(minors), len(monos),
                   [[p.monomial_coefficient(m) for m in monos] for p in minors])
    return subsets, coeff.left_kernel().echelonized_basis_matrix()


def context_syzygies(model, force=False):
    r"""
    Return the context syzygies of each output row.

    Each maximal (`d \times d`) minor of `F = \Phi(v) A` is the matching
    minor of `\Phi(v)` times `\det A` (Cauchy–Binet, :ref:`mathematics, §3 <math-3>`).
    Every linear relation `\sum_S c_S \det \Phi(v)_S = 0` among the maximal
    minors of `\Phi(v)` (forms of degree `d` in `v`, computed exactly over
    the base field) therefore gives the invariant `\sum_S c_S \det F_S`
    [ADM2026]_.

    Degree `d`. Empty for `t = 1` and for `d \le 2` (the three minors of
    `\Phi(v)` are then independent). For `a < d` every maximal minor of `F`
    already lies in the ideal of :func:`low_rank_invariants`, so the
    syzygies are new information only for `a \ge d`; they are returned for
    every `a`.

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``force`` -- boolean (default: ``False``); build the family even when
      its estimated memory (:func:`~sage_attention.catalog.family_costs.family_estimate`)
      is beyond the memory guard (:func:`~sage_attention.invariants.base.guard_family`)

    OUTPUT: an :class:`~sage_attention.invariants.base.InvariantFamily`;
    indices ``(('relation', k), ('minors', number of minors involved))``.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants import context_syzygies
        sage: context_syzygies(LightningAttention(d=2, t=2, a=2)).note
        'empty: the maximal minors of Phi(v) are linearly independent for d = 2'
        sage: fam = context_syzygies(LightningAttention(d=3, t=3, a=2, out=2))
        sage: len(fam), fam[0].label.row, fam[-1].label.row
        (20, 1, 2)

    The family is estimated before anything is built: for `d = 6` its
    rational kernel and its members need hundreds of GiB, and it is
    refused; ``force=True`` builds a family anyway::

        sage: context_syzygies(LightningAttention(d=6, t=2, a=6))
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the family syzygies (about 53802 members of about 1440 terms) needs about ... GiB of memory (limit ...); take a smaller model; pass force=True to run it anyway
        sage: len(context_syzygies(LightningAttention(d=3, t=2, a=3), force=True))
        10
    """
    check_model(model, "syzygies")
    guard_family(model, 'syzygies', force)
    d = model.d
    if model.tokens < 2:
        return empty(model, "syzygies", "empty: t = 1 has no cross tensor")
    R = PolynomialRing(model.base_ring(), [f"v{i}" for i in range(1, d + 1)])
    subsets, rels = minor_relations(phi_matrix(R, R.gens()), d)
    if rels.nrows() == 0:
        return empty(model, "syzygies", f"empty: the maximal minors of Phi(v) are linearly "
                     f"independent for d = {d}")

    def gen():
        for row in model.output_rows():
            F, pairs = flattening(model, row)
            dets = {}
            for k in range(rels.nrows()):
                p = F.base_ring().zero()
                support = [j for j in range(rels.ncols()) if rels[k, j]]
                for j in support:
                    if j not in dets:
                        dets[j] = F.matrix_from_rows(list(subsets[j])).det()
                    p += rels[k, j] * dets[j]
                yield p, InvariantLabel("syzygies", row, None, None,
                                        (("relation", k), ("minors", len(support))))
    return to_coordinates(model, gen(), "syzygies")
