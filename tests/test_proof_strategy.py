"""
The proofs behind one protocol (sage_attention.ideals.proofs): the registry is looked up by question,
the strategy records every attempt and why it stopped, and a technique that claims a proof it cannot
verify never proves anything.

The independent checks: the slice of width 3 and rank 2 through degree 3 misses 90 quartic generators
(tests/test_default_proof_stages.py checks them with Singular's normal form), so any claim that its
cubics generate the whole ideal is false; a liar technique that makes that claim must be rejected.
"""
from dataclasses import dataclass

import pytest

from sage.all__sagemath_singular import QQ, PolynomialRing

from sage_attention import LightningAttention
from sage_attention.ideals.implicitization import implicitize
from sage_attention.ideals.proofs import registry
from sage_attention.ideals.proofs.problem import WHOLE_IDEAL, ProofProblem
from sage_attention.ideals.proofs.protocol import ProofCertificate, accepted
from sage_attention.ideals.proofs.registry import Technique, technique, techniques
from sage_attention.ideals.proofs.strategy import prove_in_order, prove_whole_ideal, run_technique
from sage_attention.settings import settings

SLICE = dict(d=3, t=2, a=2, out=1, entries=[(1, 1)])


@dataclass
class LiarCertificate(ProofCertificate):
    """Claims the whole ideal, and its verify() says the truth: it does not hold."""
    proved: bool
    reason: str
    technique = "liar"
    label = "by assertion"

    def verify(self):
        return False

    def to_dict(self):
        return {"proved": self.proved, "reason": self.reason}

    def __repr__(self):
        return f"Liar certificate: {self.reason}"


def liar_applies(problem):
    return None


def liar_prove(problem, timeout):
    return LiarCertificate(True, "trust me: the generators are the whole ideal")


def nothing_applies(problem):
    return "never applies (a test entry)"


LIAR = Technique("liar", WHOLE_IDEAL, f"{__name__}.liar_applies", f"{__name__}.liar_prove", "by assertion",
                 __name__, doc="a technique that claims a proof it cannot verify (a test)")


def test_registry_lookup_by_question():
    names = [T.name for T in techniques(WHOLE_IDEAL)]
    assert names[:4] == ["segre", "subspace", "inheritance", "birational"] and names[-1] == "localization"
    assert registry.QUESTIONS == (WHOLE_IDEAL, "ED degree")
    assert all(T.question == WHOLE_IDEAL and T.module.startswith("sage_attention.ideals.proofs.") for T in
               techniques())
    assert [T.name for T in techniques("ED degree")] == ["critical ideal", "parametrization chart"]
    assert technique("inheritance").applies_function().__name__ == "applies"
    assert technique("localization").role == "primality"
    with pytest.raises(ValueError, match="no question 'volume' in the registry; there are: 'whole ideal', 'ED degree'"):
        techniques("volume")
    with pytest.raises(ValueError, match="no technique 'magic' for the question 'whole ideal'"):
        technique("magic")


def test_a_new_question_is_a_new_key(monkeypatch):
    ed = Technique("generic count", "volume", f"{__name__}.nothing_applies", f"{__name__}.liar_prove",
                   "by counting", __name__)
    before = techniques(WHOLE_IDEAL)
    monkeypatch.setattr(registry, "TECHNIQUES", registry.TECHNIQUES + (ed,))
    assert registry.questions() == (WHOLE_IDEAL, "ED degree", "volume")
    assert techniques("volume") == (ed,)
    assert technique("generic count", "volume") is ed
    assert techniques(WHOLE_IDEAL) == before
    with pytest.raises(ValueError):
        technique("generic count")            # not a technique of the whole ideal


def test_the_attempts_say_why_each_technique_stopped_or_did_not_apply():
    M = LightningAttention(**SLICE)
    R = implicitize(M, 3, seed=0)
    assert not R.proved_complete and "degree 4 has 90 more minimal generators" in R.proof
    attempts = R.certificate.attempts
    steps = [(A.technique, A.outcome) for A in attempts]
    assert steps == [("segre", "not applicable"), ("subspace", "not applicable"), ("birational", "not applicable"),
                     ("catalecticant", "not applicable"), ("localization", "not proved"),
                     ("probe of degree 4", "stopped the proof")]
    why = {A.technique: A.reason for A in attempts}
    assert why["segre"] == "the parametrization is no Segre product"
    assert why["subspace"] == "the forms have 3 features and 3 linear forms: no fewer features to inherit from"
    assert why["birational"].startswith("tried only when prove is given")
    assert why["probe of degree 4"] == "90 more minimal generators of degree 4"
    assert all(A.seconds >= 0 and A.reason for A in attempts)
    # the JSON keeps the keys of earlier versions and adds the attempts
    D = R.certificate.to_dict()
    assert {"proved", "reason", "prime", "dimension", "method", "minimal_primes", "hilbert", "localization",
            "segre", "inheritance", "subspace", "birational", "timings"} <= set(D)
    assert [A["outcome"] for A in D["attempts"]][-1] == "stopped the proof" and D["technique"] is None


def test_the_proof_that_succeeded_and_the_old_slots():
    M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
    R = implicitize(M, 2, seed=0)
    C = R.certificate
    assert R.proved_complete and C.technique == C.method == "segre" and C.proof is C.segre and C.verify()
    assert C.inheritance is None and C.subspace is None and C.birational is None and C.primality is None
    assert C.attempts[-1].technique == "segre" and C.attempts[-1].certificate is C.proof
    with pytest.raises(AttributeError):
        C.segre = None                          # read-only: the slots are views of the attempts
    html = C._repr_html_()
    assert "<th>Segre block</th>" in html and "attempt: subspace" in html


def test_a_technique_that_claims_a_proof_it_cannot_verify_is_never_accepted(monkeypatch):
    # directly: the claim is rejected, and says why
    M = LightningAttention(**SLICE)
    R = implicitize(M, 3, seed=0, prove=False)
    problem = ProofProblem(M.essential_ring(), R.essential_generators, 3, model=M, seed=0)
    C, A = run_technique(LIAR, problem, 10)
    assert C.proved and A.outcome == "rejected" and "verify() does not hold" in A.reason
    assert accepted(C, "liar", recheck=True)[0] is False
    assert accepted(C, "segre")[0] is False                # a certificate of another technique
    # in the strategy: registered first, it is tried first, rejected, and the proof goes on without it
    monkeypatch.setattr(registry, "TECHNIQUES", (LIAR,) + registry.TECHNIQUES)
    with settings.override(PROOF_TIMEOUT=3):
        proved, sentence, C = prove_whole_ideal(problem)
    assert not proved and not C.proved and C.proof is None and not C.verify()
    steps = [(A.technique, A.outcome) for A in C.attempts]
    assert ("liar", "rejected") in steps and ("localization", "not proved") in steps
    assert all(outcome != "proved" for _, outcome in steps)
    assert "trust me" not in sentence and "verify() does not hold" in sentence


def test_a_recursive_proof_goes_through_the_strategy():
    # the Veronese surface: no Segre product, proved by the localization, both recorded
    P = PolynomialRing(QQ, "v1,v2,v3")
    U = PolynomialRing(QQ, "u", 6)
    v = P.gens()
    psi = U.hom([v[i] * v[j] for i in range(3) for j in range(i, 3)], P)
    from sage_attention.ideals.engine.graded_kernel import graded_kernel
    G = graded_kernel(psi, 2, seed=0)[2]
    C = prove_in_order(ProofProblem.for_map(psi, G, 2, 3), ["segre"])
    assert C.proved and C.method == "localization" and C.verify()
    assert [(A.technique, A.outcome) for A in C.attempts] == [("segre", "not proved"), ("localization", "proved")]
    # the factor of a Segre product is proved the same way, inside the Segre certificate
    M = LightningAttention(d=3, t=2, a=1, out=1, entries=[(1, 1)])
    R = implicitize(M, 3, seed=0)
    Y = R.certificate.segre.factor_certificate
    assert R.proved_complete and Y.proved and [A.technique for A in Y.attempts][0] == "segre"
