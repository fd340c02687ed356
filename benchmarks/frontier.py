r"""
The frontier table: one-entry slices and single tokens, each row in a subprocess with a time limit.

Run from the repository root::

    python -m benchmarks.frontier                      # the whole table (rst on standard output)
    python -m benchmarks.frontier --timeout 60 --degree 4 --rows slice-d3-t2-a2 token-d3-a1

Each row runs ``implicitize(model, degree, seed=0, executor=False)`` (default
whole-ideal proof: modular primality, 5 s) in a fresh process; it reports the
minimal generators by degree, the degree through which they are complete,
whether the whole ideal is proved (and why not), the time and the peak
memory (``ru_maxrss`` of the process). A row that does not finish in the
time limit says "not reached in N s".
"""
import argparse
import json
import subprocess
import sys
import time

CHILD = r"""
import json, resource, sys, time
from sage.all__sagemath_singular import QQ
from sage_attention import LightningAttention
from sage_attention.ideals.implicitization import implicitize
kw, deg = json.loads(sys.argv[1]), int(sys.argv[2])
if "entries" in kw:
    kw["entries"] = [tuple(e) for e in kw["entries"]]
M = LightningAttention(**kw)
t0 = time.time()
R = implicitize(M, deg, seed=0, executor=False)
dt = time.time() - t0
print(json.dumps({"seconds": dt, "proof_seconds": R.timings.get("proof", 0),
                  "gens": {str(k): len(v) for k, v in sorted(R.generators_by_degree.items())},
                  "linear": len(R.linear_relations), "complete": R.complete_through_degree,
                  "proved": R.proved_complete, "reason": "" if R.proved_complete else R.proof.split("; ")[-1],
                  "coords": M.essential_ring().ngens(),
                  "mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def rows():
    out = {}
    for d in range(3, 7):
        for t in (2, 3):
            for a in range(1, d + 1):
                out[f"slice-d{d}-t{t}-a{a}"] = dict(d=d, t=t, a=a, out=1, entries=[(1, 1)])
    for d in range(3, 6):
        for a in range(1, d + 1):
            out[f"token-d{d}-a{a}"] = dict(d=d, t=1, a=a, out=1)
    return out


def run(name, kw, degree, timeout):
    t0 = time.time()
    try:
        p = subprocess.run([sys.executable, "-c", CHILD, json.dumps(kw), str(degree)],
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"name": name, "status": f"not reached in {timeout:.0f} s"}
    if p.returncode != 0:
        return {"name": name, "status": "failed: " + p.stderr.strip().splitlines()[-1][:120]}
    r = json.loads(p.stdout.strip().splitlines()[-1])
    r.update(name=name, status="ok", wall=time.time() - t0)
    return r


def rst(results, degree, timeout, command):
    r"""Return the table as a reST ``list-table``."""
    out = [".. list-table::", "   :header-rows: 1", "",
           "   * - row", "     - coordinates", "     - generators by degree", "     - complete through",
           "     - whole ideal", "     - time", "     - peak memory"]
    for r in results:
        if r["status"] != "ok":
            out += [f"   * - {r['name']}", "     -", f"     - {r['status']}", "     -", "     -", "     -", "     -"]
            continue
        gens = ", ".join(f"{k}: {v}" for k, v in r["gens"].items()) or "none"
        reason = r["reason"].replace("the ideal found has ", "").replace(" modulo 32003", " mod p")
        whole = "proved (prime mod p)" if r["proved"] else reason
        out += [f"   * - {r['name']}", f"     - {r['coords']}", f"     - {gens}", f"     - {r['complete']}",
                f"     - {whole}", f"     - {r['seconds']:.2f} s", f"     - {r['mb']:.0f} MB"]
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timeout", type=float, default=120, help="seconds per row (default 120)")
    ap.add_argument("--degree", type=int, default=4, help="degree bound (default 4)")
    ap.add_argument("--rows", nargs="*", help="only these rows")
    ap.add_argument("--json", help="also write the results to this file")
    args = ap.parse_args(argv)
    table = rows()
    names = args.rows or list(table)
    results = []
    for name in names:
        r = run(name, table[name], args.degree, args.timeout)
        print(json.dumps(r), file=sys.stderr, flush=True)
        results.append(r)
    if args.json:
        import os
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)
    print(rst(results, args.degree, args.timeout, " ".join(sys.argv)))


if __name__ == "__main__":
    main()
