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


def invariants(model, families=None, **options):
    r"""
    Return the union of invariant families of ``model``.

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``families`` -- (default: ``None``, every family except
      ``'rank_one'``, whose members are those of ``'linear'``,
      ``'low_rank'`` and ``'pencil'``) a list of names among ``FAMILIES``
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
    """
    import inspect
    if families is None:
        families = [name for name in FAMILIES if name != "rank_one"]
    if isinstance(families, str):
        families = [families]
    for name in families:
        if name not in FAMILIES:
            raise ValueError(f"unknown invariant family (={name!r}); choose among "
                             + ", ".join(FAMILIES))
    members = []
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
