r"""
Benchmark: degree and whole-ideal proof, modular (this package) against Sage/Singular over QQ.

Run from the repository root::

    python -m benchmarks.bench_proof_degree [--timeout SECONDS]

For the one-entry slices ``d = 3``, ``t = 2``, ranks 1..3 it prints, in one
run, the time of ``Neurovariety.degree()`` (the first call in a fresh
process, imports and the model excluded: the vanishing ideal, its proof and
the Hilbert series of the proved ideal; the median of three processes) against
Sage's Hilbert series of the same generators over QQ, and the time of the
default whole-ideal proof (the localization certificate) against Sage's
``is_prime()`` over QQ, each reference in a subprocess with a time limit
(a timeout makes the ratio a lower bound). It also prints the time of the
graded Betti numbers (``hilbert_data(betti=True)``: two primes, Singular's
``sres`` minimized by ``betti``) against Sage's ``graded_free_resolution``
over QQ and Macaulay2's ``minimalBetti`` over ``ZZ/32003`` (``--betti-timeout``
limits ours, ``--timeout`` the references).
"""
import argparse
import json
import subprocess
import sys
import time

REF = r"""
import json, sys, time
from sage.all__sagemath_singular import QQ
from sage_attention import LightningAttention
from sage_attention.ideals.implicitization import implicitize
a, what = int(sys.argv[1]), sys.argv[2]
M = LightningAttention(d=3, t=2, a=a, out=1, entries=[(1, 1)])
R = implicitize(M, 4, seed=0, executor=False, prove=False)
J = M.essential_ring().ideal(list(R.essential_generators))
t0 = time.time()
if what == "degree":
    out = str(J.hilbert_series())
elif what == "betti":
    out = str(J.graded_free_resolution(algorithm="minimal").betti(1))
else:
    out = bool(J.is_prime())
print(json.dumps({"seconds": time.time() - t0, "value": str(out)}))
"""


FRESH = r"""
import sys, time
from sage_attention import LightningAttention
from sage_attention.variety.neurovariety import Neurovariety
M = LightningAttention(d=3, t=2, a=int(sys.argv[1]), out=1, entries=[(1, 1)])
t0 = time.time()
deg = Neurovariety(M).degree()
print(deg, time.time() - t0)
"""


def fresh_degree(a, timeout):
    r"""Return ``(degree, seconds)`` of ``Neurovariety(M).degree()`` in a fresh process (imports excluded)."""
    p = subprocess.run([sys.executable, "-c", FRESH, str(a)], capture_output=True, text=True, timeout=timeout)
    deg, t = p.stdout.strip().splitlines()[-1].split()
    return int(deg), float(t)


def ref(a, what, timeout):
    try:
        p = subprocess.run([sys.executable, "-c", REF, str(a), what], capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return timeout, "timeout"
    if p.returncode:
        return None, "failed"
    return json.loads(p.stdout.strip().splitlines()[-1])["seconds"], "ok"


def m2_betti(a, timeout):
    r"""Time Macaulay2's ``minimalBetti`` of the slice's ideal over ``ZZ/32003`` (a subprocess), or report why not."""
    import os
    import tempfile
    from benchmarks.run import m2_binary
    from sage_attention import LightningAttention
    from sage_attention.variety.neurovariety import Neurovariety
    from sage_attention.ideals.hilbert import integral_generators
    M = LightningAttention(d=3, t=2, a=a, out=1, entries=[(1, 1)])
    gens = integral_generators(Neurovariety(M)._engine_or_minimal())
    vs = ",".join(str(v) for v in M.essential_ring().gens())
    script = (f"R = ZZ/32003[{vs}];\nI = ideal({','.join(str(g) for g in gens)});\n"
              "t0 = cpuTime(); B = minimalBetti I; print(cpuTime() - t0);\nexit 0\n")
    with tempfile.NamedTemporaryFile("w", suffix=".m2", delete=False) as fh:
        fh.write(script)
    try:
        p = subprocess.run([m2_binary(), "--script", fh.name], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return timeout, "timeout"
    except OSError:
        return None, "no M2"
    finally:
        os.unlink(fh.name)
    if p.returncode:
        return None, "failed"
    return float(p.stdout.strip().splitlines()[-1]), "ok"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--betti-timeout", type=float, default=60)
    args = ap.parse_args(argv)
    from sage.all__sagemath_singular import QQ  # noqa: F401
    from sage_attention import LightningAttention
    from sage_attention.variety.neurovariety import Neurovariety
    from sage_attention.ideals.implicitization import implicitize
    for a in (1, 2, 3):
        M = LightningAttention(d=3, t=2, a=a, out=1, entries=[(1, 1)])
        # the first call in a fresh process (the vanishing ideal and its proof included),
        # the median of three processes
        runs = sorted(fresh_degree(a, args.timeout) for _ in range(3))
        deg, td = runs[1]
        rd, sd = ref(a, "degree", args.timeout)
        t0 = time.time()
        R = implicitize(M, 4, seed=0, executor=False)
        tp = R.timings["proof"]
        rp, sp = ref(a, "prime", args.timeout)
        ge = lambda s: ">" if s == "timeout" else ""
        print(f"slice-d3-a{a}: degree {deg} in {td:.2f} s (target < 1 s: {'met' if td < 1 else 'NOT met'}); "
              f"QQ Hilbert series {ge(sd)}{rd:.1f} s, ratio {ge(sd)}{rd / td:.2f}x", flush=True)
        t0 = time.time()
        H = Neurovariety(M).hilbert_data(betti=True, timeout=args.betti_timeout)
        tb = time.time() - t0
        done = H.betti is not None
        rb, sb = ref(a, "betti", args.timeout)
        mb, smb = m2_betti(a, args.timeout)
        fmt = lambda v, st: "n/a" if v is None else f"{ge(st)}{v:.1f} s, ratio {ge(st)}{v / tb:.2f}x"
        print(f"slice-d3-a{a}: Betti numbers {'computed' if done else 'NOT computed'} in {tb:.2f} s "
              f"(target < 1 s: {'met' if done and tb < 1 else 'NOT met'}); Sage graded_free_resolution over QQ "
              f"{fmt(rb, sb)}; M2 minimalBetti mod 32003 {fmt(mb, smb)}", flush=True)
        print(f"slice-d3-a{a}: whole-ideal proof {'proved' if R.proved_complete else 'not proved'} in {tp:.2f} s; "
              f"QQ is_prime {ge(sp)}{rp:.1f} s, ratio {ge(sp)}{rp / tp:.1f}x", flush=True)


if __name__ == "__main__":
    main()
