"""Hangs and Ctrl-C: the default proof has a time limit, a degree bound is respected, minimal
generators are counted without minbase on the whole ideal; and Ctrl-C means one thing
everywhere (sage_attention.misc.interrupts): every long phase (interpolation, its proof,
minimal generators, elimination, a deep dimension, a sweep with workers, the command line)
raises ComputationInterrupted, a KeyboardInterrupt, within seconds, with what finished in
``e.partial``, checked against an uninterrupted computation; the same call resumes."""
import json
import os
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager

import pytest

from sage.all__sagemath_singular import QQ, matrix
from sage_attention import LightningAttention
from sage_attention.ideals import implicitization as impl
from sage_attention.ideals.implicitization import implicitize

from sage_attention.misc.interrupts import ComputationInterrupted

from helpers import ROOT, cli_env

#: seconds from Ctrl-C to the exception (a loaded machine included)
PROMPT = 3


class CtrlC:
    """Ctrl-C (SIGINT to this process) ``seconds`` after :meth:`start`; ``sent`` is the time it was sent."""

    def __init__(self, seconds):
        self.seconds, self.sent, self.timer = seconds, None, None

    def fire(self):
        self.sent = time.monotonic()
        os.kill(os.getpid(), signal.SIGINT)

    def start(self):
        if self.timer is None:
            self.timer = threading.Timer(self.seconds, self.fire)
            self.timer.start()

    def elapsed(self):
        return time.monotonic() - self.sent


@contextmanager
def ctrl_c_after(seconds, start=True):
    """Send SIGINT to this process ``seconds`` after the block starts (or after ``start()`` of the
    :class:`CtrlC` yielded, with ``start=False``), as Ctrl-C does."""
    c = CtrlC(seconds)
    if start:
        c.start()
    try:
        yield c
    finally:
        if c.timer is not None:
            c.timer.cancel()


def counts(report):
    return {k: len(v) for k, v in report.generators_by_degree.items()}


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


_CTRL_C_IN_PROOF = """
import time
from sage_attention import LightningAttention
from sage_attention.ideals import implicitization as impl
real = impl._prove
def prove(*args, **kwargs):
    print("PROVING", flush=True)
    return real(*args, **kwargs)
impl._prove = prove
# the slice of width 4 and rank 3: its proof with prove=True does not finish in minutes (the
# Hilbert series of 400 cubics and 2535 quartics in 40 coordinates)
M = LightningAttention(d=4, t=2, a=3, out=1, entries=[(1, 1)])
try:
    impl.implicitize(M, 4, seed=0, prove=True)
    print("FINISHED")
except KeyboardInterrupt as e:
    print(type(e).__name__, e.phase, flush=True)
    R = e.partial
    print(R.interrupted, R.complete_through_degree, R.proved_complete,
          {k: len(v) for k, v in R.generators_by_degree.items()}, flush=True)
impl._prove = real
engine = impl.interpolate
runs = []
impl.interpolate = lambda *a, **k: runs.append(1) or engine(*a, **k)
# the same call proves again without the degrees (here without the proof: prove=False)
S = impl.implicitize(M, 4, seed=0, prove=False)
print(len(runs), S.interrupted, {k: len(v) for k, v in S.generators_by_degree.items()})
"""


def _ctrl_c_in_child(code, marker, after):
    """Run ``code`` in a child process; Ctrl-C (SIGINT from this process: a computation in
    Singular holds the interpreter lock, so no thread of the child could send it) ``after``
    seconds after the child prints ``marker``. Return (seconds from the Ctrl-C to the line
    that follows it, the child's stdout lines, its stderr)."""
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=cli_env(), cwd=ROOT)
    try:
        lines = []
        for line in p.stdout:
            lines.append(line.strip())
            if line.startswith(marker):
                break
        assert lines and lines[-1].startswith(marker), "\n".join(lines) + p.stderr.read()
        time.sleep(after)
        p.send_signal(signal.SIGINT)
        t0 = time.monotonic()
        first = p.stdout.readline()
        seconds = time.monotonic() - t0
        out, err = p.communicate(timeout=120)
        return seconds, [first.strip()] + out.strip().splitlines(), err
    finally:
        p.kill()


def test_ctrl_c_in_the_proof_raises_with_the_finished_degrees():
    # in a child process: an interrupt inside Singular can leave its interpreter unusable
    # under a loaded machine (parallel workers) an attempt can miss the proof's window: up to three
    for attempt in range(3):
        seconds, lines, err = _ctrl_c_in_child(_CTRL_C_IN_PROOF, "PROVING", 2)
        lines = [line for line in lines if line != "PROVING"]     # the report's sentence (prove=False)
        if lines[:1] == ["ComputationInterrupted proof"]:
            break
    assert seconds < PROMPT, (seconds, lines, err)
    assert lines[:2] == ["ComputationInterrupted proof", "True 4 False {3: 400, 4: 2535}"], (lines, err)
    # the engine is not run again, and its generators are those found before Ctrl-C
    assert lines[-1] == "0 False {3: 400, 4: 2535}", (lines, err)


def test_ctrl_c_in_the_interpolation_raises_and_the_same_call_resumes():
    """Ctrl-C in degree 6 of the single token of width 3 with two outputs (the quintics done in
    about 2 s, the sextics take about 8 s)."""
    from sage_attention.ideals.engine.interpolation import resume_state
    M = LightningAttention(d=3, t=1, a=1, out=2)
    resume_state()                        # nothing kept from another test
    real = impl._run_piece
    with ctrl_c_after(1, start=False) as ctrl_c:
        def sextics_then_ctrl_c(args):    # Ctrl-C one second into degree 6
            if args[1] == 6:
                ctrl_c.start()
            return real(args)
        impl._run_piece = sextics_then_ctrl_c
        try:
            with pytest.raises(ComputationInterrupted) as info:
                implicitize(M, 6, seed=0, executor=False, prove=False)
        finally:
            impl._run_piece = real
    assert ctrl_c.elapsed() < PROMPT
    e = info.value
    assert isinstance(e, KeyboardInterrupt) and e.phase == "interpolation"
    part = e.partial
    assert part.interrupted and not part.proved_complete and part.complete_through_degree == 5
    assert "resumes from degree 6" in str(e)
    # each finished generator vanishes on the parametrization (exact composition)
    phi = M.essential_parametrization()
    assert all(phi(g) == 0 for g in part.essential_generators[::25])
    # the same call resumes: the pieces of degree at most 5 are not solved again
    assert resume_state(M, 0)[0] == 5
    solved = []

    def counting(args):
        solved.append(args[1])
        return real(args)
    impl._run_piece = counting
    try:
        resumed = implicitize(M, 6, seed=0, executor=False, prove=False)
    finally:
        impl._run_piece = real
    assert solved and min(solved) == 6 and not resumed.interrupted and resume_state(M, 0) is None
    # and answers as an uninterrupted run
    fresh = implicitize(M, 6, seed=0, prove=False)
    assert counts(resumed) == counts(fresh) and resumed.ideal_dimensions == fresh.ideal_dimensions
    assert {k: n for k, n in counts(fresh).items() if k <= 5} == counts(part)
    assert [str(g) for g in resumed.essential_generators] == [str(g) for g in fresh.essential_generators]


def test_ctrl_c_in_the_minimal_generators_keeps_the_finished_degrees():
    """The quartics of the single token of width 3 with three outputs take about 20 s to
    count exactly; the cubics are counted first."""
    from sage_attention.ideals.minimal_generators import minimal_generators_count
    from sage_attention.ideals import minimal_generators as mg
    T = LightningAttention(d=3, t=1, a=1, out=3)
    R = implicitize(T, 4, seed=0, prove=False)
    real = mg.interruptible
    with ctrl_c_after(1, start=False) as ctrl_c:
        def quartics_then_ctrl_c(fn, *args):     # Ctrl-C one second into the count of degree 4
            if args[-1] == 4:
                ctrl_c.start()
            return real(fn, *args)
        mg.interruptible = quartics_then_ctrl_c
        try:
            with pytest.raises(ComputationInterrupted) as info:
                minimal_generators_count(R.ideal)
        finally:
            mg.interruptible = real
    assert ctrl_c.elapsed() < PROMPT
    e = info.value
    assert isinstance(e, KeyboardInterrupt) and e.phase == "minimal generators"
    # the cubics: as many as a fresh count of the cubics alone, and as the engine's
    C = T.coordinate_ring()
    cubics = [g for g in R.ideal.gens() if g and g.degree() == 3]
    assert e.partial == minimal_generators_count(C.ideal(cubics)) == {3: len(R.generators_by_degree[3])}


_CTRL_C_IN_ELIMINATION = """
from sage_attention import LightningAttention
from sage_attention.ideals.elimination import eliminate
print("ELIMINATING", flush=True)
try:
    eliminate(LightningAttention(d=3, t=1, a=2), algorithm="std")     # minutes
    print("FINISHED")
except KeyboardInterrupt as e:
    print(type(e).__name__, e.phase, e.partial, flush=True)
"""


def test_ctrl_c_in_elimination_raises_with_nothing_finished():
    # in a child process: an interrupt inside Singular can leave its interpreter unusable
    seconds, lines, err = _ctrl_c_in_child(_CTRL_C_IN_ELIMINATION, "ELIMINATING", 3)
    assert seconds < PROMPT, (seconds, lines, err)
    assert lines[0] == "ComputationInterrupted elimination None", (lines, err)


def test_ctrl_c_in_a_deep_dimension():
    from sage_attention import PolynomialNetwork
    from sage_attention.models import jacobian
    M = PolynomialNetwork([2] * 200 + [1], 2)        # several seconds (reverse mode: linear in the depth)
    real = jacobian.jacobian_rank
    with ctrl_c_after(0.3, start=False) as ctrl_c:
        def rank_then_ctrl_c(*args, **kwargs):          # Ctrl-C 0.3 s into the Jacobian's rank
            ctrl_c.start()
            return real(*args, **kwargs)
        jacobian.jacobian_rank = rank_then_ctrl_c
        try:
            with pytest.raises(ComputationInterrupted) as info:
                M.dimension_report(seed=0)
        finally:
            jacobian.jacobian_rank = real
    assert ctrl_c.elapsed() < PROMPT
    assert isinstance(info.value, KeyboardInterrupt) and info.value.phase == "dimension"
    assert info.value.partial is None
    # the same call runs again, and answers as at other random points
    assert M.dimension(seed=0) == M.dimension(seed=1)


def test_ctrl_c_in_a_sweep_with_workers_keeps_the_finished_rows():
    from sage_attention.app.experiments import architecture_grid, sweep
    from sage_attention.app.sweeps import WorkerPool
    fast = list(architecture_grid(layers=[2], widths=[3, 4, 5], ranks=[2], tokens=[3]))
    slow = list(architecture_grid(layers=[4], widths=[16], ranks=[3], tokens=[4]))   # a minute
    ex = WorkerPool(2)
    try:
        with ctrl_c_after(4) as ctrl_c:
            with pytest.raises(ComputationInterrupted) as info:
                sweep(slow + fast, executor=ex)
    finally:
        ex.terminate()
    assert ctrl_c.elapsed() < PROMPT
    e = info.value
    assert isinstance(e, KeyboardInterrupt) and e.phase == "sweep"
    rows = e.partial
    assert sorted(r["widths"][0] for r in rows) == [3, 4, 5]
    # each finished row as computed alone, and as the published formula says
    alone = sweep(fast)
    for row, again in zip(sorted(rows, key=lambda r: r["widths"][0]), alone):
        assert row["dimension"] == again["dimension"] == row["expected"]


_CLI_SPEC = ("model m { input = 3; tokens = 1; layer attention(rank = 1, out = 3) }\n"
             "compute m { vanishing_ideal up to degree 6 }\n")


def _interrupt_cli(spec, *args, second=None):
    """Run ``sage-attention run SPEC --progress ARGS``; Ctrl-C (SIGINT to its process group, as a
    terminal sends it) once degree 5 has started, and again ``second`` seconds later. Return
    (seconds from the first Ctrl-C to the exit, status, stdout, stderr)."""
    p = subprocess.Popen([sys.executable, "-m", "sage_attention.app.cli", "run", str(spec), "--progress",
                          *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=cli_env(),
                         cwd=ROOT, start_new_session=True)
    err = b""
    try:
        while b"degree 5:" not in err:
            chunk = os.read(p.stderr.fileno(), 4096)
            assert chunk, err.decode()
            err += chunk
        time.sleep(0.5)
        os.killpg(p.pid, signal.SIGINT)
        t0 = time.monotonic()
        if second is not None:
            time.sleep(second)
            os.killpg(p.pid, signal.SIGINT)
        out, rest = p.communicate(timeout=60)
        return time.monotonic() - t0, p.returncode, out.decode(), (err + rest).decode()
    finally:
        p.kill()


def test_ctrl_c_in_the_command_line_prints_what_finished_and_exits_130(tmp_path):
    spec = tmp_path / "m.att"
    spec.write_text(_CLI_SPEC)
    seconds, status, out, err = _interrupt_cli(spec)
    assert status == 130 and seconds < PROMPT, (status, seconds, err[-2000:])
    # the finished degrees, as an uninterrupted run through degree 4 has them, said to be the engine's
    R = implicitize(LightningAttention(d=3, t=1, a=1, out=3), 4, seed=1, prove=False)
    listed = ", ".join(f"{n} of degree {k}" for k, n in counts(R).items())
    assert "interrupted during the interpolation: degrees 1..4 finished" in out, out
    assert f"not recounted over QQ after Ctrl-C): {listed}" in out, out
    assert "Traceback" not in out + err


def test_a_second_ctrl_c_loses_nothing_under_json(tmp_path):
    spec = tmp_path / "m.att"
    spec.write_text(_CLI_SPEC)
    expected = counts(implicitize(LightningAttention(d=3, t=1, a=1, out=3), 4, seed=1, prove=False))
    for second in (0.05, 0.3):
        seconds, status, out, err = _interrupt_cli(spec, "--json", second=second)
        assert status == 130 and seconds < PROMPT, (second, status, seconds, err[-2000:])
        records = [json.loads(line) for line in out.splitlines()]       # JSON Lines only
        assert [r["record"] for r in records] == ["model", "error"], out
        (entry,) = records[0]["computations"]
        assert records[0]["interrupted"] and entry["interrupted"] and entry["phase"] == "interpolation"
        assert entry["complete_through_degree"] == 4 and entry["minimal_count"] == "modulo p"
        assert entry["generators_by_degree"] == {str(k): n for k, n in expected.items()}
        assert records[1]["exit_status"] == 130


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


def test_an_interrupted_interpolation_raises_and_is_not_cached(monkeypatch):
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
    with pytest.raises(ComputationInterrupted) as info:
        X.vanishing_ideal_report(algorithm="interpolation", degree=2)
    first = info.value.partial
    assert first.interrupted and first.complete_through_degree == 0
    second = X.vanishing_ideal_report(algorithm="interpolation", degree=2)
    assert not second.interrupted and second.complete_through_degree == 2
    assert X.vanishing_ideal_report(algorithm="interpolation", degree=2) is second
    # the same generators as an uninterrupted run
    monkeypatch.setattr(impl, "_run_piece", real)
    fresh = implicitize(X.model(), 2, seed=second.seed, executor=False)
    assert [str(g) for g in second.essential_generators] == [str(g) for g in fresh.essential_generators]


def test_the_runner_raises_with_the_finished_degrees_after_ctrl_c(monkeypatch):
    """The runner does not compute the ideal again, nor recount its generators: the
    interrupt carries the finished degrees, and the command line's entry says them."""
    from sage_attention.app.runners import run_vanishing_ideal
    from sage_attention.app.reporting import interrupted_entry
    from sage_attention.dsl import parse_spec
    M = LightningAttention(d=2, t=3, a=2, out=1, entries=[(1, 2)])
    real = impl._run_piece
    calls = []

    def ctrl_c_in_degree_2(args):
        calls.append(args[1])
        if args[1] == 2:
            raise KeyboardInterrupt
        return real(args)
    monkeypatch.setattr(impl, "_run_piece", ctrl_c_in_degree_2)
    with pytest.raises(ComputationInterrupted) as info:
        run_vanishing_ideal(M, None, {"algorithm": "interpolation", "degree": 2})
    assert info.value.partial.complete_through_degree == 1
    assert calls.count(2) == 1                 # degree 2 was not started again
    comp = parse_spec("model m { input = 2; tokens = 3; layer attention(rank = 2, out = 1) }\n"
                      "compute m { vanishing_ideal up to degree 2 }").computations[0]
    r = interrupted_entry(comp, info.value)
    assert r["interrupted"] and r["complete_through_degree"] == 1
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
