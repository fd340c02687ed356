r"""
Parse spec files

:func:`parse_spec` turns the text of a spec file into a typed
:class:`~sage_attention.dsl.spec.Spec`. The grammar is ``attention.lark``,
shipped as package data (``sage_attention.grammar``); the LALR parser is
built once.

A malformed spec raises a labelled
:class:`~sage_attention.dsl.errors.DSLSyntaxError` with the location, the
source line, what was expected and a fix; Lark's own exceptions never reach
the user.

EXAMPLES::

    sage: from sage_attention.dsl.parser import parse_spec
    sage: spec = parse_spec('''
    ....: model deep {
    ....:   input = 3; tokens = 3
    ....:   layer attention(rank = 2, out = 3)
    ....:   layer attention(rank = 2, out = 3, normalization = softmax)
    ....: }
    ....: compute deep { dimension seed = 1 }
    ....: ''')
    sage: spec.models[0].widths, spec.models[0].normalizations
    ((3, 3, 3), ('lightning', 'softmax'))
    sage: spec.computations[0].options
    (('seed', 1),)

TESTS::

    sage: parse_spec("model m {\n  field = GF(7)\n  normalisation = softmax\n}", filename="bad.att")
    Traceback (most recent call last):
    ...
    UnknownKeyword: bad.att:3:3: Unknown keyword: `normalisation` (did you mean `normalization`?)
        normalisation = softmax
        ^
    expected: `coordinates`, `entries`, `field`, `input`, `layer`, `linear_output`, `tokens`, `weights`, or `}`
    fix: `normalization = ...` is an argument of `layer attention(...)`
"""
import functools
import re
import unicodedata
from importlib import resources
from pathlib import Path

from lark import Lark
from lark.exceptions import (UnexpectedCharacters, UnexpectedEOF,
                             UnexpectedInput, UnexpectedToken, VisitError)

from sage_attention.dsl import errors as E
from sage_attention.errors import SageAttentionError, SpecError
from sage_attention.dsl.spec import COMPUTATION_OPTIONS
from sage_attention.dsl.computations import COMPUTATIONS
from sage_attention.dsl.text import did_you_mean

from dataclasses import replace


def grammar_text():
    r"""
    Return the text of the grammar ``attention.lark``.

    In a source checkout it is read from ``grammar/`` next to the package,
    so the grammar always belongs to the code that parses with it (a
    checkout put on ``PYTHONPATH`` in an environment where another
    checkout is installed in editable mode would otherwise read the other
    checkout's grammar); installed, it is package data of
    ``sage_attention.grammar``.

    EXAMPLES::

        sage: from sage_attention.dsl.parser import grammar_text
        sage: grammar_text().splitlines()[0]
        '// The sage_attention model description language, version 1.'
    """
    root = Path(__file__).resolve().parents[2]
    path = root / "grammar" / "attention.lark"
    if (root / "setup.py").is_file() and path.is_file():      # a source checkout
        return path.read_text("utf-8")
    return (resources.files("sage_attention.grammar") / "attention.lark").read_text("utf-8")


@functools.cache
def spec_parser():
    r"""
    Return the LALR parser of the spec language (built once).

    EXAMPLES::

        sage: from sage_attention.dsl.parser import spec_parser
        sage: spec_parser() is spec_parser()
        True
        sage: print(spec_parser().parse("compute m { fibers }").pretty())
        start
          compute
            m
            fibers
    """
    # strict=False: strict mode needs the optional package interegular at
    # build time; it only turns terminal collisions and shift/reduce
    # conflicts into errors, and the grammar has none (tests/test_dsl.py::test_grammar_builds_strict
    # builds it with strict=True), so the parser is the same either way.
    return Lark(grammar_text(), parser="lalr", strict=False, cache=grammar_cache_file(),
                propagate_positions=True, maybe_placeholders=True)


def grammar_cache_file():
    r"""
    Return the file where Lark keeps the built parser tables, or ``False`` (no cache).

    The file lies in the user's cache directory (``$XDG_CACHE_HOME``, else
    ``~/.cache``), in a folder of this package's version, never in the shared
    temporary directory: a parser built by another installation can never be
    picked up. Lark stores a hash of the grammar and the options in the file
    and rebuilds the tables when they differ. Where the folder cannot be
    made, there is no cache (the tables are built in about 0.1 s).

    OUTPUT: a path (string) or ``False``

    EXAMPLES::

        sage: from sage_attention.dsl.parser import grammar_cache_file
        sage: f = grammar_cache_file()
        sage: f is False or ("sage_attention" in f and f.endswith(".lark-cache"))
        True
    """
    import os
    import sys
    import lark
    from sage_attention.version import __version__
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "sage_attention", __version__)
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return False
    if not os.access(folder, os.W_OK):
        return False
    return os.path.join(folder, "grammar-lark%s-py%d.%d.lark-cache" % (lark.__version__, *sys.version_info[:2]))


@functools.cache
def _transformer():
    from sage_attention.dsl.transformer import SpecTransformer
    return SpecTransformer()


def parse_spec(text, filename=None):
    r"""
    Parse the text of a spec file.

    INPUT:

    - ``text`` -- string; the spec
    - ``filename`` -- (default: ``None``) the name to show in messages

    OUTPUT: a :class:`~sage_attention.dsl.spec.Spec` (not yet validated; see
    :func:`~sage_attention.dsl.validation.validate`)

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: s = parse_spec("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }")
        sage: s.models[0]
        ModelSpec(name='m', field=Field(kind='QQ', p=None), input=2, tokens=2,
                  layers=(Layer(rank=1, out=1, normalization=<Normalization.LIGHTNING: 'lightning'>,
                            heads=1, mask='none', residual=False),),
                  weights='QKV', coordinates='raw', entries=None, linear_output=True)
        sage: parse_spec(s.to_dsl()) == s
        True

    TESTS::

        sage: parse_spec("model m { input = 1/0 }")
        Traceback (most recent call last):
        ...
        SpecError: <spec>:1:19: the number 1/0 divides by zero
            model m { input = 1/0 }
                              ^
        fix: write a nonzero denominator, e.g. `1/2`
        sage: parse_spec("")
        Spec(models=(), computations=())
    """
    if not isinstance(text, str):
        raise TypeError(f"text (={text!r:.40}) must be a string")
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte order mark is not part of the spec
    try:
        tree = spec_parser().parse(text)
    except UnexpectedInput as e:
        raise syntax_error(e, text, filename) from None
    try:
        spec = _transformer().transform(tree)
    except VisitError as e:
        orig = e.orig_exc
        if isinstance(orig, SpecError):
            raise E.SpecError(orig.message, orig.span, filename, text, fix=orig.fix) from None
        raise
    return replace(spec, filename=filename, source=text)


#: The default size limit of a spec file (bytes).
MAX_SPEC_BYTES = 1 << 20


def _decode(data, filename):
    """Decode UTF-8, reporting a bad byte with its line, column and caret."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        good = data[:e.start].decode("utf-8")
        line = good.count("\n") + 1
        line_start = data.rfind(b"\n", 0, e.start) + 1
        line_end = data.find(b"\n", e.start)
        raw = data[line_start:len(data) if line_end < 0 else line_end]
        shown = raw.decode("utf-8", errors="backslashreplace")
        column = len(data[line_start:e.start].decode("utf-8")) + 1
        bad = data[e.start:e.end].hex(" ")
        raise E.SpecError(f"invalid UTF-8 (byte {bad}): spec files are UTF-8 text; "
                          "re-save the file as UTF-8",
                          _Span(line, column), filename, "\n" * (line - 1) + shown) from None


class _Span:
    def __init__(self, line, column):
        self.line, self.column = line, column


def parse_spec_file(path, max_bytes=MAX_SPEC_BYTES):
    r"""
    Parse the spec file at ``path``.

    INPUT:

    - ``path`` -- string or path; a regular file of UTF-8 text (a byte
      order mark is accepted)
    - ``max_bytes`` -- (default: 1 MB) larger files are refused before
      they are read; ``None`` for no limit

    OUTPUT: a :class:`~sage_attention.dsl.spec.Spec`

    EXAMPLES::

        sage: import os, tempfile
        sage: from sage_attention.dsl import parse_spec_file
        sage: d = tempfile.mkdtemp(); f = os.path.join(d, "a.att")
        sage: _ = open(f, "w").write("model m { input = 2; tokens = 1; layer attention(rank = 1, out = 1) }")
        sage: parse_spec_file(f).models[0].name
        'm'

    TESTS::

        sage: parse_spec_file(os.path.join(d, "missing.att"))
        Traceback (most recent call last):
        ...
        SpecError: cannot read spec file .../missing.att: No such file or directory; check the path
        sage: parse_spec_file(d)
        Traceback (most recent call last):
        ...
        SpecError: cannot read spec file ...: it is a directory; give the path of a spec file
        sage: parse_spec_file("/dev/zero")
        Traceback (most recent call last):
        ...
        SpecError: cannot read spec file /dev/zero: it is a character device, not a regular file; ...
        sage: parse_spec_file(f, max_bytes=10)
        Traceback (most recent call last):
        ...
        SpecError: cannot read spec file ...: it has 69 bytes, more than the limit of 10 bytes; ...
        sage: _ = open(f, "wb").write(b"model m {\n  input = \xff }")
        sage: parse_spec_file(f)
        Traceback (most recent call last):
        ...
        SpecError: .../a.att:2:11: invalid UTF-8 (byte ff): spec files are UTF-8 text; re-save the file as UTF-8
              input = \xff }
                      ^
    """
    import os
    import stat
    path = Path(path)
    try:
        info = os.stat(path)
    except OSError as e:
        raise SpecError(f"cannot read spec file {path}: {e.strerror}; check the path") from None
    if stat.S_ISDIR(info.st_mode):
        raise SpecError(f"cannot read spec file {path}: it is a directory; "
                        "give the path of a spec file")
    if not stat.S_ISREG(info.st_mode):
        kind = ("a FIFO" if stat.S_ISFIFO(info.st_mode) else
                "a character device" if stat.S_ISCHR(info.st_mode) else
                "a block device" if stat.S_ISBLK(info.st_mode) else
                "a socket" if stat.S_ISSOCK(info.st_mode) else "a special file")
        raise SpecError(f"cannot read spec file {path}: it is {kind}, not a regular file; "
                        "save the spec to a file and give its path")
    if max_bytes is not None and info.st_size > max_bytes:
        raise SpecError(f"cannot read spec file {path}: it has {info.st_size} bytes, more than "
                        f"the limit of {_bytes_text(max_bytes)}; split the spec into smaller files")
    try:
        with open(path, "rb") as f:
            data = f.read() if max_bytes is None else f.read(max_bytes + 1)
    except OSError as e:
        raise SpecError(f"cannot read spec file {path}: {e.strerror}; check the path and "
                        "its permissions") from None
    if max_bytes is not None and len(data) > max_bytes:
        raise SpecError(f"cannot read spec file {path}: it has more than the limit of "
                        f"{_bytes_text(max_bytes)}; split the spec into smaller files")
    text = _decode(data, str(path))
    return parse_spec(text, filename=str(path))


def parse_spec_stream(stream, filename="<stdin>", max_bytes=MAX_SPEC_BYTES):
    r"""
    Parse the spec read from the binary file ``stream`` (standard input: ``sage-attention run -``).

    INPUT:

    - ``stream`` -- a binary file open for reading (e.g. ``sys.stdin.buffer``);
      UTF-8 text, a byte order mark is accepted
    - ``filename`` -- (default: ``'<stdin>'``) the name to show in messages
    - ``max_bytes`` -- (default: 1 MB) more is refused; ``None`` for no limit

    OUTPUT: a :class:`~sage_attention.dsl.spec.Spec`

    EXAMPLES::

        sage: import io
        sage: from sage_attention.dsl.parser import parse_spec_stream
        sage: s = b"model m { input = 2; tokens = 1; layer attention(rank = 1, out = 1) }"
        sage: parse_spec_stream(io.BytesIO(s)).models[0].name
        'm'
        sage: parse_spec_stream(io.BytesIO(s), max_bytes=10)
        Traceback (most recent call last):
        ...
        SpecError: cannot read spec file <stdin>: it has more than the limit of 10 bytes; split the spec into smaller files
        sage: parse_spec_stream(io.BytesIO(b"model m {\n  input = 3 tokens = 2\n}"))
        Traceback (most recent call last):
        ...
        MissingSeparator: <stdin>:2:13: Missing separator: `tokens` must start a new statement
        ...
    """
    try:
        data = stream.read() if max_bytes is None else stream.read(max_bytes + 1)
    except OSError as e:
        raise SpecError(f"cannot read spec file {filename}: {e.strerror}") from None
    if max_bytes is not None and len(data) > max_bytes:
        raise SpecError(f"cannot read spec file {filename}: it has more than the limit of "
                        f"{_bytes_text(max_bytes)}; split the spec into smaller files")
    return parse_spec(_decode(data, filename), filename=filename)


def _bytes_text(n):
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20} MB ({n} bytes)"
    return f"{n} bytes"


# ----------------------------------------------------------- error reporting

_CLOSE = {")": "(", "]": "[", "}": "{"}
_OPEN = {v: k for k, v in _CLOSE.items()}

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

_TERMINAL_WORDS = {"NAME": "a name", "NUMBER": "a number", "_SEP": "a newline or `;`",
                   "$END": "the end of the file"}


class _Position:
    """Compare parser states by their LR state only, not their stack depth,
    so an error in the second statement matches an example in the first."""

    def __init__(self, state):
        self.position = getattr(state, "position", state)

    def __eq__(self, other):
        return self.position == getattr(other, "position", other)

    __hash__ = None


def _terminal_text(name):
    if name in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[name]
    try:
        pattern = spec_parser().get_terminal(name).pattern
    except KeyError:
        return name
    if pattern.type == "str":
        return f"`{pattern.value}`"
    return name


def _expected_text(names):
    names = set(names or ()) - {"WS_INLINE", "COMMENT"}
    words = sorted({_terminal_text(n) for n in names}, key=lambda w: (w.startswith("`"), w))
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + ", or " + words[-1]


def _literals(names):
    out = []
    for name in names or ():
        text = _terminal_text(name)
        if text.startswith("`"):
            out.append(text.strip("`"))
    return out


def _strip_comments(text):
    return re.sub(r"(//|#)[^\n]*", lambda m: " " * len(m.group()), text)


def _brackets(text):
    """Return the stack of open brackets ``(char, line, col)`` at the end
    of ``text``, and the first unmatched closing bracket (or ``None``)."""
    stack, line, col = [], 1, 1
    for ch in _strip_comments(text):
        if ch in _OPEN:
            stack.append((ch, line, col))
        elif ch in _CLOSE:
            if stack and stack[-1][0] == _CLOSE[ch]:
                stack.pop()
            else:
                return stack, (ch, line, col)
        if ch == "\n":
            line, col = line + 1, 1
        else:
            col += 1
    return stack, None


def _offset(text, line, column):
    lines = text.split("\n")
    return sum(len(s) + 1 for s in lines[:line - 1]) + column - 1


def _key_before(before):
    """The key whose value starts at the end of ``before``."""
    before = _strip_comments(before).rstrip()
    for pattern, key in ((r"GF\s*\($", "GF"), (r"\bup\s+to\s+degree$", "degree"),
                         (r"\bcertify\s+point$", "point"), (r"\bcheck$", "check"),
                         (r"([A-Za-z_]\w*)\s*=$", None)):
        m = re.search(pattern, before)
        if m:
            return key or m.group(1)
    m = re.search(r"([A-Za-z_]\w*)\W*$", before)
    return m.group(1) if m else None


def _statement_word(before):
    r"""
    The first word of the statement of a ``compute`` block that ``before``
    ends in, with its ``(line, column)``, or ``None`` (not in a block, or no word).

    EXAMPLES::

        sage: from sage_attention.dsl.parser import _statement_word
        sage: _statement_word("model m { input = 1 }\ncompute m {\n  dimension\n  invariant pencil")
        ('invariant', (4, 3))
        sage: _statement_word("model m { input = 1") is None
        True
    """
    body = _strip_comments(before)
    m = re.search(r"\bcompute\s+\w+\s*\{([^{}]*)$", body)
    if m is None:
        return None
    segment = re.split(r"[;\n]", m.group(1))[-1]
    w = re.match(r"\s*([A-Za-z_]\w*)", segment)
    if w is None:
        return None
    pos = m.end(1) - len(segment) + w.start(1)
    return w.group(1), (body[:pos].count("\n") + 1, pos - body.rfind("\n", 0, pos))


def _word_before(before):
    m = re.search(r"([A-Za-z_]\w*)\s*$", _strip_comments(before))
    return m.group(1) if m else None


def _token_text(token):
    if token.type == "_SEP":
        return "`;`" if token.value.startswith(";") else "the end of the line"
    return f"`{token.value}`"


def _is_word_char(ch):
    return ch.isalnum() or ch == "_"


@functools.cache
def _keywords():
    """All keywords of the language."""
    return tuple(sorted(t.pattern.value for t in spec_parser().terminals
                        if t.pattern.type == "str" and re.match(r"^[A-Za-z_]\w*$", t.pattern.value)))


def _keys_given(before):
    """The keys given so far in the innermost open `(...)` of ``before`` (a layer's arguments)."""
    depth, start = 0, None
    for i in range(len(before) - 1, -1, -1):
        if before[i] == ")":
            depth += 1
        elif before[i] == "(":
            if depth == 0:
                start = i + 1
                break
            depth -= 1
    if start is None:
        return set()
    return set(re.findall(r"([A-Za-z_]\w*)\s*=", _strip_comments(before[start:])))


def _keyword_hint(word, suggestion, keywords):
    close = suggestion[len(" (did you mean `"):-len("`?)")] if suggestion else None
    for w in (word, close):
        if w in ("rank", "out", "normalization") and w not in keywords:
            return f"`{w} = ...` is an argument of `layer attention(...)`"
    if close:
        return f"write `{close}`"
    if keywords:
        return "use one of: " + ", ".join(f"`{k}`" for k in sorted(keywords))
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
    after_equals = re.search(r"(=|GF\s*\()\s*$", _strip_comments(before))
    if token.type in ("RBRACE", "RPAR", "RSQB"):
        stack, bad = _brackets(text[:_offset(text, token.line, token.column) + 1])
        if bad is not None and _CLOSE[bad[0]] not in [s[0] for s in stack]:
            return E.UnbalancedBracket
    if token.type in ("MODEL", "COMPUTE") and _brackets(before)[0]:
        return E.UnbalancedBracket
    if (re.match(r"^[A-Za-z_]\w*$", token.value) and token.type not in expected
            and "NAME" not in expected and not after_equals
            and token.type not in ("MODEL", "COMPUTE")
            and any(re.match(r"^[A-Za-z_]\w*$", k) for k in _literals(expected))):
        if token.value in _keywords() and not (
                token.value in ("rank", "out", "normalization") and "LAYER" in expected):
            return E.MissingKeyword
        return E.UnknownKeyword
    return None


def _heuristic(e, before):
    """A label when no example matches."""
    token, expected = e.token, set(e.expected or ())
    if token.type in ("MODEL", "COMPUTE") and _brackets(before)[0]:
        return E.UnbalancedBracket
    if re.search(r"=\s*$", _strip_comments(before)) or "GF" in before[-4:]:
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


#: A number with letters, digits, `_`, `.` or `/` glued to it, such as `0x10`, `1e3`,
#: `1e-3`, `1_000` or `2.5.1` (the grammar's ``NUMBER`` does not match before them).
_GLUED_NUMBER = re.compile(r"[+-]?[0-9](?:[eE][+-][0-9]|[A-Za-z0-9_.]|/[0-9])*")

#: A number the grammar reads (its terminal ``NUMBER`` without the look-ahead).
_NUMBER = re.compile(r"[+-]?[0-9]+(?:/[0-9]+|\.[0-9]+)?")


def _glued_number(text, pos):
    """The number glued to letters, digits or `.` that starts at ``pos``
    of ``text`` (where the lexer stopped), as a match, or ``None``.

    EXAMPLES::

        sage: from sage_attention.dsl.parser import _glued_number
        sage: [_glued_number(t, 7).group() for t in ("seed = 0x10 = 5", "seed = 2.5.1", "seed = 1e-5")]
        ['0x10', '2.5.1', '1e-5']
        sage: _glued_number("seed = 16 x", 7) is None
        True
    """
    m = _GLUED_NUMBER.match(text, pos)
    if m is None or _NUMBER.fullmatch(m.group()):
        return None
    return m


def _decimal(word):
    """The integer ``word`` means in other notations (``0x10``, ``1e3``,
    ``1_000``), or ``None``."""
    try:
        return int(word, 0)
    except ValueError:
        pass
    try:
        value = float(word)
    except ValueError:
        return None
    return int(value) if value.is_integer() and abs(value) < 1e18 else None


def _value_example(key, value):
    """How ``key`` is written with the value ``value``."""
    if key == "GF":
        return f"`GF({value})`"
    if key == "degree":
        return f"`up to degree {value}`"
    if key in (None, "point", "check"):
        return f"`{value}`"
    return f"`{key} = {value}`"


def _char_name(ch):
    return f"U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed character')}"


def _character_hint(ch, text, pos):
    """The message and fix for the unexpected character ``ch`` at ``pos``,
    or ``None`` for the generic one."""
    decimal = re.match(r"([+-]?)\.([0-9]+)", text[pos:])
    if ch in "+-." and decimal:
        # `.5`: a number starts with a digit
        return (f"`{decimal.group()}` is not a number the DSL reads: a number starts with a digit",
                f"write `{decimal.group(1)}0.{decimal.group(2)}`")
    if ch == ":":
        word = _word_before(text[:pos])
        value = re.match(r"\s*([^\s,;(){}\[\]]+)", text[pos + 1:])
        if word:
            example = f"`{word} = {value.group(1)}`" if value else f"`{word} = value`"
            return "`:`", f"write `=` instead of `:`, e.g. {example}"
        return "`:`", "write `=` instead of `:`; comments start with `//` or `#`"
    if ord(ch) < 128:
        return None
    name = _char_name(ch)
    if unicodedata.category(ch) == "Zs" or ch in "\u200b\u2060\ufeff":
        return (f"`\\u{ord(ch):04x}` ({name}), which looks like a space",
                "replace it by a plain space (it often comes from copying text)")
    ascii_form = unicodedata.normalize("NFKC", ch)
    if ascii_form.isascii() and ascii_form.strip():
        what = "ASCII digit" if ascii_form.isdigit() else "ASCII character"
        return (f"`{ch}` ({name}) is not an {what}",
                f"type the {what} `{ascii_form}` instead of `{ch}`")
    base = "".join(c for c in unicodedata.normalize("NFKD", ch) if c.isascii())
    if ch.isalpha():
        example = f" (e.g. `{base}`)" if base else ""
        return (f"`{ch}` ({name}) is not allowed: names use ASCII letters, digits and `_`",
                f"replace `{ch}` by an ASCII letter{example}")
    return (f"`{E._visible(ch)}` ({name}) is not allowed: spec files are ASCII outside comments",
            f"remove `{E._visible(ch)}` or replace it by its ASCII form")


def _matching_close(text, pos):
    """The index of the `)` closing the `(` at ``pos``, or ``None``."""
    depth = 0
    for i in range(pos, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
        elif text[i] in "\n;{}":
            return None
    return None


def syntax_error(e, text, filename=None):
    r"""
    Return the labelled :class:`~sage_attention.dsl.errors.DSLSyntaxError`
    for the Lark exception ``e`` raised while parsing ``text``.

    INPUT:

    - ``e`` -- a Lark ``UnexpectedInput``
    - ``text`` -- the source
    - ``filename`` -- (default: ``None``)

    EXAMPLES::

        sage: from sage_attention.dsl.parser import spec_parser, syntax_error
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
        glued = _glued_number(text, e.pos_in_stream)
        if glued is not None:
            word = glued.group()
            stack = _brackets(text[:glued.start()])[0]
            key = "point" if stack and stack[-1][0] == "[" else _key_before(text[:glued.start()])
            value = _decimal(word)
            if value is not None:
                fix = f"write {_value_example(key, value)}"
            else:
                fix = "write " + VALUE_HINTS.get(key, "an integer in decimal digits, e.g. `16`")
            return make(E.InvalidValue, f"`{word}` is not a number the DSL reads: numbers are "
                        "written in decimal digits, as `16`, `-1/2` or `0.25` (no `0x`, "
                        "exponent or `_`)",
                        e.line, e.column, "a number", fix)

    if isinstance(e, UnexpectedCharacters):
        char = text[e.pos_in_stream] if e.pos_in_stream < len(text) else ""
        hint = E.UnexpectedCharacter.default_hint
        special = _character_hint(char, text, e.pos_in_stream) if char else None
        if special is not None:
            return make(E.UnexpectedCharacter, special[0], e.line, e.column,
                        _expected_text(e.allowed), special[1])
        if char in "\"'":
            hint = "write numbers and names without quotes"
        shown = "".join(E._visible(ch) for ch in char)
        if char == "\x00":
            hint = "the file contains a NUL byte: is it a binary file? give a text spec file"
        return make(E.UnexpectedCharacter, f"`{shown}`", e.line, e.column,
                    _expected_text(e.allowed), hint)

    is_end = isinstance(e, UnexpectedEOF) or getattr(e.token, "type", None) == "$END"
    if is_end:
        # point just after the last non-blank character
        body = _strip_comments(text).rstrip()
        line = body.count("\n") + 1
        column = len(body.split("\n")[-1]) + 1
        stack, _ = _brackets(text)
        expected = _expected_text(e.expected)
        if stack:
            ch, l, c = stack[-1]
            return make(E.UnbalancedBracket,
                        f"the file ends while `{ch}` opened at {l}:{c} is still open",
                        line, column, expected, f"add the missing `{_OPEN[ch]}`")
        return make(E.UnexpectedEnd, "the file ends in the middle of a statement",
                    line, column, expected)

    token = e.token
    line, column = token.line, token.column
    pos = _offset(text, line, column)
    before = text[:pos]
    expected = _expected_text(e.expected)
    shown = _token_text(token)
    start = pos
    while start > 0 and token.value[:1].isalpha() and _is_word_char(text[start - 1]):
        start -= 1
    if start < pos:
        # the lexer split a word, e.g. `outt` into `out` `t`: report the word
        end = pos
        while end < len(text) and _is_word_char(text[end]):
            end += 1
        word, column = text[start:end], column - (pos - start)
        if re.search(r"(=|GF\s*\()\s*$", _strip_comments(text[:start])):
            key = _key_before(text[:start])
            return make(E.InvalidValue, f"`{word}` is not a valid value for `{key}`",
                        line, column, "", "write " + VALUE_HINTS.get(key, "a value"))
        given = _keys_given(text[:start])
        suggestion = did_you_mean(word, [k for k in _keywords() if k not in given]) or \
            did_you_mean(word, _keywords())
        close = suggestion[len(" (did you mean `"):-len("`?)")] if suggestion else None
        if close in given:
            return make(E.UnknownKeyword, f"`{word}` (`{close}` is already given)", line, column,
                        "a keyword", f"remove `{word} = ...`")
        return make(E.UnknownKeyword, f"`{word}`{suggestion}", line, column,
                    "a keyword", _keyword_hint(word, suggestion, []))
    body = _strip_comments(before).rstrip()
    stack = _brackets(before)[0]
    if (token.type in ("RBRACE", "RPAR", "RSQB") and body.endswith(",")
            and stack and stack[-1][0] == _CLOSE.get(token.value)):
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
        if _key_before(text[:_offset(text, bline, bcolumn)]) == "families":
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
            rest = _strip_comments(text[pos + 1:])
            if re.match(r"[ \t\f\r]*([\n;}]|$)", rest):
                return make(E.MissingSeparator, "`,` at the end of a statement", line, column,
                            expected, "remove the `,`")
            return make(E.MissingSeparator, "`,` between statements: statements are "
                        "separated by a newline or `;`", line, column, expected,
                        "replace the `,` by `;` or a newline")
        word = _word_before(before)
        if (token.type == "LPAR" and word is not None and re.search(r"\w$", body)
                and re.search(r"\bcompute\s+\w+\s*\{[^{}]*$", body)):
            # `dimension(seed = 0)`: options are written without parentheses
            close = _matching_close(text, pos)
            inside = text[pos + 1:close].strip() if close is not None else ""
            options = " ".join(o.strip() for o in inside.split(",") if o.strip())
            example = f"`{word} {options}`" if options else f"`{word} seed = 0`"
            return make(E.DSLSyntaxError, f"`(` after `{word}`: options of a computation "
                        "are written without parentheses", line, column, expected,
                        f"write {example}, without parentheses")
    statement = _statement_word(before) if (not stack or stack[-1][0] == "{") else None
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
            _word_before(before) in ("upto", "up_to", "up_to_degree", "degree", "deg", "to") and \
            not re.search(r"\bup\s+to(\s+degree)?$", body):
        # `vanishing_ideal upto degree 3`: the degree is written `up to degree N`
        word = _word_before(before)
        degree = re.match(r"[\sA-Za-z_=]*?([0-9]+)", text[pos:])
        wpos = len(_strip_comments(before).rstrip()) - len(word)
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
        word = _word_before(before)
        if word in COMPUTATION_OPTIONS:
            label = E.MissingSeparator
    if label is E.MissingValue:
        key = _key_before(before)
        what = {"GF": "`GF(` needs a prime", "degree": "`up to degree` needs a number",
                "point": "`certify point` needs a list of numbers",
                "check": "`check` needs what to check"}.get(key, f"`{key} =` needs a value")
        return make(label, what, line, column, expected,
                    "write " + VALUE_HINTS.get(key, "a number, a name or a list `[...]`"))
    if label is E.InvalidValue:
        key = _key_before(before)
        what = f"{shown} is not a valid value for `{key}`"
        what += did_you_mean(token.value, _literals(e.expected))
        return make(label, what, line, column, expected,
                    "write " + VALUE_HINTS.get(key, "a number, a name or a list `[...]`"))
    if label is E.MissingEquals:
        word = _word_before(before)
        example = VALUE_HINTS.get(word, "")
        example = re.search(r"e\.g\. (`[^`]*`)", example)
        hint = f"write {example.group(1)}" if example else f"write `{word} = value`"
        if re.search(r"\binvariants\b[^\n;]*$", _strip_comments(before)):
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
                        f"`{token.value} = ...` is an argument of `layer attention(...)`; a "
                        "dense layer takes `out`, `activation`, `bias` and `residual`")
        if token.value in ("activation", "bias") and "RANK" in accepts:
            return make(E.UnknownKeyword, f"{shown} in an attention layer", line, column,
                        expected, f"`{token.value} = ...` is an argument of `layer dense(...)`")
    if label is E.MissingKeyword:
        keywords = _literals(e.expected)
        if set(e.expected or ()) == {"NAME"}:
            return make(label, f"{shown} where a name is needed", line, column, expected,
                        "write a name, e.g. `model slice {` or `compute slice {`")
        needed = expected if len(keywords) <= 3 else "a keyword"
        return make(label, f"{shown} where {needed} is needed", line, column, expected,
                    ("write " + " or ".join(f"`{k}`" for k in keywords[:3])) if keywords else "")
    if label is E.UnknownKeyword:
        keywords = [k for k in _literals(e.expected) if re.match(r"^[A-Za-z_]\w*$", k)]
        given = _keys_given(before)
        fresh = [k for k in keywords if k not in given]
        suggestion = did_you_mean(token.value, fresh) or did_you_mean(token.value, _keywords())
        close = suggestion[len(" (did you mean `"):-len("`?)")] if suggestion else None
        if close in given:
            # the argument it resembles is already there: the fix is to remove this one
            return make(label, f"{shown} (`{close}` is already given)", line, column, expected,
                        f"remove `{token.value} = ...`")
        return make(label, f"{shown}{suggestion}", line, column, expected,
                    _keyword_hint(token.value, suggestion, fresh))
    if label is E.MissingSeparator:
        accepts = set(e.expected or ())
        if "COMMA" in accepts and ("_SEP" not in accepts
                                   or token.type in ("NUMBER", "LPAR", "LSQB")):
            return make(label, f"{shown} must be separated from what comes before by `,`",
                        line, column, expected, f"put `,` before {shown}")
        word = shown
        if _word_before(before) in COMPUTATION_OPTIONS and token.type in ("RBRACE", "_SEP"):
            word = f"`{_word_before(before)}`"
            expected = "a newline or `;`, or `}`"
        return make(label, f"{word} must start a new statement", line, column, expected,
                    f"put a newline or `;` before {word}")
    if label is E.UnbalancedBracket:
        stack, bad = _brackets(text[:pos + len(token.value)] if token.type in
                               ("RBRACE", "RPAR", "RSQB") else before)
        if bad is not None and _CLOSE[bad[0]] not in [s[0] for s in stack]:
            return make(label, f"unmatched `{bad[0]}`", line, column, expected,
                        f"remove this `{bad[0]}` or add the `{_CLOSE[bad[0]]}` it closes")
        if stack:
            ch, l, c = stack[-1]
            return make(label, f"`{ch}` opened at {l}:{c} is not closed", line, column,
                        expected, f"add `{_OPEN[ch]}` before {shown}")
        return make(label, f"unexpected {shown}", line, column, expected)
    return make(E.DSLSyntaxError, f"unexpected {shown}", line, column, expected)


__all__ = ["parse_spec", "parse_spec_file", "spec_parser", "grammar_text",
           "syntax_error", "SageAttentionError"]
