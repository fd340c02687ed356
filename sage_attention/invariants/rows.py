r"""
Row-coupling invariants (`d' > 1`): equations tying output rows together

All output rows share the attention matrix `A` (rows `i` differ only by the
row `v_i` of `V`). For `t \ge 2`, `T_i = \mathrm{Sym}(v_i \otimes A)`; for
`t = 1`, `y_i = (v_i \cdot x)\, q(x)` with one quadric `q` for all rows.

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.invariants import row_coupling_invariants
    sage: from sage_attention.variety.membership import check_family
    sage: M = LightningAttention(d=2, t=2, a=2, out=2)
    sage: fam = row_coupling_invariants(M); len(fam), fam.degrees()
    (5, (2,))
    sage: check_family(M, fam).all_vanish
    True
"""
from itertools import combinations

from sage.all__sagemath_singular import PolynomialRing, matrix, block_matrix

from sage_attention.misc.errors import ComputationTooLarge
from sage_attention.invariants.base import (guard_family, InvariantLabel, check_model, empty, flattening,
                                            slices, pencil_minor_coefficients, to_coordinates)
from sage_attention.invariants.syzygies import phi_matrix, minor_relations


def row_coupling_invariants(model, limit=None, max_minors=10000, force=False):
    r"""
    Return invariants that tie pairs of output rows together.

    For `t \ge 2` and each pair of kept rows `i < j`:

    - **stacked minors** (`a < d`): the stacked flattening
      `\begin{pmatrix} F_i \\ F_j \end{pmatrix} = \begin{pmatrix} \Phi(v_i) \\ \Phi(v_j) \end{pmatrix} A`
      has rank at most `a` (the rows share the row space of `A`); its
      `(a+1)`-minors that use rows of both `F_i` and `F_j` (degree `a + 1`);
    - **stacked syzygies** (`a \ge d`): Cauchy–Binet as in
      :func:`~sage_attention.invariants.context_syzygies`, for the stacked
      `\Phi`: each linear relation among the maximal minors of the stacked
      `\Phi(v_i), \Phi(v_j)` (forms in `v_i, v_j`) that involves both rows
      gives a relation among the maximal minors of the stacked flattening
      (degree `d`);
    - **mixed pencil cubics** (`d \ge 3`): `\sum_{k, c} \mu_k \lambda_c M_k^{(c)}
      = \mathrm{Sym}((\mu_i v_i + \mu_j v_j) \otimes A\lambda)` has rank at
      most 2; the coefficients of `\mu^\beta \lambda^\gamma` in its
      `3 \times 3` minors with `\beta` using both rows (degree 3).

    For `t = 1` and each pair `i < j`: `y_i (v_j \cdot x) = y_j (v_i \cdot x)`,
    so the linear map `(\ell_i, \ell_j) \mapsto y_i \ell_j - y_j \ell_i` from
    pairs of linear forms to quartics has a kernel; its `2d \times 2d` minors
    vanish (degree `2d`). For generic cubics (no common quadric factor) the
    map is injective, so these minors are nonzero.

    This derivation follows [ADM2026]_'s families applied to the
    rows together (:ref:`mathematics, §3-4 <math-3>`). Empty when fewer than two rows
    are kept.

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``limit`` -- (default: ``None``) integer; stop after this many invariants
    - ``max_minors`` -- (default: `10000`) for `t = 1`, refuse to enumerate
      more minors per pair than this when ``limit`` is ``None``
    - ``force`` -- boolean (default: ``False``); build the family even when
      its estimated memory (:func:`~sage_attention.catalog.family_costs.family_estimate`)
      is beyond the memory guard (:func:`~sage_attention.invariants.base.guard_family`)

    OUTPUT: an :class:`~sage_attention.invariants.base.InvariantFamily`;
    labels have ``row`` the pair `(i, j)` and indices starting with the kind
    (``'stacked_minor'``, ``'stacked_syzygy'``, ``'mixed_pencil'``, ``'common_quadric'``).

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants import row_coupling_invariants
        sage: from sage_attention.variety.membership import check_family
        sage: M = LightningAttention(d=2, t=1, a=1, out=2)
        sage: fam = row_coupling_invariants(M); fam[0].label
        rows invariant of rows (1, 2), token 1, indices ('common_quadric', (0, 1, 2, 3))
        sage: len(fam), check_family(M, fam).all_vanish
        (5, True)
        sage: row_coupling_invariants(LightningAttention(d=2, t=2, a=1)).note
        'empty: row coupling needs at least two output rows (kept rows: (1,))'

    A family beyond this machine is refused before it is built (pass
    ``limit=`` for fewer members, or ``force=True``)::

        sage: row_coupling_invariants(LightningAttention(d=8, t=2, a=2, out=12))
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the family rows (about 306383616 members of about 6 terms) needs about ... GiB of memory (limit ...); pass limit= for fewer members or take a smaller model; pass force=True to run it anyway
    """
    check_model(model, "rows")
    rows = model.output_rows()
    d, a = model.d, model.ranks[0]
    if len(rows) < 2:
        return empty(model, "rows", f"empty: row coupling needs at least two output rows "
                     f"(kept rows: {rows})")
    if model.tokens == 1:
        from math import comb
        n = comb(d + 3, 4)
        if limit is None and comb(n, 2 * d) > max_minors:
            raise ComputationTooLarge(f"the common-quadric minors number {comb(n, 2 * d)} per "
                                      "pair of rows; pass limit=N")
    guard_family(model, 'rows', force, limit=limit, max_minors=max_minors)
    state = {"count": 0}

    def emit(p, label):
        state["count"] += 1
        return p, label

    def full():
        return limit is not None and state["count"] >= limit

    def gen_t1():
        C = model.coordinate_ring()
        for i, j in combinations(rows, 2):
            S, fi = model.pure_cubic(i)
            _, fj = model.pure_cubic(j)
            z = S.gens()
            cols = [-fj * zz for zz in z] + [fi * zz for zz in z]   # (l_i, l_j) coefficients
            monos = sorted({m for g in cols for m in g.monomials()})
            N = matrix(C, len(monos), len(cols), [[g.monomial_coefficient(m) for g in cols]
                                                 for m in monos])
            for R in combinations(range(N.nrows()), 2 * d):
                m = N.matrix_from_rows(list(R)).det()
                if m:
                    yield emit(m, InvariantLabel("rows", (i, j), 1, None, ("common_quadric", R)))
                    if full():
                        return

    def gen_t2():
        for i, j in combinations(rows, 2):
            Fi, pairs = flattening(model, i)
            Fj, _ = flattening(model, j)
            D = len(pairs)
            if a < d:
                F = block_matrix([[Fi], [Fj]], subdivide=False)
                for R in combinations(range(2 * D), a + 1):
                    if R[0] >= D or R[-1] < D:
                        continue
                    for J in combinations(range(d), a + 1):
                        m = F.matrix_from_rows_and_columns(list(R), list(J)).det()
                        if m:
                            yield emit(m, InvariantLabel("rows", (i, j), None, None,
                                                         ("stacked_minor", R, tuple(x + 1 for x in J))))
                            if full():
                                return
            else:
                P = PolynomialRing(model.base_ring(), [f"v{k}_{l}" for k in (1, 2)
                                                       for l in range(1, d + 1)])
                v = P.gens()
                phi = block_matrix([[phi_matrix(P, v[:d])], [phi_matrix(P, v[d:])]],
                                   subdivide=False)
                subsets, rels = minor_relations(phi, d)
                F = block_matrix([[Fi], [Fj]], subdivide=False)
                dets = {}
                for k in range(rels.nrows()):
                    support = [s for s in range(rels.ncols()) if rels[k, s]]
                    if all(subsets[s][-1] < D for s in support) or \
                            all(subsets[s][0] >= D for s in support):
                        continue
                    p = F.base_ring().zero()
                    for s in support:
                        if s not in dets:
                            dets[s] = F.matrix_from_rows(list(subsets[s])).det()
                        p += rels[k, s] * dets[s]
                    yield emit(p, InvariantLabel("rows", (i, j), None, None,
                                                 ("stacked_syzygy", k)))
                    if full():
                        return
            if d >= 3:
                mats = slices(model, i) + slices(model, j)
                subsets3 = list(combinations(range(d), 3))
                for x, I in enumerate(subsets3):
                    for J in subsets3[x:]:
                        coeffs = pencil_minor_coefficients(mats, I, J)
                        merged = {}
                        for e, p in coeffs.items():
                            beta = (sum(e[:d]), sum(e[d:]))
                            gamma = tuple(e[c] + e[d + c] for c in range(d))
                            if 0 in beta:
                                continue
                            key = (beta, gamma)
                            merged[key] = merged.get(key, 0) + p
                        for key in sorted(merged):
                            yield emit(merged[key], InvariantLabel(
                                "rows", (i, j), None, None,
                                ("mixed_pencil", tuple(x + 1 for x in I), tuple(y + 1 for y in J),
                                 key[0], key[1])))
                            if full():
                                return
    return to_coordinates(model, gen_t1() if model.tokens == 1 else gen_t2(), "rows")
