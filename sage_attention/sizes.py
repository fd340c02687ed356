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
from dataclasses import dataclass, asdict
from math import comb

from sage_attention.errors import ComputationTooLarge

#: What the guard lets through without ``force=True``, per task.
LIMITS = {
    "coordinates": 200_000,      # building the coordinate ring
    "parametrization": 2_000_000,  # terms of the expanded parametrization
    "jacobian": 50_000_000,      # entries of the forward-mode Jacobian (about P (P + 1))
    "elimination": 60,           # coordinates a Groebner-basis elimination takes
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

    def to_dict(self):
        r"""
        Return the estimate as a dictionary (for JSON).

        EXAMPLES::

            sage: from sage_attention.sizes import estimate_size
            sage: sorted(estimate_size((2, 2), (2,), 3).to_dict())
            ['coordinates', 'essential_coordinates', 'parameters', 'terms']
        """
        return asdict(self)


def cubic_monomials(n):
    r"""
    Return the number of cubic monomials in ``n`` variables.

    EXAMPLES::

        sage: from sage_attention.sizes import cubic_monomials
        sage: cubic_monomials(3)
        10
    """
    return comb(n + 2, 3)


def estimate_size(widths, ranks, tokens, weights="QKV", entries=None, heads=None):
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

    OUTPUT: a :class:`SizeEstimate`

    For one layer the counts are exact (:ref:`mathematics, §2 <math-2>`); for a deep
    network the coordinates are all monomials of degree `3^l` in the
    `d_0 t` input variables, an upper bound.

    EXAMPLES::

        sage: from sage_attention.sizes import estimate_size
        sage: estimate_size((8, 8), (4,), 3).coordinates
        16704
        sage: estimate_size((3, 3, 3), (2, 2), 3).coordinates
        218790
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
        per_entry = comb(widths[0] * t + deg - 1, deg)
        coords = n_entries * per_entry
        essential = coords
        terms = coords * params
    return SizeEstimate(coords, essential, params, terms)


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
        sage: big = estimate_size((4, 4, 4, 4), (4, 4, 4), 3)
        sage: check_size(big, "coordinates")
        Traceback (most recent call last):
        ...
        ComputationTooLarge: building the coordinate ring needs ... coordinates (limit 200000); pass force=True to run it anyway
    """
    if force:
        return
    limit = LIMITS[task]
    if task == "coordinates":
        value, what = estimate.coordinates, "building the coordinate ring needs {} coordinates"
    elif task == "parametrization":
        value, what = estimate.terms, "expanding the parametrization needs about {} terms"
    elif task == "jacobian":
        # forward mode stacks about P + 1 rows of P derivatives (P weights);
        # it never builds the expanded coefficients
        value = estimate.parameters * (estimate.parameters + 1)
        what = "the forward-mode Jacobian has about {} entries"
    elif task == "elimination":
        value, what = estimate.essential_coordinates, "elimination over {} essential coordinates is far beyond this machine"
    else:
        raise ValueError(f"unknown task (={task!r})")
    if value > limit:
        msg = what.format(value) + f" (limit {limit})"
        if hint:
            msg += f"; {hint}"
        msg += "; pass force=True to run it anyway"
        raise ComputationTooLarge(msg, estimate)
