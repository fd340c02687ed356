"""
Every fix a message of ``sage-attention check`` offers is accepted when applied.

A corpus of broken specs is generated mechanically from the valid example
specs (``examples/*.att``): unknown options on every statement of every
model, unknown arguments of every layer, misspelt keywords, the Python
names of the spec's arguments (``d =``, ``causal = true``, ``widths =``),
values out of range, unknown statements, missing separators. ``check``
(parse and validate) is run on each. For each message whose ``fix:`` line
names spec text, every alternative it offers is applied
(:func:`sage_attention.dsl.fixes.fix_edits`) and ``check`` is run again:
the fixed spec passes, or fails at another place -- never again at the
place that was edited (which would mean the advice contradicts itself).

The place edited is the statement, layer or item that holds the edit for the fix of a semantic
error, and the words edited for the fix of a syntax error (a spec that did not parse was never
checked: what check then says about its statements is said for the first time). A fix line
that names no spec text (``use a smaller model``) is advice and is counted apart; one that names
spec text must give an edit. The test prints the counts (about 1100 messages, 1300 fixes).
"""
import functools
import re
from pathlib import Path

import pytest

from sage_attention.dsl import parse_spec, validate
from sage_attention.dsl.fixes import (_concrete, _scope, _snippets, apply_edit, clauses, fix_edits,
                                      fix_text)
from sage_attention.catalog.computations import COMPUTATIONS
from sage_attention.misc.errors import SageAttentionError

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@functools.lru_cache(maxsize=None)
def check(source):
    """Parse and validate as ``sage-attention check`` does: ``None`` or the error."""
    try:
        validate(parse_spec(source, filename="spec.att"))
    except (SageAttentionError, SyntaxError, ValueError) as e:
        return e
    return None


def location(error):
    m = re.match(r"[^\n]*?:(\d+):(\d+): ", str(error))
    return (int(m.group(1)), int(m.group(2))) if m else None


def _models(source):
    """The model blocks of a source: (name, start, end) offsets of their bodies."""
    out = []
    for m in re.finditer(r"\bmodel\s+(\w+)\s*\{", source):
        depth, i = 1, m.end()
        while depth and i < len(source):
            depth += {"{": 1, "}": -1}.get(source[i], 0)
            i += 1
        out.append((m.group(1), m.end(), i - 1))
    return out


def _layers(source):
    """The argument lists of the layers: (kind, start, end) offsets inside the parentheses."""
    out = []
    for m in re.finditer(r"\blayer\s+(attention|dense)\s*\(", source):
        depth, i = 1, m.end()
        while depth and i < len(source):
            depth += {"(": 1, ")": -1}.get(source[i], 0)
            i += 1
        out.append((m.group(1), m.end(), i - 1))
    return out


def _statements(source):
    """The statements of the compute blocks: (model, start, end) offsets."""
    out = []
    for m in re.finditer(r"\bcompute\s+(\w+)\s*\{([^}]*)\}", source):
        body_start = m.start(2)
        pos = body_start
        for part in re.split(r"([;\n])", m.group(2)):
            if part not in (";", "\n") and part.strip() and not part.strip().startswith(("//", "#")):
                lead = len(part) - len(part.lstrip())
                out.append((m.group(1), pos + lead, pos + len(part.rstrip())))
            pos += len(part)
    return out


def _insert_before_close(source, close, text):
    return source[:close] + text + source[close:]


def mutations(source):
    """Broken variants of a valid spec: ``(what, source)`` pairs."""
    models = _models(source)
    layers = _layers(source)
    statements = _statements(source)
    # every computation on every model, with an unknown option, and with options out of range
    for name, _, _ in models:
        for c in COMPUTATIONS:
            if c == "certify":
                continue
            yield f"{c} foo on {name}", source + f"\ncompute {name} {{ {c} foo = 1 }}\n"
            yield f"{c} mistyped seed on {name}", source + f"\ncompute {name} {{ {c} sed = 1 }}\n"
            yield f"{c} seed -1 on {name}", source + f"\ncompute {name} {{ {c} seed = -1 }}\n"
        yield f"degree 0 on {name}", source + f"\ncompute {name} {{ vanishing_ideal up to degree 0 }}\n"
        yield f"upto on {name}", source + f"\ncompute {name} {{ vanishing_ideal upto degree 3 }}\n"
        yield f"algorithm on {name}", source + f"\ncompute {name} {{ vanishing_ideal algorithm = elimnation }}\n"
        yield f"degree+elimination on {name}", source + \
            f"\ncompute {name} {{ vanishing_ideal up to degree 2 algorithm = elimination }}\n"
        yield f"interpolation on {name}", source + \
            f"\ncompute {name} {{ vanishing_ideal algorithm = interpolation }}\n"
        yield f"degree on {name}", source + f"\ncompute {name} {{ vanishing_ideal up to degree 2 }}\n"
        yield f"unknown statement on {name}", source + f"\ncompute {name} {{ dimensio }}\n"
        yield f"unknown statement 2 on {name}", source + f"\ncompute {name} {{ vanishing_ideals }}\n"
        yield f"check what on {name}", source + f"\ncompute {name} {{ check generaton }}\n"
        yield f"invariants family on {name}", source + f"\ncompute {name} {{ invariants pencl }}\n"
        yield f"invariants limit on {name}", source + f"\ncompute {name} {{ invariants limit = 3 }}\n"
        yield f"unknown model of {name}", source + f"\ncompute {name}x {{ dimension }}\n"
    # options of the statements already there
    for i, (_, s, e) in enumerate(statements):
        yield f"statement {i} foo", source[:e] + " foo = 1" + source[e:]
        word = re.match(r"\w+", source[s:e]).group()
        yield f"statement {i} misspelt", source[:s] + word[:-1] + source[s + len(word):]
        if "seed" in source[s:e]:
            yield f"statement {i} seed twice", source[:e] + " seed = 2" + source[e:]
    # model items
    for name, s, e in models:
        body = source[s:e]
        for m in re.finditer(r"\b(input|tokens|field|weights|coordinates|entries|linear_output)\s*=", body):
            key = m.group(1)
            a = s + m.start(1)
            yield f"{name}: {key} misspelt", source[:a] + key[:-1] + source[a + len(key):]
            yield f"{name}: {key} duplicated", source[:e] + f"\n  {source[a:s + _item_end(body, m.start())]}\n" + source[e:]
        for key, value in (("input", "0"), ("tokens", "0"), ("input", "2.5"), ("field", "GF(8)"),
                           ("field", "GF(4)"), ("field", "GF(32003)"), ("field", "GF(2)"),
                           ("field", "GF(65537)"), ("field", "GF(3)"),
                           ("weights", "A V"), ("coordinates", "scaled"), ("entries", "(9, 9)"),
                           ("entries", "(1, 1), (1, 1)"), ("linear_output", "maybe"),
                           ("linear_output", "false"), ("tokens", "100000")):
            found = re.search(rf"\b{key}\s*=\s*", body)
            if found:
                a = s + found.end()
                b = s + _item_end(body, found.end())
                yield f"{name}: {key} = {value}", source[:a] + value + source[b:]
            else:
                yield f"{name}: add {key} = {value}", source[:s] + f"\n  {key} = {value}" + source[s:]
        for word, value in (("d", "3"), ("t", "2"), ("widths", "[3, 4, 1]"), ("base_ring", "QQ"),
                            ("causal", "true"), ("activation_degree", "3"), ("foo", "1"),
                            ("normalisation", "softmax"), ("rank", "2"), ("out", "1")):
            yield f"{name}: {word} = {value}", source[:s] + f"\n  {word} = {value}" + source[s:]
        yield f"{name}: no separator", re.sub(r"(\binput\s*=\s*\d+)\s*;\s*", r"\1 ", source, count=1)
        yield f"{name}: missing =", re.sub(r"\binput\s*=", "input", source, count=1)
        yield f"{name}: no layer", re.sub(r"\n\s*layer [^\n]*", "", source[:e]) + source[e:]
    # layer arguments
    for i, (kind, s, e) in enumerate(layers):
        args = source[s:e]
        for m in re.finditer(r"\b(\w+)\s*=", args):
            key = m.group(1)
            a = s + m.start(1)
            yield f"layer {i}: {key} misspelt", source[:a] + key[:-1] + source[a + len(key):]
            yield f"layer {i}: {key} twice", source[:e] + f", {key} = 1" + source[e:]
        extra = [("foo", "1"), ("causal", "true"), ("causal", "false"), ("a", "2"), ("r", "2"),
                 ("activation_degree", "3"), ("d", "3"), ("bias", "2"), ("residual", "maybe"),
                 ("residual", "true"), ("mask", "future"), ("mask", "causal"), ("heads", "0"),
                 ("heads", "2"), ("normalization", "softmax"), ("activation", "power(2)"),
                 ("activation", "relu"), ("activation", "power(0)"), ("activation", "linear(2)"),
                 ("activation", "power"), ("rank", "1"), ("out", "0"), ("out", "2.5"), ("bias", "true")]
        for key, value in extra:
            if re.search(rf"\b{key}\s*=", args):
                m = re.search(rf"\b{key}\s*=\s*", args)
                a, b = s + m.end(), s + _item_end(args, m.end())
                yield f"layer {i}: {key} = {value}", source[:a] + value + source[b:]
            else:
                yield f"layer {i}: add {key} = {value}", source[:e] + f", {key} = {value}" + source[e:]
        yield f"layer {i}: no comma", source[:s] + re.sub(r",\s*", " ", args, count=1) + source[e:]
        yield f"layer {i}: unclosed", source[:e] + source[e + 1:]
        yield f"layer {i}: wrong kind", source[:s - len(kind) - 1] + "attn(" + source[s:]


def _item_end(text, start):
    depth, i = 0, start
    while i < len(text):
        ch = text[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and ch in ";,\n":
            break
        i += 1
    while i > start and text[i - 1] in " \t":
        i -= 1
    return i


def _region(source, edit, syntax=False):
    """The offsets of the statement, layer or item the edit changed (the item only for the fix
    of a syntax error: the spec did not parse, so what else it says is said for the first time)."""
    lines = source.split("\n")
    start = sum(len(x) + 1 for x in lines[:edit.line - 1]) + edit.column - 1
    end = start + len(edit.new)
    if re.fullmatch(r"\w+", edit.new) and edit.line == edit.end_line:
        # a word rewritten (a keyword for a misspelt one): the word is the place edited
        a, b = start, end
        while a > 0 and re.match(r"\w", source[a - 1]):
            a -= 1
        while b < len(source) and re.match(r"\w", source[b]):
            b += 1
        return a, b
    scope = _scope(source, start)
    opener = source[scope[0] - 1] if scope[0] else ""
    if syntax:
        a = start
        while a > 0 and re.match(r"\w", source[a - 1]):
            a -= 1
        return a, end
    if opener == "{" and not re.match(r"\s*compute\b", source[source.rfind("\n", 0, scope[0] - 1) + 1:]):
        # an item of a model: the item itself
        a = max(source.rfind(";", 0, start), source.rfind("\n", 0, start), source.rfind("{", 0, start)) + 1
        return a, max(end, _item_end(source, a))
    a = scope[0]
    if opener == "(":
        # a layer: from `layer` to its closing parenthesis
        a = max(source.rfind("\n", 0, a), source.rfind(";", 0, a)) + 1
        return a, scope[1] + 1
    return a, max(scope[1], end)


def applicable(fix):
    """Whether a fix line names concrete spec text to write or remove where the message points."""
    for verb, clause in clauses(fix):
        if verb in ("write", "use", "drop", "remove") and \
                not re.search(r"\bin (each|layer|the model)\b", clause) and \
                any(_concrete(s) for s in _snippets(clause)):
            return True
    return False


def collect():
    """The corpus: ``(example, what, source, error)`` for each broken spec with a fix."""
    out = []
    for path in sorted(EXAMPLES.glob("*.att")):
        source = path.read_text()
        assert check(source) is None, path
        for what, broken in mutations(source):
            error = check(broken)
            if error is not None and fix_text(error):
                out.append((path.name, what, broken, error))
    return out


def test_every_offered_fix_is_accepted():
    corpus = collect()
    messages = fixes = advice = 0
    failures = []
    seen = set()
    for name, what, source, error in corpus:
        key = (str(error), source)
        if key in seen:
            continue
        seen.add(key)
        messages += 1
        edits = fix_edits(error, source)
        if not edits:
            advice += 1
            # a fix without an edit names no spec text to write (it is advice)
            if applicable(fix_text(error)):
                failures.append(f"{name} [{what}]: no edit read from the fix\n{error}")
            continue
        for edit in edits:
            fixes += 1
            fixed = apply_edit(source, edit)
            again = check(fixed)
            if again is None:
                continue
            where = location(again)
            lines = fixed.split("\n")
            a, b = _region(fixed, edit, isinstance(error, SyntaxError))
            at = sum(len(x) + 1 for x in lines[:where[0] - 1]) + where[1] - 1 if where else -1
            same = str(again).split("\n")[0].split(": ", 1)[-1] == str(error).split("\n")[0].split(": ", 1)[-1]
            if a <= at <= b or same:
                failures.append(f"{name} [{what}]: the fix {edit.new!r} gives\n{again}\n"
                                f"-- the message was\n{error}")
    print(f"{messages} messages with a fix, {fixes} fixes applied, {advice} advice only")
    assert messages > 500 and fixes > 500
    assert not failures, f"{len(failures)} fixes refused:\n\n" + "\n\n".join(failures[:40])


NETWORK = ("model m {\n  input = 2\n  layer dense(out = 1, activation = power(2), bias = true)\n"
           "  layer dense(out = 1)\n}\n")


def test_the_options_offered_for_a_network_apply_to_it():
    # the options of `vanishing_ideal` a network with biases takes: elimination only (before,
    # the fix listed `up to degree N` and `algorithm = interpolation`, which check then refused)
    source = NETWORK + "compute m { vanishing_ideal foo = 1 }\n"
    error = check(source)
    assert "has no option `foo`" in str(error)
    assert "up to degree" not in error.fix and "interpolation" not in error.fix, error.fix
    edits = fix_edits(error, source)
    assert len(edits) >= 2                      # drop it, or `algorithm = elimination`
    for edit in edits:
        assert check(apply_edit(source, edit)) is None, apply_edit(source, edit)


@pytest.mark.parametrize("statement", ["dimension", "fibers", "vanishing_ideal"])
def test_the_prime_field_offered_is_accepted(statement):
    # `field = GF(8)`: the fix names a prime; the fixed spec passes check for each statement
    source = NETWORK.replace("input = 2", "field = GF(8); input = 2") + f"compute m {{ {statement} }}\n"
    error = check(source)
    assert "GF(" in error.fix
    for edit in fix_edits(error, source):
        assert check(apply_edit(source, edit)) is None, apply_edit(source, edit)


@pytest.mark.parametrize("written, meant", [("critical_points spurius = false", "spurious = false"),
                                            ("decision_boundary treshold = 1", "threshold = 1"),
                                            ("decision_boundary output = [1]", "outputs = [1]"),
                                            ("vanishing_ideal algoritm = elimination",
                                             "algorithm = elimination")])
def test_a_misspelt_option_keeps_its_value(written, meant):
    # the first fix of a misspelt option is the option meant with the value written (not only
    # "drop it", which loses what the user asked for), and it is accepted
    source = NETWORK + f"compute m {{ {written} }}\n"
    error = check(source)
    assert error.fix.startswith(f"write `{meant}`"), error.fix
    fixed = apply_edit(source, fix_edits(error, source)[0])
    assert meant in fixed and check(fixed) is None, fixed
