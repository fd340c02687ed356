r"""
sage_attention: the algebraic geometry of attention networks

An attention network is a polynomial map from its weights to its outputs;
the package compiles an architecture, written in Sage or in a spec file,
into Sage rings, ring maps and ideals, and computes the dimension and
fibers of its neurovariety, its vanishing ideal with a proof that it is
whole, the named invariant families, membership, and certificates of
(non-)realizability.

The functions a newcomer needs:

- :func:`LightningAttention` -- a lightning (unnormalized) attention network,
  one layer or deep, compiled to Sage rings and ring maps;
  :func:`SoftmaxAttention` -- the same with softmax normalization;
  :func:`PolynomialNetwork` and :func:`Network` -- stacks of dense and
  attention layers;
- :func:`implicitize` -- the vanishing ideal, degree by degree, with its proof;
- :class:`Neurovariety` and :func:`certify` -- the variety, and whether a
  point lies on it;
- :func:`parse_spec` -- read a spec file into typed models.

This module is a thin facade: its names are loaded on first use, so
``import sage_attention.dsl`` (the spec language) loads no Sage.

EXAMPLES:

One output entry of a layer with `d = 3` features, `t = 2` tokens and
rank `a = 1`: its dimension agrees with [HMK2024]_, and its vanishing
ideal, `45` quadrics and `10` cubics, is proved whole::

    sage: from sage_attention import LightningAttention, implicitize
    sage: M = LightningAttention(d=3, t=2, a=1, out=1, entries=[(1, 1)])
    sage: M.dimension(seed=0) == M.expected_dimension()
    True
    sage: R = implicitize(M, 3, seed=0)
    sage: {k: len(v) for k, v in R.generators_by_degree.items()}, R.proved_complete
    ({2: 45, 3: 10}, True)

The same model from a spec is the same object::

    sage: from sage_attention import parse_spec
    sage: spec = parse_spec("model m { input = 3; tokens = 2; entries = (1, 1); "
    ....:                   "layer attention(rank = 1, out = 1) }")
    sage: spec.models[0].build() is M
    True

The package is a house of floors, each importing only from the floors
below it (``tests/test_architecture.py`` checks every import;
:doc:`/contributing` draws the house):

0. plumbing -- :mod:`sage_attention.misc`, :mod:`sage_attention.settings`
   (every tunable), :mod:`sage_attention.version`;
1. :mod:`sage_attention.catalog` -- the table of computations and of
   invariant families, costs, public names (no Sage);
2. :mod:`sage_attention.models` -- architectures, layers, weight spaces,
   coordinates, linear relations, the Jacobian, the published formulas;
3. :mod:`sage_attention.invariants` (the named invariant families) beside
   :mod:`sage_attention.ideals` (the interpolation engine, elimination,
   Hilbert data, minimal generators, the whole-ideal proofs, ED degrees);
4. :mod:`sage_attention.variety` -- the neurovariety, membership,
   certificates, singular points, generation reports, export;
5. :mod:`sage_attention.dsl` (the spec language, no Sage), then
   :mod:`sage_attention.app` (command line, sweeps, experiments, figures);
6. this facade.
"""
from sage_attention.misc import deprecation as _deprecated
from sage_attention.version import __version__
from sage_attention.catalog.public import PUBLIC_NAMES

_deprecated.install()

#: public name -> module that defines it (loaded on first access)
_LAZY = PUBLIC_NAMES

__all__ = sorted(_LAZY)


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'sage_attention' has no attribute {name!r}")
    import importlib
    try:
        value = getattr(importlib.import_module(module), name)
    except ModuleNotFoundError as e:
        from sage_attention.misc.errors import SageMissing
        missing = SageMissing.about(e)
        if missing is None:
            raise
        raise missing from None
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
