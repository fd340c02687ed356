r"""
The nonlinear invariants that certify checks, and their cost

:func:`~sage_attention.variety.certificates.certify` evaluates the nonlinear
members of the invariant families (:func:`nonlinear_invariants`) only when
no weights were found; building them can be expensive, and
:func:`invariant_work` estimates how expensive, in minors
(:ref:`mathematics, §3 <math-3>`). The largest :func:`invariant_work` that
:func:`~sage_attention.variety.certificates.certify` runs without
``force=True`` is ``settings.MAX_INVARIANT_WORK``
(:mod:`sage_attention.settings`).
"""
from sage_attention.settings import moved_to_settings

# The old name MAX_INVARIANT_WORK reads settings.MAX_INVARIANT_WORK.
__getattr__ = moved_to_settings(__name__, {"MAX_INVARIANT_WORK": "MAX_INVARIANT_WORK"})


def invariant_work(model, families=None):
    r"""
    Return an estimate of the number of minors (determinants) the invariant
    families build for ``model``: the size that
    :func:`~sage_attention.variety.certificates.certify` guards.

    Counted: the `(a+1)`-minors of the flattenings (``'low_rank'``, `t \ge 2`)
    and of the stacked flattenings of two rows (``'rows'``), the maximal
    minors of `\Phi(v)` (``'syzygies'``), the `3 \times 3` minors of the
    pencil, and the minors of size `2a + 2` for `t = 1`. (The Chow and
    common-quadric minors have their own guards.)

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``families`` -- ``None`` (the families counted above) or a list of
      family names

    OUTPUT: an integer

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.invariant_checks import invariant_work
        sage: invariant_work(LightningAttention(d=3, t=2, a=1))
        66
        sage: invariant_work(LightningAttention(d=6, t=3, a=3, out=6))
        25779564
    """
    from math import comb
    d, a, t = model.d, model.ranks[0], model.tokens
    rows = len(model.output_rows())
    D = d * (d + 1) // 2
    if families is None:
        families = ["low_rank", "rows", "syzygies", "pencil", "single_token_low_rank"]
    work = 0
    if t >= 2:
        if "low_rank" in families and a < d:
            work += rows * comb(D, a + 1) * comb(d, a + 1)
        if "rows" in families and a < d:
            work += comb(rows, 2) * comb(2 * D, a + 1) * comb(d, a + 1)
        if "syzygies" in families:
            work += comb(D, d)
        if "pencil" in families and d >= 3:
            work += rows * comb(d, 3) ** 2
    elif "single_token_low_rank" in families and 2 * a + 2 <= d:
        work += rows * comb(d, 2 * a + 2) ** 2
    return work


_MEMBERS = {}


def nonlinear_invariants(model, families, force=False):
    r"""
    Return the nonlinear members ``(polynomial, label)`` of the families, by degree (cached).

    INPUT:

    - ``model`` -- a model
    - ``families`` -- ``None`` (every family) or a list of family names (see
      :data:`~sage_attention.invariants.FAMILIES`)
    - ``force`` -- boolean (default: ``False``); build the families even
      beyond their memory guard (:func:`~sage_attention.invariants.invariants`)

    OUTPUT: a list of pairs ``(polynomial, label)``, the polynomials in
    ``model.coordinate_ring()`` of degree at least 2, by increasing degree;
    the last few answers are cached

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.invariant_checks import nonlinear_invariants
        sage: M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
        sage: members = nonlinear_invariants(M, ['low_rank'])
        sage: len(members), {f.degree() for f, label in members}
        (3, {2})
        sage: p = M.coefficients_at(M.random_weights(seed=2))
        sage: all(f(*p) == 0 for f, label in members)
        True

    Families beyond the memory guard are refused unless ``force=True``::

        sage: nonlinear_invariants(LightningAttention(d=6, t=2, a=6), ['syzygies'])
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the family syzygies ... pass force=True to run it anyway
    """
    key = (model, None if families is None else tuple(families))
    if key not in _MEMBERS:
        from sage_attention.invariants import invariants
        fam = invariants(model, families=families, force=force)
        if len(_MEMBERS) > 16:
            _MEMBERS.clear()
        _MEMBERS[key] = sorted(((inv.polynomial, inv.label) for inv in fam
                                if inv.polynomial.degree() > 1), key=lambda p: p[0].degree())
    return _MEMBERS[key]
