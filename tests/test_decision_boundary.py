"""
Decision boundaries of polynomial networks (sage_attention.ideals.metric.boundary), checked against
the worked examples of arXiv 2602.06105's public code and the generic-hypersurface formula.
"""
import pytest

from sage.all__sagemath_singular import QQ, matrix

from sage_attention import PolynomialNetwork
from sage_attention.ideals.metric.boundary import boundary_ed_degree, decision_boundary

W1 = matrix(QQ, [[1, 2], [3, 1]])
W2 = matrix(QQ, [[2, 1], [1, 2]])


def weights(b1, b2):
    return [(W1, matrix(QQ, 2, 1, b1)), (W2, matrix(QQ, 2, 1, b2))]


def test_worked_example_a_smooth_conic():
    # arXiv 2602.06105, code src/ed/ed-degree.m2, first example: "ED discriminant is a curve": 4
    M = PolynomialNetwork([2, 2, 2], 2, bias=True)
    f = decision_boundary(M, weights([0, 1], [2, 1]))
    x0, x1 = f.parent().gens()
    z1, z2 = x0 + 2 * x1, 3 * x0 + x1 + 1        # by hand: f1 - f2 = z1^2 - z2^2 + (2 - 1)
    assert f == (2 * z1 ** 2 + z2 ** 2 + 2) - (z1 ** 2 + 2 * z2 ** 2 + 1)
    assert boundary_ed_degree(M, weights([0, 1], [2, 1]), seed=0).degree == 4


def test_worked_example_where_the_degree_drops():
    # second example, "single point on the ED discriminant": two lines, ED degree 2
    M = PolynomialNetwork([2, 2, 2], 2, bias=True)
    f = decision_boundary(M, weights([1, 2], [1, 1]))
    assert len(f.factor()) == 2
    E = boundary_ed_degree(M, weights([1, 2], [1, 1]), seed=0)
    assert E.degree == 2 and E.is_certified()


@pytest.mark.parametrize("widths,D,expected", [([2, 2, 1], 2, 4), ([3, 3, 1], 2, 6), ([2, 2, 1], 3, 9),
                                               ([2, 3, 1], 4, 16)])
def test_random_weights_give_a_generic_hypersurface(widths, D, expected):
    # D * sum_{i<n} (D-1)^i for n = widths[0] inputs
    n = widths[0]
    assert expected == D * sum((D - 1) ** i for i in range(n))
    M = PolynomialNetwork(widths, D, bias=True)
    assert boundary_ed_degree(M, threshold=1, seed=3).degree == expected


def test_two_outputs_and_a_threshold_are_exclusive_choices():
    M = PolynomialNetwork([2, 2, 1], 2, bias=True)
    with pytest.raises(ValueError, match="must be entries"):
        decision_boundary(M, outputs=[(0, 0), (1, 0)], seed=1)
    M2 = PolynomialNetwork([2, 2, 2], 2, bias=True)
    f = decision_boundary(M2, seed=1)
    g = decision_boundary(M2, seed=1, outputs=[(1, 0), (0, 0)])
    assert f == -g


def test_without_biases_the_boundary_is_a_cone():
    # homogeneous network: f1 - f2 is a form; the affine ED degree of a cone over a generic binary quadric
    # (two lines through 0) is 2 = 1 + 1
    M = PolynomialNetwork([2, 2, 2], 2)
    assert boundary_ed_degree(M, seed=4).degree == 2
