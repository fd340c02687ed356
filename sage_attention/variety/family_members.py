r"""
The members of an invariant family, composed exactly with the parametrization

The generation report (:mod:`sage_attention.variety.generation`) needs each
member of a family twice: whether it vanishes on the model (exact), and its
terms in the essential coordinates, whose residues modulo a prime fill the
rows of the spans compared degree by degree. :class:`Composer` sends a
polynomial of the coordinate ring to the essential ring and composes it
with a free parametrization of the model, with FLINT's multivariate
polynomials (the test of
:func:`~sage_attention.variety.membership.vanishes_on_model`);
:class:`FamilyMembers` holds one family's members so composed.

EXAMPLES:

The three quadrics of the rank-one slice vanish on it, a coordinate does
not::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.variety.family_members import Composer, FamilyMembers
    sage: from sage_attention.invariants import FAMILIES
    sage: M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
    sage: K = Composer(M)
    sage: F = FamilyMembers(K, FAMILIES['low_rank'](M).polynomials())
    sage: F.contained, F.homogeneous, [k for _, _, k in F.terms]
    (True, True, [2, 2, 2])
    sage: FamilyMembers(K, [M.coordinate_ring().gen(0)]).contained
    False
"""
from itertools import chain

import numpy as np

from sage.all__sagemath_singular import lcm
from sage_attention.ideals.engine.evaluation import to_flint


class _Inhomogeneous(ValueError):
    r"""
    A member is not homogeneous: the degree-by-degree comparison does not apply.
    """


class Composer:
    r"""
    Exact composition with FLINT: a polynomial of the coordinate ring is sent
    to the essential ring (the linear substitution of :meth:`to_essential`)
    and then composed with the free parametrization
    (:func:`~sage_attention.variety.membership.free_images`).

    The FLINT contexts are over `\ZZ` when the images have integer
    coefficients (the usual case; composition is cheaper there), and each
    polynomial is taken as its primitive integer multiple, which changes
    neither its vanishing nor the spans. A polynomial that involves only
    the essential coordinates (which :meth:`to_essential` fixes) is read
    off directly from its exponents, with no substitution.

    INPUT:

    - ``model`` -- a one-layer lightning model with coordinates

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.family_members import Composer
        sage: M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
        sage: K = Composer(M)
        sage: [K.vanishes(K.essential(f)[0]) for f in M.linear_relations()]
        [True, True, True, True]
    """

    def __init__(self, model):
        import flint
        from sage_attention.variety.membership import free_images
        self.C, self.E = model.coordinate_ring(), model.essential_ring()
        images = free_images(model, "essential")
        W = images[0].parent()
        to_E = model.to_essential()
        linear = [to_E(x) for x in self.C.gens()]
        integral = all(f.denominator() == 1 for f in list(images) + linear)
        Q = flint.fmpz_mpoly_ctx if integral else flint.fmpq_mpoly_ctx
        self.wctx = Q.get(tuple(f"w{i}" for i in range(W.ngens())), "degrevlex")
        self.ectx = Q.get(tuple(f"y{i}" for i in range(self.E.ngens())), "degrevlex")
        self.cctx = Q.get(tuple(f"x{i}" for i in range(self.C.ngens())), "degrevlex")
        self.images = [to_flint(self.wctx, f) for f in images]
        self.linear = [to_flint(self.ectx, f) for f in linear]
        # the coordinates that to_essential fixes: an essential variable of the same name
        names = [str(x) for x in self.C.gens()]
        self.fixed = [names.index(str(y)) if str(y) in names else None for y in self.E.gens()]
        if None in self.fixed or any(linear[i] != self.E.gen(j) for j, i in enumerate(self.fixed)):
            self.fixed = None
        else:
            self.others = [i for i in range(len(names)) if i not in set(self.fixed)]

    def essential(self, f):
        r"""
        Return ``(g, exps, coeffs)`` for a nonzero ``f`` in the coordinate or the essential ring.

        ``g`` is the image of ``f`` in the essential ring as a FLINT
        polynomial, up to a nonzero rational factor; ``exps`` is its
        exponent array (``int16``, one row per term) and ``coeffs`` its
        coefficients cleared of denominators (Python integers), in the same
        order. ``g`` may be zero.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.family_members import Composer
            sage: M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
            sage: K = Composer(M); C = M.coordinate_ring(); x = C.gens()
            sage: g, exps, coeffs = K.essential(x[0]^2/2 - x[0]*x[1]); g, coeffs
            (y0^2 - 2*y0*y1, [1, -2])
            sage: K.vanishes(g)
            False
            sage: all(K.vanishes(K.essential(r)[0]) for r in M.linear_relations())  # substituted
            True
        """
        if f.parent() is not self.E:
            f = self.C(f)
        cs = f.coefficients()
        den = f.denominator()       # the members are mostly integral: then no multiplication
        terms = f.exponents(as_ETuples=False)
        n = f.parent().ngens()
        exps = np.fromiter(chain.from_iterable(terms), dtype=np.int16, count=len(terms) * n).reshape(-1, n)
        if f.parent() is not self.E:
            if self.fixed is None or exps[:, self.others].any():
                return self._substituted(f * den)
            exps = exps[:, self.fixed]
            terms = map(tuple, exps.tolist())
        coeffs = [int(c) for c in cs] if den == 1 else [int(c * den) for c in cs]
        return self.ectx.from_dict(dict(zip(terms, coeffs))), exps, coeffs

    def _substituted(self, f):
        r"""
        Return :meth:`essential` of ``f`` by the linear substitution.
        """
        g = to_flint(self.cctx, f).compose(*self.linear, ctx=self.ectx)
        coeffs = list(g.coeffs())
        if coeffs and hasattr(coeffs[0], "q"):          # over QQ: clear the denominators
            den = 1
            for c in coeffs:
                den = lcm(den, int(c.q))
            coeffs = [int(c.p) * (den // int(c.q)) for c in coeffs]
        else:
            coeffs = [int(c) for c in coeffs]
        monoms = g.monoms()
        exps = np.fromiter(chain.from_iterable(monoms), dtype=np.int16,
                           count=len(monoms) * self.ectx.nvars()).reshape(-1, self.ectx.nvars())
        return g, exps, coeffs

    def vanishes(self, g):
        r"""
        Return whether the essential polynomial ``g`` (FLINT) vanishes on the model (exact).
        """
        return g.compose(*self.images, ctx=self.wctx).is_zero()


class FamilyMembers:
    r"""
    The members of one family in the essential coordinates, with their exact membership in `I(X)`.

    ``contained`` is exact (FLINT composition); ``terms`` is a list of
    ``(exponent array, integer coefficients, degree)`` (each member taken
    as its primitive integer multiple), ``homogeneous`` whether every
    member is. Members that are zero in the essential ring are left out
    of ``terms``.

    INPUT:

    - ``composer`` -- a :class:`Composer` of the model
    - ``polys`` -- polynomials of the coordinate ring or the essential ring

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.family_members import Composer, FamilyMembers
        sage: M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
        sage: E = M.essential_ring(); y = E.gens()
        sage: F = FamilyMembers(Composer(M), [y[0]^2 - y[1]*y[2], y[0]])
        sage: F.contained, F.homogeneous, len(F.terms)
        (False, True, 2)
        sage: [(e.tolist(), r.tolist(), k) for e, r, k in F.rows(5)][1]
        ([[1, 0, 0, 0, 0, 0]], [1], 1)
        sage: F.polynomials(E)[1] == y[0]
        True
    """

    def __init__(self, composer, polys):
        self.contained = True
        self.terms = []
        self.homogeneous = True
        for f in polys:
            if not f:
                continue
            g, exps, coeffs = composer.essential(f)
            if self.contained and not composer.vanishes(g):
                self.contained = False
            if g.is_zero():
                continue
            tot = exps.sum(axis=1)
            if (tot != tot[0]).any():
                self.homogeneous = False
            self.terms.append((exps, coeffs, int(tot.max())))
        self._res = {}

    def rows(self, p):
        r"""
        Return ``[(exponent array, residues mod p, degree)]``.
        """
        if not self.homogeneous:
            raise _Inhomogeneous()
        if p not in self._res:
            self._res[p] = [(e, residues_of_ints(cs, p), k) for e, cs, k in self.terms]
        return self._res[p]

    def polynomials(self, E):
        r"""
        Return the members (nonzero, up to constant factors) as polynomials of the essential ring ``E``.
        """
        return [E(dict(zip(map(tuple, exps.tolist()), coeffs))) for exps, coeffs, _ in self.terms]


def residues_of_ints(cs, p):
    r"""
    Return the residues modulo ``p`` of the Python integers ``cs`` as an ``int64`` array.

    EXAMPLES::

        sage: from sage_attention.variety.family_members import residues_of_ints
        sage: residues_of_ints([-1, 7, 2^70 + 3], 5).tolist()
        [4, 2, 2]
    """
    try:
        return np.array(cs, dtype=np.int64) % p      # vectorized when every coefficient fits
    except OverflowError:
        return np.array([c % p for c in cs], dtype=np.int64)
