r"""
The variety: the neurovariety of a model, and its points

The neurovariety of a model is the closure of the image of its
parametrization in the space of output coefficients. This folder holds
what is asked of it:

- :mod:`~sage_attention.variety.neurovariety` -- the
  :class:`~sage_attention.variety.neurovariety.Neurovariety` (unique per
  model); :mod:`~sage_attention.variety.vanishing_ideal` -- its vanishing
  ideal, by interpolation or elimination;
  :mod:`~sage_attention.variety.hilbert_invariants` -- its Hilbert series,
  dimension and degree;
- :mod:`~sage_attention.variety.membership` -- exact membership of a
  polynomial in the vanishing ideal, or in any ideal;
- :mod:`~sage_attention.variety.fibers` -- the weights that produce a
  point; :mod:`~sage_attention.variety.points` -- points of the coefficient
  space;
- :mod:`~sage_attention.variety.certificates` -- certificates that a point
  is or is not realizable, over `\CC` and over `\RR`
  (:mod:`~sage_attention.variety.real_points`,
  :mod:`~sage_attention.variety.quadrics`);
  :mod:`~sage_attention.variety.invariant_checks` -- the invariants that
  certify them;
- :mod:`~sage_attention.variety.singular_points` -- singular and boundary
  points of one layer;
- :mod:`~sage_attention.variety.joins` -- which invariants of one head still
  vanish on summed heads;
- :mod:`~sage_attention.variety.generation` -- do the invariant families
  generate the vanishing ideal? (with
  :mod:`~sage_attention.variety.family_members`,
  :mod:`~sage_attention.variety.generation_spans` and
  :mod:`~sage_attention.variety.generation_records`;
  :mod:`~sage_attention.variety.plots` draws the report);
- :mod:`~sage_attention.variety.metric` -- the ED degree of a network's
  function space, with the model's coordinates
  (:mod:`sage_attention.ideals.metric`);
- :mod:`~sage_attention.variety.export` -- ideals and families written for
  Macaulay2, LaTeX and JSON.

EXAMPLES:

The one-entry slice of width `2`, two tokens, rank one: four linear
relations and three quadrics, a variety of dimension `4` and degree `3`::

    sage: from sage_attention import LightningAttention, Neurovariety
    sage: M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
    sage: X = Neurovariety(M)
    sage: X is M.neurovariety()
    True
    sage: X.minimal_generators_by_degree()
    {1: 4, 2: 3}
    sage: X.krull_dimension(), X.degree()
    (4, 3)

A point made from random rational weights is realizable, with weights that
reproduce it; moving one essential coordinate breaks a linear relation::

    sage: from sage_attention import certify
    sage: p = M.coefficients_at(M.random_weights(seed=1))
    sage: c = certify(M, p); c.status
    'realizable'
    sage: M.coefficients_at(c.weights) == p
    True
    sage: C = M.coordinate_ring()
    sage: q = list(p); q[C.gens().index(M.essential_coordinates()[0])] += 1
    sage: certify(M, q).kind
    'linear'
"""
# Sage is initialized before any of its submodules is imported (a module of this folder may
# import `sage.rings...` first, which fails in a fresh interpreter otherwise)
import sage.all__sagemath_singular  # noqa: F401,E402
