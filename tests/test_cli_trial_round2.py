"""Four items of a newcomer's second trial of the command line.

1. ``run -q`` still printed the warning "interpolation of ... complete through degree 3 only,
   not proved complete" on stderr; ``-q`` now silences the notes and warnings the library logs
   (the result itself says the ideal is not proved whole).
2. ``--json``: ``filling --json`` printed one JSON array without ``format``/``record``;
   ``figures --json`` was a usage error; ``script`` has no ``--json`` (its output is the
   script's own), and the README no longer says that every command has one; the error record
   of a spec file that cannot be read had no ``file``.
3. ``invariants all, brill`` printed one merged line ``linear+...+rows: ...`` (``empty ()``
   when every family was empty); it now prints one line per family, an empty one with why.
4. ``run`` printed nothing until a model's computations were all done; the text report now
   prints the model's header first and each computation as it finishes, and a ``dimension``
   estimated to take more than a minute (a deep stack) says so, with the estimate.
"""
import io
import json
import logging
import os
import subprocess
import sys
import time

import pytest

from sage_attention.app import cli, reporting

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ONE = "model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"


def _cli(*args, cwd):
    env = dict(os.environ, PYTHONPATH=REPO)
    return subprocess.run([sys.executable, "-m", "sage_attention.app.cli", *args], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=300)


def _records(text):
    recs = [json.loads(line) for line in text.splitlines()]
    assert all(isinstance(r, dict) and r["format"] == 1 and "record" in r for r in recs), text
    return recs


# 1. -q silences the warnings --------------------------------------------------------------

def test_quiet_silences_the_not_proved_warning(tmp_path):
    f = tmp_path / "w.att"
    f.write_text("model m { input = 4; tokens = 1; layer attention(rank = 3, out = 1) }\n"
                 "compute m { vanishing_ideal degree = 3 }\n")
    loud = _cli("run", str(f), cwd=tmp_path)
    quiet = _cli("run", "-q", str(f), cwd=tmp_path)
    assert loud.returncode == quiet.returncode == 0, (loud.stderr, quiet.stderr)
    assert "not proved complete" in loud.stderr            # without -q the warning stays
    assert "not proved: that they generate the whole ideal" in quiet.stdout   # the result says it
    assert quiet.stderr == ""


def test_quieted_restores_the_logger():
    log = logging.getLogger("sage_attention")
    level = log.level
    with cli.quieted():
        assert log.getEffectiveLevel() == logging.ERROR
    assert log.level == level


# 2. --json conventions ----------------------------------------------------------------------

def test_filling_json_is_json_lines(capsys):
    status = cli.main(["filling", "--input", "2", "--output", "1", "--depth", "2",
                       "--degree", "2..3", "--max-width", "3", "-q", "--json"])
    assert status == 0
    recs = _records(capsys.readouterr().out)
    assert [(r["record"], r["command"], r["r"]) for r in recs] == [("row", "filling", 2),
                                                                  ("row", "filling", 3)]
    assert recs[0]["minimal_filling"] == [[2, 2, 1]]


def test_figures_json_records_the_files(tmp_path, capsys, monkeypatch):
    import sage_attention.app.figures as figures
    written = [str(tmp_path / "hmk_softmax.md"), str(tmp_path / "neuromanifold_slice.png")]
    monkeypatch.setattr(figures, "make_figures", lambda outdir, seed=0, progress=None: written)
    assert cli.main(["figures", "--outdir", str(tmp_path), "-q", "--json"]) == 0
    recs = _records(capsys.readouterr().out)
    assert [(r["record"], r["command"], r["path"]) for r in recs] == \
        [("file", "figures", p) for p in written]


def test_script_has_no_json_and_says_why(tmp_path, capsys):
    script = tmp_path / "s.py"
    script.write_text("print('hello')\n")
    with pytest.raises(SystemExit) as e:
        cli.main(["script", "--json", str(script)])
    assert e.value.code == 2
    (rec,) = _records(capsys.readouterr().out)
    assert rec["record"] == "error" and "script's own" in rec["error"]


def test_readme_does_not_promise_json_for_every_command():
    readme = open(os.path.join(REPO, "README.md")).read()
    assert "With `--json` every command prints JSON Lines" not in readme
    assert "`script` has none" in readme


def test_unreadable_spec_error_record_has_file(tmp_path, capsys):
    missing = str(tmp_path / "nope.att")
    assert cli.main(["run", "--json", missing]) == 2
    (rec,) = _records(capsys.readouterr().out)
    assert rec["record"] == "error" and rec["file"] == missing


# 3. one line per invariant family ---------------------------------------------------------

def test_invariants_all_one_line_per_family(tmp_path, capsys):
    f = tmp_path / "m.att"
    f.write_text(ONE + "compute m { invariants all, brill }\n")
    assert cli.main(["run", "-q", str(f)]) == 0
    out = capsys.readouterr().out
    assert "()" not in out and "+" not in out
    for line in ("   linear: 14 invariants of degree 1\n", "   low_rank: 3 invariants of degree 2\n",
                 "   sylvester: 1 invariant of degree 4\n",
                 "   pencil: empty: the 3 x 3 minors of the pencil need d >= 3 (here d = 2)\n",
                 "   brill: empty: Brill equations are for t = 1"):
        assert line in out, out


def test_empty_family_without_note_never_prints_parentheses():
    from sage_attention import LightningAttention
    from sage_attention.app.runners import family_summary
    from sage_attention.invariants.base import InvariantFamily
    text = family_summary(InvariantFamily("linear+pencil", LightningAttention(d=2, t=2, a=1)))
    assert text == "empty: no members"


# 4. results as they finish ----------------------------------------------------------------

def test_text_report_streams_each_computation(monkeypatch):
    from sage_attention.dsl import parse_spec
    spec = parse_spec(ONE + "compute m { dimension; fibers; vanishing_ideal }")
    out = io.StringIO()
    seen = {}
    real = reporting.runner

    def slow_ideal(model, comp, options):
        seen["printed"] = out.getvalue()     # what the reader has when the slow step starts
        time.sleep(0.1)
        return {"text": "the ideal"}

    monkeypatch.setattr(reporting, "runner", lambda name, spec_model: slow_ideal
                        if name == "vanishing_ideal" else real(name, spec_model))
    reporting.run_spec(spec, seed=0, out=out)
    printed = seen["printed"]
    assert printed.startswith("== model m: ")
    assert "-- dimension:" in printed and "-- fibers:" in printed
    assert "-- vanishing_ideal:" not in printed
    full = out.getvalue()
    assert full.index("-- vanishing_ideal:") < full.index("dimension computed 4, expected 4")
    # JSON keeps one record per model, printed when its computations finished (doc/json.rst)
    out = io.StringIO()
    reporting.run_spec(spec, as_json=True, seed=0, out=out)
    assert seen["printed"] == ""
    (rec,) = _records(out.getvalue())
    assert [c["computation"] for c in rec["computations"]] == ["dimension", "fibers",
                                                               "vanishing_ideal"]


def _deep(n):
    from sage_attention import LightningAttention
    return LightningAttention(widths=[2] * (n + 1) + [1], ranks=[1] * (n + 1), t=1)


def test_jacobian_estimate_matches_the_measured_times():
    from sage_attention.app.runners import jacobian_seconds
    # measured: 11 layers 2.4 s, 21 layers 16.8 s; 41 and 302 layers more than a minute
    assert 1 < jacobian_seconds(_deep(10)) < 5
    assert 8 < jacobian_seconds(_deep(20)) < 35
    assert jacobian_seconds(_deep(40)) > 60
    assert jacobian_seconds(_deep(300)) > 3600


class _Stop(Exception):
    pass


def test_slow_dimension_says_so(monkeypatch, caplog):
    from sage_attention.app.runners import run_dimension
    from sage_attention.dsl.spec import Computation
    M = _deep(40)

    def never(*args, **kwargs):
        raise _Stop           # the rank itself is not computed here

    monkeypatch.setattr(M, "dimension_report", never)
    with caplog.at_level(logging.WARNING, logger="sage_attention"), pytest.raises(_Stop):
        run_dimension(M, Computation("m", "dimension"), {"seed": 0})
    (message,) = [r.getMessage() for r in caplog.records]
    assert message.startswith("dimension of model `m`: this may take about 2 minutes")
    assert "--progress" in message
