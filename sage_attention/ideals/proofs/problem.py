r"""
The problem record: everything a proof technique may ask about the ideal it proves

A :class:`ProofProblem` replaces the long argument lists of the techniques:
the generators `J` found by the engine and the degree through which they are
complete, their ring, the model or its parametrization, the prime, the
seed, the time budget, progress, the symmetry group and the engine's seconds.
What costs time is computed on first use and kept: the lower bound of the
dimension (a Jacobian rank), the parametrization of the ``(Q, K, V)`` form,
the Segre and matrix factorizations and the structure of forms in linear
forms (each technique reads what it needs, and the strategy asks for them
in the order the old ``_prove`` did, so nothing is computed that was not).

A smaller variety proved on the way (the factor `Y` of a Segre product, the
variety `X'` of a few columns, the base of fewer features) is a problem too,
made by :meth:`ProofProblem.for_map`: a map, its generators and a dimension,
with no model.

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.ideals.implicitization import implicitize
    sage: from sage_attention.ideals.proofs.problem import ProofProblem
    sage: M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
    sage: R = implicitize(M, 2, seed=0, prove=False)
    sage: P = ProofProblem(M.essential_ring(), R.essential_generators, 2, model=M, seed=0); P
    Proof problem: 3 generators in 6 coordinates over Rational Field, complete through degree 2
    sage: P.dimension(), P.nterms(), P.large(), P.prime
    (4, 6, False, 32003)
    sage: P.segre_factorization().block
    (q11, q12)
"""
from dataclasses import dataclass, field

from sage_attention.settings import settings

#: the question a problem asks when nothing else is said
WHOLE_IDEAL = "whole ideal"


@dataclass
class ProofProblem:
    r"""
    What a technique needs to prove (or fail to prove) that ``generators`` are the whole ideal.

    INPUT (attributes):

    - ``ring`` -- the polynomial ring of the coordinates (the essential ring)
    - ``generators`` -- polynomials of ``ring`` vanishing on the variety `X`
      and spanning `I(X)_k` for `k \le` ``complete_through`` (the engine's)
    - ``complete_through`` -- integer `c`
    - ``model`` -- (default: ``None``) the model; ``None`` for a map alone
    - ``parametrization`` -- (default: ``None``, that of the model's
      ``(Q, K, V)`` form) the map whose variety is `X`
    - ``prove`` -- (default: ``None``) the option of
      :func:`~sage_attention.ideals.implicitization.implicitize`
    - ``seed`` -- (default: `0`) the seed of every random choice
    - ``dimension_bound`` -- (default: ``None``, the model's dimension at
      ``seed``, computed on first use) a lower bound of `\dim X`
    - ``prime`` -- (default: ``None``: the characteristic of a prime field,
      else the first of ``settings.HILBERT_PRIMES``) the prime `p`
    - ``timeout`` -- (default: ``None``, no limit) seconds for the proof
    - ``progress`` -- (default: ``False``) show the steps on standard error
    - ``symmetry`` -- (default: ``None``) the
      :class:`~sage_attention.ideals.engine.symmetry.CoordinateSymmetries` of the engine
    - ``engine_seconds`` -- (default: `0`) the seconds the generators took
    - ``processes`` -- (default: ``None``) processes of the localization
    - ``structure`` -- (default: ``None``, the model's, when asked for) a
      :class:`~sage_attention.models.linear_forms.LinearFormStructure`
    - ``question`` -- (default: ``'whole ideal'``) the question asked of the
      registry (:mod:`sage_attention.ideals.proofs.registry`)
    """
    ring: object
    generators: tuple
    complete_through: int
    model: object = None
    parametrization: object = None
    prove: object = None
    seed: object = 0
    dimension_bound: object = None
    prime: object = None
    timeout: object = None
    progress: bool = False
    symmetry: object = None
    engine_seconds: float = 0
    processes: object = None
    structure: object = None
    question: str = WHOLE_IDEAL
    memos: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        self.generators = tuple(self.generators)
        self.complete_through = int(self.complete_through)
        k = self.ring.base_ring()
        if self.prime is None:
            self.prime = int(k.characteristic()) or int(settings.HILBERT_PRIMES[0])
        if self.structure is not None:
            self.memos["structure"] = self.structure

    @classmethod
    def for_map(cls, psi, generators, complete_through, dimension, **kwds):
        r"""
        Return the problem of a map alone (a smaller variety proved on the way).

        INPUT:

        - ``psi`` -- the map (coordinates to parameters)
        - ``generators``, ``complete_through`` -- as in :class:`ProofProblem`
        - ``dimension`` -- a lower bound of the dimension of its variety
        - ``kwds`` -- further attributes

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.problem import ProofProblem
            sage: P.<s,t> = QQ[]; U.<a,b,c> = QQ[]
            sage: Q = ProofProblem.for_map(U.hom([s^2, s*t, t^2], P), [a*c - b^2], 2, 2)
            sage: Q.dimension(), Q.model is None, Q.segre_factorization() is None
            (2, True, True)
        """
        return cls(psi.domain(), generators, complete_through, parametrization=psi, dimension_bound=dimension,
                   **kwds)

    def __repr__(self):
        return (f"Proof problem: {len(self.generators)} generators in {self.ring.ngens()} coordinates over "
                f"{self.ring.base_ring()}, complete through degree {self.complete_through}")

    def memo(self, key, compute):
        r"""
        Return ``compute()``, computed once per problem and kept under ``key``.

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.problem import ProofProblem
            sage: P = ProofProblem(QQ['x'], [], 1)
            sage: P.memo("answer", lambda: 42), P.memo("answer", lambda: 0)
            (42, 42)
        """
        if key not in self.memos:
            self.memos[key] = compute()
        return self.memos[key]

    def base_field_supported(self):
        r"""
        Return whether the base field is `\QQ` or a prime field (the proofs work over those only).

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.problem import ProofProblem
            sage: ProofProblem(QQ['x'], [], 1).base_field_supported()
            True
        """
        from sage.rings.rational_field import QQ
        k = self.ring.base_ring()
        return k is QQ or (k.is_finite() and k.is_prime_field())

    def over_rationals(self):
        r"""
        Return whether the base field is `\QQ`.

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.problem import ProofProblem
            sage: ProofProblem(GF(5)['x'], [], 1).over_rationals()
            False
        """
        from sage.rings.rational_field import QQ
        return self.ring.base_ring() is QQ

    def twin(self):
        r"""
        Return the model with a polynomial weight space (:func:`~sage_attention.ideals.engine.interpolation.qkv_twin`).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.proofs.problem import ProofProblem
            sage: M = LightningAttention(d=2, t=1, a=1)
            sage: ProofProblem(M.essential_ring(), [], 1, model=M).twin() is M
            True
        """
        from sage_attention.ideals.engine.interpolation import qkv_twin
        return self.memo("twin", lambda: qkv_twin(self.model))

    def parametrization_map(self):
        r"""
        Return the map whose variety is `X`: the one given, else that of the model's twin.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.proofs.problem import ProofProblem
            sage: M = LightningAttention(d=2, t=1, a=1)
            sage: ProofProblem(M.essential_ring(), [], 1, model=M).parametrization_map().domain().ngens()
            4
        """
        if self.parametrization is None:
            self.parametrization = self.twin().essential_parametrization()
        return self.parametrization

    def dimension(self):
        r"""
        Return the lower bound of `\dim X` (computed on first use; may raise ``ValueError`` or ``ArithmeticError``).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.proofs.problem import ProofProblem
            sage: M = LightningAttention(d=2, t=1, a=1)
            sage: ProofProblem(M.essential_ring(), [], 1, model=M).dimension()
            4
        """
        if self.dimension_bound is None:
            self.dimension_bound = self.model.dimension(seed=self.seed)
        return self.dimension_bound

    def nterms(self):
        r"""
        Return the number of terms of the generators, in all.

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.problem import ProofProblem
            sage: R.<x,y> = QQ[]
            sage: ProofProblem(R, [x*y - y^2, x^2], 2).nterms()
            3
        """
        return self.memo("nterms", lambda: sum(len(g.monomials()) for g in self.generators))

    def large(self):
        r"""
        Return whether the generators have more terms than ``settings.PROOF_TERMS_LIMIT``.

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.problem import ProofProblem
            sage: R.<x,y> = QQ[]
            sage: ProofProblem(R, [x*y], 2).large()
            False
        """
        return self.nterms() > settings.PROOF_TERMS_LIMIT

    def symmetries(self):
        r"""
        Return the permutations of the coordinates found by the engine (``()`` when none).

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.problem import ProofProblem
            sage: ProofProblem(QQ['x'], [], 1).symmetries()
            ()
        """
        return tuple(self.symmetry.generators) if self.symmetry is not None else ()

    def segre_factorization(self):
        r"""
        Return the Segre factorization of the parametrization, or ``None`` (:mod:`sage_attention.ideals.proofs.segre`).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.proofs.problem import ProofProblem
            sage: M = LightningAttention(d=2, t=1, a=1)
            sage: ProofProblem(M.essential_ring(), [], 1, model=M).segre_factorization() is None
            True
        """
        from sage_attention.ideals.proofs.segre_factor import segre_factorization
        return self.memo("segre", lambda: segre_factorization(self.parametrization_map()))

    def matrix_factorization(self):
        r"""
        Return the factorization `F(p) \cdot C` of the parametrization over `\QQ` when it is no Segre product, or ``None``.

        See :mod:`sage_attention.ideals.proofs.inheritance`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.proofs.problem import ProofProblem
            sage: M = LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)])
            sage: ProofProblem(M.essential_ring(), [], 1, model=M).matrix_factorization().shape
            (6, 2, 3)
        """
        def compute():
            if self.segre_factorization() is not None or not self.over_rationals():
                return None
            from sage_attention.ideals.proofs.matrix_product import matrix_factorization
            return matrix_factorization(self.parametrization_map())
        return self.memo("matrix", compute)

    def linear_form_structure(self):
        r"""
        Return the structure of forms in linear forms of the model over `\QQ` when it is no Segre product, or ``None``.

        The structure given to the problem is returned as it is.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.proofs.problem import ProofProblem
            sage: M = LightningAttention(d=4, t=1, a=1)
            sage: L = ProofProblem(M.essential_ring(), [], 1, model=M).linear_form_structure()
            sage: L.nfeatures, L.nforms
            (4, 3)
        """
        def compute():
            if self.model is None or self.segre_factorization() is not None or not self.over_rationals():
                return None
            return self.twin().linear_form_structure()
        return self.memo("structure", compute)
