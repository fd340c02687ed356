r"""
Polynomial (lightning) attention networks: rings and the parametrization

Without normalization an attention network is a polynomial map, and
sage_attention compiles it into Sage objects: the weight ring, the input
ring, the output matrix `Y`, the ring of coefficient coordinates (one
variable per output entry and monomial), the parametrization as a ring
morphism, the linear relations among the coordinates and the essential
coordinates left after them.

This module holds what one layer and deep networks share; the coordinates
themselves come from the subclasses
:class:`~sage_attention.models.lightning.LightningAttentionLayer` (closed
form) and :class:`~sage_attention.models.deep.DeepLightningAttention`
(expansion)::

    sage: from sage_attention import LightningAttention
    sage: M = LightningAttention(d=2, t=2, a=1)
    sage: phi = M.parametrization()
    sage: all(phi(f) == 0 for f in M.linear_relations())
    True
"""
# sage.doctest: needs sage.libs.singular

from sage.all__sagemath_singular import cached_method, PolynomialRing, matrix

from sage_attention.sizes import check_size
from sage_attention.models.base import AttentionNetwork, index_name
from sage_attention.models.guards import check_ring_size


class PolynomialAttentionNetwork(AttentionNetwork):
    r"""
    A lightning attention network: a polynomial map from weights to outputs.

    Abstract: the concrete classes are
    :class:`~sage_attention.models.lightning.LightningAttentionLayer` and
    :class:`~sage_attention.models.deep.DeepLightningAttention`.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.models.polynomial import PolynomialAttentionNetwork
        sage: isinstance(LightningAttention(d=2, t=2, a=1), PolynomialAttentionNetwork)
        True
    """

    _constructor = "LightningAttention"

    # ------------------------------------------------------------------
    # subclass interface
    # ------------------------------------------------------------------

    def _weight_prefix(self, layer, letter):
        r"""
        Return the prefix of the variables of weight matrix ``letter`` of ``layer``.
        """
        raise NotImplementedError

    def _coordinate_data(self):
        r"""
        Return ``(coordinates, names)``: the :class:`~sage_attention.models.base.Coordinate`
        tuples and their variable names, in order.
        """
        raise NotImplementedError

    def _images(self):
        r"""
        Return the images of all coordinates in the weight ring.
        """
        raise NotImplementedError

    def _linear_structure(self):
        r"""
        Return ``(essential_indices, expressions)``: the indices of the
        essential coordinates, and for each coordinate a dictionary
        ``{essential index: coefficient}`` expressing it.
        """
        raise NotImplementedError

    # ------------------------------------------------------------------
    # Rings
    # ------------------------------------------------------------------

    def _compact(self):
        return max(self.widths + self.ranks + (self.tokens,)) < 10

    def ncoordinates(self):
        r"""
        Return the number of coefficient coordinates.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=3, t=1, a=1, out=3).ncoordinates()
            30
        """
        return len(self._coordinate_data()[0])

    def _weight_names(self):
        compact = self._compact()
        names = []
        for l, a in enumerate(self.ranks):
            din, dout = self.widths[l], self.widths[l + 1]
            pre = lambda s: self._weight_prefix(l, s)
            if self.weight_space == "QKV":
                names += [index_name(pre("q"), (k, c), compact) for k in range(1, a + 1)
                          for c in range(1, din + 1)]
                names += [index_name(pre("k"), (k, b), compact) for k in range(1, a + 1)
                          for b in range(1, din + 1)]
            names += [index_name(pre("v"), (i, p), compact) for i in range(1, dout + 1)
                      for p in range(1, din + 1)]
            if self.weight_space == "AV":
                names += [index_name(pre("A"), (b, c), compact) for b in range(1, din + 1)
                          for c in range(1, din + 1)]
        return names

    @cached_method
    def weight_ring(self, force=False):
        r"""
        Return the polynomial ring of the weights.

        Variables: ``q{k}{c}``, ``k{k}{b}`` (rows of `Q` and `K`), ``v{i}{a}``
        and, for ``weight_space='AV'``, ``A{b}{c}``. In a deep network each
        name carries its layer: ``q2_11`` is `(Q_2)_{11}`. Indices are
        separated by ``_`` when a width reaches 10.

        INPUT:

        - ``force`` -- boolean (default: ``False``); build it even when the
          size guard refuses

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=2, a=1, out=1).weight_ring()
            Multivariate Polynomial Ring in q11, q12, k11, k12, v11, v12 over Rational Field
            sage: LightningAttention(d=2, t=2, a=1, out=1, weight_space='AV').weight_ring().gens()
            (v11, v12, A11, A12, A21, A22)

        TESTS::

            sage: LightningAttention(d=12000, t=1, a=1).weight_ring()
            Traceback (most recent call last):
            ...
            ComputationTooLarge: the weight ring needs 36000 variables (Singular's limit is 32767); pass force=True to run it anyway
        """
        check_ring_size("the weight ring", self.nparameters(), force)
        return PolynomialRing(self._base_ring, self._weight_names(), order="degrevlex")

    def weight_matrices(self):
        r"""
        Return the weight matrices over :meth:`weight_ring`, one tuple per layer.

        OUTPUT: a list with, for each layer, ``(Q, K, V)`` or ``(A, V)``

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: (Q, K, V), = LightningAttention(d=2, t=2, a=1, out=1).weight_matrices()
            sage: K.transpose() * Q
            [q11*k11 q12*k11]
            [q11*k12 q12*k12]
        """
        W = self.weight_ring()
        gens = iter(W.gens())
        result = []
        for l, a in enumerate(self.ranks):
            din, dout = self.widths[l], self.widths[l + 1]
            if self.weight_space == "QKV":
                Q = matrix(W, a, din, [next(gens) for _ in range(a * din)])
                K = matrix(W, a, din, [next(gens) for _ in range(a * din)])
                V = matrix(W, dout, din, [next(gens) for _ in range(dout * din)])
                result.append((Q, K, V))
            else:
                V = matrix(W, dout, din, [next(gens) for _ in range(dout * din)])
                A = matrix(W, din, din, [next(gens) for _ in range(din * din)])
                result.append((A, V))
        return result

    def attention_matrices(self):
        r"""
        Return the matrices `A_i = K_i^T Q_i` (or the generic `A_i`) over the weight ring.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=2, a=1, out=1, weight_space='AV').attention_matrices()
            [
            [A11 A12]
            [A21 A22]
            ]
        """
        from sage.structure.sequence import Sequence
        return Sequence([self.attention_and_value(w)[0] for w in self.weight_matrices()],
                        immutable=True)

    def rank_ideal(self):
        r"""
        Return the ideal of the weight ring imposing `\operatorname{rank} A_i \le a_i`.

        For ``weight_space='QKV'`` this is the zero ideal; for ``'AV'`` it is
        generated by the `(a_i + 1)`-minors of each `A_i` (none when
        `a_i \ge d_{i-1}`).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=2, a=1, out=1, weight_space='AV').rank_ideal()
            Ideal (-A12*A21 + A11*A22) of Multivariate Polynomial Ring in v11, v12, A11, A12, A21, A22 over Rational Field
            sage: LightningAttention(d=2, t=2, a=2, out=1, weight_space='AV').rank_ideal()
            Ideal (0) of Multivariate Polynomial Ring in v11, v12, A11, A12, A21, A22 over Rational Field
        """
        W = self.weight_ring()
        gens = []
        if self.weight_space == "AV":
            for A, a in zip(self.attention_matrices(), self.ranks):
                if a < A.nrows():
                    gens += A.minors(a + 1)
        return W.ideal(gens if gens else [W.zero()])

    @cached_method
    def input_ring(self):
        r"""
        Return the polynomial ring of the input tokens over :meth:`weight_ring`.

        The variable ``x{k}{n}`` is the entry `X_{kn}` (row `k`, token `n`).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=2, a=1).input_ring()
            Multivariate Polynomial Ring in x11, x12, x21, x22 over Multivariate Polynomial Ring in q11, q12, k11, k12, v11, v12 over Rational Field
        """
        compact = self._compact()
        check_ring_size("the input ring", self.d * self.tokens, False)
        names = [index_name("x", (k, n), compact) for k in range(1, self.d + 1)
                 for n in range(1, self.tokens + 1)]
        return PolynomialRing(self.weight_ring(), names, order="degrevlex")

    def input_matrix(self):
        r"""
        Return the generic input matrix `X` over :meth:`input_ring`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=2, a=1).input_matrix()
            [x11 x12]
            [x21 x22]
        """
        R = self.input_ring()
        return matrix(R, self.d, self.tokens, R.gens())

    @cached_method
    def output_matrix(self, force=False):
        r"""
        Return the output `Y` of the network on the generic input, expanded.

        INPUT:

        - ``force`` -- boolean (default: ``False``); expand even when the size
          guard refuses

        OUTPUT: a `d' \times t` matrix over :meth:`input_ring`

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: Y = LightningAttention(d=1, t=2, a=1, out=1, weight_space='AV').output_matrix(); Y
            [v11*A11*x11^3 + v11*A11*x11*x12^2 v11*A11*x11^2*x12 + v11*A11*x12^3]

        TESTS::

            sage: LightningAttention(widths=[4, 4, 4, 4], ranks=[2, 2, 2], t=3).output_matrix()
            Traceback (most recent call last):
            ...
            ComputationTooLarge: expanding the parametrization needs about ... terms (limit 2000000); ...
        """
        check_size(self.size_estimate(), "parametrization", force,
                   hint="dimension() needs no expansion")
        X = self.input_matrix()
        R = X.base_ring()
        for w in self.weight_matrices():
            A, V = self.attention_and_value(w)
            A = A.change_ring(R)
            V = V.change_ring(R)
            X = V * X * (X.transpose() * A * X)
        X.set_immutable()
        return X

    # ------------------------------------------------------------------
    # Coordinates and the parametrization
    # ------------------------------------------------------------------

    def coordinates_list(self):
        r"""
        Return the descriptions of all coordinates, in the order of the ring's variables.

        OUTPUT: a tuple of :class:`~sage_attention.models.base.Coordinate`

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=1, a=1)
            sage: M.coordinates_list()
            (Coordinate(row=1, token=1, kind='pure', indices=(1, 1, 1), context=None),
             Coordinate(row=1, token=1, kind='pure', indices=(1, 1, 2), context=None),
             Coordinate(row=1, token=1, kind='pure', indices=(1, 2, 2), context=None),
             Coordinate(row=1, token=1, kind='pure', indices=(2, 2, 2), context=None))
        """
        return self._coordinate_data()[0]

    @cached_method
    def coordinate_ring(self, force=False):
        r"""
        Return the polynomial ring of the coefficient coordinates.

        ``Y{i}{j}_x..x..x..`` is the coefficient of that monomial in `Y_{ij}`.

        INPUT:

        - ``force`` -- boolean (default: ``False``); build it even when the
          size guard refuses

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=1, a=1).coordinate_ring()
            Multivariate Polynomial Ring in Y11_x11x11x11, Y11_x11x11x21, Y11_x11x21x21, Y11_x21x21x21 over Rational Field

        TESTS::

            sage: LightningAttention(d=30, t=3, a=2).coordinate_ring()
            Traceback (most recent call last):
            ...
            ComputationTooLarge: the coordinate ring needs 98580 variables (Singular's limit is 32767); dimension() needs no coordinates; pass force=True to run it anyway
        """
        check_size(self.size_estimate(), "coordinates", force,
                   hint="dimension() needs no coordinates")
        names = self._coordinate_data()[1]
        check_ring_size("the coordinate ring", len(names), force,
                        hint="dimension() needs no coordinates")
        return PolynomialRing(self._base_ring, names, order="degrevlex")

    def coordinate_info(self, var):
        r"""
        Return the :class:`~sage_attention.models.base.Coordinate` description of a coordinate variable.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=2, a=1)
            sage: M.coordinate_info(M.coordinate_ring().gen(0))
            Coordinate(row=1, token=1, kind='cross', indices=(1, 1, 1), context=2)
        """
        C = self.coordinate_ring()
        return self.coordinates_list()[C.gens().index(C(var))]

    def term_count(self, coordinate):
        r"""
        Return the number of terms of the raw coefficient of a coordinate.

        A scaled coordinate is the raw one divided by this number
        (:ref:`mathematics, §2 <math-2>`).

        INPUT:

        - ``coordinate`` -- a :class:`~sage_attention.models.base.Coordinate`

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=2, a=1)
            sage: [M.term_count(c) for c in M.coordinates_list()[:3]]
            [1, 1, 2]
        """
        return 1

    @cached_method
    def parametrization(self):
        r"""
        Return the parametrization as a ring morphism from coordinates to weights.

        Its kernel is the vanishing ideal of the neurovariety.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=1, a=1, weight_space='AV')
            sage: M.parametrization()
            Ring morphism:
              From: Multivariate Polynomial Ring in Y11_x11x11x11, Y11_x11x11x21, Y11_x11x21x21, Y11_x21x21x21 over Rational Field
              To:   Multivariate Polynomial Ring in v11, v12, A11, A12, A21, A22 over Rational Field
              Defn: Y11_x11x11x11 |--> v11*A11
                    Y11_x11x11x21 |--> v12*A11 + v11*A12 + v11*A21
                    Y11_x11x21x21 |--> v12*A12 + v12*A21 + v11*A22
                    Y11_x21x21x21 |--> v12*A22

        The images are exactly the coefficients of the expanded output
        (an independent computation)::

            sage: Y = M.output_matrix(); R = M.input_ring()
            sage: phi = M.parametrization()
            sage: all(Y[0, 0].monomial_coefficient(R(str(x).split('_')[1].replace('x', '*x')[1:])) == phi(x)
            ....:     for x in M.coordinate_ring().gens())
            True
        """
        C = self.coordinate_ring()
        return C.hom(list(self._images()), self.weight_ring())

    def coefficients_at(self, weights):
        r"""
        Return the values of all coordinates at given weights.

        INPUT:

        - ``weights`` -- a list as returned by :meth:`random_weights`: one
          tuple ``(Q, K, V)`` or ``(A, V)`` of matrices per layer

        OUTPUT: a list of field elements, in the order of the coordinate
        ring's variables

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(widths=[2, 2, 1], ranks=[1, 1], t=2)
            sage: w = M.random_weights(seed=3)
            sage: vals = M.coefficients_at(w)
            sage: vals == [f(M.weights_point(w)) for f in M.parametrization().im_gens()]
            True

        TESTS::

            sage: M.coefficients_at([])
            Traceback (most recent call last):
            ...
            ValueError: weights (=[]) must be a list with one tuple (Q, K, V) of matrices per layer (2 layers)
        """
        self._check_weights(weights)
        pt = self.weights_point(weights)
        return [f(pt) for f in self._images()]

    def _check_weights(self, weights):
        n = 3 if self.weight_space == "QKV" else 2
        shape = "(Q, K, V)" if n == 3 else "(A, V)"
        ok = isinstance(weights, (list, tuple)) and len(weights) == len(self.ranks)
        ok = ok and all(isinstance(w, (list, tuple)) and len(w) == n
                        and all(hasattr(m, "dimensions") for m in w) for w in weights)
        if not ok:
            raise ValueError(f"weights (={weights!r}) must be a list with one tuple {shape} of "
                             f"matrices per layer ({len(self.ranks)} layers)")

    def forward(self, X, weights):
        r"""
        Return the output `Y` of the network at an input matrix and weights.

        INPUT:

        - ``X`` -- a `d \times t` matrix
        - ``weights`` -- a list as returned by :meth:`random_weights`

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=1, t=2, a=1, weight_space='AV')
            sage: M.forward(matrix(QQ, [[1, 2]]), [(matrix([[1]]), matrix([[1]]))])
            [ 5 10]
        """
        self._check_weights(weights)
        for w in weights:
            A, V = self.attention_and_value(w)
            X = V * X * (X.transpose() * A * X)
        return X

    # ------------------------------------------------------------------
    # Linear relations and essential coordinates
    # ------------------------------------------------------------------

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

    @cached_method
    def essential_ring(self):
        r"""
        Return the polynomial ring in the essential coordinates.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=2, a=1).essential_ring()
            Multivariate Polynomial Ring in Y11_x11x12x12, Y11_x12x12x21, Y11_x11x12x22, Y11_x12x21x22, Y11_x11x22x22, Y11_x21x22x22 over Rational Field
        """
        names = [str(x) for x in self.essential_coordinates()]
        return PolynomialRing(self._base_ring, names, order="degrevlex")

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

    # ------------------------------------------------------------------
    # Dimension and the neurovariety
    # ------------------------------------------------------------------

    def dimension_report(self, seed=None, field=None, proof=False, force=False):
        r"""
        Return the dimension of the neurovariety, with a report.

        The dimension (of the affine cone) is the generic rank of the
        Jacobian of the parametrization. It is computed at random weights by
        forward-mode differentiation of the network at random inputs
        (:mod:`sage_attention.models.jacobian`), so the polynomials are never
        expanded: the Jacobian of weights `\mapsto (Y(X_1), \dots, Y(X_N))`
        has the same generic rank as the coefficient map once the inputs are
        generic and numerous enough. Inputs are added one at a time until a
        new one adds no rank (then every function in the kernel vanishes at
        a generic point, hence everywhere).

        INPUT:

        - ``seed`` -- (default: ``None``, drawn from Sage's random state)
          integer; the same seed gives the same random points and the same
          report
        - ``field`` -- (default: `\GF{p}` with `p = 67108859`) the field of
          the random points: `\QQ` (exact but slower) or a prime field
          `\GF{p}` with `p \ge 2^{16}`
        - ``proof`` -- boolean (default: ``False``); must be ``False``: the
          rank at a random point is a certified lower bound and equals the
          dimension only with high probability
        - ``force`` -- boolean (default: ``False``); run even when the size
          guard refuses

        OUTPUT: a :class:`~sage_attention.models.reports.DimensionReport`

        .. WARNING::

            The result is never larger than the true dimension (a rank at a
            point, reduced modulo `p` or not, is at most the generic rank).
            It is smaller with probability at most
            ``report.failure_probability`` (Schwartz--Zippel over the random
            weights and inputs).

        ALGORITHM: [HMK2024]_ for the expected value; exact linear algebra
        over `\GF{p}` for the computed one.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=4, t=3, a=2, out=2)
            sage: D = M.dimension_report(seed=0)
            sage: D.dimension, D.expected, D.agrees
            (19, 19, True)
            sage: D.failure_probability < 1e-4
            True

        Over `\QQ` the same rank::

            sage: M.dimension_report(seed=0, field=QQ).dimension
            19

        A deep network: the rank one first layer makes the formula
        inapplicable; the computed dimension is still exact::

            sage: LightningAttention(widths=[3, 3, 3], ranks=[1, 2], t=3).dimension_report(seed=2)
            The neurovariety of LightningAttention(widths=(3, 3, 3), ranks=(1, 2), t=3) over Rational Field has dimension 18
            (no published formula: layer 1 has rank 1, so every later token matrix has rank one and later layers only see Sym(A)); the generic fiber has dimension 18.

        TESTS::

            sage: M.dimension_report(proof=True)
            Traceback (most recent call last):
            ...
            NotImplementedError: proof=True is not available: the dimension is a rank at a random point; pass proof=False
            sage: M.dimension_report(field=RR)
            Traceback (most recent call last):
            ...
            ValueError: field (=Real Field with 53 bits of precision) must be QQ or a prime field GF(p) with p >= 65536: an inexact field or a small prime does not give a certified lower bound
            sage: M.dimension_report(field=GF(2))
            Traceback (most recent call last):
            ...
            ValueError: field (=Finite Field of size 2) must be QQ or a prime field GF(p) with p >= 65536: ...
        """
        from sage_attention.models.reports import DimensionReport
        from sage_attention.models.jacobian import jacobian_rank, rank_field
        from sage_attention.randomness import resolve_seed
        if proof:
            raise NotImplementedError("proof=True is not available: the dimension is a rank at a "
                                      "random point; pass proof=False")
        F = rank_field(field)
        seed = resolve_seed(seed)
        rank, ninputs, bound = jacobian_rank(self, F, seed, force=force)
        expected, note = self._published()
        return DimensionReport(
            model=repr(self), dimension=rank, expected=expected, expected_note=note,
            parameters=self.nparameters(), parameter_dimension=self.parameter_dimension(),
            fiber_dimension=self.parameter_dimension() - rank,
            failure_probability=float(bound), seed=seed, field=str(F), inputs=ninputs,
            method="rank of the Jacobian at random weights and inputs (forward mode)")

    def dimension(self, seed=None, field=None, proof=False, force=False):
        r"""
        Return the dimension of the neurovariety (of the affine cone).

        The arguments are those of :meth:`dimension_report`, which returns
        the same number with the published formula, the failure probability
        and the seed used.

        OUTPUT: an integer

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=2, a=1)
            sage: M.dimension(seed=0)
            4
            sage: M.dimension(seed=0) == M.dimension_report(seed=0).dimension == M.expected_dimension()
            True
        """
        from sage.rings.integer import Integer
        return Integer(self.dimension_report(seed=seed, field=field, proof=proof,
                                             force=force).dimension)

    def neurovariety(self):
        r"""
        Return the neurovariety of this model: vanishing ideal, membership,
        invariants and certificates.

        OUTPUT: a :class:`~sage_attention.variety.neurovariety.Neurovariety`

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
            sage: X = M.neurovariety(); X
            Neurovariety of LightningAttention(d=2, out=1, t=2, a=1, entries=((1, 1),)) over Rational Field
            sage: all(X.contains(f) for f in X.vanishing_ideal().gens())
            True

        .. SEEALSO::

            :mod:`sage_attention.variety.neurovariety`, :mod:`sage_attention.invariants`
        """
        # the one import of a higher layer: the variety of a model
        from sage_attention.variety.neurovariety import Neurovariety
        return Neurovariety(self)
