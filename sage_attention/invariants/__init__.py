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

The folder, one family per module (the table of names, options and
builders is :mod:`sage_attention.catalog.families`):

- :mod:`~sage_attention.invariants.base` -- the shared types: labels,
  invariants, families;
- :mod:`~sage_attention.invariants.linear` -- the copy and symmetrization
  relations;
- :mod:`~sage_attention.invariants.low_rank` -- minors of the flattening;
  :mod:`~sage_attention.invariants.syzygies` -- linear relations among its
  maximal minors;
- :mod:`~sage_attention.invariants.pencil` -- cubics from the minors of the
  slice pencil; :mod:`~sage_attention.invariants.veronese` -- catalecticants
  of mixed determinants; :mod:`~sage_attention.invariants.sylvester` --
  resultants of the slice quadrics on lines;
- :mod:`~sage_attention.invariants.rank_one` -- the rank-one families
  together (`a = 1`);
- :mod:`~sage_attention.invariants.chow` and
  :mod:`~sage_attention.invariants.brill` -- the single token (`t = 1`):
  a linear form times a quadric, a product of three linear forms (with
  :mod:`~sage_attention.invariants.single_token`);
- :mod:`~sage_attention.invariants.rows` -- equations tying output rows
  together (`d' > 1`).

A new family is a module here and an entry of the catalog's table.

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
# Sage is initialized before any of its submodules is imported (a module of this folder may
# import `sage.rings...` first, which fails in a fresh interpreter otherwise)
import sage.all__sagemath_singular  # noqa: F401,E402
import logging

from sage_attention.catalog.families import FAMILIES as _FAMILY_TABLE
from sage_attention.invariants.base import Invariant, InvariantFamily, InvariantLabel, guard_family
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
#: spec language (:data:`sage_attention.catalog.computations.FAMILIES`), in its order.
FAMILIES = {name: globals()[family.function.rsplit(".", 1)[1]]
            for name, family in _FAMILY_TABLE.items()}


def invariants(model, families=None, force=False, **options):
    r"""
    Return the union of invariant families of ``model``.

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``families`` -- (default: ``None``, every family except
      ``'rank_one'``, whose members are those of ``'linear'``,
      ``'low_rank'`` and ``'pencil'``) a list of names among ``FAMILIES``;
      a name listed twice is built once
    - ``force`` -- boolean (default: ``False``); build a family even when
      its estimated memory is beyond the guard
      (:func:`~sage_attention.invariants.base.guard_family`: every family is
      estimated by :func:`~sage_attention.catalog.family_costs.family_estimate`, from the
      model's sizes, before any is built); passed on to every family
    - ``options`` -- passed to each family that accepts them (e.g. ``limit``)

    OUTPUT: an :class:`~sage_attention.invariants.base.InvariantFamily`
    named by the families joined with ``+``; families that do not apply
    contribute nothing.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants import invariants
        sage: invariants(LightningAttention(d=2, t=2, a=1), families=['low_rank']).name
        'low_rank'

    A family listed twice is built once::

        sage: invariants(LightningAttention(d=2, t=2, a=1), families=['low_rank', 'low_rank']).name
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
        ComputationTooLarge: the family low_rank (about ... members of about 120 terms) needs about ... GiB of memory (limit ...); pass limit= for fewer members or take a smaller model; pass force=True to run it anyway

    The context syzygies of `d = 6` are refused before anything is built;
    ``force=True`` builds a family anyway (here a cheap one)::

        sage: invariants(LightningAttention(d=6, t=2, a=6), families=['syzygies'])
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the family syzygies (about 53802 members of about 1440 terms) needs about ... GiB of memory (limit ...); take a smaller model; pass force=True to run it anyway
        sage: len(invariants(LightningAttention(d=3, t=2, a=3), families=['syzygies'], force=True))
        10
    """
    import inspect
    from sage_attention.models.checks import coordinate_model, lightning_model
    lightning_model(model)
    if model.is_lightning():
        coordinate_model(model, "invariants")
    if families is None:
        families = [name for name in FAMILIES if name != "rank_one"]
    if isinstance(families, str):
        families = [families]
    if not hasattr(families, "__iter__"):
        raise TypeError(f"families (={families!r}) must be a list of family names among "
                        + ", ".join(FAMILIES))
    families = list(dict.fromkeys(families))       # a family listed twice is built once
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
    chosen = []
    for name in families:
        fn = FAMILIES[name]
        params = inspect.signature(fn).parameters
        opts = {k: v for k, v in options.items() if k in params}
        # every family is estimated (sage_attention.catalog.family_costs.family_estimate) before any is built
        guard_family(model, name, force, **{k: v for k, v in opts.items()
                                            if k in ("limit", "r", "lines", "max_minors")})
        opts["force"] = force         # every family takes force= (its memory guard)
        chosen.append((name, fn, opts))
    for name, fn, opts in chosen:
        fam = fn(model, **opts)
        logger.info("invariants: family %s has %d members", name, len(fam))
        members.extend(fam)
    return InvariantFamily("+".join(families), model, members)


__all__ = ["FAMILIES", "Invariant", "InvariantFamily", "InvariantLabel", "invariants",
           "linear_invariants", "low_rank_invariants", "pencil_invariants",
           "rank_one_invariants", "context_syzygies", "veronese_invariants",
           "sylvester_invariants", "chow_invariants", "single_token_low_rank_invariants",
           "row_coupling_invariants", "brill_invariants"]
