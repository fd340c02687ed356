"""One progress display per call in a Jupyter notebook, no per-second lines on standard
error and no time estimate (sage_attention.misc.progress_display).

Two ways: a real kernel (the virtual environment's ``python3`` kernel, run by
nbclient as ``nbconvert --execute`` and ``make notebook`` run it) executes
cells that make long calls with ``progress=True``; and a fake notebook (the
kernel's shell and display replaced by recorders) in this process, which
counts the displays made and the updates sent.
"""
import os
import re
import sys
import time

import pytest

from sage_attention.misc import progress_display
from sage_attention.misc.progress import Heartbeat
from sage_attention.misc.progress_display import BAR_FORMAT, step_bar
from sage_attention.settings import settings

#: a tqdm line with a time left: "[00:03<01:46:10, ...]"
ETA = re.compile(r"\d\d:\d\d<")

#: a heartbeat line on standard error: "label: 3 s"
TICK = re.compile(r": \d+ s")


# -- a real kernel -------------------------------------------------------------------------

SETUP = """\
from sage.all__sagemath_singular import *
from sage_attention import LightningAttention, Neurovariety
from sage_attention.ideals.implicitization import implicitize
from sage_attention.variety.generation import generation_report
from sage_attention.settings import settings
settings.HEARTBEAT_INTERVAL = 0.02     # many ticks in each phase, as in a long run
"""

#: the calls, each in its own cell, and a phase each must show
CALLS = [
    ("R = implicitize(LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)]), 4, seed=0, "
     "progress=True)", "implicitize", "completeness proof"),
    ("G = generation_report(LightningAttention(d=2, t=2, a=1, entries=[(1, 1)]), "
     "families=['linear', 'low_rank'], progress=True)", "generation_report", "generation report"),
    ("I = Neurovariety(LightningAttention(d=2, t=2, a=2, entries=[(1, 1)])).vanishing_ideal("
     "progress=True)", "vanishing ideal", "degree 4"),
    ("J = Neurovariety(LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])).vanishing_ideal("
     "algorithm='elimination', progress=True)", "vanishing ideal", "elimination"),
]


def _kernel_available():
    try:
        import nbclient  # noqa: F401
        import nbformat  # noqa: F401
        from jupyter_client.kernelspec import KernelSpecManager
        return "python3" in KernelSpecManager().find_kernel_specs()
    except Exception:
        return False


@pytest.mark.skipif(not _kernel_available(), reason="nbclient or the python3 kernel is missing")
def test_each_call_shows_one_display_and_nothing_on_stderr_in_a_notebook():
    import nbformat
    from nbclient import NotebookClient
    cells = [SETUP] + [c for c, _, _ in CALLS]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    NotebookClient(nb, kernel_name="python3", timeout=600).execute()
    assert not nb.cells[0].outputs
    for cell, (_, call, phase) in zip(nb.cells[1:], CALLS):
        kinds = [(o.output_type, o.get("name")) for o in cell.outputs]
        assert ("stream", "stderr") not in kinds, (cell.source, cell.outputs)
        shown = [o for o in cell.outputs if o.output_type == "display_data"]
        assert len(shown) == 1, (cell.source, kinds)
        data = shown[0]["data"]
        assert 'class="sage-attention-progress"' in data["text/html"]
        text = data["text/plain"]
        # the final state: the call by name, how it ended, every phase with its time
        assert text.splitlines()[0].startswith(f"{call}: done in "), text
        assert phase in text, text
        assert not ETA.search(text) and "remaining" not in text


# -- a fake notebook in this process -----------------------------------------------------

class FakeShell:
    """What in_notebook() reads of IPython's shell in a kernel: a kernel, the cell's header."""

    def __init__(self):
        self.kernel = object()
        self.parent_header = {"header": {"msg_id": "cell-1"}}

    def run_cell(self, n):
        self.parent_header = {"header": {"msg_id": f"cell-{n}"}}


@pytest.fixture
def notebook(monkeypatch):
    """A fake notebook: its displays (one list of views per display made)."""
    shell = FakeShell()
    displays = []

    def sink():
        views = []
        displays.append(views)
        return views.append
    monkeypatch.setattr(progress_display, "_shell", lambda: shell)
    monkeypatch.setattr(progress_display, "_kernel_pid", lambda: os.getpid())
    monkeypatch.setattr(progress_display, "_ipython_sink", sink)
    monkeypatch.setattr(progress_display, "_CURRENT", [None])
    shell.displays = displays
    return shell


def test_a_call_of_several_phases_makes_one_display_that_ticks(notebook, capfd):
    from sage_attention.misc.progress import redelivering_interrupts

    @redelivering_interrupts()
    def long_call():
        bar = step_bar(3, "degree 1", "pieces")
        for _ in range(3):
            bar.update()
        bar.reset(total=2)
        bar.set_description("degree 2")
        with Heartbeat("Gröbner basis"):       # nested in the degree's phase
            time.sleep(0.3)
        bar.update(2)
        bar.close()
        with Heartbeat("completeness proof"):
            time.sleep(0.3)

    with settings.override(HEARTBEAT_INTERVAL=0.02):
        long_call()
    out, err = capfd.readouterr()
    assert err == "" and out == ""
    assert len(notebook.displays) == 1
    views = notebook.displays[0]
    assert len(views) > 10                       # the ticks went to the display
    last = repr(views[-1]).splitlines()
    assert last[0].startswith("long_call: done in ")
    assert [line.split(":")[0].strip(" ✓") for line in last[1:]] == [
        "degree 1", "Gröbner basis", "degree 2", "completeness proof"]
    assert "3/3 pieces" in last[1] and "2/2 pieces" in last[3]
    # while the proof ran, the display said so, with its elapsed seconds
    assert any("▸ completeness proof: " in v._repr_html_().replace("&#9656;", "▸") for v in views)


def test_two_cells_make_two_displays_and_an_interrupt_is_shown(notebook, capfd):
    with Heartbeat("first call"):
        pass
    notebook.run_cell(2)
    with pytest.raises(KeyboardInterrupt):
        with Heartbeat("second call"):
            raise KeyboardInterrupt
    assert capfd.readouterr().err == ""
    assert len(notebook.displays) == 2
    assert "second call: interrupted after" in repr(notebook.displays[1][-1])


def test_a_forked_child_of_the_kernel_writes_nothing(monkeypatch, capfd):
    # the child inherits the kernel's streams: its output would reach the notebook as stderr
    monkeypatch.setattr(progress_display, "_shell", FakeShell)
    monkeypatch.setattr(progress_display, "_kernel_pid", lambda: os.getpid() + 1)
    assert progress_display.in_kernel_child() and not progress_display.in_notebook()
    with settings.override(HEARTBEAT_INTERVAL=0.02):
        with Heartbeat("proof in a child"):
            time.sleep(0.1)
        bar = step_bar(2, "degree 1", "pieces")
        bar.update(2)
        bar.close()
    assert capfd.readouterr().err == ""


def test_no_notebook_outside_a_kernel():
    assert not progress_display.in_notebook()
    assert progress_display.notebook_display() is None


# -- the time estimate -------------------------------------------------------------------

def test_a_terminal_bar_shows_no_time_left(capsys):
    # the first pieces of a degree are cheap and the last ones dear (or the reverse): a
    # time left extrapolated from them was 40 times too long
    bar = step_bar(100, "degree 5", "pieces", file=sys.stderr)
    for _ in range(10):
        bar.update()
    bar.close()
    err = capsys.readouterr().err
    assert "degree 5:  10%|" in err and "10/100" in err
    assert not ETA.search(err) and "{remaining}" not in BAR_FORMAT
    assert "?" not in err.split("\r")[-1]


def test_the_engine_bar_shows_no_time_left(capsys):
    from sage_attention.ideals.engine.workers import PieceProgress
    P = PieceProgress(True)
    P.start(3, 50)
    for _ in range(7):
        P.step()
    P.close()
    err = capsys.readouterr().err
    assert "degree 3:  14%|" in err and "7/50" in err and not ETA.search(err)


def test_an_interrupted_degree_is_shown_stopped_with_its_count(notebook, capfd):
    bar = step_bar(10, "degree 4", "pieces")
    with pytest.raises(KeyboardInterrupt):
        with progress_display.call_scope("implicitize"):
            bar.update(3)
            try:
                raise KeyboardInterrupt
            finally:
                bar.close()
    assert capfd.readouterr().err == ""
    lines = repr(notebook.displays[0][-1]).splitlines()
    assert lines[0].startswith("implicitize: interrupted after ")
    assert lines[1].startswith("  ✗ degree 4: 3/10 pieces, stopped after ")

