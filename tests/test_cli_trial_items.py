"""Three items of a newcomer's trial of the command line.

1. ``invariants all, brill`` built the family ``brill`` twice (once in the union of ``all``,
   once by name); each family is now built once, with its explicit options when it has any.
2. ``sage-attention defectivity --heads 3`` stopped at 2 heads when the variety filled its span,
   without saying so; the command now says why a chain stops short (text and JSON).
3. ``sage-attention script FILE`` showed the runner's own frames before the script's in the
   traceback of the script's error; it now shows the script's frames on, as ``python FILE`` does.
"""
import json
import os
import subprocess
import sys

import pytest

from sage_attention.app import cli

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MODEL = "model m { input = 3; tokens = 1; layer attention(rank = %d, out = 1) }\n"


def _run_json(tmp_path, capsys, statement, rank=2):
    f = tmp_path / "m.att"
    f.write_text(MODEL % rank + "compute m { %s }\n" % statement)
    assert cli.main(["run", "--json", "-q", str(f)]) == 0
    (rec,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return rec["computations"]


def _mentions(families, name):
    # how many of the built families hold ``name`` (a union is named ``a+b+...``)
    return sum(name in f["name"].split("+") for f in families)


# 1. each family once ------------------------------------------------------------------------

@pytest.mark.parametrize("statement", ["invariants all, brill", "invariants brill, all",
                                       "invariants brill, brill", "invariants all, all"])
def test_a_family_named_twice_is_built_once(tmp_path, capsys, statement):
    (comp,) = _run_json(tmp_path, capsys, statement)
    families = comp["families"]
    assert _mentions(families, "brill") == 1, [f["name"] for f in families]
    assert _mentions(families, "low_rank") == (1 if "all" in statement else 0)


def test_the_explicit_options_win_over_all(tmp_path, capsys):
    # brill applies for t = 1, a = 1: 35 members, 3 with limit = 3
    (comp,) = _run_json(tmp_path, capsys, "invariants brill(limit = 3), all", rank=1)
    sizes = {f["name"]: f["size"] for f in comp["families"]}
    assert sizes["brill"] == 3 and _mentions(comp["families"], "brill") == 1
    (comp,) = _run_json(tmp_path, capsys, "invariants all, brill(limit = 3)", rank=1)
    assert [f["name"] for f in comp["families"]][-1] == "brill"
    assert {f["name"]: f["size"] for f in comp["families"]}["brill"] == 3
    # two explicit mentions: the options of both, a later value winning
    (comp,) = _run_json(tmp_path, capsys, "invariants brill(limit = 2), brill(limit = 3)",
                        rank=1)
    assert [(f["name"], f["size"]) for f in comp["families"]] == [("brill", 3)]


def test_check_invariants_checks_each_family_once(tmp_path, capsys):
    comps = _run_json(tmp_path, capsys, "invariants all; invariants brill; check invariants",
                      rank=1)
    check = comps[-1]
    assert check["all_vanish"]
    names = [name for r in check["reports"] for name in r["family"].split("+")]
    assert names.count("brill") == 1 and names.count("pencil") == 1


def test_the_python_entry_points_build_a_family_listed_twice_once():
    from sage_attention import LightningAttention
    from sage_attention.invariants import invariants
    M = LightningAttention(d=2, t=2, a=1)
    once = invariants(M, families=["low_rank"])
    twice = invariants(M, families=["low_rank", "low_rank"])
    assert (twice.name, len(twice)) == (once.name, len(once)) == ("low_rank", 3)
    from sage_attention.dsl.computations import distinct_families
    chosen, rest = distinct_families((("all", ()), ("brill", (("limit", 3),)), ("all", ())))
    assert chosen == (("all", ()), ("brill", (("limit", 3),)))
    assert "brill" not in rest and "rank_one" not in rest and "low_rank" in rest


def test_the_generation_report_has_one_row_per_family():
    from sage_attention import LightningAttention
    from sage_attention.variety.generation import generation_report
    M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
    G = generation_report(M, families=["low_rank", "low_rank"])
    assert [(r.family, r.members) for r in G.rows] == [("low_rank", 3), ("all", 3)]


def test_check_generation_after_invariants_all_has_a_row_per_family(tmp_path, capsys):
    # `invariants all; check generation` failed: the union of `all` reached the report as one
    # family named `linear+low_rank+...`, which it does not know
    f = tmp_path / "g.att"
    f.write_text("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1); "
                 "entries = (1, 1) }\ncompute m { invariants all; check generation }\n")
    assert cli.main(["run", "--json", "-q", str(f)]) == 0
    (rec,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    check = rec["computations"][-1]
    rows = [r["family"] for r in check["rows"]]
    assert rows[:2] == ["linear", "low_rank"] and rows[-1] == "all" and "brill" in rows
    assert not any("+" in r for r in rows)
    # Singular's elimination gives this slice's ideal: 4 linear relations and the three 2 x 2
    # minors of a 2 x 3 matrix of essential coordinates; low_rank has the minors
    assert check["families_generate"] and check["generators_by_degree"] == {"1": 4, "2": 3}


# 2. defectivity says why a chain stops --------------------------------------------------------

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


# 3. the traceback of a script's error starts at the script ---------------------------------------

def _script(*args, cwd=None):
    env = dict(os.environ, PYTHONPATH=REPO)
    return subprocess.run([sys.executable, "-m", "sage_attention.app.cli", "script", *args],
                          capture_output=True, text=True, env=env, cwd=cwd, timeout=600)


@pytest.mark.parametrize("suffix", [".py", ".sage"])
def test_a_script_error_shows_only_the_script_frames(tmp_path, suffix):
    f = tmp_path / ("user" + suffix)
    f.write_text("def inverse(x):\n"
                 "    return 1 / x\n"
                 "\n"
                 "print('before')\n"
                 "inverse(0)\n")
    p = _script(str(f))
    assert p.returncode == 1 and p.stdout == "before\n"
    lines = p.stderr.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1] == f'  File "{f}", line 5, in <module>', p.stderr
    assert f'  File "{f}", line 2, in inverse' in lines
    assert "sage_attention" not in p.stderr and "exec(" not in p.stderr
    assert lines[-1].startswith("ZeroDivisionError: ")
    # a relative path, as typed
    p = _script(f.name, cwd=tmp_path)
    assert p.returncode == 1 and f'  File "{f.name}", line 5, in <module>' in p.stderr
    assert "sage_attention" not in p.stderr


def test_a_script_error_keeps_the_library_frames_the_script_calls(tmp_path):
    f = tmp_path / "user.py"
    f.write_text("M = LightningAttention(d=2, t=2, a=1)\n"
                 "M.dimension(seed=-1)\n")
    p = _script(str(f))
    assert p.returncode == 1
    lines = p.stderr.splitlines()
    assert lines[1] == f'  File "{f}", line 2, in <module>', p.stderr
    assert "run_sage_file" not in p.stderr and "_script_command" not in p.stderr
    assert "sage_attention" in p.stderr            # the library's frames below the script's
    assert lines[-1].startswith("ValueError: seed (=-1)")


def test_a_syntax_error_in_a_script_shows_its_line(tmp_path):
    f = tmp_path / "user.sage"
    f.write_text("x = 1\ny = (\n")
    p = _script(str(f))
    assert p.returncode == 1
    assert "Traceback" not in p.stderr and "sage_attention" not in p.stderr
    assert f'File "{f}", line 2' in p.stderr and "SyntaxError" in p.stderr
