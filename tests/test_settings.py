"""The settings: every tunable in one table with a default, a meaning and a section; the modules
read the setting when they run (a changed setting changes what a public function does); a
block's override is undone also on an error; and no module keeps a constant of its own for a
tunable, nor reads one through an old name.

The last two tests list the offenders by file and line (``offenders`` in the assertion).
"""
import ast
import io
import os

import pytest

from sage.all__sagemath_singular import GF, QQ, PolynomialRing  # noqa: F401  (initializes Sage)
from sage_attention.settings import SECTIONS, TUNABLES, Settings, _check, settings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "sage_attention")

#: Names that modules used for tunables before the settings (besides the tunables' own names).
OLD_NAMES = {"DEFAULT_CAP", "LINALG_PRIME", "PRIME", "PRIMES", "SMALL", "CLEAR_GAP", "HOPELESS",
             "MAX_SIZE", "MAX_DIGITS", "LINEAR_CHANGES", "SECOND_CUTS", "ELEMENTS_LIMIT",
             "JACOBIAN_ENTRY_LIMIT", "STACK_ELIMINATION_LIMIT"}
TUNABLE_NAMES = {t.name for t in TUNABLES}


@pytest.fixture(autouse=True)
def _defaults():
    """Every test starts and ends with the defaults."""
    settings.reset()
    yield
    settings.reset()


# -- the table ----------------------------------------------------------------------------


def test_every_tunable_has_a_default_a_doc_and_a_section():
    assert len(TUNABLE_NAMES) == len(TUNABLES), "a name is listed twice"
    for t in TUNABLES:
        assert t.name.isupper() and t.name.isidentifier(), t.name
        assert t.section in SECTIONS, t
        assert isinstance(t.doc, str) and len(t.doc) > 20, t
        assert _check(t, t.default) == t.default, t          # the default passes its own check
        assert settings.default(t.name) == t.default == getattr(settings, t.name)
    for section, doc in SECTIONS.items():
        assert doc and settings.names(section), section     # every section is documented and used
    text = settings.describe()
    assert all(f"  {n} = " in text for n in TUNABLE_NAMES)
    assert all(text.count(f"{s}: {d}") == 1 for s, d in SECTIONS.items())
    assert repr(settings).startswith("Settings of sage_attention:")
    assert set(dir(settings)) >= TUNABLE_NAMES


def test_values_are_checked():
    with pytest.raises(AttributeError, match="no tunable PROOF_TIMOUT .did you mean PROOF_TIMEOUT"):
        settings.PROOF_TIMOUT = 3
    with pytest.raises(AttributeError, match="no tunable NOTHING_LIKE_IT; settings.names"):
        settings.NOTHING_LIKE_IT
    for name, value, error in [("PROOF_TIMEOUT", 0, ValueError), ("PROOF_TIMEOUT", "5", TypeError),
                               ("PROOF_TIMEOUT", True, TypeError), ("MAX_SWEEP_ROWS", 2.5, TypeError),
                               ("MAX_SWEEP_ROWS", 0, ValueError), ("MEMORY_LIMIT", -1, ValueError),
                               ("MEMORY_LIMIT", "8G", ValueError), ("JACOBIAN_PRIME", 2 ** 20, ValueError),
                               ("LINALG_PRIMES", (), ValueError), ("LINALG_PRIMES", (7, 7), ValueError),
                               ("LINALG_PRIMES", (7, 9), ValueError), ("LINALG_PRIMES", 7, TypeError),
                               ("LINALG_PRIMES", (16777259,), ValueError),       # not below 2^23
                               ("HILBERT_PRIMES", (2 ** 31 - 1,), ValueError)]:  # not below 2^29
        with pytest.raises(error, match=name):
            setattr(settings, name, value)
        assert getattr(settings, name) == settings.default(name)   # a refused value changes nothing
    settings.MEMORY_LIMIT = 2 ** 30
    settings.LINALG_PRIMES = [8388587]
    assert settings.MEMORY_LIMIT == 2 ** 30 and settings.LINALG_PRIMES == (8388587,)
    settings.MEMORY_LIMIT = None
    assert settings.MEMORY_LIMIT is None


def test_override_restores_on_exceptions_and_reset():
    with pytest.raises(ZeroDivisionError):
        with settings.override(PROOF_TIMEOUT=5, MAX_SWEEP_ROWS=3):
            assert (settings.PROOF_TIMEOUT, settings.MAX_SWEEP_ROWS) == (5, 3)
            1 / 0
    assert (settings.PROOF_TIMEOUT, settings.MAX_SWEEP_ROWS) == (30, 10000)
    # a refused value in the middle: the ones set before it are restored too
    with pytest.raises(ValueError):
        with settings.override(PROOF_TIMEOUT=5, MAX_SWEEP_ROWS=0):
            pass
    assert settings.PROOF_TIMEOUT == 30
    # nested blocks, and a session value under them
    settings.PROOF_TIMEOUT = 12
    with settings.override(PROOF_TIMEOUT=1):
        with settings.override(PROOF_TIMEOUT=2):
            assert settings.PROOF_TIMEOUT == 2
        assert settings.PROOF_TIMEOUT == 1
    assert settings.PROOF_TIMEOUT == 12
    assert "PROOF_TIMEOUT = 12 (default 30)" in settings.describe("proofs")
    settings.reset("PROOF_TIMEOUT")
    assert settings.PROOF_TIMEOUT == 30
    # another Settings object does not share the values
    other = Settings(TUNABLES)
    other.PROOF_TIMEOUT = 7
    assert settings.PROOF_TIMEOUT == 30


def test_settings_load_no_sage():
    import subprocess
    import sys
    code = ("import sys; from sage_attention.settings import settings; settings.describe(); "
            "print(any(m == 'sage' or m.startswith('sage.') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=ROOT), timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


# -- the modules read the settings -----------------------------------------------------


def test_memory_limit_follows_the_setting_then_the_environment(monkeypatch):
    from sage_attention.misc import memory
    from sage_attention.misc.errors import ComputationTooLarge
    monkeypatch.setenv("SAGE_ATTENTION_MEMORY_LIMIT", "2M")
    assert memory.memory_limit() == 2 * 2 ** 20                # the environment, as before
    with settings.override(MEMORY_LIMIT=3 * 2 ** 20):
        assert memory.memory_limit() == 3 * 2 ** 20            # the setting comes first
        with pytest.raises(ComputationTooLarge, match=r"limit 3.0 MiB set by settings.MEMORY_LIMIT\)"):
            memory.check_memory(4 * 2 ** 20, "the table")
        memory.check_memory(4 * 2 ** 20, "the table", force=True)
    with pytest.raises(ComputationTooLarge, match=r"limit 2.0 MiB set by SAGE_ATTENTION_MEMORY_LIMIT\)"):
        memory.check_memory(4 * 2 ** 20, "the table")
    monkeypatch.delenv("SAGE_ATTENTION_MEMORY_LIMIT")
    with settings.override(MEMORY_CAP=5 * 2 ** 20):
        assert memory.memory_limit() <= 5 * 2 ** 20            # the cap bounds the default
    assert memory.DEFAULT_CAP == settings.MEMORY_CAP           # the old name reads the setting


def test_memory_setting_reaches_the_engine_guard():
    from sage_attention import LightningAttention
    from sage_attention.ideals.implicitization import implicitize
    from sage_attention.misc.errors import ComputationTooLarge
    M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
    with settings.override(MEMORY_LIMIT=1024):
        with pytest.raises(ComputationTooLarge, match="set by settings.MEMORY_LIMIT"):
            implicitize(M, 3, seed=0)


def test_primes_follow_the_settings():
    from sage_attention.ideals import hilbert
    from sage_attention.ideals.engine import linalg_modp
    from sage_attention.ideals.engine.product_span import residues
    from sage_attention.models.jacobian import rank_field
    from sage_attention.misc import randomness
    R = PolynomialRing(QQ, "x,y,z,w")
    x, y, z, w = R.gens()
    cubic = [x * z - y ** 2, y * w - z ** 2, x * w - y * z]
    assert hilbert.hilbert_data(cubic, R, betti=False).primes == (32003, 32009)
    with settings.override(HILBERT_PRIMES=(101, 103), LINALG_PRIMES=(7, 11), JACOBIAN_PRIME=65537,
                           MINIMUM_RANK_PRIME=17):
        H = hilbert.hilbert_data(cubic, R, betti=False)
        assert H.primes == (101, 103) and H.agree and H.degree == 3
        assert residues([QQ(1) / 2]).tolist() == [4]                        # 1/2 mod 7
        assert rank_field(None) is GF(65537)
        assert rank_field(GF(17)) is GF(17)
        # the old names read the settings too
        assert hilbert.PRIMES == (101, 103) and linalg_modp.PRIME == 7 and linalg_modp.PRIMES == (7, 11)
        assert randomness.LINALG_PRIME == 7 and randomness.JACOBIAN_PRIME == 65537
        assert randomness.MINIMUM_RANK_PRIME == 17
    with pytest.raises(ValueError, match="p >= 65536"):
        rank_field(GF(17))


def test_brill_uses_the_first_linear_algebra_prime(monkeypatch):
    from sage_attention import LightningAttention
    from sage_attention.invariants import brill
    seen = []
    real = brill._Span

    def spy(p):
        seen.append(p)
        return real(p)
    monkeypatch.setattr(brill, "_Span", spy)
    M = LightningAttention(d=3, t=1, a=1)
    n = len(brill.brill_invariants(M, seed=0))
    with settings.override(LINALG_PRIMES=(8388587,)):
        assert len(brill.brill_invariants(M, seed=0)) == n
    assert seen[0] == 8388593 and seen[-1] == 8388587


def test_numpy_elimination_columns(monkeypatch):
    import numpy as np
    from sage_attention.ideals.engine import linalg_modp
    calls = []
    real = linalg_modp._rref_numpy
    monkeypatch.setattr(linalg_modp, "_rref_numpy", lambda a, p: calls.append(a.shape) or real(a, p))
    a = np.random.default_rng(0).integers(1, 7, size=(4, 10))
    expected = linalg_modp.rref_modp(a, 7)
    assert calls == [(4, 10)]
    with settings.override(NUMPY_ELIMINATION_COLUMNS=5):
        R, piv = linalg_modp.rref_modp(a, 7)                    # through LinBox now
    assert calls == [(4, 10)] and piv == expected[1] and (R == expected[0]).all()


def test_progress_intervals():
    from sage_attention.misc.progress import Heartbeat, interruptible
    from sage_attention.misc import progress
    assert Heartbeat("x").interval == 1.0
    with settings.override(HEARTBEAT_INTERVAL=0.25, POLL_INTERVAL=0.05):
        assert Heartbeat("x").interval == 0.25
        assert Heartbeat("x", interval=2).interval == 2.0
        assert interruptible(pow, 2, 5) == 32
        assert progress.HEARTBEAT_INTERVAL == 0.25 and progress.POLL_INTERVAL == 0.05
    with settings.override(HEARTBEAT_INTERVAL=0.02):
        out = io.StringIO()
        import time
        with Heartbeat("step", stream=out):
            time.sleep(0.3)
        assert out.getvalue().count("\r") >= 3                 # ticks every 0.02 s, not every second


def test_dimension_time_estimate_and_warning(caplog):
    from sage_attention import LightningAttention
    from sage_attention.app.runners import jacobian_seconds, run_dimension
    from sage_attention.dsl.spec import Computation
    M = LightningAttention(widths=[2, 2, 1], ranks=[1, 1], t=1)
    s = jacobian_seconds(M)
    with settings.override(JACOBIAN_STEP_SECONDS=2 * settings.JACOBIAN_STEP_SECONDS):
        assert jacobian_seconds(M) == pytest.approx(2 * s)
    with caplog.at_level("WARNING", logger="sage_attention"):
        run_dimension(M, Computation("m", "dimension"), {"seed": 0})
        assert "this may take" not in caplog.text
        with settings.override(SLOW_DIMENSION_SECONDS=s / 2):
            run_dimension(M, Computation("m", "dimension"), {"seed": 0})
    assert "dimension of model `m`: this may take" in caplog.text


def test_softmax_clear_gap():
    from sage_attention.models.softmax import numerical_dimension
    from sage_attention import SoftmaxAttention
    M = SoftmaxAttention(d=2, t=2, a=1)
    assert numerical_dimension(M, seed=0).warning is None
    with settings.override(SOFTMAX_CLEAR_GAP=1e300):
        R = numerical_dimension(M, seed=0)
    assert "is below 1e+300: the rank is not clear" in R.warning


def test_batch_limits(capsys):
    from sage_attention.app.cli import main
    from sage_attention.app.filling import filling_frontier
    from sage_attention.app.sweeps import UsageError
    with settings.override(MAX_SWEEP_ROWS=3):
        assert main(["sweep", "--width", "1..5", "--json"]) == 2
    assert "more than 3 values" in capsys.readouterr().err
    # the exhaustive search visits the box (at most MAX_FILLING_ROWS), the frontier search at most
    # MAX_FILLING_BOX architectures and computes at most MAX_FILLING_ROWS ranks
    with settings.override(MAX_FILLING_ROWS=8):
        with pytest.raises(UsageError, match="up to 9 architectures, more than 8"):
            filling_frontier(2, 1, 3, 2, max_width=3, exhaustive=True)
    with settings.override(MAX_FILLING_BOX=8):
        with pytest.raises(UsageError, match="up to 9 architectures, more than 8"):
            filling_frontier(2, 1, 3, 2, max_width=3)
    with settings.override(MAX_FILLING_ROWS=1):
        with pytest.raises(UsageError, match="computed 1 ranks"):
            filling_frontier(2, 2, 3, 3, max_width=5)       # two minimal architectures: two ranks


def test_spec_bytes_limit_of_the_command_line(tmp_path, capsys):
    from sage_attention.app.cli import main
    f = tmp_path / "m.att"
    f.write_text("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n")
    assert main(["check", str(f)]) == 0
    with settings.override(MAX_SPEC_BYTES=20):
        assert main(["check", str(f)]) == 2
    assert "the limit of 20 bytes" in capsys.readouterr().err


def test_invariant_work_limit_of_certify():
    from sage_attention import LightningAttention
    from sage_attention.misc.errors import ComputationTooLarge
    from sage_attention.variety.certificates import certify
    M = LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)])
    C = M.coordinate_ring()
    p = M.coefficients_at(M.random_weights(seed=1))
    e = [p[C.gens().index(x)] for x in M.essential_coordinates()]
    e[0] += 1
    q = [f(*e) for f in M.to_essential().im_gens()]
    assert certify(M, q).status == "not realizable"
    with settings.override(MAX_INVARIANT_WORK=1):
        with pytest.raises(ComputationTooLarge, match=r"minors \(limit 1\)"):
            certify(M, q)
        assert certify(M, q, force=True).status == "not realizable"


# -- no module keeps its own copy -------------------------------------------------------


def _modules():
    for dirpath, _, files in os.walk(PACKAGE):
        for f in sorted(files):
            if f.endswith(".py") and f != "settings.py":
                path = os.path.join(dirpath, f)
                with open(path, encoding="utf-8") as fh:
                    yield os.path.relpath(path, ROOT), ast.parse(fh.read(), path)


def _module_level(body):
    """The statements run at import (module level, inside if/try blocks, not in functions)."""
    for node in body:
        yield node
        if isinstance(node, (ast.If, ast.Try, ast.With)):
            for block in ("body", "orelse", "finalbody"):
                yield from _module_level(getattr(node, block, []))
            for h in getattr(node, "handlers", []):
                yield from _module_level(h.body)


def test_no_module_defines_a_tunable_as_a_constant():
    offenders = []
    for rel, tree in _modules():
        for node in _module_level(tree.body):
            names = []
            if isinstance(node, ast.Assign):
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names = [node.target.id]
            elif isinstance(node, ast.ImportFrom):
                names = [a.asname or a.name for a in node.names]
            offenders += [f"{rel}:{node.lineno}: {n}" for n in names if n in TUNABLE_NAMES | OLD_NAMES]
    assert not offenders, "constants of tunables (read settings.NAME instead):\n" + "\n".join(offenders)


def test_no_module_reads_a_tunable_through_an_old_name():
    """No import of an old name, no ``module.OLD_NAME``, no default argument that reads a setting
    (a default is read once, when the function is defined)."""
    offenders = []
    for rel, tree in _modules():
        modules = set()           # names bound to package modules
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules |= {a.asname for a in node.names if a.asname and a.name.startswith("sage_attention")}
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sage_attention"):
                for a in node.names:
                    if os.path.exists(os.path.join(ROOT, *(node.module + "." + a.name).split(".")) + ".py"):
                        modules.add(a.asname or a.name)
                    elif a.name in TUNABLE_NAMES | OLD_NAMES:
                        offenders.append(f"{rel}:{node.lineno}: from {node.module} import {a.name}")
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in modules and node.attr in TUNABLE_NAMES | OLD_NAMES):
                offenders.append(f"{rel}:{node.lineno}: {node.value.id}.{node.attr}")
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                for default in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
                    for sub in ast.walk(default):
                        if isinstance(sub, ast.Name) and sub.id in {"settings"} | TUNABLE_NAMES | OLD_NAMES:
                            offenders.append(f"{rel}:{default.lineno}: a default reads {sub.id}")
    assert not offenders, "tunables read through old names:\n" + "\n".join(sorted(set(offenders)))
