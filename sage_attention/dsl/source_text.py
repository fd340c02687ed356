r"""
Positions in the source, and reading the source around a syntax error

Every node of a parsed spec records where it is written, as a
:class:`SourceSpan`, so a semantic error points at its source as a syntax
error does. The diagnosis of a syntax error (:mod:`sage_attention.dsl.diagnosis`)
reads the text before and after the token the parser stopped at: the open
brackets (:func:`open_brackets`), the key whose value starts there
(:func:`key_before`), the statement of a ``compute`` block
(:func:`statement_word`), the arguments already given
(:func:`keys_given`), a number written in a notation the grammar does
not read (:func:`glued_number`), a character that is not ASCII
(:func:`character_hint`). Comments are blanked first
(:func:`strip_comments`), so a bracket or a word in a comment never
counts. These functions only read text; they import neither Lark nor Sage.

EXAMPLES::

    sage: from sage_attention.dsl.source_text import SourceSpan, key_before, open_brackets
    sage: SourceSpan(2, 3, 2, 10)
    SourceSpan(line=2, column=3, end_line=2, end_column=10)
    sage: key_before("model m { field = GF(")
    'GF'
    sage: open_brackets("model m { layer attention(rank = 1  // )")
    ([('{', 1, 9), ('(', 1, 26)], None)
"""
import re
import unicodedata
from dataclasses import dataclass

from sage_attention.dsl import errors as E


@dataclass(frozen=True)
class SourceSpan:
    r"""
    A region of the source text (1-based lines and columns).

    EXAMPLES::

        sage: from sage_attention.dsl.source_text import SourceSpan
        sage: SourceSpan(2, 3, 2, 10)
        SourceSpan(line=2, column=3, end_line=2, end_column=10)
    """
    line: int
    column: int
    end_line: int
    end_column: int


#: The closing brackets and the opening bracket each closes (and the converse).
CLOSE = {")": "(", "]": "[", "}": "{"}
OPEN = {v: k for k, v in CLOSE.items()}


def strip_comments(text):
    r"""
    Return ``text`` with each comment (``//`` or ``#`` to the end of the line) blanked by spaces.

    The positions of the other characters do not change.

    EXAMPLES::

        sage: from sage_attention.dsl.source_text import strip_comments
        sage: strip_comments("input = 3  // a comment")
        'input = 3              '
    """
    return re.sub(r"(//|#)[^\n]*", lambda m: " " * len(m.group()), text)


def open_brackets(text):
    r"""
    Return the brackets still open at the end of ``text``, and the first unmatched closing bracket.

    OUTPUT: a pair: the stack of open brackets ``(char, line, column)``,
    innermost last, and the first closing bracket that closes nothing, as
    ``(char, line, column)``, or ``None`` (the stack is then the one before it)

    EXAMPLES::

        sage: from sage_attention.dsl.source_text import open_brackets
        sage: open_brackets("model m {\n  layer attention(rank = 1")
        ([('{', 1, 9), ('(', 2, 18)], None)
        sage: open_brackets("model m { ) }")
        ([('{', 1, 9)], (')', 1, 11))
    """
    stack, line, col = [], 1, 1
    for ch in strip_comments(text):
        if ch in OPEN:
            stack.append((ch, line, col))
        elif ch in CLOSE:
            if stack and stack[-1][0] == CLOSE[ch]:
                stack.pop()
            else:
                return stack, (ch, line, col)
        if ch == "\n":
            line, col = line + 1, 1
        else:
            col += 1
    return stack, None


def offset(text, line, column):
    r"""
    Return the index in ``text`` of the 1-based ``line`` and ``column``.

    EXAMPLES::

        sage: from sage_attention.dsl.source_text import offset
        sage: offset("ab\ncde", 2, 2)
        4
    """
    lines = text.split("\n")
    return sum(len(s) + 1 for s in lines[:line - 1]) + column - 1


def key_before(before):
    r"""
    Return the key whose value starts at the end of ``before``, or ``None``.

    The key is the word before ``=``, or ``GF`` (in ``GF(``), ``degree``
    (after ``up to degree``), ``point`` (after ``certify point``),
    ``check``; else the last word.

    EXAMPLES::

        sage: from sage_attention.dsl.source_text import key_before
        sage: key_before("layer attention(rank ="), key_before("up to degree"), key_before("field = GF(")
        ('rank', 'degree', 'GF')
    """
    before = strip_comments(before).rstrip()
    for pattern, key in ((r"GF\s*\($", "GF"), (r"\bup\s+to\s+degree$", "degree"),
                         (r"\bcertify\s+point$", "point"), (r"\bcheck$", "check"),
                         (r"([A-Za-z_]\w*)\s*=$", None)):
        m = re.search(pattern, before)
        if m:
            return key or m.group(1)
    m = re.search(r"([A-Za-z_]\w*)\W*$", before)
    return m.group(1) if m else None


def statement_word(before):
    r"""
    Return the first word of the statement of a ``compute`` block that ``before``
    ends in, with its ``(line, column)``, or ``None`` (not in a block, or no word).

    EXAMPLES::

        sage: from sage_attention.dsl.source_text import statement_word
        sage: statement_word("model m { input = 1 }\ncompute m {\n  dimension\n  invariant pencil")
        ('invariant', (4, 3))
        sage: statement_word("model m { input = 1") is None
        True
    """
    body = strip_comments(before)
    m = re.search(r"\bcompute\s+\w+\s*\{([^{}]*)$", body)
    if m is None:
        return None
    segment = re.split(r"[;\n]", m.group(1))[-1]
    w = re.match(r"\s*([A-Za-z_]\w*)", segment)
    if w is None:
        return None
    pos = m.end(1) - len(segment) + w.start(1)
    return w.group(1), (body[:pos].count("\n") + 1, pos - body.rfind("\n", 0, pos))


def word_before(before):
    r"""
    Return the word at the end of ``before`` (spaces after it allowed), or ``None``.

    EXAMPLES::

        sage: from sage_attention.dsl.source_text import word_before
        sage: word_before("input = 3 tokens  "), word_before("input = ")
        ('tokens', None)
    """
    m = re.search(r"([A-Za-z_]\w*)\s*$", strip_comments(before))
    return m.group(1) if m else None


def token_text(token):
    r"""
    Return how a message shows the Lark ``token``: in backquotes, or in words for a line end.

    EXAMPLES::

        sage: from lark import Token
        sage: from sage_attention.dsl.source_text import token_text
        sage: token_text(Token("NAME", "x")), token_text(Token("_SEP", ";")), token_text(Token("_SEP", "\n"))
        ('`x`', '`;`', 'the end of the line')
    """
    if token.type == "_SEP":
        return "`;`" if token.value.startswith(";") else "the end of the line"
    return f"`{token.value}`"


def is_word_char(ch):
    r"""
    Return whether the character ``ch`` may be part of a name (a letter, a digit or ``_``).

    EXAMPLES::

        sage: from sage_attention.dsl.source_text import is_word_char
        sage: is_word_char("_"), is_word_char("-")
        (True, False)
    """
    return ch.isalnum() or ch == "_"


def keys_given(before):
    r"""
    Return the keys given so far in the innermost open ``(...)`` of ``before`` (a layer's arguments).

    EXAMPLES::

        sage: from sage_attention.dsl.source_text import keys_given
        sage: sorted(keys_given("layer attention(rank = 1, out = 2, "))
        ['out', 'rank']
    """
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
    return set(re.findall(r"([A-Za-z_]\w*)\s*=", strip_comments(before[start:])))


#: A number with letters, digits, `_`, `.` or `/` glued to it, such as `0x10`, `1e3`,
#: `1e-3`, `1_000` or `2.5.1` (the grammar's ``NUMBER`` does not match before them).
_GLUED_NUMBER = re.compile(r"[+-]?[0-9](?:[eE][+-][0-9]|[A-Za-z0-9_.]|/[0-9])*")

#: A number the grammar reads (its terminal ``NUMBER`` without the look-ahead).
_NUMBER = re.compile(r"[+-]?[0-9]+(?:/[0-9]+|\.[0-9]+)?")


def glued_number(text, pos):
    r"""
    Return the number glued to letters, digits or `.` that starts at ``pos``
    of ``text`` (where the lexer stopped), as a match, or ``None``.

    EXAMPLES::

        sage: from sage_attention.dsl.source_text import glued_number
        sage: [glued_number(t, 7).group() for t in ("seed = 0x10 = 5", "seed = 2.5.1", "seed = 1e-5")]
        ['0x10', '2.5.1', '1e-5']
        sage: glued_number("seed = 16 x", 7) is None
        True
    """
    m = _GLUED_NUMBER.match(text, pos)
    if m is None or _NUMBER.fullmatch(m.group()):
        return None
    return m


def decimal_value(word):
    r"""
    Return the integer ``word`` means in another notation (``0x10``, ``1e3``, ``1_000``), or ``None``.

    EXAMPLES::

        sage: from sage_attention.dsl.source_text import decimal_value
        sage: decimal_value("0x10"), decimal_value("1e3"), decimal_value("1_000"), decimal_value("2.5.1")
        (16, 1000, 1000, None)
    """
    try:
        return int(word, 0)
    except ValueError:
        pass
    try:
        value = float(word)
    except ValueError:
        return None
    return int(value) if value.is_integer() and abs(value) < 1e18 else None


def value_example(key, value):
    r"""
    Return how ``key`` is written with the value ``value``, in backquotes.

    EXAMPLES::

        sage: from sage_attention.dsl.source_text import value_example
        sage: value_example("GF", 7), value_example("degree", 3), value_example("seed", 1)
        ('`GF(7)`', '`up to degree 3`', '`seed = 1`')
    """
    if key == "GF":
        return f"`GF({value})`"
    if key == "degree":
        return f"`up to degree {value}`"
    if key in (None, "point", "check"):
        return f"`{value}`"
    return f"`{key} = {value}`"


def _char_name(ch):
    return f"U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed character')}"


def character_hint(ch, text, pos):
    r"""
    Return the message and the fix for the unexpected character ``ch`` at ``pos`` of ``text``, or ``None``.

    ``None`` means the generic message: an ASCII character without a
    better hint. A number without its leading digit, a ``:`` for ``=``,
    a space that is not ASCII, a letter or digit of another script each get
    their own.

    OUTPUT: a pair of strings ``(what, fix)``, or ``None``

    EXAMPLES::

        sage: from sage_attention.dsl.source_text import character_hint
        sage: character_hint(":", "seed: 3", 4)
        ('`:`', 'write `=` instead of `:`, e.g. `seed = 3`')
        sage: character_hint("\u00a0", "a\u00a0b", 1)
        ('`\\u00a0` (U+00A0 NO-BREAK SPACE), which looks like a space', 'replace it by a plain space (it often comes from copying text)')
        sage: character_hint("x", "x", 0) is None
        True
    """
    decimal = re.match(r"([+-]?)\.([0-9]+)", text[pos:])
    if ch in "+-." and decimal:
        # `.5`: a number starts with a digit
        return (f"`{decimal.group()}` is not a number the DSL reads: a number starts with a digit",
                f"write `{decimal.group(1)}0.{decimal.group(2)}`")
    if ch == ":":
        word = word_before(text[:pos])
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


def matching_close(text, pos):
    r"""
    Return the index of the ``)`` closing the ``(`` at ``pos`` on the same statement, or ``None``.

    EXAMPLES::

        sage: from sage_attention.dsl.source_text import matching_close
        sage: matching_close("dimension(seed = 0) x", 9), matching_close("f(a\n)", 1)
        (18, None)
    """
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


__all__ = ["SourceSpan", "CLOSE", "OPEN", "strip_comments", "open_brackets", "offset", "key_before",
           "statement_word", "word_before", "token_text", "is_word_char", "keys_given",
           "glued_number", "decimal_value", "value_example", "character_hint", "matching_close"]
