"""Benchmark: dimension of one lightning layer, d = d' = 8, t = 3, a = 4.

Compares, in one run, the package's method (forward-mode Jacobian at random
inputs over GF(p), no expansion) with the textbook route a Sage user would
write by hand: build every coefficient polynomial of the parametrization and
take the rank of its symbolic Jacobian at a random point.

Run: ``python -m benchmarks.bench_dimension [--repeat N]``
"""
import argparse
import multiprocessing
import random
import statistics
import time

from sage.all__sagemath_singular import GF, QQ, matrix, PolynomialRing

from sage_attention import LightningAttention


def by_expansion(d, out, t, a, seed=0):
    """Rank of the Jacobian of the expanded coefficient polynomials (reference)."""
    F = GF(67108859)
    rng = random.Random(seed)
    names = ([f"q{k}_{c}" for k in range(a) for c in range(d)] + [f"k{k}_{c}" for k in range(a) for c in range(d)]
             + [f"v{i}_{c}" for i in range(out) for c in range(d)])
    W = PolynomialRing(QQ, names)
    g = W.gens()
    Q = matrix(W, a, d, g[:a * d])
    K = matrix(W, a, d, g[a * d:2 * a * d])
    V = matrix(W, out, d, g[2 * a * d:])
    R = PolynomialRing(W, [f"x{k}_{n}" for k in range(d) for n in range(t)])
    X = matrix(R, d, t, R.gens())
    Y = V.change_ring(R) * X * (X.transpose() * (K.transpose() * Q).change_ring(R) * X)
    coeffs = [c for i in range(out) for j in range(t) for c in Y[i, j].coefficients()]
    pt = [QQ(rng.randrange(67108859)) for _ in g]
    J = matrix(F, [[f.derivative(x)(*pt) for x in g] for f in coeffs])
    return J.rank(), len(coeffs)


def _reference_worker(args, queue):
    t0 = time.perf_counter()
    r, ncoef = by_expansion(*args)
    queue.put((r, ncoef, time.perf_counter() - t0))


def timed_reference(d, out, t, a, seed, timeout):
    """Run the reference in a child process; ``None`` when it exceeds ``timeout`` seconds."""
    queue = multiprocessing.Queue()
    proc = multiprocessing.Process(target=_reference_worker, args=((d, out, t, a, seed), queue))
    proc.start()
    proc.join(timeout)
    if proc.is_alive():
        proc.terminate()
        proc.join()
        return None
    return queue.get()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--d", type=int, default=8)
    ap.add_argument("--t", type=int, default=3)
    ap.add_argument("--a", type=int, default=4)
    ap.add_argument("--timeout", type=float, default=120,
                    help="seconds the reference may take per run (default: 120)")
    args = ap.parse_args(argv)
    d, t, a = args.d, args.t, args.a
    ours, ref = [], []
    for rep in range(args.repeat):
        # a fresh model object each time: UniqueRepresentation would cache it
        M = LightningAttention(d=d, t=t, a=a, out=d)
        t0 = time.perf_counter()
        D = M.dimension_report(seed=rep)
        ours.append(time.perf_counter() - t0)
        res = timed_reference(d, d, t, a, rep, args.timeout)
        if res is None:
            ref.append(None)
        else:
            r, ncoef, seconds = res
            assert r == D.dimension, (r, D.dimension)
            ref.append(seconds)
    mo = statistics.median(ours)
    print(f"dimension of LightningAttention(d={d}, d'={d}, t={t}, a={a}): {D.dimension} "
          f"(expected {D.expected}), {M.nparameters()} weights, {M.ncoordinates()} coordinates")
    print(f"{'method':<44}{'median s':>12}")
    print(f"{'sage_attention dimension() (forward mode)':<44}{mo:>12.3f}")
    if any(x is None for x in ref):
        print(f"{'expand Y + symbolic Jacobian (reference)':<44}{'> ' + str(args.timeout):>12}")
        print(f"ratio reference / sage_attention: > {args.timeout / mo:.0f} (reference timed out)")
    else:
        mr = statistics.median(ref)
        print(f"{'expand Y + symbolic Jacobian (reference)':<44}{mr:>12.3f}")
        print(f"ratio reference / sage_attention: {mr / mo:.1f} (the two ranks agree)")


if __name__ == "__main__":
    main()
