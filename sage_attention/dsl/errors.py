r"""
Syntax errors of the spec language

A malformed spec raises a :class:`DSLSyntaxError` (a ``SyntaxError`` and a
:class:`~sage_attention.misc.errors.SageAttentionError`). Its subclass names what
kind of mistake it is; the parser chooses it with Lark's
``match_examples``, comparing the parser state of the error with those of
the malformed snippets in :data:`EXAMPLES`.

Every message has the form::

    file:line:col: Label: what is wrong
        the source line
                    ^
    expected: what the parser expected there
    fix: how to repair it

EXAMPLES::

    sage: from sage_attention.dsl import parse_spec
    sage: parse_spec("model m {\n  input = 3 tokens = 2\n}", filename="spec.att")
    Traceback (most recent call last):
    ...
    MissingSeparator: spec.att:2:13: Missing separator: `tokens` must start a new statement
        input = 3 tokens = 2
                  ^
    expected: a newline or `;`, or `}`
    fix: put a newline or `;` before `tokens`
"""
from sage_attention.misc.errors import SageAttentionError
from sage_attention.misc.errors import SpecError as _BaseSpecError

#: At most this many characters of a source line are shown around the caret.
CONTEXT_WIDTH = 72


def _visible(ch):
    """The printable form of one character (control characters escaped)."""
    code = ord(ch)
    if ch == "\ufeff":
        return "\\ufeff"
    if code < 32 or code == 127 or 0x80 <= code < 0xA0 or 0xD800 <= code < 0xE000:
        return f"\\x{code:02x}" if code < 256 else f"\\u{code:04x}"
    return ch


def render_context(source_line, column, width=CONTEXT_WIDTH):
    r"""
    Return the source line as shown under a message, and the column of the
    caret in it.

    Tabs are expanded to the next multiple of 8 (so the caret stays under
    the character), control characters such as NUL are escaped (``\x00``),
    and a long line is cut to ``width`` characters around the column, with
    ``...`` where it is cut.

    INPUT:

    - ``source_line`` -- string; one line of the source
    - ``column`` -- integer; the 1-based column (characters) in it
    - ``width`` -- (default: `72`) how many characters to keep

    OUTPUT: a pair ``(text, caret_column)`` (1-based)

    EXAMPLES::

        sage: from sage_attention.dsl.errors import render_context
        sage: render_context("\tinput = x", 10)
        ('        input = x', 17)
        sage: render_context("a\x00b", 3)
        ('a\\x00b', 6)
        sage: text, col = render_context("[" * 100000, 50000)
        sage: len(text) < 100, text[:3], text[col - 1]
        (True, '...', '[')
    """
    pieces, caret, pos = [], None, 0
    for i, ch in enumerate(source_line):
        if i == column - 1:
            caret = pos + 1
        if ch == "\t":
            shown = " " * (8 - pos % 8)
        else:
            shown = _visible(ch)
        pieces.append(shown)
        pos += len(shown)
    if caret is None:
        caret = pos + max(1, column - len(source_line))
    text = "".join(pieces)
    if len(text) > width:
        start = max(0, min(caret - 1 - width // 2, len(text) - width))
        end = start + width
        cut = text[start:end]
        caret -= start
        if start > 0:
            cut, caret = "..." + cut[3:], caret
        if end < len(text):
            cut = cut[:-3] + "..."
        text = cut
    return text, caret


def context_lines(source_line, column):
    r"""
    Return the two lines (source and caret) shown under a message.

    EXAMPLES::

        sage: from sage_attention.dsl.errors import context_lines
        sage: print(context_lines("input = 0", 9))
            input = 0
                    ^
    """
    text, caret = render_context(source_line, column)
    return f"    {text}\n    {' ' * (caret - 1)}^"


class SpecError(_BaseSpecError):
    r"""
    A semantic error in a spec file, shown with its source line.

    It is a :class:`sage_attention.misc.errors.SpecError`; the source line is
    shown through :func:`render_context` (tabs, control characters and
    long lines are safe), and the fix, when the check knows one, on a last
    line ``fix: ...``, as for a :class:`DSLSyntaxError`.

    EXAMPLES::

        sage: from sage_attention.dsl.errors import SpecError
        sage: from sage_attention.dsl.spec import SourceSpan
        sage: print(SpecError("bad", SourceSpan(1, 3, 1, 4), "a.att", "\tx\x00y"))
        a.att:1:3: bad
                    x\x00y
                     ^
        sage: from sage_attention.dsl import parse_spec
        sage: parse_spec("model m {\n  input = 3; tokens = 2\n  layer attention(rank = 1, out = 1, residual = true)\n}").validate()
        Traceback (most recent call last):
        ...
        SpecError: <spec>:3:38: layer 1 of model `m` has `residual = true`, which adds its input to its output, so its output width `out` (=1) must equal its input width (=3)
              layer attention(rank = 1, out = 1, residual = true)
                                                 ^
        fix: write `out = 3` or drop `residual`
    """

    def __str__(self):
        fix = "" if self.fix is None else f"\nfix: {self.fix}"
        if self.span is None:
            return self.message + fix
        where = f"{self.filename or '<spec>'}:{self.span.line}:{self.span.column}"
        text = f"{where}: {self.message}"
        if self.source is not None:
            lines = self.source.split("\n")
            if 1 <= self.span.line <= len(lines):
                line = lines[self.span.line - 1].rstrip("\r")
                text += "\n" + context_lines(line, self.span.column)
        return text + fix


class DSLSyntaxError(SageAttentionError, SyntaxError):
    r"""
    A syntax error in a spec file.

    INPUT:

    - ``what`` -- string; what is wrong
    - ``line``, ``column`` -- integers; where (1-based)
    - ``filename`` -- (default: ``None``) the spec file's name
    - ``source_line`` -- (default: ``""``) the text of the line
    - ``expected`` -- (default: ``""``) what the parser expected
    - ``hint`` -- (default: ``""``) how to fix it
    - ``orig`` -- (default: ``None``) the Lark exception, for debugging

    EXAMPLES::

        sage: from sage_attention.dsl.errors import DSLSyntaxError, MissingValue
        sage: e = MissingValue("`input =` needs a value", 1, 18, "s.att", "model m { input = }",
        ....:                  "a number", "write a positive integer, e.g. `input = 3`")
        sage: print(e)
        s.att:1:18: Missing value: `input =` needs a value
            model m { input = }
                             ^
        expected: a number
        fix: write a positive integer, e.g. `input = 3`
        sage: isinstance(e, SyntaxError), e.label, (e.lineno, e.offset)
        (True, 'Missing value', (1, 18))
    """
    #: the label printed in the message
    label = "Syntax error"
    #: the fix suggested when the parser has nothing more specific
    default_hint = "compare with the examples in doc/dsl.rst"

    def __init__(self, what, line, column, filename=None, source_line="",
                 expected="", hint="", orig=None):
        self.what = what
        self.line = line
        self.column = column
        self.source_line = source_line
        self.expected = expected
        self.hint = hint or self.default_hint
        self.orig = orig
        where = f"{filename or '<spec>'}:{line}:{column}"
        text = f"{where}: {self.label}: {what}"
        if source_line:
            text += "\n" + context_lines(source_line.rstrip("\r"), column)
        if expected:
            text += f"\nexpected: {expected}"
        text += f"\nfix: {self.hint}"
        super().__init__(text)
        self.msg = text
        self.filename = filename
        self.lineno = line
        self.offset = column
        self.text = None

    def __str__(self):
        return self.msg


class MissingValue(DSLSyntaxError):
    r"""
    A ``key =`` with nothing after it.

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: parse_spec("model m { layer attention(rank = ) }")
        Traceback (most recent call last):
        ...
        MissingValue: <spec>:1:34: Missing value: `rank =` needs a value
        ...
    """
    label = "Missing value"
    default_hint = "write a value after `=`"


class InvalidValue(DSLSyntaxError):
    r"""
    A value of the wrong kind, such as ``input = three``.

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: parse_spec("model m { input = three }")
        Traceback (most recent call last):
        ...
        InvalidValue: <spec>:1:19: Invalid value: `three` is not a valid value for `input`
        ...
    """
    label = "Invalid value"
    default_hint = "write a value of the expected kind"


class MissingEquals(DSLSyntaxError):
    r"""
    A keyword not followed by ``=``.

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: parse_spec("model m { input 3 }")
        Traceback (most recent call last):
        ...
        MissingEquals: <spec>:1:17: Missing `=`: `input` must be followed by `=`
        ...
    """
    label = "Missing `=`"
    default_hint = "write `key = value`"


class MissingKeyword(DSLSyntaxError):
    r"""
    A keyword is needed and something else came.

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: parse_spec("model m { layer }")
        Traceback (most recent call last):
        ...
        MissingKeyword: <spec>:1:17: Missing keyword: `}` where `attention`, or `dense` is needed
        ...
    """
    label = "Missing keyword"
    default_hint = "write the keyword that is needed"


class UnknownKeyword(DSLSyntaxError):
    r"""
    A word that is not a keyword where a keyword is needed.

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: parse_spec("model m { tokns = 2 }")
        Traceback (most recent call last):
        ...
        UnknownKeyword: <spec>:1:11: Unknown keyword: `tokns` (did you mean `tokens`?)
        ...
    """
    label = "Unknown keyword"
    default_hint = "use one of the keywords listed above"


class MissingSeparator(DSLSyntaxError):
    r"""
    Two statements (or arguments) without a separator between them.

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: parse_spec("model m { } model n { }")
        Traceback (most recent call last):
        ...
        MissingSeparator: <spec>:1:13: Missing separator: `model` must start a new statement
        ...
    """
    label = "Missing separator"
    default_hint = "put a newline or `;` between statements"


class UnbalancedBracket(DSLSyntaxError):
    r"""
    A bracket that is not closed, or closed by the wrong bracket.

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: parse_spec("model m {\n  entries = (1, 1\n}")
        Traceback (most recent call last):
        ...
        UnbalancedBracket: <spec>:2:18: Unbalanced bracket: `(` opened at 2:13 is not closed
        ...
    """
    label = "Unbalanced bracket"
    default_hint = "close every bracket with its partner"


class UnexpectedEnd(DSLSyntaxError):
    r"""
    The file ends in the middle of a statement.

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: parse_spec("model m { layer attention(rank = 1, out = 1) }\ncompute m { check")
        Traceback (most recent call last):
        ...
        UnbalancedBracket: <spec>:2:18: Unbalanced bracket: the file ends while `{` opened at 2:11 is still open
        ...
        sage: parse_spec("model")
        Traceback (most recent call last):
        ...
        UnexpectedEnd: <spec>:1:6: Unexpected end of file: the file ends in the middle of a statement
        ...
    """
    label = "Unexpected end of file"
    default_hint = "complete the last statement"


class UnexpectedCharacter(DSLSyntaxError):
    r"""
    A character that cannot start any token.

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: parse_spec("model m { input = 3$ }")
        Traceback (most recent call last):
        ...
        UnexpectedCharacter: <spec>:1:20: Unexpected character: `$`
        ...
    """
    label = "Unexpected character"
    default_hint = "remove it; comments start with `//` or `#`"


#: Malformed snippets for each label, in the order ``match_examples`` tries
#: them. A test checks that every snippet is classified under its label.
EXAMPLES = {
    MissingValue: [
        "model m { input = }",
        "model m {\n  input =\n  tokens = 2\n}",
        "model m { tokens = }",
        "model m { field = }",
        "model m { weights = }",
        "model m { coordinates = }",
        "model m { entries = }",
        "model m { layer attention(rank = ) }",
        "model m { layer attention(rank = 1, out = ) }",
        "model m { layer attention(normalization = ) }",
        "compute m { dimension seed = }",
        "compute m { invariants veronese(r = ) }",
        "compute m { vanishing_ideal up to degree }",
        "compute m { certify point }",
        "compute m { check }",
        "model m { field = GF() }",
    ],
    InvalidValue: [
        "model m { input = three }",
        "model m { tokens = two }",
        "model m { layer attention(rank = two) }",
        "model m { layer attention(out = one) }",
        "model m { layer attention(normalization = relu) }",
        "model m { field = RR }",
        "model m { field = GF(p) }",
        "model m { weights = K V }",
        "model m { coordinates = scale }",
        "model m { entries = 1 }",
        "compute m { vanishing_ideal up to degree four }",
        "compute m { certify point [a, b] }",
        "compute m { certify point (1, 2) }",
    ],
    MissingEquals: [
        "model m { input 3 }",
        "model m { tokens 2 }",
        "model m { field QQ }",
        "model m { weights A V }",
        "model m { coordinates raw }",
        "model m { entries (1, 1) }",
        "model m { layer attention(rank 2) }",
        "model m { layer attention(out 1) }",
        "model m { layer attention(normalization softmax) }",
        "compute m { dimension seed 3 }",
        "compute m { invariants veronese(r 2) }",
        "compute m { invariants pencil veronese }",
    ],
    UnknownKeyword: [
        "model m { tokns = 2 }",
        "model m {\n  input = 3\n  tokns = 2\n}",
        "modle m { }",
        "model m { }\nmodle n { }",
        "model m { layer attention(rnk = 2) }",
        "model m { layer attention(rank = 2, outt = 1) }",
        "model m { layer attn(rank = 1) }",
        "compute m { certify pt [1] }",
        "compute m { vanishing_ideal up too degree 4 }",
        "model m { inputs = 3 }",
    ],
    MissingKeyword: [
        "model m { layer }",
        "model m { = 3 }",
        "compute m { certify [1] }",
        "compute m { vanishing_ideal up degree 4 }",
        "model { }",
    ],
    MissingSeparator: [
        "model m { input = 3 tokens = 2 }",
        "model m { field = QQ input = 3 }",
        "model m { field = GF(7) input = 3 }",
        "model m { weights = A V coordinates = raw }",
        "model m { coordinates = raw input = 2 }",
        "model m { entries = (1, 1) input = 2 }",
        "model m { layer attention(rank = 1, out = 1) input = 2 }",
        "model m { layer attention(rank = 1 out = 1) }",
        "model m { } model n { }",
        "model m { } compute m { }",
        "compute m { dimension seed = 1 fibers }",
        "compute m { certify point [1 2] }",
        "model m { entries = (1, 1) (1, 2) }",
    ],
    UnbalancedBracket: [
        "model m { input = 3 }}",
        "model m { layer attention(rank = 2, out = 1 }",
        "model m { layer attention(rank = 2, out = 1)) }",
        "model m { entries = (1, 1 }",
        "model m { field = GF(7 }",
        "compute m { certify point [1, 2 }",
        "compute m { invariants veronese(r = 2 }",
        "model m { input = 3",
        "model m { layer attention(rank = 1",
        "model m } ",
        "model m {\n  input = 3\ncompute m { dimension }",
        "model m {\nmodel n { }",
    ],
    UnexpectedEnd: [
        "model",
        "model m",
        "compute",
    ],
    UnexpectedCharacter: [
        "model m { input = 3$ }",
        "model m@ { }",
        "model m { input = 3 % 2 }",
        "model m { input = \"3\" }",
    ],
}

#: Labels chosen by ``match_examples`` (the others are recognised directly).
MATCHED_LABELS = (MissingValue, InvalidValue, MissingEquals, MissingKeyword,
                  UnknownKeyword, MissingSeparator, UnbalancedBracket)
