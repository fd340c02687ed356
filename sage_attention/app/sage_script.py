r"""
Sage scripts: ``sage-attention script FILE.sage``

A researcher's script ``paper.sage`` (with Sage's syntax: ``2^10``,
``R.<x, y> = QQ[]``) runs under a full Sage with ``sage paper.sage``. Under
the modular passagemath distributions that command fails with ``No module
named 'sage.all_cmdline'``: ``sage.all`` is a distribution we do not
install. This runner does what ``sage FILE.sage`` does with the names that
are installed: it preparses the file (:func:`sage.repl.preparse.preparse_file`,
keeping its line numbers, so a traceback points at the script's lines),
imports Sage's names (``sage.all`` in a full Sage, otherwise
``sage.all__sagemath_singular``: rings, fields, matrices, polynomial rings,
ideals) and the public names of :mod:`sage_attention`, and runs it as
``__main__`` with ``sys.argv = [FILE, ARGS...]``. A ``.py`` file runs
without the preparser, with the same names.

EXAMPLES::

    sage: import os, tempfile
    sage: from sage_attention.app.sage_script import run_sage_file
    sage: f = os.path.join(tempfile.mkdtemp(), "paper.sage")
    sage: _ = open(f, "w").write("M = LightningAttention(d=3, t=2, a=1, out=1)\n"
    ....:                        "R.<u> = QQ[]\n"
    ....:                        "print(M.dimension(seed=0), 2^10, (u + 1/2)^2)\n")
    sage: _ = run_sage_file(f)
    7 1024 u^2 + u + 1/4

From the command line::

    sage: from sage_attention.app.cli import main
    sage: main(["script", f])
    7 1024 u^2 + u + 1/4
    0
"""
import os
import sys

from sage_attention.misc.errors import SageAttentionError


class ScriptError(SageAttentionError, ValueError):
    """A script that cannot be read (no such file, not a ``.sage`` or ``.py`` file)."""


def sage_namespace():
    r"""
    Return a fresh namespace with Sage's names and those of :mod:`sage_attention`.

    OUTPUT: a dictionary; ``sage.all``'s names in a full Sage, otherwise those
    of ``sage.all__sagemath_singular`` (the modular distributions)

    EXAMPLES::

        sage: from sage_attention.app.sage_script import sage_namespace
        sage: ns = sage_namespace()
        sage: ns["QQ"], ns["LightningAttention"].__name__
        (Rational Field, 'LightningAttention')
    """
    ns = {"__name__": "__main__", "__builtins__": __builtins__}
    try:
        exec("from sage.all import *", ns)
    except ImportError:
        exec("from sage.all__sagemath_singular import *", ns)
    import importlib
    from sage_attention.catalog.public import PUBLIC_NAMES
    for name, module in PUBLIC_NAMES.items():
        ns[name] = getattr(importlib.import_module(module), name)
    return ns


def run_sage_file(path, args=()):
    r"""
    Run the Sage script ``path`` as ``sage path args...`` would.

    INPUT:

    - ``path`` -- a ``.sage`` file (preparsed) or a ``.py`` file
    - ``args`` -- (default: none) the script's arguments (``sys.argv[1:]``
      while it runs)

    OUTPUT: the namespace the script ran in (a dictionary)

    EXAMPLES::

        sage: import os, tempfile
        sage: from sage_attention.app.sage_script import run_sage_file
        sage: f = os.path.join(tempfile.mkdtemp(), "a.sage")
        sage: _ = open(f, "w").write("import sys\nn = ZZ(sys.argv[1])^2\n")
        sage: run_sage_file(f, ["12"])["n"]
        144

    A traceback points at the script's own line::

        sage: _ = open(f, "w").write("x = 1\ny = 1/0\n")
        sage: run_sage_file(f)
        Traceback (most recent call last):
        ...
          File ".../a.sage", line 2, in <module>
        ...
        ZeroDivisionError: rational division by zero

    TESTS::

        sage: run_sage_file("/nonexistent/paper.sage")
        Traceback (most recent call last):
        ...
        ScriptError: /nonexistent/paper.sage: no such file
        sage: run_sage_file(os.path.join(tempfile.mkdtemp(), "m.att"))
        Traceback (most recent call last):
        ...
        ScriptError: .../m.att: not a Sage script
        fix: give a .sage or .py file (a spec file runs with `sage-attention run ...att`)
    """
    path = os.fspath(path)
    if not path.endswith((".sage", ".py")):
        raise ScriptError(f"{path}: not a Sage script\nfix: give a .sage or .py file"
                          + (" (a spec file runs with `sage-attention run ...att`)"
                             if path.endswith(".att") else ""))
    if not os.path.isfile(path):
        raise ScriptError(f"{path}: no such file")
    with open(path, encoding="utf-8") as f:
        source = f.read()
    if path.endswith(".sage"):
        from sage.repl.preparse import preparse_file
        source = preparse_file(source, numeric_literals=False)
    ns = sage_namespace()
    ns["__file__"] = path
    argv = sys.argv
    sys.argv = [path] + [str(a) for a in args]
    try:
        exec(compile(source, path, "exec"), ns)
    finally:
        sys.argv = argv
    return ns


def script_traceback(error, path):
    r"""
    Return the traceback of ``error``, raised by the script ``path``, as
    ``python path`` prints it: from the script's first frame on.

    The frames before it are this runner's (:func:`run_sage_file` and the
    command line), which the script's author did not write; the frames
    after it (the script's functions, and the library calls they make) are
    kept. A syntax error in the script has no frame of the script: it shows
    the script's line, as Python does. An error without a frame of the
    script (in the runner itself) keeps its whole traceback.

    INPUT:

    - ``error`` -- an exception raised while :func:`run_sage_file` ran
      ``path``
    - ``path`` -- the script's path, as given to :func:`run_sage_file`

    OUTPUT: a string ending with a newline

    EXAMPLES::

        sage: import os, tempfile
        sage: from sage_attention.app.sage_script import run_sage_file, script_traceback
        sage: f = os.path.join(tempfile.mkdtemp(), "a.py")
        sage: _ = open(f, "w").write("def f(x):\n    return 1 / x\n\nf(0)\n")
        sage: try:
        ....:     run_sage_file(f)
        ....: except ZeroDivisionError as e:
        ....:     print(script_traceback(e, f), end="")
        Traceback (most recent call last):
          File ".../a.py", line 4, in <module>
            f(0)
          File ".../a.py", line 2, in f
            return 1 / x
        ...
        ZeroDivisionError: division by zero
        sage: _ = open(f, "w").write("x = (\n")
        sage: try:
        ....:     run_sage_file(f)
        ....: except SyntaxError as e:
        ....:     print(script_traceback(e, f), end="")
          File ".../a.py", line 1
            x = (
                ^
        SyntaxError: '(' was never closed
    """
    import traceback
    path = os.fspath(path)
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != path:
        tb = tb.tb_next
    if tb is None and not isinstance(error, SyntaxError):
        tb = error.__traceback__            # not the script's error: every frame
    return "".join(traceback.format_exception(type(error), error, tb))
