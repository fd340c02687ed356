"""A real Ctrl-C (SIGINT to the whole process group, as a terminal sends it) while the
default process pool of the implicitization engine runs: one clean message from the main
process, no traceback of a worker, and the workers end at once."""
import os
import signal
import subprocess
import sys
import time

import pytest

from helpers import cli_env

_POOL = """
import time
from concurrent.futures import as_completed
from sage_attention.ideals.engine.workers import default_executor, stop_executor
ex = default_executor(64)
futs = [ex.submit(time.sleep, 30)]       # one worker busy, the others idle
while not futs[0].running():
    time.sleep(0.05)
print("running", flush=True)
try:
    for f in as_completed(futs):
        f.result()
except KeyboardInterrupt:
    t0 = time.time()
    stop_executor(ex, True)
    print("interrupted", round(time.time() - t0) < 5, flush=True)
"""


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="the default pool needs two cores")
def test_ctrl_c_with_the_default_pool_prints_no_worker_traceback():
    proc = subprocess.Popen([sys.executable, "-c", _POOL], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=cli_env(), start_new_session=True)
    try:
        assert proc.stdout.readline() == "running\n", proc.stderr.read()
        time.sleep(0.5)
        os.killpg(proc.pid, signal.SIGINT)          # the whole group, like Ctrl-C in a terminal
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert out == "interrupted True\n", err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
