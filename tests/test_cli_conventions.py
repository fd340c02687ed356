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
import logging
import os
import time

import pytest

from sage_attention.app import cli
from sage_attention.version import __version__

from helpers import ROOT, json_records, run_cli
SMALL = ("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
         "compute m { dimension seed = 0 }\n")
BAD = "model m {\n  input = 3 tokens = 2\n}\n"
# rank 3 > input 2: validation notes that the rank is capped (a note, not an error)
NOTED = ("model m { input = 2; tokens = 2; layer attention(rank = 3, out = 1) }\n"
         "compute m { dimension seed = 0 }\n")


def records(text):
    """The records of a JSON Lines output: each a model, check, row or error record."""
    return json_records(text, ("model", "check", "row", "error"))


def test_version():
    r = run_cli("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"sage-attention {__version__}"


def test_dash_reads_the_spec_from_standard_input():
    r = run_cli("run", "--json", "-", stdin=SMALL)
    assert r.returncode == 0, r.stderr
    (m,) = records(r.stdout)
    assert m["record"] == "model" and m["dimension"] == m["expected_dimension"] == 4
    r = run_cli("check", "-", stdin=BAD)
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
        r = run_cli(command, "--json", str(f))
        assert r.returncode == 2
        (e,) = records(r.stdout)
        assert (e["record"], e["error_type"], e["exit_status"], e["file"], e["line"],
                e["column"]) == ("error", "MissingSeparator", 2, str(f), 2, 13)
        assert "Missing separator" in e["error"] and "Missing separator" in r.stderr
    r = run_cli("run", "--json", str(tmp_path / "missing.att"))
    (e,) = records(r.stdout)
    assert r.returncode == 2 and "cannot read spec file" in e["error"]
    r = run_cli("sweep", "--json", "--width", "a..b")
    (e,) = records(r.stdout)
    assert r.returncode == 2 and e["exit_status"] == 2 and "--width" in e["error"]
    r = run_cli("sweep", "--json", "--no-such-option")
    (e,) = records(r.stdout)
    assert r.returncode == 2 and e["error_type"] == "UsageError"
    r = run_cli("sweep", "--json", "--csv")
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
        r = run_cli(command, "--help")
        assert "compute statements:" in r.stdout and "vanishing_ideal" in r.stdout
    for command in ("sweep", "defectivity"):
        r = run_cli(command, "--help")
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


# -- run -q silences the notes and warnings the library logs

def test_quiet_silences_the_not_proved_warning(tmp_path):
    f = tmp_path / "w.att"
    f.write_text("model m { input = 4; tokens = 1; layer attention(rank = 3, out = 1) }\n"
                 "compute m { vanishing_ideal degree = 3 }\n")
    loud = run_cli("run", f, cwd=tmp_path)
    quiet = run_cli("run", "-q", f, cwd=tmp_path)
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


# -- --json: JSON Lines records for every command but `script`

def test_filling_json_is_json_lines(capsys):
    status = cli.main(["filling", "--input", "2", "--output", "1", "--depth", "2",
                       "--degree", "2..3", "--max-width", "3", "-q", "--json"])
    assert status == 0
    recs = json_records(capsys.readouterr().out)
    assert [(r["record"], r["command"], r["r"]) for r in recs] == [("row", "filling", 2),
                                                                  ("row", "filling", 3)]
    assert recs[0]["minimal_filling"] == [[2, 2, 1]]


def test_figures_json_records_the_files(tmp_path, capsys, monkeypatch):
    import sage_attention.app.figures as figures
    written = [str(tmp_path / "hmk_softmax.md"), str(tmp_path / "neuromanifold_slice.png")]
    monkeypatch.setattr(figures, "make_figures", lambda outdir, seed=0, progress=None: written)
    assert cli.main(["figures", "--outdir", str(tmp_path), "-q", "--json"]) == 0
    recs = json_records(capsys.readouterr().out)
    assert [(r["record"], r["command"], r["path"]) for r in recs] == \
        [("file", "figures", p) for p in written]


def test_script_has_no_json_and_says_why(tmp_path, capsys):
    script = tmp_path / "s.py"
    script.write_text("print('hello')\n")
    with pytest.raises(SystemExit) as e:
        cli.main(["script", "--json", str(script)])
    assert e.value.code == 2
    (rec,) = json_records(capsys.readouterr().out)
    assert rec["record"] == "error" and "script's own" in rec["error"]


def test_readme_does_not_promise_json_for_every_command():
    readme = open(ROOT / "README.md").read()
    assert "With `--json` every command prints JSON Lines" not in readme
    assert "`script` has none" in readme


def test_unreadable_spec_error_record_has_file(tmp_path, capsys):
    missing = str(tmp_path / "nope.att")
    assert cli.main(["run", "--json", missing]) == 2
    (rec,) = json_records(capsys.readouterr().out)
    assert rec["record"] == "error" and rec["file"] == missing


RESIDUAL = ("model r {\n  field = QQ; input = 1; linear_output = false\n"
            "  layer dense(out = 1, activation = power(2), residual = true)\n}\n"
            "compute r { vanishing_ideal }\n")


def test_json_stdout_has_json_lines_only_and_a_non_homogeneous_ideal_has_no_degrees(tmp_path):
    # Singular printed "// ** minbase applies only to the local or homogeneous case" on stdout,
    # breaking --json, and the ideal of x + (w x)^2 was reported as "2 of degree 1"
    f = tmp_path / "r.att"
    f.write_text(RESIDUAL)
    r = run_cli("run", "--json", str(f))
    assert r.returncode == 0, r.stderr
    (rec,) = records(r.stdout)          # every line of stdout is a JSON record
    (comp,) = rec["computations"]
    assert comp["homogeneous"] is False and comp["generators_by_degree"] is None
    assert "Gröbner basis" in comp["text"] and "of degree" not in comp["text"].split("(")[0]
    # the coefficients of x + w^2 x^2 satisfy every generator; a point with another coefficient at x
    # does not (the coordinates are listed by coordinate_description: (output, token, exponent))
    from sage.all__sagemath_singular import QQ, PolynomialRing
    from sage_attention import Network, dense
    M = Network([dense(out=1, r=2, residual=True)], d=1, linear_output=False)
    exponents = [e[0] for _, _, e in M.coordinate_description()]
    R = PolynomialRing(QQ, [f"c{i}" for i in range(len(exponents))])
    gens = [R(g) for g in comp["generators"]]
    x = PolynomialRing(QQ, "x").gen()
    for w in (2, -3, QQ(1) / 5):
        f_w = x + (w * x) ** 2
        assert all(g(*[f_w[e] for e in exponents]) == 0 for g in gens)
    assert any(g(*[(2 * x + x ** 2)[e] for e in exponents]) != 0 for g in gens)


def test_reserved_stdout_sends_foreign_writes_to_stderr():
    import subprocess
    import sys
    code = ("import os\nfrom sage_attention.app.cli import reserved_stdout\n"
            "with reserved_stdout() as out:\n    os.write(1, b'// ** a C library speaks\\n')\n"
            "    print('noise')\n    print('{\"record\": \"row\"}', file=out)\nprint('after')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.stdout == '{"record": "row"}\nafter\n'
    assert r.stderr == "// ** a C library speaks\nnoise\n"
