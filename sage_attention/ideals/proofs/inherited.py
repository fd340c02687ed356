r"""
What the proofs by inheritance share: a generation degree and the engine's generators

The proofs by inheritance of a matrix product
(:mod:`sage_attention.ideals.proofs.inheritance`) and from fewer features
(:mod:`sage_attention.ideals.proofs.subspace`) both show that `I(X)` is
generated in degrees at most some bound, and conclude from the engine's
"complete through degree `c`". :class:`InheritedCertificate` holds what they
share, and re-checks the engine's spanning hypothesis independently
(:meth:`InheritedCertificate.span_checks`).

EXAMPLES::

    sage: from sage_attention.ideals.proofs.inherited import InheritedCertificate
    sage: InheritedCertificate(False, "nothing").degrees_hold(2)
    False
"""
from dataclasses import dataclass, field

from sage_attention.ideals.engine.graded_kernel import kernel_spans
from sage_attention.ideals.proofs.protocol import ProofCertificate


@dataclass
class InheritedCertificate(ProofCertificate):
    r"""
    What the proofs by inheritance share: a bound on the generation degree and the engine's generators.

    The base of :class:`~sage_attention.ideals.proofs.inheritance.InheritanceCertificate`
    and :class:`~sage_attention.ideals.proofs.subspace.SubspaceCertificate`. Attributes:
    ``proved``, ``reason`` (a sentence), ``generation_degree`` (the degree in
    which the theorem shows `I(X)` is generated), ``complete_through`` (`c`:
    the generators span `I(X)_k` for `k \le c`), ``generators`` (those of
    `J`), ``timings``; a subclass gives the parametrization of `X`
    (:meth:`parametrization_map`).
    """
    proved: bool
    reason: str
    generation_degree: object = None
    complete_through: int = 0
    generators: tuple = ()
    timings: dict = field(default_factory=dict)

    def parametrization_map(self):
        r"""
        Return the parametrization of `X`.

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.inherited import InheritedCertificate
            sage: InheritedCertificate(False, "nothing").parametrization_map()
            Traceback (most recent call last):
            ...
            NotImplementedError: a proof by inheritance gives its parametrization
        """
        raise NotImplementedError("a proof by inheritance gives its parametrization")

    def span_checks(self, seed=1):
        r"""
        Return ``[(k, rank, dim I(X)_k)]`` for `k \le` ``generation_degree``: the spanning hypothesis, re-checked.

        ``rank`` is the rank modulo a prime of the degree-`k` multiples of
        the generators of `J` (a lower bound of `\dim_\QQ J_k`) and `\dim
        I(X)_k` the dimension from the evaluation at random points of `X`
        modulo that prime (an upper bound), piece by piece of the finest
        grading (:func:`~sage_attention.ideals.engine.graded_kernel.kernel_spans`).
        Equality for every `k` proves `J_k = I(X)_k`, as `J \subseteq I(X)`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.implicitization import implicitize
            sage: from sage_attention.ideals.proofs.inheritance import inheritance_certificate
            sage: M = LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)])
            sage: R = implicitize(M, 4, seed=0, prove=False)
            sage: S = inheritance_certificate(R.essential_generators, M.essential_parametrization(), 4, seed=0)
            sage: S.span_checks()
            [(1, 0, 0), (2, 0, 0), (3, 30, 30), (4, 585, 585)]
        """
        return kernel_spans(self.parametrization_map(), list(self.generators), self.generation_degree, seed=seed)

    def degrees_hold(self, bound):
        r"""
        Return whether the generation degree is the theorem's ``bound``, within the degrees known complete.

        And whether the generators span every degree through it (:meth:`span_checks`).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.implicitization import implicitize
            sage: from sage_attention.ideals.proofs.subspace import subspace_certificate
            sage: M = LightningAttention(d=4, t=1, a=1)
            sage: G = implicitize(M, 4, seed=0, prove=False).essential_generators
            sage: S = subspace_certificate(G, M.essential_parametrization(), M.linear_form_structure(), 4)
            sage: S.degrees_hold(4), S.degrees_hold(3)
            (True, False)
        """
        if self.generation_degree != bound or bound > self.complete_through:
            return False
        return all(rank == want for _, rank, want in self.span_checks())
