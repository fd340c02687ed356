r"""
Do the invariant families generate the vanishing ideal?

[ADM2026]_ reports that in small dimensions the invariant families recover
the generators of the vanishing ideal. :func:`generation_report` checks this
for one model, family by family and for their union:

- every member is in the vanishing ideal (exact: composition with the
  parametrization, :func:`~sage_attention.variety.membership.check_family`);
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
are these ranks modulo the prime). When a degree has more than
:data:`DENSE_LIMIT` monomials, or a member is not homogeneous, the
comparison uses Gröbner bases of the families' ideals truncated at degree
`D` instead.

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
from dataclasses import dataclass

import numpy as np

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
    ``families_generate``, ``algorithm`` (how the vanishing ideal was
    computed), ``complete`` (whether that ideal is complete), ``seconds``
    (computing it), ``note``.

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

    def __repr__(self):
        verb = "generate" if self.families_generate else "do not generate"
        s = (f"Generation report for {self.model}:\nthe families {verb} the vanishing ideal "
             f"(minimal generators by degree {self.generators_by_degree})")
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
        return "\n".join(lines)

    def to_dict(self):
        r"""
        Return a JSON-ready dictionary.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.generation import generation_report
            sage: sorted(generation_report(LightningAttention(d=1, t=2, a=1), ['linear']).to_dict())
            ['algorithm', 'complete', 'families_generate', 'generators_by_degree', 'model', 'note', 'rows', 'seconds']
        """
        return {"model": self.model, "rows": [r.to_dict() for r in self.rows],
                "generators_by_degree": {str(k): v for k, v in self.generators_by_degree.items()},
                "families_generate": self.families_generate, "algorithm": self.algorithm,
                "complete": self.complete, "seconds": self.seconds, "note": self.note}


#: Degrees with more monomials than this are compared by Gröbner bases
#: instead of dense linear algebra.
DENSE_LIMIT = 30000


def _as_rows(E, polys, p):
    r"""
    Return ``[(exponent array, residues mod p, degree)]`` for the nonzero polynomials ``polys``.
    """
    from sage_attention.ideals.implicitization import residues as _residues
    out = []
    for f in polys:
        if f:
            if not f.is_homogeneous():
                raise _Inhomogeneous(f)
            out.append((np.array([list(e) for e in f.exponents()], dtype=np.int16),
                        _residues(f.coefficients(), p), int(f.degree())))
    return out


class _Inhomogeneous(ValueError):
    r"""
    A member is not homogeneous: the degree-by-degree comparison does not apply.
    """


def _ideal_dimensions(E, K, bound):
    r"""
    Return ``{k: dim K_k}`` for `k \le` ``bound`` (exact: Hilbert series of the homogeneous ideal ``K``).
    """
    from sage.all__sagemath_singular import PowerSeriesRing, QQ, binomial
    n = E.ngens()
    gens = [g for g in K.gens() if g]
    if not gens:
        return {k: 0 for k in range(1, bound + 1)}
    HS = E.ideal(gens).hilbert_series()
    T = PowerSeriesRing(QQ, "t", default_prec=bound + 2)
    s = T(HS.numerator()) / T(HS.denominator())
    return {k: int(binomial(n + k - 1, k) - s[k]) for k in range(1, bound + 1)}


def _row_linear(model, name, fam, Kmin, dims, nlin, bound, primes=(8388593, 8388587)):
    r"""
    Return the :class:`GenerationRow` of ``fam`` by linear algebra modulo primes, degree by degree.

    In degree `k`: the rank modulo `p` of the products of the members with
    monomials, first those of degree `< k` (the family's lower part), then
    all; ``dims[k]`` is the exact dimension of `I(X)_k`. A rank equal to it
    proves `J_k = I(X)_k` (the members are in `I(X)` and the rank can only
    drop modulo `p`); a smaller rank is confirmed with a second prime. The
    missing minimal generators of `I(X)` in degree `k` are
    `\dim I(X)_k - \dim (J_k + (I(X)_{<k}))_k`.
    """
    from sage_attention.variety.membership import check_family
    start = time.time()
    contained = check_family(model, fam).all_vanish if len(fam) else True
    E = model.essential_ring()
    to_E = model.to_essential()
    images = [g for g in (to_E(f) for f in fam.polynomials()) if g]
    from sage_attention.ideals.implicitization import ProductSpan, monomials as _monomials
    n = E.ngens()
    counts, missing = {}, {}
    rows = {}

    def as_rows(which, q):
        if (which, q) not in rows:
            rows[which, q] = _as_rows(E, images if which == "members" else Kmin, q)
        return rows[which, q]

    def products(members, k):
        # each member times every monomial of the complementary degree
        return [(_monomials(n, k - deg), [(exps, res)]) for exps, res, deg in members]
    for k in range(1, bound + 1):
        target = dims[k]
        mons = _monomials(n, k)
        for q in primes:
            members = as_rows("members", q)
            S = ProductSpan(mons, q, target)
            low = S.add(products([m for m in members if m[2] < k], k))
            full = S.add(products([m for m in members if m[2] == k], k))
            if full >= target:
                break
        if full > low:
            counts[k] = full - low
        if full < target:
            mixed = S.add(products([m for m in as_rows("kmin", q) if m[2] < k], k))
            if target > mixed:
                missing[k] = target - mixed
    if nlin:
        counts[1] = counts.get(1, 0) + nlin
    return GenerationRow(name, len(fam), tuple(sorted({int(f.degree()) for f in fam.polynomials()})),
                         contained, dict(sorted(counts.items())), contained and not missing,
                         dict(sorted(missing.items())), time.time() - start,
                         getattr(fam, "note", "") or "")


def _row(model, name, fam, Kmin, nlin, bound):
    from sage_attention.variety.membership import check_family
    start = time.time()
    contained = check_family(model, fam).all_vanish if len(fam) else True
    E = model.essential_ring()
    to_E = model.to_essential()
    images = [g for g in (to_E(f) for f in fam.polynomials()) if g]
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
    note = getattr(fam, "note", "") or ""
    return GenerationRow(name, len(fam), tuple(sorted({int(f.degree()) for f in fam.polynomials()})),
                         contained, counts, generates, dict(sorted(missing.items())),
                         time.time() - start, note)


def generation_report(model, families=None, degree=None, algorithm=None):
    r"""
    Return a :class:`GenerationReport`: do the invariant families generate the vanishing ideal?

    INPUT:

    - ``model`` -- a one-layer lightning model
    - ``families`` -- (default: ``None``, every family that applies) names
      in :data:`~sage_attention.invariants.FAMILIES`
    - ``degree``, ``algorithm`` -- how to compute the vanishing ideal, as in
      :meth:`~sage_attention.variety.neurovariety.Neurovariety.vanishing_ideal`

    OUTPUT: a :class:`GenerationReport` with one row per family and a last
    row for their union

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.generation import generation_report
        sage: G = generation_report(LightningAttention(d=3, t=2, a=1, entries=[(1, 1)]))  # long time
        sage: G.families_generate, G.generators_by_degree           # long time
        (True, {1: 10, 2: 45, 3: 10})
    """
    from sage_attention.invariants import FAMILIES
    from sage_attention.invariants.base import InvariantFamily
    from sage_attention.variety.neurovariety import Neurovariety, minimal_generators_count
    from sage.libs.singular.function import singular_function
    from sage.all__sagemath_singular import binomial
    X = Neurovariety(model)
    start = time.time()
    res = X.vanishing_ideal_report(algorithm=algorithm, degree=degree)
    ideal_seconds = getattr(res, "seconds", None)
    if ideal_seconds is None:
        ideal_seconds = sum(v for v in getattr(res, "timings", {}).values()
                            if isinstance(v, (int, float)))
    complete = getattr(res, "proved_complete", True)
    algo = "elimination" if hasattr(res, "essential_ideal") else "interpolation"
    K = X.essential_ideal()
    kg = [g for g in K.gens() if g]
    Kmin = list(singular_function("minbase")(K)) if kg else []
    Kmin = [g for g in Kmin if g]
    nlin = len(model.linear_relations())
    total = minimal_generators_count(K)
    if nlin:
        total[1] = total.get(1, 0) + nlin
    total = dict(sorted(total.items()))
    bound = max([g.degree() for g in Kmin] + [1])
    E = model.essential_ring()
    linear = binomial(E.ngens() + bound - 1, bound) <= DENSE_LIMIT
    if linear:
        dims = _ideal_dimensions(E, K, bound)

    def row(name, fam):
        if linear:
            try:
                return _row_linear(model, name, fam, Kmin, dims, nlin, bound)
            except _Inhomogeneous:
                pass
        return _row(model, name, fam, Kmin, nlin, bound)
    names = list(FAMILIES) if families is None else list(families)
    unknown = [n for n in names if n not in FAMILIES]
    if unknown:
        raise ValueError(f"unknown families {unknown}; known: {sorted(FAMILIES)}")
    rows = []
    union = []
    for name in names:
        try:
            fam = FAMILIES[name](model)
        except ValueError as exc:
            logger.info("family %s does not apply to %s: %s", name, model, exc)
            continue
        if families is None and len(fam) == 0:
            continue
        rows.append(row(name, fam))
        union += list(fam)
        logger.info("generation report %s: family %s done", model, name)
    allfam = InvariantFamily("all", model, union)
    rows.append(row("all", allfam))
    total = {int(k): int(v) for k, v in total.items()}
    return GenerationReport(str(model), tuple(rows), total, rows[-1].generates, algo,
                            bool(complete), float(ideal_seconds))
