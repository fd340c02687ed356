r"""
Benchmark: ED degrees by the package against the Lagrange system in Singular and Macaulay2.

Run from the repository root::

    python -m benchmarks.bench_ed_degree [--timeout SECONDS] [--row NAME ...] [--no-m2]
                                         [--two-neuron N ...] [--two-neuron-timeout SECONDS]

Rows: decision boundaries of polynomial networks (the two worked examples
of arXiv 2602.06105, shallow and deep, quadratic to quartic, random weights
with biases) and of lightning attention with a linear readout, the
one-entry slice of lightning attention (a Segre product, standard metric),
and the neurovariety of the two-neuron quadratic network (arXiv 2512.21016)
under Bombieri-Weyl and a generic metric.

For each row the same ED degree is computed by

- ``package``: :func:`~sage_attention.ideals.metric.ed_degree.ed_degree`
  (two counts over `GF(p)` at independent data; the time is the first count
  and, in brackets, both);
- ``Singular``: the method of the paper's code over `\QQ`, in this process
  through Sage with an alarm: the ideal `I` plus the `(c+1)`-minors of
  `[\Lambda(x-u); \mathrm{Jac}(I)]` (for a hypersurface the `2 \times 2`
  minors of `[x-u \mid \nabla F]`), saturated by the `c`-minors of
  `\mathrm{Jac}(I)`, then ``vdim``;
- ``M2``: the same system in Macaulay2 (``saturate`` + ``degree``, its own
  ``cpuTime``), where M2 runs (``benchmarks.run.m2_binary``).

Verdict lines: every count agrees; the speed-up over each reference where
the reference needs more than 1 s (goal: at least 10 times).

A second table (without ``--row``): the ED degrees of the two-neuron
quadratic network for `n = 3, \dots, 6` under Bombieri-Weyl and a generic
metric, with their times, against `\binom{n}{2}` and, for `n = 3`, `13`.
"""
import argparse
import os
import random
import signal
import statistics
import tempfile
import time

from benchmarks.run import m2_binary, run_sub

#: name -> (kind, arguments)
ROWS = {
    "rvp-example-a": ("boundary", dict(widths=[2, 2, 2], D=2, weights="a")),
    "rvp-example-b": ("boundary", dict(widths=[2, 2, 2], D=2, weights="b")),
    "pnn-2-3-2-deg2": ("boundary", dict(widths=[2, 3, 2], D=2)),
    "pnn-3-3-2-deg2": ("boundary", dict(widths=[3, 3, 2], D=2)),
    "pnn-2-2-2-deg3": ("boundary", dict(widths=[2, 2, 2], D=3)),
    "pnn-3-2-2-deg3": ("boundary", dict(widths=[3, 2, 2], D=3)),
    "pnn-2-2-2-deg4": ("boundary", dict(widths=[2, 2, 2], D=4)),
    "pnn-2-2-2-2-deg2": ("boundary", dict(widths=[2, 2, 2, 2], D=2)),
    "pnn-4-3-2-deg2": ("boundary", dict(widths=[4, 3, 2], D=2)),
    "pnn-3-3-2-deg3": ("boundary", dict(widths=[3, 3, 2], D=3)),
    "pnn-3-3-3-2-deg2": ("boundary", dict(widths=[3, 3, 3, 2], D=2)),
    "pnn-2-2-2-2-deg3": ("boundary", dict(widths=[2, 2, 2, 2], D=3)),
    "attention-d2-t2": ("attention", dict(d=2, t=2)),
    "attention-d2-t3": ("attention", dict(d=2, t=3)),
    "slice-d2-t2-a1": ("slice", dict(d=2, t=2, a=1, entries=[(1, 1)])),
    "two-neuron-n3-bw": ("network", dict(n=3, metric="bombieri_weyl")),
    "two-neuron-n3-generic": ("network", dict(n=3, metric="generic")),
    "two-neuron-n4-bw": ("network", dict(n=4, metric="bombieri_weyl")),
    "two-neuron-n4-generic": ("network", dict(n=4, metric="generic")),
}


def row_input(name):
    r"""Return ``(ideal over QQ, Gram matrix over QQ, exponents, metric)`` of a row."""
    from sage.all__sagemath_singular import QQ, matrix, identity_matrix
    from sage_attention import PolynomialNetwork, Network, attention, dense
    from sage_attention.ideals.metric.boundary import decision_boundary, reduced
    kind, kw = ROWS[name]
    if kind == "boundary":
        M = PolynomialNetwork(kw["widths"], kw["D"], bias=True)
        W1, W2 = matrix(QQ, [[1, 2], [3, 1]]), matrix(QQ, [[2, 1], [1, 2]])
        w = {"a": [(W1, matrix(QQ, 2, 1, [0, 1])), (W2, matrix(QQ, 2, 1, [2, 1]))],
             "b": [(W1, matrix(QQ, 2, 1, [1, 2])), (W2, matrix(QQ, 2, 1, [1, 1]))]}.get(kw.get("weights"))
        f = reduced(decision_boundary(M, w, seed=1))
        return f.parent().ideal([f]), identity_matrix(QQ, f.parent().ngens()), None, "euclidean"
    if kind == "attention":
        N = Network([attention(a=1, out=1), dense(out=2)], d=kw["d"], t=kw["t"])
        f = reduced(decision_boundary(N, seed=1, outputs=[(0, kw["t"] - 1), (1, kw["t"] - 1)]))
        return f.parent().ideal([f]), identity_matrix(QQ, f.parent().ngens()), None, "euclidean"
    from sage_attention.variety.metric import network_ideal
    from sage_attention.ideals.metric.gram import gram_matrix
    if kind == "slice":
        from sage_attention import LightningAttention
        I, _ = network_ideal(LightningAttention(out=1, **kw))
        return I, identity_matrix(QQ, I.ring().ngens()), None, "euclidean"
    I, exps = network_ideal(PolynomialNetwork([kw["n"], 2, 1], 2))
    n = I.ring().ngens()
    if kw["metric"] == "bombieri_weyl":
        return I, gram_matrix("bombieri_weyl", n, QQ, exponents=exps), exps, kw["metric"]
    rng = random.Random(5)             # a generic metric with small entries, the same for every engine
    A = matrix(QQ, n, n, lambda i, j: rng.randrange(1, 50))
    return I, A + A.transpose(), exps, kw["metric"]


def lagrange_system(I, G, u):
    r"""Return ``(critical ideal, singular-locus ideal)`` over `\QQ` (the paper's method)."""
    from sage.all__sagemath_singular import matrix, vector
    R = I.ring()
    n = R.ngens()
    c = R.ngens() - I.dimension()
    gens = [g for g in I.gens() if g]
    Jac = matrix(R, [[g.derivative(x) for x in R.gens()] for g in gens])
    top = (G * (vector(R, R.gens()) - vector(R, u))).row()
    crit = I + R.ideal(top.stack(Jac).minors(c + 1))
    return crit, R.ideal(Jac.minors(c))


class _Alarm(Exception):
    pass


def _raise(*args):
    raise _Alarm()


#: the Lagrange system is not formed beyond this many minors (the references would not finish)
MAX_MINORS = 20000


def minors_count(I):
    r"""Return the number of `(c+1)`-minors of the Lagrange matrix of ``I``."""
    from sage.all__sagemath_singular import binomial
    R = I.ring()
    c = R.ngens() - I.dimension()
    s = len([g for g in I.gens() if g])
    return binomial(s + 1, c + 1) * binomial(R.ngens(), c + 1)


def time_singular(I, G, u, timeout):
    r"""Return ``(count, seconds, status)`` of Singular on the Lagrange system."""
    from cysignals.signals import AlarmInterrupt
    if minors_count(I) > MAX_MINORS:
        return None, None, "too many minors"
    signal.signal(signal.SIGALRM, _raise)
    t0 = time.time()
    signal.alarm(int(timeout))
    try:
        crit, sing = lagrange_system(I, G, u)
        n = crit.saturation(sing)[0].vector_space_dimension()
        return int(n), time.time() - t0, "ok"
    except (_Alarm, AlarmInterrupt, KeyboardInterrupt):
        return None, timeout, "timeout"
    finally:
        signal.alarm(0)


def time_m2(I, G, u, timeout):
    r"""Return ``(count, seconds, status)`` of Macaulay2 (``saturate`` + ``degree``) on the same system."""
    if minors_count(I) > MAX_MINORS:
        return None, None, "too many minors"
    crit, sing = lagrange_system(I, G, u)
    R = I.ring()
    names = ",".join(R.variable_names())
    script = (f"R = QQ[{names}];\n"
              f"C = ideal({','.join(str(g) for g in crit.gens())});\n"
              f"S = ideal({','.join(str(g) for g in sing.gens())});\n"
              "t0 = cpuTime(); d = degree saturate(C, S); print(toString d | \" \" | toString(cpuTime() - t0));\n")
    with tempfile.NamedTemporaryFile("w", suffix=".m2", delete=False) as fh:
        fh.write(script)
    try:
        out, dt, status = run_sub([m2_binary(), "--script", fh.name], timeout)
    finally:
        os.unlink(fh.name)
    if status != "ok":
        return None, dt, status
    d, secs = out.split()[-2:]
    return int(d), float(secs), "ok"


#: the two-neuron quadratic network ``PolynomialNetwork([n, 2, 1], 2)``: n -> expected ED degree
#: under a generic metric where an independent value is known (the determinant hypersurface for
#: n = 3 is dual to v2(P^2): the Chern-class number 13); Bombieri-Weyl: binomial(n, 2) (Eckart-Young)
TWO_NEURON_GENERIC = {3: 13}


def two_neuron_table(ns, timeout):
    r"""
    Print the ED degrees of the two-neuron quadratic network for ``ns`` under both metrics, with their times.

    Each count is :func:`~sage_attention.variety.metric.network_ed_degree`
    (two counts over `GF(p)`; the birational chart
    :func:`~sage_attention.variety.metric.quadratic_chart`), stopped after
    ``timeout`` seconds. Returns the rows ``(n, metric, degree, seconds,
    expected)``.
    """
    from cysignals.signals import AlarmInterrupt
    from sage.all__sagemath_singular import binomial
    from sage_attention import PolynomialNetwork
    from sage_attention.variety.metric import network_ed_degree
    print()
    print("the two-neuron quadratic network PolynomialNetwork([n, 2, 1], 2), seed 0, both counts:")
    print(f"{'n':>3} {'metric':14} {'ED':>6} {'time':>10} {'technique':22} expected")
    rows = []
    for n in ns:
        for metric in ("bombieri_weyl", "generic"):
            expected = binomial(n, 2) if metric == "bombieri_weyl" else TWO_NEURON_GENERIC.get(n)
            signal.signal(signal.SIGALRM, _raise)
            t0 = time.time()
            signal.alarm(int(timeout))
            try:
                E = network_ed_degree(PolynomialNetwork([n, 2, 1], 2), metric, seed=0)
                degree, how = E.degree, E.certificate.technique
            except (_Alarm, AlarmInterrupt, KeyboardInterrupt):
                degree, how = None, f"> {timeout:g} s"
            finally:
                signal.alarm(0)
            dt = time.time() - t0
            rows.append((n, metric, degree, dt, expected))
            check = "-" if expected is None else ("agrees" if degree == expected else
                                                  ("no count" if degree is None else "DIFFERS"))
            print(f"{n:>3} {metric:14} {str(degree):>6} {dt:8.2f} s {how:22} "
                  f"{'' if expected is None else expected} {check}", flush=True)
    ok = all(r[2] == r[4] for r in rows if r[4] is not None and r[2] is not None)
    print(f"verdict: two-neuron counts agree with the known values (binomial(n, 2); 13): {'yes' if ok else 'NO'}")
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--row", action="append")
    ap.add_argument("--no-m2", action="store_true")
    ap.add_argument("--two-neuron", type=int, nargs="*", default=[3, 4, 5, 6], metavar="N",
                    help="the input widths n of the two-neuron table (default: 3 4 5 6; none: skip it)")
    ap.add_argument("--two-neuron-timeout", type=float, default=600)
    args = ap.parse_args(argv)
    from sage.all__sagemath_singular import QQ
    from sage_attention.ideals.metric.ed_degree import ed_degree
    names = args.row or list(ROWS)
    m2 = not args.no_m2 and run_sub([m2_binary(), "--script", "/dev/null"], 60)[2] == "ok"
    table = []
    print(f"{'row':24} {'ED':>5} {'package':>16} {'Singular':>12} {'M2':>12}  agree")
    for name in names:
        I, G, exps, metric = row_input(name)
        rng = random.Random(7)
        u = [QQ(rng.randrange(-100, 100)) for _ in range(I.ring().ngens())]
        t0 = time.time()
        E = ed_degree(I, G, seed=3)
        both = time.time() - t0
        one = E.certificate.runs[0][3] if E.certificate is not None else both
        s_count, s_time, s_status = time_singular(I, G, u, args.timeout)
        m_count, m_time, m_status = time_m2(I, G, u, args.timeout) if m2 else (None, None, "no M2")
        agree = all(c in (None, E.degree) for c in (s_count, m_count))
        table.append((name, E.degree, one, s_time if s_status == "ok" else None,
                      m_time if m_status == "ok" else None, agree, s_status, m_status))
        def fmt(t, st):
            return f"{t:10.2f} s" if st == "ok" else f"{st[:15]:>15}"
        print(f"{name:24} {str(E.degree):>5} {one:7.2f} s ({both:5.1f}) {fmt(s_time, s_status)} "
              f"{fmt(m_time, m_status)}  {'yes' if agree else 'NO'}", flush=True)
    print()
    print(f"verdict: counts agree on every row: {'yes' if all(r[5] for r in table) else 'NO'}")
    for col, label in ((3, "Singular"), (4, "M2")):
        ratios = [r[col] / max(r[2], 1e-3) for r in table if r[col] is not None and r[col] > 1]
        if not ratios:
            print(f"verdict: {label}: no row where it needs more than 1 s (nothing to compare)")
            continue
        worst = min(ratios)
        print(f"verdict: {label} rows over 1 s: {len(ratios)}; speed-up min {worst:.1f}x, median "
              f"{statistics.median(ratios):.1f}x; goal >= 10x: {'met' if worst >= 10 else 'MISSED'}")
    if args.two_neuron and not args.row:
        two_neuron_table(args.two_neuron, args.two_neuron_timeout)


if __name__ == "__main__":
    main()
