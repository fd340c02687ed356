"""vanishes_on_model, check_family and in_ideal against independent computations."""
import pytest

from sage.all__sagemath_singular import QQ

from sage_attention import LightningAttention
from sage_attention.invariants import low_rank_invariants, pencil_invariants
from sage_attention.variety.membership import vanishes_on_model, check_family, in_ideal


def test_vanishing_agrees_with_the_kernel_of_the_parametrization():
    # the kernel of the parametrization (elimination, independent of composition)
    M = LightningAttention(d=2, t=2, a=1, weight_space="QKV")
    E = M.essential_ring()
    I = M.essential_parametrization().kernel()
    fam = low_rank_invariants(M)
    to_e = M.to_essential()
    for f in fam.polynomials():
        assert vanishes_on_model(M, f)
        assert in_ideal(to_e(f), I)
    for g in [E.gen(0), E.gen(0) * E.gen(5) - E.gen(2) * E.gen(3), E.gen(1) ** 2]:
        assert vanishes_on_model(M, g) == in_ideal(g, I)


def test_refutation_without_proof_and_essential_ring():
    M = LightningAttention(d=3, t=2, a=2, weight_space="QKV")
    x = M.coordinate_ring().gen(3)
    assert not vanishes_on_model(M, x, proof=False)
    T = M.cross_tensor(1)
    assert vanishes_on_model(M, T[1, 1, 1] - T[1, 1, 1])


def test_check_family_reports_failures_with_labels():
    M = LightningAttention(d=3, t=2, a=2)
    M1 = LightningAttention(d=3, t=2, a=1)
    # the a = 1 minors do not vanish for a = 2: move them into M's ring by name
    C = M.coordinate_ring()
    polys = [C(str(f)) for f in low_rank_invariants(M1).polynomials()[:5]]
    R = check_family(M, polys)
    assert not R.all_vanish and len(R.failures) == 5
    assert R.to_dict()["size"] == 5
    assert check_family(M, pencil_invariants(M)).all_vanish
    with pytest.raises(ValueError, match="belongs to"):
        check_family(M, pencil_invariants(M1))


def test_contains_refuses_foreign_rings_and_converts_by_name():
    from sage.all__sagemath_singular import PolynomialRing
    from sage_attention.variety.neurovariety import Neurovariety
    M = LightningAttention(d=2, t=2, a=1)
    X = Neurovariety(M)
    C = M.coordinate_ring()
    phi = M.parametrization()
    lin = M.linear_relations()[0]
    assert phi(lin) == 0
    # the same polynomial by position in a ring with other names: it is not a
    # polynomial in the coordinates, so it is refused (it used to say True)
    Z = PolynomialRing(QQ, "z", C.ngens())
    zlin = Z(dict(lin.dict()))
    with pytest.raises(TypeError, match="z"):
        X.contains(zlin)
    # a ring with the coordinate names in reversed order: converted by name
    names = list(reversed(C.variable_names()))
    S = PolynomialRing(QQ, names)
    slin = S(str(lin))
    assert str(slin.parent().gens()[0]) == names[0]
    assert X.contains(slin) is True
    not_in = S(str(C.gen(0) * C.gen(1)))
    assert phi(C(str(not_in))) != 0
    assert X.contains(not_in) is False
    # numbers are constants: 0 lies in every ideal, 1 in none
    assert X.contains(0) is True and X.contains(QQ(0)) is True
    assert X.contains(1) is False and X.contains(QQ(3)) is False
    for bad in ("x", None, [1], object()):
        with pytest.raises(TypeError, match="coordinate ring"):
            X.contains(bad)
