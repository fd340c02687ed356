"""
The Python-API part of the contract corpus.

Each case runs in a child process (``python -c``) with a time limit and an
address-space limit (``RLIMIT_AS``), calls a public function of
``sage_attention.ideals`` or ``sage_attention.variety`` with wrong types,
out-of-range values or foreign objects (or right ones), and asserts:

- the process is not killed (no signal, no Singular "no more memory" exit);
- an answer is the right one;
- an error is one of ours: a ``SageAttentionError`` subclass, or a
  ``TypeError`` / ``ValueError`` raised in ``sage_attention`` (the innermost
  frame of its traceback is in the package) whose message names the
  argument; never a traceback from inside Sage or Singular.
"""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIME_LIMIT = 120
MEMORY_LIMIT = 8 * 2 ** 30          # address space: Sage alone maps about 3 GiB

CHILD = r'''
import resource, sys, traceback
resource.setrlimit(resource.RLIMIT_AS, ({mem}, {mem}))
from sage.all__sagemath_singular import QQ, GF, ZZ, PolynomialRing
from sage_attention import LightningAttention, SoftmaxAttention
from sage_attention.misc.errors import SageAttentionError
from sage_attention.ideals.implicitization import implicitize
from sage_attention.ideals.elimination import eliminate
from sage_attention.variety.neurovariety import Neurovariety, minimal_generators_count
from sage_attention.variety.generation import generation_report
from sage_attention.variety.export import to_json, from_json, to_latex, to_macaulay2
from sage_attention.variety.membership import vanishes_on_model, check_family
from sage_attention.invariants import invariants, context_syzygies, veronese_invariants, chow_invariants
M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
X = Neurovariety(M)
S = SoftmaxAttention(d=2, t=2, a=1)
D = LightningAttention(widths=[1, 1, 2], ranks=[1, 1], t=2, entries=[(1, 1), (2, 1)])
try:
    value = eval(compile(sys.argv[1], "<case>", "eval"))
    print("VALUE", repr(value))
except BaseException as e:
    tb = traceback.extract_tb(e.__traceback__)
    inner = tb[-1].filename if tb else ""
    ours = isinstance(e, SageAttentionError) or (
        isinstance(e, (TypeError, ValueError)) and "sage_attention" in inner)
    print("ERROR", type(e).__name__, "ours" if ours else "foreign:" + inner)
    print("MESSAGE", str(e).replace("\n", " "))
'''

# (case, expected): expected is ("value", repr) for an answer, or
# ("error", exception class name, a word the message must contain)
CASES = [
    # implicitize
    ("implicitize(M, 0)", ("error", "ValueError", "degree")),
    ("implicitize(M, -3)", ("error", "ValueError", "degree")),
    ("implicitize(M, 'x')", ("error", "TypeError", "degree")),
    ("implicitize(M, 2.5)", ("error", "TypeError", "degree")),
    ("implicitize(M, True)", ("error", "TypeError", "degree")),
    ("implicitize(M, None)", ("error", "TypeError", "degree")),
    ("implicitize(3, 2)", ("error", "TypeError", "model")),
    ("implicitize(S, 2)", ("error", "ValueError", "lightning")),
    ("implicitize(M, 10**6)", ("error", "ComputationTooLarge", "force=True")),
    ("implicitize(M, 2, cache_dir='/dev/null')", ("error", "ValueError", "cache_dir")),
    ("implicitize(M, 2, max_attempts=0)", ("error", "ValueError", "max_attempts")),
    ("implicitize(M, 2, executor='pool')", ("error", "TypeError", "executor")),
    ("{k: len(v) for k, v in implicitize(M, 3, seed=0).generators_by_degree.items()}", ("value", "{2: 3}")),
    ("implicitize(M, 3, seed=0).ideal == M.parametrization().kernel()", ("value", "True")),
    ("implicitize(D, 3, seed=0).ideal == D.parametrization().kernel()", ("value", "True")),
    ("implicitize(LightningAttention(widths=[2, 2, 1], ranks=[1, 1], t=2), 4, symmetry=False)",
     ("error", "ComputationTooLarge", "force=True")),
    # eliminate
    ("eliminate(3)", ("error", "TypeError", "model")),
    ("eliminate(M, algorithm='magic')", ("error", "ValueError", "algorithm")),
    ("eliminate(S)", ("error", "ValueError", "lightning")),
    ("eliminate(LightningAttention(d=6, t=2, a=2))", ("error", "ComputationTooLarge", "force=True")),
    ("eliminate(M, timeout=-1)", ("error", "ValueError", "timeout")),
    ("eliminate(M, timeout='soon')", ("error", "ValueError", "timeout")),
    ("eliminate(M).ideal == M.parametrization().kernel()", ("value", "True")),
    # Neurovariety
    ("Neurovariety(3)", ("error", "TypeError", "model")),
    ("X.contains(PolynomialRing(QQ, 'z', 28).gen(18) - PolynomialRing(QQ, 'z', 28).gen(0))",
     ("error", "TypeError", "coordinate ring")),
    ("X.contains(0)", ("value", "True")),
    ("X.contains(1)", ("value", "False")),
    ("X.contains('x')", ("error", "TypeError", "coordinate ring")),
    ("X.contains(None)", ("error", "TypeError", "coordinate ring")),
    ("X.contains([1, 2])", ("error", "TypeError", "coordinate ring")),
    ("X.contains(M.linear_relations()[0])", ("value", "True")),
    ("X.contains(M.coordinate_ring().gen(0))", ("value", "False")),
    ("Neurovariety(D).contains(D.coordinate_ring().gen(0))", ("error", "ValueError", "one lightning layer")),
    ("X.vanishing_ideal(algorithm='magic')", ("error", "ValueError", "algorithm")),
    ("X.vanishing_ideal(algorithm='interpolation', degree=0)", ("error", "ValueError", "degree")),
    ("X.vanishing_ideal(degree='x')", ("error", "TypeError", "degree")),
    ("Neurovariety(LightningAttention(d=6, t=2, a=2)).vanishing_ideal(algorithm='elimination')",
     ("error", "ComputationTooLarge", "force=True")),
    ("X.vanishing_ideal(algorithm='elimination') == M.parametrization().kernel()", ("value", "True")),
    ("Neurovariety(LightningAttention(d=2, t=2, a=2, entries=[(1, 1)])).degree()", ("value", "4")),
    ("X.minimal_generators_by_degree()", ("value", "{1: 4, 2: 3}")),
    ("X.invariants(['nope'])", ("error", "ValueError", "nope")),
    ("X.invariants(['low_rank'], rr=2)", ("error", "TypeError", "rr")),
    ("Neurovariety(S).vanishing_ideal()", ("error", "ValueError", "lightning")),
    # generation report
    ("generation_report(3)", ("error", "TypeError", "model")),
    ("generation_report(M, families=['nope'])", ("error", "ValueError", "nope")),
    ("generation_report(M, algorithm='magic')", ("error", "ValueError", "algorithm")),
    ("generation_report(S)", ("error", "ValueError", "lightning")),
    ("generation_report(M).families_generate", ("value", "True")),
    # invariants
    ("invariants(3)", ("error", "TypeError", "model")),
    ("invariants(M, families=5)", ("error", "TypeError", "families")),
    ("len(invariants(M, families='low_rank'))", ("value", "3")),
    ("invariants(LightningAttention(d=8, t=3, a=4, out=8))", ("error", "ComputationTooLarge", "force=True")),
    # minimal generators
    ("minimal_generators_count(3)", ("error", "TypeError", "ideal")),
    ("minimal_generators_count(PolynomialRing(QQ, 'x, y').ideal([PolynomialRing(QQ, 'x, y').gen(0)]))",
     ("value", "{1: 1}")),
    # export
    ("from_json(to_json(M)) is M", ("value", "True")),
    ("from_json(to_json(D)) is D", ("value", "True")),
    ("to_json('x')", ("error", "TypeError", "export")),
    ("to_json([])", ("error", "ValueError", "empty")),
    ("to_json(None)", ("error", "TypeError", "export")),
    ("to_latex(5)", ("error", "TypeError", "export")),
    ("to_macaulay2(None)", ("error", "TypeError", "export")),
    ("to_macaulay2([PolynomialRing(GF(4, 'a'), 'x, y').gen(0)])", ("error", "ValueError", "Macaulay2")),
    ("to_macaulay2(PolynomialRing(GF(7), 'x, y').ideal([PolynomialRing(GF(7), 'x, y').gen(0)])).splitlines()[1]",
     ("value", "'R = ZZ/7[x, y, MonomialOrder => GRevLex];'")),
    ("to_macaulay2([PolynomialRing(QQ, 'x, y').gen(0)]).splitlines()[-1]", ("value", "');'")),
    ("from_json('{')", ("error", "ValueError", "JSON")),
    ("from_json('[1]')", ("error", "ValueError", "export")),
    ("from_json(5)", ("error", "TypeError", "text")),
    ("from_json('{\"format\": \"sage_attention.model\", \"widths\": [0, 1], \"ranks\": [1], \"tokens\": 2}')",
     ("error", "SpecError", "width")),
    # base fields: exact or refused, never a wrong answer
    ("implicitize(LightningAttention(d=2, t=1, a=1, base_ring=GF(2)), 2)", ("error", "ValueError", "too few points")),
    ("implicitize(LightningAttention(d=2, t=1, a=1, base_ring=GF(4, 'a')), 2)", ("error", "ValueError", "prime fields")),
    ("implicitize(LightningAttention(d=2, t=1, a=1, base_ring=GF(2**31 + 11)), 2)", ("error", "ValueError", "2^23")),
    ("eliminate(LightningAttention(d=2, t=1, a=1, base_ring=GF(2**63 + 29)))", ("error", "ValueError", "2^29")),
    ("[g for g in eliminate(LightningAttention(d=2, t=1, a=1, base_ring=GF(2))).ideal.gens() if g]", ("value", "[]")),
    ("len(eliminate(LightningAttention(d=3, t=1, a=1, base_ring=GF(32003))).ideal.gens())", ("value", "35")),
    ("implicitize(LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)], base_ring=GF(1000003)), 2, prove=False).ideal == eliminate(LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)], base_ring=GF(1000003))).ideal", ("value", "True")),
    # a small prime field: points from GF(7^6); the dimension over QQ is 4 ([HMK2024])
    ("LightningAttention(d=2, t=2, a=1, base_ring=GF(7)).dimension(seed=0)", ("value", "4")),
    ("LightningAttention(d=2, t=2, a=1, base_ring=GF(4, 'a')).dimension(seed=0)", ("error", "ValueError", "GF(2)")),
    ("invariants(LightningAttention(d=2, t=2, a=1, base_ring=GF(2)), ['low_rank'])", ("error", "ValueError", "divide by 2 and 3")),
    ("len(invariants(LightningAttention(d=3, t=1, a=1, base_ring=GF(2**63 + 29)), ['brill']))", ("value", "35")),
    ("from_json(to_json(PolynomialRing(GF(4, 'a'), 'x, y').ideal([PolynomialRing(GF(4, 'a'), 'x, y').gen(0)])))[0].base_ring() is GF(4, 'a')", ("value", "True")),
    ("from_json(to_json(LightningAttention(d=2, t=1, a=1, base_ring=GF(9, 'c')))).base_ring() is GF(9, 'c')", ("value", "True")),
    ("str(from_json(to_json([PolynomialRing(__import__('sage.all__sagemath_singular', fromlist=['QuadraticField']).QuadraticField(2, 'r'), 1, 'x').gen()]))[0].base_ring().defining_polynomial())", ("value", "'x^2 - 2'")),
    ("to_json(PolynomialRing(__import__('sage.all__sagemath_singular', fromlist=['QQbar']).QQbar, 'x, y').ideal([PolynomialRing(__import__('sage.all__sagemath_singular', fromlist=['QQbar']).QQbar, 'x, y').gen(0)]))", ("error", "ValueError", "exactly")),
    ("from_json(to_json(Neurovariety(LightningAttention(d=1, t=1, a=1)).vanishing_ideal()))[1]", ("value", "[]")),
    # membership
    ("vanishes_on_model(M, 'x')", ("error", "TypeError", "coordinate ring")),
    ("vanishes_on_model(3, M.coordinate_ring().gen(0))", ("error", "TypeError", "model")),
    ("vanishes_on_model(M, M.linear_relations()[0], points=-1)", ("error", "ValueError", "points")),
    ("vanishes_on_model(M, M.linear_relations()[0], seed='x')", ("error", "TypeError", "seed")),
    ("vanishes_on_model(M, M.linear_relations()[0])", ("value", "True")),
    ("check_family(M, 3)", ("error", "TypeError", "family")),
    ("check_family(M, invariants(LightningAttention(d=2, t=2, a=2), ['linear']))", ("error", "ValueError", "belongs")),
    ("check_family(M, invariants(M, ['low_rank'])).all_vanish", ("value", "True")),
    # the memory guard of the invariant families: refused before anything is built
    ("invariants(LightningAttention(d=5, t=2, a=5), ['syzygies'])",
     ("error", "ComputationTooLarge", "force=True")),
    ("context_syzygies(LightningAttention(d=5, t=2, a=5))", ("error", "ComputationTooLarge", "force=True")),
    ("Neurovariety(LightningAttention(d=6, t=2, a=6)).invariants(['syzygies'])",
     ("error", "ComputationTooLarge", "force=True")),
    ("veronese_invariants(LightningAttention(d=4, t=2, a=4), r=4)", ("error", "ComputationTooLarge", "force=True")),
    ("chow_invariants(LightningAttention(d=4, t=1, a=1), limit=1)", ("error", "ComputationTooLarge", "force=True")),
    ("len(context_syzygies(LightningAttention(d=3, t=2, a=3), force=True))", ("value", "10")),
    ("len(veronese_invariants(LightningAttention(d=4, t=2, a=4), r=4, limit=2, force=True))", ("value", "2")),
    # dimensions never exceed the ambient dimension (the span); summed heads keep the slice
    ("__import__('sage_attention.variety.joins', fromlist=['x']).SummedHeads("
     "LightningAttention(d=2, t=2, a=1, out=2, entries=[(1, 1)]), 2).dimension(seed=0)", ("value", "6")),
    ("__import__('sage_attention.variety.joins', fromlist=['x']).SummedHeads("
     "LightningAttention(d=3, t=2, a=1, entries=[(1, 1)]), 2).dimension(seed=0)", ("value", "14")),
    ("LightningAttention(d=2, t=2, a=1, heads=1000).dimension(seed=0)", ("value", "6")),
    ("LightningAttention(d=1000, t=2, a=1, out=1).dimension(seed=0)",
     ("error", "ComputationTooLarge", "force=True")),
    ("LightningAttention(d=30, t=1000, a=1, out=30).dimension(seed=0)",
     ("error", "ComputationTooLarge", "force=True")),
    # multi-head, causal and residual models have no coordinates: refused, not crashed
    ("__import__('sage_attention.variety.certificates', fromlist=['x']).certify("
     "LightningAttention(d=2, t=2, a=1, heads=2), [0] * 20)", ("error", "ValueError", "dimension or fibers")),
    ("Neurovariety(LightningAttention(d=2, t=2, a=1, heads=2)).contains(1)",
     ("error", "ValueError", "dimension or fibers")),
    ("Neurovariety(LightningAttention(d=2, t=2, a=1, causal=True)).ambient()",
     ("error", "ValueError", "causal mask")),
    ("__import__('sage_attention.variety.singular_points', fromlist=['x']).singular_point("
     "LightningAttention(d=2, t=2, a=1, out=2, residual=True), "
     "LightningAttention(d=2, t=2, a=1, out=2, residual=True).random_weights(seed=0))",
     ("error", "ValueError", "residual stream")),
    ("invariants(LightningAttention(d=2, t=2, a=1, heads=2))", ("error", "ValueError", "several heads")),
    ("implicitize(LightningAttention(d=2, t=2, a=1, out=2, residual=True), 2)",
     ("error", "ValueError", "residual stream")),
    ("eliminate(LightningAttention(d=2, t=2, a=1, heads=3))", ("error", "ValueError", "several heads")),
    # the interpolation table guard: the same estimate as sage-attention check
    ("implicitize(LightningAttention(d=6, t=2, a=1, entries=[(1, 1)]), 4)",
     ("error", "ComputationTooLarge", "lower the degree")),
    # certificates print what they did and a check that runs
    ("'None' in __import__('sage_attention.variety.certificates', fromlist=['x']).certify("
     "LightningAttention(d=2, t=1, a=1), [1, 0, -2, 0]).reason", ("value", "False")),
    ("'Finite Field' in __import__('sage_attention.variety.certificates', fromlist=['x']).certify("
     "LightningAttention(d=1, t=2, a=1, base_ring=GF(7)), [1, 2, 1, 1]).check", ("value", "False")),
    # the deep model at degree 3: refused before its graded pieces are solved
    ("implicitize(LightningAttention(widths=[2, 2, 1], ranks=[1, 1], t=2), 3)",
     ("error", "ComputationTooLarge", "force=True")),
]

#: cases with their own limits ``(seconds, bytes of address space)``: the
#: refusal must come within the time (not after the work it guards) and fit
#: in the memory
CASE_LIMITS = {
    "invariants(LightningAttention(d=5, t=2, a=5), ['syzygies'])": (TIME_LIMIT, 4 * 2 ** 30),
    "context_syzygies(LightningAttention(d=5, t=2, a=5))": (TIME_LIMIT, 4 * 2 ** 30),
    "implicitize(LightningAttention(widths=[2, 2, 1], ranks=[1, 1], t=2), 3)": (30, MEMORY_LIMIT),
    # the rank stops at the span: an answer well within the time (50 heads took 4 s,
    # 1000 heads no answer in 70 s)
    "LightningAttention(d=2, t=2, a=1, heads=1000).dimension(seed=0)": (60, 6 * 2 ** 30),
    # refused before the 16 GB of directions are allocated (was a MemoryError)
    "LightningAttention(d=1000, t=2, a=1, out=1).dimension(seed=0)": (60, 6 * 2 ** 30),
    "implicitize(LightningAttention(d=6, t=2, a=1, entries=[(1, 1)]), 4)": (60, 6 * 2 ** 30),
}


def _run(case):
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    seconds, memory = CASE_LIMITS.get(case, (TIME_LIMIT, MEMORY_LIMIT))
    code = CHILD.format(mem=memory)
    return subprocess.run([sys.executable, "-c", code, case], capture_output=True, text=True,
                          timeout=seconds, env=env, cwd=ROOT)


@pytest.mark.parametrize("case,expected", CASES, ids=[c for c, _ in CASES])
def test_api_contract(case, expected):
    r = _run(case)
    assert r.returncode == 0, f"the child process died ({r.returncode}): {r.stderr[-2000:]}"
    assert "Traceback" not in r.stdout, r.stdout
    lines = dict(line.split(" ", 1) for line in r.stdout.splitlines() if " " in line)
    if expected[0] == "value":
        assert "VALUE" in lines, r.stdout + r.stderr[-2000:]
        assert lines["VALUE"] == expected[1]
    else:
        _, name, word = expected
        assert "ERROR" in lines, f"no error, got {r.stdout}"
        kind, origin = lines["ERROR"].split(" ", 1)
        assert origin == "ours", f"{kind} from {origin}: {lines.get('MESSAGE')}"
        assert kind == name, f"{kind}: {lines.get('MESSAGE')}"
        assert word.lower() in lines["MESSAGE"].lower(), lines["MESSAGE"]


def test_the_corpus_has_at_least_fifty_cases():
    assert len(CASES) >= 50
