r"""
ED degrees of neurovarieties and of networks

The model-facing side of :mod:`sage_attention.ideals.metric`: the ED degree
of a network's function space (its neurovariety) from the vanishing ideal
the package computes, with the model's coordinates. For a polynomial network
the coordinates are the coefficients `c_\alpha` of the output forms, so the
Bombieri-Weyl metric `\sum_\alpha c_\alpha^2/\binom{D}{\alpha}` is defined
(on each output); a lightning attention model's coordinates are scaled
coefficients, so only ``'generic'``, ``'euclidean'`` and a Gram matrix apply.

EXAMPLES:

The two-neuron quadratic network `\RR^3 \to \RR^2 \to \RR` ([Gra2025]_): its
function space is the secant of the quadratic Veronese, the ternary quadrics
of rank at most `2` (the determinant hypersurface of symmetric `3 \times 3`
matrices). Under Bombieri-Weyl (the Frobenius norm of the symmetric matrix)
its ED degree is `\binom{3}{2} = 3` (Eckart-Young for eigenvalues); under a
generic metric it is `13`::

    sage: from sage_attention import PolynomialNetwork
    sage: from sage_attention.variety.metric import network_ed_degree
    sage: M = PolynomialNetwork([3, 2, 1], 2)
    sage: network_ed_degree(M, 'bombieri_weyl', seed=0).degree
    3
    sage: network_ed_degree(M, 'generic', seed=0).degree
    13

A neurovariety of lightning attention, the one-entry slice of rank one (a
Segre product)::

    sage: from sage_attention import LightningAttention
    sage: X = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)]).neurovariety()
    sage: X.ed_degree('euclidean', seed=0)
    ED degree ... of an affine cone (= the projective variety), metric 'euclidean', random data: 2 counts agree: ...
"""
# sage.doctest: needs sage.libs.singular
from sage_attention.ideals.metric.ed_degree import ed_degree


def network_ideal(model):
    r"""
    Return ``(I, exponents)``: the vanishing ideal of the network's function space and the exponents of its coordinates.

    ``exponents`` is ``None`` when the coordinates are not coefficients of
    forms of one degree (then the Bombieri-Weyl metric does not apply).

    INPUT:

    - ``model`` -- a lightning attention model, a layer stack
      (:func:`~sage_attention.PolynomialNetwork`) or a
      :class:`~sage_attention.variety.neurovariety.Neurovariety`

    OUTPUT: a pair (ideal, list or ``None``)

    EXAMPLES::

        sage: from sage_attention import PolynomialNetwork
        sage: from sage_attention.variety.metric import network_ideal
        sage: I, e = network_ideal(PolynomialNetwork([2, 1, 1], 2)); I.gens(), e
        ([c1^2 - 4*c0*c2], [(2, 0), (1, 1), (0, 2)])
    """
    from sage_attention.models.stack import LayerStack
    if hasattr(model, "minimal_generators") and hasattr(model, "ambient"):     # a neurovariety
        X = model
    elif isinstance(model, LayerStack):
        from sage_attention.ideals.stack_elimination import stack_vanishing_ideal
        I = stack_vanishing_ideal(model)
        exps = [e for _, _, e in model.coordinate_description()]
        return I, (exps if len({sum(e) for e in exps}) == 1 else None)
    else:
        X = model.neurovariety()
    C = X.ambient()
    G = X.minimal_generators()
    return C.ideal(G if G else [C(0)]), None


def network_ed_degree(model, metric="generic", data=None, seed=None, projective=None, backend=None, compare=False,
                      route=None):
    r"""
    Return the ED degree of the function space of ``model`` (its neurovariety) for ``metric``.

    INPUT:

    - ``model`` -- as for :func:`network_ideal`
    - ``metric`` -- (default: ``'generic'``) ``'generic'``, ``'euclidean'``,
      ``'bombieri_weyl'`` (polynomial networks) or a Gram matrix
    - ``data`` -- (default: ``None``, random) a point of the coordinates
    - ``seed``, ``projective``, ``backend``, ``compare`` -- as for
      :func:`~sage_attention.ideals.metric.ed_degree.ed_degree`
    - ``route`` -- (default: ``None``: the ideal when the package's size
      guard allows its computation, else the chart) ``'ideal'`` (the
      critical ideal on the vanishing ideal) or ``'parametrization'`` (pure
      critical points of the loss in a chart transverse to the fibers,
      divided by the fiber size: :mod:`~sage_attention.ideals.metric.parametric`)

    OUTPUT: an :class:`~sage_attention.ideals.metric.ed_degree.EDDegreeResult`

    EXAMPLES:

    Binary quadrics that are squares (the conic `c_1^2 = 4 c_0 c_2`, the
    rational normal curve of degree `2`): `d = 2` under Bombieri-Weyl,
    `3d - 2 = 4` generic [DHOST2016]_::

        sage: from sage_attention import PolynomialNetwork
        sage: from sage_attention.variety.metric import network_ed_degree
        sage: M = PolynomialNetwork([2, 1, 1], 2)
        sage: network_ed_degree(M, 'bombieri_weyl', seed=0).degree, network_ed_degree(M, seed=0).degree
        (2, 4)

    The parametrization route (for ideals too large to compute) gives the
    same numbers; the two-neuron network on `\RR^5`, `\binom{5}{2} = 10`::

        sage: E = network_ed_degree(M, 'bombieri_weyl', seed=0, route='parametrization')
        sage: E.degree, E.certificate.technique
        (2, 'parametrization chart')
        sage: network_ed_degree(PolynomialNetwork([5, 2, 1], 2), 'bombieri_weyl', seed=0).degree   # long time (2 s)
        10

    TESTS::

        sage: from sage_attention import LightningAttention
        sage: network_ed_degree(LightningAttention(d=2, t=1, a=1), 'bombieri_weyl')
        Traceback (most recent call last):
        ...
        ValueError: the Bombieri-Weyl metric needs coordinates that are coefficients of forms of one degree (a polynomial network); use 'generic', 'euclidean' or a Gram matrix
    """
    from sage_attention.misc.errors import ComputationTooLarge
    if route not in (None, "ideal", "parametrization"):
        raise ValueError(f"route (={route!r}) must be None, 'ideal' or 'parametrization'")
    I = exps = None
    if route != "parametrization":
        try:
            I, exps = network_ideal(model)
        except ComputationTooLarge:
            if route == "ideal":
                raise
    if I is None:
        M = model.model() if hasattr(model, "model") and callable(model.model) else model
        phi = M.parametrization()
        exps = [e for _, _, e in M.coordinate_description()] if hasattr(M, "coordinate_description") else None
        if exps is not None and len({sum(e) for e in exps}) != 1:
            exps = None
    if metric == "bombieri_weyl" and exps is None:
        raise ValueError("the Bombieri-Weyl metric needs coordinates that are coefficients of forms of one degree "
                         "(a polynomial network); use 'generic', 'euclidean' or a Gram matrix")
    return ed_degree(I, metric, data=data, seed=seed, projective=projective, exponents=exps, backend=backend,
                     compare=compare, parametrization=None if I is not None else phi)


def critical_points(model, metric="generic", seed=None, p=None, spurious=True, backend=None):
    r"""
    Return the critical points of the squared loss of ``model`` in weight space: pure and spurious.

    See :mod:`sage_attention.ideals.metric.loss`: in a gauge chart, the
    pure critical points number ``fiber`` `\times` the ED degree, and the
    spurious ones (where the Jacobian drops rank) are given by dimension.

    INPUT:

    - ``model`` -- a polynomial network or a lightning attention model
    - ``metric`` -- (default: ``'generic'``) as for :func:`network_ed_degree`
    - ``seed``, ``p``, ``backend`` -- as for
      :func:`~sage_attention.ideals.metric.parametric.parametric_ed_count`
    - ``spurious`` -- boolean (default: ``True``); decompose the spurious locus

    OUTPUT: a :class:`~sage_attention.ideals.metric.loss.LossCriticalPoints`

    EXAMPLES:

    The two-neuron network on `\RR^3` under Bombieri-Weyl: `4 \times 3` pure
    critical points. The fiber of the gauge chart has `4` points: a fiber of
    the network is an orbit of the orthogonal group `O(2)` of the hidden
    layer's quadratic form (two conics, degree `4`), which the chart cuts
    with a hyperplane::

        sage: from sage_attention import PolynomialNetwork
        sage: from sage_attention.variety.metric import critical_points
        sage: C = critical_points(PolynomialNetwork([3, 2, 1], 2), 'bombieri_weyl', seed=1, spurious=False)
        sage: C.pure, C.fiber, C.ed_degree
        (12, 4, 3)
    """
    from sage_attention.ideals.metric.loss import loss_critical_points
    M = model.model() if hasattr(model, "model") and callable(model.model) else model
    exps = None
    if hasattr(M, "coordinate_description"):
        exps = [e for _, _, e in M.coordinate_description()]
        exps = exps if len({sum(e) for e in exps}) == 1 else None
    if metric == "bombieri_weyl" and exps is None:
        raise ValueError("the Bombieri-Weyl metric needs coordinates that are coefficients of forms of one degree "
                         "(a polynomial network); use 'generic', 'euclidean' or a Gram matrix")
    return loss_critical_points(M.parametrization(), metric, p=p, seed=seed, exponents=exps, backend=backend,
                                spurious=spurious)
