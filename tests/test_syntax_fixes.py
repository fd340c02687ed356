"""The `fix:` lines of syntax errors a newcomer met (one test per mistake)."""
import pytest

from sage_attention.dsl import parse_spec
from sage_attention.dsl.errors import DSLSyntaxError

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


@pytest.mark.parametrize("written, decimal", [("0x10", 16), ("1e3", 1000), ("1_000", 1000)])
def test_non_decimal_integer(written, decimal):
    message, fix = fix_line(MODEL + f"compute m {{ dimension seed = {written} }}")
    assert fix == f"fix: write `seed = {decimal}`"
    assert "decimal digits" in message
    assert "Missing `=`" not in message and "must be followed by `=`" not in message
    assert message.startswith("s.att:2:30:")


def test_non_decimal_integer_in_model():
    _, fix = fix_line(MODEL.replace("input = 3", "input = 0x3"))
    assert fix == "fix: write `input = 3`"


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
