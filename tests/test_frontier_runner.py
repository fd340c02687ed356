r"""
The frontier runner (benchmarks/frontier.py) reports a row whose process dies instead of failing itself.

A row of width 6 through degree 4 run with a raised memory limit was killed
by the kernel's out-of-memory killer; the runner then stopped with an
IndexError (the dead process wrote nothing to stderr) and the rows after it
were lost. Each case here runs a real child process.
"""
import benchmarks.frontier as frontier


def run_child(monkeypatch, code, timeout=60):
    monkeypatch.setattr(frontier, "CHILD", code)
    return frontier.run("row", {"d": 3, "t": 1, "a": 1, "out": 1}, 4, timeout)


def test_killed_by_a_signal(monkeypatch):
    r = run_child(monkeypatch, "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n")
    assert r["name"] == "row"
    assert r["status"].startswith("killed by SIGKILL after ")
    assert "out-of-memory" in r["status"]


def test_other_signal_and_silent_exit(monkeypatch):
    r = run_child(monkeypatch, "import os, signal\nos.kill(os.getpid(), signal.SIGTERM)\n")
    assert r["status"].startswith("killed by SIGTERM") and "out-of-memory" not in r["status"]
    r = run_child(monkeypatch, "import sys\nsys.exit(3)\n")
    assert r["status"] == "failed with exit status 3 and no message"


def test_error_message_and_timeout(monkeypatch):
    r = run_child(monkeypatch, "raise ValueError('bad degree')\n")
    assert r["status"] == "failed: ValueError: bad degree"
    r = run_child(monkeypatch, "import time\ntime.sleep(30)\n", timeout=1)
    assert r["status"] == "not reached in 1 s"


def test_the_table_prints_a_failed_row():
    text = frontier.rst([{"name": "row", "status": "killed by SIGKILL after 5 s"}], 4, 60, "")
    assert "killed by SIGKILL after 5 s" in text
