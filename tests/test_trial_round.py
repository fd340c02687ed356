"""
Defects found by a newcomer's trial (2026-12-05), each against an independent computation.

- The size estimate of a deep network counted its coordinates in time
  quadratic in the degree `3^L` (a network of 10 layers of width 2 hung
  ``check``; 40 layers ran out of memory): the count is now a closed form,
  compared here with a brute-force enumeration of the monomials.
- A network with dense layers whose outputs fill their space was eliminated
  for minutes; its ideal is zero, returned at once: compared here with the
  rank of the symbolic Jacobian of the parametrization over QQ.
- ``check`` accepted an unreadable SAGE_ATTENTION_MEMORY_LIMIT that ``run`` refused.
- ``certify`` turned floating-point and algebraic entries into Sage errors
  deep inside or into other points.
"""
import itertools
import os
import random
import subprocess
import sys

import pytest

from sage.all__sagemath_singular import QQ, GF, QuadraticField, matrix
from sage.rings.qqbar import QQbar
from sage.rings.real_mpfr import RealField

from sage_attention import LightningAttention, Network, PolynomialNetwork, dense
from sage_attention.errors import ComputationTooLarge
from sage_attention.ideals.stack_elimination import stack_vanishing_ideal
from sage_attention.sizes import check_size, estimate_size, token_parity_monomials

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def brute_force(d, t, D):
    """Count the monomials of degree D in d t variables, odd in token 1's, even in each other token's."""
    count = 0
    for degrees in itertools.product(range(D + 1), repeat=t):
        if sum(degrees) != D or degrees[0] % 2 == 0 or any(s % 2 for s in degrees[1:]):
            continue
        n = 1
        for s in degrees:
            n *= sum(1 for _ in itertools.combinations_with_replacement(range(d), s))
        count += n
    return count


@pytest.mark.parametrize("d,t", [(1, 1), (1, 3), (2, 2), (3, 2), (2, 3), (4, 1), (1, 4)])
def test_token_parity_count_against_enumeration(d, t):
    for D in range(0, 12):
        assert token_parity_monomials(d, t, D) == brute_force(d, t, D), (d, t, D)


def test_token_parity_count_of_deep_degrees():
    # the degree 3^5 = 243 of five layers, against the convolution of the per-token series
    from math import comb
    d, t, D = 2, 3, 243
    odd = [comb(a + d - 1, d - 1) if a % 2 else 0 for a in range(D + 1)]
    even = [comb(a + d - 1, d - 1) if a % 2 == 0 else 0 for a in range(D + 1)]
    series = odd
    for _ in range(t - 1):
        series = [sum(series[a] * even[b - a] for a in range(b + 1)) for b in range(D + 1)]
    assert token_parity_monomials(d, t, D) == series[D]


def test_deep_networks_are_estimated_and_refused_at_once():
    M = LightningAttention(widths=[2] * 11, ranks=[1] * 10, t=2)
    # every entry of the 2 x 2 output (2 rows, 2 tokens) has the same count
    assert M.size_estimate().coordinates == 4 * token_parity_monomials(2, 2, 3 ** 10)
    with pytest.raises(ComputationTooLarge, match="beyond any machine: choose a smaller model"):
        check_size(estimate_size([2] * 41, [1] * 40, 2), "coordinates")
    with pytest.raises(ComputationTooLarge, match="pass force=True"):
        check_size(estimate_size((4, 4, 4), (4, 4), 3), "coordinates")


def test_check_of_a_deep_spec_refuses_its_ideal(tmp_path):
    spec = tmp_path / "deep.att"
    layers = "\n".join("  layer attention(rank = 1, out = 2)" for _ in range(40))
    spec.write_text(f"model m {{ input = 2; tokens = 2\n{layers}\n}}\ncompute m {{ vanishing_ideal }}\n")
    p = subprocess.run([sys.executable, "-m", "sage_attention.app.cli", "check", str(spec)], capture_output=True,
                       text=True, timeout=600, env=dict(os.environ, PYTHONPATH=ROOT))
    assert p.returncode == 2, p.stderr
    assert "beyond any machine" in p.stderr and "coordinates" in p.stderr


def symbolic_rank(model):
    """The rank of the Jacobian of the parametrization, symbolically over QQ at a random rational point."""
    phi = model.parametrization()
    W = phi.codomain()
    J = matrix([[f.derivative(w) for w in W.gens()] for f in phi.im_gens()])
    rng = random.Random(1)
    point = {w: QQ(rng.randint(-50, 50)) / rng.randint(1, 9) for w in W.gens()}
    return J.subs(point).change_ring(QQ).rank(), len(phi.im_gens())


@pytest.mark.parametrize("model", [Network([dense(out=4, r=2), dense(out=1)], d=3),
                                   PolynomialNetwork([2, 2, 2, 1], 2), PolynomialNetwork([3, 3, 1], 2)],
                         ids=str)
def test_filling_networks_have_the_zero_ideal(model):
    rank, n = symbolic_rank(model)
    assert rank == n                       # the outputs fill their space
    I = stack_vanishing_ideal(model)
    assert I.is_zero() and I.ring().ngens() == n


def test_a_network_that_does_not_fill_is_still_eliminated():
    model = PolynomialNetwork([2, 1, 1], 3)
    rank, n = symbolic_rank(model)
    assert rank < n
    I = stack_vanishing_ideal(model)
    phi = model.parametrization()
    assert not I.is_zero() and all(phi(g) == 0 for g in I.gens())
    assert I.dimension() == rank


def test_check_refuses_an_unreadable_memory_limit(tmp_path):
    spec = tmp_path / "m.att"
    spec.write_text("model m { input = 3; tokens = 2; layer attention(rank = 1, out = 1) }\n"
                    "compute m { vanishing_ideal }\n")
    env = dict(os.environ, PYTHONPATH=ROOT, SAGE_ATTENTION_MEMORY_LIMIT="abc")
    p = subprocess.run([sys.executable, "-m", "sage_attention.app.cli", "check", str(spec)], capture_output=True,
                       text=True, timeout=300, env=env)
    assert p.returncode == 2 and "SAGE_ATTENTION_MEMORY_LIMIT='abc' is not a size" in p.stderr


@pytest.mark.parametrize("value,message", [
    (RealField(53)(2).sqrt(), "is a floating-point number of Real Field"),
    (QQbar(2).sqrt(), "is in Algebraic Field, which certify does not support"),
    (GF(7)(3), r"base_ring=GF\(7\)"),
])
def test_certify_refuses_points_it_cannot_decide_exactly(value, message):
    V = LightningAttention(d=2, t=1, a=1).neurovariety()
    with pytest.raises(TypeError, match=message):
        V.certify([value, 0, 0, 1])


def test_certify_takes_decimals_and_number_fields():
    V = LightningAttention(d=2, t=1, a=1).neurovariety()
    r = QuadraticField(2, "r").gen()
    assert V.certify([r, 0, 0, 1]).status == V.certify([r, QQ(0), QQ(0), QQ(1)]).status
    a = V.certify([RealField(53)("0.25"), 0, 0, 1])
    b = V.certify([QQ(1) / 4, 0, 0, 1])
    assert a.status == b.status and a.point == b.point


def test_neurovariety_points_a_dense_network_to_its_tools():
    from sage_attention.variety.neurovariety import Neurovariety
    with pytest.raises(TypeError, match="stack_vanishing_ideal"):
        Neurovariety(PolynomialNetwork([2, 1, 1], 3))
