r"""
Metrics: the Gram matrices of the distance functions

The squared distance from a data point `u` to `x` is
`(x - u)^T \Lambda (x - u)` for a symmetric Gram matrix `\Lambda`. This
module names the metrics the ED degree is asked for:

- ``'generic'`` -- a random symmetric matrix (seeded). For a projective
  variety (an affine cone) the ED degree for it is the sum of the polar
  degrees [DHOST2016]_;
- ``'euclidean'`` -- the identity: the standard inner product on the
  coordinates (for matrices, the Frobenius inner product on the entries);
- ``'bombieri_weyl'`` -- for coordinates that are the coefficients `c_\alpha`
  of forms of degree `D` (monomials `x^\alpha`, `|\alpha| = D`), the
  diagonal matrix with entries `1/\binom{D}{\alpha}` (inverse multinomial
  coefficients): `\|f\|^2 = \sum_\alpha c_\alpha^2 / \binom{D}{\alpha}`.
  This is the convention of [DHOST2016]_ (Section 8) and makes the norm
  invariant under the orthogonal group; on quadrics `x^T A x` it is the
  Frobenius norm of the symmetric matrix `A`;
- a user's symmetric matrix.

EXAMPLES:

The Bombieri-Weyl weights of binary cubics `c_0 x^3 + c_1 x^2 y + c_2 x y^2 + c_3 y^3`::

    sage: from sage_attention.ideals.metric.gram import gram_matrix, bombieri_weyl_weights
    sage: bombieri_weyl_weights([(3, 0), (2, 1), (1, 2), (0, 3)])
    [1, 1/3, 1/3, 1]
    sage: gram_matrix('euclidean', 2, QQ)
    [1 0]
    [0 1]
    sage: G = gram_matrix('generic', 3, GF(101), seed=1); G.is_symmetric(), G.is_invertible()
    (True, True)
"""
# sage.doctest: needs sage.libs.singular
import random

from sage.all__sagemath_singular import QQ, matrix, multinomial

#: the names of the metrics
METRICS = ("generic", "euclidean", "bombieri_weyl")


def bombieri_weyl_weights(exponents):
    r"""
    Return the Bombieri-Weyl weights `1/\binom{D}{\alpha}` of the monomials with the given exponents.

    INPUT:

    - ``exponents`` -- a list of exponent vectors `\alpha`, all of the same
      degree `D` (the coordinates are the coefficients of `x^\alpha`)

    OUTPUT: a list of rationals

    EXAMPLES:

    On ternary quadrics the weights make the norm the Frobenius norm of the
    symmetric matrix (the coefficient of `x_i x_j` is `2 A_{ij}`)::

        sage: from sage_attention.ideals.metric.gram import bombieri_weyl_weights
        sage: bombieri_weyl_weights([(2, 0, 0), (1, 1, 0), (0, 2, 0)])
        [1, 1/2, 1]

    TESTS::

        sage: bombieri_weyl_weights([(2, 0), (1, 0)])
        Traceback (most recent call last):
        ...
        ValueError: exponents (=[(2, 0), (1, 0)]) must all have the same degree for the Bombieri-Weyl metric
    """
    exponents = [tuple(int(a) for a in e) for e in exponents]
    if len({sum(e) for e in exponents}) > 1:
        raise ValueError(f"exponents (={exponents!r}) must all have the same degree for the Bombieri-Weyl metric")
    return [QQ(1) / multinomial(*e) for e in exponents]


def gram_matrix(metric, n, field, exponents=None, seed=None):
    r"""
    Return the Gram matrix of ``metric`` on `n` coordinates over ``field``.

    INPUT:

    - ``metric`` -- ``'generic'``, ``'euclidean'``, ``'bombieri_weyl'``, or
      a symmetric `n \times n` matrix
    - ``n`` -- the number of coordinates
    - ``field`` -- the field of the matrix
    - ``exponents`` -- (default: ``None``) the exponent vector of each
      coordinate, needed for ``'bombieri_weyl'``
    - ``seed`` -- (default: ``None``) the seed of ``'generic'``

    OUTPUT: a symmetric matrix over ``field``

    EXAMPLES::

        sage: from sage_attention.ideals.metric.gram import gram_matrix
        sage: gram_matrix('bombieri_weyl', 3, GF(7), exponents=[(2, 0), (1, 1), (0, 2)])
        [1 0 0]
        [0 4 0]
        [0 0 1]
        sage: gram_matrix(matrix(QQ, [[2, 1], [1, 2]]), 2, GF(5))
        [2 1]
        [1 2]
        sage: gram_matrix('generic', 2, GF(10007), seed=3) == gram_matrix('generic', 2, GF(10007), seed=3)
        True

    TESTS::

        sage: gram_matrix('hyperbolic', 2, QQ)
        Traceback (most recent call last):
        ...
        ValueError: metric (='hyperbolic') must be one of 'generic', 'euclidean', 'bombieri_weyl' or a symmetric matrix
        sage: gram_matrix(matrix(QQ, [[1, 2], [0, 1]]), 2, QQ)
        Traceback (most recent call last):
        ...
        ValueError: the Gram matrix must be symmetric and 2 x 2
        sage: gram_matrix('bombieri_weyl', 2, QQ)
        Traceback (most recent call last):
        ...
        ValueError: the metric 'bombieri_weyl' needs the exponents of the coordinates (coefficients of forms)
    """
    if not isinstance(metric, str):
        G = matrix(field, metric)
        if not G.is_symmetric() or G.nrows() != n:
            raise ValueError(f"the Gram matrix must be symmetric and {n} x {n}")
        return G
    if metric == "euclidean":
        return matrix.identity(field, n)
    if metric == "bombieri_weyl":
        if exponents is None:
            raise ValueError("the metric 'bombieri_weyl' needs the exponents of the coordinates "
                             "(coefficients of forms)")
        return matrix.diagonal(field, [field(w) for w in bombieri_weyl_weights(exponents)])
    if metric == "generic":
        rng = random.Random(None if seed is None else int(seed))
        q = field.characteristic() or 2**31 - 1
        for _ in range(100):
            A = matrix(field, n, n, lambda i, j: rng.randrange(1, min(q, 2**31 - 1)) if i <= j else 0)
            G = A + A.transpose() - matrix.diagonal(field, A.diagonal())
            if G.is_invertible():
                return G
        raise ValueError("no invertible random Gram matrix found")  # pragma: no cover
    raise ValueError(f"metric (={metric!r}) must be one of 'generic', 'euclidean', 'bombieri_weyl' "
                     "or a symmetric matrix")


def metric_name(metric):
    r"""
    Return the name of ``metric`` for reports (``'user'`` for a matrix).

    INPUT:

    - ``metric`` -- a metric as for :func:`gram_matrix`

    OUTPUT: a string

    EXAMPLES::

        sage: from sage_attention.ideals.metric.gram import metric_name
        sage: metric_name('generic'), metric_name(identity_matrix(2))
        ('generic', 'user')
    """
    return metric if isinstance(metric, str) else "user"
