r"""
The runners of the computation statements

A computation statement of a ``compute`` block (``dimension``, ``fibers``,
``invariants``, ``check``, ``vanishing_ideal``, ``certify``) is run by a
function ``(model, computation, options) -> dict``: the result is JSON-able,
and its optional ``"text"`` entry is the readable report. The table
:data:`sage_attention.catalog.computations.COMPUTATIONS` names each runner by
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

from sage_attention.settings import moved_to_settings, settings
from sage_attention.catalog.computations import (ALL_FAMILIES, COMPUTATIONS as TABLE,
                                              FAMILIES as FAMILY_TABLE)
# the runners of vanishing_ideal, in their own module (the old names are kept here)
from sage_attention.app.ideal_runners import (run_stack_vanishing_ideal,  # noqa: F401
                                              run_vanishing_ideal)


def run_dimension(model, computation, options):
    r"""
    Run ``dimension``: the dimension of the neurovariety (Jacobian rank).

    INPUT:

    - ``model`` -- the Sage model
    - ``computation`` -- the :class:`~sage_attention.dsl.spec.Computation`
    - ``options`` -- dictionary of the options declared in
      :data:`sage_attention.catalog.computations.COMPUTATIONS` (``seed``; with ``progress``, a
      :class:`~sage_attention.misc.progress.Heartbeat` on standard error)

    OUTPUT: a dictionary (the report's ``to_dict()`` and its ``text``)

    EXAMPLES::

        sage: from sage_attention.app.runners import run_dimension
        sage: from sage_attention.dsl.spec import ModelSpec, Layer, Computation
        sage: M = ModelSpec("m", input=2, tokens=2, layers=(Layer(1, 1),)).build()
        sage: r = run_dimension(M, Computation("m", "dimension"), {"seed": 0})
        sage: r["dimension"], r["expected_dimension"]
        (4, 4)
    """
    from sage_attention.misc.progress import Heartbeat
    seconds = jacobian_seconds(model)
    if seconds is not None and seconds > settings.SLOW_DIMENSION_SECONDS:
        # a deep model takes minutes or hours before anything else is printed: say so
        # (a warning: --quiet silences it; --progress shows the seconds as they pass)
        name = getattr(computation, "model", None)
        logging.getLogger("sage_attention").warning(
            "dimension of %s: this may take %s (an estimate: up to %s random inputs, each pulling "
            "%s output entries back through %s layers); %s, Ctrl-C stops it",
            f"model `{name}`" if name else f"a stack of {model.nlayers()} layers",
            _duration(seconds), *seconds.steps,
            "the seconds are shown" if options.get("progress") else "--progress shows the seconds")
    # a wide model takes minutes (the rank of a Jacobian with thousands of columns): say so
    with Heartbeat("dimension: the Jacobian rank at random inputs", bool(options.get("progress", False))):
        report = model.dimension_report(seed=options.get("seed"))
    result = dict(report.to_dict())
    result["text"] = str(report)
    return result


# ``dimension`` warns that it is slow when jacobian_seconds() estimates more than
# settings.SLOW_DIMENSION_SECONDS. The seconds of one step of the Jacobian's reverse mode (one
# output entry's cotangent through one layer, width 2), settings.JACOBIAN_STEP_SECONDS, were
# measured: a deep width-2 network with one token and 81 layers took 19.5 s for 648 inputs (the
# most the estimate counts) and 7.9 s for the 256 its rank needed (one core, shared machine).
# The old names read the settings.
__getattr__ = moved_to_settings(__name__, {"SLOW_DIMENSION_SECONDS": "SLOW_DIMENSION_SECONDS",
                                           "JACOBIAN_STEP_SECONDS": "JACOBIAN_STEP_SECONDS"})


class _Seconds(float):
    """A number of seconds with the counts it is estimated from (``steps``)."""


def jacobian_seconds(model):
    r"""
    Return an estimate of the seconds that the Jacobian rank of ``dimension``
    takes for a stack of layers (lightning, dense or attention), or ``None``
    (one layer, or a model without reverse mode).

    The rank is that of the derivatives at random inputs: at most about
    `P / o + 2` inputs for `P` weights and `o` output entries, fewer when the
    rank is found earlier (:func:`~sage_attention.models.jacobian.jacobian_rank`
    doubles its first batch from `16` inputs and stops when an input adds
    nothing). A lightning stack computes its rows in reverse mode
    (:func:`~sage_attention.models.derivatives.layer_gradients`): each output
    entry's cotangent goes once through the `L` layers, so one input costs
    `o L` steps and the time grows with the square of the depth (the number
    of inputs grows with the rank). One step (one cotangent through one layer
    of width 2) takes ``settings.JACOBIAN_STEP_SECONDS``. The estimate takes
    the most inputs, so it is an upper estimate.

    EXAMPLES::

        sage: from sage_attention.app.runners import jacobian_seconds
        sage: from sage_attention import LightningAttention
        sage: deep = lambda n: LightningAttention(widths=[2] * (n + 1) + [1], ranks=[1] * (n + 1), t=1)
        sage: [round(jacobian_seconds(deep(n)), 1) for n in (10, 40, 80)]
        [0.3, 4.0, 15.7]
        sage: 60 < jacobian_seconds(deep(300)) < 3600
        True
        sage: jacobian_seconds(LightningAttention(d=3, t=2, a=1)) is None
        True

    A stack of `1000` dense layers of width `2` takes about twenty minutes
    (``dimension`` warns before it starts; `100` layers took 11.6 s on a
    shared core, estimated 12.2 s)::

        sage: from sage_attention import Network, dense
        sage: M = Network([dense(out=2, r=2)] * 1000 + [dense(out=1)], d=2)
        sage: 600 < jacobian_seconds(M) < 3600
        True
    """
    try:
        if getattr(model, "jacobian_mode", lambda: None)() != "reverse" or model.nlayers() < 2:
            return None
        weights, layers = int(model.nparameters()), int(model.nlayers())
        entries = max(1, len(model.output_entries()))
        inputs = -(-weights // entries) + 2
        width = max(int(w) for w in model.widths)
    except Exception:       # a model without these counts: no estimate
        return None
    seconds = _Seconds(settings.JACOBIAN_STEP_SECONDS * inputs * entries * layers * max(1, width / 2))
    seconds.steps = (inputs, entries, layers)
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
      name :data:`~sage_attention.catalog.computations.ALL_FAMILIES`), and
      ``options['seed']`` (optional) reaches each family that takes a seed
      and does not set one; ``options['force']`` (optional, the command
      line's ``--force``) reaches every family's memory guard
    - ``split`` -- boolean (default: ``False``); ``all`` gives one family
      per name (each estimated by its memory guard before any is built)
      instead of their union

    OUTPUT: a list of :class:`~sage_attention.invariants.base.InvariantFamily`

    Each family is built once
    (:func:`~sage_attention.catalog.computations.distinct_families`): with
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
    from sage_attention.catalog.computations import distinct_families
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
    from sage_attention.misc.errors import ComputationTooLarge
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
      :class:`~sage_attention.catalog.computations.Option` objects, or names
      (then any non-negative integer is accepted)
    - ``doc`` -- (default: ``""``) one line for the reference

    EXAMPLES::

        sage: from sage_attention.app.runners import register, runner, RUNNERS
        sage: from sage_attention.catalog.computations import COMPUTATIONS
        sage: register("hello", lambda model, computation, options: {"text": "hi"}, ["times"])
        sage: COMPUTATIONS["hello"].option_names, runner("hello")(None, None, {})
        (('times',), {'text': 'hi'})
        sage: _ = COMPUTATIONS.pop("hello"); _ = RUNNERS.pop("hello")
    """
    from sage_attention.catalog.computations import Computation, Option, register as add
    opts = tuple(o if isinstance(o, Option) else Option(str(o), "int", minimum=0)
                 for o in options)
    add(Computation(name, f"{runner.__module__}.{runner.__qualname__}", opts, doc))
    RUNNERS[name] = runner

