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

from sage_attention.misc.keywords import keyword_hints
from sage_attention.catalog.costs import check_size
from sage_attention.models.base import AttentionNetwork
from sage_attention.models.arguments import index_name, with_coordinate_latex_names
from sage_attention.models.essential import EssentialCoordinates
from sage_attention.models.derivatives import layer_gradients
from sage_attention.models.jacobian import JacobianDimension
from sage_attention.models.guards import check_ring_size


@keyword_hints
class PolynomialAttentionNetwork(EssentialCoordinates, JacobianDimension, AttentionNetwork):
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

    # the Jacobian's rows by reverse mode: linear in the depth (sage_attention.models.derivatives)
    _gradients = staticmethod(layer_gradients)

    def is_token_equivariant(self):
        r"""
        Return whether permuting the input tokens permutes the output tokens the same way, every output kept.

        A lightning layer maps `X P` to `V X (X^T A X) P` for a permutation
        matrix `P`; a slice (some output entries only) is not equivariant.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=3, a=1).is_token_equivariant()
            True
            sage: LightningAttention(d=2, t=3, a=1, entries=[(1, 1)]).is_token_equivariant()
            False
        """
        return self.entries is None

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
        Return ``(coordinates, names)``: the :class:`~sage_attention.models.arguments.Coordinate`
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
            ComputationTooLarge: the weight ring needs 36000 variables (Singular's limit is 32767); Singular cannot build it; force=True does not lift this limit
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

    def factored_parametrization(self):
        r"""
        Return ``(psi, L)``: the essential parametrization factored through the attention matrices.

        For ``weight_space='QKV'`` the network depends on `Q_i, K_i` only
        through `A_i = K_i^T Q_i`, so its essential parametrization is
        `\varphi = L \circ \psi` (as ring morphisms), where `\psi` is the
        essential parametrization of the same network with
        ``weight_space='AV'`` (generic `A_i`: fewer weights, lower degree)
        and `L` sends each entry of `A_i` to that of `K_i^T Q_i` and every
        value weight to itself. So the image of `\varphi` lies in that of
        `\psi`: a polynomial that vanishes after composing with `\psi`
        vanishes on the neurovariety (the converse holds when `a_i \ge
        d_{i-1}`). The implicitization engine uses this to verify its
        generators (:func:`~sage_attention.ideals.engine.evaluation.envelope_images`,
        which checks the identity exactly before it relies on it).

        OUTPUT: a pair of ring morphisms, or ``None`` when the weight space is
        already ``'AV'`` or the network has no other weight space (several
        heads, a mask, a residual stream)

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=1, a=1)
            sage: psi, L = M.factored_parametrization()
            sage: phi = M.essential_parametrization()
            sage: x = phi.domain().gen(1); psi(x), L(psi(x))
            (v12*A11 + v11*A12 + v11*A21, q12*k11*v11 + q11*k12*v11 + q11*k11*v12)
            sage: all(L(psi(x)) == phi(x) for x in phi.domain().gens())
            True
            sage: M.with_weight_space('AV').factored_parametrization() is None
            True
        """
        if self.weight_space != "QKV":
            return None
        try:
            twin = self.with_weight_space("AV")
        except ValueError:
            return None
        from sage_attention.misc.errors import ComputationTooLarge
        try:
            psi = twin.essential_parametrization()
        except ComputationTooLarge:     # the other weight space's coordinates are beyond the guard
            return None
        W, T = self.weight_ring(), twin.weight_ring()
        entries = {}
        for A0, A in zip(twin.attention_matrices(), self.attention_matrices()):
            for i in range(A0.nrows()):
                for j in range(A0.ncols()):
                    entries[A0[i, j]] = A[i, j]
        L = T.hom([entries[x] if x in entries else W(str(x)) for x in T.gens()], W)
        return psi, L

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

        OUTPUT: a tuple of :class:`~sage_attention.models.arguments.Coordinate`

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
            ComputationTooLarge: the coordinate ring needs 98580 variables (Singular's limit is 32767); Singular cannot build it; keep fewer output entries (entries=[(i, j), ...]); dimension() needs no coordinates; force=True does not lift this limit
        """
        check_size(self.size_estimate(), "coordinates", force,
                   hint="dimension() needs no coordinates")
        check_ring_size("the coordinate ring", self.ncoordinates(), force,
                        hint="keep fewer output entries (entries=[(i, j), ...]); dimension() needs no coordinates")
        return with_coordinate_latex_names(
            PolynomialRing(self._base_ring, self._coordinate_data()[1], order="degrevlex"))

    def coordinate_info(self, var):
        r"""
        Return the :class:`~sage_attention.models.arguments.Coordinate` description of a coordinate variable.

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

        - ``coordinate`` -- a :class:`~sage_attention.models.arguments.Coordinate`

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
