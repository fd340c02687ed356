r"""
The cost model of the invariant families

Before an invariant family is built, :func:`family_estimate` estimates how
many polynomials it builds, how many terms a member has, and the peak
memory of building it (the members plus the matrices built on the way).
The size guard refuses a family whose estimate is beyond this machine
(:func:`sage_attention.misc.memory.check_memory`), in ``sage-attention
check`` and in the library alike, so the estimate needs no Sage.

Each family has one entry in the table :data:`FAMILY_COSTS`: a formula
from the model (a :class:`FamilyShape`: `d` the input width, `a` the rank,
`t` the tokens, `R` the kept output rows, `D = d(d+1)/2`, `b` the bytes of
a term) to ``(members, terms, aux)``, or ``None`` where the family is
empty. A family that is the union of others is an entry of
:data:`FAMILY_UNIONS`. The formulas were calibrated against the peak
resident memory of the build, measured in a child process
(``resource.getrusage``) on the sizes named in each formula's comments;
the estimate is within a factor of about `3` of the measurement there and
grows like the measurements from one size to the next. A new family adds
one formula and one entry (the family itself is an entry of
:data:`sage_attention.catalog.families.FAMILIES`).

EXAMPLES::

    sage: from sage_attention.catalog.family_costs import FAMILY_COSTS, family_estimate
    sage: from sage_attention.catalog.families import FAMILIES
    sage: sorted(FAMILY_COSTS) == sorted(set(FAMILIES) - {"rank_one"})
    True
    sage: family_estimate("pencil", (4, 2), (2,), 2)
    FamilyEstimate(family='pencil', members=400, terms=6, nbytes=...)
    sage: family_estimate("rank_one", (3, 1), (1,), 2).members
    111
"""
from dataclasses import dataclass
from math import comb, factorial

from sage_attention.catalog.model_sizes import estimate_size


def term_bytes(nvariables):
    r"""
    Return the bytes one term of a polynomial takes in a ring with ``nvariables`` variables.

    A Singular monomial packs the exponent vector (about two bytes a
    variable) after a header and the coefficient. Calibrated with the
    invariant families (:func:`family_estimate`): the peak resident memory
    of building a family, measured in a child process (``ru_maxrss`` minus
    the resident memory before the call), divided by the number of terms it
    returned, is between `0.5` and `3` times this figure on the measured
    sizes (the rest is the intermediate matrices, counted apart).

    EXAMPLES::

        sage: from sage_attention.catalog.family_costs import term_bytes
        sage: term_bytes(56)
        176
    """
    return 2 * int(nvariables) + 64


@dataclass(frozen=True)
class FamilyEstimate:
    r"""
    The size of an invariant family, estimated before it is built.

    Attributes: ``family`` (its name), ``members`` (how many polynomials it
    builds, before zero and repeated ones are dropped), ``terms`` (the
    terms of a typical member), ``nbytes`` (the estimated peak memory of
    building it: the members plus the matrices built on the way).

    EXAMPLES::

        sage: from sage_attention.catalog.family_costs import family_estimate
        sage: family_estimate("syzygies", (3, 1), (3,), 2)
        FamilyEstimate(family='syzygies', members=10, terms=12, nbytes=...)
    """
    family: str
    members: int
    terms: int
    nbytes: int

    def describe(self):
        r"""
        Return what would be built, for a refusal.

        EXAMPLES::

            sage: from sage_attention.catalog.family_costs import family_estimate
            sage: family_estimate("pencil", (4, 2), (2,), 2).describe()
            'the family pencil (about 400 members of about 6 terms)'
        """
        return (f"the family {self.family} (about {self.members} members of about "
                f"{self.terms} terms)")


@dataclass(frozen=True)
class FamilyShape:
    r"""
    A one-layer lightning model as the cost formulas see it.

    Attributes: ``d`` (the input width), ``a`` (the rank), ``t`` (the
    tokens), ``R`` (the kept output rows), ``D`` (`d(d+1)/2`), ``C`` (the
    coordinates), ``b`` (:func:`term_bytes` of the coordinate ring) and
    ``options`` (the family's options, a dictionary).

    EXAMPLES::

        sage: from sage_attention.catalog.family_costs import FamilyShape
        sage: FamilyShape.of((3, 1), (2,), 2)
        FamilyShape(d=3, a=2, t=2, R=1, D=6, C=56, b=176, options={})
    """
    d: int
    a: int
    t: int
    R: int
    D: int
    C: int
    b: int
    options: dict

    @classmethod
    def of(cls, widths, ranks, tokens, entries=None, options=None):
        r"""
        Return the shape of the one-layer model ``widths``, ``ranks``, ``tokens``, ``entries``.

        EXAMPLES::

            sage: from sage_attention.catalog.family_costs import FamilyShape
            sage: FamilyShape.of((4, 2), (2,), 3, entries=[(1, 1), (1, 2)], options={"limit": 5}).R
            1
        """
        widths = tuple(int(w) for w in widths)
        d, a, t = widths[0], int(ranks[0]), int(tokens)
        R = int(widths[-1]) if entries is None else len({i for i, _ in entries})
        C = estimate_size(widths, ranks, t, entries=entries).coordinates
        return cls(d, a, t, R, d * (d + 1) // 2, C, term_bytes(C), dict(options or {}))

    @property
    def limit(self):
        r"""
        Return the option ``limit`` (or ``None``).

        EXAMPLES::

            sage: from sage_attention.catalog.family_costs import FamilyShape
            sage: FamilyShape.of((3, 1), (1,), 2, options={"limit": 4}).limit
            4
        """
        return self.options.get("limit")


# -- the formulas: a shape -> (members, terms of a member, bytes of the matrices built on the
#    way), or None where the family is empty

def _linear(m):
    # a linear relation is a difference of two coordinates, or about three terms
    if m.t < 2:
        return None
    return m.C, 3, 0


def _low_rank(m):
    # the (a+1)-minors of each of the R flattenings of D x d
    if m.t < 2 or m.a >= m.d:
        return None
    return m.R * comb(m.D, m.a + 1) * comb(m.d, m.a + 1), factorial(m.a + 1), 0


def _pencil(m):
    # per row, a cubic for each pair of the comb(d, 3) pencils and each cubic monomial
    if m.t < 2 or m.d < 3:
        return None
    P = comb(m.d, 3)
    return m.R * P * (P + 1) // 2 * comb(m.d + 2, 3), 6, 0


def _syzygies(m):
    # The relations among the comb(D, d) maximal minors of Phi(v), forms
    # of degree d in d variables: K = comb(D, d) - comb(2d - 1, d) of
    # them (measured: 10, 175 for d = 3, 4). A dense rational left
    # kernel of K x comb(D, d) entries (about 200 bytes each, with the
    # echelon copy), the comb(D, d) determinants of d! terms of each
    # row, and K members of about 2 d! terms (measured: 10, 39 and 179
    # terms a member for d = 3, 4, 5). Measured peaks: 4 MiB (d = 3),
    # 19 MiB (d = 4), 28 MiB (d = 4, two rows), 2100 MiB (d = 5, 136 s;
    # estimated 2150 MiB), most of it the rational kernel.
    d = m.d
    if m.t < 2 or d < 3:
        return None
    nm, nf = comb(m.D, d), comb(2 * d - 1, d)
    K = max(nm - nf, 0)
    aux = 200 * K * nm + nm * factorial(d) * m.b + 40 * nm * nf
    return m.R * K, 2 * factorial(d), aux


def _veronese(m):
    # Per row and r: comb(d, r)^2 index sets, each with r^r mixed
    # determinants of r x r slices, and the 2 x 2 minors of the
    # catalecticants Cat_k (k <= r/2). Terms of a member: measured 7
    # (r = 2), 176 (r = 3) and 5630 (r = 4, the first three members) on
    # d = 4; taken as 7 * 30^(r - 2). Measured peaks (d = 4): 1 MiB
    # (r = 2), 65 MiB (r = 3, estimated 40 MiB); r = 4 passed 7 GiB
    # before it was stopped (estimated 5.6 GiB: 3165 members of about
    # 6300 terms).
    if m.t < 2:
        return None
    top = min(m.d, m.a)
    r = m.options.get("r")
    rs = list(range(2, top + 1)) if r is None else (
        list(r) if isinstance(r, (list, tuple)) else [int(r)])
    rs = [x for x in rs if 2 <= x <= top]
    if not rs:
        return None
    members, weighted = 0, 0
    for rr in rs:
        per = sum(comb(comb(k + rr - 1, k), 2) * comb(comb(2 * rr - k - 1, rr - k), 2)
                  for k in range(1, rr // 2 + 1))
        n = m.R * comb(m.d, rr) ** 2 * per
        members += n
        weighted += n * 7 * 30 ** (rr - 2)
    return members, max(weighted // max(members, 1), 1), 0


def _sylvester(m):
    # 'coordinate': comb(d, 2) lines times comb(d, 2) pairs of slices a
    # row, quartics of about 7 terms (measured, d = 4: 36 members, 252
    # terms, 2 MiB). 'generic': a basis of the quartics of the generic
    # resultant (d = 3: 90 members of about 1200 terms, 41 MiB
    # measured); the basis grows with the square and the terms with
    # the fourth power of the number V = d D of slice entries.
    d = m.d
    if m.t < 2 or d < 2:
        return None
    lines = m.options.get("lines")
    if lines is None:
        lines = "generic" if d <= 3 else "coordinate"
    V = d * m.D
    if lines == "generic":
        members = max(m.R * 90 * V * V // 324, 1)
        terms = max(min(1200 * V ** 4 // 18 ** 4, comb(V + 3, 4)), 1)
        return members, terms, 8 * 4 * members * 64 * 16
    nlines = comb(d, 2) if lines == "coordinate" else len(list(lines))
    return m.R * nlines * comb(d, 2), 8, 0


def _chow(m):
    # Maximal minors (d^2 - 1 columns) of a comb(d + 2, 3)-row matrix of
    # coordinates; measured for d = 3: 45 minors of about 200 terms,
    # 2 MiB. A minor of size n has at most n! terms; about 200 for n = 8
    # is n!/200, kept as the ratio for larger n.
    d = m.d
    if m.t != 1 or d < 3:
        return None
    n_rows, n_cols = comb(d + 2, 3), d * d - 1
    members = m.R * comb(n_rows, n_cols)
    if m.limit is None:
        members = min(members, m.R * (m.options.get("max_minors") or 2000))
    return members, max(factorial(n_cols) // 200, 1), 0


def _single_token_low_rank(m):
    # the (2a+2)-minors of each output row's d x d matrix
    s = 2 * m.a + 2
    if m.t != 1 or s > m.d:
        return None
    return m.R * comb(m.d, s) ** 2, factorial(s), 0


def _rows(m):
    # for each pair of rows: minors of the stacked flattenings (t = 1: of the
    # quartic's catalecticant), or their syzygies when a = d; plus the
    # pencils of the pair (t >= 2, d >= 3)
    d, a, R = m.d, m.a, m.R
    if R < 2:
        return None
    pairs = R * (R - 1) // 2
    aux = 0
    if m.t == 1:
        members = pairs * comb(comb(d + 3, 4), 2 * d)
        if m.limit is None:
            members = min(members, pairs * (m.options.get("max_minors") or 10000))
        terms = factorial(2 * d)
    elif a < d:
        members = pairs * comb(2 * m.D, a + 1) * comb(d, a + 1)
        terms = factorial(a + 1)
    else:
        nm, nf = comb(2 * m.D, d), comb(2 * d + d - 1, d)
        members = pairs * max(nm - nf, 0)
        terms = 2 * factorial(d)
        aux = 80 * max(nm - nf, 0) * nm + nm * factorial(d) * m.b
    if m.t >= 2 and d >= 3:
        P = comb(d, 3)
        members += pairs * P * (P + 1) // 2 * comb(2 * d + 2, 3)
    return members, terms, aux


def _brill(m):
    # The span of Brill's quartics: an echelon form of (rank) x
    # comb(n + 3, 4) residues (n the cubic's coefficients: 10 for
    # d = 3, 20 for d = 4), three copies, and rank members (35 for
    # d = 3, 875 for d = 4) of at most comb(n + 3, 4) terms.
    if m.t != 1 or m.a != 1 or m.d < 3:
        return None
    ncols = comb(comb(m.d + 2, 3) + 3, 4)
    rank = {3: 35, 4: 875}.get(m.d, ncols)
    return m.R * rank, ncols, 3 * 8 * rank * ncols


#: family name -> its cost formula (a :class:`FamilyShape` -> ``(members, terms, aux)`` or
#: ``None``); the option ``limit`` caps the members afterwards
FAMILY_COSTS = {
    "linear": _linear,
    "low_rank": _low_rank,
    "pencil": _pencil,
    "syzygies": _syzygies,
    "veronese": _veronese,
    "sylvester": _sylvester,
    "chow": _chow,
    "single_token_low_rank": _single_token_low_rank,
    "rows": _rows,
    "brill": _brill,
}

#: family name -> (the families it is the union of, when it applies): it costs their sum
FAMILY_UNIONS = {
    "rank_one": (("linear", "low_rank", "pencil"), lambda m: m.t >= 2 and m.a == 1),
}


def family_estimate(name, widths, ranks, tokens, entries=None, options=None):
    r"""
    Estimate the invariant family ``name`` of a one-layer lightning model before it is built.

    INPUT:

    - ``name`` -- a family name (see :data:`sage_attention.catalog.families.FAMILIES`)
    - ``widths``, ``ranks``, ``tokens``, ``entries`` -- the model, as for
      :func:`~sage_attention.catalog.model_sizes.estimate_size` (one layer)
    - ``options`` -- (default: ``None``) the family's options (``limit``,
      ``r``, ``lines``, ``max_minors``)

    OUTPUT: a :class:`FamilyEstimate`, or ``None`` when the family does not
    apply (it is empty), is unknown, or the model has several layers

    The formulas are those of :data:`FAMILY_COSTS` (see the module
    documentation); the peak memory is the members' terms at
    :func:`term_bytes` each, plus the matrices built on the way.

    EXAMPLES::

        sage: from sage_attention.catalog.family_costs import family_estimate
        sage: family_estimate("syzygies", (4, 1), (4,), 2).members
        175
        sage: family_estimate("syzygies", (5, 1), (5,), 2).nbytes > 2**30
        True
        sage: family_estimate("veronese", (4, 1), (4,), 2, options={"r": 3}).members
        720
        sage: family_estimate("chow", (3, 1), (1,), 2) is None
        True

    TESTS::

        sage: family_estimate("pencil", (4, 2), (2,), 2, options={"limit": 10}).members
        10
        sage: family_estimate("pencil", (3, 3, 1), (1, 1), 2) is None
        True
    """
    if len(tuple(ranks)) != 1:
        return None
    if name in FAMILY_UNIONS:
        names, applies = FAMILY_UNIONS[name]
        if not applies(FamilyShape.of(widths, ranks, tokens, entries, options)):
            return None
        parts = [family_estimate(n, widths, ranks, tokens, entries, options) for n in names]
        parts = [p for p in parts if p is not None]
        return FamilyEstimate(name, sum(p.members for p in parts), max(p.terms for p in parts),
                              sum(p.nbytes for p in parts))
    formula = FAMILY_COSTS.get(name)
    if formula is None:
        return None
    shape = FamilyShape.of(widths, ranks, tokens, entries, options)
    cost = formula(shape)
    if cost is None:
        return None
    members, terms, aux = cost
    if shape.limit is not None:
        members = min(members, int(shape.limit))
    return FamilyEstimate(name, members, terms, members * terms * shape.b + aux)


__all__ = ["FamilyEstimate", "FamilyShape", "FAMILY_COSTS", "FAMILY_UNIONS", "family_estimate",
           "term_bytes"]
