"""
The proof by the minors of a catalecticant: the vanishing ideal of a shallow network of powers of linear forms.

The network x -> sum_i w_i (a_i . x)^r computes the forms of Waring rank at most k; their ideal is generated
by the (k+1)-minors of the Hankel matrix (u_{i+j}) of the scaled coefficients u_j = c_j / binom(r, j)
(Gruson-Peskine for binary forms; Pucci for k = 1, any number of variables). Each test checks the package's
answer against an ideal written here from that definition, or against Singular's elimination of the weights,
and that wrong or incomplete generators are never proved.
"""
from math import comb

import pytest

import sage.all__sagemath_singular  # noqa: F401  (initializes Sage)
from sage.all__sagemath_singular import GF, QQ, PolynomialRing, matrix

from sage_attention import LightningAttention, PolynomialNetwork, implicitize
from sage_attention.app.ideal_runners import run_network_interpolation
from sage_attention.ideals.proofs.catalecticant import applies, catalecticant_certificate
from sage_attention.ideals.proofs.problem import ProofProblem
from sage_attention.ideals.proofs.registry import technique
from sage_attention.ideals.proofs.strategy import run_technique
from sage_attention.ideals.stack_elimination import stack_vanishing_ideal

TABLE = [(1, 2), (1, 3), (2, 4), (2, 5), (2, 6), (3, 6), (3, 7), (4, 8)]


def hankel(M, s):
    """The Hankel matrix (u_{i+j}), 0 <= i <= s, 0 <= j <= r - s, of a binary network's output form, u_j = c_j / binom(r, j)."""
    C = M.coordinate_model().coordinate_ring()
    r = M.degree()
    coefficient = {e: C.gen(i) for i, (_, _, e) in enumerate(M.coordinate_description())}   # of x^e[0] y^e[1]
    u = [coefficient[(r - j, j)] / comb(r, j) for j in range(r + 1)]
    return C, matrix(C, [[u[i + j] for j in range(r - s + 1)] for i in range(s + 1)])


def ideal_of(R, C):
    return C.ideal([C(g) for g in R.essential_generators] or [C(0)])


@pytest.mark.parametrize("k,r", TABLE)
def test_the_default_call_is_proved_by_the_catalecticant_and_equals_the_hankel_minors(k, r):
    M = PolynomialNetwork([2, k, 1], r)
    R = implicitize(M, k + 1, seed=0)           # the default proof
    C = R.certificate
    assert R.proved_complete and C.verify()
    # k = 1 (the rational normal curve) is also a Segre product, which the strategy tries first
    assert C.technique == ("catalecticant" if k > 1 else "segre")
    S = catalecticant_certificate(R.essential_generators, M.coordinate_model().essential_parametrization())
    assert S.proved and S.verify() and S.shape == (k, r - k) and S.dimension() == 2 * k
    H_ring, H = hankel(M, k)
    assert ideal_of(R, H_ring) == H_ring.ideal(H.minors(k + 1))
    # the theorem's other catalecticants give the same ideal (k <= s <= r - k)
    for s in range(k + 1, r - k + 1):
        assert H_ring.ideal(hankel(M, s)[1].minors(k + 1)) == H_ring.ideal(H.minors(k + 1))


@pytest.mark.parametrize("k,r", [(3, 6), (3, 7)])
def test_the_spec_run_of_the_three_neuron_networks_is_proved(k, r):
    # what `vanishing_ideal` of the spec runs (no degree given)
    out = run_network_interpolation(PolynomialNetwork([2, k, 1], r), {"seed": 0})
    assert out["proved_complete"] and out["generators_by_degree"] == {4: comb(r - k + 1, k + 1)}
    assert "catalecticant" in out["text"]


@pytest.mark.parametrize("k,r", [(1, 2), (1, 3), (2, 4), (2, 5)])
def test_the_proved_ideal_equals_the_elimination_of_the_weights(k, r):
    M = PolynomialNetwork([2, k, 1], r)
    J = stack_vanishing_ideal(M, force=True)
    R = implicitize(M, k + 1, seed=0)
    assert R.proved_complete and catalecticant_certificate(R.essential_generators, M.parametrization()).proved
    assert ideal_of(R, J.ring()) == J


def test_powers_of_ternary_forms_are_proved_by_the_veronese_minors():
    # k = 1, n = 3: the 2-minors of Cat(1, r - 1) (Pucci), against elimination
    M = PolynomialNetwork([3, 1, 1], 3)
    R = implicitize(M, 2, seed=0)
    S = catalecticant_certificate(R.essential_generators, M.parametrization())
    assert R.proved_complete and S.proved and S.verify() and S.shape == (1, 2)
    J = stack_vanishing_ideal(M, force=True)
    assert ideal_of(R, J.ring()) == J


def _problem(k, r, degree=None):
    C = PolynomialNetwork([2, k, 1], r).coordinate_model()
    G = implicitize(C, k + 1 if degree is None else degree, seed=0, prove=False).essential_generators
    return C, list(G)


def test_wrong_or_incomplete_generators_are_never_proved():
    C, G = _problem(3, 7)
    phi = C.essential_parametrization()
    c = C.essential_ring().gens()
    assert catalecticant_certificate(G, phi).proved
    # one generator dropped: a minor is missing
    for i in range(len(G)):
        S = catalecticant_certificate(G[:i] + G[i + 1:], phi)
        assert not S.proved and not S.verify() and "are not all in the ideal" in S.reason
    # one generator perturbed: it no longer vanishes on the variety
    S = catalecticant_certificate([G[0] + c[0] ** 4] + G[1:], phi)
    assert not S.proved and "is not in the ideal of the 4-minors" in S.reason
    # a polynomial of lower degree added (not in the ideal)
    assert not catalecticant_certificate(G + [c[0] * c[7] - c[3] * c[4]], phi).proved
    # the Hankel minors without the binomial scaling are not the ideal
    R = C.essential_ring()
    plain = matrix(R, [[c[i + j] for j in range(5)] for i in range(4)]).minors(4)
    assert not catalecticant_certificate(plain, phi).proved
    # nothing found (the engine run through degree 3 only)
    assert not catalecticant_certificate([], phi).proved
    # another generating set of the same ideal is proved
    assert catalecticant_certificate([G[0] + G[1] * 2, G[1]] + G[2:], phi).proved


def test_the_strategy_never_accepts_wrong_generators():
    C, G = _problem(3, 6)
    wrong = ProofProblem(C.essential_ring(), [G[0] + C.essential_ring().gen(3) ** 4], 4, model=C, seed=0)
    S, A = run_technique(technique("catalecticant"), wrong, 10)
    assert not S.proved and A.outcome == "not proved"
    missing = ProofProblem(C.essential_ring(), [], 3, model=C, seed=0)
    S, A = run_technique(technique("catalecticant"), missing, 10)
    assert not S.proved and A.outcome == "not proved"


def test_verify_rechecks_the_generators():
    C, G = _problem(2, 5)
    S = catalecticant_certificate(G, C.essential_parametrization())
    assert S.proved and S.verify()
    S.generators = tuple(G[1:])
    assert not S.verify()


def test_a_map_of_sums_of_powers_is_recognized_whatever_its_names_and_scaling():
    # u_j = sum_i w_i a_i^(r-j) b_i^j directly (no binomials), variables in another order: the Hankel minors of u
    r, k = 4, 2
    W = PolynomialRing(QQ, ["b2", "w1", "a1", "z", "a2", "b1", "w2"])
    b2, w1, a1, z, a2, b1, w2 = W.gens()
    U = PolynomialRing(QQ, "u", r + 1)
    u = U.gens()
    phi = U.hom([w1 * a1 ** (r - j) * b1 ** j + w2 * a2 ** (r - j) * b2 ** j for j in range(r + 1)], W)
    H = matrix(U, [[u[i + j] for j in range(r - k + 1)] for i in range(k + 1)])
    S = catalecticant_certificate(H.minors(k + 1), phi)
    assert S.proved and S.structure.scaling == (1,) * (r + 1)
    # with the binomially scaled minors (the network's coordinates) it is not this ideal
    Hs = matrix(U, [[u[i + j] / comb(r, i + j) for j in range(r - k + 1)] for i in range(k + 1)])
    assert not catalecticant_certificate(Hs.minors(k + 1), phi).proved


def test_where_the_technique_does_not_apply():
    def why(M):
        C = M.coordinate_model() if hasattr(M, "coordinate_model") else M
        return applies(ProofProblem(C.essential_ring(), [], 2, model=C))
    assert "fill the binary forms" in why(PolynomialNetwork([2, 3, 1], 5))              # 2k > r: no ideal
    assert "no theorem used here" in why(PolynomialNetwork([3, 2, 1], 3))               # ternary, k = 2
    assert "no sum of powers" in why(PolynomialNetwork([2, 2, 2, 1], 2))                # two hidden layers
    assert "no sum of powers" in why(LightningAttention(d=3, t=1, a=1))
    C = PolynomialNetwork([2, 2, 1], 4, base_ring=GF(65537)).coordinate_model()
    assert applies(ProofProblem(C.essential_ring(), [], 3, model=C)) == "the theorem is used over QQ only"
