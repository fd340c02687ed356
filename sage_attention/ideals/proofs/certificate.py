r"""
The completeness certificate: the proof that succeeded, and every attempt

:class:`CompletenessCertificate` is what the whole-ideal proof returns,
whatever the technique: the proof of the technique that succeeded (a
certificate of the protocol of :mod:`sage_attention.ideals.proofs.protocol`),
every technique the strategy considered
(:mod:`sage_attention.ideals.proofs.strategy`), and the Hilbert data when the
proof computed them. Its ``verify()``, ``to_dict()``, HTML table and
``repr`` delegate to the proof. The mathematics of the claim it records is
in :mod:`sage_attention.ideals.proofs.completeness`.

EXAMPLES::

    sage: from sage_attention.ideals.proofs.completeness import completeness_certificate
    sage: R.<x,y,z> = QQ[]
    sage: C = completeness_certificate([x*y - z^2], R, 2); C
    Completeness certificate modulo 32003: the whole vanishing ideal (prime of dimension 2, by localization)
    sage: C.proof
    Primality certificate modulo 32003: prime (dimension 2, ...)
"""
from dataclasses import dataclass, field

from sage_attention.ideals.proofs.protocol import ProofCertificate, timings_dict

#: the techniques that kept a slot of their own in version 0.2 (read-only properties now)
SLOTS = ("segre", "inheritance", "subspace", "birational")


@dataclass
class CompletenessCertificate(ProofCertificate):
    r"""
    A proof (or a failed attempt) that generators give the whole vanishing ideal.

    Made by :func:`completeness_certificate` and by the strategy
    (:mod:`sage_attention.ideals.proofs.strategy`). Attributes:

    - ``proved`` -- whether `J = I` is proved
    - ``reason`` -- a sentence: what is proved, or which step failed
    - ``prime`` -- the prime `p`; ``dimension`` -- the lower bound `n` of `\dim X`
    - ``proof`` -- the certificate of the technique that proved it (of the
      protocol of :mod:`sage_attention.ideals.proofs.protocol`), or ``None``
    - ``attempts`` -- the :class:`~sage_attention.ideals.proofs.protocol.Attempt`
      of every technique considered, in order: its seconds, its outcome,
      why it stopped or did not apply, and its certificate
    - ``hilbert`` -- the :class:`~sage_attention.ideals.hilbert.HilbertData`
      of `J_p` (``certified`` when proved; for a Segre product, that of the
      variety, exact), or ``None``
    - ``timings`` -- seconds by step

    Read-only, as in earlier versions: ``method`` (the technique that
    proved, ``'localization'`` when the localization ran without proving,
    else ``None``), ``primality`` (the
    :class:`~sage_attention.ideals.proofs.localization.PrimalityCertificate`
    of the localization, when it was reached), ``minimal_primes`` (the
    number found by the decomposition, when it ran), and ``segre``,
    ``inheritance``, ``subspace``, ``birational`` (the certificate of that
    technique, when it was tried, proved or not).

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.completeness import completeness_certificate
        sage: R.<x,y,z> = QQ[]
        sage: C = completeness_certificate([x*y - z^2], R, 2)
        sage: C.technique, C.method, C.proof.technique, C.segre is None
        ('localization', 'localization', 'localization', True)
        sage: [(A.technique, A.outcome) for A in C.attempts]
        [('localization', 'proved')]
        sage: C.method = 'segre'
        Traceback (most recent call last):
        ...
        AttributeError: ...
    """
    proved: bool
    reason: str
    prime: int
    dimension: int
    proof: object = None
    attempts: list = field(default_factory=list)
    hilbert: object = None
    timings: dict = field(default_factory=dict)

    @property
    def technique(self):
        r"""
        The name of the technique that proved it (``None`` when not proved).

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.completeness import completeness_certificate
            sage: R.<x,y,z> = QQ[]
            sage: completeness_certificate([], R, 3).technique
            'zero ideal'
        """
        return None if self.proof is None else self.proof.technique

    @property
    def label(self):
        r"""
        How a sentence names the technique that proved it (``None`` when not proved).

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.completeness import completeness_certificate
            sage: R.<x,y,z> = QQ[]
            sage: completeness_certificate([x*y - z^2], R, 2).label
            'by localization'
        """
        return None if self.proof is None else self.proof.label

    def tried(self, technique):
        r"""
        Return the certificate of the last attempt of ``technique`` (proved or not), or ``None``.

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.completeness import completeness_certificate
            sage: R.<x,y,z> = QQ[]
            sage: C = completeness_certificate([x*y], R, 2, method='auto')
            sage: C.tried('localization').proved, C.tried('decomposition').minimal_primes, C.tried('segre')
            (False, 2, None)
        """
        found = [A.certificate for A in self.attempts if A.technique == technique and A.certificate is not None]
        return found[-1] if found else None

    @property
    def method(self):
        r"""
        The technique that proved it; ``'localization'`` when the localization ran without proving, else ``None``.

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.completeness import completeness_certificate
            sage: R.<x,y,z> = QQ[]
            sage: completeness_certificate([x*y], R, 2).method
            'localization'
        """
        if self.proof is not None:
            return self.proof.technique
        return "localization" if self.primality is not None else None

    @property
    def primality(self):
        r"""
        The :class:`~sage_attention.ideals.proofs.localization.PrimalityCertificate` of the localization, or ``None``.

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.completeness import completeness_certificate
            sage: R.<x,y,z> = QQ[]
            sage: completeness_certificate([x*y - z^2], R, 2).primality.proved
            True
        """
        return self.tried("localization")

    @property
    def minimal_primes(self):
        r"""
        The number of minimal primes found by the decomposition (when it ran), else ``None``.

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.completeness import completeness_certificate
            sage: R.<x,y,z> = QQ[]
            sage: completeness_certificate([x*y], R, 2, method='decomposition').minimal_primes
            2
        """
        D = self.tried("decomposition")
        return None if D is None else D.minimal_primes

    segre = property(lambda self: self.tried("segre"),
                     doc="The :class:`~sage_attention.ideals.proofs.segre.SegreCertificate` when tried, else ``None``.")
    inheritance = property(lambda self: self.tried("inheritance"),
                           doc="The :class:`~sage_attention.ideals.proofs.inheritance.InheritanceCertificate` "
                           "when tried, else ``None``.")
    subspace = property(lambda self: self.tried("subspace"),
                        doc="The :class:`~sage_attention.ideals.proofs.subspace.SubspaceCertificate` when tried, "
                        "else ``None``.")
    birational = property(lambda self: self.tried("birational"),
                          doc="The :class:`~sage_attention.ideals.proofs.birational.BirationalCertificate` when "
                          "tried, else ``None``.")

    def verify(self):
        r"""
        Re-check the proof from its data; return whether it holds.

        The proof's own ``verify()`` (:mod:`sage_attention.ideals.proofs.protocol`):
        a proof by localization re-runs its exact checks
        (:meth:`~sage_attention.ideals.proofs.localization.PrimalityCertificate.verify`);
        a Segre product or inheritance also re-checks the degrees through
        which the generators are complete, independently of the engine;
        the zero ideal needs no check; a proof by decomposition cannot be
        re-checked from data (``False``).

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.completeness import completeness_certificate
            sage: R.<x,y,z> = QQ[]
            sage: completeness_certificate([x*y - z^2], R, 2).verify()
            True
        """
        return bool(self.proved) and self.proof is not None and self.proof.verify() is True

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

            sage: from sage_attention.ideals.proofs.completeness import completeness_certificate
            sage: R.<x,y,z> = QQ[]
            sage: C = completeness_certificate([x*y - z^2], R, 2)
            sage: C.certifies_series(C.hilbert.numerator, C.hilbert.dimension)
            True
        """
        if not self.proved or self.proof is None:
            return False
        if self.proof.reduction_prime:
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

        The keys of earlier versions (``method``, ``minimal_primes``,
        ``localization``, ``segre``, ...), and ``technique``, ``proof`` (the
        proof's own ``to_dict()``) and ``attempts``.

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.completeness import completeness_certificate
            sage: R.<x,y,z> = QQ[]
            sage: D = completeness_certificate([x*y - z^2], R, 2).to_dict()
            sage: D['method'], D['technique'], D['proof']['proved'], [A['outcome'] for A in D['attempts']]
            ('localization', 'localization', True, ['proved'])
        """
        P = self.primality
        out = {"proved": self.proved, "reason": self.reason, "prime": self.prime, "dimension": self.dimension,
               "method": self.method, "minimal_primes": self.minimal_primes,
               "hilbert": None if self.hilbert is None else self.hilbert.to_dict(),
               "localization": None if P is None else P.to_dict()}
        for kind in SLOTS:
            S = self.tried(kind)
            out[kind] = None if S is None else S.to_dict()
        out.update({"timings": timings_dict(self.timings), "technique": self.technique,
                    "proof": None if self.proof is None else self.proof.to_dict(),
                    "attempts": [A.to_dict() for A in self.attempts]})
        return out

    def rows(self):
        r"""
        Return the rows of the HTML table: the summary, the proof's rows, the attempts and the timings.

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.completeness import completeness_certificate
            sage: R.<x,y,z> = QQ[]
            sage: completeness_certificate([x*y - z^2], R, 2).rows()[:5]
            [('proved', True), ('reason', ...), ('prime', 32003), ('dimension', 2), ('method', 'localization')]
        """
        rows = [("proved", self.proved), ("reason", self.reason), ("prime", self.prime),
                ("dimension", self.dimension), ("method", self.method)]
        if self.proof is not None and self.proof.proved:
            rows += self.proof.rows()
        rows += [(f"attempt: {A.technique}", f"{A.outcome} ({A.seconds:.2f} s): {A.reason}") for A in self.attempts]
        rows += [(f"seconds: {k}", f"{v:.2f}") for k, v in self.timings.items()]
        return rows

    def _repr_html_(self):
        r"""
        Return an HTML table of what was checked (Jupyter's rich display).

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.completeness import completeness_certificate
            sage: R.<x,y,z> = QQ[]
            sage: '<th>method</th><td>localization</td>' in completeness_certificate([x*y - z^2], R, 2)._repr_html_()
            True
        """
        from sage_attention.misc.html import html_table
        return html_table(self.rows(), caption=repr(self))

    def __repr__(self):
        if self.proved:
            return (f"Completeness certificate modulo {self.prime}: the whole vanishing ideal "
                    f"(prime of dimension {self.dimension}, {self.label})")
        return f"Completeness certificate modulo {self.prime}: not proved ({self.reason})"
