"""
The vanishing ideals of polynomial networks by the interpolation engine, against the classical ideals
written here from the theorems, and against elimination:

- sums of h r-th powers of linear forms (the secant varieties of Veronese varieties): the
  (h+1)-minors of a catalecticant matrix (Sylvester for binary forms; Kanev for ternary cubics and
  h = 2); the entries of the catalecticant are the coefficients divided by the multinomial
  coefficients;
- quadrics of rank <= h: the (h+1)-minors of the symmetric matrix of the quadric;
- small networks: the ideal eliminated by Singular.
"""
from itertools import combinations_with_replacement
from math import factorial

import pytest

import sage.all__sagemath_singular  # noqa: F401  (initializes Sage)
from sage.all__sagemath_singular import QQ, matrix

from sage_attention import PolynomialNetwork, implicitize
from sage_attention.ideals.stack_elimination import stack_vanishing_ideal


def monomials(n, k):
    """Exponent vectors of the monomials of degree k in n variables."""
    out = []
    for combo in combinations_with_replacement(range(n), k):
        e = [0] * n
        for i in combo:
            e[i] += 1
        out.append(tuple(e))
    return out


def multinomial(e):
    out = factorial(sum(e))
    for x in e:
        out //= factorial(x)
    return out


def catalecticant(M, i):
    """The catalecticant of the network's output form: rows the monomials of degree i, columns D - i."""
    C = M.coordinate_model().coordinate_ring()
    coords = {e: C.gen(k) for k, (_, _, e) in enumerate(M.coordinate_description())}
    n, D = M.d, M.degree()
    rows, cols = monomials(n, i), monomials(n, D - i)
    return C, matrix(C, [[coords[tuple(a + b for a, b in zip(r, c))] / multinomial(tuple(a + b for a, b in zip(r, c)))
                           for c in cols] for r in rows])


def engine_ideal(M, degree, prove=None):
    R = implicitize(M, degree, seed=0, prove=prove)
    C = M.coordinate_model().coordinate_ring()
    return R, C.ideal([C(g) for g in R.essential_generators] or [C(0)])


@pytest.mark.parametrize("h,r", [(1, 3), (2, 4), (2, 5), (3, 6), (3, 7)])
def test_binary_forms_sums_of_powers_are_hankel_minors(h, r):
    # Sylvester: the binary forms of degree r that are sums of h r-th powers are cut out by the
    # (h+1)-minors of the (h+1) x (r-h+1) Hankel matrix of their (scaled) coefficients
    M = PolynomialNetwork([2, h, 1], r)
    C, H = catalecticant(M, h)
    R, I = engine_ideal(M, h + 1, prove=False)       # the ideal through degree h + 1 (all its generators)
    assert I == C.ideal(H.minors(h + 1))
    assert set(R.generators_by_degree) == {h + 1}


@pytest.mark.parametrize("n,h", [(3, 2), (4, 2), (4, 3)])
def test_quadrics_of_low_rank_are_minors_of_the_symmetric_matrix(n, h):
    M = PolynomialNetwork([n, h, 1], 2)
    C, S = catalecticant(M, 1)          # the symmetric matrix of the quadric (coefficients / 2 off the diagonal)
    R, I = engine_ideal(M, h + 1)
    assert I == C.ideal(S.minors(h + 1))
    assert R.proved_complete


def test_ternary_cubics_sums_of_two_cubes_are_catalecticant_minors():
    # sigma_2 of the cubic Veronese surface: the 3-minors of the 3 x 6 catalecticant (Kanev)
    M = PolynomialNetwork([3, 2, 1], 3)
    C, K = catalecticant(M, 1)
    R, I = engine_ideal(M, 3)
    assert I == C.ideal(K.minors(3)) and R.proved_complete
    assert {k: len(v) for k, v in R.generators_by_degree.items()} == {3: 20}


@pytest.mark.parametrize("widths,r", [([2, 2, 1], 5), ([2, 1, 2], 2), ([2, 2, 2, 1], 2)])
def test_the_engine_agrees_with_elimination(widths, r):
    M = PolynomialNetwork(widths, r)
    J = stack_vanishing_ideal(M, force=True)
    degree = max([int(g.degree()) for g in J.gens() if g] or [1])
    R, I = engine_ideal(M, degree, prove=False)
    assert I == J.change_ring(I.ring())


def test_a_network_with_biases_is_not_taken_by_the_engine():
    with pytest.raises(ValueError, match="without biases or residual streams"):
        implicitize(PolynomialNetwork([2, 2, 1], 2, bias=True), 2)


def test_the_default_run_interpolates_past_degree_4_and_proves_once(monkeypatch):
    # the ternary quartics that are sums of five fourth powers have no equation through degree 4
    # (Clebsch's sextic, the catalecticant's determinant, is their ideal): the passes go on to
    # degree 5 by interpolation alone, and the whole-ideal proof runs once, at the last degree
    from sage_attention.app import ideal_runners
    from sage_attention.ideals import implicitization
    calls = []
    real = implicitization.implicitize
    monkeypatch.setattr(implicitization, "implicitize",
                        lambda M, k, **kw: calls.append((k, kw.get("prove"))) or real(M, k, **kw))
    r = ideal_runners.run_network_interpolation(PolynomialNetwork([3, 5, 1], 4), {"seed": 0})
    assert r["complete_through_degree"] == 5 and not r["proved_complete"]
    assert [k for k, prove in calls if prove is not False] == [5]
    assert [k for k, prove in calls if prove is False] == [4, 5]


def test_the_dimension_test_of_the_passes_matches_the_theorems():
    from sage_attention.app.ideal_runners import dimension_exceeds
    # Clebsch: no quartic vanishes on the sums of five fourth powers of ternary forms
    C = PolynomialNetwork([3, 5, 1], 4).coordinate_model()
    assert dimension_exceeds(C, implicitize(C, 4, seed=0, prove=False), seed=0)
    # the Hankel 4-minors cut out the sums of three seventh powers of binary forms (Sylvester)
    N = PolynomialNetwork([2, 3, 1], 7).coordinate_model()
    assert not dimension_exceeds(N, implicitize(N, 4, seed=0, prove=False), seed=0)
