r"""
The report of a run: text or JSON per model, failures in place

:func:`run_spec` runs every computation of a validated spec, model by model,
and prints a report per model: a readable text (a header with the model's
size, printed before the computations start, then the ``text`` of each
computation as soon as it finished) or, with ``as_json``, one JSON object
per line, a ``"model"`` record (:mod:`sage_attention.app.jsonout`) printed
when the model's computations finished. A computation that fails is
reported in place (its entry has an ``"error"`` and its text says FAILED)
and the run goes on; Ctrl-C prints what finished of the current model.

EXAMPLES::

    sage: from sage_attention.dsl import parse_spec
    sage: from sage_attention.app.reporting import run_spec
    sage: s = parse_spec("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
    ....:                "compute m { fibers seed = 0 }")
    sage: r = run_spec(s, as_json=True)
    {"format": 1, "record": "model", "model": "m", ..., "computations": [{"computation": "fibers", ...}]}
    sage: r[0]["computations"][0]["computation"]
    'fibers'
"""
import contextlib
import logging
import sys

from sage_attention.misc.errors import SageAttentionError
from sage_attention.misc.interrupts import deferred_interrupts, interrupt_of
from sage_attention.catalog.computations import COMPUTATIONS as TABLE
from sage_attention.app.runners import runner
from sage_attention.app.jsonout import emit, record
from sage_attention.app.messages import command_line_advice

logger = logging.getLogger("sage_attention")


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


def _outputs(spec_model, model):
    # the number of output entries the model keeps
    if model is not None and hasattr(model, "output_entries"):
        return len(model.output_entries())
    if spec_model.entries is not None:
        return len(spec_model.entries)
    return spec_model.widths[-1] * (spec_model.tokens or 1)


def _model_header(spec_model, model):
    est = spec_model.size_estimate()
    layers = spec_model.layers
    attention = [layer for layer in layers if layer.kind == "attention"]
    softmax = any(layer.normalization.value == "softmax" for layer in attention)
    if softmax:
        # softmax is not polynomial: no coefficient coordinates to count
        coordinates = essential = exact = None
    else:
        coordinates, essential = est.coordinates, est.essential_coordinates
        # the counts are exact for one plain layer and for dense layers only (all
        # monomials of the output's degree occur); a mask, a residual stream or a
        # stack with attention changes which monomials occur: then they are estimates
        exact = ((len(layers) == 1 and spec_model.is_plain())
                 or not attention)
    return {
        "model": spec_model.name,
        "architecture": repr(model) if model is not None else "(not built)",
        "field": str(spec_model.field),
        "widths": list(spec_model.widths),
        "ranks": list(spec_model.ranks),
        "tokens": spec_model.tokens,
        # one entry per layer, null for a dense layer (as ranks, heads and mask)
        "normalization": [layer.normalization.value if layer.kind == "attention" else None
                          for layer in layers],
        "heads": list(spec_model.heads),
        "mask": [getattr(layer, "mask", None) for layer in spec_model.layers],
        "residual": [layer.residual for layer in spec_model.layers],
        "layers": [layer.to_dsl() for layer in spec_model.layers],
        # the weight space of the attention layers: none without them
        "weights": spec_model.weights if attention else None,
        "coordinates": coordinates,
        "coordinates_exact": exact,
        "essential_coordinates": essential,
        "outputs": _outputs(spec_model, model),
        "parameters": est.parameters,
        "dimension": None,
        "expected_dimension": None,
        "computations": [],
    }


def _print_text(result, out):
    _print_header(result, out)
    for comp in result["computations"]:
        _print_computation(comp, out)
    _print_dimension(result, out)


def _print_header(result, out):
    print(f"== model {result['model']}: {result['architecture']}", file=out)
    if result["coordinates"] is None:
        print(f"   outputs: {result['outputs']} (softmax is not polynomial: no coordinates), "
              f"parameters: {result['parameters']}", file=out)
    else:
        bound = "" if result["coordinates_exact"] else " (estimate)"
        print(f"   coordinates: {result['coordinates']}{bound}, essential coordinates: "
              f"{result['essential_coordinates']}{bound}, parameters: {result['parameters']}", file=out)


def _print_computation(comp, out):
    text = comp.get("text")
    if text is None:
        text = ", ".join(f"{k} = {v}" for k, v in comp.items()
                         if k not in ("computation", "options"))
    what = (comp.get("options") or {}).get("what") if comp["computation"] == "check" else None
    print(f"-- {comp['computation']}{' ' + what if what else ''}:", file=out)
    for line in str(text).splitlines():
        print(f"   {line}", file=out)


def _print_dimension(result, out):
    if result["dimension"] is not None:
        exp = result["expected_dimension"]
        if exp is None:
            print(f"   dimension computed {result['dimension']} (no published formula to compare with)",
                  file=out)
        else:
            verdict = "agrees" if exp == result["dimension"] else "DIFFERS"
            print(f"   dimension computed {result['dimension']}, expected {exp} ({verdict})", file=out)


def _emit(result, as_json, out):
    if as_json:
        emit(out, record("model", _jsonable(result)))
    else:
        _print_text(result, out)
        out.flush()


def _error_entry(comp, error, command_line=False):
    message = str(error) if isinstance(error, SageAttentionError) else \
        f"{type(error).__name__}: {error}"
    if command_line:
        # the advice names the command's `--force`, and `up to degree N` when the
        # statement has no degree to lower
        message = command_line_advice(
            error if isinstance(error, SageAttentionError) else message, force=True,
            degree_clause=(False if comp.name == "vanishing_ideal"
                           and "degree" not in dict(comp.options) else None))
    return {"computation": comp.name, "options": dict(comp.options),
            "error": message, "error_type": type(error).__name__,
            "text": f"FAILED: `{comp.to_dsl()}`: {message}"}


def run_spec(spec, as_json=False, seed=None, out=None, force=False, progress=False,
             command_line=False):
    r"""
    Run every computation of a validated spec and print a report per model.

    A computation that fails is reported in place (its entry has an
    ``"error"`` and the text says FAILED) and the run goes on with the next
    computation and model. Ctrl-C stops the run: the finished part of the
    current model is printed, with what finished of the interrupted
    computation (:func:`interrupted_entry`; a second Ctrl-C meanwhile is
    dropped), and the ``KeyboardInterrupt`` propagates (the convention:
    ``doc/implicitization.rst``, "Interrupting a computation").

    INPUT:

    - ``spec`` -- a validated :class:`~sage_attention.dsl.spec.Spec`
    - ``as_json`` -- boolean (default: ``False``); one JSON object per line
    - ``seed`` -- (default: ``None``) the seed of computations without one
    - ``out`` -- (default: ``sys.stdout``) where to print
    - ``force`` -- boolean (default: ``False``); the command line's
      ``--force``: every runner gets ``options['force']`` and skips the
      size and memory guards
    - ``progress`` -- boolean (default: ``False``); the runners show the
      progress of long steps on standard error (the runner's options get
      ``progress``; it is a setting of the run, not an option of the spec)
    - ``command_line`` -- boolean (default: ``False``); the run is that of
      ``sage-attention run``: the advice of a refusal names the command
      line's ``--force`` rather than ``force=True``
      (:func:`~sage_attention.app.messages.command_line_advice`)

    OUTPUT: the list of result dictionaries, one per model with
    computations; a result with a failure has ``"failed": True``

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.app.reporting import run_spec
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
            result["computations"] = [_error_entry(c, e, command_line) for c in comps]
            _emit(result, as_json, out)
            results.append(result)
            continue
        result = _model_header(spec_model, model)
        if not as_json:
            # text: the header now and each computation's report as it finishes (a
            # slow computation does not hold back those before it); JSON: one record
            # per model when its computations finished (doc/json.rst)
            _print_header(result, out)
            out.flush()
        pending = None      # the entry of a computation that Ctrl-C stopped
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
                options["force"] = bool(force)
                options["progress"] = bool(progress)
                logger.info("model %s: running %s", spec_model.name, comp.to_dsl())
                try:
                    value = runner(comp.name, spec_model)(model, comp, options)
                except KeyboardInterrupt as e:
                    # what finished of this computation, printed below (no recount, no new work);
                    # a second Ctrl-C while it is read (e.partial may be built now) waits for it
                    with deferred_interrupts():
                        pending = interrupted_entry(comp, e)
                        result["computations"].append(pending)
                    raise
                except Exception as e:
                    logger.info("model %s: %s failed", spec_model.name, comp.name)
                    result["failed"] = True
                    result["computations"].append(_error_entry(comp, e, command_line))
                    if not as_json:
                        _print_computation(result["computations"][-1], out)
                        out.flush()
                    continue
                entry = {"computation": comp.name, "options": dict(comp.options)}
                entry.update(value)
                result["computations"].append(entry)
                if not as_json:
                    _print_computation(entry, out)
                    out.flush()
                if value.get("interrupted"):
                    # Ctrl-C inside the computation, which returned what it finished:
                    # the run stops here, as after an interrupt anywhere else
                    raise KeyboardInterrupt
                if comp.name == "dimension":
                    result["dimension"] = value.get("dimension")
                    result["expected_dimension"] = value.get("expected_dimension",
                                                             value.get("expected"))
                logger.info("model %s: %s done", spec_model.name, comp.name)
        except BaseException as e:
            interrupt = isinstance(e, KeyboardInterrupt)
            # after Ctrl-C a second one does not cut what finished short
            with deferred_interrupts() if interrupt else contextlib.nullcontext():
                if result["computations"]:
                    result["interrupted"] = True
                    if as_json:
                        _emit(result, as_json, out)
                    else:       # the computations are printed, but the interrupted one: it, the dimension
                        if pending is not None:
                            _print_computation(pending, out)
                        _print_dimension(result, out)
                        out.flush()
            raise
        if as_json:
            _emit(result, as_json, out)
        else:
            _print_dimension(result, out)
            out.flush()
        results.append(result)
    return results


def interrupted_entry(comp, error):
    r"""
    Return the entry of a computation that Ctrl-C stopped: what finished of it, cheap to make.

    Its keys are those of the statement's runner that the interrupt knows
    (:class:`~sage_attention.misc.interrupts.ComputationInterrupted`: its
    ``summary``), ``"interrupted": true``, ``"phase"`` and ``"finished"``
    (a sentence); its ``text`` says what finished. The counts of an
    interrupted interpolation are the engine's, certified modulo `p` (they
    are not recounted over `\QQ` after Ctrl-C), and are said to be.

    INPUT:

    - ``comp`` -- the statement (:class:`~sage_attention.dsl.spec.Computation`)
    - ``error`` -- the ``KeyboardInterrupt`` caught

    OUTPUT: a dictionary

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.app.reporting import interrupted_entry
        sage: from sage_attention.misc.interrupts import ComputationInterrupted
        sage: s = parse_spec("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
        ....:                "compute m { vanishing_ideal up to degree 5 }")
        sage: e = ComputationInterrupted("interpolation", None, "degrees 1..4 finished", "",
        ....:     {"complete_through_degree": 4, "generators_by_degree": {3: 65, 4: 1347},
        ....:      "linear_relations": 2, "prime": 8388593})
        sage: r = interrupted_entry(s.computations[0], e)
        sage: r["generators_by_degree"], r["complete_through_degree"], r["minimal_count"]
        ({1: 2, 3: 65, 4: 1347}, 4, 'modulo p')
        sage: print(r["text"])
        interrupted during the interpolation: degrees 1..4 finished
        minimal generators through degree 4 (the engine's counts, certified modulo 8388593, not recounted over QQ after Ctrl-C): 2 of degree 1, 65 of degree 3, 1347 of degree 4
        sage: print(interrupted_entry(s.computations[0], KeyboardInterrupt())["text"])
        interrupted: nothing of this computation finished
    """
    entry = {"computation": comp.name, "options": dict(comp.options), "interrupted": True}
    ci = interrupt_of(error)
    if ci is None:
        entry["text"] = "interrupted: nothing of this computation finished"
        return entry
    summary = dict(ci.summary)
    entry.update(phase=ci.phase, finished=ci.what_finished or "nothing")
    lines = [f"interrupted during the {ci.phase}: {ci.what_finished or 'nothing finished'}"]
    if "complete_through_degree" in summary:
        counts = {int(k): int(v) for k, v in summary.get("generators_by_degree", {}).items() if v}
        nlin = int(summary.get("linear_relations", 0) or 0)
        if nlin:
            counts[1] = counts.get(1, 0) + nlin
        counts = dict(sorted(counts.items()))
        complete = int(summary["complete_through_degree"])
        entry.update(algorithm="interpolation", generators_by_degree=counts, complete_through_degree=complete,
                     proved_complete=False, minimal_count="modulo p")
        listed = ", ".join(f"{n} of degree {k}" for k, n in counts.items()) or "none"
        lines.append(f"minimal generators through degree {complete} (the engine's counts, certified modulo "
                     f"{summary.get('prime', 'p')}, not recounted over QQ after Ctrl-C): {listed}")
    if "minimal_generators_by_degree" in summary:
        counts = {int(k): int(v) for k, v in summary["minimal_generators_by_degree"].items()}
        below = int(summary.get("counted_below_degree", 0))
        entry.update(minimal_generators_counted=counts, counted_below_degree=below)
        listed = ", ".join(f"{n} of degree {k}" for k, n in counts.items()) or "none"
        lines.append(f"minimal generators counted exactly below degree {below}: {listed}")
    if not {"complete_through_degree", "minimal_generators_by_degree"} & set(summary):
        entry.update({k: _jsonable(v) for k, v in summary.items() if k not in entry})
    if ci.phase == "generation" and hasattr(ci.partial, "table"):
        lines.append(ci.partial.table())        # the finished rows (made before the interrupt)
    entry["text"] = "\n".join(lines)
    return entry


class ComputationFailed(SageAttentionError):
    r"""
    A computation raised an unexpected error.

    EXAMPLES::

        sage: from sage_attention.app.reporting import ComputationFailed
        sage: str(ComputationFailed("`dimension` on model `m` failed: ValueError: x"))
        '`dimension` on model `m` failed: ValueError: x'
    """
