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
    from sage_attention.catalog.costs import check_size
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


class StackCoordinates:
    r"""
    A homogeneous dense network seen through its coordinates: what the interpolation engine reads.

    The implicitization engine (:func:`~sage_attention.ideals.implicitization.implicitize`)
    works on a model that offers its coordinate ring, its parametrization
    in essential coordinates, its linear relations and its weight matrices
    (for the permutation symmetries of the features and outputs). A
    polynomial network without biases or residual streams is homogeneous in
    each layer's weights, so the engine's multigrading applies; its
    coordinates are the coefficients of the output forms, all essential
    (their images are linearly independent: checked here, exactly).
    :meth:`~sage_attention.models.stack.LayerStack.coordinate_model` builds
    this view; it is not a model of its own (its ``repr`` is the network's).

    INPUT:

    - ``stack`` -- a :class:`~sage_attention.models.stack.LayerStack` of
      dense layers without bias or residual stream

    EXAMPLES:

    Two inputs, three hidden neurons of degree `6`: the binary sextics that
    are sums of three sixth powers, seven coordinates::

        sage: from sage_attention import PolynomialNetwork
        sage: C = PolynomialNetwork([2, 3, 1], 6).coordinate_model(); C
        PolynomialNetwork(widths=(2, 3, 1), activation_degree=6) over Rational Field
        sage: C.essential_ring().ngens(), C.linear_relations(), C.weight_matrices()[0][0].dimensions()
        (7, (), (3, 2))
    """

    weight_space = "dense"

    def __init__(self, stack):
        if not stack.is_dense() or not stack.is_homogeneous() or any(la.residual for la in stack.layers) \
                or any(getattr(la, "bias", False) for la in stack.layers):
            raise ValueError(f"the interpolation engine needs a network of dense layers without biases or "
                             f"residual streams (homogeneous in each layer's weights); {stack} is not: "
                             "its vanishing ideal comes by elimination")
        self.stack = stack
        self.widths = stack.widths
        phi = parametrization(stack)
        self._phi = phi
        images = [f for f in phi.im_gens()]
        monos = sorted({m for f in images for m in f.monomials()})
        index = {m: i for i, m in enumerate(monos)}
        rows = [[0] * len(monos) for _ in images]
        for k, f in enumerate(images):
            for c, m in zip(f.coefficients(), f.monomials()):
                rows[k][index[m]] = c
        if not images or matrix(stack.base_ring(), rows).rank() < len(images):
            raise ValueError(f"the coordinates of {stack} satisfy linear relations; its vanishing ideal "
                             "comes by elimination")

    def __repr__(self):
        return repr(self.stack)

    def base_ring(self):
        return self.stack.base_ring()

    def is_lightning(self):
        r"""Return ``True``: the network is polynomial."""
        return True

    def coordinate_ring(self):
        return self._phi.domain()

    def essential_ring(self):
        return self._phi.domain()

    def essential_parametrization(self):
        return self._phi

    def essential_coordinates(self):
        return tuple(self._phi.domain().gens())

    def linear_relations(self):
        return ()

    def linear_form_structure(self):
        return None

    def output_entries(self):
        return self.stack.output_entries()

    def dimension(self, seed=None, **kwds):
        return self.stack.dimension(seed=seed, **kwds)

    def weight_matrices(self):
        r"""
        Return, per layer, the list of its weight matrices over the weight ring (here one, `W_l`).
        """
        W = self._phi.codomain()
        gens = iter(W.gens())
        out = []
        for i, layer in enumerate(self.stack.layers):
            values = [next(gens) for _ in range(layer.nparameters(self.stack.widths[i]))]
            out.append([layer.weights_from_list(values, self.stack.widths[i])[0]])
        return out
