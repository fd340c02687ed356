"""
Tests of the whole-ideal proof by inheritance from fewer features (sage_attention.ideals.proofs.subspace)
and of the structure it rests on (sage_attention.models.linear_forms).

Independent checks: the model's claim "the coordinates are the coefficients of
(v.x) sum_r (k_r.x)(q_r.x)" against the cubic expanded here by Sage at random
weights; the proved ideal of the token of width 4 and rank 1 against the
evaluation at random points in degree 5 (no new generator there, as the theorem
says); the ideal of the base variety composed with its own parametrization.
Soundness: a wrong polynomial P, a dropped generator, too low a degree bound and
a model with no such structure are never proved.
"""
import random
from dataclasses import replace

from sage.all__sagemath_singular import QQ, PolynomialRing, vector

from sage_attention import LightningAttention
from sage_attention.ideals.engine.graded_kernel import kernel_spans
from sage_attention.ideals.implicitization import implicitize
from sage_attention.ideals.proofs.form_coordinates import base_map, structure_holds
from sage_attention.ideals.proofs.subspace import subspace_certificate


def _forms_by_hand(M, weights):
    # the forms of the model expanded by Sage from its weight matrices at the given values, independently
    # of the structure: the cubic (v.x) (x^T K^T Q x) of a token, the quadrics (v.x) (x^T K^T Q e_c) of a
    # slice (c = 1..d, the columns of A = K^T Q), with v the row of V of the output entry
    (Q, K, V), = M.weight_matrices()
    Qv, Kv, Vv = (X.apply_map(lambda w: weights[str(w)], QQ) for X in (Q, K, V))
    R = PolynomialRing(QQ, "x", M.d)
    x = vector(R.gens())
    (row, _), = M.output_entries()
    v = Vv.row(row - 1) * x
    A = Kv.transpose() * Qv
    if M.tokens == 1:
        return R, [v * (x * A * x)]
    return R, [v * (x * A.column(c)) for c in range(M.d)]


def test_the_structure_is_that_of_the_forms_expanded_by_hand():
    rng = random.Random(5)
    models = [dict(d=d, t=1, a=a) for d, a in [(2, 1), (3, 1), (4, 1), (3, 2), (4, 2)]]
    models += [dict(d=d, t=t, a=a, out=1, entries=[(1, 1)]) for d, t, a in [(2, 2, 1), (3, 2, 2), (4, 3, 2), (3, 3, 3)]]
    for kw in models:
        for scaling in ("raw", "scaled"):
            M = LightningAttention(coordinate_scaling=scaling, **kw)
            L = M.linear_form_structure()
            m = 2 * kw["a"] + 1 if kw["t"] == 1 else kw["a"] + 1
            assert (L.nfeatures, L.nforms) == (kw["d"], m)
            assert L.degrees() == ((3,) if kw["t"] == 1 else (2,) * kw["d"])
            phi = M.essential_parametrization()
            weights = {str(w): QQ(rng.randint(-9, 9)) for w in phi.codomain().gens()}
            R, forms = _forms_by_hand(M, weights)
            values = [phi(y)(**weights) for y in M.essential_ring().gens()]
            for value, (o, exps, scale) in zip(values, L.monomials):
                assert forms[o].monomial_coefficient(R.monomial(*exps)) == scale * value
            assert structure_holds(phi, L)


def test_a_wrong_structure_is_refused():
    M = LightningAttention(d=4, t=1, a=1)
    phi, L = M.essential_parametrization(), M.linear_form_structure()
    s = L.outer[0].parent().gens()
    mons = L.monomials
    bad = [replace(L, outer=(s[0] ** 2 * s[1],)),                              # another P
           replace(L, outer=(2 * L.outer[0],)),                                # a multiple
           replace(L, linear_forms=L.linear_forms[:2]),                        # a linear form dropped
           replace(L, monomials=mons[1:] + mons[:1]),                          # monomials misplaced
           replace(L, monomials=((0, mons[0][1], 2),) + mons[1:])]             # a wrong scale
    for B in bad:
        assert not structure_holds(phi, B)
        assert not subspace_certificate([], phi, B, 4, seed=0).proved
    assert structure_holds(phi, L)
    # on a slice, the query's entries as coefficients: exchanging two of them is refused
    S = LightningAttention(d=3, t=2, a=1, out=1, entries=[(1, 1)])
    T = S.linear_form_structure()
    swapped = replace(T, outer=(T.outer[1], T.outer[0]) + T.outer[2:])
    assert structure_holds(S.essential_parametrization(), T)
    assert not structure_holds(S.essential_parametrization(), swapped)


def test_the_token_of_width_four_is_proved_and_degree_five_has_no_new_generator():
    M = LightningAttention(d=4, t=1, a=1)
    R = implicitize(M, 4, seed=0)
    C = R.certificate
    assert R.proved_complete and C.method == "subspace" and C.verify()
    S = C.subspace
    assert S.generation_degree == 4 and sorted(S.base_generators) == [4]
    # the base ideal (split ternary cubics, 35 quartics) vanishes on its own parametrization
    psi = base_map(M.linear_form_structure())
    assert len(S.base_generators[4]) == 35 and all(psi(g) == 0 for g in S.base_generators[4])
    # independent: in degree 5 the multiples of the 1085 quartics span the whole kernel of the
    # parametrization (rank of the multiples against the evaluation at random points)
    phi = M.essential_parametrization()
    assert [(k, r) for k, r, _ in kernel_spans(phi, list(R.essential_generators), 5, seed=11)][3:] == \
        [(4, 1085), (5, 11648)]
    assert all(r == dim for _, r, dim in kernel_spans(phi, list(R.essential_generators), 5, seed=11))


def test_what_is_not_proved():
    M = LightningAttention(d=4, t=1, a=1)
    phi, L = M.essential_parametrization(), M.linear_form_structure()
    gens = implicitize(M, 4, seed=0, prove=False).essential_generators
    # a dropped generator is proved from the (false) degree claim, and caught by verify()
    S = subspace_certificate(gens[1:], phi, L, 4, seed=0)
    assert S.proved and not S.verify()
    # through degree 3 the base ideal (quartics) and the 4-minors are out of reach
    assert not subspace_certificate(gens, phi, L, 3, seed=0).proved
    # a token with as many features as linear forms, and two tokens, are not such a proof
    T = LightningAttention(d=3, t=1, a=1)
    assert not subspace_certificate([], T.essential_parametrization(), T.linear_form_structure(), 4).proved
    U = LightningAttention(d=3, t=2, a=1, out=1)
    assert U.linear_form_structure() is None
    # over GF(p) the theorem (characteristic 0) is not used
    from sage.all__sagemath_singular import GF
    P = LightningAttention(d=4, t=1, a=1, base_ring=GF(32003))
    assert "characteristic 0" in subspace_certificate([], P.essential_parametrization(),
                                                      P.linear_form_structure(), 4).reason


def test_the_columns_of_a_slice_by_inheritance_from_fewer_features():
    # the slice of width 4 and rank 2 is a matrix product whose variety X' of two columns (pairs of
    # quadrics with a common linear factor, 20 coordinates) is a variety of forms in 3 linear forms of 4
    # features: its ideal is proved from the 12 coordinates of 3 features; independently, the
    # localization proves the same generators of X' whole (Hilbert series and primality modulo p)
    from sage_attention.ideals.proofs.completeness import completeness_certificate
    from sage_attention.ideals.proofs.inheritance import matrix_factorization
    from sage_attention.ideals.engine.graded_kernel import jacobian_rank
    M = LightningAttention(d=4, t=2, a=2, out=1, entries=[(1, 1)])
    R = implicitize(M, 4, seed=0)
    assert R.proved_complete and R.certificate.method == "inheritance"
    S = R.certificate.inheritance
    assert S.sub_certificate.method == "subspace" and S.sub_certificate.subspace.verify()
    assert {k: len(v) for k, v in S.sub_generators.items()} == {3: 40, 4: 125}
    _, psi = matrix_factorization(M.essential_parametrization()).sub_map()
    gens = [g for k in sorted(S.sub_generators) for g in S.sub_generators[k]]
    assert all(psi(g) == 0 for g in gens)
    n = jacobian_rank([psi(u) for u in psi.domain().gens()], 32003, 1)
    C = completeness_certificate(gens, psi.domain(), n, timeout=None, method="localization")
    assert C.proved and C.method == "localization"


def test_the_minors_of_the_partial_derivatives_are_the_quartics_beyond_three_features():
    # the two parts of the theorem on the token of width 4 and rank 1: the 4-minors of the 4 x 10
    # matrix of the first partial derivatives of the cubic (the cubics in 3 linear forms) are 210
    # independent quartics inside the engine's 1085; the other 875 are the inherited ones (Brill's
    # equations, S_(7,3,2): sage_attention.invariants.brill), 875 + 210 = 1085
    from sage.all__sagemath_singular import GF, Sequence, matrix
    from sage.arith.misc import binomial
    M = LightningAttention(d=4, t=1, a=1)
    L = M.linear_form_structure()
    E = M.essential_ring()
    coefficient = {a: scale * y for y, (_, a, scale) in zip(E.gens(), L.monomials)}
    betas = sorted({tuple(b) for b in _exponents(4, 2)}, reverse=True)
    D = matrix(E, 4, len(betas), lambda i, j: (betas[j][i] + 1) *
               coefficient[tuple(b + (1 if k == i else 0) for k, b in enumerate(betas[j]))])
    minors = D.minors(4)
    assert len(minors) == binomial(10, 4) == 210
    gens = implicitize(M, 4, seed=0, prove=False).essential_generators
    A, _ = Sequence(list(gens) + minors).coefficients_monomials()
    A = A.change_ring(GF(32003))
    assert A.rank() == 1085 and A[1085:].rank() == 210


def _exponents(n, e):
    # the exponent vectors of the monomials of degree e in n variables
    if n == 1:
        return [(e,)]
    return [(k,) + rest for k in range(e + 1) for rest in _exponents(n - 1, e - k)]


def _products_of_two_linear_forms(n=4):
    # the quadrics (w_0 . x)(w_1 . x) in n features, built by hand: forms in m = 2 linear forms
    from itertools import combinations_with_replacement
    from sage_attention.models.linear_forms import LinearFormStructure
    exps = []
    for i, j in combinations_with_replacement(range(n), 2):
        a = [0] * n
        a[i] += 1
        a[j] += 1
        exps.append(tuple(a))
    names = ["c" + "".join(map(str, a)) for a in exps]
    weights = [f"u{i}" for i in range(n)] + [f"v{i}" for i in range(n)]
    E, Wr = PolynomialRing(QQ, names), PolynomialRing(QQ, weights)
    X = PolynomialRing(Wr, [f"x{i}" for i in range(n)])
    x = X.gens()
    q = sum(Wr(f"u{i}") * x[i] for i in range(n)) * sum(Wr(f"v{i}") * x[i] for i in range(n))
    phi = E.hom([q.monomial_coefficient(X.monomial(*a)) for a in exps], Wr)
    S = PolynomialRing(QQ, ["s0", "s1"])
    L = LinearFormStructure(features=tuple(f"x{i}" for i in range(n)), coordinates=tuple(names),
                            monomials=tuple((0, a, 1) for a in exps),
                            linear_forms=(tuple(weights[:n]), tuple(weights[n:])), outer=(S("s0*s1"),))
    return phi, L, exps


def test_the_bound_is_the_number_of_linear_forms_plus_one():
    # The quadrics in 4 features that split into 2 linear forms (the symmetric 4 x 4 matrices of rank
    # at most 2): the theorem bounds the generation degree by max(r, m + 1) = 3 (the base, binary
    # quadrics, fills its space), so the cubics found prove the whole ideal; the bound max(r, n) of
    # an earlier version needed degree 4. Independently: the 3-minors of the generic symmetric matrix
    # generate a prime ideal (Kutz 1974) whose zeros are the matrices of rank at most 2, so they generate
    # the ideal; the ideal they generate equals the one of the generators found.
    from sage.all__sagemath_singular import matrix
    from sage_attention.ideals.engine.graded_kernel import graded_kernel
    from sage_attention.ideals.proofs.subspace import minors_degree
    phi, L, exps = _products_of_two_linear_forms(4)
    assert structure_holds(phi, L) and minors_degree(L) == 3
    G = graded_kernel(phi, 3, seed=0)
    gens = [g for k in sorted(G) for g in G[k]]
    assert {k: len(v) for k, v in G.items()} == {3: 10}
    S = subspace_certificate(gens, phi, L, 3, seed=0)
    assert S.proved and S.generation_degree == 3 and S.verify()
    E = phi.domain()
    coord = dict(zip(exps, E.gens()))

    def entry(i, j):
        a = [0] * 4
        a[i] += 1
        a[j] += 1
        return coord[tuple(a)] * (1 if i == j else QQ(1) / 2)
    Sym = matrix(E, 4, 4, entry)
    assert E.ideal(Sym.minors(3)) == E.ideal(gens)
    # through degree 2 nothing is proved; a dropped cubic is caught by verify()
    assert not subspace_certificate([], phi, L, 2, seed=0).proved
    T = subspace_certificate(gens[1:], phi, L, 3, seed=0)
    assert T.proved and not T.verify()


def test_the_token_of_width_five_is_proved_through_degree_four():
    # m + 1 = 4 for the split cubics (m = 3 linear forms) whatever the width: the default call through
    # degree 4 proves the token of width 5 (the bound n = 5 of an earlier version needed degree 5);
    # verify() re-checks the base ideal, the degrees and that the 14175 quartics span degree 4
    M = LightningAttention(d=5, t=1, a=1)
    R = implicitize(M, 4, seed=0)
    assert R.proved_complete and R.certificate.method == "subspace"
    S = R.certificate.subspace
    assert S.generation_degree == 4 and len(R.generators_by_degree[4]) == 14175
    assert S.verify()


def test_linear_forms_fewer_than_the_minors_need_no_minor():
    # two linear forms (w_0 . x, w_1 . x) in 3 features: the matrix of partial derivatives has 2
    # columns, fewer than m + 1 = 3, so no step of the theorem has a minor; the variety fills its space
    # (the zero ideal) and the certificate says so without naming minors
    from sage_attention.models.linear_forms import LinearFormStructure
    from sage_attention.ideals.proofs.subspace import minors_degree
    n = 3
    names = [f"c{o}_{i}" for o in range(2) for i in range(n)]
    weights = [f"u{i}" for i in range(n)] + [f"v{i}" for i in range(n)]
    E, Wr = PolynomialRing(QQ, names), PolynomialRing(QQ, weights)
    phi = E.hom([Wr(w) for w in weights], Wr)
    S = PolynomialRing(QQ, ["s0", "s1"])
    unit = [tuple(int(i == j) for j in range(n)) for i in range(n)]
    L = LinearFormStructure(features=tuple(f"x{i}" for i in range(n)), coordinates=tuple(names),
                            monomials=tuple((o, unit[i], 1) for o in range(2) for i in range(n)),
                            linear_forms=(tuple(weights[:n]), tuple(weights[n:])), outer=(S("s0"), S("s1")))
    assert structure_holds(phi, L) and minors_degree(L) is None
    C = subspace_certificate([], phi, L, 1, seed=0)
    assert C.proved and C.generation_degree == 1 and "minors" not in C.reason and C.verify()
