r"""
Veronese-type invariants: catalecticants of `r \times r` mixed determinants

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.invariants import veronese_invariants
    sage: from sage_attention.variety.membership import check_family
    sage: M = LightningAttention(d=3, t=2, a=2)
    sage: fam = veronese_invariants(M); fam
    Family 'veronese' of 9 invariants of degree 4 of LightningAttention(d=3, out=1, t=2, a=2) over Rational Field
    sage: check_family(M, fam).all_vanish
    True
"""
from itertools import combinations
from math import factorial

from sage.all__sagemath_singular import matrix, IntegerVectors

from sage_attention.invariants.base import (guard_family, InvariantLabel, check_model, empty,
                                            pencil_minor_coefficients, to_coordinates)


def _compositions(n, parts):
    return [tuple(int(x) for x in c) for c in IntegerVectors(n, parts)]


def veronese_invariants(model, r=None, limit=None, force=False):
    r"""
    Return the Veronese-type invariants of each output row.

    Fix index sets `S` (for the first two indices of `T`) and `J` (columns),
    both of size `r`. For `a \in S` let `B^{(a)}` be the slice
    `(T_{\{a,b\},c})_{b \in S, c \in J}`. On the neurovariety,
    `\sum_{a \in S} \mu_a B^{(a)} = \tfrac12 (s I + v_S \mu^T) A_{S,J}` with
    `s = \mu \cdot v_S`, and `\det(s I + v_S \mu^T) = 2 s^r`, so

    .. MATH::

        g_{S,J}(\mu) = \det \Big(\sum_{a \in S} \mu_a B^{(a)}\Big)
        = 2^{1-r} \det(A_{S,J})\, (\mu \cdot v_S)^r

    is an `r`-th power of a linear form (a point of the Veronese variety).
    Its coefficients `g_\alpha`, indexed by the compositions `\alpha` of `r`
    into `r` parts, are mixed `r \times r` determinants of the slices.
    Arranged into the catalecticant matrices
    `\mathrm{Cat}_k(g) = (\alpha!\, g_{\beta+\gamma})_{|\beta| = k, |\gamma| = r-k}`
    (`1 \le k \le r/2`), they have rank at most one, so their `2 \times 2`
    minors vanish [ADM2026]_ (:ref:`mathematics, §3.5 <math-3>`; the closed form is
    our derivation).

    Degree `2r` (quartics for `r = 2`). Admissible `r`: `2 \le r \le \min(d, a)`
    (for `r > a`, `\det A_{S,J} = 0` and `g` vanishes identically). Empty
    when `t = 1` or no `r` is admissible (`d = 1` or `a = 1`).

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``r`` -- (default: ``None``, every admissible `r`) an integer or a
      list of integers
    - ``limit`` -- (default: ``None``) integer; stop after this many invariants
    - ``force`` -- boolean (default: ``False``); build the family even when
      its estimated memory (:func:`~sage_attention.catalog.family_costs.family_estimate`)
      is beyond the memory guard (:func:`~sage_attention.invariants.base.guard_family`)

    OUTPUT: an :class:`~sage_attention.invariants.base.InvariantFamily`;
    indices ``(('r', r), ('S', S), ('columns', J), ('k', k), ('minor', ...))``.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants import veronese_invariants
        sage: M = LightningAttention(d=3, t=2, a=3)
        sage: [len(veronese_invariants(M, r=r)) for r in (2, 3)]
        [9, 36]
        sage: veronese_invariants(M, r=3).degrees()
        (6,)

    For `r = 4` the members have thousands of terms each; the family is
    refused before it is built (``limit=`` or ``force=True`` lets it run)::

        sage: veronese_invariants(LightningAttention(d=4, t=2, a=4), r=4)
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the family veronese (about 3165 members of about 6300 terms) needs about ... GiB of memory (limit ...); pass limit= for fewer members or take a smaller model; pass force=True to run it anyway
        sage: len(veronese_invariants(LightningAttention(d=4, t=2, a=4), r=4, limit=1))
        1

    TESTS::

        sage: veronese_invariants(M, r=4)
        Traceback (most recent call last):
        ...
        ValueError: r (=4) must satisfy 2 <= r <= min(d, a) = 3
    """
    check_model(model, "veronese")
    guard_family(model, 'veronese', force, r=r, limit=limit)
    d, a = model.d, model.ranks[0]
    top = min(d, a)
    if model.tokens < 2:
        return empty(model, "veronese", "empty: t = 1 has no cross tensor")
    if r is None:
        rs = list(range(2, top + 1))
    else:
        rs = [r] if not isinstance(r, (list, tuple)) else list(r)
        for x in rs:
            if not 2 <= x <= top:
                raise ValueError(f"r (={x}) must satisfy 2 <= r <= min(d, a) = {top}")
    if not rs:
        return empty(model, "veronese", f"empty: no r with 2 <= r <= min(d, a) = {top}")

    def gen():
        count = 0
        for row in model.output_rows():
            T = model.cross_tensor(row)
            E = model.essential_ring()
            for rr in rs:
                comps = {k: _compositions(k, rr) for k in range(rr + 1)}
                for S in combinations(range(1, d + 1), rr):
                    for J in combinations(range(1, d + 1), rr):
                        mats = [matrix(E, rr, rr, [[T[min(x, b), max(x, b), c] for c in J]
                                                   for b in S]) for x in S]
                        g = pencil_minor_coefficients(mats, range(rr), range(rr))
                        for k in range(1, rr // 2 + 1):
                            rows_, cols_ = comps[k], comps[rr - k]

                            def entry(beta, gamma):
                                al = tuple(x + y for x, y in zip(beta, gamma))
                                w = 1
                                for x in al:
                                    w *= factorial(x)
                                return w * g.get(al, E.zero())
                            Cat = matrix(E, len(rows_), len(cols_),
                                         [[entry(b, c) for c in cols_] for b in rows_])
                            for R2 in combinations(range(len(rows_)), 2):
                                for C2 in combinations(range(len(cols_)), 2):
                                    m = Cat.matrix_from_rows_and_columns(list(R2), list(C2)).det()
                                    if not m:
                                        continue
                                    label = InvariantLabel(
                                        "veronese", row, None, None,
                                        (("r", rr), ("S", S), ("columns", J), ("k", k),
                                         ("minor", (tuple(rows_[i] for i in R2),
                                                    tuple(cols_[j] for j in C2)))))
                                    yield m, label
                                    count += 1
                                    if limit is not None and count >= limit:
                                        return
    return to_coordinates(model, gen(), "veronese")
