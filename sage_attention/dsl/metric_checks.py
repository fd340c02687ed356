r"""
The checks of the metric statements: ``ed_degree``, ``critical_points``, ``decision_boundary``

After the table of computations has checked their options
(:func:`~sage_attention.catalog.computations.check_statement`), the
metric statements are checked against the model, without Sage, as ``run``
would meet them:

- the field: the counts reduce a model over `\QQ` modulo two primes;
- ``metric = bombieri_weyl`` needs coordinates that are coefficients of
  forms of one degree (dense layers without biases or residual streams);
- ``projective = true`` needs homogeneous coordinates (no biases or
  residual streams);
- a data point has one value per coordinate (per input for a decision
  boundary);
- ``outputs`` of a decision boundary name output rows of the model, and a
  ``threshold`` goes with one output;
- the cost (:func:`~sage_attention.catalog.metric_costs.check_metric_cost`):
  refused with ``--force`` as the way out; the estimate is a note of
  ``check`` also when it is accepted.

Each problem names its fix, which ``check`` accepts once applied.

EXAMPLES::

    sage: from sage_attention.dsl import parse_spec, validate
    sage: M = "model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1); entries = (1, 1) }\n"
    sage: validate(parse_spec(M + "compute m { ed_degree metric = euclidean seed = 1 }"))
    ['<spec>:2:13: note: `ed_degree` on model `m`: a chart of 4 weights: at most 5^4 = 625 critical points of the loss (Bezout; limit 20000)']
    sage: validate(parse_spec(M + "compute m { ed_degree metric = bombieri_weyl }"))
    Traceback (most recent call last):
    ...
    SpecError: <spec>:2:23: `metric = bombieri_weyl` needs coordinates that are coefficients of forms of one degree (a network of dense layers without biases or residual streams); `m` has attention layers
    ...
    fix: write `metric = generic` or `metric = euclidean`
"""
from sage_attention.misc.text import format_value
from sage_attention.catalog.options import Problem, plural
from sage_attention.catalog.metric_costs import boundary_inputs, check_metric_cost, describe_cost
from sage_attention.dsl.model_checks import refuse_at_statement, span_of_key

#: The statements checked here.
METRIC_STATEMENTS = ("ed_degree", "critical_points", "decision_boundary")


def _biased(model, first=True):
    """Whether a layer of ``model`` (the first too, if ``first``) has a bias."""
    return any(getattr(la, "bias", False) not in (False, "false") for la in model.layers[0 if first else 1:])


def _inhomogeneous(model):
    r"""
    Why the coordinates of ``model`` are not homogeneous in the weights, or ``""``.

    A bias of the first layer keeps every coefficient of its output of
    degree `1` in the weights; a bias of a later layer (degree `1`) is
    added to coefficients of higher degree, and so is a residual stream.
    """
    what = [w for w, ok in (("biases after the first layer", _biased(model, first=False)),
                            ("residual streams", any(la.residual not in (False, "false") for la in model.layers)))
            if ok]
    return " and ".join(what)


def output_rows(model):
    r"""
    Return the number of output rows of ``model`` (the width of its last layer).

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.dsl.metric_checks import output_rows
        sage: output_rows(parse_spec("model p { input = 2\n layer dense(out = 3, activation = power(2))\n"
        ....:                        " layer dense(out = 2) }").models[0])
        2
    """
    return model.layers[-1].out


def metric_problems(c, model):
    r"""
    Return the problems of the metric statement ``c`` on ``model`` (its options already checked).

    INPUT:

    - ``c`` -- a :class:`~sage_attention.dsl.spec.Computation`
    - ``model`` -- its :class:`~sage_attention.dsl.spec.ModelSpec`

    OUTPUT: a list of :class:`~sage_attention.catalog.options.Problem`

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.dsl.metric_checks import metric_problems
        sage: s = parse_spec("model p { input = 2\n layer dense(out = 2, activation = power(2), bias = true)\n"
        ....:                " layer dense(out = 2, bias = true) }\n"
        ....:                "compute p { decision_boundary threshold = 1; ed_degree projective = true\n"
        ....:                " decision_boundary data = [1, 2, 3] }")
        sage: for c in s.computations:
        ....:     print(metric_problems(c, s.models[0]))
        [Problem(message='`threshold = 1` goes with one output (f = threshold); the boundary of `p` is f_1 = f_2 (`outputs = [1, 2]`)', key='threshold', fix='write `outputs = [1]` for the boundary f_1 = 1, or drop `threshold = 1`')]
        [Problem(message='`projective = true` needs homogeneous coordinates; `p` has biases after the first layer', key='projective', fix='drop `projective = true`')]
        [Problem(message='the data point has 3 values; the decision boundary of `p` has 2 inputs', key='data', fix='write `data = random`, or 2 values, e.g. `data = [1, 1]`')]
    """
    opts = c.options_dict
    name = c.name
    out = []
    if model.field.kind != "QQ":
        out.append(Problem(f"`{name}` counts over QQ modulo its own primes; `{model.name}` has field "
                           f"{model.field}", None, "write `field = QQ` in the model"))
        return out
    if name in ("ed_degree", "critical_points") and opts.get("metric") == "bombieri_weyl" \
            and not model.is_homogeneous_network():
        why = "attention layers" if any(la.kind != "dense" for la in model.layers) else \
            " and ".join(w for w, ok in (("biases", _biased(model)), ("residual streams", any(
                la.residual not in (False, "false") for la in model.layers))) if ok)
        out.append(Problem("`metric = bombieri_weyl` needs coordinates that are coefficients of forms of one "
                           "degree (a network of dense layers without biases or residual streams); "
                           f"`{model.name}` has {why}", "metric",
                           "write `metric = generic` or `metric = euclidean`"))
    if name == "ed_degree" and opts.get("projective") is True and _inhomogeneous(model):
        out.append(Problem(f"`projective = true` needs homogeneous coordinates; `{model.name}` has "
                           f"{_inhomogeneous(model)}", "projective", "drop `projective = true`"))
    data = opts.get("data")
    if isinstance(data, tuple) and None not in model.widths:
        if name == "decision_boundary":
            n, what = boundary_inputs(model), "the decision boundary of"
            unit = "input"
        elif len(model.layers) == 1 or all(la.kind == "dense" for la in model.layers):
            n, what, unit = model.size_estimate().coordinates, "model", "coordinate"
        else:
            n = None        # a deep attention network: counted by `run`
        if n is not None and len(data) != n:
            out.append(Problem(f"the data point has {plural(len(data), 'value')}; {what} `{model.name}` has "
                               f"{plural(n, unit)}", "data",
                               f"write `data = random`, or {n} values, e.g. `data = [{', '.join(['1'] * min(n, 4))}"
                               f"{', ...' if n > 4 else ''}]`"))
    if name == "decision_boundary" and None not in model.widths:
        rows = output_rows(model)
        outputs = opts.get("outputs")
        if outputs is not None and max(outputs) > rows:
            out.append(Problem(f"`outputs` (={format_value(outputs)}) names row {max(outputs)}; `{model.name}` "
                               f"has {plural(rows, 'output row')}", "outputs",
                               "write `outputs = [1]`" if rows == 1 else
                               f"write `outputs = [1, 2]` (rows between 1 and {rows})"))
        pair = len(outputs) == 2 if outputs is not None else rows >= 2
        if "threshold" in opts and pair:
            t = format_value(opts["threshold"])
            a, b = outputs if outputs is not None else (1, 2)
            i = a
            out.append(Problem(f"`threshold = {t}` goes with one output (f = threshold); the boundary of "
                               f"`{model.name}` is f_{a} = f_{b} (`outputs = [{a}, {b}]`)",
                               "threshold", f"write `outputs = [{i}]` for the boundary f_{i} = {t}, or drop "
                               f"`threshold = {t}`"))
    return out


def check_metric(chk, c, model, force):
    r"""
    Check the metric statement ``c`` on ``model``: raise its first problem, or the refusal of its cost.

    INPUT: as for :func:`~sage_attention.dsl.statement_checks.check_computation`

    OUTPUT: ``None``, or :class:`~sage_attention.dsl.errors.SpecError` or
    :class:`~sage_attention.misc.errors.ComputationTooLarge` located at the statement

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.dsl.model_checks import Checker
        sage: from sage_attention.dsl.metric_checks import check_metric
        sage: s = parse_spec("model s { input = 3; tokens = 1; layer attention(rank = 1, out = 1) }\n"
        ....:                "compute s { ed_degree }")
        sage: check_metric(Checker(s), s.computations[0], s.models[0], False)
        Traceback (most recent call last):
        ...
        ComputationTooLarge: <spec>:2:13: `ed_degree` on model `s`: the critical equations of the loss in a chart of 7 weights have up to 5^7 = 78125 solutions (Bezout; limit 20000)
        ...
        sage: check_metric(Checker(s), s.computations[0], s.models[0], True)
    """
    if c.name not in METRIC_STATEMENTS:
        return
    problems = metric_problems(c, model)
    if problems:
        message, key, fix = problems[0]
        where = c.span if key is None else span_of_key(c.option_spans, key, c.span)
        chk.error(message, where, fix=fix)
    from sage_attention.misc.errors import ComputationTooLarge
    if None not in model.widths:
        # the estimate, also when it is accepted: what the count will meet
        chk.note(f"`{c.name}` on model `{model.name}`: {describe_cost(c.name, model)}", c.span)
    try:
        check_metric_cost(c.name, model, force=force)
    except ComputationTooLarge as e:
        refuse_at_statement(chk, c, model, e)


__all__ = ["METRIC_STATEMENTS", "metric_problems", "check_metric", "output_rows"]
