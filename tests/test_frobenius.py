"""
Activation degrees divisible by the characteristic: x^(p m) = (x^m)^p is a Frobenius power over GF(p),
its derivative vanishes, and a Jacobian rank says nothing about the dimension. The package refuses
it (it reported dimension 0 "with failure probability 0" for dense(out=1, r=65537) over GF(65537))
and names the reduced network, whose dimension is the same (models.jacobian.frobenius_reduced_layers).

The independent check: the coefficient map of the network is expanded in Sage and the dimension of
its image over the algebraic closure computed from it directly (the Jacobian rank of the expanded
map of the reduced network, and the image of the Frobenius network read off its coefficients).
"""
import pytest

import sage.all__sagemath_singular  # noqa: F401  (initializes Sage)
from sage.all__sagemath_singular import GF, QQ, PolynomialRing, matrix

from sage_attention import Network, PolynomialNetwork, dense

P = 65537


def expanded_rank(widths, r, field, seed=1):
    """The Jacobian rank of the expanded coefficient map of a shallow network, at a random point."""
    import random
    d, h = widths[0], widths[1]
    W = PolynomialRing(field, [f"w{i}_{j}" for i in range(h) for j in range(d)] + [f"v{i}" for i in range(h)])
    T = PolynomialRing(W, [f"x{j}" for j in range(d)])
    w, v, x = W.gens()[:h * d], W.gens()[h * d:], T.gens()
    f = sum(v[i] * sum(w[i * d + j] * x[j] for j in range(d)) ** r for i in range(h))
    J = matrix([[c.derivative(u) for u in W.gens()] for c in f.coefficients()])
    rng = random.Random(seed)
    point = [field(rng.randrange(1, 10 ** 6)) for _ in W.gens()]
    return matrix(field, [[e(point) for e in row] for row in J.rows()]).rank()


def test_one_frobenius_layer_is_refused_with_the_reduced_network():
    M = Network([dense(out=1, r=P)], d=2, linear_output=False, base_ring=GF(P))
    with pytest.raises(ValueError, match="Frobenius") as e:
        M.dimension(seed=0)
    assert "Network([dense(out=1)], d=2, base_ring=GF(65537)).dimension()" in str(e.value)
    # (w.x)^p = w1^p x1^p + w2^p x2^p: every pair of coefficients is reached, dimension 2
    assert Network([dense(out=1)], d=2, base_ring=GF(P)).dimension(seed=0) == 2


def test_the_reduced_network_has_the_dimension_of_the_frobenius_network():
    # PolynomialNetwork([2, 2, 1], 2p) over GF(p): its coefficients live at exponents divisible by p and
    # are those of PolynomialNetwork([2, 2, 1], 2) with coefficients raised to the p-th power
    M = PolynomialNetwork([2, 2, 1], 2 * P, base_ring=GF(P))
    with pytest.raises(ValueError, match=r"dense\(out=2, r=2\), dense\(out=1\)"):
        M.dimension(seed=0)
    reduced = Network([dense(out=2, r=2), dense(out=1)], d=2, base_ring=GF(P)).dimension(seed=0)
    assert reduced == expanded_rank([2, 2, 1], 2, GF(P)) == 3


def test_fibers_and_field_choice_are_refused_too():
    M = PolynomialNetwork([2, 2, 1], P, base_ring=GF(P))
    with pytest.raises(ValueError, match="Frobenius"):
        M.fibers(seed=0)
    Q = PolynomialNetwork([2, 2, 1], P)
    with pytest.raises(ValueError, match="pass field=QQ"):
        Q.dimension(seed=0, field=GF(P))
    # over QQ with the default prime, the rank is computed: 6 weights - 2 rescalings
    assert Q.dimension(seed=0) == 4


def test_a_residual_frobenius_layer_has_no_reduction():
    M = Network([dense(out=2, r=P, residual=True), dense(out=1)], d=2, base_ring=GF(P))
    with pytest.raises(ValueError, match="no reduction"):
        M.dimension(seed=0)


def test_characteristic_not_dividing_the_degree_is_computed():
    # r = p + 1 is no Frobenius power: the rank is that of the expanded map
    M = PolynomialNetwork([2, 1, 1], 3, base_ring=GF(P))
    assert M.dimension(seed=0) == expanded_rank([2, 1, 1], 3, GF(P))


def test_check_refuses_what_run_refuses_and_its_fix_is_accepted(tmp_path, capsys):
    import re
    from sage_attention.app import cli
    spec = ("model f {\n  field = GF(65537); input = 2\n  layer dense(out = 2, activation = power(131074))\n"
            "  layer dense(out = 1)\n}\ncompute f { dimension seed = 0 }\n")
    f = tmp_path / "f.att"
    f.write_text(spec)
    assert cli.main(["check", str(f)]) == 2
    err = capsys.readouterr().err
    assert "Frobenius" in err
    (fix,) = re.findall(r"fix: write `(activation = power\(\d+\))` in layer 1", err)
    f.write_text(spec.replace("activation = power(131074)", fix))
    assert cli.main(["check", str(f)]) == 0
    assert cli.main(["run", "--json", str(f)]) == 0
    out = capsys.readouterr().out
    assert '"dimension": 3' in out          # binary quadrics of rank <= 2: every one (expanded_rank)
    assert expanded_rank([2, 2, 1], 2, GF(P)) == 3
