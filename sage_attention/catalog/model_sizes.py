r"""
Size estimates of models, before anything is compiled

Before a computation starts, sage_attention estimates how large its model
is: the number of coefficient coordinates, the number of essential
coordinates left after the linear relations, the number of weight
parameters, the number of terms of the expanded parametrization
(:func:`estimate_size`, :func:`estimate_stack_size`), the field entries of
the forward-mode Jacobian (:func:`jacobian_entries`), the dimension of the
linear span (:func:`span_bound`) and the monomial tables of the
interpolation (:func:`monomial_table`). The size guard
(:mod:`sage_attention.catalog.costs`) compares them with its limits, and
the invariant families have their own cost model
(:mod:`sage_attention.catalog.family_costs`).

This module imports no Sage, so the DSL can check sizes before anything is
compiled.

EXAMPLES::

    sage: from sage_attention.catalog.model_sizes import estimate_size
    sage: e = estimate_size(widths=(3, 1), ranks=(2,), tokens=2)
    sage: e.coordinates, e.essential_coordinates, e.parameters
    (56, 18, 15)
    sage: e
    SizeEstimate(coordinates=56, essential_coordinates=18, parameters=15, terms=672)
"""
from dataclasses import dataclass, asdict, field
from math import comb


@dataclass(frozen=True)
class SizeEstimate:
    r"""
    Sizes of a compiled model, before anything is compiled.

    EXAMPLES::

        sage: from sage_attention.catalog.model_sizes import estimate_size
        sage: estimate_size((2, 1), (1,), 1).to_dict()
        {'coordinates': 4, 'essential_coordinates': 4, 'parameters': 6, 'terms': 24}
    """
    coordinates: int
    essential_coordinates: int
    parameters: int
    terms: int
    #: the field entries the forward-mode Jacobian rank holds at once
    #: (:func:`jacobian_entries`); the guard of ``dimension`` and ``fibers``
    jacobian: int = field(default=0, repr=False)

    def to_dict(self):
        r"""
        Return the estimate as a dictionary (for JSON).

        EXAMPLES::

            sage: from sage_attention.catalog.model_sizes import estimate_size
            sage: sorted(estimate_size((2, 2), (2,), 3).to_dict())
            ['coordinates', 'essential_coordinates', 'parameters', 'terms']
        """
        d = asdict(self)
        del d["jacobian"]
        return d


def cubic_monomials(n):
    r"""
    Return the number of cubic monomials in ``n`` variables.

    EXAMPLES::

        sage: from sage_attention.catalog.model_sizes import cubic_monomials
        sage: cubic_monomials(3)
        10
    """
    return comb(n + 2, 3)


def token_parity_monomials(d, tokens, degree):
    r"""
    Return the number of monomials of ``degree`` in `d t` variables (`d` per token) of odd degree in the first token's and even degree in each other token's.

    An output entry of a lightning network without residual connections has
    its support among them, for its own token in place of the first: the
    token `j` of a layer's output is `\sum_m V x_m (x_m^T A x_j)`, of odd
    degree in the variables of token `j` and even degree in those of every
    other token, when its inputs `x_m` are (for the input itself, degrees `1`
    and `0`); a product `y_m y_m y_j` keeps the parities.

    INPUT:

    - ``d`` -- positive integer; variables per token
    - ``tokens`` -- positive integer `t`
    - ``degree`` -- nonnegative integer

    OUTPUT: an integer

    EXAMPLES:

    Two tokens of two variables, degree `9` (a network of two layers): half
    of the `220` monomials; one token: every monomial of odd degree::

        sage: from sage_attention.catalog.model_sizes import token_parity_monomials
        sage: token_parity_monomials(2, 2, 9), token_parity_monomials(3, 1, 3), token_parity_monomials(3, 1, 2)
        (110, 10, 0)
    """
    d, t, D = int(d), int(tokens), int(degree)
    # The generating function of the counts is O(x) E(x)^(t-1), O and E the odd
    # and even parts of (1 - x)^(-d) = (1 + x)^d / (1 - x^2)^d: with P_- and P_+
    # the odd and even parts of (1 + x)^d, it is N(x) / (1 - x^2)^(d t), where
    # N = P_- P_+^(t-1) has degree at most d t; and 1/(1 - x^2)^M has the
    # coefficient binomial(M + m - 1, m) at x^(2m). So the count is a sum of
    # at most d t / 2 terms (in time polynomial in d t and log D).
    # only the coefficients of N of degree <= D count: N is computed modulo x^(D + 1), so
    # the time does not grow with t (a power by squaring of polynomials of degree <= D)
    def product(a, b):
        c = [0] * min(len(a) + len(b) - 1, D + 1)
        for i, u in enumerate(a[:D + 1]):
            if u:
                for j, v in enumerate(b[:D + 1 - i]):
                    c[i + j] += u * v
        return c

    odd = [comb(d, i) if i % 2 else 0 for i in range(d + 1)]
    even = [0 if i % 2 else comb(d, i) for i in range(d + 1)]
    N, power, e = odd, even, t - 1
    while e:
        if e & 1:
            N = product(N, power)
        e >>= 1
        if e:
            power = product(power, power)
    M = d * t
    i = D % 2
    if i >= len(N) or i > D:
        return 0
    m = (D - i) // 2
    binomial = comb(M + m - 1, m)      # binomial(M + m - 1, m), then stepped to m - 1
    total = 0
    while i < len(N) and i <= D:
        total += N[i] * binomial
        binomial = binomial * m // (M + m - 1) if m else 0
        i, m = i + 2, m - 1
    return total


def estimate_size(widths, ranks, tokens, weights="QKV", entries=None, heads=None,
                  residual=False):
    r"""
    Estimate the size of a lightning attention model.

    INPUT:

    - ``widths`` -- tuple of positive integers `(d_0, \dots, d_l)`
    - ``ranks`` -- tuple of positive integers `(a_1, \dots, a_l)`
    - ``tokens`` -- positive integer `t`
    - ``weights`` -- ``"QKV"`` or ``"AV"`` (default: ``"QKV"``)
    - ``entries`` -- (default: ``None``, all) collection of 1-based output
      entries ``(row, token)``
    - ``heads`` -- (default: ``None``, one per layer) the numbers of summed
      heads `(H_1, \dots, H_l)`; they multiply the weights of each layer
    - ``residual`` -- boolean (default: ``False``); residual connections
      (they enlarge the span of a deep network, :func:`span_bound`)

    OUTPUT: a :class:`SizeEstimate`

    For one layer the counts are exact (:ref:`mathematics, §2 <math-2>`); for a deep
    network the coordinates of an output entry are counted as the
    monomials of degree `3^l` in the `d_0 t` input variables of odd degree
    in its token and even degree in the others
    (:func:`token_parity_monomials`; all of them with residual
    connections, whose output is not homogeneous): an upper bound.

    EXAMPLES::

        sage: from sage_attention.catalog.model_sizes import estimate_size
        sage: estimate_size((8, 8), (4,), 3).coordinates
        16704
        sage: estimate_size((3, 3, 3), (2, 2), 3).coordinates
        55674
        sage: estimate_size((3, 3), (2,), 2, heads=(4,)).parameters
        84
    """
    widths = tuple(int(w) for w in widths)
    ranks = tuple(int(a) for a in ranks)
    t = int(tokens)
    layers = len(ranks)
    if entries is None:
        n_entries = widths[-1] * t
        rows = widths[-1]
    else:
        entries = list(entries)
        n_entries = len(entries)
        rows = len({i for i, _ in entries})
    heads = (1,) * layers if heads is None else tuple(int(h) for h in heads)
    if weights == "QKV":
        params = sum(heads[i] * (2 * a * widths[i] + widths[i + 1] * widths[i])
                     for i, a in enumerate(ranks))
    else:
        params = sum(heads[i] * (widths[i] ** 2 + widths[i + 1] * widths[i])
                     for i in range(layers))
    if layers == 1:
        d = widths[0]
        D = d * (d + 1) // 2
        cross = (t - 1) * D * d
        pure = cubic_monomials(d)
        coords = n_entries * (cross + pure)
        essential = rows * D * d if t >= 2 else n_entries * pure
        per_A = ranks[0] if weights == "QKV" else 1
        terms = coords * 6 * per_A
    else:
        deg = 3 ** layers
        per_entry = (comb(widths[0] * t + deg - 1, deg) if residual
                     else token_parity_monomials(widths[0], t, deg))
        coords = n_entries * per_entry
        essential = coords
        terms = coords * params
    span = span_bound(widths, ranks, t, entries, residual)
    jac = jacobian_entries(widths, ranks, t, params, n_entries, weights, span)
    return SizeEstimate(coords, essential, params, terms, jac)


#: the field entries one small Sage matrix costs (its object, counted by the Jacobian guard)
MATRIX_OVERHEAD = 64


def jacobian_entries(widths, ranks, tokens, nparameters, nentries, weights="QKV", span=None):
    r"""
    Return the number of field entries the forward-mode Jacobian rank holds at once.

    For each random input the forward pass
    (:mod:`sage_attention.models.jacobian`) keeps one tangent matrix of
    size `d_i \times t` per weight direction and layer (a small matrix
    counted as :data:`MATRIX_OVERHEAD` entries, its object), the directions in
    the attention matrix of each layer as `d_{i-1} \times d_{i-1}` matrices
    (`2 a_i d_{i-1}` of them for `Q, K`, at most `2 d_{i-1}^2` for `A`), and
    the rank matrix grows to at most `(\lceil (r+1)/n \rceil + 1) n` rows
    of `P` entries, where `P` is the number of weights, `n` the number of
    kept output entries and `r = \min(P, \text{span})` the largest rank
    (the rank stops at the dimension of the linear span, :func:`span_bound`).

    INPUT:

    - ``widths``, ``ranks``, ``tokens`` -- the architecture
    - ``nparameters`` -- the number of weights `P`
    - ``nentries`` -- the number of kept output entries `n`
    - ``weights`` -- ``"QKV"`` or ``"AV"`` (default: ``"QKV"``)
    - ``span`` -- (default: ``None``, no bound) an upper bound on the rank

    OUTPUT: an integer

    EXAMPLES::

        sage: from sage_attention.catalog.model_sizes import jacobian_entries
        sage: jacobian_entries((4, 2, 4), (2, 2), 3, 60, 12)
        12976

    A hundred thousand heads of a small layer: the rank stops at the span of
    `12`, but the `800000` tangents (one small matrix each) are refused::

        sage: jacobian_entries((2, 2), (1,), 2, 800000, 4, span=12) > 50 * 10**6
        True

    One width-`1000` layer: the `2000` directions of `A` alone are two
    billion entries::

        sage: jacobian_entries((1000, 1), (1,), 2, 3000, 2) > 2 * 10**9
        True
    """
    P = int(nparameters)
    n = max(int(nentries), 1)
    widths = tuple(int(w) for w in widths)
    # a tangent is a Sage matrix: an object costs as much as about
    # MATRIX_OVERHEAD entries even when it has four
    tangents = P * max(max(widths) * int(tokens), MATRIX_OVERHEAD) * 2
    directions = 0
    for i, a in enumerate(ranks):
        din = widths[i]
        count = 2 * int(a) * din if weights == "QKV" else 2 * din * din
        directions = max(directions, count * din * din)
    top = P if span is None else min(P, int(span))
    rows = (-(-(top + 1) // n) + 1) * n
    return tangents + directions + rows * P


def span_bound(widths, ranks, tokens, entries=None, residual=False):
    r"""
    Return an upper bound on the dimension of the linear span of a lightning neurovariety.

    Every dimension of the neurovariety (a Jacobian rank at any point)
    is at most the dimension of its linear span, since the parametrization
    lands in it. For one layer the bound is exact: the number of essential
    coordinates (:ref:`mathematics, §2 <math-2>`); heads and a causal mask
    do not enlarge the span (:mod:`sage_attention.models.join`). For a deep
    network it is the number of monomials of degree `3^l` in the `d_0 t`
    inputs per kept entry; with residual connections every degree up to
    `3^l` occurs, so all monomials of degree at most `3^l` are counted.

    INPUT:

    - ``widths``, ``ranks``, ``tokens``, ``entries`` -- the model, as for
      :func:`estimate_size`
    - ``residual`` -- boolean (default: ``False``)

    OUTPUT: a positive integer

    EXAMPLES::

        sage: from sage_attention.catalog.model_sizes import span_bound
        sage: span_bound((2, 1), (1,), 2), span_bound((3, 1), (1,), 2, entries=[(1, 1)])
        (6, 18)
        sage: span_bound((1, 1, 1), (1, 1), 1), span_bound((1, 1, 1), (1, 1), 1, residual=True)
        (1, 10)
    """
    widths = tuple(int(w) for w in widths)
    layers, t = len(tuple(ranks)), int(tokens)
    if entries is None:
        n_entries, rows = widths[-1] * t, widths[-1]
    else:
        entries = list(entries)
        n_entries, rows = len(entries), len({i for i, _ in entries})
    if layers == 1:
        d = widths[0]
        return rows * d * d * (d + 1) // 2 if t >= 2 else n_entries * cubic_monomials(d)
    deg, n = 3 ** layers, widths[0] * t
    if residual:
        return n_entries * comb(n + deg, deg)
    return n_entries * comb(n + deg - 1, deg)


def interpolation_parameters(widths, ranks, tokens, weights="QKV", entries=None):
    r"""
    Return the number of weights of the parametrization the interpolation engine uses.

    It is the model's, except for ``weights = "AV"`` with a rank below the
    width: then the `(Q, K, V)` twin (the same variety, a polynomial weight
    space) is interpolated.

    EXAMPLES::

        sage: from sage_attention.catalog.model_sizes import interpolation_parameters
        sage: interpolation_parameters((3, 1), (1,), 2, "AV"), interpolation_parameters((2, 1), (2,), 2, "AV")
        (9, 6)
    """
    if weights == "AV" and any(int(a) < int(d) for a, d in zip(ranks, widths)):
        weights = "QKV"
    return estimate_size(widths, ranks, tokens, weights, entries).parameters


def monomial_table(nvariables, degree, nparameters):
    r"""
    Return ``(count, bytes)`` of the table of the monomials of one degree the interpolation engine builds.

    :func:`~sage_attention.ideals.engine.product_span.monomials` writes the
    ``int16`` exponent rows (`2n` bytes a monomial) into one array, and
    :func:`~sage_attention.ideals.engine.pieces.graded_pieces` packs each
    monomial's multidegree into a few ``int64`` keys, sorts them and
    reorders the table once (a second copy while it is reordered, and two
    copies of the keys). There are at most as many keys as entries of the
    multigrading, whose rank is counted as the number of parameters (an
    upper bound; one key holds 16 entries of range 13, as for the slices),
    so the estimate needs no Sage and ``sage-attention check`` evaluates it
    as ``implicitize`` does: `4n + 16m + 16` bytes a monomial. (Measured
    for the `11009376` quartics in the `126` coordinates of the
    slice of width `6`: a peak of 5.5 GB, against the estimate's 8.9 GB;
    before the keys, the table took 13 GB.)

    INPUT:

    - ``nvariables`` -- the essential coordinates `n`
    - ``degree`` -- the degree `k`
    - ``nparameters`` -- the weights of the parametrization

    OUTPUT: a pair of integers

    EXAMPLES::

        sage: from sage_attention.catalog.model_sizes import monomial_table
        sage: monomial_table(10, 2, 3)
        (55, 5720)
        sage: count, nbytes = monomial_table(126, 4, 18); count, round(nbytes / 2**30, 1)
        (11009376, 8.3)
    """
    n, k, m = int(nvariables), int(degree), int(nparameters)
    count = comb(n + k - 1, k)
    return count, count * (4 * n + 16 * m + 16)


def largest_fitting_degree(nvariables, nparameters, below, limit):
    r"""
    Return the largest degree below ``below`` whose monomial table fits in ``limit`` bytes, or ``None``.

    The hint of a refusal: the degree a user can write instead, by the
    estimate of :func:`monomial_table` that refused (so the degree named
    is not refused by it in turn). Degrees below `2` are not named: they
    have no equation to interpolate.

    INPUT:

    - ``nvariables`` -- the essential coordinates `n`
    - ``nparameters`` -- the weights of the parametrization
    - ``below`` -- the degree refused
    - ``limit`` -- bytes

    OUTPUT: an integer `k \ge 2` with ``monomial_table(n, k, m)`` within
    ``limit``, the largest below ``below``; or ``None``

    EXAMPLES:

    In `18` coordinates with `9` weights the tables of degrees `4`, `9` and
    `10` take about 1.3 MB, 0.68 GiB and 1.82 GiB; with 1 GiB the largest
    degree below `50` that fits is `9`::

        sage: from sage_attention.catalog.model_sizes import largest_fitting_degree, monomial_table
        sage: largest_fitting_degree(18, 9, 50, 2**30)
        9
        sage: monomial_table(18, 9, 9)[1] <= 2**30 < monomial_table(18, 10, 9)[1]
        True
        sage: largest_fitting_degree(18, 9, 50, 10**4) is None
        True
    """
    n, m = int(nvariables), int(nparameters)
    fitting = [k for k in range(2, int(below)) if monomial_table(n, k, m)[1] <= limit]
    return max(fitting) if fitting else None


def estimate_stack_size(d, tokens, parameters, degree, out, homogeneous, per_token):
    r"""
    Estimate the size of a stack of dense and attention layers.

    INPUT:

    - ``d``, ``tokens`` -- the input width `d_0` and the number of tokens `t`
    - ``parameters`` -- the number of weights
    - ``degree`` -- the degree `D` of the output in the input
    - ``out`` -- the output width `d_L`
    - ``homogeneous`` -- boolean; whether the output is homogeneous of degree `D`
    - ``per_token`` -- boolean; whether every layer acts on each token
      separately (then the coordinates are those of one token)

    OUTPUT: a :class:`SizeEstimate`; the coordinates are the coefficients of
    every output entry (monomials of degree `D`, or `\le D`, in `d_0` or
    `d_0 t` variables), all counted as essential

    EXAMPLES::

        sage: from sage_attention.catalog.model_sizes import estimate_stack_size
        sage: estimate_stack_size(3, 1, 16, 3, 1, True, True)
        SizeEstimate(coordinates=10, essential_coordinates=10, parameters=16, terms=160)
    """
    n, outputs = (int(d), int(out)) if per_token else (int(d) * int(tokens),
                                                       int(out) * int(tokens))
    D = int(degree)
    coords = outputs * (comb(n + D - 1, D) if homogeneous else comb(n + D, D))
    return SizeEstimate(coords, coords, int(parameters), coords * int(parameters))


__all__ = ["SizeEstimate", "cubic_monomials", "token_parity_monomials", "estimate_size",
           "jacobian_entries", "span_bound", "interpolation_parameters", "monomial_table",
           "largest_fitting_degree", "estimate_stack_size", "MATRIX_OVERHEAD"]
