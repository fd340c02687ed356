"""Models with several heads, a causal mask or a residual stream have a dimension and fibers
but no coordinates: every computation on coordinates refuses them with a ValueError naming
the computation and what to use instead (never an AttributeError or IndexError from inside)."""
import pytest

from sage.all__sagemath_singular import QQ  # noqa: F401  (initializes Sage)
from sage_attention import LightningAttention, PolynomialNetwork
from sage_attention.ideals.elimination import eliminate
from sage_attention.ideals.implicitization import implicitize
from sage_attention.invariants import invariants
from sage_attention.variety.certificates import certify
from sage_attention.variety.membership import vanishes_on_model
from sage_attention.variety.neurovariety import Neurovariety
from sage_attention.variety.singular_points import singular_point

MODELS = {
    "heads": lambda: LightningAttention(d=2, t=2, a=1, heads=2),
    "causal": lambda: LightningAttention(d=2, t=2, a=1, causal=True),
    "residual": lambda: LightningAttention(d=2, t=2, a=1, out=2, residual=True),
}

CALLS = {
    "certify": lambda M: certify(M, [0] * 20),
    "Neurovariety.certify": lambda M: Neurovariety(M).certify([0] * 20),
    "contains": lambda M: Neurovariety(M).contains(1),
    "ambient": lambda M: Neurovariety(M).ambient(),
    "vanishes_on_model": lambda M: vanishes_on_model(M, 1),
    "singular_point": lambda M: singular_point(M, M.random_weights(seed=0)),
    "invariants": lambda M: invariants(M),
    "implicitize": lambda M: implicitize(M, 2),
    "eliminate": lambda M: eliminate(M),
}


@pytest.mark.parametrize("kind", sorted(MODELS))
@pytest.mark.parametrize("call", sorted(CALLS))
def test_coordinates_are_refused_on_extended_models(kind, call):
    M = MODELS[kind]()
    with pytest.raises(ValueError, match="needs a lightning model with coordinates") as info:
        CALLS[call](M)
    assert "dimension or fibers" in str(info.value)
    # what they do have still works, and agrees with the join bound / one head
    assert M.dimension(seed=0) <= M.ambient_dimension()


def test_neurovariety_points_a_dense_network_to_its_tools():
    from sage_attention.variety.neurovariety import Neurovariety
    with pytest.raises(TypeError, match="stack_vanishing_ideal"):
        Neurovariety(PolynomialNetwork([2, 1, 1], 3))
