r"""
The vanishing ideal of a neurovariety: interpolation or elimination

The methods of :class:`~sage_attention.variety.neurovariety.Neurovariety`
that compute its vanishing ideal, and the choice between the two ways to
compute it:

- interpolation (:func:`~sage_attention.ideals.implicitization.implicitize`):
  degree by degree, complete through the degree computed, and proved to be
  the whole ideal when its proof succeeds
  (:mod:`sage_attention.ideals.proofs.completeness`);
- elimination (:func:`~sage_attention.ideals.elimination.eliminate`):
  Singular's Gröbner basis, exact and complete, for small models only.

With ``algorithm=None`` (the default) the model is interpolated through
``settings.DEFAULT_INTERPOLATION_DEGREE`` with the whole-ideal proof. When
the ideal found is not proved whole and the model has at most
``settings.ELIMINATION_DEFAULT_LIMIT`` essential coordinates: while
generators are missing (:func:`generators_missing`), the next degrees are
interpolated, one at a time, as long as a degree has at most
``settings.HIGHER_DEGREE_MONOMIAL_LIMIT`` monomials; if the ideal is still
not proved whole, it is eliminated. Over a field that the engine does not
take (a small prime field) a small model is eliminated at once. The
tunables are read from :mod:`sage_attention.settings` when the ideal is
computed. Every report is cached on the neurovariety. Ctrl-C raises
:class:`~sage_attention.misc.interrupts.ComputationInterrupted` with what
finished; the same call resumes from the finished degrees.

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.variety.neurovariety import Neurovariety
    sage: X = Neurovariety(LightningAttention(d=2, t=2, a=1, entries=[(1, 1)]))
    sage: R = X.vanishing_ideal_report(); R.proved_complete, R.complete_through_degree
    (True, 4)
    sage: X.vanishing_ideal_report(algorithm='elimination').weights
    'A = u*w^T'
"""
# sage.doctest: needs sage.libs.singular
import logging

from sage.all__sagemath_singular import cached_method

from sage_attention.misc.errors import ComputationTooLarge
from sage_attention.misc.keywords import keyword_hints
from sage_attention.misc.progress import redelivering_interrupts
from sage_attention.settings import settings

logger = logging.getLogger("sage_attention")


def generators_missing(res):
    r"""
    Return whether the whole-ideal proof of the interpolation report ``res`` found the ideal too large in dimension.

    Then generators of higher degree are missing: the Hilbert series
    modulo `p` of the ideal found bounds its dimension over `\QQ` from
    above, and it exceeds the variety's (the Jacobian rank).

    INPUT:

    - ``res`` -- a report of :meth:`VanishingIdeal.vanishing_ideal_report`

    OUTPUT: boolean (``False`` for an elimination report)

    EXAMPLES:

    The single token of width `3` and rank `2` has no equation through
    degree `4`: the zero ideal found has dimension `10`, the variety `8`::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.vanishing_ideal import generators_missing
        sage: from sage_attention.ideals.implicitization import implicitize
        sage: generators_missing(implicitize(LightningAttention(d=3, t=1, a=2), 4))
        True
        sage: generators_missing(implicitize(LightningAttention(d=2, t=2, a=1, entries=[(1, 1)]), 2))
        False
    """
    C = getattr(res, "certificate", None)
    H = getattr(C, "hilbert", None)
    return H is not None and H.dimension is not None and H.dimension > C.dimension


@keyword_hints
class VanishingIdeal:
    r"""
    The vanishing ideal of a neurovariety (a mix-in class of
    :class:`~sage_attention.variety.neurovariety.Neurovariety`, which
    provides ``_model`` and the cache ``_results``).

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.neurovariety import Neurovariety
        sage: from sage_attention.variety.vanishing_ideal import VanishingIdeal
        sage: X = Neurovariety(LightningAttention(d=2, t=2, a=2, entries=[(1, 1)]))
        sage: isinstance(X, VanishingIdeal), X.essential_ideal().ngens()
        (True, 1)
    """

    def vanishing_ideal_result(self, algorithm=None, degree=None, force=False):
        r"""
        Deprecated name of :meth:`vanishing_ideal_report`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: X = LightningAttention(d=2, t=2, a=2, entries=[(1, 1)]).neurovariety()
            sage: X.vanishing_ideal_result() is X.vanishing_ideal_report()
            doctest:warning...
            DeprecationWarning: vanishing_ideal_result is deprecated; use vanishing_ideal_report instead
            True
        """
        import warnings
        warnings.warn("vanishing_ideal_result is deprecated; use vanishing_ideal_report instead",
                      DeprecationWarning, stacklevel=2)
        return self.vanishing_ideal_report(algorithm, degree, force)

    @redelivering_interrupts("vanishing ideal")
    def vanishing_ideal_report(self, algorithm=None, degree=None, force=False, progress=False):
        r"""
        Return the computation behind :meth:`vanishing_ideal` (cached).

        INPUT: as for :meth:`vanishing_ideal`

        OUTPUT: an :class:`~sage_attention.ideals.elimination.EliminationReport`
        or an :class:`~sage_attention.ideals.implicitization.ImplicitizationReport`

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: X = Neurovariety(LightningAttention(d=2, t=2, a=1, entries=[(1, 1)]))
            sage: R = X.vanishing_ideal_report(); R.proved_complete, R.certificate.method   # a Segre product
            (True, 'segre')

        Elimination on request (Singular, exact)::

            sage: X.vanishing_ideal_report(algorithm='elimination').weights
            'A = u*w^T'

        TESTS::

            sage: from sage_attention import SoftmaxAttention
            sage: Neurovariety(SoftmaxAttention(d=2, t=2, a=1)).vanishing_ideal_report()
            Traceback (most recent call last):
            ...
            ValueError: the vanishing ideal needs a lightning model with coordinates (one head, no mask, no residual stream); SoftmaxAttention(d=2, out=1, t=2, a=1) over Rational Field has none (for summed heads see sage_attention.variety.joins)
        """
        if not (self._model.is_lightning() and hasattr(self._model, "essential_coordinates")):
            raise ValueError("the vanishing ideal needs a lightning model with coordinates (one head, "
                             f"no mask, no residual stream); {self._model} has none (for summed heads "
                             "see sage_attention.variety.joins)")
        if degree is not None:
            from sage_attention.models.checks import positive_integer
            degree = positive_integer(degree, "degree")
        automatic = algorithm is None and degree is None
        algorithm = self._choose(algorithm, degree)
        if automatic and len(self._model.essential_coordinates()) <= settings.ELIMINATION_DEFAULT_LIMIT:
            from sage_attention.catalog.fields import field_info, refusal
            if refusal("interpolation", field_info(self._model.base_ring())) is not None:
                algorithm = "elimination"       # e.g. a small prime field: elimination is valid there
                automatic = False
        if algorithm == "interpolation" and degree is None:
            degree = settings.DEFAULT_INTERPOLATION_DEGREE
        # the automatic choice has its own key: it may end in another degree or in elimination,
        # and a call that asks for them gets exactly what it asks for
        key = ("automatic",) if automatic else (algorithm, degree if algorithm == "interpolation" else None)
        if key in self._results:
            return self._results[key]
        if algorithm == "elimination":
            res = self._eliminate(force, progress)
        else:
            small = len(self._model.essential_coordinates()) <= settings.ELIMINATION_DEFAULT_LIMIT
            try:
                res = self._interpolate(degree, force, progress)
            except ComputationTooLarge as e:
                if not (automatic and small):
                    raise
                # the engine's table is beyond the memory limit: a small model is eliminated
                # (what ``sage-attention check`` estimates for it)
                logger.info("interpolation of %s refused (%s); eliminating", self._model, e.reason)
                res = self._eliminate(force, progress)
                self._results[key] = res
                return res
            if automatic and small and not res.proved_complete:
                res = self._higher_degrees(res, force, progress)
            if automatic and small and not res.proved_complete:
                # not proved whole: elimination decides (small enough)
                logger.info("interpolation of %s not proved complete; eliminating", self._model)
                res = self._eliminate(force, progress)
            elif not res.proved_complete:
                logger.warning("interpolation of %s: complete through degree %s only, "
                               "not proved complete", self._model, res.complete_through_degree)
        self._results[key] = res
        return res

    def _eliminate(self, force, progress):
        r"""
        Return the elimination report (cached under ``('elimination', None)``).
        """
        key = ("elimination", None)
        if key not in self._results:
            from sage_attention.ideals.elimination import eliminate
            self._results[key] = eliminate(self._model, force=force, progress=progress)
        return self._results[key]

    def _interpolate(self, degree, force, progress):
        r"""
        Return the interpolation report through ``degree`` (cached under ``('interpolation', degree)``).
        """
        key = ("interpolation", degree)
        if key in self._results:
            return self._results[key]
        from sage_attention.ideals.implicitization import implicitize
        res = implicitize(self._model, degree, force=force, progress=progress)
        self._results[key] = res
        return res

    def _higher_degrees(self, res, force, progress):
        r"""
        Interpolate through higher degrees while generators are missing and the next degree is small.

        Generators are missing when the whole-ideal proof found the ideal of
        a larger dimension than the variety (its Hilbert series modulo `p`
        bounds the dimension over `\QQ` from above). The next degree `k` is
        computed while its `\binom{n + k - 1}{k}` monomials in the `n`
        essential coordinates are at most
        ``settings.HIGHER_DEGREE_MONOMIAL_LIMIT``; the first
        result proved whole, or the last one computed, is returned.
        """
        from math import comb
        n = len(self._model.essential_coordinates())
        limit = settings.HIGHER_DEGREE_MONOMIAL_LIMIT
        while not res.proved_complete and generators_missing(res):
            k = res.complete_through_degree + 1
            if comb(n + k - 1, k) > limit:
                break
            logger.info("interpolation of %s: generators are missing; through degree %d", self._model, k)
            res = self._interpolate(k, force, progress)
        return res

    def _choose(self, algorithm, degree=None):
        if algorithm is None and degree is not None:
            # a degree bound asks for interpolation up to that degree
            return "interpolation"
        if algorithm is None:
            # the engine, with its whole-ideal proof; elimination only when that proof fails
            # (up to settings.ELIMINATION_DEFAULT_LIMIT essential coordinates)
            return "interpolation"
        if algorithm not in ("elimination", "interpolation"):
            raise ValueError(f"algorithm (={algorithm!r}) must be None, 'elimination' or "
                             "'interpolation'")
        return algorithm

    def vanishing_ideal(self, algorithm=None, degree=None, force=False, progress=False):
        r"""
        Return the vanishing ideal in the ambient coordinate ring (cached).

        The ring is :meth:`~sage_attention.variety.neurovariety.Neurovariety.ambient`.

        INPUT:

        - ``algorithm`` -- (default: ``None``) ``'elimination'`` (Singular,
          :mod:`sage_attention.ideals.elimination`: exact, complete),
          ``'interpolation'`` (degree by degree,
          :mod:`sage_attention.ideals.implicitization`: complete through
          ``degree``, and proved complete when the result says so), or
          ``None``: interpolation through degree `4` with the whole-ideal
          proof (:mod:`sage_attention.ideals.proofs.completeness`); when it is not
          proved complete and there are at most 18 essential coordinates:
          if generators are missing (the proof found the ideal of a larger
          dimension than the variety), interpolation through the next
          degrees, one at a time, while a degree has at most
          ``settings.HIGHER_DEGREE_MONOMIAL_LIMIT``
          monomials, until it is proved; if still not proved, elimination.
          When ``degree`` is given, ``None`` means interpolation up to
          ``degree`` (the bound is respected)
        - ``degree`` -- (default: `4`) the degree bound of interpolation
        - ``force`` -- boolean (default: ``False``); run elimination even
          when the size guard refuses
        - ``progress`` -- boolean (default: ``False``); show the progress on
          standard error: the graded pieces of interpolation, the phases of
          elimination and the seconds each has been running (the Gröbner
          basis is one Singular call: no percentage)

        OUTPUT: an ideal of :meth:`~sage_attention.variety.neurovariety.Neurovariety.ambient`:
        the linear relations and the nonlinear generators

        Ctrl-C raises :class:`~sage_attention.misc.interrupts.ComputationInterrupted`
        (a ``KeyboardInterrupt``): during interpolation or its proof its
        ``partial`` is the report of the finished degrees (``interrupted``
        set, not cached), and the same call resumes from them; during
        elimination ``partial`` is ``None`` (there is no partial Gröbner
        basis). See ``doc/implicitization.rst``, "Interrupting a computation".

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: M = LightningAttention(d=2, t=2, a=2, entries=[(1, 1)])
            sage: I = Neurovariety(M).vanishing_ideal(); len(I.gens())
            5
            sage: phi = M.parametrization()
            sage: all(phi(g) == 0 for g in I.gens())
            True

        The single token of width `3` and rank `2` (the ternary cubics with a
        linear factor) has no equation of degree at most `7`: the ideal found
        through degree `4` is zero, so generators are missing, and the
        interpolation goes on to its `35` octics, proved whole::

            sage: X = Neurovariety(LightningAttention(d=3, t=1, a=2))
            sage: R = X.vanishing_ideal_report()        # long time (2 s)
            sage: R.complete_through_degree, R.proved_complete, len(R.essential_generators)  # long time
            (8, True, 35)

        Asked for, the degree-`4` interpolation is what it is::

            sage: X.vanishing_ideal_report(degree=4).proved_complete      # long time
            False

        TESTS::

            sage: Neurovariety(LightningAttention(d=6, t=2, a=2)).vanishing_ideal(algorithm='elimination')
            Traceback (most recent call last):
            ...
            ComputationTooLarge: elimination over 126 essential coordinates is far beyond this machine (limit 60); algorithm='interpolation' computes the ideal degree by degree; pass force=True to run it anyway
        """
        return self.vanishing_ideal_report(algorithm, degree, force, progress).coordinate_ideal(force=force)

    @cached_method
    def essential_ideal(self):
        r"""
        Return the vanishing ideal restricted to the essential ring.

        The vanishing ideal is generated by the linear relations and this
        ideal (pulled back to :meth:`~sage_attention.variety.neurovariety.Neurovariety.ambient`).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.neurovariety import Neurovariety
            sage: Neurovariety(LightningAttention(d=2, t=2, a=2)).essential_ideal().ngens()
            1
        """
        # the whole ideal when elimination has computed it (e.g. ``algorithm='elimination'``)
        res = self._results.get(("elimination", None)) or self.vanishing_ideal_report()
        if hasattr(res, "essential_ideal"):
            return res.essential_ideal
        E = self._model.essential_ring()
        gens = [g for g in res.essential_generators if g]
        return E.ideal(gens if gens else [E.zero()])
