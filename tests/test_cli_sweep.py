"""``sage-attention sweep``: Ctrl-C prints the finished rows and stops the worker pool;
killing the parent kills the workers."""
import os
import signal
import subprocess
import sys
import time

import pytest

from helpers import ROOT, cli_env

SWEEP = [sys.executable, "-m", "sage_attention.app.cli", "sweep", "--layers", "2",
         "--width", "3..14", "--rank", "1..3"]


def children(pid):
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                out.append(int(entry))
    return out


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def start(*extra):
    return subprocess.Popen(SWEEP + list(extra), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, env=cli_env())


def wait_rows(proc, n, timeout=120):
    """Read progress lines until ``n`` rows finished."""
    lines, t0 = [], time.time()
    while len(lines) < n:
        assert time.time() - t0 < timeout, "no progress"
        line = proc.stderr.readline()
        assert line, "the sweep ended early"
        if line.startswith("["):
            lines.append(line)
    return lines


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sweep_ctrl_c_prints_the_finished_rows_and_stops_the_pool(jobs):
    proc = start("-j", jobs)
    try:
        wait_rows(proc, 3)
        workers = children(proc.pid)
        assert len(workers) == int(jobs)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert "rows finished" in err
    rows = [line for line in out.splitlines() if line.startswith("| 3,3,3")
            or line.startswith("| 4,4,4")]
    assert len(rows) >= 3
    time.sleep(1)
    assert not [w for w in workers if alive(w)]


def test_sweep_killing_the_parent_kills_the_workers():
    proc = start("-j", "2")
    try:
        wait_rows(proc, 2)
        workers = children(proc.pid)
        assert len(workers) == 2
        proc.kill()
        proc.wait(30)
        deadline = time.time() + 10
        while time.time() < deadline and [w for w in workers if alive(w)]:
            time.sleep(0.2)
        assert not [w for w in workers if alive(w)]
    finally:
        proc.kill()
