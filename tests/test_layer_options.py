"""Options of the layers of a model: per-layer masks and residuals, and ``linear_output``.

- A model whose attention layers differ in ``mask`` (or ``residual``) is a stack
  of layers, each with its own (``Network([attention(...), ...])``): the spec
  builds it, as it does when a dense layer sits between them, instead of
  refusing it. The stack's output is compared with a separate expansion by
  hand (the mask `U_{nj} = 1` for `n <= j` applied entrywise to
  `X^T K^T Q X`, doc/multihead.rst).
- ``linear_output = false`` only concerns a nonlinear dense last layer: after an
  attention layer or a linear dense layer it would change nothing, and is refused in a spec
  (at its line) and in Python. With a nonlinear last layer, the expected dimension is that
  of the linear one, checked against the rank of a Jacobian built here by hand.
"""
import random

import pytest

from sage.all__sagemath_singular import QQ, PolynomialRing, matrix

from sage_attention import Network, attention, dense
from sage_attention.app import cli
from sage_attention.dsl import parse_spec
from sage_attention.misc.errors import SpecError
from sage_attention.models.stack_coordinates import coordinate_description

MIXED = ("model m { input = 2; tokens = 3\n"
         "  layer attention(rank = 1, out = 2, mask = causal)\n"
         "  layer attention(rank = 1, out = 1) }\n")


# ------------------------------------------------------------------ masks per layer

def _by_hand(d, t, layers, weights):
    """The output of attention layers ``(a, out, causal, residual)``, summed entry by entry."""
    R = PolynomialRing(weights[0].parent(), d * t,
                       [f"x{k}_{j}" for k in range(1, d + 1) for j in range(1, t + 1)])
    X = [[R.gen(k * t + j) for j in range(t)] for k in range(d)]
    it = iter(weights)
    din = d
    for a, out, causal, residual in layers:
        Q = [[next(it) for _ in range(din)] for _ in range(a)]
        K = [[next(it) for _ in range(din)] for _ in range(a)]
        V = [[next(it) for _ in range(din)] for _ in range(out)]
        S = [[sum(X[p][n] * K[k][p] * Q[k][q] * X[q][j]
                  for k in range(a) for p in range(din) for q in range(din))
              for j in range(t)] for n in range(t)]
        # output token j sees the tokens n <= j under a causal mask
        X = [[(X[o][j] if residual else 0)
              + sum(V[o][c] * X[c][n] * S[n][j] for c in range(din) for n in range(t)
                    if not causal or n <= j)
              for j in range(t)] for o in range(out)]
        din = out
    return X


@pytest.mark.parametrize("d, t, layers", [
    (1, 3, [(1, 1, True, False), (1, 1, False, False)]),
    (1, 3, [(1, 1, False, False), (1, 1, True, False)]),
    (2, 2, [(1, 2, True, False), (1, 1, False, False)]),
    (1, 3, [(1, 1, True, True), (1, 1, False, False)]),
])
def test_the_stack_applies_each_layers_own_mask(d, t, layers):
    M = Network([attention(a, out, 1, causal, res) for a, out, causal, res in layers], d=d, t=t)
    phi = M.parametrization()
    W = phi.codomain()
    Y = _by_hand(d, t, layers, list(W.gens()))
    coefficients = {(o + 1, j + 1, tuple(e)): c for o in range(len(Y)) for j in range(t)
                    for e, c in Y[o][j].dict().items()}
    described = coordinate_description(M)
    assert set(coefficients) <= set(described)
    assert [W(coefficients.get(k, 0)) for k in described] == list(phi.im_gens())
    # the masks matter: the other masks give another map
    flipped = [(a, out, not causal, res) for a, out, causal, res in layers]
    assert _by_hand(d, t, flipped, list(W.gens())) != Y


@pytest.mark.parametrize("text, layers", [
    (MIXED, [attention(a=1, out=2, causal=True), attention(a=1, out=1)]),
    (MIXED.replace("mask = causal", "mask = causal, residual = true"),
     [attention(a=1, out=2, causal=True, residual=True), attention(a=1, out=1)]),
    (MIXED.replace("mask = causal", "residual = true"),
     [attention(a=1, out=2, residual=True), attention(a=1, out=1)]),
])
def test_a_spec_with_different_masks_builds_the_stack(text, layers):
    spec = parse_spec(text + "compute m { dimension seed = 0; fibers seed = 0 }\n")
    spec.validate()
    m = spec.models[0]
    M = m.build()
    assert M is Network(layers, d=2, t=3)
    assert m.size_estimate() == M.size_estimate()
    assert parse_spec(spec.to_dsl()) == spec


def test_with_or_without_a_dense_layer_between(tmp_path, capsys):
    between = MIXED.replace("  layer attention(rank = 1, out = 1)",
                            "  layer dense(out = 2)\n  layer attention(rank = 1, out = 1)")
    for name, text in (("plain", MIXED), ("between", between)):
        f = tmp_path / f"{name}.att"
        f.write_text(text + "compute m { dimension seed = 0 }\n")
        assert cli.main(["check", str(f)]) == 0, capsys.readouterr().err
        assert cli.main(["run", str(f)]) == 0
        assert "Traceback" not in capsys.readouterr().err


def test_the_same_mask_in_every_layer_is_still_the_multihead_class():
    from sage_attention.models.multihead import MultiHeadLightningAttention
    text = MIXED.replace("out = 1)", "out = 1, mask = causal)")
    m = parse_spec(text).models[0]
    assert not m.is_stack()
    assert isinstance(m.build(), MultiHeadLightningAttention)


# ------------------------------------------------------------------ linear_output

def test_linear_output_false_after_attention_is_refused_in_python():
    with pytest.raises(SpecError, match="only concerns a dense last layer.*drop linear_output"):
        Network([attention(a=1, out=2)], d=2, t=2, linear_output=False)
    with pytest.raises(SpecError, match="only concerns a dense last layer"):
        Network([dense(out=2, r=2), attention(a=1, out=1)], d=2, t=2, linear_output=False)
    # a dense last layer: allowed, as before
    Network([attention(a=1, out=2), dense(out=1, r=2)], d=2, t=2, linear_output=False)


@pytest.mark.parametrize("layers", [
    "layer attention(rank = 1, out = 1)",
    "layer dense(out = 2, activation = power(2))\n  layer attention(rank = 1, out = 1)",
])
def test_linear_output_false_after_attention_is_refused_at_its_line(layers, tmp_path, capsys):
    f = tmp_path / "lo.att"
    f.write_text(f"model m {{ input = 2; tokens = 2\n  {layers}\n  linear_output = false }}\n"
                 "compute m { dimension seed = 0 }\n")
    line = 2 + layers.count("\n") + 1
    assert cli.main(["check", str(f)]) == 2
    err = capsys.readouterr().err
    assert f"lo.att:{line}:3:" in err
    assert "only concerns a dense last layer" in err
    assert "fix: drop `linear_output = false`" in err
    assert "Traceback" not in err


def test_linear_output_round_trips():
    # the spec writes linear_output only when it is false, and only a dense last layer has it
    text = ("model b { input = 2; tokens = 2\n"
            "  layer attention(rank = 1, out = 2, residual = true)\n"
            "  layer dense(out = 2, activation = power(2), residual = true)\n"
            "  linear_output = false }\n")
    spec = parse_spec(text)
    spec.validate()
    again = parse_spec(spec.to_dsl())
    again.validate()
    assert again == spec
    from sage_attention.variety.export import _model_dict, _model_from_dict
    M = spec.models[0].build()
    assert _model_from_dict(_model_dict(M)) is M
    # a record written before the refusal (attention last, linear_output false) still reads
    N = Network([attention(a=1, out=2)], d=2, t=2)
    old = dict(_model_dict(N), linear_output=False)
    assert _model_from_dict(old) is N


def test_linear_output_false_after_a_linear_dense_last_layer_is_refused():
    with pytest.raises(SpecError, match="dense\\(out=1\\) is linear.*drop linear_output=False"):
        Network([dense(out=2, r=2), dense(out=1)], d=2, linear_output=False)
    # a nonlinear last layer is what the option is for
    Network([dense(out=2, r=2), dense(out=1, r=2)], d=2, linear_output=False)


def test_linear_output_false_after_a_linear_dense_last_layer_is_refused_in_a_spec():
    from sage_attention.dsl.parser import parse_spec
    text = ("model m { input = 2; layer dense(out = 2, activation = power(2))\n"
            "  layer dense(out = 1)\n  linear_output = false }\n")
    with pytest.raises(Exception, match="is linear: the option would change nothing"):
        parse_spec(text).validate()


def _independent_rank(widths, degrees, bias, seed=1):
    """The rank of the Jacobian of weights -> coefficients of the outputs, built here by hand:
    x -> rho_{r_L}(W_L ... rho_{r_1}(W_1 x + b_1) ... + b_L), at random rational weights."""
    nw = sum(widths[i + 1] * (widths[i] + (1 if bias else 0)) for i in range(len(widths) - 1))
    W = PolynomialRing(QQ, "w", nw)
    R = PolynomialRing(W, "x", widths[0])
    ws = iter(W.gens())
    h = list(R.gens())
    for i, r in enumerate(degrees):
        A = [[next(ws) for _ in range(widths[i])] for _ in range(widths[i + 1])]
        b = [next(ws) if bias else 0 for _ in range(widths[i + 1])]
        h = [(sum(a * v for a, v in zip(row, h)) + c) ** r for row, c in zip(A, b)]
    coeffs = [W(c) for f in h for c in f.coefficients()]
    rng = random.Random(seed)
    point = {w: QQ(rng.randint(-9, 9)) / rng.randint(1, 5) for w in W.gens()}
    J = matrix(QQ, [[c.derivative(w).subs(point) for w in W.gens()] for c in coeffs])
    return J.rank()


@pytest.mark.parametrize("widths, degrees, bias", [
    ((2, 3, 1), (2, 2), False),      # q^2 for a binary quadric q: dimension 3, not 5
    ((3, 4, 3), (2, 2), False),
    ((2, 2, 1), (2, 3), True),
    ((2, 2, 2, 1), (2, 2, 2), False),
])
def test_a_nonlinear_last_layer_expects_the_dimension_of_the_linear_one(widths, degrees, bias):
    layers = [dense(out=w, r=r, bias=bias) for w, r in zip(widths[1:], degrees)]
    M = Network(layers, d=widths[0], linear_output=False)
    rank = _independent_rank(widths, degrees, bias)
    D = M.dimension_report(seed=0)
    assert D.dimension == rank
    assert M.expected_dimension() == rank and D.agrees
    assert "DIFFERS" not in str(D) and "defect" not in str(D)
    assert "linear last layer" in M.expected_dimension_note()


def test_the_square_of_a_binary_quadric_has_dimension_3():
    M = Network([dense(out=3, r=2), dense(out=1, r=2)], d=2, linear_output=False)
    assert _independent_rank((2, 3, 1), (2, 2), False) == 3
    assert M.dimension(seed=0) == 3 and M.expected_dimension() == 3
