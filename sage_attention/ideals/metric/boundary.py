r"""
Decision boundaries of polynomial networks and their ED degrees

A network `f : \RR^{d_0} \to \RR^2` classifies by the larger output: its
decision boundary is the hypersurface `f_1 = f_2` in input space; a scalar
network with a threshold `\tau` has the boundary `f = \tau`. The distance
from an input `u` to the boundary is its robustness radius, and the ED
degree of the boundary counts the critical points of that distance: the
algebraic cost of certifying robustness exactly [RVP2026]_.

EXAMPLES:

The two worked examples of [RVP2026]_ (their public code): a shallow
network `2 \to 2 \to 2` with quadratic activation and biases. At the first
parameter the boundary is a smooth conic (ED degree `4`); at the second it
is a pair of lines, and the ED degree drops to `2`::

    sage: from sage_attention import PolynomialNetwork
    sage: from sage_attention.ideals.metric.boundary import decision_boundary, boundary_ed_degree
    sage: M = PolynomialNetwork([2, 2, 2], 2, bias=True)
    sage: W1, W2 = matrix(QQ, [[1, 2], [3, 1]]), matrix(QQ, [[2, 1], [1, 2]])
    sage: w = [(W1, matrix(QQ, 2, 1, [0, 1])), (W2, matrix(QQ, 2, 1, [2, 1]))]
    sage: decision_boundary(M, w)
    -8*x0^2 - 2*x0*x1 + 3*x1^2 - 6*x0 - 2*x1
    sage: boundary_ed_degree(M, w, seed=0).degree
    4
    sage: w2 = [(W1, matrix(QQ, 2, 1, [1, 2])), (W2, matrix(QQ, 2, 1, [1, 1]))]
    sage: decision_boundary(M, w2).factor()
    (-2*x0 + x1 - 1) * (4*x0 + 3*x1 + 3)
    sage: boundary_ed_degree(M, w2, seed=0).degree
    2

At random weights the boundary of a network `3 \to 3 \to 1` with quadratic
activation, biases and a threshold is a generic quadric surface: ED degree
`D \sum_{i<n} (D-1)^i = 2 \cdot 3 = 6`::

    sage: boundary_ed_degree(PolynomialNetwork([3, 3, 1], 2, bias=True), seed=1, threshold=1).degree
    6
"""
# sage.doctest: needs sage.libs.singular
from sage.all__sagemath_singular import PolynomialRing, QQ, matrix, prod

from sage_attention.ideals.metric.ed_degree import ed_degree


def input_ring(model, field=QQ):
    r"""
    Return the polynomial ring of the inputs of ``model`` (`x_0, \dots`: `d_0 t` variables, column by column).

    INPUT:

    - ``model`` -- a network of :func:`~sage_attention.PolynomialNetwork` or :func:`~sage_attention.Network`
    - ``field`` -- (default: `\QQ`)

    OUTPUT: a polynomial ring

    EXAMPLES::

        sage: from sage_attention import PolynomialNetwork
        sage: from sage_attention.ideals.metric.boundary import input_ring
        sage: input_ring(PolynomialNetwork([3, 2, 1], 2))
        Multivariate Polynomial Ring in x0, x1, x2 over Rational Field
    """
    t = 1 if getattr(model, "is_dense", lambda: False)() else model.tokens
    return PolynomialRing(field, "x", model.d * t)


def decision_boundary(model, weights=None, threshold=0, outputs=None, seed=None):
    r"""
    Return the polynomial whose zero set is the decision boundary of ``model`` at ``weights``.

    INPUT:

    - ``model`` -- a network of :func:`~sage_attention.PolynomialNetwork` or
      :func:`~sage_attention.Network` (a layer stack)
    - ``weights`` -- (default: ``None``: random, from ``seed``) as for the
      model's ``forward``
    - ``threshold`` -- (default: `0`) for a scalar output, the boundary is
      ``f - threshold``
    - ``outputs`` -- (default: ``None``: the first two outputs when there
      are two or more, else the first) a pair of output entries ``(row,
      token)`` (0-based) for `f_1 - f_2`, or a single entry for `f - \tau`
    - ``seed`` -- (default: ``None``) the seed of random weights

    OUTPUT: a polynomial of :func:`input_ring`

    EXAMPLES::

        sage: from sage_attention import PolynomialNetwork
        sage: from sage_attention.ideals.metric.boundary import decision_boundary
        sage: M = PolynomialNetwork([2, 1, 1], 3)
        sage: decision_boundary(M, [(matrix(QQ, [[1, 1]]), None), (matrix(QQ, [[2]]), None)], threshold=2)
        2*x0^3 + 6*x0^2*x1 + 6*x0*x1^2 + 2*x1^3 - 2

    TESTS::

        sage: decision_boundary(M, outputs=[(0, 0), (1, 0)], seed=0)
        Traceback (most recent call last):
        ...
        ValueError: outputs (=[(0, 0), (1, 0)]) must be entries of the 1 x 1 output
    """
    R = input_ring(model)
    t = 1 if getattr(model, "is_dense", lambda: False)() else model.tokens
    if weights is None:
        weights = model.random_weights(seed=seed)
    X = matrix(R, model.d, t, lambda i, j: R.gen(j * model.d + i))
    Y = model.forward(X, weights)
    if outputs is None:
        outputs = [(0, 0), (1, 0)] if Y.nrows() >= 2 else [(0, 0)]
    if isinstance(outputs, tuple) and len(outputs) == 2 and all(isinstance(a, int) for a in outputs):
        outputs = [outputs]
    outputs = [tuple(e) for e in outputs]
    if not all(0 <= r < Y.nrows() and 0 <= c < Y.ncols() for r, c in outputs) or len(outputs) not in (1, 2):
        raise ValueError(f"outputs (={outputs!r}) must be entries of the {Y.nrows()} x {Y.ncols()} output")
    if len(outputs) == 2:
        return R(Y[outputs[0]] - Y[outputs[1]])
    return R(Y[outputs[0]] - threshold)


def reduced(f):
    r"""
    Return the product of the distinct irreducible factors of ``f`` (the reduced hypersurface).

    INPUT:

    - ``f`` -- a nonconstant polynomial over `\QQ`

    OUTPUT: a polynomial

    EXAMPLES::

        sage: from sage_attention.ideals.metric.boundary import reduced
        sage: R.<x,y> = QQ[]
        sage: reduced((x - y)^2 * (x + 1))
        -x^2 + x*y - x + y
    """
    return prod(g for g, _ in f.factor())


def boundary_ed_degree(model, weights=None, threshold=0, outputs=None, metric="euclidean", data=None, seed=None,
                       backend=None):
    r"""
    Return the ED degree of the decision boundary of ``model`` (affine, in input space).

    INPUT:

    - ``model``, ``weights``, ``threshold``, ``outputs`` -- as for
      :func:`decision_boundary` (random weights come from ``seed``)
    - ``metric`` -- (default: ``'euclidean'``, the standard metric of the
      inputs) as for :func:`~sage_attention.ideals.metric.ed_degree.ed_degree`
    - ``data`` -- (default: ``None``, random) an input point
    - ``seed`` -- (default: ``None``) the seed of the weights and of the counts
    - ``backend`` -- (default: ``None``) see :mod:`~sage_attention.ideals.metric.backends`

    OUTPUT: an :class:`~sage_attention.ideals.metric.ed_degree.EDDegreeResult`
    of the reduced boundary hypersurface (its components' ED degrees add up)

    EXAMPLES:

    A cubic boundary of a scalar network `2 \to 2 \to 1` at random weights:
    a smooth plane cubic, ED degree `3 (1 + 2) = 9`::

        sage: from sage_attention import PolynomialNetwork
        sage: from sage_attention.ideals.metric.boundary import boundary_ed_degree
        sage: E = boundary_ed_degree(PolynomialNetwork([2, 2, 1], 3, bias=True), threshold=1, seed=2)
        sage: E.degree, E.variety
        (9, 'affine')

    TESTS::

        sage: boundary_ed_degree(PolynomialNetwork([2, 1, 1], 2), weights=[(matrix(QQ, [[0, 0]]), None),
        ....:                    (matrix(QQ, [[1]]), None)])
        Traceback (most recent call last):
        ...
        ValueError: the decision boundary is empty or everything: f - threshold = 0 is constant
    """
    from sage_attention.models.checks import rational_model
    rational_model(model, "the ED degree of a decision boundary")
    f = decision_boundary(model, weights, threshold, outputs, seed)
    if f.is_constant():
        raise ValueError(f"the decision boundary is empty or everything: f - threshold = {f} is constant")
    g = reduced(f)
    return ed_degree(g.parent().ideal([g]), metric, data=data, seed=seed, projective=False, backend=backend,
                     codimension=1)
