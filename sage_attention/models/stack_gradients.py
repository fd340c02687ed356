r"""
Reverse mode for layer stacks: the Jacobian's rows in time linear in the depth

The dimension of a :class:`~sage_attention.models.stack.LayerStack` (a
polynomial network or a transformer block) is the generic rank of the
Jacobian of its parametrization, taken at random weights and inputs
(:func:`~sage_attention.models.jacobian.jacobian_rank`). The forward mode
(:func:`~sage_attention.models.stack_dimension.stack_derivatives`) pushes
every weight direction through the later layers: `O(L^2)` layer steps per
input for `L` layers. The reverse mode here pulls the cotangent of each
output entry back through the layers once and reads off its whole row:
`O(L)` steps per output entry.

Each layer gives its **pullback** at an input: the map from a cotangent `G`
of its output to the cotangent of its input and the gradients in its weights
(the adjoint of its derivative, :meth:`~sage_attention.models.layers.DenseLayer.linearization`
and :meth:`~sage_attention.models.layers.DenseLayer.tangents`):

- a dense layer `Y = Z^{\circ r}` (`+ X` with a residual stream),
  `Z = W X + b \mathbf 1^T`: with `H = r Z^{\circ (r-1)} \circ G`, the
  gradients are `H X^T` in `W` and `H \mathbf 1` in `b`, and the input's
  cotangent is `W^T H` (`+ G`);
- an attention head `V X M`, `M = (X^T A X) \circ U` (`U` the mask),
  `A = K^T Q`: with `H = ((V X)^T G) \circ U`, the gradients are
  `K \partial_A`, `Q \partial_A^T` in `Q` and `K` for
  `\partial_A = X H X^T`, and `G M^T X^T` in `V`; the input's cotangent is
  `V^T G M^T + A X H^T + A^T X H` (summed over the heads, `+ G` with a
  residual stream). Without a mask these products are reassociated through
  `d \times d` matrices (`X H X^T = (X X^T) V^T (G X^T)`, ...), so nothing
  of size `t \times t` is built.

(Each is `\langle G, dY \rangle = \langle \partial, dw \rangle +
\langle G', dX \rangle` written out: for instance
`\langle G, V X ((X^T dA X) \circ U) \rangle = \langle ((VX)^T G) \circ U,
X^T dA X \rangle = \langle X H X^T, dA \rangle`.)

EXAMPLES:

The rows agree with the forward mode entry by entry, on a transformer block
with a causal mask, two heads, a residual stream and biases::

    sage: from sage_attention import Network, dense, attention
    sage: from sage_attention.models.stack_dimension import stack_derivatives
    sage: from sage_attention.models.stack_gradients import stack_gradients
    sage: M = Network([attention(a=1, out=2, heads=2, causal=True, residual=True),
    ....:              dense(out=3, r=2, bias=True), dense(out=2)], d=2, t=3)
    sage: F = GF(67108859); w = M.random_weights(field=F, seed=1); X = random_matrix(F, 2, 3)
    sage: D, Y = stack_derivatives(M, X, w, F)
    sage: entries = [(i, j) for i in range(2) for j in range(3)]
    sage: rows, Y2 = stack_gradients(M, X, w, F, entries)
    sage: Y == Y2, rows == [[Dk[i, j] for Dk in D] for i, j in entries]
    (True, True)
"""
from sage.all__sagemath_singular import matrix, zero_matrix


def dense_pullback(layer, X, w):
    r"""
    Return the pullback of a dense layer at the input ``X``: `G \mapsto (G', \text{gradients})`.

    INPUT:

    - ``layer`` -- a :class:`~sage_attention.models.layers.DenseLayer`
    - ``X`` -- its input; ``w`` -- its weights ``(W, b)``

    OUTPUT: a function of a cotangent `G` of the output, returning the
    cotangent of the input and the list of gradients in the order of
    :meth:`~sage_attention.models.layers.DenseLayer.weight_list`

    EXAMPLES:

    `y = (w_1 x_1 + w_2 x_2)^2` at `x = (2, 3)`, `w = (1, 1)`:
    `\partial y / \partial w_i = 2 \cdot 5 \cdot x_i` and
    `\partial y / \partial x_i = 2 \cdot 5 \cdot w_i`::

        sage: from sage_attention.models.layers import dense
        sage: from sage_attention.models.stack_gradients import dense_pullback
        sage: pull = dense_pullback(dense(out=1, r=2), matrix(QQ, [[2], [3]]), (matrix(QQ, [[1, 1]]), None))
        sage: pull(matrix(QQ, [[1]]))
        (
        [10]
        [10], [20, 30]
        )
    """
    W, b = w
    F = X.base_ring()
    if layer.r == 1:
        D = None
    else:
        Z = W * X
        if b is not None:
            Z += b * matrix(F, 1, X.ncols(), [1] * X.ncols())
        D = layer.r * Z.apply_map(lambda z: z ** (layer.r - 1))
    Xt = X.transpose()

    def pull(G):
        H = G if D is None else D.elementwise_product(G)
        grads = (H * Xt).list()
        if b is not None:
            grads += [sum(row) for row in H.rows()]
        back = W.transpose() * H
        return (back + G if layer.residual else back), grads
    return pull


def attention_pullback(layer, X, w):
    r"""
    Return the pullback of an attention layer at the input ``X``: `G \mapsto (G', \text{gradients})`.

    INPUT:

    - ``layer`` -- an :class:`~sage_attention.models.layers.AttentionLayer`
    - ``X`` -- its input; ``w`` -- its weights, a list of ``(Q, K, V)`` per head

    OUTPUT: as for :func:`dense_pullback`

    EXAMPLES:

    `y = v k q x^3`: the gradients in `(q, k, v)` are `(v k x^3, v q x^3, k q x^3)`
    and the derivative in `x` is `3 v k q x^2`::

        sage: from sage_attention.models.layers import attention
        sage: from sage_attention.models.stack_gradients import attention_pullback
        sage: w = [(matrix(QQ, [[2]]), matrix(QQ, [[3]]), matrix(QQ, [[5]]))]
        sage: attention_pullback(attention(a=1, out=1), matrix(QQ, [[1]]), w)(matrix(QQ, [[1]]))
        ([90], [15, 10, 6])
    """
    F = X.base_ring()
    t = X.ncols()
    Xt = X.transpose()
    heads = [(Q, K, V, K.transpose() * Q) for Q, K, V in w]
    if layer.causal:
        U = layer._mask(F, t)
        heads = [(Q, K, V, A, (Xt * A * X).elementwise_product(U), V * X) for Q, K, V, A in heads]
    else:
        XXt = X * Xt

    def pull(G):
        back = G if layer.residual else zero_matrix(F, X.nrows(), t)
        grads = []
        for head in heads:
            if layer.causal:
                Q, K, V, A, M, VX = head
                H = (VX.transpose() * G).elementwise_product(U)
                gA = X * H * Xt
                gV = G * M.transpose() * Xt
                back = back + V.transpose() * G * M.transpose() + A * X * H.transpose() + A.transpose() * X * H
            else:
                # the same products reassociated through d x d matrices (H = X^T V^T G, M = X^T A X):
                # nothing of size t x t
                Q, K, V, A = head
                GXt = G * Xt
                gA = XXt * V.transpose() * GXt
                gV = GXt * A.transpose() * XXt
                back = (back + V.transpose() * GXt * A.transpose() * X + A * (X * G.transpose()) * V * X
                        + A.transpose() * XXt * V.transpose() * G)
            grads += (K * gA).list() + (Q * gA.transpose()).list() + gV.list()
        return back, grads
    return pull


def stack_gradients(model, X, weights, F, entries):
    r"""
    Return the gradients of output entries of a layer stack in every weight direction (reverse mode).

    INPUT:

    - ``model`` -- a :class:`~sage_attention.models.stack.LayerStack`
    - ``X`` -- a `d \times t` matrix over ``F``; ``weights`` -- as returned
      by ``model.random_weights()``; ``F`` -- the field
    - ``entries`` -- a list of output entries `(i, j)`, counted from `0`

    OUTPUT: a pair ``(rows, Y)``: one list per entry, the derivatives in
    the order of :func:`~sage_attention.models.stack_dimension.stack_derivatives`,
    and the output `Y`

    EXAMPLES::

        sage: from sage_attention import PolynomialNetwork
        sage: from sage_attention.models.stack_gradients import stack_gradients
        sage: M = PolynomialNetwork([1, 1, 1], 2)       # y = v (w x)^2
        sage: w = [(matrix(QQ, [[3]]), None), (matrix(QQ, [[5]]), None)]
        sage: stack_gradients(M, matrix(QQ, [[2]]), w, QQ, [(0, 0)])     # (2 v w x^2, (w x)^2)
        ([[120, 36]], [180])
    """
    pulls, Xm = [], X
    for layer, w in zip(model.layers, weights):
        pulls.append((attention_pullback if layer.kind == "attention" else dense_pullback)(layer, Xm, w))
        Xm = layer.forward(Xm, w)
    rows = []
    for (i, j) in entries:
        G = zero_matrix(F, Xm.nrows(), Xm.ncols())
        G[i, j] = 1
        pieces = []
        for pull in reversed(pulls):
            G, grads = pull(G)
            pieces.append(grads)
        rows.append([x for grads in reversed(pieces) for x in grads])
    return rows, Xm
