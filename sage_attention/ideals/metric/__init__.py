r"""
Metric algebraic geometry: ED degrees of varieties and of decision boundaries

The room between the proofs and the implicitization
(``tests/test_architecture.py``):

- :mod:`~sage_attention.ideals.metric.gram` -- the metrics (generic,
  Euclidean, Bombieri-Weyl, a user's Gram matrix);
- :mod:`~sage_attention.ideals.metric.critical` -- the critical ideal of the
  squared distance and its degree over `GF(p)`;
- :mod:`~sage_attention.ideals.metric.backends` -- Singular or msolve;
- :mod:`~sage_attention.ideals.metric.certificate` -- the proof registry's
  question ``'ED degree'``: its problem, technique and certificate;
- :mod:`~sage_attention.ideals.metric.ed_degree` -- :func:`ed_degree`;
- :mod:`~sage_attention.ideals.metric.boundary` -- decision boundaries;
- :mod:`~sage_attention.ideals.metric.real_points` -- real critical points
  (msolve) and the robustness radius.

EXAMPLES:

The graph `y = x^3`: a critical point solves `(x - u_1) + 3x^2(x^3 - u_2) = 0`,
of degree `5` (a generic plane cubic has `9`: this one is special at infinity)::

    sage: from sage_attention.ideals.metric import ed_degree
    sage: R.<x,y> = QQ[]
    sage: ed_degree(R.ideal([y - x^3]), 'euclidean', seed=0).degree
    5
"""
from sage_attention.ideals.metric.ed_degree import ed_degree, EDDegreeResult  # noqa: F401
