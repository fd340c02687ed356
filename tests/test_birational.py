"""
Tests of the whole-ideal proof by a birational inverse (sage_attention.ideals.proofs.birational).

Independent checks: the ideal it proves for the pairs of ternary quadrics with a
common linear factor is the elimination ideal computed by Singular from a
parametrization written here (not the package's), its reduction modulo p is
prime by Singular's minAssGTZ, and its degree is the one the theorem of
sage_attention.ideals.proofs.common_factor gives (from the Hilbert series of the
elimination ideal). Soundness: a dropped generator, an embedded component (J
times the maximal ideal), the union with a linear space, the square, generators
that do not vanish and a map of another shape are never proved.
"""
import pytest
from sage.all__sagemath_singular import GF, QQ, PolynomialRing

from sage_attention import LightningAttention
from sage_attention.ideals.proofs.birational import birational_certificate, common_factor_coordinates
from sage_attention.ideals.ideal_checks import nonzerodivisor_check
from sage_attention.ideals.engine.graded_kernel import graded_kernel
from sage_attention.ideals.proofs.inheritance import inheritance_certificate, matrix_factorization
from sage_attention.ideals.implicitization import implicitize


@pytest.fixture(scope="module")
def pairs():
    # X' of the slice of width 3 and rank 2: pairs of ternary quadrics with a common linear factor
    M = LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)])
    _, psi = matrix_factorization(M.essential_parametrization()).sub_map()
    L = M.linear_form_structure().restricted(psi.domain().variable_names())
    G = graded_kernel(psi, 4, seed=0)
    return psi, L, [g for k in sorted(G) for g in G[k]]


def _elimination_ideal(psi, L):
    # the ideal of {(l m_0, l m_1)} by elimination, from the quadrics expanded here: the coefficient of
    # x_i x_j in l * m_o, divided by the scale the structure gives to that coordinate
    R = psi.domain()
    n = L.nfeatures
    T = PolynomialRing(QQ, ["l%d" % i for i in range(n)] + ["m%d_%d" % (o, i) for o in range(2) for i in range(n)]
                       + list(R.variable_names()), order="degrevlex")
    ell = T.gens()[:n]
    m = [T.gens()[n + o * n:n + (o + 1) * n] for o in range(2)]
    x = PolynomialRing(T, "x", n).gens()
    eqs = []
    for y, (o, alpha, scale) in zip(R.variable_names(), L.monomials):
        form = sum(ell[i] * x[i] for i in range(n)) * sum(m[o][i] * x[i] for i in range(n))
        mono = 1
        for i, e in enumerate(alpha):
            mono *= x[i] ** e
        eqs.append(T(y) * scale - form.monomial_coefficient(mono))
    I = T.ideal(eqs).elimination_ideal(list(T.gens()[:3 * n]))
    return R.ideal([R(str(g)) for g in I.gens()])


def test_the_proved_ideal_is_the_elimination_ideal(pairs):
    psi, L, gens = pairs
    B = birational_certificate(gens, psi, L)
    assert B.proved and B.dimension == 8 and B.verify()
    E = _elimination_ideal(psi, L)
    J = psi.domain().ideal(gens)
    assert J == E
    # the degree of the theorem of common_factor: binom(n - 1 + y, n - 1) with y = 2 (3 + 2 - 2) - 1 = 5
    assert E.dimension() == 8 and E.hilbert_polynomial().leading_coefficient() * 5040 == 21


def test_the_reduction_is_prime_by_singular(pairs):
    psi, L, gens = pairs
    B = birational_certificate(gens, psi, L)
    assert B.proved
    from sage_attention.ideals.hilbert import reduction
    Jp = reduction(gens, psi.domain(), 32003)
    primes = Jp.minimal_associated_primes()
    assert len(primes) == 1 and primes[0] == Jp and Jp.dimension() == B.dimension


def test_a_deliberately_incomplete_ideal_is_never_proved(pairs):
    psi, L, gens = pairs
    R = psi.domain()
    y = R.gens()
    J = R.ideal(gens)
    wrong = {
        "a dropped quartic": gens[:-1],
        "a dropped cubic": gens[1:],
        "an embedded component (J times the maximal ideal)": [g * v for g in gens for v in y],
        "the union with a linear space": list(J.intersection(R.ideal([y[0], y[1], y[2]])).gens()),
        "the square": [g * h for i, g in enumerate(gens) for h in gens[i:]],
    }
    for what, G in wrong.items():
        B = birational_certificate(G, psi, L)
        assert not B.proved, what
        assert not B.verify(), what
    # the embedded component passes the relations and is caught by the nonzerodivisor check
    B = birational_certificate(wrong["an embedded component (J times the maximal ideal)"], psi, L)
    assert "zerodivisor" in B.reason and B.nonzerodivisor[0] is False


def test_generators_that_do_not_vanish_and_other_shapes_are_refused(pairs):
    psi, L, gens = pairs
    y = psi.domain().gens()
    assert "does not vanish" in birational_certificate(gens + [y[0] * y[1] * y[2] * y[3]], psi, L).reason
    M = LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)])
    assert common_factor_coordinates(M.essential_parametrization(), M.linear_form_structure()) is None
    T = LightningAttention(d=3, t=1, a=2)
    assert common_factor_coordinates(T.essential_parametrization(), T.linear_form_structure()) is None
    assert common_factor_coordinates(psi, None) is None


def test_the_time_limit_of_the_groebner_basis_is_kept(pairs, monkeypatch):
    # a Groebner basis made slow (the real one of this small ideal can finish within the parent's first
    # poll): the forked check is abandoned at the limit and nothing is claimed
    import time
    import sage_attention.ideals.proofs.birational as birational
    psi, L, gens = pairs
    monkeypatch.setattr(birational, "nonzerodivisor_check", lambda gens, h: time.sleep(30))
    t0 = time.time()
    B = birational_certificate(gens, psi, L, timeout=0.5)
    assert not B.proved and "did not finish in 0.5 s" in B.reason and time.time() - t0 < 20


def test_the_nonzerodivisor_criterion_against_a_quotient_computed_by_singular():
    # h is a nonzerodivisor modulo J iff J : h = J; Singular's quotient is the independent check
    R = PolynomialRing(GF(32003), "a,b,c,d")
    a, b, c, d = R.gens()
    cases = [([a * b - c * d], a * c), ([a * b, a * c], a * d), ([a * b, a * c], b * d + c ** 2),
             ([a ** 2 - b * c, a * d], c * d)]
    for G, h in cases:
        J = R.ideal(G)
        assert nonzerodivisor_check(G, h)[0] == (J.quotient(R.ideal([h])) == J), (G, h)


def test_the_slice_of_width_3_and_full_rank_and_its_inheritance():
    # the slice of full rank 3: the birational inverse proves what the localization proves
    M = LightningAttention(d=3, t=2, a=3, out=1, entries=[(1, 1)])
    R = implicitize(M, 4, seed=0, prove=False)
    B = birational_certificate(R.essential_generators, M.essential_parametrization(), M.linear_form_structure())
    assert B.proved and B.dimension == M.dimension(seed=0) == 11
    # the slice of width 3 and rank 2 rests on the pairs, now proved by the birational inverse
    M2 = LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)])
    R2 = implicitize(M2, 4, seed=0, prove=False)
    S = inheritance_certificate(R2.essential_generators, M2.essential_parametrization(), 4, seed=0,
                                structure=M2.linear_form_structure())
    assert S.proved and S.sub_certificate.method == "birational" and S.verify()


def test_implicitize_uses_the_birational_inverse_where_the_other_proofs_do_not_reach(monkeypatch):
    # the slice of full rank 3: beyond the terms limit (here lowered to 10) a given `prove` goes to the
    # birational inverse first; the default call does not try it there
    import sage_attention.ideals.proofs.completeness as completeness
    from sage_attention.settings import settings
    M = LightningAttention(d=3, t=2, a=3, out=1, entries=[(1, 1)])
    with settings.override(PROOF_TERMS_LIMIT=10):
        R = implicitize(M, 4, seed=0, prove=120)
        assert R.proved_complete and R.certificate.method == "birational" and R.certificate.verify()
        assert "birational inverse" in R.proof
        D = implicitize(M, 4, seed=0)
        assert not D.proved_complete and "not tested" in D.proof
    # after a failed localization (here made to fail), the rest of the time goes to the birational inverse
    real = completeness.completeness_certificate

    def failing(gens, ring, dimension, **kw):
        C = real(gens, ring, dimension, **kw)
        C.proved, C.reason = False, "made to fail by the test"
        return C
    monkeypatch.setattr(completeness, "completeness_certificate", failing)
    R = implicitize(M, 4, seed=0, prove=120)
    assert R.proved_complete and R.certificate.method == "birational"
    D = implicitize(M, 4, seed=0)
    assert not D.proved_complete and "made to fail" in D.proof


def test_a_failed_proof_says_why_the_birational_inverse_failed_too(pairs):
    # the structured proof takes most of the time limit, so its failure is part of the reason
    from sage_attention.ideals.proofs.birational import birational_completeness
    psi, L, gens = pairs
    C = birational_completeness(gens[:-1], psi.domain(), 8, psi, L, timeout=60)
    assert not C.proved and C.birational is not None and not C.birational.proved
    assert "before it, the proof by a birational inverse: the cleared relation" in C.reason
