r"""
Points of the coefficient space

A point is given as a list of coordinate values, a dict, or (for one
lightning layer) the `d' \times t` matrix of output cubics itself;
:func:`point_values` reads any of these into the list of values in the
order of ``model.coordinate_ring().gens()``, and :func:`linear_form_value`
evaluates a linear form there.
"""
# sage.doctest: needs sage.libs.singular


def point_values(model, point):
    r"""
    Return the coordinate values of ``point`` as a list, in the coordinate ring's order.

    INPUT:

    - ``point`` -- a list or vector of values (coordinate order), a dict
      ``{variable or name: value}``, or a `d' \times t` matrix of cubic
      forms in variables named like those of ``model.input_ring()``

    OUTPUT: a pair ``(values, extra)`` where ``extra`` lists the monomials
    of a matrix input that no coordinate of the model has

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.points import point_values
        sage: M = LightningAttention(d=1, t=2, a=1)
        sage: R.<x11, x12> = QQ[]
        sage: point_values(M, matrix([[2*x11^3 + 2*x11*x12^2, x11^2*x12 + x12^3]]))
        ([2, 2, 1, 1], [])
        sage: point_values(M, {'Y11_x11x12x12': 1, 'Y11_x11x11x11': 1, 'Y12_x11x11x12': 2, 'Y12_x12x12x12': 2})
        ([1, 1, 2, 2], [])

    TESTS::

        sage: point_values(M, [1, 2])
        Traceback (most recent call last):
        ...
        ValueError: point (=[1, 2]) must have 4 coordinates
        sage: point_values(M, {'Y11_x11x12x12': 1})
        Traceback (most recent call last):
        ...
        ValueError: point misses the coordinates ['Y11_x11x11x11', 'Y12_x11x11x12', 'Y12_x12x12x12']
    """
    C = model.coordinate_ring()
    names = [str(x) for x in C.gens()]
    F = model.base_ring()
    if isinstance(point, dict):
        vals = {str(k): v for k, v in point.items()}
        unknown = sorted(set(vals) - set(names))
        if unknown:
            raise ValueError(f"point has unknown coordinates {unknown}")
        missing = [n for n in names if n not in vals]
        if missing:
            raise ValueError(f"point misses the coordinates {missing}")
        return _common([vals[n] for n in names], F), []
    if hasattr(point, "nrows") and hasattr(point, "ncols"):
        return _from_matrix(model, point)
    vals = list(point)
    if len(vals) != len(names):
        raise ValueError(f"point (={point}) must have {len(names)} coordinates")
    return _common(vals, F), []


def _common(vals, F):
    r"""
    Return ``vals`` converted to ``F`` (or to a common parent), naming the bad entry.

    TESTS::

        sage: from sage_attention.variety.points import _common
        sage: _common([1, '1/2', 3], QQ)
        [1, 1/2, 3]
        sage: _common([1, None], QQ)
        Traceback (most recent call last):
        ...
        TypeError: point[1] (=None) is not a number; give numbers of Rational Field
        sage: _common([1, True], QQ)
        Traceback (most recent call last):
        ...
        TypeError: point[1] (=True) is not a number; give numbers of Rational Field
        sage: _common([1, 'x'], QQ)
        Traceback (most recent call last):
        ...
        TypeError: point[1] (='x') cannot be converted to Rational Field
        sage: _common([1, float('nan')], QQ)
        Traceback (most recent call last):
        ...
        ValueError: point[1] (=nan) is not a finite number
    """
    import math
    for k, v in enumerate(vals):
        if v is None or isinstance(v, bool):
            raise TypeError(f"point[{k}] (={v!r}) is not a number; give numbers of {F}")
        if isinstance(v, float) and not math.isfinite(v):
            raise ValueError(f"point[{k}] (={v!r}) is not a finite number")
        _check_parent(k, v, F)
    vals = [_exact(v) for v in vals]
    try:
        return [F(v) for v in vals]
    except (TypeError, ValueError, ArithmeticError):
        pass
    from sage.structure.sequence import Sequence
    try:
        S = Sequence(vals)
        if S.universe() in (object,) or not hasattr(S.universe(), "is_field"):
            raise TypeError
        return list(S)
    except (TypeError, ValueError, ArithmeticError):
        for k, v in enumerate(vals):
            try:
                F(v)
            except (TypeError, ValueError, ArithmeticError):
                raise TypeError(f"point[{k}] (={v!r}) cannot be converted to {F}") from None
        raise TypeError(f"the point's entries have no common parent with {F}") from None


def _check_parent(k, v, F):
    r"""
    Refuse the entry ``v`` (``point[k]``) when its parent cannot give an exact point over ``F``.

    A point is decided exactly: an entry of a floating-point field would be
    replaced by a nearby rational (a certificate about another point), an
    algebraic number of ``QQbar`` or ``AA`` is not supported by the fiber's
    solver (a number field is), and an element of a field of positive
    characteristic other than that of ``F`` is not a value over ``F``. A floating-point
    number that is a terminating decimal (``0.25``, as a Sage session reads
    that literal) is converted to it; Python's floats are binary fractions
    and are converted exactly.

    TESTS::

        sage: from sage_attention.variety.points import _common
        sage: _common([RR(2).sqrt(), 1], QQ)
        Traceback (most recent call last):
        ...
        TypeError: point[0] (=1.41421356237310) is a floating-point number of Real Field with 53 bits of precision, but the point is decided exactly: give exact numbers (rationals, or elements of a number field such as QuadraticField(2))
        sage: _common([QQbar(2).sqrt(), 1], QQ)
        Traceback (most recent call last):
        ...
        TypeError: point[0] (=1.414213562373095?) is in Algebraic Field, which certify does not support: give the point in a number field (e.g. K.<r> = QuadraticField(2), then r in place of sqrt(2))
        sage: _common([GF(7)(3), 1], QQ)
        Traceback (most recent call last):
        ...
        TypeError: point[0] (=3) is in Finite Field of size 7, but the model is over Rational Field: build the model over that field (base_ring=GF(7)) or give numbers of Rational Field
        sage: _common([QuadraticField(2, 'r').gen(), 1/2, 0.25], QQ)
        [r, 1/2, 1/4]
    """
    parent = getattr(v, "parent", None)
    if parent is None or not callable(parent):
        return
    P = parent()
    exact = getattr(P, "is_exact", None)
    if callable(exact) and not exact() and not _decimal_literal(v):
        raise TypeError(f"point[{k}] (={v}) is a floating-point number of {P}, but the point is decided exactly: "
                        "give exact numbers (rationals, or elements of a number field such as QuadraticField(2))")
    from sage.rings.qqbar import AA, QQbar
    if P is QQbar or P is AA:
        raise TypeError(f"point[{k}] (={v}) is in {P}, which certify does not support: give the point in a number "
                        "field (e.g. K.<r> = QuadraticField(2), then r in place of sqrt(2))")
    characteristic = getattr(P, "characteristic", None)
    if callable(characteristic) and characteristic() not in (0, F.characteristic()):
        raise TypeError(f"point[{k}] (={v}) is in {P}, but the model is over {F}: build the model over that "
                        f"field (base_ring={_field_name(P)}) or give numbers of {F}")


def _exact(v):
    r"""
    Return ``v``, or the decimal it is when it is a floating-point terminating decimal (:func:`_decimal_literal`).
    """
    exact = getattr(getattr(v, "parent", None) and v.parent(), "is_exact", None)
    if callable(exact) and not exact():
        from sage.rings.rational_field import QQ
        return QQ(v)
    return v


def _decimal_literal(v):
    r"""
    Return whether the floating-point number ``v`` is a terminating decimal such as ``0.25`` or ``1.5e-3``.

    Sage reads such a literal as a real number of 53 bits; its simplest
    rational within that precision (``QQ(v)``) is the decimal meant, which
    the conversion to ``QQ`` gives. A number like ``RR(2).sqrt()`` is not one.
    """
    from sage.rings.rational_field import QQ
    try:
        q = QQ(v)
    except (TypeError, ValueError, ArithmeticError):
        return False
    d = q.denominator()
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1 and v.parent()(q) == v


def _field_name(P):
    r"""
    Return how a user writes the field ``P`` (``GF(7)``), else its text.
    """
    if P.is_finite() and P.is_field():
        q = P.cardinality()
        return f"GF({q})"
    return str(P)


def _from_matrix(model, Y):
    from sage.all__sagemath_singular import prod
    if model.nlayers() != 1:
        raise ValueError("a matrix point needs a one-layer model")
    if (Y.nrows(), Y.ncols()) != (model.out, model.tokens):
        raise ValueError(f"the matrix must be {model.out} x {model.tokens}, not "
                         f"{Y.nrows()} x {Y.ncols()}")
    R = Y.base_ring()
    names = model.input_ring().variable_names()
    try:
        xs = {name: R(name) for name in names}
    except (TypeError, ValueError):
        raise ValueError(f"the entries must be polynomials in {names}")
    d, t = model.d, model.tokens
    x = lambda k, n: xs[names[(k - 1) * t + (n - 1)]]
    F = model.base_ring()
    scaled = model.coordinate_scaling == "scaled"
    vals = []
    rebuilt = {}
    for c in model.coordinates_list():
        a, b, cc = c.indices
        if c.kind == "cross":
            mono = x(a, c.context) * x(b, c.context) * x(cc, c.token)
        else:
            mono = x(a, c.token) * x(b, c.token) * x(cc, c.token)
        entry = Y[c.row - 1, c.token - 1]
        coef = entry.monomial_coefficient(mono) if entry else 0
        rebuilt[(c.row, c.token)] = rebuilt.get((c.row, c.token), 0) + coef * mono
        vals.append(F(coef) / model.term_count(c) if scaled else F(coef))
    extra = []
    for (i, j), f in rebuilt.items():
        diff = Y[i - 1, j - 1] - f
        extra += [m for m in (diff.monomials() if diff else [])]
    return vals, extra


def linear_form_value(f, vals):
    r"""
    Return the value of the linear form ``f`` at ``vals`` (fast for many variables).

    It reads the terms of ``f`` only, instead of substituting every variable.

    INPUT:

    - ``f`` -- a polynomial of degree at most 1
    - ``vals`` -- a list of values, one for each variable of the ring of ``f``

    OUTPUT: ``f(*vals)``

    EXAMPLES::

        sage: from sage_attention.variety.points import linear_form_value
        sage: R.<x, y, z> = QQ[]
        sage: linear_form_value(2*x - z, [1, 5, 7]) == (2*x - z)(1, 5, 7)
        True
    """
    total = 0
    for e, c in f.dict().items():
        pos = e.nonzero_positions()
        total += c * (vals[pos[0]] if pos else 1)
    return total
