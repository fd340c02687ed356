"""Syntax errors of the spec language: each names the place and ends with a ``fix:`` line
(one test per mistake a newcomer met).

A number glued to letters, digits or ``.`` (``0x10``, ``3a``, ``1e5``, ``2.5.1``) is one error at
the number, also where what follows it would parse (``seed = 0x10 = 5`` read as ``seed = 0`` and an
option ``x10 = 5``).
"""
import pytest

from sage_attention.dsl import parse_spec
from sage_attention.dsl.errors import DSLSyntaxError

from helpers import spec_error

MODEL = "model m { input = 3; tokens = 2; layer attention(rank = 1, out = 1) }\n"


def error_text(text):
    with pytest.raises(DSLSyntaxError) as info:
        parse_spec(text, filename="s.att")
    return str(info.value)


def fix_line(text):
    message = error_text(text)
    last = message.splitlines()[-1]
    assert last.startswith("fix: ")
    return message, last


def test_comma_between_statements():
    message, fix = fix_line(MODEL + "compute m { dimension, fibers }")
    assert fix == "fix: replace the `,` by `;` or a newline"
    assert "put a newline or `;` before `,`" not in message
    assert message.startswith("s.att:2:22:")


def test_trailing_comma_after_statement():
    message, fix = fix_line(MODEL + "compute m { dimension seed = 1, }")
    assert fix == "fix: remove the `,`"
    assert "put a newline or `;` before `,`" not in message


def test_comma_at_end_of_line():
    _, fix = fix_line(MODEL + "compute m {\n  dimension,\n  fibers\n}")
    assert fix == "fix: remove the `,`"


def test_comma_still_fine_between_families():
    parse_spec(MODEL + "compute m { invariants pencil, sylvester }")


def test_options_in_parentheses():
    message, fix = fix_line(MODEL + "compute m { dimension(seed = 0) }")
    assert fix == "fix: write `dimension seed = 0`, without parentheses"
    assert "before `(`" not in message


def test_power_without_degree():
    message, fix = fix_line("model m { input = 3; layer dense(out = 1, activation = power()) }")
    assert fix == "fix: write the degree, e.g. `activation = power(2)`"
    assert "Unbalanced bracket" not in message and "add `)` before `)`" not in message


def test_bias_number():
    message, fix = fix_line("model m { input = 3; layer dense(out = 1, bias = 1) }")
    assert fix == "fix: write `true` or `false`, e.g. `bias = true`"
    assert "write a number, a name or a list" not in message


def test_residual_number():
    _, fix = fix_line(MODEL.replace("out = 1)", "out = 1, residual = 1)"))
    assert fix == "fix: write `true` or `false`, e.g. `residual = true`"


def test_colon_instead_of_equals():
    message, fix = fix_line("model m { input = 3; tokens = 2; layer attention(rank: 1, out = 1) }")
    assert fix == "fix: write `=` instead of `:`, e.g. `rank = 1`"
    assert "comments start with" not in message


def test_fullwidth_digit():
    message, fix = fix_line(MODEL + "compute m { dimension seed = \uff10 }")
    assert fix == "fix: type the ASCII digit `0` instead of `\uff10`"
    assert "U+FF10 FULLWIDTH DIGIT ZERO" in message
    assert "comments start with" not in message


def test_non_ascii_name():
    message, fix = fix_line("model m\u00f6del { input = 3 }")
    assert fix == "fix: replace `\u00f6` by an ASCII letter (e.g. `o`)"
    assert "U+00F6 LATIN SMALL LETTER O WITH DIAERESIS" in message
    assert "comments start with" not in message


def test_no_break_space():
    message, fix = fix_line("model m {\u00a0input = 3 }")
    assert "U+00A0 NO-BREAK SPACE" in message
    assert "`\\u00a0`" in message and "Unexpected character: ` `" not in message
    assert fix == "fix: replace it by a plain space (it often comes from copying text)"


def test_cr_only_line_endings():
    text = "model m {\r  input = 3\r  tokens = 2\r  layer attention(rank = 1, out = 1)\r}\r"
    message, fix = fix_line(text)
    assert "Missing separator" not in message
    assert "line endings" in message.splitlines()[0]
    assert fix.startswith("fix: convert the line endings to `\\n` (Unix) or `\\r\\n` (Windows)")


def test_crlf_still_parses():
    parse_spec(MODEL.replace("; ", "\r\n") + "compute m { dimension }\r\n")


# -- numbers glued to letters, digits or `.`

@pytest.mark.parametrize("written, fix", [
    ("0x10", "write `seed = 16`"),
    ("3a", "write a non-negative integer, e.g. `seed = 1`"),
    ("1e5", "write `seed = 100000`"),
    ("1e3", "write `seed = 1000`"),
    ("2.5.1", "write a non-negative integer, e.g. `seed = 1`"),
    ("1_000", "write `seed = 1000`"),
])
@pytest.mark.parametrize("after", ["", " = 5"])
def test_glued_number_is_one_error_at_the_number(written, fix, after):
    text = MODEL + f"compute m {{ dimension seed = {written}{after} }}"
    e = spec_error(text)
    assert isinstance(e, DSLSyntaxError)
    message = str(e)
    first = message.splitlines()[0]
    # at the number (column 30), not at the letters after it nor at the second `=`
    assert first.startswith("s.att:2:30: "), first
    assert f"`{written}` is not a number the DSL reads" in first
    assert "decimal digits" in first
    assert "has no option" not in message and "x10" not in message.replace(written, "")
    assert "Missing `=`" not in message and "must be followed by `=`" not in message
    assert message.splitlines()[-1] == f"fix: {fix}"


def test_glued_number_is_not_a_special_case_of_seed():
    e = spec_error(MODEL.replace("input = 3", "input = 0x3") + "compute m { dimension }")
    assert "`0x3` is not a number the DSL reads" in str(e)
    assert str(e).splitlines()[-1] == "fix: write `input = 3`"
    e = spec_error(MODEL + "compute m { certify point [1, 2.5.1, 3] }")
    assert str(e).startswith("s.att:2:31: ")
    assert "`2.5.1` is not a number the DSL reads" in str(e)
    assert str(e).splitlines()[-1] == \
        "fix: write a list of numbers in brackets, e.g. `certify point [1, -1/2, 0]`"
    e = spec_error(MODEL + "compute m { invariants veronese(r = 2x) }")
    assert "`2x` is not a number the DSL reads" in str(e)


@pytest.mark.parametrize("text", [
    "compute m { dimension seed = 16 }",
    "compute m { dimension seed = 16 // 0x10 is hex\n}",
    "compute m { dimension seed=16; fibers seed =7}",
    "compute m { certify point [1/2,-3,0.25,+4] }",
])
def test_numbers_still_parse(text):
    parse_spec(MODEL + text)
