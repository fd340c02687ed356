r"""
The text of a polynomial, without the memory that Sage's ``str`` keeps

``str(g)`` of a polynomial of a Singular-backed ring (Sage's
``MPolynomial_libsingular``) asks Singular for the text (``p_String``) and
never frees Singular's buffer: each call keeps about as many bytes as the
number of terms times the number of variables times two (measured with
passagemath 10.8: 24 KB a call for `100` terms in `126` variables, `0.8`
KB for `77` terms in `10` variables). The texts of the `351925` generators
of a slice of width `6` keep 8 GB that way. :func:`polynomial_text` writes
the same text from the terms (Sage's order of the terms, Singular's
coefficients: the residues modulo `p` between `-p/2` and `p/2`), so the
reports, JSON records and exports (Macaulay2, JSON:
:mod:`sage_attention.variety.export`) of large ideals write their
generators in bounded memory.

EXAMPLES::

    sage: from sage_attention.misc.polynomial_text import polynomial_text
    sage: R.<x, y, z> = QQ[]
    sage: g = -x^2*y + 3/4*y*z^3 - z + 1
    sage: polynomial_text(g), polynomial_text(g) == str(g)
    ('3/4*y*z^3 - x^2*y - z + 1', True)
    sage: S.<u, v> = GF(32003)[]
    sage: polynomial_text(32000*u^2 + v), polynomial_text(S(0))
    ('-3*u^2 + v', '0')
"""
from functools import lru_cache

from sage.all__sagemath_singular import QQ, ZZ
from sage.rings.polynomial.multi_polynomial_libsingular import MPolynomial_libsingular


def _coefficient_text(c, field_p):
    # Singular's text of a coefficient: symmetric residues modulo p, rationals as a/b
    if field_p:
        n = int(c)
        return str(n - field_p if 2 * n > field_p else n)
    return str(c)


@lru_cache(maxsize=64)
def _symmetric_residues(R):
    return str(R(-1)) == "-1"


def polynomial_text(g):
    r"""
    Return ``str(g)``, written from the terms of ``g`` (see the module's description).

    INPUT:

    - ``g`` -- a polynomial of a Singular-backed multivariate ring over
      `\QQ`, `\ZZ` or a prime field; for other polynomials (which do not
      keep the memory) the answer is ``str(g)``

    OUTPUT: a string, equal to ``str(g)``

    EXAMPLES::

        sage: from sage_attention.misc.polynomial_text import polynomial_text
        sage: R.<a, b> = PolynomialRing(ZZ, order="lex")
        sage: g = -a*b^2 + 2*a - 7*b^3
        sage: polynomial_text(g), str(g)
        ('-a*b^2 + 2*a - 7*b^3', '-a*b^2 + 2*a - 7*b^3')
        sage: T.<s> = PolynomialRing(GF(7), 1)
        sage: polynomial_text(6*s^2 + s + 3) == str(6*s^2 + s + 3)
        True
    """
    if not isinstance(g, MPolynomial_libsingular):
        return str(g)
    R = g.parent()
    K = R.base_ring()
    if K is QQ or K is ZZ:
        p = 0
    elif getattr(K, "is_prime_field", lambda: False)() and K.characteristic() > 0:
        # Singular's small prime fields print symmetric residues; the large ones
        # (p near 2^31) their representatives in 0..p-1: ask the ring once
        p = int(K.characteristic()) if _symmetric_residues(R) else 0
    else:
        return str(g)
    names = R.variable_names()
    pieces = []
    for e, c in zip(g.exponents(as_ETuples=True), g.coefficients()):
        mono = "*".join(names[i] if k == 1 else f"{names[i]}^{k}" for i, k in e.sparse_iter())
        coeff = _coefficient_text(c, p)
        if not mono:
            term = coeff
        elif coeff == "1":
            term = mono
        elif coeff == "-1":
            term = "-" + mono
        else:
            term = coeff + "*" + mono
        if pieces:
            pieces.append(" - " + term[1:] if term.startswith("-") else " + " + term)
        else:
            pieces.append(term)
    return "".join(pieces) if pieces else "0"
