"""Jupyter's rich display of the models and the reports: the HTML parses, and its cells are the
numbers the report holds (read back from the object, and checked against an independent count);
the LaTeX of coordinates, models and varieties is readable and keeps their names; a caption is
short, with the details in the table, and says what is proved and what is not."""
from html.parser import HTMLParser

from sage.all__sagemath_singular import latex

from sage_attention import LightningAttention


class _Cells(HTMLParser):
    """The rows of the tables of an HTML string, as lists of cell texts; fails on unbalanced tags."""

    def __init__(self):
        super().__init__()
        self.rows, self.stack, self.cell = [], [], None

    def handle_starttag(self, tag, attrs):
        self.stack.append(tag)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.cell = ""

    def handle_endtag(self, tag):
        assert self.stack and self.stack.pop() == tag, (tag, self.stack)
        if tag in ("td", "th"):
            self.rows[-1].append(self.cell)
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def cells(html):
    p = _Cells()
    p.feed(html)
    p.close()
    assert p.stack == [], p.stack
    return {row[0]: row[1:] for row in p.rows}


def test_dimension_and_fiber_reports_show_their_numbers():
    M = LightningAttention(d=3, t=2, a=2, out=1)
    D = M.dimension_report(seed=0)
    c = cells(D._repr_html_())
    # [HMK2024]: d d' + r(2d - r) - 1 = 3 + 8 - 1 = 10 ... with r = 2: 3*1 + 2*4 - 1 = 10
    assert c["dimension"] == [str(D.dimension)] == ["10"]
    assert c["fiber dimension"] == [str(M.nparameters() - 10)]
    F = M.fibers(seed=0)
    assert cells(F._repr_html_())["fiber dimension"] == [str(F.fiber_dimension)]


def test_implicitization_and_generation_tables():
    from sage_attention.ideals.implicitization import implicitize
    from sage_attention.variety.generation import generation_report
    M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
    R = implicitize(M, 2, seed=0)
    c = cells(R._repr_html_())
    # the 2-minors of the 2 x 3 flattening: 3 quadrics, no new linear generators
    assert c["2"][:2] == ["3", "3"] and c["1"][0] == "0"
    G = generation_report(M, families=["linear", "low_rank"])
    c = cells(G._repr_html_())
    assert c["linear"][:2] == ["4", "yes"] and c["low_rank"][3] == "yes"


def test_certificate_and_hilbert_data_escape_and_show_values():
    from sage.all__sagemath_singular import QQ, PolynomialRing
    from sage_attention.variety.certificates import certify
    from sage_attention.ideals.hilbert import hilbert_data
    c = certify(LightningAttention(d=1, t=2, a=1), [1, 2, 3, 4])
    assert cells(c._repr_html_())["value"] == [str(c.value)]
    R = PolynomialRing(QQ, "x,y,z,w")
    x, y, z, w = R.gens()
    H = hilbert_data([x * z - y**2, y * w - z**2, x * w - y * z], R)    # twisted cubic
    h = cells(H._repr_html_())
    assert h["degree"] == ["3"] and h["dimension"] == ["2"]
    assert "<" not in c._repr_html_().split("<caption>")[1].split("</caption>")[0]


def test_different_models_have_different_latex():
    from sage.all__sagemath_singular import latex
    base = dict(d=3, t=2, a=1, out=1)
    models = [LightningAttention(**base),
              LightningAttention(**base, weight_space="AV"),
              LightningAttention(**base, coordinate_scaling="scaled"),
              LightningAttention(**base, entries=[(1, 1)]),
              LightningAttention(**base, entries=[(1, 2)]),
              LightningAttention(**base, heads=2),
              LightningAttention(**base, causal=True),
              LightningAttention(d=3, t=2, a=1, out=3, residual=True)]
    assert len({repr(M) for M in models}) == len(models)      # different models
    texts = [str(latex(M)) for M in models]
    assert len(set(texts)) == len(texts), texts


# -- LaTeX and captions in a notebook

def test_coordinates_have_readable_latex_and_keep_their_names():
    M = LightningAttention(d=2, t=2, a=1)
    E, C = M.essential_ring(), M.coordinate_ring()
    y = E("Y11_x11x12x12")
    assert str(y) == "Y11_x11x12x12"
    assert str(latex(y)) == "{Y_{11}^{x_{11} x_{12} x_{12}}}"
    assert "mathit" not in str(latex(E.ideal([y ** 2 - E.gen(1) * E.gen(2)])))
    assert "mathit" not in str(latex(C.gens()))
    wide = LightningAttention(d=2, t=12, a=1, out=1, entries=[(1, 12)]).coordinate_ring()
    assert str(latex(wide.gen(0))) == "{Y_{1,12}^{x_{1,1} x_{1,1} x_{1,12}}}"


def test_implicitization_caption_is_short_with_details_in_the_table():
    from sage_attention.ideals.implicitization import implicitize
    M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
    R = implicitize(M, 2, seed=0, prove=False)
    html = R._repr_html_()
    caption = html.split("<caption>")[1].split("</caption>")[0]
    assert len(caption) < 200 and "(" not in caption.split(" over ")[1]
    assert "through degree 2" in caption and "not proved" in caption
    assert "<th>proof</th>" in html and "<th>linear relations</th>" in html


def test_not_proved_complete_says_what_is_proved_and_what_is_not():
    from sage_attention.ideals.implicitization import implicitize
    M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
    text = repr(implicitize(M, 2, seed=0, prove=False))
    assert "not proved complete: every minimal generator" not in text
    assert ("proved: the minimal generators through degree 2 (found and verified); "
            "not proved: that they generate the whole ideal") in text


def test_a_model_displays_as_its_map_and_the_neurovariety_as_the_closure_of_its_image():
    from sage_attention.variety.neurovariety import Neurovariety
    M = LightningAttention(d=3, t=2, a=2, out=1)
    model, variety = str(latex(M)), str(latex(Neurovariety(M)))
    assert model.startswith(r"\varphi") and "mathcal{V}" not in model
    assert variety == r"\overline{\mathrm{im}\," + model + "}"
