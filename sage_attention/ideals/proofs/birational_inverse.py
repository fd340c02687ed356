r"""
The coordinates of tuples of quadrics with a common linear factor, and their birational inverse

The data of the proof by a birational inverse
(:mod:`sage_attention.ideals.proofs.birational`, whose documentation states
the theorem and the checks): :func:`common_factor_coordinates` recognizes
the `k`-tuples of quadrics `\ell \cdot L_o` in `n` features among the
coordinates of a map (exactly), and :class:`CommonFactorCoordinates` gives
the explicit inverse, the cleared relations, the normalized map and the
transpositions of the features.

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.ideals.proofs.birational_inverse import common_factor_coordinates
    sage: M = LightningAttention(d=3, t=2, a=3, out=1, entries=[(1, 1)])
    sage: C = common_factor_coordinates(M.essential_parametrization(), M.linear_form_structure())
    sage: C.n, C.k
    (3, 3)
"""
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations_with_replacement

import numpy as np

from sage.rings.polynomial.polynomial_ring_constructor import PolynomialRing
from sage.rings.rational_field import QQ

from sage_attention.ideals.proofs.common_factor import matrix_shape
from sage_attention.ideals.proofs.form_coordinates import structure_holds


@dataclass(frozen=True)
class CommonFactorCoordinates:
    r"""
    The coordinates of `k`-tuples of quadrics in `n` features: ``c[(o, i, j)]`` is `c_{o,ij}` (`i \le j`) in the ring.

    Made by :func:`common_factor_coordinates`. Attributes: ``n``, ``k``,
    ``ring`` (the coordinate ring), ``c`` (a dictionary of polynomials,
    scale times a coordinate).
    """
    n: int
    k: int
    ring: object
    c: dict

    def at(self, o, i, j, R=None):
        r"""
        Return `c_{o,ij}` in ``R`` (default: the coordinate ring).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.proofs.birational_inverse import common_factor_coordinates
            sage: M = LightningAttention(d=3, t=2, a=3, out=1, entries=[(1, 1)])
            sage: C = common_factor_coordinates(M.essential_parametrization(), M.linear_form_structure())
            sage: C.n, C.k, C.at(0, 1, 0)
            (3, 3, Y11_x11x12x22)
        """
        R = R or self.ring
        return R(self.c[(o, min(i, j), max(i, j))])

    def inverse(self, R=None):
        r"""
        Return the lists `[D_1, \dots, D_{n-1}]` and `[N_1, \dots, N_{n-1}]` of the inverse `\psi`, in ``R``.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.proofs.birational_inverse import common_factor_coordinates
            sage: M = LightningAttention(d=2, t=2, a=2, out=1, entries=[(1, 1)])
            sage: common_factor_coordinates(M.essential_parametrization(), M.linear_form_structure()).inverse()
            ([Y11_x12x12x21*Y11_x11x12x22 - Y11_x11x12x12*Y11_x12x21x22],
             [Y11_x12x12x21*Y11_x11x22x22 - Y11_x11x12x12*Y11_x21x22x22])
        """
        c = lambda o, i, j: self.at(o, i, j, R)
        D = [c(1, 0, 0) * c(0, 0, j) - c(0, 0, 0) * c(1, 0, j) for j in range(1, self.n)]
        N = [c(1, 0, 0) * c(0, j, j) - c(0, 0, 0) * c(1, j, j) for j in range(1, self.n)]
        return D, N

    def cleared_relations(self, R=None):
        r"""
        Return ``[((o, j, l), rho)]``: the cleared relations `\rho_{o,jl}`, `1 \le j \le l \le n - 1`, in ``R``.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.proofs.birational_inverse import common_factor_coordinates
            sage: M = LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)])
            sage: from sage_attention.ideals.proofs.inheritance import matrix_factorization
            sage: _, psi = matrix_factorization(M.essential_parametrization()).sub_map()
            sage: C = common_factor_coordinates(psi, M.linear_form_structure().restricted(psi.domain().variable_names()))
            sage: [(w, r.degree()) for w, r in C.cleared_relations()][:2]
            [((0, 1, 1), 5), ((0, 1, 2), 5)]
        """
        D, N = self.inverse(R)
        c = lambda o, i, j: self.at(o, i, j, R)
        out = []
        for o in range(self.k):
            for j, l in combinations_with_replacement(range(1, self.n), 2):
                if j == l:
                    rho = D[j - 1] ** 2 * c(o, j, j) - N[j - 1] * D[j - 1] * c(o, 0, j) + N[j - 1] ** 2 * c(o, 0, 0)
                else:
                    rho = (D[j - 1] * D[l - 1] * c(o, j, l) - N[j - 1] * D[l - 1] * c(o, 0, l)
                           - N[l - 1] * D[j - 1] * c(o, 0, j) + 2 * N[j - 1] * N[l - 1] * c(o, 0, 0))
                out.append(((o, j, l), rho))
        return out

    def normalized_map(self, K=QQ):
        r"""
        Return `\Phi` over ``K``: the coordinate ring to `K[l_1, \dots, l_{n-1}, m_{oi}]`, `\ell = x_0 + \sum_j l_j x_j`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.proofs.birational_inverse import common_factor_coordinates
            sage: M = LightningAttention(d=2, t=2, a=2, out=1, entries=[(1, 1)])
            sage: Phi = common_factor_coordinates(M.essential_parametrization(), M.linear_form_structure()).normalized_map()
            sage: Phi.codomain().variable_names()
            ('l1', 'm0_0', 'm0_1', 'm1_0', 'm1_1')
            sage: [Phi(y) for y in Phi.domain().gens()]
            [m0_0, m1_0, l1*m0_0 + m0_1, l1*m1_0 + m1_1, l1*m0_1, l1*m1_1]
        """
        n, k = self.n, self.k
        A = PolynomialRing(K, [f"l{j}" for j in range(1, n)] + [f"m{o}_{i}" for o in range(k) for i in range(n)])
        ell = [A.one()] + list(A.gens()[:n - 1])
        m = [A.gens()[n - 1 + o * n:n - 1 + (o + 1) * n] for o in range(k)]
        S = self.ring.change_ring(K)
        images = {}
        for (o, i, j), cij in self.c.items():
            value = ell[i] * m[o][i] if i == j else ell[i] * m[o][j] + ell[j] * m[o][i]
            y = S(cij)
            images[y.variables()[0]] = value / y.lc()
        return S.hom([images[y] for y in S.gens()], A)

    def transposition(self, j, R=None):
        r"""
        Return the automorphism of ``R`` that swaps the features `x_1` and `x_j` (it permutes and rescales the coordinates).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.proofs.birational_inverse import common_factor_coordinates
            sage: M = LightningAttention(d=3, t=2, a=3, out=1, entries=[(1, 1)])
            sage: C = common_factor_coordinates(M.essential_parametrization(), M.linear_form_structure())
            sage: D, _ = C.inverse(); s = C.transposition(2)
            sage: s(D[0]) == D[1]
            True
        """
        R = R or self.ring
        swap = lambda i: {1: j, j: 1}.get(i, i)
        images = {}
        for (o, i, l), cil in self.c.items():
            y = R(cil)
            images[y.variables()[0]] = self.at(o, swap(i), swap(l), R) / y.lc()
        return R.hom([images[y] for y in R.gens()], R)

    def weight(self, mono):
        r"""
        Return the torus weight of a monomial (its exponent tuple): the count of each quadric `o`, then of each feature.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.proofs.birational_inverse import common_factor_coordinates
            sage: M = LightningAttention(d=2, t=2, a=2, out=1, entries=[(1, 1)])
            sage: C = common_factor_coordinates(M.essential_parametrization(), M.linear_form_structure())
            sage: D, _ = C.inverse(); C.weight(D[0].exponents()[0])
            (1, 1, 3, 1)
        """
        return tuple(int(v) for v in np.asarray(mono, dtype=np.int64) @ self._weights)

    @cached_property
    def _weights(self):
        W = np.zeros((self.ring.ngens(), self.k + self.n), dtype=np.int64)
        for (o, i, j), cij in self.c.items():
            v = self.ring.gens().index(cij.variables()[0])
            W[v, o] += 1
            W[v, self.k + i] += 1
            W[v, self.k + j] += 1
        return W


def common_factor_coordinates(psi, structure):
    r"""
    Return the coordinates of ``psi`` as `k`-tuples of quadrics with a common linear factor, or ``None``.

    Accepted (exact checks) when ``structure`` describes ``psi``
    (:func:`~sage_attention.ideals.proofs.form_coordinates.structure_holds`), over `\QQ`,
    as `k \ge 2` quadrics `P_o = s_0 \sum_{j=1}^{a} e_{jo} s_j` in `n \ge 2`
    features with distinct weights `e_{jo}` and `a \ge \min(n, k)`: then
    the tuples `(m_o = \sum_j e_{jo} \ell_j)` are all `n \times k`
    matrices, and the variety is that of the module documentation.

    INPUT:

    - ``psi`` -- the parametrization (coordinates to weights)
    - ``structure`` -- a
      :class:`~sage_attention.models.linear_forms.LinearFormStructure`, or ``None``

    OUTPUT: a :class:`CommonFactorCoordinates` or ``None``

    EXAMPLES:

    The slice of full rank `3` is such a variety; that of rank `2`, whose
    quadrics `\ell m_o` have `m_o` in a plane, is not (its first two columns
    are)::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.proofs.birational_inverse import common_factor_coordinates
        sage: for a in (2, 3):
        ....:     M = LightningAttention(d=3, t=2, a=a, out=1, entries=[(1, 1)])
        ....:     C = common_factor_coordinates(M.essential_parametrization(), M.linear_form_structure())
        ....:     print(a, None if C is None else (C.n, C.k))
        2 None
        3 (3, 3)
    """
    L = structure
    if L is None or not L.outer or psi.domain().base_ring() is not QQ:
        return None
    shape = matrix_shape(L)
    if shape is None:
        return None
    n, k, a = shape
    if n < 2 or k < 2 or a < min(n, k) or any(e != 2 for e in L.degrees()) or not structure_holds(psi, L):
        return None
    R = psi.domain()
    c = {}
    for y, (o, alpha, scale) in zip(R.gens(), L.monomials):
        idx = [i for i in range(n) for _ in range(alpha[i])]
        c[(o, idx[0], idx[1])] = scale * y
    return CommonFactorCoordinates(n, k, R, c)
