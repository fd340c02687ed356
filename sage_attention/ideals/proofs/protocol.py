r"""
The certificate protocol: what every proof technique returns

Every technique of :mod:`sage_attention.ideals.proofs` returns a certificate
of one shape, so the strategy (:mod:`sage_attention.ideals.proofs.strategy`),
the completeness certificate, the command line's JSON and Jupyter's display
need to know nothing about the technique:

- ``proved`` -- whether the technique proved its claim;
- ``reason`` -- a sentence: what is proved, or which step failed;
- ``technique`` -- the technique's name in the registry
  (:mod:`sage_attention.ideals.proofs.registry`), e.g. ``'segre'``;
- ``label`` -- how sentences name it ("by a Segre product");
- ``verify()`` -- re-check the proof from its stored data (``False`` when
  not proved, or when it cannot be re-checked);
- ``to_dict()`` -- a JSON-ready dictionary (with ``proved`` and ``reason``);
- ``rows()`` -- ``(name, value)`` rows of what was checked, for the HTML
  table (:meth:`ProofCertificate._repr_html_`);
- ``__repr__`` -- one line.

Two class attributes say what a proof shows beyond the whole ideal:
``reduction_prime`` (it proves the reduction `J_p` prime, so a Hilbert
series modulo `p` is the one over `\QQ`,
:meth:`~sage_attention.ideals.proofs.completeness.CompletenessCertificate.certifies_series`)
and ``rests_on_dimension`` (it uses the lower bound of the dimension, so the
result names that bound).

The strategy records every technique it considered as an :class:`Attempt`.
A claimed proof is accepted only through :func:`accepted`: the certificate
must follow this protocol and name the technique that made it, and, when the
registry asks for it (the default for a new technique), its ``verify()``
must hold.

EXAMPLES:

The smallest certificates, the zero ideal and a primary decomposition::

    sage: from sage_attention.ideals.proofs.protocol import ZeroIdealCertificate, DecompositionCertificate
    sage: Z = ZeroIdealCertificate(True, "the zero ideal is prime, and the variety fills the space", 32003)
    sage: Z, Z.verify(), Z.technique
    (Zero ideal certificate: the zero ideal is prime, and the variety fills the space, True, 'zero ideal')
    sage: D = DecompositionCertificate(False, "2 minimal primes", 32003, minimal_primes=2)
    sage: sorted(D.to_dict().items())
    [('minimal_primes', 2), ('prime', 32003), ('proved', False), ('reason', '2 minimal primes')]
    sage: D.rows()
    [('minimal primes', 2)]

A claim that does not verify is not accepted::

    sage: from sage_attention.ideals.proofs.protocol import accepted
    sage: class Wrong(ZeroIdealCertificate):
    ....:     def verify(self):
    ....:         return False
    sage: accepted(Wrong(True, "trust me", 2), "zero ideal", recheck=True)
    (False, 'the certificate claims a proof, but its verify() does not hold: not accepted')
    sage: accepted(Z, "zero ideal", recheck=True)
    (True, '')
"""
from dataclasses import dataclass, field


class ProofCertificate:
    r"""
    The protocol of the certificates of every technique (a base class with the shared parts).

    A technique's certificate is a dataclass with at least the fields
    ``proved`` and ``reason``; it sets the class attributes ``technique``
    and ``label`` and implements :meth:`verify`, :meth:`to_dict`,
    :meth:`rows` and ``__repr__``.

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.protocol import ProofCertificate
        sage: ProofCertificate().verify()
        Traceback (most recent call last):
        ...
        NotImplementedError: a technique's certificate implements verify()
    """
    #: the technique's name in the registry
    technique = None
    #: how a sentence names the technique ("by a Segre product")
    label = None
    #: whether a proof shows the reduction modulo `p` prime (then its Hilbert series is the true one)
    reduction_prime = False
    #: whether a proof rests on the lower bound of the dimension of the variety
    rests_on_dimension = False

    def verify(self):
        r"""
        Re-check the proof from its stored data; return whether it holds.

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.protocol import ZeroIdealCertificate
            sage: ZeroIdealCertificate(False, "no", 2).verify()
            False
        """
        raise NotImplementedError("a technique's certificate implements verify()")

    def to_dict(self):
        r"""
        Return a JSON-ready dictionary (at least ``proved`` and ``reason``).

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.protocol import ProofCertificate
            sage: ProofCertificate().to_dict()
            Traceback (most recent call last):
            ...
            NotImplementedError: a technique's certificate implements to_dict()
        """
        raise NotImplementedError("a technique's certificate implements to_dict()")

    def rows(self):
        r"""
        Return the ``(name, value)`` rows of what a proof checked (none by default; shown when proved).

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.protocol import ProofCertificate
            sage: ProofCertificate().rows()
            []
        """
        return []

    def _repr_html_(self):
        r"""
        Return an HTML table of the certificate (Jupyter's rich display).

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.protocol import ZeroIdealCertificate
            sage: '<th>technique</th><td>zero ideal</td>' in ZeroIdealCertificate(True, "yes", 2)._repr_html_()
            True
        """
        from sage_attention.misc.html import html_table
        rows = [("technique", self.technique), ("proved", self.proved), ("reason", self.reason)]
        return html_table(rows + (self.rows() if self.proved else []), caption=repr(self))


def is_certificate(C):
    r"""
    Return whether ``C`` follows the certificate protocol.

    INPUT:

    - ``C`` -- anything

    OUTPUT: boolean

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.protocol import is_certificate, ZeroIdealCertificate
        sage: is_certificate(ZeroIdealCertificate(True, "yes", 2)), is_certificate("proved")
        (True, False)
    """
    return (all(callable(getattr(C, m, None)) for m in ("verify", "to_dict", "rows"))
            and isinstance(getattr(C, "proved", None), bool) and isinstance(getattr(C, "reason", None), str)
            and isinstance(getattr(C, "technique", None), str))


def accepted(C, technique, recheck=False):
    r"""
    Return ``(accepted, why not)``: whether the claimed proof ``C`` of ``technique`` is accepted.

    A claim is accepted when ``C`` follows the protocol, names ``technique``,
    claims ``proved`` and, with ``recheck``, its ``verify()`` holds.

    INPUT:

    - ``C`` -- what a technique's prover returned
    - ``technique`` -- the name of that technique
    - ``recheck`` -- boolean (default: ``False``); run ``verify()``

    OUTPUT: a pair (boolean, sentence, empty when accepted)

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.protocol import accepted, ZeroIdealCertificate
        sage: accepted(ZeroIdealCertificate(True, "yes", 2), "segre")
        (False, "the certificate is one of 'zero ideal', not of 'segre': not accepted")
        sage: accepted(ZeroIdealCertificate(False, "no", 2), "zero ideal")
        (False, 'no')
        sage: accepted(object(), "segre")
        (False, 'the prover returned no certificate of the protocol (sage_attention.ideals.proofs.protocol): not accepted')
    """
    if not is_certificate(C):
        return False, ("the prover returned no certificate of the protocol (sage_attention.ideals.proofs.protocol): "
                       "not accepted")
    if C.technique != technique:
        return False, f"the certificate is one of {C.technique!r}, not of {technique!r}: not accepted"
    if not C.proved:
        return False, C.reason
    if recheck and C.verify() is not True:
        return False, "the certificate claims a proof, but its verify() does not hold: not accepted"
    return True, ""


#: the outcomes of an attempt
OUTCOMES = ("proved", "not proved", "not applicable", "not tried", "rejected", "stopped the proof", "passed")


@dataclass
class Attempt:
    r"""
    One technique considered by the strategy: what happened and why.

    Attributes: ``technique`` (its name, or a step of the strategy such as
    ``'probe of degree 4'``), ``seconds``, ``outcome`` (one of
    :data:`OUTCOMES`), ``reason`` (why it stopped or did not apply, or what
    it proved), ``certificate`` (what the technique returned, or ``None``).

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.protocol import Attempt
        sage: A = Attempt("segre", 0.5, "not applicable", "no Segre product"); A
        segre: not applicable (0.50 s): no Segre product
        sage: sorted(A.to_dict().items())
        [('outcome', 'not applicable'), ('reason', 'no Segre product'), ('seconds', 0.5), ('technique', 'segre')]
    """
    technique: str
    seconds: float
    outcome: str
    reason: str
    certificate: object = None

    def to_dict(self):
        r"""
        Return a JSON-ready dictionary (without the certificate).

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.protocol import Attempt
            sage: Attempt("localization", 1, "proved", "prime").to_dict()['seconds']
            1.0
        """
        return {"technique": self.technique, "seconds": round(float(self.seconds), 4), "outcome": self.outcome,
                "reason": self.reason}

    def __repr__(self):
        return f"{self.technique}: {self.outcome} ({self.seconds:.2f} s): {self.reason}"


class OverLimit(str):
    r"""
    A reason why a technique does not apply that is a size limit (it would apply beyond it).

    The default proof names these limits when it tests nothing
    (``prove=True`` lifts them).

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.protocol import OverLimit
        sage: r = OverLimit("the ideal of 30 coordinates, more than 24"); isinstance(r, str), r
        (True, 'the ideal of 30 coordinates, more than 24')
    """


@dataclass
class ZeroIdealCertificate(ProofCertificate):
    r"""
    The zero ideal: prime, and the whole vanishing ideal exactly when the variety fills the space.

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.protocol import ZeroIdealCertificate
        sage: sorted(ZeroIdealCertificate(True, "fills", 2).to_dict().items())
        [('prime', 2), ('proved', True), ('reason', 'fills')]
    """
    proved: bool
    reason: str
    prime: int = None
    technique = "zero ideal"
    label = "the zero ideal"
    reduction_prime = True
    rests_on_dimension = True

    def verify(self):
        r"""
        Return whether proved (the zero ideal needs no other check).

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.protocol import ZeroIdealCertificate
            sage: ZeroIdealCertificate(True, "fills", 2).verify()
            True
        """
        return bool(self.proved)

    def to_dict(self):
        r"""
        Return a JSON-ready dictionary.

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.protocol import ZeroIdealCertificate
            sage: ZeroIdealCertificate(False, "no", 2).to_dict()['proved']
            False
        """
        return {"proved": self.proved, "reason": self.reason, "prime": self.prime}

    def __repr__(self):
        return f"Zero ideal certificate: {self.reason}"


@dataclass
class DecompositionCertificate(ProofCertificate):
    r"""
    Singular's ``minAssGTZ`` on `J_p`: prime when there is one minimal prime and it is contained in `J_p`.

    It cannot be re-checked from data: :meth:`verify` returns ``False``.

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.protocol import DecompositionCertificate
        sage: D = DecompositionCertificate(True, "one minimal prime", 32003, minimal_primes=1)
        sage: D, D.verify()
        (Decomposition certificate modulo 32003: prime (one minimal prime), False)
    """
    proved: bool
    reason: str
    prime: int = None
    minimal_primes: object = None
    technique = "decomposition"
    label = "by primary decomposition"
    reduction_prime = True
    rests_on_dimension = True

    def verify(self):
        r"""
        Return ``False``: a primary decomposition cannot be re-checked from data.

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.protocol import DecompositionCertificate
            sage: DecompositionCertificate(True, "one", 2, 1).verify()
            False
        """
        return False

    def to_dict(self):
        r"""
        Return a JSON-ready dictionary.

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.protocol import DecompositionCertificate
            sage: sorted(DecompositionCertificate(True, "one", 2, 1).to_dict())
            ['minimal_primes', 'prime', 'proved', 'reason']
        """
        return {"proved": self.proved, "reason": self.reason, "prime": self.prime,
                "minimal_primes": self.minimal_primes}

    def rows(self):
        r"""
        Return the rows of the HTML table.

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.protocol import DecompositionCertificate
            sage: DecompositionCertificate(True, "one", 2, 1).rows()
            [('minimal primes', 1)]
        """
        return [("minimal primes", self.minimal_primes)]

    def __repr__(self):
        state = "prime" if self.proved else "not proved"
        return f"Decomposition certificate modulo {self.prime}: {state} ({self.reason})"


def timings_dict(timings):
    r"""
    Return ``timings`` rounded for JSON.

    INPUT:

    - ``timings`` -- a dictionary of seconds

    OUTPUT: a dictionary

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.protocol import timings_dict
        sage: timings_dict({'total': 1.234567})
        {'total': 1.2346}
    """
    return {k: round(float(v), 4) for k, v in timings.items()}


__all__ = ["ProofCertificate", "Attempt", "OverLimit", "ZeroIdealCertificate", "DecompositionCertificate",
           "accepted", "is_certificate", "OUTCOMES"]
