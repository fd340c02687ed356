r"""
The frontier table: one-entry slices and single tokens, each row in a subprocess with a time limit.

Run from the repository root::

    python -m benchmarks.frontier                      # the whole table (rst on standard output)
    python -m benchmarks.frontier --timeout 60 --degree 4 --rows slice-d3-t2-a2 token-d3-a1
    python -m benchmarks.frontier --rows token-d5-a1 --dask token-d5-a1   # and on two Dask workers
    python -m benchmarks.frontier --rows slice-d5-t2-a2 --json r.json      # keep the results ...
    python -m benchmarks.frontier --from-json r.json                       # ... and print them again
    python -m benchmarks.frontier --degrees    # the degree of every row by the theorem (no run)

Each row runs ``implicitize(model, degree, seed=0, executor=False,
prove=PROVE)`` in a fresh process (``--prove``: default ``None``, the
localization certificate within 30 s; a number of seconds for the
localization and then the primary decomposition); it reports the
minimal generators by degree, the degree through which they are complete,
whether the whole ideal is proved (and why not), the time and the peak
memory (``ru_maxrss`` of the process). A row that does not finish in the
time limit says "not reached in N s". With ``--dask ROW`` the row also runs
on a Dask ``LocalCluster`` with two worker processes (``executor=
client.get_executor()``), and a line compares the two runs: time and the
SHA-256 of the sorted SHA-256 digests of the generators' texts (the peak
memory of a Dask run is the client process's only). ``--degrees`` prints, without computing any ideal,
the dimension and degree of every row by the theorem of
:mod:`sage_attention.ideals.proofs.common_factor` (rows of rank `a \ge 2`) next to
the dimension by Jacobian rank.
"""
import argparse
import json
import subprocess
import sys
import time

CHILD = r"""
import hashlib, json, resource, sys, time
from sage.all__sagemath_singular import QQ
from sage_attention import LightningAttention
from sage_attention.ideals.implicitization import implicitize
kw, deg, where, prove = json.loads(sys.argv[1]), int(sys.argv[2]), sys.argv[3], json.loads(sys.argv[4])
if "entries" in kw:
    kw["entries"] = [tuple(e) for e in kw["entries"]]
M = LightningAttention(**kw)
if where == "dask":
    from distributed import Client, LocalCluster
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    executor = client.get_executor()
else:
    executor = False
t0 = time.time()
R = implicitize(M, deg, seed=0, executor=executor, prove=prove)
dt = time.time() - t0
C = R.certificate
delta = C.primality.delta if C is not None and C.primality is not None else None
if where == "dask":
    client.close()
    cluster.close()
# the SHA-256 of the sorted SHA-256 digests of the generators' texts, one at a time, written by
# polynomial_text (str(g) keeps Singular's buffer: 8 GB for the 352k generators of a slice of
# width 6, which killed a run)
from sage_attention.misc.polynomial_text import polynomial_text
h = hashlib.sha256()
for d in sorted(hashlib.sha256(polynomial_text(g).encode()).digest() for g in R.essential_generators):
    h.update(d)
digest = h.hexdigest()
print(json.dumps({"seconds": dt, "proof_seconds": R.timings.get("proof", 0),
                  "gens": {str(k): len(v) for k, v in sorted(R.generators_by_degree.items())},
                  "linear": len(R.linear_relations), "complete": R.complete_through_degree,
                  "proved": R.proved_complete, "reason": "" if R.proved_complete else R.proof.split("; ")[-1],
                  "coords": M.essential_ring().ngens(), "digest": digest,
                  "method": None if C is None else C.method, "delta": delta,
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


def failure(returncode, stderr, seconds):
    r"""
    Return the status of a row whose process failed: its last error line, or the signal that ended it.

    A process killed by a signal writes nothing (the kernel's out-of-memory
    killer sends ``SIGKILL``): then the status names the signal and the time,
    e.g. ``killed by SIGKILL after 612 s (the out-of-memory killer sends it:
    see dmesg)``; a process that exits with no message gives its exit status.
    (Tested in tests/test_frontier_runner.py; the benchmarks are not doctested.)
    """
    import signal
    lines = stderr.strip().splitlines()
    if returncode < 0:
        sig = signal.Signals(-returncode).name
        hint = " (the out-of-memory killer sends it: see dmesg)" if sig == "SIGKILL" else ""
        return f"killed by {sig} after {seconds:.0f} s{hint}"
    if not lines:
        return f"failed with exit status {returncode} and no message"
    return "failed: " + lines[-1][:120]


def run(name, kw, degree, timeout, where="local", prove=None):
    t0 = time.time()
    try:
        p = subprocess.run([sys.executable, "-c", CHILD, json.dumps(kw), str(degree), where, json.dumps(prove)],
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"name": name, "status": f"not reached in {timeout:.0f} s"}
    if p.returncode != 0:
        return {"name": name, "status": failure(p.returncode, p.stderr, time.time() - t0)}
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
        if r["proved"]:
            how = {"localization": "localization", "decomposition": "primary decomposition",
                   "segre": "Segre product", "inheritance": "inheritance",
                   "subspace": "inheritance from fewer features"}.get(
                r.get("method"), r.get("method") or "prime mod p")
            delta = f", delta = {r['delta']}" if r.get("delta") else ""
            whole = f"proved ({how}{delta}; proof {r.get('proof_seconds', 0):.2f} s)"
        else:
            whole = reason
        out += [f"   * - {r['name']}", f"     - {r['coords']}", f"     - {gens}", f"     - {r['complete']}",
                f"     - {whole}", f"     - {r['seconds']:.2f} s", f"     - {r['mb']:.0f} MB"]
    return "\n".join(out)


def degrees_rst(names, table):
    r"""Return the reST table of the dimension and degree by the theorem of every row (and the Jacobian rank)."""
    from sage_attention import LightningAttention
    from sage_attention.ideals.proofs.common_factor import common_factor_degree
    out = [".. list-table::", "   :header-rows: 1", "",
           "   * - row", "     - dimension (Jacobian rank)", "     - dimension (theorem)", "     - degree (theorem)"]
    for name in names:
        kw = dict(table[name])
        if "entries" in kw:
            kw["entries"] = [tuple(e) for e in kw["entries"]]
        M = LightningAttention(**kw)
        known = common_factor_degree(M)
        dim = M.dimension(seed=0)
        if known is not None and known[1] != dim:
            raise AssertionError(f"{name}: the theorem's dimension {known[1]} is not the Jacobian rank {dim}")
        theorem = ("-", "- (rank one: the map is not birational)") if known is None else (str(known[1]), str(known[0]))
        out += [f"   * - {name}", f"     - {dim}", f"     - {theorem[0]}", f"     - {theorem[1]}"]
    return "\n".join(out)


def dask_line(name, local, dask):
    r"""Return one sentence comparing the one-process run of a row with its Dask run."""
    if local["status"] != "ok" or dask["status"] != "ok":
        return (f"{name} on a Dask LocalCluster with two workers: one process {local['status']}, "
                f"Dask {dask['status']}.")
    same = local["digest"] == dask["digest"] and local["gens"] == dask["gens"]
    return (f"{name} on a Dask LocalCluster with two worker processes: {dask['seconds']:.2f} s "
            f"(one process: {local['seconds']:.2f} s); the generators are "
            + ("identical (same SHA-256 of the sorted generators)." if same else "DIFFERENT."))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timeout", type=float, default=120, help="seconds per row (default 120)")
    ap.add_argument("--degree", type=int, default=4, help="degree bound (default 4)")
    ap.add_argument("--rows", nargs="*", help="only these rows")
    ap.add_argument("--prove", type=float, default=None,
                    help="seconds for the whole-ideal proof (localization, then primary decomposition); "
                         "default: implicitize's default (the localization certificate within 30 s)")
    ap.add_argument("--json", help="also write the results to this file")
    ap.add_argument("--dask", metavar="ROW",
                    help="also run ROW on a Dask LocalCluster with two worker processes and compare")
    ap.add_argument("--degrees", action="store_true",
                    help="print the dimension and degree of every row by the theorem (no ideal computed)")
    ap.add_argument("--plot", metavar="FILE",
                    help="also draw the rows (time against coordinates, proved or not) to FILE "
                         "(.png, .pdf or .svg): sage_attention.app.frontier_table")
    ap.add_argument("--from-json", nargs="+", metavar="FILE",
                    help="print the table of results saved with --json, without running anything")
    args = ap.parse_args(argv)
    if args.from_json:
        results = []
        for f in args.from_json:
            with open(f) as fh:
                results += json.load(fh)
        print(rst(results, args.degree, args.timeout, " ".join(sys.argv)))
        plot(results, args.plot)
        return
    table = rows()
    names = args.rows or list(table)
    if args.degrees:
        print(degrees_rst(names, table))
        return
    unknown = [n for n in names + ([args.dask] if args.dask else []) if n not in table]
    if unknown:
        ap.error(f"unknown row(s) {', '.join(unknown)}; the rows are {', '.join(table)}")
    results = []
    for name in names:
        r = run(name, table[name], args.degree, args.timeout, prove=args.prove)
        print(json.dumps(r), file=sys.stderr, flush=True)
        results.append(r)
    if args.dask:
        local = next((r for r in results if r["name"] == args.dask), None)
        if local is None:
            local = run(args.dask, table[args.dask], args.degree, args.timeout)
        dask = run(args.dask, table[args.dask], args.degree, args.timeout, where="dask")
        print(json.dumps(dict(dask, where="dask")), file=sys.stderr, flush=True)
        print(dask_line(args.dask, local, dask))
        print()
    if args.json:
        import os
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)
    print(rst(results, args.degree, args.timeout, " ".join(sys.argv)))
    plot(results, args.plot)


def plot(results, path):
    r"""Draw the rows to ``path`` (nothing when ``path`` is ``None``) and say where on standard error."""
    if not path:
        return
    from sage_attention.app.frontier_table import FrontierTable
    from sage_attention.misc.plotting import save_graphics
    print(f"plot: {save_graphics(FrontierTable.from_records(results).plot(), path)}", file=sys.stderr)


if __name__ == "__main__":
    main()
