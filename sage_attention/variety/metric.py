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


def quadratic_chart(model):
    r"""
    Return a birational chart of the function space of a shallow quadratic network with one output, or ``None``.

    For ``PolynomialNetwork([n, r, 1], 2)`` with `r < n` the function
    space is the quadrics `x^T A x` with `A` symmetric of rank at most `r`.
    Every such `A` whose leading `r \times r` block is invertible is
    `A = L S L^T` for exactly one pair: `L = \binom{I_r}{K}` with `K` of
    size `(n-r) \times r` and `S` symmetric `r \times r` (`S` is the
    leading block, `K = A_{21} S^{-1}`). These `\binom{r+1}{2} + r(n-r)`
    weights are a chart of dimension `\dim X = rn - \binom{r}{2}` with
    fiber size `1`: the gauge of the hidden layer's symmetry group
    (`GL(r)` acting on the first layer, with the sign of each neuron)
    fixed once and for all, where the network's own weights leave fibers
    of several points in a coordinate chart. The coordinate `c_\alpha` is
    `A_{ii}` for `\alpha = 2 e_i` and `2 A_{ij}` for `\alpha = e_i + e_j`.

    INPUT:

    - ``model`` -- a model, or a neurovariety

    OUTPUT: a ring map coordinates `\to` chart weights over `\QQ`, or
    ``None`` if ``model`` is not such a network

    EXAMPLES:

    The two-neuron network on `\RR^3`: the chart has `3 + 2 = 5 = \dim X`
    weights, and its points are quadrics of rank two::

        sage: from sage_attention import PolynomialNetwork
        sage: from sage_attention.variety.metric import quadratic_chart
        sage: M = PolynomialNetwork([3, 2, 1], 2)
        sage: phi = quadratic_chart(M); phi.codomain().ngens()
        5
        sage: c = [phi(x)(1, 2, 3, 4, 5) for x in phi.domain().gens()]      # a point of the chart
        sage: A = matrix(QQ, 3, 3)
        sage: for (_, _, e), v in zip(M.coordinate_description(), c):
        ....:     i, j = [k for k in range(3) for _ in range(e[k])]
        ....:     A[i, j] = A[j, i] = v if i == j else v / 2
        sage: A.rank()
        2
        sage: quadratic_chart(PolynomialNetwork([3, 2, 1], 3)) is None      # cubic activation
        True
    """
    from sage.all__sagemath_singular import PolynomialRing, QQ, identity_matrix, matrix
    M = model.model() if hasattr(model, "model") and callable(model.model) else model
    args = getattr(M, "_kileel_trager_bruna_arguments", lambda: None)()
    if args is None:
        return None
    widths, act, bias = args
    if bias or act != 2 or len(widths) != 3 or widths[2] != 1 or not widths[1] < widths[0]:
        return None
    n, r = int(widths[0]), int(widths[1])
    desc = M.coordinate_description()
    if len({tok for _, tok, _ in desc}) != 1:
        return None
    names = [f"s{i}_{j}" for i in range(r) for j in range(i, r)] + \
            [f"k{i}_{j}" for i in range(r, n) for j in range(r)]
    P = PolynomialRing(QQ, names)
    gens = iter(P.gens())
    S = matrix(P, r, r)
    for i in range(r):
        for j in range(i, r):
            S[i, j] = S[j, i] = next(gens)
    L = identity_matrix(P, r).stack(matrix(P, n - r, r, lambda i, j: next(gens)))
    A = L * S * L.transpose()
    images = []
    for _, _, e in desc:
        i, j = [k for k in range(n) for _ in range(e[k])]
        images.append(A[i, j] if i == j else 2 * A[i, j])
    C = M.parametrization().domain()
    return C.hom(images, P)


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
    - ``route`` -- (default: ``None``: at random data, the birational chart
      of :func:`quadratic_chart` when the model has one; else the ideal
      when the package's size guard allows its computation, else the
      chart) ``'ideal'`` (the
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
        sage: network_ed_degree(PolynomialNetwork([5, 2, 1], 2), 'bombieri_weyl', seed=0).degree
        10

    Under a generic metric the birational chart (fiber size `1`) is the
    fast way; the ideal route gives the same count::

        sage: M = PolynomialNetwork([3, 2, 1], 2)
        sage: E = network_ed_degree(M, seed=1); E.degree, E.variety, E.certificate.reason
        (13, 'cone', '2 counts agree: 13 over GF(8388593), 13 over GF(8388617); pure critical points / fiber: 13/1, 13/1')
        sage: network_ed_degree(M, seed=1, route='ideal').degree
        13

    TESTS::

        sage: from sage_attention import LightningAttention
        sage: network_ed_degree(LightningAttention(d=2, t=1, a=1), 'bombieri_weyl')
        Traceback (most recent call last):
        ...
        ValueError: the Bombieri-Weyl metric needs coordinates that are coefficients of forms of one degree (a polynomial network); use 'generic', 'euclidean' or a Gram matrix
    """
    from sage_attention.misc.errors import ComputationTooLarge
    from sage_attention.models.checks import rational_model
    rational_model(model.model() if hasattr(model, "model") and callable(model.model) else model,
                   "the ED degree")
    if route not in (None, "ideal", "parametrization"):
        raise ValueError(f"route (={route!r}) must be None, 'ideal' or 'parametrization'")
    I = exps = None
    if route is None and data is None and quadratic_chart(model) is not None:
        route = "parametrization"
    if route != "parametrization":
        try:
            I, exps = network_ideal(model)
        except ComputationTooLarge:
            if route == "ideal":
                raise
    if I is None:
        M = model.model() if hasattr(model, "model") and callable(model.model) else model
        phi = quadratic_chart(M) or M.parametrization()
        exps = [e for _, _, e in M.coordinate_description()] if hasattr(M, "coordinate_description") else None
        if exps is not None and len({sum(e) for e in exps}) != 1:
            exps = None
    if metric == "bombieri_weyl" and exps is None:
        raise ValueError("the Bombieri-Weyl metric needs coordinates that are coefficients of forms of one degree "
                         "(a polynomial network); use 'generic', 'euclidean' or a Gram matrix")
    E = ed_degree(I, metric, data=data, seed=seed, projective=projective, exponents=exps, backend=backend,
                  compare=compare, parametrization=None if I is not None else phi)
    if I is None and E.variety == "affine" and getattr(M, "is_homogeneous", lambda: False)():
        # a chart that is not homogeneous (quadratic_chart) of the function space of a homogeneous network: a cone
        from dataclasses import replace
        E = replace(E, variety="cone")
    return E


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
    from sage_attention.models.checks import rational_model
    M = rational_model(model.model() if hasattr(model, "model") and callable(model.model) else model,
                       "the number of critical points")
    exps = None
    if hasattr(M, "coordinate_description"):
        exps = [e for _, _, e in M.coordinate_description()]
        exps = exps if len({sum(e) for e in exps}) == 1 else None
    if metric == "bombieri_weyl" and exps is None:
        raise ValueError("the Bombieri-Weyl metric needs coordinates that are coefficients of forms of one degree "
                         "(a polynomial network); use 'generic', 'euclidean' or a Gram matrix")
    return loss_critical_points(M.parametrization(), metric, p=p, seed=seed, exponents=exps, backend=backend,
                                spurious=spurious)


def boundary_picture(model, weights=None, threshold=0, outputs=None, seed=None, xrange=(-2, 2), yrange=(-2, 2),
                     points=9, plot_points=150):
    r"""
    Return a picture of the decision boundary of a network with two inputs, its ED discriminant and the numbers of real critical points.

    The boundary (blue) and the real part of its ED discriminant (red,
    :func:`~sage_attention.ideals.metric.discriminant.ed_discriminant`)
    are drawn in the box; at the data of a ``points`` `\times` ``points``
    grid the number of real critical points of the distance to the
    boundary is written (exact real root isolation:
    :func:`~sage_attention.ideals.metric.discriminant.chamber_counts`): it
    is constant on each chamber the discriminant cuts out.

    INPUT:

    - ``model``, ``weights``, ``threshold``, ``outputs``, ``seed`` -- as for
      :func:`~sage_attention.ideals.metric.boundary.decision_boundary`
      (the model has two inputs)
    - ``xrange``, ``yrange`` -- (default: `(-2, 2)`) the box
    - ``points`` -- (default: `9`) grid points per side for the counts
    - ``plot_points`` -- (default: `150`) resolution of the curves

    OUTPUT: a Sage ``Graphics`` (needs ``passagemath-plot``)

    EXAMPLES:

    The first worked example of [RVP2026]_: a hyperbola; its ED
    discriminant (evolute) separates data with two real critical points
    from data with four::

        sage: from sage_attention import PolynomialNetwork
        sage: from sage_attention.variety.metric import boundary_picture
        sage: M = PolynomialNetwork([2, 2, 2], 2, bias=True)
        sage: W1, W2 = matrix(QQ, [[1, 2], [3, 1]]), matrix(QQ, [[2, 1], [1, 2]])
        sage: w = [(W1, matrix(QQ, 2, 1, [0, 1])), (W2, matrix(QQ, 2, 1, [2, 1]))]
        sage: G = boundary_picture(M, w, points=5, plot_points=60); G      # long time (2 s)
        Graphics object consisting of ... graphics primitives
        sage: G.save(tmp_filename(ext='.png'))                              # long time

    TESTS::

        sage: boundary_picture(PolynomialNetwork([3, 2, 1], 2), seed=0)
        Traceback (most recent call last):
        ...
        ValueError: the picture needs a boundary in two inputs; this one has 3
    """
    from sage.all__sagemath_singular import RDF
    from sage.plot.contour_plot import implicit_plot
    from sage.plot.text import text
    from sage_attention.ideals.metric.boundary import decision_boundary, reduced
    from sage_attention.ideals.metric.discriminant import chamber_counts, ed_discriminant
    f = decision_boundary(model, weights, threshold, outputs, seed)
    if f.parent().ngens() != 2:
        raise ValueError(f"the picture needs a boundary in two inputs; this one has {f.parent().ngens()}")
    if f.is_constant():
        raise ValueError(f"the decision boundary is empty or everything: f - threshold = {f} is constant")
    g = reduced(f)
    D = ed_discriminant(g)
    box = dict(plot_points=plot_points)
    xr, yr = (float(xrange[0]), float(xrange[1])), (float(yrange[0]), float(yrange[1]))
    gR, DR = g.change_ring(RDF), D.change_ring(RDF)
    G = implicit_plot(lambda a, b: float(gR(a, b)), xr, yr, color="blue", **box)
    if not D.is_constant():
        G += implicit_plot(lambda a, b: float(DR(a, b)), xr, yr, color="red", linestyle="--", **box)
    for (u, v), c in chamber_counts(g, xrange, yrange, points).items():
        G += text(str(c), (float(u), float(v)), color="black", fontsize=9)
    G.axes_labels(["$x_0$", "$x_1$"])
    G.set_aspect_ratio(1)
    G._extra_kwds["title"] = "decision boundary (blue), ED discriminant (red), real critical points"
    return G
