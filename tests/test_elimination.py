"""The vanishing ideal by elimination, checked independently.

For small one-layer models (d in {2, 3}, a in 1..d, t in {1, 2}, d' in {1, 2},
where elimination finishes quickly):

- every generator of the eliminated ideal vanishes on the model's own
  parametrization (composition; elimination may use other, cheaper weights,
  e.g. A = u w^T or a symmetric S, so this is not the same computation);
- the Krull dimension of the ideal equals the Jacobian-rank dimension of the
  model (``model.dimension``), and for t >= 2 the formula of [HMK2024];
- every member of every invariant family lies in the ideal (Gröbner
  reduction): the independent check of the families;
- where the interpolation engine proves its ideal complete, both ideals agree.
"""
import pytest

import sage.all__sagemath_singular  # noqa: F401  (initializes Sage)

from sage_attention import LightningAttention
from sage_attention.ideals.elimination import eliminate
from sage_attention.invariants import invariants
from sage_attention.variety.neurovariety import Neurovariety

from helpers import cli_env, shown

SMALL = [dict(d=2, t=t, a=a, out=o, weight_space=w)
         for t in (1, 2) for a in (1, 2) for o in (1, 2) for w in ("QKV", "AV")]
SMALL += [dict(d=3, t=2, a=1, out=1, entries=[(1, 1)]),
          dict(d=3, t=2, a=3, out=1, entries=[(1, 1)]),
          dict(d=3, t=1, a=1, out=1)]


def _id(kw):
    return ",".join(f"{k}={v}" for k, v in kw.items())


@pytest.fixture(scope="module")
def results():
    return {}


def _get(results, kw):
    key = _id(kw)
    if key not in results:
        M = LightningAttention(**kw)
        results[key] = (M, eliminate(M))
    return results[key]


@pytest.mark.parametrize("kw", SMALL, ids=_id)
def test_generators_vanish_on_the_parametrization(results, kw):
    M, R = _get(results, kw)
    phi = M.essential_parametrization()
    rank = M.rank_ideal()
    G = rank.groebner_basis() if any(rank.gens()) else None
    for g in R.essential_ideal.gens():
        image = phi(g)
        if G is not None:
            image = image.reduce(G)
        assert image == 0, g
    full = M.parametrization()
    for g in R.ideal.gens():
        image = full(g)
        assert (image.reduce(G) if G is not None else image) == 0


@pytest.mark.parametrize("kw", SMALL, ids=_id)
def test_dimension_agrees_with_jacobian_rank(results, kw):
    M, R = _get(results, kw)
    dim = R.essential_ideal.dimension()
    assert dim == M.dimension(seed=0)
    if M.tokens >= 2:
        d, a, out = M.d, M.ranks[0], len(M.output_rows())
        r = min(a, d)
        assert dim == d * out + r * (2 * d - r) - 1     # [HMK2024]
    # the ideal is prime-consistent: a proper ideal (no unit), homogeneous
    assert all(g.is_homogeneous() for g in R.essential_ideal.gens())
    assert R.essential_ideal != R.essential_ideal.ring().ideal(1)


@pytest.mark.parametrize("kw", SMALL, ids=_id)
def test_every_invariant_lies_in_the_ideal(results, kw):
    M, R = _get(results, kw)
    fam = invariants(M)
    G = R.essential_ideal.groebner_basis()
    to_E = M.to_essential()
    for inv in fam:
        f = to_E(inv.polynomial)
        assert f.reduce(G) == 0, inv.label


@pytest.mark.parametrize("kw", [dict(d=2, t=2, a=1, out=1, entries=[(1, 1)]),
                                dict(d=2, t=2, a=2, out=1, entries=[(1, 1)]),
                                dict(d=3, t=2, a=1, out=1, entries=[(1, 1)])], ids=_id)
def test_elimination_agrees_with_interpolation(kw):
    from sage_attention.ideals.implicitization import implicitize
    M = LightningAttention(**kw)
    R = eliminate(M)
    J = implicitize(M, 4, seed=0)
    E = M.essential_ring()
    IJ = E.ideal(list(J.essential_generators) or [E.zero()])
    GJ = IJ.groebner_basis()
    # interpolation is complete through degree 4 and every eliminated generator has degree <= 4
    assert all(g.degree() <= J.complete_through_degree for g in R.essential_ideal.gens())
    assert all(g.reduce(GJ) == 0 for g in R.essential_ideal.gens())
    GE = R.essential_ideal.groebner_basis()
    assert all(g.reduce(GE) == 0 for g in J.essential_generators)


def test_neurovariety_caches_and_counts():
    M = LightningAttention(d=3, t=2, a=1, out=1, entries=[(1, 1)])
    X = Neurovariety(M)
    assert X.vanishing_ideal() is X.vanishing_ideal()
    # 10 linear relations, the 45 2-minors of the 6 x 3 flattening, 10 pencil cubics
    assert X.minimal_generators_by_degree() == {1: 10, 2: 45, 3: 10}
    assert X.krull_dimension() == 7 and X.projective_dimension() == 6


def test_progress_shows_the_phases(capsys):
    M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
    R = eliminate(M, progress=True)
    lines = shown(capsys.readouterr().err)
    assert [line.split(":")[1] for line in lines] == [
        " the graph ideal in 6 essential coordinates", " Gröbner basis (Singular slimgb, 6 weights "
        "eliminated)", " the generators in the coordinates"]
    assert all(line.startswith("elimination:") and ": done in " in line for line in lines)
    # the same ideal as without progress
    assert R.essential_ideal == eliminate(M).essential_ideal
    eliminate(M)
    assert capsys.readouterr().err == ""


def test_progress_reaches_elimination_through_the_neurovariety(capsys):
    # a model no other test asks the variety for (the variety caches its ideal)
    X = Neurovariety(LightningAttention(d=2, t=3, a=1, out=1, entries=[(1, 3)]))
    X.vanishing_ideal(algorithm="elimination", progress=True)
    assert any("Gröbner basis (Singular slimgb" in line for line in shown(capsys.readouterr().err))


_CTRL_C_IN_STD = """
import os, sys, threading
from sage_attention import LightningAttention
from sage_attention.ideals.elimination import eliminate
before = sys.unraisablehook
try:
    eliminate(LightningAttention(d=3, t=1, a=2), algorithm="std", progress=True)
    print("finished", flush=True)
except BaseException as e:
    try:
        os.waitpid(-1, os.WNOHANG)
        children = "a child process is left"
    except ChildProcessError:
        children = "no child process"
    print(type(e).__name__, threading.active_count(), children, sys.unraisablehook is before,
          flush=True)
"""


def test_ctrl_c_inside_std_raises_keyboard_interrupt_and_leaves_nothing_running():
    """A real SIGINT while Singular's std runs (the heartbeat has ticked inside
    the Gröbner basis phase): a KeyboardInterrupt, not a RuntimeError of
    Sage; no thread, no ticker process and no hook are left behind."""
    import os
    import signal
    import subprocess
    import sys
    proc = subprocess.Popen([sys.executable, "-c", _CTRL_C_IN_STD], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=cli_env())
    try:
        err = b""
        label = "elimination: Gröbner basis (Singular std".encode()
        # wait for a tick of the Gröbner basis phase: std is running
        while not (label in err and b": 1 s" in err[err.index(label):]):
            chunk = os.read(proc.stderr.fileno(), 4096)
            assert chunk, err.decode()
            err += chunk
        proc.send_signal(signal.SIGINT)
        out, rest = proc.communicate(timeout=120)
    finally:
        proc.kill()
    err = (err + rest).decode()
    # the package's KeyboardInterrupt (sage_attention.misc.interrupts): nothing finished
    assert out.decode().split() == ["ComputationInterrupted", "1", "no", "child", "process", "True"], err
    assert "RuntimeError" not in err
    assert err.split("\n")[-2].split("\r")[-1].startswith(
        "elimination: Gröbner basis (Singular std, 9 weights eliminated): interrupted after ")
