"""The model records of ``run`` (doc/json.rst) and the fiber reports say what the models are.

- a network of dense layers: no weight space, one entry per layer in every
  per-layer list, its coordinate count exact;
- a softmax model: no polynomial coordinates (the number of outputs instead),
  and ``coordinate_ring()`` refuses with the reason;
- fibers: a network that fills its ambient space, or a saturated one, says
  so; a dense network's symmetries are rescalings of hidden neurons, and one
  factor is written ``K^*``.
"""
import io
import json

import pytest

from sage_attention.app.cli import main
from sage_attention.app.reporting import run_spec
from sage_attention.dsl import parse_spec

DENSE = ("model m { input = 3; layer dense(out = 2, activation = power(2)); layer dense(out = 1) }\n"
         "compute m { dimension seed = 0 }")
SOFTMAX = ("model s { input = 3; tokens = 2; "
           "layer attention(rank = 2, out = 3, normalization = softmax) }\n"
           "compute s { dimension seed = 0 }")
LIGHTNING = ("model l { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
             "compute l { dimension seed = 0 }")
PER_LAYER = ("ranks", "normalization", "heads", "mask", "residual", "layers")


def record(text):
    out = io.StringIO()
    [result] = run_spec(parse_spec(text), as_json=True, out=out)
    [line] = out.getvalue().splitlines()
    return result, json.loads(line)


def text_report(text):
    out = io.StringIO()
    run_spec(parse_spec(text), out=out)
    return out.getvalue()


# -- 1. dense networks

def test_dense_record_has_no_attention_weight_space():
    _, r = record(DENSE)
    assert r["weights"] is None
    assert "QKV" not in json.dumps({k: v for k, v in r.items() if k != "computations"})


def test_dense_record_per_layer_lists_have_one_entry_per_layer():
    _, r = record(DENSE)
    assert {k: len(r[k]) for k in PER_LAYER} == {k: 2 for k in PER_LAYER}
    assert r["normalization"] == [None, None]


def test_dense_record_coordinates_are_exact():
    from sage_attention import PolynomialNetwork
    _, r = record(DENSE)
    M = PolynomialNetwork([3, 2, 1], 2)
    assert r["coordinates"] == len(M.coordinate_description()) == M.ambient_dimension() == 6
    assert r["coordinates_exact"] is True
    assert r["outputs"] == 1


def test_dense_text_does_not_call_the_count_an_estimate():
    text = text_report(DENSE)
    assert "   coordinates: 6, essential coordinates: 6, parameters: 8\n" in text
    assert "estimate" not in text.splitlines()[1]


def test_dense_run_json_on_the_command_line(tmp_path, capsys):
    f = tmp_path / "m.att"
    f.write_text(DENSE)
    assert main(["run", "--json", "-q", str(f)]) == 0
    r = json.loads(capsys.readouterr().out)
    assert (r["weights"], r["normalization"], r["coordinates_exact"]) == (None, [None, None], True)


def test_attention_record_keeps_its_weight_space_and_exact_count():
    _, r = record(LIGHTNING)
    assert r["weights"] == "QKV"
    assert r["normalization"] == ["lightning"]
    assert (r["coordinates"], r["coordinates_exact"], r["outputs"]) == (20, True, 2)


# -- 2. softmax models

def test_softmax_record_reports_no_coordinates():
    _, r = record(SOFTMAX)
    assert (r["coordinates"], r["coordinates_exact"], r["essential_coordinates"]) == (None, None, None)
    assert r["outputs"] == 6                 # out * tokens
    assert r["parameters"] == 21
    assert r["dimension"] == 17


def test_softmax_text_reports_the_outputs():
    header = text_report(SOFTMAX).splitlines()[1]
    assert header == "   outputs: 6 (softmax is not polynomial: no coordinates), parameters: 21"
    assert "coordinates:" not in header


def test_softmax_coordinate_ring_says_why():
    from sage_attention import SoftmaxAttention
    with pytest.raises(ValueError, match="softmax network has no coordinate ring: softmax .* is not polynomial"):
        SoftmaxAttention(d=2, t=2, a=1).coordinate_ring()


# -- 3. fibers and symmetries

def test_filling_polynomial_network_fiber_says_it_fills_the_space():
    from sage_attention import PolynomialNetwork
    M = PolynomialNetwork([3, 4, 1], 3)
    F = M.fibers(seed=0)
    assert F.dimension == M.ambient_dimension() == 10
    assert "fills its ambient space" in F.statement
    assert "further symmetries" not in F.statement
    assert "attention" not in str(F)


def test_saturated_multihead_fiber_says_it_is_saturated():
    from sage_attention import LightningAttention
    M = LightningAttention(d=2, t=2, a=1, heads=5)
    F = M.fibers(seed=0)
    assert F.dimension == M.ambient_dimension() == 6
    assert "saturated" in F.statement and "linear span" in F.statement
    assert "further symmetries" not in F.statement


def test_defective_network_still_says_further_symmetries():
    # a quadratic activation has orthogonal symmetries that are not listed
    from sage_attention import PolynomialNetwork
    F = PolynomialNetwork([3, 3, 3, 1], 2).fibers(seed=0)
    assert F.dimension < PolynomialNetwork([3, 3, 3, 1], 2).ambient_dimension()
    assert "further symmetries or degeneracies" in F.statement


def test_polynomial_network_symmetries_are_rescalings_of_hidden_neurons():
    from sage_attention import PolynomialNetwork
    name, dim, action = PolynomialNetwork([3, 4, 1], 3).symmetry_group()
    assert (name, dim) == ("(K^*)^4", 4)
    assert action == "the rescalings of the hidden neurons"
    assert "attention" not in action
    assert PolynomialNetwork([3, 1, 1], 3).symmetry_group()[:2] == ("K^*", 1)
    assert "(K^*)^1" not in PolynomialNetwork([3, 1, 2, 1], 2).symmetry_group()[0]


def test_stack_with_attention_still_names_attention_symmetries():
    from sage_attention import Network, attention, dense
    name, dim, action = Network([attention(a=2, out=3), dense(out=4, r=2), dense(out=3)],
                                d=3, t=2).symmetry_group()
    assert (name, dim) == ("GL_2 x K^* x GL_3 x (K^*)^4", 18)
    assert "attention" in action and "rescalings of the hidden neurons" in action
