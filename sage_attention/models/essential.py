r"""
Linear relations and essential coordinates

A mixin of :class:`~sage_attention.models.polynomial.PolynomialAttentionNetwork`.
Before any nonlinear equation, the coefficient coordinates satisfy linear
relations (:ref:`mathematics, §2 <math-2>`): a cross coefficient does not
depend on the context token, and each pure coefficient is a combination of
cross ones. The subclasses give the relations as data
(``_linear_structure``); this mixin turns them into polynomials, the ring of
essential coordinates and the maps to and from it.

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: M = LightningAttention(d=2, t=3, a=1)
    sage: M.ncoordinates(), len(M.linear_relations()), M.essential_ring().ngens()
    (48, 42, 6)
"""
# sage.doctest: needs sage.libs.singular

from sage.all__sagemath_singular import cached_method, PolynomialRing
from sage_attention.misc.keywords import keyword_hints


@keyword_hints
class EssentialCoordinates:
    r"""
    Mixin: linear relations, essential coordinates and their ring.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.models.essential import EssentialCoordinates
        sage: isinstance(LightningAttention(d=2, t=2, a=1), EssentialCoordinates)
        True
    """

    def essential_coordinates(self):
        r"""
        Return the essential coordinates: those left after the linear relations.

        For one layer and `t \ge 2` these are, for each output row, one cross
        coordinate per pair `(\{a, b\}, c)`: the entries of the tensor `T` of
        :ref:`mathematics, §2 <math-2>`. For `t = 1` (and for deep networks)
        all coordinates are essential.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=3, a=1)
            sage: M.essential_coordinates()
            (Y11_x11x12x12,
             Y11_x12x12x21,
             Y11_x11x12x22,
             Y11_x12x21x22,
             Y11_x11x22x22,
             Y11_x21x22x22)
        """
        C = self.coordinate_ring()
        return tuple(C.gen(k) for k in self._linear_structure()[0])

    def linear_relations(self):
        r"""
        Return the linear relations among the coordinates (:ref:`mathematics, §2 <math-2>`).

        These are the copy relations (a cross coefficient does not depend on
        the context token nor on the output token) and the symmetrization
        relations (each pure coefficient is a sum of cross coefficients).
        Together with the essential coordinates they express every
        coordinate.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=1, t=2, a=1)
            sage: M.linear_relations()
            (-Y11_x11x12x12 + Y11_x11x11x11,
             -Y11_x11x12x12 + Y12_x11x11x12,
             -Y11_x11x12x12 + Y12_x12x12x12)

        Each relation vanishes on the parametrization::

            sage: M = LightningAttention(d=3, t=3, a=2, out=2, coordinate_scaling='scaled')
            sage: phi = M.parametrization()
            sage: all(phi(f) == 0 for f in M.linear_relations())
            True
        """
        C = self.coordinate_ring()
        essential, expr = self._linear_structure()
        ess = set(essential)
        rels = []
        for k, e in enumerate(expr):
            if k in ess:
                continue
            rels.append(C.gen(k) - sum(coef * C.gen(j) for j, coef in e.items()))
        return tuple(rels)

    def linear_form_structure(self):
        r"""
        Return the coordinates as the coefficients of a polynomial in linear forms, or ``None``.

        ``None`` here; a model whose coordinates are the coefficients of
        `P(W x)` (:mod:`sage_attention.models.linear_forms`) says so by
        overriding this method.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=2, a=1).linear_form_structure() is None
            True
        """
        return None

    @cached_method
    def essential_ring(self):
        r"""
        Return the polynomial ring in the essential coordinates.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=2, a=1).essential_ring()
            Multivariate Polynomial Ring in Y11_x11x12x12, Y11_x12x12x21, Y11_x11x12x22, Y11_x12x21x22, Y11_x11x22x22, Y11_x21x22x22 over Rational Field
        """
        all_names = self.coordinate_ring().variable_names()
        names = [all_names[k] for k in self._linear_structure()[0]]
        from sage_attention.models.arguments import with_coordinate_latex_names
        return with_coordinate_latex_names(PolynomialRing(self._base_ring, names, order="degrevlex"))

    @cached_method
    def to_essential(self):
        r"""
        Return the morphism from the coordinate ring onto the essential ring.

        It sends each coordinate to its expression in the essential
        coordinates; its kernel is generated by :meth:`linear_relations`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=1, t=2, a=1)
            sage: M.to_essential()(M.coordinate_ring()('Y12_x12x12x12'))
            Y11_x11x12x12
        """
        E = self.essential_ring()
        essential, expr = self._linear_structure()
        pos = {k: i for i, k in enumerate(essential)}
        images = [sum(coef * E.gen(pos[j]) for j, coef in e.items()) for e in expr]
        return self.coordinate_ring().hom(images, E)

    @cached_method
    def from_essential(self):
        r"""
        Return the inclusion of the essential ring into the coordinate ring.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=2, a=1)
            sage: f = M.from_essential(); g = M.to_essential()
            sage: all(g(f(x)) == x for x in M.essential_ring().gens())
            True
        """
        C = self.coordinate_ring()
        return self.essential_ring().hom(list(self.essential_coordinates()), C)

    @cached_method
    def essential_parametrization(self):
        r"""
        Return the parametrization restricted to the essential coordinates.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=2, a=1, weight_space='AV', coordinate_scaling='scaled')
            sage: M.essential_parametrization()(M.essential_ring().gen(2))
            1/2*v12*A11 + 1/2*v11*A21
        """
        phi = self.parametrization()
        return self.essential_ring().hom([phi(x) for x in self.essential_coordinates()],
                                         self.weight_ring())
