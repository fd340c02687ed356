"""
The conventions of the command line ``sage-attention``: ``--version``, ``-``
for standard input, ``run -q``, one JSON convention (JSON Lines with
``"format"`` and ``"record"``, errors included), CSV by the ``csv`` module,
the list of compute statements only in the help of the commands that read a
spec, and the worker pool stopped through a public mechanism.
"""
import ast
import csv
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sage_attention.app import cli
from sage_attention.app.jsonout import JSON_FORMAT
from sage_attention.version import __version__

ROOT = Path(__file__).resolve().parents[1]
SMALL = ("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
         "compute m { dimension seed = 0 }\n")
BAD = "model m {\n  input = 3 tokens = 2\n}\n"
# rank 3 > input 2: validation notes that the rank is capped (a note, not an error)
NOTED = ("model m { input = 2; tokens = 2; layer attention(rank = 3, out = 1) }\n"
         "compute m { dimension seed = 0 }\n")


def sage_attention(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "sage_attention.app.cli", *args],
                          capture_output=True, text=True, cwd=ROOT, input=stdin)


def records(text):
    out = [json.loads(line) for line in text.splitlines()]
    assert out, "no JSON record"
    for r in out:
        assert r["format"] == JSON_FORMAT and r["record"] in ("model", "check", "row", "error")
    return out


def test_version():
    r = sage_attention("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"sage-attention {__version__}"


def test_dash_reads_the_spec_from_standard_input():
    r = sage_attention("run", "--json", "-", stdin=SMALL)
    assert r.returncode == 0, r.stderr
    (m,) = records(r.stdout)
    assert m["record"] == "model" and m["dimension"] == m["expected_dimension"] == 4
    r = sage_attention("check", "-", stdin=BAD)
    assert r.returncode == 2 and r.stderr.startswith("<stdin>:2:13: Missing separator")
    assert "Traceback" not in r.stderr


def test_run_quiet_prints_nothing_on_stderr_but_errors(tmp_path, capsys):
    f = tmp_path / "noted.att"
    f.write_text(NOTED)
    assert cli.main(["run", str(f)]) == 0
    assert "note" in capsys.readouterr().err
    assert cli.main(["run", "-q", str(f)]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "dimension computed" in captured.out
    assert cli.main(["run", "--quiet", "--progress", str(f)]) == 2
    assert "--quiet and --progress exclude each other" in capsys.readouterr().err


def test_run_json_is_json_lines_of_model_records(tmp_path, capsys):
    f = tmp_path / "two.att"
    f.write_text(SMALL.replace("compute", "model n { input = 3; tokens = 1; "
                               "layer attention(rank = 1, out = 1) }\ncompute n { dimension }\ncompute"))
    assert cli.main(["run", "--json", "-q", str(f)]) == 0
    rs = records(capsys.readouterr().out)
    assert [r["record"] for r in rs] == ["model", "model"]
    assert sorted(r["model"] for r in rs) == ["m", "n"]
    assert all(r["dimension"] == r["expected_dimension"] for r in rs)


@pytest.mark.parametrize("command", [["sweep", "--arch", "2,2:1", "--arch", "2,2,2:1,1",
                                      "--tokens", "2"],
                                     ["defectivity", "--width", "2", "--out", "1",
                                      "--tokens", "2"]])
def test_sweep_and_defectivity_json_is_json_lines_of_row_records(command, capsys):
    assert cli.main(command + ["--json", "-q"]) == 0
    rs = records(capsys.readouterr().out)
    assert len(rs) >= 2 and all(r["record"] == "row" and r["command"] == command[0] for r in rs)
    for r in rs:   # the rows are those of the table: a dimension against its bound
        if command[0] == "sweep":
            assert r["expected"] is None or r["dimension"] == r["expected"]
        else:
            assert r["dimension"] == r["bound"] - r["defect"]


def test_check_json(tmp_path, capsys):
    f = tmp_path / "m.att"
    f.write_text(SMALL)
    assert cli.main(["check", "--json", str(f)]) == 0
    (r,) = records(capsys.readouterr().out)
    assert (r["record"], r["ok"], r["models"], r["computations"], r["model_names"]) == \
        ("check", True, 1, 1, ["m"])


def test_errors_under_json_are_json_records(tmp_path):
    f = tmp_path / "bad.att"
    f.write_text(BAD)
    for command in ("run", "check"):
        r = sage_attention(command, "--json", str(f))
        assert r.returncode == 2
        (e,) = records(r.stdout)
        assert (e["record"], e["error_type"], e["exit_status"], e["file"], e["line"],
                e["column"]) == ("error", "MissingSeparator", 2, str(f), 2, 13)
        assert "Missing separator" in e["error"] and "Missing separator" in r.stderr
    r = sage_attention("run", "--json", str(tmp_path / "missing.att"))
    (e,) = records(r.stdout)
    assert r.returncode == 2 and "cannot read spec file" in e["error"]
    r = sage_attention("sweep", "--json", "--width", "a..b")
    (e,) = records(r.stdout)
    assert r.returncode == 2 and e["exit_status"] == 2 and "--width" in e["error"]
    r = sage_attention("sweep", "--json", "--no-such-option")
    (e,) = records(r.stdout)
    assert r.returncode == 2 and e["error_type"] == "UsageError"
    r = sage_attention("sweep", "--json", "--csv")
    (e,) = records(r.stdout)
    assert r.returncode == 2 and "exclude each other" in e["error"]


def test_interrupt_under_json_ends_with_an_error_record(tmp_path, capsys, monkeypatch):
    from sage_attention.app import runners
    f = tmp_path / "a.att"
    f.write_text(SMALL.replace("dimension seed = 0", "dimension seed = 0; fibers"))

    def interrupt(model, computation, options):
        raise KeyboardInterrupt
    monkeypatch.setattr(runners, "run_fibers", interrupt)
    assert cli.main(["run", "--json", "-q", str(f)]) == 130
    rs = records(capsys.readouterr().out)
    assert [r["record"] for r in rs] == ["model", "error"]
    assert rs[0]["interrupted"] and rs[1]["exit_status"] == 130


def test_csv_is_written_by_the_csv_module():
    from sage_attention.app.experiments import format_table, format_defectivity
    row = {"widths": [3, 3], "ranks": [1], "tokens": 2, "normalization": 'my "soft", max',
           "dimension": 9, "expected": 9, "agrees": True, "parameters": 12,
           "fiber_dimension": 3, "inputs": 4, "gap": None}
    head, cells = list(csv.reader(io.StringIO(format_table([row], "csv"))))
    assert dict(zip(head, cells))["normalization"] == 'my "soft", max'
    assert dict(zip(head, cells))["widths"] == "3,3"
    d = {"d": 2, "out": 1, "tokens": 2, "rank": 1, "heads": 1, "dimension": 4, "one_head": 4,
         "span": 6, "bound": 4, "defect": 0, "parameters": 6, "fiber_dimension": 2,
         "seconds": 0.5}
    head, cells = list(csv.reader(io.StringIO(format_defectivity([d], "csv"))))
    assert head[:2] == ["d", "d'"] and cells[5] == "4"
    with pytest.raises(ValueError, match="must be 'markdown' or 'csv'"):
        format_defectivity([d], "tsv")


def test_the_list_of_statements_is_only_in_the_help_of_spec_commands():
    for command in ("run", "check"):
        r = sage_attention(command, "--help")
        assert "compute statements:" in r.stdout and "vanishing_ideal" in r.stdout
    for command in ("sweep", "defectivity"):
        r = sage_attention(command, "--help")
        assert r.returncode == 0 and "exit status:" in r.stdout
        assert "compute statements:" not in r.stdout and "vanishing_ideal" not in r.stdout


def test_the_app_reads_no_private_attribute_of_another_object():
    allowed = {("os", "_exit")}   # os._exit is documented
    found = []
    for dirpath, _, files in os.walk(ROOT / "sage_attention" / "app"):
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(dirpath, name)
            for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
                if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                        and not node.attr.startswith("__")):
                    base = node.value.id if isinstance(node.value, ast.Name) else "?"
                    if base not in ("self", "cls") and (base, node.attr) not in allowed:
                        found.append(f"{name}:{node.lineno}: {base}.{node.attr}")
                if (isinstance(node, ast.Call) and getattr(node.func, "id", None)
                        in ("getattr", "hasattr", "setattr") and len(node.args) > 1
                        and isinstance(node.args[1], ast.Constant)
                        and str(node.args[1].value).startswith("_")
                        and not str(node.args[1].value).startswith("__")):
                    found.append(f"{name}:{node.lineno}: {node.func.id}(..., "
                                 f"{node.args[1].value!r})")
    assert not found, found


def test_the_worker_pool_is_stopped_while_its_workers_compute():
    from sage_attention.app.sweeps import WorkerPool
    pool = WorkerPool(2)
    futures = [pool.submit(time.sleep, 120) for _ in range(4)]
    deadline = time.time() + 60                 # generous: the machine may be loaded
    while len(pool.workers()) < 2:
        assert time.time() < deadline, "the workers did not start"
        time.sleep(0.1)
    workers = pool.workers()
    t0 = time.time()
    pool.terminate()
    assert time.time() - t0 < 30                # far less than the 120 s the tasks would take
    assert not any(p.is_alive() for p in workers) and pool.workers() == []
    deadline = time.time() + 30
    while not all(f.done() for f in futures[2:]) and time.time() < deadline:
        time.sleep(0.1)                         # cancelled, or failed with the pool
    assert all(f.done() for f in futures[2:])
