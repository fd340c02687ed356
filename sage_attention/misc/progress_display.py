r"""
One progress display per call in a Jupyter notebook, and counted steps without a time estimate

In a terminal the long steps of the package show their progress on standard
error: a :class:`~sage_attention.misc.progress.Heartbeat` line (the phase and
its elapsed seconds) and a bar of counted steps (:func:`step_bar`). In a
Jupyter notebook, the kernel's own process (:func:`in_notebook`), the steps of
one call -- the graded pieces of every degree, the Gröbner bases, the proofs --
show in **one** display instead, updated in place: the call, the phase it is
in with its elapsed seconds and, for a phase of counted steps, how many of
how many, and the finished phases with their times. Nothing is written on
standard error (no red line per second), and forked children of the kernel
write nothing either (their output would reach the notebook as stderr).

No time left is estimated, in a terminal or a notebook: the pieces of one
degree and the degrees of one run differ in cost by orders of magnitude, so
an estimate from the first steps can be wrong by a factor of forty. The
counts, the elapsed time and the rate measured are shown.

A *call* is the cell that runs: every phase started while one cell executes
goes to the same display. The long computations of the package (the
functions decorated with
:func:`~sage_attention.misc.progress.redelivering_interrupts`:
``implicitize``, the elimination, the Jacobian rank, the minimal generators)
name the call (:func:`call_scope`): the display's title is the outermost of
them, and says ``done in ... s`` when it returns.

The display is an ``IPython`` display with a ``display_id`` (HTML, with a
plain text twin), updated with ``update_display_data``: it needs no widget
library, shows in JupyterLab, the classic notebook, VS Code and an HTML
export by ``nbconvert --execute``.

EXAMPLES:

Outside a notebook there is no display, and a bar of counted steps is a
``tqdm`` line on standard error without a time estimate (``[elapsed, rate]``)::

    sage: import io
    sage: from sage_attention.misc.progress_display import in_notebook, step_bar
    sage: in_notebook()
    False
    sage: out = io.StringIO()
    sage: bar = step_bar(3, "degree 2", "pieces", file=out)
    sage: bar.update(3); bar.close()
    sage: line = out.getvalue().split("\r")[-1]; line.startswith("degree 2: 100%")
    True
    sage: "<" in line, line.rstrip().endswith("pieces/s]")
    (False, True)

A display that renders into a list (what a notebook shows, as text)::

    sage: from sage_attention.misc.progress_display import CallDisplay
    sage: shown = []
    sage: D = CallDisplay(shown.append)
    sage: degree = D.begin("degree 2", total=3, unit="pieces"); D.count(2)
    sage: print(D.text())
    degree 2: 2/3 pieces, 0 s
    sage: D.end(degree); proof = D.begin("completeness proof (at most 30 s)"); D.end(proof)
    sage: D.finish("implicitize", "done")
    sage: print(D.text())
    implicitize: done in 0.0 s
      ✓ degree 2: 2/3 pieces, 0.0 s
      ✓ completeness proof (at most 30 s): 0.0 s
    sage: len(shown) >= 3       # every change redraws the one display
    True
"""
import contextvars
import html
import os
import sys
import threading
import time
from contextlib import contextmanager

from sage_attention.settings import settings

#: the outermost call labels of the computations running in this context
_CALLS = contextvars.ContextVar("sage_attention_calls", default=())

#: the display of the cell that runs: (cell id, CallDisplay)
_CURRENT = [None]
_LOCK = threading.RLock()

#: the number of finished phases listed (the earlier ones are counted)
SHOWN_PHASES = 8


def _shell():
    """The IPython shell of a Jupyter kernel, or ``None``."""
    if "ipykernel" not in sys.modules:
        return None
    IPython = sys.modules.get("IPython")
    if IPython is None:
        return None
    try:
        shell = IPython.get_ipython()
    except Exception:
        return None
    if shell is None or getattr(shell, "kernel", None) is None:
        return None
    return shell


def _kernel_pid():
    """The process id of the kernel (its output streams record it)."""
    for stream in (sys.stderr, sys.stdout, sys.__stderr__):
        pid = getattr(stream, "_master_pid", None)
        if isinstance(pid, int):
            return pid
    return _IMPORT_PID


_IMPORT_PID = os.getpid()


def in_notebook():
    r"""
    Return whether this process is a Jupyter kernel (ipykernel) showing its output in a notebook.

    True in the kernel's own process only: ``ipykernel`` is loaded, IPython's
    shell has a kernel, and this is not a forked child of the kernel
    (:func:`in_kernel_child`). A terminal IPython, a script, ``sage -t`` and
    the command line are not notebooks.

    OUTPUT: boolean

    EXAMPLES::

        sage: from sage_attention.misc.progress_display import in_notebook
        sage: in_notebook()
        False
    """
    return _shell() is not None and os.getpid() == _kernel_pid()


def in_kernel_child():
    r"""
    Return whether this process is a forked child of a Jupyter kernel.

    A child (a proof under a time limit, a pool worker) inherits the
    kernel's output streams, and what it writes reaches the notebook as
    standard error: progress is not shown there.

    OUTPUT: boolean

    EXAMPLES::

        sage: from sage_attention.misc.progress_display import in_kernel_child
        sage: in_kernel_child()
        False
    """
    return _shell() is not None and os.getpid() != _kernel_pid()


def _cell_id(shell):
    try:
        return (shell.parent_header or {}).get("header", {}).get("msg_id")
    except Exception:
        return None


def _ipython_sink():
    """A function showing its argument in one display, updated in place."""
    from IPython.display import display
    handle = []

    def show(view):
        if not handle:
            handle.append(display(view, display_id=True))
        else:
            handle[0].update(view)
    return show


def notebook_display():
    r"""
    Return the display of the cell that runs, made at its first use; ``None`` outside a notebook.

    Every phase of the cell (:class:`~sage_attention.misc.progress.Heartbeat`,
    :func:`step_bar`) goes to it.

    OUTPUT: a :class:`CallDisplay`, or ``None``

    EXAMPLES::

        sage: from sage_attention.misc.progress_display import notebook_display
        sage: notebook_display() is None
        True
    """
    shell = _shell()
    if shell is None or os.getpid() != _kernel_pid():
        return None
    cell = _cell_id(shell)
    with _LOCK:
        current = _CURRENT[0]
        if current is not None and current[0] == cell:
            return current[1]
        D = CallDisplay(_ipython_sink())
        _CURRENT[0] = (cell, D)
        return D


@contextmanager
def call_scope(label):
    r"""
    Name the call that runs for the duration of the block (the outermost name wins).

    In a notebook, the display of the cell takes the outermost name as its
    title, and says how the call ended when the outermost block ends (if
    the call showed any phase). Elsewhere it only records the name.

    INPUT:

    - ``label`` -- string; the call, e.g. ``'implicitize'``

    EXAMPLES::

        sage: from sage_attention.misc.progress_display import call_scope, current_call
        sage: with call_scope("implicitize"):
        ....:     with call_scope("eliminate"):
        ....:         print(current_call())
        implicitize
        sage: current_call() is None
        True
    """
    calls = _CALLS.get()
    token = _CALLS.set(calls + (str(label),))
    outermost = not calls
    D = notebook_display() if outermost else None
    if D is not None:
        D.open_call(str(label))
    how = "stopped"
    try:
        yield
        how = "done"
    except KeyboardInterrupt:
        how = "interrupted"
        raise
    finally:
        _CALLS.reset(token)
        if D is not None:
            D.finish(str(label), how)


def current_call():
    r"""
    Return the name of the outermost call that runs (:func:`call_scope`), or ``None``.

    EXAMPLES::

        sage: from sage_attention.misc.progress_display import current_call
        sage: current_call() is None
        True
    """
    calls = _CALLS.get()
    return calls[0] if calls else None


def _seconds(s):
    if s < 60:
        return f"{s:.1f} s" if s < 10 else f"{s:.0f} s"
    m, s = divmod(int(round(s)), 60)
    return f"{m} min {s} s" if m < 60 else f"{m // 60} h {m % 60} min"


class _View:
    """What the display shows: HTML, and plain text for the rest."""

    def __init__(self, html_text, text):
        self._html, self._text = html_text, text

    def _repr_html_(self):
        return self._html

    def __repr__(self):
        return self._text


class CallDisplay:
    r"""
    The one display of a call: its phases, those that run, and how it ended.

    A phase starts with :meth:`begin` (with a ``total``, its steps are
    counted by :meth:`count`) and ends with :meth:`end`; phases may nest (a
    Gröbner basis inside a degree of counted pieces), and an inner phase
    shows under the outer one. :meth:`finish` ends the call. While a phase
    runs, a thread refreshes the elapsed seconds every
    ``settings.HEARTBEAT_INTERVAL`` (whenever compiled code lets the
    interpreter run); counts are shown at most four times per interval.

    INPUT:

    - ``sink`` -- a function called with the view (an object with
      ``_repr_html_`` and ``__repr__``) each time it changes

    EXAMPLES::

        sage: from sage_attention.misc.progress_display import CallDisplay
        sage: views = []
        sage: D = CallDisplay(views.append)
        sage: outer = D.begin("degree 3", total=10, unit="pieces"); D.count(4, outer)
        sage: inner = D.begin("Gröbner basis"); print(D.text())
        degree 3: 4/10 pieces, 0 s
          Gröbner basis: 0 s
        sage: D.end(inner, "interrupted"); D.end(outer, "interrupted"); print(D.text())
          ✗ Gröbner basis: interrupted after 0.0 s
          ✗ degree 3: 4/10 pieces, interrupted after 0.0 s
        sage: 'sage-attention-progress' in views[-1]._repr_html_()
        True
    """

    def __init__(self, sink):
        self._sink = sink
        self._sink_lock = threading.Lock()
        self.title = None
        self.state = None
        self.phases = []             # finished: (label, counted, how, seconds)
        self.running = []            # each [label, start, done, total, unit]
        self.start = None
        self._shown_at = 0.0
        self._ticker = None
        self._stop = None

    # -- the call ------------------------------------------------------------------------
    def open_call(self, label):
        r"""Start a call named ``label`` in this display (a cell may make several calls)."""
        with _LOCK:
            self.title, self.state = label, None
            if not self.running:
                self.start = None

    def finish(self, label, how):
        r"""End the call ``label``: ``how`` is ``'done'``, ``'interrupted'`` or ``'stopped'``."""
        while self.running:
            self.end(self.running[-1], how)
        with _LOCK:
            if self.start is None:       # the call showed nothing: nothing to say
                return
            self.title = label
            self.state = (how, time.time() - self.start)
        self._show(force=True)

    # -- the phases ----------------------------------------------------------------------
    def begin(self, label, total=None, unit=None):
        r"""Start the phase ``label`` and return it; with ``total``, its steps are counted (:meth:`count`)."""
        with _LOCK:
            now = time.time()
            if self.start is None or self.state is not None:
                self.start, self.state = now, None
                self.title = current_call()
            phase = [str(label), now, 0, total, unit]
            self.running.append(phase)
        self._show(force=True)
        self._start_ticker()
        return phase

    def count(self, done, phase=None, total=None):
        r"""Set the steps done of ``phase`` (default: the innermost that runs), and its total if given."""
        with _LOCK:
            phase = phase if phase is not None else (self.running[-1] if self.running else None)
            if phase is None:
                return
            phase[2] = done
            if total is not None:
                phase[3] = total
        self._show()

    def rename(self, label, phase=None):
        r"""Rename ``phase`` (default: the innermost that runs)."""
        with _LOCK:
            phase = phase if phase is not None else (self.running[-1] if self.running else None)
            if phase is not None:
                phase[0] = str(label)
        self._show()

    def end(self, phase=None, how="done"):
        r"""
        End ``phase`` (default: the innermost that runs): ``how`` is ``'done'``, ``'interrupted'`` or ``'stopped'``.
        """
        with _LOCK:
            if phase is None:
                phase = self.running[-1] if self.running else None
            if phase is None or not any(p is phase for p in self.running):
                return
            self.running = [p for p in self.running if p is not phase]
            label, t0, done, total, unit = phase
            counted = f"{done}/{total} {unit}, " if total is not None else ""
            self.phases.append((label, counted, how, time.time() - t0))
            idle = not self.running
        if idle:
            self._stop_ticker()
        self._show(force=True)

    # -- the ticks -----------------------------------------------------------------------
    def _start_ticker(self):
        with _LOCK:
            if self._ticker is not None:
                return
            self._stop = threading.Event()
            self._ticker = threading.Thread(target=self._tick, args=(self._stop,), daemon=True,
                                            name="sage_attention progress display")
            ticker = self._ticker
        ticker.start()

    def _tick(self, stop):
        while not stop.wait(settings.HEARTBEAT_INTERVAL):
            self._show(force=True)

    def _stop_ticker(self):
        with _LOCK:
            ticker, self._ticker = self._ticker, None
            if ticker is not None:
                self._stop.set()
        if ticker is not None and ticker is not threading.current_thread():
            ticker.join()

    # -- what is shown ---------------------------------------------------------------------
    def _lines(self):
        """The lines: (kind, depth, text), kind 'title', 'run', 'done', 'fail' or 'more'."""
        now = time.time()
        out = []
        if self.state is not None:
            how, seconds = self.state
            out.append(("title", 0, f"{self.title}: " + (f"done in {_seconds(seconds)}" if how == "done"
                                                         else f"{how} after {_seconds(seconds)}")))
        elif self.title is not None and self.start is not None:
            out.append(("title", 0, f"{self.title}: running, {int(now - self.start)} s"))
        hidden = max(0, len(self.phases) - SHOWN_PHASES)
        if hidden:
            out.append(("more", 0, f"… {hidden} earlier phase{'s' * (hidden != 1)}"))
        for label, counted, how, seconds in self.phases[hidden:]:
            if how == "done":
                out.append(("done", 0, f"{label}: {counted}{_seconds(seconds)}"))
            else:
                out.append(("fail", 0, f"{label}: {counted}{how} after {_seconds(seconds)}"))
        for depth, (label, t0, done, total, unit) in enumerate(self.running):
            counted = f"{done}/{total} {unit}, " if total is not None else ""
            out.append(("run", depth, f"{label}: {counted}{int(now - t0)} s"))
        return out

    def text(self):
        r"""Return the display as plain text."""
        with _LOCK:
            lines = self._lines()
        mark = {"title": "", "run": "", "done": "  ✓ ", "fail": "  ✗ ", "more": "  "}
        return "\n".join("  " * d + mark[k] + t for k, d, t in lines)

    def html(self):
        r"""Return the display as HTML (a bar for a phase of counted steps)."""
        with _LOCK:
            lines = self._lines()
            running = [list(p) for p in self.running]
        rows = []
        for kind, depth, t in lines:
            body = html.escape(t)
            if kind == "title":
                rows.append(f"<div><b>{body}</b></div>")
            elif kind == "run":
                phase, bar = running[depth], ""
                if phase[3]:
                    bar = (f' <progress value="{phase[2]}" max="{phase[3]}" '
                           f'style="width:10em;vertical-align:middle"></progress>')
                rows.append(f'<div style="margin-left:{1.2 * depth}em">&#9656; {body}{bar}</div>')
            elif kind == "more":
                rows.append(f'<div style="color:#777">{body}</div>')
            else:
                sign = "&#10003;" if kind == "done" else "&#10007;"
                color = "#2a7a2a" if kind == "done" else "#b03030"
                rows.append(f'<div style="color:#555"><span style="color:{color}">{sign}</span> {body}</div>')
        return ('<div class="sage-attention-progress" style="font-family:monospace;font-size:90%;'
                'line-height:1.4">' + "".join(rows) + "</div>")

    def _show(self, force=False):
        now = time.time()
        if not force and now - self._shown_at < settings.HEARTBEAT_INTERVAL / 4:
            return
        self._shown_at = now
        view = _View(self.html(), self.text())
        with self._sink_lock:
            try:
                self._sink(view)
            except Exception:       # a display that fails must not stop the computation
                pass


class _DisplayBar:
    """The tqdm methods a bar of counted steps uses, drawn as a phase of the notebook's display."""

    def __init__(self, display, total, desc, unit):
        self._display, self.unit, self.n, self.total, self.desc = display, unit, 0, total, desc
        self._phase = display.begin(desc, total=total, unit=unit)

    def update(self, n=1):
        self.n += n
        self._display.count(self.n, self._phase)

    def refresh(self):
        self._display.count(self.n, self._phase)

    def reset(self, total=None):
        self._display.end(self._phase, "done")
        self.n = 0
        if total is not None:
            self.total = total
        self._phase = self._display.begin(self.desc, total=self.total, unit=self.unit)

    def set_description(self, desc, refresh=True):
        self.desc = desc
        self._display.rename(desc, self._phase)

    def close(self):
        # a bar closed before its last step: the computation stopped (an interrupt, an error)
        self._display.end(self._phase, "done" if self.total is None or self.n >= self.total else "stopped")


class _SilentBar:
    """A bar that shows nothing (in a forked child of a kernel)."""

    def __init__(self):
        self.n, self.total = 0, None

    def update(self, n=1):
        self.n += n

    def refresh(self):
        pass

    def reset(self, total=None):
        self.n = 0

    def set_description(self, desc, refresh=True):
        pass

    def close(self):
        pass


#: a tqdm bar without the time left: the steps, the elapsed time and the rate measured
BAR_FORMAT = "{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}, {rate_fmt}{postfix}]"


_TQDM = []


def _tqdm_class():
    """tqdm, with integer counts (a Sage integer would make the percentage a rational)."""
    if not _TQDM:
        from tqdm import tqdm

        class StepBar(tqdm):
            def update(self, n=1):
                return super().update(int(n))

            def reset(self, total=None):
                return super().reset(total=None if total is None else int(total))
        _TQDM.append(StepBar)
    return _TQDM[0]


def step_bar(total, desc, unit, file=None):
    r"""
    Return a bar of ``total`` counted steps: a ``tqdm`` line, or a phase of the notebook's display.

    In a terminal (or any stream) it is a ``tqdm`` bar with the steps, the
    elapsed time and the rate, without a time left (:data:`BAR_FORMAT`).
    In a notebook it is a phase of the cell's display
    (:func:`notebook_display`), with the same methods (``update``,
    ``reset``, ``set_description``, ``refresh``, ``close``); in a forked
    child of a kernel it shows nothing.

    INPUT:

    - ``total`` -- integer; the steps
    - ``desc`` -- string; the phase
    - ``unit`` -- string; what is counted
    - ``file`` -- (default: ``sys.stderr`` at the call) the stream of a ``tqdm`` bar

    OUTPUT: an object with ``tqdm``'s methods named above

    EXAMPLES::

        sage: import io
        sage: from sage_attention.misc.progress_display import step_bar
        sage: out = io.StringIO()
        sage: bar = step_bar(2, "degree 1", "pieces", file=out)
        sage: bar.update(); bar.reset(total=4); bar.set_description("degree 2")
        sage: bar.update(4)
        sage: bar.close(); out.getvalue().split("\r")[-1].startswith("degree 2: 100%|")
        True
    """
    if file is None or file is sys.stderr:
        D = notebook_display()
        if D is not None:
            return _DisplayBar(D, int(total), desc, unit)
        if in_kernel_child():
            return _SilentBar()
    return _tqdm_class()(total=int(total), desc=desc, unit=unit, file=sys.stderr if file is None else file,
                         leave=True, dynamic_ncols=True, bar_format=BAR_FORMAT)
