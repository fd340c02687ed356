r"""
The interpolation engine: the vanishing ideal degree by degree

The engine finds every minimal generator of each degree of the vanishing
ideal of a parametrization, and proves that each finished degree is
complete (a dimension count of every graded piece; the theorem is in
:mod:`sage_attention.ideals.implicitization`). It never asks whether the
generators give the whole ideal: that is :mod:`sage_attention.ideals.proofs`.

The folder, in the order of a run:

- :mod:`~sage_attention.ideals.engine.grading` -- the multigrading under
  which the parametrization is homogeneous, computed from the map;
- :mod:`~sage_attention.ideals.engine.symmetry` -- the permutations of the
  coordinates that preserve the map (one graded piece per orbit is solved);
- :mod:`~sage_attention.ideals.engine.pieces` -- the graded pieces of a
  degree and the solution of one piece;
  :mod:`~sage_attention.ideals.engine.workers` -- their batches, process
  pools and progress;
- :mod:`~sage_attention.ideals.engine.evaluation` -- the monomials at random
  weight points modulo a prime, and the factored parametrization;
- :mod:`~sage_attention.ideals.engine.linalg_modp` -- linear algebra over
  prime fields, and lifting to `\QQ`;
- :mod:`~sage_attention.ideals.engine.product_span` -- the span of the
  multiples of lower generators, and the exact verification of new ones;
- :mod:`~sage_attention.ideals.engine.graded_kernel` -- the kernel of a
  polynomial map degree by degree (used by the proofs for smaller varieties);
- :mod:`~sage_attention.ideals.engine.interpolation` -- :func:`~sage_attention.ideals.engine.interpolation.interpolate`,
  the engine's entry point;
- :mod:`~sage_attention.ideals.engine.cache` -- the checksummed cache of
  finished pieces; :mod:`~sage_attention.ideals.engine.report` -- the report
  that :func:`~sage_attention.ideals.implicitization.implicitize` returns;
  :mod:`~sage_attention.ideals.engine.plots` -- its pictures (generators
  by degree, the Hilbert function).

EXAMPLES:

The one-entry slice of width `2` and rank `1` is homogeneous for a grading
of rank `5`; through degree `3` its ideal has three quadrics and no cubic,
each verified exactly on the parametrization::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.ideals.engine.grading import multigrading
    sage: from sage_attention.ideals.engine.interpolation import interpolate
    sage: M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
    sage: multigrading(M.essential_parametrization()).rank()
    5
    sage: I = interpolate(M, 3, seed=0)
    sage: {k: len(v) for k, v in I.generators_by_degree.items()}, I.complete_through
    ({2: 3}, 3)
    sage: phi = M.essential_parametrization()
    sage: all(phi(g) == 0 for g in I.essential_generators)
    True

The symmetries of the single token of width `3` (permutations of the
features and of the output rows) form a group of order `36`::

    sage: from sage_attention.ideals.engine.symmetry import coordinate_symmetries
    sage: coordinate_symmetries(LightningAttention(d=3, t=1, a=1, out=3)).order()
    36
"""
