r"""
Parse spec files

:func:`parse_spec` turns the text of a spec file into a typed
:class:`~sage_attention.dsl.spec.Spec`; :func:`parse_spec_file` and
:func:`parse_spec_stream` read it first (UTF-8, at most
``settings.MAX_SPEC_BYTES`` bytes). The grammar is ``attention.lark``,
shipped as package data; its LALR parser is built once
(:mod:`sage_attention.dsl.grammar`).

A malformed spec raises a labelled
:class:`~sage_attention.dsl.errors.DSLSyntaxError` with the location, the
source line, what was expected and a fix
(:mod:`sage_attention.dsl.diagnosis`); Lark's own exceptions never reach
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
    fix: `normalization = ...` is an argument of `layer attention(...)`: remove `normalisation = ...` here
"""
import functools
from dataclasses import replace
from pathlib import Path

from lark.exceptions import UnexpectedInput, VisitError

from sage_attention.settings import moved_to_settings, settings
from sage_attention.dsl import errors as E
from sage_attention.misc.errors import SageAttentionError, SpecError  # noqa: F401
# the grammar and the diagnosis of syntax errors have their own modules; their names stay
# importable from here
from sage_attention.dsl.grammar import grammar_cache_file, grammar_text, spec_parser  # noqa: F401
from sage_attention.dsl.diagnosis import VALUE_HINTS, syntax_error  # noqa: F401


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


def parse_spec_file(path, max_bytes="default"):
    r"""
    Parse the spec file at ``path``.

    INPUT:

    - ``path`` -- string or path; a regular file of UTF-8 text (a byte
      order mark is accepted)
    - ``max_bytes`` -- (default: ``settings.MAX_SPEC_BYTES``, 1 MB) larger
      files are refused before they are read; ``None`` for no limit

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

    The default limit is read from the settings when the file is read::

        sage: from sage_attention.settings import moved_to_settings, settings
        sage: with settings.override(MAX_SPEC_BYTES=20):
        ....:     parse_spec_file(f)
        Traceback (most recent call last):
        ...
        SpecError: cannot read spec file ...: it has 69 bytes, more than the limit of 20 bytes; ...
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
    max_bytes = _max_bytes(max_bytes)
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


def parse_spec_stream(stream, filename="<stdin>", max_bytes="default"):
    r"""
    Parse the spec read from the binary file ``stream`` (standard input: ``sage-attention run -``).

    INPUT:

    - ``stream`` -- a binary file open for reading (e.g. ``sys.stdin.buffer``);
      UTF-8 text, a byte order mark is accepted
    - ``filename`` -- (default: ``'<stdin>'``) the name to show in messages
    - ``max_bytes`` -- (default: ``settings.MAX_SPEC_BYTES``, 1 MB) more is
      refused; ``None`` for no limit

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
    max_bytes = _max_bytes(max_bytes)
    try:
        data = stream.read() if max_bytes is None else stream.read(max_bytes + 1)
    except OSError as e:
        raise SpecError(f"cannot read spec file {filename}: {e.strerror}") from None
    if max_bytes is not None and len(data) > max_bytes:
        raise SpecError(f"cannot read spec file {filename}: it has more than the limit of "
                        f"{_bytes_text(max_bytes)}; split the spec into smaller files")
    return parse_spec(_decode(data, filename), filename=filename)


def _max_bytes(max_bytes):
    """The limit ``max_bytes`` means: ``"default"`` is ``settings.MAX_SPEC_BYTES``, read now."""
    return settings.MAX_SPEC_BYTES if max_bytes == "default" else max_bytes


def _bytes_text(n):
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20} MB ({n} bytes)"
    return f"{n} bytes"


# the default size limit of a spec file is settings.MAX_SPEC_BYTES; the old name reads it
__getattr__ = moved_to_settings(__name__, {"MAX_SPEC_BYTES": "MAX_SPEC_BYTES"})


__all__ = ["parse_spec", "parse_spec_file", "parse_spec_stream", "spec_parser", "grammar_text",
           "syntax_error", "SageAttentionError"]
