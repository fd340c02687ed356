r"""
The ideal of a smaller variety, computed and proved: the recursion of the proofs

The proofs by a Segre product (:mod:`sage_attention.ideals.proofs.segre`), by
inheritance (:mod:`sage_attention.ideals.proofs.inheritance`) and from fewer
features (:mod:`sage_attention.ideals.proofs.subspace`) rest on the whole
ideal of a smaller variety: the factor `Y`, the variety `X'` of a few
columns, the variety of fewer features. :func:`proved_kernel` computes its
generators (:func:`~sage_attention.ideals.engine.graded_kernel.graded_kernel`)
and proves them whole **through the strategy**
(:func:`~sage_attention.ideals.proofs.strategy.prove_in_order`), in a forked
child under a time limit; :func:`proved_kernel_holds` re-checks what it
returned.

EXAMPLES::

    sage: from sage_attention.ideals.proofs.kernels import proved_kernel
    sage: P.<s,t> = QQ[]; U.<a,b,c> = QQ[]
    sage: G, C, _ = proved_kernel(U.hom([s^2, s*t, t^2], P), 2, seed=0)
    sage: {k: len(g) for k, g in G.items()}, C.proved, [A.technique for A in C.attempts]
    ({2: 1}, True, ['segre', 'localization'])
"""
import time

from sage_attention.ideals.engine.graded_kernel import graded_kernel, jacobian_rank
from sage_attention.ideals.proofs.problem import ProofProblem
from sage_attention.misc.forked import steps_in_child
from sage_attention.misc.randomness import derived_seed
from sage_attention.settings import settings


def _prove_in_order(problem, names, timeout=None):
    from sage_attention.ideals.proofs.strategy import prove_in_order
    return prove_in_order(problem, names, timeout=timeout)


def _kernel_steps(job, send):
    r"""
    The steps of :func:`proved_kernel` (in the child): the generators, then their proof.
    """
    psi, degree, seed, p, processes = job
    t0 = time.time()
    gens = graded_kernel(psi, degree, seed=seed)
    send(("kernel", gens, time.time() - t0))
    t0 = time.time()
    U = psi.domain()
    n = jacobian_rank([psi(u) for u in U.gens()], p, derived_seed(seed, "small map jacobian"))
    flat = [g for k in sorted(gens) for g in gens[k]]
    # the recursive proof goes through the strategy: a Segre product, else the localization
    problem = ProofProblem.for_map(psi, flat, degree, n, seed=seed, processes=processes)
    C = _prove_in_order(problem, ["segre"])
    send(("proof", C, time.time() - t0))


#: the modules a forked proof imports and the re-check of its certificate uses again
_CHILD_MODULES = ("sage.libs.singular.function_factory", "sage.rings.polynomial.hilbert",
                  "sage_attention.ideals.proofs.completeness", "sage_attention.ideals.proofs.localization",
                  "sage_attention.ideals.proofs.localization_checks", "sage_attention.ideals.proofs.shape_basis",
                  "sage_attention.ideals.proofs.strategy")


def before_fork():
    r"""
    Import, in this process, what a forked proof and this process's re-check of it both use.

    A module imported in a forked child (:mod:`sage_attention.misc.forked`)
    is lost with it, and imported again here when the child's certificate
    is re-checked (:func:`proved_kernel_holds`, the strategy's
    ``verify()``); imported before the fork, it is paid once and the child
    inherits it. On the rank-one slice of width `3` this halves the proof
    of a fresh session (0.7-0.8 s to 0.4 s, the Segre factor's proof in a
    child).

    EXAMPLES::

        sage: import sys
        sage: from sage_attention.ideals.proofs.kernels import before_fork
        sage: before_fork()
        sage: 'sage_attention.ideals.proofs.localization' in sys.modules
        True
    """
    import importlib
    # by name, as the registry looks techniques up: the proofs import this module
    for name in _CHILD_MODULES:
        importlib.import_module(name)


def proved_kernel(psi, degree, seed, p=None, processes=None, timeout=30, what="small map"):
    r"""
    Return ``(generators, certificate, timings)``: the ideal of a small map through ``degree``, and its proof.

    The proofs by a Segre product and by inheritance
    (:mod:`sage_attention.ideals.proofs.inheritance`) rest on the whole ideal of a
    smaller variety: this computes its generators through ``degree`` by
    :func:`~sage_attention.ideals.engine.graded_kernel.graded_kernel` and proves
    them whole through the strategy
    (:func:`~sage_attention.ideals.proofs.strategy.prove_in_order`: a Segre
    product, else the localization), with the dimension bounded below by the Jacobian rank
    modulo ``p``, in a forked child within ``timeout`` seconds; a map of at
    most ``settings.PROOF_IN_PROCESS_COORDINATES`` coordinates in this
    process when ``timeout`` is at least a second (its proof takes
    milliseconds, less than the fork).

    INPUT:

    - ``psi`` -- a morphism of polynomial rings (coordinates to parameters)
    - ``degree`` -- positive integer
    - ``seed``, ``processes`` -- as in
      :func:`~sage_attention.ideals.proofs.segre.segre_certificate`
    - ``p`` -- (default: ``None``, the first of ``settings.HILBERT_PRIMES``) the prime
    - ``timeout`` -- (default: `30`) seconds, or ``None`` (in this process; so is a small map)
    - ``what`` -- a name for the messages

    OUTPUT: ``{degree: generators}`` or ``None``, the
    :class:`~sage_attention.ideals.proofs.completeness.CompletenessCertificate` or
    ``None`` (``None`` for what did not finish), and ``{step: seconds}``

    EXAMPLES:

    The rank-one quadrics in three variables (the Veronese surface)::

        sage: from sage_attention.ideals.proofs.kernels import proved_kernel
        sage: P.<v1,v2,v3> = QQ[]; U = PolynomialRing(QQ, 'u', 6)
        sage: v = (v1, v2, v3)
        sage: psi = U.hom([v[i] * v[j] for i in range(3) for j in range(i, 3)], P)
        sage: G, C, t = proved_kernel(psi, 2, seed=0)
        sage: {k: len(g) for k, g in G.items()}, C.proved, sorted(t)
        ({2: 6}, True, ['kernel', 'proof', 'total'])
    """
    if p is None:
        p = settings.HILBERT_PRIMES[0]
    t0 = time.time()
    if timeout is not None and timeout >= 1 and psi.domain().ngens() <= settings.PROOF_IN_PROCESS_COORDINATES:
        # a small variety (the Segre factor of a rank-one slice of width 3: 6 coordinates, its
        # proof milliseconds of Singular): in this process, without the fork and its re-imports
        # (a limit below a second is kept: a child it can stop)
        timeout = None
    if timeout is not None:
        before_fork()
    results = steps_in_child(_kernel_steps, (psi, int(degree), seed, p, processes), timeout, 2, f"proof of {what}")
    got = {r[0]: r[1] for r in results}
    timings = {r[0]: r[2] for r in results}
    timings["total"] = time.time() - t0
    return got.get("kernel"), got.get("proof"), timings


def proved_kernel_holds(psi, generators, certificate):
    r"""
    Re-check what :func:`proved_kernel` returned: the generators vanish on the map, and their certificate verifies.

    INPUT:

    - ``psi`` -- the map
    - ``generators`` -- ``{degree: generators}``
    - ``certificate`` -- their
      :class:`~sage_attention.ideals.proofs.completeness.CompletenessCertificate`, or ``None``

    OUTPUT: boolean

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.kernels import proved_kernel, proved_kernel_holds
        sage: P.<s,t> = QQ[]; U.<a,b,c> = QQ[]
        sage: psi = U.hom([s^2, s*t, t^2], P)
        sage: G, C, _ = proved_kernel(psi, 2, seed=0)
        sage: proved_kernel_holds(psi, G, C), proved_kernel_holds(psi, {2: [a*b]}, C)
        (True, False)
    """
    if any(psi(g) != 0 for gs in generators.values() for g in gs):
        return False
    return certificate is not None and certificate.verify()
