"""Exports: Macaulay2 round trip (run by a real M2), JSON and LaTeX.

The M2 test writes the vanishing ideal (computed by elimination in Singular)
as a Macaulay2 script, runs Macaulay2 on it, has Macaulay2 print a Gröbner
basis of the ideal it read, and compares the ideal of that basis with the
original one in Sage (an equality of ideals, checked by Singular).
"""
import os
import shutil
import subprocess
import tempfile

import pytest

import sage.all__sagemath_singular  # noqa: F401  (initializes Sage)
from sage.all__sagemath_singular import QQ

from sage_attention import LightningAttention
from sage_attention.variety.export import (to_macaulay2, to_json, from_json, to_latex,
                                   from_macaulay2_polynomial, HEADER)
from sage_attention.invariants import invariants
from sage_attention.variety.neurovariety import Neurovariety


def _m2_candidates():
    r"""The M2 binaries to try: passagemath-macaulay2's (pip) first, then ``M2`` on ``PATH``."""
    found = []
    try:
        import sage_wheels
        for base in sage_wheels.__path__:
            p = os.path.join(base, "bin", "M2")
            if os.path.exists(p):
                found.append(p)
    except ImportError:
        pass
    if shutil.which("M2") and shutil.which("M2") not in found:
        found.append(shutil.which("M2"))
    return found


def _run_m2_script(exe, script, timeout):
    # M2 --script cannot read a pipe (/dev/stdin): write the script to a file
    with tempfile.NamedTemporaryFile("w", suffix=".m2", delete=False) as fh:
        fh.write(script)
    try:
        return subprocess.run([exe, "--script", fh.name], capture_output=True, text=True,
                              timeout=timeout)
    finally:
        os.unlink(fh.name)


def _working_m2():
    r"""
    Return ``(M2 binary, None)`` or ``(None, reason)``.

    Each candidate is first run as ``M2 --version`` in a subprocess with a
    time limit (a binary built for another CPU dies with 'Illegal
    instruction', i.e. signal SIGILL), then on a one-line script. Nothing is
    installed: without a working M2 the tests are skipped with the reason.
    """
    reasons = []
    for exe in _m2_candidates():
        try:
            r = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30)
            if r.returncode == 0:
                r = _run_m2_script(exe, "print(1+1)\n", 60)
        except (OSError, subprocess.TimeoutExpired) as exc:
            reasons.append(f"{exe}: {exc}")
            continue
        if r.returncode == 0 and r.stdout.strip().endswith("2"):
            return exe, None
        if r.returncode < 0:
            import signal
            reasons.append(f"{exe}: killed by {signal.Signals(-r.returncode).name}"
                           + (" (Illegal instruction: built for another CPU)"
                              if -r.returncode == signal.SIGILL else ""))
        else:
            reasons.append(f"{exe}: exit code {r.returncode} {r.stderr.strip()[:100]}")
    return None, ("; ".join(reasons) or "no M2 binary found") + (
        " (pip install passagemath-macaulay2, or Debian's macaulay2 package)")


M2, WHY = _working_m2()
needs_m2 = pytest.mark.skipif(M2 is None, reason=f"Macaulay2 cannot run here: {WHY}")


def _m2_groebner_basis(script, ring, name="I"):
    script += f"\nscan(flatten entries gens gb {name}, g -> print toString g);\nexit 0\n"
    r = _run_m2_script(M2, script, 600)
    assert r.returncode == 0, r.stderr
    return [from_macaulay2_polynomial(line, ring) for line in r.stdout.split("\n") if line.strip()]


@needs_m2
@pytest.mark.parametrize("kw", [dict(d=2, t=2, a=1, entries=[(1, 1)]),
                                dict(d=3, t=2, a=1, entries=[(1, 1)], coordinate_scaling="scaled"),
                                dict(d=2, t=2, a=2, out=2, weight_space="AV")])
def test_macaulay2_round_trip_of_a_vanishing_ideal(kw):
    M = LightningAttention(**kw)
    I = Neurovariety(M).vanishing_ideal(algorithm="elimination")
    script = to_macaulay2(I, model=M)
    assert script.startswith(HEADER)
    C = M.coordinate_ring()
    G = _m2_groebner_basis(script, C)
    assert G and all(g.parent() is C for g in G)
    assert C.ideal(G) == I
    # and the round trip is not trivially true: dropping a generator changes the ideal
    J = C.ideal(list(I.gens())[:-1])
    assert J != I


@needs_m2
def test_macaulay2_round_trip_of_a_family():
    M = LightningAttention(d=3, t=2, a=2, entries=[(1, 1)])
    fam = invariants(M, ["low_rank"])
    C = M.coordinate_ring()
    G = _m2_groebner_basis(to_macaulay2(fam, name="L"), C, name="L")
    assert C.ideal(G) == C.ideal(list(fam.polynomials()))


def test_json_round_trip():
    M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)], weight_space="AV", coordinate_scaling="scaled")
    I = Neurovariety(M).vanishing_ideal(algorithm="elimination")
    R, gens, data = from_json(to_json(I, model=M))
    assert R.variable_names() == M.coordinate_ring().variable_names()
    assert R.ideal(gens) == R.ideal([R(str(g)) for g in I.gens()])
    assert data["model"] == str(M)
    fam = invariants(M, ["linear", "low_rank"])
    R2, gens2, data2 = from_json(to_json(fam))
    assert [str(g) for g in gens2] == [str(f) for f in fam.polynomials()]
    assert data2["labels"] == [str(l) for l in fam.labels()]
    assert data2["kind"] == fam.name


def test_latex():
    M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
    fam = invariants(M, ["low_rank"])
    tex = to_latex(fam)
    assert tex.startswith("\\begin{align*}") and tex.count("&= 0") == len(fam)
    I = Neurovariety(M).vanishing_ideal()
    tex = to_latex(I)
    assert tex.startswith("\\left\\langle") and tex.count(",\\;") == len(I.gens()) - 1


def test_make_test_does_not_change_the_system():
    # `make -n` prints the commands a target would run without running them
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not shutil.which("make"):
        pytest.skip("make is not installed")
    for target in ("test", "pytest", "doctest", "tools"):
        r = subprocess.run(["make", "-n", target], cwd=root, capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        assert "apt-get" not in r.stdout and "apt " not in r.stdout, (target, r.stdout)


@pytest.mark.parametrize("make", [
    lambda: LightningAttention(d=2, t=2, a=1),
    lambda: LightningAttention(d=3, t=3, a=2, out=2, entries=[(1, 1), (2, 3)], weight_space="AV",
                               coordinate_scaling="scaled"),
    lambda: LightningAttention(widths=[2, 3, 1], ranks=[1, 2], t=2),
    lambda: LightningAttention(d=2, t=1, a=1, base_ring=__import__("sage.all__sagemath_singular",
                                                                     fromlist=["GF"]).GF(101)),
])
def test_model_json_round_trip(make):
    import json
    M = make()
    data = json.loads(to_json(M))
    assert data["format"] == "sage_attention.model"
    assert tuple(data["widths"]) == M.widths and tuple(data["ranks"]) == M.ranks
    assert data["tokens"] == M.tokens
    back = from_json(to_json(M))
    assert back is M
    assert back.coordinate_ring().variable_names() == M.coordinate_ring().variable_names()


def _number_fields():
    from sage.all__sagemath_singular import CC, GF, PolynomialRing, QuadraticField
    from sage.rings.number_field.number_field import NumberField
    x = PolynomialRing(QQ, "x").gen()
    return [QuadraticField(2), QuadraticField(-3, "w"), NumberField(x**3 - 2, "c", embedding=CC(-0.6, 1.1)),
            NumberField(x**3 - 2, "c"), GF(4, "a")]


@pytest.mark.parametrize("index", range(5))
def test_model_json_round_trip_keeps_the_field_and_its_embedding(index):
    # the field read back is the same Sage field (QuadraticField's embedding and LaTeX name included),
    # so the model read back is the same model; the embedding is compared as a complex number
    K = _number_fields()[index]
    M = LightningAttention(d=2, t=2, a=1, base_ring=K)
    back = from_json(to_json(M))
    assert back.base_ring() == K and back is M
    if K.is_finite():
        return
    assert (K.coerce_embedding() is None) == (back.base_ring().coerce_embedding() is None)
    if K.coerce_embedding() is not None:
        from sage.rings.complex_mpfr import ComplexField
        C = ComplexField(100)
        assert abs(C(back.base_ring().gen_embedding()) - C(K.gen_embedding())) < C(2) ** -90


def test_softmax_model_and_report_json():
    import json
    from sage_attention import SoftmaxAttention
    S = SoftmaxAttention(d=2, t=2, a=1)
    assert from_json(to_json(S)) is S
    M = LightningAttention(d=2, t=2, a=1)
    rep = json.loads(to_json(M.dimension_report(seed=0)))
    assert rep["format"] == "sage_attention.report"
    assert rep["data"]["dimension"] == M.dimension(seed=0)
    with pytest.raises(TypeError, match="cannot export"):
        to_json(object())
    with pytest.raises(ValueError, match="not JSON"):
        from_json("{")
