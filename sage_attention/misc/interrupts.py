r"""
Ctrl-C: one meaning everywhere

Every long computation of the package answers Ctrl-C the same way, as Sage
does: it **raises**. The exception is :class:`ComputationInterrupted`, a
subclass of ``KeyboardInterrupt`` (so ``except KeyboardInterrupt`` and a
script's loop stop as after any Ctrl-C), and it carries what finished:

- ``e.partial`` -- the finished part, in the form the computation returns
  (for ``implicitize`` the report of the finished degrees, each of them
  proved complete as always; for the minimal generators the counts of the
  finished degrees; for a sweep the finished rows), or ``None`` when
  nothing finished (a Gröbner basis is all or nothing);
- ``e.phase`` -- a short name of the phase that was running:
  ``'interpolation'``, ``'proof'``, ``'minimal generators'``,
  ``'elimination'``, ``'dimension'``, ``'generation'``, ``'sweep'``,
  ``'filling'``;
- ``str(e)`` -- what finished and how to resume.

Where the finished part can be reused, it is kept in memory and the same
call resumes from it (``implicitize`` and the vanishing ideal resume from the
finished degrees). The command line prints what finished and exits with
status `130` (``doc/implicitization.rst``, "Interrupting a computation"):
:func:`interrupt_of` finds the finished part behind a second Ctrl-C, and
:func:`deferred_interrupts` holds Ctrl-C while it is written.

EXAMPLES:

A computation raises it from its ``except KeyboardInterrupt`` clause with
:func:`raise_interrupted`::

    sage: from sage_attention.misc.interrupts import ComputationInterrupted, raise_interrupted
    sage: def count_to(n):
    ....:     done = []
    ....:     try:
    ....:         for i in range(n):
    ....:             if i == 3:
    ....:                 raise KeyboardInterrupt      # Ctrl-C
    ....:             done.append(i)
    ....:     except KeyboardInterrupt as e:
    ....:         raise_interrupted(e, "sweep", done, f"{len(done)} of {n} rows finished",
    ....:                           "run the other rows again")
    sage: try:
    ....:     count_to(10)
    ....: except KeyboardInterrupt as e:
    ....:     print(type(e).__name__, e.phase, e.partial)
    ....:     print(e)
    ComputationInterrupted sweep [0, 1, 2]
    sweep interrupted: 3 of 10 rows finished (in e.partial); run the other rows again
"""
from contextlib import contextmanager


class ComputationInterrupted(KeyboardInterrupt):
    r"""
    Ctrl-C stopped a computation of the package; what finished is ``partial``.

    A subclass of ``KeyboardInterrupt``: code that stops on Ctrl-C stops on
    it. The convention is described in :mod:`sage_attention.misc.interrupts`.

    INPUT:

    - ``phase`` -- string; the phase that was running (``'interpolation'``,
      ``'proof'``, ``'minimal generators'``, ``'elimination'``,
      ``'dimension'``, ``'generation'``, ``'sweep'``, ``'filling'``)
    - ``partial`` -- (default: ``None``) what finished (a report, a
      dictionary, a list of rows), or a function of no argument that makes
      it when ``partial`` is first read (so that the interrupt is raised at
      once when making it takes seconds)
    - ``finished`` -- (default: ``''``) a sentence: what finished (the
      attribute ``what_finished``)
    - ``resume`` -- (default: ``''``) a sentence: how to resume
    - ``summary`` -- (default: ``None``) a small dictionary (JSON-able) of
      what finished that is cheap to make, for the command line's record

    EXAMPLES::

        sage: from sage_attention.misc.interrupts import ComputationInterrupted
        sage: e = ComputationInterrupted("interpolation", {2: 3}, "degrees 1..2 finished",
        ....:                            "the same call resumes from degree 3")
        sage: isinstance(e, KeyboardInterrupt), e.phase, e.partial
        (True, 'interpolation', {2: 3})
        sage: print(e)
        interpolation interrupted: degrees 1..2 finished (in e.partial); the same call resumes from degree 3

    A partial part made on demand is made once::

        sage: made = []
        sage: e = ComputationInterrupted("proof", lambda: made.append(1) or "the report")
        sage: len(made), e.partial, e.partial, len(made)
        (0, 'the report', 'the report', 1)
        sage: print(ComputationInterrupted("elimination"))
        elimination interrupted: nothing finished
        sage: print(ComputationInterrupted("sweep", [1, 2]))
        sweep interrupted: what finished is in e.partial
    """

    def __init__(self, phase, partial=None, finished="", resume="", summary=None):
        self.phase = str(phase)
        self._partial = partial
        self._made = not callable(partial)
        self.what_finished = finished
        self.resume = resume
        self.summary = dict(summary or {})
        super().__init__(self.message())

    @property
    def partial(self):
        r"""
        Return what finished (made when first read, when it was given as a function).

        EXAMPLES::

            sage: from sage_attention.misc.interrupts import ComputationInterrupted
            sage: ComputationInterrupted("sweep", [1, 2]).partial
            [1, 2]
        """
        if not self._made:
            self._partial = self._partial()
            self._made = True
        return self._partial

    def message(self):
        r"""
        Return the sentence of the interrupt: the phase, what finished, how to resume.

        EXAMPLES::

            sage: from sage_attention.misc.interrupts import ComputationInterrupted
            sage: ComputationInterrupted("sweep", [], "0 rows finished").message()
            'sweep interrupted: 0 rows finished (in e.partial)'
        """
        if self.what_finished:
            what = f"{self.what_finished} (in e.partial)"
        elif not self._made or self._partial is not None:
            what = "what finished is in e.partial"
        else:
            what = "nothing finished"
        return f"{self.phase} interrupted: {what}" + (f"; {self.resume}" if self.resume else "")

    def __str__(self):
        return self.message()

    def __reduce__(self):
        # sent from a forked process: the finished part made, the rest as given
        return (ComputationInterrupted, (self.phase, self.partial, self.what_finished, self.resume, self.summary))


def raise_interrupted(exc, phase, partial=None, finished="", resume="", summary=None):
    r"""
    Raise :class:`ComputationInterrupted` for the ``KeyboardInterrupt`` ``exc`` being handled.

    Call it in ``except KeyboardInterrupt as exc:``. The traceback is that of
    ``exc`` (where Ctrl-C arrived); the plain ``KeyboardInterrupt`` is not
    shown as a second exception. An alarm of ``cysignals`` (a
    ``KeyboardInterrupt`` too) is treated as Ctrl-C.

    INPUT:

    - ``exc`` -- the ``KeyboardInterrupt`` caught
    - ``phase``, ``partial``, ``finished``, ``resume``, ``summary`` -- as for
      :class:`ComputationInterrupted`

    OUTPUT: none; it raises

    EXAMPLES::

        sage: from sage_attention.misc.interrupts import raise_interrupted
        sage: try:
        ....:     try:
        ....:         raise KeyboardInterrupt
        ....:     except KeyboardInterrupt as e:
        ....:         raise_interrupted(e, "dimension", None)
        ....: except KeyboardInterrupt as e:
        ....:     print(repr(e.phase), e.partial, e.__suppress_context__)
        'dimension' None True
    """
    err = ComputationInterrupted(phase, partial, finished, resume, summary)
    raise err.with_traceback(getattr(exc, "__traceback__", None)) from None


def show_finished_and_raise(exc, phase, rows, finished, resume, show, err):
    r"""
    Write what finished (``show(rows)``) with Ctrl-C held, then raise :class:`ComputationInterrupted`.

    The command line's tables (sweeps, filling) call it in ``except
    KeyboardInterrupt as exc:``: a second Ctrl-C while the finished rows are
    written does not cut them short (:func:`deferred_interrupts`).

    INPUT:

    - ``exc`` -- the ``KeyboardInterrupt`` caught
    - ``phase`` -- the phase's name; ``rows`` -- the finished rows (the ``partial``)
    - ``finished``, ``resume`` -- what finished and how to go on, in words
    - ``show`` -- a function writing the rows; ``err`` -- the stream of the message

    OUTPUT: none; it raises

    EXAMPLES::

        sage: import sys
        sage: from sage_attention.misc.interrupts import show_finished_and_raise
        sage: try:
        ....:     try:
        ....:         raise KeyboardInterrupt
        ....:     except KeyboardInterrupt as e:
        ....:         show_finished_and_raise(e, "sweep", [1, 2], "2 rows finished", "run the others",
        ....:                                 print, sys.stdout)
        ....: except KeyboardInterrupt as e:
        ....:     print(e.phase, e.partial)
        interrupted: 2 rows finished
        [1, 2]
        sweep [1, 2]
    """
    with deferred_interrupts():
        print(f"interrupted: {finished}", file=err)
        if rows:
            show(rows)
    raise_interrupted(exc, phase, list(rows), finished, resume)


def interrupt_of(exc):
    r"""
    Return the :class:`ComputationInterrupted` behind the interrupt ``exc``, or ``None``.

    A second Ctrl-C while the first is being handled (in a ``finally``
    clause on its way up) raises a plain ``KeyboardInterrupt`` whose
    context is the first one: the finished part is found there.

    INPUT:

    - ``exc`` -- an exception

    OUTPUT: a :class:`ComputationInterrupted` or ``None``

    EXAMPLES::

        sage: from sage_attention.misc.interrupts import ComputationInterrupted, interrupt_of
        sage: try:
        ....:     try:
        ....:         raise ComputationInterrupted("sweep", [1])
        ....:     finally:
        ....:         raise KeyboardInterrupt       # a second Ctrl-C during the clean-up
        ....: except KeyboardInterrupt as e:
        ....:     print(type(e).__name__, interrupt_of(e).partial)
        KeyboardInterrupt [1]
        sage: interrupt_of(KeyboardInterrupt()) is None
        True
    """
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, ComputationInterrupted):
            return exc
        seen.add(id(exc))
        exc = exc.__context__
    return None


@contextmanager
def deferred_interrupts():
    r"""
    Hold Ctrl-C while the block runs; a Ctrl-C that arrives meanwhile is dropped.

    The command line writes what finished in such a block after the first
    Ctrl-C, so that a second one cannot cut the summary short: ``SIGINT``
    is blocked during the block, and at its end a pending ``SIGINT`` is
    consumed (``signal.sigtimedwait``) before the mask is restored. Outside
    the main thread, or where the platform has no signal masks, the block
    just runs.

    INPUT: none

    OUTPUT: a context manager

    EXAMPLES::

        sage: import os, signal
        sage: from sage_attention.misc.interrupts import deferred_interrupts
        sage: with deferred_interrupts():
        ....:     os.kill(os.getpid(), signal.SIGINT)     # a second Ctrl-C while the summary is written
        ....:     print("the summary")
        the summary
        sage: signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])
        False
    """
    import signal
    import threading
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        if signal.SIGINT not in old:
            while signal.sigtimedwait({signal.SIGINT}, 0) is not None:
                pass
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
