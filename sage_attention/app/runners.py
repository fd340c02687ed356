r"""
The runners of the computation statements

A computation statement of a ``compute`` block (``dimension``, ``fibers``,
``invariants``, ``check``, ``vanishing_ideal``, ``certify``) is run by a
function ``(model, computation, options) -> dict``: the result is JSON-able,
and its optional ``"text"`` entry is the readable report. The table
:data:`sage_attention.dsl.computations.COMPUTATIONS` names each runner by
its dotted name; :func:`runner` imports it only when the computation runs,
and :func:`register` adds a computation with its runner.

Importing this module loads no Sage: each runner imports what it needs.

EXAMPLES::

    sage: from sage_attention.app.runners import runner
    sage: from sage_attention.dsl.spec import ModelSpec, Layer, Computation
    sage: M = ModelSpec("m", input=2, tokens=2, layers=(Layer(1, 1),)).build()
    sage: runner("dimension")(M, Computation("m", "dimension"), {"seed": 0})["dimension"]
    4
"""
import importlib
import logging

from sage_attention.dsl.computations import (ALL_FAMILIES, COMPUTATIONS as TABLE,
                                              FAMILIES as FAMILY_TABLE)


def run_dimension(model, computation, options):
    r"""
    Run ``dimension``: the dimension of the neurovariety (Jacobian rank).

    INPUT:

    - ``model`` -- the Sage model
    - ``computation`` -- the :class:`~sage_attention.dsl.spec.Computation`
    - ``options`` -- dictionary of the options declared in
      :data:`sage_attention.dsl.computations.COMPUTATIONS` (``seed``; with ``progress``, a
      :class:`~sage_attention.progress.Heartbeat` on standard error)

    OUTPUT: a dictionary (the report's ``to_dict()`` and its ``text``)

    EXAMPLES::

        sage: from sage_attention.app.runners import run_dimension
        sage: from sage_attention.dsl.spec import ModelSpec, Layer, Computation
        sage: M = ModelSpec("m", input=2, tokens=2, layers=(Layer(1, 1),)).build()
        sage: r = run_dimension(M, Computation("m", "dimension"), {"seed": 0})
        sage: r["dimension"], r["expected_dimension"]
        (4, 4)
    """
    from sage_attention.progress import Heartbeat
    seconds = jacobian_seconds(model)
    if seconds is not None and seconds > SLOW_DIMENSION_SECONDS:
        # a deep model takes minutes or hours before anything else is printed: say so
        # (a warning: --quiet silences it; --progress shows the seconds as they pass)
        name = getattr(computation, "model", None)
        logging.getLogger("sage_attention").warning(
            "dimension of %s: this may take %s (an estimate: %s random inputs, each pushing "
            "%s weight directions through up to %s layers); %s, Ctrl-C stops it",
            f"model `{name}`" if name else f"a stack of {model.nlayers()} layers",
            _duration(seconds), *seconds.steps,
            "the seconds are shown" if options.get("progress") else "--progress shows the seconds")
    # a wide model takes minutes (the rank of a Jacobian with thousands of columns): say so
    with Heartbeat("dimension: the Jacobian rank at random inputs", bool(options.get("progress", False))):
        report = model.dimension_report(seed=options.get("seed"))
    result = dict(report.to_dict())
    result["text"] = str(report)
    return result


#: ``dimension`` warns that it is slow when :func:`jacobian_seconds` estimates more seconds.
SLOW_DIMENSION_SECONDS = 60

#: The seconds of one step of the Jacobian's forward propagation (one weight direction through
#: one layer, width 2), measured: a deep width-2 network with one token takes 2.4 s for 11
#: layers and 17 s for 21 (one core).
JACOBIAN_STEP_SECONDS = 6e-5


class _Seconds(float):
    """A number of seconds with the counts it is estimated from (``steps``)."""


def jacobian_seconds(model):
    r"""
    Return an estimate of the seconds that the Jacobian rank of ``dimension``
    takes for a stack of lightning layers, or ``None`` (another model, or one layer).

    The rank is that of the derivatives at random inputs: about `P / o + 2`
    inputs for `P` weights and `o` outputs, each pushing the `P` weight
    directions through the layers after their own (forward propagation), so
    the time grows with the cube of the depth.

    EXAMPLES::

        sage: from sage_attention.app.runners import jacobian_seconds
        sage: from sage_attention import LightningAttention
        sage: deep = lambda n: LightningAttention(widths=[2] * (n + 1) + [1], ranks=[1] * (n + 1), t=1)
        sage: [int(jacobian_seconds(deep(n))) for n in (10, 20, 40)]
        [2, 16, 128]
        sage: jacobian_seconds(deep(300)) > 3600
        True
        sage: jacobian_seconds(LightningAttention(d=3, t=2, a=1)) is None
        True
    """
    try:
        if not model.is_lightning() or model.nlayers() < 2:
            return None
        weights, layers = int(model.nparameters()), int(model.nlayers())
        inputs = -(-weights // max(1, len(model.output_entries()))) + 2
        width = max(int(w) for w in model.widths)
    except Exception:       # a model without these counts: no estimate
        return None
    seconds = _Seconds(JACOBIAN_STEP_SECONDS * inputs * weights * (layers - 1) / 2
                       * max(1, width / 2))
    seconds.steps = (inputs, weights, layers - 1)
    return seconds


def _duration(seconds):
    """``seconds`` in words: minutes or hours, rounded."""
    if seconds < 5400:
        minutes = max(1, round(seconds / 60))
        return f"about {minutes} minute{'s' * (minutes != 1)}"
    if seconds < 2 * 86400:
        return f"about {round(seconds / 3600)} hours"
    return f"about {round(seconds / 86400)} days"


def run_fibers(model, computation, options):
    r"""
    Run ``fibers``: the generic fiber and the symmetries of the weights.

    INPUT: as for :func:`run_dimension`

    OUTPUT: a dictionary (the report's ``to_dict()`` and its ``text``)

    EXAMPLES::

        sage: from sage_attention.app.runners import run_fibers
        sage: from sage_attention.dsl.spec import ModelSpec, Layer, Computation
        sage: M = ModelSpec("m", input=3, tokens=2, layers=(Layer(2, 2),)).build()
        sage: run_fibers(M, Computation("m", "fibers"), {"seed": 0})["identifiable_up_to_symmetry"]
        True
    """
    report = model.fibers(seed=options.get("seed"))
    result = dict(report.to_dict())
    result["text"] = str(report)
    return result


def resolve(dotted):
    r"""
    Return the object named by the dotted name ``dotted`` (imported now).

    EXAMPLES::

        sage: from sage_attention.app.runners import resolve
        sage: resolve("sage_attention.app.runners.run_dimension").__name__
        'run_dimension'
    """
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def families_of(model, options, split=False):
    r"""
    Return the invariant families that the options of ``invariants`` or
    ``check`` name, built for ``model``.

    INPUT:

    - ``model`` -- the Sage model
    - ``options`` -- dictionary; ``options['families']`` is a tuple of
      ``(name, options)`` pairs (default: every family that applies, the
      name :data:`~sage_attention.dsl.computations.ALL_FAMILIES`), and
      ``options['seed']`` (optional) reaches each family that takes a seed
      and does not set one; ``options['force']`` (optional, the command
      line's ``--force``) reaches every family's memory guard
    - ``split`` -- boolean (default: ``False``); ``all`` gives one family
      per name (each estimated by its memory guard before any is built)
      instead of their union

    OUTPUT: a list of :class:`~sage_attention.invariants.base.InvariantFamily`

    Each family is built once
    (:func:`~sage_attention.dsl.computations.distinct_families`): with
    ``all, brill`` the union of ``all`` leaves ``brill`` out, and with
    ``brill(limit = 3), all`` the family ``brill`` is built with its
    explicit options (``limit = 3``) and only there; a family named twice
    gets the options of both mentions, a later value winning.

    EXAMPLES::

        sage: from sage_attention.app.runners import families_of
        sage: from sage_attention import LightningAttention
        sage: M = LightningAttention(d=3, t=2, a=1, weight_space='AV')
        sage: [(f.name, len(f)) for f in families_of(M, {"families": (("pencil", ()),)})]
        [('pencil', 10)]

    A family beyond the memory guard is refused unless ``force`` is set::

        sage: big = LightningAttention(d=6, t=2, a=6)
        sage: families_of(big, {"families": (("syzygies", ()),)})
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the family syzygies ... pass force=True to run it anyway

    A family named twice, or by ``all`` and by name, is built once::

        sage: M = LightningAttention(d=3, t=1, a=1)
        sage: [f.name for f in families_of(M, {"families": (("all", ()), ("brill", ()))})]
        ['linear+low_rank+pencil+syzygies+veronese+sylvester+chow+single_token_low_rank+rows',
         'brill']
        sage: [f.name for f in families_of(M, {"families": (("all", ()), ("brill", ()))}, split=True)]
        ['linear', 'low_rank', 'pencil', 'syzygies', 'veronese', 'sylvester', 'chow',
         'single_token_low_rank', 'rows', 'brill']
    """
    import inspect
    from sage_attention.dsl.computations import distinct_families
    chosen, rest = distinct_families(options.get("families"))
    seed = options.get("seed")
    force = bool(options.get("force", False))
    out = []
    for name, opts in chosen:
        if name == ALL_FAMILIES:
            from sage_attention.invariants import invariants
            if rest and split:
                from sage_attention.invariants import FAMILIES
                from sage_attention.invariants.base import guard_family
                invariants(model, families=[], force=force)     # the model's checks only
                for other in rest:      # every family is estimated before any is built
                    guard_family(model, other, force)
                out.extend(FAMILIES[other](model, force=force) for other in rest)
            elif rest:      # every family is named explicitly: ``all`` adds none
                out.append(invariants(model, families=list(rest), force=force))
            continue
        fn = resolve(FAMILY_TABLE[name].function)
        kwargs = dict(opts, force=force)
        if seed is not None and "seed" not in kwargs and \
                "seed" in inspect.signature(fn).parameters:
            kwargs["seed"] = seed
        out.append(fn(model, **kwargs))
    return out


def run_invariants(model, computation, options):
    r"""
    Run ``invariants fam, fam(key = value), ...``: build the invariant families.

    INPUT: as for :func:`run_dimension`; ``options['families']`` is a tuple
    of ``(name, options)`` pairs (default: every family that applies)

    OUTPUT: a dictionary with, per family, its size, degrees and note, and
    the invariants (labels and polynomials as strings)

    EXAMPLES::

        sage: from sage_attention.app.runners import run_invariants
        sage: from sage_attention import LightningAttention
        sage: M = LightningAttention(d=3, t=2, a=1, weight_space='AV')
        sage: r = run_invariants(M, None, {"families": (("pencil", ()), ("low_rank", ()))})
        sage: [(f["name"], f["size"], f["degrees"]) for f in r["families"]]
        [('pencil', 10, [3]), ('low_rank', 45, [2])]
        sage: print(r["text"])
        pencil: 10 invariants of degree 3
        low_rank: 45 invariants of degree 2
    """
    fams = families_of(model, options, split=True)
    lines, data = [], []
    for fam in fams:
        degrees = sorted(set(fam.degrees()))
        entry = {"name": fam.name, "size": len(fam), "degrees": degrees, "note": fam.note,
                 "invariants": [inv.to_dict() for inv in fam]}
        data.append(entry)
        lines.append(f"{fam.name}: {family_summary(fam)}")
    return {"families": data, "text": "\n".join(lines)}


def family_summary(fam):
    r"""
    Return the size and degrees of the invariant family ``fam`` in words,
    or, for an empty family, ``empty:`` and why.

    EXAMPLES::

        sage: from sage_attention.app.runners import family_summary
        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants import brill_invariants, linear_invariants, pencil_invariants
        sage: from sage_attention.invariants.base import InvariantFamily
        sage: M = LightningAttention(d=3, t=2, a=1)
        sage: family_summary(pencil_invariants(M))
        '... invariants of degree 3'
        sage: family_summary(linear_invariants(M) + pencil_invariants(M))
        '... invariants of degrees 1, 3'
        sage: family_summary(brill_invariants(M))
        'empty: Brill equations are for t = 1 (for t >= 2 see rank_one_invariants)'
        sage: family_summary(InvariantFamily("x", M))
        'empty: no members'
    """
    degrees = sorted(set(fam.degrees()))
    if len(fam):
        n = len(fam)
        return (f"{n} invariant{'s' * (n != 1)} of degree{'s' * (len(degrees) != 1)} "
                + ", ".join(map(str, degrees)))
    note = fam.note.strip()
    if not note:
        return "empty: no members"
    return note if note.startswith("empty") else f"empty: {note}"


def run_check(model, computation, options):
    r"""
    Run ``check invariants``: test that every member of the families vanishes
    (``check generation``: whether they generate the vanishing ideal,
    :func:`~sage_attention.variety.generation.generation_report`).

    The families are those of the ``invariants`` statements of the same
    ``compute`` block (every family that applies when there is none). The
    test composes each member with the parametrization (exact, no Groebner
    basis).

    INPUT: as for :func:`run_dimension`

    OUTPUT: a dictionary with one membership report per family

    EXAMPLES::

        sage: from sage_attention.app.runners import run_check
        sage: from sage_attention import LightningAttention
        sage: M = LightningAttention(d=2, t=2, a=1)
        sage: r = run_check(M, None, {"what": "invariants", "families": (("low_rank", ()),)})
        sage: r["all_vanish"]
        True
        sage: r["text"]
        'low_rank: all 3 members vanish on the neurovariety (exact composition)'
    """
    if options.get("what") == "generation":
        return _run_generation(model, options)
    from sage_attention.variety.membership import check_family
    reports, lines = [], []
    for fam in families_of(model, options):
        rep = check_family(model, fam, seed=options.get("seed") or 0)
        d = rep.to_dict()
        reports.append(d)
        if rep.all_vanish:
            lines.append(f"{fam.name}: all {rep.size} members vanish on the neurovariety "
                         "(exact composition)")
        else:
            lines.append(f"{fam.name}: {len(rep.failures)} of {rep.size} members do NOT vanish: "
                         + "; ".join(map(str, rep.failures[:3])))
    return {"reports": reports, "all_vanish": all(not r["failures"] for r in reports),
            "text": "\n".join(lines)}


def _run_generation(model, options):
    r"""
    Run ``check generation``: the generation report of the block's families.

    EXAMPLES::

        sage: from sage_attention.app.runners import run_check
        sage: from sage_attention import LightningAttention
        sage: M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
        sage: r = run_check(M, None, {"what": "generation", "families": (("low_rank", ()),)})
        sage: r["families_generate"], r["generators_by_degree"]
        (True, {'1': 4, '2': 3})
        sage: print(r["text"])
        the families generate the vanishing ideal (minimal generators by degree {1: 4, 2: 3}).
        family   | members | in I(X) | minimal generators | generates | missing | seconds
        ...
        low_rank | 3       | yes     | {1: 4, 2: 3}       | yes       | {}      | ...
        all      | 3       | yes     | {1: 4, 2: 3}       | yes       | {}      | ...

    ``all`` (e.g. from ``invariants all`` in the block) is one row per family it stands for::

        sage: r = run_check(M, None, {"what": "generation", "families": (("all", ()),)})
        sage: [row["family"] for row in r["rows"]][:3], r["families_generate"]
        (['linear', 'low_rank', 'pencil'], True)
    """
    from sage_attention.variety.generation import generation_report
    # one row per family: ``all`` is the families it stands for (``split``)
    families = families_of(model, options, split=True) if options.get("families") else None
    from sage_attention.errors import ComputationTooLarge
    try:
        G = generation_report(model, families, progress=bool(options.get("progress", False)),
                              force=bool(options.get("force", False)))
    except ComputationTooLarge as e:
        if not e.lower_degree:
            raise
        # the statement has no degree: name the fix it has
        hint = "; ".join(h for h in (e.hint, "use fewer entries (`entries = ...`) or a smaller "
                                     "model (`check generation` has no degree)") if h)
        raise e.replace(lower_degree=False, hint=hint) from None
    d = G.to_dict()
    summary = repr(G).split("\n", 1)[-1].strip()
    d["text"] = summary + "\n" + G.table()
    return d


def run_vanishing_ideal(model, computation, options):
    r"""
    Run ``vanishing_ideal [up to degree N] [algorithm = A]``.

    ``algorithm = elimination`` (Singular; complete) or ``interpolation``
    (degree by degree up to ``N``, default 4); ``up to degree N`` alone means
    interpolation through degree ``N``; with neither, elimination for small
    models and interpolation otherwise.

    INPUT: as for :func:`run_dimension`; ``options['progress']`` (set by
    the run, default ``False``) shows the progress of the vanishing ideal
    and of the minimal generators on standard error

    OUTPUT: a dictionary with ``generators_by_degree`` (minimal generators,
    linear relations included), ``complete_through_degree`` (``None`` when
    the whole ideal is known), ``proved_complete``, ``algorithm``,
    ``generators`` (strings) and ``text``

    EXAMPLES::

        sage: from sage_attention.app.runners import run_vanishing_ideal
        sage: from sage_attention import LightningAttention
        sage: M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
        sage: r = run_vanishing_ideal(M, None, {"algorithm": "elimination"})
        sage: r["generators_by_degree"], r["proved_complete"]
        ({1: 4, 2: 3}, True)
        sage: s = run_vanishing_ideal(M, None, {"algorithm": "interpolation", "degree": 3})
        sage: s["generators_by_degree"], s["complete_through_degree"]
        ({1: 4, 2: 3}, 3)
    """
    from sage_attention.ideals.polynomial_text import polynomial_text
    X = model.neurovariety()
    algorithm = options.get("algorithm")
    degree = options.get("degree")
    if degree is not None and algorithm is None:
        algorithm = "interpolation"
    progress = bool(options.get("progress", False))
    res = X.vanishing_ideal_report(algorithm=algorithm, degree=degree,
                                   force=bool(options.get("force", False)), progress=progress)
    if getattr(res, "interrupted", False):
        # Ctrl-C during interpolation: the finished degrees (not cached by the variety)
        gens = [g for g in res.coordinate_ideal(force=bool(options.get("force", False))).gens() if g]
    else:
        gens = X.minimal_generators(algorithm=algorithm, degree=degree, progress=progress)
    count = "exact"
    if hasattr(res, "complete_through_degree"):
        data = res.to_dict()
        by_degree, count = _interpolation_counts(model, res, bool(options.get("force", False)), progress)
        complete = res.complete_through_degree
        proved = bool(res.proved_complete)
        how = f"interpolation, complete through degree {complete}"
        # what is proved and what is not, in the words of the report (ImplicitizationReport)
        how += "; " + res.status() + str(res.proof)
    else:
        data = res.to_dict()
        by_degree = dict(sorted(X.minimal_generators_by_degree(progress=progress).items()))
        complete, proved = None, True
        how = f"elimination ({res.algorithm}), the whole ideal, {res.seconds:.2f} s"
    counts = ", ".join(f"{n} of degree {k}" for k, n in by_degree.items())
    text = f"minimal generators: {counts}\n{how}"
    if count != "exact":
        text += "\n" + count
        count = "modulo p"
    out = {"algorithm": "interpolation" if hasattr(res, "complete_through_degree") else "elimination",
           "generators_by_degree": by_degree, "minimal_count": count, "complete_through_degree": complete,
           "proved_complete": proved, "generators": [polynomial_text(g) for g in gens], "text": text}
    for key in ("seconds", "timings"):
        if key in data:
            out[key] = data[key]
    if getattr(res, "interrupted", False):
        out["interrupted"] = True
    return out


def _interpolation_counts(model, res, force, progress, limit=None):
    r"""
    Return ``(by_degree, how)``: the numbers of minimal generators of an interpolation result.

    The engine certifies its counts modulo `p` only (an upper bound over
    `\QQ`, see :mod:`~sage_attention.ideals.implicitization`). They are
    recounted exactly over `\QQ`
    (:func:`~sage_attention.variety.neurovariety.minimal_generators_count`)
    when the size of that count
    (:func:`~sage_attention.ideals.minimal_generators.exact_count_size`) is
    at most :data:`~sage_attention.ideals.minimal_generators.EXACT_COUNT_SIZE`
    (or ``limit`` when given) or ``force`` is true; ``how`` is then ``'exact'``. Otherwise the
    engine's counts are returned (the linear relations added), and ``how``
    is the sentence that says so.

    EXAMPLES::

        sage: from sage_attention.app.runners import _interpolation_counts
        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.implicitization import implicitize
        sage: M = LightningAttention(d=3, t=2, a=1, entries=[(1, 1)])
        sage: R = implicitize(M, 3)
        sage: _interpolation_counts(M, R, False, False)
        ({1: 10, 2: 45, 3: 10}, 'exact')

    Beyond the size limit the engine's counts are returned, and said to be::

        sage: counts, how = _interpolation_counts(M, R, False, False, limit=10^5)
        sage: counts; print(how)
        {1: 10, 2: 45, 3: 10}
        the counts are the engine's, certified modulo 8388593 (an upper bound over QQ); the exact count
        over QQ (size 923400 > 100000) was skipped: pass --force (force=True) to run it
        sage: _interpolation_counts(M, R, True, False, limit=10^5)[1]
        'exact'
    """
    from sage_attention.ideals import minimal_generators as mg
    from sage_attention.variety.neurovariety import minimal_generators_count
    gens = [g for g in res.essential_generators if g]
    size = mg.exact_count_size([g.degree() for g in gens], model.essential_ring().ngens())
    limit = mg.EXACT_COUNT_SIZE if limit is None else int(limit)
    if force or size <= limit:
        return dict(sorted(minimal_generators_count(res.coordinate_ideal(force=force), force=force,
                                                    progress=progress).items())), "exact"
    counts = {int(k): len(v) for k, v in res.generators_by_degree.items() if len(v)}
    nlin = len(model.linear_relations())
    if nlin:
        counts[1] = counts.get(1, 0) + nlin
    how = (f"the counts are the engine's, certified modulo {res.prime} (an upper bound over QQ); the exact "
           f"count over QQ (size {size} > {limit}) was skipped: pass --force (force=True) to "
           "run it")
    return dict(sorted(counts.items())), how


def run_stack_vanishing_ideal(model, computation, options):
    r"""
    Run ``vanishing_ideal`` on a network with dense layers: the whole ideal, by elimination.

    The weights are eliminated from the graph ideal of the parametrization
    (:func:`~sage_attention.ideals.stack_elimination.stack_vanishing_ideal`),
    for small networks only (the size guard); the result is the whole ideal,
    so it is proved complete. With biases the coordinates are the
    coefficients of every degree up to that of the network, and the ideal is
    still homogeneous in them.

    INPUT: as for :func:`run_vanishing_ideal` (``algorithm``, if given, is
    ``'elimination'``; ``check`` refuses the others on these models)

    OUTPUT: a dictionary as :func:`run_vanishing_ideal` returns

    EXAMPLES:

    The shallow network `x \mapsto c\,(w \cdot x)^3` in two variables: the
    binary cubics that are cubes, the twisted cubic::

        sage: from sage_attention.app.runners import run_stack_vanishing_ideal
        sage: from sage_attention import PolynomialNetwork
        sage: r = run_stack_vanishing_ideal(PolynomialNetwork([2, 1, 1], 3), None, {})
        sage: r["generators_by_degree"], r["proved_complete"], r["algorithm"]
        ({2: 3}, True, 'elimination')
        sage: print(r["text"])
        minimal generators: 3 of degree 2
        elimination (Singular, the weights eliminated), the whole ideal, ... s

    The ternary quadrics that are sums of four squares fill their space::

        sage: from sage_attention import Network, dense
        sage: r = run_stack_vanishing_ideal(Network([dense(out=4, r=2), dense(out=1)], d=3), None, {})
        sage: print(r["text"])
        minimal generators: none (the ideal is zero)
        the outputs fill their space (the Jacobian's rank is the number of coordinates, 6): nothing to eliminate, the whole ideal, ... s
    """
    import time
    from sage_attention.ideals.polynomial_text import polynomial_text
    from sage_attention.ideals.stack_elimination import stack_vanishing_ideal
    from sage_attention.progress import Heartbeat
    from sage_attention.variety.neurovariety import minimal_basis, minimal_generators_count
    force, progress = bool(options.get("force", False)), bool(options.get("progress", False))
    t0 = time.time()
    with Heartbeat("elimination: the weights of the network", progress):
        I = stack_vanishing_ideal(model, force=force)
    seconds = time.time() - t0
    gens = minimal_basis(I) if not I.is_zero() else []
    by_degree = dict(sorted(minimal_generators_count(I, force=force, progress=progress).items()))
    counts = ", ".join(f"{n} of degree {k}" for k, n in by_degree.items()) or "none (the ideal is zero)"
    if I.is_zero() and I.ring().ngens():
        how = (f"the outputs fill their space (the Jacobian's rank is the number of coordinates, "
               f"{I.ring().ngens()}): nothing to eliminate, the whole ideal")
    else:
        how = "elimination (Singular, the weights eliminated), the whole ideal"
    text = f"minimal generators: {counts}\n{how}, {seconds:.2f} s"
    return {"algorithm": "elimination", "generators_by_degree": by_degree, "complete_through_degree": None,
            "proved_complete": True, "generators": [polynomial_text(g) for g in gens], "text": text}


def run_certify(model, computation, options):
    r"""
    Run ``certify point [c_1, ..., c_N]``: is the coefficient point realizable?

    INPUT: as for :func:`run_dimension`; ``options['point']`` lists the
    values of all coordinates in the order of the coordinate ring

    OUTPUT: the certificate's ``to_dict()`` and its ``text``

    EXAMPLES::

        sage: from sage_attention.app.runners import run_certify
        sage: from sage_attention import LightningAttention
        sage: M = LightningAttention(d=1, t=2, a=1)
        sage: run_certify(M, None, {"point": (1, 1, 1, 1)})["status"]
        'realizable'
        sage: run_certify(M, None, {"point": (1, 2, 1, 1)})["status"]
        'not realizable'
    """
    from sage.all__sagemath_singular import QQ
    point = [QQ(x) for x in options["point"]]
    n = model.ncoordinates()
    if len(point) != n:
        raise ValueError(f"the point has {len(point)} values; the model has {n} coordinates "
                         "(list them in the order of the coordinate ring)")
    cert = model.neurovariety().certify(point, seed=options.get("seed"))
    out = dict(cert.to_dict())
    out["text"] = str(cert)
    return out


#: Runners given as functions by :func:`register` (the table's dotted
#: names are resolved when a computation runs).
RUNNERS = {}


def runner(name, model=None):
    r"""
    Return the function that runs the statement ``name`` (on the model spec ``model``, if given).

    EXAMPLES::

        sage: from sage_attention.app.runners import runner
        sage: runner("fibers").__name__
        'run_fibers'
        sage: from sage_attention.dsl import parse_spec
        sage: pnn = parse_spec("model p { input = 2; layer dense(out = 1, activation = power(3)); "
        ....:                  "layer dense(out = 1) }").models[0]
        sage: runner("vanishing_ideal", pnn).__name__
        'run_stack_vanishing_ideal'
    """
    if name in RUNNERS:
        return RUNNERS[name]
    return resolve(TABLE[name].runner_for(model))


def register(name, runner, options=(), doc=""):
    r"""
    Make the computation ``name`` available to ``sage-attention``.

    INPUT:

    - ``name`` -- string; the statement name
    - ``runner`` -- function ``(model, computation, options) -> dict``
    - ``options`` -- (default: ``()``) the options the statement accepts:
      :class:`~sage_attention.dsl.computations.Option` objects, or names
      (then any non-negative integer is accepted)
    - ``doc`` -- (default: ``""``) one line for the reference

    EXAMPLES::

        sage: from sage_attention.app.runners import register, runner, RUNNERS
        sage: from sage_attention.dsl.computations import COMPUTATIONS
        sage: register("hello", lambda model, computation, options: {"text": "hi"}, ["times"])
        sage: COMPUTATIONS["hello"].option_names, runner("hello")(None, None, {})
        (('times',), {'text': 'hi'})
        sage: _ = COMPUTATIONS.pop("hello"); _ = RUNNERS.pop("hello")
    """
    from sage_attention.dsl.computations import Computation, Option, register as add
    opts = tuple(o if isinstance(o, Option) else Option(str(o), "int", minimum=0)
                 for o in options)
    add(Computation(name, f"{runner.__module__}.{runner.__qualname__}", opts, doc))
    RUNNERS[name] = runner

