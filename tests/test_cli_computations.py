"""The DSL's computation statements run the library's functions; a family named twice (also
through ``all``) is built, checked and printed once, with its explicit options when it has any,
one line per family."""
import io
import json

import pytest

from sage_attention.app import cli
from sage_attention.app.cli import run_spec
from sage_attention.dsl import parse_spec, validate
from sage_attention.invariants import FAMILIES
from sage_attention.dsl.spec import INVARIANT_FAMILIES

from helpers import json_records


def test_spec_knows_every_family():
    assert set(INVARIANT_FAMILIES) - {"all"} == set(FAMILIES)


def test_invariants_and_check_statements():
    spec = parse_spec("""
    model m { input = 3; tokens = 2; layer attention(rank = 1, out = 1); weights = A V }
    compute m { invariants rank_one; check invariants }
    """)
    validate(spec)
    out = io.StringIO()
    (result,) = run_spec(spec, as_json=True, out=out)
    data = json.loads(out.getvalue())
    inv, chk = data["computations"]
    assert inv["computation"] == "invariants" and chk["computation"] == "check"
    (fam,) = inv["families"]
    # rank one: linear relations, 2x2 minors of F and pencil cubics (doc/mathematics.rst, §3.7)
    assert fam["degrees"] == [1, 2, 3]
    assert chk["all_vanish"] is True


# -- each family once

MODEL = "model m { input = 3; tokens = 1; layer attention(rank = %d, out = 1) }\n"


def _run_json(tmp_path, capsys, statement, rank=2):
    f = tmp_path / "m.att"
    f.write_text(MODEL % rank + "compute m { %s }\n" % statement)
    assert cli.main(["run", "--json", "-q", str(f)]) == 0
    (rec,) = json_records(capsys.readouterr().out)
    return rec["computations"]


def _mentions(families, name):
    # how many of the built families hold ``name`` (a union is named ``a+b+...``)
    return sum(name in f["name"].split("+") for f in families)


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
    from sage_attention.catalog.computations import distinct_families
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


ONE_LAYER = "model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"


# -- one line per invariant family

def test_invariants_all_one_line_per_family(tmp_path, capsys):
    f = tmp_path / "m.att"
    f.write_text(ONE_LAYER + "compute m { invariants all, brill }\n")
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
