r"""
The diagnosis of syntax errors

When the LALR parser stops, :func:`syntax_error` turns Lark's exception
into a labelled :class:`~sage_attention.dsl.errors.DSLSyntaxError`: the
location, the label (:data:`~sage_attention.dsl.errors.MATCHED_LABELS`),
the source line with a caret, what the grammar expected there and a fix.
The label comes from the malformed examples of
:mod:`sage_attention.dsl.errors` (Lark's ``match_examples``), after a few
checks that are clear without them and before a fallback that reads the
text (:mod:`sage_attention.dsl.source_text`); the message then speaks in
the words of the spec (the key whose value is missing, the statement that
is unknown, the bracket that is still open), never in Lark's.

EXAMPLES::

    sage: from sage_attention.dsl.parser import parse_spec
    sage: parse_spec("model m {\n  input = 3 tokens = 2\n}", filename="a.att")
    Traceback (most recent call last):
    ...
    MissingSeparator: a.att:2:13: Missing separator: `tokens` must start a new statement
        input = 3 tokens = 2
                  ^
    expected: a newline or `;`, or `}`
    fix: put a newline or `;` before `tokens`
    sage: parse_spec("model m {\n  field = GF(7)\n  normalisation = softmax\n}", filename="bad.att")
    Traceback (most recent call last):
    ...
    UnknownKeyword: bad.att:3:3: Unknown keyword: `normalisation` (did you mean `normalization`?)
        normalisation = softmax
        ^
    expected: `coordinates`, `entries`, `field`, `input`, `layer`, `linear_output`, `tokens`, `weights`, or `}`
    fix: `normalization = ...` is an argument of `layer attention(...)`: remove `normalisation = ...` here
"""
import re

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF

from sage_attention.dsl import errors as E
from sage_attention.catalog.computations import COMPUTATIONS
from sage_attention.misc.text import did_you_mean
from sage_attention.dsl.grammar import expected_text, grammar_keywords, literals, spec_parser
from sage_attention.dsl.source_text import (CLOSE, OPEN, character_hint, decimal_value,
                                            glued_number, is_word_char, key_before, keys_given,
                                            matching_close, offset, open_brackets, statement_word,
                                            strip_comments, token_text, value_example, word_before)


#: What each key's value should look like, for the "fix:" line.
VALUE_HINTS = {
    "input": "a positive integer, e.g. `input = 3`",
    "tokens": "a positive integer, e.g. `tokens = 2`",
    "rank": "a positive integer, e.g. `rank = 2`",
    "out": "a positive integer, e.g. `out = 1`",
    "field": "`QQ` or `GF(p)` with p prime, e.g. `field = GF(32003)`",
    "GF": "a prime, e.g. `GF(32003)`",
    "weights": "`Q K V` or `A V`, e.g. `weights = A V`",
    "coordinates": "`raw` or `scaled`, e.g. `coordinates = scaled`",
    "normalization": "`lightning` or `softmax`, e.g. `normalization = softmax`",
    "entries": "pairs `(row, token)` or `all`, e.g. `entries = (1, 1), (2, 1)`",
    "degree": "a non-negative integer, e.g. `up to degree 4`",
    "point": "a list of numbers in brackets, e.g. `certify point [1, -1/2, 0]`",
    "check": "what to check, e.g. `check invariants`",
    "seed": "a non-negative integer, e.g. `seed = 1`",
    "bias": "`true` or `false`, e.g. `bias = true`",
    "residual": "`true` or `false`, e.g. `residual = true`",
    "linear_output": "`true` or `false`, e.g. `linear_output = false`",
    "heads": "a positive integer, e.g. `heads = 2`",
    "activation": "`linear` or `power(r)`, e.g. `activation = power(2)`",
}


class _Position:
    """Compare parser states by their LR state only, not their stack depth,
    so an error in the second statement matches an example in the first."""

    def __init__(self, state):
        self.position = getattr(state, "position", state)

    def __eq__(self, other):
        return self.position == getattr(other, "position", other)

    __hash__ = None


#: The constructors' (Python) names of the spec's arguments: ``word -> (place, spec keyword, fix)``;
#: ``place`` is the keyword the parser expects there (``input`` in a model, ``rank`` in an
#: attention layer, ``activation`` in a dense layer); ``{v}`` in the fix is the value written
PYTHON_WORDS = {
    ("d", "input"): ("input", "write `input = {v}`"),
    ("t", "input"): ("tokens", "write `tokens = {v}`"),
    ("base_ring", "input"): ("field", "write `field = {v}`"),
    ("weight_space", "input"): ("weights", "write `weights = A V` (or `Q K V`)"),
    ("coordinate_scaling", "input"): ("coordinates", "write `coordinates = {v}`"),
    ("widths", "input"): ("input", "write `input = ` the first width, then one "
                                   "`layer dense(out = w)` or `layer attention(rank = a, out = w)` per further width"),
    ("activation_degree", "input"): ("activation", "remove `activation_degree = {v}`; write "
                                                   "`activation = power({v})` in each hidden `layer dense(...)`"),
    ("a", "rank"): ("rank", "write `rank = {v}`"),
    ("causal", "rank"): ("mask", "write `mask = causal`"),
    ("r", "activation"): ("activation", "write `activation = power({v})`"),
    ("activation_degree", "activation"): ("activation", "write `activation = power({v})`"),
}


def block_keys(before):
    r"""
    Return the keys given so far in the innermost open ``{...}`` block of ``before`` (a model's items).

    EXAMPLES::

        sage: from sage_attention.dsl.diagnosis import block_keys
        sage: sorted(block_keys("model m {\n  input = 3; tokens = 2\n  "))
        ['input', 'tokens']
    """
    depth = 0
    for i in range(len(before) - 1, -1, -1):
        if before[i] == "}":
            depth += 1
        elif before[i] == "{":
            if depth == 0:
                return set(re.findall(r"(?:^|[;{\n])\s*([A-Za-z_]\w*)\s*=",
                                      strip_comments(before[i + 1:]), re.M))
            depth -= 1
    return set()


def block_keys_after(after):
    r"""
    Return the keys given in the rest of the innermost open ``{...}`` block, ``after`` being the
    text from a position inside it (a model's items written later).

    EXAMPLES::

        sage: from sage_attention.dsl.diagnosis import block_keys_after
        sage: sorted(block_keys_after("d = 3\n  input = 3; tokens = 2\n  layer dense(out = 1)\n}\nmodel n { t = 1 }"))
        ['d', 'input', 'tokens']
    """
    depth, kept = 0, []
    for ch in strip_comments(after):
        if ch in "{([":
            depth += 1
        elif ch in "})]":
            if depth == 0:
                break
            depth -= 1
        # the text of the block itself: what is nested in it is blanked
        kept.append(ch if depth == 0 and ch not in "})]" else " ")
    return set(re.findall(r"(?:^|[;,\n])\s*([A-Za-z_]\w*)\s*=", "".join(kept), re.M))


def python_word(word, keywords, after, given=()):
    r"""
    Return ``(message, fix)`` for ``word``, the Python name of a spec argument written in a spec, or ``None``.

    INPUT:

    - ``word`` -- the unknown keyword
    - ``keywords`` -- the keywords the parser accepts there
    - ``after`` -- the text after the word (its value is read from it)
    - ``given`` -- (default: none) the keywords already given in the block

    EXAMPLES::

        sage: from sage_attention.dsl.diagnosis import python_word
        sage: python_word("d", ["input", "tokens"], " = 3; tokens = 2")
        ('`d` (the Python name; the spec writes `input`)', 'write `input = 3`')
        sage: python_word("r", ["activation", "out"], " = 2)")
        ('`r` (the Python name; the spec writes `activation`)', 'write `activation = power(2)`')
        sage: python_word("causal", ["rank", "mask"], " = false)")
        ('`causal` (the Python name; the spec writes `mask`)', 'remove `causal = false`: no mask is the default')
        sage: python_word("zz", ["input"], "") is None
        True
        sage: python_word("d", ["input", "tokens"], " = 3", given={"input"})[1]
        '`input` is already given: remove `d = 3`'

    """
    for place in ("input", "rank", "activation"):
        if place in keywords and (word, place) in PYTHON_WORDS:
            spec, fix = PYTHON_WORDS[word, place]
            m = re.match(r"\s*=\s*([^;,)}\n]+)", after)
            value = m.group(1).strip() if m else "..."
            if word == "causal" and value.lower() == "false":
                fix = "remove `causal = false`: no mask is the default"
            elif spec in given and word != "widths":
                fix = f"`{spec}` is already given: remove `{word} = {value}`"
            return f"`{word}` (the Python name; the spec writes `{spec}`)", fix.format(v=value)
    return None


def _last_layer_fix(fix, word, text, pos):
    r"""
    Return ``fix``, or, where it writes an activation in the last dense layer of a model whose
    output is linear (no ``linear_output = false``), the removal of ``word`` instead.

    EXAMPLES::

        sage: from sage_attention.dsl.diagnosis import _last_layer_fix
        sage: text = "model m { input = 2; layer dense(out = 2, r = 2); layer dense(out = 1, r = 2) }"
        sage: _last_layer_fix("write `activation = power(2)`", "r", text, text.index("r = 2)"))
        'write `activation = power(2)`'
        sage: _last_layer_fix("write `activation = power(2)`", "r", text, text.rindex("r = 2)"))
        'remove `r = ...` (the last layer of a network is linear; `linear_output = false` in the model allows a power)'
    """
    if "`activation = power(" not in fix:
        return fix
    rest = text[pos:]
    depth, end = 0, len(rest)
    for i, ch in enumerate(rest):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            end = i
            break
    start = text.rfind("model", 0, pos)
    block = strip_comments(text[max(start, 0):pos + end])
    if re.search(r"\blayer\b", strip_comments(rest[:end])) or \
            re.search(r"\blinear_output\s*=\s*false\b", block):
        return fix
    return (f"remove `{word} = ...` (the last layer of a network is linear; "
            "`linear_output = false` in the model allows a power)")


def _keyword_hint(word, suggestion, keywords):
    close = suggestion[len(" (did you mean `"):-len("`?)")] if suggestion else None
    for w in (word, close):
        if w in ("rank", "out", "normalization") and w not in keywords:
            return f"`{w} = ...` is an argument of `layer attention(...)`: remove `{word} = ...` here"
    if close and close not in keywords:
        # a keyword of another place (`activation` in an attention layer): not written here
        return f"`{close} = ...` is not written here: remove `{word} = ...`"
    if close:
        return f"write `{close}`"
    if keywords:
        # no keyword is close: the word goes (a keyword written with its value may not fit)
        return (f"remove `{word} = ...` (the keywords here are " +
                ", ".join(f"`{k}`" for k in sorted(keywords)) + ")")
    return ""


def _classify(e):
    """The label class of an :class:`UnexpectedToken`."""
    parser = spec_parser()
    state = e.state
    e.state = _Position(state)
    try:
        examples = [(label, E.EXAMPLES[label]) for label in E.MATCHED_LABELS]
        label = e.match_examples(parser.parse, examples, token_type_match_fallback=True,
                                 use_accepts=True)
    finally:
        e.state = state
    return label


def _precheck(e, text, before):
    """Labels that are clear without the examples."""
    token, expected = e.token, set(e.expected or ())
    after_equals = re.search(r"(=|GF\s*\()\s*$", strip_comments(before))
    if token.type in ("RBRACE", "RPAR", "RSQB"):
        stack, bad = open_brackets(text[:offset(text, token.line, token.column) + 1])
        if bad is not None and CLOSE[bad[0]] not in [s[0] for s in stack]:
            return E.UnbalancedBracket
    if token.type in ("MODEL", "COMPUTE") and open_brackets(before)[0]:
        return E.UnbalancedBracket
    if (re.match(r"^[A-Za-z_]\w*$", token.value) and token.type not in expected
            and "NAME" not in expected and not after_equals
            and token.type not in ("MODEL", "COMPUTE")
            and any(re.match(r"^[A-Za-z_]\w*$", k) for k in literals(expected))):
        if token.value in grammar_keywords() and not (
                token.value in ("rank", "out", "normalization") and "LAYER" in expected):
            return E.MissingKeyword
        return E.UnknownKeyword
    return None


def _heuristic(e, before):
    """A label when no example matches."""
    token, expected = e.token, set(e.expected or ())
    if token.type in ("MODEL", "COMPUTE") and open_brackets(before)[0]:
        return E.UnbalancedBracket
    if re.search(r"=\s*$", strip_comments(before)) or "GF" in before[-4:]:
        if token.type in ("_SEP", "RBRACE", "RPAR", "COMMA", "RSQB"):
            return E.MissingValue
        return E.InvalidValue
    if token.type in ("RBRACE", "RPAR", "RSQB"):
        return E.UnbalancedBracket
    if "EQUAL" in expected:
        return E.MissingEquals
    if "_SEP" in expected or "COMMA" in expected:
        return E.MissingSeparator
    if token.type == "NAME":
        return E.UnknownKeyword
    return E.DSLSyntaxError


def syntax_error(e, text, filename=None):
    r"""
    Return the labelled :class:`~sage_attention.dsl.errors.DSLSyntaxError`
    for the Lark exception ``e`` raised while parsing ``text``.

    INPUT:

    - ``e`` -- a Lark ``UnexpectedInput``
    - ``text`` -- the source
    - ``filename`` -- (default: ``None``)

    EXAMPLES::

        sage: from sage_attention.dsl.diagnosis import syntax_error
        sage: from sage_attention.dsl.grammar import spec_parser
        sage: try:
        ....:     spec_parser().parse("model m { input = }")
        ....: except Exception as e:
        ....:     err = syntax_error(e, "model m { input = }", "x.att")
        sage: type(err).__name__, err.line, err.column
        ('MissingValue', 1, 19)
        sage: print(err)
        x.att:1:19: Missing value: `input =` needs a value
            model m { input = }
                              ^
        expected: a number
        fix: write a positive integer, e.g. `input = 3`
    """
    lines = text.split("\n")

    def make(cls, what, line, column, expected="", hint=""):
        source_line = lines[line - 1] if 1 <= line <= len(lines) else ""
        return cls(what, line, column, filename, source_line, expected, hint, orig=e)

    if "\r" in text and "\n" not in text:
        # old Mac line endings: the lexer sees the whole file as one line
        column = text.index("\r") + 1
        return make(E.DSLSyntaxError, "the file's lines end with `\\r` alone (old Mac line "
                    "endings), so the spec reads as one line", 1, column, "",
                    "convert the line endings to `\\n` (Unix) or `\\r\\n` (Windows), "
                    "e.g. with `mac2unix FILE` or your editor's line-ending setting")

    if isinstance(e, UnexpectedCharacters):
        # the lexer reads no number glued to letters, digits or `.` (`0x10`, `3a`,
        # `1e5`, `2.5.1`): report the whole word where it starts
        glued = glued_number(text, e.pos_in_stream)
        if glued is not None:
            word = glued.group()
            stack = open_brackets(text[:glued.start()])[0]
            key = "point" if stack and stack[-1][0] == "[" else key_before(text[:glued.start()])
            value = decimal_value(word)
            if value is not None:
                fix = f"write {value_example(key, value)}"
            else:
                fix = "write " + VALUE_HINTS.get(key, "an integer in decimal digits, e.g. `16`")
            return make(E.InvalidValue, f"`{word}` is not a number the DSL reads: numbers are "
                        "written in decimal digits, as `16`, `-1/2` or `0.25` (no `0x`, "
                        "exponent or `_`)",
                        e.line, e.column, "a number", fix)

    if isinstance(e, UnexpectedCharacters):
        char = text[e.pos_in_stream] if e.pos_in_stream < len(text) else ""
        hint = E.UnexpectedCharacter.default_hint
        special = character_hint(char, text, e.pos_in_stream) if char else None
        if special is not None:
            return make(E.UnexpectedCharacter, special[0], e.line, e.column,
                        expected_text(e.allowed), special[1])
        if char in "\"'":
            hint = "write numbers and names without quotes"
        shown = "".join(E._visible(ch) for ch in char)
        if char == "\x00":
            hint = "the file contains a NUL byte: is it a binary file? give a text spec file"
        return make(E.UnexpectedCharacter, f"`{shown}`", e.line, e.column,
                    expected_text(e.allowed), hint)

    is_end = isinstance(e, UnexpectedEOF) or getattr(e.token, "type", None) == "$END"
    if is_end:
        # point just after the last non-blank character
        body = strip_comments(text).rstrip()
        line = body.count("\n") + 1
        column = len(body.split("\n")[-1]) + 1
        stack, _ = open_brackets(text)
        expected = expected_text(e.expected)
        if stack:
            ch, l, c = stack[-1]
            return make(E.UnbalancedBracket,
                        f"the file ends while `{ch}` opened at {l}:{c} is still open",
                        line, column, expected, f"add the missing `{OPEN[ch]}`")
        return make(E.UnexpectedEnd, "the file ends in the middle of a statement",
                    line, column, expected)

    token = e.token
    line, column = token.line, token.column
    pos = offset(text, line, column)
    before = text[:pos]
    expected = expected_text(e.expected)
    shown = token_text(token)
    start = pos
    while start > 0 and token.value[:1].isalpha() and is_word_char(text[start - 1]):
        start -= 1
    if start < pos:
        # the lexer split a word, e.g. `outt` into `out` `t`: report the word
        end = pos
        while end < len(text) and is_word_char(text[end]):
            end += 1
        word, column = text[start:end], column - (pos - start)
        if re.search(r"(=|GF\s*\()\s*$", strip_comments(text[:start])):
            key = key_before(text[:start])
            return make(E.InvalidValue, f"`{word}` is not a valid value for `{key}`",
                        line, column, "", "write " + VALUE_HINTS.get(key, "a value"))
        given = keys_given(text[:start])
        python = python_word(word, literals(e.expected), text[start + len(word):],
                             given | block_keys(text[:start]))
        if python is not None:
            return make(E.UnknownKeyword, python[0], line, column, expected, python[1])
        suggestion = did_you_mean(word, [k for k in grammar_keywords() if k not in given]) or \
            did_you_mean(word, grammar_keywords())
        close = suggestion[len(" (did you mean `"):-len("`?)")] if suggestion else None
        if close in given:
            return make(E.UnknownKeyword, f"`{word}` (`{close}` is already given)", line, column,
                        "a keyword", f"remove `{word} = ...`")
        return make(E.UnknownKeyword, f"`{word}`{suggestion}", line, column,
                    "a keyword", _keyword_hint(word, suggestion, []))
    body = strip_comments(before).rstrip()
    stack = open_brackets(before)[0]
    if (token.type in ("RBRACE", "RPAR", "RSQB") and body.endswith(",")
            and stack and stack[-1][0] == CLOSE.get(token.value)):
        # a trailing comma: the bracket is balanced, the comma is what is wrong
        comma_line, comma_column = body.count("\n") + 1, len(body.split("\n")[-1])
        return make(E.DSLSyntaxError, f"`,` before {shown} with nothing after it", comma_line,
                    comma_column, f"{shown} right after the last value",
                    f"remove the `,` at {comma_line}:{comma_column}")
    if stack and stack[-1][0] == "[":
        # in a list of numbers (a point)
        accepts = set(e.expected or ())
        if "NUMBER" in accepts and re.search(r"[\[,]$", body) and token.type == "COMMA":
            return make(E.MissingValue, "`,` where a number is needed", line, column, "a number",
                        "write a number between the commas, or remove one `,`")
        _, bline, bcolumn = stack[-1]
        if key_before(text[:offset(text, bline, bcolumn)]) == "families":
            # `invariants families = [pencil]`: the families are listed after the statement
            close = text.find("]", pos)
            names = re.findall(r"[A-Za-z_]\w*(?:\([^()]*\))?",
                               text[pos:close if close >= 0 else pos + len(token.value)])
            return make(E.InvalidValue, "`families = [...]` is not written: the families of "
                        "`invariants` are listed after the statement, separated by `,`",
                        line, column, "a number",
                        f"write `invariants {', '.join(names) or 'pencil'}`")
        if "NUMBER" in accepts and re.search(r"[\[,]$", body) and token.type not in ("RSQB", "RBRACE",
                                                                                     "RPAR", "$END"):
            return make(E.InvalidValue, f"{shown} is not a number", line, column, "a number",
                        "write " + VALUE_HINTS["point"])
    accepts = set(e.expected or ())
    if token.type == "RPAR" and "NUMBER" in accepts:
        m = re.search(r"\bactivation\s*=\s*([A-Za-z_]\w*)\s*\($", body)
        if m:
            # `power()`: the bracket is balanced, the degree is missing
            return make(E.MissingValue, f"`{m.group(1)}()` needs its degree", line, column,
                        expected, f"write the degree, e.g. `activation = {m.group(1)}(2)`")
    if "_SEP" in accepts and "COMMA" not in accepts and (not stack or stack[-1][0] == "{"):
        if token.type == "COMMA":
            rest = strip_comments(text[pos + 1:])
            if re.match(r"[ \t\f\r]*([\n;}]|$)", rest):
                return make(E.MissingSeparator, "`,` at the end of a statement", line, column,
                            expected, "remove the `,`")
            return make(E.MissingSeparator, "`,` between statements: statements are "
                        "separated by a newline or `;`", line, column, expected,
                        "replace the `,` by `;` or a newline")
        word = word_before(before)
        if (token.type == "LPAR" and word is not None and re.search(r"\w$", body)
                and re.search(r"\bcompute\s+\w+\s*\{[^{}]*$", body)):
            # `dimension(seed = 0)`: options are written without parentheses
            close = matching_close(text, pos)
            inside = text[pos + 1:close].strip() if close is not None else ""
            options = " ".join(o.strip() for o in inside.split(",") if o.strip())
            example = f"`{word} {options}`" if options else f"`{word} seed = 0`"
            return make(E.DSLSyntaxError, f"`(` after `{word}`: options of a computation "
                        "are written without parentheses", line, column, expected,
                        f"write {example}, without parentheses")
    statement = statement_word(before) if (not stack or stack[-1][0] == "{") else None
    if statement is not None and statement[0] not in COMPUTATIONS:
        # `invariant pencil`, `vanishing_ideals up to degree 2`: the statement is unknown,
        # whatever follows it (a word after it would read as an option without `=`)
        word, (wline, wcolumn) = statement[0], statement[1]
        suggestion = did_you_mean(word, COMPUTATIONS)
        close = suggestion[len(" (did you mean `"):-len("`?)")] if suggestion else None
        return make(E.UnknownKeyword, f"unknown computation `{word}`{suggestion}", wline, wcolumn,
                    "a computation", f"write `{close}`" if close else
                    "use one of: " + ", ".join(f"`{c}`" for c in sorted(COMPUTATIONS)))
    if statement is not None and statement[0] == "vanishing_ideal" and \
            word_before(before) in ("upto", "up_to", "up_to_degree", "degree", "deg", "to") and \
            not re.search(r"\bup\s+to(\s+degree)?$", body):
        # `vanishing_ideal upto degree 3`: the degree is written `up to degree N`
        word = word_before(before)
        degree = re.match(r"[\sA-Za-z_=]*?([0-9]+)", text[pos:])
        wpos = len(strip_comments(before).rstrip()) - len(word)
        wline = before[:wpos].count("\n") + 1
        wcolumn = wpos - before.rfind("\n", 0, wpos)
        return make(E.UnknownKeyword, f"`{word}`: the degree of `vanishing_ideal` is written "
                    "`up to degree N`", wline, wcolumn, "`up to degree N`",
                    f"write `up to degree {degree.group(1) if degree else 4}`")
    # two numbers of a point without a comma: the shared message of a missing `,` below
    point_gap = bool(stack) and stack[-1][0] == "[" and "COMMA" in set(e.expected or ()) \
        and token.type == "NUMBER"
    label = E.MissingSeparator if point_gap else (_precheck(e, text, before) or _classify(e)
                                                  or _heuristic(e, before))
    if label is E.MissingEquals:
        word = word_before(before)
        if word in COMPUTATIONS:
            label = E.MissingSeparator
    if label is E.MissingValue:
        key = key_before(before)
        what = {"GF": "`GF(` needs a prime", "degree": "`up to degree` needs a number",
                "point": "`certify point` needs a list of numbers",
                "check": "`check` needs what to check"}.get(key, f"`{key} =` needs a value")
        return make(label, what, line, column, expected,
                    "write " + VALUE_HINTS.get(key, "a number, a name or a list `[...]`"))
    if label is E.InvalidValue:
        key = key_before(before)
        what = f"{shown} is not a valid value for `{key}`"
        what += did_you_mean(token.value, literals(e.expected))
        return make(label, what, line, column, expected,
                    "write " + VALUE_HINTS.get(key, "a number, a name or a list `[...]`"))
    if label is E.MissingEquals and is_word_char(text[pos:pos + 1]) and is_word_char(before[-1:] or " "):
        # `activation_degree`: a keyword glued to more of a word is an unknown word
        head = word_before(before)
        full = head + re.match(r"\w*", text[pos:]).group()
        wpos = pos - len(head)
        wline, wcolumn = text[:wpos].count("\n") + 1, wpos - text.rfind("\n", 0, wpos)
        layer = re.search(r"\blayer\s+(dense|attention)\s*\([^()]*$", before)
        place = ["activation"] if layer and layer.group(1) == "dense" else \
            ["rank"] if layer else ["input"]
        python = python_word(full, place, text[wpos + len(full):],
                             keys_given(text[:wpos]) | block_keys(text[:wpos]) | block_keys_after(text[wpos:]))
        what, hint = python if python else (f"`{full}`", f"remove `{full} = ...`")
        hint = _last_layer_fix(hint, full, text, wpos)
        lines_ = text.split("\n")
        return E.UnknownKeyword(what, wline, wcolumn, filename, lines_[wline - 1], expected, hint, orig=e)
    if label is E.MissingEquals:
        word = word_before(before)
        example = VALUE_HINTS.get(word, "")
        example = re.search(r"e\.g\. (`[^`]*`)", example)
        hint = f"write {example.group(1)}" if example else f"write `{word} = value`"
        if re.search(r"\binvariants\b[^\n;]*$", strip_comments(before)):
            hint += f"; or, if `{word}` is a family, separate families with `,`"
        return make(label, f"`{word}` must be followed by `=`", line, column, expected, hint)
    if label is E.UnknownKeyword and token.type != "NAME" and \
            not re.match(r"^[A-Za-z_]\w*$", token.value):
        label = E.MissingKeyword
    if label in (E.MissingKeyword, E.UnknownKeyword):
        # an argument of the other kind of layer
        accepts = set(e.expected or ())
        if token.value in ("rank", "normalization", "heads", "mask") and "ACTIVATION" in accepts:
            return make(E.UnknownKeyword, f"{shown} in a dense layer", line, column, expected,
                        f"`{token.value} = ...` is an argument of `layer attention(...)`: remove "
                        f"`{token.value} = ...` here (a dense layer takes `out`, `activation`, `bias` "
                        "and `residual`)")
        if token.value in ("activation", "bias") and "RANK" in accepts:
            return make(E.UnknownKeyword, f"{shown} in an attention layer", line, column,
                        expected, f"`{token.value} = ...` is an argument of `layer dense(...)`: "
                        f"remove `{token.value} = ...` here")
    if label is E.MissingKeyword:
        keywords = literals(e.expected)
        if set(e.expected or ()) == {"NAME"}:
            return make(label, f"{shown} where a name is needed", line, column, expected,
                        "write a name, e.g. `model slice {` or `compute slice {`")
        needed = expected if len(keywords) <= 3 else "a keyword"
        return make(label, f"{shown} where {needed} is needed", line, column, expected,
                    ("write " + " or ".join(f"`{k}`" for k in keywords[:3])) if keywords else "")
    if label is E.UnknownKeyword:
        keywords = [k for k in literals(e.expected) if re.match(r"^[A-Za-z_]\w*$", k)]
        given = keys_given(before)
        python = python_word(token.value, keywords, text[pos + len(token.value):],
                             given | block_keys(before) | block_keys_after(text[pos:]))
        if python is not None:
            return make(label, python[0], line, column, expected,
                        _last_layer_fix(python[1], token.value, text, pos))
        fresh = [k for k in keywords if k not in given]
        suggestion = did_you_mean(token.value, fresh) or did_you_mean(token.value, grammar_keywords())
        close = suggestion[len(" (did you mean `"):-len("`?)")] if suggestion else None
        if close in given | (block_keys_after(text[pos:]) - {token.value}):
            # the argument it resembles is already there: the fix is to remove this one
            return make(label, f"{shown} (`{close}` is already given)", line, column, expected,
                        f"remove `{token.value} = ...`")
        if set(fresh) == {"attention", "dense"}:
            # the kind of a layer: the one whose arguments follow
            args = set(re.findall(r"(\w+)\s*=", text[pos:].split(")")[0]))
            kind = "dense" if args & {"activation", "bias"} else \
                "attention" if args & {"rank", "normalization", "heads", "mask"} else None
            if kind is not None:
                suggestion = f" (did you mean `{kind}`?)"
        return make(label, f"{shown}{suggestion}", line, column, expected,
                    _keyword_hint(token.value, suggestion, fresh))
    if label is E.MissingSeparator and token.type == "EQUAL" and statement is not None \
            and statement[0] in COMPUTATIONS and word_before(before) != statement[0]:
        # `check foo = 1`: a word the statement reads without `=` (what to check), given a value
        word = word_before(before)
        if statement[0] == "check":
            # `check` reads what to check, a word without `=`
            return make(E.UnknownKeyword, f"`{word} =`: `check` has no option `{word}`; it reads what "
                        "to check", statement[1][0], statement[1][1], expected,
                        "write `check invariants` or `check generation`")
        return make(E.UnknownKeyword, f"`{word} =`: `{statement[0]}` has no option `{word}`",
                    line, column, expected, f"remove `{word} = ...`")
    if label is E.MissingSeparator and shown == "the end of the line" and stack \
            and stack[-1][0] == "(":
        ch, l, c = stack[-1]
        return make(E.UnbalancedBracket, f"`{ch}` opened at {l}:{c} is not closed", line, column,
                    expected, f"add `{OPEN[ch]}` before the end of the line")
    if label is E.MissingSeparator:
        accepts = set(e.expected or ())
        if "COMMA" in accepts and ("_SEP" not in accepts
                                   or token.type in ("NUMBER", "LPAR", "LSQB")):
            return make(label, f"{shown} must be separated from what comes before by `,`",
                        line, column, expected, f"put `,` before {shown}")
        word = shown
        if word_before(before) in COMPUTATIONS and token.type in ("RBRACE", "_SEP"):
            word = f"`{word_before(before)}`"
            expected = "a newline or `;`, or `}`"
        return make(label, f"{word} must start a new statement", line, column, expected,
                    f"put a newline or `;` before {word}")
    if label is E.UnbalancedBracket:
        stack, bad = open_brackets(text[:pos + len(token.value)] if token.type in
                               ("RBRACE", "RPAR", "RSQB") else before)
        if bad is not None and CLOSE[bad[0]] not in [s[0] for s in stack]:
            return make(label, f"unmatched `{bad[0]}`", line, column, expected,
                        f"remove this `{bad[0]}` or add the `{CLOSE[bad[0]]}` it closes")
        if stack:
            ch, l, c = stack[-1]
            return make(label, f"`{ch}` opened at {l}:{c} is not closed", line, column,
                        expected, f"add `{OPEN[ch]}` before {shown}")
        return make(label, f"unexpected {shown}", line, column, expected)
    return make(E.DSLSyntaxError, f"unexpected {shown}", line, column, expected)


__all__ = ["syntax_error", "VALUE_HINTS"]
