"""Time [HMK2024]'s softmax experiment (l = 2, t = 3, a = 2, delta = 3..10), one trial each.

Run: python -m benchmarks.bench_softmax  (prints the time; no assertion on it)
"""
import sys
import time

from sage.all__sagemath_singular import *  # noqa: F401,F403  (initialize Sage)
from sage_attention.app.experiments import hmk_experiment


def main():
    t0 = time.perf_counter()
    rows = hmk_experiment(deltas=range(3, 11), normalization="softmax", seed=0)
    elapsed = time.perf_counter() - t0
    ok = all(r["dimension"] == r["expected"] for r in rows)
    for r in rows:
        print(f"delta={r['delta']:2d}  estimated={r['dimension']:4d}  expected={r['expected']:4d}"
              f"  inputs={r['inputs']:3d}  gap={r['gap']:.1e}  {r['seconds']:.2f}s")
    print(f"HMK softmax sweep (delta = 3..10, one trial each): {elapsed:.2f} s; "
          f"all equal to the formula: {ok}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
