r"""
The rank of the Jacobian in small characteristic: when it is the dimension

Over a prime field `\GF{p}` the rank of the Jacobian of a parametrization
is a lower bound of the dimension over `\overline{\GF{p}}`, and can lie
below it at every point: the parametrization may be inseparable (a
Frobenius power `x^p`, :mod:`sage_attention.models.frobenius`, but not
only). The dimension over `\QQ` is an upper bound. Where the two ranks
agree the dimension is found; :func:`separable_rank_check` checks it for
:meth:`~sage_attention.models.jacobian.JacobianDimension.dimension_report`
over the primes below ``settings.MINIMUM_RANK_PRIME``, whose random points
come from an extension field (:mod:`sage_attention.misc.extension_points`).
"""


def separable_rank_check(p, k, rank, rank0, bound0):
    r"""
    Return the failure bound of a Jacobian rank over the small prime field `\GF{p}`, or refuse it:
    check the rank ``rank`` at points of `\GF{p^k}` against the rank ``rank0`` over `\QQ`.

    In characteristic `p` a Jacobian rank may fall below the dimension for
    every point: the parametrization may be inseparable (a Frobenius power
    `x^p` has zero derivative, but so does `xy, xz, yz \mapsto` the
    determinant `-2xyz` of its Jacobian in characteristic `2`, though the
    map is dominant). Two bounds hold whatever `p`, for the dimension
    `\delta_p` over `\overline{\GF{p}}` of the network (whose
    parametrization `c(W)` has integer coefficients):

    - `r_p \le \delta_p`, `r_p` the generic rank of the Jacobian over
      `\GF{p}` (a nonzero `r_p`-minor makes `r_p` of the coordinates
      algebraically independent);
    - `\delta_p \le r_0`, `r_0` the generic rank over `\QQ`, the
      dimension over `\QQ`: any `r_0 + 1` coordinates satisfy a nonzero
      polynomial relation with coprime integer coefficients, which stays a
      nonzero relation modulo `p`.

    So where the rank at random points of `\GF{p^k}` (at most `r_p`)
    equals the rank over `\QQ` (computed at random points modulo
    ``settings.JACOBIAN_PRIME``, at most `r_0`), both are `\delta_p`,
    unless that second rank fell below `r_0`: the failure bound returned is
    that rank's. Where they differ a ``ValueError`` says so: the Jacobian
    does not decide the dimension.
    :meth:`~sage_attention.models.jacobian.JacobianDimension.dimension_report`
    calls it over the primes below ``settings.MINIMUM_RANK_PRIME``.

    INPUT:

    - ``p`` -- the characteristic of the base field
    - ``k`` -- the degree of the field of the random points over `\GF{p}`
    - ``rank`` -- the rank found at points of `\GF{p^k}`
    - ``rank0``, ``bound0`` -- the rank of the same network over `\QQ`
      (at random points) and its failure bound

    OUTPUT: a float, ``bound0``

    EXAMPLES:

    The binary quadrics `(w_1 x_1 + w_2 x_2)^2 + (w_3 x_1 + w_4 x_2)^2`
    over `\GF{3}` fill their space (dimension `3`, as over `\QQ`)::

        sage: from sage_attention import PolynomialNetwork
        sage: from sage_attention.models.characteristic import separable_rank_check
        sage: PolynomialNetwork([2, 2, 1], 2, base_ring=GF(3)).dimension(seed=0)
        3
        sage: separable_rank_check(3, 11, 3, 3, 1e-6)
        1e-06

    A rank below the one over `\QQ` is refused: binary quartics that are
    sums of fourth powers over `\GF{3}`, where `(a x + b y)^4 = (a^3 x^3 +
    b^3 y^3)(a x + b y)` has no term `x^2 y^2`::

        sage: PolynomialNetwork([2, 3, 1], 4, base_ring=GF(3)).dimension(seed=0)
        Traceback (most recent call last):
        ...
        ValueError: the dimension over GF(3) is not decided by a Jacobian rank: at random points of GF(3^11) the rank is 4, below the rank 5 of the same network over QQ; the dimension over the algebraic closure of GF(3) lies between the two (in characteristic 3 the parametrization may be inseparable, so that every Jacobian rank falls below the dimension, or the variety smaller than over QQ): compute over QQ (base_ring=QQ), where the dimension is 5
    """
    if rank0 < rank:
        # r_0 >= rank > rank0: the rank over QQ fell at these points (probability <= bound0)
        raise ValueError(f"the dimension over GF({p}): the rank {rank0} over QQ at random points fell below "
                         f"the rank {rank} in characteristic {p} (a draw of probability at most {bound0:.2g}); "
                         "pass another seed")
    if rank0 > rank:
        raise ValueError(
            f"the dimension over GF({p}) is not decided by a Jacobian rank: at random points of "
            f"GF({p}{'^' + str(k) if k > 1 else ''}) the rank is {rank}, below the rank {rank0} of the "
            f"same network over QQ; the dimension over the algebraic closure of GF({p}) lies between the "
            f"two (in characteristic {p} the parametrization may be inseparable, so that every Jacobian "
            "rank falls below the dimension, or the variety smaller than over QQ): compute over QQ "
            f"(base_ring=QQ), where the dimension is {rank0}")
    return float(bound0)


__all__ = ["separable_rank_check"]
