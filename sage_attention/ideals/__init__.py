r"""
The ideals: the vanishing ideal of a model, computed and proved

The vanishing ideal of a neurovariety is the kernel of its
parametrization. Generic elimination stalls quickly on it; this package
finds it degree by degree with an interpolation engine that uses the
structure of the map, then proves that the generators found give the whole
ideal. The folder has five rooms, each importing only from those before it:

1. :mod:`sage_attention.ideals.engine` -- the interpolation engine: the
   multigrading, the symmetries, evaluation at points modulo a prime, the
   graded pieces, linear algebra modulo primes, exact verification, the
   cache;
2. the ideal algorithms beside it --
   :mod:`~sage_attention.ideals.hilbert` (Hilbert series, degree, Betti
   numbers modulo primes), :mod:`~sage_attention.ideals.ideal_checks`
   (membership by linear algebra, nonzerodivisors),
   :mod:`~sage_attention.ideals.minimal_generators` (minimal generators,
   degree by degree: the one implementation, used by the neurovariety, the
   generation report and the command line), :mod:`~sage_attention.ideals.elimination` and
   :mod:`~sage_attention.ideals.stack_elimination` (the ideal by
   elimination in Singular, for attention layers and for small polynomial
   networks);
3. :mod:`sage_attention.ideals.proofs` -- the proofs that generators give
   the whole vanishing ideal, one technique per module behind one protocol;
4. :mod:`sage_attention.ideals.metric` -- metric algebraic geometry: ED
   degrees of varieties and of decision boundaries (a question of the
   proofs' registry);
5. :mod:`~sage_attention.ideals.implicitization` --
   :func:`~sage_attention.ideals.implicitization.implicitize`, which runs
   the engine and then the proofs; beside it
   :mod:`~sage_attention.ideals.small_field_pieces`, the graded pieces over
   a prime field too small for the engine (points of an extension field).

:doc:`/implicitization` explains the engine and the proofs; :doc:`/frontier_table`
shows how far they reach.

EXAMPLES:

The one-entry slice of width `3` and rank `1`: `45` quadrics (the `2
\times 2` minors of the flattening) and `10` cubics (the pencil), proved to
be the whole ideal (a Segre product)::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.ideals.implicitization import implicitize
    sage: M = LightningAttention(d=3, t=2, a=1, out=1, entries=[(1, 1)])
    sage: R = implicitize(M, 3, seed=0)
    sage: {k: len(v) for k, v in R.generators_by_degree.items()}, R.complete_through_degree
    ({2: 45, 3: 10}, 3)
    sage: R.proved_complete, R.certificate.method
    (True, 'segre')

Elimination finds the same ideal on a smaller slice, where it is cheap::

    sage: from sage_attention.ideals.elimination import eliminate
    sage: M2 = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
    sage: E = eliminate(M2)
    sage: I = implicitize(M2, 2, seed=0)
    sage: E.essential_ideal == M2.essential_ring().ideal(I.essential_generators)
    True
"""
# Sage is initialized before any of its submodules is imported (a module of this folder may
# import `sage.rings...` first, which fails in a fresh interpreter otherwise)
import sage.all__sagemath_singular  # noqa: F401,E402
