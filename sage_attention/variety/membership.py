r"""
Exact membership in the vanishing ideal, and in any ideal

A polynomial in the coefficient coordinates lies in the vanishing ideal of
the neurovariety iff it vanishes after composing with the parametrization
(:ref:`mathematics, §6 <math-6>`). :func:`vanishes_on_model` does exactly that, after a
cheap evaluation at a random point of the neuromanifold that can only
refute; :func:`check_family` does it for a whole
:class:`~sage_attention.invariants.base.InvariantFamily`; :func:`in_ideal`
tests membership in an arbitrary ideal with Singular.

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.invariants import pencil_invariants
    sage: from sage_attention.variety.membership import vanishes_on_model, check_family
    sage: M = LightningAttention(d=3, t=2, a=2)
    sage: check_family(M, pencil_invariants(M))
    All 10 members of the family 'pencil' vanish on LightningAttention(d=3, out=1, t=2, a=2) over Rational Field
    (exact: composed with the parametrization).
    sage: C = M.coordinate_ring()
    sage: vanishes_on_model(M, C.gen(0))
    False
"""
from dataclasses import dataclass
import logging

from sage.all__sagemath_singular import PolynomialRing, matrix, cached_function

from sage_attention.misc.randomness import MAX_SEED, resolve_seed

logger = logging.getLogger("sage_attention")


@cached_function
def _free_images(model, ring):
    r"""
    Return the images of the generators of ``ring`` (``'coordinates'`` or
    ``'essential'``) under a parametrization with free parameters and the
    same image closure as the model's.

    The parameters are `V` and `A` (`a \ge d`) or `V, U, W` with `A = U W`
    (`U` of size `d \times a`, `W` of size `a \times d`; `a < d`): for
    ``weight_space='QKV'`` this is `U = K^T, W = Q`, with lower degree and fewer
    variables; for ``weight_space='AV'`` it imposes the rank condition
    identically, so no Gröbner basis of the rank ideal is needed.
    """
    twin = model.with_weight_space("AV")
    phi = twin.parametrization() if ring == "coordinates" else twin.essential_parametrization()
    images = list(phi.im_gens())
    d, a = model.d, model.ranks[0]
    # for t = 1 only Sym(A) matters, and it is generic as soon as 2a >= d
    if a < d and not (model.tokens == 1 and 2 * a >= d):
        Wr = twin.weight_ring()
        names = [str(x) for x in Wr.gens() if not str(x).startswith("A")]
        names += [f"U{i}_{k}" for i in range(1, d + 1) for k in range(1, a + 1)]
        names += [f"W{k}_{j}" for k in range(1, a + 1) for j in range(1, d + 1)]
        R = PolynomialRing(model.base_ring(), names)
        U = matrix(R, d, a, [R(f"U{i}_{k}") for i in range(1, d + 1) for k in range(1, a + 1)])
        Wm = matrix(R, a, d, [R(f"W{k}_{j}") for k in range(1, a + 1) for j in range(1, d + 1)])
        UW = U * Wm
        Amat = twin.attention_matrices()[0]
        pos = {Amat[i, j]: (i, j) for i in range(d) for j in range(d)}
        sub = [UW[pos[x]] if x in pos else R(str(x)) for x in Wr.gens()]
        images = [f(sub) for f in images]
    return tuple(images)


def free_images(model, ring="essential"):
    r"""
    Return the images of the generators of ``ring`` under a free parametrization of ``model``.

    The parametrization has free parameters and the same image closure as
    the model's (with ``A = U W`` when `a < d`), so a polynomial is in the
    vanishing ideal iff it vanishes after substituting these images: this
    is the exact test of :func:`vanishes_on_model`.

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``ring`` -- (default: ``'essential'``) ``'essential'`` or
      ``'coordinates'``: the generators of which ring

    OUTPUT: a tuple of polynomials in the parameters

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.membership import free_images
        sage: M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
        sage: len(free_images(M)) == M.essential_ring().ngens()
        True
        sage: free_images(M, 'weights')
        Traceback (most recent call last):
        ...
        ValueError: ring (='weights') must be 'essential' or 'coordinates'
    """
    if ring not in ("essential", "coordinates"):
        raise ValueError(f"ring (={ring!r}) must be 'essential' or 'coordinates'")
    return _free_images(model, ring)


def _ring_of(model, f):
    r"""
    Return ``('coordinates' or 'essential', f)``: ``f`` as an element of the
    coordinate ring or of the essential ring of ``model``.

    A polynomial of another ring is accepted only when its variables are
    named like coordinates of the model (it is then converted by variable
    names, never by position); a number is a constant polynomial.

    TESTS::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.membership import _ring_of
        sage: M = LightningAttention(d=1, t=2, a=1)
        sage: _ring_of(M, 0)
        ('coordinates', 0)
        sage: z = PolynomialRing(QQ, 'z', 4).gens()
        sage: _ring_of(M, z[0] - z[1])
        Traceback (most recent call last):
        ...
        TypeError: f (=z0 - z1) must be a polynomial in the coordinate ring or the essential ring of the model; its variables z0, z1 are not coordinates of LightningAttention(d=1, out=1, t=2, a=1) over Rational Field
        sage: S = PolynomialRing(QQ, ['Y11_x11x11x11', 'foo'])
        sage: _ring_of(M, S.gen(0))
        ('coordinates', Y11_x11x11x11)
    """
    from sage.rings.polynomial.multi_polynomial import MPolynomial
    from sage.rings.polynomial.polynomial_element import Polynomial
    C = model.coordinate_ring()
    E = model.essential_ring()
    wrong = (f"f (={f!r}) must be a polynomial in the coordinate ring or the essential ring "
             "of the model")
    if isinstance(f, (MPolynomial, Polynomial)):
        parent = f.parent()
        if model.tokens >= 2 and model.nlayers() == 1 and parent is E:
            return "essential", f
        if parent is C:
            return "coordinates", f
        # another polynomial ring: convert by variable names, never by position
        gens = [str(x) for x in parent.gens()]
        terms = f.dict()
        used = sorted({gens[i] for m in terms for i, e in enumerate(
            m if isinstance(m, tuple) or hasattr(m, "__iter__") else [m]) if e}, key=gens.index)
        names = set(C.variable_names())
        foreign = [x for x in used if x not in names]
        if foreign:
            raise TypeError(f"f (={f}) must be a polynomial in the coordinate ring or the essential "
                            f"ring of the model; its variables {', '.join(foreign[:5])}"
                            f"{', ...' if len(foreign) > 5 else ''} are not coordinates of {model}")
        Cg = {x: C(x) for x in used}
        try:
            g = C.zero()
            for m, c in terms.items():
                m = m if hasattr(m, "__iter__") else [m]
                g += C(C.base_ring()(c)) * C.prod(Cg[gens[i]] ** int(e) for i, e in enumerate(m) if e)
        except (TypeError, ValueError, ArithmeticError):
            raise TypeError(f"f (={f}) has coefficients outside {C.base_ring()}, the field of "
                            "the model") from None
        return "coordinates", g
    from numbers import Number
    from sage.structure.element import Element
    if isinstance(f, bool) or not isinstance(f, (Number, Element)):
        raise TypeError(wrong)
    # a number: a constant polynomial
    try:
        return "coordinates", C(C.base_ring()(f))
    except (TypeError, ValueError, ArithmeticError):
        raise TypeError(wrong) from None


@cached_function
def _random_point(model, seed):
    vals = model.coefficients_at(model.random_weights(seed=seed))
    return tuple(vals)


def _essential_point(model, vals):
    C = model.coordinate_ring()
    index = {x: i for i, x in enumerate(C.gens())}
    return tuple(vals[index[x]] for x in model.essential_coordinates())


def vanishes_on_model(model, f, proof=True, seed=0, points=1):
    r"""
    Return whether the polynomial ``f`` vanishes on the neurovariety of ``model``.

    First ``f`` is evaluated at ``points`` random points of the
    neuromanifold (images of random weights); a nonzero value proves that
    ``f`` is not in the vanishing ideal. Otherwise, with ``proof=True``,
    ``f`` is composed with the parametrization and the result compared with
    zero: this is exact (:ref:`mathematics, §6 <math-6>`) and needs no Gröbner basis.

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``f`` -- a polynomial in ``model.coordinate_ring()`` or ``model.essential_ring()``
    - ``proof`` -- boolean (default: ``True``); compose exactly after the
      random evaluations; if ``False``, only the random evaluations decide
    - ``seed`` -- (default: `0`) integer; seed of the first random point
      (the `k`-th point uses ``seed + k``, modulo `2^{64}`)
    - ``points`` -- (default: `1`) number of random points tried first

    OUTPUT: boolean

    .. WARNING::

        With ``proof=False`` a ``True`` answer is probabilistic: a nonzero
        ``f`` of degree `\delta` composed with the parametrization (degree
        `3\delta` in the weights, `2\delta` for ``'AV'``) vanishes at a
        random integer point with entries in `[-100, 100]` with probability
        at most `3\delta/201` (Schwartz–Zippel), per point. ``False`` answers
        are always correct.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.membership import vanishes_on_model
        sage: M = LightningAttention(d=2, t=2, a=1, weight_space='AV')
        sage: F = M.essential_ring().gens()
        sage: vanishes_on_model(M, F[0] * F[5] - F[2] * F[3])
        False

    A `2 \times 2` minor of the flattening (here `a = 1`), given in the
    essential ring, and the rank condition handled without Gröbner bases::

        sage: T = M.cross_tensor(1)
        sage: vanishes_on_model(M, T[1, 1, 1] * T[1, 2, 2] - T[1, 1, 2] * T[1, 2, 1])
        True

    TESTS::

        sage: vanishes_on_model(M, QQ['z'].gen())
        Traceback (most recent call last):
        ...
        TypeError: f (=z) must be a polynomial in the coordinate ring or the essential ring of the model; its variables z are not coordinates of LightningAttention(d=2, out=1, t=2, a=1, weight_space='AV') over Rational Field

    The zero polynomial (or the number `0`) vanishes everywhere; a nonzero
    constant vanishes nowhere::

        sage: vanishes_on_model(M, 0), vanishes_on_model(M, 1)
        (True, False)
    """
    from sage_attention.models.checks import lightning_model, integer, positive_integer
    lightning_model(model)
    if not model.is_lightning() or model.nlayers() != 1:
        raise ValueError(f"vanishes_on_model needs one lightning layer; model (={model}) is not")
    from sage_attention.models.checks import coordinate_model
    coordinate_model(model, "vanishes_on_model")
    seed = resolve_seed(integer(seed, "seed"))
    points = integer(points, "points")
    if points < 0:
        raise ValueError(f"points (={points}) must be a nonnegative integer")
    ring, f = _ring_of(model, f)
    if f == 0:
        return True
    for k in range(points):
        vals = _random_point(model, (seed + k) % (MAX_SEED + 1))
        if ring == "essential":
            vals = _essential_point(model, vals)
        if f(*vals) != 0:
            return False
    if not proof:
        return True
    images = _free_images(model, ring)
    return f(*images) == 0


@dataclass(frozen=True)
class MembershipReport:
    r"""
    Which members of an invariant family vanish on the neurovariety.

    Attributes: ``model`` (its description), ``family`` (name), ``size``
    (number of members), ``failures`` (tuple of labels of the members that
    do not vanish), ``proof`` (whether the test was exact), ``seed``.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants import low_rank_invariants
        sage: from sage_attention.variety.membership import check_family
        sage: M = LightningAttention(d=3, t=2, a=2)
        sage: R = check_family(M, low_rank_invariants(LightningAttention(d=3, t=2, a=1)))
        Traceback (most recent call last):
        ...
        ValueError: the family belongs to LightningAttention(d=3, out=1, t=2, a=1) over Rational Field, not to LightningAttention(d=3, out=1, t=2, a=2) over Rational Field
    """
    model: str
    family: str
    size: int
    failures: tuple
    proof: bool
    seed: object

    @property
    def all_vanish(self):
        r"""
        Whether every member vanishes.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.invariants import low_rank_invariants
            sage: from sage_attention.variety.membership import check_family
            sage: M = LightningAttention(d=2, t=2, a=1)
            sage: check_family(M, low_rank_invariants(M)).all_vanish
            True
        """
        return not self.failures

    def __repr__(self):
        how = ("exact: composed with the parametrization" if self.proof
               else f"probabilistic: random points from seed {self.seed}")
        if self.all_vanish:
            return (f"All {self.size} members of the family '{self.family}' vanish on "
                    f"{self.model}\n({how}).")
        shown = "; ".join(repr(l) for l in self.failures[:5])
        more = "" if len(self.failures) <= 5 else f"; and {len(self.failures) - 5} more"
        return (f"{len(self.failures)} of {self.size} members of the family '{self.family}' "
                f"do not vanish on {self.model} ({how}): {shown}{more}.")

    def to_dict(self):
        r"""
        Return the report as a JSON-able dictionary.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.invariants import low_rank_invariants
            sage: from sage_attention.variety.membership import check_family
            sage: M = LightningAttention(d=2, t=2, a=1)
            sage: check_family(M, low_rank_invariants(M)).to_dict()
            {'all_vanish': True,
             'failures': [],
             'family': 'low_rank',
             'model': 'LightningAttention(d=2, out=1, t=2, a=1) over Rational Field',
             'proof': True,
             'seed': 0,
             'size': 3}
        """
        return {"model": self.model, "family": self.family, "size": self.size,
                "failures": [l.to_dict() for l in self.failures], "proof": self.proof,
                "seed": self.seed, "all_vanish": self.all_vanish}


def check_family(model, family, proof=True, seed=0):
    r"""
    Return a :class:`MembershipReport` on which members of ``family`` vanish on ``model``.

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``family`` -- an :class:`~sage_attention.invariants.base.InvariantFamily` of ``model``
      (or any iterable of polynomials, labelled by position)
    - ``proof``, ``seed`` -- as in :func:`vanishes_on_model`

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants import low_rank_invariants
        sage: from sage_attention.variety.membership import check_family
        sage: M = LightningAttention(d=3, t=2, a=2)
        sage: fam = low_rank_invariants(LightningAttention(d=3, t=2, a=1, entries=[(1, 1)]))

    A family of another model is refused; polynomials are accepted as such::

        sage: R = check_family(M, [M.coordinate_ring().gen(0), M.coordinate_ring().zero()]); R
        1 of 2 members of the family 'polynomials' do not vanish on
        LightningAttention(d=3, out=1, t=2, a=2) over Rational Field
        (exact: composed with the parametrization): polynomials invariant of indices (0,).
    """
    from sage_attention.invariants.base import InvariantFamily, InvariantLabel
    if isinstance(family, InvariantFamily):
        if family.model is not model:
            raise ValueError(f"the family belongs to {family.model}, not to {model}")
        items = [(inv.polynomial, inv.label) for inv in family]
        name = family.name
    else:
        if isinstance(family, (str, bytes)) or not hasattr(family, "__iter__"):
            raise TypeError(f"family (={family!r}) must be an InvariantFamily or a list of "
                            "polynomials")
        items = [(f, InvariantLabel("polynomials", None, None, None, (k,)))
                 for k, f in enumerate(family)]
        name = "polynomials"
    failures = []
    for k, (f, label) in enumerate(items):
        if not vanishes_on_model(model, f, proof=proof, seed=seed):
            failures.append(label)
        logger.debug("check_family %s: %d/%d", name, k + 1, len(items))
    return MembershipReport(str(model), name, len(items), tuple(failures), bool(proof), seed)


def in_ideal(f, I):
    r"""
    Return whether ``f`` lies in the ideal ``I`` (reduction by a Gröbner basis in Singular).

    INPUT:

    - ``f`` -- a polynomial in the ring of ``I``
    - ``I`` -- an ideal of a multivariate polynomial ring

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants import low_rank_invariants
        sage: from sage_attention.variety.membership import in_ideal
        sage: M = LightningAttention(d=2, t=2, a=1)
        sage: fam = low_rank_invariants(M)
        sage: I = M.coordinate_ring().ideal(list(fam.polynomials()[:2]))
        sage: in_ideal(fam.polynomials()[0] * M.coordinate_ring().gen(3), I)
        True
        sage: in_ideal(M.coordinate_ring().gen(3), I)
        False
    """
    R = I.ring()
    f = R(f)
    return f.reduce(I.groebner_basis()) == 0
