r"""
The whole vanishing ideal, proved: a completeness certificate modulo a prime

The implicitization engine finds generators of the vanishing ideal degree by
degree and proves each degree complete. Whether they generate the **whole**
ideal is a different question; this module answers it with a proof, or says
why it could not.

Let `I` be the vanishing ideal of the neurovariety `X` (prime,
:ref:`math-1`), `J \subseteq I` the ideal of the generators found (each one
verified exactly), and `n` a lower bound of `\dim X` (the Jacobian rank at a
point, :ref:`math-5`).

Over `\QQ`. Scale every generator to a primitive integral polynomial, and
let `J_p` be the ideal their reductions generate over `\GF{p}`;
`A = \ZZ_{(p)}[y]/J_\ZZ` with `J_\ZZ = J \cap \ZZ_{(p)}[y]`
(:mod:`sage_attention.ideals.hilbert`: the graded parts of `A` are free, so
`\dim_{\GF{p}} (\GF{p}[y]/J_p)_k \ge \dim_\QQ (\QQ[y]/J)_k`).

    **Claim.** If `J_p` is a prime ideal of `\GF{p}[y]` of dimension `n`,
    then `J = I`.

    *Proof.* `n \le \dim X \le \dim \QQ[y]/J = \dim A/pA \le
    \dim \GF{p}[y]/J_p = n`, so `J' = J_\ZZ + p/p` and `J_p \subseteq J'`
    have the same dimension. A minimal prime of `J'` of dimension `n`
    contains the prime `J_p` of the same dimension, so equals it: `J'
    \subseteq J_p`, and `J' = J_p` is prime. So `p` is a prime element of
    `A`; as `\bigcap_m p^m A = 0` (each graded part is a finitely generated
    free `\ZZ_{(p)}`-module) and `A` has no `p`-torsion, `A` is a domain
    (write `x = p^a x'`, `y = p^b y'` with `x', y' \notin pA`: `xy = 0`
    forces `x'y' = 0 \in pA`). So `\QQ[y]/J`, a localization of `A`, is a
    domain: `J` is prime, contained in the prime `I` of the same dimension,
    hence `J = I`. `\square`

    Then also the Hilbert function of `\QQ[y]/I` is that of
    `\GF{p}[y]/J_p`: each graded part `A_k` is free, of rank `\dim_\QQ
    (\QQ[y]/J)_k` and with `A_k/pA_k = (\GF{p}[y]/J')_k` and `J' = J_p`.
    So the Hilbert series, the dimension and the degree the proof computes
    modulo `p` are those of `X` (``hilbert`` of the certificate,
    ``certified``).

Over a prime field `\GF{p}` (a model built over `\GF{p}`): `J` itself is
tested; if it is prime of dimension `n \le \dim X`, then `J \subseteq I` are
primes of the same dimension, so `J = I`. Over other fields nothing is
proved here.

Primality of `J_p`. Two methods, in this order:

1. ``'localization'`` (the default): the certificate of
   :mod:`sage_attention.ideals.proofs.localization`, one lex Gröbner basis over the
   rational functions of a maximal independent set and a few exact checks
   (membership, one factorization, Hilbert series). Seconds on the rows of
   :doc:`/frontier_table` where a primary decomposition takes minutes or
   does not finish.
2. ``'decomposition'``: Singular's ``minAssGTZ`` (the minimal associated
   primes; `J_p` is prime when there is one and it is contained in `J_p`).
   Used only when asked (``method='decomposition'``), or after a failed
   localization with ``method='auto'``.

Other proofs need the parametrization and no Gröbner basis of `J` at
all: when it is a Segre product, the ideal is proved whole over `\QQ` from
the ideal of the smaller factor and the degree through which the generators
are complete (:mod:`sage_attention.ideals.proofs.segre`, ``method='segre'``);
the same for a matrix product `F(p) \cdot C` with more columns than rows,
from the `(a+1)`-minors and the ideal of the variety of `a` columns
(:mod:`sage_attention.ideals.proofs.inheritance`, ``method='inheritance'``),
and the others of the registry (:mod:`sage_attention.ideals.proofs.registry`).
This module is the registry's ``'localization'`` technique (the primality
proof, :func:`prove`), and its :class:`CompletenessCertificate` holds the
proof that succeeded, whatever the technique, and every attempt
(:mod:`sage_attention.ideals.proofs.strategy`).

They run in forked processes under a time limit (Singular cannot be
interrupted safely): the answer is "proved", or "not proved" with the step
that failed or the limit that was hit. If `J_p` is not prime nothing is
concluded about `J` (the reduction of a prime need not be prime). Equal
degree and dimension alone would prove nothing: an embedded or
lower-dimensional component changes neither.

EXAMPLES:

The twisted cubic is proved; without a generator it is not (the line
`y = z = 0` is a second component)::

    sage: from sage_attention.ideals.proofs.completeness import completeness_certificate
    sage: R.<x,y,z,w> = QQ[]
    sage: G = [x*z - y^2, y*w - z^2, x*w - y*z]
    sage: C = completeness_certificate(G, R, 2); C
    Completeness certificate modulo 32003: the whole vanishing ideal (prime of dimension 2,
    by localization)
    sage: C.primality
    Primality certificate modulo 32003: prime (dimension 2, ...)
    sage: completeness_certificate(G[:2], R, 2).proved
    False

REFERENCES: [GTZ1988]_, [ADM2026]_.
"""
import time

from sage.rings.rational_field import QQ

from sage_attention.misc.forked import steps_in_child
from sage_attention.ideals.hilbert import HilbertData, reduction, series_data
from sage_attention.ideals.proofs.localization import localization_certificate
from sage_attention.ideals.proofs.certificate import CompletenessCertificate
from sage_attention.ideals.proofs.protocol import Attempt, DecompositionCertificate, ZeroIdealCertificate
from sage_attention.misc.progress import Heartbeat
from sage_attention.settings import settings

#: The methods of the primality proof.
METHODS = ("localization", "decomposition", "auto")

def _load_primdec():
    from sage.libs.singular.function import lib as singular_lib
    singular_lib("primdec.lib")


def _minimal_primes(J):
    r"""
    Return ``(number of minimal primes, whether J is prime)`` by Singular's ``minAssGTZ``.
    """
    from sage.libs.singular.function import singular_function
    _load_primdec()
    P = [J.ring().ideal(list(Q)) for Q in singular_function("minAssGTZ")(J)]
    G = J.groebner_basis()
    return len(P), len(P) == 1 and all(g.reduce(G) == 0 for g in P[0].gens())


def _steps(job, send):
    r"""
    The proof's steps (in the child): Hilbert series, then the primality methods asked for.
    """
    J, n, method, seed, processes, symmetries = job
    t0 = time.time()
    series = series_data(J)
    send(("series", series, time.time() - t0))
    if series[1] != n:
        return
    if method in ("localization", "auto"):
        t0 = time.time()
        C = localization_certificate(J, n, seed=seed, processes=processes, symmetries=symmetries)
        send(("localization", C, time.time() - t0))
        if C.proved:
            return
    if method in ("decomposition", "auto"):
        t0 = time.time()
        send(("decomposition", _minimal_primes(J), time.time() - t0))


def completeness_certificate(gens, ring, dimension, p=None, timeout=60, method="localization",
                             seed=0, progress=False, processes=None, symmetries=()):
    r"""
    Try to prove that ``gens`` generate the whole vanishing ideal (a prime ideal of dimension ``dimension``).

    See the module documentation for the argument and the methods.

    INPUT:

    - ``gens`` -- homogeneous polynomials over `\QQ` (or over a prime field)
      that vanish on an irreducible variety `X` (e.g. verified generators of
      its ideal)
    - ``ring`` -- their ring
    - ``dimension`` -- integer, a lower bound of `\dim X` (affine cone)
    - ``p`` -- (default: ``None``, the first of ``settings.HILBERT_PRIMES``,
      `32003`) the prime for generators over `\QQ`
      (ignored over `\GF{p}`: the ideal itself is tested)
    - ``timeout`` -- (default: `60`) seconds for the whole proof, or
      ``None`` for no limit (then everything runs in this process)
    - ``method`` -- (default: ``'localization'``) ``'localization'``,
      ``'decomposition'`` or ``'auto'`` (localization, then decomposition
      if it fails)
    - ``seed`` -- (default: `0`) integer; the random linear changes of the
      localization (they decide whether the data are found, never what is
      proved)
    - ``progress`` -- boolean (default: ``False``); show the step and the
      seconds it has been running on standard error
      (:class:`~sage_attention.misc.progress.Heartbeat`)
    - ``processes`` -- (default: ``None``, one per available core) integer;
      the processes among which the localization shares its checks of the
      denominator's factors (`1`: one core); it changes the time, never the
      certificate
    - ``symmetries`` -- (default: ``()``) permutations of the variables of
      ``ring`` (tuples, ``g[i]`` the index of the image of the `i`-th
      variable, as in :mod:`sage_attention.ideals.engine.symmetry`); those that
      preserve the ideal modulo `p` (checked exactly) spare the localization
      the checks of the factors that are images of others
      (:mod:`sage_attention.ideals.proofs.factor_orbits`)

    OUTPUT: a :class:`CompletenessCertificate`

    EXAMPLES:

    A quadric cone is prime; the union of two planes has the same Hilbert
    series and is never proved; with a wrong dimension nothing is tried::

        sage: from sage_attention.ideals.proofs.completeness import completeness_certificate
        sage: R.<x,y,z> = QQ[]
        sage: completeness_certificate([x*y - z^2], R, 2).proved
        True
        sage: completeness_certificate([x*y], R, 2)
        Completeness certificate modulo 32003: not proved (the ideal found is not proved prime
        modulo 32003 (localization: ...): not proved (this does not show that generators are missing))
        sage: completeness_certificate([x*y], R, 2, method='decomposition').reason
        'the ideal found modulo 32003 has 2 minimal primes (or is not radical): not proved (this does not show that generators are missing)'
        sage: completeness_certificate([x*y - z^2], R, 1).reason
        'the ideal found has dimension 2 modulo 32003 and the variety at least 1: not proved (generators are missing or the dimension bound is not sharp)'

    The zero ideal is the whole vanishing ideal exactly when the variety
    fills the space; over a prime field the ideal is tested as it is::

        sage: completeness_certificate([], R, 3).proved, completeness_certificate([], R, 2).proved
        (True, False)
        sage: S.<a,b,c> = GF(101)[]
        sage: completeness_certificate([a*b - c^2], S, 2)
        Completeness certificate modulo 101: the whole vanishing ideal (prime of dimension 2, by localization)

    With ``progress=True`` the step is shown on standard error::

        sage: import io, sys; sys.stderr = io.StringIO()
        sage: proved = completeness_certificate([x*y - z^2], R, 2, progress=True).proved
        sage: shown, sys.stderr = sys.stderr.getvalue(), sys.__stderr__
        sage: print(shown.split("\n")[-2].split("\r")[-1])
        completeness proof modulo 32003 (localization, at most 60 s): done in ... s

    TESTS::

        sage: completeness_certificate([x], R, 2, method='magic')
        Traceback (most recent call last):
        ...
        ValueError: method (='magic') must be one of ('localization', 'decomposition', 'auto')
        sage: completeness_certificate([x], R.change_ring(GF(4)), 2)
        Traceback (most recent call last):
        ...
        ValueError: the completeness proof works over QQ or a prime field GF(p), not Finite Field in z2 of size 2^2
    """
    if method not in METHODS:
        raise ValueError(f"method (={method!r}) must be one of {METHODS}")
    k = ring.base_ring()
    if not (k is QQ or (k.is_finite() and k.is_prime_field())):
        raise ValueError(f"the completeness proof works over QQ or a prime field GF(p), not {k}")
    if p is None:
        p = settings.HILBERT_PRIMES[0]
    if k is QQ:
        J = reduction(gens, ring, p)
    else:
        p = k.characteristic()
        from sage.rings.polynomial.polynomial_ring_constructor import PolynomialRing
        S = PolynomialRing(k, ring.variable_names(), order="degrevlex")
        gp = [S(g) for g in gens if g]
        J = S.ideal(gp if gp else [S.zero()])
    p, n = int(p), int(dimension)
    t0 = time.time()
    timings = {}
    if J.is_zero():
        series = series_data(J)
        data = HilbertData(numerator=series[0], dimension=series[1], degree=series[2], betti=None, primes=(p,),
                           agree=True, certified=series[1] == n)
        seconds = time.time() - t0
        if series[1] == n:
            Z = ZeroIdealCertificate(True, "the zero ideal is prime, and the variety fills the space", p)
            return CompletenessCertificate(True, Z.reason, p, n, proof=Z, hilbert=data,
                                           attempts=[Attempt("zero ideal", seconds, "proved", Z.reason, Z)])
        reason = f"no generator, but the variety has dimension at least {n} in a space of dimension {series[1]}"
        Z = ZeroIdealCertificate(False, reason, p)
        return CompletenessCertificate(False, reason + ": not proved", p, n, hilbert=data,
                                       attempts=[Attempt("zero ideal", seconds, "not proved", reason, Z)])
    limit = "no time limit" if timeout is None else f"at most {timeout:.0f} s"
    if method != "localization":
        _load_primdec()         # the child inherits the library
    with Heartbeat(f"completeness proof modulo {p} ({method}, {limit})", progress):
        job = (J, n, method, seed, processes, tuple(symmetries))
        from sage_attention.ideals.proofs.kernels import before_fork
        before_fork()
        results = steps_in_child(_steps, job, timeout, 3, "completeness proof")
    timings["total"] = time.time() - t0
    got = {r[0]: r[1] for r in results}
    for r in results:
        timings[r[0]] = r[2]
    if "series" not in got:
        reason = (f"the Hilbert series modulo {p} of the ideal found did not finish in {timeout} s: not proved")
        return CompletenessCertificate(False, reason, p, n, timings=timings,
                                       attempts=[Attempt("localization", timings["total"], "not proved", reason)])
    num, dim, deg = got["series"]
    data = HilbertData(numerator=num, dimension=dim, degree=deg, betti=None, primes=(p,), agree=True,
                       timings=dict(timings))
    C = got.get("localization")
    P = got.get("decomposition")
    attempts = []
    if C is not None:
        attempts.append(Attempt("localization", timings["localization"], "proved" if C.proved else "not proved",
                                C.reason, C))
    D = None
    if P is not None:
        D = DecompositionCertificate(bool(P[1]), f"{P[0]} minimal prime{'' if P[0] == 1 else 's'}"
                                     + ("" if P[1] else " (or not radical)"), p, minimal_primes=P[0])
        attempts.append(Attempt("decomposition", timings["decomposition"], "proved" if P[1] else "not proved",
                                D.reason, D))
    common = dict(hilbert=data, timings=timings, attempts=attempts)
    if dim < n:
        reason = (f"the ideal found has dimension {dim} modulo {p} but the variety at least {n}: the generators do "
                  "not vanish on the variety")
        return CompletenessCertificate(False, reason, p, n, attempts=[Attempt("localization", timings["total"],
                                       "not proved", reason)], hilbert=data, timings=timings)
    if dim > n:
        reason = (f"the ideal found has dimension {dim} modulo {p} and the variety at least {n}: not proved "
                  "(generators are missing or the dimension bound is not sharp)")
        return CompletenessCertificate(False, reason, p, n, attempts=[Attempt("localization", timings["total"],
                                       "not proved", reason)], hilbert=data, timings=timings)
    proof = C if C is not None and C.proved else D if D is not None and D.proved else None
    if proof is not None:
        data = HilbertData(numerator=num, dimension=dim, degree=deg, betti=None, primes=(p,), agree=True,
                           certified=True, timings=dict(timings))
        how = ("by one localization (checked exactly: sage_attention.ideals.proofs.localization)"
               if proof is C else "by Singular's minAssGTZ")
        return CompletenessCertificate(True, f"the ideal found is prime modulo {p} {how}, of dimension {dim}, "
                                       "the dimension of the variety: so it is the whole vanishing ideal", p, n,
                                       proof=proof, **dict(common, hilbert=data))
    loc = "" if C is None else f" (localization: {C.reason})"
    if P is not None:
        reason = (f"the ideal found modulo {p} has {P[0]} minimal primes (or is not radical){loc}: not proved "
                  "(this does not show that generators are missing)")
    elif method == "decomposition" or (method == "auto" and C is not None):
        reason = (f"the ideal found has dimension {dim} (that of the variety) and degree {deg} modulo {p}, but "
                  f"the primary decomposition did not finish in {timeout} s{loc}: not proved")
    elif C is None:
        reason = (f"the ideal found has dimension {dim} (that of the variety) and degree {deg} modulo {p}, but "
                  f"the localization certificate did not finish in {timeout} s: not proved")
    else:
        reason = (f"the ideal found is not proved prime modulo {p}{loc}: not proved (this does not show that "
                  "generators are missing)")
    if not attempts:
        attempts.append(Attempt("localization", timings["total"], "not proved", reason))
    return CompletenessCertificate(False, reason, p, n, **common)


def applies(problem):
    r"""
    Return ``None`` when the primality proof applies to ``problem`` (over `\QQ` or a prime field), else the reason.

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.problem import ProofProblem
        sage: from sage_attention.ideals.proofs.completeness import applies
        sage: applies(ProofProblem(QQ['x'], [], 1)) is None
        True
        sage: applies(ProofProblem(GF(4)['x'], [], 1))
        'the completeness proof works over QQ or a prime field GF(p), not Finite Field in z2 of size 2^2'
    """
    if problem.base_field_supported():
        return None
    return f"the completeness proof works over QQ or a prime field GF(p), not {problem.ring.base_ring()}"


def prove(problem, timeout, method="localization", symmetries=()):
    r"""
    Run the primality proof (:func:`completeness_certificate`) on ``problem``: the registry's ``'localization'``.

    INPUT:

    - ``problem`` -- a :class:`~sage_attention.ideals.proofs.problem.ProofProblem`
    - ``timeout`` -- seconds, or ``None``
    - ``method``, ``symmetries`` -- as in :func:`completeness_certificate`

    OUTPUT: a :class:`CompletenessCertificate`

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.problem import ProofProblem
        sage: from sage_attention.ideals.proofs.completeness import prove
        sage: R.<x,y,z> = QQ[]
        sage: prove(ProofProblem(R, [x*y - z^2], 2, dimension_bound=2), 30).proved
        True
    """
    return completeness_certificate(problem.generators, problem.ring, problem.dimension(), p=problem.prime,
                                    timeout=timeout, method=method, seed=problem.seed, progress=problem.progress,
                                    processes=problem.processes, symmetries=symmetries)


def structured_completeness(S, kind, gens, ring, dimension, started, timeout=30, method="localization", seed=0,
                            progress=False, processes=None):
    r"""
    Return the certificate of a proof from the structure of the parametrization, or of the usual proof after it.

    The certificate ``S`` of a structure technique, already made, concluded
    as the strategy does (:func:`~sage_attention.ideals.proofs.strategy.conclude`):
    when ``S`` proves, this wraps it; when it does not, the rest of the time
    goes to :func:`completeness_certificate` with ``method``, unless
    ``method`` is ``kind`` (then nothing else is tried).

    INPUT:

    - ``S`` -- a certificate of the protocol (e.g. a
      :class:`~sage_attention.ideals.proofs.segre.SegreCertificate`)
    - ``kind`` -- its technique's name (``'segre'``, ``'inheritance'``,
      ``'subspace'``, ``'birational'``, ...)
    - ``started`` -- the ``time.time()`` at which ``S`` was started
    - the other arguments -- as in :func:`completeness_certificate`

    OUTPUT: a :class:`CompletenessCertificate`

    EXAMPLES:

    A failed Segre attempt, with nothing else tried, and with the
    localization after it::

        sage: import time
        sage: from sage_attention.ideals.proofs.completeness import structured_completeness
        sage: from sage_attention.ideals.proofs.segre import segre_certificate
        sage: R.<x,y,z> = QQ[]
        sage: phi = R.hom([x, y, z], R)
        sage: S = segre_certificate([], phi, 2)
        sage: structured_completeness(S, 'segre', [], R, 3, time.time(), method='segre').proved
        False
        sage: structured_completeness(S, 'segre', [], R, 3, time.time()).method
        'zero ideal'
    """
    from sage_attention.ideals.proofs.problem import ProofProblem
    from sage_attention.ideals.proofs.protocol import accepted
    from sage_attention.ideals.proofs.strategy import conclude
    problem = ProofProblem(ring, gens, 0, dimension_bound=int(dimension), seed=seed, progress=progress,
                           processes=processes)
    ok, why = accepted(S, kind)
    A = Attempt(kind, time.time() - started, "proved" if ok else "not proved", S.reason if ok else why, S)
    return conclude(problem, S, A, method, timeout, started)
