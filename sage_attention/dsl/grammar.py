r"""
The grammar of the spec language and its LALR parser

The grammar is ``attention.lark`` (``grammar/`` in a source checkout,
package data of ``sage_attention.grammar`` once installed); the LALR
parser is built once (:func:`spec_parser`), its tables cached on disk
(:func:`grammar_cache_file`). The names of the grammar's terminals, as
messages write them (:func:`terminal_text`, :func:`expected_text`), and
its keywords (:func:`grammar_keywords`) are read from the parser, so a message
never names a keyword the grammar does not have.

EXAMPLES::

    sage: from sage_attention.dsl.grammar import expected_text, grammar_keywords, spec_parser
    sage: spec_parser().parse("compute m { fibers }").data
    'start'
    sage: expected_text(["EQUAL", "NUMBER"])
    'a number, or `=`'
    sage: "normalization" in grammar_keywords()
    True
"""
import functools
import re
from importlib import resources
from pathlib import Path

from lark import Lark


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

        sage: from sage_attention.dsl.grammar import grammar_text
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

        sage: from sage_attention.dsl.grammar import spec_parser
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

        sage: from sage_attention.dsl.grammar import grammar_cache_file
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


#: How messages name the terminals that are not literal strings.
TERMINAL_WORDS = {"NAME": "a name", "NUMBER": "a number", "_SEP": "a newline or `;`",
                  "$END": "the end of the file"}


def terminal_text(name):
    r"""
    Return how a message names the terminal ``name`` of the grammar.

    A literal string is shown in backquotes, a pattern in words
    (:data:`TERMINAL_WORDS`); an unknown name is returned as it is.

    EXAMPLES::

        sage: from sage_attention.dsl.grammar import terminal_text
        sage: terminal_text("NAME"), terminal_text("EQUAL"), terminal_text("RANK")
        ('a name', '`=`', '`rank`')
    """
    if name in TERMINAL_WORDS:
        return TERMINAL_WORDS[name]
    try:
        pattern = spec_parser().get_terminal(name).pattern
    except KeyError:
        return name
    if pattern.type == "str":
        return f"`{pattern.value}`"
    return name


def expected_text(names):
    r"""
    Return the terminals ``names`` the parser expected, in words (for the line ``expected: ...``).

    Words come before literal strings, each group sorted; whitespace and
    comments are not listed.

    EXAMPLES::

        sage: from sage_attention.dsl.grammar import expected_text
        sage: expected_text(["EQUAL", "NAME", "WS_INLINE"]), expected_text(["NUMBER"])
        ('a name, or `=`', 'a number')
    """
    names = set(names or ()) - {"WS_INLINE", "COMMENT"}
    words = sorted({terminal_text(n) for n in names}, key=lambda w: (w.startswith("`"), w))
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + ", or " + words[-1]


def literals(names):
    r"""
    Return the literal strings among the terminals ``names``, without backquotes.

    EXAMPLES::

        sage: from sage_attention.dsl.grammar import literals
        sage: literals(["EQUAL", "NAME", "RANK"])
        ['=', 'rank']
    """
    out = []
    for name in names or ():
        text = terminal_text(name)
        if text.startswith("`"):
            out.append(text.strip("`"))
    return out


@functools.cache
def grammar_keywords():
    r"""
    Return the keywords of the language (its literal strings that are words), sorted.

    EXAMPLES::

        sage: from sage_attention.dsl.grammar import grammar_keywords
        sage: grammar_keywords()[:5], "normalization" in grammar_keywords()
        (('A', 'GF', 'K', 'Q', 'QQ'), True)
    """
    return tuple(sorted(t.pattern.value for t in spec_parser().terminals
                        if t.pattern.type == "str" and re.match(r"^[A-Za-z_]\w*$", t.pattern.value)))


__all__ = ["grammar_text", "spec_parser", "grammar_cache_file", "terminal_text", "expected_text",
           "literals", "grammar_keywords", "TERMINAL_WORDS"]
