r"""
The batch subcommands: ``sweep``, ``defectivity`` and ``figures``

``sage-attention sweep`` computes the dimension table over a grid of
architectures, ``sage-attention defectivity`` the defectivity table of
summed heads (:mod:`sage_attention.app.experiments`), and
``sage-attention figures`` writes the figures (:mod:`sage_attention.app.figures`).
The rows are computed in a :class:`WorkerPool` of worker processes
(``--jobs``; one with ``-j 1``) that ignore Ctrl-C and die with this process;
on Ctrl-C this process stops the pool and prints the rows that finished.
With ``--json`` the rows are JSON Lines, one ``"row"`` record each
(:mod:`sage_attention.app.jsonout`).

A malformed argument raises :class:`UsageError` (exit status 2).

EXAMPLES::

    sage: from sage_attention.app.cli import main
    sage: main(["sweep", "--arch", "2,2:1", "--tokens", "2", "--csv", "-q"])
    widths,ranks,t,normalization,dimension,expected,agrees,parameters,fiber,inputs,gap
    "2,2",1,2,lightning,6,6,yes,8,2,...
    0
"""
import multiprocessing
import os
import signal
import time
from concurrent.futures import ProcessPoolExecutor

from sage_attention.misc.errors import SageAttentionError
from sage_attention.misc.interrupts import show_finished_and_raise
from sage_attention.app.jsonout import emit, record
from sage_attention.settings import moved_to_settings, settings

# The largest grid ``sweep`` accepts (rows) is settings.MAX_SWEEP_ROWS; the old name reads it.
__getattr__ = moved_to_settings(__name__, {"MAX_SWEEP_ROWS": "MAX_SWEEP_ROWS"})


class UsageError(SageAttentionError):
    r"""
    A command-line argument is malformed (exit status 2).

    EXAMPLES::

        sage: from sage_attention.app.sweeps import UsageError
        sage: str(UsageError("--width (='a..b'): ..."))
        "--width (='a..b'): ..."
    """


def seed_argument(text):
    r"""
    Return the seed of the command-line option ``--seed`` (an argparse type).

    The range is that of every seed (:data:`~sage_attention.misc.randomness.MAX_SEED`),
    in Python and in a spec file.

    EXAMPLES::

        sage: from sage_attention.app.sweeps import seed_argument
        sage: seed_argument("7")
        7
        sage: seed_argument("-1")
        Traceback (most recent call last):
        ...
        ArgumentTypeError: must be an integer >= 0 and <= 2^64 - 1, not '-1'
    """
    import argparse
    from sage_attention.misc.randomness import resolve_seed
    try:
        return resolve_seed(int(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be an integer >= 0 and <= 2^64 - 1, not {text!r}") from None


def _int_list(text, option="--width", minimum=1):
    r"""
    Return the integers of ``'3,5..7'`` as a list: ``[3, 5, 6, 7]``.

    INPUT:

    - ``text`` -- string; comma-separated integers and ranges ``lo..hi``
    - ``option`` -- (default: ``'--width'``) the option, for messages
    - ``minimum`` -- (default: `1`) the smallest allowed integer

    EXAMPLES::

        sage: from sage_attention.app.sweeps import _int_list
        sage: _int_list('3,5..7')
        [3, 5, 6, 7]

    TESTS::

        sage: _int_list('a..b')
        Traceback (most recent call last):
        ...
        UsageError: --width (='a..b'): `a` is not an integer; write e.g. 3,5..7
        sage: _int_list('3..2')
        Traceback (most recent call last):
        ...
        UsageError: --width (='3..2'): the range 3..2 is empty; write lo..hi with lo <= hi, e.g. 2..3
    """
    def integer(word):
        word = word.strip()
        if not word.lstrip("+-").isdigit() or len(word) > 18:
            raise UsageError(f"{option} (={text!r}): `{word}` is not an integer"
                             f"{'' if len(word) <= 18 else ' of at most 18 digits'}; "
                             "write e.g. 3,5..7")
        value = int(word)
        if value < minimum:
            raise UsageError(f"{option} (={text!r}): {value} must be at least {minimum}")
        return value

    out = []
    for part in text.split(","):
        if ".." in part:
            lo, _, hi = part.partition("..")
            lo, hi = integer(lo), integer(hi)
            if lo > hi:
                raise UsageError(f"{option} (={text!r}): the range {lo}..{hi} is empty; write "
                                 f"lo..hi with lo <= hi, e.g. {hi}..{lo}")
            if hi - lo >= settings.MAX_SWEEP_ROWS:
                raise UsageError(f"{option} (={text!r}): the range {lo}..{hi} has more than "
                                 f"{settings.MAX_SWEEP_ROWS} values")
            out += list(range(lo, hi + 1))
        elif part.strip():
            out.append(integer(part))
    if not out:
        raise UsageError(f"{option} (={text!r}) lists no value; write e.g. 3,5..7")
    return out



def int_list(text, option="--width", minimum=1):
    r"""
    Return the integers of a command-line list such as ``'3,5..7'``; see :func:`_int_list`.

    EXAMPLES::

        sage: from sage_attention.app.sweeps import int_list
        sage: int_list('2..4', '--degree', minimum=2)
        [2, 3, 4]
    """
    return _int_list(text, option, minimum)


def _check_outdir(path):
    r"""
    Make sure ``path`` is a writable folder (created if its parent exists).

    EXAMPLES::

        sage: from sage_attention.app.sweeps import _check_outdir
        sage: _check_outdir("/proc/version")
        Traceback (most recent call last):
        ...
        UsageError: --outdir (=/proc/version) is not a folder; give a folder, e.g. --outdir figures
    """
    if os.path.exists(path) and not os.path.isdir(path):
        raise UsageError(f"--outdir (={path}) is not a folder; give a folder, "
                         "e.g. --outdir figures")
    if not os.path.exists(path):
        parent = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(parent):
            raise UsageError(f"--outdir (={path}): its parent folder {parent} does not exist; "
                             "create it first or choose another folder")
        try:
            os.mkdir(path)
        except OSError as e:
            raise UsageError(f"--outdir (={path}) cannot be created: {e.strerror}; "
                             "choose a writable folder") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise UsageError(f"--outdir (={path}) is not writable; choose a writable folder")


def _worker_init(started):
    """Run in each worker of a :class:`WorkerPool`: ignore Ctrl-C (the parent
    stops the pool), die with the parent (Linux ``PR_SET_PDEATHSIG``) and
    put this process id on the queue ``started``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        import ctypes
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass
    if os.getppid() == 1:  # the parent died before prctl
        os._exit(1)
    started.put(os.getpid())


class WorkerPool(ProcessPoolExecutor):
    r"""
    The pool of worker processes of ``sweep`` and ``defectivity``.

    A :class:`~concurrent.futures.ProcessPoolExecutor` (fork) whose workers
    ignore Ctrl-C, die with this process, and tell their process ids, so
    :meth:`terminate` can stop the pool at once, also while its workers
    compute: it cancels what has not started and kills the workers.

    INPUT:

    - ``jobs`` -- positive integer; the number of worker processes

    EXAMPLES::

        sage: from sage_attention.app.sweeps import WorkerPool
        sage: pool = WorkerPool(2)
        sage: pool.submit(pow, 2, 10).result()
        1024
        sage: workers = pool.workers()          # those started so far (one ran the task)
        sage: len(workers) >= 1 and all(p.is_alive() for p in workers)
        True
        sage: pool.terminate()
        sage: any(p.is_alive() for p in workers), pool.workers()
        (False, [])
    """

    def __init__(self, jobs):
        r"""
        Start the pool of ``jobs`` worker processes (forked when the first task is submitted).

        TESTS::

            sage: from sage_attention.app.sweeps import WorkerPool
            sage: pool = WorkerPool(1); pool.workers()
            []
            sage: pool.terminate()
        """
        context = multiprocessing.get_context("fork")
        self.started = context.SimpleQueue()
        self.worker_pids = set()
        super().__init__(jobs, mp_context=context, initializer=_worker_init,
                         initargs=(self.started,))

    def workers(self):
        r"""
        Return the worker processes that are alive (:class:`multiprocessing.Process`).

        The workers that have started are read from the queue of their
        process ids and found among :func:`multiprocessing.active_children`.
        """
        while not self.started.empty():
            self.worker_pids.add(self.started.get())
        return [p for p in multiprocessing.active_children() if p.pid in self.worker_pids]

    def terminate(self):
        r"""
        Cancel the tasks that have not started and kill the workers (then wait for them, 5 s at most each).
        """
        processes = self.workers()
        self.shutdown(wait=False, cancel_futures=True)
        for proc in processes:
            try:
                proc.kill()
            except OSError:  # pragma: no cover - it ended meanwhile
                pass
        deadline = time.monotonic() + 5
        for proc in processes:
            # The pool's own thread may reap a killed worker first: then
            # ``join`` returns before that thread has stored the exit code,
            # and the process would look alive for a moment.  Wait for the
            # exit code itself, sleeping so that thread can run.
            proc.join(max(0, deadline - time.monotonic()))
            while proc.exitcode is None and time.monotonic() < deadline:
                time.sleep(0.01)
        # a worker forked just before the shutdown reports its id a moment later:
        # watch for such late workers for a fifth of a second, and kill them too
        known = {proc.pid for proc in processes}
        grace = time.monotonic() + 0.2
        while time.monotonic() < grace:
            for proc in self.workers():
                if proc.pid not in known:
                    known.add(proc.pid)
                    proc.kill()
                    proc.join(5)
            time.sleep(0.02)
        self.workers()


def refuse_large_rows(rows, hint):
    r"""
    Refuse, before computing anything, a table with a row beyond the size guard.

    The guard is the one of a dimension (the entries of the forward-mode
    Jacobian, :func:`~sage_attention.catalog.costs.check_size` on
    :func:`~sage_attention.catalog.model_sizes.estimate_size`), the one the library
    applies to each row when it computes it; here every row is checked
    first, so a table does not compute for minutes and then stop at a row
    that cannot run.

    INPUT:

    - ``rows`` -- list of dictionaries with ``widths``, ``ranks``,
      ``tokens`` and optionally ``heads`` (summed heads of one layer) and
      ``label`` (the row in words, for the message)
    - ``hint`` -- string; the options to lower, for the message

    OUTPUT: ``None``; raise :class:`UsageError` naming the first row beyond
    the guard, its size, and ``hint``

    EXAMPLES::

        sage: from sage_attention.app.sweeps import refuse_large_rows
        sage: refuse_large_rows([{"widths": (3, 3), "ranks": (1,), "tokens": 2}], "lower --width")
        sage: refuse_large_rows([{"widths": (1000, 1000), "ranks": (1,), "tokens": 3}], "lower --width")
        Traceback (most recent call last):
        ...
        UsageError: the row widths 1000,1000 ranks 1 t=3 is too large: the forward-mode Jacobian holds about ... field entries (limit 50000000)...; lower --width
    """
    from sage_attention.misc.errors import ComputationTooLarge
    from sage_attention.catalog.costs import check_size, estimate_size
    from sage_attention.app.messages import command_line_advice
    for row in rows:
        heads = row.get("heads")
        estimate = estimate_size(row["widths"], row["ranks"], row["tokens"],
                                 heads=None if heads is None else (heads,))
        try:
            check_size(estimate, "jacobian")
        except ComputationTooLarge as e:
            label = row.get("label") or (f"widths {','.join(map(str, row['widths']))} ranks "
                                         f"{','.join(map(str, row['ranks']))} t={row['tokens']}")
            raise UsageError(f"the row {label} is too large: "
                             + command_line_advice(e, force=False, hint=hint)) from None


def _unique(rows):
    """The rows without repetitions, in their order (and how many were dropped)."""
    seen, out = set(), []
    for row in rows:
        key = repr(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in row.items()))
        if key not in seen:
            seen.add(key)
            out.append(row)
    return out, len(rows) - len(out)


def _sweep_grid(args):
    from sage_attention.app import experiments
    norms = [n.strip() for n in args.normalization.split(",")]
    for n in norms:
        if n not in ("lightning", "softmax"):
            raise UsageError(f"--normalization (={args.normalization!r}): `{n}` must be "
                             "lightning or softmax")
    if args.jobs < 1:
        raise UsageError(f"--jobs (={args.jobs}) must be at least 1")
    if args.arch:
        given = [o for o, v in (("--width", args.width), ("--rank", args.rank),
                                ("--layers", args.layers)) if v is not None]
        if given:
            raise UsageError(f"--arch replaces the grid, so {' and '.join(given)} would be "
                             f"ignored; give the architectures with --arch only (e.g. "
                             f"--arch 3,3:2), or the grid with --width, --rank and --layers")
        grid = []
        for a in args.arch:
            widths, sep, ranks = a.partition(":")
            if not sep:
                raise UsageError(f"--arch (={a!r}) must be 'widths:ranks', e.g. 3,4,5:2,3")
            widths = _int_list(widths, "--arch widths")
            ranks = _int_list(ranks, "--arch ranks")
            if len(ranks) != len(widths) - 1:
                raise UsageError(f"--arch (={a!r}) needs one rank per layer: "
                                 f"{len(widths) - 1} layers, {len(ranks)} ranks")
            for t in _int_list(args.tokens, "--tokens"):
                for norm in norms:
                    grid.append({"widths": widths, "ranks": ranks, "tokens": t,
                                 "normalization": norm})
    else:
        layers = _int_list("2" if args.layers is None else args.layers, "--layers")
        widths = _int_list("3" if args.width is None else args.width, "--width")
        ranks = _int_list("2" if args.rank is None else args.rank, "--rank")
        tokens = _int_list(args.tokens, "--tokens")
        n = len(layers) * len(widths) * len(ranks) * len(tokens) * len(norms)
        if n > settings.MAX_SWEEP_ROWS:
            raise UsageError(f"the grid has {n} architectures, more than {settings.MAX_SWEEP_ROWS}; "
                             "narrow --width, --rank, --tokens or --layers")
        grid = experiments.architecture_grid(layers=layers, widths=widths, ranks=ranks,
                                             tokens=tokens, normalization=norms)
    if len(grid) > settings.MAX_SWEEP_ROWS:
        raise UsageError(f"the grid has {len(grid)} architectures, more than {settings.MAX_SWEEP_ROWS}")
    refuse_large_rows(grid, "remove it from --arch" if args.arch else
                      "lower --width, --layers or --tokens")
    return grid


def _row_progress(args, err, finished):
    """The progress callback of ``sweep`` and ``figures``: keep each finished
    row in the list ``finished`` and, unless ``--quiet``, print a line on ``err``."""
    def progress(done, total, row):
        finished.append(row)
        if not args.quiet:
            print(f"[{done}/{total}] widths {row['widths']} ranks {row['ranks']} "
                  f"t={row['tokens']} {row['normalization']}: dimension {row['dimension']} "
                  + (f"(expected {row['expected']}) " if row['expected'] is not None else "(no published formula) ")
                  + f"{row['seconds']:.2f}s", file=err, flush=True)
    return progress


def sweep_command(args, out, err):
    r"""
    Run ``sage-attention sweep``: the dimension table over a grid of architectures.

    Ctrl-C prints the rows that finished (and stops the worker pool).

    INPUT:

    - ``args`` -- the parsed arguments of ``sweep``
      (:class:`argparse.Namespace`)
    - ``out``, ``err`` -- the files of the table and of the progress lines

    OUTPUT: the exit status ``0``; raise :class:`UsageError` on a malformed
    argument and :class:`~sage_attention.misc.interrupts.ComputationInterrupted`
    (after printing the finished rows, which are its ``partial``) on Ctrl-C

    EXAMPLES::

        sage: from sage_attention.app.cli import main
        sage: main(["sweep", "--layers", "1", "--width", "2..3", "--rank", "1", "-q"])
        | widths | ranks | t | normalization | dimension | expected | agrees | parameters | fiber | inputs | gap |
        |---|---|---|---|---|---|---|---|---|---|---|
        | 2,2 | 1 | 3 | lightning | 6 | 6 | yes | 8 | 2 | ... | exact |
        | 3,3 | 1 | 3 | lightning | 13 | 13 | yes | 15 | 2 | ... | exact |
        0
        sage: main(["sweep", "--arch", "3,3,3:1,2", "--json", "-q"])
        {"format": 1, "record": "row", "command": "sweep", "widths": [3, 3, 3], "ranks": [1, 2], "tokens": 3, "normalization": "lightning", "dimension": 18, ...}
        0
    """
    from sage_attention.app import experiments
    from sage_attention.app.plots import plot_sweep, write_plot
    finished = []
    progress = _row_progress(args, err, finished)

    def show(rows):
        if args.json:
            for row in rows:
                emit(out, record("row", {"command": "sweep", **row}))
        else:
            print(experiments.format_table(rows, "csv" if args.csv else "markdown"), file=out)
            out.flush()

    grid, repeated = _unique(_sweep_grid(args))
    if repeated and not args.quiet:
        print(f"note: {repeated} repeated row{'s' * (repeated != 1)} of the grid computed once",
              file=err)
    # The rows are computed in worker processes (one with -j 1) that ignore
    # Ctrl-C, so this process, which only waits, always sees it (inside
    # linbox a KeyboardInterrupt can be lost) and stops them.
    try:
        ex = WorkerPool(args.jobs)
        try:
            rows = experiments.sweep(grid, executor=ex, progress=progress, seed=args.seed)
        finally:
            ex.terminate()
    except KeyboardInterrupt as e:
        show_finished_and_raise(e, "sweep", finished, f"{len(finished)} of {len(grid)} rows finished",
                                "run the other rows of the grid", show, err)
    show(rows)
    if getattr(args, "plot", None):
        write_plot(plot_sweep(rows), args.plot, args, out, err, "sweep")
    return 0


def figures_command(args, out, err):
    r"""
    Run ``sage-attention figures``: write the figures into ``--outdir`` and
    print their paths.

    INPUT: as for :func:`sweep_command`, with the arguments of ``figures``

    OUTPUT: the exit status ``0``; raise :class:`UsageError` when
    ``--outdir`` is not a writable folder

    EXAMPLES::

        sage: from sage_attention.app.cli import main
        sage: import sys; sys.stderr = sys.stdout
        sage: main(["figures", "--outdir", "/proc/version", "-q"])
        error: --outdir (=/proc/version) is not a folder; give a folder, e.g. --outdir figures
        2
        sage: sys.stderr = sys.__stderr__
    """
    _check_outdir(args.outdir)
    from sage_attention.app.figures import make_figures
    progress = _row_progress(args, err, [])
    for path in make_figures(args.outdir, seed=args.seed, progress=progress):
        if getattr(args, "json", False):
            emit(out, record("file", {"command": "figures", "path": str(path)}))
        else:
            print(path, file=out)
    return 0


def defectivity_rows(widths, outs, tokens, ranks=None, max_heads=None):
    r"""
    Return the largest row each chain of ``defectivity`` surely computes, for :func:`refuse_large_rows`.

    A chain computes `H = 1, 2, \dots` heads until the dimension is the span
    (or ``max_heads``); the dimension of `H` heads is at most `H` times the
    weights of one head, so every `H` with `H P_1` below the span is computed.

    INPUT: the lists of ``defectivity``'s options (``ranks``: ``None`` for
    every rank up to `d`; ``max_heads``: ``None`` for no cap)

    OUTPUT: a list of dictionaries (``widths``, ``ranks``, ``tokens``, ``heads``, ``label``)

    EXAMPLES::

        sage: from sage_attention.app.sweeps import defectivity_rows
        sage: [r["label"] for r in defectivity_rows([200], [1], [2], [1])]
        ["d=200 d'=1 t=2 a=1 with at least 6700 summed heads"]
        sage: [r["heads"] for r in defectivity_rows([200], [1], [2], [1], max_heads=2)]
        [2]
    """
    from sage_attention.catalog.costs import estimate_size, span_bound
    rows = []
    for d in widths:
        for o in outs:
            for t in tokens:
                for a in (range(1, d + 1) if ranks is None else ranks):
                    span = span_bound((d, o), (a,), t)
                    one = estimate_size((d, o), (a,), t).parameters
                    heads = -(-span // one)
                    if max_heads is not None:
                        heads = min(heads, max_heads)
                    heads = max(heads, 1)
                    rows.append({"widths": (d, o), "ranks": (a,), "tokens": t, "heads": heads,
                                 "label": f"d={d} d'={o} t={t} a={a} with at least {heads} "
                                          "summed heads"})
    return rows


def defectivity_command(args, out, err):
    r"""
    Run ``sage-attention defectivity``: the rows of
    :func:`~sage_attention.app.experiments.defectivity_table`.

    Ctrl-C prints the rows that finished (and stops the worker pool).

    INPUT: as for :func:`sweep_command`, with the arguments of ``defectivity``

    OUTPUT: the exit status ``0``; raise :class:`UsageError` on a malformed
    argument

    EXAMPLES::

        sage: from sage_attention.app.cli import main
        sage: main(["defectivity", "--width", "3", "--out", "1", "--tokens", "2", "--rank", "3", "-q"])
        | d | d' | t | a | H | dimension | one head | span | join bound | defect | parameters | fiber | seconds |
        |---|---|---|---|---|---|---|---|---|---|---|---|---|
        | 3 | 1 | 2 | 3 | 1 | 11 | 11 | 18 | 11 | 0 | 21 | 10 | ... |
        | 3 | 1 | 2 | 3 | 2 | 17 | 11 | 18 | 18 | 1 | 42 | 25 | ... |
        | 3 | 1 | 2 | 3 | 3 | 18 | 11 | 18 | 18 | 0 | 63 | 45 | ... |
        0

    A chain that saturates before ``--heads`` says so on standard error
    (with ``--json``, its last row has ``"stopped": "saturated"``)::

        sage: import sys; sys.stderr = sys.stdout
        sage: main(["defectivity", "--width", "2", "--out", "1", "--tokens", "2", "--rank", "1",
        ....:       "--heads", "3", "--csv", "-q"])
        d,d',t,a,H,dimension,one head,span,join bound,defect,parameters,fiber,seconds
        2,1,2,1,1,4,4,6,4,0,6,2,...
        2,1,2,1,2,6,4,6,6,0,12,6,...
        note: d=2 d'=1 t=2 a=1: stopped at H = 2, not 3: the variety fills its span (dimension 6 = the dimension of the span), more heads add nothing
        0
        sage: sys.stderr = sys.__stderr__

    TESTS::

        sage: main(["defectivity", "--width", "2", "--heads", "0", "-q"])
        error: --heads (='0'): 0 must be at least 1
        2
    """
    from sage_attention.app import experiments
    from sage_attention.app.plots import plot_defectivity, write_plot
    if args.jobs < 1:
        raise UsageError(f"--jobs (={args.jobs}) must be at least 1")
    # each option lists a set of values: a value given twice is one row (`--width 3,3`)
    widths = list(dict.fromkeys(_int_list(args.width, "--width")))
    outs = list(dict.fromkeys(_int_list(args.out, "--out")))
    tokens = list(dict.fromkeys(_int_list(args.tokens, "--tokens")))
    ranks = None if args.rank is None else list(dict.fromkeys(_int_list(args.rank, "--rank")))
    max_heads = None if args.heads is None else max(_int_list(args.heads, "--heads"))
    n = len(widths) * len(outs) * len(tokens) * (len(ranks) if ranks else max(widths))
    if n > settings.MAX_SWEEP_ROWS:
        raise UsageError(f"the grid has {n} architectures, more than {settings.MAX_SWEEP_ROWS}; "
                         "narrow --width, --out, --tokens or --rank")
    refuse_large_rows(defectivity_rows(widths, outs, tokens, ranks, max_heads),
                      "lower --width, --out or --tokens, or cap the heads with --heads")
    finished = []

    def progress(done, total, rows):
        finished.extend(rows)
        if not args.quiet:
            r = rows[0]
            why = {"saturated": "saturated", "heads": "the largest H"}.get(rows[-1]["stopped"])
            print(f"[{done}/{total}] d={r['d']} d'={r['out']} t={r['tokens']} a={r['rank']}: "
                  f"dimensions {[x['dimension'] for x in rows]}, defects "
                  f"{[x['defect'] for x in rows]}; stopped at H = {rows[-1]['heads']} "
                  f"({why})", file=err, flush=True)

    def show(rows):
        if args.json:
            for row in rows:
                emit(out, record("row", {"command": "defectivity", **row}))
        else:
            print(experiments.format_defectivity(rows, "csv" if args.csv else "markdown"),
                  file=out)
            out.flush()

    # a line per row while it computes, as `run --progress` shows its steps (when stderr
    # is a terminal: the rows of a small table take milliseconds)
    heartbeat = not args.quiet and hasattr(err, "isatty") and err.isatty()
    try:
        ex = WorkerPool(args.jobs)
        try:
            rows = experiments.defectivity_table(widths, outs, tokens, ranks, executor=ex,
                                                 progress=progress, seed=args.seed,
                                                 max_heads=max_heads, heartbeat=heartbeat)
        finally:
            ex.terminate()
    except KeyboardInterrupt as e:
        show_finished_and_raise(e, "sweep", finished, f"{len(finished)} rows finished",
                                "run the other rows of the table", show, err)
    show(rows)
    # a chain that stops short of --heads says why, even with --quiet (the rows asked for
    # are missing); with --json its last row has "stopped" too
    for row in rows:
        note = row["stopped"] and experiments.defectivity_stop_note(row, max_heads)
        if note:
            print(f"note: {note}", file=err, flush=True)
    if getattr(args, "plot", None):
        chains = len({(r["d"], r["out"], r["tokens"], r["rank"]) for r in rows})
        write_plot(plot_defectivity(rows, kind="lines" if chains <= 8 else "defects"), args.plot,
                   args, out, err, "defectivity")
    return 0
