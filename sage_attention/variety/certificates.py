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
``False`` or ``None`` for undecided), with a reason and, for ``False``, a
check (:mod:`~sage_attention.variety.real_points`, :ref:`mathematics, §4 <math-4>`).

The steps live in their own modules: reading the point
(:mod:`~sage_attention.variety.points`), solving the fiber
(:mod:`~sage_attention.variety.fibers`, with
:mod:`~sage_attention.variety.quadrics`), real weights
(:mod:`~sage_attention.variety.real_points`) and the nonlinear invariants
with their cost (:mod:`~sage_attention.variety.invariant_checks`).
:func:`~sage_attention.variety.points.point_values`,
:func:`~sage_attention.variety.invariant_checks.invariant_work`,
:func:`~sage_attention.variety.real_points.real_linear_factors`,
:func:`~sage_attention.variety.quadrics.inertia` and
:func:`~sage_attention.variety.quadrics.real_matrix_of_rank` can also be
imported from here.

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

from sage.all__sagemath_singular import QQ, Integer

from sage_attention.misc.keywords import keyword_hints
from sage_attention.misc.errors import ComputationTooLarge
from sage_attention.variety.fibers import reproduces_point, solve_fiber
from sage_attention.settings import settings
from sage_attention.variety.invariant_checks import (invariant_work,
                                                     nonlinear_invariants)
from sage_attention.variety.points import linear_form_value, point_values
from sage_attention.variety.quadrics import copy_matrix, inertia, real_matrix_of_rank  # noqa: F401
from sage_attention.variety.real_points import (decide_real, real_linear_factors,  # noqa: F401
                                                real_weights_single_token)

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

    def _repr_html_(self):
        r"""
        Return an HTML table of the certificate (Jupyter's rich display).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.certificates import certify
            sage: h = certify(LightningAttention(d=1, t=2, a=1), [1, 2, 3, 4])._repr_html_()
            sage: '<tr><th>value</th><td>1</td></tr>' in h
            True
        """
        from sage_attention.misc.html import html_table
        rows = [("model", self.model), ("status", self.status)]
        for name in ("kind", "label", "polynomial", "value", "check", "field", "real", "real_reason",
                     "real_check"):
            if getattr(self, name) not in (None, ""):
                rows.append((name.replace("_", " "), getattr(self, name)))
        if self.weights is not None:
            rows.append(("weights", self.weights))
        rows.append(("reason", self.reason))
        return html_table(rows, caption=repr(self))

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
        s += f", base_ring={field_expression(model.base_ring())}"
    return s + ")"


def field_expression(F):
    r"""
    Return a Sage expression that rebuilds the field ``F`` (``GF(7)``, not its description).

    EXAMPLES::

        sage: from sage_attention.variety.certificates import field_expression
        sage: field_expression(GF(7)), field_expression(QQ)
        ('GF(7)', 'QQ')
        sage: F = GF(9, 'z'); eval(field_expression(F)) is F
        True
    """
    if F is QQ:
        return "QQ"
    if F.is_finite() and F.is_prime_field():
        return f"GF({F.characteristic()})"
    if F.is_finite():
        return (f"GF({F.cardinality()}, {str(F.gen())!r}, "
                f"modulus=PolynomialRing(GF({F.characteristic()}), 'x')"
                f"({str(F.modulus())!r}))")
    from sage.misc.sage_input import sage_input
    return str(sage_input(F, verify=False)).strip()


def _check_expression(model, f, vals):
    pt = "[" + ", ".join(str(v) for v in vals) + "]"
    return f"{model_expression(model)}.coordinate_ring()('{f}')(*{pt})"


@keyword_hints
def certify(model, point, families=None, seed=None, extra_invariants=(), force=False):
    r"""
    Return a :class:`Certificate` saying whether ``point`` is an output of ``model``.

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``point`` -- the coefficients: a list in the order of
      ``model.coordinate_ring().gens()``, a dict ``{variable: value}``, or
      a `d' \times t` matrix of cubic forms in the input variables
      ``x{k}{n}`` (see :func:`~sage_attention.variety.points.point_values`)
    - ``families`` -- (default: ``None``, every family) the invariant
      families to check (names in :data:`~sage_attention.invariants.FAMILIES`)
    - ``seed`` -- ``None`` or an integer; unused (the procedure is
      deterministic), accepted for a uniform interface
    - ``extra_invariants`` -- (default: none) more polynomials known to
      vanish on the variety, e.g. the generators of
      :meth:`~sage_attention.variety.vanishing_ideal.VanishingIdeal.vanishing_ideal`;
      they are checked after the families, and only trusted after an exact
      membership check
    - ``force`` -- boolean (default: ``False``); check the invariant families
      even when :func:`~sage_attention.variety.invariant_checks.invariant_work`
      exceeds ``settings.MAX_INVARIANT_WORK``

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
        ValueError: certify needs a base field of characteristic 0 or > 3, not GF(2): the coordinates and the fiber divide by 2 and 3; take the model over QQ or GF(p) with p > 3

    Over `\GF{101}` a binary cubic with no linear factor splits over an
    extension, which gives the weights::

        sage: M1 = LightningAttention(d=2, t=1, a=1, base_ring=GF(101))
        sage: c = certify(M1, [1, 0, 1, 1], seed=0); c.status, c.field
        ('realizable', 'Finite Field in b of size 101^6')

    A point with no weights on a large model is refused before the families
    are built (:func:`~sage_attention.variety.invariant_checks.invariant_work`
    counts their minors; see the tests for `d = 6, t = 3, a = 3, d' = 6`).
    """
    if model.nlayers() != 1 or not model.is_lightning():
        raise ValueError("certify needs a single lightning layer")
    from sage_attention.models.checks import coordinate_model
    coordinate_model(model, "certify")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, Integer))):
        raise ValueError(f"seed (={seed}) must be an integer or None")
    from sage_attention.catalog.fields import require_field
    require_field("certify", model.base_ring())
    vals, extra = point_values(model, point)
    pt = tuple(vals)
    name = str(model)
    if extra:
        return Certificate(name, "not realizable", kind="support",
                           reason=f"the monomial {extra[0]} never occurs in an output of this model",
                           point=pt)
    # 1. linear relations
    for k, f in enumerate(model.linear_relations()):
        v = linear_form_value(f, vals)
        if v != 0:
            return Certificate(name, "not realizable", kind="linear",
                               label=f"linear relation {k}", polynomial=f, value=v,
                               check=_check_expression(model, f, vals), point=pt)
    # 2. solve the fiber and verify: a point with verified weights needs no invariant
    try:
        found = solve_fiber(model, vals)
    except (ArithmeticError, ValueError, TypeError, NotImplementedError) as exc:
        logger.debug("certify: fiber solving failed: %s", exc)
        found, why = None, f"solving the fiber failed ({exc})"
    else:
        found, why = found
    if found is not None:
        weights, Fw, how = found
        if reproduces_point(model, weights, vals):
            real, rw, rF, rhow, rwhy, rcheck = decide_real(model, vals, weights, Fw)
            if rw is not None:
                # real weights of the same fiber: ``rhow`` says how, when they were found anew
                weights, Fw = rw, rF
                how = rhow or f"{how}; the weights are real algebraic numbers"
            return Certificate(name, "realizable", weights=weights, field=str(Fw),
                               reason=f"found by solving the fiber: {how}", point=pt,
                               real=real, real_reason=rwhy, real_check=rcheck)
        why = "the weights found by solving the fiber do not reproduce the point"
    if model.tokens == 1 and model.base_ring() is QQ:
        # the rational factorization found nothing; real linear factors may still exist
        try:
            real, rw, rF, rhow, rwhy, rcheck = real_weights_single_token(model, vals)
        except (ArithmeticError, ValueError, TypeError, NotImplementedError) as exc:
            logger.debug("certify: real fiber failed: %s", exc)
            rw = None
        if rw is not None:
            return Certificate(name, "realizable", weights=rw, field=str(rF),
                               reason=f"found by solving the fiber: {rhow}", point=pt,
                               real=True, real_reason=rwhy)
    # 3. nonlinear invariants
    estimate = invariant_work(model, families)
    limit = settings.MAX_INVARIANT_WORK
    if not force and estimate > limit:
        raise ComputationTooLarge(
            f"no weights were found, and checking the invariant families of {model} would "
            f"build about {estimate} minors (limit {limit})", estimate,
            hint="pass families=[...] with cheap families", force_helps=True)
    members = nonlinear_invariants(model, families, force=force)
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
