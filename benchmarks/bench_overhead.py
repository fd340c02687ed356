r"""
Benchmark: the fixed overhead of the engine on the one-entry rows, against Macaulay2 ``eliminate``.

Run from the repository root::

    python -m benchmarks.bench_overhead [--timeout SECONDS] [--repeat N] [--no-skip] [--row t2-d3-a1 ...]

The rows: the one-entry slices ``LightningAttention(d=d, t=t, a=a, out=1,
entries=[(1, 1)])`` for ``t = 2``, ``d = 2, 3, 4`` and ``t = 3``,
``d = 2, 3``, and the single tokens ``LightningAttention(d=d, t=1, a=a,
out=1)`` for ``d = 2, 3, 4``, every rank ``a = 1..d``.

For each row, in the same run: Macaulay2 ``eliminate`` in a subprocess with
a time limit (its own ``cpuTime``, start-up excluded; the functions of
:mod:`benchmarks.run`), then ``implicitize(M, D, seed=0, executor=False)``
with the default proof (``prove=None``: the localization certificate of
:mod:`sage_attention.ideals.proofs.completeness`), where ``D`` is the degree of the largest generator M2 found
(the degree bound the engine needs to reach the whole ideal; `4` when M2 did
not finish), timed

- cold: in a fresh Python process, imports and the model's construction
  excluded (the first call of ``implicitize`` in the process);
- warm: the median of ``--repeat`` calls in this process, after one call
  not timed, each on a newly constructed model;

and, warm, without the proof (``prove=False``). A timeout of M2 makes the
ratio a lower bound ("> N x"). A row whose smaller neighbour (the same rank
with ``d - 1``, or ``t - 1`` for the slices, or the rank ``a - 1``) timed out (or was skipped)
is not given to M2 (its ratio is "n/a") unless ``--no-skip``: there are more
weights to eliminate, and the whole run stays under about 15 minutes.

The verdict lines: whether the default call (warm, with its proof) is at
least 10 times faster than M2 ``eliminate`` on every row where M2 needs more
than 1 s, whether the median ratio over those rows is at least 100, whether
every one-entry row is at least 100 times faster, and whether the rank-1
``d = 3``, ``t = 2`` slice is at least 2 times faster with its proof.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from benchmarks.run import elimination_input, m2_binary, run_m2

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

COLD = r"""
import json, sys, time
from sage.all__sagemath_singular import QQ
from sage_attention import LightningAttention
from sage_attention.ideals.implicitization import implicitize
kw, degree = json.loads(sys.argv[1]), int(sys.argv[2])
kw["entries"] = [tuple(e) for e in kw.get("entries", [])] or None
if kw["entries"] is None:
    del kw["entries"]
M = LightningAttention(**kw)
t0 = time.time()
R = implicitize(M, degree, seed=0, executor=False)
print(json.dumps({"seconds": time.time() - t0, "proved": bool(R.proved_complete)}))
"""


def rows():
    r"""Return ``[(name, model keywords)]``, the one-entry rows in the order they are run."""
    out = []
    for t, ds in ((1, (2, 3, 4)), (2, (2, 3, 4)), (3, (2, 3))):
        for d in ds:
            for a in range(1, d + 1):
                kw = dict(d=d, t=t, a=a, out=1)
                if t > 1:
                    kw["entries"] = [(1, 1)]
                out.append((f"t{t}-d{d}-a{a}", kw))
    return out


def cold_run(kw, degree, timeout):
    r"""Return ``(seconds, proved)`` of the first ``implicitize`` call in a fresh process (imports excluded)."""
    try:
        p = subprocess.run([sys.executable, "-c", COLD, json.dumps(kw), str(degree)], capture_output=True,
                           text=True, timeout=timeout, env=dict(os.environ, PYTHONPATH=ROOT))
    except subprocess.TimeoutExpired:
        return None, None
    if p.returncode:
        return None, None
    res = json.loads(p.stdout.strip().splitlines()[-1])
    return res["seconds"], res["proved"]


def warm_runs(kw, degree, repeat, prove):
    r"""Return ``(median seconds, proved)`` of ``repeat`` calls in this process (after one untimed call)."""
    from sage_attention import LightningAttention
    from sage_attention.ideals.implicitization import implicitize
    implicitize(LightningAttention(**kw), degree, seed=0, executor=False, prove=prove)
    times = []
    for _ in range(repeat):
        M = LightningAttention(**kw)
        t0 = time.time()
        R = implicitize(M, degree, seed=0, executor=False, prove=prove)
        times.append(time.time() - t0)
    return statistics.median(times), bool(R.proved_complete)


def ratio_text(m2, status, engine):
    if status == "skipped" or m2 is None or not engine:
        return "n/a"
    q = m2 / engine
    return f"{'> ' if status == 'timeout' else ''}{q:.0f}x" if q >= 10 else f"{'> ' if status == 'timeout' else ''}{q:.2g}x"


def verdicts(table):
    r"""Return the verdict lines for the measured ``table`` (list of row dicts)."""
    miss, unknown, slow_miss, slow_ratios = [], [], [], []
    for r in table:
        if r["m2_status"] == "ok" or r["m2_status"] == "timeout":
            ratio = r["m2"] / r["warm"]
            bound = "> " if r["m2_status"] == "timeout" else ""
            if ratio < 100:
                miss.append(f"{r['row']} {bound}{ratio:.2g}x" + (" (M2 timed out: lower bound)"
                                                                 if bound else ""))
            if r["m2"] > 1:
                slow_ratios.append(ratio)
                if ratio < 10:
                    slow_miss.append(f"{r['row']} {bound}{ratio:.2g}x")
        else:
            unknown.append(f"{r['row']} ({r['m2_status']})")
    not_measured = f" (not measured: {', '.join(unknown)})" if unknown else ""
    line0 = ("default call with proof >= 10x M2 eliminate where M2 needs > 1 s: "
             + ("yes" if slow_ratios and not slow_miss else "no" if slow_ratios else "no such row")
             + (f" (the rows that miss: {', '.join(slow_miss)})" if slow_miss else ""))
    med = statistics.median(slow_ratios) if slow_ratios else None
    line00 = ("median ratio over those rows >= 100x: "
              + ("n/a" if med is None else f"{'yes' if med >= 100 else 'no'} ({med:.0f}x; rows where M2 timed "
                 "out count with their lower bound)"))
    line1 = ("every one-entry row >= 100x faster than M2 eliminate: "
             + ("yes" if not miss and not unknown else "no")
             + (f" (the rows that miss: {', '.join(miss)})" if miss else "") + not_measured)
    r1 = [r for r in table if r["row"] == "t2-d3-a1"]
    if r1 and r1[0]["m2_status"] in ("ok", "timeout"):
        q = r1[0]["m2"] / r1[0]["warm"]
        line2 = f"rank-1 d=3 slice >= 2x with its proof: {'met' if q >= 2 else 'missed'} ({q:.1f}x warm"
        if r1[0]["cold"]:
            line2 += f", {r1[0]['m2'] / r1[0]['cold']:.1f}x cold"
        line2 += f", proved: {r1[0]['proved']})"
    else:
        line2 = "rank-1 d=3 slice >= 2x with its proof: not measured"
    return line0, line00, line1, line2


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timeout", type=float, default=120, help="seconds for M2 per row (default 120)")
    ap.add_argument("--repeat", type=int, default=5, help="warm engine calls per row; the median (default 5)")
    ap.add_argument("--no-skip", action="store_true", help="give M2 every row, also beyond a timed-out one")
    ap.add_argument("--row", action="append", help="run only these rows (e.g. t2-d3-a1)")
    args = ap.parse_args(argv)
    from sage.all__sagemath_singular import QQ  # noqa: F401
    from sage_attention import LightningAttention
    print(f"Macaulay2: {m2_binary()}", flush=True)
    t_start = time.time()
    table = []
    timed_out = set()
    for name, kw in rows():
        if args.row and name not in args.row:
            continue
        M = LightningAttention(**kw)
        E = M.essential_ring()
        weights = len(elimination_input(M)[0])     # the input of every reference: y_i - phi_i(weights)
        t, d, a = kw["t"], kw["d"], kw["a"]
        smaller = [f"t{t}-d{d - 1}-a{a}", f"t{t}-d{d}-a{a - 1}"] + ([f"t{t - 1}-d{d}-a{a}"] if t > 2 else [])
        skip = [s for s in smaller if s in timed_out] if not args.no_skip else []
        if skip:
            m2, status, gens = None, "skipped", None
            timed_out.add(name)
        else:
            gens, m2, status = run_m2(M, args.timeout, "eliminate", 4)
            if status == "timeout":
                timed_out.add(name)
        if status == "ok":
            degree = max((E(g).degree() for g in gens if E(g) != 0), default=1)
            degree = max(degree, 1)
        else:
            degree = 4
        cold, cold_proved = cold_run(kw, degree, 600)
        warm, proved = warm_runs(kw, degree, args.repeat, None)
        warm_np, _ = warm_runs(kw, degree, args.repeat, False)
        row = dict(row=name, coords=int(E.ngens()), weights=weights, degree=int(degree), m2=m2, m2_status=status, cold=cold,
                   cold_proved=cold_proved, warm=warm, proved=proved, warm_noproof=warm_np,
                   skipped_because=skip)
        table.append(row)
        m2txt = ("skipped (" + ", ".join(skip) + " timed out)" if skip
                 else f"> {args.timeout:.0f} s" if status == "timeout"
                 else f"{m2:.3f} s" if status == "ok" else status)
        print(f"{name}: {E.ngens()} coords, {weights} weights, degree {degree}, M2 eliminate {m2txt}, engine cold "
              f"{cold if cold is None else round(cold, 3)} s, warm {warm:.3f} s (proved: {proved}), "
              f"warm without proof {warm_np:.3f} s, ratio warm {ratio_text(m2, status, warm)}", flush=True)
    lines = ["| row | coords | degree | M2 eliminate | engine cold | engine warm | proved | warm, no proof "
             "| ratio cold | ratio warm | ratio no proof |", "|---" * 11 + "|"]
    for r in table:
        m2txt = ("skipped" if r["m2_status"] == "skipped" else f"> {args.timeout:.0f} s"
                 if r["m2_status"] == "timeout" else f"{r['m2']:.3f} s" if r["m2_status"] == "ok"
                 else r["m2_status"])
        cold = "failed" if r["cold"] is None else f"{r['cold']:.3f} s"
        lines.append(f"| {r['row']} | {r['coords']} | {r['degree']} | {m2txt} | {cold} | {r['warm']:.3f} s | "
                     f"{'yes' if r['proved'] else 'no'} | {r['warm_noproof']:.3f} s | "
                     f"{ratio_text(r['m2'], r['m2_status'], r['cold'])} | "
                     f"{ratio_text(r['m2'], r['m2_status'], r['warm'])} | "
                     f"{ratio_text(r['m2'], r['m2_status'], r['warm_noproof'])} |")
    lines += ["", *verdicts(table), f"(whole run {time.time() - t_start:.0f} s)"]
    print("\n".join(lines))
    os.makedirs(os.path.join(os.path.dirname(os.path.abspath(__file__)), "results"), exist_ok=True)
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "overhead.json"), "w") as fh:
        json.dump(table, fh, indent=1)


if __name__ == "__main__":
    main()
