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
   :mod:`sage_attention.ideals.localization`, one lex Gröbner basis over the
   rational functions of a maximal independent set and a few exact checks
   (membership, one factorization, Hilbert series). Seconds on the rows of
   :doc:`/frontier_table` where a primary decomposition takes minutes or
   does not finish.
2. ``'decomposition'``: Singular's ``minAssGTZ`` (the minimal associated
   primes; `J_p` is prime when there is one and it is contained in `J_p`).
   Used only when asked (``method='decomposition'``), or after a failed
   localization with ``method='auto'``.

A third proof needs the parametrization and no Gröbner basis of `J` at
all: when it is a Segre product, the ideal is proved whole over `\QQ` from
the ideal of the smaller factor and the degree through which the generators
are complete (:mod:`sage_attention.ideals.segre`, whose
:func:`~sage_attention.ideals.segre.segre_completeness` tries it first and
then this function; its certificates have ``method='segre'``). A fourth
does the same for a matrix product `F(p) \cdot C` with more columns than
rows, from the `(a+1)`-minors and the ideal of the variety of `a` columns
(:mod:`sage_attention.ideals.inheritance`, ``method='inheritance'``).

They run in forked processes under a time limit (Singular cannot be
interrupted safely): the answer is "proved", or "not proved" with the step
that failed or the limit that was hit. If `J_p` is not prime nothing is
concluded about `J` (the reduction of a prime need not be prime). Equal
degree and dimension alone would prove nothing: an embedded or
lower-dimensional component changes neither.

EXAMPLES:

The twisted cubic is proved; without a generator it is not (the line
`y = z = 0` is a second component)::

    sage: from sage_attention.ideals.completeness import completeness_certificate
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
from dataclasses import dataclass, field

from sage.rings.rational_field import QQ

from sage_attention.ideals.forked import steps_in_child
from sage_attention.ideals.hilbert import PRIMES, HilbertData, reduction, series_data
from sage_attention.ideals.localization import localization_certificate
from sage_attention.progress import Heartbeat

#: The methods of the primality proof.
METHODS = ("localization", "decomposition", "auto")


@dataclass
class CompletenessCertificate:
    r"""
    A proof (or a failed attempt) that generators give the whole vanishing ideal.

    Made by :func:`completeness_certificate`. Attributes:

    - ``proved`` -- whether `J = I` is proved
    - ``reason`` -- a sentence: what is proved, or which step failed
    - ``prime`` -- the prime `p`; ``dimension`` -- the lower bound `n` of `\dim X`
    - ``method`` -- ``'localization'``, ``'decomposition'``, ``'segre'``,
      ``'inheritance'``, ``'subspace'``, ``'birational'``, ``'zero ideal'`` or ``None`` (no
      primality test was reached)
    - ``primality`` -- the :class:`~sage_attention.ideals.localization.PrimalityCertificate`
      of the localization (when it was reached), else ``None``
    - ``minimal_primes`` -- the number of minimal primes found by the
      decomposition (when it ran), else ``None``
    - ``hilbert`` -- the :class:`~sage_attention.ideals.hilbert.HilbertData`
      of `J_p` (``certified`` when proved; for a Segre product, that of the
      variety, exact), or ``None``
    - ``segre`` -- the :class:`~sage_attention.ideals.segre.SegreCertificate`
      when the proof by a Segre product was tried, else ``None``
    - ``inheritance`` -- the
      :class:`~sage_attention.ideals.inheritance.InheritanceCertificate`
      when the proof by inheritance was tried, else ``None`` (that proof
      gives no Hilbert series: ``hilbert`` is then ``None``)
    - ``subspace`` -- the
      :class:`~sage_attention.ideals.subspace.SubspaceCertificate` when the
      proof by inheritance from fewer features was tried, else ``None`` (no
      Hilbert series either)
    - ``birational`` -- the
      :class:`~sage_attention.ideals.birational.BirationalCertificate` when
      the proof by a birational inverse was tried, else ``None`` (it proves
      `J_p` prime, so a Hilbert series modulo `p` computed later is the
      true one, but it computes none)
    - ``timings`` -- seconds by step
    """
    proved: bool
    reason: str
    prime: int
    dimension: int
    method: object = None
    primality: object = None
    minimal_primes: object = None
    hilbert: object = None
    timings: dict = field(default_factory=dict)
    segre: object = None
    inheritance: object = None
    subspace: object = None
    birational: object = None

    def verify(self):
        r"""
        Re-check the primality certificate from its data; return whether it holds.

        A proof by localization is re-checked by
        :meth:`~sage_attention.ideals.localization.PrimalityCertificate.verify`
        (exact, from the stored data); a proof by a Segre product by
        :meth:`~sage_attention.ideals.segre.SegreCertificate.verify` (which
        also re-checks the degrees through which the generators are complete,
        independently of the engine); a proof by inheritance by
        :meth:`~sage_attention.ideals.inheritance.InheritanceCertificate.verify`
        (the same, on the generators themselves); the zero ideal needs no check; a proof
        by decomposition cannot be re-checked from data (``False``).

        EXAMPLES::

            sage: from sage_attention.ideals.completeness import completeness_certificate
            sage: R.<x,y,z> = QQ[]
            sage: completeness_certificate([x*y - z^2], R, 2).verify()
            True
        """
        if not self.proved:
            return False
        if self.method == "zero ideal":
            return True
        if self.method == "segre":
            return self.segre is not None and self.segre.verify()
        if self.method == "inheritance":
            return self.inheritance is not None and self.inheritance.verify()
        if self.method == "subspace":
            return self.subspace is not None and self.subspace.verify()
        if self.method == "birational":
            return self.birational is not None and self.birational.verify()
        return self.primality is not None and self.primality.verify()

    def certifies_series(self, numerator, dimension):
        r"""
        Return whether the proof shows that a Hilbert series of the reduction modulo `p` is the one over `\QQ`.

        A proof that `J_p` is prime (localization, decomposition, birational inverse) shows that
        the graded parts of `S/J` over `\ZZ_{(p)}` are free, so the series
        modulo `p` is the true one; so does the zero ideal. A Segre product
        or inheritance proves `J = I(X)` over `\QQ` and says nothing of `J_p`,
        whose series is only a coefficientwise upper bound: it is certified
        only when it equals the exact series of the proof (a Segre
        product's).

        INPUT:

        - ``numerator``, ``dimension`` -- the reduced Hilbert series found
          modulo the primes

        EXAMPLES::

            sage: from sage_attention.ideals.completeness import completeness_certificate
            sage: R.<x,y,z> = QQ[]
            sage: C = completeness_certificate([x*y - z^2], R, 2)
            sage: C.certifies_series(C.hilbert.numerator, C.hilbert.dimension)
            True
        """
        if not self.proved:
            return False
        if self.method in ("localization", "decomposition", "birational", "zero ideal"):
            return True
        H = self.hilbert
        return H is not None and H.certified and (H.numerator, H.dimension) == (numerator, dimension)

    def __iter__(self):
        # version 0.1 returned the tuple (proved, reason, hilbert data)
        import warnings
        warnings.warn("completeness_certificate returns a CompletenessCertificate; use its attributes "
                      "proved, reason and hilbert instead of unpacking it", DeprecationWarning, stacklevel=2)
        return iter((self.proved, self.reason, self.hilbert))

    def to_dict(self):
        r"""
        Return a JSON-ready dictionary.

        EXAMPLES::

            sage: from sage_attention.ideals.completeness import completeness_certificate
            sage: R.<x,y,z> = QQ[]
            sage: completeness_certificate([x*y - z^2], R, 2).to_dict()['method']
            'localization'
        """
        P = self.primality
        return {"proved": self.proved, "reason": self.reason, "prime": self.prime, "dimension": self.dimension,
                "method": self.method, "minimal_primes": self.minimal_primes,
                "hilbert": None if self.hilbert is None else self.hilbert.to_dict(),
                "localization": None if P is None else {
                    "proved": P.proved, "reason": P.reason,
                    "independent": [str(z) for z in P.independent],
                    "shape_variable": None if P.shape_variable is None else str(P.shape_variable),
                    "delta": P.delta, "denominator": None if P.denominator is None else str(P.denominator),
                    "denominator_factors": [[str(h), int(e)] for h, e in P.denominator_factors],
                    "linear_change": None if P.change is None else
                    {str(w): str(c) for w, c in P.change[1].items()},
                    "hilbert_checks": [[what, str(a), str(b)] for what, a, b in P.hilbert_checks],
                    "factors_by_symmetry": [[str(h), str(r), list(g)] for h, r, g in P.factors_by_symmetry]},
                "segre": None if self.segre is None else self.segre.to_dict(),
                "inheritance": None if self.inheritance is None else self.inheritance.to_dict(),
                "subspace": None if self.subspace is None else self.subspace.to_dict(),
                "birational": None if self.birational is None else self.birational.to_dict(),
                "timings": {k: round(float(v), 4) for k, v in self.timings.items()}}

    def _repr_html_(self):
        r"""
        Return an HTML table of what was checked (Jupyter's rich display).

        EXAMPLES::

            sage: from sage_attention.ideals.completeness import completeness_certificate
            sage: R.<x,y,z> = QQ[]
            sage: '<th>method</th><td>localization</td>' in completeness_certificate([x*y - z^2], R, 2)._repr_html_()
            True
        """
        from sage_attention.html import html_table
        P = self.primality
        rows = [("proved", self.proved), ("reason", self.reason), ("prime", self.prime),
                ("dimension", self.dimension), ("method", self.method)]
        if P is not None and P.proved:
            rows += [("independent set", ", ".join(str(z) for z in P.independent)),
                     ("shape variable", P.shape_variable), ("delta", P.delta), ("denominator", P.denominator),
                     ("denominator factors", ", ".join(f"({h})^{e}" for h, e in P.denominator_factors)),
                     ("linear change", "none" if P.change is None else "yes")]
            rows += [(what, "holds" if a == b else "FAILS") for what, a, b in P.hilbert_checks]
            rows += [(f"the factor {h} is a nonzerodivisor", f"a constant times the image of {r} under the "
                      "permutation of the variables " + str(g) + ", which preserves the ideal")
                     for h, r, g in P.factors_by_symmetry]
        S = self.segre
        if S is not None and S.proved:
            F = S.factorization
            rows += [("Segre block", ", ".join(map(str, F.block))), ("factor Y", f"{F.rank} polynomials"),
                     ("I(Y) generators by degree", {k: len(v) for k, v in S.factor_generators.items()}),
                     ("I(Y) proved", S.factor_certificate.reason), ("generation degree of I(X)", S.generation_degree),
                     ("complete through degree", S.complete_through)]
        S = self.inheritance
        if S is not None and S.proved:
            m, a, s = S.factorization.shape
            rows += [("matrix product", f"{m} x {a} times {a} x {s}"),
                     ("X' generators by degree", {k: len(v) for k, v in S.sub_generators.items()}),
                     ("I(X') proved", S.sub_certificate.reason), ("generation degree of I(X)", S.generation_degree),
                     ("complete through degree", S.complete_through)]
        S = self.subspace
        if S is not None and S.proved:
            L = S.structure
            rows += [("forms", f"P(l_1, ..., l_{L.nforms}) in {L.nfeatures} features, P = {L.outer}"),
                     ("base generators by degree", {k: len(v) for k, v in S.base_generators.items()}),
                     ("base ideal proved", S.base_certificate.reason),
                     ("generation degree of I(X)", S.generation_degree),
                     ("complete through degree", S.complete_through)]
        S = self.birational
        if S is not None and S.proved:
            rows += [("quadrics with a common linear factor", f"{S.coordinates.k} in {S.coordinates.n} features"),
                     ("cleared relations in the ideal", S.relations),
                     ("transpositions preserving the ideal", S.transpositions),
                     ("D_1 a nonzerodivisor (Groebner basis size)", S.nonzerodivisor[1])]
        rows += [(f"seconds: {k}", f"{v:.2f}") for k, v in self.timings.items()]
        return html_table(rows, caption=repr(self))

    def __repr__(self):
        if self.proved:
            how = {"localization": "by localization", "decomposition": "by primary decomposition",
                   "zero ideal": "the zero ideal", "segre": "by a Segre product",
                   "inheritance": "by inheritance", "subspace": "by inheritance from fewer features",
                   "birational": "by a birational inverse"}[self.method]
            return (f"Completeness certificate modulo {self.prime}: the whole vanishing ideal "
                    f"(prime of dimension {self.dimension}, {how})")
        return f"Completeness certificate modulo {self.prime}: not proved ({self.reason})"


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


def completeness_certificate(gens, ring, dimension, p=PRIMES[0], timeout=60, method="localization",
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
    - ``p`` -- (default: `32003`) the prime for generators over `\QQ`
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
      (:class:`~sage_attention.progress.Heartbeat`)
    - ``processes`` -- (default: ``None``, one per available core) integer;
      the processes among which the localization shares its checks of the
      denominator's factors (`1`: one core); it changes the time, never the
      certificate
    - ``symmetries`` -- (default: ``()``) permutations of the variables of
      ``ring`` (tuples, ``g[i]`` the index of the image of the `i`-th
      variable, as in :mod:`sage_attention.ideals.symmetry`); those that
      preserve the ideal modulo `p` (checked exactly) spare the localization
      the checks of the factors that are images of others
      (:mod:`sage_attention.ideals.factor_orbits`)

    OUTPUT: a :class:`CompletenessCertificate`

    EXAMPLES:

    A quadric cone is prime; the union of two planes has the same Hilbert
    series and is never proved; with a wrong dimension nothing is tried::

        sage: from sage_attention.ideals.completeness import completeness_certificate
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
        if series[1] == n:
            return CompletenessCertificate(True, "the zero ideal is prime, and the variety fills the space",
                                           p, n, "zero ideal", hilbert=data)
        return CompletenessCertificate(False, f"no generator, but the variety has dimension at least {n} in a "
                                       f"space of dimension {series[1]}: not proved", p, n, hilbert=data)
    limit = "no time limit" if timeout is None else f"at most {timeout:.0f} s"
    if method != "localization":
        _load_primdec()         # the child inherits the library
    with Heartbeat(f"completeness proof modulo {p} ({method}, {limit})", progress):
        job = (J, n, method, seed, processes, tuple(symmetries))
        results = steps_in_child(_steps, job, timeout, 3, "completeness proof")
    timings["total"] = time.time() - t0
    got = {r[0]: r[1] for r in results}
    for r in results:
        timings[r[0]] = r[2]
    if "series" not in got:
        return CompletenessCertificate(False, f"the Hilbert series modulo {p} of the ideal found did not finish in "
                                       f"{timeout} s: not proved", p, n, timings=timings)
    num, dim, deg = got["series"]
    data = HilbertData(numerator=num, dimension=dim, degree=deg, betti=None, primes=(p,), agree=True,
                       timings=dict(timings))
    common = dict(prime=p, dimension=n, hilbert=data, timings=timings)
    if dim < n:
        return CompletenessCertificate(False, f"the ideal found has dimension {dim} modulo {p} but the variety at "
                                       f"least {n}: the generators do not vanish on the variety", **common)
    if dim > n:
        return CompletenessCertificate(False, f"the ideal found has dimension {dim} modulo {p} and the variety at "
                                       f"least {n}: not proved (generators are missing or the dimension bound is "
                                       "not sharp)", **common)
    C = got.get("localization")
    P = got.get("decomposition")
    proved_by = ("localization" if C is not None and C.proved else
                 "decomposition" if P is not None and P[1] else None)
    if proved_by:
        data = HilbertData(numerator=num, dimension=dim, degree=deg, betti=None, primes=(p,), agree=True,
                           certified=True, timings=dict(timings))
        how = ("by one localization (checked exactly: sage_attention.ideals.localization)"
               if proved_by == "localization" else "by Singular's minAssGTZ")
        return CompletenessCertificate(True, f"the ideal found is prime modulo {p} {how}, of dimension {dim}, "
                                       "the dimension of the variety: so it is the whole vanishing ideal", p, n,
                                       proved_by, primality=C, minimal_primes=None if P is None else P[0],
                                       hilbert=data, timings=timings)
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
    return CompletenessCertificate(False, reason, p, n, "localization" if C is not None else None, primality=C,
                                   minimal_primes=None if P is None else P[0], hilbert=data, timings=timings)


def structured_completeness(S, kind, gens, ring, dimension, started, timeout=30, method="localization", seed=0,
                            progress=False, processes=None):
    r"""
    Return the certificate of a proof from the structure of the parametrization, or of the usual proof after it.

    The proofs by a Segre product (:mod:`sage_attention.ideals.segre`) and
    by inheritance (:mod:`sage_attention.ideals.inheritance`) need no
    Gröbner basis of ``gens``. When ``S`` proves, this wraps it; when it does
    not, the rest of the time goes to :func:`completeness_certificate` with
    ``method``, unless ``method`` is ``kind`` (then nothing else is tried).

    INPUT:

    - ``S`` -- a :class:`~sage_attention.ideals.segre.SegreCertificate` or
      an :class:`~sage_attention.ideals.inheritance.InheritanceCertificate`
    - ``kind`` -- ``'segre'``, ``'inheritance'``, ``'subspace'`` or ``'birational'`` (the method and the field
      of the certificate that holds ``S``)
    - ``started`` -- the ``time.time()`` at which ``S`` was started
    - the other arguments -- as in :func:`completeness_certificate`

    OUTPUT: a :class:`CompletenessCertificate`

    EXAMPLES:

    A failed Segre attempt, with nothing else tried, and with the
    localization after it::

        sage: import time
        sage: from sage_attention.ideals.completeness import structured_completeness
        sage: from sage_attention.ideals.segre import segre_certificate
        sage: R.<x,y,z> = QQ[]
        sage: phi = R.hom([x, y, z], R)
        sage: S = segre_certificate([], phi, 2)
        sage: structured_completeness(S, 'segre', [], R, 3, time.time(), method='segre').proved
        False
        sage: structured_completeness(S, 'segre', [], R, 3, time.time()).method
        'zero ideal'
    """
    k = ring.base_ring()
    p = int(k.characteristic()) or PRIMES[0]
    label = {"segre": "by a Segre product", "inheritance": "by inheritance",
             "subspace": "by inheritance from fewer features", "birational": "by a birational inverse"}[kind]
    if S.proved:
        return CompletenessCertificate(True, "the ideal found is the whole vanishing ideal: " + S.reason, p,
                                       int(dimension), kind, hilbert=getattr(S, "hilbert", None),
                                       timings={kind: time.time() - started}, **{kind: S})
    if method == kind:
        return CompletenessCertificate(False, f"{S.reason} (proof {label}: sage_attention.ideals.{kind})", p,
                                       int(dimension), timings={kind: time.time() - started}, **{kind: S})
    if timeout is not None:
        timeout = max(timeout - (time.time() - started), 1)
    C = completeness_certificate(gens, ring, dimension, timeout=timeout, method=method, seed=seed,
                                 progress=progress, processes=processes)
    setattr(C, kind, S)
    if not C.proved:
        # say why the structured proof failed too: its time is most of the limit
        C.reason = f"{C.reason.rstrip('.')} (before it, the proof {label}: {S.reason})"
    C.timings[kind] = time.time() - started - C.timings.get("total", 0)
    return C
