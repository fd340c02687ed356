"""Benchmark: the calls whose cost grows with depth -- deep dimensions and the filling frontier.

Each call runs cold, in a fresh Python process, as a user makes it, beside
its reference in the same run:

- ``dimension`` of a deep width-2 lightning stack (``LightningAttention(widths=[2] * (L + 1),
  ranks=[1] * L, t=2)``): the default (reverse mode,
  ``sage_attention.models.derivatives.layer_gradients``) against the forward mode of the
  same package (``jacobian_rank(..., gradients=None)``), the method before reverse mode; the
  two ranks must agree;
- ``filling_frontier(2, 1, L, 2, max_width=W)``: the frontier search (the default) against the
  exhaustive search (``exhaustive=True``, the method before the frontier search); the two
  lists of minimal filling architectures must agree.

Targets (issue "speed where the user waits"): 100 layers in at most 30 s, 300 layers in
minutes (at most 600 s); depth 6 (widths <= 5) in at most 10 s; depth 7 (widths <= 7) in
at most 600 s. A verdict line is printed for each.

Run: ``python -m benchmarks.bench_depth [--timeout S] [--quick]``
"""
import argparse
import subprocess
import sys
import time

DIMENSION = """
from sage.all__sagemath_singular import GF
from sage_attention import LightningAttention
from sage_attention.models.jacobian import jacobian_rank
M = LightningAttention(widths=[2] * ({L} + 1), ranks=[1] * {L}, t=2)
if {forward}:
    print(jacobian_rank(M, GF(67108859), 0, ambient=M.ambient_dimension())[0])
else:
    print(M.dimension(seed=0))
"""

FILLING = """
from sage_attention.app.filling import filling_frontier
F = filling_frontier(2, 1, {L}, 2, max_width={W}, seed=0, exhaustive={exhaustive})
print(F["minimal_filling"], "|", len(F["rows"]), "ranks")
"""


def child(code, timeout):
    """Run ``code`` in a fresh interpreter; return ``(seconds, last line)`` or ``(None, None)`` past ``timeout``."""
    t0 = time.perf_counter()
    try:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, None
    if out.returncode:
        raise RuntimeError(out.stderr[-2000:])
    return time.perf_counter() - t0, out.stdout.strip().splitlines()[-1]


def show(what, ours, ref, timeout, target):
    t, a = ours
    r, b = ref
    ref_text = f"> {timeout:.0f}" if r is None else f"{r:.1f}"
    ratio = (f"> {timeout / t:.1f}" if r is None else f"{r / t:.1f}") if t else "-"
    same = r is not None and a.split("|")[0] == b.split("|")[0]
    agree = "" if r is None else (" (results agree)" if same else f" (RESULTS DIFFER: {a} vs {b})")
    ours_text = f"> {timeout:.0f}" if t is None else f"{t:.1f}"
    print(f"{what:<46}{ours_text:>10}{ref_text:>12}{ratio:>10}{agree}")
    verdict = "met" if t is not None and t <= target else "MISSED"
    print(f"  target: at most {target} s -> {verdict}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--timeout", type=float, default=600, help="seconds per call (default: 600)")
    ap.add_argument("--quick", action="store_true", help="only the smaller rows")
    args = ap.parse_args(argv)
    print(f"{'call (cold, fresh process)':<46}{'ours s':>10}{'before s':>12}{'ratio':>10}")
    for L, target in ([(20, 30), (100, 30)] if args.quick else [(20, 30), (100, 30), (300, 600)]):
        ours = child(DIMENSION.format(L=L, forward=False), args.timeout)
        ref = child(DIMENSION.format(L=L, forward=True), min(args.timeout, 300))
        show(f"dimension, {L} lightning layers of width 2", ours, ref, min(args.timeout, 300), target)
    for L, W, target in ([(6, 5, 10)] if args.quick else [(6, 5, 10), (7, 7, 600)]):
        ours = child(FILLING.format(L=L, W=W, exhaustive=False), args.timeout)
        if W ** (L - 1) > 5000:
            # the exhaustive search refuses a box beyond settings.MAX_FILLING_ROWS: a lower bound
            print(f"(the exhaustive search refuses the box of {W ** (L - 1)} architectures; before the "
                  "frontier search it was the only one)")
            ref = (None, None)
        else:
            ref = child(FILLING.format(L=L, W=W, exhaustive=True), min(args.timeout, 300))
        show(f"filling frontier, depth {L}, widths <= {W}", ours, ref, min(args.timeout, 300), target)


if __name__ == "__main__":
    main()
