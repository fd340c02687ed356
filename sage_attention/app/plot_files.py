r"""
The file of ``--plot FILE``: checked before a command computes anything

:func:`check_plot_file` is called by the command line (:mod:`sage_attention.app.cli`)
for ``sweep``, ``defectivity`` and ``filling``, which then write their picture
with :func:`~sage_attention.app.plots.write_plot`.

EXAMPLES:

The table, and its picture in a file (without ``-q``, a line ``plot: FILE`` on
standard error says where)::

    sage: from sage_attention.app.cli import main
    sage: import sys; sys.stderr = sys.stdout
    sage: f = tmp_filename(ext='.png')
    sage: main(["sweep", "--layers", "1", "--width", "2..3", "--rank", "1", "--csv", "-q",
    ....:       "--plot", f])
    widths,ranks,t,normalization,dimension,expected,agrees,parameters,fiber,inputs,gap
    "2,2",1,3,lightning,6,6,yes,8,2,...
    "3,3",1,3,lightning,13,13,yes,15,2,...
    0
    sage: open(f, 'rb').read(4)
    b'\x89PNG'

A file of an unknown format is refused before anything is computed::

    sage: main(["sweep", "--plot", "table.jpg"])
    error: --plot (=table.jpg) must end in .png, .pdf or .svg, e.g. --plot table.png
    2
    sage: sys.stderr = sys.__stderr__
"""
import os

from sage_attention.app.sweeps import UsageError

#: the formats ``--plot FILE`` writes, by the file's extension
PLOT_FORMATS = (".png", ".pdf", ".svg")


def check_plot_file(path, option="--plot"):
    r"""
    Return ``path`` if a picture can be written there (a known extension, an existing folder).

    Checked before a command computes anything, so a typo costs no time.

    INPUT:

    - ``path`` -- string or ``None`` (no picture asked for)
    - ``option`` -- (default: ``'--plot'``) the option, for the message

    OUTPUT: ``path``; raise :class:`UsageError` otherwise

    EXAMPLES::

        sage: from sage_attention.app.plot_files import check_plot_file
        sage: check_plot_file("table.png"), check_plot_file(None)
        ('table.png', None)
        sage: check_plot_file("table.jpeg")
        Traceback (most recent call last):
        ...
        UsageError: --plot (=table.jpeg) must end in .png, .pdf or .svg, e.g. --plot table.png
        sage: check_plot_file("/no/such/folder/t.png")
        Traceback (most recent call last):
        ...
        UsageError: --plot (=/no/such/folder/t.png): the folder /no/such/folder does not exist
    """
    if path is None:
        return None
    root, ext = os.path.splitext(str(path))
    if ext.lower() not in PLOT_FORMATS:
        raise UsageError(f"{option} (={path}) must end in .png, .pdf or .svg, e.g. "
                         f"{option} {os.path.basename(root) or 'table'}.png")
    folder = os.path.dirname(os.path.abspath(str(path)))
    if not os.path.isdir(folder):
        raise UsageError(f"{option} (={path}): the folder {os.path.dirname(str(path))} does not exist")
    return path
