"""``sage-attention check`` evaluates the guards ``run`` evaluates (the estimates live in
sizes.py, no Sage), and every refusal names a fix the statement has."""
import re

import pytest

from sage.all__sagemath_singular import QQ  # noqa: F401  (initializes Sage)
from sage_attention import LightningAttention
from sage_attention.dsl.parser import parse_spec
from sage_attention.dsl.validation import validate
from sage_attention.errors import ComputationTooLarge
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
