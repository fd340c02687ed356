"""
Seeding as Sage does it: ``seed=None`` draws from Sage's current random
state, so ``set_random_seed`` makes such runs reproducible, and every report
records the seed it used (an integer, never ``None``).
"""
import os
import subprocess
import sys

import pytest
from sage.all__sagemath_singular import QQ
from sage.misc.randstate import set_random_seed

from sage_attention import LightningAttention, SoftmaxAttention
from sage_attention.misc.randomness import derived_seed, resolve_seed
from sage_attention.ideals.implicitization import implicitize

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def twice(f, n=11):
    set_random_seed(n)
    a = f()
    set_random_seed(n)
    b = f()
    return a, b


def test_resolve_seed_follows_set_random_seed():
    a, b = twice(lambda: [resolve_seed(None) for _ in range(3)])
    assert a == b and len(set(a)) == 3
    set_random_seed(12)
    assert [resolve_seed(None) for _ in range(3)] != a


def test_random_weights_reproducible():
    M = LightningAttention(d=3, t=2, a=2, weight_space="AV")
    a, b = twice(lambda: M.random_weights())
    assert a == b
    set_random_seed(5)
    assert M.random_weights() != a


@pytest.mark.parametrize("M", [LightningAttention(d=3, t=2, a=1),
                               LightningAttention(widths=[2, 2, 2], ranks=[2, 1], t=2)])
def test_dimension_report_reproducible_and_records_seed(M):
    a, b = twice(lambda: M.dimension_report())
    assert a == b
    assert isinstance(a.seed, int)
    # the recorded seed reproduces the report
    assert M.dimension_report(seed=a.seed) == a
    F = M.fibers()
    assert isinstance(F.seed, int) and M.fibers(seed=F.seed) == F


def test_softmax_report_reproducible_and_records_seed():
    M = SoftmaxAttention(d=2, t=2, a=1)
    a, b = twice(lambda: M.dimension_report())
    assert a.singular_values == b.singular_values and a.seed == b.seed
    assert isinstance(a.seed, int)
    assert M.dimension_report(seed=a.seed).singular_values == a.singular_values


def test_implicitization_records_seed():
    M = LightningAttention(d=2, t=1, a=1)
    a, b = twice(lambda: implicitize(M, 3, prove=False))
    assert isinstance(a.seed, int) and a.seed == b.seed
    assert a.to_dict()["seed"] == a.seed


def test_explicit_seeds_are_checked():
    with pytest.raises(TypeError):
        LightningAttention(d=2, t=2, a=1).dimension_report(seed=1.7)
    with pytest.raises(TypeError):
        resolve_seed(QQ(4))
    with pytest.raises(TypeError):
        resolve_seed("3")


def test_derived_seed_is_the_same_in_every_process():
    code = "from sage_attention.misc.randomness import derived_seed; print(derived_seed(3, 'pool', 7))"
    outs = set()
    for hashseed in ("1", "2"):
        env = dict(os.environ, PYTHONPATH=ROOT, PYTHONHASHSEED=hashseed)
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=env, timeout=120)
        assert r.returncode == 0, r.stderr
        outs.add(r.stdout.strip())
    assert outs == {str(derived_seed(3, "pool", 7))}


@pytest.mark.parametrize("seed,accepted", [(0, True), (2 ** 64 - 1, True), (-1, False),
                                           (2 ** 64, False)])
def test_one_seed_range_in_python_on_the_command_line_and_in_a_spec(seed, accepted, tmp_path):
    # A seed outside [0, 2^64) was reduced modulo 2^63 in Python and on the
    # command line (so 2^63 and 0 gave the same weights) and refused in a spec.
    from sage_attention.dsl import parse_spec, validate
    from sage_attention.dsl.errors import SpecError
    from sage_attention.app import cli
    M = LightningAttention(d=2, t=2, a=1)
    spec = parse_spec(f"model m {{ input = 2; tokens = 2; layer attention(rank = 1, out = 1) }}\n"
                      f"compute m {{ dimension seed = {seed} }}")
    f = tmp_path / "m.att"
    f.write_text("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
                 "compute m { dimension }")
    if accepted:
        assert M.dimension_report(seed=seed).seed == seed
        validate(spec)
        assert cli.main(["run", str(f), "--seed", str(seed), "--quiet"]) == 0
    else:
        with pytest.raises(ValueError, match=r">= 0 and <= 2\^64 - 1"):
            M.dimension_report(seed=seed)
        with pytest.raises(SpecError, match=r"(>= 0|at most 2\^64 - 1)"):
            validate(spec)
        with pytest.raises(SystemExit):
            cli.main(["run", str(f), "--seed", str(seed)])
    if accepted:                      # no two seeds of the range give the same weights
        assert M.random_weights(seed=seed) != M.random_weights(seed=seed ^ 2 ** 63)
