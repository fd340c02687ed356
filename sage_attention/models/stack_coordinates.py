r"""
Coordinates and parametrization of a stack of dense and attention layers

The neurovariety of a :class:`~sage_attention.models.stack.LayerStack` lies in
the space of its output polynomials; its **coordinates** are their
coefficients, one per output entry and monomial of the ambient space
(:meth:`~sage_attention.models.stack.LayerStack.ambient_dimension`): of degree
`D` for a homogeneous network, of degree `\le D` with a bias or a residual
connection. A dense network acts on each token alike, so its coordinates are
those of one token. The **parametrization** is the ring map from the
coordinate ring to the weight ring that sends each coordinate to its
coefficient, a polynomial in the weights: the network expanded. This is only
for small networks (the vanishing ideal of
:func:`~sage_attention.ideals.stack_elimination.stack_vanishing_ideal`); the
dimension never needs it.

EXAMPLES::

    sage: from sage_attention import PolynomialNetwork
    sage: M = PolynomialNetwork([2, 1, 1], 2)           # x -> c (u x + v y)^2
    sage: phi = M.parametrization(); phi.domain(), phi.codomain()
    (Multivariate Polynomial Ring in c0, c1, c2 over Rational Field, Multivariate Polynomial Ring in L1_0, L1_1, L2_0 over Rational Field)
    sage: phi.im_gens()
    [L1_0^2*L2_0, 2*L1_0*L1_1*L2_0, L1_1^2*L2_0]
    sage: M.coordinate_description()
    ((1, 1, (2, 0)), (1, 1, (1, 1)), (1, 1, (0, 2)))
"""
from itertools import product

from sage.all__sagemath_singular import PolynomialRing, matrix

from sage_attention.models.guards import check_ring_size


def _monomials(n, D, homogeneous):
    # by degree (highest first), then lexicographically (highest first)
    degrees = [D] if homogeneous else range(D, -1, -1)
    out = []
    for k in degrees:
        out += sorted((e for e in product(range(k + 1), repeat=n) if sum(e) == k), reverse=True)
    return out


def coordinate_description(model):
    r"""
    Return, for each coordinate, ``(row, token, exponent)`` (1-based row and token).

    EXAMPLES::

        sage: from sage_attention import PolynomialNetwork
        sage: from sage_attention.models.stack_coordinates import coordinate_description
        sage: len(coordinate_description(PolynomialNetwork([2, 2, 1], 2, bias=True)))
        6
    """
    tokens = 1 if model.is_dense() else model.tokens
    n = model.d * tokens
    monos = _monomials(n, model.degree(), model.is_homogeneous())
    return tuple((o, j, e) for o in range(1, model.out + 1) for j in range(1, tokens + 1)
                 for e in monos)


def weight_ring(model):
    r"""
    Return the polynomial ring of the weights: ``L{l}_{k}`` is weight `k` of layer `l`.

    EXAMPLES::

        sage: from sage_attention import PolynomialNetwork
        sage: from sage_attention.models.stack_coordinates import weight_ring
        sage: weight_ring(PolynomialNetwork([1, 1, 1], 2, bias=True)).gens()
        (L1_0, L1_1, L2_0, L2_1)
    """
    names = [f"L{l}_{k}" for l, layer in enumerate(model.layers, 1)
             for k in range(layer.nparameters(model.widths[l - 1]))]
    check_ring_size("the weight ring", len(names), False)
    return PolynomialRing(model.base_ring(), len(names), names)


def parametrization(model, force=False):
    r"""
    Return the ring map from the coordinate ring to the weight ring (the network expanded).

    INPUT:

    - ``model`` -- a :class:`~sage_attention.models.stack.LayerStack`
    - ``force`` -- boolean (default: ``False``); expand even when the size
      guard refuses

    EXAMPLES::

        sage: from sage_attention import Network, dense
        sage: from sage_attention.models.stack_coordinates import parametrization
        sage: phi = parametrization(Network([dense(out=1, r=2, bias=True), dense(out=1, bias=True)], d=1))
        sage: phi.im_gens()      # c (w x + b)^2 + b'
        [L1_0^2*L2_0, 2*L1_0*L1_1*L2_0, L1_1^2*L2_0 + L2_1]
    """
    from sage_attention.sizes import check_size
    check_size(model.size_estimate(), "parametrization", force,
               hint="the dimension needs no expansion (dimension_report)")
    described = coordinate_description(model)
    check_ring_size("the coordinate ring", len(described), force,
                    hint="the dimension needs no coordinates (dimension_report)")
    C = PolynomialRing(model.base_ring(), len(described), [f"c{k}" for k in range(len(described))])
    W = weight_ring(model)
    tokens = 1 if model.is_dense() else model.tokens
    R = PolynomialRing(W, model.d * tokens, [f"x{k}_{j}" for k in range(1, model.d + 1)
                                             for j in range(1, tokens + 1)])
    X = matrix(R, model.d, tokens, R.gens())
    gens = iter(W.gens())
    weights = []
    for i, layer in enumerate(model.layers):
        values = [R(next(gens)) for _ in range(layer.nparameters(model.widths[i]))]
        weights.append(layer.weights_from_list(values, model.widths[i]))
    Y = model.forward(X, weights)
    coeffs = {}
    for o in range(model.out):
        for j in range(tokens):
            for e, c in Y[o, j].dict().items():
                coeffs[(o + 1, j + 1, tuple(e))] = c
    return C.hom([W(coeffs.get(key, 0)) for key in described], W)
