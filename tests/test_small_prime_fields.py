"""
Small prime fields: dimensions and fibers over GF(p) for every prime p, with the random points drawn
from an extension GF(p^k) with p^k >= 2^16; refusals where a Jacobian rank decides nothing (a
Frobenius power, a rank below the one over QQ); the fields Singular does not take refused alike by
``check``, ``run`` and the library.

The answers are checked against independent computations:

- the dimension over the algebraic closure of GF(p) is at most the dimension over QQ (a polynomial
  relation with coprime integer coefficients among the coordinates stays a nonzero relation modulo
  p), and at least the rank of the Jacobian over GF(p) at any point;
- so where a theorem gives the dimension over QQ (Alexander-Hirschowitz for shallow networks, the
  formula of [HMK2024] for one lightning layer, the ambient dimension for a network that fills its
  space), a Jacobian rank modulo p that reaches it -- computed here by expanding the
  parametrization and differentiating it with Sage, a code path the package's forward and reverse
  modes do not share -- proves the dimension over GF(p).
"""
import random
import subprocess
import sys
from math import comb

import pytest

from sage.all__sagemath_singular import GF, QQ, matrix, next_prime

from sage_attention import LightningAttention, Network, PolynomialNetwork, attention, dense
from sage_attention.catalog.fields import field_info, refusal
from sage_attention.misc.extension_points import point_field, random_element
from sage_attention.misc.randomness import python_random


def symbolic_jacobian_rank(model, seed=0):
    """The rank of the Jacobian of the expanded parametrization (coordinates -> polynomials in the
    weights), differentiated by Sage, at a random point: of GF(p^k) with p^k >= 2^16 over GF(p), of
    integers in [-50, 50] over QQ. A lower bound of the dimension either way."""
    K = model.base_ring()
    phi = model.parametrization() if hasattr(model, "layers") else model.essential_parametrization()
    images = [phi(c) for c in phi.domain().gens()]
    W = phi.codomain()
    rng = python_random(seed)
    if K.characteristic() == 0:
        F = QQ
        point = [QQ(rng.randint(-50, 50)) for _ in W.gens()]
    else:
        F = point_field(K.characteristic())
        point = [random_element(F, rng) for _ in W.gens()]
    J = [[F(f.derivative(w)(*point)) for w in W.gens()] for f in images]
    return matrix(F, J).rank()


def alexander_hirschowitz(n, r, h):
    """The dimension of the affine cone over the h-th secant variety of the degree-r Veronese
    embedding of P^(n-1) over an algebraically closed field of characteristic 0 (sums of h r-th
    powers of linear forms in n variables): min(h n, C(n + r - 1, r)), except the listed defective
    cases of the theorem (r = 2, 2 <= h <= n - 1; (n, r, h) = (3, 4, 5), (4, 4, 9), (5, 4, 14),
    (5, 3, 7))."""
    N = comb(n + r - 1, r)
    if r == 2:
        return min(h * n - comb(h, 2), N)
    if (n, r, h) in ((3, 4, 5), (4, 4, 9), (5, 4, 14), (5, 3, 7)):
        return h * n - 1
    return min(h * n, N)


SMALL_PRIMES = [7, 101, 32003]


# (model over QQ, its dimension over QQ by a theorem, which theorem)
CASES = [
    # ternary cubics that are sums of three cubes: Alexander-Hirschowitz, not defective, 3 * 3 = 9
    (lambda K: PolynomialNetwork([3, 3, 1], 3, base_ring=K), alexander_hirschowitz(3, 3, 3)),
    # ternary quadrics of rank <= 2: the r = 2 case, 2 * 3 - 1 = 5
    (lambda K: PolynomialNetwork([3, 2, 1], 2, base_ring=K), alexander_hirschowitz(3, 2, 2)),
    # one lightning layer d = 3, t = 2, a = 1: [HMK2024], 2 d + d' d - 2 = 7 (nine weights less GL_1 and a
    # scaling)
    (lambda K: LightningAttention(d=3, t=2, a=1, base_ring=K), 7),
    # a dense stack 2 -> 3 -> 2 -> 1 of quadrics: binary quartics, it fills their space of dimension 5
    (lambda K: Network([dense(out=3, r=2), dense(out=2, r=2), dense(out=1)], d=2, base_ring=K), 5),
]


@pytest.mark.parametrize("p", SMALL_PRIMES)
@pytest.mark.parametrize("case", range(len(CASES)))
def test_dimension_over_small_prime_fields(p, case):
    make, theorem = CASES[case]
    # the theorem's value over QQ, reached by an exact Jacobian rank over QQ (a lower bound of it)
    assert symbolic_jacobian_rank(make(QQ)) == theorem
    M = make(GF(p))
    # an independent Jacobian rank over GF(p) reaches it too: the dimension over GF(p) is proved
    assert symbolic_jacobian_rank(M, seed=1) == theorem
    D = M.dimension_report(seed=2)
    assert D.dimension == theorem
    assert D.field.endswith(f"size {p}^{point_field(p).degree()}")
    assert 0 < D.failure_probability < 0.01
    assert D.fiber_dimension == D.parameter_dimension - theorem


def test_extension_degree_is_minimal():
    for p in (2, 3, 7, 101, 251, 32003, 65537):
        k = point_field(p).degree()
        assert p ** k >= 2 ** 16 and (k == 1 or p ** (k - 1) < 2 ** 16)


def test_fibers_over_a_small_prime_field():
    # the generic fiber of one lightning layer: GL_1 x K^* acts, dimension 2 (9 weights, dimension 7)
    F = LightningAttention(d=3, t=2, a=1, base_ring=GF(101)).fibers(seed=0)
    assert F.fiber_dimension == 2


def test_spec_with_a_small_prime_is_accepted_and_run(tmp_path):
    spec = tmp_path / "small.att"
    spec.write_text("model m {\n  field = GF(32003)\n  input = 3\n  layer dense(out = 3, activation = power(3))\n"
                    "  layer dense(out = 1)\n}\ncompute m { dimension seed = 1; fibers seed = 1 }\n")
    exe = [sys.executable, "-m", "sage_attention.app.cli"]
    check = subprocess.run(exe + ["check", str(spec)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    run = subprocess.run(exe + ["run", str(spec)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    # ternary cubics, sums of three cubes: Alexander-Hirschowitz, 9
    assert f"has dimension {alexander_hirschowitz(3, 3, 3)}" in run.stdout


def test_frobenius_power_stays_refused():
    # x^14 = (x^2)^7 over GF(7): the Jacobian loses the layer; refused, with the reduced network
    M = PolynomialNetwork([2, 2, 1], 14, base_ring=GF(7))
    with pytest.raises(ValueError, match="Frobenius map over Finite Field of size 7"):
        M.dimension(seed=0)
    with pytest.raises(ValueError, match="Frobenius"):
        PolynomialNetwork([3, 2, 1], 2, base_ring=GF(2)).dimension(seed=0)
    # the reduced network it names is answered: binary quadrics, rank <= 2 fills their space (3)
    assert Network([dense(out=2, r=2), dense(out=1)], d=2, base_ring=GF(7)).dimension(seed=0) == 3


def test_rank_below_the_one_over_QQ_is_refused():
    # binary quartics sums of fourth powers in characteristic 3: (a x + b y)^4 = (a^3 x^3 + b^3 y^3)(a x + b y)
    # has no x^2 y^2 term, so the Jacobian rank (4) is below the dimension over QQ (5): refused with both bounds
    M = PolynomialNetwork([2, 3, 1], 4, base_ring=GF(3))
    with pytest.raises(ValueError, match="not decided by a Jacobian rank.*the rank is 4, below the rank 5"):
        M.dimension(seed=0)
    assert symbolic_jacobian_rank(M) == 4


def test_non_prime_field_refused_naming_the_prime_field():
    with pytest.raises(ValueError, match=r"take the model over GF\(2\)"):
        LightningAttention(d=2, t=1, a=1, base_ring=GF(4, "a")).dimension(seed=0)


def test_random_fields_answer_or_refuse():
    """Random small networks over random small prime fields (activation degrees divisible by p
    included): every answer is a refusal with a reason, or lies between an independent Jacobian
    rank modulo p and the dimension over QQ (and equals both where they agree)."""
    rng = random.Random(20261206)
    for _ in range(25):
        p = rng.choice([2, 3, 5, 7, 11, 101])
        d, h, r = rng.randint(2, 3), rng.randint(1, 3), rng.randint(2, 4)
        make = rng.choice([
            lambda K: PolynomialNetwork([d, h, 1], r, base_ring=K),
            lambda K: Network([dense(out=h, r=r), dense(out=2, r=2), dense(out=1)], d=d, base_ring=K),
            lambda K: Network([attention(a=1, out=2), dense(out=1, r=r)], d=2, t=2, linear_output=False,
                              base_ring=K),
        ])
        M = make(GF(p))
        spec_refusal = refusal("dimension", field_info(GF(p)))
        assert spec_refusal is None
        try:
            answer = M.dimension(seed=rng.randrange(1000))
        except ValueError as e:
            assert any(w in str(e) for w in ("Frobenius", "not decided by a Jacobian rank")), str(e)
            continue
        lower = symbolic_jacobian_rank(M, seed=rng.randrange(1000))
        upper = make(QQ).dimension(seed=0)
        assert lower <= answer <= upper
        assert answer == upper


def test_field_beyond_singular_refused_alike_by_check_run_and_library(tmp_path):
    p = next_prime(2 ** 30)
    spec = tmp_path / "big.att"
    spec.write_text(f"model m {{\n  field = GF({p})\n  input = 2\n  layer dense(out = 1, activation = power(3))\n"
                    "  layer dense(out = 1)\n}\ncompute m { vanishing_ideal }\n")
    exe = [sys.executable, "-m", "sage_attention.app.cli"]
    check = subprocess.run(exe + ["check", str(spec)], capture_output=True, text=True)
    run = subprocess.run(exe + ["run", str(spec)], capture_output=True, text=True)
    message = "runs in Singular, whose prime fields need p < 2^29"
    assert check.returncode != 0 and message in check.stderr
    assert run.returncode != 0 and message in run.stderr and "minbase" not in run.stderr
    from sage_attention.ideals.stack_elimination import stack_vanishing_ideal
    from sage_attention.app.ideal_runners import run_stack_vanishing_ideal
    M = PolynomialNetwork([2, 1, 1], 3, base_ring=GF(p))
    with pytest.raises(ValueError, match="whose prime fields need p < 2\\^29.*536870909"):
        stack_vanishing_ideal(M)
    with pytest.raises(ValueError, match="whose prime fields need p < 2\\^29"):
        run_stack_vanishing_ideal(M, None, {})
    # the field the message names works: the twisted cubic, three quadrics
    I = stack_vanishing_ideal(PolynomialNetwork([2, 1, 1], 3, base_ring=GF(536870909)))
    assert sorted(g.degree() for g in I.gens()) == [2, 2, 2]


# (model over GF(p), degree) for the graded pieces: networks and a lightning layer, small enough to eliminate
PIECES = [
    (lambda K: PolynomialNetwork([2, 1, 1], 3, base_ring=K), 2),   # the twisted cubic: 3 quadrics
    (lambda K: PolynomialNetwork([2, 2, 1], 4, base_ring=K), 3),   # the catalecticant cubic
    (lambda K: PolynomialNetwork([3, 2, 1], 2, base_ring=K), 3),   # the symmetric 3 x 3 determinant
    (lambda K: LightningAttention(d=2, t=2, a=1, base_ring=K), 2),
    (lambda K: LightningAttention(d=2, t=2, a=1, base_ring=K), 3),
]


@pytest.mark.parametrize("p", [7, 101, 32003])
@pytest.mark.parametrize("case", range(len(PIECES)))
def test_graded_piece_over_a_small_prime_equals_the_eliminated_one(p, case):
    # the piece at points of GF(p^k), written over GF(p), against Singular's kernel of the
    # parametrization over GF(p) (elimination): the same polynomials, as many as the Hilbert function
    # of the eliminated ideal leaves
    from sage_attention.ideals.small_field_pieces import graded_piece
    make, degree = PIECES[case]
    M = make(GF(p))
    view = M if hasattr(M, "essential_parametrization") else M.coordinate_model()
    phi = view.essential_parametrization()
    I = phi.kernel()
    n = phi.domain().ngens()
    R = I.ring()
    quotient = R.ideal(I.gens() + [R.monomial(*e) for e in _exponents(n, degree + 1)])
    in_degree = comb(n + degree - 1, degree) - _quotient_dimension(quotient, degree)
    Q = graded_piece(M, degree, seed=p)
    assert len(Q) == in_degree
    assert all(q in I and q.degree() == degree for q in Q)


def _exponents(n, degree):
    from itertools import combinations_with_replacement
    out = []
    for c in combinations_with_replacement(range(n), degree):
        e = [0] * n
        for i in c:
            e[i] += 1
        out.append(e)
    return out


def _quotient_dimension(J, degree):
    # dim (R/I)_degree for a homogeneous I: the monomials of that degree outside the leading ideal
    leads = [g.lm() for g in J.groebner_basis()]
    R = J.ring()
    return sum(1 for e in _exponents(R.ngens(), degree) if not any(lm.divides(R.monomial(*e)) for lm in leads))


def test_graded_piece_refuses_what_it_does_not_take():
    from sage_attention.ideals.small_field_pieces import graded_piece
    with pytest.raises(ValueError, match="prime field"):
        graded_piece(PolynomialNetwork([2, 1, 1], 3), 2)
    # the interpolation refusal over a small field names it
    assert "small_field_pieces.graded_piece" in refusal("interpolation", field_info(GF(101)))
