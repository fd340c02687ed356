"""
polynomial_text writes str(g) from the terms: the same text as Sage's str (checked on random
polynomials over QQ, ZZ and prime fields, small and large, in several term orders), without the
memory that Sage's str keeps (Singular's buffer from p_String is not freed: about 24 KB a call
for 100 terms in 126 variables).
"""
import os
import random

import pytest
from sage.all__sagemath_singular import GF, QQ, ZZ, PolynomialRing

from sage_attention.misc.polynomial_text import polynomial_text


def random_polynomial(R, rng, nterms):
    K = R.base_ring()
    g = R.zero()
    for _ in range(nterms):
        c = K(rng.randint(-10**rng.randint(0, 12), 10**rng.randint(0, 12)))
        if K is QQ and rng.random() < 0.5:
            c /= rng.randint(1, 10**rng.randint(0, 8))
        g += c * R.monomial(*[rng.choice([0, 0, 0, 1, 2, 11]) for _ in range(R.ngens())])
    return g


@pytest.mark.parametrize("base", [QQ, ZZ, GF(2), GF(7), GF(32003), GF(2**31 - 1)], ids=str)
@pytest.mark.parametrize("order", ["degrevlex", "lex", "deglex", "neglex"])
def test_same_text_as_str(base, order):
    rng = random.Random(f"{base}-{order}")
    for n in (1, 2, 5, 30):
        R = PolynomialRing(base, n, "y", order=order)
        for _ in range(60):
            g = random_polynomial(R, rng, rng.randint(0, 8))
            assert polynomial_text(g) == str(g), (base, order, n)


def test_other_polynomials_are_str():
    x = PolynomialRing(QQ, "x").gen()          # FLINT, not Singular
    assert polynomial_text(3 * x**2 - 1) == "3*x^2 - 1"


def resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc")
def test_keeps_no_memory():
    R = PolynomialRing(QQ, 126, "y")
    rng = random.Random(1)
    g = sum(rng.randint(-5, 5) * R.gen(rng.randrange(126)) * R.gen(rng.randrange(126))
            * R.gen(rng.randrange(126)) for _ in range(100))
    polynomial_text(g)

    def growth(f, calls=3000):
        before = resident_bytes()
        for _ in range(calls):
            f(g)
        return resident_bytes() - before

    assert growth(polynomial_text) < 4 * 2**20
    # the control: Sage's str keeps about 24 KB a call here (70 MB in all), which the measure sees
    if growth(str) < 20 * 2**20:
        pytest.skip("Sage's str of this polynomial no longer keeps memory (upstream fixed)")
