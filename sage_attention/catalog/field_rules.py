r"""
The field rules of the computation statements

Which base field a statement may run over depends on what it computes: a
Jacobian rank (``dimension``, ``fibers``), an elimination or an
interpolation (``vanishing_ideal``, chosen as ``run`` chooses), the
invariant families. :func:`field_tasks` names the rules of
:mod:`sage_attention.catalog.fields` a statement needs on a model, and
:func:`field_problems` applies them, as ``sage-attention check`` does
through :func:`~sage_attention.catalog.computations.check_statement`
(whose module keeps these names importable). Like the rest of
:mod:`sage_attention.catalog`, this module imports no Sage.

EXAMPLES::

    sage: from sage_attention.dsl import parse_spec
    sage: from sage_attention.catalog.field_rules import field_problems
    sage: m = parse_spec("model m { field = GF(3); input = 2; tokens = 1; "
    ....:                "layer attention(rank = 1, out = 1) }").models[0]
    sage: [p.message for p in field_problems("dimension", {}, m)]
    []
"""
from sage_attention.settings import settings
from sage_attention.catalog.options import Problem
from sage_attention.catalog.families import ALL_FAMILIES


def field_tasks(name, options, model):
    r"""
    Return the field rules (keys of :data:`sage_attention.catalog.fields.RULES`) that
    the statement ``name`` with ``options`` needs on ``model``, with the
    option each is about.

    ``vanishing_ideal`` without an algorithm chooses as ``run`` does:
    elimination up to ``settings.ELIMINATION_DEFAULT_LIMIT`` (`18`)
    essential coordinates, else interpolation: up to that many, the library
    eliminates where the whole-ideal proof fails or the field does not
    allow interpolation, so there the field must allow elimination.

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.catalog.field_rules import field_tasks
        sage: m = parse_spec("model m { input = 3; tokens = 1; layer attention(rank = 1, out = 1) }").models[0]
        sage: field_tasks("vanishing_ideal", {}, m), field_tasks("invariants", {"families": None}, m)
        ([('elimination', None)], [('invariants', None), ('brill', 'families')])
    """
    if name in ("dimension", "fibers", "certify"):
        return [(name, None)]
    if name == "vanishing_ideal":
        algorithm = options.get("algorithm")
        if algorithm is None and model.has_dense_layers():
            # a homogeneous network: the engine where the field allows it (as ``run`` chooses,
            # app.ideal_runners.engine_applies), else elimination, the only algorithm of the others
            from sage_attention.catalog.fields import refusal, spec_field_info
            engine = (model.is_homogeneous_network() and options.get("degree") is None
                      and refusal("interpolation", spec_field_info(model.field)) is None)
            algorithm = "interpolation" if engine or options.get("degree") is not None else "elimination"
        if algorithm is None:
            if options.get("degree") is not None:
                algorithm = "interpolation"
            elif None in model.widths:
                return []
            else:
                n = model.size_estimate().essential_coordinates
                algorithm = ("elimination" if n <= settings.ELIMINATION_DEFAULT_LIMIT
                             else "interpolation")
        return [(algorithm, "algorithm" if "algorithm" in options else None)]
    if name == "check" and options.get("what") == "generation":
        return [("generation", "what")]
    if name in ("invariants", "check"):
        families = options.get("families")
        names = [n for n, _ in families] if families else [ALL_FAMILIES]
        tasks = [("invariants", None)]
        brill_applies = (len(model.layers) == 1 and model.tokens == 1
                         and model.layers[0].rank == 1)
        if "brill" in names or (ALL_FAMILIES in names and brill_applies):
            tasks.append(("brill", "families"))
        return tasks
    return []


def field_problems(name, options, model):
    r"""
    Return the problems of the field of ``model`` for the statement ``name``
    (the rules of :mod:`sage_attention.catalog.fields`, which the library calls apply too).

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.catalog.field_rules import field_problems
        sage: m = parse_spec("model m { field = GF(2); input = 3; tokens = 1; layer attention(rank = 1, out = 1) }").models[0]
        sage: field_problems("certify", {}, m)
        [Problem(message='`certify` needs a base field of characteristic 0 or > 3, not GF(2): the coordinates and the fiber divide by 2 and 3; take the model over QQ or GF(p) with p > 3',
                 key=None, fix=None)]
    """
    from sage_attention.catalog.fields import refusal, spec_field_info
    field = spec_field_info(model.field)
    out = []
    for task, key in field_tasks(name, options, model):
        what = {"generation": "`check generation`", "brill": "the family `brill`",
                "elimination": "`vanishing_ideal` by elimination",
                "interpolation": "`vanishing_ideal` by interpolation"}.get(task, f"`{name}`")
        why = refusal(task, field, what)
        if why:
            out.append(Problem(why, key))
        elif task in ("dimension", "fibers"):
            out += frobenius_problems(name, field.characteristic, model)
    return out


def frobenius_problems(name, p, model):
    r"""
    Return the problem of a Jacobian rank in characteristic ``p`` through activations `x^r` with `p \mid r`.

    ``run`` refuses it (:func:`sage_attention.models.frobenius.check_separable`:
    `x^{p m}` is a power of the Frobenius map, whose derivative vanishes), so
    ``check`` does too, with the same way out: the same network with the
    activations `x^{r / p^v}`, which has the same dimension over the
    algebraic closure.

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.catalog.field_rules import field_problems
        sage: m = parse_spec("model m { field = GF(65537); input = 2\n"
        ....:                "  layer dense(out = 2, activation = power(65537))\n  layer dense(out = 1) }").models[0]
        sage: (problem,) = field_problems("dimension", {}, m); print(problem.message); print(problem.fix)
        `dimension` takes a Jacobian rank, but the activation power(65537) of layer 1 is a power of the Frobenius map over GF(65537) (its derivative vanishes): the rank is not the dimension
        write `activation = power(1)` in layer 1: that network has the same dimension over the algebraic closure
    """
    if not p:
        return []
    bad = [(i, layer.degree) for i, layer in enumerate(getattr(model, "layers", ()), 1)
           if getattr(layer, "activation", None) == "power" and isinstance(layer.degree, int)
           and layer.degree % p == 0]
    if not bad:
        return []
    if any(getattr(model.layers[i - 1], "residual", False) for i, _ in bad):
        fix = None            # no reduction through a residual stream (models.frobenius)
    else:
        def reduced(r):
            while r % p == 0:
                r //= p
            return r
        fix = ("write " + " and ".join(f"`activation = power({reduced(r)})` in layer {i}" for i, r in bad)
               + ": that network has the same dimension over the algebraic closure")
    which = ", ".join(f"power({r}) of layer {i}" for i, r in bad)
    message = (f"`{name}` takes a Jacobian rank, but the activation {which} "
               f"{'is a power' if len(bad) == 1 else 'are powers'} of the Frobenius map over GF({p}) "
               "(its derivative vanishes): the rank is not the dimension")
    return [Problem(message, None, fix)]


__all__ = ["field_tasks", "field_problems", "frobenius_problems"]
