r"""
The frontier of implicitization: its rows, read back, and their picture

The frontier table (``doc/frontier_table.rst``, made by
``python -m benchmarks.frontier``) runs
:func:`~sage_attention.ideals.implicitization.implicitize` on the one-entry
slices and the single tokens of growing width, each row in its own process
with a time limit. A :class:`FrontierTable` holds its rows, read from the
reST table of the documentation (:meth:`FrontierTable.from_rst`) or from the
JSON records that ``--json`` keeps (:meth:`FrontierTable.from_records`),
and draws them: the wall time of each row against its number of essential
coordinates, on logarithmic axes, each row marked by whether the whole
ideal was proved (:func:`plot_frontier`).

EXAMPLES:

Three rows of the table (a reST ``list-table``, as the documentation writes it)::

    sage: from sage_attention.app.frontier_table import FrontierTable
    sage: text = '''
    ....: .. list-table::
    ....:    :header-rows: 1
    ....:
    ....:    * - row
    ....:      - coordinates
    ....:      - generators by degree
    ....:      - complete through
    ....:      - whole ideal
    ....:      - time
    ....:      - peak memory
    ....:    * - slice-d3-t2-a1
    ....:      - 18
    ....:      - 2: 45, 3: 10
    ....:      - 4
    ....:      - proved (localization, delta = 1; proof 0.19 s)
    ....:      - 0.44 s
    ....:      - 186 MB
    ....:    * - slice-d4-t2-a4
    ....:      - 40
    ....:      - 3: 120, 4: 1360
    ....:      - 4
    ....:      - the Hilbert series mod p of the ideal found did not finish in 60.0 s: not proved.
    ....:      - 62.10 s
    ....:      - 402 MB
    ....:    * - slice-d6-t3-a3
    ....:      -
    ....:      - not reached in 400 s
    ....:      -
    ....:      -
    ....:      -
    ....:      -
    ....: '''
    sage: T = FrontierTable.from_rst(text)
    sage: [(r["name"], r["coordinates"], r["seconds"], r["proved"], r["status"]) for r in T]
    [('slice-d3-t2-a1', 18, 0.44, True, 'ok'),
     ('slice-d4-t2-a4', 40, 62.1, False, 'ok'),
     ('slice-d6-t3-a3', 126, 400.0, False, 'not reached in 400 s')]
    sage: T[0]["generators"]
    {2: 45, 3: 10}

A row that did not finish takes its coordinates from its model (the slice of
width `6` has `126` essential coordinates) and its time limit as its time.
The picture::

    sage: G = T.plot(); G
    Graphics object consisting of 3 graphics primitives
    sage: [(list(p.xdata), list(p.ydata)) for p in G]
    [([18.0], [0.44]), ([40.0], [62.1]), ([126.0], [400.0])]
    sage: G.save(tmp_filename(ext='.png'))
"""
import re

from sage_attention.misc.plotting import line_plot

#: the colors of the rows: proved, complete through a degree only, not finished
PROVED, NOT_PROVED, NOT_FINISHED = "#2ca02c", "#ff7f0e", "#d62728"

_ROW = re.compile(r"^(slice|token)-d(\d+)(?:-t(\d+))?-a(\d+)$")


def row_model_arguments(name):
    r"""
    Return the keyword arguments of ``LightningAttention`` of a row of the frontier table, by its name.

    ``slice-dD-tT-aA`` is the entry `(1, 1)` of the layer of width `D`,
    `T` tokens and rank `A`; ``token-dD-aA`` the single token (`t = 1`).

    INPUT:

    - ``name`` -- string, e.g. ``'slice-d4-t2-a3'``

    OUTPUT: a dictionary

    EXAMPLES::

        sage: from sage_attention.app.frontier_table import row_model_arguments
        sage: print(row_model_arguments('slice-d4-t2-a3'))
        {'d': 4, 't': 2, 'a': 3, 'out': 1, 'entries': [(1, 1)]}
        sage: print(row_model_arguments('token-d5-a1'))
        {'d': 5, 't': 1, 'a': 1, 'out': 1}
        sage: row_model_arguments('layer-d5')
        Traceback (most recent call last):
        ...
        ValueError: name (='layer-d5') must be slice-dD-tT-aA or token-dD-aA, e.g. slice-d4-t2-a3
    """
    m = _ROW.match(str(name))
    if m is None or (m.group(1) == "slice") != (m.group(3) is not None):
        raise ValueError(f"name (={name!r}) must be slice-dD-tT-aA or token-dD-aA, e.g. slice-d4-t2-a3")
    d, a = int(m.group(2)), int(m.group(4))
    if m.group(1) == "slice":
        return dict(d=d, t=int(m.group(3)), a=a, out=1, entries=[(1, 1)])
    return dict(d=d, t=1, a=a, out=1)


def _coordinates(name):
    from sage_attention.models.constructors import LightningAttention
    return LightningAttention(**row_model_arguments(name)).essential_ring().ngens()


def _limit(status):
    m = re.search(r"(?:in|after) (\d+(?:\.\d+)?) s", status)
    return float(m.group(1)) if m else None


def _list_table(text):
    """The rows (lists of cells) of the first reST list-table of ``text``, its header first."""
    rows, started = [], False
    for line in text.splitlines():
        if line.strip().startswith(".. list-table::"):
            if started:
                break
            started = True
        elif not started:
            continue
        elif line.startswith("   * -"):
            rows.append([line[6:].strip()])
        elif line.startswith("     -") and rows:
            rows[-1].append(line[6:].strip())
        elif line.strip() and not line.startswith("   ") and rows:
            break
    return rows


class FrontierTable(list):
    r"""
    The rows of the frontier table of implicitization: a list of dictionaries with a picture.

    Each row has ``name``, ``coordinates`` (the essential coordinates),
    ``generators`` (the minimal nonlinear generators by degree),
    ``complete`` (the degree through which they are complete), ``proved``
    (whether the whole ideal was proved), ``proof`` (the proof, or why
    none), ``seconds`` (the wall time, the proof included; the time limit
    for a row that did not finish) and ``status`` (``'ok'``, or what
    stopped the row).

    EXAMPLES::

        sage: from sage_attention.app.frontier_table import FrontierTable
        sage: T = FrontierTable.from_records([{"name": "token-d3-a1", "status": "ok", "coords": 10,
        ....:     "gens": {"4": 35}, "complete": 4, "proved": True, "method": "localization",
        ....:     "reason": "", "seconds": 0.51}])
        sage: T[0]["generators"], T[0]["proof"]
        ({4: 35}, 'localization')
    """

    @classmethod
    def from_rst(cls, text):
        r"""
        Return the table of the first reST ``list-table`` of ``text`` (or of the file ``text`` names).

        INPUT:

        - ``text`` -- string: the reST source, or the path of a ``.rst``
          file (``doc/frontier_table.rst`` of a source checkout)

        OUTPUT: a :class:`FrontierTable` (see the module's examples)
        """
        text = str(text)
        if text.endswith(".rst") and "\n" not in text:
            with open(text, encoding="utf-8") as f:
                text = f.read()
        table = _list_table(text)
        if not table or table[0][:2] != ["row", "coordinates"]:
            raise ValueError("no frontier table found: its first list-table must have the columns "
                             "row, coordinates, generators by degree, complete through, whole ideal, "
                             "time, peak memory")
        rows = []
        for cells in table[1:]:
            cells = cells + [""] * (7 - len(cells))
            name, coords, gens, complete, whole, seconds = cells[:6]
            if not coords:                  # a row that did not finish: its status, in the third cell
                rows.append(_unfinished(name, gens))
                continue
            rows.append({"name": name, "coordinates": int(coords), "status": "ok",
                         "generators": {int(k): int(v) for k, v in
                                        (p.split(":") for p in gens.split(",") if ":" in p)},
                         "complete": int(complete) if complete.isdigit() else None,
                         "proved": whole.startswith("proved"), "proof": whole,
                         "seconds": float(seconds.split()[0])})
        return cls(rows)

    @classmethod
    def from_records(cls, records):
        r"""
        Return the table of the JSON records of ``python -m benchmarks.frontier --json FILE``.

        INPUT:

        - ``records`` -- a list of dictionaries (the file's content), or the path of the file

        OUTPUT: a :class:`FrontierTable`
        """
        if isinstance(records, str):
            import json
            with open(records, encoding="utf-8") as f:
                records = json.load(f)
        rows = []
        for r in records:
            if r.get("status", "ok") != "ok":
                rows.append(_unfinished(r["name"], r["status"]))
                continue
            rows.append({"name": r["name"], "coordinates": int(r["coords"]), "status": "ok",
                         "generators": {int(k): int(v) for k, v in r.get("gens", {}).items()},
                         "complete": r.get("complete"), "proved": bool(r.get("proved")),
                         "proof": (r.get("method") or "proved") if r.get("proved") else r.get("reason", ""),
                         "seconds": float(r["seconds"])})
        return cls(rows)

    def plot(self, **options):
        r"""
        Return the picture of the table: time against coordinates, proved or not (:func:`plot_frontier`).

        INPUT: ``options`` -- passed to :func:`plot_frontier`

        OUTPUT: a Sage ``Graphics`` object (or a matplotlib figure)

        EXAMPLES::

            sage: from sage_attention.app.frontier_table import FrontierTable
            sage: T = FrontierTable([{"name": "token-d3-a2", "coordinates": 10, "proved": True,
            ....:                     "seconds": 2.5, "status": "ok"}])
            sage: T.plot()
            Graphics object consisting of 1 graphics primitive
        """
        return plot_frontier(self, **options)


def _unfinished(name, status):
    return {"name": name, "coordinates": _coordinates(name), "status": status, "generators": {},
            "complete": None, "proved": False, "proof": status, "seconds": _limit(status)}


def plot_frontier(rows, title=None, backend=None):
    r"""
    Return the picture of the frontier of implicitization: the time of each row against its coordinates.

    Both axes are logarithmic: the number of essential coordinates of the
    row's model (horizontal) and the wall time of ``implicitize``, the proof
    included (vertical). Green dots: the whole ideal is proved; orange
    squares: the generators are complete through a degree, the whole ideal
    not proved; red triangles: the row did not finish, drawn at its time
    limit (or at the time it was stopped).

    INPUT:

    - ``rows`` -- a :class:`FrontierTable` (or its list of dictionaries)
    - ``title`` -- string (default: ``None``, a title with the count of proved rows)
    - ``backend`` -- (default: ``None``) see :func:`~sage_attention.misc.plotting.line_plot`

    OUTPUT: a Sage ``Graphics`` object (or a matplotlib figure)

    EXAMPLES::

        sage: from sage_attention.app.frontier_table import plot_frontier
        sage: rows = [{"name": "a", "coordinates": 18, "proved": True, "seconds": 0.4, "status": "ok"},
        ....:         {"name": "b", "coordinates": 75, "proved": False, "seconds": 85, "status": "ok"},
        ....:         {"name": "c", "coordinates": 75, "proved": True, "seconds": 300, "status": "ok"}]
        sage: G = plot_frontier(rows)
        sage: [(list(p.xdata), list(p.ydata), p.options()['legend_label']) for p in G]
        [([18.0, 75.0], [0.4, 300.0], 'whole ideal proved (2)'),
         ([75.0], [85.0], 'complete through a degree, not proved (1)')]
        sage: G._extra_kwds['scale']
        'loglog'
        sage: plot_frontier(rows, backend='matplotlib').axes[0].get_yscale()
        'log'
    """
    rows = [r for r in rows if r.get("seconds") is not None]
    groups = [("whole ideal proved", PROVED, "o", lambda r: r["status"] == "ok" and r["proved"]),
              ("complete through a degree, not proved", NOT_PROVED, "s",
               lambda r: r["status"] == "ok" and not r["proved"]),
              ("not finished (at its time limit)", NOT_FINISHED, "^", lambda r: r["status"] != "ok")]
    series = []
    for label, color, marker, test in groups:
        here = [r for r in rows if test(r)]
        if here:
            series.append({"points": [(r["coordinates"], r["seconds"]) for r in here], "color": color,
                           "marker": marker, "style": "points", "size": 45, "alpha": 0.8,
                           "label": f"{label} ({len(here)})"})
    if title is None:
        proved = sum(1 for r in rows if r["status"] == "ok" and r["proved"])
        title = f"The frontier of implicitization: {proved} of {len(rows)} rows proved whole"
    xs = sorted({r["coordinates"] for r in rows})
    # one width alone: no logarithmic horizontal axis (it would have a single tick)
    return line_plot(series, title=title, xlabel="essential coordinates",
                     ylabel="wall time (s), proof included", scale="loglog" if len(xs) > 1 else "semilogy",
                     backend=backend, xticks=(xs, [str(x) for x in xs]) if len(xs) <= 15 else None)
