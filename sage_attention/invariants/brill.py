r"""
Brill's equations (`t = 1`, `a = 1`): the cubic is a product of three linear forms

For one token and rank `a = 1` the output is `y = (v \cdot x)(u \cdot x)(w \cdot x)`
(:ref:`mathematics, §4 <math-4>`): each output row is a *completely
decomposable* cubic, and the neurovariety of one row is the Chow variety
`\mathrm{Ch}_3` of products of three linear forms. Its classical equations are
**Brill's equations**, of degree `4` (degree `D + 1` for forms of degree `D`)
[Lan2012]_ §8.6, [GKZ1994]_ Ch. 4, [Gua2015]_.

The construction, for a form `P` of degree `D` in `n` variables (here `D = 3`,
`n = d`), points `x, y, z`:

1. `E_k(x, y)` is the coefficient of `s^k` in `P(x + s y)`. If
   `P = \ell_1 \cdots \ell_D` then `E_k = P(x)\, e_k(r)`, where `e_k` is the
   elementary symmetric function of the ratios `r_i = \ell_i(y) / \ell_i(x)`.
2. Newton's identities turn the `e_k` into the power sum `p_D`:
   `Q_x(y) = P(x)^D p_D(E_1/E_0, \ldots, E_D/E_0)` is a polynomial (for `D = 3`,
   `Q_x = E_1^3 - 3 E_0 E_1 E_2 + 3 E_0^2 E_3`); for a product it is
   `\sum_i c_i(x)\, \ell_i(y)^D` with `c_i = \prod_{j \ne i} \ell_j(x)^D`: a sum of
   `D`-th powers of the factors of `P`.
3. The bilinear map `B(Q, P)(y, z) = \sum_k (-1)^k \binom{D}{k}^{-1} Q^{(k)}(y; z)\,
   P^{(k)}(z; y)`, `Q^{(k)}(y; z)` the coefficient of `s^k` in `Q(y + s z)`,
   is the projection `S^D V \otimes S^D V \to S_{(D,D)} V`; on a power
   `Q = \ell^D` it is `B(\ell^D, P)(y, z) = P(\ell(y) z - \ell(z) y)`, which
   vanishes when `\ell` divides `P` (the point `\ell(y) z - \ell(z) y` lies on
   the hyperplane `\ell = 0`).

So `B(Q_x, P)(y, z) = 0` for all `x, y, z` when `P` is a product of linear
forms; its coefficients, polynomials of degree `D + 1` in the coefficients of
`P` (`D` from `Q_x`, one from `P`), are Brill's equations. Conversely they
cut out `\mathrm{Ch}_D` set-theoretically (Brill, Gordan; [Lan2012]_ §8.6,
[Gua2015]_). They do not always generate its ideal. Computed here (the tests
compare with :func:`~sage_attention.ideals.implicitization.implicitize` and
with Singular elimination):

- `d = 3`: their span is the whole `35`-dimensional space of quartics of the
  vanishing ideal, and they generate the ideal (equal to the elimination ideal);
- `d = 4`: their span has dimension `875`, inside the `1085`-dimensional
  space of quartics of the ideal: the other `210` dimensions are spanned by
  the `4`-minors of the `4 \times 10` matrix of first partial derivatives
  (the cubics in three linear forms), and the `1085` quartics generate the
  ideal (proved by inheritance from `d = 3`: :mod:`sage_attention.ideals.proofs.subspace`).

`35` and `875` are the dimensions of the Schur module `S_{(7,3,2)} V` for
`\dim V = 3, 4`, as expected of an irreducible module of equations.

This module evaluates `3\,B(Q_x, P)(y, z)` (integer coefficients) at integer
points `(x, y, z)`: each value is an exact Brill equation (a linear combination
of the coefficients). It keeps the values that are linearly independent and
stops when ``plateau`` points in a row add nothing.

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.invariants import brill_invariants
    sage: from sage_attention.variety.membership import check_family
    sage: M = LightningAttention(d=3, t=1, a=1)
    sage: fam = brill_invariants(M); fam            # long time (2 s)
    Family 'brill' of 35 invariants of degree 4 of LightningAttention(d=3, out=1, t=1, a=1) over Rational Field
    sage: check_family(M, fam).all_vanish           # long time
    True

A product of three linear forms satisfies them, `x_1 (x_1^2 + x_2^2 + x_3^2)` does not::

    sage: from sage_attention.invariants.brill import brill_polynomial
    sage: B = brill_polynomial(M, 1, (1, 2, 3), (0, 1, 1), (1, 0, -1))
    sage: B.degree()
    4
    sage: R.<x11, x21, x31> = QQ[]
    sage: from sage_attention.variety.certificates import point_values
    sage: p = point_values(M, matrix([[(x11 + x21) * (x21 - x31) * (2*x11 + x31)]]))[0]
    sage: B(*p)
    0
    sage: q = point_values(M, matrix([[x11 * (x11^2 + x21^2 + x31^2)]]))[0]
    sage: B(*q) != 0
    True
"""
import random
from math import comb

import numpy as np

from sage.all__sagemath_singular import PolynomialRing, QQ, ZZ, lcm, prod

from sage_attention.misc.errors import ComputationTooLarge
from sage_attention.invariants.base import (guard_family, InvariantLabel, check_model, empty,
                                            to_coordinates)
from sage_attention.settings import moved_to_settings, settings

# The prime that decides linear independence when the base field is QQ is the
# first of settings.LINALG_PRIMES; the old name PRIME reads it.
__getattr__ = moved_to_settings(__name__, {"PRIME": lambda s: s.LINALG_PRIMES[0]})


def _power_sum(E):
    r"""
    Return `E_0^D p_D(E_1/E_0, \ldots, E_D/E_0)` (Newton's identities, homogenized).

    TESTS::

        sage: from sage_attention.invariants.brill import _power_sum
        sage: R.<a, b, c> = QQ[]
        sage: e = [1, a + b + c, a*b + a*c + b*c, a*b*c]
        sage: _power_sum(e) == a^3 + b^3 + c^3
        True
    """
    D = len(E) - 1
    P = [None]
    for k in range(1, D + 1):
        v = sum((-1) ** (i - 1) * E[0] ** (i - 1) * E[i] * P[k - i] for i in range(1, k))
        v += (-1) ** (k - 1) * k * E[0] ** (k - 1) * E[k]
        P.append(v)
    return P[D]


class _Cubic:
    r"""
    The pure cubic of one output row, prepared for fast evaluation of the Brill covariant.
    """

    def __init__(self, model, row):
        S, f = model.pure_cubic(row)
        C = model.coordinate_ring()
        self.C = C
        self.n = S.ngens()
        self.D = 3
        # integer arithmetic: a ring over ZZ with the coordinate names, and s
        self.ring = PolynomialRing(ZZ, list(C.variable_names()) + ["s"])
        self.s = self.ring.gens()[-1]
        self.terms = [(self.ring(str(c)), m.exponents()[0])
                      for m, c in zip(f.monomials(), f.coefficients())]
        self.aux = PolynomialRing(ZZ, ["s", "u"])

    def value(self, x, y, z):
        r"""
        Return `D\,B(Q_x, P)(y, z)` (for `D = 3`) as a polynomial in the coordinates.
        """
        n, D, s = self.n, self.D, self.s
        ss, u = self.aux.gens()
        E = [self.ring.zero()] * (D + 1)      # E_k(x, y + s z), polynomials in s
        Pk = [self.ring.zero()] * (D + 1)     # [u^k] P(z + u y)
        line = [y[i] + ss * z[i] for i in range(n)]
        for c, e in self.terms:
            for (a, b), co in prod((x[i] + u * line[i]) ** e[i] for i in range(n)).dict().items():
                E[b] += co * c * s ** a
            for (a, b), co in prod((z[i] + u * y[i]) ** e[i] for i in range(n)).dict().items():
                Pk[b] += co * c
        Qs = _power_sum(E).polynomial(s)
        # D * B = sum_k (-1)^k (D / binom(D, k)) Q^(k) P^(k); integral for D = 3
        out = self.ring.zero()
        for k in range(D + 1):
            if Qs[k] and Pk[k]:
                out += (-1) ** k * (D // comb(D, k)) * self.ring(Qs[k]) * Pk[k]
        # drop the exponent of s (it is zero) and build the element of the coordinate ring
        return self.C({e[:-1]: c for e, c in out.dict().items()})


def brill_polynomial(model, row, x, y, z):
    r"""
    Return the Brill equation `3\,B(Q_x, P)(y, z)` of output row ``row`` at the points ``x, y, z``.

    `P` is the pure cubic of ``row`` (:meth:`pure_cubic`); see the module
    documentation for `Q_x` and `B`. The result is a linear combination of
    Brill's equations (the coefficients of `B(Q_x, P)(y, z)` as a
    polynomial in `x, y, z`), of degree `4` in the coordinates, with
    integer coefficients.

    INPUT:

    - ``model`` -- a one-layer lightning model with `t = 1`
    - ``row`` -- integer (1-based output row)
    - ``x``, ``y``, ``z`` -- sequences of `d` integers (rationals are scaled
      to integers, which multiplies the result by a nonzero constant)

    OUTPUT: a polynomial in ``model.coordinate_ring()``

    EXAMPLES:

    On a generic cubic the value is nonzero; it vanishes on every output of
    the model (composition with the parametrization)::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants.brill import brill_polynomial
        sage: from sage_attention.variety.membership import vanishes_on_model
        sage: M = LightningAttention(d=3, t=1, a=1, weight_space='AV')
        sage: B = brill_polynomial(M, 1, (1, 0, 0), (0, 1, 0), (0, 0, 1)); len(B.monomials())
        10
        sage: vanishes_on_model(M, B)
        True

    It changes with the points; for `d = 2` it is identically zero (every
    binary cubic splits)::

        sage: brill_polynomial(M, 1, (1, 1, 0), (0, 1, 0), (0, 0, 1)) == B
        False
        sage: brill_polynomial(LightningAttention(d=2, t=1, a=1), 1, (1, 2), (3, 1), (1, -1))
        0

    TESTS::

        sage: brill_polynomial(M, 1, (1, 0), (0, 1, 0), (0, 0, 1))
        Traceback (most recent call last):
        ...
        ValueError: x (=(1, 0)), y and z must be 3 numbers each
    """
    check_model(model, "Brill")
    if model.tokens != 1:
        raise ValueError(f"Brill's equations are for t = 1 (here t = {model.tokens})")
    if row not in model.output_rows():
        raise ValueError(f"row (={row}) must be one of the output rows {list(model.output_rows())}")
    d = model.d
    pts = [tuple(QQ(c) for c in v) for v in (x, y, z)]
    if any(len(v) != d for v in pts):
        raise ValueError(f"x (={tuple(x)}), y and z must be {d} numbers each")
    # B is homogeneous in each point: clearing denominators only rescales it
    pts = [tuple(ZZ(c * lcm([e.denominator() for e in v])) for c in v) for v in pts]
    return _Cubic(model, row).value(*pts)


def brill_invariants(model, limit=None, seed=0, plateau=12, bound=50, max_columns=20000,
                     force=False):
    r"""
    Return Brill's equations of each output row (`t = 1`, `a = 1`): the cubic is a
    product of three linear forms.

    For `t = 1` and `a = 1`, `A = u w^T` and every output row is
    `(v_i \cdot x)(u \cdot x)(w \cdot x)`, a completely decomposable cubic.
    Brill's equations (module documentation) vanish on such cubics and cut
    them out set-theoretically [Lan2012]_ §8.6; degree `4`. The members
    are values `3\,B(Q_x, P)(y, z)` at integer points (entries in
    `[-` ``bound`` `,` ``bound`` `]`, drawn with ``seed``) that are linearly independent
    (over `\GF{p}`, `p` the first of ``settings.LINALG_PRIMES``, `8388593`
    by default, or over the base field if it is finite;
    independence mod `p` implies it over `\QQ`); the search stops when
    ``plateau`` points in a row add nothing new.

    Degree `4`. Empty unless `t = 1`, `a = 1` and `d \ge 3` (for `d = 2`
    every binary cubic splits and the equations are zero; for `a \ge 2`
    the quadric need not split).

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``limit`` -- (default: ``None``) integer; stop after this many invariants
    - ``seed`` -- (default: `0`) integer; the random points
    - ``plateau`` -- (default: `12`) integer; stop after this many points in a
      row that give nothing new
    - ``bound`` -- (default: `50`) integer; the entries of the points
    - ``max_columns`` -- (default: `20000`) refuse (when ``limit`` is
      ``None``) if the quartics of one row's coordinates exceed this many
      (`d = 4`: `8855`; `d = 5`: `73815`)
    - ``force`` -- boolean (default: ``False``); build the family even when
      its estimated memory (:func:`~sage_attention.catalog.family_costs.family_estimate`)
      is beyond the memory guard (:func:`~sage_attention.invariants.base.guard_family`)

    OUTPUT: an :class:`~sage_attention.invariants.base.InvariantFamily`;
    indices ``(('x', x), ('y', y), ('z', z))``, the points.

    .. NOTE::

        Every member is an exact Brill equation. That they *span* all of
        Brill's equations is probabilistic: if the span found so far is
        not everything, a new point adds something unless a nonzero
        polynomial of degree `12` in the point vanishes there, which
        happens with probability at most `12 / (2\,` ``bound`` `+ 1)`
        (Schwartz–Zippel); ``plateau`` misses in a row have probability at
        most `(12/101)^{12} < 10^{-11}` with the defaults. The tests check
        the span against the vanishing ideal for `d = 3` (all `35` quartics)
        and `d = 4` (`875` of the `1085` quartics; about 15 minutes on a
        loaded machine).

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants import brill_invariants
        sage: fam = brill_invariants(LightningAttention(d=3, t=1, a=1), limit=3); fam
        Family 'brill' of 3 invariants of degree 4 of LightningAttention(d=3, out=1, t=1, a=1) over Rational Field
        sage: fam[0].label
        brill invariant of row 1, token 1, indices (x (-1, 47, 3), y (-45, -17, 15), z (12, 1, 50))
        sage: brill_invariants(LightningAttention(d=3, t=1, a=2)).note
        'empty: Brill equations need a = 1 (here a = 2): the quadric of rank up to 4 need not split'
        sage: brill_invariants(LightningAttention(d=2, t=1, a=1)).note
        'empty: every binary cubic is a product of linear forms (d = 2 < 3)'
        sage: brill_invariants(LightningAttention(d=3, t=2, a=1)).note
        'empty: Brill equations are for t = 1 (for t >= 2 see rank_one_invariants)'

    Beyond ``max_columns`` the memory guard still refuses (``force=True``
    skips it)::

        sage: brill_invariants(LightningAttention(d=5, t=1, a=1), max_columns=10**6)
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the family brill (about 73815 members of about 73815 terms) needs about ... GiB of memory (limit ...); pass limit= for fewer members or take a smaller model; pass force=True to run it anyway

    TESTS::

        sage: brill_invariants(LightningAttention(d=3, t=1, a=1), plateau=0)
        Traceback (most recent call last):
        ...
        ValueError: plateau (=0) must be a positive integer
    """
    check_model(model, "brill")
    name = "brill"
    for arg, val, low in (("plateau", plateau, 1), ("bound", bound, 1), ("seed", seed, None)):
        if isinstance(val, bool) or not isinstance(val, (int, type(ZZ(1)))) or \
                (low is not None and val < low):
            raise ValueError(f"{arg} (={val!r}) must be a positive integer" if low
                             else f"{arg} (={val!r}) must be an integer")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, (int, type(ZZ(1))))
                              or limit < 0):
        raise ValueError(f"limit (={limit!r}) must be a nonnegative integer or None")
    d, a = model.d, model.ranks[0]
    if model.tokens != 1:
        return empty(model, name, "empty: Brill equations are for t = 1 "
                     "(for t >= 2 see rank_one_invariants)")
    if a != 1:
        return empty(model, name, f"empty: Brill equations need a = 1 (here a = {a}): "
                     f"the quadric of rank up to {2 * a} need not split")
    if d < 3:
        return empty(model, name, f"empty: every binary cubic is a product of linear forms "
                     f"(d = {d} < 3)")
    F = model.base_ring()
    p = settings.LINALG_PRIMES[0] if F.characteristic() == 0 else F.characteristic()
    m = len(model.pure_cubic(model.output_rows()[0])[1].monomials())
    ncols = comb(m + 3, 4)
    if limit is None and ncols > max_columns:
        raise ComputationTooLarge(f"Brill's equations of d = {d} live in a space of {ncols} "
                                  f"quartics (limit max_columns={max_columns}); pass limit=N "
                                  "or a larger max_columns")
    guard_family(model, 'brill', force, limit=limit)
    rnd = random.Random(seed)
    found = []
    for row in model.output_rows():
        cubic = _Cubic(model, row)
        span = _Span(p)
        misses = 0
        while misses < plateau:
            if limit is not None and len(found) >= limit:
                break
            pts = tuple(tuple(rnd.randint(-bound, bound) for _ in range(d)) for _ in range(3))
            val = cubic.value(*pts)
            if span.add(val.dict()):
                misses = 0
                found.append((val, InvariantLabel(name, row, 1, None,
                                                  (("x", pts[0]), ("y", pts[1]),
                                                   ("z", pts[2])))))
            else:
                misses += 1
    return to_coordinates(model, iter(found), name)


class _Span:
    r"""
    A growing subspace of `\GF{p}^N` in reduced echelon form (``numpy``).

    TESTS::

        sage: from sage_attention.invariants.brill import _Span
        sage: S = _Span(7)
        sage: S.add({(1, 0): 1, (0, 1): 2}), S.add({(1, 0): 3, (0, 1): 6}), S.add({(0, 1): 1})
        (True, False, True)
        sage: S.rank()
        2

    Over a prime above `2^{63}` the residues are Python integers (no overflow)::

        sage: p = 2^63 + 29
        sage: S = _Span(p); u = {(1, 0): p - 1, (0, 1): p - 2, (0, 0): 3}
        sage: S.add(u), S.add({k: 2 * v % p for k, v in u.items()}), S.rank()
        (True, False, 1)
    """

    def __init__(self, p):
        self.p = p
        self.cols = {}
        # int64 holds a reduction (a sum of up to 2^12 products of residues)
        # only for p < 2^25; beyond, Python integers (no overflow)
        self.dtype = np.int64 if p < 2 ** 25 else object
        self.rows = np.zeros((0, 0), dtype=self.dtype)
        self.pivots = []

    def rank(self):
        return len(self.pivots)

    def add(self, vec):
        p = self.p
        for mono in vec:
            if mono not in self.cols:
                self.cols[mono] = len(self.cols)
        n = len(self.cols)
        if self.rows.shape[1] < n:
            grown = np.zeros((self.rows.shape[0], max(n, 2 * self.rows.shape[1])),
                             dtype=self.dtype)
            grown[:, :self.rows.shape[1]] = self.rows
            self.rows = grown
        v = np.zeros(self.rows.shape[1], dtype=self.dtype)
        for mono, c in vec.items():
            v[self.cols[mono]] = int(c) % p
        if self.pivots:
            coef = v[self.pivots].copy()
            v = (v - (coef @ self.rows) % p) % p
        nz = np.flatnonzero(v)
        if not len(nz):
            return False
        piv = int(nz[0])
        v = (v * pow(int(v[piv]), -1, p)) % p
        if self.pivots:
            col = self.rows[:, piv].copy()
            self.rows = (self.rows - np.outer(col, v) % p) % p
        self.rows = np.vstack([self.rows, v])
        self.pivots.append(piv)
        return True
