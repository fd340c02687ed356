r"""
Pictures: the one place that chooses Sage's ``Graphics`` or matplotlib

Every ``.plot()`` of the package (the tables of
:mod:`sage_attention.app.plots`, the reports of
:mod:`sage_attention.ideals.engine.plots` and
:mod:`sage_attention.variety.plots`) draws through the three helpers here:
:func:`line_plot` (lines and points), :func:`bar_chart` (grouped bars) and
:func:`heat_map` (a matrix of numbers). Each returns a Sage
:class:`~sage.plot.graphics.Graphics` when Sage's plotting
(``passagemath-plot``) is importable, with ``save()``, ``show()`` and rich
display in a notebook, and otherwise a matplotlib
:class:`~matplotlib.figure.Figure` (matplotlib is a plain dependency).
:func:`graphics_backend` says which; :func:`save_graphics` saves either.

The title, the axis labels and the tick labels are stored in the
``Graphics`` object, so ``G.save(...)`` and ``G.show()`` need no options.

EXAMPLES::

    sage: from sage_attention.misc.plotting import graphics_backend, line_plot
    sage: graphics_backend()
    'sage'
    sage: G = line_plot([{"points": [(1, 2), (2, 4), (3, 5)], "label": "dimension"}],
    ....:               title="A line", xlabel="$H$", ylabel="dimension"); G
    Graphics object consisting of 2 graphics primitives
    sage: G.save(tmp_filename(ext='.png'))

The same picture with matplotlib (what a plain Python install gets)::

    sage: F = line_plot([{"points": [(1, 2), (2, 4)], "label": "dimension"}], backend="matplotlib")
    sage: type(F)
    <class 'matplotlib.figure.Figure'>
"""
import importlib.util

#: the colors of the series, in order (matplotlib's "tab10", readable in print)
COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
          "#7f7f7f", "#bcbd22", "#17becf")

#: Sage's marker names, and matplotlib's where they differ
_MARKERS = {"o": "o", "x": "x", "s": "s", "^": "^", "d": "D", "+": "+", "*": "*"}


def graphics_backend():
    r"""
    Return ``'sage'`` when Sage's plotting is importable, else ``'matplotlib'``.

    Sage's plotting is the distribution ``passagemath-plot`` (in the extra
    ``sage_attention[passagemath]``), or a Sage built from source.

    OUTPUT: the string ``'sage'`` or ``'matplotlib'``

    EXAMPLES::

        sage: from sage_attention.misc.plotting import graphics_backend
        sage: graphics_backend()
        'sage'
    """
    try:
        if importlib.util.find_spec("sage.plot.graphics") is None:
            return "matplotlib"
    except (ImportError, ValueError):
        return "matplotlib"
    return "sage"


def _backend(backend):
    if backend is None:
        return graphics_backend()
    if backend not in ("sage", "matplotlib"):
        raise ValueError(f"backend (={backend!r}) must be 'sage', 'matplotlib' or None")
    return backend


def _color(i):
    return COLORS[i % len(COLORS)]


def _figure(size=(7, 4.5)):
    """A matplotlib figure and its axes, without pyplot (no global state)."""
    from matplotlib.figure import Figure
    fig = Figure(figsize=size, layout="constrained")
    return fig, fig.add_subplot()


def _finish_sage(G, title, xlabel, ylabel, xticks=None, legend=True, **extra):
    """Store the title, labels, ticks and legend options in the Graphics ``G``."""
    options = {"title": title, "axes_labels": [xlabel or "", ylabel or ""], "frame": True,
               "axes": False, "gridlines": True, "fontsize": 10, "axes_labels_size": 1.2,
               "figsize": [7, 4.5]}
    if xticks is not None:
        positions, labels = xticks
        options["ticks"] = [list(positions), None]
        options["tick_formatter"] = [list(labels), None]
    options.update(extra)
    G._extra_kwds.update({k: v for k, v in options.items() if v is not None})
    if legend:
        G.set_legend_options(loc="best", font_size=9, back_color="white", shadow=False,
                             fancybox=True)
    return G


def _finish_matplotlib(fig, ax, title, xlabel, ylabel, xticks=None, legend=True):
    if title:
        ax.set_title(title, fontsize=11)
    ax.set_xlabel(xlabel or "")
    ax.set_ylabel(ylabel or "")
    ax.grid(True, alpha=0.3)
    if xticks is not None:
        ax.set_xticks(list(xticks[0]), [str(x) for x in xticks[1]])
    if legend and ax.get_legend_handles_labels()[0]:
        ax.legend(loc="best", fontsize=9)
    return fig


def _padded(values, fraction=0.05):
    """The range of ``values`` widened by ``fraction`` on each side (so no marker is cut)."""
    lo, hi = min(values), max(values)
    pad = fraction * (hi - lo) if hi > lo else 0.5
    return lo - pad, hi + pad


def _log_padded(values, fraction=0.05):
    """The range of positive ``values`` widened by ``fraction`` of its logarithmic length on each side."""
    import math
    lo, hi = math.log10(min(values)), math.log10(max(values))
    pad = fraction * (hi - lo) if hi > lo else 0.2
    return 10 ** (lo - pad), 10 ** (hi + pad)


def integer_ticks(lo, hi, most=9):
    r"""
    Return round integer ticks between ``lo`` and ``hi``: multiples of `1, 2` or `5` times a power of ten.

    INPUT:

    - ``lo``, ``hi`` -- numbers, the range of the axis
    - ``most`` -- integer (default: `9`); at most this many ticks

    OUTPUT: a list of integers

    EXAMPLES::

        sage: from sage_attention.misc.plotting import integer_ticks
        sage: integer_ticks(-0.4, 6.3)
        [0, 1, 2, 3, 4, 5, 6]
        sage: integer_ticks(-23502.1, 493570.6)
        [0, 100000, 200000, 300000, 400000]
    """
    import math
    span = max(float(hi) - float(lo), 1.0)
    step = 1
    for power in range(0, 30):
        step = next((m * 10 ** power for m in (1, 2, 5) if span / (m * 10 ** power) < most), None)
        if step is not None:
            break
    first = math.ceil(float(lo) / step) * step
    return list(range(int(first), int(math.floor(float(hi))) + 1, int(step)))


def line_plot(series, title=None, xlabel=None, ylabel=None, xticks=None, integer_y=False,
              backend=None, scale=None):
    r"""
    Return a picture of lines and points.

    INPUT:

    - ``series`` -- a list of dictionaries, one per series: ``points`` (a
      list of pairs `(x, y)`), and optionally ``label`` (the legend entry),
      ``color``, ``style`` (``'both'`` (default): a line through marked
      points; ``'line'``; ``'points'``), ``linestyle`` (``'-'`` (default),
      ``'--'``, ``':'``), ``marker`` (``'o'`` (default), ``'x'``, ``'s'``,
      ``'^'``, ``'d'``, ``'+'``, ``'*'``), ``size`` (of the markers),
      ``alpha`` (the opacity of the markers, default `1`)
    - ``title``, ``xlabel``, ``ylabel`` -- strings (default: ``None``)
    - ``xticks`` -- (default: ``None``) a pair (positions, labels) of the
      ticks of the horizontal axis
    - ``integer_y`` -- boolean (default: ``False``); ticks of the vertical
      axis at integers only
    - ``backend`` -- (default: ``None``, :func:`graphics_backend`)
      ``'sage'`` or ``'matplotlib'``
    - ``scale`` -- (default: ``None``, linear axes) ``'semilogy'`` (a
      logarithmic vertical axis), ``'semilogx'`` or ``'loglog'``; the
      values on a logarithmic axis must be positive

    OUTPUT: a Sage ``Graphics`` object or a matplotlib ``Figure``

    EXAMPLES::

        sage: from sage_attention.misc.plotting import line_plot
        sage: G = line_plot([{"points": [(0, 1), (1, 3)], "label": "a"},
        ....:                {"points": [(0, 2), (1, 2)], "style": "points", "marker": "x"}],
        ....:               title="Two series", xlabel="x", ylabel="y")
        sage: [type(p).__name__ for p in G]
        ['Line', 'Point', 'Point']
        sage: list(G[0].ydata)
        [1.0, 3.0]

    Times from a tenth of a second to minutes, on a logarithmic axis::

        sage: G = line_plot([{"points": [(18, 0.4), (40, 3.2), (126, 690)]}], scale="semilogy")
        sage: G._extra_kwds["scale"], G._extra_kwds["ymin"] < 0.4, G._extra_kwds["ymax"] > 690
        ('semilogy', True, True)

    TESTS::

        sage: line_plot([], backend="gnuplot")
        Traceback (most recent call last):
        ...
        ValueError: backend (='gnuplot') must be 'sage', 'matplotlib' or None
        sage: line_plot([{"points": [(1, 0)]}], scale="semilogy")
        Traceback (most recent call last):
        ...
        ValueError: a logarithmic vertical axis needs positive values, not 0.0
        sage: line_plot([], scale="log")
        Traceback (most recent call last):
        ...
        ValueError: scale (='log') must be None, 'semilogy', 'semilogx' or 'loglog'
    """
    backend = _backend(backend)
    if scale not in (None, "linear", "semilogy", "semilogx", "loglog"):
        raise ValueError(f"scale (={scale!r}) must be None, 'semilogy', 'semilogx' or 'loglog'")
    logx, logy = scale in ("semilogx", "loglog"), scale in ("semilogy", "loglog")
    every = [(float(x), float(y)) for s in series for x, y in s["points"]]
    for axis, log, k in (("horizontal", logx, 0), ("vertical", logy, 1)):
        bad = [p[k] for p in every if log and not p[k] > 0]
        if bad:
            raise ValueError(f"a logarithmic {axis} axis needs positive values, not {bad[0]}")
    xr = yr = None
    if every:
        xr = (_log_padded if logx else _padded)([p[0] for p in every])
        yr = (_log_padded if logy else _padded)([p[1] for p in every])
    if backend == "sage":
        from sage.plot.graphics import Graphics
        from sage.plot.line import line
        from sage.plot.point import point
        G = Graphics()
        for i, s in enumerate(series):
            pts = [(float(x), float(y)) for x, y in s["points"]]
            if not pts:
                continue
            color = s.get("color") or _color(i)
            style = s.get("style", "both")
            label = s.get("label")
            if style in ("both", "line"):
                G += line(pts, color=color, linestyle=s.get("linestyle", "-"), thickness=1.5,
                          legend_label=label)
                label = None
            if style in ("both", "points"):
                G += point(pts, color=color, marker=_MARKERS[s.get("marker", "o")],
                           size=s.get("size", 30 if style == "both" else 60), zorder=5,
                           alpha=s.get("alpha", 1), legend_label=label)
        ranges = {} if xr is None else {"xmin": xr[0], "xmax": xr[1], "ymin": yr[0], "ymax": yr[1]}
        if logx or logy:
            ranges["scale"] = scale
        G = _finish_sage(G, title, xlabel, ylabel, xticks, **ranges)
        if integer_y and yr is not None:
            G._extra_kwds["ticks"] = [G._extra_kwds.get("ticks", [None])[0], integer_ticks(*yr)]
        return G
    fig, ax = _figure()
    for i, s in enumerate(series):
        pts = [(float(x), float(y)) for x, y in s["points"]]
        if not pts:
            continue
        xs, ys = zip(*pts)
        color = s.get("color") or _color(i)
        style = s.get("style", "both")
        marker = _MARKERS[s.get("marker", "o")] if style in ("both", "points") else None
        size = s.get("size", 30 if style == "both" else 60)
        if style == "points":
            ax.scatter(xs, ys, color=color, marker=marker, s=size, zorder=5,
                       alpha=s.get("alpha", 1), label=s.get("label"))
        else:
            ax.plot(xs, ys, color=color, linestyle=s.get("linestyle", "-"), marker=marker,
                    markersize=size ** 0.5, label=s.get("label"))
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    if xr is not None:
        ax.set_xlim(*xr)
        ax.set_ylim(*yr)
    if integer_y:
        from matplotlib.ticker import MaxNLocator
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    return _finish_matplotlib(fig, ax, title, xlabel, ylabel, xticks)


def bar_chart(bars, categories, title=None, xlabel=None, ylabel=None, backend=None):
    r"""
    Return a chart of grouped bars: one group per category, one bar per series.

    INPUT:

    - ``bars`` -- a list of dictionaries, one per series: ``values`` (one
      number per category), and optionally ``label`` and ``color``
    - ``categories`` -- a list of the labels of the groups
    - ``title``, ``xlabel``, ``ylabel``, ``backend`` -- as in :func:`line_plot`

    OUTPUT: a Sage ``Graphics`` object or a matplotlib ``Figure``; in the
    former, each bar is a polygon (its ``ydata`` has the height) and each
    value is written above its bar

    EXAMPLES::

        sage: from sage_attention.misc.plotting import bar_chart
        sage: G = bar_chart([{"values": [3, 0, 5], "label": "generators"}], [2, 3, 4],
        ....:               title="By degree", xlabel="degree", ylabel="number")
        sage: [max(p.ydata) for p in G if type(p).__name__ == 'Polygon']
        [3.0, 5.0]
    """
    backend = _backend(backend)
    n = max(len(bars), 1)
    width = 0.8 / n
    ticks = (list(range(len(categories))), [str(c) for c in categories])
    top = max([float(v) for b in bars for v in b["values"]] + [1.0])
    room = 1.15 + 0.1 * n          # above the bars: the legend, one line per series
    if backend == "sage":
        from sage.plot.graphics import Graphics
        from sage.plot.line import line
        from sage.plot.polygon import polygon
        from sage.plot.text import text
        G = Graphics()
        for i, b in enumerate(bars):
            color = b.get("color") or _color(i)
            label = b.get("label")
            for j, v in enumerate(b["values"]):
                x0 = j - 0.4 + i * width
                v = float(v)
                if v:
                    G += polygon([(x0, 0), (x0 + width, 0), (x0 + width, v), (x0, v)],
                                 color=color, edgecolor="black", thickness=0.5,
                                 legend_label=label)
                    label = None
                G += text(f"{v:g}", (x0 + width / 2, v + 0.015 * top), color="black",
                          fontsize=8, vertical_alignment="bottom")
            if label is not None:   # a series of zeros keeps its legend entry
                G += line([(-0.4, 0), (-0.4, 0)], color=color, thickness=8, legend_label=label)
        G += line([(-0.5, 0), (len(categories) - 0.5, 0)], color="black", thickness=0.5)
        G = _finish_sage(G, title, xlabel, ylabel, ticks, ymin=0, ymax=room * top,
                         xmin=-0.6, xmax=len(categories) - 0.4, aspect_ratio="automatic",
                         legend=any(b.get("label") for b in bars))
        G.set_legend_options(loc="upper left", handlelength=1.5)
        return G
    fig, ax = _figure()
    for i, b in enumerate(bars):
        xs = [j - 0.4 + (i + 0.5) * width for j in range(len(b["values"]))]
        rects = ax.bar(xs, [float(v) for v in b["values"]], width, color=b.get("color") or _color(i),
                       edgecolor="black", linewidth=0.5, label=b.get("label"))
        ax.bar_label(rects, fmt="%g", fontsize=8)
    ax.set_ylim(0, room * top)
    _finish_matplotlib(fig, ax, title, xlabel, ylabel, ticks, legend=False)
    if any(b.get("label") for b in bars):
        ax.legend(loc="upper left", fontsize=9)
    return fig


def heat_map(values, row_labels, column_labels, title=None, xlabel=None, ylabel=None,
             colorbar_label=None, backend=None):
    r"""
    Return a heat map of a matrix of numbers, each cell written in it.

    INPUT:

    - ``values`` -- a list of rows of numbers (``None`` for an empty cell)
    - ``row_labels``, ``column_labels`` -- lists of strings
    - ``title``, ``xlabel``, ``ylabel``, ``backend`` -- as in :func:`line_plot`
    - ``colorbar_label`` -- string (default: ``None``); matplotlib only

    OUTPUT: a Sage ``Graphics`` object (a ``MatrixPlot`` and the texts of
    the cells) or a matplotlib ``Figure``

    EXAMPLES::

        sage: from sage_attention.misc.plotting import heat_map
        sage: G = heat_map([[0, 1], [2, None]], ["a", "b"], ["1", "2"], title="Defects")
        sage: sorted(str(p) for p in G if type(p).__name__ == 'Text')
        ["Text '0' at the point (0.0,0.0)", "Text '1' at the point (1.0,0.0)",
         "Text '2' at the point (0.0,1.0)"]
    """
    backend = _backend(backend)
    rows = [[None if v is None else float(v) for v in row] for row in values]
    finite = [v for row in rows for v in row if v is not None] or [0.0]
    lo, hi = min(finite), max(finite)
    ncols = max((len(r) for r in rows), default=0)
    grid = [[lo if v is None else v for v in row] + [lo] * (ncols - len(row)) for row in rows]
    dark = lambda v: hi > lo and (v - lo) / (hi - lo) > 0.6
    if backend == "sage":
        from sage.plot.graphics import Graphics
        from sage.plot.matrix_plot import matrix_plot
        from sage.plot.text import text
        G = Graphics()
        if rows and ncols:
            G += matrix_plot(grid, cmap="Blues", vmin=lo, vmax=max(hi, lo + 1))
        for i, row in enumerate(rows):
            for j, v in enumerate(row):
                if v is not None:
                    G += text(f"{v:g}", (j, i), color="white" if dark(v) else "black",
                              fontsize=8, zorder=10)
        G = _finish_sage(G, title, xlabel, ylabel, legend=False)
        G._extra_kwds.update({"gridlines": None, "aspect_ratio": "automatic",
                              "title_pos": (0.5, 1.1),
                              "figsize": [7, max(3, min(12, 0.3 * len(rows) + 2))],
                              "ticks": [list(range(ncols)), list(range(len(rows)))],
                              "tick_formatter": [list(column_labels), list(row_labels)]})
        return G
    fig, ax = _figure((7, max(3, min(12, 0.3 * len(rows) + 2))))
    if rows and ncols:
        import numpy
        masked = numpy.ma.masked_invalid(numpy.array(
            [[numpy.nan if v is None else v for v in row] + [numpy.nan] * (ncols - len(row))
             for row in rows]))
        image = ax.imshow(masked, cmap="Blues", vmin=lo, vmax=max(hi, lo + 1), aspect="auto")
        fig.colorbar(image, ax=ax, label=colorbar_label or "")
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            if v is not None:
                ax.text(j, i, f"{v:g}", ha="center", va="center", fontsize=8,
                        color="white" if dark(v) else "black")
    ax.set_xticks(range(ncols), list(column_labels))
    ax.set_yticks(range(len(rows)), list(row_labels))
    _finish_matplotlib(fig, ax, title, xlabel, ylabel, legend=False)
    ax.grid(False)
    return fig


def save_graphics(graphics, filename):
    r"""
    Save a picture of this module (Sage ``Graphics`` or matplotlib ``Figure``) to ``filename``.

    The format is that of the file's extension (``.png``, ``.pdf``, ``.svg``).

    INPUT:

    - ``graphics`` -- the output of a ``.plot()``
    - ``filename`` -- string or path

    OUTPUT: the file name, as a string

    EXAMPLES::

        sage: from sage_attention.misc.plotting import line_plot, save_graphics
        sage: f = tmp_filename(ext='.png')
        sage: for backend in ('sage', 'matplotlib'):
        ....:     _ = save_graphics(line_plot([{"points": [(0, 1), (1, 2)]}], backend=backend), f)
        ....:     print(open(f, 'rb').read(8))
        b'\x89PNG\r\n\x1a\n'
        b'\x89PNG\r\n\x1a\n'
    """
    filename = str(filename)
    if hasattr(graphics, "savefig"):
        graphics.savefig(filename, dpi=120)
    else:
        graphics.save(filename, dpi=120)
    return filename
