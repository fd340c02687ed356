r"""
The picture of a generation report: which family accounts for which generators

:meth:`GenerationReport.plot() <sage_attention.variety.generation_records.GenerationReport.plot>`
draws :func:`plot_generation`: in each degree `k`, the number of minimal
generators of the vanishing ideal `I(X)` (gray), and for each invariant
family the number of them it accounts for (those not missing from the
ideal it generates). A Sage ``Graphics`` object, or a matplotlib figure
without Sage's plotting (:mod:`sage_attention.misc.plotting`).

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.variety.generation import generation_report
    sage: R = generation_report(LightningAttention(d=2, t=2, a=1, entries=[(1, 1)]),
    ....:                       families=['linear', 'low_rank'])
    sage: G = R.plot(); G
    Graphics object consisting of 16 graphics primitives
    sage: G.save(tmp_filename(ext='.png'))
"""
from sage_attention.misc.plotting import bar_chart


def plot_generation(report, title=None, backend=None):
    r"""
    Return the bar chart of a generation report: the generators of `I(X)` each family accounts for, by degree.

    A family accounts for the minimal generators of `I(X)` of degree `k`
    that are not ``missing`` from the ideal it generates (with the linear
    relations): `\#\{\text{generators of degree } k\} - \text{missing}_k`.
    The union of the families is the row ``'all'``.

    INPUT:

    - ``report`` -- a :class:`~sage_attention.variety.generation_records.GenerationReport`
    - ``title`` -- string (default: ``None``, a title made from the report)
    - ``backend`` -- (default: ``None``) see :func:`~sage_attention.misc.plotting.line_plot`

    OUTPUT: a Sage ``Graphics`` object (or a matplotlib figure)

    EXAMPLES:

    The linear forms account for the four linear generators, the low-rank
    minors for the quadrics as well::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.generation import generation_report
        sage: from sage_attention.variety.plots import plot_generation
        sage: R = generation_report(LightningAttention(d=2, t=2, a=1, entries=[(1, 1)]),
        ....:                       families=['linear', 'low_rank'])
        sage: R.generators_by_degree, [(r.family, r.missing) for r in R.rows]
        ({1: 4, 2: 3}, [('linear', {2: 3}), ('low_rank', {}), ('all', {})])
        sage: G = plot_generation(R)
        sage: [max(p.ydata) for p in G if type(p).__name__ == 'Polygon']
        [4.0, 3.0, 4.0, 4.0, 3.0, 4.0, 3.0]
    """
    degrees = sorted(report.generators_by_degree)
    total = [report.generators_by_degree[k] for k in degrees]
    bars = [{"values": total, "label": "minimal generators of $I(X)$", "color": "#bbbbbb"}]
    for row in report.rows:
        bars.append({"values": [max(0, n - row.missing.get(k, 0)) for k, n in zip(degrees, total)],
                     "label": ("union of the families" if row.family == "all" else row.family)
                     + ("" if row.contained else " (NOT in I(X))")})
    if title is None:
        verb = {True: "generate", False: "do not generate", None: "not compared"}[
            report.families_generate]
        model = str(report.model)
        model = model if len(model) <= 80 else model[:77] + "..."
        title = f"Generators accounted for by each family (the families {verb})\n{model}"
    return bar_chart(bars, degrees, title=title, xlabel="degree $k$",
                     ylabel="minimal generators of $I(X)$", backend=backend)
