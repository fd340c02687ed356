"""
The minors of the partial derivatives in the ideal of lower degrees (sage_attention.ideals.proofs.partial_minors).

The check is a rank against a dimension in one piece per orbit of the feature permutations; the tests
compare it with the minors written out (their weights, and their membership by the independent linear
algebra of sage_attention.ideals.ideal_checks), and show that it never holds for too small an ideal.
"""
import itertools

import numpy as np
import pytest

from sage.all__sagemath_singular import GF, QQ, PolynomialRing

from sage_attention import LightningAttention
from sage_attention.ideals.engine.graded_kernel import graded_kernel
from sage_attention.ideals.ideal_checks import ideal_membership
from sage_attention.ideals.proofs.inheritance import columns_structure, matrix_factorization
from sage_attention.ideals.proofs.partial_minors import minor_weights, minors_in_ideal, partial_derivatives_matrix
from sage_attention.ideals.proofs.form_coordinates import base_map, base_structure
from sage_attention.ideals.proofs.subspace import base_kernel, subspace_certificate
from sage_attention.models.linear_forms import LinearFormStructure


def _binary_quadric_structure():
    S = PolynomialRing(QQ, ["s0", "s1"])
    s0, s1 = S.gens()
    return LinearFormStructure(("x0", "x1"), ("c20", "c11", "c02"),
                               ((0, (2, 0), 1), (0, (1, 1), 1), (0, (0, 2), 1)),
                               (("u0", "u1"), ("v0", "v1")), (s0 * s1,))


def _weight_function(structure):
    k = len(structure.outer)
    W = np.array([[int(j == o) for j in range(k)] + list(a) for o, a, _ in structure.monomials], dtype=np.int64)
    return lambda e: tuple(int(v) for v in np.asarray(e, dtype=np.int64) @ W)


def test_the_weights_are_those_of_the_minors_written_out():
    # the quadrics of rank at most 2 in 4 and 5 features: every nonzero 3-minor of the symmetric matrix,
    # computed by Sage, has a weight whose orbit (feature counts sorted) is one of minor_weights, and
    # every orbit of minor_weights is met
    L = _binary_quadric_structure()
    for n in (4, 5):
        phi, B = base_map(L, n), base_structure(L, n)
        D = partial_derivatives_matrix(B, phi.domain())
        assert D.dimensions() == (n, n) and D.is_symmetric()
        weight = _weight_function(B)
        seen = set()
        for f in D.minors(3):
            if f:
                w = {weight(e) for e in f.exponents()}
                assert len(w) == 1
                w = w.pop()
                seen.add(w[:1] + tuple(sorted(w[1:], reverse=True)))
        assert seen == set(minor_weights(B))


def test_the_symmetric_minors_and_too_small_ideals():
    # the 3-minors of the symmetric 4 x 4 matrix lie in their own ideal; not in the zero ideal, nor in
    # that of one of them
    L = _binary_quadric_structure()
    phi, B = base_map(L, 4), base_structure(L, 4)
    minors = [f for f in partial_derivatives_matrix(B, phi.domain()).minors(3) if f]
    C = minors_in_ideal(phi, minors, B, seed=3)
    assert C.holds and C.degree == 3 and C.generators_degree == 3
    assert all(r == d and d > 0 for _, r, d in C.pieces)
    for small in ([], minors[:1]):
        assert not minors_in_ideal(phi, small, B, seed=3).holds
    # one piece per orbit is checked, which is sound only because J spans I(X) through its degree (then
    # (J) is stable under the permutations): a dropped minor may pass the check, and the spanning test
    # of verify() catches it
    from sage_attention.ideals.engine.graded_kernel import kernel_spans
    assert [(k, r == d) for k, r, d in kernel_spans(phi, minors, 3)][-1] == (3, True)
    assert [(k, r == d) for k, r, d in kernel_spans(phi, minors[:-1], 3)][-1] == (3, False)
    y = phi.domain().gens()
    with pytest.raises(ValueError, match="not homogeneous"):
        minors_in_ideal(phi, [y[0] * y[2] - y[1] ** 2 + y[0] ** 2], B)


def test_the_triples_of_quinary_quadrics_need_no_quintics():
    # X' of the slice of width 5 and rank 3: the triples of quadrics in 5 features with a common linear factor,
    # forms in m = 4 linear forms, 45 coordinates. Its generators through degree 4 (675 cubics, 4200
    # quartics) have the 5-minors of the 5 x 15 matrix of partial derivatives in their ideal; independently,
    # minors of several orbits written out lie in the ideal by ideal_membership modulo p. The check does not
    # hold for the cubics alone, and with them a false claim "complete through degree 4" is not proved.
    M = LightningAttention(d=5, t=2, a=3, out=1, entries=[(1, 1)])
    psi, L = columns_structure(matrix_factorization(M.essential_parametrization()), M.linear_form_structure())
    assert psi.domain().ngens() == 45 and (L.nfeatures, L.nforms) == (5, 4)
    G = graded_kernel(psi, 4, seed=0)
    assert {k: len(v) for k, v in G.items()} == {3: 675, 4: 4200}
    gens = [g for k in sorted(G) for g in G[k]]
    C = minors_in_ideal(psi, gens, L)
    assert C.holds and C.degree == 5 and C.generators_degree == 4 and len(C.pieces) == len(minor_weights(L))
    # the independent check, on one written-out minor per orbit for the first orbits
    E = psi.domain()
    Ep = E.change_ring(GF(32003))
    D = partial_derivatives_matrix(L, Ep)
    weight = _weight_function(L)
    k = len(L.outer)
    orbit = lambda w: w[:k] + tuple(sorted(w[k:], reverse=True))
    chosen = {}
    for cols in itertools.combinations(range(D.ncols()), 5):
        f = D.matrix_from_columns(cols).det()
        if f:
            chosen.setdefault(orbit(weight(f.exponents()[0])), f)
        if len(chosen) == 6:
            break
    assert all(ideal_membership(weight, [Ep(g) for g in gens], list(chosen.values())))
    # the cubics alone do not fill the pieces of degree 5 (the quartics are minimal generators), so the
    # check does not hold for them, even where some minors lie in their ideal
    only_cubics = minors_in_ideal(psi, G[3], L)
    assert not only_cubics.holds
    S = subspace_certificate(G[3], psi, L, 4, seed=0)
    assert not S.proved and "partial_minors" in S.reason and not S.minors_check.holds


def test_the_base_of_quadrics_with_a_common_factor_is_birational():
    # the base of X' of the slice of width 4 and rank 2 (pairs of quadrics in 4 features, in 3 linear forms)
    # is the pairs of ternary quadrics with a common linear factor: proved by its birational inverse, and
    # the whole ideal of X' follows (generated in degrees 3 and 4); verify() re-checks all of it
    M = LightningAttention(d=4, t=2, a=2, out=1, entries=[(1, 1)])
    psi, L = columns_structure(matrix_factorization(M.essential_parametrization()), M.linear_form_structure())
    Gb, Cb, _ = base_kernel(L, 4, seed=0)
    assert Cb.proved and Cb.method == "birational" and {k: len(v) for k, v in Gb.items()} == {3: 4, 4: 15}
    G = graded_kernel(psi, 4, seed=0)
    S = subspace_certificate([g for k in sorted(G) for g in G[k]], psi, L, 4, seed=0)
    assert S.proved and S.base_certificate.method == "birational" and S.minors_check is None and S.verify()


def test_the_check_of_the_minors_keeps_the_time_limit(monkeypatch):
    # the check runs in a forked child under the certificate's time limit (its pieces of degree m + 1 can be
    # large): a slow check gives "not proved" with the reason, in about the limit; a generator that is not
    # homogeneous for the grading by forms and features is refused with its reason
    import time
    import sage_attention.ideals.proofs.subspace as subspace
    M5 = LightningAttention(d=5, t=1, a=1)
    phi, L = M5.essential_parametrization(), M5.linear_form_structure()
    y = phi.domain().gens()
    S = subspace_certificate([y[0] * y[1] - y[2] ** 2 + y[3] * y[4] * y[5]], phi, L, 3, timeout=60)
    assert not S.proved and "not homogeneous" in S.reason
    monkeypatch.setattr(subspace, "minors_in_ideal", lambda *args, **kwargs: time.sleep(120))
    t0 = time.time()
    S = subspace_certificate([], phi, L, 3, timeout=1)
    assert time.time() - t0 < 30 and not S.proved and "did not finish in 1 s" in S.reason
