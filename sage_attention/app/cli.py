r"""
The command line: ``sage-attention``

Run the computations of a spec file::

    sage-attention run examples/slice.att            # readable report per model
    sage-attention run examples/slice.att --json     # one JSON object per model
    sage-attention check examples/slice.att          # parse and validate only
    sage-attention sweep --width 3..6 --rank 1..2 -j 2   # dimension table over a grid
    sage-attention figures --outdir figures          # [HMK2024] experiment + slice plot

Exit status (:data:`EXIT_STATUS`): 0 when everything ran; 1 when a
computation failed (it is reported in place, as text or as a JSON record
with its ``"error"``, and the run goes on with the next computation and
model); 2 on an error in the spec or the arguments, and for a spec with
nothing to run (message on stderr with the location and a fix, no
traceback); 130 when interrupted by Ctrl-C (what finished is printed).

The statements, their options and their runners are declared once, in
:data:`sage_attention.dsl.computations.COMPUTATIONS`; a runner is a
function ``(model, computation, options) -> dict`` (JSON-able; an optional
``"text"`` entry is the readable report), named there by its dotted name and
imported only when it runs. Modules add theirs with :func:`register`.

EXAMPLES::

    sage: from sage_attention.app.cli import main
    sage: import os
    sage: from sage_attention.dsl.parser import grammar_text
    sage: import tempfile
    sage: f = os.path.join(tempfile.mkdtemp(), "m.att")
    sage: _ = open(f, "w").write("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
    ....:                        "compute m { dimension seed = 0 }")
    sage: main(["check", f])
    ...: ok: 1 model, 1 computation
    0
    sage: main(["run", f, "--json"])
    {"model": "m", ..., "dimension": 4, "expected_dimension": 4, ...}
    0
"""
import argparse
import importlib
import json
import logging
import os
import signal
import sys

from sage_attention.errors import SageAttentionError
from sage_attention.dsl.computations import (ALL_FAMILIES, COMPUTATIONS as TABLE,
                                              FAMILIES as FAMILY_TABLE, describe_all)

logger = logging.getLogger("sage_attention")

#: The exit statuses of ``sage-attention``.
EXIT_STATUS = {
    0: "everything ran",
    1: "a computation failed (reported in place; the run went on)",
    2: "an error in the spec or the arguments, or nothing to run (no traceback)",
    130: "interrupted by Ctrl-C (what finished is printed)",
}


def run_dimension(model, computation, options):
    r"""
    Run ``dimension``: the dimension of the neurovariety (Jacobian rank).

    INPUT:

    - ``model`` -- the Sage model
    - ``computation`` -- the :class:`~sage_attention.dsl.spec.Computation`
    - ``options`` -- dictionary of the options declared in
      :data:`sage_attention.dsl.computations.COMPUTATIONS` (``seed``)

    OUTPUT: a dictionary (the report's ``to_dict()`` and its ``text``)

    EXAMPLES::

        sage: from sage_attention.app.cli import run_dimension
        sage: from sage_attention.dsl.spec import ModelSpec, Layer, Computation
        sage: M = ModelSpec("m", input=2, tokens=2, layers=(Layer(1, 1),)).build()
        sage: r = run_dimension(M, Computation("m", "dimension"), {"seed": 0})
        sage: r["dimension"], r["expected_dimension"]
        (4, 4)
    """
    report = model.dimension_report(seed=options.get("seed"))
    result = dict(report.to_dict())
    result["text"] = str(report)
    return result


def run_fibers(model, computation, options):
    r"""
    Run ``fibers``: the generic fiber and the symmetries of the weights.

    INPUT: as for :func:`run_dimension`

    OUTPUT: a dictionary (the report's ``to_dict()`` and its ``text``)

    EXAMPLES::

        sage: from sage_attention.app.cli import run_fibers
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

        sage: from sage_attention.app.cli import resolve
        sage: resolve("sage_attention.app.cli.run_dimension").__name__
        'run_dimension'
    """
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def _families_of(model, options):
    import inspect
    chosen = options.get("families") or ((ALL_FAMILIES, ()),)
    seed = options.get("seed")
    out = []
    for name, opts in chosen:
        if name == ALL_FAMILIES:
            from sage_attention.invariants import invariants
            out.append(invariants(model))
            continue
        fn = resolve(FAMILY_TABLE[name].function)
        kwargs = dict(opts)
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

        sage: from sage_attention.app.cli import run_invariants
        sage: from sage_attention import LightningAttention
        sage: M = LightningAttention(d=3, t=2, a=1, weight_space='AV')
        sage: r = run_invariants(M, None, {"families": (("pencil", ()), ("low_rank", ()))})
        sage: [(f["name"], f["size"], f["degrees"]) for f in r["families"]]
        [('pencil', 10, [3]), ('low_rank', 45, [2])]
        sage: print(r["text"])
        pencil: 10 invariants of degree 3
        low_rank: 45 invariants of degree 2
    """
    fams = _families_of(model, options)
    lines, data = [], []
    for fam in fams:
        degrees = sorted(set(fam.degrees()))
        entry = {"name": fam.name, "size": len(fam), "degrees": degrees, "note": fam.note,
                 "invariants": [inv.to_dict() for inv in fam]}
        data.append(entry)
        if len(fam):
            lines.append(f"{fam.name}: {len(fam)} invariants of degree "
                         + ", ".join(map(str, degrees)))
        else:
            lines.append(f"{fam.name}: empty ({fam.note})")
    return {"families": data, "text": "\n".join(lines)}


def run_check(model, computation, options):
    r"""
    Run ``check invariants``: test that every member of the families vanishes.

    The families are those of the ``invariants`` statements of the same
    ``compute`` block (every family that applies when there is none). The
    test composes each member with the parametrization (exact, no Groebner
    basis).

    INPUT: as for :func:`run_dimension`

    OUTPUT: a dictionary with one membership report per family

    EXAMPLES::

        sage: from sage_attention.app.cli import run_check
        sage: from sage_attention import LightningAttention
        sage: M = LightningAttention(d=2, t=2, a=1)
        sage: r = run_check(M, None, {"what": "invariants", "families": (("low_rank", ()),)})
        sage: r["all_vanish"]
        True
        sage: r["text"]
        'low_rank: all 3 members vanish on the neurovariety (exact composition)'
    """
    from sage_attention.variety.membership import check_family
    reports, lines = [], []
    for fam in _families_of(model, options):
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


def run_vanishing_ideal(model, computation, options):
    r"""
    Run ``vanishing_ideal [up to degree N] [algorithm = A]``.

    ``algorithm = elimination`` (Singular; complete) or ``interpolation``
    (degree by degree up to ``N``, default 4); ``up to degree N`` alone means
    interpolation through degree ``N``; with neither, elimination for small
    models and interpolation otherwise.

    INPUT: as for :func:`run_dimension`

    OUTPUT: a dictionary with ``generators_by_degree`` (minimal generators,
    linear relations included), ``complete_through_degree`` (``None`` when
    the whole ideal is known), ``proved_complete``, ``algorithm``,
    ``generators`` (strings) and ``text``

    EXAMPLES::

        sage: from sage_attention.app.cli import run_vanishing_ideal
        sage: from sage_attention import LightningAttention
        sage: M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
        sage: r = run_vanishing_ideal(M, None, {"algorithm": "elimination"})
        sage: r["generators_by_degree"], r["proved_complete"]
        ({1: 4, 2: 3}, True)
        sage: s = run_vanishing_ideal(M, None, {"algorithm": "interpolation", "degree": 3})
        sage: s["generators_by_degree"], s["complete_through_degree"]
        ({1: 4, 2: 3}, 3)
    """
    from sage_attention.variety.neurovariety import minimal_generators_count
    X = model.neurovariety()
    algorithm = options.get("algorithm")
    degree = options.get("degree")
    if degree is not None and algorithm is None:
        algorithm = "interpolation"
    res = X.vanishing_ideal_report(algorithm=algorithm, degree=degree,
                                   force=bool(options.get("force", False)))
    gens = X.minimal_generators(algorithm=algorithm, degree=degree)
    if hasattr(res, "complete_through_degree"):
        data = res.to_dict()
        by_degree = dict(sorted(minimal_generators_count(res.ideal).items()))
        complete = res.complete_through_degree
        proved = bool(res.proved_complete)
        how = f"interpolation, complete through degree {complete}"
        how += ("; proved complete: " if proved else "; not proved complete: ") + str(res.proof)
    else:
        data = res.to_dict()
        by_degree = dict(sorted(X.minimal_generators_by_degree().items()))
        complete, proved = None, True
        how = f"elimination ({res.algorithm}), the whole ideal, {res.seconds:.2f} s"
    counts = ", ".join(f"{n} of degree {k}" for k, n in by_degree.items())
    text = f"minimal generators: {counts}\n{how}"
    out = {"algorithm": "interpolation" if hasattr(res, "complete_through_degree") else "elimination",
           "generators_by_degree": by_degree, "complete_through_degree": complete,
           "proved_complete": proved, "generators": [str(g) for g in gens], "text": text}
    for key in ("seconds", "timings"):
        if key in data:
            out[key] = data[key]
    return out


def run_certify(model, computation, options):
    r"""
    Run ``certify point [c_1, ..., c_N]``: is the coefficient point realizable?

    INPUT: as for :func:`run_dimension`; ``options['point']`` lists the
    values of all coordinates in the order of the coordinate ring

    OUTPUT: the certificate's ``to_dict()`` and its ``text``

    EXAMPLES::

        sage: from sage_attention.app.cli import run_certify
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


def runner(name):
    r"""
    Return the function that runs the statement ``name``.

    EXAMPLES::

        sage: from sage_attention.app.cli import runner
        sage: runner("fibers").__name__
        'run_fibers'
    """
    if name in RUNNERS:
        return RUNNERS[name]
    return resolve(TABLE[name].runner)


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

        sage: from sage_attention.app.cli import register, runner, RUNNERS
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


def _jsonable(value):
    from fractions import Fraction
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (bool, str)) or value is None:
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, Fraction):
        return str(value)
    try:
        return int(value)
    except (TypeError, ValueError):
        return str(value)


def _model_header(spec_model, model):
    est = spec_model.size_estimate()
    # the counts are exact for one plain layer; a mask or a residual stream
    # changes which monomials occur, so they are the unmasked model's then
    exact = len(spec_model.layers) == 1 and spec_model.is_plain()
    return {
        "model": spec_model.name,
        "architecture": repr(model) if model is not None else "(not built)",
        "field": str(spec_model.field),
        "widths": list(spec_model.widths),
        "ranks": list(spec_model.ranks),
        "tokens": spec_model.tokens,
        "normalization": list(spec_model.normalizations),
        "heads": list(spec_model.heads),
        "mask": [layer.mask for layer in spec_model.layers],
        "residual": [layer.residual for layer in spec_model.layers],
        "weights": spec_model.weights,
        "coordinates": est.coordinates,
        "coordinates_exact": exact,
        "essential_coordinates": est.essential_coordinates,
        "parameters": est.parameters,
        "dimension": None,
        "expected_dimension": None,
        "computations": [],
    }


def _print_text(result, out):
    print(f"== model {result['model']}: {result['architecture']}", file=out)
    bound = "" if result["coordinates_exact"] else " (estimate)"
    print(f"   coordinates: {result['coordinates']}{bound}, essential coordinates: "
          f"{result['essential_coordinates']}, parameters: {result['parameters']}", file=out)
    for comp in result["computations"]:
        text = comp.get("text")
        if text is None:
            text = ", ".join(f"{k} = {v}" for k, v in comp.items()
                             if k not in ("computation", "options"))
        print(f"-- {comp['computation']}:", file=out)
        for line in str(text).splitlines():
            print(f"   {line}", file=out)
    if result["dimension"] is not None:
        exp = result["expected_dimension"]
        verdict = ("no published formula" if exp is None else
                   "agrees" if exp == result["dimension"] else "DIFFERS")
        print(f"   dimension computed {result['dimension']}, expected {exp} ({verdict})",
              file=out)


def _emit(result, as_json, out):
    if as_json:
        print(json.dumps(_jsonable(result)), file=out)
    else:
        _print_text(result, out)
    out.flush()


def _error_entry(comp, error):
    message = str(error) if isinstance(error, SageAttentionError) else \
        f"{type(error).__name__}: {error}"
    return {"computation": comp.name, "options": dict(comp.options),
            "error": message, "error_type": type(error).__name__,
            "text": f"FAILED: `{comp.to_dsl()}`: {message}"}


def run_spec(spec, as_json=False, seed=None, out=None):
    r"""
    Run every computation of a validated spec and print a report per model.

    A computation that fails is reported in place (its entry has an
    ``"error"`` and the text says FAILED) and the run goes on with the next
    computation and model. Ctrl-C stops the run: the finished part of the
    current model is printed and ``KeyboardInterrupt`` propagates.

    INPUT:

    - ``spec`` -- a validated :class:`~sage_attention.dsl.spec.Spec`
    - ``as_json`` -- boolean (default: ``False``); one JSON object per line
    - ``seed`` -- (default: ``None``) the seed of computations without one
    - ``out`` -- (default: ``sys.stdout``) where to print

    OUTPUT: the list of result dictionaries, one per model with
    computations; a result with a failure has ``"failed": True``

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.app.cli import run_spec
        sage: s = parse_spec("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
        ....:                "compute m { dimension }")
        sage: _ = run_spec(s, seed=0)
        == model m: LightningAttention(d=2, out=1, t=2, a=1) over Rational Field
           coordinates: 20, essential coordinates: 6, parameters: 6
        -- dimension:
           The neurovariety of ... has dimension 4
           ...
           dimension computed 4, expected 4 (agrees)
    """
    out = sys.stdout if out is None else out
    results = []
    for spec_model in spec.models:
        comps = spec.computations_of(spec_model.name)
        if not comps:
            continue
        logger.info("building model %s", spec_model.name)
        try:
            model = spec_model.build()
        except KeyboardInterrupt:
            raise
        except Exception as e:
            result = _model_header(spec_model, None)
            result["failed"] = True
            result["computations"] = [_error_entry(c, e) for c in comps]
            _emit(result, as_json, out)
            results.append(result)
            continue
        result = _model_header(spec_model, model)
        try:
            for comp in comps:
                decl = TABLE[comp.name]
                options = dict(comp.options)
                if comp.name == "check" and "families" not in options:
                    listed = tuple(f for c in comps if c.name == "invariants"
                                   for f in dict(c.options).get("families", ()))
                    if listed:
                        options["families"] = listed
                if seed is not None and decl.option("seed") is not None:
                    options.setdefault("seed", seed)
                options = decl.with_defaults(options)
                logger.info("model %s: running %s", spec_model.name, comp.to_dsl())
                try:
                    value = runner(comp.name)(model, comp, options)
                except KeyboardInterrupt:
                    raise
                except Exception as e:
                    logger.info("model %s: %s failed", spec_model.name, comp.name)
                    result["failed"] = True
                    result["computations"].append(_error_entry(comp, e))
                    continue
                entry = {"computation": comp.name, "options": dict(comp.options)}
                entry.update(value)
                result["computations"].append(entry)
                if comp.name == "dimension":
                    result["dimension"] = value.get("dimension")
                    result["expected_dimension"] = value.get("expected_dimension",
                                                             value.get("expected"))
                logger.info("model %s: %s done", spec_model.name, comp.name)
        except BaseException:
            if result["computations"]:
                result["interrupted"] = True
                _emit(result, as_json, out)
            raise
        _emit(result, as_json, out)
        results.append(result)
    return results


class ComputationFailed(SageAttentionError):
    r"""
    A computation raised an unexpected error.

    EXAMPLES::

        sage: from sage_attention.app.cli import ComputationFailed
        sage: str(ComputationFailed("`dimension` on model `m` failed: ValueError: x"))
        '`dimension` on model `m` failed: ValueError: x'
    """


def _epilog():
    codes = "\n".join(f"  {k:<4} {v}" for k, v in EXIT_STATUS.items())
    return f"exit status:\n{codes}\n\ncompute statements:\n" + "\n".join(
        "  " + line for line in describe_all().splitlines())


def _parser():
    p = argparse.ArgumentParser(
        prog="sage-attention",
        description="Algebraic geometry of attention networks: run a spec file.",
        epilog=_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="parse, validate and run the computations of a spec",
                         epilog=_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    run.add_argument("spec", help="the spec file (.att)")
    run.add_argument("--json", action="store_true", help="print one JSON object per model")
    run.add_argument("--force", action="store_true", help="skip the size guard")
    run.add_argument("--seed", type=int, default=None,
                     help="seed for computations that do not set one")
    run.add_argument("--verbose", "-v", action="store_true", help="log progress to stderr")
    check = sub.add_parser("check", help="parse and validate a spec only",
                           epilog=_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    check.add_argument("spec", help="the spec file (.att)")
    check.add_argument("--force", action="store_true", help="skip the size guard")
    check.add_argument("--verbose", "-v", action="store_true", help="log progress to stderr")
    _add_sweep_parsers(sub)
    return p


#: The largest grid ``sweep`` accepts (rows).
MAX_SWEEP_ROWS = 10000


class UsageError(SageAttentionError):
    r"""
    A command-line argument is malformed (exit status 2).

    EXAMPLES::

        sage: from sage_attention.app.cli import UsageError
        sage: str(UsageError("--width (='a..b'): ..."))
        "--width (='a..b'): ..."
    """


def _int_list(text, option="--width", minimum=1):
    r"""
    Return the integers of ``'3,5..7'`` as a list: ``[3, 5, 6, 7]``.

    INPUT:

    - ``text`` -- string; comma-separated integers and ranges ``lo..hi``
    - ``option`` -- (default: ``'--width'``) the option, for messages
    - ``minimum`` -- (default: `1`) the smallest allowed integer

    EXAMPLES::

        sage: from sage_attention.app.cli import _int_list
        sage: _int_list('3,5..7')
        [3, 5, 6, 7]

    TESTS::

        sage: _int_list('a..b')
        Traceback (most recent call last):
        ...
        UsageError: --width (='a..b'): `a` is not an integer; write e.g. 3,5..7
        sage: _int_list('3..2')
        Traceback (most recent call last):
        ...
        UsageError: --width (='3..2'): the range 3..2 is empty; write lo..hi with lo <= hi, e.g. 2..3
    """
    def integer(word):
        word = word.strip()
        if not word.lstrip("+-").isdigit() or len(word) > 18:
            raise UsageError(f"{option} (={text!r}): `{word}` is not an integer"
                             f"{'' if len(word) <= 18 else ' of at most 18 digits'}; "
                             "write e.g. 3,5..7")
        value = int(word)
        if value < minimum:
            raise UsageError(f"{option} (={text!r}): {value} must be at least {minimum}")
        return value

    out = []
    for part in text.split(","):
        if ".." in part:
            lo, _, hi = part.partition("..")
            lo, hi = integer(lo), integer(hi)
            if lo > hi:
                raise UsageError(f"{option} (={text!r}): the range {lo}..{hi} is empty; write "
                                 f"lo..hi with lo <= hi, e.g. {hi}..{lo}")
            if hi - lo >= MAX_SWEEP_ROWS:
                raise UsageError(f"{option} (={text!r}): the range {lo}..{hi} has more than "
                                 f"{MAX_SWEEP_ROWS} values")
            out += list(range(lo, hi + 1))
        elif part.strip():
            out.append(integer(part))
    if not out:
        raise UsageError(f"{option} (={text!r}) lists no value; write e.g. 3,5..7")
    return out


def _add_sweep_parsers(sub):
    sw = sub.add_parser("sweep", help="dimension table over a grid of architectures",
                        epilog=_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    sw.add_argument("--layers", default="2", help="numbers of layers, e.g. 1,2 (default: 2)")
    sw.add_argument("--width", default="3", help="widths (all layers equal), e.g. 3..10")
    sw.add_argument("--rank", default="2", help="attention ranks, e.g. 1..2")
    sw.add_argument("--tokens", default="3", help="numbers of tokens (default: 3)")
    sw.add_argument("--normalization", default="lightning",
                    help="lightning, softmax or lightning,softmax")
    sw.add_argument("--arch", action="append", default=[],
                    help="an explicit architecture 'widths:ranks', e.g. 3,4,5:2,3 (repeatable; "
                         "replaces the grid)")
    sw.add_argument("--seed", type=int, default=0)
    sw.add_argument("--jobs", "-j", type=int, default=1,
                    help="worker processes (default: 1; they stop with the run: Ctrl-C or "
                         "the end of this process ends them)")
    sw.add_argument("--json", action="store_true", help="print the rows as JSON")
    sw.add_argument("--csv", action="store_true", help="print the table as CSV")
    sw.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    df = sub.add_parser("defectivity", help="the defectivity table of summed heads: the "
                        "dimension of H = 1, 2, ... heads against the join bound, up to "
                        "saturation", epilog=_epilog(),
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    df.add_argument("--width", default="2..5", help="input widths d (default: 2..5)")
    df.add_argument("--out", default="1..3", help="output widths d' (default: 1..3)")
    df.add_argument("--tokens", default="1..3", help="numbers of tokens t (default: 1..3)")
    df.add_argument("--rank", default=None, help="attention ranks a (default: every a <= d)")
    df.add_argument("--heads", default=None,
                    help="the largest number of heads (default: up to saturation)")
    df.add_argument("--seed", type=int, default=0)
    df.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (default: 1)")
    df.add_argument("--json", action="store_true", help="print the rows as JSON")
    df.add_argument("--csv", action="store_true", help="print the table as CSV")
    df.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    fg = sub.add_parser("figures", help="the [HMK2024] experiment tables and plots, and the "
                                        "neuromanifold slice plot (needs matplotlib)")
    fg.add_argument("--outdir", default="figures",
                    help="the folder to write into (default: ./figures; created if its parent "
                         "exists)")
    fg.add_argument("--seed", type=int, default=0)
    fg.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")


def _check_outdir(path):
    r"""
    Make sure ``path`` is a writable folder (created if its parent exists).

    EXAMPLES::

        sage: from sage_attention.app.cli import _check_outdir
        sage: _check_outdir("/proc/version")
        Traceback (most recent call last):
        ...
        UsageError: --outdir (=/proc/version) is not a folder; give a folder, e.g. --outdir figures
    """
    if os.path.exists(path) and not os.path.isdir(path):
        raise UsageError(f"--outdir (={path}) is not a folder; give a folder, "
                         "e.g. --outdir figures")
    if not os.path.exists(path):
        parent = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(parent):
            raise UsageError(f"--outdir (={path}): its parent folder {parent} does not exist; "
                             "create it first or choose another folder")
        try:
            os.mkdir(path)
        except OSError as e:
            raise UsageError(f"--outdir (={path}) cannot be created: {e.strerror}; "
                             "choose a writable folder") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise UsageError(f"--outdir (={path}) is not writable; choose a writable folder")


def _worker_init():
    """Run in each sweep worker: ignore Ctrl-C (the parent stops the pool)
    and die with the parent (Linux ``PR_SET_PDEATHSIG``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        import ctypes
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass
    if os.getppid() == 1:  # the parent died before prctl
        os._exit(1)


def _stop_pool(executor):
    """Cancel what has not started and kill the workers."""
    processes = list(getattr(executor, "_processes", {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        try:
            proc.kill()
        except Exception:  # pragma: no cover
            pass
    for proc in processes:
        proc.join(5)


def _sweep_grid(args):
    from sage_attention.app import experiments
    norms = [n.strip() for n in args.normalization.split(",")]
    for n in norms:
        if n not in ("lightning", "softmax"):
            raise UsageError(f"--normalization (={args.normalization!r}): `{n}` must be "
                             "lightning or softmax")
    if args.jobs < 1:
        raise UsageError(f"--jobs (={args.jobs}) must be at least 1")
    if args.arch:
        grid = []
        for a in args.arch:
            widths, sep, ranks = a.partition(":")
            if not sep:
                raise UsageError(f"--arch (={a!r}) must be 'widths:ranks', e.g. 3,4,5:2,3")
            widths = _int_list(widths, "--arch widths")
            ranks = _int_list(ranks, "--arch ranks")
            if len(ranks) != len(widths) - 1:
                raise UsageError(f"--arch (={a!r}) needs one rank per layer: "
                                 f"{len(widths) - 1} layers, {len(ranks)} ranks")
            for t in _int_list(args.tokens, "--tokens"):
                for norm in norms:
                    grid.append({"widths": widths, "ranks": ranks, "tokens": t,
                                 "normalization": norm})
    else:
        layers, widths = _int_list(args.layers, "--layers"), _int_list(args.width, "--width")
        ranks, tokens = _int_list(args.rank, "--rank"), _int_list(args.tokens, "--tokens")
        n = len(layers) * len(widths) * len(ranks) * len(tokens) * len(norms)
        if n > MAX_SWEEP_ROWS:
            raise UsageError(f"the grid has {n} architectures, more than {MAX_SWEEP_ROWS}; "
                             "narrow --width, --rank, --tokens or --layers")
        grid = experiments.architecture_grid(layers=layers, widths=widths, ranks=ranks,
                                             tokens=tokens, normalization=norms)
    if len(grid) > MAX_SWEEP_ROWS:
        raise UsageError(f"the grid has {len(grid)} architectures, more than {MAX_SWEEP_ROWS}")
    return grid


def _run_sweep_command(args, out, err):
    r"""
    Run ``sage-attention sweep`` or ``sage-attention figures``.

    Ctrl-C prints the rows that finished (and stops the worker pool).

    EXAMPLES::

        sage: from sage_attention.app.cli import main
        sage: main(["sweep", "--layers", "1", "--width", "2..3", "--rank", "1", "-q"])
        | widths | ranks | t | normalization | dimension | expected | agrees | parameters | fiber | inputs | gap |
        |---|---|---|---|---|---|---|---|---|---|---|
        | 2,2 | 1 | 3 | lightning | 6 | 6 | yes | 8 | 2 | ... | exact |
        | 3,3 | 1 | 3 | lightning | 13 | 13 | yes | 15 | 2 | ... | exact |
        0
        sage: main(["sweep", "--arch", "3,3,3:1,2", "--json", "-q"])
        [{"widths": [3, 3, 3], "ranks": [1, 2], "tokens": 3, "normalization": "lightning", "dimension": 18, ...}]
        0
    """
    from sage_attention.app import experiments
    finished = []

    def progress(done, total, row):
        finished.append(row)
        if not args.quiet:
            print(f"[{done}/{total}] widths {row['widths']} ranks {row['ranks']} "
                  f"t={row['tokens']} {row['normalization']}: dimension {row['dimension']} "
                  f"(expected {row['expected']}) {row['seconds']:.2f}s", file=err, flush=True)

    def show(rows):
        if args.json:
            print(json.dumps(rows), file=out)
        else:
            print(experiments.format_table(rows, "csv" if args.csv else "markdown"), file=out)
        out.flush()

    if args.command == "defectivity":
        return _run_defectivity(args, out, err)
    if args.command == "figures":
        _check_outdir(args.outdir)
        from sage_attention.app.figures import make_figures
        for path in make_figures(args.outdir, seed=args.seed, progress=progress):
            print(path, file=out)
        return 0
    grid = _sweep_grid(args)
    # The rows are computed in worker processes (one with -j 1) that ignore
    # Ctrl-C, so this process, which only waits, always sees it (inside
    # linbox a KeyboardInterrupt can be lost) and stops them.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    try:
        ex = ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("fork"),
                                 initializer=_worker_init)
        try:
            rows = experiments.sweep(grid, executor=ex, progress=progress, seed=args.seed)
        finally:
            _stop_pool(ex)
    except KeyboardInterrupt:
        print(f"interrupted: {len(finished)} of {len(grid)} rows finished", file=err)
        if finished:
            show(finished)
        raise
    show(rows)
    return 0


def _run_defectivity(args, out, err):
    r"""
    Run ``sage-attention defectivity``: the rows of
    :func:`~sage_attention.app.experiments.defectivity_table`.

    EXAMPLES::

        sage: from sage_attention.app.cli import main
        sage: main(["defectivity", "--width", "3", "--out", "1", "--tokens", "2", "--rank", "3", "-q"])
        | d | d' | t | a | H | dimension | one head | span | join bound | defect | parameters | fiber | seconds |
        |---|---|---|---|---|---|---|---|---|---|---|---|---|
        | 3 | 1 | 2 | 3 | 1 | 11 | 11 | 18 | 11 | 0 | 21 | 10 | ... |
        | 3 | 1 | 2 | 3 | 2 | 17 | 11 | 18 | 18 | 1 | 42 | 25 | ... |
        | 3 | 1 | 2 | 3 | 3 | 18 | 11 | 18 | 18 | 0 | 63 | 45 | ... |
        0
        sage: main(["defectivity", "--width", "2", "--heads", "0", "-q"])
        error: --heads (='0'): 0 must be at least 1
        2
    """
    from sage_attention.app import experiments
    if args.jobs < 1:
        raise UsageError(f"--jobs (={args.jobs}) must be at least 1")
    widths = _int_list(args.width, "--width")
    outs = _int_list(args.out, "--out")
    tokens = _int_list(args.tokens, "--tokens")
    ranks = None if args.rank is None else _int_list(args.rank, "--rank")
    max_heads = None if args.heads is None else max(_int_list(args.heads, "--heads"))
    n = len(widths) * len(outs) * len(tokens) * (len(ranks) if ranks else max(widths))
    if n > MAX_SWEEP_ROWS:
        raise UsageError(f"the grid has {n} architectures, more than {MAX_SWEEP_ROWS}; "
                         "narrow --width, --out, --tokens or --rank")
    finished = []

    def progress(done, total, rows):
        finished.extend(rows)
        if not args.quiet:
            r = rows[0]
            print(f"[{done}/{total}] d={r['d']} d'={r['out']} t={r['tokens']} a={r['rank']}: "
                  f"dimensions {[x['dimension'] for x in rows]}, defects "
                  f"{[x['defect'] for x in rows]}", file=err, flush=True)

    def show(rows):
        if args.json:
            print(json.dumps(rows), file=out)
        else:
            print(experiments.format_defectivity(rows, "csv" if args.csv else "markdown"),
                  file=out)
        out.flush()

    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    try:
        ex = ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("fork"),
                                 initializer=_worker_init)
        try:
            rows = experiments.defectivity_table(widths, outs, tokens, ranks, executor=ex,
                                                 progress=progress, seed=args.seed,
                                                 max_heads=max_heads)
        finally:
            _stop_pool(ex)
    except KeyboardInterrupt:
        print(f"interrupted: {len(finished)} rows finished", file=err)
        if finished:
            show(finished)
        raise
    show(rows)
    return 0


#: The largest spec file read (bytes); a larger one is refused before reading.
MAX_SPEC_BYTES = 1 << 20


def _load(path, force, err):
    from sage_attention.dsl import parse_spec_file, validate
    spec = parse_spec_file(path, max_bytes=MAX_SPEC_BYTES)
    notes = validate(spec, force=force)
    for note in notes:
        print(note, file=err)
    return spec


def _nothing_to_run(spec, path):
    """The message for a spec without models or computations (or ``None``)."""
    if not spec.models:
        return (f"{path}: the spec is empty: no `model` and no `compute` block\n"
                "fix: describe a model and what to compute, e.g.\n"
                "    model m { input = 3; tokens = 2; layer attention(rank = 1, out = 1) }\n"
                "    compute m { dimension }")
    if not spec.computations:
        n = len(spec.models)
        return (f"{path}: nothing to run: {n} model{'s' * (n != 1)} but no `compute` block\n"
                f"fix: add e.g. `compute {spec.models[0].name} {{ dimension }}`")
    return None


def main(argv=None):
    r"""
    Run the command line ``sage-attention`` with the arguments ``argv``.

    INPUT:

    - ``argv`` -- (default: ``sys.argv[1:]``) list of strings

    OUTPUT: the exit status (:data:`EXIT_STATUS`: ``0``, ``1``, ``2`` or
    ``130``)

    EXAMPLES::

        sage: from sage_attention.app.cli import main
        sage: import os, tempfile
        sage: d = tempfile.mkdtemp()
        sage: bad = os.path.join(d, "bad.att")
        sage: _ = open(bad, "w").write("model m {\n  input = 3 tokens = 2\n}\n")
        sage: import sys; sys.stderr = sys.stdout
        sage: main(["check", bad])
        .../bad.att:2:13: Missing separator: `tokens` must start a new statement
            input = 3 tokens = 2
                      ^
        expected: a newline or `;`, or `}`
        fix: put a newline or `;` before `tokens`
        2

    A spec with nothing to run says so::

        sage: empty = os.path.join(d, "empty.att")
        sage: _ = open(empty, "w").write("// only a comment\n")
        sage: main(["run", empty])
        .../empty.att: the spec is empty: no `model` and no `compute` block
        fix: ...
        2
        sage: sys.stderr = sys.__stderr__
    """
    args = _parser().parse_args(argv)
    out, err = sys.stdout, sys.stderr
    if getattr(args, "verbose", False):
        handler = logging.StreamHandler(err)
        handler.setFormatter(logging.Formatter("[%(asctime)s] %(message)s", "%H:%M:%S"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    if args.command in ("sweep", "figures", "defectivity"):
        try:
            return _run_sweep_command(args, out, err)
        except SageAttentionError as e:
            print(f"error: {e}", file=err)
            return 2
        except KeyboardInterrupt:
            print("interrupted", file=err)
            return 130
    try:
        spec = _load(args.spec, args.force, err)
    except SageAttentionError as e:
        print(str(e), file=err)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=err)
        return 130
    nothing = _nothing_to_run(spec, args.spec)
    if args.command == "check":
        if not spec.models:
            print(nothing, file=err)
            return 2
        n, c = len(spec.models), len(spec.computations)
        print(f"{args.spec}: ok: {n} model{'s' * (n != 1)}, "
              f"{c} computation{'s' * (c != 1)}", file=err)
        if nothing:
            print(f"note: {nothing.split(': ', 1)[1]}", file=err)
        return 0
    if nothing:
        print(nothing, file=err)
        return 2
    # No SIGINT handler of our own: it would replace the one of cysignals,
    # and Ctrl-C would no longer stop Singular or linbox mid-computation.
    try:
        results = run_spec(spec, as_json=args.json, seed=args.seed, out=out)
    except KeyboardInterrupt:
        print("interrupted: the reports above are what finished", file=err)
        return 130
    failed = [(r["model"], c["computation"]) for r in results for c in r["computations"]
              if "error" in c]
    if failed:
        print(f"{len(failed)} computation{'s' * (len(failed) != 1)} failed: "
              + ", ".join(f"`{c}` on `{m}`" for m, c in failed), file=err)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
