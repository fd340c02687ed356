r"""
The command line: ``sage-attention``

Run the computations of a spec file::

    sage-attention run examples/slice.att            # readable report per model
    sage-attention run examples/slice.att --json     # one JSON object per model
    sage-attention check examples/slice.att          # parse and validate only
    sage-attention sweep --width 3..6 --rank 1..2 -j 2   # dimension table over a grid
    sage-attention figures --outdir doc/figures      # [HMK2024] experiment + slice plot

Exit status: 0 on success, 2 on an error in the spec (message on stderr, no
traceback), 1 when a computation fails, 130 when interrupted (Ctrl-C; what
finished is printed).

Computations are pluggable: :data:`COMPUTATIONS` maps the name of a
``compute`` statement to a runner ``(model, computation, options) -> dict``
(JSON-able; an optional ``"text"`` entry is the readable report). Modules
add theirs with :func:`register`.

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
import json
import logging
import sys

from sage_attention.errors import ComputationTooLarge, SageAttentionError

logger = logging.getLogger("sage_attention")


def run_dimension(model, computation, options):
    r"""
    Run ``dimension``: the dimension of the neurovariety (Jacobian rank).

    INPUT:

    - ``model`` -- the Sage model
    - ``computation`` -- the :class:`~sage_attention.dsl.spec.Computation`
    - ``options`` -- dictionary; ``seed`` (default: ``None``)

    OUTPUT: a dictionary (the report's ``to_dict()`` and its ``text``)

    EXAMPLES::

        sage: from sage_attention.app.cli import run_dimension
        sage: from sage_attention.dsl.spec import ModelSpec, Layer, Computation
        sage: M = ModelSpec("m", input=2, tokens=2, layers=(Layer(1, 1),)).build()
        sage: r = run_dimension(M, Computation("m", "dimension"), {"seed": 0})
        sage: r["dimension"], r["expected_dimension"]
        (4, 4)
    """
    report = model.dimension(seed=options.get("seed"))
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


def _families_of(model, options):
    from sage_attention.invariants import FAMILIES, invariants
    chosen = options.get("families") or (("all", ()),)
    out = []
    for name, opts in chosen:
        if name == "all":
            out.append(invariants(model))
        else:
            out.append(FAMILIES[name](model, **dict(opts)))
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
        sage: M = LightningAttention(d=3, t=2, a=1, weights='AV')
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
    what = options.get("what", "invariants")
    if what != "invariants":
        raise ValueError(f"`check {what}` is not known; use `check invariants`")
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
    (degree by degree up to ``N``, default 4); without one, elimination for
    small models and interpolation otherwise.

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
    res = X.vanishing_ideal_result(algorithm=algorithm, degree=degree,
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


#: Runners of the computation statements, by name.
COMPUTATIONS = {
    "dimension": run_dimension,
    "fibers": run_fibers,
    "invariants": run_invariants,
    "check": run_check,
    "vanishing_ideal": run_vanishing_ideal,
    "certify": run_certify,
}


def register(name, runner, options=()):
    r"""
    Make the computation ``name`` available to ``sage-attention run``.

    INPUT:

    - ``name`` -- string; the statement name
    - ``runner`` -- function ``(model, computation, options) -> dict``
    - ``options`` -- (default: ``()``) option names the statement accepts,
      added to :data:`sage_attention.dsl.spec.COMPUTATION_OPTIONS`

    EXAMPLES::

        sage: from sage_attention.app.cli import register, COMPUTATIONS
        sage: register("fibers", COMPUTATIONS["fibers"])
        sage: 'fibers' in COMPUTATIONS
        True
    """
    from sage_attention.dsl.spec import COMPUTATION_OPTIONS
    COMPUTATIONS[name] = runner
    COMPUTATION_OPTIONS.setdefault(name, set()).update(options)


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
    exact = len(spec_model.layers) == 1
    return {
        "model": spec_model.name,
        "architecture": repr(model),
        "field": str(spec_model.field),
        "widths": list(spec_model.widths),
        "ranks": list(spec_model.ranks),
        "tokens": spec_model.tokens,
        "normalization": list(spec_model.normalizations),
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
    bound = "" if result["coordinates_exact"] else " (upper bound)"
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


def run_spec(spec, as_json=False, seed=None, out=None):
    r"""
    Run every computation of a validated spec and print a report per model.

    INPUT:

    - ``spec`` -- a validated :class:`~sage_attention.dsl.spec.Spec`
    - ``as_json`` -- boolean (default: ``False``); one JSON object per line
    - ``seed`` -- (default: ``None``) the seed of computations without one
    - ``out`` -- (default: ``sys.stdout``) where to print

    OUTPUT: the list of result dictionaries, one per model with
    computations

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.app.cli import run_spec
        sage: s = parse_spec("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
        ....:                "compute m { dimension }")
        sage: _ = run_spec(s, seed=0)
        == model m: LightningAttention(d=2, d'=1, t=2, a=1) over Rational Field
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
        model = spec_model.build()
        result = _model_header(spec_model, model)
        try:
            for comp in comps:
                options = dict(comp.options)
                if comp.name == "check" and "families" not in options:
                    listed = tuple(f for c in comps if c.name == "invariants"
                                   for f in dict(c.options).get("families", ()))
                    if listed:
                        options["families"] = listed
                if seed is not None:
                    options.setdefault("seed", seed)
                logger.info("model %s: running %s", spec_model.name, comp.to_dsl())
                try:
                    value = COMPUTATIONS[comp.name](model, comp, options)
                except (KeyboardInterrupt, SageAttentionError):
                    raise
                except Exception as e:
                    raise ComputationFailed(
                        f"`{comp.to_dsl()}` on model `{spec_model.name}` failed: "
                        f"{type(e).__name__}: {e}") from e
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


def _parser():
    p = argparse.ArgumentParser(
        prog="sage-attention",
        description="Algebraic geometry of attention networks: run a spec file.")
    sub = p.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="parse, validate and run the computations of a spec")
    run.add_argument("spec", help="the spec file (.att)")
    run.add_argument("--json", action="store_true", help="print one JSON object per model")
    run.add_argument("--force", action="store_true", help="skip the size guard")
    run.add_argument("--seed", type=int, default=None,
                     help="seed for computations that do not set one")
    run.add_argument("--verbose", "-v", action="store_true", help="log progress to stderr")
    check = sub.add_parser("check", help="parse and validate a spec only")
    check.add_argument("spec", help="the spec file (.att)")
    check.add_argument("--force", action="store_true", help="skip the size guard")
    check.add_argument("--verbose", "-v", action="store_true", help="log progress to stderr")
    _add_sweep_parsers(sub)
    return p


def _int_list(text):
    r"""
    Return the integers of ``'3,5..7'`` as a list: ``[3, 5, 6, 7]``.

    EXAMPLES::

        sage: from sage_attention.app.cli import _int_list
        sage: _int_list('3,5..7')
        [3, 5, 6, 7]
    """
    out = []
    for part in text.split(","):
        if ".." in part:
            lo, hi = part.split("..")
            out += list(range(int(lo), int(hi) + 1))
        elif part.strip():
            out.append(int(part))
    return out


def _add_sweep_parsers(sub):
    sw = sub.add_parser("sweep", help="dimension table over a grid of architectures")
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
                    help="worker processes (a concurrent.futures.ProcessPoolExecutor)")
    sw.add_argument("--json", action="store_true", help="print the rows as JSON")
    sw.add_argument("--csv", action="store_true", help="print the table as CSV")
    sw.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    fg = sub.add_parser("figures", help="the [HMK2024] experiment tables and plots, and the "
                                        "neuromanifold slice plot (needs matplotlib)")
    fg.add_argument("--outdir", default="doc/figures")
    fg.add_argument("--seed", type=int, default=0)
    fg.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")


def _run_sweep_command(args, out, err):
    r"""
    Run ``sage-attention sweep`` or ``sage-attention figures``.

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

    def progress(done, total, row):
        if not args.quiet:
            print(f"[{done}/{total}] widths {row['widths']} ranks {row['ranks']} "
                  f"t={row['tokens']} {row['normalization']}: dimension {row['dimension']} "
                  f"(expected {row['expected']}) {row['seconds']:.2f}s", file=err, flush=True)

    if args.command == "figures":
        from sage_attention.app.figures import make_figures
        for path in make_figures(args.outdir, seed=args.seed, progress=progress):
            print(path, file=out)
        return 0
    if args.arch:
        grid = []
        for a in args.arch:
            widths, _, ranks = a.partition(":")
            for t in _int_list(args.tokens):
                for norm in args.normalization.split(","):
                    grid.append({"widths": _int_list(widths), "ranks": _int_list(ranks),
                                 "tokens": t, "normalization": norm.strip()})
    else:
        grid = experiments.architecture_grid(
            layers=_int_list(args.layers), widths=_int_list(args.width),
            ranks=_int_list(args.rank), tokens=_int_list(args.tokens),
            normalization=[n.strip() for n in args.normalization.split(",")])
    if args.jobs > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(args.jobs,
                                 mp_context=multiprocessing.get_context("fork")) as ex:
            rows = experiments.sweep(grid, executor=ex, progress=progress, seed=args.seed)
    else:
        rows = experiments.sweep(grid, progress=progress, seed=args.seed)
    if args.json:
        print(json.dumps(rows), file=out)
    else:
        print(experiments.format_table(rows, "csv" if args.csv else "markdown"), file=out)
    return 0


def _load(path, force, err):
    from sage_attention.dsl import parse_spec_file, validate
    spec = parse_spec_file(path)
    notes = validate(spec, force=force, available=set(COMPUTATIONS))
    for note in notes:
        print(note, file=err)
    return spec


def main(argv=None):
    r"""
    Run the command line ``sage-attention`` with the arguments ``argv``.

    INPUT:

    - ``argv`` -- (default: ``sys.argv[1:]``) list of strings

    OUTPUT: the exit status (``0``, ``1``, ``2`` or ``130``)

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
        sage: sys.stderr = sys.__stderr__
    """
    args = _parser().parse_args(argv)
    out, err = sys.stdout, sys.stderr
    if getattr(args, "verbose", False):
        handler = logging.StreamHandler(err)
        handler.setFormatter(logging.Formatter("[%(asctime)s] %(message)s", "%H:%M:%S"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    if args.command in ("sweep", "figures"):
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
    if args.command == "check":
        n, c = len(spec.models), len(spec.computations)
        print(f"{args.spec}: ok: {n} model{'s' * (n != 1)}, "
              f"{c} computation{'s' * (c != 1)}", file=err)
        return 0
    try:
        run_spec(spec, as_json=args.json, seed=args.seed, out=out)
    except KeyboardInterrupt:
        print("interrupted: the reports above are what finished", file=err)
        return 130
    except SageAttentionError as e:
        print(f"error: {e}", file=err)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
