"""Tests of the spec language: grammar, parser, typed spec, errors, validation."""
from fractions import Fraction
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from lark import Lark

from sage_attention.dsl import parse_spec, parse_spec_file, validate
from sage_attention.dsl import errors as E
from sage_attention.dsl.parser import grammar_text, spec_parser
from sage_attention.misc.errors import ComputationTooLarge, SageAttentionError, SpecError
from sage_attention.dsl.spec import (Computation, Field, Layer, ModelSpec,
                                 Normalization, Spec)

ROOT = Path(__file__).resolve().parents[1]

SLICE = """\
// one output entry of a single layer
model slice {
  field = QQ; input = 3; tokens = 2
  layer attention(rank = 2, out = 1)
  weights = A V; coordinates = scaled; entries = (1, 1)
}
model deep {
  input = 3; tokens = 3   # two layers
  layer attention(rank = 2, out = 3)
  layer attention(rank = 2, out = 3, normalization = softmax)
}
compute slice { dimension; fibers }
compute slice {
  invariants pencil, veronese(r = 2), sylvester
  vanishing_ideal up to degree 4
  check invariants
  certify point [3, -1/2,
                 0]
}
"""


def test_grammar_builds_strict():
    Lark(grammar_text(), parser="lalr", strict=True, propagate_positions=True,
         maybe_placeholders=True)
    assert spec_parser() is spec_parser()


def test_parse_full_example():
    spec = parse_spec(SLICE)
    s, d = spec.models
    assert s == ModelSpec("slice", Field(), 3, 2, (Layer(2, 1),), "AV", "scaled", ((1, 1),))
    assert d.widths == (3, 3, 3) and d.ranks == (2, 2)
    assert d.layers[1].normalization is Normalization.SOFTMAX
    names = [c.name for c in spec.computations]
    assert names == ["dimension", "fibers", "invariants", "vanishing_ideal", "check", "certify"]
    inv = spec.computations[2]
    assert inv.option("families") == (("pencil", ()), ("veronese", (("r", 2),)), ("sylvester", ()))
    assert spec.computations[3].options == (("degree", 4),)
    assert spec.computations[4].options == (("what", "invariants"),)
    assert spec.computations[5].option("point") == (3, Fraction(-1, 2), 0)
    # the slice has 28 coordinates: a 3-value point is refused by `check`
    with pytest.raises(SpecError, match="the point has 3 values; model `slice` has 28 coordinates"):
        validate(spec)
    point = "[" + ", ".join(["0"] * 27 + ["-1/2"]) + "]"
    assert validate(parse_spec(SLICE.replace("[3, -1/2,\n                 0]", point))) == []
    assert parse_spec(spec.to_dsl()) == spec


def test_spans_and_equality_ignore_spans():
    spec = parse_spec(SLICE)
    m = spec.models[0]
    assert (m.span.line, m.span.column) == (2, 1)
    assert m.layers[0].span.line == 4
    again = parse_spec("\n\n" + SLICE)
    assert again == spec and again.models[0].span.line == 4


def test_defaults_and_gf():
    m = parse_spec("model m { field = GF(7); input = 2; tokens = 1\n"
                   "layer attention(out = 1, rank = 1) }").models[0]
    assert m.field == Field("GF", 7) and m.weights == "QKV" and m.coordinates == "raw"
    assert m.entries is None and m.layers[0].normalization is Normalization.LIGHTNING
    assert m.size_estimate().parameters == 6


def test_entries_all_and_list():
    m = parse_spec("model m { input = 2; tokens = 2; layer attention(rank=1, out=2)\n"
                   "entries = (1, 1), (2, 2) }").models[0]
    assert m.entries == ((1, 1), (2, 2))
    m = parse_spec("model m { entries = all }").models[0]
    assert m.entries is None


def test_examples_parse_and_validate():
    for name in ("slice.att", "deep.att"):
        spec = parse_spec_file(ROOT / "examples" / name)
        validate(spec)
        assert parse_spec(spec.to_dsl()) == spec


def test_deep_dimension_not_refused_by_size_guard():
    spec = parse_spec_file(ROOT / "examples" / "deep.att")
    validate(spec)  # the Jacobian needs no coordinates
    bigger = parse_spec(spec.to_dsl()
                        + "compute deep { vanishing_ideal algorithm = interpolation }\n")
    # its interpolation table (the coordinates counted by the parity of the tokens) is refused
    with pytest.raises(ComputationTooLarge, match="monomials of degree 4 in 55674 essential coordinates"):
        validate(bigger)
    validate(bigger, force=True)
    # the invariant families are defined for one layer: `check` says so
    with pytest.raises(SpecError, match="`invariants` needs a model with one layer"):
        validate(parse_spec(spec.to_dsl() + "compute deep { invariants }\n"), force=True)


def test_vanishing_ideal_size_guard_and_algorithm():
    src = ("model m { input = 4; tokens = 3; layer attention(rank = 2, out = 4) }\n"
           "compute m { vanishing_ideal }")
    # without an algorithm it interpolates beyond 18 essential coordinates (not elimination):
    # check estimates that interpolation, as run would
    with pytest.raises(ComputationTooLarge, match=r"without a degree it interpolates.*write `up to degree 3`"):
        validate(parse_spec(src))
    # (the ways out follow the source line, on a line `fix: ...`)
    # (only the ways out check accepts: interpolation without a degree is refused below, so the
    # fix names a degree, and the statement it names passes check)
    with pytest.raises(ComputationTooLarge, match="(?s)elimination over 160 .*\nfix: .*up to degree 2"):
        validate(parse_spec(src.replace("vanishing_ideal", "vanishing_ideal algorithm = elimination")))
    validate(parse_spec(src.replace("vanishing_ideal", "vanishing_ideal up to degree 2")))
    # interpolation without a degree runs through degree 4, whose monomial table (46 GiB)
    # run refuses: check refuses it too, naming the degree to write
    with pytest.raises(ComputationTooLarge, match=r"write `up to degree 3`"):
        validate(parse_spec(src.replace("vanishing_ideal",
                                        "vanishing_ideal algorithm = interpolation")))
    validate(parse_spec(src.replace("vanishing_ideal", "vanishing_ideal up to degree 2")))


def test_rank_exceeding_width_is_a_note():
    notes = validate(parse_spec("model m { input = 3; tokens = 2\n"
                                "layer attention(rank = 5, out = 1) }", filename="a.att"))
    assert notes == ["a.att:2:17: note: rank 5 exceeds input width 3: rank A <= 3 anyway, "
                     "the rank is no constraint"]


def test_not_available_computation():
    spec = parse_spec("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
                      "compute m { check invariants }")
    validate(spec)
    with pytest.raises(SpecError, match="computation `check` is not available in this version"):
        validate(spec, available={"dimension", "fibers"})


# --------------------------------------------------------------- syntax errors

@pytest.mark.parametrize("label,snippet",
                         [(label, s) for label, snippets in E.EXAMPLES.items() for s in snippets])
def test_every_example_maps_to_its_label(label, snippet):
    with pytest.raises(label) as info:
        parse_spec(snippet)
    assert type(info.value) is label
    assert info.value.__cause__ is None and info.value.__suppress_context__


def test_each_label_has_two_examples():
    for label, snippets in E.EXAMPLES.items():
        assert len(snippets) >= 2, label


# (source, exception, "file:line:col", label text, fix hint fragment)
MALFORMED = [
    ("model m {\n  input = 3\n  tokns = 2\n}", E.UnknownKeyword, "f.att:3:3",
     "Unknown keyword", "did you mean `tokens`?"),
    ("model m {\n  input = three\n}", E.InvalidValue, "f.att:2:11",
     "Invalid value", "fix: write a positive integer, e.g. `input = 3`"),
    ("model m {\n  layer attention(rank = , out = 1)\n}", E.MissingValue, "f.att:2:26",
     "Missing value", "fix: write a positive integer, e.g. `rank = 2`"),
    ("model m {\n  input 3\n}", E.MissingEquals, "f.att:2:9",
     "Missing `=`", "fix: write `input = 3`"),
    ("model m {\n  input = 3 tokens = 2\n}", E.MissingSeparator, "f.att:2:13",
     "Missing separator", "fix: put a newline or `;` before `tokens`"),
    ("model m {\n  input = 3\n", E.UnbalancedBracket, "f.att:2:12",
     "Unbalanced bracket", "fix: add the missing `}`"),
    ("model m {\n  layer attention(rank = 2, out = 1\n}", E.UnbalancedBracket, "f.att:2:36",
     "Unbalanced bracket", "fix: add `)` before the end of the line"),
    ("model m { }\n}", E.UnbalancedBracket, "f.att:2:1",
     "Unbalanced bracket", "fix: remove this `}`"),
    ("model m {\n  coordinates = scale\n}", E.InvalidValue, "f.att:2:17",
     "Invalid value", "did you mean `scaled`?"),
    ("model m {\n  layer attention(rank = 1, normalization = sofmax)\n}", E.InvalidValue,
     "f.att:2:45", "Invalid value", "did you mean `softmax`?"),
    ("model m {\n  layer attention(rank = 1, outt = 1)\n}", E.UnknownKeyword, "f.att:2:29",
     "Unknown keyword", "did you mean `out`?"),
    ("model m {\n  normalization = softmax\n}", E.UnknownKeyword, "f.att:2:3",
     "Unknown keyword", "is an argument of `layer attention(...)`"),
    ("model m {\n  input = 3$\n}", E.UnexpectedCharacter, "f.att:2:12",
     "Unexpected character", "fix: remove it"),
    ("compute m {\n  dimension seed = 1 fibers\n}", E.MissingSeparator, "f.att:2:28",
     "Missing separator", "before `fibers`"),
    ("compute m { certify point [1 2] }", E.MissingSeparator, "f.att:1:30",
     "Missing separator", "fix: put `,` before `2`"),
    ("model", E.UnexpectedEnd, "f.att:1:6", "Unexpected end of file", "fix: complete"),
    ("model m {\n  field = GF()\n}", E.MissingValue, "f.att:2:14",
     "Missing value", "e.g. `GF(32003)`"),
    ("modle m { }", E.UnknownKeyword, "f.att:1:1", "Unknown keyword", "did you mean `model`?"),
    ("model m { }\n// comment\ncompute m {\n  certify point [1,\n 2\n", E.UnbalancedBracket,
     "f.att:5:3", "Unbalanced bracket", "fix: add the missing `]`"),
    # a trailing comma (was: "`{` opened at 1:9 is not closed", fix "add `}` before `)`")
    ("model m {\n  layer attention(rank = 1, out = 1, )\n}", E.DSLSyntaxError, "f.att:2:36",
     "Syntax error", "fix: remove the `,` at 2:36"),
    ("compute m { certify point [1, 2, ] }", E.DSLSyntaxError, "f.att:1:32",
     "Syntax error", "fix: remove the `,` at 1:32"),
    # a comma before a bracket that closes another one: the open `[` is the error
    ("compute m { certify point [1, }", E.UnbalancedBracket, "f.att:1:31",
     "Unbalanced bracket", "`[` opened at 1:27 is not closed"),
    # a point with something else than numbers in it (was: "`a` must start a new statement")
    ("compute m { certify point [1, a, 1] }", E.InvalidValue, "f.att:1:31",
     "Invalid value", "fix: write a list of numbers in brackets"),
    ("compute m { certify point [1, , 3] }", E.MissingValue, "f.att:1:31",
     "Missing value", "or remove one `,`"),
    ("compute m { certify point [1, 2 3] }", E.MissingSeparator, "f.att:1:33",
     "Missing separator", "fix: put `,` before `3`"),
]


@pytest.mark.parametrize("source,exc,where,label,hint", MALFORMED)
def test_malformed_messages(source, exc, where, label, hint):
    with pytest.raises(exc) as info:
        parse_spec(source, filename="f.att")
    text = str(info.value)
    first = text.splitlines()[0]
    assert first.startswith(f"{where}: {label}: "), text
    assert hint in text, text
    assert "\nexpected: " in text and "\nfix: " in text
    assert "^" in text.splitlines()[2]
    assert isinstance(info.value, SyntaxError) and isinstance(info.value, SageAttentionError)


SEMANTIC = [
    ("model m { input = 0; tokens = 2; layer attention(rank = 1, out = 1) }",
     "input (=0) must be a positive integer"),
    ("model m { input = 3/2; tokens = 2; layer attention(rank = 1, out = 1) }",
     "input (=3/2) must be a positive integer"),
    ("model m { input = 2; tokens = -1; layer attention(rank = 1, out = 1) }",
     "tokens (=-1) must be a positive integer"),
    ("model m { field = GF(9); input = 2; tokens = 2; layer attention(rank = 1, out = 1) }",
     "GF(p) needs p prime"),
    ("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1); entries = (2, 1) }",
     "row 2 exceeds the output width 1"),
    ("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1); entries = (1, 3) }",
     "token 3 exceeds the number of tokens 2"),
    ("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
     "model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }",
     "duplicate model name `m`"),
    ("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\ncompute n { fibers }",
     "names an unknown model"),
    ("model m { input = 2; input = 3; tokens = 2; layer attention(rank = 1, out = 1) }",
     "duplicate `input`"),
    ("model m { tokens = 2; layer attention(rank = 1, out = 1) }", "needs `input = ...`"),
    ("model m { input = 2; layer attention(rank = 1, out = 1) }", "needs `tokens = ...`"),
    ("model m { input = 2; tokens = 2 }", "needs at least one `layer"),
    ("model m { input = 2; tokens = 2; layer attention(out = 1) }", "needs `rank = ...`"),
    ("model m { input = 2; tokens = 2; layer attention(rank = 1, rank = 2, out = 1) }",
     "duplicate `rank`"),
    ("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
     "compute m { dimenson }", "unknown computation `dimenson` (did you mean `dimension`?)"),
    ("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
     "compute m { dimension sed = 1 }", "has no option `sed` (did you mean `seed`?)"),
    ("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
     "compute m { invariants pencl }", "unknown invariant family `pencl`"),
    ("model m { field = GF(7); input = 2; tokens = 2\n"
     "layer attention(rank = 1, out = 1, normalization = softmax) }", "softmax normalization"),
    ("model m { input = 1/0 }", "divides by zero"),
]


@pytest.mark.parametrize("source,message", SEMANTIC)
def test_semantic_errors(source, message):
    with pytest.raises(SpecError) as info:
        validate(parse_spec(source, filename="s.att"))
    text = str(info.value)
    assert message in text, text
    assert text.startswith("s.att:"), text


SEMANTIC_FIXES = [
    ("model m { input = 0; tokens = 2; layer attention(rank = 1, out = 1) }",
     "write a positive integer, e.g. `input = 1`"),
    ("model m { field = GF(9); input = 2; tokens = 2; layer attention(rank = 1, out = 1) }",
     "write a prime such as `field = GF(32003)`"),
    ("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1); entries = (2, 1) }",
     "an entry is (row, token) with row <= 1"),
    ("model m { input = 2; input = 3; tokens = 2; layer attention(rank = 1, out = 1) }",
     "keep one of them"),
    ("model m { input = 2; tokens = 2 }", "add a line such as `layer attention(rank = 1, out = 1)`"),
    ("model m { tokens = 2; layer attention(rank = 1, out = 1) }", "add a line `input = 2`"),
    ("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1, mask = casual) }",
     "use one of: none, causal"),
    ("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1, residual = true) }",
     "write `out = 2` or drop `residual`"),
    ("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\ncompute n { fibers }",
     "name one of them, or define `model n { ... }`"),
    ("model m { input = 3\n  layer dense(out = 4, activation = relu)\n  layer dense(out = 1) }",
     "use `activation = power(r)`"),
    ("model m { input = 3\n  layer dense(out = 4, activation = power(2))\n"
     "  layer dense(out = 1, activation = power(2)) }", "drop its `activation`"),
]


@pytest.mark.parametrize("source,fix", SEMANTIC_FIXES)
def test_semantic_errors_end_with_their_fix(source, fix):
    # like a syntax error: what is wrong, the source line and its caret, then `fix: ...`
    with pytest.raises(SpecError) as info:
        validate(parse_spec(source, filename="s.att"))
    lines = str(info.value).splitlines()
    assert lines[-1] == f"fix: {info.value.fix}" and fix in info.value.fix, lines
    assert lines[-2].strip() == "^" and "fix" not in lines[0], lines


def test_error_files():
    cases = {"unknown_keyword.att": E.UnknownKeyword, "missing_value.att": E.MissingValue,
             "unclosed.att": E.UnbalancedBracket}
    for name, exc in cases.items():
        with pytest.raises(exc):
            parse_spec_file(ROOT / "examples" / "errors" / name)
    for name in ("bad_entry.att", "unknown_model.att"):
        with pytest.raises(SpecError):
            validate(parse_spec_file(ROOT / "examples" / "errors" / name))


# ------------------------------------------------------------ property tests

names = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True).filter(
    lambda s: s not in {"model", "compute", "field", "input", "tokens", "layer", "weights",
                        "coordinates", "entries", "all", "raw", "scaled"})
pos = st.integers(min_value=1, max_value=6)


@st.composite
def layers(draw):
    return Layer(draw(pos), draw(pos), draw(st.sampled_from(list(Normalization))),
                 heads=draw(pos), mask=draw(st.sampled_from(["none", "causal", "casual"])),
                 residual=draw(st.sampled_from([False, True, "ture"])))


@st.composite
def models(draw, name):
    field = draw(st.sampled_from([Field(), Field("GF", 7), Field("GF", 32003)]))
    ls = tuple(draw(st.lists(layers(), min_size=1, max_size=3)))
    entries = draw(st.one_of(st.none(), st.lists(st.tuples(pos, pos), min_size=1, max_size=3)
                             .map(tuple)))
    return ModelSpec(name, field, draw(pos), draw(pos), ls,
                     draw(st.sampled_from(["QKV", "AV"])),
                     draw(st.sampled_from(["raw", "scaled"])), entries)


numbers = st.one_of(st.integers(-50, 50),
                    st.fractions(max_denominator=9).filter(lambda f: f.denominator != 1))
values = st.one_of(st.integers(0, 99), names, st.booleans(),
                   st.lists(numbers, max_size=4).map(tuple))
options = st.lists(st.tuples(names, values), max_size=2).map(tuple)


@st.composite
def computations(draw, model):
    kind = draw(st.sampled_from(["dimension", "fibers", "invariants", "vanishing_ideal",
                                 "check", "certify", "other"]))
    opts = draw(options)
    if kind == "invariants":
        fams = draw(st.lists(st.tuples(names, options), max_size=3).map(tuple))
        first = (("families", fams),) if fams else ()
        return Computation(model, kind, first + opts)
    if kind == "vanishing_ideal":
        deg = draw(st.one_of(st.none(), st.integers(0, 9)))
        return Computation(model, kind, ((("degree", deg),) if deg is not None else ()) + opts)
    if kind == "check":
        return Computation(model, kind, (("what", draw(names)),) + opts)
    if kind == "certify":
        return Computation(model, kind, (("point", tuple(draw(st.lists(numbers, max_size=5)))),)
                           + opts)
    if kind == "other":
        kind = draw(names)
    return Computation(model, kind, opts)


@st.composite
def specs(draw):
    mnames = draw(st.lists(names, min_size=1, max_size=3, unique=True))
    ms = tuple(draw(models(n)) for n in mnames)
    cs = tuple(draw(st.lists(st.sampled_from(mnames).flatmap(computations), max_size=4)))
    return Spec(ms, cs)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(specs())
def test_round_trip(spec):
    assert parse_spec(spec.to_dsl()) == spec


TOKENS = ["model", "compute", "{", "}", "(", ")", "[", "]", "=", ";", "\n", ",", "layer",
          "attention", "rank", "input", "tokens", "3", "-1", "1/0", "0", "GF", "QQ", "A V",
          "softmax", "entries", "(1, 1)", "x", "//", "#", "$", "\"", "up to degree",
          "certify point", "99999999999"]


@st.composite
def mutated(draw):
    text = draw(st.sampled_from([SLICE, (ROOT / "examples" / "slice.att").read_text(),
                                 (ROOT / "examples" / "deep.att").read_text()]))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["delete", "insert", "replace", "token"]))
        n = draw(st.integers(1, 6))
        if op == "delete":
            text = text[:i] + text[i + n:]
        elif op == "insert":
            text = text[:i] + draw(st.text(max_size=3)) + text[i:]
        elif op == "replace":
            text = text[:i] + draw(st.text(min_size=1, max_size=n)) + text[i + n:]
        else:
            text = text[:i] + " " + draw(st.sampled_from(TOKENS)) + " " + text[i:]
    return text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutations_raise_only_clean_errors(text):
    try:
        spec = parse_spec(text, filename="m.att")
        validate(spec)
    except SageAttentionError as e:
        message = str(e)
        assert "Traceback" not in message and "lark" not in message.lower()


def test_parser_without_interegular_and_shared_tmp(tmp_path):
    # a plain install has no interegular; the parser must build without it and
    # keep its cache out of the shared temporary directory
    code = ("import sys; sys.modules['interegular'] = None\n"
            "from sage_attention.dsl.parser import parse_spec, grammar_cache_file\n"
            "parse_spec('compute m { fibers }')\n"
            "print(grammar_cache_file())\n")
    env = dict(os.environ, TMPDIR=str(tmp_path / "tmp"), XDG_CACHE_HOME=str(tmp_path / "cache"))
    os.makedirs(env["TMPDIR"])
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().startswith(str(tmp_path / "cache" / "sage_attention"))
    assert os.listdir(env["TMPDIR"]) == []


@pytest.mark.parametrize("args,word,given", [
    ("rank = 2, out = 1, rnak = 3", "rnak", "rank"),
    ("rank = 2, out = 1, outt = 3", "outt", "out"),
])
def test_misspelt_argument_that_is_already_given_is_to_be_removed(args, word, given):
    # following a "write `rank`" fix would give `rank` twice: the fix is to remove the misspelt one
    with pytest.raises(E.UnknownKeyword) as info:
        parse_spec(f"model m {{ input = 3; tokens = 2; layer attention({args}) }}\n")
    assert f"`{given}` is already given" in str(info.value)
    assert info.value.hint == f"remove `{word} = ...`"
    fixed = f"model m {{ input = 3; tokens = 2; layer attention({args.rsplit(',', 1)[0]}) }}\n"
    assert parse_spec(fixed).models[0].name == "m"


def test_misspelt_argument_not_yet_given_is_suggested():
    with pytest.raises(E.UnknownKeyword, match="did you mean `rank`") as info:
        parse_spec("model m { input = 3; tokens = 2; layer attention(rnak = 2, out = 1) }\n")
    assert info.value.hint == "write `rank`"


def test_the_first_error_in_source_order_is_reported():
    # two independent errors: the earlier line is reported, whichever item it is
    spec = "model m {\n  input = 3/2\n  tokens = 2\n  field = GF(4)\n  layer attention(rank = 2, out = 1)\n}\n"
    with pytest.raises(SpecError, match=":2:"):
        validate(parse_spec(spec))
    spec = "model m {\n  field = GF(4)\n  tokens = 2\n  input = 3/2\n  layer attention(rank = 2, out = 1)\n}\n"
    with pytest.raises(SpecError, match="GF"):
        validate(parse_spec(spec))


def test_the_spec_limits_are_tunables_read_when_a_spec_is_read(tmp_path):
    # settings.MAX_SPEC_BYTES, MAX_SPEC_DIGITS and MAX_SPEC_SIZE are read at call time, not copied
    # at import (sage_attention/settings.py): a change for the session holds for the next spec
    from sage_attention.settings import settings as tunables
    path = tmp_path / "m.att"
    path.write_text("model m { input = 3; tokens = 2; layer attention(rank = 1, out = 1) }")
    with tunables.override(MAX_SPEC_BYTES=20):
        with pytest.raises(SpecError, match="more than the limit of 20 bytes"):
            parse_spec_file(path)
    assert parse_spec_file(path).models[0].input == 3
    with tunables.override(MAX_SPEC_DIGITS=2):
        with pytest.raises(SpecError, match="a spec number has at most 2 digits"):
            parse_spec("model m { input = 123 }")
    with tunables.override(MAX_SPEC_SIZE=2):
        with pytest.raises(SpecError, match=r"input \(=3\) must be at most 2"):
            validate(parse_spec_file(path))
    assert validate(parse_spec_file(path)) == []
    # the old module constants read the settings
    from sage_attention.dsl import parser, transformer, validation
    with tunables.override(MAX_SPEC_BYTES=1000, MAX_SPEC_DIGITS=7, MAX_SPEC_SIZE=9):
        assert (parser.MAX_SPEC_BYTES, transformer.MAX_DIGITS, validation.MAX_SIZE) == (1000, 7, 9)
