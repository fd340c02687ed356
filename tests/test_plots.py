"""
The pictures: every ``.plot()`` builds, saves to PNG from a script, and draws the report's numbers.

A script run in a fresh interpreter (as a user's would be) builds each picture with Sage's
plotting, saves it as PNG and writes the numbers it drew (read back from the primitives of the
``Graphics`` object) next to the numbers of the report; the tests compare them and check the
files. The matplotlib fallback (no ``sage.plot``) is checked with the backend chooser patched,
and in a fresh interpreter where ``sage.plot`` cannot be imported. The command line writes the
same pictures with ``--plot FILE``.
"""
import json
import os
import struct
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: the script: the six pictures, their files, their primitives and the reports' numbers
SCRIPT = textwrap.dedent(r'''
    import json, sys
    from sage.all__sagemath_singular import QQ, PolynomialRing
    from sage.plot.graphics import Graphics
    from sage_attention import LightningAttention
    from sage_attention.app.experiments import architecture_grid, defectivity_table, sweep
    from sage_attention.app.filling import filling_frontier
    from sage_attention.ideals.hilbert import hilbert_data, hilbert_function
    from sage_attention.ideals.implicitization import implicitize
    from sage_attention.variety.generation import generation_report

    outdir = sys.argv[1]
    out = {}

    def keep(name, G, report):
        assert isinstance(G, Graphics), type(G)
        G.save(f"{outdir}/{name}.png")
        out[name] = {"primitives": [[type(p).__name__, [float(x) for x in p.xdata],
                                     [float(y) for y in p.ydata]]
                                    for p in G if hasattr(p, "xdata")],
                     "report": report}

    T = sweep(architecture_grid(layers=[1], widths=[2, 3, 4], ranks=[1], tokens=[2],
                                normalization=["lightning"]))
    keep("sweep", T.plot(), [[r["widths"][0], r["dimension"], r["expected"], r["parameters"]]
                             for r in T])
    D = defectivity_table(widths=[3], outs=[1], tokens=[2], ranks=[2, 3])
    rows = [[r["rank"], r["heads"], r["dimension"], r["bound"], r["defect"]] for r in D]
    keep("defectivity", D.plot(), rows)
    keep("defects", D.plot(kind="defects"), rows)
    out["defects"]["texts"] = [[str(p), ] for p in D.plot(kind="defects")
                               if type(p).__name__ == "Text"]
    F = filling_frontier(3, 1, 2, 4, max_width=7, seed=0)
    keep("filling", F.plot(), {"minimal": [list(w) for w in F["minimal_filling"]],
                               "defective": [list(r["widths"]) for r in F["defective"]]})
    R = implicitize(LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)]), 3, seed=0)
    keep("implicitization", R.plot(),
         {"complete": R.complete_through_degree,
          "generators": {str(k): len(v) for k, v in R.generators_by_degree.items()},
          "dimensions": {str(k): int(v) for k, v in R.ideal_dimensions.items()}})
    S = PolynomialRing(QQ, "x,y,z,w")
    x, y, z, w = S.gens()
    H = hilbert_data([x*z - y**2, y*w - z**2, x*w - y*z], S)
    keep("hilbert", H.plot(degrees=5),
         [int(hilbert_function(H.numerator, H.dimension, k)) for k in range(6)])
    G = generation_report(LightningAttention(d=2, t=2, a=1, entries=[(1, 1)]),
                          families=["linear", "low_rank"])
    keep("generation", G.plot(), {"total": {str(k): v for k, v in G.generators_by_degree.items()},
                                  "missing": [[r.family, {str(k): v for k, v in r.missing.items()}]
                                              for r in G.rows]})
    print(json.dumps(out))
''')

NAMES = ("sweep", "defectivity", "defects", "filling", "implicitization", "hilbert", "generation")


def run_python(code, *args, timeout=600):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env=env)


def png_size(path):
    """The width and height of a PNG file (and check its signature)."""
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG file"
    assert head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    outdir = tmp_path_factory.mktemp("plots")
    p = run_python(SCRIPT, str(outdir))
    assert p.returncode == 0, p.stderr[-3000:]
    return outdir, json.loads(p.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", NAMES)
def test_saved_png(drawn, name):
    outdir, _ = drawn
    path = outdir / f"{name}.png"
    width, height = png_size(path)
    assert width >= 300 and height >= 200
    assert os.path.getsize(path) > 10_000      # not a blank picture


def primitives(data, kind):
    return [(xs, ys) for t, xs, ys in data["primitives"] if t == kind]


def test_sweep_numbers(drawn):
    data = drawn[1]["sweep"]
    rows = data["report"]
    widths = [float(r[0]) for r in rows]
    points = primitives(data, "Point")
    lines = primitives(data, "Line")
    assert (widths, [float(r[1]) for r in rows]) in points            # the dimensions
    assert (widths, [float(r[1]) for r in rows]) in lines
    assert (widths, [float(r[3]) for r in rows]) in lines             # the parameters
    formula = [(float(r[0]), float(r[2])) for r in rows if r[2] is not None]
    assert formula and ([x for x, _ in formula], [y for _, y in formula]) in points


def test_defectivity_numbers(drawn):
    data = drawn[1]["defectivity"]
    rows = data["report"]
    lines = primitives(data, "Line")
    for a in {r[0] for r in rows}:
        chain = [r for r in rows if r[0] == a]
        heads = [float(r[1]) for r in chain]
        assert (heads, [float(r[2]) for r in chain]) in lines         # the dimensions
        assert (heads, [float(r[3]) for r in chain]) in lines         # the join bound
    defective = [(float(r[1]), float(r[2])) for r in rows if r[4]]
    assert defective
    marked = primitives(data, "Point")[-1]                            # drawn last, on top
    assert sorted(zip(*marked)) == sorted(defective)


def test_defects_heat_map(drawn):
    data = drawn[1]["defects"]
    rows = data["report"]
    texts = sorted(t[0] for t in data["texts"])
    chains = sorted({r[0] for r in rows})
    want = sorted(f"Text '{r[4]}' at the point ({float(r[1] - 1)},{float(chains.index(r[0]))})"
                  for r in rows)
    assert texts == want


def test_filling_numbers(drawn):
    data = drawn[1]["filling"]
    lines = primitives(data, "Line")
    for w in data["report"]["minimal"] + data["report"]["defective"]:
        assert ([float(i) for i in range(len(w))], [float(x) for x in w]) in lines
    assert data["report"]["minimal"] == [[3, 6, 1]]


def bar_heights(data):
    """The heights of the bars (polygons), in the order drawn (series by series)."""
    return [max(ys) for xs, ys in primitives(data, "Polygon")]


def test_implicitization_numbers(drawn):
    data = drawn[1]["implicitization"]
    rep = data["report"]
    degrees = range(1, rep["complete"] + 1)
    want = ([float(rep["generators"].get(str(k), 0)) for k in degrees]
            + [float(rep["dimensions"].get(str(k), 0)) for k in degrees])
    assert bar_heights(data) == [v for v in want if v]                # zero bars are not drawn


def test_hilbert_numbers(drawn):
    data = drawn[1]["hilbert"]
    values = [float(v) for v in data["report"]]
    assert values == [1.0, 4.0, 7.0, 10.0, 13.0, 16.0]
    assert (list(map(float, range(6))), values) in primitives(data, "Line")


def test_generation_numbers(drawn):
    data = drawn[1]["generation"]
    total = {int(k): v for k, v in data["report"]["total"].items()}
    degrees = sorted(total)
    want = [float(total[k]) for k in degrees]
    for family, missing in data["report"]["missing"]:
        want += [float(total[k] - missing.get(str(k), 0)) for k in degrees]
    assert bar_heights(data) == [v for v in want if v]


# --- the matplotlib fallback -----------------------------------------------------------


@pytest.fixture
def matplotlib_backend(monkeypatch):
    from sage_attention.misc import plotting
    monkeypatch.setattr(plotting, "graphics_backend", lambda: "matplotlib")


def test_matplotlib_fallback(matplotlib_backend, tmp_path):
    from matplotlib.figure import Figure
    from sage_attention.app.experiments import defectivity_table
    from sage_attention.ideals.engine.plots import plot_hilbert_function
    from sage_attention.misc.plotting import bar_chart
    T = defectivity_table(widths=[3], outs=[1], tokens=[2], ranks=[3])
    fig = T.plot()
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    ys = [list(map(float, line.get_ydata())) for line in ax.get_lines()]
    assert [11.0, 17.0, 18.0] in ys and [11.0, 18.0, 18.0] in ys
    assert ax.get_xlabel() == "number of heads $H$"
    assert "defective" in [t.get_text() for t in ax.get_legend().get_texts()]
    fig.savefig(tmp_path / "d.png")
    assert png_size(tmp_path / "d.png")[0] >= 300
    heat = T.plot(kind="defects")
    assert sorted(t.get_text() for t in heat.axes[0].texts) == ["0", "0", "1"]
    bars = bar_chart([{"values": [3, 5], "label": "n"}], [1, 2])
    assert [p.get_height() for p in bars.axes[0].patches] == [3.0, 5.0]
    assert isinstance(plot_hilbert_function([1, 4, 7]), Figure)


def test_fallback_without_sage_plot():
    code = textwrap.dedent('''
        import sys, importlib.abc
        class Hide(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name == "sage.plot" or name.startswith("sage.plot."):
                    raise ModuleNotFoundError(f"No module named {name!r}")
        sys.meta_path.insert(0, Hide())
        from sage_attention.misc.plotting import graphics_backend
        from sage_attention.app.filling import filling_frontier
        fig = filling_frontier(2, 1, 3, 2, max_width=3).plot()
        fig.savefig(sys.argv[1])
        print(graphics_backend(), type(fig).__name__)
    ''')
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "f.png")
        p = run_python(code, path)
        assert p.returncode == 0, p.stderr[-3000:]
        assert p.stdout.split() == ["matplotlib", "Figure"]
        assert png_size(path)[0] >= 300


def test_command_line_plot(tmp_path):
    path = tmp_path / "defectivity.png"
    p = subprocess.run([sys.executable, "-m", "sage_attention.app.cli", "defectivity", "--width", "3",
                        "--out", "1", "--tokens", "2", "--rank", "3", "--json", "-q", "--plot",
                        str(path)], capture_output=True, text=True, timeout=600, cwd=ROOT,
                       env=dict(os.environ, PYTHONPATH=ROOT))
    assert p.returncode == 0, p.stderr[-3000:]
    records = [json.loads(line) for line in p.stdout.splitlines()]
    assert {"record": "file", "command": "defectivity", "path": str(path)}.items() <= records[-1].items()
    assert png_size(path)[0] >= 300 and os.path.getsize(path) > 10_000


def test_command_line_plot_refuses_unknown_format(tmp_path):
    # checked before anything is computed: exit status 2 and what to write instead
    import contextlib
    import io
    from sage_attention.app.cli import main
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main(["filling", "--plot", str(tmp_path / "f.jpg")])
    assert status == 2
    assert "--plot" in err.getvalue() and "must end in .png, .pdf or .svg" in err.getvalue()
    assert not os.listdir(tmp_path)


def test_notebook_display():
    # a plain Jupyter kernel shows a Graphics object through its _repr_png_
    from sage_attention.app.experiments import defectivity_table
    G = defectivity_table(widths=[3], outs=[1], tokens=[2], ranks=[3]).plot()
    png = G._repr_png_()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000


def test_frontier_plot_draws_every_row_of_the_documented_table(tmp_path):
    """The frontier picture: one point per row of doc/frontier_table.rst, at its coordinates and
    time, colored by whether the row's "whole ideal" cell says proved (read here with a regular
    expression of its own, not with the table's parser)."""
    import re
    from sage_attention.app.frontier_table import FrontierTable, PROVED, NOT_PROVED
    from sage_attention.misc.plotting import save_graphics
    with open(os.path.join(ROOT, "doc", "frontier_table.rst"), encoding="utf-8") as f:
        text = f.read()
    table = text[text.index(".. list-table::"):]
    table = table[:table.index("\n\n", table.index("   * - row"))]
    cells = re.findall(r"   \* - (\S+)\n     - (\d+)\n     - .*\n     - .*\n     - (.*)\n     - ([\d.]+) s",
                       table)
    assert len(cells) == 48 and "**29 of the 48 rows are proved**" in text
    expected = {PROVED: sorted((int(c), float(s)) for _, c, w, s in cells if w.startswith("proved")),
                NOT_PROVED: sorted((int(c), float(s)) for _, c, w, s in cells if not w.startswith("proved"))}
    assert len(expected[PROVED]) == 29
    G = FrontierTable.from_rst(os.path.join(ROOT, "doc", "frontier_table.rst")).plot()
    drawn = {p.options()["rgbcolor"]: sorted(zip(p.xdata, p.ydata)) for p in G}
    assert drawn == expected
    assert G._extra_kwds["scale"] == "loglog"
    path = save_graphics(G, tmp_path / "frontier.png")
    with open(path, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"


def test_frontier_command_line_plot(tmp_path):
    """python -m benchmarks.frontier --from-json FILE --plot PNG draws the records."""
    records = [{"name": "slice-d3-t2-a1", "status": "ok", "coords": 18, "gens": {"2": 45}, "complete": 4,
                "proved": True, "method": "localization", "reason": "", "seconds": 0.44, "mb": 186,
                "proof_seconds": 0.19},
               {"name": "slice-d4-t2-a4", "status": "ok", "coords": 40, "gens": {"3": 120}, "complete": 4,
                "proved": False, "reason": "not proved", "seconds": 62.1, "mb": 402}]
    (tmp_path / "r.json").write_text(json.dumps(records))
    out = subprocess.run([sys.executable, "-m", "benchmarks.frontier", "--from-json", str(tmp_path / "r.json"),
                          "--plot", str(tmp_path / "f.png")], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert f"plot: {tmp_path / 'f.png'}" in out.stderr
    assert (tmp_path / "f.png").read_bytes()[:4] == b"\x89PNG"
