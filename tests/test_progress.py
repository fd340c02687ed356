"""The progress of long opaque steps (Heartbeat) and the redelivery of a Ctrl-C
that compiled code swallowed (sage_attention.misc.progress)."""
import ctypes
import io
import os
import signal
import sys
import threading
import time
from types import SimpleNamespace

import pytest

from sage_attention.misc.progress import Heartbeat, redeliver_lost_interrupts, redelivering_interrupts


def _children():
    """The process ids of the children of this process (Linux)."""
    out = set()
    for task in os.listdir(f"/proc/{os.getpid()}/task"):
        try:
            with open(f"/proc/{os.getpid()}/task/{task}/children") as f:
                out |= {int(p) for p in f.read().split()}
        except FileNotFoundError:
            # a thread that ended between the listing and the read (e.g. a pool's worker thread)
            continue
    return out


def _gil_holding_read(fd, n):
    """Read from ``fd`` in C without releasing the interpreter lock (a stand-in
    for Singular, which keeps the lock while it computes); a safety alarm
    ends the read with -1 instead of hanging when nothing is written."""
    libc = ctypes.PyDLL(None)          # PyDLL: the call keeps the interpreter lock
    libc.read.restype = ctypes.c_ssize_t
    libc.read.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t]
    old = signal.signal(signal.SIGALRM, lambda *args: None)
    signal.alarm(60)
    try:
        buf = ctypes.create_string_buffer(n)
        got = libc.read(fd, buf, n)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return buf.raw[:max(got, 0)]


def test_heartbeat_ticks_while_the_interpreter_lock_is_held():
    # a Python thread cannot tick while Singular holds the lock; the heartbeat
    # of a stream with a descriptor ticks from another process
    r, w = os.pipe()
    stream = os.fdopen(w, "w")
    before_threads, before_children = threading.active_count(), _children()
    try:
        with Heartbeat("Gröbner basis", stream=stream, interval=0.05):
            first = os.read(r, 1000)
            assert first == "Gröbner basis: 0 s".encode()
            ticker = _children() - before_children
            assert len(ticker) == 1
            assert threading.active_count() == before_threads     # no thread either
            tick = _gil_holding_read(r, 1000)                      # blocks with the lock held
            assert tick.startswith("\rGröbner basis: ".encode()) and tick.endswith(b" s"), tick
        end = os.read(r, 1000).decode().split("\r")[-1]
        assert end.startswith("Gröbner basis: done in ") and end.endswith(" s\n"), end
        # the ticker is gone (waited for) and no thread is left
        (pid,) = ticker
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
        assert threading.active_count() == before_threads
    finally:
        stream.close()
        os.close(r)


def test_heartbeat_ends_its_ticker_on_ctrl_c():
    r, w = os.pipe()
    stream = os.fdopen(w, "w")
    before = _children()
    try:
        with pytest.raises(KeyboardInterrupt):
            with Heartbeat("slimgb", stream=stream, interval=0.05):
                ticker = _children() - before
                assert len(ticker) == 1
                raise KeyboardInterrupt
        (pid,) = ticker
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
        stream.flush()
        end = os.read(r, 10000).decode().split("\r")[-1]
        assert end.startswith("slimgb: interrupted after ") and end.endswith(" s\n"), end
    finally:
        stream.close()
        os.close(r)


def test_heartbeat_without_a_descriptor_ticks_from_a_thread_and_joins_it():
    out = io.StringIO()
    before = threading.active_count()
    with pytest.raises(ValueError):
        with Heartbeat("minbase", stream=out, interval=0.01):
            assert threading.active_count() == before + 1
            while out.getvalue().count("\r") < 2:
                time.sleep(0.01)
            raise ValueError("boom")
    assert threading.active_count() == before
    parts = out.getvalue().split("\r")
    assert parts[0] == "minbase: 0 s" and parts[1].startswith("minbase: ")
    assert parts[-1].startswith("minbase: stopped after") and parts[-1].endswith("(ValueError)\n")


def test_heartbeat_disabled_shows_nothing_and_starts_nothing():
    out = io.StringIO()
    before_threads, before_children = threading.active_count(), _children()
    with Heartbeat("anything", enabled=False, stream=out, interval=0.01):
        assert threading.active_count() == before_threads and _children() == before_children
    assert out.getvalue() == ""


@pytest.mark.parametrize("interval", [0, -1, "1", True, float("nan")])
def test_heartbeat_interval_must_be_positive(interval):
    with pytest.raises(ValueError, match=r"interval \(=.*\) must be a positive number of seconds"):
        Heartbeat("x", interval=interval)


def test_heartbeat_interval_none_is_the_setting():
    # None (the default) reads settings.HEARTBEAT_INTERVAL when the heartbeat is made
    from sage_attention.settings import settings
    assert Heartbeat("x", interval=None).interval == settings.HEARTBEAT_INTERVAL == 1.0
    with settings.override(HEARTBEAT_INTERVAL=0.5):
        assert Heartbeat("x").interval == 0.5


def _lost_interrupt():
    """What Python passes to sys.unraisablehook for an interrupt raised in a
    compiled callback (e.g. a LinBox product), which it cannot propagate."""
    return SimpleNamespace(exc_type=KeyboardInterrupt, exc_value=KeyboardInterrupt(),
                           exc_traceback=None, err_msg="Exception ignored in", object=None)


@pytest.fixture
def python_hook(monkeypatch):
    """Python's own unraisable hook (an earlier in-process CLI run installs ours for good)."""
    monkeypatch.setattr(sys, "unraisablehook", sys.__unraisablehook__)


def test_redelivering_interrupts_installs_and_restores_the_hook(python_hook):
    before = sys.unraisablehook
    with redelivering_interrupts():
        inside = sys.unraisablehook
        assert inside is not before
        with redelivering_interrupts():           # nested: nothing changes
            assert sys.unraisablehook is inside
        assert sys.unraisablehook is inside
    assert sys.unraisablehook is before
    with pytest.raises(RuntimeError):
        with redelivering_interrupts():
            raise RuntimeError
    assert sys.unraisablehook is before


def test_a_lost_interrupt_is_raised_in_the_main_thread(python_hook):
    # in a Sage process: the Python handler of SIGINT is then the one of cysignals,
    # which ignored the interrupt that _thread.interrupt_main() simulated
    import sage.all__sagemath_singular  # noqa: F401
    before = sys.unraisablehook
    reached_the_end = False
    with pytest.raises(KeyboardInterrupt):
        with redelivering_interrupts():
            sys.unraisablehook(_lost_interrupt())
            for _ in range(2000):          # the interrupt arrives at the next check
                time.sleep(0.001)
            reached_the_end = True
    assert not reached_the_end
    assert sys.unraisablehook is before


def test_other_unraisable_exceptions_go_to_the_previous_hook(monkeypatch):
    seen = []
    monkeypatch.setattr(sys, "unraisablehook", seen.append)
    other = SimpleNamespace(exc_type=ValueError, exc_value=ValueError("x"), exc_traceback=None,
                            err_msg=None, object=None)
    with redelivering_interrupts():
        sys.unraisablehook(other)
    assert seen == [other]


def test_the_long_computations_run_under_the_hook(monkeypatch, python_hook):
    """implicitize, eliminate, the Jacobian rank and the minimal generators install
    the hook for their duration (a Sage session has no CLI to install it)."""
    import sage.all__sagemath_singular  # noqa: F401
    from sage_attention import LightningAttention
    from sage_attention.ideals import elimination, implicitization, minimal_generators
    from sage_attention.models.jacobian import jacobian_rank, layer_derivatives
    from sage_attention.ideals.minimal_generators import minimal_generators_count
    before = sys.unraisablehook
    seen = {}

    def spy(name, fn):
        def wrapper(*args, **kwargs):
            seen[name] = getattr(sys.unraisablehook, "_sage_attention", False)
            return fn(*args, **kwargs)
        return wrapper
    M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
    jacobian_rank(M, sage.all__sagemath_singular.GF(32003), 0,
                  derivatives=spy("jacobian", layer_derivatives))
    monkeypatch.setattr(elimination, "elimination_parametrization",
                        spy("eliminate", elimination.elimination_parametrization))
    R = elimination.eliminate(M)
    monkeypatch.setattr(implicitization, "_run_piece", spy("implicitize", implicitization._run_piece))
    implicitization.implicitize(M, 2, seed=0, executor=False, prove=False)
    monkeypatch.setattr(minimal_generators, "minimal_generator_counts",
                        spy("minimal generators", minimal_generators.minimal_generator_counts))
    assert minimal_generators_count(R.essential_ideal) == {2: 3}
    assert seen == {"jacobian": True, "eliminate": True, "implicitize": True,
                    "minimal generators": True}
    assert sys.unraisablehook is before


def test_the_cli_hook_stays_installed(monkeypatch):
    monkeypatch.setattr(sys, "unraisablehook", sys.unraisablehook)
    redeliver_lost_interrupts()
    hook = sys.unraisablehook
    with redelivering_interrupts():
        assert sys.unraisablehook is hook
    assert sys.unraisablehook is hook


def test_a_process_forked_during_the_step_does_not_keep_the_ticker_alive():
    r, w = os.pipe()
    stream = os.fdopen(w, "w")
    try:
        before = _children()
        with Heartbeat("pool", stream=stream, interval=0.05):
            (ticker,) = _children() - before
            forked = os.fork()            # holds the ticker's standard input open
            if forked == 0:
                time.sleep(60)
                os._exit(0)
        # the ticker is gone although the forked process still runs
        with pytest.raises(ChildProcessError):
            os.waitpid(ticker, os.WNOHANG)
        assert os.waitpid(forked, os.WNOHANG) == (0, 0)
    finally:
        os.kill(forked, signal.SIGKILL)
        os.waitpid(forked, 0)
        stream.close()
        os.close(r)
