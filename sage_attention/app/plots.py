r"""
The pictures of the tables: a sweep, the defectivity table, the filling frontier

The batch computations of :mod:`sage_attention.app.experiments` and
:mod:`sage_attention.app.filling` return their rows as a
:class:`SweepTable`, a :class:`DefectivityTable` (lists of dictionaries)
and a :class:`FillingFrontier` (a dictionary). These are the plain lists and
dictionaries they always were, with a ``.plot()`` that draws them
(:mod:`sage_attention.misc.plotting`: a Sage ``Graphics`` object, or a
matplotlib figure without Sage's plotting). The command line draws the
same pictures with ``--plot FILE`` (``sweep``, ``defectivity``,
``filling``).

EXAMPLES:

Two summed heads of a full-rank layer miss the join bound by one::

    sage: from sage_attention.app.experiments import defectivity_table
    sage: T = defectivity_table(widths=[3], outs=[1], tokens=[2], ranks=[3])
    sage: [(r['heads'], r['dimension'], r['bound']) for r in T]
    [(1, 11, 11), (2, 17, 18), (3, 18, 18)]
    sage: G = T.plot(); G
    Graphics object consisting of 4 graphics primitives
    sage: G.save(tmp_filename(ext='.png'))

The join bound (dashed), the dimensions (a line through dots), and the
defective row::

    sage: [(type(p).__name__, list(p.ydata)) for p in G]
    [('Line', [11.0, 18.0, 18.0]), ('Line', [11.0, 17.0, 18.0]),
     ('Point', [11.0, 17.0, 18.0]), ('Point', [17.0])]
"""
from sage_attention.misc.plotting import COLORS, heat_map, line_plot

#: the color of the defective rows
DEFECTIVE = "#d62728"


class SweepTable(list):
    r"""
    The rows of :func:`~sage_attention.app.experiments.sweep`: a list of dictionaries with a picture.

    EXAMPLES::

        sage: from sage_attention.app.experiments import sweep, architecture_grid
        sage: T = sweep(architecture_grid(layers=[1], widths=[2, 3], ranks=[1], tokens=[2]))
        sage: type(T).__name__, [r['dimension'] for r in T]
        ('SweepTable', [7, 14])
    """

    def plot(self, **options):
        r"""
        Return the picture of the table: each dimension against its formula and its parameter count.

        INPUT: ``options`` -- passed to :func:`plot_sweep`

        OUTPUT: a Sage ``Graphics`` object (or a matplotlib figure)

        EXAMPLES::

            sage: from sage_attention.app.experiments import sweep, architecture_grid
            sage: T = sweep(architecture_grid(layers=[1], widths=[2, 3, 4], ranks=[1], tokens=[2]))
            sage: G = T.plot(); G
            Graphics object consisting of 4 graphics primitives
            sage: G.save(tmp_filename(ext='.png'))
        """
        return plot_sweep(self, **options)


class DefectivityTable(list):
    r"""
    The rows of :func:`~sage_attention.app.experiments.defectivity_table`: a list of dictionaries with a picture.

    EXAMPLES::

        sage: from sage_attention.app.experiments import defectivity_table
        sage: T = defectivity_table(widths=[2], outs=[1], tokens=[2]); type(T).__name__
        'DefectivityTable'
    """

    def plot(self, kind="lines", **options):
        r"""
        Return the picture of the table (:func:`plot_defectivity`).

        INPUT:

        - ``kind`` -- ``'lines'`` (default): the dimension against `H`,
          with the join bound; ``'defects'``: a heat map of the defects
        - ``options`` -- passed to :func:`plot_defectivity`

        OUTPUT: a Sage ``Graphics`` object (or a matplotlib figure)

        EXAMPLES::

            sage: from sage_attention.app.experiments import defectivity_table
            sage: T = defectivity_table(widths=[3], outs=[1], tokens=[2], ranks=[2, 3])
            sage: G = T.plot(kind='defects'); G
            Graphics object consisting of 7 graphics primitives
            sage: G.save(tmp_filename(ext='.png'))
        """
        return plot_defectivity(self, kind=kind, **options)


class FillingFrontier(dict):
    r"""
    The result of :func:`~sage_attention.app.filling.filling_frontier`: a dictionary with a picture.

    EXAMPLES::

        sage: from sage_attention.app.filling import filling_frontier
        sage: F = filling_frontier(2, 1, 3, 2, max_width=3); type(F).__name__
        'FillingFrontier'
    """

    def plot(self, **options):
        r"""
        Return the picture of the frontier: the width profiles of the minimal filling architectures.

        INPUT: ``options`` -- passed to :func:`plot_filling`

        OUTPUT: a Sage ``Graphics`` object (or a matplotlib figure)

        EXAMPLES::

            sage: from sage_attention.app.filling import filling_frontier
            sage: F = filling_frontier(3, 1, 2, 4, max_width=7, seed=0)
            sage: F["minimal_filling"]
            [(3, 6, 1)]
            sage: G = F.plot(); G
            Graphics object consisting of 3 graphics primitives
            sage: G.save(tmp_filename(ext='.png'))
        """
        return plot_filling([self], **options)


def _architecture(row):
    return (f"{','.join(map(str, row['widths']))} | {','.join(map(str, row['ranks']))} | "
            f"t={row['tokens']}" + (" soft" if row.get("normalization") == "softmax" else ""))


def plot_sweep(rows, title=None, backend=None):
    r"""
    Return the picture of a sweep: the dimension, its formula and the parameter count of each row.

    When one quantity alone varies along the table (a width, a rank, the
    number of tokens or of layers), it is the horizontal axis; otherwise
    the rows are numbered in their order.

    INPUT:

    - ``rows`` -- the rows of :func:`~sage_attention.app.experiments.sweep`
    - ``title`` -- string (default: ``None``, a title made from the rows)
    - ``backend`` -- (default: ``None``) see :func:`~sage_attention.misc.plotting.line_plot`

    OUTPUT: a Sage ``Graphics`` object (or a matplotlib figure): the
    dimensions (dots), the published formula (crosses, where there is one)
    and the parameter count (dashed)

    EXAMPLES::

        sage: from sage_attention.app.experiments import sweep, architecture_grid
        sage: from sage_attention.app.plots import plot_sweep
        sage: T = sweep(architecture_grid(layers=[1], widths=[2, 3], ranks=[1], tokens=[2]))
        sage: [(r['widths'], r['expected'], r['dimension'], r['parameters']) for r in T]
        [([2, 2], 7, 7, 8), ([3, 3], 14, 14, 15)]
        sage: G = plot_sweep(T)

    The published formula, the dimensions, and (the dashed line) the parameters::

        sage: [(type(p).__name__, list(p.xdata), list(p.ydata)) for p in G]
        [('Point', [2.0, 3.0], [7.0, 14.0]), ('Line', [2.0, 3.0], [7.0, 14.0]),
         ('Point', [2.0, 3.0], [7.0, 14.0]), ('Line', [2.0, 3.0], [8.0, 15.0])]
    """
    rows = list(rows)
    varying = []
    for name, key in (("width $d$", lambda r: r["widths"][0]), ("layers", lambda r: len(r["ranks"])),
                      ("rank $a$", lambda r: r["ranks"][0]), ("tokens $t$", lambda r: r["tokens"])):
        if len({key(r) for r in rows}) > 1:
            varying.append((name, key))
    same = (len({(tuple(r["widths"]) == (r["widths"][0],) * len(r["widths"]),
                  tuple(r["ranks"]) == (r["ranks"][0],) * len(r["ranks"]),
                  r.get("normalization")) for r in rows}) == 1)
    xticks = None
    if len(varying) == 1 and same:
        xlabel, key = varying[0]
        xs = [key(r) for r in rows]
        xticks = (sorted(set(xs)), [str(x) for x in sorted(set(xs))])
    else:
        xlabel, xs = "architecture (widths | ranks | tokens)", list(range(1, len(rows) + 1))
        if len(rows) <= 12:
            xticks = (xs, [_architecture(r) for r in rows])
        else:
            xlabel = "row of the table"
    lines = len(varying) == 1 and same
    series = [{"points": [(x, r["expected"]) for x, r in zip(xs, rows) if r["expected"] is not None],
               "label": "published formula", "style": "points", "marker": "d", "size": 110,
               "color": COLORS[1]},
              {"points": list(zip(xs, [r["dimension"] for r in rows])), "label": "dimension",
               "style": "both" if lines else "points", "color": COLORS[0]},
              {"points": list(zip(xs, [r["parameters"] for r in rows])), "label": "parameters",
               "style": "line" if lines else "points", "linestyle": "--", "marker": "s",
               "color": COLORS[2]}]
    if title is None:
        norms = sorted({r.get("normalization", "lightning") for r in rows})
        fixed = [f"{word} {values.pop()}" for word, values in
                 (("layers", {len(r["ranks"]) for r in rows}),
                  ("ranks", {",".join(map(str, r["ranks"])) for r in rows}),
                  ("tokens", {r["tokens"] for r in rows})) if len(values) == 1]
        title = (f"Dimension of the neurovariety ({', '.join(norms)} attention"
                 + "".join(f"; {f}" for f in fixed) + ")")
    return line_plot(series, title=title, xlabel=xlabel, ylabel="dimension", xticks=xticks,
                     backend=backend)


def _chain(row):
    return (row["d"], row["out"], row["tokens"], row["rank"])


def _chain_label(key):
    return f"d={key[0]} d'={key[1]} t={key[2]} a={key[3]}"


def plot_defectivity(rows, kind="lines", title=None, backend=None):
    r"""
    Return the picture of a defectivity table of summed heads.

    INPUT:

    - ``rows`` -- the rows of :func:`~sage_attention.app.experiments.defectivity_table`
    - ``kind`` -- ``'lines'`` (default): for each chain `(d, d', t, a)`,
      the dimension against the number `H` of heads (solid, dots) and the
      join bound `\min(H \dim(\text{one head}), \dim(\text{span}))`
      (dashed), the defective rows circled in red; ``'defects'``: a heat
      map of the defect (join bound minus dimension), one line per chain
      and one column per `H` (readable for a large table)
    - ``title`` -- string (default: ``None``, a title made from the rows)
    - ``backend`` -- (default: ``None``) see :func:`~sage_attention.misc.plotting.line_plot`

    OUTPUT: a Sage ``Graphics`` object (or a matplotlib figure)

    EXAMPLES::

        sage: from sage_attention.app.experiments import defectivity_table
        sage: from sage_attention.app.plots import plot_defectivity
        sage: T = defectivity_table(widths=[3], outs=[1], tokens=[2], ranks=[3])
        sage: G = plot_defectivity(T)
        sage: [(type(p).__name__, list(p.ydata)) for p in G]
        [('Line', [11.0, 18.0, 18.0]), ('Line', [11.0, 17.0, 18.0]),
         ('Point', [11.0, 17.0, 18.0]), ('Point', [17.0])]

    The heat map of the defects::

        sage: G = plot_defectivity(T, kind='defects')
        sage: sorted(str(p) for p in G if type(p).__name__ == 'Text')
        ["Text '0' at the point (0.0,0.0)", "Text '0' at the point (2.0,0.0)",
         "Text '1' at the point (1.0,0.0)"]

    TESTS::

        sage: plot_defectivity(T, kind='bars')
        Traceback (most recent call last):
        ...
        ValueError: kind (='bars') must be 'lines' or 'defects'
    """
    chains = {}
    for r in rows:
        chains.setdefault(_chain(r), []).append(r)
    ndef = sum(1 for r in rows if r["defect"])
    if title is None:
        title = (f"Summed heads: {ndef} of {len(rows)} rows defective "
                 f"({len(chains)} chain{'s' * (len(chains) != 1)})")
    if kind == "defects":
        width = max((r["heads"] for r in rows), default=0)
        values = [[None] * width for _ in chains]
        for i, chain in enumerate(chains.values()):
            for r in chain:
                values[i][r["heads"] - 1] = r["defect"]
        return heat_map(values, [_chain_label(k) for k in chains], [str(h) for h in range(1, width + 1)],
                        title=title, xlabel="number of heads $H$", ylabel="chain",
                        colorbar_label="defect", backend=backend)
    if kind != "lines":
        raise ValueError(f"kind (={kind!r}) must be 'lines' or 'defects'")
    series, many = [], len(chains) > 8
    for i, (key, chain) in enumerate(chains.items()):
        color = COLORS[i % len(COLORS)] if not many else "#1f77b4"
        first = i == 0
        series.append({"points": [(r["heads"], r["dimension"]) for r in chain], "color": color,
                       "label": (_chain_label(key) if not many else
                                 ("dimension" if first else None)), "size": 20})
        series.insert(0, {"points": [(r["heads"], r["bound"]) for r in chain],
                          "color": "#7f7f7f", "style": "line", "linestyle": "--",
                          "label": "join bound" if first else None})
    defective = [(r["heads"], r["dimension"]) for r in rows if r["defect"]]
    if defective:
        series.append({"points": defective, "color": DEFECTIVE, "style": "points",
                       "marker": "o", "size": 150, "alpha": 0.45, "label": "defective"})
    heads = list(range(1, max((r["heads"] for r in rows), default=1) + 1))
    return line_plot(series, title=title, xlabel="number of heads $H$", ylabel="dimension",
                     xticks=(heads, [str(h) for h in heads]), backend=backend)


def plot_filling(results, title=None, backend=None):
    r"""
    Return the picture of filling frontiers: the width profile of each minimal filling architecture.

    Each minimal filling architecture `(d_0, d_1, \dots, d_L)` is a line
    through its widths against the layer index; the defective
    architectures the search computed are dotted red lines.

    INPUT:

    - ``results`` -- a list of results of
      :func:`~sage_attention.app.filling.filling_frontier` (one or more
      searches)
    - ``title`` -- string (default: ``None``, a title made from the searches)
    - ``backend`` -- (default: ``None``) see :func:`~sage_attention.misc.plotting.line_plot`

    OUTPUT: a Sage ``Graphics`` object (or a matplotlib figure)

    EXAMPLES::

        sage: from sage_attention.app.filling import filling_frontier
        sage: from sage_attention.app.plots import plot_filling
        sage: F = filling_frontier(3, 1, 2, 4, max_width=7, seed=0)
        sage: G = plot_filling([F])
        sage: [(type(p).__name__, list(p.ydata)) for p in G]
        [('Line', [3.0, 6.0, 1.0]), ('Point', [3.0, 6.0, 1.0]), ('Line', [3.0, 5.0, 1.0])]
    """
    series, first_defective = [], True
    for i, F in enumerate(results):
        tag = f"$d_0={F['d_in']}, d_L={F['d_out']}, L={F['depth']}, r={F['r']}$"
        for j, w in enumerate(F["minimal_filling"]):
            series.append({"points": list(enumerate(w)), "label": f"{tag}: {tuple(w)}",
                           "color": None})
        for row in F["defective"]:
            series.append({"points": list(enumerate(row["widths"])), "color": DEFECTIVE,
                           "style": "line", "linestyle": ":",
                           "label": "defective (computed)" if first_defective else None})
            first_defective = False
    colors = iter(range(len(series)))
    for s in series:
        if s["color"] is None:
            s["color"] = COLORS[next(colors) % len(COLORS)]
    if title is None:
        title = ("Minimal filling widths" if len(results) != 1 else
                 f"Minimal filling widths, hidden widths at most {results[0]['max_width']}")
    depth = max((F["depth"] for F in results), default=1)
    return line_plot(series, title=title, xlabel="layer $i$", ylabel="width $d_i$",
                     xticks=(list(range(depth + 1)), [str(i) for i in range(depth + 1)]),
                     integer_y=True, backend=backend)


def write_plot(graphics, path, args, out, err, command):
    r"""
    Save the picture of a command (``--plot FILE``) and say where: a line
    ``plot: FILE`` on ``err`` (unless ``--quiet``), and a ``"file"`` record
    on ``out`` under ``--json``.

    INPUT:

    - ``graphics`` -- a picture (:mod:`sage_attention.app.plots`)
    - ``path`` -- the file (:func:`check_plot_file`)
    - ``args`` -- the parsed arguments (``json``, ``quiet``)
    - ``out``, ``err`` -- the files of the records and of the messages
    - ``command`` -- string, the subcommand

    OUTPUT: the path, as a string

    EXAMPLES::

        sage: import argparse, sys
        sage: from sage_attention.app.plots import write_plot
        sage: from sage_attention.misc.plotting import line_plot
        sage: f = tmp_filename(ext='.png')
        sage: args = argparse.Namespace(json=True, quiet=True)
        sage: p = write_plot(line_plot([{"points": [(0, 0), (1, 1)]}]), f, args, sys.stdout,
        ....:                sys.stdout, "sweep")
        {"format": 1, "record": "file", "command": "sweep", "path": "...png"}
        sage: open(p, 'rb').read(4)
        b'\x89PNG'
    """
    from sage_attention.app.jsonout import emit, record
    from sage_attention.misc.plotting import save_graphics
    path = save_graphics(graphics, path)
    if getattr(args, "json", False):
        emit(out, record("file", {"command": command, "path": path}))
    if not getattr(args, "quiet", False):
        print(f"plot: {path}", file=err, flush=True)
    return path
