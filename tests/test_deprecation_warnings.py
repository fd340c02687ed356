"""The deprecation warnings of the 0.1 names point at the user's line, so that a plain script sees them.

Python shows a DeprecationWarning by default only when it is attributed to ``__main__``; a
warning attributed to ``sys:1`` (a stack level past the script) was silent in a script and
pointed nowhere with ``-W default``. Each case runs a real script in a fresh interpreter.
"""
import subprocess
import sys

import pytest

from helpers import cli_env

CASES = [
    ("import sage_attention.network\n", 1, "sage_attention.network is deprecated"),
    ("from sage_attention import LightningAttention\n"
     "M = LightningAttention(d=2, t=2, a=1, weights='AV')\n", 2, "the keyword weights= is deprecated"),
    ("import sage_attention\n"
     "from sage_attention.ideals.implicitization import ImplicitizationResult\n", 2,
     "ImplicitizationResult is deprecated"),
]


@pytest.mark.parametrize("code,line,message", CASES)
def test_a_plain_script_sees_the_warning_at_its_own_line(tmp_path, code, line, message):
    script = tmp_path / "user_script.py"
    script.write_text(code)
    env = cli_env()
    env.pop("PYTHONWARNINGS", None)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env,
                         cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr
    assert f"{script}:{line}: DeprecationWarning: {message}" in out.stderr, out.stderr
    assert "sys:1" not in out.stderr
