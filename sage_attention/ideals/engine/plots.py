r"""
The pictures of the ideals: generators by degree, and the Hilbert function

:meth:`ImplicitizationReport.plot() <sage_attention.ideals.engine.report.ImplicitizationReport.plot>`
draws :func:`plot_implicitization` (the minimal generators found in each
degree, with the dimension of the degree part of the ideal), and
:meth:`HilbertData.plot() <sage_attention.ideals.hilbert.HilbertData.plot>`
draws :func:`plot_hilbert_function` (the Hilbert function of `R/J` and its
Hilbert polynomial). Both return a Sage ``Graphics`` object, or a
matplotlib figure without Sage's plotting (:mod:`sage_attention.misc.plotting`).

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.ideals.implicitization import implicitize
    sage: R = implicitize(LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)]), 2, seed=0)
    sage: G = R.plot(); G
    Graphics object consisting of 7 graphics primitives
    sage: G.save(tmp_filename(ext='.png'))
"""
from sage_attention.misc.plotting import bar_chart, line_plot


def plot_implicitization(report, title=None, backend=None):
    r"""
    Return the bar chart of an implicitization: the minimal generators and `\dim I_k` in each degree `k`.

    The degrees are `1, \dots, k_0`, where every generator of degree at
    most `k_0` (``complete_through_degree``) is found; the title says
    whether the whole ideal is proved.

    INPUT:

    - ``report`` -- an :class:`~sage_attention.ideals.engine.report.ImplicitizationReport`
    - ``title`` -- string (default: ``None``, a title made from the report)
    - ``backend`` -- (default: ``None``) see :func:`~sage_attention.misc.plotting.line_plot`

    OUTPUT: a Sage ``Graphics`` object (or a matplotlib figure); each bar
    is a polygon whose height is the number it stands for

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.implicitization import implicitize
        sage: from sage_attention.ideals.engine.plots import plot_implicitization
        sage: R = implicitize(LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)]), 2, seed=0)
        sage: {k: len(v) for k, v in R.generators_by_degree.items()}, R.ideal_dimensions
        ({2: 3}, {1: 0, 2: 3})
        sage: G = plot_implicitization(R)
        sage: [max(p.ydata) for p in G if type(p).__name__ == 'Polygon']
        [3.0, 3.0]
    """
    degrees = list(range(1, report.complete_through_degree + 1))
    bars = [{"values": [len(report.generators_by_degree.get(k, ())) for k in degrees],
             "label": "minimal generators"},
            {"values": [report.ideal_dimensions.get(k, 0) for k in degrees],
             "label": r"$\dim I_k$"}]
    if title is None:
        done = ("the whole ideal proved" if report.proved_complete else
                f"generators through degree {report.complete_through_degree} proved")
        title = f"Implicitization: {done}\n{_short(report.model)}"
    return bar_chart(bars, degrees, title=title, xlabel="degree $k$", ylabel="number",
                     backend=backend)


def _short(text, n=80):
    text = str(text)
    return text if len(text) <= n else text[:n - 3] + "..."


def plot_hilbert_function(values, polynomial_values=None, title=None, backend=None):
    r"""
    Return the picture of a Hilbert function `k \mapsto \dim (R/J)_k` and of its Hilbert polynomial.

    INPUT:

    - ``values`` -- list of the Hilbert function at `k = 0, 1, \dots`
    - ``polynomial_values`` -- (default: ``None``) list of the Hilbert
      polynomial at the same `k`
    - ``title`` -- string (default: ``None``)
    - ``backend`` -- (default: ``None``) see :func:`~sage_attention.misc.plotting.line_plot`

    OUTPUT: a Sage ``Graphics`` object (or a matplotlib figure)

    EXAMPLES::

        sage: from sage_attention.ideals.engine.plots import plot_hilbert_function
        sage: G = plot_hilbert_function([1, 4, 7, 10], [1, 4, 7, 10])
        sage: [list(p.ydata) for p in G][0]
        [1.0, 4.0, 7.0, 10.0]
    """
    ks = list(range(len(values)))
    series = [{"points": list(zip(ks, values)), "label": "Hilbert function", "color": "#1f77b4"}]
    if polynomial_values is not None:   # dashed, on top: where they agree both show
        series.append({"points": list(zip(ks, polynomial_values)), "label": "Hilbert polynomial",
                       "style": "line", "linestyle": "--", "color": "#ff7f0e"})
    return line_plot(series, title=title or "Hilbert function of $R/J$", xlabel="degree $k$",
                     ylabel=r"$\dim (R/J)_k$", xticks=(ks, [str(k) for k in ks]), integer_y=True,
                     backend=backend)
