"""The first call of a fresh session on the d = 3 slices: the default implicitize, the generation report, the degree.

Run: python -m benchmarks.bench_first_call [--repeat N] [--timeout SECONDS]

Each call runs in a fresh Python process, as the first call a user makes
after ``LightningAttention(...)`` is built (the imports and the model's
construction are not timed). Two times are printed: the wall clock, and the
processor time of the process and of the children it waited for
(``getrusage``): on a shared machine the wall clock also counts the time the
process waited for a core, the processor time does not, and it is what
Macaulay2's ``cpuTime`` measures. The rows:

- ``implicitize(M, 3, seed=0)`` with its default proof on the rank-1 slice
  ``LightningAttention(d=3, t=2, a=1, out=1, entries=[(1, 1)])``, beside
  Macaulay2 ``eliminate`` (its ``cpuTime``, start-up excluded;
  :func:`benchmarks.run.run_m2`), goal: at least 2 times faster;
- ``generation_report(M)`` on the slices of rank 1, 2, 3 (goal: at most 2 s);
- ``M.neurovariety().degree()`` on the same slices (goal: at most 1 s).

The median of ``--repeat`` fresh processes is reported, and a verdict line per goal.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

CHILD = r"""
import json, resource, sys, time
from sage.all__sagemath_singular import QQ
from sage_attention import LightningAttention
what, a = sys.argv[1], int(sys.argv[2])
M = LightningAttention(d=3, t=2, a=a, out=1, entries=[(1, 1)])
def cpu():
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime
if what == "implicitize":
    from sage_attention.ideals.implicitization import implicitize
    call = lambda: implicitize(M, 3, seed=0).proved_complete
elif what == "generation_report":
    from sage_attention.variety.generation import generation_report
    call = lambda: len(generation_report(M).rows)
else:
    call = lambda: int(M.neurovariety().degree())
c0, t0 = cpu(), time.perf_counter()
value = call()
print(json.dumps({"wall": time.perf_counter() - t0, "cpu": cpu() - c0, "value": value}))
"""

GOALS = {"generation_report": 2.0, "degree": 1.0}


def fresh(what, a, timeout):
    r"""Return ``{'wall', 'cpu', 'value'}`` of the call in a fresh process, or ``None`` after ``timeout``."""
    try:
        p = subprocess.run([sys.executable, "-c", CHILD, what, str(a)], capture_output=True, text=True,
                           timeout=timeout, env=dict(os.environ, PYTHONPATH=ROOT))
    except subprocess.TimeoutExpired:
        return None
    if p.returncode:
        print(p.stderr[-500:], file=sys.stderr)
        return None
    return json.loads(p.stdout.strip().splitlines()[-1])


def median_of(what, a, repeat, timeout):
    runs = [r for r in (fresh(what, a, timeout) for _ in range(repeat)) if r is not None]
    if not runs:
        return None
    return {"wall": statistics.median(r["wall"] for r in runs), "cpu": statistics.median(r["cpu"] for r in runs),
            "value": runs[0]["value"], "runs": len(runs)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5, help="fresh processes per row (default 5)")
    ap.add_argument("--timeout", type=float, default=120, help="seconds per process and for M2 (default 120)")
    args = ap.parse_args(argv)
    from benchmarks.run import m2_works, model_of, run_m2
    rows, verdicts = [], []
    kw = dict(d=3, t=2, a=1, out=1, entries=[(1, 1)])
    m2 = None
    if m2_works() == "ok":
        runs = [run_m2(model_of(kw), args.timeout, "eliminate", 3) for _ in range(max(1, args.repeat // 2))]
        times = [t for _, t, st in runs if st == "ok"]
        m2 = statistics.median(times) if times else None
    r = median_of("implicitize", 1, args.repeat, args.timeout)
    rows.append(("implicitize(M, 3), default proof", 1, r, m2))
    if r is not None and m2 is not None:
        ratio = m2 / r["cpu"]
        verdicts.append(f"rank-1 d=3 slice, default implicitize cold >= 2x M2 eliminate (processor times): "
                        f"{'met' if ratio >= 2 else 'NOT met'} ({ratio:.1f}x: M2 {m2:.3f} s, ours {r['cpu']:.3f} s; "
                        f"wall clock {r['wall']:.3f} s, {m2 / r['wall']:.1f}x)")
    for what in ("generation_report", "degree"):
        worst = None
        for a in (1, 2, 3):
            r = median_of(what, a, args.repeat, args.timeout)
            rows.append((what, a, r, None))
            if r is not None:
                worst = max(worst or 0, r["wall"])
        goal = GOALS[what]
        verdicts.append(f"{what} on the d=3 slices <= {goal:g} s in a fresh process (wall clock, worst rank): "
                        + ("not measured" if worst is None else
                           f"{'met' if worst <= goal else 'NOT met'} ({worst:.2f} s)"))
    print("| call | slice rank | wall (median) | processor (median) | value | M2 eliminate (cpuTime) |")
    print("|---|---|---|---|---|---|")
    for what, a, r, ref in rows:
        if r is None:
            print(f"| {what} | {a} | failed or > {args.timeout:.0f} s | | | |")
            continue
        print(f"| {what} | {a} | {r['wall']:.3f} s | {r['cpu']:.3f} s | {r['value']} | "
              f"{'' if ref is None else f'{ref:.3f} s'} |")
    print()
    print("\n".join(verdicts))
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    with open(os.path.join(HERE, "results", "first_call.json"), "w") as fh:
        json.dump({"rows": [[w, a, r, ref] for w, a, r, ref in rows], "verdicts": verdicts}, fh, indent=1)


if __name__ == "__main__":
    main()
