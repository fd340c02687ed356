r"""
Which base fields each computation is valid over

One table, used by ``sage-attention check`` (on the ``field`` of a spec,
without Sage) and by the library calls (on the Sage field of a model), so
that a computation either runs exactly over its field or is refused, by
both, for the same reason. The reasons:

- *division*: the scaled coordinates, the fibers, the certificates and
  Brill's covariant divide by `2` and `3`, so characteristic `2` and `3`
  are excluded;
- *random points*: a randomized rank at points of a small field `\GF{p}`
  is not certified (the Schwartz--Zippel bound `D/p` is useless, and a
  polynomial may vanish on every point of `\GF{p}^n` without being zero:
  `x^p - x`). A Jacobian rank (``dimension``, ``fibers``) over `\GF{p}`
  draws its points from the smallest extension `\GF{p^k}` with at least
  ``settings.MINIMUM_RANK_PRIME`` (`2^{16}` by default) elements, where
  the bound is `D/p^k`
  (:mod:`sage_attention.misc.extension_points`), and below that order
  checks the rank against the rank over `\QQ` (in characteristic `p` a
  Frobenius power `x^p` has zero differential, and a Jacobian rank may
  lie below the dimension:
  :func:`~sage_attention.models.characteristic.separable_rank_check`), so it
  takes every prime field; the interpolation engine evaluates at points of
  `\GF{p}` itself and needs `2^{16} \le p < 2^{23}` (below, one graded
  piece at a time:
  :func:`~sage_attention.ideals.small_field_pieces.graded_piece`);
- *arithmetic*: Singular's prime fields stop below `2^{31}`, and beyond
  `2^{29}` Sage gives Singular the ring `\ZZ/p`, where ``minbase`` is
  not implemented, so elimination takes `p < 2^{29}`; Singular's
  non-prime finite fields stop below `2^{16}`; the modular linear algebra of
  the interpolation works with primes below `2^{23}`.

A field is described by a :class:`FieldInfo` (:func:`field_info` reads a
Sage field; :func:`spec_field_info` a spec's ``field``). This module imports
no Sage.

EXAMPLES::

    sage: from sage_attention.catalog.fields import FieldInfo, refusal, field_info
    sage: refusal("certify", FieldInfo("GF(3)", 3, 3))
    'certify needs a base field of characteristic 0 or > 3, not GF(3): the coordinates and the fiber divide by 2 and 3; take the model over QQ or GF(p) with p > 3'
    sage: refusal("dimension", field_info(GF(65537))) is None
    True
    sage: print(refusal("interpolation", field_info(GF(2))))
    interpolation needs QQ, a number field or GF(p) with 2^16 <= p < 2^23, not GF(2): the engine evaluates at points of GF(p), too few points here (a polynomial can vanish on every point of GF(p)^n without being zero); one graded piece at a time over GF(2), at points of an extension: sage_attention.ideals.small_field_pieces.graded_piece(model, degree); elimination takes GF(2) (Neurovariety(model).vanishing_ideal(algorithm='elimination'), `algorithm = elimination` in a spec, without `up to degree`: the whole ideal; small models); or take the model over QQ or GF(65537)
"""
from dataclasses import dataclass

from sage_attention.settings import moved_to_settings, settings

# The smallest prime over which a randomized Jacobian rank is accepted, and over
# which the interpolation evaluates at random points, is settings.MINIMUM_RANK_PRIME
# (`2^{16}` by default); the old names read it.
__getattr__ = moved_to_settings(__name__, {"MINIMUM_RANK_PRIME": "MINIMUM_RANK_PRIME",
                                           "MINIMUM_INTERPOLATION_PRIME": "MINIMUM_RANK_PRIME"})

#: The interpolation's modular linear algebra works below this prime.
MAXIMUM_INTERPOLATION_PRIME = 2 ** 23

#: Singular's prime fields `\GF{p}` need `p` below this: beyond `2^{29}`
#: Sage gives Singular the ring `\ZZ/p` (coefficients that are a ring, not a
#: field), where ``minbase`` (the minimal generators, the Hilbert data) is
#: not implemented.
SINGULAR_MAXIMUM_PRIME = 2 ** 29

#: Singular's non-prime finite fields `\GF{q}` need `q` below this.
SINGULAR_MAXIMUM_ORDER = 2 ** 16

#: Brill's covariant has degree at most `6` in each point and is divided
#: by `\binom{3}{k}`: it needs a prime above `6`.
BRILL_MINIMUM_PRIME = 7


@dataclass(frozen=True)
class FieldInfo:
    r"""
    What the field rules need to know about a field.

    INPUT:

    - ``name`` -- string, how the field is named in messages
    - ``characteristic`` -- integer
    - ``order`` -- integer, or ``None`` for an infinite field
    - ``kind`` -- ``"rational"`` (`\QQ`), ``"number field"``,
      ``"algebraic"`` (`\overline{\QQ}`), ``"finite"`` or ``"other"``
      (inexact or not a field this package knows)

    EXAMPLES::

        sage: from sage_attention.catalog.fields import FieldInfo
        sage: FieldInfo("GF(4)", 2, 4, "finite").is_prime_field
        False
    """
    name: str
    characteristic: int
    order: int = None
    kind: str = "finite"

    @property
    def is_prime_field(self):
        return self.kind == "finite" and self.order == self.characteristic


def field_info(F):
    r"""
    Return the :class:`FieldInfo` of the Sage field ``F``.

    EXAMPLES::

        sage: from sage_attention.catalog.fields import field_info
        sage: field_info(QQ), field_info(GF(4, 'a')).order
        (FieldInfo(name='QQ', characteristic=0, order=None, kind='rational'), 4)
        sage: field_info(QuadraticField(2)).kind, field_info(QQbar).kind, field_info(RR).kind
        ('number field', 'algebraic', 'other')
    """
    try:
        exact = F.is_exact() and F.is_field()
        p = int(F.characteristic())
    except (AttributeError, NotImplementedError, TypeError, ValueError):
        return FieldInfo(str(F), -1, None, "other")
    if not exact:
        return FieldInfo(str(F), p, None, "other")
    if p > 0:
        if not F.is_finite():
            return FieldInfo(str(F), p, None, "other")
        q = int(F.cardinality())
        return FieldInfo(f"GF({q})", p, q, "finite")
    if F.is_prime_field():
        return FieldInfo("QQ", 0, None, "rational")
    if hasattr(F, "defining_polynomial") and hasattr(F, "absolute_degree"):
        return FieldInfo(str(F), 0, None, "number field")
    if type(F).__name__.startswith("AlgebraicField"):
        return FieldInfo("QQbar", 0, None, "algebraic")
    return FieldInfo(str(F), 0, None, "other")


def spec_field_info(field):
    r"""
    Return the :class:`FieldInfo` of a spec's ``field`` (``QQ`` or ``GF(p)``).

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.catalog.fields import spec_field_info
        sage: s = parse_spec("model m { field = GF(7); input = 2; tokens = 1; layer attention(rank = 1, out = 1) }")
        sage: spec_field_info(s.models[0].field)
        FieldInfo(name='GF(7)', characteristic=7, order=7, kind='finite')
    """
    if field.kind == "QQ":
        return FieldInfo("QQ", 0, None, "rational")
    return FieldInfo(f"GF({field.p})", field.p, field.p, "finite")


def _power_text(n):
    """``n`` as messages write it: ``2^k`` for a power of two, else its digits."""
    return f"2^{n.bit_length() - 1}" if n > 1 and n & (n - 1) == 0 else str(n)


def _next_prime(n):
    """The smallest prime at least ``n`` (by trial division: ``n`` is a bound on a prime field)."""
    n = max(int(n), 2)
    while any(n % q == 0 for q in range(2, int(n ** 0.5) + 1)):
        n += 1
    return n


def _char_not_2_3(task, f):
    if f.characteristic in (2, 3):
        return (f"{task} needs a base field of characteristic 0 or > 3, not {f.name}: "
                "the coordinates and the fiber divide by 2 and 3; take the model over QQ or GF(p) with p > 3")
    return None


def _exact(task, f):
    if f.kind == "other":
        return f"{task} needs an exact field (QQ, a number field, QQbar or GF(q)), not {f.name}"
    return None


def _jacobian(task, f):
    if f.characteristic == 0 or f.is_prime_field:
        # over GF(p) the random points come from GF(p^k) with p^k >= settings.MINIMUM_RANK_PRIME
        return None
    return (f"{task} needs QQ, a number field or a prime field GF(p), not {f.name}: the random points "
            "are drawn from an extension of a prime field; take the model over "
            f"GF({f.characteristic}), whose dimension over the algebraic closure is the same (the "
            "network has integer coefficients)")


def _elimination(task, f):
    if f.kind == "algebraic":
        return (f"{task} runs in Singular, which has no QQbar: use the model over QQ or a "
                "number field (the ideal over QQbar is generated by the ideal over QQ)")
    if f.characteristic == 0:
        return None
    if f.is_prime_field and f.characteristic >= SINGULAR_MAXIMUM_PRIME:
        return (f"{task} runs in Singular, whose prime fields need p < 2^29, not {f.name} (beyond, Sage "
                "gives Singular the ring Z/p, where its minimal bases are not implemented): use a prime below "
                "2^29 (e.g. 536870909) or the model over QQ")
    if not f.is_prime_field and f.order >= SINGULAR_MAXIMUM_ORDER:
        return (f"{task} runs in Singular, whose fields GF(q) need q < 2^16, not {f.name}")
    return None


def _interpolation(task, f):
    if f.characteristic == 0:
        return None
    why = None
    if not f.is_prime_field:
        why = "its linear algebra works over prime fields only"
    elif f.characteristic < settings.MINIMUM_RANK_PRIME:
        why = ("the engine evaluates at points of GF(p), too few points here (a polynomial can vanish on "
               "every point of GF(p)^n without being zero); one graded piece at a time over "
               f"{f.name}, at points of an extension: "
               "sage_attention.ideals.small_field_pieces.graded_piece(model, degree)")
    elif f.characteristic >= MAXIMUM_INTERPOLATION_PRIME:
        why = "its modular linear algebra works with primes below 2^23"
    if why:
        # name the elimination where it takes this field
        other = ("" if _elimination("elimination", f) else
                 f"; elimination takes {f.name} (Neurovariety(model).vanishing_ideal(algorithm='elimination'), "
                 "`algorithm = elimination` in a spec, without `up to degree`: the whole ideal; small models)")
        low = settings.MINIMUM_RANK_PRIME
        return (f"{task} needs QQ, a number field or GF(p) with "
                f"{_power_text(low)} <= p < 2^23, not {f.name}: {why}{other}; or take the model over QQ "
                f"or GF({_next_prime(low)})")
    return None


def _brill(task, f):
    if 0 < f.characteristic < BRILL_MINIMUM_PRIME or (f.characteristic and not f.is_prime_field):
        return (f"{task} needs characteristic 0 or a prime field GF(p) with p >= 7, not {f.name}: "
                "the covariant divides by 3 and has degree 6 in its points, so in smaller "
                "characteristic its values span fewer equations")
    return None


def _families(task, f):
    return _char_not_2_3(task, f)


#: task -> rule(task name, FieldInfo) -> reason or None; each rule is
#: checked after :func:`_exact`
RULES = {
    "dimension": _jacobian,
    "fibers": lambda t, f: _jacobian(t, f) or _char_not_2_3(t, f),
    "elimination": _elimination,
    "interpolation": _interpolation,
    "certify": _char_not_2_3,
    "invariants": _families,
    "brill": lambda t, f: _families(t, f) or _brill(t, f),
    "membership": lambda t, f: None,
    "generation": lambda t, f: None if f.kind == "rational" else (
        f"{t} works over QQ, not {f.name}: build the model over QQ (`base_ring=QQ`, "
        "or drop the spec's `field` line)"),
}


def refusal(task, field, what=None):
    r"""
    Return why ``task`` is not valid over ``field`` (a :class:`FieldInfo`), or ``None``.

    INPUT:

    - ``task`` -- a key of :data:`RULES`
    - ``field`` -- a :class:`FieldInfo`
    - ``what`` -- (default: ``task``) how the message names the computation

    EXAMPLES::

        sage: from sage_attention.catalog.fields import refusal, field_info
        sage: refusal("elimination", field_info(GF(2**31 + 11)))
        'elimination runs in Singular, whose prime fields need p < 2^29, not GF(2147483659) (beyond, Sage gives Singular the ring Z/p, where its minimal bases are not implemented): use a prime below 2^29 (e.g. 536870909) or the model over QQ'
        sage: refusal("brill", field_info(GF(101))) is None, refusal("invariants", field_info(GF(2))) is None
        (True, False)

    The smallest prime of a randomized rank is a setting::

        sage: from sage_attention.settings import settings
        sage: with settings.override(MINIMUM_RANK_PRIME=10^6):
        ....:     print(refusal("interpolation", field_info(GF(65537))))
        interpolation needs QQ, a number field or GF(p) with 1000000 <= p < 2^23, not GF(65537): ...

    A Jacobian rank takes every prime field (its points come from an
    extension), not a non-prime one::

        sage: refusal("dimension", field_info(GF(101))), refusal("fibers", field_info(GF(7)))
        (None, None)
        sage: refusal("dimension", field_info(GF(4, 'a')))
        'dimension needs QQ, a number field or a prime field GF(p), not GF(4): ... take the model over GF(2), whose dimension over the algebraic closure is the same (the network has integer coefficients)'
    """
    what = what or task
    return _exact(what, field) or RULES[task](what, field)


def require_field(task, F, what=None):
    r"""
    Raise ``ValueError`` (naming the reason) unless ``task`` is valid over the Sage field ``F``.

    EXAMPLES::

        sage: from sage_attention.catalog.fields import require_field
        sage: require_field("certify", QQ)
        sage: require_field("certify", GF(2))
        Traceback (most recent call last):
        ...
        ValueError: certify needs a base field of characteristic 0 or > 3, not GF(2): the coordinates and the fiber divide by 2 and 3; take the model over QQ or GF(p) with p > 3
    """
    why = refusal(task, field_info(F), what)
    if why:
        raise ValueError(why)


__all__ = ["FieldInfo", "field_info", "spec_field_info", "refusal", "require_field", "RULES"]
