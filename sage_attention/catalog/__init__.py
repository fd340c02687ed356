r"""
The catalog: what can be computed, on which models and fields, at what cost

One Sage-free floor above the plumbing (:mod:`sage_attention.misc`,
:mod:`sage_attention.settings`), read by the models, the invariants, the
spec language and the command line alike, so that ``sage-attention check``
and the library give the same answers without loading Sage:

- :mod:`~sage_attention.catalog.computations` -- the table of computation
  statements: each one's options, the models it applies to, its runner;
- :mod:`~sage_attention.catalog.families` -- the table of invariant
  families: each one's options and the function that builds it;
- :mod:`~sage_attention.catalog.options` -- the options of statements and
  families: how they are written, checked and described;
- :mod:`~sage_attention.catalog.fields` -- which base fields each
  computation is valid over;
- :mod:`~sage_attention.catalog.model_sizes` -- size estimates of models;
  :mod:`~sage_attention.catalog.family_costs` -- the cost model of the
  families; :mod:`~sage_attention.catalog.costs` -- the size guard that
  reads them;
- :mod:`~sage_attention.catalog.public` -- the public names of the package
  and the modules that define them.

A new computation or invariant family starts with an entry here.

EXAMPLES:

The computations a spec can ask for, and what one of them takes::

    sage: from sage_attention.catalog.computations import COMPUTATIONS
    sage: sorted(COMPUTATIONS)
    ['certify', 'check', 'critical_points', 'decision_boundary', 'dimension', 'ed_degree', 'fibers',
     'invariants', 'vanishing_ideal']
    sage: print(COMPUTATIONS["dimension"].describe())
    dimension: the dimension of the neurovariety (generic rank of the Jacobian)
      seed -- integer >= 0 and <= 2^64 - 1 (default: random); the seed of the random weights and inputs
      applies to: every model

The size of a model, estimated before anything is compiled, and the guard
that reads it::

    sage: from sage_attention.catalog.costs import estimate_size, check_size
    sage: estimate_size(widths=(3, 1), ranks=(2,), tokens=2)
    SizeEstimate(coordinates=56, essential_coordinates=18, parameters=15, terms=672)
    sage: check_size(estimate_size((6, 6), (6,), 4), "elimination")
    Traceback (most recent call last):
    ...
    ComputationTooLarge: elimination over ... essential coordinates is far beyond this machine (limit 60); ...
"""
