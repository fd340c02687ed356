"""
What `check` accepts, `run` can do (second trial round), and a size refusal at `check` ends
with a `fix:` line, as the other errors of a spec do.

1. A coordinate ring beyond Singular's 32767 variables: `check` said ok and `run` failed with
   the Python advice ``entries=[(i, j), ...]``; `check` now refuses it, with or without --force,
   in the spec's words.
2. With a small memory limit, `vanishing_ideal algorithm = elimination` failed on the engine's
   table (elimination asked for the engine's sparse generators, and the plain `vanishing_ideal`
   interpolated first): a small model is eliminated, as `check` estimates it. The counts are
   checked against the engine's, computed without the limit.
"""
from sage_attention.app import cli

RING = ("model m { input = 10; tokens = 3; layer attention(rank = 2, out = 10) }\n"
        "compute m { vanishing_ideal up to degree 1 }\n")
SLICE = ("model m { input = 3; tokens = 2; layer attention(rank = 2, out = 1); entries = (1, 1) }\n"
         "compute m { vanishing_ideal algorithm = elimination; vanishing_ideal }\n")
BIG = ("model m { input = 6; tokens = 2; layer attention(rank = 1, out = 1); entries = (1, 1) }\n"
       "compute m { vanishing_ideal up to degree 4 }\n")


def test_check_refuses_a_coordinate_ring_beyond_singular_in_the_spec_words(tmp_path, capsys):
    f = tmp_path / "ring.att"
    f.write_text(RING)
    for command in (["check"], ["check", "--force"], ["run", "--force"]):
        assert cli.main(command + [str(f)]) == 2
        err = capsys.readouterr().err
        assert "the coordinate ring needs 39600 variables (Singular's limit is 32767)" in err
        lines = err.strip().splitlines()
        assert lines[-1].startswith("fix: keep fewer output entries (e.g. `entries = (1, 1)`)")
        assert "--force does not lift this limit" in lines[-1]
        assert "entries=[" not in err and "force=True" not in err and "dimension()" not in err


def test_a_size_refusal_at_check_ends_with_a_fix_line(tmp_path, capsys):
    f = tmp_path / "big.att"
    f.write_text(BIG)
    assert cli.main(["check", str(f)]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert "big.att:2:13: `vanishing_ideal` on model `m`: the table of" in lines[0]
    assert lines[1].strip() == "compute m { vanishing_ideal up to degree 4 }"
    assert lines[2].strip() == "^"
    assert lines[3] == "fix: write a lower degree (`up to degree 3`, the largest that fits); " \
                       "pass --force to run it anyway"


def test_a_small_model_is_eliminated_when_the_engine_table_is_refused(tmp_path, capsys, monkeypatch):
    import json
    f = tmp_path / "slice.att"
    f.write_text(SLICE)
    monkeypatch.setenv("SAGE_ATTENTION_MEMORY_LIMIT", "200K")
    assert cli.main(["check", str(f)]) == 0
    capsys.readouterr()
    assert cli.main(["run", "--json", "-q", str(f)]) == 0
    (rec,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    comps = rec["computations"]
    assert [c["algorithm"] for c in comps] == ["elimination", "elimination"]
    counts = [c["generators_by_degree"] for c in comps]
    # the engine, without the limit, through degree 4 (proved whole by its certificate)
    monkeypatch.delenv("SAGE_ATTENTION_MEMORY_LIMIT")
    from sage_attention import LightningAttention
    from sage_attention.ideals.implicitization import implicitize
    M = LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)])
    R = implicitize(M, 4, seed=0)
    assert R.proved_complete
    expected = {"1": len(M.linear_relations())}
    expected.update({str(k): len(v) for k, v in R.generators_by_degree.items()})
    assert counts == [expected, expected] == [{"1": 10, "3": 30, "4": 90}] * 2


def test_a_spec_whose_blocks_are_all_empty_says_so(tmp_path, capsys):
    f = tmp_path / "empty.att"
    f.write_text("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
                 "compute m { }\n")
    assert cli.main(["check", str(f)]) == 0
    err = capsys.readouterr().err
    assert "the block `compute m { }` is empty" in err
    assert "nothing to run: 1 model but only empty `compute` blocks" in err
    assert "no `compute` block" not in err
    assert cli.main(["run", str(f)]) == 2
    assert "only empty `compute` blocks" in capsys.readouterr().err
