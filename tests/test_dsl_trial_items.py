"""
Two items of a newcomer's trial of the spec language.

1. A number glued to letters, digits or `.` (`0x10`, `3a`, `1e5`, `2.5.1`) is
   one error at the number, also where what follows it would parse
   (`seed = 0x10 = 5` read as `seed = 0` and an option `x10 = 5`).
2. The problems of a compute statement carry their fix as data
   (``check_statement`` gives ``(message, key, fix)``), shown on a last line
   ``fix: ...`` as the errors of a model are.
"""
import os
import subprocess
import sys

import pytest

from sage_attention.dsl import parse_spec
from sage_attention.dsl.computations import FAMILIES, COMPUTATIONS, Problem, check_statement
from sage_attention.dsl.errors import DSLSyntaxError
from sage_attention.dsl.spec import Layer, ModelSpec
from sage_attention.dsl.validation import validate
from sage_attention.errors import SpecError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = "model m { input = 3; tokens = 2; layer attention(rank = 1, out = 1) }\n"


def error_of(text):
    """The error (a DSLSyntaxError or a SpecError) of the spec ``text``, parsed and validated."""
    with pytest.raises((DSLSyntaxError, SpecError)) as info:
        validate(parse_spec(text, filename="s.att"))
    return info.value


# ---------------------------------------------------------------- 1. glued numbers

@pytest.mark.parametrize("written, fix", [
    ("0x10", "write `seed = 16`"),
    ("3a", "write a non-negative integer, e.g. `seed = 1`"),
    ("1e5", "write `seed = 100000`"),
    ("2.5.1", "write a non-negative integer, e.g. `seed = 1`"),
    ("1_000", "write `seed = 1000`"),
])
@pytest.mark.parametrize("after", ["", " = 5"])
def test_glued_number_is_one_error_at_the_number(written, fix, after):
    text = MODEL + f"compute m {{ dimension seed = {written}{after} }}"
    e = error_of(text)
    assert isinstance(e, DSLSyntaxError)
    message = str(e)
    first = message.splitlines()[0]
    # at the number (column 30), not at the letters after it nor at the second `=`
    assert first.startswith("s.att:2:30: "), first
    assert f"`{written}` is not a number the DSL reads" in first
    assert "decimal digits" in first
    assert "has no option" not in message and "x10" not in message.replace(written, "")
    assert message.splitlines()[-1] == f"fix: {fix}"


def test_glued_number_is_not_a_special_case_of_seed():
    e = error_of(MODEL.replace("input = 3", "input = 0x3") + "compute m { dimension }")
    assert "`0x3` is not a number the DSL reads" in str(e)
    assert str(e).splitlines()[-1] == "fix: write `input = 3`"
    e = error_of(MODEL + "compute m { certify point [1, 2.5.1, 3] }")
    assert str(e).startswith("s.att:2:31: ")
    assert "`2.5.1` is not a number the DSL reads" in str(e)
    assert str(e).splitlines()[-1] == \
        "fix: write a list of numbers in brackets, e.g. `certify point [1, -1/2, 0]`"
    e = error_of(MODEL + "compute m { invariants veronese(r = 2x) }")
    assert "`2x` is not a number the DSL reads" in str(e)


@pytest.mark.parametrize("text", [
    "compute m { dimension seed = 16 }",
    "compute m { dimension seed = 16 // 0x10 is hex\n}",
    "compute m { dimension seed=16; fibers seed =7}",
    "compute m { certify point [1/2,-3,0.25,+4] }",
])
def test_numbers_still_parse(text):
    parse_spec(MODEL + text)


# ------------------------------------------------- 2. the fix of a statement problem

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
    e = error_of(MODEL + f"compute m {{ {statement} }}")
    assert e.fix == fix
    lines = str(e).splitlines()
    assert lines[-1] == f"fix: {fix}"
    assert fix not in lines[0]


def test_cli_check_shows_the_fix_as_for_models(tmp_path):
    path = tmp_path / "s.att"
    path.write_text(MODEL + "compute m { vanishing_ideal up to degree 3 algorithm = elimination }\n")
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-m", "sage_attention.app.cli", "check", str(path)],
                         capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.returncode == 2, out
    text = out.stdout + out.stderr
    assert "computes the whole ideal\n" in text
    assert "fix: drop one of them" in text
    assert "; drop one of them" not in text
