r"""
Size estimates and the size guard

Before a computation starts, sage_attention estimates how large it is: the
number of coefficient coordinates, the number of essential coordinates left
after the linear relations, the number of weight parameters, and the number
of terms of the expanded parametrization. A computation whose estimate is
far beyond this machine is refused with :class:`~sage_attention.errors.ComputationTooLarge`,
which names the estimate and the option that forces it.

This module imports no Sage, so the DSL can check sizes before anything is
compiled.

EXAMPLES::

    sage: from sage_attention.sizes import estimate_size
    sage: e = estimate_size(widths=(3, 1), ranks=(2,), tokens=2)
    sage: e.coordinates, e.essential_coordinates, e.parameters
    (56, 18, 15)
    sage: e
    SizeEstimate(coordinates=56, essential_coordinates=18, parameters=15, terms=672)
"""
from dataclasses import dataclass, asdict, field
from math import comb

from sage_attention.errors import ComputationTooLarge

#: Singular's limit on the number of variables of a ring (``force=True`` does not lift it)
SINGULAR_MAX_VARIABLES = 2 ** 15 - 1

#: What the guard lets through without ``force=True``, per task.
LIMITS = {
    "coordinates": 200_000,      # building the coordinate ring
    "parametrization": 2_000_000,  # terms of the expanded parametrization
    "jacobian": 50_000_000,      # entries of the forward-mode Jacobian (about P (P + 1))
    "elimination": 60,           # coordinates a Groebner-basis elimination takes
    "generation": 60,            # essential coordinates of a generation report (the families'
                                 # spans in every degree; 75 did not finish in 10 minutes)
    "stack elimination": 100,    # coordinates times weights, eliminating the weights of a
                                 # network with dense layers (doubly exponential at worst)
}


@dataclass(frozen=True)
class SizeEstimate:
    r"""
    Sizes of a compiled model, before anything is compiled.

    EXAMPLES::

        sage: from sage_attention.sizes import estimate_size
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

            sage: from sage_attention.sizes import estimate_size
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

        sage: from sage_attention.sizes import cubic_monomials
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

        sage: from sage_attention.sizes import token_parity_monomials
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
    from flint import fmpz_poly
    odd = fmpz_poly([comb(d, i) if i % 2 else 0 for i in range(d + 1)])
    even = fmpz_poly([0 if i % 2 else comb(d, i) for i in range(d + 1)])
    N = [int(c) for c in (odd * even ** (t - 1)).coeffs()]
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

        sage: from sage_attention.sizes import estimate_size
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

        sage: from sage_attention.sizes import jacobian_entries
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

        sage: from sage_attention.sizes import span_bound
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


#: ``vanishing_ideal`` and ``check generation`` interpolate with the whole-ideal
#: proof, and eliminate when it fails and there are at most this many essential
#: coordinates (``Neurovariety.vanishing_ideal``); the interpolation table in so
#: few coordinates is small, so ``check`` estimates it beyond this number only
ELIMINATION_DEFAULT_LIMIT = 18

#: the degree of that interpolation when none is given
DEFAULT_INTERPOLATION_DEGREE = 4

#: when that proof fails because generators are missing (the ideal found has a
#: larger dimension than the variety) and there are at most
#: ``ELIMINATION_DEFAULT_LIMIT`` essential coordinates, the interpolation goes
#: on degree by degree while the next degree has at most this many monomials,
#: before it eliminates (the single tokens of width 3 and rank at least 2,
#: whose first equations are octics: 24310 monomials in 10 coordinates)
HIGHER_DEGREE_MONOMIAL_LIMIT = 30000


def interpolation_parameters(widths, ranks, tokens, weights="QKV", entries=None):
    r"""
    Return the number of weights of the parametrization the interpolation engine uses.

    It is the model's, except for ``weights = "AV"`` with a rank below the
    width: then the `(Q, K, V)` twin (the same variety, a polynomial weight
    space) is interpolated.

    EXAMPLES::

        sage: from sage_attention.sizes import interpolation_parameters
        sage: interpolation_parameters((3, 1), (1,), 2, "AV"), interpolation_parameters((2, 1), (2,), 2, "AV")
        (9, 6)
    """
    if weights == "AV" and any(int(a) < int(d) for a, d in zip(ranks, widths)):
        weights = "QKV"
    return estimate_size(widths, ranks, tokens, weights, entries).parameters


def monomial_table(nvariables, degree, nparameters):
    r"""
    Return ``(count, bytes)`` of the table of the monomials of one degree the interpolation engine builds.

    :func:`~sage_attention.ideals.product_span.monomials` writes the
    ``int16`` exponent rows (`2n` bytes a monomial) into one array, and
    :func:`~sage_attention.ideals.pieces.graded_pieces` packs each
    monomial's multidegree into a few ``int64`` keys, sorts them and
    reorders the table once (a second copy while it is reordered, and two
    copies of the keys). There are at most as many keys as entries of the
    multigrading, whose rank is counted as the number of parameters (an
    upper bound; one key holds 16 entries of range 13, as for the slices),
    so the estimate needs no Sage and ``sage-attention check`` evaluates it
    as ``implicitize`` does: `4n + 16m + 16` bytes a monomial. (Measured on
    2026-12-05 for the `11009376` quartics in the `126` coordinates of the
    slice of width `6`: a peak of 5.5 GB, against the estimate's 8.9 GB;
    before the keys, the table took 13 GB.)

    INPUT:

    - ``nvariables`` -- the essential coordinates `n`
    - ``degree`` -- the degree `k`
    - ``nparameters`` -- the weights of the parametrization

    OUTPUT: a pair of integers

    EXAMPLES::

        sage: from sage_attention.sizes import monomial_table
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

        sage: from sage_attention.sizes import largest_fitting_degree, monomial_table
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

        sage: from sage_attention.sizes import estimate_stack_size
        sage: estimate_stack_size(3, 1, 16, 3, 1, True, True)
        SizeEstimate(coordinates=10, essential_coordinates=10, parameters=16, terms=160)
    """
    n, outputs = (int(d), int(out)) if per_token else (int(d) * int(tokens),
                                                       int(out) * int(tokens))
    D = int(degree)
    coords = outputs * (comb(n + D - 1, D) if homogeneous else comb(n + D, D))
    return SizeEstimate(coords, coords, int(parameters), coords * int(parameters))


def check_size(estimate, task, force=False, hint=""):
    r"""
    Refuse ``task`` when ``estimate`` is beyond this machine.

    INPUT:

    - ``estimate`` -- a :class:`SizeEstimate`
    - ``task`` -- one of the keys of :data:`LIMITS`
    - ``force`` -- boolean (default: ``False``); run anyway
    - ``hint`` -- string (default: empty); a cheaper alternative to name

    OUTPUT: ``None``, or :class:`~sage_attention.errors.ComputationTooLarge`

    EXAMPLES::

        sage: from sage_attention.sizes import estimate_size, check_size
        sage: check_size(estimate_size((3, 1), (1,), 2), "coordinates")
        sage: big = estimate_size((4, 4, 4), (4, 4), 3)
        sage: check_size(big, "coordinates")
        Traceback (most recent call last):
        ...
        ComputationTooLarge: building the coordinate ring needs 509280 coordinates (limit 200000); pass force=True to run it anyway

    Far beyond its limit (here `10^4` times) a task is refused without
    advising ``force=True``, and a size too long to print is written as its
    order of magnitude::

        sage: check_size(estimate_size((4, 4, 4, 4), (4, 4, 4), 3), "coordinates")
        Traceback (most recent call last):
        ...
        ComputationTooLarge: building the coordinate ring needs 3611501760 coordinates (limit 200000); that is 18057 times the limit, beyond any machine: choose a smaller model
        sage: check_size(estimate_size([2] * 41, [1] * 40, 2), "coordinates")
        Traceback (most recent call last):
        ...
        ComputationTooLarge: building the coordinate ring needs about 5.9e56 coordinates (limit 200000); that is about 2.9e51 times the limit, beyond any machine: choose a smaller model
    """
    if force:
        return
    limit = LIMITS[task]
    if task == "coordinates":
        value, what = estimate.coordinates, "building the coordinate ring needs {} coordinates"
    elif task == "parametrization":
        value, what = estimate.terms, "expanding the parametrization needs about {} terms"
    elif task == "jacobian":
        # forward mode: the tangents, the directions of each attention matrix
        # and the rank matrix (:func:`jacobian_entries`); never the expanded
        # coefficients
        value = estimate.jacobian or estimate.parameters * (estimate.parameters + 1)
        what = "the forward-mode Jacobian holds about {} field entries"
    elif task == "elimination":
        value, what = estimate.essential_coordinates, "elimination over {} essential coordinates is far beyond this machine"
    elif task == "generation":
        value, what = estimate.essential_coordinates, "the generation report over {} essential coordinates is beyond this machine"
    elif task == "stack elimination":
        value = estimate.coordinates * estimate.parameters
        what = (f"elimination over {magnitude(estimate.coordinates)} coordinates and {estimate.parameters} weights "
                "(coordinates times weights {}) is beyond this machine")
    else:
        raise ValueError(f"unknown task (={task!r})")
    if value > limit:
        shown = magnitude(value)
        if shown.startswith("about "):
            what = what.replace("about {}", "{}")
        hopeless = value > HOPELESS * limit
        hints = [hint] if hint else []
        if hopeless:
            hints.append(f"that is {magnitude(value // limit)} times the limit, beyond any machine: "
                         "choose a smaller model")
        raise ComputationTooLarge(what.format(shown) + f" (limit {limit})", estimate,
                                  hint="; ".join(hints), force_helps=True if not hopeless else None)


#: beyond this many times its limit a task is refused without advising ``force=True``
HOPELESS = 10 ** 4


def magnitude(n):
    r"""
    Return the text of the nonnegative integer ``n``: its digits up to `10^{12}`, else its order of magnitude.

    (Python refuses to print an integer of more than 4300 digits, and the
    size of a deep network can have more.)

    EXAMPLES::

        sage: from sage_attention.sizes import magnitude
        sage: magnitude(123456), magnitude(6 * 10**56 + 1), magnitude(3**100000)
        ('123456', 'about 6.0e56', 'about 1.3e47712')
    """
    n = int(n)
    if n < 10 ** 12:
        return str(n)
    e = n.bit_length() * 30103 // 100000 - 1       # a lower bound on log10(n)
    while n >= 10 ** (e + 1):
        e += 1
    mantissa = n // 10 ** (e - 1)                  # two digits
    return f"about {mantissa // 10}.{mantissa % 10}e{e}"


def term_bytes(nvariables):
    r"""
    Return the bytes one term of a polynomial takes in a ring with ``nvariables`` variables.

    A Singular monomial packs the exponent vector (about two bytes a
    variable) after a header and the coefficient. Calibrated with the
    invariant families (:func:`family_estimate`): the peak resident memory
    of building a family, measured in a child process (``ru_maxrss`` minus
    the resident memory before the call), divided by the number of terms it
    returned, is between `0.5` and `3` times this figure on the measured
    sizes (the rest is the intermediate matrices, counted apart).

    EXAMPLES::

        sage: from sage_attention.sizes import term_bytes
        sage: term_bytes(56)
        176
    """
    return 2 * int(nvariables) + 64


@dataclass(frozen=True)
class FamilyEstimate:
    r"""
    The size of an invariant family, estimated before it is built.

    Attributes: ``family`` (its name), ``members`` (how many polynomials it
    builds, before zero and repeated ones are dropped), ``terms`` (the
    terms of a typical member), ``nbytes`` (the estimated peak memory of
    building it: the members plus the matrices built on the way).

    EXAMPLES::

        sage: from sage_attention.sizes import family_estimate
        sage: family_estimate("syzygies", (3, 1), (3,), 2)
        FamilyEstimate(family='syzygies', members=10, terms=12, nbytes=...)
    """
    family: str
    members: int
    terms: int
    nbytes: int

    def describe(self):
        r"""
        Return what would be built, for a refusal.

        EXAMPLES::

            sage: from sage_attention.sizes import family_estimate
            sage: family_estimate("pencil", (4, 2), (2,), 2).describe()
            'the family pencil (about 400 members of about 6 terms)'
        """
        return (f"the family {self.family} (about {self.members} members of about "
                f"{self.terms} terms)")


def _rows_of(widths, entries):
    if entries is None:
        return int(widths[-1])
    return len({i for i, _ in entries})


def family_estimate(name, widths, ranks, tokens, entries=None, options=None):
    r"""
    Estimate the invariant family ``name`` of a one-layer lightning model before it is built.

    INPUT:

    - ``name`` -- a family name (see :data:`sage_attention.dsl.computations.FAMILIES`)
    - ``widths``, ``ranks``, ``tokens``, ``entries`` -- the model, as for
      :func:`estimate_size` (one layer)
    - ``options`` -- (default: ``None``) the family's options (``limit``,
      ``r``, ``lines``, ``max_minors``)

    OUTPUT: a :class:`FamilyEstimate`, or ``None`` when the family does not
    apply (it is empty) or the model has several layers

    The formulas count what each family builds (`d` the input width, `a`
    the rank, `D = d(d+1)/2`, `R` the kept output rows, `b` =
    :func:`term_bytes` of the coordinate ring). They were calibrated
    against the peak resident memory of the build measured in a child
    process (``resource.getrusage``) on the sizes named in the comments;
    the estimate is within a factor of about `3` of the measurement there
    and grows like the measurements from one size to the next.

    EXAMPLES::

        sage: from sage_attention.sizes import family_estimate
        sage: family_estimate("syzygies", (4, 1), (4,), 2).members
        175
        sage: family_estimate("syzygies", (5, 1), (5,), 2).nbytes > 2**30
        True
        sage: family_estimate("veronese", (4, 1), (4,), 2, options={"r": 3}).members
        720
        sage: family_estimate("chow", (3, 1), (1,), 2) is None
        True
    """
    widths = tuple(int(w) for w in widths)
    ranks = tuple(int(x) for x in ranks)
    if len(ranks) != 1:
        return None
    options = dict(options or {})
    limit = options.get("limit")
    d, a, t = widths[0], ranks[0], int(tokens)
    R = _rows_of(widths, entries)
    C = estimate_size(widths, ranks, t, entries=entries).coordinates
    b = term_bytes(C)
    D = d * (d + 1) // 2
    aux = 0                       # bytes of the matrices built on the way
    if name == "linear":
        if t < 2:
            return None
        members, terms = C, 3
    elif name == "low_rank":
        if t < 2 or a >= d:
            return None
        members, terms = R * comb(D, a + 1) * comb(d, a + 1), _factorial(a + 1)
    elif name == "pencil":
        if t < 2 or d < 3:
            return None
        P = comb(d, 3)
        members, terms = R * P * (P + 1) // 2 * comb(d + 2, 3), 6
    elif name == "rank_one":
        if t < 2 or a != 1:
            return None
        parts = [family_estimate(n, widths, ranks, t, entries, options)
                 for n in ("linear", "low_rank", "pencil")]
        parts = [p for p in parts if p is not None]
        members = sum(p.members for p in parts)
        nbytes = sum(p.nbytes for p in parts)
        return FamilyEstimate(name, members, max(p.terms for p in parts), nbytes)
    elif name == "syzygies":
        # The relations among the comb(D, d) maximal minors of Phi(v), forms
        # of degree d in d variables: K = comb(D, d) - comb(2d - 1, d) of
        # them (measured: 10, 175 for d = 3, 4). A dense rational left
        # kernel of K x comb(D, d) entries (about 200 bytes each, with the
        # echelon copy), the comb(D, d) determinants of d! terms of each
        # row, and K members of about 2 d! terms (measured: 10, 39 and 179
        # terms a member for d = 3, 4, 5). Measured peaks: 4 MiB (d = 3),
        # 19 MiB (d = 4), 28 MiB (d = 4, two rows), 2100 MiB (d = 5, 136 s;
        # estimated 2150 MiB), most of it the rational kernel.
        if t < 2 or d < 3:
            return None
        nm, nf = comb(D, d), comb(2 * d - 1, d)
        K = max(nm - nf, 0)
        members, terms = R * K, 2 * _factorial(d)
        aux = 200 * K * nm + nm * _factorial(d) * b + 40 * nm * nf
    elif name == "veronese":
        # Per row and r: comb(d, r)^2 index sets, each with r^r mixed
        # determinants of r x r slices, and the 2 x 2 minors of the
        # catalecticants Cat_k (k <= r/2). Terms of a member: measured 7
        # (r = 2), 176 (r = 3) and 5630 (r = 4, the first three members) on
        # d = 4; taken as 7 * 30^(r - 2). Measured peaks (d = 4): 1 MiB
        # (r = 2), 65 MiB (r = 3, estimated 40 MiB); r = 4 passed 7 GiB
        # before it was stopped (estimated 5.6 GiB: 3165 members of about
        # 6300 terms).
        if t < 2:
            return None
        top = min(d, a)
        r = options.get("r")
        rs = list(range(2, top + 1)) if r is None else (
            list(r) if isinstance(r, (list, tuple)) else [int(r)])
        rs = [x for x in rs if 2 <= x <= top]
        if not rs:
            return None
        members, weighted = 0, 0
        for rr in rs:
            per = sum(comb(comb(k + rr - 1, k), 2) * comb(comb(2 * rr - k - 1, rr - k), 2)
                      for k in range(1, rr // 2 + 1))
            n = R * comb(d, rr) ** 2 * per
            members += n
            weighted += n * 7 * 30 ** (rr - 2)
        terms = max(weighted // max(members, 1), 1)
        if limit is not None:
            members = min(members, int(limit))
        return FamilyEstimate(name, members, terms, members * terms * b)
    elif name == "sylvester":
        # 'coordinate': comb(d, 2) lines times comb(d, 2) pairs of slices a
        # row, quartics of about 7 terms (measured, d = 4: 36 members, 252
        # terms, 2 MiB). 'generic': a basis of the quartics of the generic
        # resultant (d = 3: 90 members of about 1200 terms, 41 MiB
        # measured); the basis grows with the square and the terms with
        # the fourth power of the number V = d D of slice entries.
        if t < 2 or d < 2:
            return None
        lines = options.get("lines")
        if lines is None:
            lines = "generic" if d <= 3 else "coordinate"
        V = d * D
        if lines == "generic":
            members = max(R * 90 * V * V // 324, 1)
            terms = max(min(1200 * V ** 4 // 18 ** 4, comb(V + 3, 4)), 1)
            aux = 8 * 4 * members * 64 * 16
        else:
            nlines = comb(d, 2) if lines == "coordinate" else len(list(lines))
            members, terms = R * nlines * comb(d, 2), 8
    elif name == "chow":
        # Maximal minors (d^2 - 1 columns) of a comb(d + 2, 3)-row matrix of
        # coordinates; measured for d = 3: 45 minors of about 200 terms,
        # 2 MiB. A minor of size n has at most n! terms; about 200 for n = 8
        # is n!/200, kept as the ratio for larger n.
        if t != 1 or d < 3:
            return None
        n_rows, n_cols = comb(d + 2, 3), d * d - 1
        members = R * comb(n_rows, n_cols)
        terms = max(_factorial(n_cols) // 200, 1)
        if limit is None:
            max_minors = options.get("max_minors") or 2000
            members = min(members, R * max_minors)
    elif name == "single_token_low_rank":
        s = 2 * a + 2
        if t != 1 or s > d:
            return None
        members, terms = R * comb(d, s) ** 2, _factorial(s)
    elif name == "rows":
        if R < 2:
            return None
        pairs = R * (R - 1) // 2
        if t == 1:
            n = comb(d + 3, 4)
            members = pairs * comb(n, 2 * d)
            if limit is None:
                members = min(members, pairs * (options.get("max_minors") or 10000))
            terms = _factorial(2 * d)
        elif a < d:
            members = pairs * comb(2 * D, a + 1) * comb(d, a + 1)
            terms = _factorial(a + 1)
        else:
            nm, nf = comb(2 * D, d), comb(2 * d + d - 1, d)
            members = pairs * max(nm - nf, 0)
            terms = 2 * _factorial(d)
            aux = 80 * max(nm - nf, 0) * nm + nm * _factorial(d) * b
        if t >= 2 and d >= 3:
            P = comb(d, 3)
            members += pairs * P * (P + 1) // 2 * comb(2 * d + 2, 3)
    elif name == "brill":
        # The span of Brill's quartics: an echelon form of (rank) x
        # comb(m + 3, 4) residues (m the cubic's coefficients: 10 for
        # d = 3, 20 for d = 4), three copies, and rank members (35 for
        # d = 3, 875 for d = 4) of at most comb(m + 3, 4) terms.
        if t != 1 or a != 1 or d < 3:
            return None
        m = comb(d + 2, 3)
        ncols = comb(m + 3, 4)
        rank = {3: 35, 4: 875}.get(d, ncols)
        members, terms = R * rank, ncols
        aux = 3 * 8 * rank * ncols
    else:
        return None
    if limit is not None:
        members = min(members, int(limit))
    return FamilyEstimate(name, members, terms, members * terms * b + aux)


def _factorial(n):
    from math import factorial
    return factorial(int(n))
