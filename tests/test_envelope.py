"""
Verification of the engine's generators through the factored parametrization.

The engine proves each generator it returns by exact composition. With
weights (Q, K, V) the parametrization factors as phi = L o psi, psi the map
with generic attention matrices A = K^T Q (ideals/evaluation.envelope_images
checks this identity); a polynomial that vanishes on psi vanishes on phi. The
tests compose the generators with the free parametrization of the membership
test (variety/membership, in Sage: not the path the engine uses), and check
that a polynomial outside the ideal is refused.
"""
import numpy as np
import pytest

from sage_attention import LightningAttention
from sage_attention.ideals.engine.evaluation import EvaluationContext, envelope_images
from sage_attention.ideals.implicitization import implicitize
from sage_attention.ideals.engine.product_span import verify_exactly


def _images(M):
    E = M.essential_ring()
    phi = M.essential_parametrization()
    return E, [phi(x) for x in E.gens()]


def _exponents(g):
    return np.array([list(e) for e in g.exponents()]), [g.monomial_coefficient(m) for m in g.monomials()]


@pytest.mark.parametrize("M", [LightningAttention(d=3, t=1, a=3), LightningAttention(d=3, t=1, a=2)],
                         ids=["token-d3-a3", "token-d3-a2"])
def test_token_octics_vanish_on_the_parametrization(M):
    # the 35 octics of the single tokens of width 3 (found and verified through the envelope)
    # (composed by the membership test of the neurovariety: its own free parametrization, in Sage)
    R = implicitize(M, 8, seed=0, prove=False, executor=False)
    octics = [g for g in R.essential_generators if g.degree() == 8]
    assert len(octics) == 35
    X = M.neurovariety()
    assert all(X.contains(g) for g in (octics if M.ranks == (3,) else octics[::7]))


def test_identity_is_checked():
    M = LightningAttention(d=3, t=1, a=2)
    E, images = _images(M)
    psi = envelope_images(M, images, E)
    assert psi is not None and len(psi) == E.ngens()
    assert psi[0].parent().ngens() < images[0].parent().ngens()
    # images that are not the model's: no envelope (the identity L(psi) = phi fails)
    assert envelope_images(M, images[1:] + images[:1], E) is None
    assert envelope_images(M, [f + 1 for f in images], E) is None
    # a model without the other weight space, or already with generic A
    assert envelope_images(M.with_weight_space("AV"), images, E) is None
    H = LightningAttention(d=2, t=2, a=1, heads=2)
    assert envelope_images(H, [], None) is None


def test_non_members_are_refused_with_the_envelope():
    # a < d: psi's image (generic A) is larger than the variety; t = 1: psi's image is the variety
    for M in (LightningAttention(d=3, t=2, a=1, out=1, entries=[(1, 1)]), LightningAttention(d=3, t=1, a=3)):
        E, images = _images(M)
        ctx = EvaluationContext(images, E, seed=0, envelope=envelope_images(M, images, E))
        x = E.gens()
        for f in (x[0] * x[1] - x[2] ** 2, x[0] ** 2, x[0] - x[1], x[0] ** 3 * x[-1] - x[1] ** 4):
            assert f(*images) != 0
            assert not verify_exactly(ctx, *_exponents(f))


def test_members_outside_the_envelope_are_verified_on_phi():
    # the d = 3, a = 1 slice: its quadrics (2-minors of the rank condition) do not vanish on generic A
    M = LightningAttention(d=3, t=2, a=1, out=1, entries=[(1, 1)])
    E, images = _images(M)
    ctx = EvaluationContext(images, E, seed=0, envelope=envelope_images(M, images, E))
    g = next(g for g in implicitize(M, 2, seed=0, prove=False, executor=False).essential_generators
             if g.degree() == 2)
    assert g(*images) == 0 and g(*ctx.envelope) != 0
    assert ctx.envelope_useful
    assert verify_exactly(ctx, *_exponents(g))
    assert not ctx.envelope_useful      # psi is no longer tried first
    assert verify_exactly(ctx, *_exponents(g))
