r"""
The Hilbert data of a neurovariety: Hilbert series, dimension, degree

The methods of :class:`~sage_attention.variety.neurovariety.Neurovariety`
read off the Hilbert series of its vanishing ideal
(:mod:`sage_attention.variety.vanishing_ideal`): :meth:`HilbertInvariants.hilbert_data`
(with graded Betti numbers on request), the Krull dimension of the affine
cone, the dimension and the degree of the projective variety.

Where the numbers come from, most exact first:

- the whole-ideal proof of the interpolation computed the Hilbert series
  modulo `32003`, and by the claim of
  :mod:`sage_attention.ideals.proofs.completeness` it is the series over the
  base field;
- elimination gives a Gröbner basis over `\QQ`, whose leading monomials
  give the series exactly;
- the theorem of :mod:`sage_attention.ideals.proofs.common_factor` gives the
  degree and dimension of the varieties of forms with a common linear
  factor (checked against the Jacobian rank);
- otherwise the series of the ideal found, modulo two primes
  (:func:`~sage_attention.ideals.hilbert.hilbert_data`), which bounds the
  variety's only from above: then the dimension is the Jacobian rank and
  the degree is refused with the reason.

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.variety.neurovariety import Neurovariety
    sage: X = Neurovariety(LightningAttention(d=2, t=2, a=1, entries=[(1, 1)]))
    sage: X.krull_dimension(), X.projective_dimension(), X.degree()
    (4, 3, 3)
    sage: X.hilbert_data().certified
    True
"""
# sage.doctest: needs sage.libs.singular
import logging

from sage_attention.misc.errors import ComputationTooLarge
from sage_attention.misc.keywords import keyword_hints
from sage_attention.variety.vanishing_ideal import generators_missing

logger = logging.getLogger("sage_attention")


def _proof_series(res):
    r"""
    Return the exact Hilbert data that the whole-ideal proof of the report ``res`` computed, or ``None``.
    """
    C = getattr(res, "certificate", None)
    if C is not None and C.proved and C.hilbert is not None and C.hilbert.certified:
        return C.hilbert
    return None



@keyword_hints
class HilbertInvariants:
    r"""
    The Hilbert data, dimension and degree of a neurovariety (a mix-in
    class of :class:`~sage_attention.variety.neurovariety.Neurovariety`,
    which provides ``_model``, the cache ``_results``, the vanishing
    ideal and its minimal generators).

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.neurovariety import Neurovariety
        sage: from sage_attention.variety.hilbert_invariants import HilbertInvariants
        sage: X = Neurovariety(LightningAttention(d=2, t=2, a=2, entries=[(1, 1)]))
        sage: isinstance(X, HilbertInvariants), X.degree()
        (True, 4)
    """

    def hilbert_data(self, betti=False, progress=False, timeout=None):
        r"""
        Return the Hilbert series, dimension, degree and graded Betti numbers of the coordinate ring.

        They are those of the essential ring modulo the essential ideal (the
        linear relations only remove variables). When the engine's ideal is
        proved whole (without ``betti``) they are read off its completeness
        certificate, which computed them modulo `32003`: by the claim of
        :mod:`sage_attention.ideals.proofs.completeness` they are then the data over
        the base field. Otherwise they are computed modulo the primes
        `32003` and `32009` (:func:`~sage_attention.ideals.hilbert.hilbert_data`)
        from the minimal generators. The Hilbert series is exact
        (``certified``) when the ideal was computed by elimination (it is
        then read off the leading monomials of the Gröbner basis over `\QQ`)
        or proved complete (sage_attention.ideals.proofs.completeness); otherwise the
        modular series bounds the rational one from above, coefficientwise,
        and the agreement of two primes is evidence. The Betti numbers are
        those modulo `32003`, checked modulo `32009`.

        INPUT:

        - ``betti`` -- boolean (default: ``False``); also compute the graded
          Betti numbers (a minimal free resolution: slow beyond a dozen
          coordinates)
        - ``progress`` -- boolean (default: ``False``); show each step (the
          vanishing ideal, the minimal generators, the series and the
          resolution modulo each prime) and the seconds it has been running
          on standard error
        - ``timeout`` -- (default: ``None``) seconds for each resolution, or
          ``None`` for no limit; when hit, ``betti`` is ``None`` and the
          result's ``notes`` say so

        OUTPUT: a :class:`~sage_attention.ideals.hilbert.HilbertData` (cached)

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: X = Neurovariety(LightningAttention(d=2, t=2, a=1, entries=[(1, 1)]))
            sage: X.hilbert_data()
            Hilbert data modulo 32003 (equal to the data over QQ (proved)): dimension 4, degree 3
            sage: H = X.hilbert_data(betti=True); H.betti
            [{0: 1}, {2: 3}, {3: 2}]

        The data of an ideal not proved whole say so: the token of width `4`
        and rank `3` has no equation through degree `4`, so these are the
        data of the zero ideal (its degree, by
        :mod:`sage_attention.ideals.proofs.common_factor`, is `220`)::

            sage: X = Neurovariety(LightningAttention(d=4, t=1, a=3))
            sage: X.hilbert_data()
            interpolation of LightningAttention(d=4, out=1, t=1, a=3) over Rational Field: complete through degree 4 only, not proved complete
            Hilbert data modulo 32003 and 32009 (they agree): dimension 20, degree 1;
            these are the data of the ideal found (complete through degree 4), not proved to be the whole vanishing ideal: its dimension is at least the variety's (13 by Jacobian rank), and when they agree its degree is at least the variety's
        """
        from sage_attention.models.checks import seconds
        timeout = seconds(timeout, "timeout")
        key = self._hilbert_key(betti, timeout)
        if key not in self._results:
            try:
                self._results[key] = self._hilbert_data(bool(betti), progress, timeout)
            except ComputationTooLarge as e:
                raise self._beyond(e, "the Hilbert data") from None
        return self._results[key]

    @staticmethod
    def _hilbert_key(betti=False, timeout=None):
        r"""
        Return the key under which :meth:`hilbert_data` caches its result.
        """
        return ("hilbert data", bool(betti), timeout)

    def _hilbert_data(self, betti, progress, timeout=None):
        from sage_attention.ideals.hilbert import hilbert_data, HilbertData, series_data
        res = self.vanishing_ideal_report(progress=progress)
        C = getattr(res, "certificate", None)
        if not betti and _proof_series(res) is not None:
            # the proof computed the Hilbert series of the reduction J_p, and it equals the
            # one over the base field (sage_attention.ideals.proofs.completeness, the claim)
            H = C.hilbert
            return HilbertData(numerator=H.numerator, dimension=H.dimension, degree=H.degree, betti=None,
                               primes=H.primes, agree=True, certified=True, timings=dict(C.timings))
        E = self._model.essential_ring()
        gens = [E(g) for g in self._engine_or_minimal(progress)]
        H = hilbert_data(gens, E, betti=betti, progress=progress, timeout=timeout)
        certified = bool(getattr(res, "proved_complete", False))
        notes = tuple(H.notes)
        if not certified and not getattr(res, "proved_complete", True):
            rank = self._jacobian_dimension(None)
            notes += (f"these are the data of the ideal found (complete through degree "
                      f"{res.complete_through_degree}), not proved to be the whole vanishing ideal: its "
                      "dimension is at least the variety's"
                      + (f" ({rank} by Jacobian rank)" if rank is not None else "")
                      + ", and when they agree its degree is at least the variety's",)
        if certified and C is not None and not C.certifies_series(H.numerator, H.dimension):
            certified = False
            notes += (f"the whole ideal is proved over QQ ({C.method}), but the Hilbert series is that of its "
                      "reductions modulo the primes, coefficientwise an upper bound of the true one, not proved "
                      "equal to it",)
        if not hasattr(res, "complete_through_degree"):
            # elimination: the essential ideal is generated by a Groebner basis over QQ
            gb = [g for g in res.essential_ideal.gens() if g]
            from sage.all__sagemath_singular import GF
            from sage_attention.settings import settings
            Ep = E.change_ring(GF(settings.HILBERT_PRIMES[0]))
            num, dim, deg = series_data(Ep.ideal([Ep(g.lm()) for g in gb] if gb else [Ep.zero()]))
            certified = (num, dim, deg) == (H.numerator, H.dimension, H.degree)
            if not certified:
                logger.warning("the modular Hilbert series of %s differs from the exact one; using the exact one",
                               self._model)
                return HilbertData(numerator=num, dimension=dim, degree=deg, betti=None, primes=(),
                                   agree=True, certified=True)
        return HilbertData(numerator=H.numerator, dimension=H.dimension, degree=H.degree, betti=H.betti,
                           primes=H.primes, agree=H.agree, certified=certified, timings=H.timings, notes=notes)

    def _engine_or_minimal(self, progress=False):
        res = self.vanishing_ideal_report(progress=progress)
        if hasattr(res, "complete_through_degree"):
            return list(res.essential_generators)
        return self._engine_generators(progress)

    def krull_dimension(self, progress=False):
        r"""
        Return the Krull dimension of the coordinate ring of the affine cone.

        This is the dimension of the (affine) neurovariety, the one
        :meth:`~sage_attention.variety.neurovariety.Neurovariety.dimension` computes by
        Jacobian rank; the projective variety has dimension one less (:meth:`projective_dimension`). It is read off
        the exact Hilbert series of the vanishing ideal when there is one at
        hand (given by its proof, or by elimination; ``progress`` as in
        :meth:`hilbert_data`), or taken from the theorem of
        :mod:`sage_attention.ideals.proofs.common_factor` where it applies (as
        :meth:`degree`). Otherwise (the ideal is not proved whole, its proof
        gives no Hilbert series, or it is beyond this machine) it is the
        Jacobian rank (:meth:`~sage_attention.variety.neurovariety.Neurovariety.dimension`:
        a certified lower bound, equal to the dimension with high probability); the Hilbert series of the ideal
        found, which would only bound it from above, is not computed.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: Neurovariety(LightningAttention(d=2, t=1, a=1)).krull_dimension()
            4

        A model whose vanishing ideal is beyond this machine (its monomials
        of degree `4` alone would need hundreds of GiB) has a dimension all
        the same::

            sage: X = Neurovariety(LightningAttention(d=8, t=3, a=4))
            sage: X.krull_dimension()
            55
            sage: X.degree()
            Traceback (most recent call last):
            ...
            ComputationTooLarge: the degree of the neurovariety of LightningAttention(d=8, out=1, t=3, a=4) over Rational Field needs its vanishing ideal, which is beyond this machine here: the table of the 292664520 monomials of degree 4 in 288 essential coordinates needs about 632.4 GiB of memory (limit ...); vanishing_ideal(degree=...) computes it through degree ..., the largest whose table fits (...), and dimension() the dimension (Jacobian rank)
        """
        try:
            known = self._degree_by_theorem(progress)
        except ComputationTooLarge:
            # the vanishing ideal is beyond this machine: the dimension needs none
            rank = self._jacobian_dimension(None)
            if rank is None:
                raise
            logger.info("krull_dimension of %s: the vanishing ideal is beyond this machine; the Jacobian rank",
                        self._model)
            return rank
        if known is not None:
            return known[1]
        if not self._exact_series_at_hand(progress):
            # the Hilbert series of the ideal found would only bound the dimension from above
            # (and may not finish): the Jacobian rank is the dimension
            rank = self._jacobian_dimension(None)
            if rank is not None:
                return rank
        H = self.hilbert_data(progress=progress)
        # not proved: when generators are missing the ideal found cuts out more than the variety
        return int(H.dimension) if H.certified else self._jacobian_dimension(H.dimension)

    def _beyond(self, error, what):
        r"""
        Return the :class:`~sage_attention.misc.errors.ComputationTooLarge` of ``what`` when the vanishing ideal is beyond this machine.

        The library's refusal names fixes (``force=True``, a lower degree)
        that :meth:`degree` and :meth:`hilbert_data` do not take; this one
        names what the user can call instead.
        """
        # the degree the refusal found to fit, when it found one (else none is promised)
        fits = error.degree
        lower = (f"vanishing_ideal(degree={fits}) computes it through degree {fits}, the "
                 "largest whose table fits" if fits else
                 "vanishing_ideal(degree=k) computes it through a lower degree k where that fits")
        return ComputationTooLarge(f"{what} of the neurovariety of {self._model} needs its vanishing ideal, "
                                   f"which is beyond this machine here: {error.reason}", error.estimate,
                                   hint=f"{lower} (sage_attention.ideals.hilbert.hilbert_data(gens, ring) "
                                   "gives the Hilbert data of any ideal), and dimension() the dimension "
                                   "(Jacobian rank)")

    def _exact_series_at_hand(self, progress=False):
        r"""
        Return whether the vanishing ideal's Hilbert series is exact and cheap: given by its proof, or by elimination.
        """
        res = self.vanishing_ideal_report(progress=progress)
        if not hasattr(res, "complete_through_degree"):
            return True         # elimination: the leading monomials of a Groebner basis over QQ
        return _proof_series(res) is not None

    def projective_dimension(self):
        r"""
        Return the dimension of the projective neurovariety.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: Neurovariety(LightningAttention(d=2, t=1, a=1)).projective_dimension()
            3
        """
        return self.krull_dimension() - 1

    def degree(self, progress=False):
        r"""
        Return the degree of the projective neurovariety (that of the affine cone).

        Read off :meth:`hilbert_data` of the vanishing ideal proved whole
        (computed modulo primes; exact when ``hilbert_data().certified``;
        ``progress`` as there). When the vanishing ideal is proved by a
        structure that gives no Hilbert series (inheritance), or is not
        proved, and the variety is one of forms with a common linear factor
        (the one-entry slices of rank at least two, the single tokens of rank
        at least two), the degree is that of the theorem of
        :mod:`sage_attention.ideals.proofs.common_factor` (exact; its structure is
        checked exactly, and its dimension must be the Jacobian rank): the
        Hilbert series of thousands of generators in 40 or more coordinates
        would not finish. Otherwise, when the ideal found is not proved
        whole, the degree is not known and a ``ValueError`` says why and
        what to compute (the degree of the ideal found would only bound the
        variety's from above); when the vanishing ideal is beyond this
        machine, a :class:`~sage_attention.misc.errors.ComputationTooLarge` says so.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: Neurovariety(LightningAttention(d=2, t=2, a=2, entries=[(1, 1)])).degree()
            4

        The single token of width `4` and rank `2` (the cubics with a linear
        factor) has no equation of degree at most `4`; its degree is the
        theorem's. Given by the weights `A = K^T Q` and `V`, the same model
        gives no structure: the ideal found is not proved whole and cuts out
        more than the variety (generators of higher degree are missing), so
        the degree is not known and the error says so; the dimension is then
        the Jacobian rank::

            sage: Neurovariety(LightningAttention(d=4, t=1, a=2)).degree()
            interpolation of LightningAttention(d=4, out=1, t=1, a=2) over Rational Field: complete through degree 4 only, not proved complete
            220
            sage: T = Neurovariety(LightningAttention(d=4, t=1, a=2, weight_space='AV'))
            sage: T.degree()
            Traceback (most recent call last):
            ...
            ValueError: the degree of the neurovariety of LightningAttention(...) over Rational Field is not known: the ideal found (complete through degree 4) has dimension 20 and the variety 13, so generators of higher degree are missing; ...
            sage: T.krull_dimension()
            13

        The slice of width `4` and rank `2`, proved by inheritance::

            sage: X = Neurovariety(LightningAttention(d=4, t=2, a=2, out=1, entries=[(1, 1)]))
            sage: X.degree(), X.krull_dimension()
            (7280, 15)
        """
        try:
            known = self._degree_by_theorem(progress)
        except ComputationTooLarge as e:
            raise self._beyond(e, "the degree") from None
        if known is not None:
            return known[0]
        res = self.vanishing_ideal_report(progress=progress)
        if not getattr(res, "proved_complete", True):
            # the Hilbert series of an ideal not proved whole bounds the degree only from above,
            # when its dimension is right, and would not finish on the largest ones
            through = res.complete_through_degree
            C = getattr(res, "certificate", None)
            missing = generators_missing(res)
            why = (f"the ideal found (complete through degree {through}) has dimension {C.hilbert.dimension} "
                   f"and the variety {C.dimension}, so generators of higher degree are missing"
                   if missing else f"the ideal found (complete through degree {through}) is not proved to "
                   "be the whole vanishing ideal, and the degree of its Hilbert series would bound the "
                   "variety's only from above")
            raise ValueError(f"the degree of the neurovariety of {self._model} is not known: {why}; compute "
                             "the vanishing ideal through a higher degree or with a longer proof "
                             "(sage_attention.ideals.implicitization.implicitize(model, degree, prove=600)), or by "
                             "elimination (vanishing_ideal(algorithm='elimination'), at most 60 essential "
                             "coordinates)")
        H = self.hilbert_data(progress=progress)
        return int(H.degree)

    def _jacobian_dimension(self, otherwise):
        r"""
        Return the dimension by Jacobian rank (an integer), or ``otherwise`` where it cannot be computed (a small field).

        The rank is computed once, with the seed `0` (so the same number
        every time, reproducible by ``model.dimension(seed=0)``), and cached:
        :meth:`krull_dimension`, the note of :meth:`hilbert_data` and the
        theorem's check in :meth:`degree` share it.
        """
        key = "jacobian rank"
        if key not in self._results:
            try:
                self._results[key] = int(self._model.dimension(seed=0))
            except (ValueError, ArithmeticError):
                self._results[key] = None
        rank = self._results[key]
        if rank is None:
            return None if otherwise is None else int(otherwise)
        return rank

    def _degree_by_theorem(self, progress=False):
        r"""
        Return ``(degree, dimension)`` by :mod:`sage_attention.ideals.proofs.common_factor`, or ``None``.

        ``None`` when exact Hilbert data are known (computed, or given by the
        proof of the vanishing ideal), when the theorem does not apply, or
        when its dimension is not the Jacobian rank (or that rank cannot be
        computed). The answer is cached, so that :meth:`degree` and
        :meth:`krull_dimension` check the structure and compute the Jacobian
        rank once.
        """
        H = self._results.get(self._hilbert_key())
        if H is not None and H.certified:
            return None
        key = "degree by theorem"
        if key not in self._results:
            self._results[key] = self._compute_degree_by_theorem(progress)
        return self._results[key]

    def _compute_degree_by_theorem(self, progress=False):
        res = self.vanishing_ideal_report(progress=progress)
        if _proof_series(res) is not None:
            return None
        from sage_attention.ideals.proofs.common_factor import common_factor_degree
        known = common_factor_degree(self._model)
        if known is None or known[1] != self._jacobian_dimension(None):
            return None
        return known
