r"""
Progress of long opaque steps, and Ctrl-C inside compiled code

Small tools that the long computations of the package share (this
module imports no Sage, so every layer may use it):

- :class:`Heartbeat` shows the phase a computation is in and the seconds it
  has been running, on standard error, once a second. A Gröbner basis in
  Singular is one call that says nothing about how far it is, so the only
  honest progress is the phase and the elapsed time (never a percentage).
  Singular keeps Python's interpreter lock while it computes, so a Python
  thread could not tick during the call: when the stream is a file (a
  terminal, a pipe) the ticks come from a tiny separate process that
  writes to the same file.
  In a Jupyter notebook the phases of one call show in one display
  instead, updated in place, with nothing on standard error
  (:mod:`~sage_attention.misc.progress_display`).
- :func:`interruptible` runs one opaque call (a Gröbner basis in Singular,
  which does not answer Ctrl-C for tens of seconds) in a forked child and
  kills the child on Ctrl-C, so the parent answers within a fraction of a
  second.
- :func:`redelivering_interrupts` makes one Ctrl-C stop a computation even
  when the ``KeyboardInterrupt`` is raised inside a compiled callback that
  cannot propagate it (for example a LinBox matrix product over a prime
  field: Python prints "Exception ignored" and goes on). The long library
  computations install it for their duration; the command line installs it
  for the whole run (:func:`redeliver_lost_interrupts`).

EXAMPLES:

A phase that takes a moment (the stream here is a string buffer, so the
ticks come from a thread, which runs while the main thread sleeps)::

    sage: import io, time
    sage: from sage_attention.misc.progress import Heartbeat
    sage: out = io.StringIO()
    sage: with Heartbeat("Gröbner basis", stream=out, interval=0.01):
    ....:     while out.getvalue().count("\r") < 2:
    ....:         time.sleep(float(0.01))
    sage: out.getvalue().split("\r")[:2]
    ['Gröbner basis: 0 s', 'Gröbner basis: 0 s']
    sage: out.getvalue().split("\r")[-1]
    'Gröbner basis: done in ... s\n'
"""
import logging
import sys
import threading
import time

from sage_attention.misc.progress_display import call_scope, in_kernel_child, notebook_display
from sage_attention.settings import moved_to_settings, settings

logger = logging.getLogger("sage_attention")

# The seconds between two ticks of a Heartbeat by default, and between two
# checks for Ctrl-C in interruptible(): settings.HEARTBEAT_INTERVAL and
# settings.POLL_INTERVAL (the old names are served from there).
__getattr__ = moved_to_settings(__name__, {"HEARTBEAT_INTERVAL": "HEARTBEAT_INTERVAL",
                                           "POLL_INTERVAL": "POLL_INTERVAL"})

# The ticker process: tick every interval until its standard input is
# closed (by the parent, or by the end of the parent).
_TICKER = """
import os, select, sys, time
start, interval, label = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
while not select.select([0], [], [], interval)[0]:
    os.write(2, ("\\r%s: %d s" % (label, time.time() - start)).encode())
"""


class Heartbeat:
    r"""
    Show a phase of a computation and its elapsed seconds while it runs.

    Used as a context manager around one step. When ``enabled``, it writes
    ``label: 0 s`` when the step starts, rewrites the line (carriage
    return) every ``interval`` seconds with the seconds elapsed, and ends it
    with ``label: done in ... s`` (``interrupted after ... s`` on Ctrl-C,
    ``stopped after ... s`` on another exception, which propagates). The
    start and the end of the phase are logged at level ``INFO`` whether
    enabled or not.

    When ``stream`` is a file with a descriptor (standard error in a
    terminal or redirected to a pipe or a file), the ticks are written by a
    separate process (in its own session, so a Ctrl-C in the terminal does
    not reach it): they go on while compiled code such as Singular holds
    Python's interpreter lock. It ends with the step (its standard input is
    closed and it is waited for), and with this process if this process is
    killed. Otherwise (a ``StringIO``) a daemon thread ticks, whenever the
    interpreter lets it (not while Singular computes); it is joined at the
    end of the step.

    In a Jupyter notebook (the stream is standard error, the default, and
    this is the kernel's process) nothing is written on the stream: the
    step is a phase of the one progress display of the cell
    (:mod:`~sage_attention.misc.progress_display`), which shows its elapsed
    seconds in place. In a forked child of a kernel (a proof under a time
    limit) nothing is shown: its standard error would reach the notebook.

    INPUT:

    - ``label`` -- string; the phase, in words
    - ``enabled`` -- boolean (default: ``True``); show it (``False``: only log)
    - ``interval`` -- positive number (default: ``settings.HEARTBEAT_INTERVAL``,
      one second); seconds between two ticks
    - ``stream`` -- (default: ``sys.stderr`` when the step starts) where to write

    EXAMPLES::

        sage: import io
        sage: from sage_attention.misc.progress import Heartbeat
        sage: out = io.StringIO()
        sage: with Heartbeat("building the ring", stream=out):
        ....:     pass
        sage: out.getvalue()
        'building the ring: 0 s\rbuilding the ring: done in ... s\n'

    Ctrl-C (or any exception) ends the line and propagates::

        sage: with Heartbeat("Gröbner basis", stream=out):
        ....:     raise KeyboardInterrupt
        Traceback (most recent call last):
        ...
        KeyboardInterrupt
        sage: out.getvalue().split("\r")[-1]
        'Gröbner basis: interrupted after ... s\n'

    Disabled, it writes nothing::

        sage: quiet = io.StringIO()
        sage: with Heartbeat("anything", enabled=False, stream=quiet) as h:
        ....:     pass
        sage: quiet.getvalue(), h.seconds >= 0
        ('', True)

    TESTS::

        sage: Heartbeat("x", interval=0)
        Traceback (most recent call last):
        ...
        ValueError: interval (=0) must be a positive number of seconds
    """

    def __init__(self, label, enabled=True, interval=None, stream=None):
        if interval is None:
            interval = settings.HEARTBEAT_INTERVAL
        try:
            seconds = float(interval)
        except (TypeError, ValueError):
            seconds = None
        if isinstance(interval, (bool, str)) or seconds is None or not seconds > 0:
            raise ValueError(f"interval (={interval!r}) must be a positive number of seconds")
        self.label = str(label)
        self.enabled = bool(enabled)
        self.interval = seconds
        self.stream = stream
        self.seconds = 0.0
        self._start = None
        self._process = None
        self._thread = None
        self._stop = None
        self._display = None

    def _write(self, text):
        self.stream.write(text)
        self.stream.flush()

    def _descriptor(self):
        if type(self.stream).__module__.split(".")[0] == "ipykernel":
            # a notebook's stream: its descriptor (if any) is the kernel's
            # terminal, not the notebook
            return None
        try:
            return self.stream.fileno()
        except (AttributeError, OSError, ValueError):
            return None

    def __enter__(self):
        self._start = time.time()
        logger.info("%s: started", self.label)
        if not self.enabled:
            return self
        if self.stream is None or self.stream is sys.stderr:
            # in a notebook: a phase of the cell's one display, nothing on stderr; in a
            # forked child of the kernel: nothing (it would reach the notebook as stderr)
            display = notebook_display()
            if display is not None:
                self._display = (display, display.begin(self.label))
                return self
            if in_kernel_child():
                self._display = (None, None)
                return self
        if self.stream is None:
            self.stream = sys.stderr
        self._write(f"{self.label}: 0 s")
        fd = self._descriptor()
        if fd is not None:
            import subprocess
            try:
                self._process = subprocess.Popen(
                    [sys.executable, "-S", "-c", _TICKER, repr(self._start), repr(self.interval),
                     self.label], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=fd,
                    start_new_session=True)
                return self
            except OSError:
                self._process = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._tick, name="sage_attention heartbeat",
                                        daemon=True)
        self._thread.start()
        return self

    def _tick(self):
        while not self._stop.wait(self.interval):
            self._write(f"\r{self.label}: {int(time.time() - self._start)} s")

    def _end(self):
        if self._process is not None:
            proc, self._process = self._process, None
            # a process forked during the step (a pool worker) may hold the
            # ticker's standard input open: end the ticker, do not wait for EOF
            try:
                proc.stdin.close()
                proc.terminate()
            finally:
                try:
                    proc.wait(timeout=10)
                except BaseException:
                    proc.kill()
                    proc.wait()
                    raise
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None

    def __exit__(self, exc_type, exc, tb):
        self.seconds = time.time() - self._start
        if exc_type is None:
            how = f"done in {self.seconds:.1f} s"
        elif issubclass(exc_type, KeyboardInterrupt):
            how = f"interrupted after {self.seconds:.1f} s"
        else:
            how = f"stopped after {self.seconds:.1f} s ({exc_type.__name__})"
        logger.info("%s: %s", self.label, how)
        if self._display is not None:
            display, phase = self._display
            self._display = None
            if display is not None:
                display.end(phase, how.split(" ")[0])
        elif self.enabled:
            self._end()
            self._write(f"\r{self.label}: {how}\n")
        return False


def _redelivering_hook(previous):
    """The unraisable hook that delivers a lost ``KeyboardInterrupt`` again."""
    def hook(unraisable):
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            # An exception set asynchronously in the main thread is raised at
            # its next Python instruction. (``_thread.interrupt_main`` does not
            # do: in a Sage process the Python handler of SIGINT is the one of
            # cysignals, which ignores a signal it has not seen itself.)
            import ctypes
            ctypes.pythonapi.PyThreadState_SetAsyncExc(
                ctypes.c_ulong(threading.main_thread().ident), ctypes.py_object(KeyboardInterrupt))
            return
        previous(unraisable)
    hook._sage_attention = True
    return hook


def redeliver_lost_interrupts():
    r"""
    Make a Ctrl-C that compiled code swallows reach the running computation, from now on.

    A ``KeyboardInterrupt`` raised inside some compiled callbacks (for example
    a LinBox matrix product over a prime field) cannot propagate: Python
    prints "Exception ignored" and goes on. The hook installed here
    (``sys.unraisablehook``, chained to the previous one, installed once)
    turns such an interrupt into a new one delivered to the main thread at
    the next Python instruction, so one Ctrl-C stops the run. The command
    line installs it for the whole run; the long computations of the
    library install it for their duration (:func:`redelivering_interrupts`).

    EXAMPLES::

        sage: import sys
        sage: from sage_attention.misc.progress import redeliver_lost_interrupts
        sage: before = sys.unraisablehook
        sage: redeliver_lost_interrupts(); hook = sys.unraisablehook
        sage: redeliver_lost_interrupts(); sys.unraisablehook is hook
        True
        sage: sys.unraisablehook = before
    """
    if getattr(sys.unraisablehook, "_sage_attention", False):
        return
    sys.unraisablehook = _redelivering_hook(sys.unraisablehook)


class redelivering_interrupts:
    r"""
    Install the hook of :func:`redeliver_lost_interrupts` for the duration of a block.

    The previous ``sys.unraisablehook`` is restored after the block (unless
    the block replaced it). Nothing changes when the hook is already
    installed (by the command line, or by an enclosing computation). It is
    also a decorator: the long computations of the package (implicitization,
    elimination, the Jacobian rank, the minimal generators) run under it, so
    one Ctrl-C stops them in a Sage or Jupyter session too.

    The block is also one *call* for the progress shown in a notebook
    (:func:`~sage_attention.misc.progress_display.call_scope`): the
    outermost call names the one display of the cell, with the decorated
    function's name.

    INPUT:

    - ``label`` -- string (default: ``None``: the decorated function's
      name, or ``'computation'``); the name of the call

    EXAMPLES::

        sage: import sys
        sage: from sage_attention.misc.progress import redelivering_interrupts
        sage: before = sys.unraisablehook
        sage: with redelivering_interrupts():
        ....:     sys.unraisablehook is before
        False
        sage: sys.unraisablehook is before
        True

    Other unraisable exceptions go to the previous hook::

        sage: from types import SimpleNamespace
        sage: seen = []
        sage: sys.unraisablehook = seen.append
        sage: with redelivering_interrupts():
        ....:     sys.unraisablehook(SimpleNamespace(exc_value=ValueError("x")))
        sage: sys.unraisablehook = before; seen
        [namespace(exc_value=ValueError('x'))]

    As a decorator, it names the call::

        sage: from sage_attention.misc.progress_display import current_call
        sage: @redelivering_interrupts()
        ....: def long_computation():
        ....:     return current_call()
        sage: long_computation()
        'long_computation'
    """

    def __init__(self, label=None):
        self.label = label
        self._saved = []

    def __enter__(self):
        previous = sys.unraisablehook
        hook = None
        if not getattr(previous, "_sage_attention", False):
            hook = _redelivering_hook(previous)
            sys.unraisablehook = hook
        scope = call_scope(self.label or "computation")
        try:
            scope.__enter__()
        except BaseException:
            if hook is not None and sys.unraisablehook is hook:
                sys.unraisablehook = previous
            raise
        self._saved.append((previous, hook, scope))
        return self

    def __exit__(self, exc_type, exc, tb):
        previous, hook, scope = self._saved.pop()
        try:
            scope.__exit__(exc_type, exc, tb)
        finally:
            if hook is not None and sys.unraisablehook is hook:
                sys.unraisablehook = previous
        return False

    def __call__(self, function):
        import functools
        label = (self.label or getattr(function, "__qualname__", "").split("<locals>.")[-1]
                 or "computation")

        @functools.wraps(function)
        def run(*args, **kwds):
            with redelivering_interrupts(label):
                return function(*args, **kwds)
        return run


def _forked_call(conn, fn, args):
    import signal
    # the parent answers Ctrl-C (and kills this process); a terminal's SIGINT
    # also reaches this process, which must not print a traceback of its own
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        conn.send(("ok", fn(*args)))
    except BaseException as e:  # reported to the parent
        try:
            conn.send(("error", e))
        except Exception:
            conn.send(("error", RuntimeError(repr(e))))
    conn.close()


def interruptible(fn, *args):
    r"""
    Return ``fn(*args)`` computed in a forked child process that Ctrl-C kills at once.

    Singular's Gröbner bases keep the interpreter lock and do not look at
    Ctrl-C for a long time (or, interrupted, may leave Singular unusable in
    this process). Here the parent waits for the child's answer and checks
    for an interrupt every ``settings.POLL_INTERVAL`` seconds; on
    ``KeyboardInterrupt`` the child is killed and the interrupt is raised
    again, within a fraction of a second. The result and any exception of
    ``fn`` come back pickled. Where ``fork`` is not available, ``fn`` runs
    in this process.

    INPUT:

    - ``fn`` -- a function whose result can be pickled
    - ``args`` -- its arguments (inherited by the child, not pickled)

    OUTPUT: ``fn(*args)``

    EXAMPLES::

        sage: from sage_attention.misc.progress import interruptible
        sage: interruptible(pow, 2, 10)
        1024
        sage: interruptible(int, "x")
        Traceback (most recent call last):
        ...
        ValueError: invalid literal for int() with base 10: 'x'

    A Ctrl-C (here an alarm, which Sage raises as a ``KeyboardInterrupt``)
    while the child computes stops the wait at once::

        sage: import time
        sage: from cysignals.alarm import alarm, AlarmInterrupt
        sage: t0 = time.time(); alarm(0.5)
        sage: try:
        ....:     interruptible(time.sleep, 30)
        ....: except AlarmInterrupt:
        ....:     print("interrupted after", round(time.time() - t0) < 3)
        interrupted after True
    """
    import multiprocessing
    import os
    if not hasattr(os, "fork"):  # pragma: no cover
        return fn(*args)
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_forked_call, args=(send, fn, args), daemon=True)
    proc.start()
    send.close()
    try:
        poll = settings.POLL_INTERVAL
        while not recv.poll(poll):
            if not proc.is_alive() and not recv.poll(0):
                raise RuntimeError(f"the child process computing {getattr(fn, '__name__', fn)} "
                                   f"died (exit status {proc.exitcode})")
        try:
            status, value = recv.recv()
        except EOFError:
            raise RuntimeError(f"the child process computing {getattr(fn, '__name__', fn)} "
                               f"died (exit status {proc.exitcode})") from None
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        recv.close()
    if status == "error":
        raise value
    return value
