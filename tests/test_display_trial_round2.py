"""A newcomer's trial, round 2: linear_output after a linear last layer, the expected dimension
of a network with a nonlinear last layer, and the notebook displays (LaTeX, HTML captions)."""
import random

import pytest
from sage.all__sagemath_singular import QQ, PolynomialRing, latex, matrix

from sage_attention import LightningAttention, Network, dense
from sage_attention.errors import SpecError


# -- 1. linear_output

def test_linear_output_false_after_a_linear_dense_last_layer_is_refused():
    with pytest.raises(SpecError, match="dense\\(out=1\\) is linear.*drop linear_output=False"):
        Network([dense(out=2, r=2), dense(out=1)], d=2, linear_output=False)
    # a nonlinear last layer is what the option is for
    Network([dense(out=2, r=2), dense(out=1, r=2)], d=2, linear_output=False)


def test_linear_output_false_after_a_linear_dense_last_layer_is_refused_in_a_spec():
    from sage_attention.dsl.parser import parse_spec
    text = ("model m { input = 2; layer dense(out = 2, activation = power(2))\n"
            "  layer dense(out = 1)\n  linear_output = false }\n")
    with pytest.raises(Exception, match="is linear: the option would change nothing"):
        parse_spec(text).validate()


def _independent_rank(widths, degrees, bias, seed=1):
    """The rank of the Jacobian of weights -> coefficients of the outputs, built here by hand:
    x -> rho_{r_L}(W_L ... rho_{r_1}(W_1 x + b_1) ... + b_L), at random rational weights."""
    nw = sum(widths[i + 1] * (widths[i] + (1 if bias else 0)) for i in range(len(widths) - 1))
    W = PolynomialRing(QQ, "w", nw)
    R = PolynomialRing(W, "x", widths[0])
    ws = iter(W.gens())
    h = list(R.gens())
    for i, r in enumerate(degrees):
        A = [[next(ws) for _ in range(widths[i])] for _ in range(widths[i + 1])]
        b = [next(ws) if bias else 0 for _ in range(widths[i + 1])]
        h = [(sum(a * v for a, v in zip(row, h)) + c) ** r for row, c in zip(A, b)]
    coeffs = [W(c) for f in h for c in f.coefficients()]
    rng = random.Random(seed)
    point = {w: QQ(rng.randint(-9, 9)) / rng.randint(1, 5) for w in W.gens()}
    J = matrix(QQ, [[c.derivative(w).subs(point) for w in W.gens()] for c in coeffs])
    return J.rank()


@pytest.mark.parametrize("widths, degrees, bias", [
    ((2, 3, 1), (2, 2), False),      # q^2 for a binary quadric q: dimension 3, not 5
    ((3, 4, 3), (2, 2), False),
    ((2, 2, 1), (2, 3), True),
    ((2, 2, 2, 1), (2, 2, 2), False),
])
def test_a_nonlinear_last_layer_expects_the_dimension_of_the_linear_one(widths, degrees, bias):
    layers = [dense(out=w, r=r, bias=bias) for w, r in zip(widths[1:], degrees)]
    M = Network(layers, d=widths[0], linear_output=False)
    rank = _independent_rank(widths, degrees, bias)
    D = M.dimension_report(seed=0)
    assert D.dimension == rank
    assert M.expected_dimension() == rank and D.agrees
    assert "DIFFERS" not in str(D) and "defect" not in str(D)
    assert "linear last layer" in M.expected_dimension_note()


def test_the_trial_example_has_dimension_3():
    M = Network([dense(out=3, r=2), dense(out=1, r=2)], d=2, linear_output=False)
    assert _independent_rank((2, 3, 1), (2, 2), False) == 3
    assert M.dimension(seed=0) == 3 and M.expected_dimension() == 3


# -- 2. notebook displays

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
