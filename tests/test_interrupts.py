"""Hangs and Ctrl-C: the default proof has a time limit, Ctrl-C keeps the finished degrees,
a degree bound is respected, minimal generators are counted without minbase on the whole ideal."""
import time

import pytest

from sage.all__sagemath_singular import QQ, matrix
from sage_attention import LightningAttention
from sage_attention.ideals import implicitization as impl
from sage_attention.ideals.implicitization import implicitize

from helpers import cli_env


def test_default_proof_has_a_time_limit():
    # used to run for minutes in Singular's primality test (35 quartics);
    # the default proof now runs in a forked process killed after a few seconds
    M = LightningAttention(d=3, t=1, a=1)
    t0 = time.time()
    R = implicitize(M, 4, seed=0)
    assert time.time() - t0 < 60
    assert R.complete_through_degree == 4 and not R.interrupted
    assert R.proved_complete or "did not finish" in R.proof
    assert {k: len(v) for k, v in R.generators_by_degree.items()} == {4: 35}
    phi = M.essential_parametrization()
    assert all(phi(g) == 0 for g in R.essential_generators)
    # small ideals are still proved by default
    assert implicitize(LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)]), 3, seed=0).proved_complete


_CTRL_C = """
from cysignals.alarm import alarm, cancel_alarm
from sage_attention import LightningAttention
from sage_attention.ideals import implicitization as impl
real = impl._prove
def prove_then_ctrl_c(*args, **kwargs):
    alarm(1)      # an AlarmInterrupt is a KeyboardInterrupt, like Ctrl-C
    return real(*args, **kwargs)
impl._prove = prove_then_ctrl_c
try:
    # the slice of width 4 and rank 3: its proof does not finish in minutes (the Hilbert series of
    # 400 cubics and 2535 quartics in 40 coordinates; the d = 4 token, used before, is now proved
    # by inheritance in well under a second)
    R = impl.implicitize(LightningAttention(d=4, t=2, a=3, out=1, entries=[(1, 1)]), 4, seed=0, prove=True)
finally:
    cancel_alarm()
print(R.interrupted, R.complete_through_degree, R.proved_complete,
      {k: len(v) for k, v in R.generators_by_degree.items()})
"""


def test_ctrl_c_in_the_proof_keeps_the_finished_degrees():
    # in a child process: an interrupt inside Singular leaves its interpreter unusable
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-c", _CTRL_C], capture_output=True, text=True, timeout=300,
                       env=cli_env())
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "True 4 False {3: 400, 4: 2535}"


def test_a_degree_bound_is_respected():
    from sage_attention.variety.neurovariety import Neurovariety
    from sage_attention.ideals.implicitization import ImplicitizationReport
    X = Neurovariety(LightningAttention(d=3, t=1, a=2))       # 10 essential coordinates
    t0 = time.time()
    res = X.vanishing_ideal_report(degree=2)
    assert time.time() - t0 < 10
    assert isinstance(res, ImplicitizationReport) and res.degree == 2
    assert res.complete_through_degree == 2


def test_minimal_generators_without_minbase_on_the_whole_ideal():
    from sage_attention.ideals.minimal_generators import minimal_generators_count
    M = LightningAttention(d=3, t=2, a=1, out=2)
    res = implicitize(M, 2, seed=0)
    t0 = time.time()
    counts = minimal_generators_count(res.ideal)
    assert time.time() - t0 < 10
    # independent: the linear forms and the quadrics (all of one degree, so
    # every independent one is minimal) by the rank of their coefficients
    C = M.coordinate_ring()
    gens = [g for g in res.ideal.gens() if g]
    lin = [g for g in gens if g.degree() == 1]
    quad = [g for g in gens if g.degree() == 2]
    rank_lin = matrix(QQ, [[g.monomial_coefficient(x) for x in C.gens()] for g in lin]).rank()
    # quadrics modulo the linear forms: in the essential ring
    E = M.essential_ring()
    to_e = M.to_essential()
    q = [to_e(g) for g in quad]
    mons = sorted({m for f in q for m in f.monomials()})
    rank_q = matrix(QQ, [[f.monomial_coefficient(m) for m in mons] for f in q]).rank()
    assert counts == {1: rank_lin, 2: rank_q}


def test_minimal_generators_show_their_progress(capsys):
    from sage_attention.ideals.minimal_generators import minimal_generators_count
    from sage_attention.variety.neurovariety import Neurovariety
    M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
    X = Neurovariety(M)
    I = X.vanishing_ideal(algorithm="elimination")
    capsys.readouterr()
    # 4 linear relations and the 3 quadrics of the 2 x 3 flattening (its 2-minors)
    assert minimal_generators_count(I, progress=True) == {1: 4, 2: 3}
    lines = [line.split("\r")[-1] for line in capsys.readouterr().err.split("\n")[:-1]]
    assert [line.split(": done in")[0] for line in lines] == [
        "minimal generators: the linear generators",
        "minimal generators of degree 2 (3 generators, 0 of lower degree)"]
    G = X.minimal_generators(algorithm="elimination", progress=True)
    assert [g.degree() for g in G] == [1, 1, 1, 1, 2, 2, 2]
    assert any(line.split("\r")[-1].startswith("minimal generators: Singular minbase of 3 "
                                               "generators: done in")
               for line in capsys.readouterr().err.split("\n"))
    assert minimal_generators_count(I) == {1: 4, 2: 3}
    assert capsys.readouterr().err == ""


def test_an_interrupted_interpolation_is_returned_but_not_cached(monkeypatch):
    from sage_attention.variety.neurovariety import Neurovariety
    X = Neurovariety(LightningAttention(d=2, t=3, a=1, out=1, entries=[(1, 2)]))
    real = impl._run_piece
    calls = []

    def ctrl_c_once(args):
        calls.append(args[1])
        if len(calls) == 1:
            raise KeyboardInterrupt
        return real(args)
    monkeypatch.setattr(impl, "_run_piece", ctrl_c_once)
    first = X.vanishing_ideal_report(algorithm="interpolation", degree=2)
    assert first.interrupted and first.complete_through_degree == 0
    second = X.vanishing_ideal_report(algorithm="interpolation", degree=2)
    assert not second.interrupted and second.complete_through_degree == 2
    assert X.vanishing_ideal_report(algorithm="interpolation", degree=2) is second
    # the same generators as an uninterrupted run
    monkeypatch.setattr(impl, "_run_piece", real)
    fresh = implicitize(X.model(), 2, seed=second.seed, executor=False)
    assert [str(g) for g in second.essential_generators] == [str(g) for g in fresh.essential_generators]


def test_the_runner_returns_the_finished_degrees_after_ctrl_c(monkeypatch):
    """The vanishing ideal is not cached after Ctrl-C: the runner reports the
    finished degrees without computing the ideal again."""
    from sage_attention.app.runners import run_vanishing_ideal
    M = LightningAttention(d=2, t=3, a=2, out=1, entries=[(1, 2)])
    real = impl._run_piece
    calls = []

    def ctrl_c_in_degree_2(args):
        calls.append(args[1])
        if args[1] == 2:
            raise KeyboardInterrupt
        return real(args)
    monkeypatch.setattr(impl, "_run_piece", ctrl_c_in_degree_2)
    r = run_vanishing_ideal(M, None, {"algorithm": "interpolation", "degree": 2})
    assert r["interrupted"] and r["complete_through_degree"] == 1
    assert calls.count(2) == 1                 # degree 2 was not started again
    # degree 1: the linear relations of the model
    nlin = matrix(QQ, [[f.monomial_coefficient(x) for x in M.coordinate_ring().gens()]
                       for f in M.linear_relations()]).rank() if M.linear_relations() else 0
    assert r["generators_by_degree"] == ({1: nlin} if nlin else {})


def test_a_run_stops_after_a_computation_returns_interrupted(monkeypatch):
    """Ctrl-C inside a computation that returns what it finished (interpolation,
    generation report) stops the run: the finished part is printed, the next
    computation is not started, and KeyboardInterrupt reaches the CLI (exit 130)."""
    import io
    import json
    from sage_attention.dsl import parse_spec
    from sage_attention.app import reporting, runners
    started = []

    def fake_generation(model, options):
        started.append("generation")
        return {"rows": [], "interrupted": True, "text": "the finished rows"}

    real_dimension = runners.run_dimension

    def dimension(model, computation, options):
        started.append("dimension")
        return real_dimension(model, computation, options)
    monkeypatch.setattr(runners, "_run_generation", fake_generation)
    monkeypatch.setattr(runners, "run_dimension", dimension)
    spec = parse_spec("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
                      "compute m { check generation; dimension }")
    out = io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        reporting.run_spec(spec, as_json=True, out=out)
    assert started == ["generation"]
    (printed,) = [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]
    assert printed["interrupted"] and printed["computations"][0]["text"] == "the finished rows"
