r"""
A parametrization as a Segre product: the factorization `y = A(\psi(p) \otimes b)`, found and checked exactly

The proof by a Segre product (:mod:`sage_attention.ideals.proofs.segre`,
whose documentation states the conditions and the theorem) rests on this
factorization; :func:`segre_factorization` finds it and checks it exactly,
or returns ``None``.

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.ideals.proofs.segre_factor import segre_factorization
    sage: M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
    sage: F = segre_factorization(M.essential_parametrization()); F.block, F.rank
    ((q11, q12), 3)
"""
from dataclasses import dataclass

from sage.matrix.constructor import matrix
from sage.rings.finite_rings.finite_field_constructor import GF
from sage.rings.polynomial.polynomial_ring_constructor import PolynomialRing

from sage_attention.ideals.engine.grading import linear_blocks
from sage_attention.settings import settings


@dataclass(frozen=True)
class SegreFactorization:
    r"""
    A parametrization written as `y = A(\psi(p) \otimes b)` with `A` invertible.

    Made by :func:`segre_factorization`. Attributes: ``block`` (the
    parameters `b`), ``factor`` (the polynomials `\psi_l` in the other
    parameters), ``matrix`` (`A`, with the columns ordered `(l, j)`,
    `l` slowest), ``parametrization`` (the map it factors).
    """
    block: tuple
    factor: tuple
    matrix: object
    parametrization: object

    @property
    def rank(self):
        r"""The number `r` of polynomials `\psi_l` (the coordinates of `Y`)."""
        return len(self.factor)

    def factor_map(self):
        r"""
        Return `\psi` as a ring map from `k[u_0, \dots, u_{r-1}]` to the parameters.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.proofs.segre_factor import segre_factorization
            sage: M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
            sage: F = segre_factorization(M.essential_parametrization())
            sage: F.factor_map()
            Ring morphism:
              From: Multivariate Polynomial Ring in u0, u1, u2 over Rational Field
              To:   Multivariate Polynomial Ring in q11, q12, k11, k12, v11, v12 over Rational Field
              Defn: u0 |--> k12*v12
                    u1 |--> k12*v11 + k11*v12
                    u2 |--> k11*v11
        """
        P = self.parametrization.codomain()
        U = PolynomialRing(P.base_ring(), "u", len(self.factor))
        return U.hom(list(self.factor), P)

    def check(self):
        r"""
        Return whether `\varphi(y_i) = \sum A_{i,(l,j)} \psi_l b_j` holds exactly and `A` is invertible.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.proofs.segre_factor import segre_factorization
            sage: M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
            sage: segre_factorization(M.essential_parametrization()).check()
            True
        """
        phi, A, s = self.parametrization, self.matrix, len(self.block)
        E = phi.domain()
        if A.nrows() != E.ngens() or A.ncols() != self.rank * s or A.rank() != A.nrows():
            return False
        prods = [f * b for f in self.factor for b in self.block]
        return all(phi(y) == sum(c * prods[j] for j, c in A.row(i).dict().items())
                   for i, y in enumerate(E.gens()))


def segre_factorization(phi):
    r"""
    Return the factorization of ``phi`` as a Segre product, or ``None`` when it has none.

    See the module documentation for the conditions (checked exactly).

    INPUT:

    - ``phi`` -- a morphism of polynomial rings from the coordinates to the
      parameters (e.g. ``model.essential_parametrization()``), its images
      linearly independent

    OUTPUT: a :class:`SegreFactorization` or ``None``

    EXAMPLES:

    The rank-one slice of width `2` is the Segre product of the quadrics
    of rank at most two (all binary quadrics) with the query::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.proofs.segre_factor import segre_factorization
        sage: M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
        sage: F = segre_factorization(M.essential_parametrization())
        sage: F.block, F.rank, F.check()
        ((q11, q12), 3, True)

    A single token of rank one is a product of three linear forms, linear
    in each of them, but no Segre product (the cubic's coefficients are
    sums of the products)::

        sage: segre_factorization(LightningAttention(d=2, t=1, a=1).essential_parametrization()) is None
        True
    """
    E, P = phi.domain(), phi.codomain()
    images = [phi(y) for y in E.gens()]
    if not images or any(not f for f in images):
        return None
    N, params = len(images), P.gens()
    for B in linear_blocks(images, len(params)):
        s = len(B)
        if N % s:
            continue
        block = tuple(params[j] for j in B)
        polys = [f.derivative(b) for f in images for b in block]
        mons = sorted({m for g in polys for m in g.monomials()})
        if len(mons) < N // s:
            continue
        col = {m: c for c, m in enumerate(mons)}
        entries = {(row, col[m]): c for row, g in enumerate(polys) for c, m in zip(g.coefficients(), g.monomials())}
        # a block is dropped unless the rank modulo a prime is N/s (dropping is always sound: only an
        # accepted factorization is used, and it is checked exactly); this skips the exact echelon
        # form of the blocks that fail, seconds on the layers of a deep network
        Fq = GF(int(P.base_ring().characteristic()) or settings.HILBERT_PRIMES[0])
        if (not P.base_ring().characteristic() and any(Fq(c.denominator()) == 0 for c in entries.values())) or \
                matrix(Fq, len(polys), len(mons), {ij: Fq(c) for ij, c in entries.items()}, sparse=True).rank() != N // s:
            continue
        C = matrix(P.base_ring(), len(polys), len(mons), entries, sparse=True)
        basis = C.row_space().basis()          # reduced echelon form
        r = len(basis)
        if r * s != N:
            continue
        psi = tuple(sum(c * mons[j] for j, c in v.dict().items()) for v in basis)
        if len({f.degree() for f in psi}) != 1 or not all(f.is_homogeneous() for f in psi):
            continue
        pivots = [min(v.dict()) for v in basis]
        A = matrix(P.base_ring(), N, r * s, sparse=True)
        for i in range(N):
            for j in range(s):
                row = C.row(i * s + j)
                for l, c in enumerate(pivots):
                    if row[c]:
                        A[i, l * s + j] = row[c]
        F = SegreFactorization(block, psi, A, phi)
        if F.check():
            return F
    return None
