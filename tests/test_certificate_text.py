"""What a certificate prints can be read and run: its reason names how the weights were
found, and its one-line check evaluates in a Sage session to the value it reports."""
from sage.all__sagemath_singular import GF, QQ, AA, PolynomialRing  # noqa: F401
from sage.repl.preparse import preparse

from sage_attention import LightningAttention  # noqa: F401  (the check's namespace)
from sage_attention.variety.certificates import certify


def test_a_real_algebraic_certificate_says_how_it_was_found():
    # x1 (x1^2 - 2 x2^2) = x1 (x1 - sqrt(2) x2)(x1 + sqrt(2) x2): real weights, not rational
    M = LightningAttention(d=2, t=1, a=1)
    c = certify(M, [1, 0, -2, 0])
    assert c.status == "realizable" and c.real is True
    assert "None" not in c.reason and "linear factor" in c.reason
    # the weights reproduce the point (independent: the forward coefficients)
    assert list(M.coefficients_at(c.weights)) == [1, 0, -2, 0]


def test_the_printed_check_runs_over_a_finite_field():
    M = LightningAttention(d=1, t=2, a=1, base_ring=GF(7))
    c = certify(M, [1, 2, 1, 1])
    assert c.status == "not realizable"
    assert "Finite Field" not in c.check
    from sage.rings.integer import Integer
    namespace = {"LightningAttention": LightningAttention, "GF": GF, "QQ": QQ,
                 "PolynomialRing": PolynomialRing, "Integer": Integer}
    assert eval(preparse(c.check), namespace) == c.value != 0
