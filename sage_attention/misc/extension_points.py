r"""
Random points of a small prime field's extension

A randomized rank over `\GF{p}` evaluates polynomials at random points and
bounds the failure by Schwartz--Zippel: a nonzero polynomial of degree `D`
vanishes at a uniform random point of `S^n` with probability at most
`D / |S|`. Over a small prime field that bound is useless (`D / p \ge 1`
soon), and a nonzero polynomial may even vanish on all of `\GF{p}^n`
(`x^p - x`). The points are therefore drawn from the smallest extension
`\GF{p^k}` with `p^k \ge` ``settings.MINIMUM_RANK_PRIME`` (`2^{16}` by
default; the name is the historical one, it is the least number of points of
the field of the random points): a polynomial over `\GF{p}` is also one over
`\GF{p^k}`, so the bound becomes `D / p^k` per point.

What is computed there is still about `\GF{p}`: the rank of a matrix with
entries in `\GF{p}(W)` (the Jacobian of a parametrization defined over
`\GF{p}`, at indeterminate weights) is the same over `\GF{p}(W)` and over
`\GF{p^k}(W)`, since Gaussian elimination stays in the field of the entries;
so the rank at a random point of `\GF{p^k}` equals that generic rank except
with probability at most `D / p^k`, `D` the degree of a nonzero maximal
minor.

EXAMPLES::

    sage: from sage_attention.misc.extension_points import point_field
    sage: point_field(101), point_field(32003), point_field(7)
    (Finite Field in z of size 101^3, Finite Field in z of size 32003^2, Finite Field in z of size 7^6)
    sage: point_field(65537)
    Finite Field of size 65537
"""
from sage_attention.settings import settings


def extension_degree(p, order=None):
    r"""
    Return the least `k \ge 1` with `p^k \ge` ``order``.

    INPUT:

    - ``p`` -- a prime
    - ``order`` -- (default: ``settings.MINIMUM_RANK_PRIME``, `2^{16}`) the
      least number of elements of the field of the random points

    EXAMPLES::

        sage: from sage_attention.misc.extension_points import extension_degree
        sage: extension_degree(2), extension_degree(101), extension_degree(65537), extension_degree(7, 50)
        (16, 3, 1, 3)
    """
    order = settings.MINIMUM_RANK_PRIME if order is None else order
    p, k = int(p), 1
    while p ** k < order:
        k += 1
    return k


def point_field(p, order=None):
    r"""
    Return the field of the random points over `\GF{p}`: `\GF{p^k}`, `k` = :func:`extension_degree`.

    OUTPUT: ``GF(p)`` when `p` is large enough, else ``GF(p^k, 'z')``

    EXAMPLES::

        sage: from sage_attention.misc.extension_points import point_field
        sage: F = point_field(2); F.order() == 2^16, F.prime_subfield()
        (True, Finite Field of size 2)
    """
    from sage.all__sagemath_singular import GF
    k = extension_degree(p, order)
    return GF(int(p)) if k == 1 else GF(int(p) ** k, "z")


def random_element(F, rng):
    r"""
    Return an element of the finite field ``F``, uniform, drawn from the local generator ``rng``.

    EXAMPLES::

        sage: from sage_attention.misc.extension_points import random_element
        sage: from sage_attention.misc.randomness import python_random
        sage: F = GF(101^3, 'z'); x = random_element(F, python_random(1))
        sage: x.parent() is F, x == random_element(F, python_random(1))
        (True, True)
    """
    q = int(F.cardinality())
    if q == int(F.characteristic()):
        return F(rng.randrange(q))
    return F.from_integer(rng.randrange(q))


def matrix_rank(F, rows):
    r"""
    Return the rank of the matrix with rows ``rows`` over the field ``F``.

    Over a non-prime finite field the rank is PARI's (``matrank``, in C):
    Sage's generic Gaussian elimination there runs in Python, about
    fifteen times slower.

    EXAMPLES::

        sage: from sage_attention.misc.extension_points import matrix_rank
        sage: F.<z> = GF(7^6)
        sage: matrix_rank(F, [[1, z], [z, z^2], [0, 1]]), matrix(F, [[1, z], [z, z^2], [0, 1]]).rank()
        (2, 2)
        sage: matrix_rank(F, []), matrix_rank(QQ, [[1, 2], [2, 4]])
        (0, 1)
    """
    from sage.all__sagemath_singular import matrix
    if not rows:
        return 0
    if F.is_finite() and not F.is_prime_field():
        from sage.libs.pari import pari
        M = matrix(F, rows)
        return int(pari(M).matrank())
    return int(matrix(F, rows).rank())


def subfield_rows(row, k):
    r"""
    Return the `k` rows over `\GF{p}` of a row over `\GF{p^k}`: the coordinates of its entries in the
    power basis `1, z, \dots, z^{k-1}`.

    A vector `c \in \GF{p}^N` satisfies `\sum_j c_j a_j = 0` for a row `a`
    over `\GF{p^k}` exactly when it satisfies the `k` equations over
    `\GF{p}` of the coordinates: the coordinate maps are `\GF{p}`-linear and
    together injective. So the kernel over `\GF{p}` of the rows over
    `\GF{p}` is the set of `\GF{p}`-vectors in the kernel of the row over
    `\GF{p^k}`.

    EXAMPLES::

        sage: from sage_attention.misc.extension_points import subfield_rows
        sage: F.<z> = GF(7^2)
        sage: subfield_rows([1, z, 3 + 2*z], 2)
        [[1, 0, 3], [0, 1, 2]]
    """
    coords = [list(a.polynomial().padded_list(k)) if hasattr(a, "polynomial") else [a] + [0] * (k - 1)
              for a in row]
    return [[int(c[i]) for c in coords] for i in range(k)]
