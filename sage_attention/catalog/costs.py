r"""
The size guard

Before a computation starts, sage_attention estimates how large it is
(:mod:`sage_attention.catalog.model_sizes`: coordinates, essential
coordinates, weights, terms, Jacobian entries; and
:mod:`sage_attention.catalog.family_costs` for the invariant families). A
computation whose estimate is beyond the limit of its task
(:data:`LIMITS`) is refused by :func:`check_size` with
:class:`~sage_attention.misc.errors.ComputationTooLarge`, which names the
estimate and the option that forces it; far beyond
(``settings.HOPELESS_FACTOR`` times the limit) it is refused without
advising ``force=True``. The estimates are importable from here too.

This module imports no Sage, so the DSL can check sizes before anything is
compiled.

EXAMPLES::

    sage: from sage_attention.catalog.costs import estimate_size, check_size
    sage: e = estimate_size(widths=(3, 1), ranks=(2,), tokens=2)
    sage: e
    SizeEstimate(coordinates=56, essential_coordinates=18, parameters=15, terms=672)
    sage: check_size(e, "elimination")
    sage: check_size(estimate_size((6, 6), (6,), 4), "elimination")
    Traceback (most recent call last):
    ...
    ComputationTooLarge: elimination over 756 essential coordinates is far beyond this machine (limit 60); pass force=True to run it anyway
"""
from sage_attention.settings import moved_to_settings, settings
from sage_attention.misc.errors import ComputationTooLarge
# the estimates the guard reads have their own modules; their names stay importable from here
from sage_attention.catalog.model_sizes import (MATRIX_OVERHEAD, SizeEstimate,  # noqa: F401
                                                cubic_monomials, estimate_size, estimate_stack_size,
                                                interpolation_parameters, jacobian_entries,
                                                largest_fitting_degree, monomial_table, span_bound,
                                                token_parity_monomials)
from sage_attention.catalog.family_costs import FamilyEstimate, family_estimate, term_bytes  # noqa: F401

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


def check_size(estimate, task, force=False, hint=""):
    r"""
    Refuse ``task`` when ``estimate`` is beyond this machine.

    INPUT:

    - ``estimate`` -- a :class:`SizeEstimate`
    - ``task`` -- one of the keys of :data:`LIMITS`
    - ``force`` -- boolean (default: ``False``); run anyway
    - ``hint`` -- string (default: empty); a cheaper alternative to name

    OUTPUT: ``None``, or :class:`~sage_attention.misc.errors.ComputationTooLarge`

    EXAMPLES::

        sage: from sage_attention.catalog.costs import estimate_size, check_size
        sage: check_size(estimate_size((3, 1), (1,), 2), "coordinates")
        sage: big = estimate_size((4, 4, 4), (4, 4), 3)
        sage: check_size(big, "coordinates")
        Traceback (most recent call last):
        ...
        ComputationTooLarge: building the coordinate ring needs 509280 coordinates (limit 200000); pass force=True to run it anyway

    Far beyond its limit (``settings.HOPELESS_FACTOR`` times, `10^4` by default) a task is refused without
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
        hopeless = value > settings.HOPELESS_FACTOR * limit
        hints = [hint] if hint else []
        if hopeless:
            hints.append(f"that is {magnitude(value // limit)} times the limit, beyond any machine: "
                         "choose a smaller model")
        raise ComputationTooLarge(what.format(shown) + f" (limit {limit})", estimate,
                                  hint="; ".join(hints), force_helps=True if not hopeless else None)


def magnitude(n):
    r"""
    Return the text of the nonnegative integer ``n``: its digits up to `10^{12}`, else its order of magnitude.

    (Python refuses to print an integer of more than 4300 digits, and the
    size of a deep network can have more.)

    EXAMPLES::

        sage: from sage_attention.catalog.costs import magnitude
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


# the tunables that were constants of this module (sage_attention.sizes) are read from the
# settings; the old names read them
__getattr__ = moved_to_settings(__name__, {"ELIMINATION_DEFAULT_LIMIT": "ELIMINATION_DEFAULT_LIMIT",
                                           "DEFAULT_INTERPOLATION_DEGREE": "DEFAULT_INTERPOLATION_DEGREE",
                                           "HIGHER_DEGREE_MONOMIAL_LIMIT": "HIGHER_DEGREE_MONOMIAL_LIMIT",
                                           "HOPELESS": "HOPELESS_FACTOR"})


__all__ = ["LIMITS", "SINGULAR_MAX_VARIABLES", "check_size", "magnitude", "SizeEstimate",
           "estimate_size", "estimate_stack_size", "span_bound", "jacobian_entries",
           "interpolation_parameters", "monomial_table", "largest_fitting_degree",
           "FamilyEstimate", "family_estimate", "term_bytes"]
