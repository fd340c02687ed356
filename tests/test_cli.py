"""Tests of the command line ``sage-attention``."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from sage_attention.app import cli

ROOT = Path(__file__).resolve().parents[1]


def run(*args):
    return subprocess.run([sys.executable, "-m", "sage_attention.app.cli", *args],
                          capture_output=True, text=True, cwd=ROOT)


def test_check_ok(capsys):
    assert cli.main(["check", str(ROOT / "examples" / "slice.att")]) == 0
    assert "ok: 3 models, 5 computations" in capsys.readouterr().err


@pytest.mark.parametrize("name,text", [
    ("unknown_keyword.att", "Unknown keyword: `tokns` (did you mean `tokens`?)"),
    ("missing_value.att", "Missing value"),
    ("unclosed.att", "Unbalanced bracket"),
    ("bad_entry.att", "token 3 exceeds the number of tokens 2"),
    ("unknown_model.att", "did you mean `slice`?"),
])
def test_spec_errors_exit_2_without_traceback(name, text, capsys):
    path = ROOT / "examples" / "errors" / name
    assert cli.main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert text in err and "Traceback" not in err
    assert err.startswith(str(path) + ":")


def test_missing_file(capsys):
    assert cli.main(["check", "no/such/file.att"]) == 2
    assert "cannot read spec file" in capsys.readouterr().err


def test_unavailable_computation(tmp_path, capsys):
    f = tmp_path / "a.att"
    f.write_text("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
                 "compute m { certify point [1, 2] }\n")
    saved = dict(cli.COMPUTATIONS)
    try:
        cli.COMPUTATIONS.pop("certify", None)
        assert cli.main(["check", str(f)]) == 2
        assert "computation `certify` is not available in this version" in capsys.readouterr().err
    finally:
        cli.COMPUTATIONS.clear()
        cli.COMPUTATIONS.update(saved)


def test_size_guard_and_force(tmp_path, capsys):
    f = tmp_path / "big.att"
    f.write_text("model m { input = 4; tokens = 3; layer attention(rank = 2, out = 4) }\n"
                 "compute m { vanishing_ideal }\n")
    had = "vanishing_ideal" in cli.COMPUTATIONS
    cli.COMPUTATIONS.setdefault("vanishing_ideal", lambda model, computation, options: {})
    try:
        assert cli.main(["check", str(f)]) == 2
        assert "pass --force" in capsys.readouterr().err
        assert cli.main(["check", str(f), "--force"]) == 0
    finally:
        if not had:
            del cli.COMPUTATIONS["vanishing_ideal"]


def test_rank_note(tmp_path, capsys):
    f = tmp_path / "n.att"
    f.write_text("model m { input = 2; tokens = 2; layer attention(rank = 3, out = 1) }\n")
    assert cli.main(["check", str(f)]) == 0
    assert "note: rank 3 exceeds input width 2" in capsys.readouterr().err


def test_run_json_slice():
    r = run("run", "examples/slice.att", "--json", "--seed", "0")
    assert r.returncode == 0, r.stderr
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    assert [d["model"] for d in lines] == ["slice", "single_token", "qkv"]
    for d in lines:
        for key in ("model", "coordinates", "parameters", "dimension", "expected_dimension"):
            assert key in d
        assert d["dimension"] == d["expected_dimension"]
    assert lines[0]["dimension"] == 10 and lines[0]["parameters"] == 12


def test_run_text(capsys):
    assert cli.main(["run", str(ROOT / "examples" / "slice.att"), "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "== model slice" in out and "dimension computed 10, expected 10 (agrees)" in out
    assert "identifiable up to" in out


def test_computation_failure_exit_1(tmp_path, capsys):
    f = tmp_path / "a.att"
    f.write_text("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
                 "compute m { dimension }\n")

    def boom(model, computation, options):
        raise RuntimeError("singular exploded")
    saved = cli.COMPUTATIONS["dimension"]
    cli.COMPUTATIONS["dimension"] = boom
    try:
        assert cli.main(["run", str(f)]) == 1
    finally:
        cli.COMPUTATIONS["dimension"] = saved
    err = capsys.readouterr().err
    assert "`dimension` on model `m` failed: RuntimeError: singular exploded" in err
    assert "Traceback" not in err


def test_interrupt_exit_130(tmp_path, capsys):
    f = tmp_path / "a.att"
    f.write_text("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
                 "compute m { dimension; fibers }\n")

    def interrupt(model, computation, options):
        raise KeyboardInterrupt
    saved = cli.COMPUTATIONS["fibers"]
    cli.COMPUTATIONS["fibers"] = interrupt
    try:
        assert cli.main(["run", str(f), "--seed", "0"]) == 130
    finally:
        cli.COMPUTATIONS["fibers"] = saved
    captured = capsys.readouterr()
    assert "dimension computed 4" in captured.out
    assert "interrupted" in captured.err


def test_verbose_logs(tmp_path):
    r = run("run", "examples/deep.att", "--verbose")
    assert r.returncode == 0, r.stderr
    assert "running dimension" in r.stderr
