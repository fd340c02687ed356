r"""
The dimension of a layer stack: its Jacobian, the expected count, its symmetries

The dimension of the neurovariety of a
:class:`~sage_attention.models.stack.LayerStack` is the generic rank of the
Jacobian of its weights-to-outputs map
(:class:`~sage_attention.models.jacobian.JacobianDimension`), whose columns
:func:`stack_derivatives` computes by forward mode through the layers,
never expanding a polynomial. The dimension report compares it with the
expected one (:class:`StackDimension`): the count of [KTB2019]_ (weights
minus the rescalings of the hidden neurons, at most the ambient
dimension) for a plain polynomial network, corrected by the
Alexander--Hirschowitz theorem [AH1995]_ for the shallow networks with
one output (:func:`alexander_hirschowitz_dimension`), and explains a
fiber by the known symmetries of the weights
(:meth:`StackDimension.symmetry_group`).

EXAMPLES:

The ternary quartics are not all sums of five fourth powers of linear
forms (an exception of Alexander--Hirschowitz): the shallow network with
five hidden neurons of degree `4` misses the count of [KTB2019]_ by one,
and its report says why::

    sage: from sage_attention import PolynomialNetwork
    sage: from sage_attention.models.stack_dimension import alexander_hirschowitz_dimension
    sage: alexander_hirschowitz_dimension(3, 4, 5)
    14
    sage: D = PolynomialNetwork([3, 5, 1], 4).dimension_report(seed=0)
    sage: D.dimension, D.expected, D.agrees, D.defect
    (14, 14, True, 1)
    sage: D
    The neurovariety of PolynomialNetwork(widths=(3, 5, 1), activation_degree=4) over Rational Field has dimension 14
    (expected 14: the dimension of the Alexander-Hirschowitz theorem [AH1995] (an exception of the theorem: the 5-th secant of the degree-4 Veronese variety is defective), 1 below the count of [KTB2019]: min(20 weights - 5 hidden-neuron rescalings, ambient dimension 15); defect 1 below the parameter count, as the theorem says); the generic fiber has dimension 6.
"""
# sage.doctest: needs sage.libs.singular
from math import comb

from sage_attention.models.layers import dense


#: the sporadic exceptions `(d, r, h)` of the Alexander--Hirschowitz theorem,
#: `d` the number of variables (`d = n + 1` for `\mathbb{P}^n`)
ALEXANDER_HIRSCHOWITZ_EXCEPTIONS = ((3, 4, 5), (4, 4, 9), (5, 3, 7), (5, 4, 14))


def alexander_hirschowitz_dimension(d, r, h):
    r"""
    Return the dimension of the affine cone over `\sigma_h(\nu_r(\mathbb{P}^{d-1}))`.

    This is the neurovariety of a shallow network `x \mapsto \sum_{i=1}^h
    a_i (w_i \cdot x)^r` (`d` inputs, `h` hidden neurons, one output, no
    bias). By the Alexander--Hirschowitz theorem [AH1995]_ it is
    `\min(h d, \binom{d + r - 1}{r})`, except for `r = 2`, `2 \le h \le d - 1`
    (symmetric matrices of rank `\le h`: `h d - \binom{h}{2}`) and the four
    cases `(d, r, h) = (3, 4, 5), (4, 4, 9), (5, 3, 7), (5, 4, 14)`, where it
    is one less.

    INPUT:

    - ``d``, ``r``, ``h`` -- positive integers (`r \ge 2`)

    EXAMPLES::

        sage: from sage_attention.models.stack_dimension import alexander_hirschowitz_dimension
        sage: alexander_hirschowitz_dimension(3, 3, 2), alexander_hirschowitz_dimension(3, 4, 5)
        (6, 14)
        sage: alexander_hirschowitz_dimension(4, 2, 2)     # rank-2 quadrics in 4 variables
        7
    """
    N = comb(d + r - 1, r)
    if r == 2 and h < d:
        return h * d - comb(h, 2)
    expected = min(h * d, N)
    if (d, r, h) in ALEXANDER_HIRSCHOWITZ_EXCEPTIONS:
        return expected - 1
    return expected


def stack_derivatives(model, X, weights, F):
    r"""
    Return the derivatives `\partial Y / \partial w` of a :class:`~sage_attention.models.stack.LayerStack`, and `Y`.

    The forward pass keeps each layer's input; the derivative of layer
    `m`'s output in each of its weight directions
    (:meth:`~sage_attention.models.layers.DenseLayer.tangents`) is pushed
    through the later layers by their linearizations.

    INPUT:

    - ``model`` -- a :class:`~sage_attention.models.stack.LayerStack`
    - ``X`` -- a `d \times t` matrix over ``F``
    - ``weights`` -- a list as returned by ``model.random_weights()``
    - ``F`` -- the field

    OUTPUT: a pair ``(derivs, Y)``, one matrix per weight in the order of
    :meth:`~sage_attention.models.stack.LayerStack.weights_point`

    EXAMPLES:

    The derivative in an entry of the last (linear) layer is exact::

        sage: from sage_attention import Network, dense, attention
        sage: from sage_attention.models.stack_dimension import stack_derivatives
        sage: M = Network([attention(a=1, out=2), dense(out=2, r=2, bias=True), dense(out=1)], d=2, t=2)
        sage: w = M.random_weights(field=QQ, seed=1); X = matrix(QQ, [[1, 2], [0, 1]])
        sage: derivs, Y = stack_derivatives(M, X, w, QQ)
        sage: W3, b3 = w[2]
        sage: E = matrix(QQ, 1, 2, [1, 0])
        sage: derivs[M.nparameters() - 2] == M.forward(X, w[:2] + [(W3 + E, b3)]) - Y
        True
    """
    Xs = [X]
    for layer, w in zip(model.layers, weights):
        Xs.append(layer.forward(Xs[-1], w))
    pushes = [layer.linearization(Xs[m], w)
              for m, (layer, w) in enumerate(zip(model.layers, weights))]
    derivs = []
    for m, (layer, w) in enumerate(zip(model.layers, weights)):
        for dY in layer.tangents(Xs[m], w):
            for push in pushes[m + 1:]:
                dY = push(dY)
            derivs.append(dY)
    return derivs, Xs[-1]



class StackDimension:
    r"""
    The expected dimension and the symmetries of a layer stack (a mix-in
    class of :class:`~sage_attention.models.stack.LayerStack`, before
    :class:`~sage_attention.models.symmetries.FormulasAndSymmetries`, whose
    defaults it replaces).

    EXAMPLES::

        sage: from sage_attention import PolynomialNetwork
        sage: from sage_attention.models.stack_dimension import StackDimension
        sage: M = PolynomialNetwork([3, 4, 1], 3)
        sage: isinstance(M, StackDimension), M.expected_dimension(), M.symmetry_group()[:2]
        (True, 10, ('(K^*)^4', 4))
    """

    def _is_kileel_trager_bruna(self):
        return (self.is_dense() and not any(layer.residual for layer in self.layers)
                and all(not layer.is_linear() for layer in self.layers[:-1]))

    def _published(self):
        P = self.nparameters()
        A = self.ambient_dimension()
        last = self.layers[-1]
        if self._is_kileel_trager_bruna() and not last.is_linear():
            # a nonlinear last layer (linear_output=False) raises each output of the same network
            # with a linear last layer to the power r; f -> f^r is finite-to-one on polynomials
            # (f^r = g^r only if f = zeta g), so the two images have the same dimension
            linear = type(self)(self.layers[:-1] + (dense(last.out, 1, last.bias, last.residual),),
                                self.d, self.tokens, True, self._base_ring)
            expected, note = linear._published()
            note = note.removeprefix("count of [KTB2019]: ")
            return expected, (f"count of [KTB2019] for the same network with a linear last layer: "
                              f"{note}; not published for a nonlinear last layer, derived: the last "
                              f"layer {last!r} raises each output of that network to the power "
                              f"{last.r}, which keeps the dimension (f^{last.r} = g^{last.r} only "
                              "if f/g is a root of unity)")
        if not self._is_kileel_trager_bruna():
            why = ("attention layers" if not self.is_dense() else
                   "residual connections" if any(la.residual for la in self.layers) else
                   "a linear hidden layer (it merges with the next layer)")
            return None, (f"no expected dimension is known for a network with {why}; "
                          f"{P} weights, ambient dimension {A}")
        S = sum(self.widths[1:-1])
        expected = min(P - S, A)
        note = (f"count of [KTB2019]: min({P} weights - {S} hidden-neuron rescalings, "
                f"ambient dimension {A})")
        if (len(self.layers) == 2 and self.out == 1 and self.is_homogeneous()
                and self.linear_output):
            # a shallow network with one output: the secant variety of a Veronese variety, whose
            # dimension the Alexander-Hirschowitz theorem gives (the count, except its exceptions)
            h, r = self.widths[1], self.layers[0].r
            ah = alexander_hirschowitz_dimension(self.d, r, h)
            if ah != expected:
                why = ("quadrics of rank at most " + str(h) if r == 2 else
                       f"an exception of the theorem: the {h}-th secant of the degree-{r} Veronese "
                       "variety is defective")
                return ah, (f"dimension of the Alexander-Hirschowitz theorem [AH1995] ({why}), "
                            f"{expected - ah} below the {note}")
        return expected, note

    def _parameter_count(self):
        r"""
        Return the count of [KTB2019]_ (weights less hidden rescalings, at most the ambient
        dimension) when the expected dimension is a theorem's value below it, else ``None``.

        EXAMPLES::

            sage: from sage_attention import PolynomialNetwork
            sage: PolynomialNetwork([3, 5, 1], 4)._parameter_count(), PolynomialNetwork([3, 4, 1], 3)._parameter_count()
            (15, None)
        """
        expected, _ = self._published()
        if expected is None or not self._is_kileel_trager_bruna() or not self.layers[-1].is_linear():
            return None
        count = min(self.nparameters() - sum(self.widths[1:-1]), self.ambient_dimension())
        return count if count != expected else None

    def symmetry_group(self):
        r"""
        Return ``(name, dimension, action)`` of the known symmetries of the weights.

        They are: per hidden layer between two layers without residual
        connection, the rescalings `(K^*)^{d_i}` of its neurons (`K^*` for
        one neuron; a dense
        layer with `r \ge 2`: neuron `j` scaled by `\lambda`, undone by
        `\lambda^{-r}` in the next layer) or `GL_{d_i}` (an attention or
        linear layer with `d_i \le d_{i-1}`); per attention head `GL_a`
        (or the pairs with `K^T Q` fixed, `a > d_{i-1}`) and one scaling
        `K^*`. Permutations of hidden neurons are discrete and do not count.
        A quadratic activation has more (orthogonal) symmetries, which
        are not listed: the fiber report shows them.

        EXAMPLES::

            sage: from sage_attention import PolynomialNetwork, Network, attention, dense
            sage: PolynomialNetwork([3, 4, 2, 1], 3).symmetry_group()[:2]
            ('(K^*)^4 x (K^*)^2', 6)
            sage: Network([attention(a=2, out=3), dense(out=4, r=2), dense(out=3)], d=3, t=2).symmetry_group()[:2]
            ('GL_2 x K^* x GL_3 x (K^*)^4', 18)

        A dense network has no attention symmetries: its action is the
        rescaling of the hidden neurons::

            sage: PolynomialNetwork([3, 1, 1], 3).symmetry_group()
            ('K^*', 1, 'the rescalings of the hidden neurons')
        """
        parts, dim, actions = [], 0, []
        for i, layer in enumerate(self.layers):
            din = self.widths[i]
            if layer.kind == "attention":
                actions.append("the attention symmetries of each head")
                for _ in range(layer.heads):
                    if layer.a <= din:
                        parts.append(f"GL_{layer.a}")
                        dim += layer.a ** 2
                    else:
                        parts.append(f"{{(Q, K): K^T Q fixed}} (dim {2 * layer.a * din - din * din})")
                        dim += 2 * layer.a * din - din * din
                    parts.append("K^*")
                    dim += 1
            if i + 1 < len(self.layers) and not layer.residual \
                    and not self.layers[i + 1].residual:
                h = layer.out
                if layer.kind == "dense" and not layer.is_linear():
                    parts.append("K^*" if h == 1 else f"(K^*)^{h}")
                    dim += h
                    actions.append("the rescalings of the hidden neurons")
                elif h <= din:
                    parts.append(f"GL_{h}")
                    dim += h * h
                    actions.append("the changes of basis of the hidden widths")
        name = " x ".join(parts) if parts else "trivial group"
        actions = list(dict.fromkeys(actions))          # each kind once, in order
        if not actions:
            action = "the identity"
        elif len(actions) == 1:
            action = actions[0]
        else:
            action = ", ".join(actions[:-1]) + " and " + actions[-1]
        return name, dim, action
