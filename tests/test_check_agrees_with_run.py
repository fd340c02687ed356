"""What ``sage-attention check`` accepts, ``run`` can do, and what ``run`` refuses, ``check``
refuses in the same words.

- ``check`` evaluates the guards ``run`` evaluates (the estimates live in
  ``sage_attention/catalog/costs.py``, no Sage), and every refusal names a fix the statement has;
  a degree a refusal suggests is accepted, the next one is not.
- A matrix of tiny models, fields and statements: every statement is written into a spec with the
  model and the field; when ``validate`` (what ``check`` runs) accepts the spec, ``run_spec`` must
  run it without a failed computation. Found this way: elimination over GF(p) with
  2^29 < p < 2^31 failed inside Singular, elimination over GF(2) failed in the engine, and the
  interpolation of a deep network was refused by ``run`` only.
- A coordinate ring beyond Singular's 32767 variables is refused by ``check`` (with or without
  --force) in the spec's words; a size refusal at ``check`` ends with a ``fix:`` line, as the other
  errors of a spec do.
- With a small memory limit, ``vanishing_ideal algorithm = elimination`` on a small model is
  eliminated, as ``check`` estimates it; the counts are checked against the engine's, computed
  without the limit.
"""
import io
import itertools
import json
import re

import pytest

from sage.all__sagemath_singular import QQ  # noqa: F401  (initializes Sage)
from sage_attention import LightningAttention
from sage_attention.app import cli
from sage_attention.app.reporting import run_spec
from sage_attention.dsl.parser import parse_spec
from sage_attention.dsl.validation import validate
from sage_attention.misc.errors import ComputationTooLarge, SageAttentionError
from sage_attention.ideals.implicitization import implicitize

WIDE = "model s { input = 6; tokens = 2; layer attention(rank = 1, out = 1); entries = (1, 1) }\n"
SLICE36 = "model s { input = 3; tokens = 2; layer attention(rank = 1, out = 2) }\n"


def _table(message):
    return message.split("the table of the ")[1].split(" essential")[0]


def test_interpolation_through_degree_4_of_the_width_6_slice_is_refused_by_check():
    # check said ok; run refused (11.2 GiB)
    with pytest.raises(ComputationTooLarge, match=r"up to degree 3") as info:
        validate(parse_spec(WIDE + "compute s { vanishing_ideal up to degree 4 }\n"))
    M = LightningAttention(d=6, t=2, a=1, entries=[(1, 1)])
    with pytest.raises(ComputationTooLarge, match="lower the degree") as run:
        implicitize(M, 4)
    assert _table(str(info.value)) == _table(str(run.value))
    assert str(info.value).split("needs about ")[1].split()[0] == \
        str(run.value).split("needs about ")[1].split()[0]
    # through degree 3 both let it through the table guard
    validate(parse_spec(WIDE + "compute s { vanishing_ideal up to degree 3 }\n"))


def test_check_generation_is_refused_by_check_with_a_fix_it_has(monkeypatch):
    monkeypatch.setenv("SAGE_ATTENTION_MEMORY_LIMIT", "20M")
    spec = parse_spec(SLICE36 + "compute s { invariants low_rank\ncheck generation }\n")
    with pytest.raises(ComputationTooLarge) as info:
        validate(spec)
    msg = str(info.value)
    assert "entries = ..." in msg and "lower the degree" not in msg and "degree 4" in msg
    # run, forced past check, names the same fix (the statement has no degree)
    from sage_attention.app.runners import run_check
    M = LightningAttention(d=3, t=2, a=1, out=2)
    with pytest.raises(ComputationTooLarge) as run:
        run_check(M, None, {"what": "generation", "families": (("low_rank", ()),)})
    assert "lower the degree" not in str(run.value) and "entries" in str(run.value)


SLICE75 = "model s { input = 5; tokens = 2; layer attention(rank = 1, out = 1); entries = (1, 1) }\n"


def test_vanishing_ideal_without_algorithm_beyond_18_coordinates_is_not_refused_as_elimination():
    # check refused "elimination over 75 essential coordinates", but run (and the library)
    # interpolate there without an algorithm; check now estimates that interpolation
    validate(parse_spec(SLICE75 + "compute s { vanishing_ideal }\n"))
    with pytest.raises(ComputationTooLarge, match="elimination over 75"):
        validate(parse_spec(SLICE75 + "compute s { vanishing_ideal algorithm = elimination }\n"))
    from sage_attention.variety.neurovariety import Neurovariety
    M = LightningAttention(d=5, t=2, a=1, entries=[(1, 1)])
    assert len(M.essential_coordinates()) == 75
    assert Neurovariety(M)._choose(None) == "interpolation"


def test_generation_report_limit_is_the_same_in_check_and_run():
    with pytest.raises(ComputationTooLarge, match="generation report over 75") as info:
        validate(parse_spec(SLICE75 + "compute s { check generation }\n"))
    assert "entries = ..." in str(info.value)
    from sage_attention.variety.generation import generation_report
    M = LightningAttention(d=5, t=2, a=1, entries=[(1, 1)])
    with pytest.raises(ComputationTooLarge, match="generation report over 75"):
        generation_report(M)


SMALL = "model s { input = 3; tokens = 2; layer attention(rank = 1, out = 1); entries = (1, 1) }\n"


def _suggested(message):
    return int(re.search(r"up to degree (\d+)`", message).group(1))


@pytest.mark.parametrize("limit", ["1G", "300M", "20M"])
def test_the_degree_a_refusal_suggests_is_accepted_and_the_next_one_is_not(monkeypatch, limit):
    # it suggested degree - 1, refused in turn (degree 50 -> 49 -> 48 ...)
    monkeypatch.setenv("SAGE_ATTENTION_MEMORY_LIMIT", limit)
    with pytest.raises(ComputationTooLarge) as info:
        validate(parse_spec(SMALL + "compute s { vanishing_ideal up to degree 50 }\n"))
    k = _suggested(str(info.value))
    assert 2 <= k < 49
    validate(parse_spec(SMALL + f"compute s {{ vanishing_ideal up to degree {k} }}\n"))
    with pytest.raises(ComputationTooLarge):
        validate(parse_spec(SMALL + f"compute s {{ vanishing_ideal up to degree {k + 1} }}\n"))


def test_without_a_degree_the_suggested_degree_is_accepted(monkeypatch):
    monkeypatch.setenv("SAGE_ATTENTION_MEMORY_LIMIT", "1G")
    with pytest.raises(ComputationTooLarge, match="without a degree") as info:
        validate(parse_spec(WIDE + "compute s { vanishing_ideal }\n"))
    k = _suggested(str(info.value))
    validate(parse_spec(WIDE + f"compute s {{ vanishing_ideal up to degree {k} }}\n"))
    # where no degree of at least 2 fits, none is suggested
    monkeypatch.setenv("SAGE_ATTENTION_MEMORY_LIMIT", "40M")
    spec = "model s { input = 8; tokens = 2; layer attention(rank = 2, out = 8) }\n"
    with pytest.raises(ComputationTooLarge, match="use fewer entries") as info:
        validate(parse_spec(spec + "compute s { vanishing_ideal }\n"))
    assert "up to degree" not in str(info.value)
    with pytest.raises(ComputationTooLarge):
        validate(parse_spec(spec + "compute s { vanishing_ideal up to degree 2 }\n"))


def test_implicitize_names_a_degree_its_table_guard_accepts(monkeypatch):
    monkeypatch.setenv("SAGE_ATTENTION_MEMORY_LIMIT", "2M")
    M = LightningAttention(d=3, t=2, a=1, out=1, entries=[(1, 1)])
    with pytest.raises(ComputationTooLarge, match=r"lower the degree \(degree=\d+,") as info:
        implicitize(M, 12, prove=False)
    k = int(re.search(r"\(degree=(\d+),", str(info.value)).group(1))
    R = implicitize(M, k, prove=False)           # accepted, and it runs
    assert R.complete_through_degree == k
    with pytest.raises(ComputationTooLarge):
        implicitize(M, k + 1, prove=False)


def test_degree_refusal_names_a_degree_vanishing_ideal_accepts(monkeypatch):
    # Neurovariety.degree() beyond the machine points to vanishing_ideal(degree=k): that k must run
    from sage_attention.variety.neurovariety import Neurovariety
    monkeypatch.setenv("SAGE_ATTENTION_MEMORY_LIMIT", "2M")
    X = Neurovariety(LightningAttention(d=3, t=2, a=1, out=2))
    with pytest.raises(ComputationTooLarge, match=r"vanishing_ideal\(degree=\d+\)") as info:
        X.degree()
    k = int(re.search(r"vanishing_ideal\(degree=(\d+)\)", str(info.value)).group(1))
    assert X.vanishing_ideal(degree=k) is not None


def test_check_refuses_the_interpolation_of_a_deep_network_that_run_refuses():
    # check accepted `vanishing_ideal` on this deep network (deep models were not estimated) and run
    # refused its 104.6 GiB table; now both count the same table (degree 4 in 220 coordinates)
    spec = ("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 2)\n"
            "  layer attention(rank = 1, out = 1) }\ncompute m { vanishing_ideal }\n")
    with pytest.raises(ComputationTooLarge, match=r"up to degree \d") as info:
        validate(parse_spec(spec))
    M = LightningAttention(widths=[2, 2, 1], ranks=[1, 1], t=2)
    with pytest.raises(ComputationTooLarge, match="lower the degree") as run:
        implicitize(M, 4)
    assert _table(str(info.value)) == _table(str(run.value))
    k = int(re.search(r"up to degree (\d+)", str(info.value)).group(1))
    assert f"(degree={k}," in str(run.value)


# -- a matrix of tiny models, fields and statements: what check accepts, run does

MODELS = {
    "tiny": "input = 2; tokens = 2; layer attention(rank = 1, out = 1)",
    "token": "input = 2; tokens = 1; layer attention(rank = 1, out = 1)",
    "softmax": "input = 2; tokens = 2; layer attention(rank = 1, out = 1, normalization = softmax)",
    "gpt": "input = 2; tokens = 2; layer attention(rank = 1, out = 2, heads = 2, mask = causal, residual = true)",
    "pnn": "input = 2; layer dense(out = 2, activation = power(2)); layer dense(out = 1)",
    "block": ("input = 2; tokens = 2; layer attention(rank = 1, out = 2); layer dense(out = 2, activation = power(2)); "
              "layer dense(out = 2)"),
    "deep": "input = 2; tokens = 2; layer attention(rank = 1, out = 2); layer attention(rank = 1, out = 1)",
}
FIELDS = ["QQ", "GF(2)", "GF(3)", "GF(101)", "GF(65537)", "GF(536870909)", "GF(536870923)", "GF(2147483647)"]
STATEMENTS = ["dimension", "fibers", "invariants", "invariants veronese", "invariants brill",
              "invariants sylvester", "check invariants", "check generation", "vanishing_ideal",
              "vanishing_ideal up to degree 2", "vanishing_ideal algorithm = elimination",
              "vanishing_ideal algorithm = interpolation", "certify point [1, 2, 3, 4]",
              "certify point [1, 2, 3, 4, 5, 6, 7, 8]"]
#: interpolation of the deep network through degree 2 takes 40 s: left to
#: test_check_refuses_the_interpolation_of_a_deep_network_that_run_refuses
SLOW = {("deep", "vanishing_ideal up to degree 2")}


@pytest.mark.parametrize("model,field", list(itertools.product(MODELS, FIELDS)))
def test_what_check_accepts_run_does(model, field):
    for statement in STATEMENTS:
        if (model, statement) in SLOW:
            continue
        spec = parse_spec(f"model m {{ field = {field}; {MODELS[model]} }}\ncompute m {{ {statement} }}\n")
        try:
            validate(spec)
        except SageAttentionError:
            continue                    # refused by check, with its message (other tests)
        results = run_spec(spec, as_json=True, seed=0, out=io.StringIO(), progress=False, force=False)
        failed = [c["error"] for r in results for c in r["computations"] if "error" in c]
        assert not failed, (model, field, statement, failed)


def test_the_matrix_is_not_vacuous():
    # both sides occur: statements check accepts, and statements it refuses
    verdicts = set()
    for model, field, statement in itertools.product(["tiny", "pnn"], ["QQ", "GF(2)"], STATEMENTS):
        try:
            validate(parse_spec(f"model m {{ field = {field}; {MODELS[model]} }}\ncompute m {{ {statement} }}\n"))
            verdicts.add(True)
        except SageAttentionError:
            verdicts.add(False)
    assert verdicts == {True, False}
    for model in MODELS:            # every model of the matrix is valid (its statements are tried)
        validate(parse_spec(f"model m {{ field = QQ; {MODELS[model]} }}\ncompute m {{ dimension }}\n"))


# -- refusals at check, in the spec's words, with a fix line

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
