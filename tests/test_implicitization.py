"""
Tests of the implicitization engine against independent computations:
Singular elimination (``parametrization().kernel()``), exact composition with
the parametrization, homogeneity of the multigrading, executors, and
interruption / resume through the disk cache.
"""
import os
from concurrent.futures import ProcessPoolExecutor

import pytest

from sage.all__sagemath_singular import QQ  # noqa: F401  (initializes Sage)
from sage_attention import LightningAttention
from sage_attention.ideals.engine.grading import multigrading
from sage_attention.ideals import implicitization as impl
from sage_attention.ideals.implicitization import implicitize

from helpers import cli_env, span_rank


SMALL = [
    (dict(d=2, t=2, a=1, out=1, entries=[(1, 1)]), 4),
    (dict(d=2, t=2, a=2, out=1, entries=[(1, 1)]), 4),
    (dict(d=2, t=1, a=1, out=1), 3),
    (dict(d=2, t=1, a=1, out=2), 4),
    (dict(d=2, t=3, a=1, out=1, entries=[(1, 1)]), 3),
]


@pytest.mark.parametrize("kw,deg", SMALL)
def test_equals_elimination(kw, deg):
    M = LightningAttention(**kw)
    R = implicitize(M, deg, seed=1, executor=False)
    reference = M.parametrization().kernel()          # Singular, independent of the engine
    assert R.ideal == reference
    # degrees of the reference's minimal generators are within the bound
    phi = M.essential_parametrization()
    assert all(phi(g) == 0 for g in R.essential_generators)
    assert R.complete_through_degree == deg
    assert R.is_well_defined()


def test_d3_slice_degree3_contained_and_counts():
    # the slice d = 3, a = 1: the 45 2x2 minors of the flattening F (doc/mathematics.rst, §3)
    # are quadrics in the ideal; the degree 2 part must be exactly their span
    M = LightningAttention(d=3, t=2, a=1, out=1, entries=[(1, 1)])
    R = implicitize(M, 2, seed=3, executor=False)
    E = M.essential_ring()
    from sage.all__sagemath_singular import matrix
    T = M.cross_tensor(1)
    pairs = [(a, b) for a in range(1, 4) for b in range(a, 4)]
    F = matrix(E, [[T[(a, b, c)] for c in range(1, 4)] for (a, b) in pairs])
    minors = [E(m) for m in F.minors(2) if m != 0]
    J = E.ideal(minors)
    I2 = E.ideal(list(R.essential_generators))
    # same degree 2 part: each contains the other
    assert all(g in J for g in R.essential_generators)
    assert all(m.reduce(I2.groebner_basis()) == 0 for m in minors)
    assert R.ideal_dimensions[2] == len(R.generators_by_degree[2])


def test_single_token_d3_a1_quartics():
    # Singular's kernel does not finish quickly here (> 60 s): check instead that
    # every generator vanishes by composition and that the generators cut out a
    # set of the dimension of the variety (Jacobian rank, computed independently)
    M = LightningAttention(d=3, t=1, a=1, out=1)
    R = implicitize(M, 4, seed=2, executor=False, prove=False)
    phi = M.essential_parametrization()
    assert all(phi(g) == 0 for g in R.essential_generators)
    assert set(R.generators_by_degree) == {4}
    E = M.essential_ring()
    assert E.ideal(list(R.essential_generators)).dimension() == M.dimension(seed=0)


def test_grading_homogeneous():
    for kw in [dict(d=3, t=2, a=2, out=1), dict(d=3, t=1, a=1, out=3), dict(d=2, t=3, a=1, out=2)]:
        M = LightningAttention(**kw)
        phi = M.essential_parametrization()
        G = multigrading(phi)
        assert all(G.is_homogeneous(phi(e)) for e in M.essential_ring().gens())
        # the grading has at least the input scalings and the V, A scalings
        assert G.rank() >= M.d + 1


def test_process_executor():
    M = LightningAttention(d=2, t=1, a=1, out=2)
    ref = implicitize(M, 4, seed=2, executor=False)
    # Sage's C libraries are not thread-safe: executors must run processes
    with ProcessPoolExecutor(2) as ex:
        R2 = implicitize(M, 4, seed=2, executor=ex)
    assert ref.ideal == R2.ideal
    assert ref.ideal_dimensions == R2.ideal_dimensions


def test_dask_local_cluster():
    distributed = pytest.importorskip("distributed")
    M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
    with distributed.Client(n_workers=1, threads_per_worker=1, processes=True) as client:
        R = implicitize(M, 3, seed=0, executor=client.get_executor())
    assert R.ideal == M.parametrization().kernel()


def test_interrupt_and_resume(tmp_path, monkeypatch):
    M = LightningAttention(d=2, t=1, a=1, out=2)
    full = implicitize(M, 4, seed=5, executor=False)
    calls = {"n": 0}
    real = impl._run_piece

    def flaky(args):
        calls["n"] += 1
        if args[1] == 4 and calls["n"] > 3 and not flaky.interrupted:
            flaky.interrupted = True
            raise KeyboardInterrupt
        return real(args)
    flaky.interrupted = False
    monkeypatch.setattr(impl, "_run_piece", flaky)
    from sage_attention.misc.interrupts import ComputationInterrupted
    from sage_attention.ideals.engine.interpolation import resume_state
    with pytest.raises(ComputationInterrupted) as caught:
        implicitize(M, 4, seed=5, executor=False, cache_dir=str(tmp_path))
    part = caught.value.partial
    assert isinstance(caught.value, KeyboardInterrupt) and caught.value.phase == "interpolation"
    assert part.interrupted and part.complete_through_degree == 3
    assert not part.proved_complete
    stored = sum(len(f) for _, _, f in os.walk(tmp_path))
    assert stored > 0
    # resume from the disk: the session's memory of the run is cleared, so the pieces on disk
    # are reused and only the rest is computed
    resume_state()
    calls["n"] = 0
    monkeypatch.setattr(impl, "_run_piece", lambda args: (calls.__setitem__("n", calls["n"] + 1), real(args))[1])
    again = implicitize(M, 4, seed=5, executor=False, cache_dir=str(tmp_path))
    assert again.ideal == full.ideal and again.complete_through_degree == 4
    total = sum(again.solved_pieces.values())
    assert calls["n"] == total - stored


@pytest.mark.parametrize("kw,deg", [(dict(d=3, t=2, a=1, out=1, entries=[(1, 1)]), 3),
                                    (dict(d=2, t=1, a=1, out=2), 4),
                                    (dict(d=2, t=2, a=1, out=2), 3)])
def test_symmetry_gives_the_same_ideal(kw, deg):
    # solving one piece per orbit and mapping its generators gives the ideal
    # found by solving every piece (the images of the last degree are made
    # from their representative's polynomial, those below from exponents)
    M = LightningAttention(**kw)
    plain = implicitize(M, deg, seed=2, executor=False, symmetry=False)
    sym = implicitize(M, deg, seed=2, executor=False)
    assert sym.symmetry.order() > 1
    assert sum(sym.solved_pieces.values()) < sum(sym.pieces.values())
    assert sym.ideal_dimensions == plain.ideal_dimensions
    assert sym.ideal == plain.ideal
    phi = M.essential_parametrization()
    assert all(phi(g) == 0 for g in sym.essential_generators)


def test_symmetries_preserve_the_kernel():
    # every symmetry maps the elimination ideal (Singular) into itself
    from sage_attention.ideals.engine.symmetry import coordinate_symmetries
    for kw in [dict(d=2, t=1, a=1, out=2), dict(d=2, t=2, a=1, out=1, entries=[(1, 1)]),
               dict(d=2, t=2, a=1, out=1, entries=[(1, 1)], weight_space="AV", coordinate_scaling="scaled")]:
        M = LightningAttention(**kw)
        phi = M.essential_parametrization()
        E = phi.domain()
        I = phi.kernel()
        S = coordinate_symmetries(M)
        assert S.generators
        for g in S.generators:
            sub = E.hom([E.gen(g[i]) for i in range(E.ngens())])
            assert all(sub(f) in I for f in I.gens())


def test_reducible_cubics_octics_are_the_chow_minors():
    # t = 1, d = 3, a = 3: the cubic (v.x) x^T A x is a linear form times a
    # quadric. The engine finds no equation below degree 8 and a
    # 35-dimensional I_8; the 45 maximal minors of the Chow matrix
    # (doc/mathematics.rst, §4, an independent construction) span exactly it.
    from sage_attention.invariants import chow_invariants
    M = LightningAttention(d=3, t=1, a=3, out=1)
    R = implicitize(M, 8, seed=0, prove=False)
    assert list(R.generators_by_degree) == [8] and R.ideal_dimensions[8] == 35
    assert all(R.ideal_dimensions[k] == 0 for k in range(1, 8))
    engine = [g for g in R.ideal.gens() if g.degree() == 8]
    minors = list(chow_invariants(M).polynomials())
    assert len(minors) == 45
    assert span_rank(minors) == span_rank(engine) == span_rank(minors + engine) == 35


def _cache_files(root):
    return sorted(os.path.join(dp, f) for dp, _, fs in os.walk(root) for f in fs if f.endswith(".json"))


def _vanish(M, R):
    phi = M.essential_parametrization()
    return all(phi(g) == 0 for g in R.essential_generators)


@pytest.mark.parametrize("tamper", ["coefficient", "empty generators", "truncated", "empty file",
                                    "not json", "old format", "binary"])
def test_tampered_cache_is_detected_and_recomputed(tmp_path, tamper, caplog):
    import json
    import logging
    M = LightningAttention(d=2, t=1, a=1, out=2)
    full = implicitize(M, 4, seed=5, executor=False, cache_dir=str(tmp_path))
    files = [f for f in _cache_files(tmp_path) if '"-1"' in open(f).read()]
    assert files
    fn = files[0]
    text = open(fn).read()
    if tamper == "coefficient":
        new = text.replace('"-1"', '"-2"', 1)
    elif tamper == "empty generators":
        entry = json.loads(text)
        entry["piece"]["generators"] = []
        new = json.dumps(entry)
    elif tamper == "truncated":
        new = text[:len(text) // 2]
    elif tamper == "empty file":
        new = ""
    elif tamper == "not json":
        new = "hello"
    elif tamper == "old format":
        new = json.dumps(json.loads(text)["piece"])       # a bare piece, no checksum
    else:
        new = None
    if new is None:
        open(fn, "wb").write(b"\xff\xfe\x00garbage")
    else:
        open(fn, "w").write(new)
    calls = {"n": 0}
    real = impl._run_piece

    def counting(args):
        calls["n"] += 1
        return real(args)
    with caplog.at_level(logging.WARNING, logger="sage_attention"):
        orig = impl._run_piece
        impl._run_piece = counting
        try:
            again = implicitize(M, 4, seed=5, executor=False, cache_dir=str(tmp_path))
        finally:
            impl._run_piece = orig
    assert calls["n"] == 1                   # the tampered piece only, recomputed
    assert any("implicitization cache" in r.getMessage() for r in caplog.records)
    assert again.ideal == full.ideal == M.parametrization().kernel()
    assert _vanish(M, again)
    # the recomputed piece was written back, valid
    assert json.loads(open(fn).read())["piece"]["generators"]


_RACE = """
import sys, logging
from sage_attention import LightningAttention
from sage_attention.ideals.implicitization import implicitize
M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
R = implicitize(M, 4, seed=0, executor=False, cache_dir=sys.argv[1])
assert R.complete_through_degree == 4 and {k: len(v) for k, v in R.generators_by_degree.items()} == {2: 3}
print("ok")
"""


def test_two_processes_share_a_cache_directory(tmp_path):
    import subprocess
    import sys
    env = cli_env()
    for trial in range(3):
        d = str(tmp_path / f"c{trial}")
        procs = [subprocess.Popen([sys.executable, "-c", _RACE, d], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, env=env) for _ in range(2)]
        for p in procs:
            out, err = p.communicate(timeout=300)
            assert p.returncode == 0 and out.strip() == "ok", err
        assert not [f for _, _, fs in os.walk(d) for f in fs if f.endswith(".tmp")]


def test_echelon_form_in_a_worker_thread():
    # A Dask worker runs its tasks outside the main thread, where GF(p) (PARI) crashes;
    # a matrix wider than settings.NUMPY_ELIMINATION_COLUMNS goes through Sage's echelon form there.
    import threading
    import numpy as np
    from sage_attention.ideals.engine import linalg_modp
    from sage_attention.settings import settings
    rng = np.random.default_rng(0)
    p = settings.LINALG_PRIMES[0]
    small = settings.NUMPY_ELIMINATION_COLUMNS
    a = rng.integers(0, p, size=(small + 20, small + 40))
    a[5] = (3 * a[1] + a[2]) % p
    expected = linalg_modp.rref_modp(a, p)
    out = []
    t = threading.Thread(target=lambda: out.append(linalg_modp.rref_modp(a, p)))
    t.start()
    t.join()
    R, piv = out[0]
    assert piv == expected[1] and (R == expected[0]).all()
    assert len(piv) == a.shape[0] - 1
