r"""
Argument checks shared by the public functions of ``ideals`` and ``variety``.

EXAMPLES::

    sage: from sage_attention.models.checks import positive_integer, lightning_model
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
    sage: from sage_attention import LightningAttention
    sage: from sage_attention.models.checks import coordinate_model
    sage: coordinate_model(LightningAttention(d=2, t=2, a=1, heads=2), "certify")
    Traceback (most recent call last):
    ...
    ValueError: certify needs a lightning model with coordinates (one head, no mask, no residual stream); model (=LightningAttention(d=2, out=1, t=2, a=1, heads=2) over Rational Field) has several heads: on it use dimension or fibers (for summed heads of one layer see sage_attention.variety.joins.SummedHeads)
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


def seconds(value, name, allow=(None,)):
    r"""
    Return ``value`` as a positive number of seconds (a ``float``), or one of the values ``allow`` unchanged.

    A ``TypeError`` or ``ValueError`` names ``name`` otherwise (a string, a
    negative number, zero, an infinite or undefined number).

    EXAMPLES::

        sage: from sage_attention.models.checks import seconds
        sage: seconds(30, "timeout"), seconds(None, "timeout"), seconds(QQ(1)/2, "timeout")
        (30.0, None, 0.5)
        sage: seconds(-1, "timeout")
        Traceback (most recent call last):
        ...
        ValueError: timeout (=-1) must be a positive number of seconds or None
        sage: seconds("yes", "prove", allow=(None, True, False))
        Traceback (most recent call last):
        ...
        TypeError: prove (='yes') must be a positive number of seconds or None, True, False
    """
    import math
    if any(value is a for a in allow):
        return value
    shown = " or " + ", ".join(str(a) for a in allow) if allow else ""
    if isinstance(value, (bool, str, bytes)):
        raise TypeError(f"{name} (={value!r}) must be a positive number of seconds{shown}")
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} (={value!r}) must be a positive number of seconds{shown}") from None
    if not (v > 0 and math.isfinite(v)):
        raise ValueError(f"{name} (={value!r}) must be a positive number of seconds{shown}")
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
        from sage_attention.models.stack import LayerStack
        other = ("; a network with dense layers has its vanishing ideal by elimination: "
                 "sage_attention.ideals.stack_elimination.stack_vanishing_ideal(model), for small models"
                 if isinstance(model, LayerStack) else "")
        raise TypeError(f"{name} (={model!r}) must be an attention model "
                        f"(e.g. LightningAttention(d=2, t=2, a=1)){other}")
    return model


def coordinate_model(model, what, name="model"):
    r"""
    Return ``model`` if it has coefficient coordinates, else refuse ``what`` with a ``ValueError``.

    The coordinate ring, the vanishing ideal, membership, invariants,
    certificates and singular points are those of a lightning network
    with one head per layer, no mask and no residual stream (a deep one
    too); several heads, a causal mask or a residual stream have only
    their dimension and fibers (:mod:`sage_attention.models.multihead`),
    and a softmax network none of them.

    INPUT:

    - ``model`` -- the argument
    - ``what`` -- string; the refused computation, for the message
    - ``name`` -- (default: ``"model"``) the argument's name

    OUTPUT: ``model``; a ``TypeError`` if it is not a model at all

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.models.checks import coordinate_model
        sage: M = LightningAttention(d=2, t=2, a=1)
        sage: coordinate_model(M, "contains") is M
        True
        sage: coordinate_model(LightningAttention(d=2, t=2, a=1, residual=False, causal=True), "contains")
        Traceback (most recent call last):
        ...
        ValueError: contains needs a lightning model with coordinates (one head, no mask, no residual stream); model (=LightningAttention(d=2, out=1, t=2, a=1, causal=True) over Rational Field) has a causal mask: on it use dimension or fibers (for summed heads of one layer see sage_attention.variety.joins.SummedHeads)
    """
    lightning_model(model, name)
    if model.is_lightning() and hasattr(model, "coordinate_ring"):
        return model
    heads = getattr(model, "heads", None)
    has = [w for w, ok in (("several heads", heads is not None and any(h != 1 for h in heads)),
                           ("a causal mask", getattr(model, "causal", False)),
                           ("a residual stream", getattr(model, "residual", False)))
           if ok]
    if not model.is_lightning():
        has = ["softmax normalization"]
    raise ValueError(f"{what} needs a lightning model with coordinates (one head, no mask, no "
                     f"residual stream); {name} (={model}) has {' and '.join(has) or 'none'}"
                     + (": on it use dimension or fibers (for summed heads of one layer see "
                        "sage_attention.variety.joins.SummedHeads)" if model.is_lightning()
                        else ""))


def rational_model(model, what, name="model"):
    r"""
    Check that ``model`` is over `\QQ`, for the metric counts ``what``; return ``model``.

    An ED degree or a number of critical points is a count over `\CC` of
    the variety of the model over `\QQ`; the package counts it modulo
    primes of its own choosing. A model over `\GF{p}` has another variety
    over the algebraic closure of `\GF{p}` (in small characteristic its
    counts differ: the two-neuron network on `\RR^3` under Bombieri-Weyl
    has ED degree `3`, but `1` over `\GF{7}`), so it is refused.

    INPUT:

    - ``model`` -- a model (``base_ring()``)
    - ``what`` -- the name of the computation, for the message
    - ``name`` -- the argument's name, for the message

    OUTPUT: ``model``

    EXAMPLES::

        sage: from sage.all__sagemath_singular import GF
        sage: from sage_attention import PolynomialNetwork
        sage: from sage_attention.models.checks import rational_model
        sage: rational_model(PolynomialNetwork([3, 2, 1], 2), "the ED degree")
        PolynomialNetwork(widths=(3, 2, 1), activation_degree=2) over Rational Field
        sage: rational_model(PolynomialNetwork([3, 2, 1], 2, base_ring=GF(7)), "the ED degree")
        Traceback (most recent call last):
        ...
        ValueError: the ED degree is a count over QQ (the package reduces it modulo primes of its own); model (=...) is over Finite Field of size 7: take it over QQ (base_ring=QQ; `field = QQ` in a spec)
    """
    from sage.rings.rational_field import QQ
    field = model.base_ring()
    if field is not QQ:
        raise ValueError(f"{what} is a count over QQ (the package reduces it modulo primes of its own); "
                         f"{name} (={model!r}) is over {field}: take it over QQ (base_ring=QQ; "
                         "`field = QQ` in a spec)")
    return model
