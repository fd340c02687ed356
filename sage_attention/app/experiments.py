r"""
Dimension sweeps and the experiment of [HMK2024]

A *sweep* computes the dimension of every architecture of a grid, one row
per architecture, optionally in parallel over a
:class:`concurrent.futures.Executor`. Lightning networks get the exact rank
over a prime field; softmax networks the float64 estimate of
:mod:`sage_attention.models.softmax`. Progress goes to the ``sage_attention``
logger, or to a callback.

[HMK2024]_ check their conjecture on softmax networks with `l = 2` layers,
`t = 3` tokens, ranks `a_i = 2` and all widths `\delta = 3, \dots, 10`; the
expected dimension is `\delta^2 + 2 \cdot 2(2\delta - 2)`::

    sage: from sage_attention.app.experiments import hmk_experiment
    sage: rows = hmk_experiment(deltas=[3, 4, 5], seed=0)
    sage: [(r['delta'], r['dimension'], r['expected']) for r in rows]
    [(3, 25, 25), (4, 40, 40), (5, 57, 57)]

The same grid with lightning attention (exact), where the formula has the
`-l` of the two scalings::

    sage: rows = hmk_experiment(deltas=[3, 4], normalization='lightning', seed=0)
    sage: [(r['dimension'], r['expected']) for r in rows]
    [(23, 23), (38, 38)]
"""
import itertools
import logging
import time

logger = logging.getLogger("sage_attention")


def architecture_grid(layers=(2,), widths=(3,), ranks=(2,), tokens=(3,),
                      normalization=("softmax",)):
    r"""
    Return the grid of architectures with all widths equal, as dictionaries.

    INPUT:

    - ``layers``, ``widths``, ``ranks``, ``tokens`` -- iterables of positive
      integers (every layer has the same width and rank)
    - ``normalization`` -- iterable of ``'lightning'`` / ``'softmax'``

    EXAMPLES::

        sage: from sage_attention.app.experiments import architecture_grid
        sage: g = architecture_grid(layers=[1, 2], widths=[3], ranks=[1], tokens=[2], normalization=['lightning'])
        sage: [(e['widths'], e['ranks'], e['tokens'], e['normalization']) for e in g]
        [((3, 3), (1,), 2, 'lightning'), ((3, 3, 3), (1, 1), 2, 'lightning')]
    """
    out = []
    for norm, l, d, a, t in itertools.product(normalization, layers, widths, ranks, tokens):
        out.append({"widths": (int(d),) * (int(l) + 1), "ranks": (int(a),) * int(l),
                    "tokens": int(t), "normalization": str(norm)})
    return out


def _normalize_entry(entry):
    from sage_attention.models import AttentionNetwork
    if isinstance(entry, AttentionNetwork):
        return {"widths": entry.widths, "ranks": entry.ranks, "tokens": entry.tokens,
                "normalization": entry.normalization[0] if len(set(entry.normalization)) == 1
                else entry.normalization, "weights": entry.weights}
    if not isinstance(entry, dict) or not {"widths", "ranks", "tokens"} <= set(entry):
        raise TypeError(f"grid entry (={entry!r}) must be an AttentionNetwork or a dict with "
                        "keys widths, ranks, tokens")
    e = dict(entry)
    e["widths"] = tuple(int(w) for w in e["widths"])
    e["ranks"] = tuple(int(a) for a in e["ranks"])
    e["tokens"] = int(e["tokens"])
    e.setdefault("normalization", "lightning")
    return e


def dimension_row(entry, seed=0):
    r"""
    Return the dimension of one architecture as a JSON-able row.

    A module-level function, so that a process pool can run it.

    INPUT:

    - ``entry`` -- a dictionary with ``widths``, ``ranks``, ``tokens`` and
      optionally ``normalization``, ``weights``
    - ``seed`` -- (default: `0`) integer

    OUTPUT: a dictionary with the architecture, ``dimension``,
    ``expected``, ``agrees``, ``parameters``, ``fiber_dimension``,
    ``symmetry_dimension`` (lightning only), ``inputs``, ``gap`` (softmax
    only), ``warning``, ``seconds``

    EXAMPLES::

        sage: from sage_attention.app.experiments import dimension_row
        sage: r = dimension_row({'widths': (3, 3, 3), 'ranks': (1, 2), 'tokens': 3})
        sage: r['dimension'], r['expected'], r['fiber_dimension'], r['symmetry_dimension']
        (18, None, 18, 16)
    """
    from sage_attention.models import AttentionNetwork
    e = _normalize_entry(entry)
    M = AttentionNetwork(widths=e["widths"], ranks=e["ranks"], tokens=e["tokens"],
                         normalization=e["normalization"], weight_space=e.get("weights", "QKV"))
    t0 = time.perf_counter()
    D = M.dimension_report(seed=seed)
    row = {"widths": list(e["widths"]), "ranks": list(e["ranks"]), "tokens": e["tokens"],
           "normalization": e["normalization"], "dimension": int(D.dimension),
           "expected": None if D.expected is None else int(D.expected),
           "agrees": D.agrees, "expected_note": D.expected_note,
           "parameters": int(D.parameter_dimension), "fiber_dimension": int(D.fiber_dimension),
           "inputs": int(D.inputs)}
    if M.is_lightning():
        row["symmetry_dimension"] = int(M.symmetry_group()[1])
        row["gap"] = None
        row["warning"] = None
    else:
        row["symmetry_dimension"] = None
        row["gap"] = float(D.gap)
        row["warning"] = D.warning
    row["seconds"] = round(time.perf_counter() - t0, 4)
    return row


def sweep(grid, executor=None, progress=None, seed=0):
    r"""
    Return the dimension table of a grid of architectures.

    INPUT:

    - ``grid`` -- an iterable of models or dictionaries (see
      :func:`architecture_grid`)
    - ``executor`` -- (default: ``None``, sequential) a
      :class:`concurrent.futures.Executor`; the rows come back in the
      order of the grid either way
    - ``progress`` -- (default: ``None``) a callable ``(done, total, row)``
      called after each row; without it each row is logged at level INFO
    - ``seed`` -- (default: `0`) integer passed to every dimension

    OUTPUT: a list of dictionaries (:func:`dimension_row`)

    Ctrl-C raises :class:`~sage_attention.misc.interrupts.ComputationInterrupted`
    (phase ``'sweep'``) whose ``partial`` is the list of the finished rows.

    EXAMPLES::

        sage: from sage_attention.app.experiments import sweep, architecture_grid
        sage: grid = architecture_grid(layers=[1, 2], widths=[3], ranks=[2], tokens=[3],
        ....:                          normalization=['lightning', 'softmax'])
        sage: seen = []
        sage: rows = sweep(grid, progress=lambda done, total, row: seen.append((done, total)))
        sage: [(r['normalization'], r['dimension'], r['agrees']) for r in rows]
        [('lightning', 16, True), ('lightning', 23, True), ('softmax', 17, True),
         ('softmax', 25, True)]
        sage: seen
        [(1, 4), (2, 4), (3, 4), (4, 4)]

    In parallel (a process pool: Sage's exact linear algebra is not
    thread-safe), with the same rows::

        sage: from concurrent.futures import ProcessPoolExecutor
        sage: import multiprocessing
        sage: with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context('fork')) as ex:  # long time
        ....:     rows2 = sweep(grid, executor=ex)
        sage: [r['dimension'] for r in rows2] == [r['dimension'] for r in rows]  # long time
        True
    """
    entries = [_normalize_entry(e) for e in grid]
    total = len(entries)
    rows = [None] * total

    def report(i, row, done):
        rows[i] = row
        if progress is not None:
            progress(done, total, row)
        else:
            logger.info("sweep %d/%d: widths %s ranks %s t=%d %s: dimension %d (%s)",
                        done, total, row["widths"], row["ranks"], row["tokens"],
                        row["normalization"], row["dimension"],
                        "no published formula" if row["expected"] is None else f"expected {row['expected']}")

    futures = {}
    try:
        if executor is None:
            for i, e in enumerate(entries):
                report(i, dimension_row(e, seed), i + 1)
        else:
            from concurrent.futures import as_completed
            futures = {executor.submit(dimension_row, e, seed): i for i, e in enumerate(entries)}
            for done, fut in enumerate(as_completed(futures), 1):
                report(futures[fut], fut.result(), done)
    except KeyboardInterrupt as exc:
        # the package's Ctrl-C (sage_attention.misc.interrupts): the finished rows
        for fut in futures:
            fut.cancel()
        from sage_attention.misc.interrupts import raise_interrupted
        done = [r for r in rows if r is not None]
        raise_interrupted(exc, "sweep", done, f"{len(done)} of {total} rows finished",
                          "run the other rows of the grid")
    from sage_attention.app.plots import SweepTable   # a list with .plot()
    return SweepTable(rows)


def hmk_experiment(deltas=range(3, 11), normalization="softmax", layers=2, tokens=3, rank=2,
                   seed=0, executor=None, progress=None):
    r"""
    Return the rows of [HMK2024]_'s experiment: all widths `\delta`.

    INPUT:

    - ``deltas`` -- (default: `3, \dots, 10`) the widths
    - ``normalization`` -- (default: ``'softmax'``) or ``'lightning'``
    - ``layers``, ``tokens``, ``rank`` -- (default: `2, 3, 2`)
    - ``seed``, ``executor``, ``progress`` -- as in :func:`sweep`

    OUTPUT: the rows of :func:`sweep`, each with a key ``delta``

    EXAMPLES::

        sage: from sage_attention.app.experiments import hmk_experiment
        sage: r, = hmk_experiment(deltas=[6], seed=1)
        sage: r['dimension'] == r['expected'] == 6^2 + 2 * 2 * (2 * 6 - 2), r['warning']
        (True, None)
    """
    deltas = [int(x) for x in deltas]
    grid = architecture_grid(layers=[layers], widths=deltas, ranks=[rank], tokens=[tokens],
                             normalization=[normalization])
    rows = sweep(grid, executor=executor, progress=progress, seed=seed)
    for delta, row in zip(deltas, rows):
        row["delta"] = delta
    return rows


def csv_text(head, rows):
    r"""
    Return the table with the column names ``head`` and the rows ``rows`` as CSV text.

    Written by Python's :mod:`csv` module (RFC 4180: a cell with a comma,
    a quote or a line break is quoted, a quote in it doubled); the lines end
    with ``\n`` and the last has none.

    INPUT:

    - ``head`` -- the column names
    - ``rows`` -- lists of cells (converted with ``str``)

    OUTPUT: a string

    EXAMPLES::

        sage: from sage_attention.app.experiments import csv_text
        sage: print(csv_text(["widths", "name"], [["3,3", 'a "b" c']]))
        widths,name
        "3,3","a ""b"" c"
    """
    import csv
    import io
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([str(c) for c in head])
    writer.writerows([[str(c) for c in r] for r in rows])
    return buf.getvalue().rstrip("\n")


def format_table(rows, fmt="markdown"):
    r"""
    Return a dimension table as text.

    INPUT:

    - ``rows`` -- rows of :func:`sweep`
    - ``fmt`` -- (default: ``'markdown'``) or ``'csv'``

    EXAMPLES::

        sage: from sage_attention.app.experiments import format_table, hmk_experiment
        sage: print(format_table(hmk_experiment(deltas=[3], normalization='lightning')))
        | widths | ranks | t | normalization | dimension | expected | agrees | parameters | fiber | inputs | gap |
        |---|---|---|---|---|---|---|---|---|---|---|
        | 3,3,3 | 2,2 | 3 | lightning | 23 | 23 | yes | 42 | 19 | 16 | exact |
    """
    head = ["widths", "ranks", "t", "normalization", "dimension", "expected", "agrees",
            "parameters", "fiber", "inputs", "gap"]

    def cells(r):
        agrees = {True: "yes", False: "NO", None: "-"}[r["agrees"]]
        gap = "exact" if r["gap"] is None else f"{r['gap']:.1e}"
        if r.get("warning"):
            gap += " (!)"
        return [",".join(map(str, r["widths"])), ",".join(map(str, r["ranks"])),
                str(r["tokens"]), str(r["normalization"]), str(r["dimension"]),
                "-" if r["expected"] is None else str(r["expected"]), agrees,
                str(r["parameters"]), str(r["fiber_dimension"]), str(r["inputs"]), gap]

    if fmt == "csv":
        return csv_text(head, [cells(r) for r in rows])
    if fmt != "markdown":
        raise ValueError(f"fmt (={fmt!r}) must be 'markdown' or 'csv'")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(cells(r)) + " |" for r in rows]
    return "\n".join(lines)


def defectivity_chain(entry, seed=0, max_heads=None, heartbeat=False):
    r"""
    Return the rows `H = 1, 2, \dots` of one layer with `H` summed heads, up to saturation.

    The neurovariety of `H` summed heads is the `H`-fold join of the
    one-head neurovariety; its dimension (the exact Jacobian rank over a
    prime field, :class:`~sage_attention.models.multihead.MultiHeadLightningAttention`)
    is compared with the join bound `\min(H \dim(\text{one head}),
    \dim(\text{span}))` (:mod:`sage_attention.models.join`). The chain stops
    at the first `H` whose dimension is the span (the joins then stay
    equal to the span), or at ``max_heads``. A module-level function, so
    that a process pool can run it.

    INPUT:

    - ``entry`` -- a dictionary with ``d``, ``out``, ``tokens``, ``rank``
    - ``seed`` -- (default: `0`) integer
    - ``max_heads`` -- (default: ``None``, the span dimension) the largest `H`
    - ``heartbeat`` -- boolean (default: ``False``); show each row's
      computation and the seconds it has been running on standard error
      (:class:`~sage_attention.misc.progress.Heartbeat`, as ``run --progress`` does)

    OUTPUT: a list of dictionaries with ``d, out, tokens, rank, heads,
    dimension, one_head, span, bound, defect, parameters, fiber_dimension,
    seconds, stopped``; ``stopped`` is ``None`` but in the last row, where
    it says why the chain stops there: ``'saturated'`` (the dimension is
    the span's: more heads add nothing) or ``'heads'`` (the largest `H`,
    ``max_heads``); :func:`defectivity_stop_note` says it in words

    EXAMPLES:

    Two heads of a full-rank layer miss the span by one::

        sage: from sage_attention.app.experiments import defectivity_chain
        sage: rows = defectivity_chain({'d': 3, 'out': 1, 'tokens': 2, 'rank': 3})
        sage: [(r['heads'], r['dimension'], r['bound'], r['defect']) for r in rows]
        [(1, 11, 11, 0), (2, 17, 18, 1), (3, 18, 18, 0)]
        sage: [r['stopped'] for r in rows]
        [None, None, 'saturated']
        sage: defectivity_chain({'d': 3, 'out': 1, 'tokens': 2, 'rank': 3}, max_heads=2)[-1]['stopped']
        'heads'

    With ``heartbeat``, a line per row on standard error while it computes::

        sage: import sys; stderr, sys.stderr = sys.stderr, sys.stdout
        sage: rows = defectivity_chain({'d': 2, 'out': 1, 'tokens': 2, 'rank': 1}, heartbeat=True)
        defectivity d=2 d'=1 t=2 a=1 H=1: the Jacobian rank: 0 s...done in ... s
        defectivity d=2 d'=1 t=2 a=1 H=2: the Jacobian rank: 0 s...done in ... s
        sage: sys.stderr = stderr
    """
    from sage_attention.models import LightningAttention
    from sage_attention.misc.progress import Heartbeat
    from sage_attention.models.join import join_bound, span_dimension
    d, out, t, a = (int(entry[k]) for k in ("d", "out", "tokens", "rank"))
    span = span_dimension(d, out, t)
    limit = span if max_heads is None else int(max_heads)
    rows, one = [], None
    for H in range(1, limit + 1):
        M = LightningAttention(d=d, t=t, a=a, out=out, heads=H)
        t0 = time.perf_counter()
        with Heartbeat(f"defectivity d={d} d'={out} t={t} a={a} H={H}: the Jacobian rank",
                       heartbeat):
            D = M.dimension_report(seed=seed)
        dim = int(D.dimension)
        if one is None:
            one = dim
        bound = join_bound((d, out), (a,), t, (H,))[0]
        rows.append({"d": d, "out": out, "tokens": t, "rank": a, "heads": H, "dimension": dim,
                     "one_head": one, "span": span, "bound": bound, "defect": bound - dim,
                     "parameters": int(D.parameter_dimension),
                     "fiber_dimension": int(D.fiber_dimension),
                     "seconds": round(time.perf_counter() - t0, 4), "stopped": None})
        if dim == span:
            break
    if rows:
        rows[-1]["stopped"] = "saturated" if rows[-1]["dimension"] == span else "heads"
    return rows


def defectivity_stop_note(row, max_heads=None):
    r"""
    Return why the chain of :func:`defectivity_chain` that ends with ``row``
    stops short of what was asked, or ``None`` when it stops where asked.

    A chain asked for `H` up to ``max_heads`` stops before it when the
    variety fills its span: the join of more heads is the same span. Without
    ``max_heads`` the chain runs up to saturation, and stops short only if
    it reaches `H` = the span dimension before (it does not for a variety of
    positive dimension).

    INPUT:

    - ``row`` -- the last row of a chain (its ``stopped`` is not ``None``)
    - ``max_heads`` -- (default: ``None``) the largest `H` asked for

    OUTPUT: a string or ``None``

    EXAMPLES::

        sage: from sage_attention.app.experiments import defectivity_chain, defectivity_stop_note
        sage: rows = defectivity_chain({'d': 2, 'out': 1, 'tokens': 2, 'rank': 1}, max_heads=3)
        sage: [r['heads'] for r in rows]
        [1, 2]
        sage: print(defectivity_stop_note(rows[-1], max_heads=3))
        d=2 d'=1 t=2 a=1: stopped at H = 2, not 3: the variety fills its span (dimension 6 = the dimension of the span), more heads add nothing
        sage: defectivity_stop_note(rows[-1]) is None
        True
    """
    label = f"d={row['d']} d'={row['out']} t={row['tokens']} a={row['rank']}"
    H = row["heads"]
    if row["stopped"] == "saturated":
        if max_heads is None or H >= max_heads:
            return None
        return (f"{label}: stopped at H = {H}, not {max_heads}: the variety fills its span "
                f"(dimension {row['dimension']} = the dimension of the span), more heads add "
                "nothing")
    if max_heads is not None and H >= max_heads:
        return None
    return (f"{label}: stopped at H = {H}, the dimension of the span, before saturation "
            f"(dimension {row['dimension']} < span {row['span']})")


def defectivity_table(widths=range(2, 6), outs=range(1, 4), tokens=range(1, 4), ranks=None,
                      executor=None, progress=None, seed=0, max_heads=None, heartbeat=False):
    r"""
    Return the defectivity table of summed heads over a grid.

    For every input width `d`, output width `d'`, number of tokens `t` and
    rank `a` (default: every `a = 1, \dots, d`), the rows of
    :func:`defectivity_chain` (`H = 1, 2, \dots` up to saturation).

    INPUT:

    - ``widths``, ``outs``, ``tokens`` -- iterables of positive integers
    - ``ranks`` -- (default: ``None``, every rank up to `d`) iterable of
      positive integers
    - ``executor`` -- (default: ``None``, sequential) a
      :class:`concurrent.futures.Executor`, one chain per task
    - ``progress`` -- (default: ``None``) a callable ``(done, total, rows)``
      called after each chain; without it each chain is logged
    - ``seed`` -- (default: `0`) integer
    - ``max_heads``, ``heartbeat`` -- (default: ``None``, ``False``) see
      :func:`defectivity_chain`

    OUTPUT: a list of rows, in grid order

    EXAMPLES::

        sage: from sage_attention.app.experiments import defectivity_table
        sage: rows = defectivity_table(widths=[2], outs=[1], tokens=[2])
        sage: [(r['rank'], r['heads'], r['dimension'], r['defect']) for r in rows]
        [(1, 1, 4, 0), (1, 2, 6, 0), (2, 1, 5, 0), (2, 2, 6, 0)]
    """
    grid = [{"d": int(d), "out": int(o), "tokens": int(t), "rank": int(a)}
            for d in widths for o in outs for t in tokens
            for a in (range(1, int(d) + 1) if ranks is None else ranks)]
    total = len(grid)
    chains = [None] * total

    def report(i, rows, done):
        chains[i] = rows
        if progress is not None:
            progress(done, total, rows)
        else:
            e = grid[i]
            logger.info("defectivity %d/%d: d=%d out=%d t=%d a=%d: dimensions %s",
                        done, total, e["d"], e["out"], e["tokens"], e["rank"],
                        [r["dimension"] for r in rows])

    if executor is None:
        for i, e in enumerate(grid):
            report(i, defectivity_chain(e, seed, max_heads, heartbeat), i + 1)
    else:
        from concurrent.futures import as_completed
        futures = {executor.submit(defectivity_chain, e, seed, max_heads, heartbeat): i
                   for i, e in enumerate(grid)}
        for done, fut in enumerate(as_completed(futures), 1):
            report(futures[fut], fut.result(), done)
    from sage_attention.app.plots import DefectivityTable   # a list with .plot()
    return DefectivityTable(r for rows in chains for r in rows)


def format_defectivity(rows, fmt="markdown"):
    r"""
    Return the defectivity rows as a Markdown or CSV table.

    EXAMPLES::

        sage: from sage_attention.app.experiments import defectivity_chain, format_defectivity
        sage: print(format_defectivity(defectivity_chain({'d': 2, 'out': 1, 'tokens': 2, 'rank': 1})))
        | d | d' | t | a | H | dimension | one head | span | join bound | defect | parameters | fiber | seconds |
        |---|---|---|---|---|---|---|---|---|---|---|---|---|
        | 2 | 1 | 2 | 1 | 1 | 4 | 4 | 6 | 4 | 0 | 6 | 2 | ... |
        | 2 | 1 | 2 | 1 | 2 | 6 | 4 | 6 | 6 | 0 | 12 | 6 | ... |
    """
    keys = ("d", "out", "tokens", "rank", "heads", "dimension", "one_head", "span", "bound",
            "defect", "parameters", "fiber_dimension", "seconds")
    head = ("d", "d'", "t", "a", "H", "dimension", "one head", "span", "join bound", "defect",
            "parameters", "fiber", "seconds")
    if fmt == "csv":
        return csv_text(head, [[r[k] for k in keys] for r in rows])
    if fmt != "markdown":
        raise ValueError(f"fmt (={fmt!r}) must be 'markdown' or 'csv'")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(r[k]) for k in keys) + " |" for r in rows]
    return "\n".join(lines)
