"""
The degree of the one-entry slices of rank a >= 2 against a theorem.

A one-entry slice is the variety of the tuples of d quadrics l(x) * L_c(x),
c = 1..d, where l is a free linear form and the d x d matrix L of the linear
forms L_c has rank at most a (doc/mathematics.rst, "Degree of the one-entry
slices"). For a >= 2 the map ([l], [L]) -> [l * L] from P^{d-1} times the
projective determinantal variety D_a is birational onto the slice and pulls
the hyperplane class back to h1 + h2, so

    deg X = binomial(d - 1 + y, d - 1) * deg D_a,   y = a (2d - a) - 1,

with the degree of D_a from the Giambelli-Thom-Porteous formula (Harris,
Algebraic Geometry, Example 19.10). The same argument gives the variety X'
of a-tuples of quadrics with a common linear factor (the first a columns of
the matrix-product inheritance): deg X' = binomial(d a + d - 2, d - 1).

The degrees compared here are computed by the engine, its whole-ideal proof
and the Hilbert series of the proved ideal modulo a prime (a different
computation: no formula is used by the package).
"""
from dataclasses import replace
from math import comb

import pytest

from sage_attention import LightningAttention
from sage_attention.ideals.proofs.common_factor import common_factor_degree, determinantal_degree
from sage_attention.ideals.proofs.inheritance import matrix_factorization
from sage_attention.ideals.proofs.segre import proved_kernel
from sage_attention.variety.neurovariety import Neurovariety

from helpers import slice_model


def test_determinantal_degrees_known_values():
    # the determinant (degree n), the Segre varieties P^2 x P^2 (6) and P^1 x P^2 (3),
    # the 4 x 4 matrices of rank <= 2 (20), every matrix (1)
    assert [determinantal_degree(n, n, n - 1) for n in (2, 3, 4)] == [2, 3, 4]
    assert determinantal_degree(3, 3, 1) == 6 and determinantal_degree(2, 3, 1) == determinantal_degree(3, 2, 1) == 3
    assert determinantal_degree(4, 4, 2) == 20 and determinantal_degree(4, 3, 3) == 1


@pytest.mark.parametrize("a,t", [(2, 2), (3, 2), (2, 3)])
def test_slice_degree_and_dimension_against_the_proved_series(a, t):
    d = 3
    M = slice_model(d, a, t)
    H = Neurovariety(M).hilbert_data()     # the proved ideal's Hilbert series modulo 32003
    assert H.certified
    y = a * (2 * d - a) - 1
    assert common_factor_degree(M) == (H.degree, H.dimension) == (comb(d - 1 + y, d - 1) * determinantal_degree(d, d, a),
                                                                   d + y)
    assert H.degree == {2: 108, 3: 45}[a]


def test_columns_variety_degree_against_the_proved_series():
    # X' of the d = 3, a = 2 slice: pairs of ternary quadrics with a common linear factor
    d, a = 3, 2
    M = slice_model(d, a)
    F = matrix_factorization(M.essential_parametrization())
    psi = F.sub_map()[1]
    G, C, _ = proved_kernel(psi, 4, seed=0)
    assert C.proved and C.hilbert is not None
    assert C.hilbert.dimension == d + d * a - 1
    assert C.hilbert.degree == comb(d * a + d - 2, d - 1) == 21
    L = M.linear_form_structure().restricted(psi.domain().variable_names())
    assert common_factor_degree(_Columns(psi), L) == (C.hilbert.degree, C.hilbert.dimension)


class _Columns:
    """The variety X' as a model: its parametrization only."""
    def __init__(self, psi):
        self.psi = psi

    def essential_parametrization(self):
        return self.psi


def test_no_degree_without_the_structure():
    # rank one (the map l * L is then two to one; the token l * s1 * s2 six to one), several entries
    assert common_factor_degree(slice_model(3, 1)) is None
    assert common_factor_degree(LightningAttention(d=3, t=1, a=1)) is None
    assert common_factor_degree(LightningAttention(d=3, t=2, a=2, out=1)) is None
    # a wrong structure is refused: the same query entry in two columns, another polynomial, a wrong scale
    M = slice_model(3, 2)
    L = M.linear_form_structure()
    s = L.outer[0].parent().gens()
    repeated = replace(L, outer=(L.outer[0], L.outer[0], L.outer[2]))
    assert common_factor_degree(M, repeated) is None
    squared = replace(L, outer=(s[0] * s[1] * s[3] + s[0] * s[0] * s[5],) + L.outer[1:])
    assert common_factor_degree(M, squared) is None
    o, e, scale = L.monomials[0]
    rescaled = replace(L, monomials=((o, e, 2 * scale),) + L.monomials[1:])
    assert common_factor_degree(M, rescaled) is None
    T = LightningAttention(d=3, t=1, a=2)
    L = T.linear_form_structure()
    s = L.outer[0].parent().gens()
    assert common_factor_degree(T, replace(L, outer=(s[0] * s[1] * s[3] + s[0] * s[2] * s[2],))) is None
    assert common_factor_degree(T, replace(L, outer=(s[0] * s[1] * s[3],))) is None


def test_degree_of_a_slice_proved_by_inheritance_uses_the_theorem_once(monkeypatch):
    # A wiring test, not a check of the value (the value's independent checks are the d = 3 slices,
    # the columns variety and the width-3 token above, against proved Hilbert series): the d = 4,
    # a = 2 slice is proved by inheritance (no Hilbert series), so degree() and krull_dimension()
    # take the theorem's answer, compute no Hilbert series, and check the structure and the
    # Jacobian rank once for both.
    import sage_attention.ideals.proofs.common_factor as common_factor
    M = slice_model(4, 2)
    X = Neurovariety(M)
    assert X.vanishing_ideal_report().proved_complete
    calls = []
    theorem = common_factor.common_factor_degree
    monkeypatch.setattr(common_factor, "common_factor_degree", lambda *a: calls.append(a) or theorem(*a))
    assert (X.degree(), X.krull_dimension()) == (7280, 15)
    assert X.krull_dimension() == M.dimension(seed=3)
    assert len(calls) == 1
    assert X._hilbert_key() not in X._results


def test_token_degree_against_the_proved_series():
    # the single token of width 3 and rank 2: the cubics with a linear factor, generated by 35 octics
    from sage_attention.ideals.implicitization import implicitize
    M = LightningAttention(d=3, t=1, a=2)
    R = implicitize(M, 8, seed=0, executor=False)
    assert R.proved_complete and R.certificate.hilbert.certified
    H = R.certificate.hilbert
    assert common_factor_degree(M) == (H.degree, H.dimension) == (21, 8)
    # width 4 (wiring only: no equation through degree 4, so the ideal found is not proved whole
    # and degree() takes the theorem's value; its dimension is the Jacobian rank)
    M = LightningAttention(d=4, t=1, a=2)
    X = Neurovariety(M)
    assert (X.degree(), X.krull_dimension()) == (220, M.dimension(seed=3)) == (220, 13)


def test_jacobian_rank_computed_once_per_neurovariety(monkeypatch):
    # The token of width 4 and rank 2 has no equation through degree 4, so its ideal is not proved
    # whole: degree() checks the theorem's dimension against the Jacobian rank, krull_dimension()
    # and the note of hilbert_data() give that rank. The neurovariety computes the rank once, with
    # seed 0 (the proof inside implicitize computes its own, with its own seed: not counted here).
    import os
    import sys
    M = LightningAttention(d=4, t=1, a=2)
    X = Neurovariety(M)
    X._results.clear()      # a unique representation: other tests may have filled its cache
    seeds = []
    dimension = type(M).dimension

    def counted(self, seed=None, **kw):
        if os.sep + "variety" + os.sep in sys._getframe(1).f_code.co_filename:     # the variety layer, not the proof
            seeds.append(seed)
        return dimension(self, seed=seed, **kw)
    monkeypatch.setattr(type(M), "dimension", counted)
    assert X.degree() == 220
    assert X.krull_dimension() == 13
    H = X.hilbert_data()
    assert not H.certified and any("(13 by Jacobian rank)" in n for n in H.notes)
    assert seeds == [0]


def test_theorem_dimensions_are_the_jacobian_ranks():
    # the dimension n + y of the theorem against the rank of the Jacobian at a random point
    for d in (3, 4, 5):
        for a in range(1, d + 1):
            for M in (slice_model(d, a), LightningAttention(d=d, t=1, a=a)):
                known = common_factor_degree(M)
                assert known is None or known[1] == M.dimension(seed=1), M
                assert (known is None) == (a == 1), M
