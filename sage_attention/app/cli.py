r"""
The command line: ``sage-attention``

Run the computations of a spec file::

    sage-attention run examples/slice.att            # readable report per model
    sage-attention run examples/slice.att --json     # JSON Lines: one record per model
    sage-attention run - < examples/slice.att        # the spec from standard input
    sage-attention check examples/slice.att          # parse and validate only
    sage-attention sweep --width 3..6 --rank 1..2 -j 2   # dimension table over a grid
    sage-attention figures --outdir figures          # [HMK2024] experiment + slice plot
    sage-attention script paper.sage 12              # a Sage script (preparsed), as `sage paper.sage 12`

With ``--json`` every command but ``script`` (whose output is the script's
own) prints JSON Lines on standard output, one record per line with its
``"format"`` and ``"record"``, errors included
(:mod:`sage_attention.app.jsonout`, ``doc/json.rst``). ``--version`` prints
the version.

Exit status (:data:`EXIT_STATUS`): 0 when everything ran; 1 when a
computation failed (it is reported in place, as text or as a JSON record
with its ``"error"``, and the run goes on with the next computation and
model); 2 on an error in the spec or the arguments, and for a spec with
nothing to run (message on stderr with the location and a fix, no
traceback); 130 when interrupted by Ctrl-C (what finished is printed); 141
when the reader of standard output closes it (``sage-attention run x.att |
head``): the run stops quietly.

With ``--progress`` (the default when standard error is a terminal) the
long steps show their progress on standard error: the graded pieces of
interpolation, and the phase and the seconds it has been running of the
Gröbner basis of elimination, of the completeness proof and of the minimal
generators (:class:`~sage_attention.misc.progress.Heartbeat`).

The statements, their options and their runners are declared once, in
:data:`sage_attention.catalog.computations.COMPUTATIONS`; a runner is a
function ``(model, computation, options) -> dict`` (JSON-able; an optional
``"text"`` entry is the readable report), named there by its dotted name and
imported only when it runs. Modules add theirs with
:func:`~sage_attention.app.runners.register`.

This module is the argument parser, :func:`main` and the dispatch of the
subcommands: the runners of the statements are in
:mod:`sage_attention.app.runners`, the report of a run in
:mod:`sage_attention.app.reporting`, and ``sweep``, ``defectivity`` and
``figures`` in :mod:`sage_attention.app.sweeps`, ``script`` in
:mod:`sage_attention.app.sage_script`. Their public names stay
importable from here.

EXAMPLES::

    sage: from sage_attention.app.cli import main
    sage: import os
    sage: from sage_attention.dsl.parser import grammar_text
    sage: import tempfile
    sage: f = os.path.join(tempfile.mkdtemp(), "m.att")
    sage: _ = open(f, "w").write("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
    ....:                        "compute m { dimension seed = 0 }")
    sage: main(["check", f])
    ...: ok: 1 model, 1 computation
    0
    sage: main(["run", f, "--json"])
    {"format": 1, "record": "model", "model": "m", ..., "dimension": 4, "expected_dimension": 4, ...}
    0
"""
import argparse
import contextlib
import io
import logging
import os
import sys
import warnings

from sage_attention.misc.errors import SageAttentionError
from sage_attention.version import __version__
from sage_attention.app.jsonout import emit, error_record, record
from sage_attention.misc.progress import redeliver_lost_interrupts
from sage_attention.misc.interrupts import deferred_interrupts
from sage_attention.catalog.computations import describe_all
from sage_attention.misc.text import did_you_mean
from sage_attention.app.runners import (RUNNERS, register, resolve, runner,  # noqa: F401
                                        run_certify, run_check, run_dimension, run_fibers,
                                        run_invariants, run_vanishing_ideal)
from sage_attention.app.reporting import ComputationFailed, run_spec  # noqa: F401
from sage_attention.app.messages import command_line_advice
from sage_attention.app.filling import add_filling_parser, filling_command  # noqa: F401
from sage_attention.app.examples import add_examples_parser, examples_command
from sage_attention.app.sweeps import (UsageError,  # noqa: F401
                                       defectivity_command, figures_command, seed_argument,
                                       sweep_command)
from sage_attention.settings import moved_to_settings, settings

logger = logging.getLogger("sage_attention")

#: The exit statuses of ``sage-attention``.
EXIT_STATUS = {
    0: "everything ran",
    1: "a computation failed (reported in place; the run went on)",
    2: "an error in the spec or the arguments, or nothing to run (no traceback)",
    130: "interrupted by Ctrl-C (what finished is printed)",
    141: "the reader of standard output closed it (as `| head` does): stopped quietly",
}


def _epilog(statements=True):
    """The exit statuses and, for the commands that read a spec, the compute statements."""
    codes = "\n".join(f"  {k:<4} {v}" for k, v in EXIT_STATUS.items())
    text = f"exit status:\n{codes}"
    if statements:
        text += "\n\ncompute statements:\n" + "\n".join(
            "  " + line for line in describe_all().splitlines())
    return text


class _ArgumentParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are also a JSON ``"error"`` record
    on standard output when the command line asks for ``--json``."""

    json_errors = False

    def add_argument(self, *args, **kwargs):
        """Add an argument, and keep its option strings (for the near option of an unknown one)."""
        self.__dict__.setdefault("option_names", ["-h", "--help"])
        self.option_names += [a for a in args if isinstance(a, str) and a.startswith("-")]
        return super().add_argument(*args, **kwargs)

    def error(self, message):
        if self.json_errors:
            emit(sys.stdout, record("error", {"error": f"{self.prog}: {message}",
                                              "error_type": "UsageError", "exit_status": 2}))
        super().error(message)


SPEC_HELP = "the spec file (.att); - reads it from standard input"


def _parser(json_errors=False):
    _ArgumentParser.json_errors = json_errors
    p = _ArgumentParser(
        prog="sage-attention",
        description="Algebraic geometry of attention networks: run a spec file.",
        epilog=_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"sage-attention {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    p.commands = sub.choices        # for the errors of unknown options (_parse)
    run = sub.add_parser("run", help="parse, validate and run the computations of a spec",
                         epilog=_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    run.add_argument("spec", help=SPEC_HELP)
    run.add_argument("--json", action="store_true",
                     help="print JSON Lines: one record per model (doc/json.rst)")
    run.add_argument("--quiet", "-q", action="store_true",
                     help="print nothing on stderr but errors: no notes, no progress")
    run.add_argument("--force", action="store_true", help="skip the size guard")
    run.add_argument("--seed", type=seed_argument, default=None,
                     help="seed for computations that do not set one")
    run.add_argument("--verbose", "-v", action="store_true", help="log progress to stderr")
    run.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                     help="show the progress of long steps on stderr: the graded pieces, the "
                          "phases of elimination, of the proofs and of the minimal generators "
                          "with the seconds each has been running (default: when stderr is a "
                          "terminal)")
    check = sub.add_parser("check", help="parse and validate a spec only",
                           epilog=_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    check.add_argument("spec", help=SPEC_HELP)
    check.add_argument("--json", action="store_true",
                       help="print the result as a JSON record (doc/json.rst)")
    check.add_argument("--force", action="store_true", help="skip the size guard")
    check.add_argument("--verbose", "-v", action="store_true", help="log progress to stderr")
    _add_sweep_parsers(sub)
    add_filling_parser(sub, _epilog(statements=False))
    add_examples_parser(sub, _epilog(statements=False))
    sc = sub.add_parser("script", help="run a Sage script (.sage, preparsed; or .py) with Sage's "
                        "and sage_attention's names, as `sage FILE` does in a full Sage",
                        epilog=_epilog(statements=False),
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    sc.add_argument("file", help="the script (.sage or .py)")
    optional = sc.add_argument("args", nargs=argparse.REMAINDER,
                               help="the script's arguments (optional)")
    optional.required = False       # argparse counts a REMAINDER as required: it is not
    return p


def _script_command(args, out, err):
    """Run ``sage-attention script FILE ARGS...`` (:mod:`sage_attention.app.sage_script`)."""
    from sage_attention.app.sage_script import ScriptError, run_sage_file, script_traceback
    try:
        run_sage_file(args.file, args.args)
    except (ScriptError, KeyboardInterrupt):
        raise
    except SystemExit as e:                 # the script's own sys.exit(code)
        import operator
        try:
            return operator.index(e.code or 0)          # sys.exit(3) is sys.exit(Integer(3))
        except TypeError:
            print(e.code, file=err)
            return 1
    except Exception as e:
        # the script's error: its traceback from the script's frames on, as python prints it
        print(script_traceback(e, args.file), end="", file=err)
        return 1
    return 0



def _add_sweep_parsers(sub):
    sw = sub.add_parser("sweep", help="dimension table over a grid of architectures",
                        epilog=_epilog(statements=False),
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    # the grid's defaults are set by the command (None: not given, which --arch needs to know)
    sw.add_argument("--layers", default=None, help="numbers of layers, e.g. 1,2 (default: 2)")
    sw.add_argument("--width", default=None,
                    help="widths (all layers equal), e.g. 3..10 (default: 3)")
    sw.add_argument("--rank", default=None, help="attention ranks, e.g. 1..2 (default: 2)")
    sw.add_argument("--tokens", default="3", help="numbers of tokens (default: 3)")
    sw.add_argument("--normalization", default="lightning",
                    help="lightning, softmax or lightning,softmax")
    sw.add_argument("--arch", action="append", default=[],
                    help="an explicit architecture 'widths:ranks', e.g. 3,4,5:2,3 (repeatable; "
                         "replaces the grid: not with --width, --rank or --layers)")
    sw.add_argument("--seed", type=seed_argument, default=0)
    sw.add_argument("--jobs", "-j", type=int, default=1,
                    help="worker processes (default: 1; they stop with the run: Ctrl-C or "
                         "the end of this process ends them)")
    sw.add_argument("--json", action="store_true",
                    help="print JSON Lines: one record per row (doc/json.rst)")
    sw.add_argument("--csv", action="store_true", help="print the table as CSV")
    sw.add_argument("--plot", metavar="FILE", default=None,
                    help="also draw the table into FILE (.png, .pdf or .svg; Sage's plotting, else matplotlib)")
    sw.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    df = sub.add_parser("defectivity", help="the defectivity table of summed heads: the "
                        "dimension of H = 1, 2, ... heads against the join bound, up to "
                        "saturation", epilog=_epilog(statements=False),
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    df.add_argument("--width", default="2..5", help="input widths d (default: 2..5)")
    df.add_argument("--out", default="1..3", help="output widths d' (default: 1..3)")
    df.add_argument("--tokens", default="1..3", help="numbers of tokens t (default: 1..3)")
    df.add_argument("--rank", default=None, help="attention ranks a (default: every a <= d)")
    df.add_argument("--heads", default=None,
                    help="the largest number of heads (default: up to saturation; rows "
                         "stop earlier where the variety fills its span, with a note)")
    df.add_argument("--seed", type=seed_argument, default=0)
    df.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (default: 1)")
    df.add_argument("--json", action="store_true",
                    help="print JSON Lines: one record per row (doc/json.rst)")
    df.add_argument("--csv", action="store_true", help="print the table as CSV")
    df.add_argument("--plot", metavar="FILE", default=None,
                    help="also draw the table into FILE (.png, .pdf or .svg): the dimension "
                         "against H with the join bound, or with more than 8 chains a heat map "
                         "of the defects")
    df.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    fg = sub.add_parser("figures", help="the [HMK2024] experiment tables and plots, and the "
                                        "neuromanifold slice plot (needs matplotlib)")
    fg.add_argument("--outdir", default="figures",
                    help="the folder to write into (default: ./figures; created if its parent "
                         "exists)")
    fg.add_argument("--seed", type=seed_argument, default=0)
    fg.add_argument("--json", action="store_true",
                    help="print JSON Lines: one record per file written (doc/json.rst)")
    fg.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")



#: The subcommands that run a batch of rows, not a spec file.
BATCH_COMMANDS = {"sweep": sweep_command, "defectivity": defectivity_command,
                  "filling": filling_command,
                  "figures": figures_command, "script": _script_command, "examples": examples_command}


# The largest spec file read (bytes; a larger one is refused before reading) is
# settings.MAX_SPEC_BYTES, the largest grid of ``sweep`` settings.MAX_SWEEP_ROWS;
# the old names read them.
__getattr__ = moved_to_settings(__name__, {"MAX_SPEC_BYTES": "MAX_SPEC_BYTES",
                                           "MAX_SWEEP_ROWS": "MAX_SWEEP_ROWS"})


#: The name of standard input in messages (the spec file ``-``).
STDIN_NAME = "<stdin>"


def _load(path, force, err, quiet=False):
    """Parse and validate the spec file ``path`` (``-``: standard input);
    return the spec and the notes of the validation (printed on ``err``
    unless ``quiet``)."""
    from sage_attention.dsl import parse_spec_file, parse_spec_stream, validate
    if not path.strip():
        raise UsageError(f"the spec file name is empty (={path!r}); give the path of a spec "
                         "file, e.g. examples/slice.att, or - to read standard input")
    if path == "-":
        stdin = getattr(sys.stdin, "buffer", None)
        if stdin is None:  # a text stream (e.g. replaced in a session)
            import io
            stdin = io.BytesIO(sys.stdin.read().encode("utf-8"))
        spec = parse_spec_stream(stdin, STDIN_NAME, max_bytes=settings.MAX_SPEC_BYTES)
    else:
        spec = parse_spec_file(path, max_bytes=settings.MAX_SPEC_BYTES)
    notes = validate(spec, force=force)
    if not quiet:
        for note in notes:
            print(note, file=err)
    return spec, notes


def _nothing_to_run(spec, path):
    """The message for a spec without models or computations (or ``None``)."""
    if not spec.models:
        return (f"{path}: the spec is empty: no `model` and no `compute` block\n"
                "fix: describe a model and what to compute, e.g.\n"
                "    model m { input = 3; tokens = 2; layer attention(rank = 1, out = 1) }\n"
                "    compute m { dimension }")
    if not spec.computations:
        n = len(spec.models)
        what = ("only empty `compute` blocks" if getattr(spec, "empty_blocks", ()) else
                "no `compute` block")
        return (f"{path}: nothing to run: {n} model{'s' * (n != 1)} but {what}\n"
                f"fix: add e.g. `compute {spec.models[0].name} {{ dimension }}`")
    return None


def main(argv=None):
    r"""
    Run the command line ``sage-attention`` with the arguments ``argv``.

    INPUT:

    - ``argv`` -- (default: ``sys.argv[1:]``) list of strings

    OUTPUT: the exit status (:data:`EXIT_STATUS`: ``0``, ``1``, ``2``,
    ``130`` or ``141``)

    EXAMPLES::

        sage: from sage_attention.app.cli import main
        sage: import os, tempfile
        sage: d = tempfile.mkdtemp()
        sage: bad = os.path.join(d, "bad.att")
        sage: _ = open(bad, "w").write("model m {\n  input = 3 tokens = 2\n}\n")
        sage: import sys; sys.stderr = sys.stdout
        sage: main(["check", bad])
        .../bad.att:2:13: Missing separator: `tokens` must start a new statement
            input = 3 tokens = 2
                      ^
        expected: a newline or `;`, or `}`
        fix: put a newline or `;` before `tokens`
        2

    A spec with nothing to run says so::

        sage: empty = os.path.join(d, "empty.att")
        sage: _ = open(empty, "w").write("// only a comment\n")
        sage: main(["run", empty])
        .../empty.att: the spec is empty: no `model` and no `compute` block
        fix: ...
        2
        sage: sys.stderr = sys.__stderr__
    """
    try:
        with contextlib.ExitStack() as stack:
            # the process of the command line (not a call from Python) ends after Ctrl-C
            status = _main(argv, stack, ends_process=argv is None)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        # the reader closed standard output (`| head`): no traceback, and none at exit either
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return 141


def command_options(command):
    r"""
    Return the option strings of a command's parser (``-h`` and ``--help`` included).

    INPUT:

    - ``command`` -- a parser of :func:`main`'s argument parser (a command's, or the top one)

    OUTPUT: a list of strings

    EXAMPLES::

        sage: from sage_attention.app.cli import command_options, _parser
        sage: commands = _parser().commands
        sage: "--force" in command_options(commands["run"]), "--force" in command_options(commands["sweep"])
        (True, False)
    """
    return list(getattr(command, "option_names", ["-h", "--help"]))


def _parse(parser, argv):
    r"""
    Parse ``argv``; an unknown option is reported by its command, with the usage of that command and a near option.

    An option of the command given before the command (``sage-attention --json check f.att``)
    is told to go after it.

    TESTS::

        sage: from sage_attention.app.cli import main
        sage: import sys; sys.stderr = sys.stdout
        sage: try:
        ....:     main(["--json", "sweep", "--arch", "2,2:1"])
        ....: except SystemExit as e:
        ....:     print("exit status", e.code)
        {"format": 1, "record": "error", "error": "sage-attention sweep: `--json` is an option of the command: put it after `sweep` (sage-attention sweep --json ...)", ...}
        usage: sage-attention sweep ...
        sage-attention sweep: error: `--json` is an option of the command: put it after `sweep` (sage-attention sweep --json ...)
        exit status 2
        sage: sys.stderr = sys.__stderr__
    """
    position = next((i for i, word in enumerate(argv) if word in parser.commands), None)
    if position:
        # the words before the command are options of `sage-attention` itself (--version)
        name, top = argv[position], command_options(parser)
        command = parser.commands[name]
        for word in argv[:position]:
            option = word.split("=", 1)[0]
            if option.startswith("-") and option not in top and option in command_options(command):
                files = " FILE" if name in ("run", "check") else (" FILE ..." if name == "script"
                                                                  else " ...")
                command.error(f"`{option}` is an option of the command: put it after "
                              f"`{name}` (sage-attention {name} {word}{files})")
    args, extra = parser.parse_known_args(argv)
    if extra:
        command = parser.commands.get(getattr(args, "command", None), parser)
        options = command_options(command)
        hint = did_you_mean(extra[0], options) if extra[0].startswith("-") else ""
        if getattr(args, "command", None) == "script" and extra[0] == "--json":
            hint = (" (`script` has no --json: what it prints is the script's own; an "
                    "argument after the file goes to the script: script FILE --json)")
        command.error(f"unrecognized arguments: {' '.join(extra)}{hint}")
    return args


@contextlib.contextmanager
def quieted():
    r"""
    Silence, while the block runs, the notes and warnings that the library
    logs (below ``ERROR``) or issues with :mod:`warnings`: what ``--quiet``
    asks for. The results say the same (e.g. an ideal not proved complete).

    EXAMPLES::

        sage: import logging, warnings, sys
        sage: from sage_attention.app.cli import quieted
        sage: log = logging.getLogger("sage_attention")
        sage: with quieted():
        ....:     log.warning("not printed")
        ....:     warnings.warn("not printed either")
        sage: log.level == logging.NOTSET
        True
    """
    logger = logging.getLogger("sage_attention")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        logger.setLevel(level)


@contextlib.contextmanager
def reserved_stdout():
    r"""
    Keep standard output for the results of ``--json``: while the block runs,
    anything else written to file descriptor `1` -- a C library's message
    (Singular prints its warnings, e.g. "// ** minbase applies only to the
    local or homogeneous case", there), a foreign ``print`` -- goes to
    standard error; the block writes its JSON Lines to the stream it is given.

    Where standard output is not a file descriptor (a notebook, a doctest,
    a captured ``StringIO``) nothing is redirected and ``sys.stdout`` is
    given.

    EXAMPLES::

        sage: import os, subprocess, sys
        sage: code = ("import os\nfrom sage_attention.app.cli import reserved_stdout\n"
        ....:         "with reserved_stdout() as out:\n    os.write(1, b'noise\\n'); print('{}', file=out)\n")
        sage: r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        sage: r.stdout, r.stderr
        ('{}\n', 'noise\n')
    """
    try:
        sys.stdout.flush()
        fd = sys.stdout.fileno()
        err_fd = sys.stderr.fileno()
    except (AttributeError, ValueError, OSError, io.UnsupportedOperation):
        yield sys.stdout
        return
    saved = os.dup(fd)
    stream = os.fdopen(saved, "w", encoding="utf-8", closefd=True)
    os.dup2(err_fd, fd)
    try:
        yield stream
    finally:
        try:
            stream.flush()
        finally:
            sys.stdout.flush()
            os.dup2(saved, fd)
            stream.close()


def _main(argv, stack=None, ends_process=False):
    r"""
    The command line, for :func:`main` (which also stops quietly when the reader closes the output).

    ``stack`` -- (optional) a :class:`contextlib.ExitStack` that :func:`main`
    closes at the end: ``--quiet`` puts :func:`quieted` on it.
    ``ends_process`` -- (default: ``False``) whether the process ends with
    this call (the command line itself): after Ctrl-C, once what finished
    is written, ``SIGINT`` is then ignored, so that a second Ctrl-C cannot
    turn exit status `130` into a traceback.
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = _parser(json_errors="--json" in argv)
    args = _parse(parser, argv)
    if stack is not None and getattr(args, "quiet", False) and not getattr(args, "verbose", False):
        stack.enter_context(quieted())
    out, err = sys.stdout, sys.stderr
    as_json = getattr(args, "json", False)
    if as_json and stack is not None:
        # standard output carries JSON Lines only: what a library writes there goes to stderr
        out = stack.enter_context(reserved_stdout())

    def failure(e, status, message=None, json_message=None, file=None):
        """Report the error ``e`` (on ``err``, and as a JSON record under ``--json``,
        whose ``"error"`` is ``json_message`` when given). The record of an error
        of the spec file (one that cannot be read, too large, or with nothing to
        run: ``file`` given, or an error of the library other than a usage error)
        has the spec's name as its ``"file"`` when the error carries none."""
        if isinstance(e, KeyboardInterrupt):
            # after Ctrl-C: a second one does not cut this short (what finished is printed)
            with deferred_interrupts():
                status = report(e, status, message, json_message, file)
                if ends_process:
                    import signal
                    signal.signal(signal.SIGINT, signal.SIG_IGN)
                return status
        return report(e, status, message, json_message, file)

    def report(e, status, message, json_message, file):
        print(str(e) if message is None else message, file=err)
        err.flush()
        if as_json:
            rec = error_record(e, status)
            if isinstance(e, KeyboardInterrupt):
                rec["error_type"] = "KeyboardInterrupt"     # its subclass ComputationInterrupted too
            if json_message is not None:
                rec["error"] = json_message
            spec = getattr(args, "spec", None)
            if file is None and spec is not None and isinstance(e, SageAttentionError) \
                    and not isinstance(e, UsageError):
                file = STDIN_NAME if spec == "-" else spec
            if file is not None:
                rec.setdefault("file", file)
            emit(out, rec)
        return status
    redeliver_lost_interrupts()
    if getattr(args, "verbose", False):
        handler = logging.StreamHandler(err)
        handler.setFormatter(logging.Formatter("[%(asctime)s] %(message)s", "%H:%M:%S"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    if args.command in BATCH_COMMANDS:
        try:
            if as_json and getattr(args, "csv", False):
                raise UsageError("--json and --csv exclude each other; give one")
            from sage_attention.app.plot_files import check_plot_file
            check_plot_file(getattr(args, "plot", None))   # before the computation
            return BATCH_COMMANDS[args.command](args, out, err)
        except SageAttentionError as e:
            # the library's advice in this command's words: its `--force`, or none
            message = command_line_advice(e, force="--force" in command_options(
                parser.commands[args.command]))
            return failure(e, 2, f"error: {message}", message)
        except KeyboardInterrupt as e:
            return failure(e, 130, "interrupted")
    quiet = getattr(args, "quiet", False)
    name = STDIN_NAME if args.spec == "-" else args.spec
    try:
        if quiet and args.progress:
            raise UsageError("--quiet and --progress exclude each other; give one")
        spec, notes = _load(args.spec, args.force, err, quiet=quiet)
    except SageAttentionError as e:
        # a size guard's refusal advises this command's `--force`
        message = command_line_advice(e)
        return failure(e, 2, message, message)
    except KeyboardInterrupt as e:
        return failure(e, 130, "interrupted")
    nothing = _nothing_to_run(spec, name)
    if args.command == "check":
        if not spec.models:
            return failure(UsageError(nothing), 2, file=name)
        n, c = len(spec.models), len(spec.computations)
        print(f"{name}: ok: {n} model{'s' * (n != 1)}, "
              f"{c} computation{'s' * (c != 1)}", file=err)
        if nothing:
            print(f"note: {nothing.split(': ', 1)[1]}", file=err)
        if as_json:
            emit(out, record("check", {"file": name, "ok": True, "models": n,
                                       "computations": c, "model_names": [m.name for m in spec.models],
                                       "notes": [str(x) for x in notes]
                                       + ([nothing.split(': ', 1)[1]] if nothing else [])}))
        return 0
    if nothing:
        return failure(UsageError(nothing), 2, file=name)
    try:
        import sage.all__sagemath_singular  # noqa: F401  (every computation needs Sage: say so once)
    except ModuleNotFoundError as e:
        from sage_attention.misc.errors import SageMissing
        missing = SageMissing.about(e)
        if missing is None:
            raise
        return failure(missing, 1, f"error: {missing}", str(missing))
    # No SIGINT handler of our own: it would replace the one of cysignals,
    # and Ctrl-C would no longer stop Singular or linbox mid-computation.
    try:
        progress = args.progress
        if progress is None:
            progress = not quiet and hasattr(err, "isatty") and err.isatty()
        results = run_spec(spec, as_json=args.json, seed=args.seed, out=out, progress=progress,
                           force=args.force, command_line=True)
    except KeyboardInterrupt as e:
        # the finished part is printed (reporting.run_spec): exit at once
        return failure(e, 130, "interrupted: the reports above are what finished")
    failed = [(r["model"], c["computation"]) for r in results for c in r["computations"]
              if "error" in c]
    if failed:
        print(f"{len(failed)} computation{'s' * (len(failed) != 1)} failed: "
              + ", ".join(f"`{c}` on `{m}`" for m, c in failed), file=err)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
