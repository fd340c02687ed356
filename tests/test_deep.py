"""Deep lightning networks: exact dimensions against [HMK2024] / doc/mathematics.rst, §5."""
import pytest

from sage.all__sagemath_singular import QQ, GF, matrix
from sage_attention import LightningAttention
from sage_attention.models.softmax import numerical_dimension

# (widths, ranks, dimension): the values from doc/mathematics.rst, §5 and [HMK2024]
ISSUE_VALUES = [
    ((3, 3, 3), (2, 2), 23),
    ((3, 4, 5), (2, 3), 30),
    ((3, 3, 3, 3), (2, 2, 2), 30),
    ((3, 3, 3), (1, 2), 18),       # rank-one first layer: 18, not the formula's 20
    ((3, 2, 3), (1, 1), 14),       # bottleneck
]


def hmk_deep(widths, ranks):
    """sum r_i (2 d_0 - r_i) + d_0 d_l - l, computed here from the paper."""
    d0, l = widths[0], len(ranks)
    rs = [min(a, d0) for a in ranks]
    return sum(r * (2 * d0 - r) for r in rs) + d0 * widths[-1] - l


@pytest.mark.parametrize("widths, ranks, dim", ISSUE_VALUES)
def test_issue_values(widths, ranks, dim):
    M = LightningAttention(widths=widths, ranks=ranks, t=3)
    for seed in (0, 1):
        D = M.dimension_report(seed=seed)
        assert D.dimension == dim
        assert D.fiber_dimension == D.parameter_dimension - dim


def test_formula_and_corrections():
    assert hmk_deep((3, 3, 3), (2, 2)) == 23
    assert hmk_deep((3, 3, 3), (1, 2)) == 20          # the uncorrected formula is wrong here
    assert LightningAttention(widths=[3, 3, 3], ranks=[1, 2], t=3).expected_dimension() is None
    assert LightningAttention(widths=[3, 2, 3], ranks=[1, 1], t=3).expected_dimension() is None


@pytest.mark.parametrize("widths, ranks", [((3, 3, 3), (2, 2)), ((2, 3, 4), (2, 2)),
                                           ((3, 3, 3, 3), (2, 2, 2)), ((4, 4, 2), (2, 3))])
def test_formula_where_it_applies(widths, ranks):
    M = LightningAttention(widths=widths, ranks=ranks, t=3)
    D = M.dimension_report(seed=3)
    assert D.expected == hmk_deep(widths, ranks)
    assert D.dimension == D.expected


@pytest.mark.parametrize("widths, ranks", [((3, 3, 3), (2, 2)), ((3, 3, 3, 3), (2, 2, 2)),
                                           ((2, 2, 2), (2, 2))])
def test_fiber_is_symmetry_group(widths, ranks):
    # equal widths, a_i <= d: GL_{a_i} per layer, GL_{d_i} per hidden width, K^* per layer
    M = LightningAttention(widths=widths, ranks=ranks, t=3)
    group = sum(a * a for a in ranks) + sum(h * h for h in widths[1:-1]) + len(ranks)
    F = M.fibers(seed=0)
    assert F.symmetry_dimension == group
    assert F.fiber_dimension == group
    assert F.identifiable_up_to_symmetry


def test_wide_hidden_layer_fiber():
    # widths (3, 4, 5): the hidden token matrix lies in the 3-dimensional image of V_1, so
    # layer 2's weights on a complement (2 a_2 + d_2 = 11 numbers) are unseen, minus the
    # d_1 = 4 elements of GL_4 fixing that image pointwise: fiber = group + 11 - 4
    M = LightningAttention(widths=[3, 4, 5], ranks=[2, 3], t=3)
    F = M.fibers(seed=0)
    group = 2 * 2 + 3 * 3 + 4 * 4 + 2
    assert F.symmetry_dimension == group
    assert F.fiber_dimension == group + (2 * 3 + 5) * 1 - 4 * 1
    assert not F.identifiable_up_to_symmetry


def test_prime_field_and_rationals_agree():
    M = LightningAttention(widths=[2, 2, 2], ranks=[1, 2], t=2)
    assert M.dimension(seed=1, field=QQ) == M.dimension(seed=1)


def test_float_forward_mode_agrees_with_exact():
    # an independent code path: float64 forward mode of sage_attention.models.softmax
    for widths, ranks, dim in ISSUE_VALUES[:2] + ISSUE_VALUES[3:]:
        M = LightningAttention(widths=widths, ranks=ranks, t=3)
        assert numerical_dimension(M, seed=0).dimension == dim


def test_too_few_inputs_undercount():
    # one input gives d_l * t = 9 rows: fewer than the dimension 23
    M = LightningAttention(widths=[3, 3, 3], ranks=[2, 2], t=3)
    R = numerical_dimension(M, seed=0, ninputs=1)
    assert R.dimension <= 9 < 23
    assert M.dimension_report(seed=0).inputs >= 3


def test_deep_networks_have_symmetries_and_the_right_ideal():
    # coordinates with equal images (a deep network keeps its linear
    # relations) used to crash the symmetry search: tuple.index(x)
    from sage_attention.ideals.implicitization import implicitize
    from sage_attention.ideals.engine.symmetry import coordinate_symmetries
    from sage_attention.ideals.engine.grading import multigrading
    from sage_attention.variety.neurovariety import Neurovariety
    from sage_attention.variety.generation import generation_report
    M = LightningAttention(widths=[1, 1, 2], ranks=[1, 1], t=2, entries=[(1, 1), (2, 1)])
    K = M.parametrization().kernel()            # Singular elimination, independent
    S = coordinate_symmetries(M, grading=multigrading(M.essential_parametrization()))
    assert S.order() == 2
    E = M.essential_ring()
    phi = M.essential_parametrization()
    for g in S.generators:
        assert sorted(g) == list(range(E.ngens()))
        sub = E.hom([E.gen(g[i]) for i in range(E.ngens())])
        assert all(phi(sub(f)) == 0 for f in K.gens())
    R = implicitize(M, 3, seed=0)
    assert R.ideal == K and R.symmetry.order() == 2
    X = Neurovariety(M)
    assert X.vanishing_ideal(algorithm="interpolation", degree=3) == K
    assert X.degree() == 1                      # a linear space
    G = generation_report(M, algorithm="interpolation", degree=3)
    assert G.generators_by_degree == {1: 8}
    # a bigger deep model: the whole output, symmetric in the two rows
    M2 = LightningAttention(widths=[1, 2, 2], ranks=[1, 1], t=2)
    assert implicitize(M2, 2, seed=0).ideal == M2.parametrization().kernel()


@pytest.mark.parametrize("widths,ranks,t", [
    ((2, 2, 1), (1, 1), 2), ((2, 2, 2), (1, 1), 2), ((1, 1, 1), (1, 1), 2), ((2, 3, 2), (1, 2), 2),
    ((2, 2, 1), (1, 1), 1),
])
def test_deep_coordinate_count_of_check_is_the_support_of_the_expanded_output(widths, ranks, t):
    # `sage-attention check` counts a deep network's coordinates without Sage (the parity of the
    # tokens, sizes.token_parity_monomials): an upper bound, equal here to the support that run
    # finds by expanding the output (so check and run estimate the same interpolation table)
    from sage_attention.catalog.costs import estimate_size
    M = LightningAttention(widths=list(widths), ranks=list(ranks), t=t)
    e = estimate_size(widths, ranks, t)
    assert e.coordinates == M.ncoordinates() == len(M.essential_coordinates()) == e.essential_coordinates
