r"""
The cost estimates of the metric statements

Before ``ed_degree``, ``critical_points`` or ``decision_boundary`` runs,
``sage-attention check`` estimates, from the model spec alone and without
Sage, how many critical points the exact count meets:

- ``decision_boundary``: the boundary is a hypersurface of degree `D` in
  `n` inputs, whose ED degree is at most that of a generic one,
  `D \sum_{i<n} (D-1)^i` [DHOST2016]_ (an upper bound, exact at generic
  coefficients): :func:`boundary_bound`;
- ``ed_degree`` and ``critical_points``: the critical equations of the
  squared loss in a chart of `k` weights (the function space's dimension
  is at most `k`: the weights less the rescalings of hidden neurons and
  the `GL(a)` of each attention layer) have degree at most `2 D_w - 1`,
  where `D_w` is the degree of the output in the weights: at most `(2 D_w
  - 1)^k` isolated solutions (Bezout): :func:`chart_bound`.

A statement whose estimate is above ``settings.ED_BOUNDARY_LIMIT`` or
``settings.ED_CHART_LIMIT`` is refused by :func:`check_metric_cost` with
:class:`~sage_attention.misc.errors.ComputationTooLarge` (``--force`` runs it).
Both are upper estimates: a count below the bound may still take long
when the Groebner basis is hard, and a bound far above the true count
refuses a computation that would have finished.

EXAMPLES:

The two-neuron quadratic network `\RR^3 \to \RR^2 \to \RR`: `D_w = 3` (a
weight of the readout times the square of a row), `8` weights less `2`
rescalings, and `6` coordinates: at most `5^6` critical points::

    sage: from sage_attention.dsl import parse_spec
    sage: from sage_attention.catalog.metric_costs import chart_bound, boundary_bound
    sage: m = parse_spec("model q { input = 3\n layer dense(out = 2, activation = power(2))\n"
    ....:                " layer dense(out = 1) }").models[0]
    sage: chart_bound(m)
    (15625, 6, 3)
    sage: boundary_bound(m)          # a quadric surface: 2 (1 + 1 + 1)
    (6, 2, 3)
"""
from sage_attention.settings import settings
from sage_attention.misc.errors import ComputationTooLarge


def degrees(model):
    r"""
    Return ``(D_x, D_w)``: the degree of the output in the inputs and in the weights.

    A lightning attention layer `V X (X^T Q^T K X)` has degree `3` in its
    input and adds the degrees of `V`, `Q`, `K` (`A = Q^T K` counts once
    with ``weights = A V``); a dense layer `(W x + b)^r` multiplies by `r`.
    A residual stream keeps the larger degree.

    INPUT:

    - ``model`` -- a :class:`~sage_attention.dsl.spec.ModelSpec`

    OUTPUT: a pair of integers

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.catalog.metric_costs import degrees
        sage: m = parse_spec("model a { input = 2; tokens = 2\n layer attention(rank = 1, out = 2)\n"
        ....:                " layer dense(out = 2) }").models[0]
        sage: degrees(m)
        (3, 4)
    """
    dx, dw = 1, 0
    for layer in model.layers:
        if layer.kind == "dense":
            r = layer.degree if getattr(layer, "activation", None) == "power" and layer.degree else 1
            nx, nw = r * dx, r * (dw + 1)
        else:
            nx, nw = 3 * dx, 3 * dw + (2 if model.weights == "AV" else 3)
        if layer.residual not in (False, "false"):
            nx, nw = max(nx, dx), max(nw, dw)
        dx, dw = nx, nw
    return dx, dw


def gauge_dimension(model):
    r"""
    Return a lower bound on the dimension of the weights' continuous symmetries.

    Each hidden neuron of a dense layer with activation `x^r` (not the last
    layer) may be rescaled, and each attention layer has the `GL(a)` of
    `Q^T K` (``weights = Q K V``) and the rescaling of `V` against it.

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.catalog.metric_costs import gauge_dimension
        sage: gauge_dimension(parse_spec("model s { input = 2; tokens = 2; "
        ....:                            "layer attention(rank = 2, out = 1) }").models[0])
        5
    """
    out = 0
    last = len(model.layers) - 1
    for i, layer in enumerate(model.layers):
        if layer.kind == "dense":
            if i < last and getattr(layer, "activation", None) == "power" and layer.residual in (False, "false"):
                out += layer.out
        else:
            out += (layer.rank ** 2 if model.weights == "QKV" else 0) + 1
    return out


def chart_bound(model):
    r"""
    Return ``(B, k, D_w)``: the Bezout number `(2 D_w - 1)^k` of the loss's critical equations in a chart of `k` weights.

    `k` is the number of weights less :func:`gauge_dimension`, at most the
    number of essential coordinates (the function space's dimension is at
    most both).

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.catalog.metric_costs import chart_bound
        sage: chart_bound(parse_spec("model s { input = 3; tokens = 1; "
        ....:                        "layer attention(rank = 1, out = 1) }").models[0])
        (78125, 7, 3)
    """
    est = model.size_estimate()
    k = max(0, min(est.parameters - gauge_dimension(model), est.essential_coordinates))
    dw = degrees(model)[1]
    return (2 * dw - 1) ** k, k, dw


def boundary_inputs(model):
    r"""
    Return the number of inputs of the decision boundary of ``model``: `d` for dense layers only, else `d t`.

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.catalog.metric_costs import boundary_inputs
        sage: boundary_inputs(parse_spec("model a { input = 2; tokens = 3\n layer attention(rank = 1, out = 2)\n"
        ....:                            " layer dense(out = 2) }").models[0])
        6
    """
    dense_only = all(layer.kind == "dense" for layer in model.layers)
    return model.input * (1 if dense_only or model.tokens is None else model.tokens)


def boundary_bound(model):
    r"""
    Return ``(B, D, n)``: the ED degree `B = D \sum_{i<n} (D-1)^i` of a generic hypersurface of degree `D` in `n` inputs.

    The decision boundary of ``model`` has degree at most `D` (the degree
    of the output in the inputs), so its ED degree (the sum over its
    components) is at most `B`.

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.catalog.metric_costs import boundary_bound
        sage: boundary_bound(parse_spec("model p { input = 2\n layer dense(out = 2, activation = power(3))\n"
        ....:                           " layer dense(out = 1) }").models[0])
        (9, 3, 2)
    """
    D = degrees(model)[0]
    n = boundary_inputs(model)
    # the geometric sum in closed form: ``n`` can be the number of tokens times the width
    if D <= 2:
        return (D * n if D == 2 else D * min(n, 1)), D, n
    return D * ((D - 1) ** n - 1) // (D - 2), D, n


def describe_cost(name, model):
    r"""
    Return the cost estimate of the metric statement ``name`` on ``model``, in words (the note of ``check``).

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.catalog.metric_costs import describe_cost
        sage: m = parse_spec("model p { input = 2\n layer dense(out = 2, activation = power(2), bias = true)\n"
        ....:                " layer dense(out = 2, bias = true) }").models[0]
        sage: describe_cost("decision_boundary", m)
        'a boundary of degree up to 2 in 2 inputs: at most 4 critical points (limit 1000)'
        sage: describe_cost("ed_degree", m)
        'a chart of 10 weights: at most 5^10 = 9765625 critical points of the loss (Bezout; limit 20000)'
    """
    if name == "decision_boundary":
        B, D, n = boundary_bound(model)
        return (f"a boundary of degree up to {D} in {n} inputs: at most {B} critical points "
                f"(limit {settings.ED_BOUNDARY_LIMIT})")
    B, k, dw = chart_bound(model)
    return (f"a chart of {k} weights: at most {2 * dw - 1}^{k} = {B} critical points of the loss "
            f"(Bezout; limit {settings.ED_CHART_LIMIT})")


def check_metric_cost(name, model, force=False):
    r"""
    Refuse the metric statement ``name`` on ``model`` when its estimate is beyond this machine.

    INPUT:

    - ``name`` -- ``'ed_degree'``, ``'critical_points'`` or ``'decision_boundary'``
    - ``model`` -- a :class:`~sage_attention.dsl.spec.ModelSpec`
    - ``force`` -- boolean (default: ``False``); run anyway

    OUTPUT: ``None``, or :class:`~sage_attention.misc.errors.ComputationTooLarge`

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.catalog.metric_costs import check_metric_cost
        sage: s = parse_spec("model s { input = 3; tokens = 1; layer attention(rank = 1, out = 1) }")
        sage: check_metric_cost("ed_degree", s.models[0])
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the critical equations of the loss in a chart of 7 weights have up to 5^7 = 78125 solutions (Bezout; limit 20000); use a smaller model (fewer inputs, tokens, neurons or rank); pass force=True to run it anyway
        sage: check_metric_cost("ed_degree", s.models[0], force=True)
    """
    if force or None in getattr(model, "widths", (None,)):
        return
    if name == "decision_boundary":
        B, D, n = boundary_bound(model)
        limit = settings.ED_BOUNDARY_LIMIT
        if B > limit:
            raise ComputationTooLarge(
                f"the decision boundary has degree up to {D} in {n} inputs: up to {B} critical points of the "
                f"distance (the ED degree of a generic hypersurface; limit {limit})",
                hint="use fewer inputs or tokens, or lower activation degrees", force_helps=True)
        return
    B, k, dw = chart_bound(model)
    limit = settings.ED_CHART_LIMIT
    if B > limit:
        raise ComputationTooLarge(
            f"the critical equations of the loss in a chart of {k} weights have up to {2 * dw - 1}^{k} = {B} "
            f"solutions (Bezout; limit {limit})",
            hint="use a smaller model (fewer inputs, tokens, neurons or rank)", force_helps=True)


__all__ = ["degrees", "gauge_dimension", "chart_bound", "boundary_inputs", "boundary_bound",
           "describe_cost", "check_metric_cost"]
