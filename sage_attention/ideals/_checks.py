r"""
Argument checks shared by the public functions of ``ideals`` and ``variety``.

EXAMPLES::

    sage: from sage_attention.ideals._checks import positive_integer, lightning_model
    sage: positive_integer(3, "degree")
    3
    sage: positive_integer(float(2.5), "degree")
    Traceback (most recent call last):
    ...
    TypeError: degree (=2.5) must be a positive integer
    sage: positive_integer(0, "degree")
    Traceback (most recent call last):
    ...
    ValueError: degree (=0) must be a positive integer
    sage: lightning_model(3)
    Traceback (most recent call last):
    ...
    TypeError: model (=3) must be an attention model (e.g. LightningAttention(d=2, t=2, a=1))
"""
import numbers


def integer(value, name):
    r"""
    Return ``value`` as a Python ``int``; a ``TypeError`` naming ``name`` unless it is an integer (not a bool, not a float).
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        try:
            from sage.all__sagemath_singular import ZZ, Integer
            if isinstance(value, Integer) or (hasattr(value, "parent") and value.parent() is ZZ):
                return int(value)
        except ImportError:
            pass
        raise TypeError(f"{name} (={value!r}) must be a positive integer")
    return int(value)


def positive_integer(value, name):
    r"""
    Return ``value`` as a positive ``int``, or raise ``TypeError`` / ``ValueError`` naming ``name``.
    """
    v = integer(value, name)
    if v < 1:
        raise ValueError(f"{name} (={value!r}) must be a positive integer")
    return v


def lightning_model(model, name="model"):
    r"""
    Return ``model`` if it is an attention model, else raise a ``TypeError`` naming ``name``.
    """
    from sage_attention.models import AttentionNetwork
    # besides the models, objects that offer the parametrization in essential
    # coordinates (e.g. :class:`~sage_attention.variety.joins.SummedHeads`)
    duck = all(hasattr(model, a) for a in ("essential_parametrization", "essential_ring",
                                           "linear_relations"))
    if not isinstance(model, AttentionNetwork) and not duck:
        raise TypeError(f"{name} (={model!r}) must be an attention model "
                        "(e.g. LightningAttention(d=2, t=2, a=1))")
    return model
