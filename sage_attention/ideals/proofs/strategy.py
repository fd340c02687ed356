r"""
The strategy: the techniques of the registry, tried in order within a time budget

:func:`prove_whole_ideal` answers the question "do the generators found
generate the whole vanishing ideal?" for
:func:`~sage_attention.ideals.implicitization.implicitize`. It reads the
techniques from the registry (:mod:`sage_attention.ideals.proofs.registry`),
tests which apply to the problem (:mod:`sage_attention.ideals.proofs.problem`),
runs them, accepts a claimed proof only through the protocol
(:func:`~sage_attention.ideals.proofs.protocol.accepted`), and records every
technique it considered as an :class:`~sage_attention.ideals.proofs.protocol.Attempt`
(seconds, outcome, and why it stopped or did not apply) in the
certificate's ``attempts``.

The policy (``prove``):

- ``False`` tries nothing; an interrupted run and a field other than `\QQ`
  or a prime field are not tested either.
- ``None`` (the default) gives the proof ``settings.PROOF_TIMEOUT``
  seconds. Beyond ``settings.PROOF_TERMS_LIMIT`` terms it tries only the
  structure techniques placed there (none: "not tested", naming the limits
  that stopped them), and nothing after them. Within it, a structure
  technique placed ``'first'`` runs before the primality proof (which then
  gets the rest of the time); with none, the primality proof runs in two
  stages: ``settings.PROOF_FIRST_SECONDS`` seconds (or
  ``settings.PROOF_FIRST_FACTOR`` times the engine's seconds, if more),
  then, when it has not finished, the next degree is probed
  (:func:`next_degree_generators`, at most ``settings.PROBE_MONOMIALS``
  monomials): new generators there end the proof (they are missing), else
  the rest of the time. Then the techniques placed after it, with the rest
  of the time.
- ``True`` or a number of seconds (``settings.PROOF_TIMEOUT_FORCED`` for
  ``True``): no terms limit and no size limits, the primality proof with a
  primary decomposition after a failed localization, and every technique,
  in its place.

A recursive proof (the ideal of a smaller variety on which a structure
technique rests) goes through :func:`prove_in_order`: the named techniques
in order, then the primality proof with the rest of the time.

EXAMPLES:

The one-entry slice of rank one is a Segre product: its proof needs no
Gröbner basis of the generators, and the attempts say so::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.ideals.implicitization import implicitize
    sage: from sage_attention.ideals.proofs.problem import ProofProblem
    sage: from sage_attention.ideals.proofs.strategy import prove_whole_ideal
    sage: M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
    sage: R = implicitize(M, 2, seed=0, prove=False)
    sage: P = ProofProblem(M.essential_ring(), R.essential_generators, 2, model=M, seed=0)
    sage: proved, sentence, C = prove_whole_ideal(P)
    sage: proved, C.technique
    (True, 'segre')
    sage: [(A.technique, A.outcome) for A in C.attempts]
    [('subspace', 'not applicable'), ('inheritance', 'not applicable'), ('birational', 'not applicable'),
     ('catalecticant', 'not applicable'), ('segre', 'proved')]
    sage: C.attempts[0].reason
    'the parametrization is a Segre product (proved by that technique)'
"""
import logging
import time

from sage_attention.settings import settings
from sage_attention.misc.progress import Heartbeat
from sage_attention.ideals.proofs.problem import WHOLE_IDEAL
from sage_attention.ideals.proofs.protocol import Attempt, OverLimit, accepted
from sage_attention.ideals.proofs.registry import technique, techniques

logger = logging.getLogger("sage_attention")


def _limit(timeout):
    return "no time limit" if timeout is None else f"at most {timeout:.0f} s"


def _rest(timeout, started):
    return None if timeout is None else max(timeout - (time.time() - started), 1)


def run_technique(T, problem, timeout, **options):
    r"""
    Run the prover of the technique ``T`` on ``problem``; return ``(certificate, attempt)``.

    A structure technique is shown with a heartbeat (``problem.progress``);
    its claim is accepted only through
    :func:`~sage_attention.ideals.proofs.protocol.accepted` (``verify()``
    too when the registry asks): a claim that is not accepted is recorded
    as ``'rejected'``, and the certificate returned is then marked not proved.

    INPUT:

    - ``T`` -- a :class:`~sage_attention.ideals.proofs.registry.Technique`
    - ``problem`` -- a :class:`~sage_attention.ideals.proofs.problem.ProofProblem`
    - ``timeout`` -- seconds, or ``None``
    - ``options`` -- passed to the prover (the primality proof's ``method``
      and ``symmetries``)

    OUTPUT: the certificate and an :class:`~sage_attention.ideals.proofs.protocol.Attempt`

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.problem import ProofProblem
        sage: from sage_attention.ideals.proofs.registry import technique
        sage: from sage_attention.ideals.proofs.strategy import run_technique
        sage: R.<x,y,z> = QQ[]
        sage: P = ProofProblem(R, [x*y - z^2], 2, dimension_bound=2, parametrization=R.hom([x, y, z], R))
        sage: C, A = run_technique(technique('localization'), P, 10); A.outcome, C.technique
        ('proved', 'localization')
        sage: C, A = run_technique(technique('segre'), P, 10); A.technique, A.outcome
        ('segre', 'not proved')
    """
    t0 = time.time()
    prover = T.prover_function()
    if T.role == "primality":
        C = prover(problem, timeout, **options)
        ok = bool(C.proved) and (not T.recheck or C.verify() is True)
        why = C.reason if not C.proved else ("" if ok else "the certificate claims a proof, but its verify() does "
                                             "not hold: not accepted")
    else:
        with Heartbeat(f"completeness proof {T.label} ({_limit(timeout)})", problem.progress):
            C = prover(problem, timeout, **options)
        ok, why = accepted(C, T.name, T.recheck)
    seconds = time.time() - t0
    if ok:
        return C, Attempt(T.name, seconds, "proved", C.reason, C)
    if getattr(C, "proved", False) is True:
        logger.warning("the technique %s claims a proof that is not accepted: %s", T.name, why)
        return C, Attempt(T.name, seconds, "rejected", why, C)
    return C, Attempt(T.name, seconds, "not proved", why, C)


def conclude(problem, S, attempt, method, timeout, started, attempts=()):
    r"""
    Return the completeness certificate after the structure technique of ``attempt``: proved by it, or the primality proof after it.

    The rest of the time (from ``started``) goes to the primality proof
    with ``method``, unless ``method`` is the technique's name (then
    nothing else is tried); its failure reason then says why the structure
    technique failed too.

    INPUT:

    - ``problem`` -- the :class:`~sage_attention.ideals.proofs.problem.ProofProblem`
    - ``S``, ``attempt`` -- what :func:`run_technique` returned
    - ``method`` -- a method of the primality proof, or the technique's name
    - ``timeout``, ``started`` -- the budget and when it started
    - ``attempts`` -- (default: ``()``) earlier attempts, kept first

    OUTPUT: a :class:`~sage_attention.ideals.proofs.completeness.CompletenessCertificate`

    EXAMPLES::

        sage: import time
        sage: from sage_attention.ideals.proofs.problem import ProofProblem
        sage: from sage_attention.ideals.proofs.strategy import conclude, run_technique
        sage: from sage_attention.ideals.proofs.registry import technique
        sage: R.<x,y,z> = QQ[]
        sage: P = ProofProblem(R, [], 2, dimension_bound=3, parametrization=R.hom([x, y, z], R))
        sage: S, A = run_technique(technique('segre'), P, 10)
        sage: conclude(P, S, A, 'segre', 10, time.time()).proved
        False
        sage: conclude(P, S, A, 'localization', 10, time.time()).method
        'zero ideal'
    """
    from sage_attention.ideals.proofs.certificate import CompletenessCertificate
    T = technique(attempt.technique, problem.question)
    p, n = problem.prime, int(problem.dimension())
    seconds = time.time() - started
    if attempt.outcome == "proved":
        return CompletenessCertificate(True, "the ideal found is the whole vanishing ideal: " + S.reason, p, n,
                                       proof=S, attempts=list(attempts) + [attempt],
                                       hilbert=getattr(S, "hilbert", None), timings={T.name: seconds})
    if method == T.name:
        return CompletenessCertificate(False, f"{attempt.reason} (proof {T.label}: {T.module})", p, n,
                                       attempts=list(attempts) + [attempt], timings={T.name: seconds})
    L = [U for U in techniques(problem.question) if U.role == "primality"][0]
    C, A = run_technique(L, problem, _rest(timeout, started), method=method)
    C.attempts = list(attempts) + [attempt] + list(C.attempts)
    if not C.proved:
        # say why the structured proof failed too: its time is most of the limit
        C.reason = f"{C.reason.rstrip('.')} (before it, the proof {T.label}: {attempt.reason})"
    C.timings[T.name] = time.time() - started - C.timings.get("total", 0)
    return C


def concluded(problem, S, seconds=0, timings=None):
    r"""
    Return the completeness certificate of the certificate ``S`` of a structure technique, made already, with nothing tried after it.

    For a recursive proof whose structure certificate was made in a forked
    child (:func:`~sage_attention.ideals.proofs.subspace.subspace_kernel`,
    :func:`~sage_attention.ideals.proofs.birational.birational_kernel`): the
    claim is accepted as the strategy accepts any (:func:`run_technique`).

    INPUT:

    - ``problem`` -- the :class:`~sage_attention.ideals.proofs.problem.ProofProblem` of the smaller variety
    - ``S`` -- a certificate of the protocol
    - ``seconds`` -- (default: `0`) the seconds it took
    - ``timings`` -- (default: ``None``) the timings of the certificate returned

    OUTPUT: a :class:`~sage_attention.ideals.proofs.completeness.CompletenessCertificate`

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.problem import ProofProblem
        sage: from sage_attention.ideals.proofs.protocol import ZeroIdealCertificate
        sage: from sage_attention.ideals.proofs.segre import segre_certificate
        sage: from sage_attention.ideals.proofs.strategy import concluded
        sage: R.<x,y,z> = QQ[]; phi = R.hom([x, y, z], R)
        sage: C = concluded(ProofProblem.for_map(phi, [], 2, 3), segre_certificate([], phi, 2)); C.proved
        False
        sage: C.reason.endswith('(proof by a Segre product: sage_attention.ideals.proofs.segre)')
        True
    """
    T = technique(S.technique, problem.question)
    ok, why = accepted(S, T.name, T.recheck)
    A = Attempt(T.name, seconds, "proved" if ok else "rejected" if S.proved else "not proved",
                S.reason if ok else why, S)
    C = conclude(problem, S, A, T.name, None, time.time() - seconds)
    if timings is not None:
        C.timings = dict(timings)
    return C


def prove_in_order(problem, names, timeout=None, method="localization"):
    r"""
    Return the completeness certificate of ``problem`` by the techniques ``names``, in order, then the primality proof.

    Each named technique runs with the rest of the time, whether or not it
    applies (its certificate then says why not); the first that proves
    wins. Then the rest goes to the primality proof with ``method``,
    unless ``method`` is the last technique's name. This is the path of
    the recursive proofs (the factor of a Segre product, the variety of a
    few columns, the base of fewer features) and of the functions
    ``segre_completeness``, ``inheritance_completeness``, ...

    INPUT:

    - ``problem`` -- a :class:`~sage_attention.ideals.proofs.problem.ProofProblem`
    - ``names`` -- names of structure techniques of ``problem.question``
    - ``timeout`` -- (default: ``None``, no limit) seconds
    - ``method`` -- (default: ``'localization'``) as in :func:`conclude`

    OUTPUT: a :class:`~sage_attention.ideals.proofs.completeness.CompletenessCertificate`

    EXAMPLES:

    The Veronese surface (the rank-one ternary quadrics) is no Segre
    product; the localization proves it, and the attempts say both::

        sage: from sage_attention.ideals.proofs.problem import ProofProblem
        sage: from sage_attention.ideals.proofs.strategy import prove_in_order
        sage: from sage_attention.ideals.engine.graded_kernel import graded_kernel
        sage: P.<v1,v2,v3> = QQ[]; U = PolynomialRing(QQ, 'u', 6)
        sage: v = (v1, v2, v3)
        sage: psi = U.hom([v[i] * v[j] for i in range(3) for j in range(i, 3)], P)
        sage: G = graded_kernel(psi, 2, seed=0)[2]
        sage: C = prove_in_order(ProofProblem.for_map(psi, G, 2, 3), ['segre']); C
        Completeness certificate modulo 32003: the whole vanishing ideal (prime of dimension 3, by localization)
        sage: [(A.technique, A.outcome) for A in C.attempts]
        [('segre', 'not proved'), ('localization', 'proved')]
    """
    started = time.time()
    attempts = []
    for i, name in enumerate(names):
        T = technique(name, problem.question)
        S, A = run_technique(T, problem, _rest(timeout, started) if i else timeout)
        if A.outcome == "proved" or i == len(names) - 1:
            return conclude(problem, S, A, method, timeout, started, attempts)
        attempts.append(A)
    L = [U for U in techniques(problem.question) if U.role == "primality"][0]
    C, A = run_technique(L, problem, timeout, method=method)
    return C


def unfinished(C, dimension):
    r"""
    Return whether the failed certificate ``C`` of the primality proof stopped at its time limit (or found more dimension than ``dimension``) rather than at a failed check.

    INPUT:

    - ``C`` -- a :class:`~sage_attention.ideals.proofs.certificate.CompletenessCertificate`
    - ``dimension`` -- the lower bound of the dimension it was given

    OUTPUT: boolean

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.completeness import completeness_certificate
        sage: from sage_attention.ideals.proofs.strategy import unfinished
        sage: R.<x,y,z> = QQ[]
        sage: unfinished(completeness_certificate([x*y], R, 2), 2)
        False
        sage: unfinished(completeness_certificate([x*y - z^2], R, 1), 1)
        True
    """
    H = C.hilbert
    if H is None:
        return True         # the Hilbert series did not finish
    if int(H.dimension) > int(dimension):
        return True         # generators may be missing
    return C.primality is None and C.minimal_primes is None


def next_degree_generators(model, E, complete, seed):
    r"""
    Return the number of minimal generators of degree ``complete + 1`` of the model's ideal, or ``None`` when that degree has more than ``settings.PROBE_MONOMIALS`` monomials (not computed).

    The probe of the default proof: a generator of the next degree shows,
    before any Gröbner basis, that the generators through ``complete`` are
    not the whole ideal. It runs the engine
    (:func:`~sage_attention.ideals.engine.interpolation.interpolate`).

    INPUT:

    - ``model`` -- the model
    - ``E`` -- its essential ring
    - ``complete`` -- the degree through which the generators are complete
    - ``seed`` -- the seed of the engine

    OUTPUT: an integer, or ``None``

    EXAMPLES:

    The slice of width `3` and rank `2` has quartic generators, which its cubics miss::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.proofs.strategy import next_degree_generators
        sage: M = LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)])
        sage: next_degree_generators(M, M.essential_ring(), 3, 0)
        90
        sage: next_degree_generators(M, M.essential_ring(), 4, 0) is None     # 26334 quintic monomials
        True
    """
    from math import comb
    from sage_attention.ideals.engine.interpolation import interpolate
    if complete < 1 or comb(E.ngens() + complete, complete + 1) > settings.PROBE_MONOMIALS:
        return None
    t0 = time.time()
    found = len(interpolate(model, complete + 1, seed=seed).generators_by_degree.get(complete + 1, ()))
    logger.info("whole-ideal proof: degree %s probed, %s new generators (%.2f s)", complete + 1, found,
                time.time() - t0)
    return found


def _what(problem):
    sym = problem.symmetry
    what = (f"every minimal generator of degree at most {problem.complete_through} is found and verified "
            "by exact composition (dimension count of each graded piece)")
    if sym is not None and sym.generators:
        what += (f", one piece per orbit of the symmetry group {sym.order_phrase()} "
                 f"({', '.join(sym.names)}), the others by symmetry")
    return what


def _place(T, problem):
    large = problem.large()
    if T.placement == "first" or large:
        return "first"
    if T.placement == "first when large" or problem.prove is not None:
        return "after"
    return None


def prove_whole_ideal(problem, interrupted=False):
    r"""
    Return ``(proved, sentence, certificate or None)``: whether the generators of ``problem`` are the whole ideal.

    See the module documentation for the policy.

    INPUT:

    - ``problem`` -- a :class:`~sage_attention.ideals.proofs.problem.ProofProblem`
      with a model (its ``prove``, ``timeout`` unused: the policy sets it)
    - ``interrupted`` -- (default: ``False``) whether the engine was interrupted

    OUTPUT: a boolean, the sentence of the report, and the
    :class:`~sage_attention.ideals.proofs.completeness.CompletenessCertificate`

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.proofs.problem import ProofProblem
        sage: from sage_attention.ideals.proofs.strategy import prove_whole_ideal
        sage: M = LightningAttention(d=2, t=1, a=1)
        sage: P = ProofProblem(M.essential_ring(), [], 2, model=M, prove=False)
        sage: prove_whole_ideal(P)[1]
        'every minimal generator ... (prove=False).'
        sage: prove_whole_ideal(P, interrupted=True)[1]
        'every minimal generator ...; the run was interrupted.'
    """
    what = _what(problem)
    prove = problem.prove
    if interrupted:
        return False, what + "; the run was interrupted.", None
    if prove is False:
        return False, what + "; completeness of the whole ideal was not tested (prove=False).", None
    if not problem.base_field_supported():
        return False, what + ("; completeness of the whole ideal is proved only over QQ and prime fields, not "
                              f"{problem.ring.base_ring()}."), None
    attempts, usable, limits = [], [], []
    for T in techniques(problem.question):
        if T.role != "structure":
            continue
        t0 = time.time()
        why = T.applies_function()(problem)
        if why is None:
            usable.append(T)
            continue
        attempts.append(Attempt(T.name, time.time() - t0, "not applicable", str(why)))
        if isinstance(why, OverLimit):
            limits.append(str(why))
    large = problem.large()
    if prove is None and large and (limits or not usable):
        nterms, limit = problem.nterms(), settings.PROOF_TERMS_LIMIT
        if limits:
            return False, what + (f"; completeness of the whole ideal was not tested (the generators have {nterms} "
                                  f"terms, more than {limit}, and {' and '.join(limits)}: pass prove=True to try "
                                  "the proofs anyway)."), None
        return False, what + (f"; completeness of the whole ideal was not tested (the generators have {nterms} "
                              f"terms, more than {limit}: pass prove=True to try the proof anyway)."), None
    try:
        lower = problem.dimension()
    except (ValueError, ArithmeticError) as exc:
        return False, what + f"; completeness of the whole ideal was not tested: no dimension bound ({exc}).", None
    if prove is None:
        timeout, method = settings.PROOF_TIMEOUT, "localization"
    else:
        timeout, method = (settings.PROOF_TIMEOUT_FORCED if prove is True else float(prove)), "auto"
    problem.timeout = timeout
    first = [T for T in usable if _place(T, problem) == "first"]
    after = [T for T in usable if _place(T, problem) == "after"]
    logger.info("proving completeness: the ideal of %d generators in %d coordinates "
                "modulo a prime, for at most %s s", len(problem.generators), problem.ring.ngens(), timeout)
    t0 = time.time()
    C = None
    for i, T in enumerate(first):
        S, A = run_technique(T, problem, _rest(timeout, t0) if i else timeout)
        last = i == len(first) - 1
        if A.outcome == "proved" or last:
            # beyond the terms limit nothing follows the structure techniques
            C = conclude(problem, S, A, T.name if prove is None and large else method, timeout, t0, attempts)
            break
        attempts.append(A)
    if C is None:
        C = _primality_in_stages(problem, timeout, method, lower, t0, attempts)
        if isinstance(C, tuple):
            return C[0], what + C[1], C[2]
    for T in after:
        if C.proved:
            break
        S, A = run_technique(T, problem, _rest(timeout, t0))
        C2 = conclude(problem, S, A, T.name, timeout, time.time() - A.seconds)
        C2.timings.update({f"before: {key}": v for key, v in C.timings.items()})
        if not C2.proved:
            C.reason = f"{C.reason.rstrip('.')} (then the proof {T.label}: {A.reason})"
            C.attempts.append(A)
        else:
            C2.attempts = C.attempts + C2.attempts
            C = C2
    bound = (" (dimension of the variety: Jacobian rank at a point, a lower bound; see "
             "sage_attention.ideals.proofs.completeness)." if C.proved and C.proof.rests_on_dimension else ".")
    return C.proved, what + "; " + C.reason + bound, C


def _primality_in_stages(problem, timeout, method, lower, started, attempts):
    r"""
    The primality proof with no structure technique before it: in two stages with the probe between them for ``prove=None``.

    Return the certificate, or ``(False, rest of the sentence, certificate)``
    when the probe found generators of the next degree.
    """
    L = [U for U in techniques(problem.question) if U.role == "primality"][0]
    first = timeout
    if problem.prove is None:
        # the proofs that succeed here take seconds: a short first stage, then the next degree
        first = min(timeout, max(settings.PROOF_FIRST_SECONDS, settings.PROOF_FIRST_FACTOR * problem.engine_seconds))
    C, A = run_technique(L, problem, first, method=method, symmetries=problem.symmetries())
    C.attempts = list(attempts) + list(C.attempts)
    if problem.prove is None and not C.proved and unfinished(C, lower) and problem.model is not None:
        t0 = time.time()
        c = problem.complete_through
        found = next_degree_generators(problem.model, problem.ring, c, problem.seed)
        probe = f"probe of degree {c + 1}"
        if found:
            C.attempts.append(Attempt(probe, time.time() - t0, "stopped the proof",
                                      f"{found} more minimal generators of degree {c + 1}"))
            return (False, f"; the generators found do not generate the whole ideal: degree {c + 1} has {found} "
                    f"more minimal generators (found by the same engine and verified by exact composition; "
                    f"implicitize with degree {c + 1} or more computes them), so no proof was tried beyond "
                    f"{first:.0f} s.", C)
        C.attempts.append(Attempt(probe, time.time() - t0, "passed", "not computed (too many monomials)"
                                  if found is None else f"no minimal generator of degree {c + 1}"))
        if first < timeout:
            before = C.attempts
            C, A = run_technique(L, problem, max(timeout - (time.time() - started), 1), method=method,
                                 symmetries=problem.symmetries())
            C.attempts = before + list(C.attempts)
    return C


#: the question answered here
QUESTION = WHOLE_IDEAL
