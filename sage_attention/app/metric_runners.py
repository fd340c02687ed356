r"""
The runners of the metric statements: ``ed_degree``, ``critical_points``, ``decision_boundary``

Each runner takes ``(model, computation, options)`` as the others of
:mod:`sage_attention.app.runners` do and returns a JSON-able dictionary
with its readable ``"text"``; the options are those declared in
:data:`sage_attention.catalog.computations.COMPUTATIONS` (with their
defaults), and ``progress`` shows the seconds of the count on standard
error. The mathematics is :mod:`sage_attention.ideals.metric` and
:mod:`sage_attention.variety.metric`; the seed of every random choice
(weights, data, metric, primes' runs) is recorded in the result, so that
the numbers can be reproduced with ``seed = N``.

EXAMPLES:

The conic of binary quadrics that are squares (the network `\RR^2 \to \RR
\to \RR`, `x \mapsto w (v \cdot x)^2`): ED degree `3 d - 2 = 4` under a
generic metric, `d = 2` under Bombieri-Weyl [DHOST2016]_::

    sage: from sage_attention import PolynomialNetwork
    sage: from sage_attention.app.metric_runners import run_ed_degree
    sage: M = PolynomialNetwork([2, 1, 1], 2)
    sage: [run_ed_degree(M, None, {"metric": m, "seed": 0})["degree"] for m in ("generic", "bombieri_weyl")]
    [4, 2]
"""


def _seed(options):
    """The seed of the options, drawn (and then recorded) when none is given."""
    from sage_attention.misc.randomness import resolve_seed
    return resolve_seed(options.get("seed"))


def _data(options):
    """The data point of the options: ``None`` for ``random``, else a list of rationals."""
    data = options.get("data", "random")
    if data is None or data == "random":
        return None
    from sage.all__sagemath_singular import QQ
    return [QQ(str(v)) for v in data]


def run_ed_degree(model, computation, options):
    r"""
    Run ``ed_degree``: the ED degree of the neurovariety, counted modulo two primes.

    INPUT:

    - ``model`` -- the Sage model (a lightning attention model or a layer stack)
    - ``computation`` -- the :class:`~sage_attention.dsl.spec.Computation`
    - ``options`` -- ``metric``, ``data``, ``projective``, ``seed``
      (:data:`~sage_attention.catalog.computations.COMPUTATIONS`); ``progress``

    OUTPUT: the result's ``to_dict()`` with the ``seed`` and the ``text``

    EXAMPLES:

    The one-entry slice of rank one of lightning attention, `d = 2`, `t = 2`:
    its function space is the cone over a Segre product `\mathbb{P}^1
    \times \mathbb{P}^2` in coordinates where the standard metric is as
    good as generic, and the generic ED degree of that Segre product is
    `10` [DHOST2016]_::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.app.metric_runners import run_ed_degree
        sage: r = run_ed_degree(LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)]), None,
        ....:                   {"metric": "euclidean", "seed": 0})
        sage: r["degree"], r["variety"], r["certificate"]["proved"]
        (10, 'cone', True)

    TESTS::

        sage: run_ed_degree(LightningAttention(d=2, t=1, a=1), None, {"data": (1, 2), "seed": 0})
        Traceback (most recent call last):
        ...
        ValueError: the data point has 2 values; the model has 4 coordinates
    """
    from sage_attention.misc.progress import Heartbeat
    from sage_attention.variety.metric import network_ed_degree
    seed = _seed(options)
    data = _data(options)
    if data is not None:
        n = _ncoordinates(model)
        if n is not None and len(data) != n:
            raise ValueError(f"the data point has {len(data)} values; the model has {n} coordinates")
    with Heartbeat(f"ed_degree: the critical points of the distance ({options.get('metric', 'generic')} metric), "
                   "counted modulo two primes", bool(options.get("progress", False))):
        E = network_ed_degree(model, options.get("metric", "generic"), data=data, seed=seed,
                              projective=options.get("projective"))
    out = dict(E.to_dict())
    out["seed"] = seed
    out["text"] = str(E)
    return out


def _ncoordinates(model):
    """The number of coordinates of the function space of ``model``, or ``None``."""
    for name in ("ncoordinates", "ncoefficients"):
        f = getattr(model, name, None)
        if callable(f):
            try:
                return int(f())
            except Exception:        # a model whose count needs its expansion: checked by the library
                return None
    return None


def run_critical_points(model, computation, options):
    r"""
    Run ``critical_points``: the critical points of the squared loss in weight space, pure and spurious.

    INPUT: as for :func:`run_ed_degree` (options ``metric``, ``data``,
    ``spurious``, ``seed``)

    OUTPUT: the result's ``to_dict()`` with the ``seed`` and the ``text``

    EXAMPLES:

    The two-neuron quadratic network `\RR^3 \to \RR^2 \to \RR` under
    Bombieri-Weyl: `3` critical points in function space (Eckart-Young for
    the eigenvalues of a symmetric `3 \times 3` matrix), each with a fiber
    of `4` points in the gauge chart::

        sage: from sage_attention import PolynomialNetwork
        sage: from sage_attention.app.metric_runners import run_critical_points
        sage: r = run_critical_points(PolynomialNetwork([3, 2, 1], 2), None,
        ....:                         {"metric": "bombieri_weyl", "spurious": False, "seed": 1})
        sage: r["pure"], r["ed_degree"], r["fiber"]
        (12, 3, 4)
    """
    from sage_attention.misc.progress import Heartbeat
    from sage_attention.variety.metric import critical_points
    seed = _seed(options)
    if options.get("data", "random") != "random":
        raise ValueError("critical_points counts at random data only (`data = random`)")
    with Heartbeat("critical_points: the critical points of the loss in a chart of the weights",
                   bool(options.get("progress", False))):
        C = critical_points(model, options.get("metric", "generic"), seed=seed,
                            spurious=bool(options.get("spurious", True)))
    out = dict(C.to_dict())
    out["seed"] = seed
    out["text"] = str(C)
    return out


def run_decision_boundary(model, computation, options):
    r"""
    Run ``decision_boundary``: the boundary at random weights and its ED degree in input space.

    INPUT: as for :func:`run_ed_degree` (options ``outputs``, 1-based
    output rows of the first token; ``threshold``; ``metric``; ``data``, a
    point of input space; ``seed``, of the weights and the counts)

    OUTPUT: a dictionary: ``boundary`` (the polynomial, as text),
    ``boundary_degree`` (its degree), ``inputs``, ``outputs``, ``threshold``, the
    ED degree's ``to_dict()`` under ``ed``, the ``ed_degree``, the
    ``seed``, the ``text``; with ``data`` and the standard metric, the real
    critical points and the radius under ``real``

    EXAMPLES:

    A scalar network `\RR^2 \to \RR^2 \to \RR` with cubic activation and
    biases at the threshold `1`: a smooth plane cubic at random weights, ED
    degree `3 (1 + 2) = 9`::

        sage: from sage_attention import PolynomialNetwork
        sage: from sage_attention.app.metric_runners import run_decision_boundary
        sage: r = run_decision_boundary(PolynomialNetwork([2, 2, 1], 3, bias=True), None,
        ....:                           {"threshold": 1, "seed": 2})
        sage: r["boundary_degree"], r["ed_degree"], r["outputs"]
        (3, 9, [1])

    At given data (and the standard metric), the real critical points of
    the distance and the robustness radius
    (:func:`~sage_attention.ideals.metric.real_points.real_critical_points`)::

        sage: r = run_decision_boundary(PolynomialNetwork([2, 2, 1], 2, bias=True), None,
        ....:                           {"threshold": 1, "seed": 2, "data": (0, 0)})
        sage: r["real"]["real_count"] <= r["real"]["complex_count"] == r["ed_degree"]
        True
    """
    from sage.all__sagemath_singular import QQ
    from sage_attention.misc.progress import Heartbeat
    from sage_attention.ideals.metric.boundary import boundary_ed_degree, decision_boundary
    seed = _seed(options)
    rows = options.get("outputs")
    threshold = QQ(str(options.get("threshold") or 0))
    outputs = None if rows is None else [(int(r) - 1, 0) for r in rows]
    weights = model.random_weights(seed=seed)
    f = decision_boundary(model, weights, threshold, outputs)
    if rows is None:
        rows = [1, 2] if len(_output_rows(model, weights)) >= 2 else [1]
    with Heartbeat("decision_boundary: the critical points of the distance to the boundary",
                   bool(options.get("progress", False))):
        E = boundary_ed_degree(model, weights, threshold, outputs, metric=options.get("metric", "euclidean"),
                               data=_data(options), seed=seed)
    equation = f"f_{rows[0]} = f_{rows[1]}" if len(rows) == 2 else f"f_{rows[0]} = {threshold}"
    text = f"decision boundary {equation} at random weights (seed {seed}), degree {f.degree()} in " \
           f"{f.parent().ngens()} inputs:\n  {f} = 0\n{E}"
    out = {"boundary": str(f), "boundary_degree": int(f.degree()), "inputs": int(f.parent().ngens()),
           "outputs": [int(r) for r in rows], "threshold": str(threshold), "ed_degree": E.degree,
           "ed": E.to_dict(), "seed": seed}
    data = _data(options)
    if data is not None and options.get("metric", "euclidean") == "euclidean":
        # at given (real) data: the real critical points and the robustness radius
        from sage_attention.ideals.metric.real_points import real_critical_points
        with Heartbeat("decision_boundary: the real critical points (msolve)", bool(options.get("progress", False))):
            P = real_critical_points(f, data)
        out["real"] = P.to_dict()
        text += "\n" + str(P)
    out["text"] = text
    return out


def _output_rows(model, weights):
    """The output rows of ``model`` (the first column of its output at a symbolic input)."""
    from sage_attention.ideals.metric.boundary import input_ring
    from sage.all__sagemath_singular import matrix
    R = input_ring(model)
    t = R.ngens() // model.d
    X = matrix(R, model.d, t, lambda i, j: R.gen(j * model.d + i))
    return list(model.forward(X, weights).column(0))


__all__ = ["run_ed_degree", "run_critical_points", "run_decision_boundary"]
