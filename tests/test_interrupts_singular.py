"""Real Ctrl-C (SIGINT) while a phase runs that does not look at it, as Singular's Gröbner
bases do not: the minimal generators answer within a second or two, with the finished
degrees in the API and exit status 130 in the command line."""
import signal
import subprocess
import sys
import time

from helpers import ROOT, cli_env

# ``_rank_modulo`` of one degree is replaced by a call that blocks SIGINT for 30 s: a
# computation deaf to Ctrl-C, like a Groebner basis inside Singular
_DEAF = r'''
import signal, sys, time
from sage.all__sagemath_singular import QQ, PolynomialRing
from sage_attention.ideals import minimal_generators as mg
real = mg._rank_modulo
def deaf(E, lower, here, k):
    if k == DEAF_DEGREE:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        print("DEAF", flush=True)
        time.sleep(30)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    return real(E, lower, here, k)
mg._rank_modulo = deaf
'''

_API = _DEAF.replace("DEAF_DEGREE", "3") + r'''
R = PolynomialRing(QQ, 'x, y, z'); x, y, z = R.gens()
try:
    print("VALUE", mg.minimal_generator_counts(R, [x**2, x*y, x**3 + y**3, z**3], 3), flush=True)
except KeyboardInterrupt as e:
    print("INTERRUPTED", getattr(e, "finished", None), flush=True)
'''

_CLI = _DEAF.replace("DEAF_DEGREE", "2") + r'''
from sage_attention.app.cli import main
sys.exit(main(["run", sys.argv[1]]))
'''


def _interrupt_when_deaf(code, *args):
    p = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=cli_env(), cwd=ROOT)
    lines = []
    for line in p.stdout:
        lines.append(line)
        if line.startswith("DEAF"):
            break
    assert lines and lines[-1].startswith("DEAF"), "".join(lines) + p.stderr.read()
    time.sleep(0.5)
    p.send_signal(signal.SIGINT)
    t0 = time.time()
    try:
        out, err = p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    return time.time() - t0, p.returncode, "".join(lines) + out, err


#: seconds from SIGINT to the end of the process (Sage's exit included, on a loaded
#: machine); the deaf phase alone would take 30
ANSWER = 8


def test_ctrl_c_stops_the_minimal_generators_at_once_in_the_api():
    seconds, status, out, err = _interrupt_when_deaf(_API)
    assert seconds < ANSWER, (seconds, out, err)
    assert status == 0, err
    # degree 2 finished before the interrupt: x^2, x y (independent, so both minimal)
    assert "INTERRUPTED {2: 2}" in out, out + err


def test_ctrl_c_stops_the_minimal_generators_at_once_in_the_cli(tmp_path):
    spec = tmp_path / "m.att"
    spec.write_text("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1); "
                    "entries = (1, 1) }\ncompute m { vanishing_ideal up to degree 2 count = exact }\n")
    seconds, status, out, err = _interrupt_when_deaf(_CLI, str(spec))
    assert seconds < ANSWER, (seconds, out, err)
    assert status == 130, (status, out, err)
    assert "Traceback" not in out + err
