r"""
Certificates of (non-)realizability

Given a point of the coefficient space (a candidate output of one lightning
attention layer), :func:`certify` decides whether some weights produce it,
and says why:

- **not realizable**: a linear relation (:ref:`mathematics, §2 <math-2>`) or a nonlinear
  invariant (:ref:`mathematics, §3-4 <math-3>`) does not vanish at the point; the
  certificate gives its label, its value and a one-line Sage expression that
  recomputes the value;
- **realizable**: weights `(Q, K, V)` (or `(A, V)`) are returned that produce
  exactly this point; they are found by solving the fiber (for `t \ge 2`
  every slice quadric `z^T M^{(c)} z = (v \cdot z)(A_{:,c} \cdot z)` shares
  the linear factor `v \cdot z`, so `v` is a gcd and `A` a quotient; for
  `t = 1` the cubic is `(v \cdot z)\, z^T A z` and is factored), over `\QQ`
  when possible, else over a number field or `\overline{\QQ}` (said in the
  certificate), and **always verified exactly** by
  ``model.coefficients_at(weights) == point`` before the answer is given;
- **undecided**: every invariant checked vanishes but no weights were found;
  the reason is stated.

A point off the variety is never reported realizable: the status
``'realizable'`` is set only after the exact verification.

**Real weights.** For a point with rational coordinates the certificate
also says whether *real* weights produce it (``real``: ``True``,
``False`` or ``None`` for undecided), :ref:`mathematics, §4 <math-4>`:

- `t = 1`: `y_i = (v_i \cdot x)\, q(x)`, `q(x) = x^T A x`. A real `A` of rank
  at most `a` has `q = \sum_{i \le a} (k_i \cdot x)(q_i \cdot x)`, a sum of `a`
  squares minus `a` squares, so `S = \mathrm{Sym}(A)` has at most `a`
  positive and at most `a` negative eigenvalues; conversely every real
  symmetric `S` with `n_+, n_- \le a` is `\mathrm{Sym}(A)` for a real `A` of
  rank at most `a` (:func:`real_matrix_of_rank`). Since `v` is real,
  `v \cdot x` is a *real* linear factor of the cubic `f` of each row. So a
  real point is realizable with real weights iff for some real linear factor
  `\ell` of the first nonzero row `f` (:func:`real_linear_factors`: all of them,
  up to scale), `q = f / \ell` divides the other rows and has
  `n_+(q), n_-(q) \le a` (scaling `\ell` by `-1` swaps `n_+` and `n_-`). Over
  `\CC` the condition is only `\operatorname{rank} q \le 2a`.
- `t \ge 2`: `(v, A)` is determined up to `(\lambda v, A/\lambda)` by the
  cross coordinates, except that when all slice quadrics of a row are
  multiples of one quadric `g`, `v` may be either linear factor of `g`. So
  real weights exist iff `g` has a real linear factor (when the gcd of the
  slice quadrics is linear, it is real and so are the weights).

For example, `x_1 (x_1^2 + x_2^2 + x_3^2)` at `t = 1, d = 3, a = 2` is
realizable over `\overline{\QQ}` but not over `\RR`::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.variety.certificates import certify
    sage: from sage.repl.preparse import preparse
    sage: M1 = LightningAttention(d=3, t=1, a=2)
    sage: R.<x11, x21, x31> = QQ[]
    sage: c = certify(M1, matrix([[x11 * (x11^2 + x21^2 + x31^2)]])); c
    Realizable over C but not over R: weights over Algebraic Field reproduce the point exactly
    (found by solving the fiber: a linear factor of the cubic, A from the quadric);
    no real weights: every real factorization (real linear form) x (quadric) fails; ...
    sage: c.real, c.field
    (False, 'Algebraic Field')
    sage: for line in c.real_reason.split('; '): print(line)
    every real factorization (real linear form) x (quadric) fails
    x11^2 + x21^2 + x31^2 has rank 3 >= 3, so it has no linear factor
    for the real factor x11 of row 1, the quadric x11^2 + x21^2 + x31^2 has the symmetric
    matrix [(1, 0, 0), (0, 1, 0), (0, 0, 1)] with 3 positive and 0 negative eigenvalues, but
    Sym(A) of a real A of rank <= 2 has at most 2 of each
    sage: c.real_check
    'matrix(QQ, [[1, 0, 0], [0, 1, 0], [0, 0, 1]]).eigenvalues()'
    sage: eval(preparse(c.real_check))
    [1, 1, 1]

With `x_1^2 + x_2^2 - x_3^2` instead (signature `(2, 1)`) real weights exist;
they are real algebraic numbers, verified exactly::

    sage: c = certify(M1, matrix([[x11 * (x11^2 + x21^2 - x31^2)]])); c.real, c.field
    (True, 'Algebraic Real Field')
    sage: M1.coefficients_at(c.weights) == list(c.point)
    True

EXAMPLES:

An output of random rational weights is realizable, with weights that
reproduce it::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.variety.certificates import certify
    sage: from sage.repl.preparse import preparse
    sage: M = LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)])
    sage: p = M.coefficients_at(M.random_weights(seed=1))
    sage: c = certify(M, p); c
    Realizable over R: real weights over Rational Field reproduce the point exactly
    (found by solving the fiber: v from the common linear factor of the slice quadrics).
    sage: M.coefficients_at(c.weights) == p
    True

Changing one coordinate breaks a linear relation (its copies do not
follow)::

    sage: C = M.coordinate_ring()
    sage: k = C.gens().index(M.essential_coordinates()[0])
    sage: q = list(p); q[k] += 1
    sage: certify(M, q).kind
    'linear'

Changing one essential coordinate together with its copies breaks a
nonlinear invariant::

    sage: e = [p[C.gens().index(x)] for x in M.essential_coordinates()]
    sage: e[0] += 1
    sage: q = [f(*e) for f in M.to_essential().im_gens()]
    sage: c = certify(M, q); c.status, c.kind
    ('not realizable', 'nonlinear')
    sage: c.value != 0
    True

The check recomputes the value in a fresh Sage session::

    sage: c.check
    "LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)]).coordinate_ring()('...')(*[...])"
    sage: eval(preparse(c.check)) == c.value
    True

REFERENCES: [ADM2026]_.
"""
# sage.doctest: needs sage.libs.singular
import logging
from dataclasses import dataclass, field as dc_field

from sage.all__sagemath_singular import (QQ, PolynomialRing, matrix, vector, gcd, Integer)

from sage_attention.errors import ComputationTooLarge

logger = logging.getLogger("sage_attention")

STATUSES = ("realizable", "not realizable", "undecided")


@dataclass(frozen=True)
class Certificate:
    r"""
    The answer of :func:`certify`.

    Attributes:

    - ``model`` -- string
    - ``status`` -- ``'realizable'``, ``'not realizable'`` or ``'undecided'``
    - ``kind`` -- for ``'not realizable'``: ``'linear'``, ``'nonlinear'``
      or ``'support'`` (a monomial that no output of the model has)
    - ``label`` -- the relation or invariant that does not vanish
    - ``polynomial`` -- it, as a polynomial in the coordinate ring
    - ``value`` -- its value at the point
    - ``check`` -- a one-line Sage expression (after
      ``from sage_attention import LightningAttention``) that recomputes ``value``
    - ``weights`` -- for ``'realizable'``: ``[(Q, K, V)]`` or ``[(A, V)]``
    - ``field`` -- the field of the weights (a string, e.g. ``'Rational Field'``,
      ``'Algebraic Real Field'``, ``'Algebraic Field'``)
    - ``reason`` -- a sentence
    - ``point`` -- the coordinate values
    - ``real`` -- for ``'realizable'``: ``True`` (the weights are real),
      ``False`` (realizable over `\CC` but not with real weights; see
      ``real_reason``) or ``None`` (not decided, or the base field is not real)
    - ``real_reason`` -- why (a sentence a reader can check)
    - ``real_check`` -- for ``real = False`` when available: a one-line Sage
      expression whose output shows the obstruction (the eigenvalues of an
      explicit real symmetric matrix)

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.certificates import certify
        sage: M = LightningAttention(d=1, t=2, a=1)
        sage: c = certify(M, [1, 2, 3, 4]); c
        Not realizable: the linear relation -Y11_x11x12x12 + Y11_x11x11x11 is 1 at this point, not 0.
        sage: c.to_dict()['status']
        'not realizable'
    """
    model: str
    status: str
    kind: str = None
    label: str = None
    polynomial: object = None
    value: object = None
    check: str = None
    weights: object = None
    field: str = None
    reason: str = ""
    point: tuple = dc_field(default=(), repr=False)
    real: object = None
    real_reason: str = ""
    real_check: str = None

    def __repr__(self):
        if self.status == "not realizable":
            if self.kind == "support":
                return f"Not realizable: {self.reason}."
            what = "the linear relation" if self.kind == "linear" else "the invariant"
            lab = f" ({self.label})" if self.kind != "linear" else ""
            return (f"Not realizable: {what} {self.polynomial if self.kind == 'linear' else ''}"
                    .rstrip() + f"{lab} is {self.value} at this point, not 0.")
        if self.status == "realizable":
            if self.real is True:
                return (f"Realizable over R: real weights over {self.field} reproduce the point "
                        f"exactly\n({self.reason}).")
            if self.real is False:
                return (f"Realizable over C but not over R: weights over {self.field} reproduce "
                        f"the point exactly\n({self.reason});\nno real weights: "
                        f"{self.real_reason}.")
            return (f"Realizable: weights over {self.field} reproduce the point exactly\n"
                    f"({self.reason}); real weights: {self.real_reason}.")
        return f"Undecided: {self.reason}."

    def is_realizable(self):
        r"""
        Return ``True``, ``False`` or ``None`` (undecided).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.certificates import certify
            sage: certify(LightningAttention(d=1, t=2, a=1), [1, 1, 1, 1]).is_realizable()
            True
        """
        return {"realizable": True, "not realizable": False}.get(self.status)

    def to_dict(self):
        r"""
        Return a JSON-ready dictionary.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.certificates import certify
            sage: d = certify(LightningAttention(d=1, t=2, a=1), [1, 1, 1, 1]).to_dict()
            sage: d['status'], d['weights']
            ('realizable', [[[[1]], [[1]], [[1]]]])
        """
        w = None
        if self.weights is not None:
            w = [[[[str(x) if not x in QQ else _json_number(x) for x in row] for row in m.rows()]
                  for m in layer] for layer in self.weights]
        return {
            "model": self.model,
            "status": self.status,
            "kind": self.kind,
            "label": self.label,
            "polynomial": None if self.polynomial is None else str(self.polynomial),
            "value": None if self.value is None else str(self.value),
            "check": self.check,
            "weights": w,
            "field": self.field,
            "reason": self.reason,
            "real": self.real,
            "real_reason": self.real_reason,
            "real_check": self.real_check,
            "point": [str(x) for x in self.point],
        }


def _json_number(x):
    x = QQ(x)
    return int(x) if x.denominator() == 1 else str(x)


def model_expression(model):
    r"""
    Return a Sage expression that rebuilds ``model`` (one lightning layer).

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.certificates import model_expression
        sage: model_expression(LightningAttention(d=2, t=2, a=1, weight_space='AV', coordinate_scaling='scaled'))
        "LightningAttention(d=2, t=2, a=1, out=1, weight_space='AV', coordinate_scaling='scaled')"
    """
    if model.nlayers() == 1:
        s = f"LightningAttention(d={model.d}, t={model.tokens}, a={model.ranks[0]}, out={model.out}"
    else:
        s = (f"LightningAttention(widths={list(model.widths)}, ranks={list(model.ranks)}, "
             f"t={model.tokens}")
    if model.weight_space != "QKV":
        s += f", weight_space={model.weight_space!r}"
    if model.coordinate_scaling != "raw":
        s += f", coordinate_scaling={model.coordinate_scaling!r}"
    if model.entries is not None:
        s += f", entries={[tuple(e) for e in model.entries]!r}"
    if model.base_ring() is not QQ:
        s += f", base_ring={model.base_ring()!r}"
    return s + ")"


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
        sage: from sage_attention.variety.certificates import point_values
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

        sage: from sage_attention.variety.certificates import _common
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


def _check_expression(model, f, vals):
    pt = "[" + ", ".join(str(v) for v in vals) + "]"
    return f"{model_expression(model)}.coordinate_ring()('{f}')(*{pt})"


def certify(model, point, families=None, seed=None, extra_invariants=(), force=False):
    r"""
    Return a :class:`Certificate` saying whether ``point`` is an output of ``model``.

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``point`` -- the coefficients: a list in the order of
      ``model.coordinate_ring().gens()``, a dict ``{variable: value}``, or
      a `d' \times t` matrix of cubic forms in the input variables
      ``x{k}{n}`` (see :func:`point_values`)
    - ``families`` -- (default: ``None``, every family) the invariant
      families to check (names in :data:`~sage_attention.invariants.FAMILIES`)
    - ``seed`` -- ``None`` or an integer; unused (the procedure is
      deterministic), accepted for a uniform interface
    - ``extra_invariants`` -- (default: none) more polynomials known to
      vanish on the variety, e.g. the generators of
      :meth:`~sage_attention.variety.neurovariety.Neurovariety.vanishing_ideal`;
      they are checked after the families, and only trusted after an exact
      membership check
    - ``force`` -- boolean (default: ``False``); check the invariant families
      even when :func:`invariant_work` exceeds :data:`MAX_INVARIANT_WORK`

    OUTPUT: a :class:`Certificate`

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.certificates import certify
        sage: M = LightningAttention(d=2, t=1, a=1, weight_space='AV')
        sage: R.<x11, x21> = QQ[]
        sage: c = certify(M, matrix([[(x11 + x21) * x11 * (x11 - 2*x21)]])); c
        Realizable over R: real weights over Rational Field reproduce the point exactly
        (found by solving the fiber: a linear factor of the cubic, A from the quadric).
        sage: c.weights
        [(
        [-1 -1]
        [ 0  0], [-1  2]
        )]

    A monomial that no output has::

        sage: certify(M, matrix([[x11^2]]))
        Not realizable: the monomial x11^2 never occurs in an output of this model.

    TESTS::

        sage: certify(LightningAttention(widths=[2, 2, 2], ranks=[1, 1], t=2), [0] * 3)
        Traceback (most recent call last):
        ...
        ValueError: certify needs a single lightning layer

    We illustrate the input checks::

        sage: M2 = LightningAttention(d=2, t=2, a=1)
        sage: certify(M2, [None] * 20)
        Traceback (most recent call last):
        ...
        TypeError: point[0] (=None) is not a number; give numbers of Rational Field
        sage: certify(M2, [0] * 20, seed=1.7)
        Traceback (most recent call last):
        ...
        ValueError: seed (=1.7...) must be an integer or None
        sage: certify(LightningAttention(d=2, t=2, a=1, base_ring=GF(2)), [0] * 20)
        Traceback (most recent call last):
        ...
        ValueError: certify needs a base field of characteristic 0 or > 3, not Finite Field of size 2: the coordinates and the fiber divide by 2 and 3

    A point with no weights on a large model is refused before the families
    are built (:func:`invariant_work` counts their minors; see the tests for
    `d = 6, t = 3, a = 3, d' = 6`).
    """
    if model.nlayers() != 1 or not model.is_lightning():
        raise ValueError("certify needs a single lightning layer")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, Integer))):
        raise ValueError(f"seed (={seed}) must be an integer or None")
    p = model.base_ring().characteristic()
    if p in (2, 3):
        raise ValueError(f"certify needs a base field of characteristic 0 or > 3, not "
                         f"{model.base_ring()}: the coordinates and the fiber divide by 2 and 3")
    vals, extra = point_values(model, point)
    pt = tuple(vals)
    name = str(model)
    if extra:
        return Certificate(name, "not realizable", kind="support",
                           reason=f"the monomial {extra[0]} never occurs in an output of this model",
                           point=pt)
    # 1. linear relations
    for k, f in enumerate(model.linear_relations()):
        v = _eval_linear(f, vals)
        if v != 0:
            return Certificate(name, "not realizable", kind="linear",
                               label=f"linear relation {k}", polynomial=f, value=v,
                               check=_check_expression(model, f, vals), point=pt)
    # 2. solve the fiber and verify: a point with verified weights needs no invariant
    try:
        found = _solve_fiber(model, vals)
    except (ArithmeticError, ValueError, TypeError, NotImplementedError) as exc:
        logger.debug("certify: fiber solving failed: %s", exc)
        found, why = None, f"solving the fiber failed ({exc})"
    else:
        found, why = found
    if found is not None:
        weights, Fw, how = found
        if _verify(model, weights, vals):
            real, rw, rF, rhow, rwhy, rcheck = _decide_real(model, vals, weights, Fw)
            if rw is not None:
                weights, Fw, how = rw, rF, rhow
            return Certificate(name, "realizable", weights=weights, field=str(Fw),
                               reason=f"found by solving the fiber: {how}", point=pt,
                               real=real, real_reason=rwhy, real_check=rcheck)
        why = "the weights found by solving the fiber do not reproduce the point"
    if model.tokens == 1 and model.base_ring() is QQ:
        # the rational factorization found nothing; real linear factors may still exist
        try:
            real, rw, rF, rhow, rwhy, rcheck = _real_single_token(model, vals)
        except (ArithmeticError, ValueError, TypeError, NotImplementedError) as exc:
            logger.debug("certify: real fiber failed: %s", exc)
            rw = None
        if rw is not None:
            return Certificate(name, "realizable", weights=rw, field=str(rF),
                               reason=f"found by solving the fiber: {rhow}", point=pt,
                               real=True, real_reason=rwhy)
    # 3. nonlinear invariants
    estimate = invariant_work(model, families)
    if not force and estimate > MAX_INVARIANT_WORK:
        raise ComputationTooLarge(
            f"no weights were found, and checking the invariant families of {model} would "
            f"build about {estimate} minors (limit {MAX_INVARIANT_WORK}); pass families=[...] "
            "with cheap families, or force=True to run it anyway")
    members = _members(model, families)
    for f, label in members:
        v = f(*vals)
        if v != 0:
            return Certificate(name, "not realizable", kind="nonlinear", label=str(label),
                               polynomial=f, value=v, check=_check_expression(model, f, vals),
                               point=pt)
    C = model.coordinate_ring()
    for k, f in enumerate(extra_invariants):
        f = C(f)
        v = f(*vals)
        if v != 0:
            from sage_attention.variety.membership import vanishes_on_model
            if vanishes_on_model(model, f):
                return Certificate(name, "not realizable", kind="nonlinear",
                                   label=f"extra invariant {k}", polynomial=f, value=v,
                                   check=_check_expression(model, f, vals), point=pt)
    return Certificate(name, "undecided",
                       reason=f"every invariant checked ({len(members)} nonlinear) vanishes, "
                       f"but {why}", point=pt)


#: The largest :func:`invariant_work` that :func:`certify` runs without ``force=True``.
MAX_INVARIANT_WORK = 50_000


def invariant_work(model, families=None):
    r"""
    Return an estimate of the number of minors (determinants) the invariant
    families build for ``model``: the size that :func:`certify` guards.

    Counted: the `(a+1)`-minors of the flattenings (``'low_rank'``, `t \ge 2`)
    and of the stacked flattenings of two rows (``'rows'``), the maximal
    minors of `\Phi(v)` (``'syzygies'``), the `3 \times 3` minors of the
    pencil, and the minors of size `2a + 2` for `t = 1`. (The Chow and
    common-quadric minors have their own guards.)

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.certificates import invariant_work
        sage: invariant_work(LightningAttention(d=3, t=2, a=1))
        66
        sage: invariant_work(LightningAttention(d=6, t=3, a=3, out=6))
        25779564
    """
    from math import comb
    d, a, t = model.d, model.ranks[0], model.tokens
    rows = len(model.output_rows())
    D = d * (d + 1) // 2
    if families is None:
        families = ["low_rank", "rows", "syzygies", "pencil", "single_token_low_rank"]
    work = 0
    if t >= 2:
        if "low_rank" in families and a < d:
            work += rows * comb(D, a + 1) * comb(d, a + 1)
        if "rows" in families and a < d:
            work += comb(rows, 2) * comb(2 * D, a + 1) * comb(d, a + 1)
        if "syzygies" in families:
            work += comb(D, d)
        if "pencil" in families and d >= 3:
            work += rows * comb(d, 3) ** 2
    elif "single_token_low_rank" in families and 2 * a + 2 <= d:
        work += rows * comb(d, 2 * a + 2) ** 2
    return work


def _eval_linear(f, vals):
    r"""
    Return the value of the linear form ``f`` at ``vals`` (fast for many variables).

    TESTS::

        sage: from sage_attention.variety.certificates import _eval_linear
        sage: R.<x, y, z> = QQ[]
        sage: _eval_linear(2*x - z, [1, 5, 7]) == (2*x - z)(1, 5, 7)
        True
    """
    total = 0
    for e, c in f.dict().items():
        pos = e.nonzero_positions()
        total += c * (vals[pos[0]] if pos else 1)
    return total


_MEMBERS = {}


def _members(model, families):
    r"""
    Return the nonlinear members ``(polynomial, label)`` of the families, by degree (cached).
    """
    key = (model, None if families is None else tuple(families))
    if key not in _MEMBERS:
        from sage_attention.invariants import invariants
        fam = invariants(model, families=families)
        if len(_MEMBERS) > 16:
            _MEMBERS.clear()
        _MEMBERS[key] = sorted(((inv.polynomial, inv.label) for inv in fam
                                if inv.polynomial.degree() > 1), key=lambda p: p[0].degree())
    return _MEMBERS[key]


def _verify(model, weights, vals):
    got = model.coefficients_at(weights)
    return len(got) == len(vals) and all(g == v for g, v in zip(got, vals))


def _rank_ok(model, A):
    return A.rank() <= model.ranks[0]


def _weights_from(model, A, V):
    r"""
    Return ``[(Q, K, V)]`` or ``[(A, V)]`` realizing `A`, `V` (``None`` if rank too big).
    """
    a = model.ranks[0]
    A.set_immutable() if False else None
    if A.rank() > a:
        return None
    if model.weight_space == "AV":
        return [(A, V)]
    F = A.base_ring()
    d = model.d
    piv = A.pivots()
    Kt = matrix(F, d, a)
    Q = matrix(F, a, d)
    E = A.echelon_form()
    for j, p in enumerate(piv):
        Kt.set_column(j, A.column(p))
        Q.set_row(j, E.row(j))
    return [(Q, Kt.transpose(), V)]


def _linear_factors(g):
    r"""
    Return ``(field, linear factors)`` of a product of linear forms ``g``
    (over `\QQ`, else a quadratic field, else ``None``).
    """
    R = g.parent()
    facs = [f for f, e in g.factor() if f.degree() == 1]
    if facs or g.degree() != 2:
        return R.base_ring(), facs
    # an irreducible quadric of rank 2 splits over Q(sqrt(-m)), m a principal 2-minor
    d = R.ngens()
    M = matrix(QQ, d, d, lambda i, j: g.monomial_coefficient(R.gen(i) * R.gen(j))
               * (1 if i == j else QQ(1) / 2))
    if M.rank() != 2:
        return None, []
    for i in range(d):
        for j in range(i + 1, d):
            m = M[i, i] * M[j, j] - M[i, j] ** 2
            if m:
                from sage.all__sagemath_singular import QuadraticField
                r = (-m).squarefree_part() if (-m) in QQ else -m
                r = QQ(-m).numerator() * QQ(-m).denominator()
                K = QuadraticField(Integer(r).squarefree_part(), "s")
                gK = g.change_ring(K)
                return K, [f for f, e in gK.factor() if f.degree() == 1]
    return None, []


def _solve_fiber(model, vals):
    r"""
    Return ``((weights, field, how), None)`` or ``(None, why)``.
    """
    if model.tokens >= 2:
        return _solve_cross(model, vals)
    return _solve_single_token(model, vals)


def _essential_values(model, vals):
    C = model.coordinate_ring()
    gens = C.gens()
    return [vals[gens.index(x)] for x in model.essential_coordinates()]


def _solve_cross(model, vals):
    d, out = model.d, model.out
    ev = _essential_values(model, vals)
    F0 = model.base_ring()
    S = PolynomialRing(F0, [f"z{k}" for k in range(1, d + 1)])
    z = S.gens()
    quads = {}
    for i in model.output_rows():
        T = model.cross_tensor(i)
        qs = []
        for c in range(1, d + 1):
            q = S.zero()
            for a in range(1, d + 1):
                for b in range(a, d + 1):
                    val = T[(a, b, c)](*ev) if T[(a, b, c)] else 0
                    q += val * z[a - 1] * z[b - 1] * (1 if a == b else 2)
            qs.append(q)
        quads[i] = qs
    rows = [i for i in model.output_rows() if any(quads[i])]
    if not rows:
        A = matrix(F0, d, d)
        V = matrix(F0, out, d)
        return (_weights_from(model, A, V), F0, "the zero point, V = 0"), None
    i0 = rows[0]
    g = gcd([q for q in quads[i0] if q])
    if g.degree() == 0:
        return None, "the slice quadrics have no common linear factor"
    Fk, cands = _linear_factors(g)
    if Fk is None or not cands:
        return None, f"the common factor {g} of the slice quadrics does not split into linear forms"
    for ell in cands:
        SK = ell.parent()
        zk = SK.gens()
        K = SK.base_ring()
        cols = []
        ok = True
        for q in quads[i0]:
            qq, r = SK(q).quo_rem(ell)
            if r != 0:
                ok = False
                break
            cols.append([qq.monomial_coefficient(zk[k]) if qq else 0 for k in range(d)])
        if not ok:
            continue
        A = matrix(K, cols).transpose()
        V = matrix(K, out, d)
        V.set_row(i0 - 1, vector(K, [ell.monomial_coefficient(zk[k]) for k in range(d)]))
        for i in model.output_rows():
            if i == i0 or not any(quads[i]):
                continue
            c = next(c for c in range(d) if A.column(c) != 0 and quads[i][c] != 0) \
                if any(A.column(c) != 0 and quads[i][c] != 0 for c in range(d)) else None
            if c is None:
                ok = False
                break
            lin = sum(A[k, c] * zk[k] for k in range(d))
            vi, r = SK(quads[i][c]).quo_rem(lin)
            if r != 0 or (vi and vi.degree() != 1):
                ok = False
                break
            V.set_row(i - 1, vector(K, [vi.monomial_coefficient(zk[k]) if vi else 0
                                        for k in range(d)]))
        if not ok:
            continue
        w = _weights_from(model, A, V)
        if w is not None and _verify(model, w, vals):
            return (w, K, "v from the common linear factor of the slice quadrics"), None
    return None, "no factorization of the slice quadrics gives weights of the right rank"


def _solve_single_token(model, vals):
    d, out, a = model.d, model.out, model.ranks[0]
    F0 = model.base_ring()
    S = PolynomialRing(F0, [f"z{k}" for k in range(1, d + 1)])
    z = S.gens()
    cubics = {}
    scaled = model.coordinate_scaling == "scaled"
    for x, c, v in zip(model.coordinate_ring().gens(), model.coordinates_list(), vals):
        raw = v * model.term_count(c) if scaled else v
        p, q, r = c.indices
        cubics[c.row] = cubics.get(c.row, S.zero()) + raw * z[p - 1] * z[q - 1] * z[r - 1]
    rows = [i for i in model.output_rows() if cubics.get(i)]
    if not rows:
        return (_weights_from(model, matrix(F0, d, d), matrix(F0, out, d)), F0,
                "the zero point, V = 0"), None
    i0 = rows[0]
    f = cubics[i0]
    cands = [g for g, e in f.factor() if g.degree() == 1]
    if not cands and d == 2 and len(rows) == 1:
        return _solve_binary_cubic(model, f, i0, vals)
    if not cands and F0 is QQ:
        return _solve_single_token_qqbar(model, f, i0, rows, cubics, vals)
    if not cands:
        return None, f"the cubic {f} has no linear factor over {F0}"
    for ell in cands:
        quad = f // ell
        found = _quadric_matrix(quad, a)
        if found is None:
            continue
        K, A = found
        SK = PolynomialRing(K, S.variable_names())
        zk = SK.gens()
        V = matrix(K, out, d)
        V.set_row(i0 - 1, vector(K, [ell.monomial_coefficient(z[k]) for k in range(d)]))
        ok = True
        for i in rows[1:]:
            vi, r = SK(cubics[i]).quo_rem(SK(quad))
            if r != 0:
                ok = False
                break
            V.set_row(i - 1, vector(K, [vi.monomial_coefficient(zk[k]) for k in range(d)]))
        if not ok:
            continue
        w = _weights_from(model, A, V)
        if w is not None and _verify(model, w, vals):
            return (w, K, "a linear factor of the cubic, A from the quadric"), None
    return None, "no linear factor of the cubic leaves a quadric of rank at most 2a"


def _solve_single_token_qqbar(model, f, i0, rows, cubics, vals):
    r"""
    Split the cubic ``f`` (no rational linear factor) over `\overline{\QQ}` and solve the fiber there.
    """
    from sage.all__sagemath_singular import QQbar
    out, a, d = model.out, model.ranks[0], model.d
    SK = PolynomialRing(QQbar, f.parent().variable_names())
    zk = SK.gens()
    fK = SK(f)
    for ell, _ in fK.factor():
        if ell.degree() != 1:
            continue
        quad = fK // ell
        found = _quadric_matrix(quad, a)
        if found is None:
            continue
        K, A = found
        A = A.change_ring(QQbar)
        V = matrix(QQbar, out, d)
        V.set_row(i0 - 1, vector(QQbar, [ell.monomial_coefficient(zk[k]) for k in range(d)]))
        ok = True
        for i in rows[1:]:
            vi, r = SK(cubics[i]).quo_rem(quad)
            if r != 0:
                ok = False
                break
            V.set_row(i - 1, vector(QQbar, [vi.monomial_coefficient(zk[k]) for k in range(d)]))
        if not ok:
            continue
        w = _weights_from(model, A, V)
        if w is not None and _verify(model, w, vals):
            return (w, QQbar, "a linear factor of the cubic over the algebraic numbers, "
                    "A from the quadric"), None
    return None, f"the cubic {f} has no linear factor leaving a quadric of rank at most 2a"


def _solve_binary_cubic(model, f, i0, vals):
    r"""
    Split a binary cubic over `\overline{\QQ}` (every binary cubic splits).
    """
    from sage.all__sagemath_singular import QQbar
    out, a = model.out, model.ranks[0]
    z1, z2 = f.parent().gens()
    U = PolynomialRing(QQ, "s")
    g = U([f.monomial_coefficient(z1 ** k * z2 ** (3 - k)) for k in range(4)])
    # f = lc * prod (z1 - r z2) * z2^(3 - deg g)
    lc = g.leading_coefficient()
    lins = []
    for r, e in g.roots(QQbar):
        lins += [vector(QQbar, [1, -r])] * e
    lins += [vector(QQbar, [0, 1])] * (3 - g.degree())
    if len(lins) != 3:
        return None, f"the cubic {f} did not split"
    V = matrix(QQbar, out, 2)
    V.set_row(i0 - 1, QQbar(lc) * lins[0])
    A = lins[1].column() * lins[2].row()
    w = _weights_from(model, A, V)
    if w is not None and _verify(model, w, vals):
        return (w, QQbar, "the binary cubic split over the algebraic numbers"), None
    return None, "the split binary cubic did not give weights of the right rank"


def _quadric_matrix(quad, a):
    r"""
    Return ``(K, A)`` with `z^T A z = ` ``quad`` and `\operatorname{rank} A \le a`, or ``None``.
    """
    R = quad.parent()
    F = R.base_ring()
    d = R.ngens()
    z = R.gens()
    Sm = matrix(F, d, d, lambda i, j: quad.monomial_coefficient(z[i] * z[j])
                * (1 if i == j else F(1) / 2))
    s = Sm.rank()
    if s <= a:
        return F, Sm
    if s > 2 * a:
        return None
    # a product of two rational linear forms: A = l1 l2^T
    facs = [g for g, e in quad.factor() for _ in range(e) if g.degree() == 1]
    if len(facs) == 2:
        c = quad // (facs[0] * facs[1])
        u = vector(F, [facs[0].monomial_coefficient(x) for x in z]) * F(c)
        w = vector(F, [facs[1].monomial_coefficient(x) for x in z])
        return F, u.column() * w.row()
    # diagonalize over F and pair the squares: c1 y1^2 + c2 y2^2 = c1 (y1 - b y2)(y1 + b y2)
    from sage.all__sagemath_singular import QQbar
    D, P = _diagonalize(Sm)   # Sm = P^T D P
    cs = [D[i, i] for i in range(d)]
    nz = [i for i in range(d) if cs[i] != 0]
    K = QQbar
    A = matrix(K, d, d)
    y = [P.row(i).change_ring(K) for i in range(d)]
    k = 0
    while k < len(nz):
        i = nz[k]
        if k + 1 < len(nz):
            j = nz[k + 1]
            b = (K(-cs[j]) / K(cs[i])).sqrt()
            A += K(cs[i]) * (y[i] - b * y[j]).column() * (y[i] + b * y[j]).row()
            k += 2
        else:
            A += K(cs[i]) * y[i].column() * y[i].row()
            k += 1
    return K, A


def _diagonalize(S):
    r"""
    Return ``(D, P)`` with ``S == P.transpose() * D * P``, ``D`` diagonal, ``P`` invertible.
    """
    F = S.base_ring()
    n = S.nrows()
    S = copy_matrix(S)
    P = matrix.identity(F, n)   # S_current = P^{-T} S0 P^{-1}; track L with S0 = L^T D L
    L = matrix.identity(F, n)
    # symmetric Gaussian elimination with congruence: E S E^T
    E_total = matrix.identity(F, n)
    for k in range(n):
        if S[k, k] == 0:
            j = next((j for j in range(k + 1, n) if S[j, j] != 0), None)
            if j is not None:
                S.swap_rows(k, j)
                S.swap_columns(k, j)
                E_total.swap_rows(k, j)
            else:
                j = next((j for j in range(k + 1, n) if S[k, j] != 0), None)
                if j is None:
                    continue
                S.add_multiple_of_row(k, j, 1)
                S.add_multiple_of_column(k, j, 1)
                E_total.add_multiple_of_row(k, j, 1)
        for j in range(k + 1, n):
            if S[j, k] != 0:
                m = -S[j, k] / S[k, k]
                S.add_multiple_of_row(j, k, m)
                S.add_multiple_of_column(j, k, m)
                E_total.add_multiple_of_row(j, k, m)
    # E S0 E^T = D  =>  S0 = E^{-1} D E^{-T} = P^T D P with P = E^{-T}
    return S, E_total.inverse().transpose()


def copy_matrix(M):
    from copy import copy
    return copy(M)


# ----------------------------------------------------------------------
# Real realizability
# ----------------------------------------------------------------------

def _as_real_weights(weights):
    r"""
    Return ``weights`` over ``AA`` if every entry is real, else ``None``.
    """
    from sage.all__sagemath_singular import AA
    try:
        return [tuple(m.change_ring(AA) for m in layer) for layer in weights]
    except (TypeError, ValueError, ArithmeticError):
        return None


def _is_real_field(F):
    from sage.all__sagemath_singular import AA
    if F is QQ or F is AA:
        return True
    try:
        AA(F.gen())
        return True
    except (TypeError, ValueError, ArithmeticError, AttributeError):
        return False


def _decide_real(model, vals, weights, Fw):
    r"""
    Decide whether a point realizable over `\CC` (by ``weights`` over ``Fw``)
    is realizable with real weights.

    OUTPUT: ``(real, weights, field, how, reason, check)``; ``weights`` is
    ``None`` when the given weights are kept.
    """
    if model.base_ring() is not QQ:
        return (None, None, None, None,
                f"not asked: the base field {model.base_ring()} is not a subfield of R", None)
    if _is_real_field(Fw):
        return True, None, None, None, f"the weights are real (over {Fw})", None
    rw = _as_real_weights(weights)
    if rw is not None:
        from sage.all__sagemath_singular import AA
        return True, rw, AA, None, "the weights are real algebraic numbers", None
    try:
        if model.tokens == 1:
            return _real_single_token(model, vals)
        return _real_cross(model, vals)
    except (ArithmeticError, ValueError, TypeError, NotImplementedError) as exc:
        logger.debug("certify: real realizability failed: %s", exc)
        return None, None, None, None, f"not decided ({exc})", None


def _row_cubics(model, vals):
    r"""
    Return ``{row: cubic}``: the output rows as cubic forms in ``z1, ..., zd`` over the base ring.
    """
    d, t = model.d, model.tokens
    F0 = model.base_ring()
    names = model.input_ring().variable_names()
    S = PolynomialRing(F0, [names[(k - 1) * t] for k in range(1, d + 1)])
    z = S.gens()
    cubics = {}
    scaled = model.coordinate_scaling == "scaled"
    for c, v in zip(model.coordinates_list(), vals):
        raw = v * model._term_count(c) if scaled else v
        p, q, r = c.indices
        cubics[c.row] = cubics.get(c.row, S.zero()) + raw * z[p - 1] * z[q - 1] * z[r - 1]
    return S, cubics


def _sym_matrix(quad):
    R = quad.parent()
    F = R.base_ring()
    z = R.gens()
    d = len(z)
    return matrix(F, d, d, lambda i, j: quad.monomial_coefficient(z[i] * z[j])
                  * (1 if i == j else F(1) / 2))


def _nonzero_principal_minor(G):
    d = G.nrows()
    for i in range(d):
        for j in range(i + 1, d):
            m = G[i, i] * G[j, j] - G[i, j] ** 2
            if m:
                return (i, j), m
    return None, 0


def real_linear_factors(f):
    r"""
    Return the real linear factors of a form ``f`` over `\QQ` (a cubic or a quadric), up to scale.

    OUTPUT: a pair ``(factors, notes)``: ``factors`` is a list of pairs
    ``(K, ell)`` with ``K`` a real field (`\QQ`, a real quadratic field or
    ``AA``) and ``ell`` a linear form over ``K`` dividing ``f``; every real
    linear factor of ``f`` is a real multiple of one of them. ``notes``
    says, for each factor of ``f`` over `\QQ` that gives no real linear
    factor, why (checkable: a definite `2 \times 2` principal minor, or a
    rank).

    EXAMPLES::

        sage: from sage_attention.variety.certificates import real_linear_factors
        sage: R.<z1, z2, z3> = QQ[]
        sage: facs, notes = real_linear_factors(z1 * (z1^2 + z2^2 + z3^2))
        sage: facs
        [(Rational Field, z1)]
        sage: notes
        ['z1^2 + z2^2 + z3^2 has rank 3 >= 3, so it has no linear factor']
        sage: facs, notes = real_linear_factors(z3 * (z1^2 - 2*z2^2)); [str(l) for K, l in facs]
        ['z3', 'z1 + (-s)*z2', 'z1 + s*z2']
        sage: real_linear_factors(z3 * (z1^2 + 2*z2^2))[1]
        ['z1^2 + 2*z2^2 is definite (principal minor of rows 1, 2 of its matrix: 2 > 0), so it has no real linear factor']
    """
    from sage.all__sagemath_singular import QuadraticField, QQbar, AA
    facs, notes = [], []
    for g, e in f.factor():
        if g.degree() == 1:
            facs.append((QQ, g))
        elif g.degree() == 2:
            G = _sym_matrix(g)
            r = G.rank()
            if r >= 3:
                notes.append(f"{g} has rank {r} >= 3, so it has no linear factor")
                continue
            ij, m = _nonzero_principal_minor(G)
            if m > 0:
                notes.append(f"{g} is definite (principal minor of rows {ij[0] + 1}, "
                             f"{ij[1] + 1} of its matrix: {m} > 0), so it has no real linear "
                             "factor")
                continue
            sf = Integer(QQ(-m).numerator() * QQ(-m).denominator()).squarefree_part()
            K = QuadraticField(sf, "s")
            gK = g.change_ring(K)
            facs += [(K, h) for h, _ in gK.factor() if h.degree() == 1]
        else:
            found = False
            for h, _ in g.change_ring(QQbar).factor():
                if h.degree() != 1:
                    continue
                c = next(x for x in h.coefficients() if x)
                h = h / c
                try:
                    facs.append((AA, h.change_ring(AA)))
                    found = True
                except (TypeError, ValueError):
                    pass
            if not found:
                notes.append(f"{g} has no real linear factor (its factors over the algebraic "
                             "numbers are not real)")
    return facs, notes


def inertia(S):
    r"""
    Return ``(n_plus, n_minus)``: the numbers of positive and negative eigenvalues
    of the real symmetric matrix ``S`` (over `\QQ`, a real number field or ``AA``).

    Exact: a congruence diagonalization and the signs of the diagonal
    (Sylvester's law of inertia).

    EXAMPLES::

        sage: from sage_attention.variety.certificates import inertia
        sage: inertia(matrix(QQ, [[0, 1], [1, 0]])), inertia(identity_matrix(QQ, 3))
        ((1, 1), (3, 0))
    """
    from sage.all__sagemath_singular import AA
    D, _ = _diagonalize(S)
    signs = [AA(D[i, i]).sign() for i in range(D.nrows())]
    return signs.count(1), signs.count(-1)


def real_matrix_of_rank(S, a):
    r"""
    Return a real matrix `A` of rank at most ``a`` with `\mathrm{Sym}(A) = S`, or ``None``.

    A real `A` of rank at most `a` has `x^T A x = \sum_{i \le a} (k_i \cdot x)(q_i \cdot x)
    = \sum_i \tfrac14 ((k_i + q_i) \cdot x)^2 - \tfrac14 ((k_i - q_i) \cdot x)^2`,
    so `S = \mathrm{Sym}(A)` has at most `a` positive and at most `a` negative
    eigenvalues. Conversely, if `S = P^T D P` (``D`` diagonal) has `n_+, n_- \le a`,
    each pair of a positive `D_{ii}` and a negative `D_{jj}` is the symmetric
    part of the rank-one `D_{ii} (p_i - \beta p_j)(p_i + \beta p_j)^T`,
    `\beta = \sqrt{-D_{jj}/D_{ii}}`; pairing `\operatorname{rank} S - a` of them
    leaves `a` rank-one terms.

    OUTPUT: a matrix over the field of ``S`` (when `\operatorname{rank} S \le a`)
    or over ``AA``; ``None`` if `n_+ > a` or `n_- > a`

    EXAMPLES::

        sage: from sage_attention.variety.certificates import real_matrix_of_rank
        sage: S = diagonal_matrix(QQ, [1, 1, -1])
        sage: A = real_matrix_of_rank(S, 2); A.rank(), (A + A.T) / 2 == S
        (2, True)
        sage: real_matrix_of_rank(identity_matrix(QQ, 3), 2) is None
        True
    """
    from sage.all__sagemath_singular import AA
    F = S.base_ring()
    D, P = _diagonalize(S)
    n = S.nrows()
    pos = [i for i in range(n) if AA(D[i, i]) > 0]
    neg = [i for i in range(n) if AA(D[i, i]) < 0]
    if len(pos) > a or len(neg) > a:
        return None
    k = max(0, len(pos) + len(neg) - a)
    if k == 0:
        return S
    A = matrix(AA, n, n)
    rows = [P.row(i).change_ring(AA) for i in range(n)]
    for i, j in zip(pos[:k], neg[:k]):
        b = (-AA(D[j, j]) / AA(D[i, i])).sqrt()
        A += AA(D[i, i]) * (rows[i] - b * rows[j]).column() * (rows[i] + b * rows[j]).row()
    for i in pos[k:] + neg[k:]:
        A += AA(D[i, i]) * rows[i].column() * rows[i].row()
    return A


def _matrix_expression(S):
    if S.base_ring() is not QQ:
        return None
    rows = ", ".join("[" + ", ".join(str(x) for x in r) + "]" for r in S.rows())
    return f"matrix(QQ, [{rows}]).eigenvalues()"


def _real_single_token(model, vals):
    r"""
    Real realizability for `t = 1`: `y_i = (v_i \cdot x)\, q(x)` with real `v`
    and `q = x^T A x`, `A` real of rank at most `a`.

    `q` is `f / \ell` for a real linear factor `\ell` of the first nonzero row
    `f`; the candidates are all real linear factors (:func:`real_linear_factors`),
    and `q` must have at most `a` positive and `a` negative eigenvalues
    (:func:`real_matrix_of_rank`) and divide the other rows.
    """
    S, cubics = _row_cubics(model, vals)
    out, a, d = model.out, model.ranks[0], model.d
    rows = [i for i in model.output_rows() if cubics.get(i)]
    i0 = rows[0]
    f = cubics[i0]
    facs, notes = real_linear_factors(f)
    why = list(notes)
    check = None
    for K, ell in facs:
        SK = ell.parent()
        zk = SK.gens()
        quad, r = SK(f).quo_rem(ell)
        if r != 0:
            continue
        Sm = _sym_matrix(quad)
        A = real_matrix_of_rank(Sm, a)
        if A is None:
            npos, nneg = inertia(Sm)
            why.append(f"for the real factor {ell} of row {i0}, the quadric {quad} has the "
                       f"symmetric\nmatrix {Sm.rows()} with {npos} positive and {nneg} "
                       f"negative eigenvalues, but\nSym(A) of a real A of rank <= {a} has at "
                       f"most {a} of each")
            check = check or _matrix_expression(Sm)
            continue
        FA = A.base_ring()
        V = matrix(FA, out, d)
        V.set_row(i0 - 1, vector(FA, [FA(ell.monomial_coefficient(zk[k])) for k in range(d)]))
        ok = True
        for i in rows[1:]:
            vi, r = SK(cubics[i]).quo_rem(quad)
            if r != 0 or (vi and vi.degree() != 1):
                why.append(f"for the real factor {ell} of row {i0}, the quadric {quad} does "
                           f"not divide row {i}")
                ok = False
                break
            V.set_row(i - 1, vector(FA, [FA(vi.monomial_coefficient(zk[k])) if vi else 0
                                         for k in range(d)]))
        if not ok:
            continue
        w = _weights_from(model, A, V)
        if w is not None and _verify(model, w, vals):
            return (True, w, FA, f"a real linear factor of the cubic, A real of rank <= {a} "
                    "with Sym(A) the quadric", f"the weights are real (over {FA})", None)
    if not facs:
        why.insert(0, f"row {i0} (the cubic {f}) has no real linear factor, but v . x must "
                   "be one")
    else:
        why.insert(0, "every real factorization (real linear form) x (quadric) fails")
    return False, None, None, None, "; ".join(why), check


def _real_cross(model, vals):
    r"""
    Real realizability for `t \ge 2` when the complex weights are not real.

    `(v, A)` is unique up to `(\lambda v, A / \lambda)` except when all
    slice quadrics of a row are multiples of one quadric `g`, which `v`
    must divide. So weights are real exactly when the common factor `g` of
    the slice quadrics has a real linear factor.
    """
    d = model.d
    ev = _essential_values(model, vals)
    S = PolynomialRing(QQ, [f"z{k}" for k in range(1, d + 1)])
    z = S.gens()
    for i in model.output_rows():
        T = model.cross_tensor(i)
        qs = []
        for c in range(1, d + 1):
            q = S.zero()
            for a_ in range(1, d + 1):
                for b in range(a_, d + 1):
                    val = T[(a_, b, c)](*ev) if T[(a_, b, c)] else 0
                    q += val * z[a_ - 1] * z[b - 1] * (1 if a_ == b else 2)
            qs.append(q)
        if not any(qs):
            continue
        g = gcd([q for q in qs if q])
        if g.degree() != 2:
            break
        facs, notes = real_linear_factors(g)
        if facs:
            break
        G = _sym_matrix(g)
        return (False, None, None, None,
                f"every slice quadric of row {i} is a multiple of g = {g}, and the row "
                f"V_{i} of any weights is a linear factor of g; {'; '.join(notes)}",
                _matrix_expression(G))
    return (None, None, None, None,
            "not decided: the weights found are not real and no obstruction was found", None)
