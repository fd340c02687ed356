r"""
The workers of the implicitization engine: batches, process pools, progress

Part of the implicitization engine (:mod:`sage_attention.ideals.implicitization`):
the graded pieces of a degree (:mod:`~sage_attention.ideals.engine.pieces`)
are independent, so they are cut into batches of about equal work
(:func:`batches`) and solved in a pool of worker processes
(:func:`default_executor`) when there are enough of them. The workers
ignore ``SIGINT``: on Ctrl-C this process keeps what finished and ends the
workers at once (:func:`stop_executor`). :class:`PieceProgress` shows the
pieces solved, degree by degree, as one progress bar.

EXAMPLES:

Four pieces of `3, 1, 2, 2` monomials (work `9, 1, 4, 4`), in batches of
work at least `4`; below `64` pieces they are solved in this process::

    sage: from sage_attention.ideals.engine.workers import batches, default_executor
    sage: todo = [(i, (None, 2, i, [0] * n)) for i, n in enumerate([3, 1, 2, 2])]
    sage: [[d for d, _ in b] for b in batches(todo, 18, per_batch=4)]
    [[0], [1, 2], [3]]
    sage: default_executor(4) is None
    True
"""
import logging
import os

logger = logging.getLogger("sage_attention")


def batches(todo, work, per_batch=None):
    r"""
    Split the pieces ``todo`` into batches of about equal work (sum of `N^2`), at least one piece each.

    INPUT:

    - ``todo`` -- list of ``(delta, args)``, ``args[3]`` the monomials of the piece
    - ``work`` -- the total work
    - ``per_batch`` -- (default: about ``work / (8 * cores)``) the work of a batch

    OUTPUT: an iterator of lists

    EXAMPLES::

        sage: from sage_attention.ideals.engine.workers import batches
        sage: todo = [(i, (None, 2, i, [0] * n)) for i, n in enumerate([3, 1, 2, 2])]
        sage: [[d for d, _ in b] for b in batches(todo, 18, per_batch=4)]
        [[0], [1, 2], [3]]
    """
    target = per_batch or max(work // (8 * (os.cpu_count() or 1)), 1)
    batch, acc = [], 0
    for item in todo:
        batch.append(item)
        acc += len(item[1][3]) ** 2
        if acc >= target:
            yield batch
            batch, acc = [], 0
    if batch:
        yield batch


def default_executor(npieces):
    r"""
    Return a process pool for ``npieces`` pieces, or ``None`` (run them here).

    A pool is used when this machine has several cores and there are at
    least `64` pieces. Its workers ignore ``SIGINT``: a Ctrl-C in a terminal
    reaches the whole process group, and only this process handles it (it
    returns what finished and ends the workers, :func:`stop_executor`), so
    no worker prints a traceback.

    INPUT: ``npieces`` -- integer

    OUTPUT: a ``ProcessPoolExecutor`` or ``None``

    EXAMPLES::

        sage: from sage_attention.ideals.engine.workers import default_executor
        sage: default_executor(3) is None
        True
    """
    n = os.cpu_count() or 1
    if n > 1 and npieces >= 64:
        from concurrent.futures import ProcessPoolExecutor
        return ProcessPoolExecutor(max_workers=n, initializer=ignore_interrupts)
    return None


def ignore_interrupts():
    r"""
    Make this process ignore ``SIGINT`` (the initializer of the workers of :func:`default_executor`).

    EXAMPLES::

        sage: import signal, subprocess, sys
        sage: code = ("import signal; from sage_attention.ideals.engine.workers import ignore_interrupts; "
        ....:         "ignore_interrupts(); print(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)")
        sage: subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
        'True\n'
    """
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def stop_executor(executor, interrupted):
    r"""
    Shut down a pool of :func:`default_executor`; after a Ctrl-C, end its workers at once.

    The workers ignore ``SIGINT``, so after an interrupt the batches they
    are running would otherwise be finished (and waited for when Python
    exits); their results are not wanted.

    INPUT:

    - ``executor`` -- a ``ProcessPoolExecutor``
    - ``interrupted`` -- boolean

    EXAMPLES::

        sage: from sage_attention.ideals.engine.workers import default_executor, stop_executor
        sage: ex = default_executor(64)
        sage: ex is None or (ex.submit(abs, -1).result(), stop_executor(ex, True))[0] == 1
        True
    """
    if not interrupted:
        executor.shutdown(wait=True)
        return
    terminate = getattr(executor, "terminate_workers", None)      # Python >= 3.14
    if terminate is not None:
        terminate()
        return
    processes = dict(getattr(executor, "_processes", None) or {})
    executor.shutdown(wait=False, cancel_futures=True)
    for proc in processes.values():
        proc.terminate()
    for proc in processes.values():
        proc.join(10)


class PieceProgress:
    r"""
    Progress of the pieces of a run, degree by degree: logged at level
    ``DEBUG``, and shown as one bar (the pieces done, the elapsed time and
    the rate; no time left, which the pieces' unequal costs make wild) when
    ``enabled``.

    The bar comes from :func:`~sage_attention.misc.progress_display.step_bar`:
    one ``tqdm`` line on standard error, rewritten in place, in a terminal;
    a phase of the cell's one progress display in a Jupyter notebook. Each degree
    (:meth:`start`) resets the same bar, so a run shows one bar whatever
    its number of degrees; :meth:`close` ends it. A phase inside compiled
    code that holds Python's interpreter lock (a Gröbner basis in Singular)
    shows a :class:`~sage_attention.misc.progress.Heartbeat` instead.

    INPUT:

    - ``enabled`` -- boolean; show the bar
    - ``unit`` -- (default: ``'pieces'``) what is counted
    - ``label`` -- (default: ``''``) a prefix of the message (e.g. the
      row of a report)

    EXAMPLES::

        sage: from sage_attention.ideals.engine.workers import PieceProgress
        sage: P = PieceProgress(False); P.start(2, 3); P.step()
        sage: P.degree, P.done, P.total
        (2, 1, 3)

    Two degrees share one bar, which ends with one newline::

        sage: P = PieceProgress(True, unit='degrees', label='linear: ')
        sage: import sys, io; err, sys.stderr = sys.stderr, io.StringIO()
        sage: P.start(1, 2); P.step(); P.step(); P.start(2, 1); P.step(); P.close()
        sage: out, sys.stderr = sys.stderr.getvalue(), err
        sage: out.count('\n'), out.split('\r')[-1].startswith('linear: degree 2: 100%')
        (1, True)
        sage: 'linear: degree 1: 100%' in out and out.endswith('degrees/s]\n')
        True
    """
    def __init__(self, enabled, unit="pieces", label=""):
        self.enabled = enabled
        self.done = 0
        self.total = 0
        self.degree = 0
        self.unit = unit
        self.label = label
        self._bar = None
        self._shown = None

    def _message(self):
        return f"{self.label}degree {self.degree}: {self.done}/{self.total} {self.unit}"

    def start(self, degree, total):
        r"""
        Start counting the ``total`` steps of ``degree`` (the bar is reset, or made the first time).
        """
        self.degree, self.total, self.done = degree, total, 0
        logger.debug(self._message())
        if self.enabled:
            self._shown = degree
            if self._bar is None:
                from sage_attention.misc.progress_display import step_bar
                self._bar = step_bar(int(total), f"{self.label}degree {degree}", self.unit)
            else:
                self._bar.refresh()         # the last state of the degree before, then the next
                self._bar.reset(total=int(total))
                self._bar.set_description(f"{self.label}degree {degree}", refresh=True)

    def step(self):
        r"""
        Count one step.
        """
        self.done += 1
        logger.debug(self._message())
        if self._bar is not None:
            if self.degree != self._shown:
                self._shown = self.degree
                self._bar.set_description(f"{self.label}degree {self.degree}", refresh=False)
            self._bar.update(1)

    def close(self):
        r"""
        End the bar shown (after an interrupt, say); nothing if none is shown.
        """
        if self._bar is not None:
            bar, self._bar = self._bar, None
            bar.close()
