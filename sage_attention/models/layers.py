r"""
Layer kinds of a polynomial network: dense (MLP) layers and attention layers

A network of :mod:`sage_attention.models.stack` is a sequence of layers,
each taking a `d_{i-1} \times t` token matrix `X` to a `d_i \times t` one.
Two kinds of layer are polynomial:

- a **dense** layer acts on each token separately,

  .. MATH::

      Y = (W X + b \mathbf{1}^T)^{\circ r},

  with `W` of size `d_i \times d_{i-1}`, a bias `b \in K^{d_i}` (or none)
  and the power `z \mapsto z^r` applied coordinatewise (`r = 1`: a linear
  layer);
- a lightning **attention** layer `Y = \sum_h V_h X ((X^T K_h^T Q_h X) \circ U)`
  with `H` heads and the mask `U` (all ones, or upper triangular for a causal
  mask), as in :mod:`sage_attention.models.multihead`.

A residual connection adds `X` to the output (then `d_i = d_{i-1}`).

Each kind knows its weights, its forward pass, its derivative in the
direction of its input (:meth:`~DenseLayer.linearization`) and the derivatives of its
output in every weight direction (:meth:`~DenseLayer.tangents`): this is all
the forward-mode Jacobian of :func:`~sage_attention.models.stack_dimension.stack_derivatives`
needs, so a new kind of layer is a new class here.

EXAMPLES::

    sage: from sage_attention.models.layers import dense, attention
    sage: L = dense(out=2, r=3, bias=True); L
    dense(out=2, r=3, bias=True)
    sage: L.nparameters(3), attention(a=1, out=2, heads=2).nparameters(3)
    (8, 24)
    sage: W = matrix(QQ, [[1, 2]]); b = matrix(QQ, [[1]])
    sage: dense(out=1, r=2, bias=True).forward(matrix(QQ, [[1], [1]]), (W, b))   # (1 + 2 + 1)^2
    [16]
"""
from dataclasses import dataclass

from sage.all__sagemath_singular import matrix, zero_matrix

from sage_attention.misc.keywords import keyword_hints
from sage_attention.misc.errors import SpecError
from sage_attention.models.arguments import random_matrix, integer_argument, spec_keyword_hints


def _flag(value, name):
    if not isinstance(value, bool):
        raise TypeError(f"{name} (={value!r}) must be True or False")
    return value


def _unit(F, r, c, i, j):
    E = zero_matrix(F, r, c)
    E[i, j] = 1
    return E


@dataclass(frozen=True)
class DenseLayer:
    r"""
    A dense layer `Y = (W X + b \mathbf{1}^T)^{\circ r}` (plus `X` if residual).

    Build it with :func:`dense`.

    EXAMPLES::

        sage: from sage_attention.models.layers import dense
        sage: L = dense(out=2, r=2)
        sage: L.out, L.r, L.bias, L.residual, L.kind
        (2, 2, False, False, 'dense')
        sage: L.degree(), dense(out=2).is_linear()
        (2, True)
    """
    out: int
    r: int = 1
    bias: bool = False
    residual: bool = False
    kind = "dense"

    def __repr__(self):
        args = [f"out={self.out}"]
        if self.r != 1:
            args.append(f"r={self.r}")
        if self.bias:
            args.append("bias=True")
        if self.residual:
            args.append("residual=True")
        return f"dense({', '.join(args)})"

    def is_linear(self):
        r"""
        Return whether the activation is the identity (`r = 1`).

        EXAMPLES::

            sage: from sage_attention.models.layers import dense
            sage: dense(out=1, r=3).is_linear()
            False
        """
        return self.r == 1

    def degree(self):
        r"""
        Return the degree of the output in the input.

        EXAMPLES::

            sage: from sage_attention.models.layers import dense
            sage: dense(out=1, r=3, bias=True).degree()
            3
        """
        return self.r

    def is_homogeneous(self):
        r"""
        Return whether the output is homogeneous (of degree :meth:`degree`) in the input.

        A bias or a residual connection mixes degrees.

        EXAMPLES::

            sage: from sage_attention.models.layers import dense
            sage: dense(out=1, r=2).is_homogeneous(), dense(out=1, r=2, bias=True).is_homogeneous()
            (True, False)
        """
        return not self.bias and not (self.residual and self.r != 1)

    def nparameters(self, din):
        r"""
        Return the number of weights: `d_i d_{i-1}` (plus `d_i` with a bias).

        EXAMPLES::

            sage: from sage_attention.models.layers import dense
            sage: dense(out=4, bias=True).nparameters(3)
            16
        """
        return self.out * din + (self.out if self.bias else 0)

    def random_weights(self, F, din, rng):
        r"""
        Return random ``(W, b)`` (``b`` a column, or ``None``).

        EXAMPLES::

            sage: from sage_attention.models.layers import dense
            sage: from sage_attention.misc.randomness import python_random
            sage: W, b = dense(out=2, bias=True).random_weights(GF(101), 3, python_random(0))
            sage: W.dimensions(), b.dimensions()
            ((2, 3), (2, 1))
        """
        W = random_matrix(F, self.out, din, rng)
        b = random_matrix(F, self.out, 1, rng) if self.bias else None
        return (W, b)

    def weight_list(self, w):
        r"""
        Return the weight values in order: `W` row by row, then `b`.

        EXAMPLES::

            sage: from sage_attention.models.layers import dense
            sage: dense(out=1, bias=True).weight_list((matrix([[1, 2]]), matrix([[3]])))
            [1, 2, 3]
        """
        W, b = w
        return W.list() + ([] if b is None else b.list())

    def weights_from_list(self, values, din):
        r"""
        Return the weights ``(W, b)`` from their values in the order of :meth:`weight_list`.

        EXAMPLES::

            sage: from sage_attention.models.layers import dense
            sage: dense(out=1, bias=True).weights_from_list([1, 2, 3], 2)
            ([1 2], [3])
        """
        n = self.out * din
        W = matrix(self.out, din, list(values[:n]))
        b = matrix(self.out, 1, list(values[n:n + self.out])) if self.bias else None
        return (W, b)

    def _preactivation(self, X, w):
        W, b = w
        Z = W * X
        if b is not None:
            Z += b * matrix(X.base_ring(), 1, X.ncols(), [1] * X.ncols())
        return Z

    def _power(self, Z, k):
        return Z.apply_map(lambda z: z ** k) if k != 1 else Z

    def forward(self, X, w):
        r"""
        Return the output at the input ``X`` and weights ``w``.

        EXAMPLES::

            sage: from sage_attention.models.layers import dense
            sage: L = dense(out=2, r=2, residual=True)
            sage: L.forward(matrix(QQ, [[1], [2]]), (identity_matrix(QQ, 2), None))
            [2]
            [6]
        """
        Y = self._power(self._preactivation(X, w), self.r)
        return Y + X if self.residual else Y

    def linearization(self, X, w):
        r"""
        Return the map `dX \mapsto dY`, the derivative of the output at ``X`` in the input.

        The powers `Z^{\circ (r-1)}` are computed once, so pushing many
        directions through the layer is cheap.

        EXAMPLES::

            sage: from sage_attention.models.layers import dense
            sage: L = dense(out=1, r=2); w = (matrix(QQ, [[1, 1]]), None)
            sage: L.linearization(matrix(QQ, [[1], [2]]), w)(matrix(QQ, [[0], [1]]))   # 2 (x + y)
            [6]
        """
        W = w[0]
        if self.r == 1:
            D = None
        else:
            D = self.r * self._power(self._preactivation(X, w), self.r - 1)

        def linear(dX):
            dY = W * dX if D is None else D.elementwise_product(W * dX)
            return dY + dX if self.residual else dY
        return linear

    def tangents(self, X, w):
        r"""
        Return the derivatives of the output in each weight direction (order of :meth:`weight_list`).

        EXAMPLES::

            sage: from sage_attention.models.layers import dense
            sage: L = dense(out=1, r=2, bias=True); w = (matrix(QQ, [[1, 1]]), matrix(QQ, [[1]]))
            sage: L.tangents(matrix(QQ, [[2], [3]]), w)      # 2 (x + y + 1) * (x, y, 1)
            [[24], [36], [12]]
        """
        F = X.base_ring()
        W, b = w
        dout, din = W.dimensions()
        t = X.ncols()
        D = None if self.r == 1 else self.r * self._power(self._preactivation(X, w), self.r - 1)

        def chain(dZ):
            return dZ if D is None else D.elementwise_product(dZ)
        out = [chain(_unit(F, dout, din, i, j) * X) for i in range(dout) for j in range(din)]
        if b is not None:
            ones = matrix(F, 1, t, [1] * t)
            out += [chain(_unit(F, dout, 1, i, 0) * ones) for i in range(dout)]
        return out


@dataclass(frozen=True)
class AttentionLayer:
    r"""
    A lightning attention layer with ``heads`` summed heads, an optional
    causal mask and an optional residual connection. Build it with :func:`attention`.

    EXAMPLES::

        sage: from sage_attention.models.layers import attention
        sage: L = attention(a=2, out=3, heads=2, residual=True); L
        attention(a=2, out=3, heads=2, residual=True)
        sage: L.degree(), L.is_homogeneous()
        (3, False)
    """
    a: int
    out: int
    heads: int = 1
    causal: bool = False
    residual: bool = False
    kind = "attention"

    def __repr__(self):
        args = [f"a={self.a}", f"out={self.out}"]
        if self.heads != 1:
            args.append(f"heads={self.heads}")
        if self.causal:
            args.append("causal=True")
        if self.residual:
            args.append("residual=True")
        return f"attention({', '.join(args)})"

    def is_linear(self):
        r"""
        Return ``False``: attention is cubic.

        EXAMPLES::

            sage: from sage_attention.models.layers import attention
            sage: attention(a=1, out=1).is_linear()
            False
        """
        return False

    def degree(self):
        r"""
        Return `3`, the degree of the output in the input.

        EXAMPLES::

            sage: from sage_attention.models.layers import attention
            sage: attention(a=1, out=1).degree()
            3
        """
        return 3

    def is_homogeneous(self):
        r"""
        Return whether the output is homogeneous in the input (no residual connection).

        EXAMPLES::

            sage: from sage_attention.models.layers import attention
            sage: attention(a=1, out=1).is_homogeneous()
            True
        """
        return not self.residual

    def nparameters(self, din):
        r"""
        Return the number of weights `H (2 a d_{i-1} + d_i d_{i-1})`.

        EXAMPLES::

            sage: from sage_attention.models.layers import attention
            sage: attention(a=2, out=3).nparameters(3)
            21
        """
        return self.heads * (2 * self.a * din + self.out * din)

    def random_weights(self, F, din, rng):
        r"""
        Return a list of random ``(Q, K, V)``, one per head.

        EXAMPLES::

            sage: from sage_attention.models.layers import attention
            sage: from sage_attention.misc.randomness import python_random
            sage: [Q.dimensions() for Q, K, V in attention(a=1, out=2, heads=2).random_weights(QQ, 3, python_random(0))]
            [(1, 3), (1, 3)]
        """
        return [(random_matrix(F, self.a, din, rng), random_matrix(F, self.a, din, rng),
                 random_matrix(F, self.out, din, rng)) for _ in range(self.heads)]

    def weight_list(self, w):
        r"""
        Return the weight values in order: head by head, `Q, K, V` row by row.

        EXAMPLES::

            sage: from sage_attention.models.layers import attention
            sage: attention(a=1, out=1).weight_list([(matrix([[1]]), matrix([[2]]), matrix([[3]]))])
            [1, 2, 3]
        """
        return [x for Q, K, V in w for x in Q.list() + K.list() + V.list()]

    def weights_from_list(self, values, din):
        r"""
        Return the weights (a list of ``(Q, K, V)``) from their values in the order of :meth:`weight_list`.

        EXAMPLES::

            sage: from sage_attention.models.layers import attention
            sage: attention(a=1, out=1).weights_from_list([1, 2, 3], 1)
            [([1], [2], [3])]
        """
        values = list(values)
        out, k = [], 0
        for _ in range(self.heads):
            mats = []
            for rows in (self.a, self.a, self.out):
                mats.append(matrix(rows, din, values[k:k + rows * din]))
                k += rows * din
            out.append(tuple(mats))
        return out

    def _mask(self, F, t):
        return matrix(F, t, t, lambda n, j: 1 if (not self.causal or n <= j) else 0)

    def mixer(self, X):
        r"""
        Return the function `(B, C, A, D) \mapsto B ((C^T A D) \circ U)` at the token count of ``X``.

        `U` is the mask (all ones without a causal mask). Without a mask the
        product is computed as `(B C^T) A D`, through `d \times d` matrices:
        nothing of size `t \times t` is built, so the cost is linear in the
        number of tokens `t`; with a causal mask the `t \times t` matrix
        is built (:func:`~sage_attention.models.guards.check_jacobian_size`
        counts it).

        EXAMPLES::

            sage: from sage_attention.models.layers import attention
            sage: X = matrix(QQ, [[1, 2, 3], [0, 1, -1]]); A = matrix(QQ, [[1, 2], [3, 4]])
            sage: for causal in (False, True):
            ....:     L = attention(a=1, out=1, causal=causal)
            ....:     U = L._mask(QQ, 3)
            ....:     L.mixer(X)(X, X, A, X) == X * (X.transpose() * A * X).elementwise_product(U)
            True
            True
        """
        if not self.causal:
            return lambda B, C, A, D: (B * C.transpose()) * A * D
        U = self._mask(X.base_ring(), X.ncols())
        return lambda B, C, A, D: B * (C.transpose() * A * D).elementwise_product(U)

    def forward(self, X, w):
        r"""
        Return the output at the input ``X`` and weights ``w``.

        EXAMPLES::

            sage: from sage_attention.models.layers import attention
            sage: one = (matrix(QQ, [[1]]), matrix(QQ, [[1]]), matrix(QQ, [[1]]))
            sage: attention(a=1, out=1, causal=True).forward(matrix(QQ, [[1, 2]]), [one])
            [ 1 10]
        """
        mix = self.mixer(X)
        Y = X if self.residual else zero_matrix(X.base_ring(), self.out, X.ncols())
        for Q, K, V in w:
            Y = Y + V * mix(X, X, K.transpose() * Q, X)
        return Y

    def linearization(self, X, w):
        r"""
        Return the map `dX \mapsto dY`, the derivative of the output at ``X`` in the input.

        EXAMPLES::

            sage: from sage_attention.models.layers import attention
            sage: one = (matrix(QQ, [[1]]), matrix(QQ, [[1]]), matrix(QQ, [[1]]))
            sage: attention(a=1, out=1).linearization(matrix(QQ, [[1]]), [one])(matrix(QQ, [[1]]))
            [3]
        """
        mix = self.mixer(X)
        heads = [(K.transpose() * Q, V) for Q, K, V in w]
        zero = zero_matrix(X.base_ring(), self.out, X.ncols())

        def linear(dX):
            # V dX M + V X dM, with M = (X^T A X) o U and dM = (dX^T A X + X^T A dX) o U
            out = dX if self.residual else zero
            for A, V in heads:
                out = out + V * (mix(dX, X, A, X) + mix(X, dX, A, X) + mix(X, X, A, dX))
            return out
        return linear

    def tangents(self, X, w):
        r"""
        Return the derivatives of the output in each weight direction (order of :meth:`weight_list`).

        EXAMPLES::

            sage: from sage_attention.models.layers import attention
            sage: w = [(matrix(QQ, [[2]]), matrix(QQ, [[3]]), matrix(QQ, [[5]]))]
            sage: attention(a=1, out=1).tangents(matrix(QQ, [[1]]), w)    # v k q x^3
            [[15], [10], [6]]
        """
        F = X.base_ring()
        mix = self.mixer(X)
        out = []
        for Q, K, V in w:
            a, din = Q.dimensions()
            dout = V.nrows()
            XM = mix(X, X, K.transpose() * Q, X)          # X ((X^T A X) o U)
            for k in range(a):
                for c in range(din):
                    out.append(V * mix(X, X, K.transpose() * _unit(F, a, din, k, c), X))
            for k in range(a):
                for b in range(din):
                    out.append(V * mix(X, X, _unit(F, a, din, k, b).transpose() * Q, X))
            for i in range(dout):
                for p in range(din):
                    out.append(_unit(F, dout, din, i, p) * XM)
        return out


@spec_keyword_hints
def dense(out, r=1, bias=False, residual=False):
    r"""
    Return a dense layer `Y = (W X + b \mathbf{1}^T)^{\circ r}` for :func:`~sage_attention.models.stack.Network`.

    INPUT:

    - ``out`` -- positive integer; the output width `d_i`
    - ``r`` -- positive integer (default: `1`, linear); the power of the activation
    - ``bias`` -- boolean (default: ``False``); a bias vector `b`
    - ``residual`` -- boolean (default: ``False``); add the input to the output

    EXAMPLES::

        sage: from sage_attention.models.layers import dense
        sage: dense(out=3, r=2, bias=True)
        dense(out=3, r=2, bias=True)

    TESTS::

        sage: dense(out=3, r=0)
        Traceback (most recent call last):
        ...
        SpecError: the activation degree r (=0) must be a positive integer (r = 1 is a linear layer)
        sage: dense(out=3, r=1.5)
        Traceback (most recent call last):
        ...
        TypeError: the activation degree r (=1.5...) must be a positive integer (r = 1 is a linear layer)
        sage: dense(out=3, bias='maybe')
        Traceback (most recent call last):
        ...
        TypeError: bias (='maybe') must be True or False
    """
    try:
        r = integer_argument(r, "the activation degree r")
    except (TypeError, SpecError) as e:
        raise type(e)(f"{e} (r = 1 is a linear layer)") from None
    return DenseLayer(integer_argument(out, "out"), r, _flag(bias, "bias"),
                      _flag(residual, "residual"))


@spec_keyword_hints
def attention(a, out, heads=1, causal=False, residual=False):
    r"""
    Return a lightning attention layer for :func:`~sage_attention.models.stack.Network`.

    INPUT:

    - ``a`` -- positive integer; the attention rank
    - ``out`` -- positive integer; the output width `d_i`
    - ``heads`` -- positive integer (default: `1`); summed heads
    - ``causal`` -- boolean (default: ``False``); mask the later tokens
    - ``residual`` -- boolean (default: ``False``); add the input to the output

    EXAMPLES::

        sage: from sage_attention.models.layers import attention
        sage: attention(a=2, out=3, causal=True)
        attention(a=2, out=3, causal=True)
    """
    return AttentionLayer(integer_argument(a, "the rank a"), integer_argument(out, "out"),
                          integer_argument(heads, "heads"), _flag(causal, "causal"),
                          _flag(residual, "residual"))
