"""Diagnostics of a spec that parses: what ``sage-attention check`` says of a statement, a
family, an option or a number, and the ``fix:`` it offers (one that works when applied).

Every message below is produced by ``parse_spec`` + ``validate`` (what ``check`` shows); no Sage
is needed. The problems of a compute statement carry their fix as data (``check_statement``
gives ``(message, key, fix)``), shown on a last line ``fix: ...`` as the errors of a model are.
"""
import pickle

import pytest

from sage_attention.dsl import parse_spec
from sage_attention.catalog.computations import (COMPUTATIONS, FAMILIES, Problem, check_statement,
                                                 describe_all)
from sage_attention.dsl.validation import check_families, validate
from sage_attention.dsl.spec import Layer, ModelSpec
from sage_attention.misc.errors import ComputationTooLarge

from helpers import fix_of, run_cli, spec_error

#: min(d, a) = 1: no Veronese invariant
LINE = "model m { input = 3; tokens = 1; layer attention(rank = 1, out = 1) }\n"
#: 56 coordinates (`certify point` lists as many values)
MODEL = "model m { input = 3; tokens = 2; layer attention(rank = 1, out = 1) }\n"


def notes_of(source):
    return validate(parse_spec(source, filename="s.att"))


# 1. veronese: a bound below the minimum is "does not apply", with a fix that works

@pytest.mark.parametrize("r", [1, 2, 3])
def test_veronese_on_a_model_it_does_not_apply_to(r):
    err = spec_error(LINE + f"compute m {{ invariants veronese(r = {r}) }}")
    text = str(err)
    assert "family `veronese` does not apply to model `m`" in text
    assert "min(d, a) >= 2" in text and "min(d, a) = 1" in text
    assert fix_of(err).startswith(f"drop `veronese(r = {r})`")
    # the fix works: without the family, check accepts the statement
    validate(parse_spec(LINE + "compute m { invariants }"))
    # where the family applies, `r` is still bounded by min(d, a)
    m2 = "model m { input = 3; tokens = 2; layer attention(rank = 2, out = 1) }\n"
    err = spec_error(m2 + "compute m { invariants veronese(r = 3) }")
    assert "must be at most 2" in str(err) and fix_of(err) == "write `r = 2` or less"


# 2. advice that can be written in a spec

def test_size_refusal_names_the_family_of_limit():
    m = ModelSpec("m", input=6, tokens=3, layers=(Layer(6, 6),))
    with pytest.raises(ComputationTooLarge) as info:
        check_families(m, (("pencil", ()),))
    assert "write `pencil(limit = N)`" in str(info.value)
    assert "write `limit = N`" not in str(info.value)


def test_size_refusal_of_sylvester_names_the_family(monkeypatch):
    import sage_attention.misc.memory as memory
    monkeypatch.setattr(memory, "memory_limit", lambda: 1)
    m = ModelSpec("m", input=3, tokens=2, layers=(Layer(2, 1),))
    with pytest.raises(ComputationTooLarge) as info:
        check_families(m, (("sylvester", ()),))
    assert "`sylvester(lines = coordinate)`" in str(info.value)


@pytest.mark.parametrize("statement", ["invariants limit = 3", "invariants pencil limit = 3"])
def test_options_of_invariants_are_listed_as_written(statement):
    err = spec_error(LINE + f"compute m {{ {statement} }}")
    fix = fix_of(err)
    assert "families, seed" not in fix
    assert "(limit = " in fix and "`seed = N`" in fix and "the families after the statement" in fix


def test_options_of_check_do_not_list_internal_names():
    err = spec_error(LINE + "compute m { check invariants foo = 1 }")
    fix = fix_of(err)
    assert "what" not in fix and "families" not in fix
    # only the options that apply: `check invariants` is written already (a second what to
    # check would be refused), so the fix offers `seed = N`
    assert "`check generation`" not in fix and "`seed = N`" in fix


def test_help_shows_options_as_written():
    text = describe_all()
    assert "\n  families --" not in text and "\n  what --" not in text
    assert "\n  degree --" not in text and "up to degree N --" in text
    assert "\n  check WHAT --" in text


@pytest.mark.parametrize("written,fix", [
    ("[pencil]", "write `invariants pencil`"),
    ("[pencil, veronese(r = 2)]", "write `invariants pencil, veronese(r = 2)`"),
])
def test_families_written_as_an_option(written, fix):
    err = spec_error(LINE + f"compute m {{ invariants families = {written} }}")
    assert "the families of `invariants` are listed after the statement" in str(err)
    assert "certify point" not in str(err) and fix_of(err) == fix


# 3. a division by zero has a fix

def test_division_by_zero_has_a_fix():
    err = spec_error(LINE + "compute m { certify point [1, 1/0] }")
    assert "divides by zero" in str(err) and fix_of(err) == "write a nonzero denominator, e.g. `1/2`"


# 4. statements diagnosed as what they are

def test_up_to_degree_before_or_after_the_options():
    after = parse_spec(LINE + "compute m { vanishing_ideal algorithm = interpolation up to degree 3 }")
    before = parse_spec(LINE + "compute m { vanishing_ideal up to degree 3 algorithm = interpolation }")
    assert after == before and parse_spec(after.to_dsl()) == after
    assert dict(after.computations[0].options) == {"degree": 3, "algorithm": "interpolation"}


def test_up_to_degree_after_elimination_is_the_contradiction():
    err = spec_error(LINE + "compute m { vanishing_ideal algorithm = elimination up to degree 3 }")
    assert "asks for interpolation" in str(err) and "`up` must be followed" not in str(err)


def test_up_to_degree_twice():
    err = spec_error(LINE + "compute m { vanishing_ideal up to degree 3 up to degree 4 }")
    assert "`up to degree N` of `vanishing_ideal` is given twice" in str(err)
    assert fix_of(err) == "keep one"


@pytest.mark.parametrize("written", ["upto degree 3", "degree 3", "up_to degree 3"])
def test_misspelt_up_to_degree(written):
    err = spec_error(LINE + f"compute m {{ vanishing_ideal {written} }}")
    assert "written `up to degree N`" in str(err) and fix_of(err) == "write `up to degree 3`"


@pytest.mark.parametrize("statement,word,close", [
    ("vanishing_ideals up to degree 2", "vanishing_ideals", "vanishing_ideal"),
    ("invariant pencil", "invariant", "invariants"),
    ("invariant pencil, veronese", "invariant", "invariants"),
    ("dimensio seed = 1", "dimensio", "dimension"),
])
def test_unknown_computation_before_its_arguments(statement, word, close):
    err = spec_error(LINE + f"compute m {{\n  {statement}\n}}")
    assert f"unknown computation `{word}` (did you mean `{close}`?)" in str(err)
    assert str(err).startswith("s.att:3:3: ") and fix_of(err) == f"write `{close}`"


def test_check_with_a_misspelt_word():
    err = spec_error(LINE + "compute m { check generaton }")
    text = str(err)
    assert "`what`" not in text and "`check generaton`" in text
    assert "(did you mean `generation`?)" in text and fix_of(err) == "write `check generation`"


# 5. numbers

@pytest.mark.parametrize("written,fix", [("[1, .5, 1, 1]", "write `0.5`"),
                                         ("[1, -.5, 1, 1]", "write `-0.5`")])
def test_a_number_without_its_leading_zero(written, fix):
    err = spec_error(LINE + f"compute m {{ certify point {written} }}")
    assert fix_of(err) == fix


def test_a_fraction_for_an_integer_is_echoed_as_written():
    err = spec_error("model m { input = 3; tokens = 1; layer attention(rank = 2.5, out = 1) }")
    assert "rank (=2.5)" in str(err) and "5/2" not in str(err)
    assert fix_of(err) == "write a positive integer, e.g. `rank = 2` or `rank = 3`"


@pytest.mark.parametrize("source,message,fix", [
    ("model m { input = 3.0; tokens = 1; layer attention(rank = 1, out = 1) }",
     "input (=3.0) must be written as an integer", "write `input = 3`"),
    ("model m { input = 3; tokens = 1; layer attention(rank = 4/2, out = 1) }",
     "rank (=4/2) must be written as an integer", "write `rank = 2`"),
    ("model m { input = 3; tokens = 1.0; layer attention(rank = 1, out = 1) }",
     "tokens (=1.0)", "write `tokens = 1`"),
    ("model m { input = 3; tokens = 2; layer attention(rank = 1, out = 1, heads = 2.0) }",
     "heads (=2.0)", "write `heads = 2`"),
    ("model m { field = GF(7.0); input = 3; tokens = 1; layer attention(rank = 1, out = 1) }",
     "(=7.0) must be written as an integer", "write `field = GF(7)`"),
    ("model m { input = 2; layer dense(out = 2, activation = power(2.0)); layer dense(out = 1) }",
     "(=2.0) must be written as an integer", "write `activation = power(2)`"),
    (LINE + "compute m { dimension seed = 1.0 }", "`seed` (=1.0) must be written as an integer",
     "write `seed = 1`"),
    (LINE + "compute m { vanishing_ideal up to degree 4/2 }",
     "`up to degree 4/2`: the degree must be written as an integer", "write `up to degree 2`"),
    (LINE + "compute m { invariants pencil(limit = 3.0) }",
     "family `pencil`: `limit` (=3.0) must be written as an integer", "write `limit = 3`"),
])
def test_integer_options_refuse_other_notations(source, message, fix):
    err = spec_error(source)
    assert message in str(err) and fix_of(err) == fix


def test_a_fraction_for_an_integer_option_of_a_statement():
    err = spec_error(LINE + "compute m { invariants pencil(limit = 2.5) }")
    assert "(=2.5)" in str(err) and fix_of(err).endswith("`limit = 2` or `limit = 3`")


def test_written_numbers_keep_their_value_and_their_text():
    from sage_attention.misc.text import format_value
    spec = parse_spec(LINE + "compute m { certify point [0.5, 6/4, 1, 1] }")
    point = dict(spec.computations[0].options)["point"]
    assert point == (0.5, 1.5, 1, 1) and format_value(point) == "[0.5, 6/4, 1, 1]"
    again = pickle.loads(pickle.dumps(spec))
    assert again == spec and format_value(dict(again.computations[0].options)["point"]) == \
        "[0.5, 6/4, 1, 1]"


# 6. empty compute blocks

def test_an_empty_block_alone_is_noted_at_its_line():
    notes = notes_of(LINE + "compute m { }")
    assert notes == ["s.att:2:1: note: the block `compute m { }` is empty: it computes nothing "
                     "(add a statement, e.g. `compute m { dimension }`, or remove it)"]


def test_an_empty_block_next_to_another_is_noted():
    notes = notes_of(LINE + "compute m { dimension }\ncompute m {\n}")
    assert len(notes) == 1 and notes[0].startswith("s.att:3:1: note: the block `compute m { }` is empty")


def test_an_empty_block_of_an_unknown_model():
    err = spec_error(LINE + "compute n { }")
    assert "`compute n` names an unknown model" in str(err)


# 7. seeds and families named twice

def test_a_family_named_twice_is_noted():
    notes = notes_of(LINE + "compute m { invariants brill, brill }")
    assert any("family `brill` is named twice: it is built once" in n for n in notes)


def test_the_family_seed_wins_and_it_is_noted():
    notes = notes_of(LINE + "compute m { invariants brill(seed = 1) seed = 2 }")
    assert any("`brill(seed = 1)` keeps its own seed; the statement's `seed = 2` goes to the "
               "other families" in n for n in notes)
    assert "no `seed` of their own" in COMPUTATIONS["invariants"].doc
    # (as the runner does: the statement's seed only to the families without their own)
    import inspect
    from sage_attention.app import runners
    source = inspect.getsource(runners)
    assert '"seed" not in kwargs' in source


# 8. the fix of a statement problem, as data

def _problems(text):
    spec = parse_spec(MODEL + f"compute m {{ {text} }}")
    return check_statement(spec.computations[0], spec.models[0])


@pytest.mark.parametrize("statement, message, fix", [
    ("vanishing_ideal up to degree 3 algorithm = elimination",
     "`up to degree 3` asks for interpolation, but `algorithm = elimination` computes the "
     "whole ideal", "drop one of them"),
    ("dimension seed = 1 seed = 2", "option `seed` of `dimension` is given twice", "keep one"),
    ("dimension sed = 1", "`dimension` has no option `sed` (did you mean `seed`?)",
     "use one of its options: `seed = N`"),
    ("invariants veronese(foo = 1)", "family `veronese` has no option `foo`",
     "use one of its options: r, limit"),
    ("invariants veronese(limit = 1, limit = 2)", "option `limit` of family `veronese` is given twice",
     "keep one"),
    ("certify point [1, 2]", "the point has 2 values; model `m` has 56 coordinates",
     "list the value of every coordinate, in the order of the coordinate ring"),
    ("vanishing_ideal algorithm = groebner",
     "`algorithm` (=groebner) must be one of elimination, interpolation",
     "write `algorithm = elimination` or `algorithm = interpolation`"),
    ("check families", "`check families`: what to check must be one of invariants, generation",
     "write `check invariants` or `check generation`"),
    ("vanishing_ideal up to degree 0", "`up to degree 0`: the degree must be an integer >= 1",
     "write an integer >= 1, e.g. `up to degree 1`"),
])
def test_statement_problems_carry_their_fix(statement, message, fix):
    problems = _problems(statement)
    assert problems and all(len(p) == 3 for p in problems)
    first = problems[0]
    assert isinstance(first, Problem)
    assert (first.message, first.fix) == (message, fix)
    # the fix is not repeated in the message
    assert fix not in first.message and not first.message.endswith(";")


def test_certify_over_gf_fix():
    spec = parse_spec("model m { field = GF(7); input = 1; tokens = 2; layer attention(rank = 1, "
                      "out = 1) }\ncompute m { certify point [1, 1/14, 1, 1] }")
    [(message, key, fix)] = check_statement(spec.computations[0], spec.models[0])
    assert message == "the value 1/14 is not defined over GF(7): its denominator is divisible by 7"
    assert (key, fix) == ("point", "write values whose denominators are prime to 7")


def test_refusal_fix_and_its_old_text():
    heads = ModelSpec("h", input=2, tokens=2, layers=(Layer(1, 1, heads=2),))
    problem = COMPUTATIONS["invariants"].refusal_problem(heads)
    assert problem.fix == "on such models use dimension or fibers"
    assert COMPUTATIONS["invariants"].refusal(heads) == problem.message + \
        " (on such models use dimension or fibers)"


def test_option_problem_is_a_problem():
    r = FAMILIES["veronese"].option("r")
    m = ModelSpec("m", input=3, tokens=2, layers=(Layer(2, 3),))
    assert r.problem(5, m) == Problem("`r` (=5) must be at most 2 (min(d, a); larger r give no "
                                      "invariant)", "r", "write `r = 2` or less")


@pytest.mark.parametrize("statement, fix", [
    ("vanishing_ideal up to degree 3 algorithm = elimination", "drop one of them"),
    ("dimension seed = 1 seed = 2", "keep one"),
    ("certify point [1, 2]",
     "list the value of every coordinate, in the order of the coordinate ring"),
])
def test_validate_shows_the_fix_on_its_own_line(statement, fix):
    e = spec_error(MODEL + f"compute m {{ {statement} }}")
    assert e.fix == fix
    lines = str(e).splitlines()
    assert lines[-1] == f"fix: {fix}"
    assert fix not in lines[0]


def test_cli_check_shows_the_fix_as_for_models(tmp_path):
    path = tmp_path / "s.att"
    path.write_text(MODEL + "compute m { vanishing_ideal up to degree 3 algorithm = elimination }\n")
    out = run_cli("check", path)
    assert out.returncode == 2, out
    text = out.stdout + out.stderr
    assert "computes the whole ideal\n" in text
    assert "fix: drop one of them" in text
    assert "; drop one of them" not in text
