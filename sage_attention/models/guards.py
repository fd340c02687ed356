r"""
Size guards of the model layer

Before a ring or a matrix is built, its size is estimated; a build beyond
what Singular or this machine can hold is refused with
:class:`~sage_attention.misc.errors.ComputationTooLarge`, whose message names the
estimate, the limit and ``force=``. Two guards live here:

- a polynomial ring: Singular has at most `2^{15} - 1` variables (beyond
  that it ends the process with "no more memory");
- the forward-mode Jacobian of :mod:`sage_attention.models.jacobian`: it
  holds one `P \times d_i t` tangent per layer and a rank matrix with about
  `P + 1` rows and `P` columns (`P` the number of weights), never the
  expanded coefficients.

EXAMPLES::

    sage: from sage_attention.models.guards import check_ring_size
    sage: check_ring_size("the coordinate ring", 100, False)
    sage: check_ring_size("the coordinate ring", 40000, False)
    Traceback (most recent call last):
    ...
    ComputationTooLarge: the coordinate ring needs 40000 variables (Singular's limit is 32767); Singular cannot build it; force=True does not lift this limit
"""
from sage_attention.misc.errors import ComputationTooLarge
from sage_attention.catalog.costs import LIMITS, SINGULAR_MAX_VARIABLES, check_size  # noqa: F401


def __getattr__(name):
    # JACOBIAN_ENTRY_LIMIT: the entries of the forward-mode Jacobian (tangents plus rank
    # matrix) let through without ``force=True``, the size guard's limit for the task
    # 'jacobian' (sage_attention.catalog.costs.LIMITS), read when asked (not copied)
    if name == "JACOBIAN_ENTRY_LIMIT":
        return LIMITS["jacobian"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def check_ring_size(what, nvariables, force, hint=""):
    r"""
    Refuse to build a polynomial ring with more variables than Singular takes.

    INPUT:

    - ``what`` -- string; the ring, for the message
    - ``nvariables`` -- integer; its number of variables
    - ``force`` -- boolean; ignored: Singular's limit holds even with
      ``force=True`` (so the message never advises it)
    - ``hint`` -- string (default: empty); the way out to name (fewer
      entries, a computation that needs no such ring)

    OUTPUT: ``None``, or :class:`~sage_attention.misc.errors.ComputationTooLarge`

    EXAMPLES::

        sage: from sage_attention.models.guards import check_ring_size
        sage: check_ring_size("the weight ring", 32768, True)
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the weight ring needs 32768 variables (Singular's limit is 32767); Singular cannot build it; force=True does not lift this limit
    """
    if nvariables <= SINGULAR_MAX_VARIABLES:
        return
    raise ComputationTooLarge(f"{what} needs {nvariables} variables (Singular's limit is "
                              f"{SINGULAR_MAX_VARIABLES}); Singular cannot build it", hint=hint,
                              force_helps=False)


def check_jacobian_size(model, force=False, estimate=None):
    r"""
    Refuse a forward-mode Jacobian rank that does not fit in memory.

    The estimate is :func:`sage_attention.catalog.model_sizes.jacobian_entries`, the one
    ``sage-attention check`` evaluates on a spec (through
    :func:`~sage_attention.catalog.costs.check_size`), so ``check`` and ``run``
    refuse the same models.

    INPUT:

    - ``model`` -- a model with ``size_estimate()``
    - ``force`` -- boolean (default: ``False``); run anyway
    - ``estimate`` -- (default: ``model.size_estimate()``) a
      :class:`~sage_attention.catalog.model_sizes.SizeEstimate`

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.models.guards import check_jacobian_size
        sage: check_jacobian_size(LightningAttention(widths=[4, 2, 4], ranks=[2, 2], t=3))
        sage: check_jacobian_size(LightningAttention(d=10**6, t=2, a=1))
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the forward-mode Jacobian holds about ... field entries (limit 50000000); that is ... times the limit, beyond any machine: choose a smaller model
        sage: check_jacobian_size(LightningAttention(d=1000, t=2, a=1))
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the forward-mode Jacobian holds about 2021012000 field entries (limit 50000000); pass force=True to run it anyway
    """
    if force:
        return
    check_size(model.size_estimate() if estimate is None else estimate, "jacobian")
