"""
Tests of the whole-ideal proof by a Segre product (sage_attention.ideals.proofs.segre).

The mathematics is checked against independent computations: Singular's
elimination over QQ (the kernel of the parametrization), the Hilbert series of
the reduction of the ideal found (Singular, the localization route), and the
degree of the variety from the Harris-Tu formula for symmetric determinantal
varieties times the degree of a Segre product. Soundness: a wrong ideal is
never proved (a dropped generator, a square, a product with the maximal
ideal), and a false hypothesis on the degrees found is caught by verify().
"""
import json
from math import comb, prod
from fractions import Fraction

import pytest

from sage.all__sagemath_singular import QQ, PolynomialRing

from sage_attention import LightningAttention
from sage_attention.ideals.proofs.completeness import completeness_certificate
from sage_attention.ideals.engine.graded_kernel import graded_kernel
from sage_attention.ideals.hilbert import reduction, series_data
from sage_attention.ideals.implicitization import implicitize
from sage_attention.ideals.proofs.segre import segre_certificate, segre_completeness, segre_factorization, segre_hilbert

from helpers import slice_model


@pytest.fixture(scope="module")
def engine():
    out = {}
    for d in (3, 4):
        M = slice_model(d)
        R = implicitize(M, 3, seed=0, executor=False, prove=False)
        out[d] = (M, list(R.essential_generators), R)
    return out


def harris_tu_rank_two(n):
    """Degree of the n x n symmetric matrices of rank <= 2 (Harris-Tu 1984)."""
    r = 2
    return int(prod(Fraction(comb(n + a, n - r - a), comb(2 * a + 1, a)) for a in range(n - r)))


def test_factorization_found_exactly_for_rank_one_slices():
    for d in (2, 3, 4):
        F = segre_factorization(slice_model(d).essential_parametrization())
        assert F is not None and F.check()
        assert [str(b) for b in F.block] == [f"q1{j}" for j in range(1, d + 1)]
        assert F.rank == d * (d + 1) // 2
    for M in (slice_model(3, a=2), slice_model(3, a=3), LightningAttention(d=3, t=1, a=1)):
        assert segre_factorization(M.essential_parametrization()) is None, M
    # every entry of one output row: the same product (the other entries are linear in the first one's)
    F = segre_factorization(LightningAttention(d=2, t=2, a=1).essential_parametrization())
    assert F is not None and F.rank == 3


def test_linear_in_a_block_but_not_injective_is_no_segre_product():
    # y = (s b0, t b0, (s + t) b0, s b1): linear in b, but A has rank 3 < 4 ...
    P = PolynomialRing(QQ, "s,t,b0,b1")
    s, t, b0, b1 = P.gens()
    R = PolynomialRing(QQ, "y", 4)
    assert segre_factorization(R.hom([s * b0, t * b0, (s + t) * b0, s * b1], P)) is None
    # ... and with the fourth coordinate t b1 it is the Segre product of a plane with a line
    F = segre_factorization(R.hom([s * b0, t * b0, s * b1, t * b1], P))
    assert F is not None and F.rank == 2 and len(F.block) == 2


@pytest.mark.parametrize("d", [3, 4])
def test_degree_against_harris_tu_and_series_against_singular(engine, d):
    M, gens, R = engine[d]
    E = M.essential_ring()
    S = segre_certificate(gens, M.essential_parametrization(), R.complete_through_degree, seed=0)
    assert S.proved, S.reason
    # the degree of the Segre product of Y (rank <= 2 symmetric, dim 2d - 1) with P^{d-1}
    assert S.hilbert.degree == harris_tu_rank_two(d) * comb((2 * d - 2) + (d - 1), d - 1)
    assert S.hilbert.dimension == (2 * d - 1) + d - 1 == M.dimension(seed=0)
    # the Hilbert series of the reduction of the ideal found (Singular), another computation
    assert series_data(reduction(gens, E, 32003)) == (S.hilbert.numerator, S.hilbert.dimension,
                                                      S.hilbert.degree)
    assert S.verify()


def test_degree_of_width_five_against_harris_tu():
    M = slice_model(5)
    R = implicitize(M, 3, seed=0, executor=False)
    assert R.proved_complete and R.certificate.method == "segre"
    assert R.certificate.hilbert.degree == 35 * comb(8 + 4, 4) == harris_tu_rank_two(5) * 495


def test_ideal_against_elimination_and_the_localization():
    # width 2: Singular's elimination over QQ (the kernel of the parametrization)
    M = slice_model(2)
    R = implicitize(M, 3, seed=0, executor=False)
    assert R.proved_complete and R.certificate.method == "segre"
    K = M.essential_parametrization().kernel()
    assert M.essential_ring().ideal(list(R.essential_generators)) == K
    # width 3 (its elimination takes minutes): the proof by localization, which shares nothing with this one
    M = slice_model(3)
    R = implicitize(M, 3, seed=0, executor=False)
    assert R.proved_complete and R.certificate.method == "segre"
    C = completeness_certificate(list(R.essential_generators), M.essential_ring(), M.dimension(seed=0))
    assert C.proved and C.method == "localization" and C.verify()
    assert (C.hilbert.numerator, C.hilbert.degree) == (R.certificate.hilbert.numerator, R.certificate.hilbert.degree)


def test_factor_ideal_is_independent_of_the_engine():
    # I(Y) for d = 3 is the determinant of the symmetric 3 x 3 matrix (3 x 3 minors)
    F = segre_factorization(slice_model(3).essential_parametrization())
    G = graded_kernel(F.factor_map(), 4, seed=1)
    assert {k: len(v) for k, v in G.items()} == {3: 1}
    psi = F.factor_map()
    assert psi(G[3][0]) == 0
    K = psi.kernel()
    assert K == K.ring().ideal(G[3])


def test_wrong_ideals_are_never_proved(engine):
    M, gens, R = engine[3]
    E, phi = M.essential_ring(), M.essential_parametrization()
    cubics = [g for g in gens if g.degree() == 3]
    quadrics = [g for g in gens if g.degree() == 2]
    # a dropped cubic: complete only through degree 2, and the proof needs 3
    dropped = quadrics + cubics[1:]
    C = segre_completeness(dropped, E, 7, phi, 2, method="segre")
    assert not C.proved and "through degree 2" in C.reason
    # the same with the false claim "complete through 3": verify() catches it
    S = segre_certificate(dropped, phi, 3, seed=0)
    assert S.proved and not S.verify()
    assert any(rank < want for _, rank, want in S.span_checks())
    # the square of the ideal, and its product with the maximal ideal, claimed complete through degree 3:
    # the independent rank check finds degree 2 not spanned, so verify() fails
    square = [f * g for f in quadrics[:5] for g in quadrics[:5]]
    for wrong in (square, [x * g for x in E.gens() for g in quadrics]):
        S = segre_certificate(wrong, phi, 3, seed=0)
        (_, r1, w1), (_, r2, w2) = S.span_checks()[:2]
        assert (r1, w1) == (0, 0) and r2 == 0 < w2 == 45
        assert not S.verify()


def test_timeout_and_json(engine):
    M, gens, R = engine[3]
    phi = M.essential_parametrization()
    S = segre_certificate(gens, phi, 3, seed=0, timeout=0)
    assert not S.proved and "did not finish" in S.reason
    S = segre_certificate(gens, phi, 3, seed=0)
    D = json.loads(json.dumps(S.to_dict()))
    assert D["block"] == ["q11", "q12", "q13"] and D["generation_degree"] == 3
    assert D["factor_generators"] == {"3": [str(g) for g in S.factor_generators[3]]}


def test_default_call_proves_by_segre_and_degree_uses_it():
    from sage_attention.variety.neurovariety import Neurovariety
    M = slice_model(4)
    X = Neurovariety(M)
    R = X.vanishing_ideal_report()
    assert R.proved_complete and R.certificate.method == "segre"
    assert R.certificate.verify()
    assert X.degree() == 840 == harris_tu_rank_two(4) * comb(9, 3)
    assert X.krull_dimension() == 10


def test_segre_hilbert_of_products_of_projective_spaces():
    t = PolynomialRing(QQ, "t").gen()
    # P^{a-1} x P^{s-1}: degree binom(a + s - 2, a - 1)
    for a in range(1, 5):
        for s in range(1, 5):
            num, dim, deg = segre_hilbert(t.parent().one(), a, s)
            assert dim == a + s - 1 and deg == comb(a + s - 2, a - 1)
