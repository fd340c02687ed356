"""The memory guard: estimates before building, refusals naming estimate, limit and force=,
and force=True reaching the computation.

- The size estimate of a deep network counts its coordinates by a closed form (it was quadratic
  in the degree ``3^L``: 10 layers of width 2 hung ``check``, 40 ran out of memory), compared
  here with a brute-force enumeration of the monomials.
- Huge builds (rings beyond Singular, Jacobians beyond forward mode) are refused, not killed,
  in a child process with a limited address space.
- ``check`` refuses an unreadable SAGE_ATTENTION_MEMORY_LIMIT as ``run`` does.
"""
import itertools
import subprocess
import sys
import time

import pytest

from sage.all__sagemath_singular import QQ  # noqa: F401  (initializes Sage)
from sage_attention import LightningAttention
from sage_attention.catalog.costs import check_size, estimate_size, token_parity_monomials
from sage_attention.misc.errors import ComputationTooLarge
from sage_attention.ideals.implicitization import implicitize
from sage_attention.misc.memory import memory_limit

from helpers import cli_env, run_cli


def _refused(fn, seconds=10):
    t0 = time.time()
    with pytest.raises(ComputationTooLarge) as info:
        fn()
    assert time.time() - t0 < seconds
    msg = str(info.value)
    assert "needs about" in msg and "limit" in msg and "force=True" in msg
    assert info.value.estimate > memory_limit()
    return msg


def test_deep_implicitization_is_refused_before_allocating():
    # degree 3 used to try to allocate 98.8 GiB (it is now refused at its
    # largest evaluation matrix, after a minute); degree 4 at once
    M = LightningAttention(widths=[2, 2, 1], ranks=[1, 1], t=2)
    msg = _refused(lambda: implicitize(M, 4, symmetry=False))
    assert "monomials of degree 4" in msg


def test_interpolation_degree_4_on_160_coordinates_is_refused():
    from sage_attention.variety.neurovariety import Neurovariety
    X = Neurovariety(LightningAttention(d=4, t=3, a=2, out=4))
    _refused(lambda: X.vanishing_ideal(algorithm="interpolation", degree=4))
    # the same model through degree 2 is well within the guard
    R = implicitize(X.model(), 2, seed=0)
    assert R.complete_through_degree == 2


def test_invariants_on_a_large_model_are_refused_and_small_ones_pass():
    from sage_attention.invariants import invariants
    msg = _refused(lambda: invariants(LightningAttention(d=8, t=3, a=4, out=8)), seconds=5)
    assert "low_rank" in msg
    fam = invariants(LightningAttention(d=8, t=3, a=4, out=8), families=["low_rank"], limit=3)
    assert len(fam) == 3
    assert len(invariants(LightningAttention(d=3, t=2, a=1))) > 0


def test_the_guard_is_realistic_and_force_reaches_the_work(monkeypatch):
    M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
    full = implicitize(M, 3, seed=0)
    monkeypatch.setenv("SAGE_ATTENTION_MEMORY_LIMIT", "2K")
    assert memory_limit() == 2048
    msg = _refused(lambda: implicitize(M, 3, seed=0))
    forced = implicitize(M, 3, seed=0, force=True)
    assert forced.ideal == full.ideal == M.parametrization().kernel()
    # the evaluation matrix of a piece is estimated too
    from sage_attention.ideals import implicitization as impl
    monkeypatch.setattr(impl, "_monomial_table_bytes", lambda n, k, g: 0)
    monkeypatch.setattr(impl, "_piece_lower_bytes", lambda n: 0)
    monkeypatch.setenv("SAGE_ATTENTION_MEMORY_LIMIT", "200")
    msg = _refused(lambda: implicitize(M, 3, seed=0, executor=False))
    assert "evaluation matrix" in msg or "span of the products" in msg


def test_force_reaches_elimination():
    from sage_attention.ideals.elimination import eliminate
    M = LightningAttention(d=6, t=2, a=2)
    with pytest.raises(ComputationTooLarge, match="force=True"):
        eliminate(M)
    with pytest.raises(ComputationTooLarge, match="did not finish within 2 s"):
        eliminate(M, force=True, timeout=2)


def test_deep_implicitization_at_degree_3_is_refused_before_the_first_degree():
    # the cubics of this model live in a graded piece of 162918 monomials: it
    # used to be refused after a minute (degrees 1 and 2 solved, 1.8 million
    # monomials listed); the pieces are now counted first
    M = LightningAttention(widths=[2, 2, 1], ranks=[1, 1], t=2)
    msg = _refused(lambda: implicitize(M, 3), seconds=20)
    assert "largest graded piece of degree 3 (162918 monomials" in msg


def test_piece_sizes_count_what_graded_pieces_lists():
    import numpy as np
    from sage_attention.ideals.engine.grading import multigrading
    from sage_attention.ideals.engine.pieces import graded_pieces, piece_sizes
    for M in (LightningAttention(widths=[2, 2, 1], ranks=[1, 1], t=2),
              LightningAttention(d=3, t=2, a=2, out=2)):
        E = M.essential_ring()
        G = multigrading(M.essential_parametrization())
        degs = np.array(G.degrees, dtype=np.int64).reshape(E.ngens(), -1)
        for k in (1, 2):
            listed = {d: len(m) for d, m in graded_pieces(E.ngens(), k, degs).items()}
            assert piece_sizes(degs, k) == listed


def _built(fn, model, **opts):
    """The number of members a family builds before dropping zero and repeated ones."""
    import sage_attention.invariants.base as base
    seen = []
    real = base.to_coordinates

    def count(model, pairs, name, note=""):
        pairs = list(pairs)
        seen.append(len(pairs))
        return real(model, iter(pairs), name, note)
    import importlib
    module = importlib.import_module(fn.__module__)
    original = module.to_coordinates
    module.to_coordinates = count
    try:
        fn(model, **opts)
    finally:
        module.to_coordinates = original
    return seen[0]


@pytest.mark.parametrize("name,kwargs,opts", [
    ("syzygies", dict(d=3, t=2, a=3), {}),
    ("syzygies", dict(d=4, t=2, a=4, out=2), {}),
    ("pencil", dict(d=4, t=2, a=2, out=2), {}),
    ("low_rank", dict(d=4, t=2, a=2), {}),
    ("veronese", dict(d=4, t=2, a=3), {}),
    ("veronese", dict(d=3, t=2, a=3), {"r": 3}),
    ("sylvester", dict(d=4, t=2, a=2), {}),
    ("rows", dict(d=3, t=2, a=2, out=3), {}),
])
def test_family_estimates_count_the_members(name, kwargs, opts):
    # the estimate counts the members the family builds (zero ones included)
    from sage_attention.invariants import FAMILIES
    from sage_attention.catalog.family_costs import family_estimate
    M = LightningAttention(**kwargs)
    est = family_estimate(name, M.widths, M.ranks, M.tokens, options=opts)
    built = _built(FAMILIES[name], M, **opts)
    assert est.members == built if name in ("syzygies", "pencil", "low_rank") else est.members >= built


def test_invariant_families_are_refused_before_building_and_force_reaches_them():
    from sage_attention.invariants import context_syzygies, veronese_invariants, invariants
    from sage_attention.variety.neurovariety import Neurovariety
    msg = _refused(lambda: context_syzygies(LightningAttention(d=6, t=2, a=6)), seconds=5)
    assert "the family syzygies" in msg
    big = LightningAttention(d=4, t=2, a=4)
    msg = _refused(lambda: invariants(big, ["veronese"], r=4), seconds=5)
    assert "the family veronese" in msg and "limit=" in msg
    _refused(lambda: Neurovariety(big).invariants(["veronese"], r=4), seconds=5)
    assert len(veronese_invariants(big, r=4, limit=2, force=True)) == 2
    # every family of the cheap models of the documentation still runs
    for M in (LightningAttention(d=3, t=2, a=2), LightningAttention(d=3, t=2, a=3),
              LightningAttention(d=2, t=2, a=2, out=2), LightningAttention(d=3, t=1, a=1)):
        for name in ("syzygies", "veronese", "sylvester", "low_rank", "pencil", "rows"):
            invariants(M, [name])


def test_the_dsl_refuses_large_families_without_sage():
    from sage_attention.dsl import parse_spec, validate
    s = parse_spec("model m { input = 6; tokens = 2; layer attention(rank = 6, out = 1) }\n"
                   "compute m { invariants syzygies }")
    with pytest.raises(ComputationTooLarge, match="pass --force"):
        validate(s)
    validate(s, force=True)
    small = parse_spec("model m { input = 3; tokens = 2; layer attention(rank = 3, out = 1) }\n"
                       "compute m { invariants syzygies, veronese\ncheck invariants }")
    validate(small)


def test_every_family_takes_force():
    # one interface: every family function has its memory guard and force=,
    # so callers pass force without looking at signatures
    import inspect
    from sage_attention.invariants import FAMILIES
    assert [name for name, fn in FAMILIES.items() if "force" not in inspect.signature(fn).parameters] == []


@pytest.mark.parametrize("value", ["lots", "-5G", "1.2.3G"])
def test_unreadable_memory_limit_is_an_error_not_ignored(monkeypatch, value):
    from sage_attention.misc.errors import SettingError
    from sage_attention.ideals.implicitization import implicitize
    monkeypatch.setenv("SAGE_ATTENTION_MEMORY_LIMIT", value)
    with pytest.raises(SettingError, match="SAGE_ATTENTION_MEMORY_LIMIT=.* is not a size.*8G"):
        implicitize(LightningAttention(d=2, t=2, a=1, out=1), 2)


def test_memory_refusal_names_the_variable_that_sets_the_limit(monkeypatch):
    from sage_attention.misc.memory import check_memory
    monkeypatch.delenv("SAGE_ATTENTION_MEMORY_LIMIT", raising=False)
    with pytest.raises(ComputationTooLarge, match="on this machine, SAGE_ATTENTION_MEMORY_LIMIT=8G, say, sets"):
        check_memory(2 ** 60, "the table")
    monkeypatch.setenv("SAGE_ATTENTION_MEMORY_LIMIT", "1M")
    with pytest.raises(ComputationTooLarge, match=r"limit 1.0 MiB set by SAGE_ATTENTION_MEMORY_LIMIT\)"):
        check_memory(2 ** 30, "the table")


# -- the size estimate of deep networks

def brute_force(d, t, D):
    """Count the monomials of degree D in d t variables, odd in token 1's, even in each other token's."""
    count = 0
    for degrees in itertools.product(range(D + 1), repeat=t):
        if sum(degrees) != D or degrees[0] % 2 == 0 or any(s % 2 for s in degrees[1:]):
            continue
        n = 1
        for s in degrees:
            n *= sum(1 for _ in itertools.combinations_with_replacement(range(d), s))
        count += n
    return count


@pytest.mark.parametrize("d,t", [(1, 1), (1, 3), (2, 2), (3, 2), (2, 3), (4, 1), (1, 4)])
def test_token_parity_count_against_enumeration(d, t):
    for D in range(0, 12):
        assert token_parity_monomials(d, t, D) == brute_force(d, t, D), (d, t, D)


def test_token_parity_count_of_deep_degrees():
    # the degree 3^5 = 243 of five layers, against the convolution of the per-token series
    from math import comb
    d, t, D = 2, 3, 243
    odd = [comb(a + d - 1, d - 1) if a % 2 else 0 for a in range(D + 1)]
    even = [comb(a + d - 1, d - 1) if a % 2 == 0 else 0 for a in range(D + 1)]
    series = odd
    for _ in range(t - 1):
        series = [sum(series[a] * even[b - a] for a in range(b + 1)) for b in range(D + 1)]
    assert token_parity_monomials(d, t, D) == series[D]


def test_deep_networks_are_estimated_and_refused_at_once():
    M = LightningAttention(widths=[2] * 11, ranks=[1] * 10, t=2)
    # every entry of the 2 x 2 output (2 rows, 2 tokens) has the same count
    assert M.size_estimate().coordinates == 4 * token_parity_monomials(2, 2, 3 ** 10)
    with pytest.raises(ComputationTooLarge, match="beyond any machine: choose a smaller model"):
        check_size(estimate_size([2] * 41, [1] * 40, 2), "coordinates")
    with pytest.raises(ComputationTooLarge, match="pass force=True"):
        check_size(estimate_size((4, 4, 4), (4, 4), 3), "coordinates")


def test_check_of_a_deep_spec_refuses_its_ideal(tmp_path):
    spec = tmp_path / "deep.att"
    layers = "\n".join("  layer attention(rank = 1, out = 2)" for _ in range(40))
    spec.write_text(f"model m {{ input = 2; tokens = 2\n{layers}\n}}\ncompute m {{ vanishing_ideal }}\n")
    p = run_cli("check", spec)
    assert p.returncode == 2, p.stderr
    assert "beyond any machine" in p.stderr and "coordinates" in p.stderr


def test_check_refuses_an_unreadable_memory_limit(tmp_path):
    spec = tmp_path / "m.att"
    spec.write_text("model m { input = 3; tokens = 2; layer attention(rank = 1, out = 1) }\n"
                    "compute m { vanishing_ideal }\n")
    p = run_cli("check", spec, env=cli_env(SAGE_ATTENTION_MEMORY_LIMIT="abc"), timeout=300)
    assert p.returncode == 2 and "SAGE_ATTENTION_MEMORY_LIMIT='abc' is not a size" in p.stderr


# -- huge builds are refused, not killed

def run_limited(code, limit_mb=2000, timeout=120):
    """Run the Python ``code`` in a child process limited to ``limit_mb`` MiB of address space."""
    prog = ("import resource; resource.setrlimit(resource.RLIMIT_AS, "
            f"({limit_mb} << 20, {limit_mb} << 20))\n" + code)
    return subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True,
                          env=cli_env(), timeout=timeout)


@pytest.mark.parametrize("call,needs", [
    ("LightningAttention(d=30, t=3, a=2).coordinate_ring()", "98580 variables"),
    ("LightningAttention(d=30, t=3, a=2).coordinate_ring(force=True)", "Singular cannot build it"),
    ("LightningAttention(d=12000, t=1, a=1).weight_ring()", "36000 variables"),
    ("LightningAttention(d=10**6, t=2, a=1).dimension()", "forward-mode Jacobian"),
    ("SoftmaxAttention(d=10**5, t=2, a=1).dimension()", "forward-mode Jacobian"),
])
def test_huge_builds_are_refused_not_killed(call, needs):
    r = run_limited("from sage_attention import LightningAttention, SoftmaxAttention\n"
            "from sage_attention.misc.errors import ComputationTooLarge\n"
            f"try:\n    {call}\nexcept ComputationTooLarge as e:\n    print('REFUSED', e)\n")
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.startswith("REFUSED") and needs in r.stdout
    if "force=True" not in call:
        # the fix: force=True, or, far beyond the limit, a smaller model (no force advised)
        assert ("force=" in r.stdout or "beyond any machine: choose a smaller model" in r.stdout) \
            and "limit" in r.stdout


def test_the_guard_estimates_what_forward_mode_builds():
    M = LightningAttention(widths=[4, 2, 4], ranks=[2, 2], t=3)
    # the DSL's guard and the model's guard both let it through ...
    check_size(estimate_size(M.widths, M.ranks, M.tokens), "jacobian")
    assert M.dimension(seed=1) == 26
    # ... and both refuse a Jacobian that does not fit
    with pytest.raises(ComputationTooLarge, match="forward-mode"):
        check_size(estimate_size((10**4, 1), (1,), 2), "jacobian")


def test_the_hopeless_factor_is_a_tunable():
    # settings.HOPELESS_FACTOR is read when the guard refuses (sage_attention/settings.py): beyond that many times
    # its limit a task is refused without advising force=True
    from sage_attention.settings import settings
    big = estimate_size((4, 4, 4), (4, 4), 3)             # 509280 coordinates, limit 200000
    with pytest.raises(ComputationTooLarge, match="pass force=True"):
        check_size(big, "coordinates")
    with settings.override(HOPELESS_FACTOR=2):
        with pytest.raises(ComputationTooLarge, match="beyond any machine") as e:
            check_size(big, "coordinates")
        assert "force=True" not in str(e.value)
    from sage_attention.catalog import costs
    assert costs.HOPELESS == settings.HOPELESS_FACTOR


def test_every_family_has_a_cost_formula():
    # a family without an estimate would pass the guard unchecked
    from sage_attention.catalog.families import FAMILIES
    from sage_attention.catalog.family_costs import FAMILY_COSTS, FAMILY_UNIONS
    assert set(FAMILY_COSTS) | set(FAMILY_UNIONS) == set(FAMILIES)
    assert all(set(parts) <= set(FAMILY_COSTS) for parts, _ in FAMILY_UNIONS.values())
