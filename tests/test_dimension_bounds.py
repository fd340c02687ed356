"""Every dimension report stays within its ambient dimension; summed heads of a slice keep
the slice; the rank stops at the span; the Jacobian guard refuses what forward mode cannot
hold, in ``check`` exactly as in ``run``."""
import pytest

from sage.all__sagemath_singular import GF, matrix
from sage_attention import LightningAttention
from sage_attention.misc.errors import ComputationTooLarge
from sage_attention.models.reports import DimensionReport
from sage_attention.variety.joins import SummedHeads, summed_images

P = 67108859


def symbolic_join_rank(model, heads, seed=3):
    """The rank of the Jacobian of the expanded summed-heads polynomials at a random point
    (independent of forward mode): the dimension of the join."""
    F = GF(P)
    images = summed_images(model, heads)
    R = images[0].parent().change_ring(F)
    images = [R(f) for f in images]
    import random
    rng = random.Random(seed)
    point = [F(rng.randrange(P)) for _ in R.gens()]
    J = matrix(F, [[F(f.derivative(x)(*point)) for x in R.gens()] for f in images])
    return J.rank()


MODELS = [
    lambda: LightningAttention(d=2, t=2, a=1),
    lambda: LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)]),
    lambda: LightningAttention(d=2, t=1, a=1, out=2),
    lambda: LightningAttention(d=2, t=2, a=1, weight_space="AV"),
    lambda: LightningAttention(widths=[2, 2, 1], ranks=[1, 1], t=2),
    lambda: LightningAttention(d=2, t=2, a=1, heads=4),
    lambda: LightningAttention(d=2, t=2, a=1, heads=5, causal=True),
    lambda: LightningAttention(d=2, t=2, a=1, out=2, heads=3, residual=True),
    lambda: SummedHeads(LightningAttention(d=2, t=2, a=1, out=2, entries=[(1, 1)]), 2),
    lambda: SummedHeads(LightningAttention(d=3, t=2, a=1, entries=[(1, 1)]), 2),
    lambda: SummedHeads(LightningAttention(d=2, t=2, a=1, entries=[(1, 1)]), 3),
]


@pytest.mark.parametrize("build", MODELS)
def test_no_dimension_exceeds_its_ambient_dimension(build):
    M = build()
    R = M.dimension_report(seed=0)
    one = M.model if isinstance(M, SummedHeads) else M
    span = len(one.essential_coordinates()) if hasattr(one, "essential_coordinates") else \
        len(LightningAttention(d=one.d, t=one.tokens, a=one.ranks[0], out=one.out)
            .essential_coordinates())
    assert R.ambient_dimension is not None
    assert R.dimension <= span
    assert R.is_well_defined()


def test_summed_heads_of_a_slice_keep_the_slice():
    # used to report 12: the rank of two heads of the whole layer (out = 2)
    M = LightningAttention(d=2, t=2, a=1, out=2, entries=[(1, 1)])
    J = SummedHeads(M, 2)
    assert len(M.essential_coordinates()) == 6
    assert J.dimension(seed=0) == symbolic_join_rank(M, 2) == 6
    M = LightningAttention(d=3, t=2, a=1, entries=[(1, 1)])
    assert SummedHeads(M, 2).dimension(seed=1) == symbolic_join_rank(M, 2)


def test_a_report_above_its_ambient_dimension_is_refused():
    with pytest.raises(ValueError, match="above its ambient dimension 6"):
        DimensionReport("m", 12, None, "", 24, 24, 12, 0.0, 0, "QQ", 10, "rank",
                        ambient_dimension=6)


def test_the_rank_stops_at_the_span():
    # 50 heads used to take one random input per two weights (301 inputs, 4 s);
    # the span of 6 dimensions is reached after 4
    R = LightningAttention(d=2, t=2, a=1, heads=50).dimension_report(seed=0)
    assert R.dimension == 6 == R.ambient_dimension
    assert R.inputs <= 8


def test_a_wide_layer_is_refused_not_a_memory_error():
    M = LightningAttention(d=1000, t=2, a=1, out=1)
    with pytest.raises(ComputationTooLarge, match="force=True") as info:
        M.dimension(seed=0)
    assert "field entries" in str(info.value) and "limit" in str(info.value)


def test_check_evaluates_the_jacobian_guard_as_run_does():
    from sage_attention.dsl.parser import parse_spec
    from sage_attention.dsl.validation import validate
    # 1000 tokens: run refused (115 million entries, the tangents); check said ok
    text = ("model m { input = 30; tokens = 1000; layer attention(rank = 1, out = 30) }\n"
            "compute m { dimension }\n")
    with pytest.raises(ComputationTooLarge, match="pass --force") as info:
        validate(parse_spec(text))
    M = LightningAttention(d=30, t=1000, a=1, out=30)
    with pytest.raises(ComputationTooLarge) as run_info:
        M.dimension(seed=0)
    number = lambda e: str(e.value).split("holds about ")[1].split()[0]
    assert number(info) == number(run_info)
