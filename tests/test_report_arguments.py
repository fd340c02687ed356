"""The arguments of numerical_dimension are checked (none silently ignored), the reports show
no Python None, every dimension report has an HTML view, and a polynomial network has a LaTeX
formula."""
import warnings

import pytest

from sage.all__sagemath_singular import ZZ, latex
from sage_attention import (SoftmaxAttention, LightningAttention, Network, PolynomialNetwork,
                            attention, dense)
from sage_attention.models.softmax import numerical_dimension

from test_rich_display import cells      # the cells of an HTML table (and its tags balanced)

# SoftmaxAttention(d=3, t=2, a=1): P = 3 + 3 + 3 = 9 weights, d_l t = 2 outputs per input,
# so the first batch has ceil((9 + 1)/2) + 2 = 7 inputs; the dimension is 3 + 1*(6 - 1) = 8
M = SoftmaxAttention(d=3, t=2, a=1)


def test_max_inputs_bounds_the_inputs():
    assert numerical_dimension(M, seed=0).inputs == 14       # 7, doubled once (rank stable)
    R = numerical_dimension(M, seed=0, max_inputs=10)
    assert R.inputs == 10 and R.dimension == 8 and R.warning is None
    R = numerical_dimension(M, seed=0, max_inputs=ZZ(7))     # no room to confirm the rank
    assert R.inputs == 7 and "max_inputs (=7)" in R.warning


@pytest.mark.parametrize("value", [1, 6])
def test_max_inputs_below_the_first_batch_is_refused(value):
    with pytest.raises(ValueError, match=r"max_inputs \(=%d\) is smaller than the 7 random "
                                         r"inputs.*max_inputs=7 or more" % value):
        numerical_dimension(M, seed=0, max_inputs=value)


@pytest.mark.parametrize("value, error", [(0, ValueError), (-5, ValueError), (2.5, TypeError),
                                          ("9", TypeError), (True, TypeError)])
def test_max_inputs_must_be_a_positive_integer(value, error):
    with pytest.raises(error, match=r"max_inputs \(=.*\) must be a positive integer"):
        numerical_dimension(M, seed=0, max_inputs=value)


@pytest.mark.parametrize("value, error", [(0, ValueError), (-3, ValueError), ("3", TypeError),
                                          (2.5, TypeError), (True, TypeError)])
def test_ninputs_must_be_a_positive_integer(value, error):
    with pytest.raises(error, match=r"ninputs \(=.*\) must be a positive integer"):
        numerical_dimension(M, seed=0, ninputs=value)


def test_ninputs_accepts_integers_and_respects_max_inputs():
    assert numerical_dimension(M, seed=0, ninputs=ZZ(4)).inputs == 4
    assert numerical_dimension(M, seed=0, ninputs=3).inputs == 3
    with pytest.raises(ValueError, match=r"ninputs \(=10\) is larger than max_inputs \(=8\)"):
        numerical_dimension(M, seed=0, ninputs=10, max_inputs=8)
    assert numerical_dimension(M, seed=0, ninputs=8, max_inputs=8).inputs == 8


def test_the_model_methods_name_the_keywords_they_take():
    # dimension() / dimension_report() take seed, field, proof, force only: the options of
    # numerical_dimension are refused with the list of keywords, never ignored
    for kw in ("max_inputs", "ninputs", "normalizer"):
        with pytest.raises(TypeError, match=f"'{kw}'.*its keywords: seed, field, proof, force"):
            M.dimension(seed=0, **{kw: 3})


def test_zero_normalizer_is_refused_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")             # a numpy RuntimeWarning would fail here
        with pytest.raises(ValueError, match=r"normalizer \(=<lambda>\) returned values whose "
                                             r"column sums are zero"):
            numerical_dimension(M, seed=0, normalizer=lambda x: 0 * x)


def test_non_finite_normalizer_is_refused_without_warnings():
    import numpy as np
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"normalizer \(=<lambda>\) returned non-finite "
                                             r"values"):
            numerical_dimension(M, seed=0, normalizer=lambda x: np.log(x))


def test_no_none_in_the_report_of_a_network_without_formula():
    R = Network([attention(a=2, out=3), dense(out=4, r=2), dense(out=3)], d=3,
                t=2).dimension_report(seed=0)
    assert R.expected is None                  # no formula for attention followed by an MLP
    html, text = R._repr_html_(), repr(R)
    assert "None" not in html and "None" not in text
    c = cells(html)
    assert c["expected"] == [R.expected_note] and R.expected_note in text
    assert c["defect"] == ["none: no formula to compare with"]
    assert c["dimension"] == ["25"]


def test_reports_with_a_formula_keep_their_numbers():
    c = cells(LightningAttention(d=2, t=2, a=1).dimension_report(seed=0)._repr_html_())
    assert c["expected"] == ["4"] and c["defect"] == ["0"]


def test_softmax_report_has_an_html_table():
    R = M.dimension_report(seed=0)
    html = R._repr_html_()
    assert "None" not in html
    c = cells(html)
    assert c["dimension"] == [str(R.dimension)] == ["8"]
    assert c["expected"] == ["8"] and c["defect"] == ["0"]
    assert c["inputs"] == [str(R.inputs)]
    assert c["warning"] == ["none: the gap is clear"]


def test_softmax_report_with_a_user_normalizer_says_no_formula():
    import numpy as np
    h = numerical_dimension(M, seed=0, normalizer=np.cosh)._repr_html_()
    assert "None" not in h
    assert cells(h)["expected"] == ["no published formula for the normalizer cosh"]


def test_polynomial_network_latex_is_a_formula():
    text = str(latex(PolynomialNetwork([2, 3, 1], 2)))
    assert "texttt" not in text
    assert text == r"W_{2} \circ \rho_{2} \circ W_{1},\; \mathbf{d}=(2, 3, 1)"
    # different networks print differently
    others = [PolynomialNetwork([2, 4, 1], 2), PolynomialNetwork([2, 3, 1], 3),
              PolynomialNetwork([2, 3, 1], 2, bias=True),
              Network([attention(a=2, out=3), dense(out=4, r=2), dense(out=3)], d=3, t=2),
              Network([attention(a=1, out=3), dense(out=4, r=2), dense(out=3)], d=3, t=2)]
    texts = [text] + [str(latex(N)) for N in others]
    assert len(set(texts)) == len(texts), texts
    assert all("texttt" not in t for t in texts)
