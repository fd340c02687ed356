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

EXAMPLES:

An output of random rational weights is realizable, with weights that
reproduce it::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.variety.certificates import certify
    sage: M = LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)])
    sage: p = M.coefficients_at(M.random_weights(seed=1))
    sage: c = certify(M, p); c
    Realizable: weights over Rational Field reproduce the point exactly
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
    sage: from sage.repl.preparse import preparse
    sage: eval(preparse(c.check)) == c.value
    True

REFERENCES: [ADM2026]_.
"""
# sage.doctest: needs sage.libs.singular
import logging
from dataclasses import dataclass, field as dc_field

from sage.all__sagemath_singular import (QQ, PolynomialRing, matrix, vector, gcd, Integer)

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
    - ``field`` -- the field of the weights
    - ``reason`` -- a sentence
    - ``point`` -- the coordinate values

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

    def __repr__(self):
        if self.status == "not realizable":
            if self.kind == "support":
                return f"Not realizable: {self.reason}."
            what = "the linear relation" if self.kind == "linear" else "the invariant"
            lab = f" ({self.label})" if self.kind != "linear" else ""
            return (f"Not realizable: {what} {self.polynomial if self.kind == 'linear' else ''}"
                    .rstrip() + f"{lab} is {self.value} at this point, not 0.")
        if self.status == "realizable":
            return (f"Realizable: weights over {self.field} reproduce the point exactly\n"
                    f"({self.reason}).")
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
    try:
        return [F(v) for v in vals]
    except (TypeError, ValueError):
        from sage.structure.sequence import Sequence
        S = Sequence(vals)
        return list(S)


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


def certify(model, point, families=None, seed=None, extra_invariants=()):
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
    - ``seed`` -- unused (the procedure is deterministic); accepted for a
      uniform interface
    - ``extra_invariants`` -- (default: none) more polynomials known to
      vanish on the variety, e.g. the generators of
      :meth:`~sage_attention.variety.neurovariety.Neurovariety.vanishing_ideal`;
      they are checked after the families, and only trusted after an exact
      membership check

    OUTPUT: a :class:`Certificate`

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.certificates import certify
        sage: M = LightningAttention(d=2, t=1, a=1, weight_space='AV')
        sage: R.<x11, x21> = QQ[]
        sage: c = certify(M, matrix([[(x11 + x21) * x11 * (x11 - 2*x21)]])); c
        Realizable: weights over Rational Field reproduce the point exactly
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
    """
    if model.nlayers() != 1 or not model.is_lightning():
        raise ValueError("certify needs a single lightning layer")
    vals, extra = point_values(model, point)
    pt = tuple(vals)
    name = str(model)
    if extra:
        return Certificate(name, "not realizable", kind="support",
                           reason=f"the monomial {extra[0]} never occurs in an output of this model",
                           point=pt)
    # 1. linear relations
    for k, f in enumerate(model.linear_relations()):
        v = f(*vals)
        if v != 0:
            return Certificate(name, "not realizable", kind="linear",
                               label=f"linear relation {k}", polynomial=f, value=v,
                               check=_check_expression(model, f, vals), point=pt)
    # 2. nonlinear invariants
    from sage_attention.invariants import invariants
    fam = invariants(model, families=families)
    members = sorted(((inv.polynomial, inv.label) for inv in fam
                      if inv.polynomial.degree() > 1), key=lambda p: p[0].degree())
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
    # 3. solve the fiber and verify
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
            return Certificate(name, "realizable", weights=weights, field=str(Fw),
                               reason=f"found by solving the fiber: {how}", point=pt)
        why = "the weights found by solving the fiber do not reproduce the point"
    return Certificate(name, "undecided",
                       reason=f"every invariant checked ({len(members)} nonlinear) vanishes, "
                       f"but {why}", point=pt)


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
