"""
Tests of the whole-ideal proof by localization (sage_attention.ideals.localization,
sage_attention.ideals.completeness).

Soundness: a wrong ideal is never proved (a dropped generator, an embedded
component, a union with a linear space of the same dimension, the square of a
prime), on engine ideals and on small ideals. Every proof is re-checked by
independent code: Singular's primary decomposition (minAssGTZ) over GF(p) where
it finishes, the certificate's own data re-verified, and Singular's elimination
over QQ (the kernel of the parametrization) for the ideal it proves complete.
"""
import random

import pytest

from sage.all__sagemath_singular import GF, QQ, PolynomialRing
from sage.libs.singular.function import lib as singular_lib, singular_function

from sage_attention import LightningAttention
from sage_attention.ideals.completeness import completeness_certificate
from sage_attention.ideals.hilbert import reduction
from sage_attention.ideals.implicitization import implicitize
from sage_attention.ideals.localization import localization_certificate

P = 32003

# the rows of the one-entry table that primary decomposition could not prove in seconds
ROWS = {
    "slice-d2-t2-a1": dict(d=2, t=2, a=1, out=1, entries=[(1, 1)]),
    "token-d3-a1": dict(d=3, t=1, a=1),
    "slice-d3-t2-a1": dict(d=3, t=2, a=1, out=1, entries=[(1, 1)]),
    "slice-d3-t2-a2": dict(d=3, t=2, a=2, out=1, entries=[(1, 1)]),
    "slice-d3-t2-a3": dict(d=3, t=2, a=3, out=1, entries=[(1, 1)]),
    "slice-d4-t2-a1": dict(d=4, t=2, a=1, out=1, entries=[(1, 1)]),
}


def singular_prime(J):
    """Whether J (over GF(p)) is prime, by Singular's minAssGTZ (independent of the certificate)."""
    singular_lib("primdec.lib")
    Q = list(singular_function("minAssGTZ")(J))
    if len(Q) != 1:
        return False
    G = J.groebner_basis()
    return all(g.reduce(G) == 0 for g in Q[0])


@pytest.fixture(scope="module")
def rows():
    out = {}
    for name, kw in ROWS.items():
        M = LightningAttention(**kw)
        R = implicitize(M, 4, seed=0, executor=False, prove=False)
        out[name] = (M, M.essential_ring(), list(R.essential_generators), M.dimension(seed=0))
    return out


@pytest.mark.parametrize("name", sorted(ROWS))
def test_rows_proved_and_certificate_reverified(rows, name):
    M, E, gens, n = rows[name]
    C = completeness_certificate(gens, E, n, timeout=120)
    assert C.proved, C.reason
    assert C.method == "localization"
    # the certificate's data, checked again from scratch
    assert C.verify()
    P_ = C.primality
    assert len(P_.independent) == n and P_.delta >= 1
    # the certificate is about J_p itself (or its image under the recorded linear change)
    Jp = reduction(gens, E, P)
    assert P_.original is None or P_.original == Jp
    if P_.change is None:
        assert P_.ideal == Jp
    # the Hilbert-series equalities recorded hold
    assert all(left == right for _, left, right in P_.hilbert_checks)


@pytest.mark.parametrize("name", ["slice-d3-t2-a1"])
def test_proof_agrees_with_primary_decomposition(rows, name):
    # (minAssGTZ does not finish in minutes on the other rows)
    M, E, gens, n = rows[name]
    assert completeness_certificate(gens, E, n, timeout=120).proved
    assert singular_prime(reduction(gens, E, P))


def test_proved_ideal_is_the_kernel_over_QQ():
    # the d = 3, a = 1 slice: proved by localization; Singular's elimination over QQ gives the same
    # ideal (elimination does not finish in minutes for the ranks 2 and 3)
    M = LightningAttention(**ROWS["slice-d3-t2-a1"])
    R = implicitize(M, 4, seed=0, executor=False)
    assert R.proved_complete, R.proof
    from sage_attention.ideals.elimination import eliminate
    assert R.ideal == eliminate(M).ideal


def _wrong_ideals(J, n):
    """Ideals over GF(p), not equal to the prime J, whose dimension is that of J."""
    S = J.ring()
    y = S.gens()
    gens = list(J.gens())
    m = S.ideal(list(y))
    L = S.ideal(list(y[n:]))            # a coordinate subspace of the same dimension
    yield "dropped generator", gens[:-1]
    yield "dropped first generator", gens[1:]
    yield "embedded component (J * m)", list((J * m).gens())
    yield "union with a linear space of the same dimension", list(J.intersection(L).gens())
    if len(gens) <= 12:                 # (the square of a larger ideal is slow to build)
        yield "square", list((J * J).gens())


@pytest.mark.parametrize("name", ["slice-d2-t2-a1", "slice-d3-t2-a1", "token-d3-a1", "slice-d3-t2-a2"])
def test_wrong_ideals_never_proved(rows, name):
    M, E, gens, n = rows[name]
    J = reduction(gens, E, P)
    assert completeness_certificate(list(J.gens()), J.ring(), n, timeout=120).proved
    for what, wrong in _wrong_ideals(J, n):
        W = J.ring().ideal(wrong)
        assert W != J, what                 # it is really another ideal
        C = completeness_certificate(wrong, J.ring(), n, timeout=120, method="localization")
        assert not C.proved, (what, C.reason)


def _primes_and_non_primes(R, rng):
    """Small homogeneous ideals over GF(p), with the truth from Singular."""
    x = R.gens()
    k = R.base_ring()

    def lin():
        return sum(k(rng.randrange(P)) * v for v in x)

    def change(I):
        # a random linear change of coordinates (keeps primality)
        images = [lin() for _ in x]
        return R.ideal([g(*images) for g in I.gens()])
    twisted = R.ideal([x[0] * x[2] - x[1] ** 2, x[1] * x[3] - x[2] ** 2, x[0] * x[3] - x[1] * x[2]])
    cone = R.ideal([x[0] * x[1] - x[2] ** 2])
    ci = R.ideal([lin() * lin() + lin() ** 2, lin() * lin()])
    plane = R.ideal([x[0], x[1]])
    out = [twisted, change(twisted), cone, change(cone), ci, plane]
    out += [twisted * cone, twisted.intersection(change(twisted)), cone * cone, twisted * R.ideal(list(x)),
            twisted.intersection(plane), R.ideal([x[0] * x[1], x[0] * x[2]]), change(R.ideal([x[0] ** 2, x[1]]))]
    return out


def test_small_ideals_agree_with_singular():
    R = PolynomialRing(GF(P), "x", 4, order="degrevlex")
    rng = random.Random(1)
    proved = 0
    for J in _primes_and_non_primes(R, rng) + _primes_and_non_primes(R, rng):
        dim = J.dimension()
        C = localization_certificate(J, dim, seed=0)
        truth = singular_prime(J)
        if C.proved:
            proved += 1
            assert truth, (J, C)
            assert C.verify()
        # a certificate is never proved in a wrong dimension
        assert not localization_certificate(J, dim + 1, seed=0).proved
    assert proved >= 8          # the primes are found, not only refused


def test_tampered_certificate_fails():
    R = PolynomialRing(GF(P), "x", 4, order="degrevlex")
    x = R.gens()
    C = localization_certificate(R.ideal([x[0] * x[2] - x[1] ** 2, x[1] * x[3] - x[2] ** 2,
                                          x[0] * x[3] - x[1] * x[2]]), 2, seed=0)
    assert C.verify()
    # a claimed dimension that is not the ideal's
    C.dimension = 3
    assert not C.verify()
    C.dimension = 2
    # a denominator that is not the one of the data
    f = C.denominator
    C.denominator = f * x[0] + f
    assert not C.verify()


def test_default_implicitize_proves_without_decomposition():
    # the default call proves the d = 3 slice of rank 2 by localization (no primary decomposition)
    R = implicitize(LightningAttention(**ROWS["slice-d3-t2-a2"]), 4, seed=0, executor=False)
    assert R.proved_complete
    assert R.certificate.method == "localization"
    assert "localization" in R.proof
    assert R.to_dict()["certificate"]["localization"]["delta"] == 2


def test_prove_false_and_not_prime_field():
    R = implicitize(LightningAttention(**ROWS["slice-d3-t2-a1"]), 3, seed=0, executor=False, prove=False)
    assert not R.proved_complete and R.certificate is None
    S = PolynomialRing(QQ, "x", 3)
    with pytest.raises(ValueError, match="prime field"):
        completeness_certificate([S.gen(0)], S.change_ring(GF(9, "a")), 2)


def _conjugate_points(degree, h):
    """The prime ideal over GF(p) of `degree` conjugate points (alpha : h(alpha) : 1) of the plane,
    by elimination (independent of the certificate)."""
    F = GF(P)
    g = PolynomialRing(F, "a").irreducible_element(degree)
    T = PolynomialRing(F, "a,s,x,y,t")
    a, s, x, y, t = T.gens()
    E = T.ideal([g(a), x - a * s, y - h(a) * s, t - s]).elimination_ideal([a, s])
    R = PolynomialRing(F, "x,y,t")
    return R.ideal(R.ideal([R(str(q)) for q in E.gens()]).interreduced_basis())


def test_the_lex_basis_of_a_subset_with_extra_points_is_not_used():
    # eight conjugate points lie on two cubics, which meet in a ninth point: the lex basis of
    # the cubics alone has delta = 9 and a reducible m, so the certificate must go on to all
    # the generators (the quartics remove the ninth point) and prove delta = 8
    J = _conjugate_points(8, lambda a: a ** 5 + 3 * a ** 3 - a + 7)
    R = J.ring()
    cubics = [g for g in J.gens() if g.degree() == 3]
    assert sorted(g.degree() for g in J.gens()) == [3, 3, 4, 4] and singular_prime(J)
    Q = R.ideal(cubics)
    assert Q.dimension() == 1 and Q.hilbert_polynomial() == 9   # nine points
    assert not singular_prime(Q)
    C = localization_certificate(J, 1)
    assert C.proved and C.delta == 8 and C.verify()
    assert "lex basis (attempt 1, generators of degree at most 3)" in C.timings   # tried first
    assert "lex basis (attempt 1)" in C.timings                                   # then all
    assert not localization_certificate(Q, 1).proved


def test_the_lex_basis_of_the_low_degrees_gives_the_data_of_the_whole_ideal(rows):
    # on the d = 3 slice of rank 3 the cubics are used; the data are those of all generators
    from sage_attention.ideals.localization import _shape_data
    M, E, gens, n = rows["slice-d3-t2-a3"]
    J = reduction(gens, E, P)
    C = localization_certificate(J, n)
    assert C.proved and "lex basis (attempt 1, generators of degree at most 3)" in C.timings
    assert "lex basis (attempt 1)" not in C.timings
    data, _ = _shape_data(C.ideal, C.independent)          # from every generator
    assert data[1] == C.cleared and data[2] == C.denominator and data[3] == C.delta
