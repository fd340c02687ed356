"""
Tests of the generation report: the degree-by-degree linear-algebra
comparison against the independent Gröbner-basis comparison, and against
ideal membership computed by Singular.
"""
import re
import pytest

from sage.all__sagemath_singular import QQ  # noqa: F401  (initializes Sage)
from sage_attention import LightningAttention
import sage_attention.variety.generation as gen
from sage_attention.settings import settings

from helpers import run_cli


MODELS = [dict(d=2, t=2, a=1, entries=[(1, 1)]), dict(d=2, t=2, a=2, entries=[(1, 1)]),
          dict(d=2, t=1, a=1, out=2), dict(d=2, t=3, a=1, entries=[(1, 1)])]


@pytest.mark.parametrize("kw", MODELS)
def test_linear_algebra_agrees_with_groebner(kw):
    M = LightningAttention(**kw)
    lin = gen.generation_report(M)
    # force the Gröbner comparison: every degree of these models has more than one monomial
    with settings.override(DENSE_LIMIT=1):
        gb = gen.generation_report(M)
    assert lin.families_generate == gb.families_generate
    for a, b in zip(lin.rows, gb.rows):
        assert (a.family, a.generates, a.generators_by_degree) == (b.family, b.generates, b.generators_by_degree)
        # a family that generates misses nothing; one that does not misses something
        assert (a.missing == {}) == a.generates == (b.missing == {})


def test_generates_means_ideal_equality():
    # 'generates' must mean: the families' ideal (with the linear relations)
    # is the kernel of the parametrization, decided here by Singular
    M = LightningAttention(d=2, t=2, a=2, entries=[(1, 1)])
    report = gen.generation_report(M)
    from sage_attention.invariants import FAMILIES
    K = M.parametrization().kernel()
    C = M.coordinate_ring()
    for row in report.rows[:-1]:
        fam = FAMILIES[row.family](M)
        J = C.ideal(list(M.linear_relations()) + list(fam.polynomials()))
        assert row.generates == (J == K), row.family


def singular_degrees(C, polys):
    # minimal generators by degree of the ideal of ``polys``, by Singular's minbase
    from sage.libs.singular.function import singular_function
    polys = [f for f in polys if f]
    if not polys:
        return {}
    out = {}
    for g in singular_function("minbase")(C.ideal(polys)):
        if g:
            out[int(g.degree())] = out.get(int(g.degree()), 0) + 1
    return dict(sorted(out.items()))


@pytest.mark.parametrize("kw", [MODELS[1], MODELS[3]])
def test_counts_agree_with_singular_minbase(kw):
    # the minimal generators of each family's ideal (with the linear
    # relations), and of the union, counted by Singular in the coordinate
    # ring; the report counts them up to the largest degree D of a minimal
    # generator of I(X) (beyond D they are not needed to decide J = I(X))
    from sage_attention.invariants import FAMILIES
    M = LightningAttention(**kw)
    report = gen.generation_report(M)
    C = M.coordinate_ring()
    lin = list(M.linear_relations())
    D = max(report.generators_by_degree)

    def upto(counts):
        return {k: v for k, v in counts.items() if k <= D}
    union = []
    for row in report.rows[:-1]:
        polys = list(FAMILIES[row.family](M).polynomials())
        union += polys
        assert row.generators_by_degree == upto(singular_degrees(C, lin + polys)), row.family
    assert report.rows[-1].family == "all"
    assert report.rows[-1].generators_by_degree == upto(singular_degrees(C, lin + union))
    assert report.rows[-1].members == len(union)


def test_membership_agrees_with_sage_composition(monkeypatch):
    # a family with a member outside I(X): the 2 x 2 minors of the rank-one
    # model do not vanish on the rank-two model; the answer is compared with
    # Sage's own composition with the parametrization
    from sage_attention.invariants import FAMILIES
    from sage_attention.invariants.base import Invariant, InvariantFamily
    M = LightningAttention(d=2, t=2, a=2, entries=[(1, 1)])
    N = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
    C = M.coordinate_ring()
    minors = [Invariant(C(str(inv.polynomial)), inv.label) for inv in FAMILIES["low_rank"](N)]
    monkeypatch.setitem(FAMILIES, "low_rank", lambda model, force=False: InvariantFamily("low_rank", model, minors))
    report = gen.generation_report(M, families=["linear", "low_rank", "veronese"])
    phi = M.parametrization()
    expected = {"linear": all(phi(f) == 0 for f in FAMILIES["linear"](M).polynomials()),
                "low_rank": all(phi(inv.polynomial) == 0 for inv in minors),
                "veronese": all(phi(f) == 0 for f in FAMILIES["veronese"](M).polynomials())}
    assert expected == {"linear": True, "low_rank": False, "veronese": True}
    assert {r.family: r.contained for r in report.rows[:-1]} == expected
    low = report.rows[1]
    assert not low.generates and not report.rows[-1].contained
    assert report.rows[-1].generates is False and report.families_generate is False


def test_interrupt_raises_with_the_finished_rows(monkeypatch):
    # Ctrl-C while the second family is built: the first row is kept, in the interrupt
    # (sage_attention.misc.interrupts)
    from sage_attention.invariants import FAMILIES
    from sage_attention.misc.interrupts import ComputationInterrupted
    M = LightningAttention(d=2, t=2, a=2, entries=[(1, 1)])

    def boom(model, force=False):
        raise KeyboardInterrupt
    monkeypatch.setitem(FAMILIES, "low_rank", boom)
    with pytest.raises(ComputationInterrupted) as info:
        gen.generation_report(M, families=["linear", "low_rank", "veronese"])
    assert isinstance(info.value, KeyboardInterrupt) and info.value.phase == "generation"
    report = info.value.partial
    assert report.interrupted and report.families_generate is None
    assert [r.family for r in report.rows] == ["linear"]
    row = report.rows[0]
    # the first row, computed independently: the linear invariants vanish
    # (Sage composition), their ideal with the linear relations is not the
    # kernel (Singular), and its minimal generators are the linear ones
    C = M.coordinate_ring()
    polys = list(FAMILIES["linear"](M).polynomials())
    K = M.parametrization().kernel()
    J = C.ideal(list(M.linear_relations()) + polys)
    assert row.contained == all(M.parametrization()(f) == 0 for f in polys) == True  # noqa: E712
    assert row.generates == (J == K) == False  # noqa: E712
    assert row.generators_by_degree == singular_degrees(C, list(M.linear_relations()) + polys)
    assert row.members == len(polys)
    # the minimal quartic of I(X) is what the linear part misses
    assert row.missing == {4: 1}
    assert "INTERRUPTED" in repr(report)
    assert "interrupted" in report.table()
    assert report.to_dict()["interrupted"] is True


def test_progress_bar_per_row_and_degree(capsys):
    M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
    quiet = gen.generation_report(M, families=["linear", "low_rank"])
    assert capsys.readouterr().err == ""
    loud = gen.generation_report(M, families=["linear", "low_rank"], progress=True)
    err = capsys.readouterr().err
    for name in ("linear", "low_rank", "all"):
        # each row rewrites the one tqdm bar: "...: degree 2: 100%|####| 2/2 [00:00<00:00, ... degrees/s]"
        assert re.search(rf"generation report, {name}: degree 2: 100%\|[^|\n]*\| 2/2 \[[^]\n]*degrees/s\]",
                         err), err
    # one bar for the whole report (the vanishing ideal, when it is not cached yet, has bars of its own)
    assert [line for line in err.split("\n") if "generation report" in line] == [err.split("\n")[-2]]
    assert err.endswith("degrees/s]\n")
    assert [r.generators_by_degree for r in quiet.rows] == [r.generators_by_degree for r in loud.rows]


def test_a_family_built_with_options_is_used_as_built():
    # a family passed built (here with an option) replaces the default one of its name,
    # and the answer is Singular's: its ideal with the linear relations is the kernel
    from sage_attention.invariants.low_rank import low_rank_invariants
    M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
    fam = low_rank_invariants(M, limit=1)
    report = gen.generation_report(M, ["linear", fam])
    assert [(r.family, r.members) for r in report.rows] == [("linear", 4), ("low_rank", 1), ("all", 5)]
    C = M.coordinate_ring()
    J = C.ideal(list(M.linear_relations()) + list(fam.polynomials()))
    assert report.rows[1].generates == (J == M.parametrization().kernel())


def test_check_generation_in_a_spec(tmp_path):
    # `check generation` runs the generation report on the block's families; its
    # verdict is Singular's ideal equality of the families (with the linear relations)
    import json
    from sage_attention.invariants import FAMILIES
    f = tmp_path / "g.att"
    f.write_text("model m { input = 2; tokens = 2; layer attention(rank = 2, out = 1); entries = (1, 1) }\n"
                 "compute m {\n  invariants linear, veronese\n  check generation\n}\n")
    r = run_cli("run", "--json", f)
    assert r.returncode == 0, r.stderr
    (result,) = [json.loads(line) for line in r.stdout.splitlines() if line.strip()]
    check = [c for c in result["computations"] if c["computation"].startswith("check")][0]
    M = LightningAttention(d=2, t=2, a=2, entries=[(1, 1)])
    C = M.coordinate_ring()
    K = M.parametrization().kernel()
    polys = list(M.linear_relations())
    for name in ("linear", "veronese"):
        polys += list(FAMILIES[name](M).polynomials())
    assert check["families_generate"] == (C.ideal(polys) == K) is True
    assert [row["family"] for row in check["rows"]] == ["linear", "veronese", "all"]


def test_check_generation_over_a_prime_field_is_refused_by_check(tmp_path):
    # the report works over QQ: `check` refuses it at the statement (exit 2), so `run` never fails on it
    f = tmp_path / "g.att"
    f.write_text("model m { field = GF(101); input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
                 "compute m { check generation }\n")
    r = run_cli("check", f)
    assert r.returncode == 2
    assert "g.att:2:19: `check generation` works over QQ" in r.stderr and "Traceback" not in r.stderr
    from sage.all__sagemath_singular import GF
    with pytest.raises(ValueError, match="works over QQ"):
        gen.generation_report(LightningAttention(d=2, t=2, a=1, base_ring=GF(101)))


def test_the_families_built_beside_the_ideal_give_the_report_of_one_process(monkeypatch):
    # the families are built in a forked process while the vanishing ideal is computed; with one
    # core everything runs here: the rows agree, and an error where a family is built reaches the
    # caller as it was raised (not as a message of the forked process)
    from sage_attention.invariants import FAMILIES
    M = LightningAttention(d=2, t=2, a=2, entries=[(1, 1)])
    forked = gen.generation_report(M)
    monkeypatch.setattr(gen, "available_cores", lambda: 1)
    here = gen.generation_report(M)
    assert [(r.family, r.members, r.contained, r.generates, r.generators_by_degree, r.missing)
            for r in forked.rows] == [(r.family, r.members, r.contained, r.generates, r.generators_by_degree,
                                       r.missing) for r in here.rows]
    monkeypatch.undo()

    def broken(model, force=False):
        raise ZeroDivisionError("a family that fails")
    monkeypatch.setitem(FAMILIES, "low_rank", broken)
    with pytest.raises(ZeroDivisionError, match="a family that fails"):
        gen.generation_report(M, families=["linear", "low_rank"])
