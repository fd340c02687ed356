r"""
Chow-type invariants (`t = 1`): the cubic splits as a linear form times a quadric

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.invariants import chow_invariants
    sage: from sage_attention.variety.membership import check_family
    sage: M = LightningAttention(d=3, t=1, a=1)
    sage: fam = chow_invariants(M, limit=2); fam
    Family 'chow' of 2 invariants of degree 8 of LightningAttention(d=3, out=1, t=1, a=1) over Rational Field
    sage: check_family(M, fam).all_vanish       
    True
"""
from itertools import combinations
from math import comb

from sage.all__sagemath_singular import matrix

from sage_attention.misc.errors import ComputationTooLarge
from sage_attention.invariants.base import (guard_family, InvariantLabel, check_model, empty,
                                            to_coordinates)


def chow_matrix(model, row):
    r"""
    Return the matrix whose columns are the coefficient vectors (over the
    cubic monomials) of `x_u \partial f/\partial x_v` (`u \ne v`) and
    `x_u \partial f/\partial x_u - x_d \partial f/\partial x_d` (`u < d`),
    `f` the entry `Y_{row, 1}` with the model's raw coefficients; its
    columns span the tangent space `\mathfrak{sl}_d \cdot f` of the orbit.
    """
    S, f = model.pure_cubic(row)
    z = S.gens()
    d = len(z)
    cols = []
    for u in range(d):
        for v in range(d):
            if u != v:
                cols.append(z[u] * f.derivative(z[v]))
    for u in range(d - 1):
        cols.append(z[u] * f.derivative(z[u]) - z[d - 1] * f.derivative(z[d - 1]))
    monos = sorted({m for g in cols for m in g.monomials()} | set(f.monomials()))
    C = model.coordinate_ring()
    return matrix(C, len(monos), len(cols), [[g.monomial_coefficient(m) for g in cols]
                                             for m in monos])


def chow_invariants(model, limit=None, max_minors=2000, force=False):
    r"""
    Return the Chow (split `2+1`) invariants of each output row (`t = 1`).

    For `t = 1`, `y = (v \cdot x)\, x^T A x` is a linear form times a
    quadric. The `\mathfrak{sl}_d` orbit of such a cubic is small: the
    matrix :func:`chow_matrix` (`\binom{d+2}{3}` rows, `d^2 - 1` columns)
    has rank at most `d^2 - 2` on the neurovariety (the stabilizer contains
    the rotations fixing the linear form and the quadric), so its maximal
    minors vanish [ADM2026]_ (:ref:`mathematics, §4 <math-4>`). For a generic cubic the
    rank is `d^2 - 1`, so the minors are nonzero polynomials.

    Degree `d^2 - 1`. Empty unless `t = 1` and `d \ge 3` (every binary cubic
    splits). For `a = 1` further (Brill-type) equations are needed to cut
    out the variety; they are not included.

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``limit`` -- (default: ``None``) integer; stop after this many invariants
    - ``max_minors`` -- (default: `2000`) refuse to enumerate more minors
      than this when ``limit`` is ``None``
    - ``force`` -- boolean (default: ``False``); build the family even when
      its estimated memory (:func:`~sage_attention.catalog.family_costs.family_estimate`)
      is beyond the memory guard (:func:`~sage_attention.invariants.base.guard_family`)

    OUTPUT: an :class:`~sage_attention.invariants.base.InvariantFamily`;
    indices ``(('monomials', rows of the minor),)``.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants import chow_invariants
        sage: chow_invariants(LightningAttention(d=2, t=1, a=1)).note
        'empty: every binary cubic splits (d = 2 < 3)'
        sage: chow_invariants(LightningAttention(d=3, t=1, a=1), limit=1).degrees()
        (8,)

    For `d = 4` one minor of size `15` is already beyond this machine::

        sage: chow_invariants(LightningAttention(d=4, t=1, a=1), limit=1)
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the family chow (about 1 members of about ... terms) needs about ... GiB of memory (limit ...); pass limit= for fewer members or take a smaller model; pass force=True to run it anyway

    TESTS::

        sage: chow_invariants(LightningAttention(d=4, t=1, a=1))
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the Chow family has 15504 maximal minors per row; pass limit=N
    """
    check_model(model, "chow")
    d = model.d
    if model.tokens != 1:
        return empty(model, "chow", "empty: the Chow family is for t = 1")
    if d < 3:
        return empty(model, "chow", f"empty: every binary cubic splits (d = {d} < 3)")
    n_rows, n_cols = comb(d + 2, 3), d * d - 1
    if limit is None and comb(n_rows, n_cols) > max_minors:
        raise ComputationTooLarge(f"the Chow family has {comb(n_rows, n_cols)} maximal minors "
                                  "per row; pass limit=N")
    guard_family(model, 'chow', force, limit=limit, max_minors=max_minors)

    def gen():
        count = 0
        for row in model.output_rows():
            N = chow_matrix(model, row)
            for R in combinations(range(N.nrows()), n_cols):
                m = N.matrix_from_rows(list(R)).det()
                if m:
                    yield m, InvariantLabel("chow", row, 1, None, (("monomials", R),))
                    count += 1
                    if limit is not None and count >= limit:
                        return
    return to_coordinates(model, gen(), "chow")


def single_token_low_rank_invariants(model, limit=None, force=False):
    r"""
    Return the minors of size `2a + 2` of the matrix `N` of each output row (`t = 1`).

    `N_{k,l} = c_{kkl}` (scaled coefficients). On the neurovariety the
    scaled coefficient tensor is `\mathrm{Sym}(v \otimes S)`, `S = \mathrm{Sym}(A)`,
    so `N = \tfrac13 (2\,\mathrm{diag}(v) S + (S_{kk})_k\, v^T)` has rank at
    most `\operatorname{rank} S + 1 \le 2a + 1`, and its minors of size
    `2a + 2` vanish [ADM2026]_ (:ref:`mathematics, §4 <math-4>`).

    Degree `2a + 2`. Empty unless `t = 1` and `2a + 2 \le d`.

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``limit`` -- (default: ``None``) integer; stop after this many invariants
    - ``force`` -- boolean (default: ``False``); build the family even when
      its estimated memory (:func:`~sage_attention.catalog.family_costs.family_estimate`)
      is beyond the memory guard (:func:`~sage_attention.invariants.base.guard_family`)

    OUTPUT: an :class:`~sage_attention.invariants.base.InvariantFamily`;
    indices ``(('rows', K), ('columns', L))``.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants import single_token_low_rank_invariants
        sage: from sage_attention.variety.membership import check_family
        sage: M = LightningAttention(d=4, t=1, a=1, weight_space='AV')
        sage: fam = single_token_low_rank_invariants(M); fam
        Family 'single_token_low_rank' of 1 invariants of degree 4 of LightningAttention(d=4, out=1, t=1, a=1, weight_space='AV') over Rational Field
        sage: check_family(M, fam).all_vanish
        True
        sage: single_token_low_rank_invariants(LightningAttention(d=3, t=1, a=1)).note
        'empty: minors of size 2a + 2 = 4 need d >= 4 (here d = 3)'
    """
    from sage_attention.invariants.single_token import scaled_coefficients
    check_model(model, "single_token_low_rank")
    guard_family(model, "single_token_low_rank", force, limit=limit)
    d, a = model.d, model.ranks[0]
    name = "single_token_low_rank"
    if model.tokens != 1:
        return empty(model, name, "empty: this family is for t = 1")
    s = 2 * a + 2
    if s > d:
        return empty(model, name, f"empty: minors of size 2a + 2 = {s} need d >= {s} "
                     f"(here d = {d})")

    def gen():
        count = 0
        for row in model.output_rows():
            c = scaled_coefficients(model, row)
            N = matrix(model.coordinate_ring(), d, d,
                       [[c[tuple(sorted((k, k, l)))] for l in range(1, d + 1)]
                        for k in range(1, d + 1)])
            for K in combinations(range(d), s):
                for L in combinations(range(d), s):
                    m = N.matrix_from_rows_and_columns(list(K), list(L)).det()
                    if m:
                        yield m, InvariantLabel(name, row, 1, None,
                                                (("rows", tuple(k + 1 for k in K)),
                                                 ("columns", tuple(l + 1 for l in L))))
                        count += 1
                        if limit is not None and count >= limit:
                            return
    return to_coordinates(model, gen(), name)
