"""
The default whole-ideal proof (``prove=None``) stops early when the generators found cannot be
the whole ideal, and still proves what it proved before.

A newcomer's ``vanishing_ideal up to degree 3`` on the README's slice took 31 s, of which 30 s a
localization that could not succeed: the slice has quartic generators, which its cubics miss.
The default proof now gives the localization a short first stage and then computes the next
degree when that is cheap (``strategy.next_degree_generators``); generators there end the
proof with that reason. The independent check: Singular's normal form over QQ modulo a Groebner
basis of the cubics truncated at degree 4 (exact in degree 4 for a homogeneous ideal) shows the
quartics found are not in the ideal of the cubics.
"""
from sage.all__sagemath_singular import QQ

from sage_attention import LightningAttention
from sage_attention.ideals import implicitization as I
from sage_attention.ideals.implicitization import implicitize
from sage_attention.settings import settings

SLICE = dict(d=3, t=2, a=2, out=1, entries=[(1, 1)])


def test_missing_quartics_end_the_default_proof_with_their_reason():
    M = LightningAttention(**SLICE)
    R = implicitize(M, 3, seed=0)
    assert not R.proved_complete
    assert "do not generate the whole ideal: degree 4 has 90 more minimal generators" in R.proof
    assert f"no proof was tried beyond {settings.PROOF_FIRST_SECONDS} s" in R.proof
    # independently: the quartics are not in the ideal of the cubics (exact, over QQ)
    cubics = list(R.essential_generators)
    E = cubics[0].parent()
    assert E.base_ring() is QQ
    quartics = implicitize(M, 4, seed=0, prove=False).generators_by_degree[4]
    GB = E.ideal(cubics).groebner_basis(deg_bound=4)
    outside = [g for g in quartics if g.reduce(GB) != 0]
    assert len(outside) == len(quartics) == 90


def test_the_complete_rows_are_still_proved_by_default():
    # the slice through degree 4 (cubics and quartics) and the rank-1 slice through degree 3
    R = implicitize(LightningAttention(**SLICE), 4, seed=0)
    assert R.proved_complete and R.generators_by_degree.keys() == {3, 4}
    R = implicitize(LightningAttention(d=3, t=2, a=1, out=1, entries=[(1, 1)]), 3, seed=0)
    assert R.proved_complete


def test_the_probe_is_skipped_beyond_its_monomials_and_a_proof_that_fails_is_kept():
    M = LightningAttention(**SLICE)
    # no probe (every degree too large): the localization gets its whole time, as before
    with settings.override(PROBE_MONOMIALS=1, PROOF_TIMEOUT=3):
        R = implicitize(M, 3, seed=0)
    assert not R.proved_complete and "do not generate the whole ideal" not in R.proof
    assert "did not finish in" in R.proof
    # the attempts say why the proof stopped: the probe passed (not computed), the localization ran out of
    # time in both stages, then the proof by inheritance (a matrix product) got the rest and failed too
    steps = [(A.technique, A.outcome) for A in R.certificate.attempts]
    assert steps[-4:] == [("localization", "not proved"), ("probe of degree 4", "passed"),
                          ("localization", "not proved"), ("inheritance", "not proved")]
    assert "then the proof by inheritance" in R.proof


def test_the_probe_counts_only_small_next_degrees():
    # (its count, 90 quartics, is checked against Singular's normal form above)
    M = LightningAttention(**SLICE)
    E = M.essential_ring()
    assert I._next_degree_generators(M, E, 4, 0) is None          # 26334 monomials of degree 5
    assert I._next_degree_generators(M, E, 0, 0) is None
