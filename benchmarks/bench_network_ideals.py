"""The vanishing ideals of polynomial networks: the package's default call against elimination.

Run: python -m benchmarks.bench_network_ideals [--timeout SECONDS] [--case NAME ...] [--tools m2,singular]

For each network below it times, side by side in one run:

- ours: the statement ``vanishing_ideal`` (no option: what a user writes) run by
  ``sage-attention run --json`` on a spec of the network, in a fresh process,
  cold (the interpolation engine with its whole-ideal proof on homogeneous
  networks of dense layers; elimination on the others). The time is the whole
  process, its start-up (Python, Sage, the package) included, so the ratios
  are lower bounds; the process start alone is measured too and printed;
- Macaulay2 ``eliminate`` (passagemath-macaulay2, or ``M2`` on ``PATH``) on
  the graph ideal ``y_i - phi_i(w)`` of the network's coefficient map, its
  own ``cpuTime`` (start-up excluded), and Singular's elimination through
  Sage (``elimination_ideal``, the computation alone), each in a subprocess
  with a timeout (counted as "> timeout": the ratio is then a lower bound).

Where both finish, the ideals are compared (Gröbner bases over QQ, in the
network's coordinate ring); a disagreement is printed and makes the exit
status 1. The verdict line: the ratio reference / ours is at least 10 on
every case where the reference needs more than 1 s.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from sage.all__sagemath_singular import *  # noqa: F401,F403  (initialize Sage)

from benchmarks.run import SING_SCRIPT, m2_works, renamed_input, run_m2, run_sub

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TARGET = 10.0

#: name: (spec text of the model, Python constructor (for the references), what it is)
CASES = {
    "binary-r4-h2": ("input = 2\n layer dense(out = 2, activation = power(4))\n layer dense(out = 1)",
                     "PolynomialNetwork([2, 2, 1], 4)", "binary quartics, sums of 2 powers (a cubic)"),
    "binary-r5-h2": ("input = 2\n layer dense(out = 2, activation = power(5))\n layer dense(out = 1)",
                     "PolynomialNetwork([2, 2, 1], 5)", "binary quintics, sums of 2 powers (3-minors)"),
    "binary-r6-h3": ("input = 2\n layer dense(out = 3, activation = power(6))\n layer dense(out = 1)",
                     "PolynomialNetwork([2, 3, 1], 6)", "binary sextics, sums of 3 powers (a quartic)"),
    "binary-r7-h3": ("input = 2\n layer dense(out = 3, activation = power(7))\n layer dense(out = 1)",
                     "PolynomialNetwork([2, 3, 1], 7)", "binary septics, sums of 3 powers (4-minors)"),
    "ternary-r2-h2": ("input = 3\n layer dense(out = 2, activation = power(2))\n layer dense(out = 1)",
                      "PolynomialNetwork([3, 2, 1], 2)", "ternary quadrics of rank 2 (the determinant)"),
    "ternary-r3-h2": ("input = 3\n layer dense(out = 2, activation = power(3))\n layer dense(out = 1)",
                      "PolynomialNetwork([3, 2, 1], 3)", "ternary cubics, sums of 2 cubes (20 cubics)"),
    "deep-2221-r2": ("input = 2\n layer dense(out = 2, activation = power(2))\n"
                     " layer dense(out = 2, activation = power(2))\n layer dense(out = 1)",
                     "PolynomialNetwork([2, 2, 2, 1], 2)", "two hidden layers of squares"),
    "block-attention": ("input = 1; tokens = 2\n layer attention(rank = 1, out = 1, residual = true)\n"
                        " layer dense(out = 1)",
                        "Network([attention(a=1, out=1, residual=True), dense(out=1)], d=1, t=2)",
                        "lightning attention with a residual stream, then a linear layer"),
}


def spec_text(name):
    return f"model m {{\n {CASES[name][0]}\n}}\ncompute m {{ vanishing_ideal }}\n"


def build(name):
    from sage_attention import PolynomialNetwork, Network, dense, attention  # noqa: F401
    return eval(CASES[name][1])


class Graph:
    r"""
    The coefficient map of a network as the references read it (the names of
    :func:`benchmarks.run.renamed_input`): its coordinate ring and the map to the weights.
    """
    def __init__(self, M):
        self.phi = M.parametrization()

    def essential_ring(self):
        return self.phi.domain()

    def essential_parametrization(self):
        return self.phi


def cli():
    return os.path.join(os.path.dirname(sys.executable), "sage-attention")


def ours(name, timeout):
    r"""
    Return ``(seconds, record or None, status)``: ``sage-attention run --json`` on the case, in a fresh process.
    """
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "net.att")
        open(f, "w").write(spec_text(name))
        t0 = time.perf_counter()
        try:
            out = subprocess.run([cli(), "run", "--json", f], capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return timeout, None, "timeout"
        seconds = time.perf_counter() - t0
    if out.returncode != 0:
        return seconds, None, f"error {out.returncode}: {out.stderr.strip()[-200:]}"
    record = json.loads(out.stdout.strip().splitlines()[-1])
    return seconds, record["computations"][0], "ok"


def process_start():
    r"""The seconds of a fresh process that imports Sage and the package and builds a network (no computation)."""
    code = ("from sage.all__sagemath_singular import QQ\nfrom sage_attention import PolynomialNetwork\n"
            "PolynomialNetwork([2, 3, 1], 6).coordinate_model()\n")
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    return time.perf_counter() - t0


def agree(M, record, gens):
    r"""Whether the reference generators (strings in the essential coordinates) give the package's ideal."""
    if gens is None or record is None:
        return None
    R = Graph(M).essential_ring()
    mine = [R(g) for g in record["generators"] if g and g != "0"]
    theirs = [R(g) for g in gens if g and g != "0"]
    I = R.ideal(mine or [R.zero()])
    J = R.ideal(theirs or [R.zero()])
    return I == J


def run_singular(C, timeout):
    r"""
    Return ``(generators, seconds, status)``: Singular's elimination of the weights (through Sage, in a
    subprocess; the seconds of ``elimination_ideal`` alone), the generators in the essential coordinates.
    """
    ws, ys, imgs, back = renamed_input(C)
    polys = [f"{y}-({f})" for y, f in zip(ys, imgs)]
    with tempfile.TemporaryDirectory() as d:
        fin, fs = os.path.join(d, "in.json"), os.path.join(d, "s.py")
        json.dump([ws, ys, polys], open(fin, "w"))
        open(fs, "w").write(SING_SCRIPT)
        out, dt, status = run_sub([sys.executable, fs, fin], timeout + 15)
    if status != "ok":
        return None, (timeout if status == "timeout" else dt), status
    res = json.loads(out.strip().splitlines()[-1])
    if res["seconds"] > timeout:
        return None, timeout, "timeout"
    return [back(g) for g in res["gens"]], res["seconds"], "ok"


def fmt(t, status):
    if status == "timeout":
        return f"> {t:.0f} s"
    return f"{t:.2f} s" if status == "ok" else "failed"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timeout", type=float, default=120, help="seconds per reference tool (default 120)")
    ap.add_argument("--case", action="append", choices=sorted(CASES), help="run only these cases")
    ap.add_argument("--tools", default="m2,singular", help="comma-separated reference tools")
    args = ap.parse_args(argv)
    tools = args.tools.split(",")
    m2status = m2_works() if "m2" in tools else "not requested"
    start = sorted(process_start() for _ in range(3))[1]
    print(f"process start (Python, Sage, the package, a network built; median of 3): {start:.2f} s", flush=True)
    rows, disagreements = [], []
    for name in args.case or list(CASES):
        M = build(name)
        C = Graph(M)
        seconds, record, status = ours(name, max(args.timeout, 600))
        how = "" if record is None else record.get("algorithm", "")
        counts = None if record is None else record.get("generators_by_degree")
        proved = None if record is None else record.get("proved_complete")
        print(f"{name} ({CASES[name][2]}; {C.essential_ring().ngens()} coordinates): ours {fmt(seconds, status)} "
              f"({how}, generators {counts}, proved complete {proved})", flush=True)
        row = {"case": name, "model": CASES[name][1], "coordinates": C.essential_ring().ngens(),
               "ours": seconds, "status": status, "algorithm": how, "generators_by_degree": counts,
               "proved_complete": proved, "tools": {}}
        refs = []
        if "m2" in tools and m2status == "ok":
            refs.append(("M2 eliminate", lambda: run_m2(C, args.timeout, "eliminate", 0)))
        if "singular" in tools:
            refs.append(("Singular eliminate", lambda: run_singular(C, args.timeout)))
        for tool, fn in refs:
            gens, t, st = fn()
            ok = None
            if st == "ok" and status == "ok":
                ok = agree(M, record, gens)
                if ok is False:
                    disagreements.append((name, tool))
            ratio = t / seconds if st in ("ok", "timeout") and status == "ok" else None
            row["tools"][tool] = {"seconds": t, "status": st, "ratio": ratio, "agrees": ok}
            shown = "n/a" if ratio is None else f"{'>' if st == 'timeout' else ''}{ratio:.1f}x"
            print(f"    {tool}: {fmt(t, st)}  ratio {shown}  agrees {ok}", flush=True)
        rows.append(row)
    tools_seen = [t for t in ("M2 eliminate", "Singular eliminate") if any(t in r["tools"] for r in rows)]
    lines = ["", "| network | coords | ours (fresh process) | " + " | ".join(tools_seen) + " |",
             "|---" * (3 + len(tools_seen)) + "|"]
    for r in rows:
        cells = []
        for t in tools_seen:
            x = r["tools"].get(t)
            if x is None:
                cells.append("-")
                continue
            ratio = "n/a" if x["ratio"] is None else f"{'>' if x['status'] == 'timeout' else ''}{x['ratio']:.1f}x"
            cells.append(f"{fmt(x['seconds'], x['status'])} ({ratio}, agrees {x['agrees']})")
        lines.append(f"| {r['case']} | {r['coordinates']} | {fmt(r['ours'], r['status'])} ({r['algorithm']}) | "
                     + " | ".join(cells) + " |")
    if "m2" in tools and m2status != "ok":
        lines.append(f"\nMacaulay2: not run ({m2status})")
    print("\n".join(lines))
    slow = [(r["case"], t, x) for r in rows for t, x in r["tools"].items()
            if x["status"] in ("ok", "timeout") and x["seconds"] > 1 and x["ratio"] is not None]
    missed = [f"{c} ({t}: {x['ratio']:.1f}x)" for c, t, x in slow if x["ratio"] < TARGET]
    print(f"\nverdict: ratio reference / ours >= {TARGET:.0f} where the reference needs more than 1 s "
          f"({len(slow)} case-tool pairs): " + ("met" if not missed else "NOT met on " + ", ".join(missed)))
    print("verdict: the ideals agree wherever both finish: "
          + ("yes" if not disagreements else "NO (" + ", ".join(f"{c} {t}" for c, t in disagreements) + ")"))
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    with open(os.path.join(HERE, "results", "network_ideals.json"), "w") as fh:
        json.dump({"process_start": start, "rows": rows}, fh, indent=1)
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
