r"""
Deep lightning attention networks

A lightning network of `l` layers composes cubic maps, so each output entry
is a form of degree `3^l` in the inputs. No closed form of its coefficients
is known; the coordinates here are the monomials in the support of the
expanded output, and the parametrization their coefficients. The dimension
needs no expansion (:mod:`sage_attention.models.jacobian`).

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: M = LightningAttention(widths=[1, 1, 1], ranks=[1, 1], t=2)
    sage: M.ncoordinates(), M.coordinates_list()[0]
    (10, Coordinate(row=1, token=1, kind='deep', indices=(9, 0), context=None))

The first layer has rank one, so no published formula applies; the
Jacobian rank equals the rank of the Jacobian of the expanded
parametrization (an independent computation)::

    sage: M.expected_dimension() is None
    True
    sage: phi = M.parametrization(); W = M.weight_ring()
    sage: J = matrix([[f.derivative(x) for x in W.gens()] for f in phi.im_gens()])
    sage: pt = {x: QQ(k^2 - 3) for k, x in enumerate(W.gens())}
    sage: J.subs(pt).change_ring(QQ).rank() == M.dimension_report(seed=0).dimension
    True
"""
# sage.doctest: needs sage.libs.singular

from sage.all__sagemath_singular import cached_method

from sage_attention.misc.keywords import keyword_hints
from sage_attention.models.arguments import Coordinate, index_name
from sage_attention.models.polynomial import PolynomialAttentionNetwork


@keyword_hints
class DeepLightningAttention(PolynomialAttentionNetwork):
    r"""
    A lightning attention network of several layers.

    Returned by :func:`~sage_attention.models.constructors.LightningAttention`
    given ``widths`` and ``ranks`` of length at least two; see
    :class:`~sage_attention.models.base.AttentionNetwork` for the arguments.
    The weight variables carry their layer: ``q2_11`` is `(Q_2)_{11}`.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: M = LightningAttention(widths=[2, 2, 1], ranks=[1, 1], t=1)
        sage: type(M).__name__, M.weight_ring().gens()[:3]
        ('DeepLightningAttention', (q1_11, q1_12, k1_11))
        sage: TestSuite(M).run()

    All coordinates are essential (no linear relations are known)::

        sage: M.linear_relations(), len(M.essential_coordinates()) == M.ncoordinates()
        ((), True)
    """

    _kind = "deep lightning"

    def _architecture_arguments(self):
        return [f"widths={self.widths}", f"ranks={self.ranks}", f"t={self.tokens}"]

    def _weight_prefix(self, layer, letter):
        return f"{letter}{layer + 1}_"

    @cached_method
    def _coordinate_data(self):
        # the support of the expanded output
        t = self.tokens
        compact = self._compact()
        Y = self.output_matrix()
        R = self.input_ring()
        coords, names = [], []
        for i, j in self.output_entries():
            for e in sorted(Y[i - 1, j - 1].exponents(), reverse=True):
                coords.append(Coordinate(i, j, "deep", tuple(e), None))
                factors = []
                for idx, k in enumerate(e):
                    factors += [(idx // t + 1, idx % t + 1)] * k
                body = "".join(index_name("x", f, compact) for f in sorted(factors))
                names.append(index_name("Y", (i, j), compact) + "_" + body)
        return tuple(coords), tuple(names)

    @cached_method
    def _images(self):
        Y = self.output_matrix()
        R = self.input_ring()
        W = self.weight_ring()
        return tuple(W(Y[c.row - 1, c.token - 1].monomial_coefficient(R.monomial(*c.indices)))
                     for c in self.coordinates_list())

    @cached_method
    def _linear_structure(self):
        n = len(self.coordinates_list())
        return tuple(range(n)), tuple({k: 1} for k in range(n))
