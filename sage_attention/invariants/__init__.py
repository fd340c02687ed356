r"""
Invariant families of lightning self-attention

Each family is a function ``f(model, **options)`` returning an
:class:`~sage_attention.invariants.base.InvariantFamily`: polynomials in
``model.coordinate_ring()`` that vanish on the neurovariety, after
[ADM2026]_ (:ref:`mathematics, §2-4 <math-2>`). The registry :data:`FAMILIES` maps names
to these functions and :func:`invariants` returns their union.

Convention: a family whose hypotheses fail for the model's `(d, t, a, d')`
(e.g. the pencil for `t = 1`) returns an *empty* family whose ``note``
says why; a model that is not a single lightning layer (deep, softmax)
raises ``ValueError``.

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.invariants import invariants
    sage: from sage_attention.variety.membership import check_family
    sage: M = LightningAttention(d=3, t=2, a=1, weight_space='AV')
    sage: fam = invariants(M, families=['linear', 'low_rank', 'pencil'])
    sage: len(fam), fam.degrees()
    (93, (1, 2, 3))
    sage: check_family(M, fam).all_vanish
    True
"""
import logging

from sage_attention.dsl.computations import FAMILIES as _FAMILY_TABLE
from sage_attention.invariants.base import Invariant, InvariantFamily, InvariantLabel
from sage_attention.invariants.linear import linear_invariants
from sage_attention.invariants.low_rank import low_rank_invariants
from sage_attention.invariants.pencil import pencil_invariants
from sage_attention.invariants.rank_one import rank_one_invariants
from sage_attention.invariants.syzygies import context_syzygies
from sage_attention.invariants.veronese import veronese_invariants
from sage_attention.invariants.sylvester import sylvester_invariants
from sage_attention.invariants.chow import chow_invariants, single_token_low_rank_invariants
from sage_attention.invariants.rows import row_coupling_invariants
from sage_attention.invariants.brill import brill_invariants

logger = logging.getLogger("sage_attention")

#: The invariant families by name: the functions named in the one table of the
#: spec language (:data:`sage_attention.dsl.computations.FAMILIES`), in its order.
FAMILIES = {name: globals()[family.function.rsplit(".", 1)[1]]
            for name, family in _FAMILY_TABLE.items()}


def _family_bytes(model, name, limit=None):
    r"""
    Return a lower estimate of the memory the family ``name`` of ``model`` takes (``None``: no estimate).

    Members times terms per member (at least) times the size of a term in
    Singular (two bytes per variable of the coordinate ring, plus a header).

    TESTS::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants import _family_bytes
        sage: _family_bytes(LightningAttention(d=8, t=3, a=4, out=8), "low_rank") > 10**14
        True
        sage: _family_bytes(LightningAttention(d=3, t=2, a=1), "pencil") < 10**6
        True
    """
    from math import comb, factorial
    e = model.size_estimate()
    d, a, t = model.widths[0], model.ranks[0], model.tokens
    if model.nlayers() != 1 or t < 2:
        return None
    rows = len(model.output_rows())
    D = d * (d + 1) // 2
    if name == "low_rank":
        if a >= d:
            return 0
        members, terms = rows * comb(D, a + 1) * comb(d, a + 1), factorial(a + 1)
    elif name == "pencil":
        if d < 3:
            return 0
        P = comb(d, 3)
        members, terms = rows * P * (P + 1) // 2 * comb(d + 2, 3), 6
    else:
        return None
    if limit is not None:
        members = min(members, int(limit))
    return members * terms * (2 * e.coordinates + 64)


def invariants(model, families=None, force=False, **options):
    r"""
    Return the union of invariant families of ``model``.

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``families`` -- (default: ``None``, every family except
      ``'rank_one'``, whose members are those of ``'linear'``,
      ``'low_rank'`` and ``'pencil'``) a list of names among ``FAMILIES``
    - ``force`` -- boolean (default: ``False``); build a family even when
      its estimated memory is beyond the guard
      (:func:`~sage_attention.ideals.memory.check_memory`; estimated for
      ``low_rank`` and ``pencil``)
    - ``options`` -- passed to each family that accepts them (e.g. ``limit``)

    OUTPUT: an :class:`~sage_attention.invariants.base.InvariantFamily`
    named by the families joined with ``+``; families that do not apply
    contribute nothing.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants import invariants
        sage: invariants(LightningAttention(d=2, t=2, a=1), families=['low_rank']).name
        'low_rank'

    The default union lists no member twice::

        sage: fam = invariants(LightningAttention(d=2, t=2, a=1))
        sage: len(set(fam.polynomials())) == len(fam)
        True

    TESTS::

        sage: invariants(LightningAttention(d=2, t=2, a=1), families=['nope'])
        Traceback (most recent call last):
        ...
        ValueError: unknown invariant family (='nope'); choose among ...
        sage: invariants(LightningAttention(d=8, t=3, a=4, out=8), families=['low_rank'])
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the family low_rank (8 rows) needs about ... GiB of memory (limit ...); pass limit= for fewer members; pass force=True to run it anyway
    """
    import inspect
    from sage_attention.ideals._checks import lightning_model
    lightning_model(model)
    if families is None:
        families = [name for name in FAMILIES if name != "rank_one"]
    if isinstance(families, str):
        families = [families]
    if not hasattr(families, "__iter__"):
        raise TypeError(f"families (={families!r}) must be a list of family names among "
                        + ", ".join(FAMILIES))
    families = list(families)
    for name in families:
        if name not in FAMILIES:
            raise ValueError(f"unknown invariant family (={name!r}); choose among "
                             + ", ".join(FAMILIES))
    known = {"limit"} | {k for name in families for k in inspect.signature(FAMILIES[name]).parameters}
    unknown = sorted(set(options) - known)
    if unknown:
        raise TypeError(f"unknown option(s) {', '.join(unknown)} for the families "
                        f"{', '.join(families)}")
    members = []
    for name in families:
        # every family is estimated before any is built
        nbytes = _family_bytes(model, name, options.get("limit"))
        if nbytes:
            from sage_attention.ideals.memory import check_memory
            check_memory(nbytes, f"the family {name} ({len(model.output_rows())} rows)", force,
                         hint="pass limit= for fewer members")
    for name in families:
        fn = FAMILIES[name]
        params = inspect.signature(fn).parameters
        opts = {k: v for k, v in options.items() if k in params}
        fam = fn(model, **opts)
        logger.info("invariants: family %s has %d members", name, len(fam))
        members.extend(fam)
    return InvariantFamily("+".join(families), model, members)


__all__ = ["FAMILIES", "Invariant", "InvariantFamily", "InvariantLabel", "invariants",
           "linear_invariants", "low_rank_invariants", "pencil_invariants",
           "rank_one_invariants", "context_syzygies", "veronese_invariants",
           "sylvester_invariants", "chow_invariants", "single_token_low_rank_invariants",
           "row_coupling_invariants", "brill_invariants"]
