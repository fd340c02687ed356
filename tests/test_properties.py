"""Property test: random small architectures over random base fields.

Every generator returned vanishes on the parametrization at random points
(evaluated here, independently of the engine), no dimension exceeds the
parameter count or the ambient dimension, and an export reads back equal.
"""
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sage.all__sagemath_singular import GF, QQ

from sage_attention import LightningAttention
from sage_attention.variety.export import from_json, to_json

FIELDS = [QQ, GF(65537), GF(1000003), GF(2), GF(3), GF(7), GF(4, "a"), GF(2 ** 31 + 11)]
MODELS = [dict(d=2, t=1, a=1, out=1), dict(d=2, t=2, a=1, out=1, entries=[(1, 1)]),
          dict(d=1, t=2, a=1, out=1), dict(d=2, t=1, a=1, out=2)]


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(FIELDS), st.sampled_from(MODELS), st.integers(0, 2 ** 32))
def test_random_small_models_over_random_fields(F, kw, seed):
    from sage_attention.ideals.elimination import eliminate
    from sage_attention.ideals.implicitization import implicitize
    M = LightningAttention(base_ring=F, **kw)
    C = M.coordinate_ring()
    ideals = []
    try:
        ideals.append(eliminate(M).ideal)
    except ValueError as exc:                  # refused by the field rules, with a reason
        assert "GF(" in str(exc)
    try:
        ideals.append(implicitize(M, 2, seed=seed % 1000, prove=False).ideal)
    except ValueError as exc:
        assert "GF(" in str(exc)
    phi = M.parametrization()
    W = phi.codomain()
    K = W.base_ring()
    for I in ideals:
        for _ in range(3):
            w = [K.random_element() for _ in range(W.ngens())]
            point = [f(*w) for f in phi.im_gens()]
            assert all(g(*point) == 0 for g in I.gens())
        S, gens, _ = from_json(to_json(I))
        assert S.base_ring() is F and S.ideal(gens) == S.ideal([S(str(g)) for g in I.gens()])
    try:
        n = M.dimension(seed=seed)
    except ValueError as exc:
        assert "GF(" in str(exc)
    else:
        assert n <= min(M.nparameters(), C.ngens())
