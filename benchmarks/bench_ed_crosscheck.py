r"""
Cross-check: ED degrees by the package against PHCpack's blackbox solver.

Run from the repository root::

    python -m benchmarks.bench_ed_crosscheck [--timeout SECONDS] [--row NAME ...]

Needs the ``phc`` executable of PHCpack (Debian: ``apt-get install
phcpack``); without it the script says so and exits with status 0.

A second method, numerical and independent of the package's Gröbner bases:
for each row of :mod:`benchmarks.bench_ed_degree` listed in :data:`ROWS`
(a generic cubic curve and a generic cubic surface, the two worked
decision-boundary examples of arXiv 2602.06105, a lightning-attention
boundary, the two-neuron quadratic network on `\RR^3` under both metrics,
the one-entry slice of lightning attention), the Lagrange system

.. MATH::

    h_1 = \dots = h_c = 0, \qquad \Lambda (x - u) = \mathrm{Jac}(h)^T \lambda

in `(x, \lambda)`, with `h` the `c` generators of a hypersurface (`c = 1`)
or the linear generators of `I` and random integer combinations of the
others, `c` in all (`c` the codimension), is written over `\QQ` with integer data `u` and solved by
``phc -b`` (polyhedral homotopy, double precision). A solution counts when
PHCpack calls it regular (nonsingular) and, where `h` does not generate `I`,
when every generator of `I` vanishes at it (relative residual below
`10^{-6}`): the extra components of `V(h)` are dropped. For generic data
the critical points on the smooth part of `V(I)` are nonsingular solutions
with a unique `\lambda`, and those are the ED degree many.

Columns: ``PHCpack`` (the count), ``regular`` (all regular solutions of
the square system, extra components included), ``sing/fail`` (solutions
PHCpack calls singular, e.g. on the singular locus, plus failed paths). The package's count is :func:`~sage_attention.ideals.metric.ed_degree.ed_degree`
(two counts over `GF(p)`, seed 3). A verdict line per row says ``agree`` or
``differ``; homotopy continuation may lose paths, so ``differ`` is a reason
to look, not a proof that either count is wrong.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

#: rows of :data:`benchmarks.bench_ed_degree.ROWS`, with what each one is
ROWS = {
    "generic-cubic-curve": "random plane cubic, integer coefficients (3 * (1 + 2) = 9)",
    "generic-cubic-surface": "random cubic surface, integer coefficients (3 * (1 + 2 + 4) = 21)",
    "generic-quartic-curve": "random plane quartic, integer coefficients (4 * (1 + 3) = 16)",
    "pnn-2-2-2-deg3": "boundary of a cubic network at the weights of bench_ed_degree (9; ill-conditioned)",
    "rvp-example-a": "worked example of arXiv 2602.06105, a conic (4)",
    "rvp-example-b": "worked example at the parameter where it drops, two lines (2)",
    "attention-d2-t2": "lightning-attention boundary, linear form times quadric (3)",
    "two-neuron-n3-bw": "two-neuron quadratic network n = 3, Bombieri-Weyl (binomial(3, 2) = 3)",
    "two-neuron-n3-generic": "two-neuron quadratic network n = 3, generic metric (13)",
    "slice-d2-t2-a1": "one-entry lightning slice, Segre P^1 x P^2, standard metric (10)",
}


#: the random hypersurfaces: name -> (variables, degree)
GENERIC = {"generic-cubic-curve": (2, 3), "generic-cubic-surface": (3, 3), "generic-quartic-curve": (2, 4)}


def row_input(name):
    r"""
    Return ``(ideal over QQ, Gram matrix, exponents, metric)``: a random hypersurface, or a row of ``bench_ed_degree``.
    """
    if name not in GENERIC:
        from benchmarks.bench_ed_degree import row_input as bench_row
        return bench_row(name)
    from sage.all__sagemath_singular import PolynomialRing, QQ, identity_matrix
    n, D = GENERIC[name]
    R = PolynomialRing(QQ, "x", n)
    rng = random.Random(D * 10 + n)
    from itertools import product
    f = sum(rng.choice([-1, 1]) * rng.randrange(1, 10) * R.monomial(*e)
            for e in product(range(D + 1), repeat=n) if sum(e) <= D)
    return R.ideal([f]), identity_matrix(QQ, n), None, "euclidean"


def phc_binary():
    r"""Return the path of ``phc``, or ``None``."""
    return shutil.which("phc")


def lagrange_square_system(I, G, u, rng):
    r"""
    Return ``(equations, variables, generators, n)``: the square Lagrange system over `\QQ` as strings.

    The coordinates are renamed ``z0, z1, ...`` and the multipliers ``l0, ...``
    (PHCpack reserves ``e``, ``E``, ``i``, ``I``).
    """
    from sage.all__sagemath_singular import PolynomialRing, QQ, matrix, vector
    R = I.ring()
    n = R.ngens()
    gens = [g for g in I.gens() if g]
    c = n - I.dimension()
    S = PolynomialRing(QQ, [f"z{i}" for i in range(n)] + [f"l{j}" for j in range(c)])
    zs, lam = S.gens()[:n], S.gens()[n:]
    emb = R.hom(list(zs), S)
    # each generator divided by its largest coefficient: the boundaries have coefficients near 10^8,
    # which leave PHCpack's double precision with ill-conditioned solutions
    G_ = [emb(g) / max(abs(a) for a in g.coefficients()) for g in gens]
    linear = [g for g in G_ if g.degree() == 1][:c]
    rest = [g for g in G_ if g not in linear]
    h = G_ if len(G_) == c else \
        linear + [sum(rng.randrange(1, 10) * g for g in rest) for _ in range(c - len(linear))]
    Jh = matrix(S, [[hj.derivative(z) for z in zs] for hj in h])
    resid = matrix(S, G) * (vector(S, zs) - vector(S, u))
    eqs = list(h) + [resid[i] - sum(lam[j] * Jh[j, i] for j in range(c)) for i in range(n)]
    check = [] if len(G_) == c else G_
    return eqs, S, check, n


def phc_polynomial(f):
    r"""
    Return ``f`` in PHCpack's syntax, its coefficients as decimal floating-point numbers.

    EXAMPLES::

        sage: from benchmarks.bench_ed_crosscheck import phc_polynomial
        sage: R.<z0,l0> = QQ[]
        sage: phc_polynomial(z0^2*l0/3 - 2)
        '+3.3333333333333331E-01*z0^2*l0 -2.0000000000000000E+00'
    """
    terms = []
    for c, m in zip(f.coefficients(), f.monomials()):
        mono = "*".join(f"{x}^{k}" if k > 1 else str(x)
                        for x, k in zip(f.parent().gens(), m.exponents()[0]) if k)
        terms.append(f"{float(c):+.16E}" + (f"*{mono}" if mono else ""))
    return " ".join(terms) if terms else "0"


def parse_solutions(text):
    r"""
    Return the refined solutions of a ``phc -b`` output: a list of ``(regular, {name: complex})``.
    """
    block = text.rsplit("THE SOLUTIONS :", 1)[-1]
    sols = []
    for chunk in re.split(r"^solution \d+ :", block, flags=re.M)[1:]:
        coords = {}
        for m in re.finditer(r"^\s*(\w+)\s*:\s*(\S+)\s+(\S+)\s*$", chunk, re.M):
            name, re_, im_ = m.groups()
            if name in ("t", "m"):
                continue
            try:
                coords[name] = complex(float(re_), float(im_))
            except ValueError:
                continue
        status = re.search(r"^== err.*= ([a-z ]+?) ==\s*$", chunk, re.M)
        tag = status.group(1) if status else ""
        sols.append((tag.endswith("regular") and "singular" not in tag, coords))
    return sols


def phc_count(I, G, u, timeout, seed=11):
    r"""
    Return ``(count, regular, lost, seconds, status)``: PHCpack's nonsingular solutions on `V(I)`, all its
    regular ones, its singular solutions and failed paths, the time.
    """
    rng = random.Random(seed)
    eqs, S, check, n = lagrange_square_system(I, G, u, rng)
    with tempfile.TemporaryDirectory() as d:
        fin, fout = os.path.join(d, "in"), os.path.join(d, "out")
        with open(fin, "w") as fh:
            fh.write(f"{len(eqs)}\n" + "".join(f" {phc_polynomial(e)};\n" for e in eqs))
        t0 = time.time()
        try:
            subprocess.run([phc_binary(), "-b", "-0", fin, fout], capture_output=True, timeout=timeout, cwd=d)
        except subprocess.TimeoutExpired:
            return None, None, None, timeout, "timeout"
        dt = time.time() - t0
        if not os.path.exists(fout):
            return None, None, None, dt, "no output"
        with open(fout) as fh:
            text = fh.read()
    sols = parse_solutions(text)
    lost = sum(int(m.group(1)) for m in
               re.finditer(r"Number of (?:singular solutions|failures)\s*:\s*(\d+)\.", text))
    names = [str(z) for z in S.gens()]
    regular = [c for ok, c in sols if ok]
    if not check:
        return len(regular), len(regular), lost, dt, "ok"
    from sage.all__sagemath_singular import CDF
    SC = S.change_ring(CDF)
    checkC = [SC(g) for g in check]
    count = 0
    for coords in regular:
        pt = [CDF(coords.get(x, 0)) for x in names]
        scale = 1 + max(abs(a) for a in pt[:n])
        if all(abs(g(pt)) <= 1e-6 * scale ** g.degree() * max(abs(a) for a in g.coefficients())
               for g in checkC):
            count += 1
    return count, len(regular), lost, dt, "ok"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--row", action="append")
    args = ap.parse_args(argv)
    if phc_binary() is None:
        print("bench_ed_crosscheck: skipped: the PHCpack executable `phc` is not on PATH "
              "(Debian: apt-get install phcpack)")
        return 0
    from sage.all__sagemath_singular import QQ
    from sage_attention.ideals.metric.ed_degree import ed_degree
    names = args.row or list(ROWS)
    print(f"{'row':24} {'package':>8} {'time':>8} {'PHCpack':>8} {'regular':>8} {'sing/fail':>9} {'time':>8}  verdict")
    verdicts = []
    for name in names:
        I, G, exps, metric = row_input(name)
        rng = random.Random(7)
        u = [QQ(rng.choice([-1, 1]) * rng.randrange(1, 10)) for _ in range(I.ring().ngens())]
        t0 = time.time()
        E = ed_degree(I, G, seed=3)
        tp = time.time() - t0
        count, regular, lost, dt, status = phc_count(I, G, u, args.timeout)
        if status != "ok":
            verdict = f"no PHCpack count ({status})"
        else:
            verdict = "agree" if count == E.degree else "differ"
            if count != E.degree and lost:
                verdict += f" (PHCpack: {lost} singular solutions or failed paths)"
        verdicts.append(verdict)
        print(f"{name:24} {str(E.degree):>8} {tp:6.2f} s {str(count):>8} {str(regular):>8} {str(lost):>9} "
              f"{dt:6.2f} s  {verdict}",
              flush=True)
    print()
    agree = sum(v == "agree" for v in verdicts)
    print(f"verdict: PHCpack's nonsingular solutions agree with the package on {agree} of {len(verdicts)} rows"
          + ("" if agree == len(verdicts) else
             "; differ on " + ", ".join(n for n, v in zip(names, verdicts) if v != "agree")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
