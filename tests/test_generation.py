"""
Tests of the generation report: the degree-by-degree linear-algebra
comparison against the independent Gröbner-basis comparison, and against
ideal membership computed by Singular.
"""
import pytest

from sage.all__sagemath_singular import QQ  # noqa: F401  (initializes Sage)
from sage_attention import LightningAttention
import sage_attention.variety.generation as gen


MODELS = [dict(d=2, t=2, a=1, entries=[(1, 1)]), dict(d=2, t=2, a=2, entries=[(1, 1)]),
          dict(d=2, t=1, a=1, out=2), dict(d=2, t=3, a=1, entries=[(1, 1)])]


@pytest.mark.parametrize("kw", MODELS)
def test_linear_algebra_agrees_with_groebner(kw, monkeypatch):
    M = LightningAttention(**kw)
    lin = gen.generation_report(M)
    monkeypatch.setattr(gen, "DENSE_LIMIT", 0)          # force the Gröbner comparison
    gb = gen.generation_report(M)
    assert lin.families_generate == gb.families_generate
    for a, b in zip(lin.rows, gb.rows):
        assert (a.family, a.generates, a.generators_by_degree) == (b.family, b.generates, b.generators_by_degree)
        # a family that generates misses nothing; one that does not misses something
        assert (a.missing == {}) == a.generates == (b.missing == {})


def test_generates_means_ideal_equality():
    # 'generates' must mean: the families' ideal (with the linear relations)
    # is the kernel of the parametrization, decided here by Singular
    M = LightningAttention(d=2, t=2, a=2, entries=[(1, 1)])
    report = gen.generation_report(M)
    from sage_attention.invariants import FAMILIES
    K = M.parametrization().kernel()
    C = M.coordinate_ring()
    for row in report.rows[:-1]:
        fam = FAMILIES[row.family](M)
        J = C.ideal(list(M.linear_relations()) + list(fam.polynomials()))
        assert row.generates == (J == K), row.family
