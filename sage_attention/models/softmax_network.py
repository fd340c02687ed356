r"""
Softmax attention networks

With a normalization `S`, layer `i` computes `V_i X S(X^T A_i X)`, where
`S(M)_{nj} = \exp(M_{nj}) / \sum_m \exp(M_{mj})`. The network is no longer
polynomial: it has no coordinate ring nor parametrization, and its
dimension is a numerical Jacobian rank
(:func:`~sage_attention.models.softmax.numerical_dimension`).

EXAMPLES::

    sage: from sage_attention import SoftmaxAttention
    sage: M = SoftmaxAttention(d=2, t=2, a=1); M
    SoftmaxAttention(d=2, out=1, t=2, a=1) over Rational Field
    sage: M.coordinate_ring()
    Traceback (most recent call last):
    ...
    ValueError: a softmax network has no coordinate ring: softmax (exp) is not polynomial, so its outputs have no coefficients to use as coordinates; its dimension is a numerical Jacobian rank (dimension_report)
    sage: M.dimension_report(seed=0).dimension == M.expected_dimension() == 5
    True
"""
from sage.all__sagemath_singular import QQ, matrix
from sage.rings.real_double import RDF

from sage_attention.misc.keywords import keyword_hints
from sage_attention.models.base import AttentionNetwork


@keyword_hints
class SoftmaxAttentionNetwork(AttentionNetwork):
    r"""
    An attention network with at least one softmax layer.

    Returned by :func:`~sage_attention.models.constructors.SoftmaxAttention`
    (every layer normalized) and by
    :class:`~sage_attention.models.base.AttentionNetwork` for a mixed
    ``normalization``. The base ring is `\QQ` (the default) or ``RDF``.

    EXAMPLES::

        sage: from sage_attention import SoftmaxAttention
        sage: from sage_attention.models import AttentionNetwork
        sage: M = SoftmaxAttention(widths=[3, 3, 3], ranks=[2, 2], t=3); M
        SoftmaxAttention(widths=(3, 3, 3), ranks=(2, 2), t=3) over Rational Field
        sage: AttentionNetwork((3, 3, 3), (2, 2), 3, normalization=('lightning', 'softmax'))
        AttentionNetwork(widths=(3, 3, 3), ranks=(2, 2), t=3, normalization=('lightning', 'softmax')) over Rational Field
        sage: latex(M)
        \varphi^{\mathrm{soft}}_{\mathbf{d}=(3, 3, 3),\, \mathbf{a}=(2, 2),\, t=3}
        sage: TestSuite(M).run()

    TESTS::

        sage: SoftmaxAttention(d=2, t=2, a=1, base_ring=GF(7))
        Traceback (most recent call last):
        ...
        ValueError: base_ring (=Finite Field of size 7) of a softmax network must be QQ or RDF: exp has no meaning over it
        sage: SoftmaxAttention(d=2, t=2, a=1, base_ring=RR)
        Traceback (most recent call last):
        ...
        ValueError: base_ring (=Real Field with 53 bits of precision) of a softmax network must be QQ or RDF: exp has no meaning over it
    """

    _kind = "softmax"
    _latex_kind = r"\mathrm{soft}"

    @classmethod
    def check_base_ring(cls, base_ring):
        r"""
        Return ``base_ring`` if it is `\QQ` or ``RDF``, else raise.

        EXAMPLES::

            sage: from sage_attention.models.softmax_network import SoftmaxAttentionNetwork
            sage: SoftmaxAttentionNetwork.check_base_ring(RDF)
            Real Double Field
        """
        if isinstance(base_ring, str):
            return AttentionNetwork.check_base_ring(base_ring)
        if base_ring is not QQ and base_ring is not RDF:
            raise ValueError(f"base_ring (={base_ring}) of a softmax network must be QQ or RDF: "
                             "exp has no meaning over it")
        return base_ring

    @property
    def _constructor(self):
        if all(n == "softmax" for n in self.normalization):
            return "SoftmaxAttention"
        return "AttentionNetwork"

    def _architecture_arguments(self):
        if len(self.ranks) == 1:
            args = [f"d={self.d}", f"out={self.out}", f"t={self.tokens}", f"a={self.ranks[0]}"]
        else:
            args = [f"widths={self.widths}", f"ranks={self.ranks}", f"t={self.tokens}"]
        if self._constructor == "AttentionNetwork":
            args.append(f"normalization={self.normalization}")
        return args

    def forward(self, X, weights):
        r"""
        Return the output `Y` of the network at an input matrix and weights, over ``RDF``.

        A softmax layer applies `\exp` to each column of `X^T A X` after
        subtracting the column's maximum (the same value, no overflow) and
        normalizes the column.

        INPUT:

        - ``X`` -- a `d \times t` matrix over `\QQ` or ``RDF``
        - ``weights`` -- a list as returned by :meth:`random_weights`

        EXAMPLES::

            sage: from sage_attention import SoftmaxAttention
            sage: M = SoftmaxAttention(d=1, t=2, a=1, weight_space='AV')
            sage: Y = M.forward(matrix(QQ, [[0, 0]]), [(matrix([[1]]), matrix([[1]]))]); Y
            [0.0 0.0]
            sage: M.forward(matrix(QQ, [[1, 2]]), [(matrix([[0]]), matrix([[1]]))])
            [1.5 1.5]

        Large scores do not overflow::

            sage: N = SoftmaxAttention(d=3, t=3, a=2, out=3)
            sage: w = N.random_weights(seed=0)
            sage: X = matrix(RDF, 3, 3, range(9))
            sage: Y = N.forward(X, w); all(y == y for y in Y.list())   # no NaN
            True
        """
        X = matrix(RDF, X)
        for w, norm in zip(weights, self.normalization):
            A, V = self.attention_and_value(w)
            A, V = matrix(RDF, A), matrix(RDF, V)
            S = X.transpose() * A * X
            if norm == "softmax":
                cols = []
                for j in range(S.ncols()):
                    col = S.column(j)
                    top = max(col)
                    e = [(s - top).exp() for s in col]
                    z = sum(e)
                    cols.append([x / z for x in e])
                S = matrix(RDF, cols).transpose()
            X = V * X * S
        return X

    def coordinate_ring(self, force=False):
        r"""
        Refuse: a softmax network has no coordinate ring.

        The coefficient coordinates of a lightning network are the
        coefficients of its outputs, polynomials in the input; softmax
        applies `\exp`, so the outputs are not polynomials and there are no
        coefficients. The dimension is a numerical Jacobian rank
        (:meth:`dimension_report`).

        INPUT:

        - ``force`` -- ignored (the argument of the lightning models' method)

        OUTPUT: a ``ValueError`` naming why

        EXAMPLES::

            sage: from sage_attention import SoftmaxAttention
            sage: SoftmaxAttention(d=2, t=2, a=1).coordinate_ring()
            Traceback (most recent call last):
            ...
            ValueError: a softmax network has no coordinate ring: softmax (exp) is not polynomial, ...
        """
        raise ValueError("a softmax network has no coordinate ring: softmax (exp) is not "
                         "polynomial, so its outputs have no coefficients to use as "
                         "coordinates; its dimension is a numerical Jacobian rank "
                         "(dimension_report)")

    def dimension_report(self, seed=None, field=None, proof=False, force=False):
        r"""
        Return the numerical dimension of the network, with a report.

        INPUT:

        - ``seed`` -- (default: ``None``, drawn from Sage's random state) integer
        - ``field`` -- (default: ``None``) only ``None`` or ``RDF``: the
          rank is numerical, in float64
        - ``proof`` -- boolean (default: ``False``); must be ``False``
        - ``force`` -- boolean (default: ``False``); run even when the size
          guard refuses

        OUTPUT: a :class:`~sage_attention.models.softmax.NumericalDimensionReport`

        EXAMPLES::

            sage: from sage_attention import SoftmaxAttention
            sage: R = SoftmaxAttention(d=3, t=2, a=2).dimension_report(seed=0)
            sage: R.dimension, R.expected
            (11, 11)

        TESTS::

            sage: SoftmaxAttention(d=3, t=2, a=2).dimension_report(field=GF(101))
            Traceback (most recent call last):
            ...
            ValueError: field (=Finite Field of size 101) must be None or RDF: the dimension of a softmax network is a numerical rank
        """
        from sage_attention.models.softmax import numerical_dimension
        from sage_attention.models.guards import check_jacobian_size
        if proof:
            raise NotImplementedError("proof=True is not available: the dimension is a rank at a "
                                      "random point; pass proof=False")
        if field is not None and field is not RDF:
            raise ValueError(f"field (={field}) must be None or RDF: the dimension of a softmax "
                             "network is a numerical rank")
        check_jacobian_size(self, force)
        return numerical_dimension(self, seed=seed)

    def dimension(self, seed=None, field=None, proof=False, force=False):
        r"""
        Return the numerical dimension of the network.

        The arguments are those of :meth:`dimension_report`, which returns
        the same number with the singular values and the seed used.

        OUTPUT: an integer

        EXAMPLES::

            sage: from sage_attention import SoftmaxAttention
            sage: SoftmaxAttention(d=2, t=2, a=1).dimension(seed=0)
            5
        """
        from sage.rings.integer import Integer
        return Integer(self.dimension_report(seed=seed, field=field, proof=proof,
                                             force=force).dimension)
