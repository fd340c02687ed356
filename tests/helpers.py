"""Helpers shared by the test files (imported as ``from helpers import ...``; pytest puts
``tests/`` on ``sys.path``).

- ``ROOT``: the checkout (a ``Path``);
- ``run_cli(*args)``: ``python -m sage_attention.app.cli ARGS`` in a child process, the
  checkout first on ``PYTHONPATH``;
- ``json_records(text)``: the JSON Lines of a ``--json`` output, each checked to be a record
  (``"format"`` and ``"record"``);
- ``shown(text)``: the final text of each line of a progress display on stderr;
- ``spec_error(text)`` and ``fix_of(error)``: the error ``check`` reports for a spec, and the
  text of its ``fix:`` line;
- ``slice_model(d, a)``: the one-entry slice ``LightningAttention(d, t, a, out=1,
  entries=[(1, 1)])``;
- ``span_rank(polys, F)``: the dimension of the span of polynomials, as the rank of their
  coefficient matrix over ``F``.

Nothing here calculates what a test checks: the independent computations stay in the tests.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cli_env(**variables):
    """The environment of a child process: this one, the checkout first on ``PYTHONPATH``,
    and ``variables`` set."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    return dict(os.environ, PYTHONPATH=path, **variables)


def run_cli(*args, cwd=ROOT, stdin=None, env=None, timeout=600):
    """Run ``sage-attention ARGS`` (``python -m sage_attention.app.cli``) in a child process
    and return the ``subprocess.CompletedProcess`` (text ``stdout`` and ``stderr``)."""
    return subprocess.run([sys.executable, "-m", "sage_attention.app.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, input=stdin,
                          env=cli_env() if env is None else env, timeout=timeout)


def json_records(text, kinds=None):
    """The records of the JSON Lines ``text``; each has ``"format"`` and ``"record"`` (one of
    ``kinds`` if given), and there is at least one."""
    from sage_attention.app.jsonout import JSON_FORMAT
    records = [json.loads(line) for line in text.splitlines()]
    assert records, "no JSON record"
    for r in records:
        assert isinstance(r, dict) and r["format"] == JSON_FORMAT and "record" in r, text
        assert kinds is None or r["record"] in kinds, r
    return records


def shown(text):
    """The final text of each line written to stderr (a line is rewritten with carriage
    returns while its step runs)."""
    return [line.split("\r")[-1] for line in text.split("\n")[:-1]]


def spec_error(text, filename="s.att"):
    """The error (a ``DSLSyntaxError`` or a ``SpecError``) that ``check`` reports for the spec
    ``text``: parsed and validated."""
    import pytest
    from sage_attention.dsl import parse_spec
    from sage_attention.dsl.errors import DSLSyntaxError
    from sage_attention.dsl.validation import validate
    from sage_attention.misc.errors import SpecError
    with pytest.raises((DSLSyntaxError, SpecError)) as info:
        validate(parse_spec(text, filename=filename))
    return info.value


def fix_of(error):
    """The text of the last ``fix:`` line of ``error`` (``None`` without one)."""
    text = str(error)
    return text.rsplit("fix: ", 1)[1] if "fix: " in text else None


def slice_model(d, a=1, t=2):
    """The one-entry slice: ``LightningAttention(d=d, t=t, a=a, out=1, entries=[(1, 1)])``."""
    from sage_attention import LightningAttention
    return LightningAttention(d=d, t=t, a=a, out=1, entries=[(1, 1)])


def span_rank(polys, F=None):
    """The dimension of the span of ``polys`` over ``F`` (default ``QQ``): the rank of the
    matrix of their coefficients."""
    from sage.all__sagemath_singular import QQ, matrix
    monomials = sorted({m for f in polys for m in f.monomials()})
    return matrix(QQ if F is None else F,
                  [[f.monomial_coefficient(m) for m in monomials] for f in polys]).rank()
