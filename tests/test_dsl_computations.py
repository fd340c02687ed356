"""The table of computations (sage_attention.catalog.computations) is the one declaration
of every statement and option: `check` validates against it exactly as `run` reads it."""
import inspect
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sage_attention.dsl import DSLSyntaxError, parse_spec, validate
from sage_attention.catalog.computations import ALL_FAMILIES, COMPUTATIONS, FAMILIES
from sage_attention.misc.errors import SpecError

ROOT = Path(__file__).resolve().parents[1]

#: one lightning layer, d = 2, t = 2, a = 2, one output entry: every statement applies
TINY = ("model m { input = 2; tokens = 2; layer attention(rank = 2, out = 1); "
        "entries = (1, 1) }\n")
NCOORDS = parse_spec(TINY).models[0].size_estimate().coordinates
ZERO_POINT = "[" + ", ".join(["0"] * NCOORDS) + "]"

#: how a statement is written with an option given as `key = value`
PREFIX = {"check": "check invariants", "certify": f"certify point {ZERO_POINT}"}


def statement(name, key, value):
    """The source of the statement `name` with the option `key` set to `value`."""
    if key == "families":
        return f"{name} {value}" if name == "invariants" else f"check invariants\n  invariants {value}"
    if key == "what":
        return f"check {value}"
    if key == "point":
        return f"certify point {value}"
    if key == "degree" and name == "vanishing_ideal":
        return f"vanishing_ideal up to degree {value}"
    return f"{PREFIX.get(name, name)} {key} = {value}"


def invalid_values(option):
    if option.kind == "int":
        values = ["true", "foo", "1/2", "[1, 2]", "-1"]
        if option.minimum is not None and option.minimum > 0:
            values.append(str(option.minimum - 1))
        if isinstance(option.maximum, int):
            values.append(str(option.maximum + 1))
        return values
    if option.kind == "choice":
        return ["foo", "3", "true"]
    if option.kind == "point":
        return ["[]", "[1, 2]", "[" + ", ".join(["0"] * (NCOORDS + 1)) + "]"]
    if option.kind == "families":
        return ["nope", "veronese(foo = 1)", "veronese(r = 3)", "pencil(limit = 0)"]
    # the kinds of the metric statements (sage_attention.catalog.metric_options)
    if option.kind == "data":
        return ["foo", "3", "true", "[]", "[1, 2]"]
    if option.kind == "bool":
        return ["foo", "3", "1/2"]
    if option.kind == "number":
        return ["foo", "true", "[1, 2]"]
    if option.kind == "outputs":
        return ["[]", "[0]", "[1, 1]", "[1, 2, 3]", "[1/2]", "foo", "[2]"]
    raise AssertionError(option.kind)


def valid_values(option):
    if option.kind == "int":
        low = option.minimum or 0
        return [str(low), str(low + 1)]
    if option.kind == "choice":
        return list(option.choices)
    if option.kind == "point":
        return [ZERO_POINT]
    if option.kind == "data":
        return ["random"]
    if option.kind == "bool":
        return ["true", "false"]
    if option.kind == "number":
        return ["1/2"]
    if option.kind == "outputs":
        return ["[1]"]
    return [", ".join(FAMILIES), ALL_FAMILIES]


INVALID = [(c.name, o.name, v) for c in COMPUTATIONS.values() for o in c.options
           for v in invalid_values(o)]
FAMILY_INVALID = [(f.name, o.name, v) for f in FAMILIES.values() for o in f.options
                  for v in ("true", "foo", "1/2", "0", "-1") + (("3",) if o.name == "r" else ())
                  if not (o.kind == "choice" and v == "0") and not (o.name == "seed" and v == "0")]


def test_the_table_is_complete_and_resolves():
    from sage_attention.app import cli
    from sage_attention.invariants import FAMILIES as LIBRARY_FAMILIES
    assert set(FAMILIES) == set(LIBRARY_FAMILIES)
    for name, fam in FAMILIES.items():
        fn = cli.resolve(fam.function)
        assert fn is LIBRARY_FAMILIES[name]
        params = inspect.signature(fn).parameters
        for option in fam.options:  # every declared option reaches the function
            assert option.name in params, (name, option.name)
    for name, comp in COMPUTATIONS.items():
        assert callable(cli.resolve(comp.runner)), name
    # the grammar's keyword statements are in the table
    grammar = (ROOT / "grammar" / "attention.lark").read_text()
    for rule in re.findall(r'^(\w+): "(\w+)"', grammar, re.M):
        if rule[0] == rule[1] and rule[0] not in ("model", "compute", "layer", "field"):
            assert rule[0] in COMPUTATIONS, rule


@pytest.mark.parametrize("name,key,value", INVALID)
def test_check_rejects_every_invalid_option(name, key, value):
    source = TINY + f"compute m {{\n  {statement(name, key, value)}\n}}\n"
    # a value of the wrong kind may already be a syntax error (`check 3`)
    with pytest.raises((SpecError, DSLSyntaxError)) as info:
        validate(parse_spec(source, filename="f.att"))
    text = str(info.value)
    assert re.match(r"f\.att:[234]:\d+: ", text), text
    assert any(line.strip() == "^" for line in text.splitlines())
    # (an option not written `key = value` is named as written: `check foo`, `up to degree 0`)
    assert f"`{key}`" in text or "point" in text or "family" in text or \
        "`check " in text or "`up to degree" in text or \
        isinstance(info.value, DSLSyntaxError), text


@pytest.mark.parametrize("family,key,value", FAMILY_INVALID)
def test_check_rejects_every_invalid_family_option(family, key, value):
    source = TINY + f"compute m {{ invariants {family}({key} = {value}) }}\n"
    # the message points at the family (column 24), not at the statement
    with pytest.raises(SpecError, match=rf"f\.att:2:24: family `{family}`: `{key}`"):
        validate(parse_spec(source, filename="f.att"))


@pytest.mark.parametrize("name", sorted(COMPUTATIONS))
def test_unknown_option_is_rejected(name):
    source = TINY + f"compute m {{ {statement(name, 'bogus', '1')} }}\n"
    with pytest.raises(SpecError, match=f"`{name}` has no option `bogus`"):
        validate(parse_spec(source, filename="f.att"))


# The mismatches that `check` used to accept and `run` then refused or ignored.
ACCEPTED_BEFORE = [
    ("invariants veronese(foo = 1)", "family `veronese` has no option `foo`"),
    ("invariants veronese(r = 5)", "`r` (=5) must be at most 2"),
    ("vanishing_ideal algorithm = groebner", "must be one of elimination, interpolation"),
    ("vanishing_ideal algorithm = linear_algebra", "must be one of elimination, interpolation"),
    ("check families", "`check families`: what to check must be one of invariants"),
    ("invariants pencil degree = 3", "`invariants` has no option `degree`"),
    ("check invariants degree = 2", "`check` has no option `degree`"),
    ("check invariants algorithm = elimination", "`check` has no option `algorithm`"),
    ("dimension method = foo", "`dimension` has no option `method`"),
    ("dimension proof = true", "`dimension` has no option `proof`"),
    ("vanishing_ideal up to degree 0", "`up to degree 0`: the degree must be an integer >= 1"),
    ("vanishing_ideal up to degree 3 algorithm = elimination", "drop one of them"),
    ("certify point [1, 2, 3, 4]", f"the point has 4 values; model `m` has {NCOORDS}"),
]


@pytest.mark.parametrize("text,message", ACCEPTED_BEFORE)
def test_check_rejects_what_run_refused_or_ignored(text, message):
    with pytest.raises(SpecError, match=re.escape(message)):
        validate(parse_spec(TINY + f"compute m {{ {text} }}\n", filename="f.att"))


@pytest.mark.parametrize("model,text,message", [
    ("model d { input = 2; tokens = 2; layer attention(rank = 1, out = 2)\n"
     "  layer attention(rank = 1, out = 1) }", "invariants", "needs a model with one layer"),
    ("model d { input = 2; tokens = 2; layer attention(rank = 1, out = 2)\n"
     "  layer attention(rank = 1, out = 1) }", "check invariants", "needs a model with one layer"),
    ("model d { input = 2; tokens = 2; layer attention(rank = 1, out = 1, "
     "normalization = softmax) }", "vanishing_ideal", "has softmax normalization"),
    ("model d { input = 2; tokens = 2; layer attention(rank = 1, out = 1, "
     "normalization = softmax) }", "certify point [1]", "has softmax normalization"),
    ("model d { field = GF(3); input = 2; tokens = 2; layer attention(rank = 1, out = 1)\n"
     "  coordinates = scaled }", "dimension", "`coordinates = scaled` divides by 2, 3 and 6"),
])
def test_check_knows_which_models_a_statement_applies_to(model, text, message):
    with pytest.raises(SpecError, match=re.escape(message)):
        validate(parse_spec(model + f"\ncompute d {{ {text} }}\n", filename="f.att"))


VALID = [(c.name, o.name, v) for c in COMPUTATIONS.values() for o in c.options
         for v in valid_values(o)
         # the Bombieri-Weyl metric needs a polynomial network, not TINY (tests/test_metric_statements.py)
         if (o.name, v) != ("metric", "bombieri_weyl")]
FAMILY_VALID = {"r": "2", "limit": "1", "lines": "coordinate", "seed": "3",
                "max_minors": "100000"}


@pytest.fixture(scope="module")
def run_one():
    from sage_attention.app.cli import run_spec

    def run(body):
        spec = parse_spec(TINY + f"compute m {{\n  {body}\n}}\n", filename="f.att")
        validate(spec)
        out = io.StringIO()
        (result,) = run_spec(spec, as_json=True, seed=0, out=out)
        return result
    return run


@pytest.mark.parametrize("name,key,value", VALID)
def test_run_accepts_every_valid_option(run_one, name, key, value):
    result = run_one(statement(name, key, value))
    errors = [c["error"] for c in result["computations"] if "error" in c]
    assert not errors, errors


def test_run_accepts_every_valid_family_option(run_one):
    body = "invariants " + ", ".join(
        f.name + ("(" + ", ".join(f"{o.name} = {FAMILY_VALID[o.name]}" for o in f.options) + ")"
                  if f.options else "") for f in FAMILIES.values())
    result = run_one(body)
    (entry,) = result["computations"]
    assert "error" not in entry, entry.get("error")
    by_name = {f["name"]: f for f in entry["families"]}
    assert by_name["veronese"]["size"] <= 1 and by_name["low_rank"]["size"] <= 1  # limit = 1 used


def test_up_to_degree_means_interpolation_through_that_degree(run_one):
    """`up to degree N` used to be ignored when the model is small (elimination)."""
    result = run_one("vanishing_ideal up to degree 1")
    (entry,) = result["computations"]
    assert entry["algorithm"] == "interpolation"
    assert set(entry["generators_by_degree"]) <= {1}


def test_statement_seed_reaches_the_families():
    """`invariants sylvester seed = s` passes the seed to the family that takes one."""
    from sage_attention.app.runners import families_of
    from sage_attention.invariants import sylvester_invariants
    model = parse_spec(TINY).models[0].build()
    (fam,) = families_of(model, {"families": (("sylvester", ()),), "seed": 5})
    assert [str(f.polynomial) for f in fam] == \
        [str(f.polynomial) for f in sylvester_invariants(model, seed=5)]


def test_check_imports_no_sage():
    r = subprocess.run([sys.executable, "-c",
                        "import sys; from sage_attention.app import cli\n"
                        "code = cli.main(['check', 'examples/slice.att'])\n"
                        "print(code, sorted(m for m in sys.modules if m.split('.')[0] == 'sage'))"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.stdout.strip() == "0 []", r.stdout + r.stderr


def _spec_blocks(text):
    """The literal blocks of a reST file that contain a `model` declaration."""
    blocks, current = [], None
    for line in text.splitlines() + [""]:
        if line.rstrip().endswith("::") and not line.strip().startswith(".."):
            current = []
            continue
        if current is not None:
            if line.strip() and not line.startswith("    "):
                if any("model " in b for b in current):
                    blocks.append("\n".join(b[4:] for b in current))
                current = None
            else:
                current.append(line)
    return blocks


def test_documented_examples_pass_check():
    doc = (ROOT / "doc" / "dsl.rst").read_text()
    blocks = _spec_blocks(doc)
    assert blocks
    for block in blocks:
        validate(parse_spec(block, filename="doc/dsl.rst"))
    grammar = (ROOT / "grammar" / "attention.lark").read_text()
    example = "\n".join(line[6:] for line in grammar.splitlines()
                        if line.startswith("//     "))
    validate(parse_spec(example, filename="attention.lark"))


def test_the_reference_documents_the_table_and_nothing_else():
    doc = (ROOT / "doc" / "dsl.rst").read_text()
    for comp in COMPUTATIONS.values():
        assert f"``{comp.name}" in doc, comp.name
        for option in comp.options:
            if option.kind not in ("families", "point") and option.name != "what":
                assert option.name in doc, (comp.name, option.name)
    for fam in FAMILIES.values():
        assert fam.name in doc
        for option in fam.options:
            assert option.name in doc
    for gone in ("linear_algebra", "method", "proof"):
        assert gone not in doc, gone
