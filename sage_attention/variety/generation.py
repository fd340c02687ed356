r"""
Do the invariant families generate the vanishing ideal?

[ADM2026]_ reports that in small dimensions the invariant families recover
the generators of the vanishing ideal. :func:`generation_report` checks this
for one model, family by family and for their union:

- every member is in the vanishing ideal (exact: sent to the essential
  coordinates and composed with a free parametrization of the model, the
  test of :func:`~sage_attention.variety.membership.vanishes_on_model`,
  done with FLINT's multivariate polynomials);
- the ideal `J` the family generates, together with the linear relations,
  is compared with the vanishing ideal `I = I(X)` computed independently
  (elimination or interpolation,
  :class:`~sage_attention.variety.neurovariety.Neurovariety`), in the essential
  coordinates. Nothing is saturated: a family that cuts out the variety
  only set-theoretically is reported as *not* generating;
- the minimal generators of `I` that the family misses are counted by
  degree: `\dim I_k - \dim (J_k + (I_{<k}))_k`, the number of new
  generators of `I` in degree `k` not accounted for by the family.

Both ideals are homogeneous and `I` is generated in degrees at most `D`
(the largest degree of its minimal generators), so `J = I` iff
`J_k = I_k` for `k \le D`. In degree `k`, `\dim I_k` is read off the
Hilbert series of `I` (exact), and `J_k` is the span of the products of the
members with monomials, echelonized modulo `p = 8388593`: since `J \subseteq I`
(checked exactly) and a rank can only drop modulo `p`, a rank equal to
`\dim I_k` proves `J_k = I_k`; a smaller rank is confirmed with a second
prime (the family's counts of minimal generators and missing generators
are these ranks modulo the prime). The minimal generators of `I` counted
here are those of degree at most `D`.

Two shortcuts keep this cheap; both are exact statements about ranks
modulo `p`. Let `L` be the span of the products of the minimal generators
of `I` of degree `< k` and `Q` the minimal generators of degree `k`
reduced modulo `L`; when `\dim L + \operatorname{rank} Q = \dim I_k`
modulo `p` (else the shortcuts are skipped), `L` and `Q` together form an
echelon basis of (the reduction of) `I_k`, which is the identity on their
pivot columns up to a triangular block, so an element of `I_k` is
determined by its entries there. Hence the rank of any set of elements of
`I_k` is the rank of those `\dim I_k` columns: the products of the members
of a family inside `I` (checked exactly) are written on those columns only,
and the span of the union of the families is the sum of the spans computed
for each family; and `\dim (J_k + L)` is `\dim L` plus the rank of `J_k` reduced modulo
`L` on the pivot columns of `Q` (`\dim I_k - \dim L` columns).

When a degree has more than :data:`DENSE_LIMIT` monomials, or a member is
not homogeneous, the comparison uses Gröbner bases of the families' ideals
truncated at degree `D` instead.

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.variety.generation import generation_report
    sage: M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
    sage: G = generation_report(M, families=['linear', 'low_rank']); G
    Generation report for LightningAttention(d=2, out=1, t=2, a=1, entries=((1, 1),)) over Rational Field:
    the families generate the vanishing ideal (minimal generators by degree {1: 4, 2: 3}).
    sage: print(G.table())
    family   | members | in I(X) | minimal generators | generates | missing | seconds
    ---------+---------+---------+--------------------+-----------+---------+--------
    linear   | 4       | yes     | {1: 4}             | no        | {2: 3}  | ...
    low_rank | 3       | yes     | {1: 4, 2: 3}       | yes       | {}      | ...
    all      | 7       | yes     | {1: 4, 2: 3}       | yes       | {}      | ...
    sage: G.to_dict()['families_generate']
    True
"""
# sage.doctest: needs sage.libs.singular
import logging
import time
from itertools import chain
from dataclasses import dataclass, replace

import numpy as np

from sage.all__sagemath_singular import QQ, lcm
from sage_attention.ideals.evaluation import to_flint
from sage_attention.ideals.forked import available_cores, map_in_children
from sage_attention.ideals.linalg_modp import matmul_modp, reduce_modulo
from sage_attention.ideals.minimal_generators import minimal_generator_counts, truncated_groebner_basis

logger = logging.getLogger("sage_attention")

SATURATION_NOTE = ("ideal equality by Gröbner bases in the essential coordinates, "
                   "with the linear relations added; no saturation is assumed")


@dataclass(frozen=True)
class GenerationRow:
    r"""
    One row of a :class:`GenerationReport`: one family (or their union ``'all'``).

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.generation import generation_report
        sage: r = generation_report(LightningAttention(d=2, t=2, a=2, entries=[(1, 1)]), ['linear']).rows[0]
        sage: r.family, r.generates, r.missing
        ('linear', False, {4: 1})
    """
    family: str
    members: int
    degrees: tuple
    contained: bool
    generators_by_degree: dict
    generates: bool
    missing: dict
    seconds: float
    note: str = ""

    def to_dict(self):
        r"""
        Return a JSON-ready dictionary.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.generation import generation_report
            sage: generation_report(LightningAttention(d=1, t=2, a=1), ['linear']).rows[0].to_dict()['generates']
            True
        """
        return {"family": self.family, "members": self.members, "degrees": list(self.degrees),
                "contained": self.contained,
                "generators_by_degree": {str(k): v for k, v in self.generators_by_degree.items()},
                "generates": self.generates,
                "missing": {str(k): v for k, v in self.missing.items()},
                "seconds": self.seconds, "note": self.note}


@dataclass(frozen=True)
class GenerationReport:
    r"""
    Whether the invariant families generate the vanishing ideal of a model.

    Attributes: ``model``, ``rows`` (:class:`GenerationRow`, the last one is
    the union ``'all'``), ``generators_by_degree`` (of the vanishing ideal),
    ``families_generate`` (``None`` when the union was not compared),
    ``algorithm`` (how the vanishing ideal was computed), ``complete``
    (whether that ideal is complete), ``seconds`` (computing it), ``note``,
    ``interrupted`` (Ctrl-C stopped the report: ``rows`` holds the rows
    finished before).

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.generation import generation_report
        sage: G = generation_report(LightningAttention(d=1, t=2, a=1), ['linear'])
        sage: G.families_generate, G.complete
        (True, True)
    """
    model: str
    rows: tuple
    generators_by_degree: dict
    families_generate: bool
    algorithm: str
    complete: bool
    seconds: float
    note: str = SATURATION_NOTE
    interrupted: bool = False

    def __repr__(self):
        if self.families_generate is None:
            s = (f"Generation report for {self.model}:\nINTERRUPTED after {len(self.rows)} "
                 f"row(s), the union of the families was not compared with the vanishing ideal "
                 f"(minimal generators by degree {self.generators_by_degree})")
        else:
            verb = "generate" if self.families_generate else "do not generate"
            s = (f"Generation report for {self.model}:\nthe families {verb} the vanishing ideal "
                 f"(minimal generators by degree {self.generators_by_degree})")
            if self.interrupted:
                s += "; INTERRUPTED"
        if not self.complete:
            s += "; WARNING: the vanishing ideal is only known up to the degree computed"
        return s + "."

    def table(self):
        r"""
        Return the report as a text table.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.generation import generation_report
            sage: print(generation_report(LightningAttention(d=1, t=2, a=1), ['linear']).table())
            family | members | in I(X) | minimal generators | generates | missing | seconds
            -------+---------+---------+--------------------+-----------+---------+--------
            linear | 3       | yes     | {1: 3}             | yes       | {}      | ...
            all    | 3       | yes     | {1: 3}             | yes       | {}      | ...
        """
        head = ["family", "members", "in I(X)", "minimal generators", "generates", "missing",
                "seconds"]
        body = [[r.family, str(r.members), "yes" if r.contained else "NO",
                 str(r.generators_by_degree), "yes" if r.generates else "no", str(r.missing),
                 f"{r.seconds:.2f}"] for r in self.rows]
        widths = [max(len(x) for x in col) for col in zip(head, *body)]
        fmt = lambda row: " | ".join(x.ljust(w) for x, w in zip(row, widths)).rstrip()
        lines = [fmt(head), "-+-".join("-" * w for w in widths)]
        lines += [fmt(r) for r in body]
        if self.interrupted:
            lines.append("(interrupted: the rows above are the finished ones)")
        return "\n".join(lines)

    def _repr_html_(self):
        r"""
        Return the table of the report in HTML (Jupyter's rich display).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.generation import generation_report
            sage: h = generation_report(LightningAttention(d=1, t=2, a=1), ['linear'])._repr_html_()
            sage: '<tr><td>linear</td><td>3</td><td>yes</td><td>{1: 3}</td>' in h
            True
        """
        from sage_attention.html import html_table
        body = [(r.family, r.members, "yes" if r.contained else "NO", r.generators_by_degree,
                 "yes" if r.generates else "no", r.missing, f"{r.seconds:.2f}") for r in self.rows]
        return html_table(body, header=["family", "members", "in I(X)", "minimal generators",
                                        "generates", "missing", "seconds"], caption=repr(self))

    def to_dict(self):
        r"""
        Return a JSON-ready dictionary.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.generation import generation_report
            sage: sorted(generation_report(LightningAttention(d=1, t=2, a=1), ['linear']).to_dict())
            ['algorithm', 'complete', 'families_generate', 'generators_by_degree', 'interrupted', 'model', 'note', 'rows', 'seconds']
        """
        return {"model": self.model, "rows": [r.to_dict() for r in self.rows],
                "generators_by_degree": {str(k): v for k, v in self.generators_by_degree.items()},
                "families_generate": self.families_generate, "algorithm": self.algorithm,
                "complete": self.complete, "seconds": self.seconds, "note": self.note,
                "interrupted": self.interrupted}


#: Degrees with more monomials than this are compared by Gröbner bases
#: instead of dense linear algebra.
DENSE_LIMIT = 30000

#: The primes of the degree-by-degree comparison.
PRIMES = (8388593, 8388587)


class _Inhomogeneous(ValueError):
    r"""
    A member is not homogeneous: the degree-by-degree comparison does not apply.
    """


class _Composer:
    r"""
    Exact composition with FLINT: a polynomial of the coordinate ring is sent
    to the essential ring (the linear substitution of :meth:`to_essential`)
    and then composed with the free parametrization
    (:func:`~sage_attention.variety.membership.free_images`).

    The FLINT contexts are over `\ZZ` when the images have integer
    coefficients (the usual case; composition is cheaper there), and each
    polynomial is taken as its primitive integer multiple, which changes
    neither its vanishing nor the spans. A polynomial that involves only
    the essential coordinates (which :meth:`to_essential` fixes) is read
    off directly from its exponents, with no substitution.
    """

    def __init__(self, model):
        import flint
        from sage_attention.variety.membership import free_images
        self.C, self.E = model.coordinate_ring(), model.essential_ring()
        images = free_images(model, "essential")
        W = images[0].parent()
        to_E = model.to_essential()
        linear = [to_E(x) for x in self.C.gens()]
        integral = all(f.denominator() == 1 for f in list(images) + linear)
        Q = flint.fmpz_mpoly_ctx if integral else flint.fmpq_mpoly_ctx
        self.wctx = Q.get(tuple(f"w{i}" for i in range(W.ngens())), "degrevlex")
        self.ectx = Q.get(tuple(f"y{i}" for i in range(self.E.ngens())), "degrevlex")
        self.cctx = Q.get(tuple(f"x{i}" for i in range(self.C.ngens())), "degrevlex")
        self.images = [to_flint(self.wctx, f) for f in images]
        self.linear = [to_flint(self.ectx, f) for f in linear]
        # the coordinates that to_essential fixes: an essential variable of the same name
        names = [str(x) for x in self.C.gens()]
        self.fixed = [names.index(str(y)) if str(y) in names else None for y in self.E.gens()]
        if None in self.fixed or any(linear[i] != self.E.gen(j) for j, i in enumerate(self.fixed)):
            self.fixed = None
        else:
            self.others = [i for i in range(len(names)) if i not in set(self.fixed)]

    def essential(self, f):
        r"""
        Return ``(g, exps, coeffs)`` for a nonzero ``f`` in the coordinate or the essential ring.

        ``g`` is the image of ``f`` in the essential ring as a FLINT
        polynomial, up to a nonzero rational factor; ``exps`` is its
        exponent array (``int16``, one row per term) and ``coeffs`` its
        coefficients cleared of denominators (Python integers), in the same
        order. ``g`` may be zero.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.generation import _Composer
            sage: M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
            sage: K = _Composer(M); C = M.coordinate_ring(); x = C.gens()
            sage: g, exps, coeffs = K.essential(x[0]^2/2 - x[0]*x[1]); g, coeffs
            (y0^2 - 2*y0*y1, [1, -2])
            sage: K.vanishes(g)
            False
            sage: all(K.vanishes(K.essential(r)[0]) for r in M.linear_relations())  # substituted
            True
        """
        if f.parent() is not self.E:
            f = self.C(f)
        cs = f.coefficients()
        den = f.denominator()       # the members are mostly integral: then no multiplication
        terms = f.exponents(as_ETuples=False)
        n = f.parent().ngens()
        exps = np.fromiter(chain.from_iterable(terms), dtype=np.int16, count=len(terms) * n).reshape(-1, n)
        if f.parent() is not self.E:
            if self.fixed is None or exps[:, self.others].any():
                return self._substituted(f * den)
            exps = exps[:, self.fixed]
            terms = map(tuple, exps.tolist())
        coeffs = [int(c) for c in cs] if den == 1 else [int(c * den) for c in cs]
        return self.ectx.from_dict(dict(zip(terms, coeffs))), exps, coeffs

    def _substituted(self, f):
        r"""
        Return :meth:`essential` of ``f`` by the linear substitution.
        """
        g = to_flint(self.cctx, f).compose(*self.linear, ctx=self.ectx)
        coeffs = list(g.coeffs())
        if coeffs and hasattr(coeffs[0], "q"):          # over QQ: clear the denominators
            den = 1
            for c in coeffs:
                den = lcm(den, int(c.q))
            coeffs = [int(c.p) * (den // int(c.q)) for c in coeffs]
        else:
            coeffs = [int(c) for c in coeffs]
        monoms = g.monoms()
        exps = np.fromiter(chain.from_iterable(monoms), dtype=np.int16,
                           count=len(monoms) * self.ectx.nvars()).reshape(-1, self.ectx.nvars())
        return g, exps, coeffs

    def vanishes(self, g):
        r"""
        Return whether the essential polynomial ``g`` (FLINT) vanishes on the model (exact).
        """
        return g.compose(*self.images, ctx=self.wctx).is_zero()


class _Members:
    r"""
    The members of one family in the essential coordinates, with their exact membership in `I(X)`.

    ``contained`` is exact (FLINT composition); ``terms`` is a list of
    ``(exponent array, integer coefficients, degree)`` (each member taken
    as its primitive integer multiple), ``homogeneous`` whether every
    member is.
    """

    def __init__(self, composer, polys):
        self.contained = True
        self.terms = []
        self.homogeneous = True
        for f in polys:
            if not f:
                continue
            g, exps, coeffs = composer.essential(f)
            if self.contained and not composer.vanishes(g):
                self.contained = False
            if g.is_zero():
                continue
            tot = exps.sum(axis=1)
            if (tot != tot[0]).any():
                self.homogeneous = False
            self.terms.append((exps, coeffs, int(tot.max())))
        self._res = {}

    def rows(self, p):
        r"""
        Return ``[(exponent array, residues mod p, degree)]``.
        """
        if not self.homogeneous:
            raise _Inhomogeneous()
        if p not in self._res:
            self._res[p] = [(e, _residues_of_ints(cs, p), k) for e, cs, k in self.terms]
        return self._res[p]

    def polynomials(self, E):
        r"""
        Return the members (nonzero, up to constant factors) as polynomials of the essential ring ``E``.
        """
        return [E(dict(zip(map(tuple, exps.tolist()), coeffs))) for exps, coeffs, _ in self.terms]


def _residues_of_ints(cs, p):
    r"""
    Return the residues modulo ``p`` of the Python integers ``cs`` as an ``int64`` array.

    EXAMPLES::

        sage: from sage_attention.variety.generation import _residues_of_ints
        sage: _residues_of_ints([-1, 7, 2^70 + 3], 5).tolist()
        [4, 2, 2]
    """
    try:
        return np.array(cs, dtype=np.int64) % p      # vectorized when every coefficient fits
    except OverflowError:
        return np.array([c % p for c in cs], dtype=np.int64)


def _sage_rows(polys, p):
    r"""
    Return ``[(exponent array, residues mod p, degree)]`` for the nonzero homogeneous Sage polynomials ``polys``.
    """
    from sage_attention.ideals.product_span import residues
    return [(np.array([list(e) for e in f.exponents()], dtype=np.int16),
             residues(f.coefficients(), p), int(f.degree())) for f in polys if f]


def _ideal_dimensions(E, K, bound):
    r"""
    Return ``{k: dim K_k}`` for `k \le` ``bound`` (exact: Hilbert series of the homogeneous ideal ``K``).
    """
    from sage.all__sagemath_singular import PowerSeriesRing, binomial
    n = E.ngens()
    gens = [g for g in K.gens() if g]
    if not gens:
        return {k: 0 for k in range(1, bound + 1)}
    HS = E.ideal(gens).hilbert_series()
    T = PowerSeriesRing(QQ, "t", default_prec=bound + 2)
    s = T(HS.numerator()) / T(HS.denominator())
    return {k: int(binomial(n + k - 1, k) - s[k]) for k in range(1, bound + 1)}


class _Spans:
    r"""
    The degree parts of the families' ideals modulo primes, kept so that the
    union reuses them.

    ``span(key, k, p)`` returns ``(low, full)``: the echelon forms modulo
    ``p`` (rows and rank) of the span in degree ``k`` of the products of the members of
    degree `< k` with monomials, and of all members (both stop growing at
    ``dims[k]``, the exact `\dim I(X)_k`, an upper bound).
    """

    def __init__(self, n, dims, kmin):
        from sage_attention.ideals.product_span import monomials
        self.n, self.dims, self.kmin = n, dims, kmin
        self.mons = {k: monomials(n, k) for k in dims}
        self.members = {}
        self.cache = {}
        self._kmin_rows = {}

    def products(self, members, k):
        from sage_attention.ideals.product_span import monomials
        return [(monomials(self.n, k - deg), [(exps, res)]) for exps, res, deg in members]

    def new(self, k, p, columns=None):
        from sage_attention.ideals.product_span import ProductSpan
        return ProductSpan(self.mons[k], p, self.dims[k], columns=columns)

    def columns(self, k, p):
        r"""
        Return the columns on which an element of `I(X)_k` is determined (the pivots of ``L`` and ``quotient``), or ``None`` (bad prime).
        """
        L, quotient = self.lower(k, p)
        if quotient is None:
            return None
        return sorted(set(L[1]) | set(quotient[1]))

    def span(self, key, k, p, restrict=True):
        r"""
        Return ``(low, full, columns)``, ``low`` and ``full`` each ``(rows, rank)``, for the family ``key``.

        When the family is in `I(X)` (exact) and the prime is good, the
        rows are written on :meth:`columns` only (``restricted`` in the
        cache key), which keeps the ranks.
        """
        cols = self.columns(k, p) if restrict and self.members[key].contained else None
        ck = (key, k, p, cols is not None)
        if ck not in self.cache:
            members = self.members[key].rows(p)
            S = self.new(k, p, cols)
            S.add(self.products([m for m in members if m[2] < k], k))
            low = (S.R.astype(np.int32), S.rank)
            S.add(self.products([m for m in members if m[2] == k], k))
            self.cache[ck] = (low, (S.R.astype(np.int32), S.rank), cols)
        return self.cache[ck]

    def union(self, keys, k, p):
        r"""
        Return ``(low, full, columns)`` as :meth:`span` does, for the union of the families ``keys``.

        The spans of the families are added. When every family is in `I(X)`
        and the prime is good (:meth:`lower`), a vector of `I(X)_k` is
        determined by its entries at the pivots of ``L`` and of
        ``quotient`` (the echelon basis of `I(X)_k` they form is the
        identity there, up to a triangular block), so the spans are written
        on those columns only.
        """
        from sage_attention.ideals.linalg_modp import rref_modp, rank_modp
        restrict = all(self.members[key].contained for key in keys)
        parts = [self.span(key, k, p, restrict) for key in keys]
        cols = parts[0][2] if parts else None
        out = []
        for which in (0, 1):
            rows = [part[which][0] for part in parts if part[which][1]]
            if not rows:
                width = len(self.mons[k]) if cols is None else len(cols)
                out.append((np.zeros((0, width), dtype=np.int32), 0))
                continue
            R = np.concatenate(rows).astype(np.int64)
            if cols is not None:
                out.append((R, rank_modp(R, p)))
            else:
                R, piv = rref_modp(R, p)
                out.append((R, len(piv)))
        return tuple(out) + (cols,)

    def kmin_rows(self, p):
        if p not in self._kmin_rows:
            self._kmin_rows[p] = _sage_rows(self.kmin, p)
        return self._kmin_rows[p]

    def lower(self, k, p):
        r"""
        Return ``(L, quotient)`` in degree ``k`` modulo ``p``.

        ``L`` is the echelon form ``(rows, pivots)`` of `(I(X)_{<k})_k`, the
        products of the minimal generators of degree `< k`; ``quotient``
        is ``(rows, pivots)``, the echelon form of the minimal generators of
        degree ``k`` reduced modulo ``L`` (a basis of `I(X)_k / L`), or
        ``None`` when ``p`` is bad (the two ranks do not add up to
        `\dim I(X)_k`).
        """
        from sage_attention.ideals.linalg_modp import rref_modp
        if ("kmin", k, p) not in self.cache:
            S = self.new(k, p)
            S.add(self.products([m for m in self.kmin_rows(p) if m[2] < k], k))
            L = (S.R, S.pivots)
            index = {tuple(m): i for i, m in enumerate(self.mons[k].tolist())}
            top = [m for m in self.kmin_rows(p) if m[2] == k]
            G = np.zeros((len(top), len(self.mons[k])), dtype=np.int64)
            for i, (exps, res, _) in enumerate(top):
                G[i, [index[tuple(e)] for e in exps.tolist()]] = res
            G = reduce_modulo(G, L, p)
            quotient = rref_modp(G, p) if len(G) else (G, ())
            if len(L[1]) + len(quotient[1]) != self.dims[k]:
                quotient = None
            self.cache["kmin", k, p] = (L, quotient)
        return self.cache["kmin", k, p]

    def mixed_rank(self, full, cols, k, p):
        r"""
        Return the rank of the span of ``full`` and the products of the minimal generators of `I(X)` of degree `< k`.

        When ``cols`` is not ``None``, the rows of ``full`` lie in `I(X)_k`
        and are written on ``cols`` (:meth:`columns`); reduced modulo ``L``
        they are combinations of the basis ``quotient`` of `I(X)_k / L`
        (:meth:`lower`), so they are determined by their entries at its
        pivots: the rank is ``|L|`` plus the rank of those columns. Else
        (rows on every monomial) the rank is that of the rows and ``L``.
        """
        from sage_attention.ideals.linalg_modp import rref_modp, rank_modp
        L, quotient = self.lower(k, p)
        if cols is None:
            if not full[1]:
                return len(L[1])
            R = np.concatenate([L[0], full[0]]).astype(np.int64)
            return len(rref_modp(R, p)[1])
        if len(L[1]) >= self.dims[k] or not full[1]:
            return max(len(L[1]), full[1])
        F = full[0].astype(np.int64)
        pos = {c: i for i, c in enumerate(cols)}
        qcols = list(quotient[1])
        X = F[:, [pos[c] for c in qcols]]
        if len(L[1]):
            X = (X - matmul_modp(F[:, [pos[c] for c in L[1]]], L[0][:, qcols], p)) % p
        return len(L[1]) + rank_modp(X, p)


def _row_linear(spans, name, keys, members, degrees, contained, nlin, bound, note, step):
    r"""
    Return the :class:`GenerationRow` of the members ``keys`` by linear algebra modulo primes, degree by degree.

    In degree `k`: the rank modulo `p` of the products of the members with
    monomials, first those of degree `< k` (the family's lower part), then
    all; ``spans.dims[k]`` is the exact dimension of `I(X)_k`. A rank equal
    to it proves `J_k = I(X)_k` (the members are in `I(X)` and the rank can
    only drop modulo `p`); a smaller rank is confirmed with a second prime.
    The missing minimal generators of `I(X)` in degree `k` are
    `\dim I(X)_k - \dim (J_k + (I(X)_{<k}))_k`.
    """
    start = time.time()
    counts, missing = {}, {}
    for k in range(1, bound + 1):
        target = spans.dims[k]
        for q in PRIMES:
            if len(keys) == 1:
                low, full, cols = spans.span(keys[0], k, q)
            else:
                low, full, cols = spans.union(keys, k, q)
            if full[1] >= target:
                break
        nlow, nfull = low[1], full[1]
        if nfull > nlow:
            counts[k] = nfull - nlow
        if nfull < target:
            mixed = spans.mixed_rank(full, cols, k, q)
            if target > mixed:
                missing[k] = target - mixed
        step(k)
    if nlin:
        counts[1] = counts.get(1, 0) + nlin
    return GenerationRow(name, members, degrees, contained, dict(sorted(counts.items())),
                         contained and not missing, dict(sorted(missing.items())),
                         time.time() - start, note)


def _row(E, name, images, members, degrees, contained, Kmin, nlin, bound, note):
    r"""
    Return the :class:`GenerationRow` of the essential polynomials ``images`` by Gröbner bases truncated at ``bound``.
    """
    start = time.time()
    counts = minimal_generator_counts(E, images, bound)
    if nlin:
        counts[1] = counts.get(1, 0) + nlin
    counts = dict(sorted(counts.items()))
    GJ = truncated_groebner_basis(E, images, bound)
    missing = {}
    for g in Kmin:
        if (g.reduce(GJ) if GJ else g) != 0:
            missing[int(g.degree())] = missing.get(int(g.degree()), 0) + 1
    # the family's ideal is inside I(X) when every member vanishes; then
    # equality holds iff no minimal generator of I(X) is missing
    generates = contained and not missing
    return GenerationRow(name, members, degrees, contained, counts, generates,
                         dict(sorted(missing.items())), time.time() - start, note)


def _ideal_part(model, res):
    r"""
    Return ``(Kmin, nlin, total, bound, spans, linear)`` from the vanishing ideal ``res`` (a report).

    ``Kmin`` are its minimal generators in the essential ring, ``nlin`` the
    number of linear relations, ``total`` the minimal generators of `I(X)`
    by degree, ``bound`` their largest degree, ``linear`` whether the rows
    are compared by linear algebra (at most :data:`DENSE_LIMIT` monomials
    in that degree), ``spans`` the :class:`_Spans` of the rows.
    """
    from sage.libs.singular.function import singular_function
    from sage.all__sagemath_singular import binomial
    E = model.essential_ring()
    if hasattr(res, "essential_ideal"):
        K = res.essential_ideal
    else:
        gens = [g for g in res.essential_generators if g]
        K = E.ideal(gens if gens else [E.zero()])
    kg = [g for g in K.gens() if g]
    Kmin = list(singular_function("minbase")(K)) if kg else []
    Kmin = [g for g in Kmin if g]
    nlin = len(model.linear_relations())
    total = {}
    for g in Kmin:          # the degrees of the minimal generators (minbase: homogeneous)
        total[int(g.degree())] = total.get(int(g.degree()), 0) + 1
    if nlin:
        total[1] = total.get(1, 0) + nlin
    total = {int(k): int(v) for k, v in sorted(total.items())}
    bound = max([g.degree() for g in Kmin] + [1])
    linear = binomial(E.ngens() + bound - 1, bound) <= DENSE_LIMIT
    if not linear:
        dims = {}
    elif hasattr(res, "ideal_dimensions") and res.complete_through_degree >= bound:
        # the engine's exact dimensions of the degree parts (each degree proved complete)
        dims = {k: int(res.ideal_dimensions.get(k, 0)) for k in range(1, bound + 1)}
    else:
        dims = _ideal_dimensions(E, K, bound)
    return Kmin, nlin, total, bound, _Spans(E.ngens(), dims, Kmin), linear


def _family_members(model, names, built, every, force):
    r"""
    Return ``[(name, outcome)]``: each family built, with its members in the essential coordinates.

    ``outcome`` is ``("ok", members, note, degrees, _Members, seconds)``,
    ``("skip", reason)`` for a family that does not apply (a
    ``ValueError``), or ``("error", exception)``, after which nothing more
    is built (the caller raises it when its turn comes, so an interrupt
    keeps the rows before). With ``every``, empty families are left out.
    """
    from sage_attention.invariants import FAMILIES
    composer = None
    out = []
    for name in names:
        try:
            fam = built[name] if name in built else FAMILIES[name](model, force=force)
        except ValueError as exc:
            out.append((name, ("skip", str(exc))))
            continue
        except (Exception, KeyboardInterrupt) as exc:
            out.append((name, ("error", _picklable(exc))))
            break
        if every and len(fam) == 0:
            continue
        polys = fam.polynomials()
        t0 = time.time()
        try:
            composer = composer or _Composer(model)
            members = _Members(composer, polys)
        except (Exception, KeyboardInterrupt) as exc:
            out.append((name, ("error", _picklable(exc))))
            break
        fdeg = tuple(sorted({int(f.degree()) for f in polys}))
        out.append((name, ("ok", len(fam), getattr(fam, "note", "") or "", fdeg, members, time.time() - t0)))
    return out


def _picklable(exc):
    r"""
    Return ``exc``, or a :class:`RuntimeError` with its type and message when it cannot be pickled (sent from a forked process).
    """
    import pickle
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")


def generation_report(model, families=None, degree=None, algorithm=None, progress=False, force=False):
    r"""
    Return a :class:`GenerationReport`: do the invariant families generate the vanishing ideal?

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``families`` -- (default: ``None``, every family that applies) names
      in :data:`~sage_attention.invariants.FAMILIES`, or families already
      built (:class:`~sage_attention.invariants.base.InvariantFamily`, e.g.
      with options: ``veronese_invariants(M, r=2)``); a family listed
      twice is one row
    - ``degree``, ``algorithm`` -- how to compute the vanishing ideal, as in
      :meth:`~sage_attention.variety.neurovariety.Neurovariety.vanishing_ideal`
    - ``progress`` -- boolean (default: ``False``); show a progress bar on
      standard error, one per row (family), advancing degree by degree, as
      :func:`~sage_attention.ideals.implicitization.implicitize` does;
      progress is also logged at level ``DEBUG``

    - ``force`` -- boolean (default: ``False``); skip the size and memory
      guards of the vanishing ideal and of the families built here, and
      the report's own limit of 60 essential coordinates
      (:data:`~sage_attention.sizes.LIMITS`: with `75` it did not finish
      in ten minutes)

    OUTPUT: a :class:`GenerationReport` with one row per family and a last
    row for their union. The vanishing ideal is computed in this process
    while the families are built, and their members composed with the
    parametrization, in a forked one (when two cores are available; the
    results are the same). Ctrl-C while the rows are computed returns the
    finished rows with ``interrupted=True`` (an interrupt while the
    vanishing ideal and the families are computed propagates: no row is
    finished).

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.generation import generation_report
        sage: G = generation_report(LightningAttention(d=3, t=2, a=1, entries=[(1, 1)]))  # long time
        sage: G.families_generate, G.generators_by_degree           # long time
        (True, {1: 10, 2: 45, 3: 10})
        sage: G.interrupted                                         # long time
        False

    A family built with options takes the place of its name::

        sage: from sage_attention.invariants.veronese import veronese_invariants
        sage: M = LightningAttention(d=2, t=2, a=2, entries=[(1, 1)])
        sage: G = generation_report(M, ["linear", veronese_invariants(M, r=2)])
        sage: [(r.family, r.members, r.generates) for r in G.rows]
        [('linear', 4, False), ('veronese', 1, True), ('all', 5, True)]

    TESTS::

        sage: generation_report(LightningAttention(d=1, t=2, a=1), progress='yes')
        Traceback (most recent call last):
        ...
        TypeError: progress (='yes') must be True or False
        sage: generation_report(LightningAttention(d=2, t=2, a=1, base_ring=GF(101)))
        Traceback (most recent call last):
        ...
        ValueError: the generation report works over QQ, and the model is LightningAttention(d=2, out=1, t=2, a=1) over Finite Field of size 101; build it with base_ring=QQ (the default)
    """
    from sage_attention.invariants import FAMILIES
    from sage_attention.invariants.base import InvariantFamily
    from sage_attention.ideals.pieces import PieceProgress
    from sage_attention.variety.neurovariety import Neurovariety
    if not isinstance(progress, bool):
        raise TypeError(f"progress (={progress!r}) must be True or False")
    X = Neurovariety(model)
    if model.base_ring() is not QQ:
        raise ValueError(f"the generation report works over QQ, and the model is "
                         f"{model}; build it with base_ring=QQ (the default)")
    from sage_attention.sizes import check_size
    # the report's limit, which ``sage-attention check`` evaluates too
    check_size(model.size_estimate(), "generation", force=force,
               hint="use fewer output entries (entries=...) or a smaller model")
    names = list(FAMILIES) if families is None else list(families)
    built = {f.name: f for f in names if isinstance(f, InvariantFamily)}
    # a family listed twice is one row
    names = list(dict.fromkeys(f.name if isinstance(f, InvariantFamily) else f for f in names))
    unknown = [n for n in names if n not in FAMILIES]
    if unknown:
        raise ValueError(f"unknown families {unknown}; known: {sorted(FAMILIES)}")

    # the vanishing ideal (here) and the families with the exact membership of their members
    # (in a forked process, when there are two cores): neither needs the other
    def ideal():
        res = X.vanishing_ideal_report(algorithm=algorithm, degree=degree, force=force, progress=progress)
        part = _ideal_part(model, res)
        _, _, _, bound, spans, linear = part
        if linear:          # the echelon forms that every row uses, while the families are built
            for k in range(1, bound + 1):
                spans.lower(k, PRIMES[0])
            if two_cores:   # and those of the second prime, which confirms a rank that falls short
                for k in range(1, bound + 1):
                    spans.lower(k, PRIMES[1])
        return res, part

    def members():
        return _family_members(model, names, built, families is None, force)
    two_cores = available_cores() >= 2
    (res, part), built_members = map_in_children(lambda job: job(), [ideal, members], 2 if two_cores else 1)
    E = model.essential_ring()
    Kmin, nlin, total, bound, spans, linear = part
    ideal_seconds = getattr(res, "seconds", None)
    if ideal_seconds is None:
        ideal_seconds = sum(v for v in getattr(res, "timings", {}).values()
                            if isinstance(v, (int, float)))
    complete = getattr(res, "proved_complete", True)
    algo = "elimination" if hasattr(res, "essential_ideal") else "interpolation"
    bar = PieceProgress(progress, unit="degrees")

    def row(name, keys, degrees, note):
        members = [spans.members[key] for key in keys]
        contained = all(m.contained for m in members)
        size = sum(sizes[key] for key in keys)

        def step(k):
            bar.degree = k
            bar.step()
        bar.label = f"generation report, {name}: "
        bar.start(1, bound)
        if linear and all(m.homogeneous for m in members):
            return _row_linear(spans, name, keys, size, degrees, contained, nlin, bound, note, step)
        images = [g for m in members for g in m.polynomials(E)]
        out = _row(E, name, images, size, degrees, contained, Kmin, nlin, bound, note)
        for k in range(1, bound + 1):
            step(k)
        return out
    rows = []
    sizes = {}
    keys = []
    degrees = set()
    interrupted = False
    try:
        for name, outcome in built_members:
            if outcome[0] == "error":       # raised where the family was built (Ctrl-C: the rows before)
                raise outcome[1]
            if outcome[0] == "skip":
                logger.info("family %s does not apply to %s: %s", name, model, outcome[1])
                continue
            _, size, note, fdeg, family_members, member_seconds = outcome
            spans.members[name] = family_members
            sizes[name] = size
            r = row(name, [name], fdeg, note)
            rows.append(replace(r, seconds=r.seconds + member_seconds))
            keys.append(name)
            degrees.update(fdeg)
            logger.info("generation report %s: family %s done", model, name)
        rows.append(row("all", keys, tuple(sorted(degrees)), ""))
    except KeyboardInterrupt:
        interrupted = True
        logger.warning("generation report of %s interrupted after %d rows", model, len(rows))
    finally:
        bar.close()
    generate = rows[-1].generates if rows and not interrupted else None
    return GenerationReport(str(model), tuple(rows), total, generate, algo,
                            bool(complete), float(ideal_seconds), interrupted=interrupted)
