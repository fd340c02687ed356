r"""
Multi-head, causal and residual lightning attention

Real transformers sum several attention heads, mask the future tokens and
add a residual stream. Layer `i` of such a lightning network maps `X` to

.. MATH::

    \rho X + \sum_{h=1}^{H_i} V_{i,h} X \bigl((X^T K_{i,h}^T Q_{i,h} X) \circ U\bigr),

with `H_i` heads, each with its own `Q_{i,h}, K_{i,h}` (`a_i \times
d_{i-1}`) and `V_{i,h}` (`d_i \times d_{i-1}`); the usual output projection
of multi-head attention is folded into the `V_{i,h}`. `U` is the all-ones
matrix, or for a causal mask the upper triangular one (output token `j` sees
the tokens `n \le j`); `\rho = 1` for a residual connection (then `d_i =
d_{i-1}`) and `0` otherwise. The map is still polynomial, so its dimension is
the generic rank of its Jacobian, computed here by forward mode over a prime
field exactly as for one head (:mod:`sage_attention.models.jacobian`).

The neurovariety of `H` summed heads is the `H`-fold join of the one-head
variety, so its dimension is at most `\min(H \cdot \dim(\text{one head}),
\dim(\text{linear span}))`; here the span is that of the `6` essential
coordinates, and two heads fill it::

    sage: from sage_attention import LightningAttention
    sage: one = LightningAttention(d=2, t=2, a=1)
    sage: two = LightningAttention(d=2, t=2, a=1, heads=2); two
    LightningAttention(d=2, out=1, t=2, a=1, heads=2) over Rational Field
    sage: one.dimension(seed=0), two.dimension(seed=0), len(one.essential_coordinates())
    (4, 6, 6)

A causal mask and a residual stream::

    sage: M = LightningAttention(d=2, t=2, a=1, out=2, causal=True, residual=True)
    sage: M.dimension(seed=1) <= M.nparameters()
    True
    sage: M.forward(matrix(QQ, [[1, 0], [0, 1]]), M.random_weights(seed=2)).dimensions()
    (2, 2)
"""
# sage.doctest: needs sage.libs.singular

from sage.all__sagemath_singular import matrix, zero_matrix

from sage_attention.misc.keywords import keyword_hints
from sage_attention.misc.errors import SpecError
from sage_attention.models.arguments import random_matrix
from sage_attention.models.base import AttentionNetwork
from sage_attention.models.jacobian import JacobianDimension
from sage_attention.misc.randomness import python_random, resolve_seed


def _mask(F, t, causal):
    r"""
    Return the mask `U`: all ones, or `U_{nj} = 1` for `n \le j`.
    """
    return matrix(F, t, t, lambda n, j: 1 if (not causal or n <= j) else 0)


def _masked(M, U):
    return M.elementwise_product(U)


def multihead_derivatives(model, X, weights, F):
    r"""
    Return the derivatives `\partial Y / \partial w` of a multi-head network, and `Y`.

    INPUT:

    - ``model`` -- a :class:`MultiHeadLightningAttention`
    - ``X`` -- a `d \times t` matrix over ``F``
    - ``weights`` -- a list as returned by ``model.random_weights()``
    - ``F`` -- the field

    OUTPUT: a pair ``(derivs, Y)``: one matrix per weight, in the order of
    :meth:`MultiHeadLightningAttention.weights_point`, and the output

    EXAMPLES:

    The derivative in a `V` entry is exact (the map is linear in each `V`)::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.models.multihead import multihead_derivatives
        sage: M = LightningAttention(d=1, t=2, a=1, heads=2, residual=True)
        sage: w = M.random_weights(field=QQ, seed=3); X = matrix(QQ, [[1, 2]])
        sage: derivs, Y = multihead_derivatives(M, X, w, QQ)
        sage: (Q, K, V), head2 = w[0]
        sage: w2 = [[(Q, K, V + 1), head2]]
        sage: derivs[2] == M.forward(X, w2) - Y
        True
    """
    U = _mask(F, model.tokens, model.causal)
    t = model.tokens
    Xs, As = [X], []
    for m, layer in enumerate(weights):
        Xm = Xs[-1]
        heads = [(K.transpose() * Q, V) for Q, K, V in layer]
        As.append(heads)
        Y = Xm if model.residual else zero_matrix(F, model.widths[m + 1], t)
        for A, V in heads:
            Y += V * Xm * _masked(Xm.transpose() * A * Xm, U)
        Xs.append(Y)

    def push(m, dX):
        # the derivative of layer m's output in the direction dX of its input
        Xm = Xs[m]
        out = dX if model.residual else zero_matrix(F, model.widths[m + 1], t)
        for A, V in As[m]:
            M = _masked(Xm.transpose() * A * Xm, U)
            dM = _masked(dX.transpose() * A * Xm + Xm.transpose() * A * dX, U)
            out += V * dX * M + V * Xm * dM
        return out

    def propagate(start, dX):
        for m in range(start + 1, len(weights)):
            dX = push(m, dX)
        return dX

    derivs = []
    for m, layer in enumerate(weights):
        Xm = Xs[m]
        for (Q, K, V), (A, _) in zip(layer, As[m]):
            a, din = Q.dimensions()
            dout = V.nrows()
            M = _masked(Xm.transpose() * A * Xm, U)
            VX = V * Xm
            for k in range(a):                     # dQ[k, c]: dA = K^T E_kc
                for c in range(din):
                    E = zero_matrix(F, a, din)
                    E[k, c] = 1
                    dA = K.transpose() * E
                    derivs.append(propagate(m, VX * _masked(Xm.transpose() * dA * Xm, U)))
            for k in range(a):                     # dK[k, b]: dA = E_kb^T Q
                for b in range(din):
                    E = zero_matrix(F, a, din)
                    E[k, b] = 1
                    dA = E.transpose() * Q
                    derivs.append(propagate(m, VX * _masked(Xm.transpose() * dA * Xm, U)))
            for i in range(dout):                  # dV[i, p]
                for p in range(din):
                    E = zero_matrix(F, dout, din)
                    E[i, p] = 1
                    derivs.append(propagate(m, E * Xm * M))
    return derivs, Xs[-1]


@keyword_hints
class MultiHeadLightningAttention(JacobianDimension, AttentionNetwork):
    r"""
    A lightning network with several heads per layer, a causal mask or residual connections.

    Returned by :func:`~sage_attention.models.constructors.LightningAttention`
    when ``heads``, ``causal`` or ``residual`` is given. Weights are
    `(Q, K, V)` per head (weight space ``'QKV'``, all output entries).

    INPUT:

    - ``widths``, ``ranks``, ``tokens``, ``base_ring`` -- as in
      :class:`~sage_attention.models.base.AttentionNetwork`
    - ``heads`` -- positive integer, or one per layer (default: `1`)
    - ``causal`` -- boolean (default: ``False``); mask the later tokens
    - ``residual`` -- boolean (default: ``False``); add the input of each
      layer to its output (needs equal widths)

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: M = LightningAttention(widths=[2, 2, 2], ranks=[1, 1], t=2, heads=[2, 1], residual=True); M
        LightningAttention(widths=(2, 2, 2), ranks=(1, 1), t=2, heads=(2, 1), residual=True) over Rational Field
        sage: M.nparameters(), M.dimension(seed=0) <= M.nparameters()
        (24, True)
        sage: loads(dumps(M)) is M
        True
        sage: TestSuite(M).run()

    TESTS::

        sage: LightningAttention(d=2, t=2, a=1, out=3, residual=True)
        Traceback (most recent call last):
        ...
        SpecError: residual connections need out d_1 (=3) equal to the input width d_0 (=2) of layer 1
        sage: LightningAttention(d=2, t=2, a=1, heads=0)
        Traceback (most recent call last):
        ...
        SpecError: heads of layer 1 (=0) must be a positive integer
        sage: LightningAttention(d=2, t=2, a=1, causal='yes')
        Traceback (most recent call last):
        ...
        TypeError: causal (='yes') must be True or False
        sage: LightningAttention(d=2, t=2, a=1, heads=2, weight_space='AV')
        Traceback (most recent call last):
        ...
        ValueError: heads, causal and residual need weight_space='QKV' and all output entries
    """

    _constructor = "LightningAttention"
    _derivatives = staticmethod(multihead_derivatives)
    _expected_kind = "bound"

    @staticmethod
    def __classcall__(cls, widths, ranks, tokens, heads=1, causal=False, residual=False,
                      base_ring=None):
        from sage_attention.models.arguments import normalize_arguments, integer_argument
        widths, ranks, tokens, _, _, _, _ = normalize_arguments(
            widths, ranks, tokens, "lightning", "QKV", "raw", None)
        layers = len(ranks)
        if not isinstance(heads, (list, tuple)):
            heads = (heads,) * layers
        if len(heads) != layers:
            raise SpecError(f"heads (={heads}) must have one entry per layer ({layers} layers)")
        heads = tuple(integer_argument(h, f"heads of layer {i + 1}") for i, h in enumerate(heads))
        for name, value in (("causal", causal), ("residual", residual)):
            if not isinstance(value, bool):
                raise TypeError(f"{name} (={value!r}) must be True or False")
        causal, residual = bool(causal), bool(residual)
        if residual:
            for i in range(layers):
                if widths[i + 1] != widths[i]:
                    raise SpecError(f"residual connections need out d_{i + 1} (={widths[i + 1]}) "
                                    f"equal to the input width d_{i} (={widths[i]}) of layer {i + 1}")
        from sage.all__sagemath_singular import QQ
        base_ring = AttentionNetwork.check_base_ring(QQ if base_ring is None else base_ring)
        return super(AttentionNetwork, cls).__classcall__(cls, widths, ranks, tokens, heads,
                                                          causal, residual, base_ring)

    def __init__(self, widths, ranks, tokens, heads, causal, residual, base_ring):
        r"""
        Initialize ``self``; the arguments are checked in ``__classcall__``.

        TESTS::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=2, a=1, heads=3).heads
            (3,)
        """
        AttentionNetwork.__init__(self, widths, ranks, tokens, ("lightning",) * len(ranks),
                                  "QKV", "raw", None, base_ring)
        self.heads = heads
        self.causal = causal
        self.residual = residual

    def _architecture_arguments(self):
        if len(self.ranks) == 1:
            args = [f"d={self.d}", f"out={self.out}", f"t={self.tokens}", f"a={self.ranks[0]}"]
            heads = self.heads[0]
        else:
            args = [f"widths={self.widths}", f"ranks={self.ranks}", f"t={self.tokens}"]
            heads = self.heads
        if self.heads != (1,) * len(self.ranks):
            args.append(f"heads={heads}")
        if self.causal:
            args.append("causal=True")
        if self.residual:
            args.append("residual=True")
        return args

    def with_weight_space(self, weight_space):
        r"""
        Return ``self`` for ``'QKV'``; the other weight space is not available.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=2, a=1, heads=2)
            sage: M.with_weight_space('QKV') is M
            True
        """
        if weight_space != "QKV":
            raise ValueError("heads, causal and residual need weight_space='QKV'")
        return self

    def nparameters(self):
        r"""
        Return the number of weights: `H_i (2 a_i d_{i-1} + d_i d_{i-1})` summed over the layers.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=3, t=2, a=1, heads=2).nparameters()
            18
        """
        return sum(h * (2 * a * self.widths[i] + self.widths[i + 1] * self.widths[i])
                   for i, (a, h) in enumerate(zip(self.ranks, self.heads)))

    def size_estimate(self):
        r"""
        Return the :class:`~sage_attention.catalog.model_sizes.SizeEstimate` of this model (its heads counted).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=3, t=2, a=1, heads=2).size_estimate().parameters
            18
        """
        from sage_attention.catalog.costs import estimate_size
        return estimate_size(self.widths, self.ranks, self.tokens, "QKV", None,
                             heads=self.heads, residual=self.residual)

    def parameter_dimension(self):
        r"""
        Return the dimension of the weight space (the number of weights).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=3, t=2, a=1, heads=2).parameter_dimension()
            18
        """
        return self.nparameters()

    def _published(self):
        from sage_attention.models.join import join_bound
        return join_bound(self.widths, self.ranks, self.tokens, self.heads, self.causal,
                          self.residual)

    def symmetry_group(self):
        r"""
        Return ``(name, dimension, action)`` of the known symmetries: per head
        `GL_{a}` (or the pairs `(Q, K)` with `K^T Q` fixed, for `a > d`) and a
        scaling `K^*`, and `GL_{d_i}` per hidden width without residual
        connections (:func:`~sage_attention.models.join.multihead_symmetry_group`).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=3, t=2, a=2, heads=2).symmetry_group()[:2]
            ('(GL_2 x K^*)^2', 10)
        """
        from sage_attention.models.join import multihead_symmetry_group
        return multihead_symmetry_group(self.widths, self.ranks, self.heads, self.residual)

    def random_weights(self, field=None, seed=None):
        r"""
        Return random weights: for each layer, a list of ``(Q, K, V)``, one per head.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: w = LightningAttention(d=2, t=2, a=1, heads=2).random_weights(seed=1)
            sage: len(w), len(w[0]), w[0][1][2].dimensions()
            (1, 2, (1, 2))
        """
        F = self._base_ring if field is None else field
        rng = python_random(resolve_seed(seed))
        out = []
        for i, (a, h) in enumerate(zip(self.ranks, self.heads)):
            din, dout = self.widths[i], self.widths[i + 1]
            out.append([(random_matrix(F, a, din, rng), random_matrix(F, a, din, rng),
                         random_matrix(F, dout, din, rng)) for _ in range(h)])
        return out

    def weights_point(self, weights):
        r"""
        Return the list of weight values: layer by layer, head by head, `Q, K, V`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=1, t=2, a=1, heads=2)
            sage: M.weights_point([[(matrix([[1]]), matrix([[2]]), matrix([[3]])),
            ....:                   (matrix([[4]]), matrix([[5]]), matrix([[6]]))]])
            [1, 2, 3, 4, 5, 6]
        """
        return [x for layer in weights for Q, K, V in layer for x in Q.list() + K.list() + V.list()]

    def forward(self, X, weights):
        r"""
        Return the output `Y` of the network at an input matrix and weights.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=1, t=2, a=1, heads=2, causal=True, residual=True)
            sage: one = (matrix(QQ, [[1]]), matrix(QQ, [[1]]), matrix(QQ, [[1]]))
            sage: M.forward(matrix(QQ, [[1, 2]]), [[one, one]])   # x + 2 x (masked x^T x)
            [ 3 22]
        """
        U = _mask(X.base_ring(), self.tokens, self.causal)
        for layer in weights:
            out = X if self.residual else None
            for Q, K, V in layer:
                term = V * X * _masked(X.transpose() * K.transpose() * Q * X, U)
                out = term if out is None else out + term
            X = out
        return X
