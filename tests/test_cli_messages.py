"""
The messages of the command line name what the command has: its options (in
the command line's spelling, ``--max-width``, ``--force``), the place an
option goes, the clause a spec writes (``up to degree N``); and a table
neither ignores an option silently nor computes a row twice.
"""
import json
import time

import pytest

from sage_attention.app import cli

from helpers import run_cli
OK = ("model m { input = 3; tokens = 2; layer attention(rank = 1, out = 1) }\n"
      "compute m { dimension }\n")
MEM = ("model m { input = 3; tokens = 2; layer attention(rank = 1, out = 1) }\n"
       "compute m { vanishing_ideal }\n")


def test_an_option_of_the_command_given_before_it_is_told_to_go_after_it(tmp_path, capsys):
    f = tmp_path / "ok.att"
    f.write_text(OK)
    with pytest.raises(SystemExit) as e:
        cli.main(["--json", "check", str(f)])
    assert e.value.code == 2
    captured = capsys.readouterr()
    assert ("`--json` is an option of the command: put it after `check` "
            "(sage-attention check --json FILE)") in captured.err
    assert "did you mean" not in captured.err
    (rec,) = [json.loads(line) for line in captured.out.splitlines()]
    assert rec["record"] == "error" and "put it after `check`" in rec["error"]
    with pytest.raises(SystemExit):
        cli.main(["-q", "sweep", "--arch", "2,2:1"])
    assert "`-q` is an option of the command: put it after `sweep`" in capsys.readouterr().err
    with pytest.raises(SystemExit):       # an unknown option keeps its near option
        cli.main(["check", str(f), "--jsn"])
    assert "unrecognized arguments: --jsn (did you mean `--json`?)" in capsys.readouterr().err


def test_command_line_advice_names_the_command_options():
    from sage_attention.app.messages import command_line_advice
    from sage_attention.misc.errors import ComputationTooLarge
    e = ComputationTooLarge("too big (limit 5)", force_helps=True)
    assert str(e) == "too big (limit 5); pass force=True to run it anyway"
    assert command_line_advice(e) == "too big (limit 5); pass --force to run it anyway"
    assert command_line_advice(e, force=False) == "too big (limit 5)"
    assert command_line_advice(e, force=False, hint="lower --width") == \
        "too big (limit 5); lower --width"
    e = ComputationTooLarge("the table (limit 1 KiB)", lower_degree=True, force_helps=True)
    assert command_line_advice(e, degree_clause=False) == \
        "the table (limit 1 KiB); pass --force to run it anyway"
    e = e.replace(degree=3)
    assert "lower the degree (degree=3" in str(e)
    assert "write `vanishing_ideal up to degree 3`" in command_line_advice(e, degree_clause=False)
    # the advice is written from the data, never read from the text: a reason that happens to
    # contain the library's words is left alone
    e = ComputationTooLarge("a reason quoting `pass force=True` (limit 5)")
    assert command_line_advice(e) == "a reason quoting `pass force=True` (limit 5)"


def test_every_refusal_of_the_library_carries_its_force_advice_as_data():
    # no guard writes "force=True" into its reason or its hints: the command line could not
    # translate it (it writes `--force`, or nothing, from ``force_helps``)
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[1] / "sage_attention"
    offenders = []
    for path in root.rglob("*.py"):
        text = path.read_text()
        for m in re.finditer(r"ComputationTooLarge\(", text):
            call = text[m.end():m.end() + 600]
            depth, end = 1, 0
            for i, ch in enumerate(call):
                depth += {"(": 1, ")": -1}.get(ch, 0)
                if depth == 0:
                    end = i
                    break
            if "force=True" in call[:end] or "lower the degree" in call[:end]:
                offenders.append(f"{path.relative_to(root)}: ComputationTooLarge({call[:end][:80]}...")
    assert not offenders, offenders


def test_a_refusal_survives_pickling_with_its_data():
    import pickle
    from sage_attention.misc.errors import ComputationTooLarge
    e = ComputationTooLarge("too big (limit 5)", 7, degree=3, lower_degree=True, hint="h",
                            force_helps=True)
    f = pickle.loads(pickle.dumps(e))
    assert (f.reason, f.estimate, f.degree, f.lower_degree, f.hint, f.force_helps, str(f)) == \
        (e.reason, e.estimate, e.degree, e.lower_degree, e.hint, e.force_helps, str(e))


def test_sweep_refuses_a_large_row_without_advising_a_force_it_lacks(capsys):
    t0 = time.time()
    assert cli.main(["sweep", "--width", "1000", "--rank", "1", "--layers", "1", "-q"]) == 2
    assert time.time() - t0 < 30
    err = capsys.readouterr().err
    assert "too large" in err and "--width" in err and "force" not in err
    assert cli.main(["sweep", "--width", "1000", "--rank", "1", "--layers", "1", "--json"]) == 2
    (rec,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rec["record"] == "error" and "force" not in rec["error"]


def test_a_library_refusal_in_a_batch_command_drops_force(monkeypatch, capsys):
    from sage_attention.app import experiments
    from sage_attention.misc.errors import ComputationTooLarge

    def refuse(*args, **kwargs):
        raise ComputationTooLarge("the row needs 10 entries (limit 5)", force_helps=True)
    monkeypatch.setattr(experiments, "sweep", refuse)
    assert cli.main(["sweep", "--arch", "2,2:1", "-q", "--json"]) == 2
    captured = capsys.readouterr()
    assert "error: the row needs 10 entries (limit 5)" in captured.err
    assert "force" not in captured.err
    (rec,) = [json.loads(line) for line in captured.out.splitlines()]
    assert rec["error"] == "the row needs 10 entries (limit 5)"


def test_run_refused_by_the_memory_guard_says_force_and_the_spec_clause(tmp_path, capsys,
                                                                        monkeypatch):
    # a small model (at most 18 essential coordinates) is eliminated when the engine's table is
    # refused (tests/test_check_agrees_with_run.py); a larger one is refused at check, in the spec's words
    f = tmp_path / "mem.att"
    f.write_text(MEM.replace("input = 3; tokens = 2; layer attention(rank = 1, out = 1)",
                             "input = 4; tokens = 2; layer attention(rank = 1, out = 1); "
                             "entries = (1, 1)"))
    monkeypatch.setenv("SAGE_ATTENTION_MEMORY_LIMIT", "1000")
    assert cli.main(["run", "-q", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines()[-1] == ("fix: use fewer entries (`entries = ...`) or a smaller "
                                            "model; pass --force to run it anyway")
    assert "force=True" not in err and "lower the degree" not in err
    # a degree fits: the advice is the clause the spec writes
    monkeypatch.setenv("SAGE_ATTENTION_MEMORY_LIMIT", "300K")
    assert cli.main(["run", "-q", str(f)]) == 2
    err = capsys.readouterr().err
    assert "write `up to degree 2`, the largest degree that fits" in err and "pass --force" in err
    assert "force=True" not in err and "lower the degree" not in err
    # a refusal inside the run (FAILED) is written the same way, from the refusal's data
    from sage_attention.app.reporting import _error_entry
    from sage_attention.dsl.spec import Computation
    from sage_attention.misc.errors import ComputationTooLarge
    e = ComputationTooLarge("the table (limit 1 KiB)", degree=3, lower_degree=True, force_helps=True)
    text = _error_entry(Computation("m", "vanishing_ideal"), e, command_line=True)["text"]
    assert text == ("FAILED: `vanishing_ideal`: the table (limit 1 KiB); write `vanishing_ideal up to "
                    "degree 3` (the largest degree whose table fits); pass --force to run it anyway")


def test_an_empty_spec_file_name_is_named_as_such(capsys):
    for command in ("check", "run"):
        assert cli.main([command, ""]) == 2
        err = capsys.readouterr().err
        assert "the spec file name is empty" in err and "directory" not in err


def test_script_lists_only_the_file_as_required(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["script"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "the following arguments are required: file" in err and "args" not in err.splitlines()[-1]


def test_filling_names_its_options(capsys):
    assert cli.main(["filling", "--max-width", "0"]) == 2
    err = capsys.readouterr().err
    assert "--max-width (=0) must be at least 1" in err and "max_width" not in err
    assert cli.main(["filling", "--depth", "5", "--max-width", "9", "--exhaustive"]) == 2
    err = capsys.readouterr().err
    assert "lower --max-width or --depth" in err and "max_width" not in err


def test_the_help_of_filling_has_no_compute_statements():
    r = run_cli("filling", "--help")
    assert r.returncode == 0 and "exit status:" in r.stdout
    assert "compute statements:" not in r.stdout and "vanishing_ideal" not in r.stdout


def test_sweep_refuses_width_with_arch_and_computes_a_row_once(capsys):
    assert cli.main(["sweep", "--arch", "3,4:2", "--width", "5", "-q"]) == 2
    err = capsys.readouterr().err
    assert "--arch" in err and "--width would be ignored" in err
    assert cli.main(["sweep", "--width", "3,3", "--layers", "1", "--rank", "1", "--json"]) == 0
    captured = capsys.readouterr()
    rows = [json.loads(line) for line in captured.out.splitlines()]
    assert len(rows) == 1 and rows[0]["widths"] == [3, 3]
    assert captured.err.count("repeated row") == 1
    assert cli.main(["sweep", "--arch", "2,2:1", "--arch", "2,2:1", "--json", "-q"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1


def test_defectivity_has_the_size_guard_of_sweep(capsys):
    t0 = time.time()
    assert cli.main(["defectivity", "--width", "200", "--out", "1", "--tokens", "2",
                     "--rank", "1", "-q"]) == 2
    assert time.time() - t0 < 30          # refused before computing (a row takes minutes)
    err = capsys.readouterr().err
    assert "too large" in err and "--width" in err and "--heads" in err and "force" not in err
    assert cli.main(["defectivity", "--width", "2,2", "--out", "1", "--tokens", "2",
                     "--rank", "1", "--json", "-q"]) == 0
    assert [r["heads"] for r in map(json.loads, capsys.readouterr().out.splitlines())] == [1, 2]


def test_defectivity_rows_can_show_their_progress(capsys):
    from sage_attention.app.experiments import defectivity_chain
    rows = defectivity_chain({"d": 2, "out": 1, "tokens": 2, "rank": 1}, heartbeat=True)
    err = capsys.readouterr().err
    assert len(rows) == 2
    assert "d=2 d'=1 t=2 a=1 H=1" in err and "d=2 d'=1 t=2 a=1 H=2" in err and "done in" in err


# -- defectivity says why a chain stops short

DEFECTIVITY = ["defectivity", "--width", "2", "--out", "1", "--tokens", "2", "--rank", "1",
               "--heads", "3"]


def test_defectivity_says_it_stops_at_saturation(capsys):
    assert cli.main(DEFECTIVITY + ["-q"]) == 0
    captured = capsys.readouterr()
    table = [line for line in captured.out.splitlines() if line.startswith("| 2 ")]
    assert len(table) == 2                           # H = 1, 2: H = 3 adds nothing
    assert "stopped at H = 2, not 3: the variety fills its span (dimension 6" in captured.err
    assert "more heads add nothing" in captured.err


def test_defectivity_json_says_it_stops_at_saturation(capsys):
    assert cli.main(DEFECTIVITY + ["--json", "-q"]) == 0
    captured = capsys.readouterr()
    rows = [json.loads(line) for line in captured.out.splitlines()]   # JSON Lines only
    assert [(r["heads"], r["stopped"]) for r in rows] == [(1, None), (2, "saturated")]
    assert rows[-1]["dimension"] == rows[-1]["span"]
    assert "stopped at H = 2, not 3" in captured.err


def test_defectivity_is_silent_where_it_stops_as_asked(capsys):
    # --heads reached, or no --heads (up to saturation, the default): no note
    assert cli.main(DEFECTIVITY[:-1] + ["2", "--json", "-q"]) == 0
    captured = capsys.readouterr()
    assert [json.loads(line)["stopped"] for line in captured.out.splitlines()] == \
        [None, "saturated"]
    assert "note:" not in captured.err
    assert cli.main(DEFECTIVITY[:-2] + ["--width", "3", "--rank", "1", "--heads", "1",
                                        "--json", "-q"]) == 0
    captured = capsys.readouterr()
    assert [json.loads(line)["stopped"] for line in captured.out.splitlines()] == ["heads"]
    assert "note:" not in captured.err
    assert cli.main(DEFECTIVITY[:-2] + ["-q"]) == 0
    assert "note:" not in capsys.readouterr().err


def test_defectivity_progress_says_why_each_chain_stops(capsys):
    assert cli.main(DEFECTIVITY) == 0
    err = capsys.readouterr().err
    assert "[1/1] d=2 d'=1 t=2 a=1: dimensions [4, 6], defects [0, 0]; stopped at H = 2 " \
           "(saturated)" in err
