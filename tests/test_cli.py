"""Tests of the command line ``sage-attention``."""
import io
import json
import logging
import os
import subprocess
import sys
import time

import pytest

from sage_attention.app import cli, reporting, runners

from helpers import ROOT, json_records, run_cli, shown


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


def test_size_guard_and_force(tmp_path, capsys):
    f = tmp_path / "big.att"
    f.write_text("model m { input = 4; tokens = 3; layer attention(rank = 2, out = 4) }\n"
                 "compute m { vanishing_ideal }\n")
    assert cli.main(["check", str(f)]) == 2
    assert "pass --force" in capsys.readouterr().err
    assert cli.main(["check", str(f), "--force"]) == 0


def test_rank_note(tmp_path, capsys):
    f = tmp_path / "n.att"
    f.write_text("model m { input = 2; tokens = 2; layer attention(rank = 3, out = 1) }\n")
    assert cli.main(["check", str(f)]) == 0
    assert "note: rank 3 exceeds input width 2" in capsys.readouterr().err


def test_run_json_slice():
    r = run_cli("run", "examples/slice.att", "--json", "--seed", "0")
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


def test_computation_failure_is_reported_in_place_and_the_run_goes_on(tmp_path, capsys,
                                                                     monkeypatch):
    f = tmp_path / "a.att"
    f.write_text("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
                 "model n { input = 1; tokens = 2; layer attention(rank = 1, out = 1) }\n"
                 "compute m { dimension; fibers }\ncompute n { fibers }\n")

    def boom(model, computation, options):
        raise RuntimeError("singular exploded")
    monkeypatch.setattr(runners, "run_dimension", boom)
    assert cli.main(["run", str(f), "--seed", "0"]) == 1
    captured = capsys.readouterr()
    assert "FAILED: `dimension`: RuntimeError: singular exploded" in captured.out
    # the next computation and the next model ran
    assert captured.out.count("-- fibers:") == 2 and "== model n" in captured.out
    assert "1 computation failed: `dimension` on `m`" in captured.err
    assert "Traceback" not in captured.out + captured.err
    assert cli.main(["run", str(f), "--seed", "0", "--json"]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [d["model"] for d in lines] == ["m", "n"]
    first = lines[0]["computations"][0]
    assert first["computation"] == "dimension"
    assert first["error"] == "RuntimeError: singular exploded" and lines[0]["failed"]
    assert "error" not in lines[0]["computations"][1] and "failed" not in lines[1]


def test_interrupt_exit_130(tmp_path, capsys, monkeypatch):
    f = tmp_path / "a.att"
    f.write_text("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
                 "model n { input = 1; tokens = 2; layer attention(rank = 1, out = 1) }\n"
                 "compute m { dimension; fibers }\ncompute n { dimension }\n")

    def interrupt(model, computation, options):
        raise KeyboardInterrupt
    monkeypatch.setattr(runners, "run_fibers", interrupt)
    assert cli.main(["run", str(f), "--seed", "0"]) == 130
    captured = capsys.readouterr()
    assert "dimension computed 4" in captured.out
    assert "== model n" not in captured.out  # the run does not go on to the next model
    assert "interrupted" in captured.err


def test_empty_specs_say_so(tmp_path, capsys):
    for text in ("", "// only a comment\n# another\n", "\n\n;\n"):
        f = tmp_path / "e.att"
        f.write_text(text)
        assert cli.main(["check", str(f)]) == 2
        assert "the spec is empty" in capsys.readouterr().err
        assert cli.main(["run", str(f)]) == 2
        assert "the spec is empty" in capsys.readouterr().err
    f.write_text("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n")
    assert cli.main(["check", str(f)]) == 0
    assert "no `compute` block" in capsys.readouterr().err
    assert cli.main(["run", str(f)]) == 2
    err = capsys.readouterr().err
    assert "nothing to run" in err and "compute m { dimension }" in err


def test_help_documents_exit_status_and_statements():
    r = run_cli("--help")
    assert r.returncode == 0
    for code in ("0", "1", "2", "130"):
        assert f"\n  {code} " in r.stdout
    assert "vanishing_ideal [up to degree N]" in r.stdout and "veronese(r, limit)" in r.stdout


@pytest.mark.parametrize("args,message", [
    (["--width", "a..b"], "--width (='a..b'): `a` is not an integer"),
    (["--width", "3..2"], "the range 3..2 is empty"),
    (["--rank", ""], "--rank (='') lists no value"),
    (["--width", "0"], "0 must be at least 1"),
    (["--normalization", "relu"], "`relu` must be lightning or softmax"),
    (["--arch", "3,3"], "must be 'widths:ranks'"),
    (["--arch", "3,3,3:1"], "needs one rank per layer"),
    (["--width", "1..100000"], "more than 10000 values"),
    (["-j", "0"], "--jobs (=0) must be at least 1"),
])
def test_sweep_arguments(args, message, capsys):
    assert cli.main(["sweep", "-q", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_figures_outdir_errors(tmp_path, capsys):
    afile = tmp_path / "file"
    afile.write_text("x")
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    cases = [(afile, "is not a folder"), (tmp_path / "missing" / "deeper", "does not exist")]
    if not os.access(ro, os.W_OK):  # root can write anyway
        cases.append((ro, "is not writable"))
    for path, message in cases:
        assert cli.main(["figures", "--outdir", str(path), "-q"]) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err


def test_figures_default_outdir_is_not_the_docs():
    action = next(a for a in cli._parser()._subparsers._group_actions[0].choices["figures"]._actions
                  if a.dest == "outdir")
    assert action.default == "figures"


def test_verbose_logs(tmp_path):
    r = run_cli("run", "examples/deep.att", "--verbose")
    assert r.returncode == 0, r.stderr
    assert "running dimension" in r.stderr


def test_ctrl_c_during_run_exits_130_and_does_not_go_on(tmp_path):
    """A real SIGINT while a computation runs: exit 130, the finished model is
    printed, the next model is not run, no traceback."""
    import signal
    import time
    f = tmp_path / "big.att"
    f.write_text("model a { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
                 "model big { input = 14; tokens = 3\n"
                 "  layer attention(rank = 3, out = 14)\n"
                 "  layer attention(rank = 3, out = 14) }\n"
                 "model c { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
                 "compute a { dimension }\ncompute big { dimension; fibers }\n"
                 "compute c { dimension }\n")
    proc = subprocess.Popen([sys.executable, "-m", "sage_attention.app.cli", "run", str(f),
                             "--seed", "0", "--force"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        lines = []
        while not any("dimension computed 4" in line for line in lines):
            line = proc.stdout.readline()
            assert line, proc.stderr.read()
            lines.append(line)
        time.sleep(0.5)
        # one Ctrl-C must do (an interrupt swallowed inside a LinBox product
        # is delivered again by the CLI); the loop only guards the timing
        t0 = time.time()
        while proc.poll() is None and time.time() - t0 < 60:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                pass
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    # Cython prints the traceback of an interrupt it cannot propagate (inside a
    # LinBox product) before the CLI delivers it again: that block is not ours
    import re
    err = re.sub(r"Traceback \(most recent call last\):\n(?:  .*\n|\s*\n)*?KeyboardInterrupt:? *\n",
                 "", err)
    assert "interrupted" in err and "Traceback" not in err + out
    assert "== model c" not in out


def test_run_progress_shows_the_long_steps(tmp_path):
    f = tmp_path / "p.att"
    f.write_text("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1); "
                 "entries = (1, 1) }\n"
                 "compute m { vanishing_ideal algorithm = elimination; "
                 "vanishing_ideal up to degree 2 }\n")
    r = run_cli("run", str(f), "--json", "--progress")
    assert r.returncode == 0, r.stderr
    lines = shown(r.stderr)
    for step in ("elimination: the graph ideal in 6 essential coordinates",
                 "elimination: Gröbner basis (Singular slimgb, 6 weights eliminated)",
                 "elimination: the generators in the coordinates",
                 "minimal generators: Singular minbase of 3 generators",
                 # a rank-one slice: the proof by a Segre product (sage_attention.ideals.proofs.segre)
                 "completeness proof by a Segre product (at most 30 s)"):
        assert any(line.startswith(step + ": done in ") for line in lines), (step, lines)
    # the tqdm bar of the pieces: "degree 2: 100%|...| 1/1 [00:00<00:00, ... pieces/s]"
    assert any(line.startswith("degree 2: 100%") and "pieces/s]" in line
               for line in lines), lines
    # the results are those of a run without progress, which shows nothing (stderr is a pipe)
    quiet = run_cli("run", str(f), "--json")
    assert quiet.returncode == 0 and quiet.stderr == ""
    assert [json.loads(line)["computations"][0]["generators_by_degree"]
            for line in (r.stdout, quiet.stdout)] == [{"1": 4, "2": 3}] * 2
    assert run_cli("run", str(f), "--json", "--no-progress").stderr == ""


def test_run_progress_shows_the_dimension_step(tmp_path):
    # a wide model's dimension takes minutes; `run --progress` printed nothing meanwhile
    f = tmp_path / "d.att"
    f.write_text("model m { input = 3; tokens = 2; layer attention(rank = 1, out = 3) }\n"
                 "compute m { dimension seed = 0 }\n")
    r = run_cli("run", str(f), "--progress")
    assert r.returncode == 0, r.stderr
    assert any(line.startswith("dimension: the Jacobian rank at random inputs: done in ")
               for line in shown(r.stderr)), r.stderr
    quiet = run_cli("run", str(f))
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout == r.stdout


def test_exact_count_of_minimal_generators_is_skipped_beyond_its_size(monkeypatch):
    """The engine's counts (certified modulo p) replace the exact count over QQ past its size, and say so."""
    from sage_attention import LightningAttention
    from sage_attention.ideals import minimal_generators as mg
    from sage_attention.settings import settings
    M = LightningAttention(d=3, t=2, a=2, entries=[(1, 1)])
    exact = runners.run_vanishing_ideal(M, None, {"degree": 4})
    assert exact["minimal_count"] == "exact" and "skipped" not in exact["text"]
    # the size of the exact count here: 30 cubics times 18 variables against the 5985 quartic monomials
    assert mg.exact_count_size([3] * 30 + [4] * 90, 18) == 30 * 18 * 5985
    called = []
    counted = mg.minimal_generators_count
    monkeypatch.setattr(mg, "minimal_generators_count",
                        lambda *a, **k: called.append(1) or counted(*a, **k))
    with settings.override(EXACT_COUNT_SIZE=30 * 18 * 5985 - 1):
        skipped = runners.run_vanishing_ideal(M, None, {"degree": 4})
        assert not called and skipped["minimal_count"] == "modulo p"
        assert "the exact count over QQ (size 3231900 > 3231899) was skipped: pass --force" in skipped["text"]
        # the engine's counts modulo p against the exact ones over QQ (truncated Groebner bases)
        assert skipped["generators_by_degree"] == exact["generators_by_degree"] == {1: 10, 3: 30, 4: 90}
        forced = runners.run_vanishing_ideal(M, None, {"degree": 4, "force": True})
        assert called and forced["minimal_count"] == "exact"


def test_script_runs_a_sage_file_as_sage_would(tmp_path):
    # `sage paper.sage` needs sage.all, which the modular distributions lack;
    # `sage-attention script` preparses and runs it with the installed names.
    f = tmp_path / "paper.sage"
    f.write_text("import sys\n"
                 "R.<u> = QQ[]\n"
                 "M = LightningAttention(d=3, t=2, a=1, out=1)\n"
                 "print(M.dimension(seed=0), 2^10, (u + 1/2)^2, sys.argv[1:])\n"
                 "sys.exit(int(sys.argv[1]))\n")
    p = run_cli("script", str(f), "3", "--json")
    assert p.stdout == "7 1024 u^2 + u + 1/4 ['3', '--json']\n"
    assert p.returncode == 3, p.stderr
    f.write_text("x = 1\n\ny = x/0\n")
    p = run_cli("script", str(f))
    assert p.returncode == 1 and f'File "{f}", line 3' in p.stderr
    assert p.stderr.rstrip().endswith("ZeroDivisionError: rational division by zero")


def test_script_refuses_what_is_not_a_script(tmp_path):
    p = run_cli("script", str(tmp_path / "m.att"))
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "not a Sage script" in p.stderr and "sage-attention run" in p.stderr
    p = run_cli("script", str(tmp_path / "missing.sage"))
    assert p.returncode == 2 and "missing.sage: no such file" in p.stderr


def test_closed_output_stops_quietly():
    # `sage-attention run x.att | head -1`: the reader closes the pipe; no traceback, status 141
    proc = subprocess.Popen([sys.executable, "-m", "sage_attention.app.cli", "run",
                             str(ROOT / "examples" / "slice.att"), "--seed", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert proc.stdout.readline().startswith("== model slice")
        proc.stdout.close()
        err = proc.stderr.read()
        proc.wait(timeout=300)
    finally:
        proc.kill()
    assert proc.returncode == 141, err
    assert "Traceback" not in err and "BrokenPipe" not in err, err


def test_no_python_none_in_the_text_report():
    # the transformer block has no published dimension formula: the report says so in words
    r = run_cli("run", str(ROOT / "examples" / "transformer_block.att"), "--seed", "0")
    assert r.returncode == 0, r.stderr
    assert "None" not in r.stdout
    assert "no published formula to compare with" in r.stdout


def test_unknown_option_is_reported_by_its_command_with_a_near_option():
    r = run_cli("run", "--jsn", str(ROOT / "examples" / "slice.att"))
    assert r.returncode == 2
    assert "usage: sage-attention run" in r.stderr
    assert "unrecognized arguments: --jsn (did you mean `--json`?)" in r.stderr


# -- the traceback of a script's error starts at the script

@pytest.mark.parametrize("suffix", [".py", ".sage"])
def test_a_script_error_shows_only_the_script_frames(tmp_path, suffix):
    f = tmp_path / ("user" + suffix)
    f.write_text("def inverse(x):\n"
                 "    return 1 / x\n"
                 "\n"
                 "print('before')\n"
                 "inverse(0)\n")
    p = run_cli("script", f)
    assert p.returncode == 1 and p.stdout == "before\n"
    lines = p.stderr.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1] == f'  File "{f}", line 5, in <module>', p.stderr
    assert f'  File "{f}", line 2, in inverse' in lines
    assert "sage_attention" not in p.stderr and "exec(" not in p.stderr
    assert lines[-1].startswith("ZeroDivisionError: ")
    # a relative path, as typed
    p = run_cli("script", f.name, cwd=tmp_path)
    assert p.returncode == 1 and f'  File "{f.name}", line 5, in <module>' in p.stderr
    assert "sage_attention" not in p.stderr


def test_a_script_error_keeps_the_library_frames_the_script_calls(tmp_path):
    f = tmp_path / "user.py"
    f.write_text("M = LightningAttention(d=2, t=2, a=1)\n"
                 "M.dimension(seed=-1)\n")
    p = run_cli("script", f)
    assert p.returncode == 1
    lines = p.stderr.splitlines()
    assert lines[1] == f'  File "{f}", line 2, in <module>', p.stderr
    assert "run_sage_file" not in p.stderr and "_script_command" not in p.stderr
    assert "sage_attention" in p.stderr            # the library's frames below the script's
    assert lines[-1].startswith("ValueError: seed (=-1)")


def test_a_syntax_error_in_a_script_shows_its_line(tmp_path):
    f = tmp_path / "user.sage"
    f.write_text("x = 1\ny = (\n")
    p = run_cli("script", f)
    assert p.returncode == 1
    assert "Traceback" not in p.stderr and "sage_attention" not in p.stderr
    assert f'File "{f}", line 2' in p.stderr and "SyntaxError" in p.stderr


ONE_LAYER = "model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"


# -- results as they finish: a model's header first, each computation when it is done

def test_text_report_streams_each_computation(monkeypatch):
    from sage_attention.dsl import parse_spec
    spec = parse_spec(ONE_LAYER + "compute m { dimension; fibers; vanishing_ideal }")
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
    (rec,) = json_records(out.getvalue())
    assert [c["computation"] for c in rec["computations"]] == ["dimension", "fibers",
                                                               "vanishing_ideal"]


def _deep(n):
    from sage_attention import LightningAttention
    return LightningAttention(widths=[2] * (n + 1) + [1], ranks=[1] * (n + 1), t=1)


def test_jacobian_estimate_matches_the_measured_times():
    from sage_attention.app.runners import jacobian_seconds
    # reverse mode (time ~ inputs x output entries x layers); measured on a shared 2-core machine:
    # 41 layers 2.1 s and 81 layers 7.9 s (256 inputs), 19.5 s with the 648 inputs the estimate counts
    assert jacobian_seconds(_deep(10)) < 1
    assert 2 < jacobian_seconds(_deep(40)) < 10
    assert 10 < jacobian_seconds(_deep(80)) < 40
    assert 60 < jacobian_seconds(_deep(300)) < 3600      # minutes, not hours (forward mode: about 15 h)


class _Stop(Exception):
    pass


def test_slow_dimension_says_so(monkeypatch, caplog):
    from sage_attention.app.runners import run_dimension
    from sage_attention.dsl.spec import Computation
    M = _deep(200)

    def never(*args, **kwargs):
        raise _Stop           # the rank itself is not computed here

    monkeypatch.setattr(M, "dimension_report", never)
    with caplog.at_level(logging.WARNING, logger="sage_attention"), pytest.raises(_Stop):
        run_dimension(M, Computation("m", "dimension"), {"seed": 0})
    (message,) = [r.getMessage() for r in caplog.records]
    assert message.startswith("dimension of model `m`: this may take about 2 minutes")
    assert "--progress" in message
