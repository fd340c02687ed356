r"""
Polynomial networks and transformer blocks: stacks of dense and attention layers

A :class:`LayerStack` composes layers of :mod:`sage_attention.models.layers`
(dense layers `Y = (W X + b \mathbf{1}^T)^{\circ r}` acting per token, and
lightning attention layers), each optionally with a residual connection. Two
factories build it:

- :func:`PolynomialNetwork` -- a polynomial neural network (PNN) of widths
  `(d_0, \dots, d_L)` with activation `x^r` on the hidden layers and a linear
  last layer (the convention of [KTB2019]_);
- :func:`Network` -- any stack, e.g. a transformer block: attention, then a
  per-token MLP, with residual streams.

The dimension of the neurovariety (the closure of the image of the weights in
the space of output polynomials) is the generic rank of the Jacobian, computed
by forward mode over `\GF{p}` through the layers, never expanding a polynomial
(:func:`~sage_attention.models.stack_dimension.stack_derivatives`); the
expected dimension and the symmetries of the weights are in
:mod:`~sage_attention.models.stack_dimension`.

EXAMPLES::

    sage: from sage_attention import PolynomialNetwork, Network, dense, attention
    sage: M = PolynomialNetwork(widths=[3, 4, 1], activation_degree=3); M
    PolynomialNetwork(widths=(3, 4, 1), activation_degree=3) over Rational Field
    sage: M.dimension(seed=0), M.expected_dimension(), M.ambient_dimension()
    (10, 10, 10)
    sage: B = Network([attention(a=2, out=3), dense(out=4, r=2), dense(out=3)], d=3, t=2); B
    Network([attention(a=2, out=3), dense(out=4, r=2), dense(out=3)], d=3, t=2) over Rational Field
    sage: B.nparameters(), B.dimension(seed=0)
    (45, 25)

A quadratic activation has more symmetries than the rescalings (an
orthogonal group acts on the hidden layer), so the count `6` is not
attained: the network gives the ternary quadrics of rank at most `2`, of
dimension `5`, the expected value, and the defect is measured from the
count::

    sage: D = PolynomialNetwork(widths=[3, 2, 1], activation_degree=2).dimension_report(seed=0)
    sage: D.dimension, D.expected, D.defect, D.count
    (5, 5, 1, 6)
"""
# sage.doctest: needs sage.libs.singular

from math import comb

from sage.all__sagemath_singular import QQ, SageObject, UniqueRepresentation, matrix

from sage_attention.misc.keywords import keyword_hints
from sage_attention.misc.errors import SpecError
from sage_attention.models.arguments import integer_argument, spec_keyword_hints
from sage_attention.models.base import AttentionNetwork
from sage_attention.models.jacobian import JacobianDimension
from sage_attention.models.layers import AttentionLayer, DenseLayer, attention, dense
from sage_attention.models.symmetries import FormulasAndSymmetries
from sage_attention.misc.randomness import python_random, resolve_seed
from sage_attention.catalog.costs import estimate_stack_size
# the dimension of a stack (its Jacobian, expected count, symmetries) was defined here:
# its old import path keeps working
from sage_attention.models.stack_gradients import stack_gradients
from sage_attention.models.stack_dimension import (ALEXANDER_HIRSCHOWITZ_EXCEPTIONS,  # noqa: F401
                                                   StackDimension, alexander_hirschowitz_dimension,
                                                   stack_derivatives)


@keyword_hints
class LayerStack(StackDimension, JacobianDimension, FormulasAndSymmetries, UniqueRepresentation, SageObject):
    r"""
    A polynomial network: a stack of dense and lightning attention layers.

    Users call :func:`PolynomialNetwork` or :func:`Network`.

    INPUT:

    - ``layers`` -- a non-empty list of layers
      (:func:`~sage_attention.models.layers.dense`,
      :func:`~sage_attention.models.layers.attention`)
    - ``d`` -- positive integer; the input width `d_0`
    - ``t`` -- positive integer; the number of tokens (default: `1` when
      every layer is dense, which act per token; required with attention)
    - ``linear_output`` -- boolean (default: ``True``); require the last
      layer, if dense, to be linear (the convention of [KTB2019]_); pass
      ``False`` to allow a nonlinear last layer (only with a dense last
      layer: after an attention layer it would change nothing, and is refused)
    - ``base_ring`` -- (default: `\QQ`) an exact field

    EXAMPLES::

        sage: from sage_attention import Network, dense, attention
        sage: M = Network([dense(out=3, r=2, residual=True), dense(out=1)], d=3)
        sage: M.widths, M.tokens, M.nparameters()
        ((3, 3, 1), 1, 12)
        sage: loads(dumps(M)) is M
        True
        sage: TestSuite(M).run()

    TESTS::

        sage: Network([dense(out=4, r=2), dense(out=3, r=2)], d=3)
        Traceback (most recent call last):
        ...
        SpecError: the last layer dense(out=3, r=2) is nonlinear, but the last layer of a polynomial network is linear (the convention of Kileel-Trager-Bruna); use dense(out=3) or pass linear_output=False
        sage: Network([dense(out=4, r=2), dense(out=3, r=2)], d=3, linear_output=False).nparameters()
        24
        sage: Network([dense(out=2, r=2), attention(a=1, out=1)], d=2, t=2, linear_output=False)
        Traceback (most recent call last):
        ...
        SpecError: linear_output=False only concerns a dense last layer (it allows a nonlinear one), but the last layer attention(a=1, out=1) is an attention layer: the option would change nothing; drop linear_output=False
        sage: Network([dense(out=2, r=2), dense(out=1)], d=2, linear_output=False)
        Traceback (most recent call last):
        ...
        SpecError: linear_output=False only concerns a dense last layer (it allows a nonlinear one), but the last layer dense(out=1) is linear: the option would change nothing; drop linear_output=False
        sage: Network([dense(out=4, r=2, residual=True)], d=3)
        Traceback (most recent call last):
        ...
        SpecError: layer 1 (dense(out=4, r=2, residual=True)) has a residual connection, which adds its input to its output, so its output width (=4) must equal its input width (=3)
        sage: Network([attention(a=1, out=1)], d=2)
        Traceback (most recent call last):
        ...
        SpecError: a network with attention layers needs the number of tokens t
        sage: Network([], d=2)
        Traceback (most recent call last):
        ...
        SpecError: layers (=[]) must be a non-empty list of dense(...) and attention(...) layers
        sage: Network([3], d=2)
        Traceback (most recent call last):
        ...
        TypeError: layer 1 (=3) must be dense(...) or attention(...)
    """

    _derivatives = staticmethod(stack_derivatives)
    # the Jacobian's rows by reverse mode, linear in the depth (sage_attention.models.stack_gradients)
    _gradients = staticmethod(stack_gradients)
    _expected_kind = "bound"
    _saturation = "fills its ambient space: its dimension {dim} is the ambient dimension {ambient}"

    @staticmethod
    def __classcall__(cls, layers, d, t=None, linear_output=True, base_ring=None):
        if not isinstance(layers, (list, tuple)) or not layers:
            raise SpecError(f"layers (={layers!r}) must be a non-empty list of dense(...) and "
                            "attention(...) layers")
        for i, layer in enumerate(layers, 1):
            if not isinstance(layer, (DenseLayer, AttentionLayer)):
                raise TypeError(f"layer {i} (={layer!r}) must be dense(...) or attention(...)")
        layers = tuple(layers)
        d = integer_argument(d, "the input width d")
        if t is None:
            if any(layer.kind == "attention" for layer in layers):
                raise SpecError("a network with attention layers needs the number of tokens t")
            t = 1
        t = integer_argument(t, "the number of tokens t")
        if not isinstance(linear_output, bool):
            raise TypeError(f"linear_output (={linear_output!r}) must be True or False")
        width = d
        for i, layer in enumerate(layers, 1):
            if layer.residual and layer.out != width:
                raise SpecError(f"layer {i} ({layer!r}) has a residual connection, which adds "
                                f"its input to its output, so its output width (={layer.out}) "
                                f"must equal its input width (={width})")
            width = layer.out
        last = layers[-1]
        if linear_output and last.kind == "dense" and not last.is_linear():
            fixed = dense(last.out, 1, last.bias, last.residual)
            raise SpecError(f"the last layer {last!r} is nonlinear, but the last layer of a "
                            "polynomial network is linear (the convention of "
                            f"Kileel-Trager-Bruna); use {fixed!r} or pass linear_output=False")
        if not linear_output and (last.kind != "dense" or last.is_linear()):
            what = "an attention layer" if last.kind != "dense" else "linear"
            raise SpecError(f"linear_output=False only concerns a dense last layer (it allows a "
                            f"nonlinear one), but the last layer {last!r} is {what}: the option "
                            "would change nothing; drop linear_output=False")
        base_ring = AttentionNetwork.check_base_ring(QQ if base_ring is None else base_ring)
        return super().__classcall__(cls, layers, d, t, linear_output, base_ring)

    def __init__(self, layers, d, t, linear_output, base_ring):
        r"""
        Initialize ``self``; the arguments are checked in ``__classcall__``.

        TESTS::

            sage: from sage_attention import Network, dense
            sage: Network([dense(out=2)], d=3).widths
            (3, 2)
        """
        self.layers = layers
        self.tokens = t
        self.linear_output = linear_output
        self.widths = (d,) + tuple(layer.out for layer in layers)
        #: the attention rank of each layer (``None`` for a dense layer)
        self.ranks = tuple(getattr(layer, "a", None) for layer in layers)
        self._base_ring = base_ring

    # -- architecture

    def base_ring(self):
        r"""
        Return the coefficient field.

        EXAMPLES::

            sage: from sage_attention import PolynomialNetwork
            sage: PolynomialNetwork([2, 2, 1], 2, base_ring=GF(101)).base_ring()
            Finite Field of size 101
        """
        return self._base_ring

    @property
    def d(self):
        r"""
        The input width `d_0`.

        EXAMPLES::

            sage: from sage_attention import PolynomialNetwork
            sage: PolynomialNetwork([2, 3, 1], 2).d
            2
        """
        return self.widths[0]

    @property
    def out(self):
        r"""
        The output width `d_L`.

        EXAMPLES::

            sage: from sage_attention import PolynomialNetwork
            sage: PolynomialNetwork([2, 3, 4], 2).out
            4
        """
        return self.widths[-1]

    def nlayers(self):
        r"""
        Return the number of layers `L`.

        EXAMPLES::

            sage: from sage_attention import PolynomialNetwork
            sage: PolynomialNetwork([2, 3, 3, 1], 2).nlayers()
            3
        """
        return len(self.layers)

    def is_dense(self):
        r"""
        Return whether every layer is dense (the network acts on each token separately).

        EXAMPLES::

            sage: from sage_attention import PolynomialNetwork, Network, attention, dense
            sage: PolynomialNetwork([2, 3, 1], 2).is_dense()
            True
            sage: Network([attention(a=1, out=2), dense(out=1)], d=2, t=2).is_dense()
            False
        """
        return all(layer.kind == "dense" for layer in self.layers)

    def is_homogeneous(self):
        r"""
        Return whether the output is homogeneous in the input (no bias, no residual).

        EXAMPLES::

            sage: from sage_attention import PolynomialNetwork
            sage: PolynomialNetwork([2, 3, 1], 2).is_homogeneous()
            True
            sage: PolynomialNetwork([2, 3, 1], 2, bias=True).is_homogeneous()
            False
        """
        return all(layer.is_homogeneous() for layer in self.layers)

    def degree(self):
        r"""
        Return the degree `D` of the output in the input (the product of the layers' degrees).

        EXAMPLES::

            sage: from sage_attention import Network, attention, dense
            sage: Network([attention(a=1, out=2), dense(out=2, r=2), dense(out=1)], d=2, t=2).degree()
            6
        """
        D = 1
        for layer in self.layers:
            D *= layer.degree()
        return D

    def output_entries(self):
        r"""
        Return the 1-based output entries ``(row, token)``: all of them.

        EXAMPLES::

            sage: from sage_attention import PolynomialNetwork
            sage: PolynomialNetwork([2, 3, 2], 2).output_entries()
            ((1, 1), (2, 1))
        """
        return tuple((i, j) for i in range(1, self.out + 1) for j in range(1, self.tokens + 1))

    def is_token_equivariant(self):
        r"""
        Return whether permuting the tokens of the input permutes those of the output the same way.

        True without a causal mask: a dense layer acts on each token alone,
        and an attention head `V X (X^T A X)` maps `X P` to `V X (X^T A X) P`
        for a permutation matrix `P`. The dimension then needs the outputs of
        one token only (:func:`~sage_attention.models.jacobian.jacobian_rank`).

        EXAMPLES::

            sage: from sage_attention import Network, dense, attention
            sage: Network([attention(a=1, out=2), dense(out=1)], d=2, t=3).is_token_equivariant()
            True
            sage: Network([attention(a=1, out=2, causal=True), dense(out=1)], d=2, t=3).is_token_equivariant()
            False
        """
        return not any(getattr(layer, "causal", False) for layer in self.layers)

    def nparameters(self):
        r"""
        Return the number of weights.

        EXAMPLES::

            sage: from sage_attention import PolynomialNetwork
            sage: PolynomialNetwork([3, 4, 1], 3).nparameters(), PolynomialNetwork([3, 4, 1], 3, bias=True).nparameters()
            (16, 21)
        """
        return sum(layer.nparameters(self.widths[i]) for i, layer in enumerate(self.layers))

    def parameter_dimension(self):
        r"""
        Return the dimension of the weight space (the number of weights).

        EXAMPLES::

            sage: from sage_attention import PolynomialNetwork
            sage: PolynomialNetwork([3, 4, 1], 3).parameter_dimension()
            16
        """
        return self.nparameters()

    def ambient_dimension(self):
        r"""
        Return the dimension of the space the neurovariety lies in.

        For a dense network (which acts on each token separately) it is
        `d_L` times the number of monomials of degree `D` (homogeneous
        networks) or `\le D` (with a bias or a residual connection) in
        `d_0` variables; with attention layers the monomials are in the
        `d_0 t` entries of `X` and there are `d_L t` outputs.

        EXAMPLES::

            sage: from sage_attention import PolynomialNetwork
            sage: PolynomialNetwork([3, 4, 1], 3).ambient_dimension()          # cubics in 3 variables
            10
            sage: PolynomialNetwork([3, 4, 1], 3, bias=True).ambient_dimension()   # degree <= 3
            20
        """
        n, outputs = (self.d, self.out) if self.is_dense() else \
            (self.d * self.tokens, self.out * self.tokens)
        D = self.degree()
        monomials = comb(n + D - 1, D) if self.is_homogeneous() else comb(n + D, D)
        return outputs * monomials

    def size_estimate(self):
        r"""
        Return the :class:`~sage_attention.catalog.model_sizes.SizeEstimate` of this model.

        EXAMPLES::

            sage: from sage_attention import PolynomialNetwork
            sage: PolynomialNetwork([3, 4, 1], 3).size_estimate()
            SizeEstimate(coordinates=10, essential_coordinates=10, parameters=16, terms=160)
        """
        return estimate_stack_size(self.d, self.tokens, self.nparameters(), self.degree(),
                                   self.out, self.is_homogeneous(), self.is_dense())

    # -- coordinates (small networks only; see :mod:`~sage_attention.models.stack_coordinates`)

    def coordinate_description(self):
        r"""
        Return, for each coordinate, ``(row, token, exponent)``; see
        :func:`~sage_attention.models.stack_coordinates.coordinate_description`.

        EXAMPLES::

            sage: from sage_attention import PolynomialNetwork
            sage: PolynomialNetwork([2, 2, 1], 2).coordinate_description()[0]
            (1, 1, (2, 0))
        """
        from sage_attention.models.stack_coordinates import coordinate_description
        return coordinate_description(self)

    def coordinate_model(self):
        r"""
        Return the view of this network that the interpolation engine reads
        (:class:`~sage_attention.models.stack_coordinates.StackCoordinates`).

        Only a network of dense layers without biases or residual streams has
        one (homogeneous in each layer's weights); the others raise
        ``ValueError`` with the reason.

        EXAMPLES::

            sage: from sage_attention import PolynomialNetwork
            sage: PolynomialNetwork([2, 3, 1], 6).coordinate_model().essential_ring().ngens()
            7
            sage: PolynomialNetwork([2, 3, 1], 2, bias=True).coordinate_model()
            Traceback (most recent call last):
            ...
            ValueError: the interpolation engine needs a network of dense layers without biases or residual streams ...
        """
        from sage_attention.models.stack_coordinates import StackCoordinates
        return StackCoordinates(self)

    def parametrization(self, force=False):
        r"""
        Return the ring map coordinates `\to` weights (the network expanded); see
        :func:`~sage_attention.models.stack_coordinates.parametrization`.

        EXAMPLES::

            sage: from sage_attention import PolynomialNetwork
            sage: PolynomialNetwork([2, 2, 1], 3).parametrization().domain().ngens()
            4
        """
        from sage_attention.models.stack_coordinates import parametrization
        return parametrization(self, force)

    # -- weights and evaluation

    def random_weights(self, field=None, seed=None):
        r"""
        Return random weights: per layer, ``(W, b)`` (dense) or a list of ``(Q, K, V)`` (attention).

        INPUT:

        - ``field`` -- (default: the base ring) a field
        - ``seed`` -- (default: ``None``, random) integer

        EXAMPLES::

            sage: from sage_attention import PolynomialNetwork
            sage: M = PolynomialNetwork([2, 3, 1], 2, bias=True)
            sage: (W1, b1), (W2, b2) = M.random_weights(seed=1)
            sage: W1.dimensions(), b2.dimensions()
            ((3, 2), (1, 1))
            sage: M.random_weights(seed=1) == M.random_weights(seed=1)
            True
        """
        F = self._base_ring if field is None else field
        rng = python_random(resolve_seed(seed))
        return [layer.random_weights(F, self.widths[i], rng)
                for i, layer in enumerate(self.layers)]

    def weights_point(self, weights):
        r"""
        Return the list of weight values, layer by layer.

        EXAMPLES::

            sage: from sage_attention import PolynomialNetwork
            sage: PolynomialNetwork([1, 1, 1], 2).weights_point([(matrix([[2]]), None), (matrix([[3]]), None)])
            [2, 3]
        """
        return [x for layer, w in zip(self.layers, weights) for x in layer.weight_list(w)]

    def forward(self, X, weights):
        r"""
        Return the output `Y` at the `d_0 \times t` input ``X``.

        EXAMPLES::

            sage: from sage_attention import PolynomialNetwork
            sage: M = PolynomialNetwork([1, 1, 1], 3)
            sage: M.forward(matrix(QQ, [[2]]), [(matrix(QQ, [[1]]), None), (matrix(QQ, [[5]]), None)])
            [40]
        """
        for layer, w in zip(self.layers, weights):
            X = layer.forward(X, w)
        return X

    def jacobian_degree_bound(self):
        r"""
        Return a bound on the total degree of the Jacobian entries in the weights and inputs.

        EXAMPLES::

            sage: from sage_attention import PolynomialNetwork
            sage: PolynomialNetwork([2, 2, 1], 3).jacobian_degree_bound()       # 3 (1 + 1), plus 1
            7
        """
        T = 1
        for layer in self.layers:
            T = layer.degree() * (T + 1) if layer.kind == "dense" else 3 * T + 3
        return T

    # -- printing

    def _kileel_trager_bruna_arguments(self):
        # (widths, activation_degree, bias) when this is a PolynomialNetwork(...)
        if not self._is_kileel_trager_bruna() or not self.layers[-1].is_linear():
            return None
        rs = tuple(layer.r for layer in self.layers[:-1])
        biases = {layer.bias for layer in self.layers}
        if len(biases) != 1 or len(rs) == 0:
            return None
        r = rs[0] if len(set(rs)) == 1 else rs
        return self.widths, r, biases.pop()

    def _latex_(self):
        r"""
        Return the network as a LaTeX formula: the composition of its layers.

        In the notation of :doc:`/polynomial_networks`: `W_i` is the linear
        map of dense layer `i`, `b_i` its bias, `\rho_r` the activation
        `x \mapsto x^r` applied to every entry, `\mathrm{Att}_i` attention
        layer `i` (its rank `a`, heads `H` and mask above), and
        `\mathrm{id} + f` a residual connection around `f`. The widths
        `\mathbf{d}` and (for more than one token) `t` follow.

        EXAMPLES::

            sage: from sage_attention import PolynomialNetwork, Network, attention, dense
            sage: latex(PolynomialNetwork([2, 3, 1], 2))
            W_{2} \circ \rho_{2} \circ W_{1},\; \mathbf{d}=(2, 3, 1)
            sage: latex(PolynomialNetwork([3, 4, 4, 1], [2, 3], bias=True))
            (W_{3} \cdot + b_{3}) \circ \rho_{3} \circ (W_{2} \cdot + b_{2}) \circ \rho_{2} \circ (W_{1} \cdot + b_{1}),\; \mathbf{d}=(3, 4, 4, 1)
            sage: latex(Network([attention(a=1, out=2, heads=2, causal=True, residual=True),
            ....:                dense(out=2, r=2, residual=True)], d=2, t=2, linear_output=False))
            (\mathrm{id} + \rho_{2} \circ W_{2}) \circ (\mathrm{id} + \mathrm{Att}_{1}^{a=1,\, H=2,\, \mathrm{causal}}),\; \mathbf{d}=(2, 2, 2),\; t=2
            sage: latex(PolynomialNetwork([2, 3, 1], 2, base_ring=GF(65537)))
            W_{2} \circ \rho_{2} \circ W_{1},\; \mathbf{d}=(2, 3, 1) \text{ over } \Bold{F}_{65537}
        """
        maps = []
        for i, layer in enumerate(self.layers, 1):
            if layer.kind == "attention":
                sup = [f"a={layer.a}"]
                if layer.heads != 1:
                    sup.append(f"H={layer.heads}")
                if layer.causal:
                    sup.append(r"\mathrm{causal}")
                sup = r",\, ".join(sup)
                f = rf"\mathrm{{Att}}_{{{i}}}^{{{sup}}}"
            else:
                f = rf"(W_{{{i}}} \cdot + b_{{{i}}})" if layer.bias else f"W_{{{i}}}"
                if layer.r != 1:
                    f = rf"\rho_{{{layer.r}}} \circ {f}"
            if layer.residual:
                f = rf"(\mathrm{{id}} + {f})"
            maps.append(f)
        out = r" \circ ".join(reversed(maps))
        out += r",\; \mathbf{d}=(" + ", ".join(str(w) for w in self.widths) + ")"
        if self.tokens != 1:
            out += rf",\; t={self.tokens}"
        if self._base_ring is not QQ:
            # the field is part of the model: GF(65537) is not QQ
            from sage.misc.latex import latex
            out += rf" \text{{ over }} {latex(self._base_ring)}"
        return out

    def _repr_(self):
        r"""
        Return a description that reads like the constructor.

        EXAMPLES::

            sage: from sage_attention import PolynomialNetwork, Network, dense
            sage: PolynomialNetwork([3, 4, 4, 1], [2, 3], bias=True)
            PolynomialNetwork(widths=(3, 4, 4, 1), activation_degree=(2, 3), bias=True) over Rational Field
            sage: Network([dense(out=2, r=2)], d=2, linear_output=False)
            Network([dense(out=2, r=2)], d=2, linear_output=False) over Rational Field
        """
        ktb = self._kileel_trager_bruna_arguments()
        if ktb is not None:
            args = [f"widths={ktb[0]}", f"activation_degree={ktb[1]}"]
            if ktb[2]:
                args.append("bias=True")
            if self.tokens != 1:
                args.append(f"t={self.tokens}")
            return f"PolynomialNetwork({', '.join(args)}) over {self._base_ring}"
        args = [f"[{', '.join(repr(layer) for layer in self.layers)}]", f"d={self.d}"]
        if self.tokens != 1 or not self.is_dense():
            args.append(f"t={self.tokens}")
        if not self.linear_output:
            args.append("linear_output=False")
        return f"Network({', '.join(args)}) over {self._base_ring}"


@spec_keyword_hints
def Network(layers, d, t=None, linear_output=True, base_ring=None):
    r"""
    Return the network of a stack of dense and attention layers (e.g. a transformer block).

    INPUT: as for :class:`LayerStack`

    EXAMPLES:

    A transformer block: attention with a residual stream, then a per-token
    MLP with a residual stream::

        sage: from sage_attention import Network, dense, attention
        sage: B = Network([attention(a=1, out=2, residual=True), dense(out=2, r=2, residual=True)], d=2, t=2,
        ....:             linear_output=False)
        sage: B.nparameters(), B.dimension(seed=0)
        (12, 10)
    """
    return LayerStack(layers, d, t, linear_output, base_ring)


@spec_keyword_hints
def PolynomialNetwork(widths, activation_degree, bias=False, t=None, base_ring=None):
    r"""
    Return the polynomial neural network of widths `(d_0, \dots, d_L)` and activation `x^r`.

    The hidden layers are `x \mapsto (W_i x + b_i)^{\circ r}`; the last
    layer is linear (the convention of [KTB2019]_). Without bias the
    neurovariety lies in the space of `d_L`-tuples of forms of degree
    `r^{L-1}` in `d_0` variables.

    INPUT:

    - ``widths`` -- list of at least two positive integers
    - ``activation_degree`` -- integer `r \ge 1`, or one per hidden layer
    - ``bias`` -- boolean (default: ``False``); biases in every layer
    - ``t`` -- (default: `1`) number of tokens (the layers act per token)
    - ``base_ring`` -- (default: `\QQ`) an exact field

    EXAMPLES::

        sage: from sage_attention import PolynomialNetwork
        sage: PolynomialNetwork(widths=[2, 2, 2], activation_degree=2).dimension_report(seed=0)
        The neurovariety of PolynomialNetwork(widths=(2, 2, 2), activation_degree=2) over Rational Field has dimension 6
        (expected 6: the count of [KTB2019]: min(8 weights - 2 hidden-neuron rescalings, ambient dimension 6)); the generic fiber has dimension 2.

    TESTS::

        sage: PolynomialNetwork([3], 2)
        Traceback (most recent call last):
        ...
        SpecError: widths (=[3]) must list the input width and at least one layer width
        sage: PolynomialNetwork([3, 2, 1], [2, 2])
        Traceback (most recent call last):
        ...
        SpecError: activation_degree (=[2, 2]) must be one integer or one per hidden layer (1)
        sage: PolynomialNetwork([3, 2, 1], 0)
        Traceback (most recent call last):
        ...
        SpecError: the activation degree r (=0) must be a positive integer (r = 1 is a linear layer)
    """
    if not isinstance(widths, (list, tuple)) or len(widths) < 2:
        raise SpecError(f"widths (={widths!r}) must list the input width and at least one "
                        "layer width")
    hidden = len(widths) - 2
    if isinstance(activation_degree, (list, tuple)):
        if len(activation_degree) != hidden:
            raise SpecError(f"activation_degree (={activation_degree!r}) must be one integer or "
                            f"one per hidden layer ({hidden})")
        rs = list(activation_degree)
    else:
        rs = [activation_degree] * hidden
    if hidden == 0:
        dense(widths[-1], activation_degree)        # checks the degree
    layers = [dense(widths[i + 1], rs[i], bias) for i in range(hidden)]
    layers.append(dense(widths[-1], 1, bias))
    return LayerStack(layers, widths[0], t, True, base_ring)


__all__ = ["LayerStack", "Network", "PolynomialNetwork", "dense", "attention",
           "alexander_hirschowitz_dimension", "stack_derivatives"]
