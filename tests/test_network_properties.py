"""
Random small polynomial networks and transformer blocks, over random fields: every dimension the
package gives is a refusal with a reason, or equals an independent Jacobian rank.

The networks are drawn by hypothesis (derandomized, so a run is reproducible): shallow and
two-hidden-layer dense stacks of widths 1..3 and activation degrees 2..4, with or without biases,
and small transformer blocks (an attention layer with a residual stream, then a dense layer with a
residual stream), over QQ, GF(65537), GF(2^31 - 1) and the small primes 2, 3, 5, 7, 101, 32003 --
so activation degrees divisible by the characteristic are drawn too.

The independent computation is written here from the definition of the network: its outputs as
polynomials in the inputs, with the weights as values (plain Sage, no code of the package). The
dimension of the image of the weights is the generic rank of the Jacobian of the coefficient map
(the coefficients of the outputs as polynomials in the inputs). It is computed as the rank of the
directional derivatives at two random points, over QQ for QQ and over GF(p^k) with p^k >= 2^16 in
characteristic p (the rank at a point is at most the generic rank; at a random point of a field of
q elements it is smaller with probability at most deg/q by Schwartz-Zippel, so the larger of two
ranks is the generic rank except with probability below 2^-20 here). Where an exponent of the map
is divisible by p, the Jacobian rank certifies nothing (x^p is additive), so the package must
refuse, with a reason; it may also refuse a case it cannot certify, with a reason.
"""
import random

from hypothesis import HealthCheck, event, example, given, settings, strategies as st
from sage.all__sagemath_singular import GF, QQ, PolynomialRing, matrix

from sage_attention import Network, PolynomialNetwork, attention, dense
from sage_attention.misc.errors import SageAttentionError

PRIMES = [0, 65537, 2 ** 31 - 1, 2, 3, 5, 7, 101, 32003]

settings.register_profile("networks", derandomize=True, deadline=None, max_examples=30,
                          suppress_health_check=list(HealthCheck))


def field_of(p):
    return QQ if p == 0 else GF(p)


def _evaluation_field(p):
    """QQ, or GF(p^k) with p^k >= 2^16 (the random points of the independent rank)."""
    if p == 0:
        return QQ
    k = 1
    while p ** k < 2 ** 16:
        k += 1
    return GF(p ** k, "z") if k > 1 else GF(p)


def _outputs(layers, d, t, values, xs):
    """The outputs of the stack, from the definition: a list of polynomials in the inputs."""
    X = [[xs[k][n] for n in range(t)] for k in range(d)]
    it = iter(values)
    width = d
    for kind, out, a, r, bias, residual in layers:
        if kind == "dense":
            W = [[next(it) for _ in range(width)] for _ in range(out)]
            b = [next(it) for _ in range(out)] if bias else [0] * out
            Y = [[(sum(W[o][k] * X[k][n] for k in range(width)) + b[o]) ** r for n in range(t)]
                 for o in range(out)]
        else:
            Q = [[next(it) for _ in range(width)] for _ in range(a)]
            K = [[next(it) for _ in range(width)] for _ in range(a)]
            V = [[next(it) for _ in range(width)] for _ in range(out)]
            Y = [[0] * t for _ in range(out)]
            for j in range(t):
                for n in range(t):
                    kx = [sum(K[c][k] * X[k][n] for k in range(width)) for c in range(a)]
                    qx = [sum(Q[c][k] * X[k][j] for k in range(width)) for c in range(a)]
                    score = sum(u * v for u, v in zip(kx, qx))
                    for o in range(out):
                        Y[o][j] += score * sum(V[o][k] * X[k][n] for k in range(width))
        if residual:
            Y = [[Y[o][n] + X[o][n] for n in range(t)] for o in range(out)]
        X, width = Y, out
    return [X[o][n] for o in range(width) for n in range(t)]


def _nweights(layers, d):
    total, width = 0, d
    for kind, out, a, r, bias, residual in layers:
        total += out * width + (out if bias else 0) if kind == "dense" else 2 * a * width + out * width
        width = out
    return total


def independent_rank(layers, d, t, p, seed):
    """The generic rank of the Jacobian of the coefficient map, from the definition (two random points)."""
    F = _evaluation_field(p)
    rng = random.Random(seed)
    names = ["s"] + [f"x{k}_{n}" for k in range(d) for n in range(t)]
    R = PolynomialRing(F, names)
    s = R.gen(0)
    xs = [[R.gen(1 + k * t + n) for n in range(t)] for k in range(d)]
    n = _nweights(layers, d)

    def draw():
        if p == 0:
            return QQ(rng.randrange(-10 ** 6, 10 ** 6))
        return F.random_element() if F.order() != p else F(rng.randrange(p))

    best = 0
    for _ in range(2):
        w0 = [draw() for _ in range(n)]
        rows, monomials = [], {}
        for i in range(n):
            values = [R(v) for v in w0]
            values[i] += s
            row = {}
            for e, f in enumerate(_outputs(layers, d, t, values, xs)):
                for mono, c in f.coefficient({s: 1}).dict().items():
                    row[monomials.setdefault((e, tuple(mono)), len(monomials))] = c
            rows.append(row)
        M = matrix(F, len(rows), max(1, len(monomials)),
                   {(i, j): c for i, row in enumerate(rows) for j, c in row.items()})
        best = max(best, M.rank())
    return best


@st.composite
def networks(draw):
    """A small network: ``(layers, d, t)``, each layer ``(kind, out, a, r, bias, residual)``."""
    if draw(st.booleans()):
        d = draw(st.integers(1, 3))
        hidden = draw(st.lists(st.integers(1, 3), min_size=1, max_size=2))
        bias = draw(st.booleans())
        degrees = [draw(st.integers(2, 4)) for _ in hidden]
        if len(hidden) == 2:
            degrees = [min(r, 3) for r in degrees]
        out = draw(st.integers(1, 2))
        layers = [("dense", h, None, r, bias, False) for h, r in zip(hidden, degrees)]
        layers.append(("dense", out, None, 1, bias, False))
        return layers, d, 1
    d = draw(st.integers(1, 2))
    a = draw(st.integers(1, 2))
    r = draw(st.integers(2, 3))
    return [("attention", d, a, None, False, True), ("dense", d, None, r, False, True)], d, 2


def package_model(layers, d, t, p):
    F = field_of(p)
    if layers[0][0] == "dense":
        widths = [d] + [layer[1] for layer in layers]
        degrees = [layer[3] for layer in layers[:-1]]
        return PolynomialNetwork(widths, degrees, bias=layers[0][4], base_ring=F)
    (_, out, a, _, _, _), (_, out2, _, r, _, _) = layers
    return Network([attention(a=a, out=out, residual=True), dense(out=out2, r=r, residual=True)],
                   d=d, t=t, linear_output=False, base_ring=F)


def frobenius(layers, p):
    """Whether an exponent of the map is divisible by p."""
    return p > 0 and any(layer[0] == "dense" and layer[3] > 1 and layer[3] % p == 0 for layer in layers)


@settings(settings.get_profile("networks"))
@given(networks(), st.sampled_from(PRIMES), st.integers(0, 2 ** 16))
# activation degrees divisible by the characteristic (x^p is additive: its Jacobian vanishes)
@example(([("dense", 2, None, 2, False, False), ("dense", 1, None, 1, False, False)], 2, 1), 2, 0)
@example(([("dense", 2, None, 3, True, False), ("dense", 2, None, 2, True, False),
           ("dense", 1, None, 1, True, False)], 2, 1), 3, 1)
@example(([("attention", 2, 1, None, False, True), ("dense", 2, None, 2, False, True)], 2, 2), 2, 0)
# a small prime that divides no exponent
@example(([("dense", 3, None, 2, False, False), ("dense", 1, None, 1, False, False)], 2, 1), 101, 0)
def test_dimension_is_refused_or_the_independent_rank(network, p, seed):
    layers, d, t = network
    M = package_model(layers, d, t, p)
    try:
        dim = M.dimension(seed=seed)
    except (SageAttentionError, ValueError) as e:
        # a refusal names its reason (a field the map is not defined or not certified over is a
        # ValueError, as in Sage)
        event(f"refused over GF({p})" if p else "refused over QQ")
        assert len(str(e)) > 30, str(e)
        if frobenius(layers, p):
            assert "Frobenius" in str(e) or f"{p}" in str(e), str(e)
        return
    assert not frobenius(layers, p), \
        f"the Jacobian rank certifies nothing where p = {p} divides an exponent, yet dimension {dim}"
    event("checked over " + ("QQ" if p == 0 else "a small prime field" if p < 2 ** 16 else "a large prime field"))
    assert dim == independent_rank(layers, d, t, p, seed), (layers, d, t, p)


def independent_ideal(layers, d, coordinates, S):
    """The vanishing ideal in the ring ``S`` of the coordinates, by eliminating the weights from the
    graph ideal (Singular), with the network written from its definition."""
    n = _nweights(layers, d)
    F = S.base_ring()
    Rw = PolynomialRing(F, [f"w{i}" for i in range(n)])
    Rx = PolynomialRing(Rw, [f"x{k}" for k in range(d)])
    outputs = _outputs(layers, d, 1, list(Rw.gens()), [[xk] for xk in Rx.gens()])
    T = PolynomialRing(F, list(Rw.variable_names()) + list(S.variable_names()), order="degrevlex")
    w, c = T.gens()[:n], T.gens()[n:]
    relations = [ci - Rx(outputs[row - 1]).monomial_coefficient(Rx.monomial(*e))(*w)
                 for ci, (row, token, e) in zip(c, coordinates)]
    J = T.ideal(relations).elimination_ideal(list(w))
    return S.ideal([S(g) for g in J.gens()])


@st.composite
def tiny_networks(draw):
    """A tiny homogeneous network ``[2, h, 1]`` or ``[2, h, 2]`` (at most 6 weights)."""
    h = draw(st.integers(1, 2))
    out = draw(st.integers(1, 2)) if h == 1 else 1
    r = draw(st.integers(2, 3))
    return [("dense", h, None, r, False, False), ("dense", out, None, 1, False, False)], 2


@settings(settings.get_profile("networks"), max_examples=12)
@given(tiny_networks(), st.sampled_from([0, 65537, 32003, 101, 7, 5, 3, 2]))
def test_vanishing_ideal_is_refused_or_the_independent_elimination(network, p):
    from sage_attention.ideals.stack_elimination import stack_vanishing_ideal
    layers, d = network
    M = package_model(layers, d, 1, p)
    try:
        I = stack_vanishing_ideal(M)
    except (SageAttentionError, ValueError) as e:
        event("refused")
        assert len(str(e)) > 30, str(e)
        return
    event("checked")
    J = independent_ideal(layers, d, M.coordinate_description(), I.ring())
    assert I == J, (layers, p, I.gens(), J.gens())


@settings(settings.get_profile("networks"), max_examples=10)
@given(tiny_networks(), st.sampled_from([0, 65537, 32003, 101, 7, 3, 2]))
def test_interpolated_ideal_is_refused_or_the_independent_elimination(network, p):
    # the interpolation engine (what `vanishing_ideal` runs on a homogeneous network): what it
    # proves complete is the eliminated ideal; through its degree it agrees with it
    from sage_attention.ideals.implicitization import implicitize
    layers, d = network
    M = package_model(layers, d, 1, p)
    try:
        report = implicitize(M, 3, seed=1)
    except (SageAttentionError, ValueError) as e:
        event(f"refused over GF({p})" if p else "refused over QQ")
        assert len(str(e)) > 30, str(e)
        if frobenius(layers, p):
            assert "Frobenius" in str(e) or f"{p}" in str(e), str(e)
        return
    event("checked over " + ("QQ" if p == 0 else f"GF({p})"))
    I = report.ideal
    J = independent_ideal(layers, d, M.coordinate_description(), I.ring())
    assert all(g in J for g in I.gens()), (layers, p)
    k = report.complete_through_degree
    assert all(g in I for g in J.gens() if g.degree() <= k), (layers, p, k)
    if report.proved_complete:
        assert I == J, (layers, p)
