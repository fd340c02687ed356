r"""
Figures: the [HMK2024] experiment and a slice of the neuromanifold

:func:`make_figures` writes, into one folder, the tables (Markdown and CSV) and plots of the
dimension experiment of [HMK2024]_ (softmax: numerical; lightning: exact)
and a picture of the real neuromanifold of one layer with `d = 2`,
`d' = 1`, `a = 1` and its boundary cone. Matplotlib (the ``plot`` extra) is
needed; it is imported only here, with the non-interactive ``Agg`` backend.

EXAMPLES::

    sage: from sage_attention.app.figures import make_figures
    sage: import tempfile, os
    sage: d = tempfile.mkdtemp()
    sage: files = make_figures(d, deltas=[3, 4], seed=0)          # long time
    sage: sorted(os.path.basename(f) for f in files)              # long time
    ['hmk_lightning.csv', 'hmk_lightning.md', 'hmk_lightning.pdf', 'hmk_lightning.png',
     'hmk_softmax.csv', 'hmk_softmax.md', 'hmk_softmax.pdf', 'hmk_softmax.png',
     'neuromanifold_slice.pdf', 'neuromanifold_slice.png']
"""
import os


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def plot_experiment(rows, stem, title=None):
    r"""
    Plot estimated and expected dimension against `\delta`; write PNG and PDF.

    INPUT:

    - ``rows`` -- rows of :func:`~sage_attention.app.experiments.hmk_experiment`
    - ``stem`` -- path without extension
    - ``title`` -- (default: from the rows) a string

    OUTPUT: the list of the two written paths

    EXAMPLES::

        sage: from sage_attention.app.figures import plot_experiment
        sage: from sage_attention.app.experiments import hmk_experiment
        sage: import tempfile, os
        sage: stem = os.path.join(tempfile.mkdtemp(), 'x')
        sage: [os.path.basename(p) for p in plot_experiment(hmk_experiment([3, 4]), stem)]
        ['x.png', 'x.pdf']
    """
    plt = _pyplot()
    deltas = [r["delta"] for r in rows]
    est = [r["dimension"] for r in rows]
    exp = [r["expected"] for r in rows]
    params = [r["parameters"] for r in rows]
    norm = rows[0]["normalization"] if rows else ""
    fig, ax = plt.subplots(figsize=(6, 4.2))
    ax.plot(deltas, params, color="0.6", linestyle=":", label="number of parameters")
    ax.plot(deltas, exp, color="tab:orange", linewidth=2.5, label="expected (formula)")
    kind = "estimated (float64, one trial)" if norm == "softmax" else "computed (exact rank)"
    ax.plot(deltas, est, linestyle="none", marker="o", markersize=7, markerfacecolor="none",
            markeredgewidth=1.8, color="tab:blue", label=kind)
    ax.set_xlabel(r"width $\delta$ (all layers)")
    ax.set_ylabel("dimension")
    if title is None and rows:
        r = rows[0]
        title = (f"{norm} attention, l = {len(r['ranks'])}, t = {r['tokens']}, "
                 f"a = {r['ranks'][0]}: dimension of the neuromanifold")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    paths = [stem + ".png", stem + ".pdf"]
    fig.savefig(paths[0], dpi=150)
    fig.savefig(paths[1])
    plt.close(fig)
    return paths


def slice_points(n=400, seed=0):
    r"""
    Return points of the slice of the neuromanifold `d = 2, d' = 1, a = 1`.

    Weights `V = v^T`, `Q = (q_1, 0)`, `K = k^T`, so `A = k q^T` has second
    column zero: the slice `T_{\{a,b\},2} = 0` of the scaled cross
    coordinates. The remaining coordinates `(T_{11,1}, T_{12,1},
    T_{22,1})` are the entries of `q_1 \operatorname{Sym}(v \otimes k)`,
    computed by the package's parametrization. The real neuromanifold of
    the slice is `\{xz \le y^2\}`, its boundary the cone `xz = y^2`
    (`v \parallel k`, :ref:`mathematics, §5 <math-5>`); real points with `xz > y^2` lie on
    the neurovariety but not on the neuromanifold.

    OUTPUT: ``(inside, boundary)``, two lists of triples

    EXAMPLES::

        sage: from sage_attention.app.figures import slice_points
        sage: inside, bd = slice_points(50, seed=1)
        sage: all(x * z <= y^2 + 1e-12 for x, y, z in inside)
        True
        sage: all(abs(x * z - y^2) < 1e-9 for x, y, z in bd)
        True
    """
    import numpy as np
    from sage.all__sagemath_singular import RDF, matrix
    from sage_attention.models import LightningAttention
    M = LightningAttention(d=2, t=2, a=1, out=1, coordinate_scaling="scaled", entries=[(1, 1)])
    idx = {}
    for pos, c in enumerate(M.coordinates_list()):
        if c.kind == "cross" and c.indices[2] == 1 and c.context == 2:
            idx[c.indices[:2]] = pos
    from sage_attention.misc.randomness import numpy_generator, resolve_seed
    rng = numpy_generator(resolve_seed(seed))

    def point(v, k, q1):
        w = [(matrix(RDF, [[q1, 0]]), matrix(RDF, [list(k)]), matrix(RDF, [list(v)]))]
        vals = M.coefficients_at(w)
        return tuple(float(vals[idx[key]]) for key in ((1, 1), (1, 2), (2, 2)))

    inside, boundary = [], []
    for _ in range(n):
        v, k = rng.standard_normal(2), rng.standard_normal(2)
        inside.append(point(v, k, 1.0))
    for _ in range(max(n // 4, 1)):
        k = rng.standard_normal(2)
        boundary.append(point(rng.standard_normal() * k, k, 1.0))
    return inside, boundary


def plot_slice(stem, n=400, seed=0):
    r"""
    Plot the slice of :func:`slice_points` and its boundary cone; write PNG and PDF.

    EXAMPLES::

        sage: from sage_attention.app.figures import plot_slice
        sage: import tempfile, os
        sage: stem = os.path.join(tempfile.mkdtemp(), 's')
        sage: [os.path.basename(p) for p in plot_slice(stem, n=40)]
        ['s.png', 's.pdf']
    """
    import numpy as np
    plt = _pyplot()
    inside, boundary = slice_points(n, seed)
    lim, scale = 1.5, 1.0
    fig = plt.figure(figsize=(10, 4.8))
    ax = fig.add_subplot(1, 2, 1, projection="3d")
    # the boundary cone x z = y^2: x = r cos^2, y = r cos sin, z = r sin^2, r of both signs
    r = np.linspace(-lim, lim, 21)
    th = np.linspace(0, np.pi, 41)
    R, TH = np.meshgrid(r, th)
    ax.plot_surface(R * np.cos(TH) ** 2, R * np.cos(TH) * np.sin(TH), R * np.sin(TH) ** 2,
                    color="tab:orange", alpha=0.25, linewidth=0)
    pts = np.array(inside) * scale
    keep = np.all(np.abs(pts) <= lim, axis=1)
    ax.scatter(*pts[keep].T, s=5, color="tab:blue", label="neuromanifold (random weights)")
    bpts = np.array(boundary) * scale
    keepb = np.all(np.abs(bpts) <= lim, axis=1)
    ax.scatter(*bpts[keepb].T, s=9, color="black", label=r"boundary: $v \parallel k$")
    ax.set_xlabel(r"$T_{11,1}$")
    ax.set_ylabel(r"$T_{12,1}$")
    ax.set_zlabel(r"$T_{22,1}$")
    ax.set_title("slice of the neuromanifold, d=2, d'=1, a=1\n(orange: boundary cone xz = y^2)",
                 fontsize=9)
    ax.legend(fontsize=7, loc="upper left")
    # a planar section x + z = 1 (coordinates y, (x - z)/2): manifold = outside of a circle
    ax2 = fig.add_subplot(1, 2, 2)
    g = np.linspace(-1.5, 1.5, 301)
    Yg, Dg = np.meshgrid(g, g)            # y and (x - z)/2 on the plane x + z = 1
    X, Z = 0.5 + Dg, 0.5 - Dg
    ax2.contourf(Yg, Dg, (X * Z <= Yg ** 2).astype(float), levels=[-0.5, 0.5, 1.5],
                 colors=["tab:red", "tab:blue"], alpha=0.25)
    t = np.linspace(0, 2 * np.pi, 200)
    ax2.plot(0.5 * np.cos(t), 0.5 * np.sin(t), color="tab:orange", linewidth=2,
             label="boundary (cone section)")
    sec = [(y / (x + z), (x - z) / (2 * (x + z))) for x, y, z in inside if abs(x + z) > 1e-3]
    sec = np.array([p for p in sec if max(abs(p[0]), abs(p[1])) < 1.5])
    if len(sec):
        ax2.scatter(sec[:, 0], sec[:, 1], s=4, color="tab:blue",
                    label="images of random weights (rescaled to x + z = 1)")
    ax2.set_aspect("equal")
    ax2.set_xlabel(r"$T_{12,1}$")
    ax2.set_ylabel(r"$(T_{11,1} - T_{22,1})/2$")
    ax2.set_title("section x + z = 1: blue = real neuromanifold,\nred = neurovariety only "
                  "(definite Sym(v k))", fontsize=9)
    ax2.legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    paths = [stem + ".png", stem + ".pdf"]
    fig.savefig(paths[0], dpi=150)
    fig.savefig(paths[1])
    plt.close(fig)
    return paths


def make_figures(outdir="figures", deltas=range(3, 11), seed=0, executor=None,
                 progress=None):
    r"""
    Write the experiment tables and plots and the slice plot into ``outdir``.

    INPUT:

    - ``outdir`` -- (default: ``'figures'``, in the current folder) a folder, created if needed
    - ``deltas`` -- (default: `3, \dots, 10`) widths of the experiment
    - ``seed``, ``executor``, ``progress`` -- as in
      :func:`~sage_attention.app.experiments.sweep`

    OUTPUT: the list of written paths (see the module's example)
    """
    from sage_attention.app.experiments import hmk_experiment, format_table
    os.makedirs(outdir, exist_ok=True)
    files = []
    for norm in ("softmax", "lightning"):
        rows = hmk_experiment(deltas=deltas, normalization=norm, seed=seed, executor=executor,
                              progress=progress)
        stem = os.path.join(outdir, f"hmk_{norm}")
        with open(stem + ".md", "w") as f:
            f.write(format_table(rows) + "\n")
        with open(stem + ".csv", "w") as f:         # the table of the documentation
            f.write(format_table(rows, "csv") + "\n")
        files += [stem + ".md", stem + ".csv"]
        files += plot_experiment(rows, stem)
    files += plot_slice(os.path.join(outdir, "neuromanifold_slice"), seed=seed)
    return files
