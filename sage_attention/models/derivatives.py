r"""
The derivatives of a lightning network: forward mode and reverse mode

The dimension of the neurovariety of a lightning network is the generic
rank of the Jacobian of its parametrization
(:mod:`sage_attention.models.jacobian`). Its rows are the derivatives of the
outputs `Y(X_n)` at random inputs in every weight direction, computed
exactly over a field without expanding any polynomial:

- :func:`layer_derivatives` (forward mode): each weight direction is pushed
  through the later layers: one matrix per direction, `O(L^2)` layer
  steps for `L` layers;
- :func:`layer_gradients` (reverse mode): each output entry's cotangent is
  pulled back through the layers once, giving its whole row: `O(L)` layer
  steps per output entry, so a deep stack costs time linear in its depth
  per input.

Both write `V X (X^T A X)` as `V (X X^T) A X` and its derivatives likewise,
through `d \times d` matrices: nothing of size `t \times t` is built, and
the cost is linear in the number of tokens `t`.

The two agree entry by entry (same directions in the same order).

EXAMPLES:

The derivatives agree with finite differences of the forward pass (exact
over `\QQ`, because the network is polynomial of degree one in each `V`)::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.models.derivatives import layer_derivatives
    sage: M = LightningAttention(d=2, t=2, a=1, weight_space='AV')
    sage: (A, V), = M.random_weights(field=QQ, seed=1)
    sage: X = matrix(QQ, [[1, 2], [3, -1]])
    sage: derivs, Y = layer_derivatives(M, X, [(A, V)], QQ)
    sage: Y == M.forward(X, [(A, V)])
    True
    sage: E = matrix(QQ, 1, 2, [1, 0])
    sage: derivs[0] == M.forward(X, [(A, V + E)]) - Y
    True
"""
from sage.all__sagemath_singular import zero_matrix


def factor(A, r):
    r"""
    Return `(B, C)` with `A = B C`, `B` of size `d \times r`.

    EXAMPLES::

        sage: from sage_attention.models.derivatives import factor
        sage: A = matrix(QQ, [[1, 2], [2, 4]])
        sage: B, C = factor(A, 1); B * C == A
        True
    """
    pivots = A.pivots()
    if len(pivots) != r:
        raise ValueError(f"matrix has rank {len(pivots)}, expected {r}")
    B = A.matrix_from_columns(pivots)
    C = A.echelon_form().matrix_from_rows(range(r))
    return B, C


def _unit(F, r, c, i, j):
    E = zero_matrix(F, r, c)
    E[i, j] = 1
    return E


def layer_derivatives(model, X, weights, F):
    r"""
    Return the derivatives `\partial Y / \partial w` at an input and weights, and `Y`.

    INPUT:

    - ``model`` -- a lightning network
    - ``X`` -- a `d \times t` matrix over ``F``
    - ``weights`` -- a list as returned by ``model.random_weights()``
    - ``F`` -- the field

    OUTPUT: a pair ``(derivs, Y)``: one `d' \times t` matrix per weight
    direction (in the order of the weight ring's variables) and the output.
    For ``'AV'`` and `a < d` the directions in `A` are the tangent
    directions `dB\, C + B\, dC` of the factorization `A = B C`.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.models.derivatives import layer_derivatives
        sage: M = LightningAttention(d=1, t=1, a=1)
        sage: w = [(matrix(QQ, [[2]]), matrix(QQ, [[3]]), matrix(QQ, [[5]]))]
        sage: derivs, Y = layer_derivatives(M, matrix(QQ, [[1]]), w, QQ)
        sage: Y, [D[0, 0] for D in derivs]      # Y = v k q x^3
        ([30], [15, 10, 6])
    """
    # forward pass, keeping the intermediate token matrices
    Xs = [X]
    As, Vs = [], []
    for w in weights:
        A, V = model.attention_and_value(w)
        As.append(A)
        Vs.append(V)
        # V X (X^T A X) through d x d matrices: V (X X^T) A X (linear in the number of tokens)
        Xs.append(V * (Xs[-1] * Xs[-1].transpose()) * A * Xs[-1])
    XXts = [Xm * Xm.transpose() for Xm in Xs[:-1]]

    def propagate(start, dX):
        # push a derivative of the output of layer `start` through later layers:
        # V dX M + V X dM = V (dX X^T) A X + V (X dX^T) A X + V (X X^T) A dX
        for m in range(start + 1, len(weights)):
            Xm, A, V = Xs[m], As[m], Vs[m]
            S = dX * Xm.transpose()
            dX = V * ((S + S.transpose()) * A * Xm + XXts[m] * A * dX)
        return dX

    derivs = []
    for m, w in enumerate(weights):
        Xm, A, V = Xs[m], As[m], Vs[m]
        XM = XXts[m] * A * Xm                     # X (X^T A X)
        din = A.nrows()
        # directions in A
        dAs = []
        if len(w) == 3:
            Q, K = w[0], w[1]
            a = Q.nrows()
            dAs += [K.transpose() * _unit(F, a, din, k, c) for k in range(a) for c in range(din)]
            dAs += [_unit(F, a, din, k, b).transpose() * Q for k in range(a) for b in range(din)]
        else:
            r = min(model.ranks[m], din)
            if r >= din:
                dAs += [_unit(F, din, din, b, c) for b in range(din) for c in range(din)]
            else:
                B, C = factor(A, r)
                dAs += [_unit(F, din, r, b, k) * C for b in range(din) for k in range(r)]
                dAs += [B * _unit(F, r, din, k, c) for k in range(r) for c in range(din)]
        VXX = V * XXts[m]
        dout = V.nrows()
        dV_list = [_unit(F, dout, din, i, p) * XM for i in range(dout) for p in range(din)]
        dA_list = [VXX * dA * Xm for dA in dAs]
        layer = dA_list + dV_list if len(w) == 3 else dV_list + dA_list
        derivs += [propagate(m, D) for D in layer]
    return derivs, Xs[-1]


def layer_gradients(model, X, weights, F, entries):
    r"""
    Return the gradients of output entries in every weight direction at an input and weights (reverse mode).

    For an entry `(i, j)` the cotangent `G = E_{ij}` of the output is pulled
    back through the layers. A layer `X' = V X M` with `M = X^T A X` maps a
    cotangent `G` of `X'` to the gradients `\partial_V = G M^T X^T`,
    `\partial_A = X H X^T` with `H = (V X)^T G`, and to the cotangent
    `V^T G M^T + A X H^T + A^T X H` of `X`; for `A = K^T Q`,
    `\partial_Q = K \partial_A` and `\partial_K = Q \partial_A^T`; for
    `A = B C` (rank below the width), `\partial_B = \partial_A C^T` and
    `\partial_C = B^T \partial_A`. (Each is the adjoint of the derivative
    of :func:`layer_derivatives`: `\langle G, V X\, dM \rangle = \langle H,
    dM \rangle` and `dM = dX^T A X + X^T A\, dX`.)

    INPUT:

    - ``model``, ``X``, ``weights``, ``F`` -- as for :func:`layer_derivatives`
    - ``entries`` -- a list of output entries `(i, j)`, counted from `0`

    OUTPUT: a pair ``(rows, Y)``: one list per entry, the derivatives in
    the directions (and the order) of :func:`layer_derivatives`, and the
    output `Y`

    EXAMPLES:

    The same numbers as the forward mode, on a deep network in both weight
    spaces::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.models.derivatives import layer_derivatives, layer_gradients
        sage: F = GF(67108859)
        sage: for ws in ["QKV", "AV"]:
        ....:     M = LightningAttention(widths=[3, 2, 2], ranks=[1, 2], t=2, weight_space=ws)
        ....:     w = M.random_weights(field=F, seed=3)
        ....:     X = random_matrix(F, 3, 2)
        ....:     D, Y = layer_derivatives(M, X, w, F)
        ....:     entries = [(i, j) for i in range(2) for j in range(2)]
        ....:     rows, Y2 = layer_gradients(M, X, w, F, entries)
        ....:     print(Y == Y2, rows == [[Dk[i, j] for Dk in D] for i, j in entries])
        True True
        True True
    """
    Xs, As, Vs, XXts = [X], [], [], []
    for w in weights:
        A, V = model.attention_and_value(w)
        Xm = Xs[-1]
        XXt = Xm * Xm.transpose()
        As.append(A)
        Vs.append(V)
        XXts.append(XXt)
        Xs.append(V * XXt * A * Xm)
    Y = Xs[-1]
    # the factorizations A = B C of the rank-deficient (A, V) layers, once
    factors = {}
    for m, w in enumerate(weights):
        if len(w) == 2:
            r = min(model.ranks[m], As[m].nrows())
            if r < As[m].nrows():
                factors[m] = factor(As[m], r)
    rows = []
    for (i, j) in entries:
        G = zero_matrix(F, Y.nrows(), Y.ncols())
        G[i, j] = 1
        pieces = []
        for m in range(len(weights) - 1, -1, -1):
            Xm, A, V, XXt, w = Xs[m], As[m], Vs[m], XXts[m], weights[m]
            # with H = (V X)^T G and M = X^T A X, reassociated through d x d matrices
            GXt = G * Xm.transpose()
            gV = GXt * A.transpose() * XXt                 # G M^T X^T
            gA = XXt * V.transpose() * GXt                 # X H X^T
            if len(w) == 3:
                Q, K = w[0], w[1]
                layer = (K * gA).list() + (Q * gA.transpose()).list() + gV.list()
            elif m in factors:
                B, C = factors[m]
                layer = gV.list() + (gA * C.transpose()).list() + (B.transpose() * gA).list()
            else:
                layer = gV.list() + gA.list()
            pieces.append(layer)
            if m:
                # V^T G M^T + A X H^T + A^T X H
                G = (V.transpose() * GXt * A.transpose() * Xm + A * (Xm * G.transpose()) * V * Xm
                     + A.transpose() * XXt * V.transpose() * G)
        rows.append([x for layer in reversed(pieces) for x in layer])
    return rows, Y
