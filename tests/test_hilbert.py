"""
Tests of the modular Hilbert series, Betti numbers (sage_attention.ideals.hilbert)
and the whole-ideal proof (sage_attention.ideals.proofs.completeness) against Singular
over QQ, and of the proof's soundness: an ideal with one generator dropped is
never proved complete (more in tests/test_completeness.py).
"""
import pytest

from sage.all__sagemath_singular import QQ, PolynomialRing, ZZ
from sage_attention import LightningAttention
from sage_attention.ideals.implicitization import implicitize
from sage_attention.ideals.hilbert import hilbert_data
from sage_attention.ideals.proofs.completeness import completeness_certificate

from helpers import shown


CASES = [
    dict(d=2, t=2, a=1, out=1, entries=[(1, 1)]),
    dict(d=2, t=2, a=2, out=1, entries=[(1, 1)]),
    dict(d=2, t=2, a=1, out=2),
    dict(d=3, t=2, a=1, out=1, entries=[(1, 1)]),
]
SMALL = CASES[:3]


def _qq_data(gens, ring, betti=True):
    """Hilbert numerator, dimension, degree and Betti numbers over QQ (Singular, no reduction mod p)."""
    J = ring.ideal(list(gens))
    S = PolynomialRing(ZZ, "t")
    t = S.gen()
    num = S(list(J.hilbert_numerator()))
    dim = ring.ngens()
    while num(1) == 0:
        num = num // (1 - t)
        dim -= 1
    if not betti:
        return num, dim, int(num(1)), None
    res = J.graded_free_resolution(algorithm="minimal")
    betti, i = [], 0
    while res.betti(i):
        betti.append({int(k): int(v) for k, v in sorted(res.betti(i).items())})
        i += 1
    return num, dim, int(num(1)), betti


@pytest.mark.parametrize("kw", SMALL)
def test_modular_data_equal_rational(kw):
    M = LightningAttention(**kw)
    R = implicitize(M, 4, seed=0, executor=False, prove=False)
    E = M.essential_ring()
    H = hilbert_data(R.essential_generators, E)
    num, dim, deg, betti = _qq_data(R.essential_generators, E)
    assert H.agree
    assert (H.numerator, H.dimension, H.degree) == (num, dim, deg)
    assert H.betti == betti
    # the dimension is the Jacobian rank (an independent computation)
    assert H.dimension == M.dimension(seed=0)


@pytest.mark.parametrize("kw", SMALL)
def test_proof_agrees_with_kernel(kw):
    M = LightningAttention(**kw)
    R = implicitize(M, 4, seed=0, executor=False, prove=60)
    assert R.proved_complete
    assert R.ideal == M.parametrization().kernel()      # Singular elimination over QQ


@pytest.mark.parametrize("kw", SMALL)
def test_dropped_generator_never_proved(kw):
    M = LightningAttention(**kw)
    R = implicitize(M, 4, seed=0, executor=False, prove=False)
    E = M.essential_ring()
    gens = list(R.essential_generators)
    n = M.dimension(seed=0)
    for i in sorted({0, len(gens) // 2, len(gens) - 1}):
        part = gens[:i] + gens[i + 1:]
        # the dropped generator is really missing (over QQ)
        assert gens[i] not in E.ideal(part if part else [E.zero()])
        C = completeness_certificate(part, E, n, timeout=60)
        assert not C.proved, C.reason


def test_slice_d3_rank1_proved_and_data_agree_with_rational():
    # the d = 3, rank 1 slice: proved complete, and its modular Hilbert series equals Singular's over QQ
    M = LightningAttention(**CASES[3])
    R = implicitize(M, 4, seed=0, executor=False, prove=60)
    assert R.proved_complete
    E = M.essential_ring()
    H = hilbert_data(R.essential_generators, E, betti=False)
    num, dim, deg, _ = _qq_data(R.essential_generators, E, betti=False)
    assert (H.numerator, H.dimension, H.degree) == (num, dim, deg)
    # an ideal with a cubic dropped is not proved
    gens = list(R.essential_generators)
    C = completeness_certificate(gens[:-1], E, M.dimension(seed=0), timeout=60)
    assert not C.proved, C.reason


def test_hilbert_polynomial_matches_values():
    R = PolynomialRing(QQ, "x", 4)
    x = R.gens()
    G = [x[0] * x[2] - x[1] ** 2, x[1] * x[3] - x[2] ** 2, x[0] * x[3] - x[1] * x[2]]
    H = hilbert_data(G, R)
    J = R.ideal(G)
    P = H.hilbert_polynomial()
    # HF(k) = number of monomials of degree k outside the initial ideal; the twisted cubic has HF(k) = 3k + 1
    for k in range(1, 6):
        assert P(k) == 3 * k + 1
    assert H.hilbert_series() == J.hilbert_series()


def test_progress_of_the_proof_and_of_the_hilbert_data(capsys):
    R = PolynomialRing(QQ, "x", 4)
    x = R.gens()
    G = [x[0] * x[2] - x[1] ** 2, x[1] * x[3] - x[2] ** 2, x[0] * x[3] - x[1] * x[2]]
    assert completeness_certificate(G, R, 2, timeout=60, progress=True).proved
    lines = shown(capsys.readouterr().err)
    assert [line.split(": done in")[0] for line in lines] == [
        "completeness proof modulo 32003 (localization, at most 60 s)"]
    H = hilbert_data(G, R, progress=True)
    assert [line.split(": done in")[0] for line in shown(capsys.readouterr().err)] == [
        "Hilbert series modulo 32003", "Betti numbers modulo 32003 (minimal free resolution)",
        "Hilbert series modulo 32009", "Betti numbers modulo 32009 (minimal free resolution)"]
    # the same data as over QQ (Singular, no reduction)
    assert (H.numerator, H.dimension, H.degree, H.betti) == _qq_data(G, R)
    completeness_certificate(G, R, 2, timeout=60)
    hilbert_data(G, R)
    assert capsys.readouterr().err == ""


def test_implicitize_shows_the_steps_of_its_proof(capsys):
    M = LightningAttention(**CASES[0])
    R = implicitize(M, 2, seed=0, executor=False, prove=60, progress=True)
    assert R.proved_complete
    lines = shown(capsys.readouterr().err)
    # (a rank-one slice: the proof by a Segre product, which needs no Groebner basis)
    assert any(line.startswith("completeness proof by a Segre product (at most 60 s): done in ")
               for line in lines), lines


def test_proof_in_one_child_agrees_with_in_process_and_rational():
    # the proof's single forked child (Hilbert series, then primality) decides as the
    # same steps run in this process, and as Singular's primality test over QQ, by either method
    R = PolynomialRing(QQ, "x", 4)
    x = R.gens()
    twisted = [x[0] * x[2] - x[1] ** 2, x[1] * x[3] - x[2] ** 2, x[0] * x[3] - x[1] * x[2]]
    for gens, dim in [(twisted, 2), (twisted[:2], 2), ([x[0] * x[1]], 3), ([x[0] * x[1] - x[2] * x[3]], 3)]:
        for method in ("localization", "decomposition"):
            forked = completeness_certificate(gens, R, dim, timeout=60, method=method)
            here = completeness_certificate(gens, R, dim, timeout=None, method=method)
            assert (forked.proved, forked.reason) == (here.proved, here.reason)
            assert forked.proved == R.ideal(gens).is_prime()


def test_no_essential_generator_proved_without_child():
    # a single token of width 2 and rank 2 fills its essential coordinates: the ideal is
    # the linear relations, proved; it agrees with elimination over QQ
    M = LightningAttention(d=2, t=1, a=2, out=1)
    R = implicitize(M, 2, seed=0, executor=False, prove=60)
    assert not R.essential_generators
    assert R.proved_complete
    assert R.ideal == M.parametrization().kernel()


def _sage_betti(J):
    """Betti numbers from Sage's graded_free_resolution (Singular's mres, matrices converted to Sage)."""
    res = J.graded_free_resolution(algorithm="minimal")
    out, i = [], 0
    while res.betti(i):
        out.append({int(k): int(v) for k, v in sorted(res.betti(i).items())})
        i += 1
    return out


@pytest.mark.parametrize("kind", ["twisted cubic", "monomial", "complete intersection", "points"])
def test_betti_numbers_agree_with_graded_free_resolution(kind):
    from sage.all__sagemath_singular import GF
    from sage_attention.ideals.hilbert import betti_numbers, alternating_sum
    R = PolynomialRing(GF(32003), "x", 4)
    x = R.gens()
    G = {"twisted cubic": [x[0] * x[2] - x[1] ** 2, x[1] * x[3] - x[2] ** 2, x[0] * x[3] - x[1] * x[2]],
         "monomial": [x[0] * x[1], x[1] * x[2] ** 2, x[2] * x[3], x[0] ** 3],
         "complete intersection": [x[0] ** 2 + x[1] * x[2], x[3] ** 3 - x[0] * x[1] ** 2, x[2] ** 2],
         "points": [x[0] * x[1], x[0] * x[2], x[1] * x[2], x[3] ** 2 - x[0] ** 2]}[kind]
    J = R.ideal(G)
    b = betti_numbers(J)
    assert b == _sage_betti(J)
    assert b == betti_numbers(J, timeout=60)
    # the alternating sum is the Hilbert numerator (Sage's Hilbert series, independent of the resolution)
    t = alternating_sum(b).parent().gen()
    assert J.hilbert_series() == alternating_sum(b) / (1 - t) ** 4


def test_betti_numbers_of_slice_d3_rank1_agree_with_rational():
    # the d = 3, rank 1 slice: the tables modulo two primes agree, the first syzygies are the minimal
    # generators found over QQ (45 quadrics, 10 cubics), and the table has the symmetry of a Gorenstein
    # ring of codimension 11 (Macaulay2's minimalBetti gives the same table)
    M = LightningAttention(**CASES[3])
    R = implicitize(M, 4, seed=0, executor=False, prove=False)
    E = M.essential_ring()
    H = hilbert_data(R.essential_generators, E, timeout=300)
    assert H.agree and H.betti is not None
    assert H.betti[1] == {2: 45, 3: 10}
    assert H.betti[-1] == {15: 1} and len(H.betti) == 12
    for i in range(12):
        assert H.betti[i] == {15 - j: v for j, v in H.betti[11 - i].items()}


def test_betti_timeout_says_not_computed():
    M = LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)])
    R = implicitize(M, 4, seed=0, executor=False, prove=False)
    H = hilbert_data(R.essential_generators, M.essential_ring(), timeout=1)
    assert H.betti is None and "not computed within 1 s" in H.notes[0]
    assert H.degree == 108


def test_betti_numbers_with_linear_forms_equal_koszul_tensor():
    # an ideal with linear forms vs the same ideal after substitution: the table of S/J is that of
    # the substituted ideal tensored with the Koszul complex; checked against Sage's resolution of J itself
    from sage.all__sagemath_singular import GF
    from sage_attention.ideals.hilbert import betti_numbers, without_linear_forms
    R = PolynomialRing(GF(32003), "x", 6)
    x = R.gens()
    tc = [x[0] * x[2] - x[1] ** 2, x[1] * x[3] - x[2] ** 2, x[0] * x[3] - x[1] * x[2]]
    lin = [x[4] - 2 * x[0] + x[3], x[5] + x[4] - 3 * x[1]]
    J = R.ideal([g.subs({x[0]: x[0] + x[4]}) for g in tc] + lin)
    K, r = without_linear_forms(J)
    assert r == 2 and all(g.degree() == 2 for g in K.gens())
    assert betti_numbers(J) == _sage_betti(J)
    assert betti_numbers(J)[1] == {1: 2, 2: 3}


def test_degree_not_claimed_when_generators_are_missing():
    # the single token of width 4 and rank 2 has no equation through degree 4 (the engine's ideal is
    # zero, of dimension 20) while the variety has dimension 13 (Jacobian rank; also 4 + 10 - 1 for
    # the cubics l * Q with a linear factor): no degree is returned, the dimension is the variety's.
    # Given by the weights A = K^T Q and V it gives no structure, so no theorem gives its degree
    from sage_attention.variety.neurovariety import Neurovariety
    M = LightningAttention(d=4, t=1, a=2, weight_space='AV')
    X = Neurovariety(M)
    H = X.hilbert_data()
    assert not H.certified and H.dimension == 20
    with pytest.raises(ValueError, match="not known.*dimension 20 and the variety 13"):
        X.degree()
    assert X.krull_dimension() == 13 == 4 + 10 - 1 == M.dimension(seed=1)
