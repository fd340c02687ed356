r"""
sage_attention: the algebraic geometry of attention networks

The functions a newcomer needs:

- :func:`LightningAttention` -- a lightning (unnormalized) attention network,
  one layer or deep, compiled to Sage rings and ring maps;
- :func:`SoftmaxAttention` -- the same with softmax normalization;
- :func:`parse_spec` -- read a DSL spec file into typed models.

The package is a thin facade: the names below are loaded on first use, so
``import sage_attention.dsl`` (the spec language) loads no Sage.

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: M = LightningAttention(d=3, t=2, a=1, out=1)
    sage: M.dimension(seed=0) == M.expected_dimension()
    True

The layers, each importing only from the ones above it in this list:

- :mod:`sage_attention.dsl` -- grammar, parser, typed spec, the table of
  computations (no Sage);
- :mod:`sage_attention.models` -- architectures, weight spaces, coordinates,
  linear relations, the Jacobian, the published formulas, softmax;
- :mod:`sage_attention.invariants` -- the named invariant families;
- :mod:`sage_attention.ideals` -- grading, symmetry, modular linear algebra,
  elimination and the implicitization engine;
- :mod:`sage_attention.variety` -- the neurovariety, membership,
  certificates, singular points, generation reports, export;
- :mod:`sage_attention.app` -- command line, experiments, figures.
"""
from sage_attention import _deprecated
from sage_attention.version import __version__

_deprecated.install()

#: public name -> module that defines it (loaded on first access)
_LAZY = {
    "AttentionNetwork": "sage_attention.models",
    "LightningAttention": "sage_attention.models",
    "SoftmaxAttention": "sage_attention.models",
    "PolynomialNetwork": "sage_attention.models",
    "Network": "sage_attention.models",
    "dense": "sage_attention.models",
    "attention": "sage_attention.models",
    "Neurovariety": "sage_attention.variety.neurovariety",
    "implicitize": "sage_attention.ideals.implicitization",
    "certify": "sage_attention.variety.certificates",
    "parse_spec": "sage_attention.dsl",
    "parse_spec_file": "sage_attention.dsl",
}

__all__ = sorted(_LAZY)


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'sage_attention' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
