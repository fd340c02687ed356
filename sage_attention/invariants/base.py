r"""
Shared types of the invariant families: labels, invariants, families

An :class:`Invariant` is a polynomial in the coordinate ring of a model
together with an :class:`InvariantLabel` saying where it comes from (family,
output row and token, context token, indices). An :class:`InvariantFamily`
is an immutable, tuple-like sequence of invariants of one model.

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.invariants import pencil_invariants
    sage: M = LightningAttention(d=3, t=2, a=1, weight_space='AV')
    sage: fam = pencil_invariants(M); fam
    Family 'pencil' of 10 invariants of degree 3 of LightningAttention(d=3, out=1, t=2, a=1, weight_space='AV') over Rational Field
    sage: fam[0].label
    pencil invariant of row 1, indices (rows (1, 2, 3), columns (1, 2, 3), lambda^(0, 0, 3))
    sage: fam.to_dict()['size']
    10
"""
from collections.abc import Sequence
from dataclasses import dataclass, asdict


@dataclass(frozen=True)
class InvariantLabel:
    r"""
    Where an invariant comes from.

    Attributes: ``family`` (string, e.g. ``'pencil'``), ``row`` (the 1-based
    output row, or ``None`` when the invariant ties several rows together),
    ``token`` (the 1-based output token, or ``None`` when it does not depend
    on it), ``context`` (the context token of a linear relation, else
    ``None``), ``indices`` (a tuple describing the member inside the family;
    see each family's documentation).

    EXAMPLES::

        sage: from sage_attention.invariants.base import InvariantLabel
        sage: InvariantLabel('low_rank', 1, None, None, (('rows', (1, 2)), ('columns', (1, 2))))
        low_rank invariant of row 1, indices (rows (1, 2), columns (1, 2))
        sage: InvariantLabel('linear', 2, 1, 3, (1, 1, 2))
        linear invariant of row 2, token 1, context 3, indices (1, 1, 2)
    """
    family: str
    row: object = None
    token: object = None
    context: object = None
    indices: tuple = ()

    def __repr__(self):
        parts = [f"{self.family} invariant"]
        where = []
        if self.row is not None:
            where.append(f"row {self.row}" if not isinstance(self.row, tuple)
                         else f"rows {self.row}")
        if self.token is not None:
            where.append(f"token {self.token}")
        if self.context is not None:
            where.append(f"context {self.context}")
        if self.indices:
            where.append("indices " + _indices_text(self.indices))
        if where:
            parts.append("of " + ", ".join(where))
        return " ".join(parts)

    def to_dict(self):
        r"""
        Return the label as a JSON-able dictionary.

        EXAMPLES::

            sage: from sage_attention.invariants.base import InvariantLabel
            sage: InvariantLabel('linear', 1, 2, 1, (1, 1, 1)).to_dict()
            {'context': 1, 'family': 'linear', 'indices': [1, 1, 1], 'row': 1, 'token': 2}
        """
        return {"family": self.family, "row": _jsonable(self.row), "token": self.token,
                "context": self.context, "indices": _jsonable(self.indices)}


def _indices_text(indices):
    items = []
    named = all(isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str) for x in indices)
    if not named:
        return str(tuple(indices))
    for name, value in indices:
        if name in ("lambda", "mu"):
            items.append(f"{name}^{value}")
        else:
            items.append(f"{name} {value}")
    return "(" + ", ".join(items) + ")"


def _jsonable(x):
    if isinstance(x, (tuple, list)):
        return [_jsonable(y) for y in x]
    if x is None or isinstance(x, (str, bool)):
        return x
    try:
        return int(x)
    except (TypeError, ValueError):
        return str(x)


@dataclass(frozen=True)
class Invariant:
    r"""
    A polynomial that vanishes on the neurovariety, with its label.

    Attributes: ``polynomial`` (an element of ``model.coordinate_ring()``)
    and ``label`` (an :class:`InvariantLabel`).

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants import linear_invariants
        sage: inv = linear_invariants(LightningAttention(d=1, t=2, a=1))[0]; inv
        linear invariant of row 1, token 1, indices (1, 1, 1), of degree 1:
        -Y11_x11x12x12 + Y11_x11x11x11
        sage: inv.degree()
        1
    """
    polynomial: object
    label: InvariantLabel

    def degree(self):
        r"""
        Return the total degree of the polynomial.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.invariants import low_rank_invariants
            sage: low_rank_invariants(LightningAttention(d=2, t=2, a=1))[0].degree()
            2
        """
        return int(self.polynomial.degree())

    def __repr__(self):
        text = str(self.polynomial)
        if len(text) > 200:
            text = text[:200] + f" + ... ({len(self.polynomial.monomials())} terms)"
        return f"{self.label!r}, of degree {self.degree()}:\n{text}"

    def to_dict(self):
        r"""
        Return the invariant as a JSON-able dictionary (the polynomial as a string).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.invariants import linear_invariants
            sage: linear_invariants(LightningAttention(d=1, t=2, a=1))[0].to_dict()['polynomial']
            '-Y11_x11x12x12 + Y11_x11x11x11'
        """
        return {"label": self.label.to_dict(), "polynomial": str(self.polynomial),
                "degree": self.degree()}


class InvariantFamily(Sequence):
    r"""
    An immutable sequence of :class:`Invariant` of one model.

    INPUT:

    - ``name`` -- string; the family's name (a key of ``FAMILIES``, or a
      union such as ``'linear+pencil'``)
    - ``model`` -- the model
    - ``invariants`` -- an iterable of :class:`Invariant`
    - ``note`` -- (default: ``''``) a sentence, e.g. why the family is empty

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants import low_rank_invariants
        sage: M = LightningAttention(d=2, t=2, a=1)
        sage: fam = low_rank_invariants(M)
        sage: len(fam), fam.name, fam.model is M
        (3, 'low_rank', True)
        sage: [f.degree() for f in fam.polynomials()]
        [2, 2, 2]
        sage: fam[1:].name, len(fam[1:])
        ('low_rank', 2)

    An empty family says why::

        sage: fam = low_rank_invariants(LightningAttention(d=2, t=2, a=2)); fam
        Family 'low_rank' of 0 invariants of LightningAttention(d=2, out=1, t=2, a=2) over Rational Field
        (empty: the flattening has only d = 2 columns, so rank <= a = 2 is no constraint)
    """

    def __init__(self, name, model, invariants=(), note=""):
        self._name = str(name)
        self._model = model
        self._invariants = tuple(invariants)
        self._note = str(note)
        for inv in self._invariants:
            if not isinstance(inv, Invariant):
                raise TypeError(f"invariants must be Invariant objects, got (={inv!r})")

    @property
    def name(self):
        r"""
        The family's name.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.invariants import pencil_invariants
            sage: pencil_invariants(LightningAttention(d=3, t=2, a=2)).name
            'pencil'
        """
        return self._name

    @property
    def model(self):
        r"""
        The model the invariants belong to.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.invariants import pencil_invariants
            sage: M = LightningAttention(d=3, t=2, a=2)
            sage: pencil_invariants(M).model is M
            True
        """
        return self._model

    @property
    def note(self):
        r"""
        A sentence about the family (for an empty family: why it is empty).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.invariants import pencil_invariants
            sage: pencil_invariants(LightningAttention(d=2, t=2, a=2)).note
            'empty: the 3 x 3 minors of the pencil need d >= 3 (here d = 2)'
        """
        return self._note

    def __getitem__(self, i):
        if isinstance(i, slice):
            return InvariantFamily(self._name, self._model, self._invariants[i], self._note)
        return self._invariants[i]

    def __len__(self):
        return len(self._invariants)

    def __eq__(self, other):
        return (isinstance(other, InvariantFamily) and self._name == other._name
                and self._model is other._model and self._invariants == other._invariants)

    def __hash__(self):
        return hash((self._name, self._invariants))

    def __add__(self, other):
        r"""
        Return the union of two families of the same model.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.invariants import linear_invariants, pencil_invariants
            sage: M = LightningAttention(d=3, t=2, a=1)
            sage: U = linear_invariants(M) + pencil_invariants(M)
            sage: U.name, len(U) == len(linear_invariants(M)) + len(pencil_invariants(M))
            ('linear+pencil', True)
        """
        if not isinstance(other, InvariantFamily):
            return NotImplemented
        if other._model is not self._model:
            raise ValueError("can only add families of the same model")
        names = [n for n in (self._name, other._name) if n]
        return InvariantFamily("+".join(names), self._model,
                               self._invariants + other._invariants)

    def polynomials(self):
        r"""
        Return the tuple of polynomials (elements of the coordinate ring).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.invariants import linear_invariants
            sage: M = LightningAttention(d=1, t=2, a=1)
            sage: linear_invariants(M).polynomials() == M.linear_relations()
            True
        """
        return tuple(inv.polynomial for inv in self._invariants)

    def labels(self):
        r"""
        Return the tuple of labels.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.invariants import linear_invariants
            sage: linear_invariants(LightningAttention(d=1, t=2, a=1)).labels()[0].family
            'linear'
        """
        return tuple(inv.label for inv in self._invariants)

    def degrees(self):
        r"""
        Return the sorted set of degrees that occur.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.invariants import rank_one_invariants
            sage: rank_one_invariants(LightningAttention(d=3, t=2, a=1)).degrees()
            (1, 2, 3)
        """
        return tuple(sorted({inv.degree() for inv in self._invariants}))

    def ideal(self):
        r"""
        Return the ideal of the coordinate ring generated by the family.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.invariants import low_rank_invariants
            sage: low_rank_invariants(LightningAttention(d=2, t=2, a=1)).ideal().ngens()
            3
        """
        return self._model.coordinate_ring().ideal(list(self.polynomials()))

    def __repr__(self):
        degs = self.degrees()
        deg = ""
        if len(degs) == 1:
            deg = f" of degree {degs[0]}"
        elif degs:
            deg = " of degrees " + ", ".join(str(x) for x in degs)
        text = f"Family '{self._name}' of {len(self)} invariants{deg} of {self._model}"
        if self._note and not len(self):
            text += f"\n({self._note})"
        return text

    def to_dict(self):
        r"""
        Return the family as a JSON-able dictionary (polynomials as strings).

        EXAMPLES::

            sage: import json
            sage: from sage_attention import LightningAttention
            sage: from sage_attention.invariants import pencil_invariants
            sage: d = pencil_invariants(LightningAttention(d=3, t=2, a=1)).to_dict()
            sage: sorted(d), d['degrees']
            (['degrees', 'invariants', 'model', 'name', 'note', 'size'], [3])
            sage: len(json.dumps(d)) > 100
            True
        """
        return {"name": self._name, "model": str(self._model), "size": len(self),
                "degrees": list(self.degrees()), "note": self._note,
                "invariants": [inv.to_dict() for inv in self._invariants]}


def check_model(model, what):
    r"""
    Raise ``ValueError`` unless ``model`` is a one-layer lightning network.

    TESTS::

        sage: from sage_attention import LightningAttention, SoftmaxAttention
        sage: from sage_attention.invariants.base import check_model
        sage: check_model(LightningAttention(d=2, t=2, a=1), 'pencil')
        sage: check_model(SoftmaxAttention(d=2, t=2, a=1), 'pencil')
        Traceback (most recent call last):
        ...
        ValueError: the pencil invariants are defined for one lightning layer; model (=SoftmaxAttention(d=2, out=1, t=2, a=1) over Rational Field) is not

    The families use the coordinates' divisions by `2` and `3`
    (:mod:`sage_attention.catalog.fields`)::

        sage: check_model(LightningAttention(d=2, t=2, a=1, base_ring=GF(2)), 'low_rank')
        Traceback (most recent call last):
        ...
        ValueError: the family low_rank needs a base field of characteristic 0 or > 3, not GF(2): the coordinates and the fiber divide by 2 and 3; take the model over QQ or GF(p) with p > 3
    """
    if not model.is_lightning() or model.nlayers() != 1:
        raise ValueError(f"the {what} invariants are defined for one lightning layer; "
                         f"model (={model}) is not")
    from sage_attention.catalog.fields import require_field
    require_field("brill" if what == "brill" else "invariants", model.base_ring(),
                  f"the family {what}")


def to_coordinates(model, polys_with_labels, name, note=""):
    r"""
    Return an :class:`InvariantFamily` from pairs ``(polynomial, label)``
    whose polynomials lie in the essential ring or the coordinate ring.

    Zero polynomials are dropped, and so are repeated ones (up to sign).
    """
    C = model.coordinate_ring()
    seen = set()
    out = []
    for p, label in polys_with_labels:
        if p == 0:
            continue
        # the essential ring's variables are coordinate ring variables of the
        # same names: conversion by name is much faster than the morphism
        p = C(p)
        key = p if p.lc() > 0 else -p
        if key in seen:
            continue
        seen.add(key)
        out.append(Invariant(p, label))
    return InvariantFamily(name, model, out, note)


def empty(model, name, note):
    r"""
    Return the empty family ``name`` of ``model`` with an explanatory ``note``.
    """
    return InvariantFamily(name, model, (), note)


def flattening(model, row):
    r"""
    Return the flattening `F` of :ref:`mathematics, §3 <math-3>` for one output row: the
    `D \times d` matrix over the essential ring with rows the pairs
    `\{a, b\}` (`a \le b`, lexicographic) and columns `c`, entries
    `T_{\{a,b\},c}`; and the list of row pairs.
    """
    from itertools import combinations_with_replacement
    from sage.all__sagemath_singular import matrix
    T = model.cross_tensor(row)
    d = model.d
    pairs = list(combinations_with_replacement(range(1, d + 1), 2))
    F = matrix(model.essential_ring(), len(pairs), d,
               [[T[a, b, c] for c in range(1, d + 1)] for a, b in pairs])
    return F, pairs


def slices(model, row):
    r"""
    Return the slices `M^{(c)} = (T_{\{r,s\},c})_{r,s}` (symmetric `d \times d`
    matrices over the essential ring), `c = 1, \dots, d`.
    """
    from sage.all__sagemath_singular import matrix
    T = model.cross_tensor(row)
    d = model.d
    E = model.essential_ring()
    return [matrix(E, d, d, [[T[min(r, s), max(r, s), c] for s in range(1, d + 1)]
                             for r in range(1, d + 1)]) for c in range(1, d + 1)]


def pencil_minor_coefficients(mats, I, J):
    r"""
    Return the coefficients of `\det(\sum_c \lambda_c N_c)_{I,J}` as a
    dictionary ``{exponent tuple: polynomial}``, computed by multilinearity
    in the columns (mixed determinants; no symbolic `\lambda`).
    """
    from itertools import product
    from sage.all__sagemath_singular import matrix
    n = len(mats)
    r = len(I)
    R = mats[0].base_ring()
    out = {}
    cols = [[[mats[c][i, j] for i in I] for c in range(n)] for j in J]
    for choice in product(range(n), repeat=r):
        e = [0] * n
        for c in choice:
            e[c] += 1
        m = matrix(R, r, r, [[cols[k][choice[k]][i] for k in range(r)] for i in range(r)])
        dm = m.det()
        if dm:
            key = tuple(e)
            out[key] = out.get(key, R.zero()) + dm
    return {k: v for k, v in out.items() if v}


def guard_family(model, name, force=False, **options):
    r"""
    Refuse to build the family ``name`` of ``model`` when its estimate is beyond the memory guard.

    The estimate (:func:`~sage_attention.catalog.family_costs.family_estimate`: members,
    terms, the matrices built on the way) is made from the model's sizes,
    before anything is built, and compared with
    :func:`~sage_attention.misc.memory.memory_limit`.

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``name`` -- the family's name
    - ``force`` -- boolean (default: ``False``); build it anyway
    - ``options`` -- the family's options (``limit``, ``r``, ``lines``, ``max_minors``)

    OUTPUT: ``None``, or :class:`~sage_attention.misc.errors.ComputationTooLarge`
    naming the estimate, the limit and ``force=True``

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.invariants.base import guard_family
        sage: guard_family(LightningAttention(d=3, t=2, a=3), 'syzygies')
        sage: guard_family(LightningAttention(d=6, t=2, a=6), 'syzygies')
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the family syzygies (about 53802 members of about 1440 terms) needs about ... GiB of memory (limit ...); take a smaller model; pass force=True to run it anyway
        sage: guard_family(LightningAttention(d=6, t=2, a=6), 'syzygies', force=True)
    """
    if force or model.nlayers() != 1:
        return
    from sage_attention.misc.memory import check_memory
    from sage_attention.catalog.family_costs import family_estimate
    entries = model.output_entries() if getattr(model, "entries", None) is not None else None
    est = family_estimate(name, model.widths, model.ranks, model.tokens, entries=entries,
                          options=options)
    if est is None:
        return
    hint = ("pass limit= for fewer members or take a smaller model" if name in LIMITED
            else "take a smaller model")
    if name == "sylvester":
        hint = "pass lines='coordinate' or take a smaller model"
    check_memory(est.nbytes, est.describe(), force, hint=hint)


#: The families that take ``limit=`` (a cap on their members).
LIMITED = ("low_rank", "pencil", "veronese", "rank_one", "chow", "single_token_low_rank",
           "rows", "brill")
