"""
The metric statements of the spec language -- `ed_degree`, `critical_points`, `decision_boundary` --
through `check`, `run` and `run --json`. The values are checked against theorems, never against the
package's own printout:

- a generic hypersurface of degree D in C^n has ED degree D * sum_{i<n} (D-1)^i (DHOST 2016, Cor. 2.10);
- the quadratic Veronese surface v_2(P^2) has generic ED degree ((2d-1)^{n+1} - (d-1)^{n+1})/d = 13, and
  its dual, the symmetric 3 x 3 matrices of rank <= 2 (the two-neuron network's function space), has
  the same generic ED degree (ED duality); under the Frobenius (Bombieri-Weyl) metric the critical
  rank-2 approximations of a symmetric 3 x 3 matrix are C(3, 2) = 3 (Eckart-Young on eigenvalues);
- the boundary polynomial is recomputed by evaluating the network at the same weights.

Errors name a fix, and the fix, applied, passes `check`.
"""
import re
from fractions import Fraction

import pytest

from sage_attention.app import cli
from sage_attention.dsl import parse_spec, validate
from sage_attention.misc.errors import ComputationTooLarge, SpecError

from helpers import ROOT, json_records, run_cli

TWO_NEURONS = ("model q { input = 3\n  layer dense(out = 2, activation = power(2))\n"
               "  layer dense(out = 1) }\n")
CLASSIFIER = ("model p { input = 2\n  layer dense(out = 2, activation = power(2), bias = true)\n"
              "  layer dense(out = 2, bias = true) }\n")
CUBIC = ("model c { input = 2\n  layer dense(out = 2, activation = power(3), bias = true)\n"
         "  layer dense(out = 1, bias = true) }\n")
QUADRIC = ("model s { input = 3\n  layer dense(out = 3, activation = power(2), bias = true)\n"
           "  layer dense(out = 1, bias = true) }\n")
BIASED = ("model b { input = 2\n  layer dense(out = 1, activation = power(2), bias = true)\n"
          "  layer dense(out = 1) }\n")
SLICE = "model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1); entries = (1, 1) }\n"


def generic_hypersurface(D, n):
    """The ED degree of a generic hypersurface of degree D in C^n."""
    return D * sum((D - 1) ** i for i in range(n))


def run_json(tmp_path, source, *args):
    f = tmp_path / "m.att"
    f.write_text(source)
    r = run_cli("run", f, "--json", *args)
    assert r.returncode == 0, r.stderr
    records = json_records(r.stdout, kinds=("model",))
    return [c for rec in records for c in rec["computations"]]


def test_check_accepts_the_statements_and_the_example():
    spec = parse_spec(TWO_NEURONS + CLASSIFIER + SLICE +
                      "compute q { ed_degree metric = bombieri_weyl; critical_points spurious = false }\n"
                      "compute p { decision_boundary outputs = [2, 1] metric = generic data = [1, -1/2] }\n"
                      "compute m { ed_degree projective = true; decision_boundary threshold = 1/2 }\n")
    notes = validate(spec)
    assert len(notes) == 5 and all("note: `" in n and "critical points" in n for n in notes), notes
    assert cli.main(["check", str(ROOT / "examples" / "metric.att")]) == 0


def test_the_example_runs_fast_and_its_values_are_the_theorems(tmp_path):
    source = (ROOT / "examples" / "metric.att").read_text()
    out = run_json(tmp_path, source)
    by = [(c["computation"], c) for c in out]
    (bw, generic, crit, conic, _, _) = [c for _, c in by]
    assert bw["degree"] == 3 and bw["metric"] == "bombieri_weyl"          # Eckart-Young: C(3, 2)
    assert generic["degree"] == (3 ** 3 - 1 ** 3) // 2                    # the Veronese formula: 13
    assert crit["ed_degree"] == 3 and crit["pure"] == 3 * crit["fiber"]
    assert conic["boundary_degree"] == 2 and conic["ed_degree"] == generic_hypersurface(2, 2)
    for c in (bw, generic):
        assert c["certificate"]["proved"] and c["seed"] == 1


@pytest.mark.parametrize("model,D,n,extra", [(CUBIC, 3, 2, "threshold = 1"), (QUADRIC, 2, 3, "threshold = 1")])
def test_decision_boundary_at_random_weights_is_a_generic_hypersurface(tmp_path, model, D, n, extra):
    name = model.split()[1]
    (c,) = run_json(tmp_path, model + f"compute {name} {{ decision_boundary {extra} seed = 3 }}\n")
    assert (c["boundary_degree"], c["inputs"]) == (D, n)
    assert c["ed_degree"] == generic_hypersurface(D, n)
    assert c["ed"]["certificate"]["proved"]


def test_the_boundary_is_the_networks_difference_of_outputs(tmp_path):
    """Evaluate the network at the same weights and a rational input: f_2 - f_1 there."""
    from sage.all__sagemath_singular import QQ, PolynomialRing, matrix
    (c,) = run_json(tmp_path, CLASSIFIER + "compute p { decision_boundary outputs = [2, 1] seed = 5 }\n")
    M = parse_spec(CLASSIFIER).models[0].build()
    (W1, b1), (W2, b2) = M.random_weights(seed=5)
    x = matrix(QQ, 2, 1, [Fraction(1, 3), -2])
    h = (W1 * x + b1).apply_map(lambda v: v ** 2)
    y = W2 * h + b2
    f = PolynomialRing(QQ, "x", 2)(c["boundary"])
    assert f(QQ(1) / 3, -2) == y[1, 0] - y[0, 0]
    assert c["outputs"] == [2, 1]


def test_ed_degree_given_data_and_the_generic_count(tmp_path):
    # the binary quadrics that are squares: a conic, 3d - 2 = 4 under a generic metric; at data
    # on the conic's axis the Euclidean count is the generic one or drops, and it is said which
    model = "model v { input = 2\n  layer dense(out = 1, activation = power(2))\n  layer dense(out = 1) }\n"
    out = run_json(tmp_path, model + "compute v { ed_degree seed = 2; ed_degree metric = euclidean "
                   "data = [1, 2, 3] seed = 2 }\n")
    assert out[0]["degree"] == 3 * 2 - 2
    assert out[1]["data"] == ["1", "2", "3"] and out[1]["drops"] in (True, False)


def test_squares_of_affine_linear_forms_are_the_veronese_surface(tmp_path):
    # w (a.x + c)^2 in the six coefficients of a quadric in two inputs: the cone over v_2(P^2),
    # generic ED degree ((2d-1)^(n+1) - (d-1)^(n+1))/d = (27 - 1)/2 = 13, the same as a cone
    out = run_json(tmp_path, BIASED + "compute b { ed_degree projective = true seed = 1\n"
                   "  critical_points spurious = false seed = 1 }\n")
    assert out[0]["degree"] == 13 and out[0]["variety"] == "cone"
    assert out[1]["ed_degree"] == 13 and out[1]["pure"] == 13 * out[1]["fiber"]


def test_run_shows_progress_and_json_is_only_json(tmp_path):
    f = tmp_path / "m.att"
    f.write_text(SLICE + "compute m { ed_degree metric = euclidean seed = 0 }\n")
    r = run_cli("run", f, "--json", "--progress")
    assert r.returncode == 0, r.stderr
    json_records(r.stdout)            # every line of stdout is a record
    assert "ed_degree" in r.stderr
    r = run_cli("run", f)
    assert "ED degree" in r.stdout and "2 counts agree" in r.stdout


def apply_fix(source, fix):
    """Apply a fix of the form "write `X`" (replacing the option it names) or "drop `X`"."""
    m = re.match(r"(write|drop) `([^`]+)`", fix)
    assert m, fix
    verb, text = m.groups()
    key = text.split("=")[0].strip()
    if verb == "drop":
        return source.replace(" " + text, "")
    if re.search(rf"\b{key} = (\[[^\]]*\]|\S+)", source.split("compute", 1)[1]):
        head, tail = source.split("compute", 1)
        return head + "compute" + re.sub(rf"\b{key} = (\[[^\]]*\]|\S+)", text, tail, count=1)
    return source.replace("decision_boundary", "decision_boundary " + text, 1)


@pytest.mark.parametrize("source,message", [
    (SLICE + "compute m { ed_degree metric = bombieri_weyl }\n", "needs coordinates that are coefficients"),
    (BIASED + "compute b { critical_points metric = bombieri_weyl }\n", "has biases"),
    (BIASED.replace("out = 1) }", "out = 1, bias = true) }") + "compute b { ed_degree projective = true }\n",
     "needs homogeneous coordinates"),
    (CLASSIFIER + "compute p { decision_boundary threshold = 1 }\n", "goes with one output"),
    (CLASSIFIER + "compute p { decision_boundary outputs = [1, 3] }\n", "names row 3"),
    (CLASSIFIER + "compute p { decision_boundary data = [1, 2, 3] }\n", "the data point has 3 values"),
    (TWO_NEURONS + "compute q { ed_degree data = [1, 2] }\n", "model `q` has 6 coordinates"),
    (TWO_NEURONS + "compute q { ed_degree data = randm }\n", "did you mean `random`"),
    (TWO_NEURONS + "compute q { critical_points data = [1, 2] }\n", "must be random"),
    (TWO_NEURONS + "compute q { decision_boundary outputs = [1, 1] }\n", "distinct output rows"),
])
def test_errors_name_a_fix_that_check_accepts(source, message):
    with pytest.raises(SpecError) as info:
        validate(parse_spec(source, filename="f.att"))
    text = str(info.value)
    assert message in text, text
    fix = info.value.fix
    fixed = apply_fix(source, fix)
    notes = validate(parse_spec(fixed, filename="f.att"))
    assert all(": note: " in n for n in notes), (fix, fixed, notes)


def test_the_field_must_be_the_rationals():
    source = SLICE.replace("input = 2", "field = GF(101); input = 2") + "compute m { ed_degree }\n"
    with pytest.raises(SpecError, match="counts over QQ") as info:
        validate(parse_spec(source))
    assert info.value.fix == "write `field = QQ` in the model"
    assert all(": note: " in n for n in validate(parse_spec(source.replace("field = GF(101); ", "field = QQ; "))))


def test_too_large_is_refused_with_force_as_the_way_out(tmp_path):
    source = ("model s { input = 3; tokens = 1; layer attention(rank = 1, out = 1) }\n"
              "compute s { ed_degree; critical_points }\n")
    with pytest.raises(ComputationTooLarge, match=r"5\^7 = 78125 solutions \(Bezout; limit 20000\)"):
        validate(parse_spec(source))
    assert all(": note: " in n for n in validate(parse_spec(source), force=True))
    f = tmp_path / "big.att"
    f.write_text(source)
    r = run_cli("check", f)
    assert r.returncode != 0 and "--force" in r.stderr, r.stderr
    assert run_cli("check", f, "--force").returncode == 0
    # a boundary of degree 27 in 4 inputs: far more critical points than the limit
    deep = ("model d { input = 2; tokens = 2\n  layer attention(rank = 1, out = 2)\n"
            "  layer attention(rank = 1, out = 1) }\ncompute d { decision_boundary }\n")
    with pytest.raises(ComputationTooLarge, match="degree up to 9 in 4 inputs"):
        validate(parse_spec(deep))


@pytest.mark.parametrize("seed", [1, 3])
def test_robustness_radius_at_given_data_is_the_distance_to_the_real_boundary(tmp_path, seed):
    """The radius `decision_boundary data = [...]` reports is the least distance to points sampled
    on the real conic (solving for x1 on a fine grid of x0), and the real critical points are at
    most the complex ones, as many modulo 2."""
    import numpy as np
    from sage.all__sagemath_singular import QQ, PolynomialRing
    (c,) = run_json(tmp_path, CLASSIFIER + f"compute p {{ decision_boundary data = [1, 1/2] seed = {seed} }}\n")
    real = c["real"]
    assert real["real_count"] <= real["complex_count"] == c["ed_degree"] == 4
    assert (real["complex_count"] - real["real_count"]) % 2 == 0
    R = PolynomialRing(QQ, "x", 2)
    f = R(c["boundary"])
    x0, x1 = R.gens()
    # f = A x1^2 + B(x0) x1 + C(x0), A constant (a conic)
    coef = [[float(f.coefficient({x1: j}).monomial_coefficient(m)) for m in (R(1), x0, x0 ** 2)] for j in range(3)]
    v = np.linspace(-20, 20, 2000001)
    C, B, A = (k[0] + k[1] * v + k[2] * v ** 2 for k in coef)
    assert np.all(A != 0)
    disc = B ** 2 - 4 * A * C
    ok = disc >= 0
    best = float("inf")
    for sign in (1, -1):
        r = (-B[ok] + sign * np.sqrt(disc[ok])) / (2 * A[ok])
        if r.size:
            best = min(best, float(np.min(np.hypot(v[ok] - 1, r - 0.5))))
    if real["radius"] is None:          # no real point on the boundary (seed 1: an empty ellipse)
        assert real["real_count"] == 0 and best == float("inf")
        return
    radius = float(real["radius"].split("?")[0])
    assert abs(best - radius) < 1e-4, (best, real["radius"])
