r"""
The semantic checks of computation statements, and the size guard of ``check``

Each statement of a ``compute`` block is checked against the table of
computations (:func:`~sage_attention.catalog.computations.check_statement`:
its options, their values, the models and fields it applies to), and then
against the size guard, before anything is built: the sizes of the model
(:func:`~sage_attention.catalog.costs.check_size`), the monomial table of
an interpolation (:func:`check_interpolation`) and the invariant families
(:func:`check_families`), each estimated without Sage as the library
estimates it, so that ``sage-attention check`` refuses what ``run`` would
refuse, with the same reason (:func:`check_computation`). A refusal is a
:class:`~sage_attention.misc.errors.ComputationTooLarge` located at its
statement. A valid ``invariants`` statement gets notes on what its text
leaves open (:func:`statement_notes`).

EXAMPLES::

    sage: from sage_attention.dsl import parse_spec
    sage: from sage_attention.dsl.model_checks import Checker
    sage: from sage_attention.dsl.statement_checks import check_computation
    sage: spec = parse_spec("model m { input = 3; tokens = 2; layer attention(rank = 2, out = 1) }\n"
    ....:                   "compute m { fibers seed = -1 }")
    sage: check_computation(Checker(spec), spec.computations[0], spec.models[0], None, False)
    Traceback (most recent call last):
    ...
    SpecError: <spec>:2:20: `seed` (=-1) must be an integer >= 0 and <= 2^64 - 1
    ...
"""
import difflib
import re

from sage_attention.settings import settings
from sage_attention.misc.text import format_value
from sage_attention.catalog.computations import COMPUTATIONS, check_statement
from sage_attention.catalog.families import ALL_FAMILIES, FAMILIES, distinct_families
from sage_attention.dsl.model_checks import refuse_at_statement, span_of_key


def _interpolates_by_default(model):
    r"""
    Return whether ``vanishing_ideal`` without an algorithm interpolates on ``model`` (more than
    ``settings.ELIMINATION_DEFAULT_LIMIT`` essential coordinates) and never eliminates.
    """
    if None in model.widths or model.has_dense_layers():
        return False
    return model.size_estimate().essential_coordinates > settings.ELIMINATION_DEFAULT_LIMIT


def check_computation(chk, c, model, available, force, suggest=True):
    r"""
    Check the statement ``c`` on ``model``: raise its first problem, or its refusal by the size guard.

    INPUT:

    - ``chk`` -- the :class:`~sage_attention.dsl.model_checks.Checker` of the spec
    - ``c`` -- a :class:`~sage_attention.dsl.spec.Computation`
    - ``model`` -- its :class:`~sage_attention.dsl.spec.ModelSpec` (checked)
    - ``available`` -- ``None`` (all) or the names of the computations this program runs
    - ``force`` -- boolean; skip the size guard (not Singular's limit on variables)
    - ``suggest`` -- boolean (default: ``True``); offer in the fix of a
      problem of an option only what this check accepts on ``model``
      (:func:`_accepted_fix`)

    OUTPUT: ``None``, or :class:`~sage_attention.dsl.errors.SpecError` or
    :class:`~sage_attention.misc.errors.ComputationTooLarge`, located at the statement

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.dsl.model_checks import Checker
        sage: from sage_attention.dsl.statement_checks import check_computation
        sage: spec = parse_spec("model m { input = 6; tokens = 4; layer attention(rank = 6, out = 6) }\n"
        ....:                   "compute m { vanishing_ideal algorithm = elimination }")
        sage: chk = Checker(spec)
        sage: check_computation(chk, spec.computations[0], spec.models[0], None, True)
        sage: check_computation(chk, spec.computations[0], spec.models[0], None, False)
        Traceback (most recent call last):
        ...
        ComputationTooLarge: <spec>:2:13: `vanishing_ideal` on model `m`: elimination over ... essential coordinates is far beyond this machine (limit 60)
        ...
    """
    span = c.span
    if available is not None and c.name in COMPUTATIONS and c.name not in available:
        chk.error(f"computation `{c.name}` is not available in this version", span,
                  fix=f"use one of: {', '.join(sorted(available))}")
    problems = check_statement(c, model)
    if problems:
        message, key, fix = problems[0]
        where = span if key is None else span_of_key(c.option_spans, key, span)
        if suggest and key in dict(c.options) and c.name in COMPUTATIONS and fix != "keep one":
            fix = _accepted_fix(chk, c, model, available, force, key, fix)
        elif suggest and c.name not in COMPUTATIONS and fix and fix.startswith("write `"):
            fix = _closest_statement_fix(chk, c, model, available, force, fix)
        chk.error(message, where, fix=fix)
    decl = COMPUTATIONS[c.name]
    tasks = decl.size_tasks_for(model)
    opts = c.options_dict
    if c.name == "vanishing_ideal" and opts.get("algorithm") != "elimination" and not model.has_dense_layers():
        # the engine may run (``run`` interpolates first, also where it then
        # eliminates), and it reads the memory limit: an unreadable
        # SAGE_ATTENTION_MEMORY_LIMIT is refused here as there
        from sage_attention.misc.memory import memory_limit
        memory_limit()
    if c.name == "vanishing_ideal" and (opts.get("algorithm") == "interpolation"
                                        or "degree" in opts):
        tasks = ("coordinates",)
    elif c.name == "vanishing_ideal" and opts.get("algorithm") != "elimination" \
            and model.has_dense_layers() and model.is_homogeneous_network() \
            and _network_interpolates(model):
        # a homogeneous network interpolates (app.ideal_runners.engine_applies): no elimination
        tasks = ("coordinates",)
    elif c.name == "vanishing_ideal" and "algorithm" not in opts and not model.has_dense_layers() \
            and None not in model.widths and _interpolates_by_default(model):
        # without an algorithm it interpolates there (check_interpolation estimates that)
        tasks = tuple(t for t in tasks if t != "elimination")
    if c.name == "check" and opts.get("what") == "generation":
        # the report's own limit (its vanishing ideal is computed as ``vanishing_ideal``
        # computes it by default: elimination only up to 18 essential coordinates)
        tasks = tasks + ("generation",)
    if "coordinates" in tasks and len(model.layers) == 1 and None not in model.widths:
        # Singular's limit on the variables of the coordinate ring, which `run` meets (one
        # layer: the count is exact), with or without --force
        from sage_attention.misc.errors import ComputationTooLarge
        from sage_attention.catalog.costs import SINGULAR_MAX_VARIABLES
        n = model.size_estimate().coordinates
        if n > SINGULAR_MAX_VARIABLES:
            refuse_at_statement(chk, c, model, ComputationTooLarge(
                f"the coordinate ring needs {n} variables (Singular's limit is {SINGULAR_MAX_VARIABLES}); "
                "Singular cannot build it", n, hint="keep fewer output entries (e.g. `entries = (1, 1)`); "
                "`dimension` and `fibers` need no coordinate ring", force_helps=False))
    if tasks:
        from sage_attention.misc.errors import ComputationTooLarge
        from sage_attention.catalog.costs import check_size
        estimate = model.size_estimate()
        for task in tasks:
            hint = ""
            if task == "generation":
                hint = "use fewer entries (`entries = ...`) or a smaller model"
            elif task == "elimination":
                hint = _elimination_hint(chk, c, model, available) if suggest else ""
            try:
                check_size(estimate, task, force=force, hint=hint)
            except ComputationTooLarge as e:
                refuse_at_statement(chk, c, model, e)
    if c.name in ("vanishing_ideal", "check") and not force and not problems \
            and (not model.has_dense_layers() or (c.name == "vanishing_ideal" and tasks == ("coordinates",)
                                                  and model.is_homogeneous_network())):
        from sage_attention.misc.errors import ComputationTooLarge
        try:
            check_interpolation(model, c.name, opts)
        except ComputationTooLarge as e:
            refuse_at_statement(chk, c, model, e)
    if c.name in ("invariants", "check") and not force and not problems:
        from sage_attention.misc.errors import ComputationTooLarge
        families = opts.get("families")
        if c.name == "check" and not families:
            # ``check`` alone checks the families of the block's ``invariants`` statements
            families = tuple(f for other in chk.spec.computations_of(model.name)
                             if other.name == "invariants"
                             for f in dict(other.options).get("families", ())) or None
        try:
            check_families(model, families)
        except ComputationTooLarge as e:
            refuse_at_statement(chk, c, model, e)
    # ed_degree, critical_points, decision_boundary: their own module
    from sage_attention.dsl.metric_checks import check_metric
    check_metric(chk, c, model, force)


def _elimination_hint(chk, c, model, available):
    r"""
    The ways out of an elimination beyond this machine that this check accepts on ``model``:
    ``algorithm = interpolation`` or ``up to degree 2`` where they pass, else a smaller model.
    """
    from dataclasses import replace
    from sage_attention.misc.errors import SageAttentionError
    if c.name != "vanishing_ideal":
        return "use fewer entries or a smaller model"
    kept = tuple((k, v) for k, v in c.options if k not in ("algorithm", "degree"))
    spans = tuple((k, s) for k, s in c.option_spans if k not in ("algorithm", "degree"))
    ways = []
    for option, shown in ((("algorithm", "interpolation"), "`algorithm = interpolation`"),
                          (("degree", 2), "`up to degree 2`")):
        try:
            check_computation(chk, replace(c, options=kept + (option,), option_spans=spans), model,
                              available, False, suggest=False)
        except SageAttentionError:
            continue
        ways.append(shown)
    return "write " + " or ".join(ways) + ", or use a smaller model" if ways else \
        "use a smaller model" + ("" if model.has_dense_layers() else " or fewer entries")


def _closest_statement_fix(chk, c, model, available, force, fix):
    r"""
    Return ``fix`` (``write `NAME```, the closest statement), or, where check refuses that
    statement on ``model``, why -- so that the fix offered is never one check refuses.

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec, validate
        sage: validate(parse_spec("model m { input = 6; tokens = 4; layer attention(rank = 6, out = 6) }\n"
        ....:                     "compute m { vanishing_ideals }"))
        Traceback (most recent call last):
        ...
        SpecError: <spec>:2:13: unknown computation `vanishing_ideals` (did you mean `vanishing_ideal`?)
        ...
        fix: `vanishing_ideal` is the closest statement, but check refuses it on `m`: ...
    """
    from dataclasses import replace
    from sage_attention.misc.errors import SageAttentionError
    name = fix[len("write `"):].split("`")[0]
    if any(o.name in ("point", "what") for o in COMPUTATIONS[name].options):
        return fix                  # its statement needs a value to be checked
    try:
        check_computation(chk, replace(c, name=name, options=(), option_spans=()), model,
                          available, force, suggest=False)
    except SageAttentionError as e:
        reason = str(getattr(e, "reason", None) or getattr(e, "message", None) or e).split("\n")[0]
        reason = reason.split(": ", 1)[-1] if reason.startswith(chk.spec.filename or "<spec>") else reason
        return f"`{name}` is the closest statement, but check refuses it on `{model.name}`: {reason}"
    return fix


def _candidates(decl, key, fix, options):
    r"""
    The replacements of the option ``key`` to try: ``None`` (drop it), then
    ``(name, value)`` pairs -- every option of ``decl`` not given yet if
    ``key`` is not one of its options, else the values the ``fix`` names.
    """
    out = [None]
    option = decl.option(key)
    if option is None:
        # the option meant (a misspelling), with the value written, first
        meant = difflib.get_close_matches(key, [o.name for o in decl.options if o.name not in options], n=1)
        if meant:
            out.append((meant[0], options[key]))
        for o in decl.options:
            if o.name in options or o.name in ("families", "point"):
                continue
            if o.kind == "choice":
                out += [(o.name, v) for v in o.choices]
            elif o.kind == "int":
                out.append((o.name, max(o.minimum or 0, 2 if o.name == "degree" else 1)))
        return out
    for snippet in re.findall(r"`([^`]+)`", fix or ""):
        m = re.fullmatch(r"(?:up to degree|check|" + re.escape(key) + r"\s*=)\s*(\S+)", snippet)
        if m:
            value = m.group(1)
            out.append((key, int(value) if value.isdigit() else
                        {"true": True, "false": False}.get(value, value) if option.kind == "bool" else value))
    return out


def _accepted_fix(chk, c, model, available, force, key, fix):
    r"""
    Return the fix of a problem of the option ``key`` of the statement ``c``
    that offers only what this check accepts on ``model``: dropping the
    option, or the values (or, for an unknown option, the options) whose
    statement passes :func:`check_computation`. When none passes, raise
    what the statement without the option raises (no change of the option
    repairs it).

    EXAMPLES:

    The options of ``vanishing_ideal`` that apply to a network with biases
    (it eliminates the weights)::

        sage: from sage_attention.dsl import parse_spec, validate
        sage: validate(parse_spec("model m { input = 2; layer dense(out = 2, activation = power(2), bias = true)\n"
        ....:                     "  layer dense(out = 1) }\ncompute m { vanishing_ideal foo = 1 }"))
        Traceback (most recent call last):
        ...
        SpecError: <spec>:3:29: `vanishing_ideal` has no option `foo`
        ...
        fix: drop `foo = 1`, or use one of its options that apply to `m`: `algorithm = elimination`; `count = exact`
    """
    from dataclasses import replace
    from sage_attention.misc.errors import SageAttentionError
    from sage_attention.catalog.options import WRITTEN_OPTION, written
    decl = COMPUTATIONS[c.name]
    given = dict(c.options)
    kept = tuple((k, v) for k, v in c.options if k != key)
    spans = tuple((k, s) for k, s in c.option_spans if k != key)
    accepted = []
    required = key in ("what", "point")                 # the grammar needs them
    for candidate in _candidates(decl, key, fix, given)[required:]:
        options = kept + ((candidate,) if candidate else ())
        try:
            check_computation(chk, replace(c, options=options, option_spans=spans), model,
                              available, force, suggest=False)
        except SageAttentionError:
            continue
        accepted.append(candidate)
    if not accepted and required:
        return fix
    if fix == "drop one of them" and None in accepted:
        # `up to degree N` with `algorithm = elimination`: is dropping the other one accepted too?
        other = next((k for k, _ in c.options if k != key and k in ("degree", "algorithm")), None)
        try:
            check_computation(chk, replace(c, options=tuple((k, v) for k, v in c.options if k != other),
                                           option_spans=tuple((k, s) for k, s in c.option_spans
                                                              if k != other)),
                              model, available, force, suggest=False)
            return fix
        except SageAttentionError:
            pass
    if not accepted:
        # no change of the option makes the statement valid: report why
        check_computation(chk, replace(c, options=kept, option_spans=spans), model, available,
                          force)
        return fix
    value = given[key]
    shown = (format_value(value) if key == "what" else written(key, format_value(value))
             if decl.option(key) else f"{key} = {format_value(value)}")
    parts = [f"drop `{shown}`"] if None in accepted else []
    if fix and "is an option of a family" in fix:
        parts.insert(0, fix.split("; or ")[0])
    if decl.option(key) is None:
        meant = difflib.get_close_matches(key, [o.name for o in decl.options if o.name not in given], n=1)
        if meant and (meant[0], value) in accepted:
            # a misspelt option: the option meant, with the value written, comes first
            accepted.remove((meant[0], value))
            parts.insert(0, f"write `{written(meant[0], format_value(value))}`")
        # the options that apply, as they are written (an integer: `seed = N`, `up to degree N`)
        values = []
        for o in decl.options:
            if o.name == "families" and decl.name == "invariants":
                values.append(WRITTEN_OPTION["families"])
            shown_values = [f"`{written(k, 'N' if o.kind == 'int' else format_value(v))}`" for k, v in
                            (a for a in accepted if a is not None) if k == o.name]
            if shown_values:
                values.append(" or ".join(dict.fromkeys(shown_values)))
        if values and len(values) > (decl.name == "invariants"):
            parts.append(f"use one of its options that apply to `{model.name}`: " + "; ".join(values))
        return ", or ".join(parts) if parts else fix
    offered = [a for a in _candidates(decl, key, fix, given)[1:]]
    if offered and all(a in accepted for a in offered):
        return fix                  # every value the fix names is accepted
    values = [f"`{written(k, format_value(v))}`" for k, v in (a for a in accepted if a is not None)]
    if values and decl.option(key) is None:
        parts.append(f"use one of its options that apply to `{model.name}`: " + "; ".join(values))
    elif values:
        parts.append("write " + " or ".join(values))
    return ", or ".join(parts)


def _network_interpolates(model):
    r"""
    Return whether ``run`` interpolates the vanishing ideal of the homogeneous network ``model``
    (its field allows the engine: :func:`~sage_attention.app.ideal_runners.engine_applies`).
    """
    from sage_attention.catalog.fields import refusal, spec_field_info
    return refusal("interpolation", spec_field_info(model.field)) is None




def check_interpolation(model, name, options):
    r"""
    Refuse the interpolation a ``vanishing_ideal`` or ``check generation`` statement runs when its monomial table is beyond this machine.

    The statement interpolates through its degree (``up to degree N``),
    or, without one, when the model has more than
    ``settings.ELIMINATION_DEFAULT_LIMIT`` (`18`) essential coordinates,
    through ``settings.DEFAULT_INTERPOLATION_DEGREE`` (`4`). The table is
    estimated by :func:`~sage_attention.catalog.model_sizes.monomial_table`, the estimate
    :func:`~sage_attention.ideals.implicitization.implicitize` checks before
    it builds anything, against the same
    :func:`~sage_attention.misc.memory.memory_limit`. The fix named is one
    the statement has: a lower ``up to degree`` for ``vanishing_ideal``,
    fewer entries for ``check generation`` (it has no degree).

    INPUT:

    - ``model`` -- a :class:`~sage_attention.dsl.spec.ModelSpec`
    - ``name`` -- ``"vanishing_ideal"`` or ``"check"``
    - ``options`` -- the statement's options (a dict)

    OUTPUT: ``None``, or :class:`~sage_attention.misc.errors.ComputationTooLarge`

    EXAMPLES::

        sage: from sage_attention.dsl.spec import ModelSpec, Layer
        sage: from sage_attention.dsl.statement_checks import check_interpolation
        sage: m = ModelSpec("m", input=6, tokens=2, layers=(Layer(1, 1),), entries=((1, 1),))
        sage: check_interpolation(m, "vanishing_ideal", {"degree": 3})
        sage: check_interpolation(m, "vanishing_ideal", {"degree": 4})
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the table of the 11009376 monomials of degree 4 in 126 essential coordinates needs about ... GiB of memory (limit ...); write a lower degree (`up to degree 3`, the largest that fits); pass force=True to run it anyway
    """
    from sage_attention.misc.memory import check_memory, memory_limit
    from sage_attention.catalog.model_sizes import (interpolation_parameters, largest_fitting_degree,
                                                    monomial_table)
    network = model.has_dense_layers() and model.is_homogeneous_network()
    if None in model.widths or not (model.is_plain() or network):
        return
    if name == "check" and options.get("what") != "generation":
        return
    estimate = model.size_estimate()
    n = estimate.essential_coordinates
    degree = options.get("degree") if name == "vanishing_ideal" else None
    algorithm = options.get("algorithm") if name == "vanishing_ideal" else None
    if degree is None:
        if algorithm == "elimination" or (algorithm is None and n <= settings.ELIMINATION_DEFAULT_LIMIT
                                          and not network):
            return
        degree = settings.DEFAULT_INTERPOLATION_DEGREE
    # the grading's rank is counted as the number of parameters (an upper bound), as the engine does
    m = (estimate.parameters if network else
         interpolation_parameters(model.widths, model.ranks, model.tokens, model.weights, model.entries))
    count, nbytes = monomial_table(n, degree, m)
    # the degree to suggest is one this estimate accepts (asked for only when it refuses)
    limit = memory_limit()
    fits = largest_fitting_degree(n, m, degree, limit) if nbytes > limit else None
    if name == "check":
        hint = (f"`check generation` interpolates through degree {degree} beyond "
                f"{settings.ELIMINATION_DEFAULT_LIMIT} essential coordinates: use fewer entries "
                "(`entries = ...`) or a smaller model")
    elif fits is not None and options.get("degree") is None:
        hint = (f"without a degree it interpolates through degree {degree}: write "
                f"`up to degree {fits}`, the largest degree that fits")
    elif fits is not None:
        hint = f"write a lower degree (`up to degree {fits}`, the largest that fits)"
    else:
        hint = "use fewer entries (`entries = ...`) or a smaller model"
    # a deep network's coordinates are counted without expanding its output: an upper bound
    # (model_sizes.token_parity_monomials)
    bound = " (at most: a deep network's coordinates are counted, not listed)" if len(model.layers) > 1 else ""
    check_memory(nbytes, f"the table of the {count} monomials of degree {degree} in {n} "
                 f"essential coordinates{bound}", hint=hint)


def check_families(model, families):
    r"""
    Refuse the invariant families of a statement whose estimated memory is beyond this machine.

    INPUT:

    - ``model`` -- a :class:`~sage_attention.dsl.spec.ModelSpec` with one layer
    - ``families`` -- the ``families`` option of ``invariants`` or
      ``check``: a tuple of ``(name, options)`` pairs, or ``None`` (every
      family except ``rank_one``; for ``check``, the families of the
      block, which their own statements check)

    OUTPUT: ``None``, or :class:`~sage_attention.misc.errors.ComputationTooLarge`
    (the estimate of :func:`~sage_attention.catalog.family_costs.family_estimate` against
    :func:`~sage_attention.misc.memory.memory_limit`); no Sage is loaded.
    Each family is estimated once, with the options it is built with
    (:func:`~sage_attention.catalog.computations.distinct_families`: with
    ``low_rank(limit = 10), all``, ``low_rank`` with ``limit = 10``)

    EXAMPLES::

        sage: from sage_attention.dsl.spec import ModelSpec, Layer
        sage: from sage_attention.dsl.statement_checks import check_families
        sage: check_families(ModelSpec("m", input=3, tokens=2, layers=(Layer(3, 1),)),
        ....:                (("syzygies", ()),))
        sage: check_families(ModelSpec("m", input=6, tokens=2, layers=(Layer(6, 1),)),
        ....:                (("syzygies", ()),))
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the family syzygies (about 53802 members of about 1440 terms) needs about ... GiB of memory (limit ...); take a smaller model; pass force=True to run it anyway
    """
    from sage_attention.misc.memory import check_memory
    from sage_attention.catalog.family_costs import family_estimate
    if len(model.layers) != 1 or None in model.widths:
        return
    # each family once, with its explicit options (as they are built: families_of)
    chosen, rest = distinct_families(families)
    for name, options in chosen:
        names = rest if name == ALL_FAMILIES else [name]
        for n in names:
            est = family_estimate(n, model.widths, model.ranks, model.tokens, model.entries,
                                  dict(options))
            if est is None:
                continue
            fam = FAMILIES[n]
            # the options of a family are written in its parentheses: `pencil(limit = 100)`
            hint = (f"write `{n}(limit = N)` for fewer members or take a smaller model"
                    if fam.option("limit") else "take a smaller model")
            if n == "sylvester":
                hint = "write `sylvester(lines = coordinate)` or take a smaller model"
            check_memory(est.nbytes, est.describe(), hint=hint)


def statement_notes(chk, c):
    r"""
    Note what a valid ``invariants`` statement ``c`` does that its text
    leaves open: a family named twice is built once, with the options of
    both mentions (a later value winning); a family's own ``seed`` wins over
    the statement's ``seed``, which goes to the other families that take one.

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.dsl.validation import validate
        sage: M = "model m { input = 3; tokens = 1; layer attention(rank = 1, out = 1) }\n"
        sage: for n in validate(parse_spec(M + "compute m { invariants brill(seed = 1), brill seed = 2 }")):
        ....:     print(n)
        <spec>:2:13: note: family `brill` is named twice: it is built once, with the options of every mention (a later value of an option wins)
        <spec>:2:13: note: `brill(seed = 1)` keeps its own seed; the statement's `seed = 2` goes to the other families that take a seed
    """
    if c.name != "invariants":
        return
    families = dict(c.options).get("families") or ()
    counts = {}
    for name, _ in families:
        counts[name] = counts.get(name, 0) + 1
    for name, n in counts.items():
        if n > 1:
            chk.note(f"family `{name}` is named {'twice' if n == 2 else f'{n} times'}: it is "
                     "built once, with the options of every mention (a later value of an "
                     "option wins)", c.span)
    seed = dict(c.options).get("seed")
    if seed is None:
        return
    own = {}
    for name, options in families:
        if "seed" in dict(options):
            own[name] = dict(options)["seed"]
    for name, value in own.items():
        chk.note(f"`{name}(seed = {format_value(value)})` keeps its own seed; the statement's "
                 f"`seed = {format_value(seed)}` goes to the other families that take a seed",
                 c.span)


__all__ = ["check_computation", "check_interpolation", "check_families", "statement_notes"]
