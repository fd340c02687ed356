"""The reference of benchmarks/bench_generation.py: the generation report as main computed it.

Run: python -m benchmarks.generation_reference A   (prints one JSON line)

The previous implementation (sage_attention.variety.generation at commit
a09709d), extracted here and condensed to the path the d = 3 slices take
(every member homogeneous, degrees with at most 30000 monomials): membership
of each member by Sage's composition with the free parametrization
(check_family), each member sent to the essential ring by Sage's ring map,
and for each family, then again from scratch for their union, the spans of
the products modulo primes (ProductSpan), the missing generators by adding the
products of the minimal generators of I(X) to the same span. A self-contained
Gröbner-basis version (Singular's minbase and truncated Gröbner bases of each
family's ideal) did not finish within 600 s for a = 1.
"""
import json
import sys
import time

import numpy as np

from sage.all__sagemath_singular import PowerSeriesRing, QQ, binomial
from sage.libs.singular.function import singular_function


def ideal_dimensions(E, K, bound):
    n = E.ngens()
    gens = [g for g in K.gens() if g]
    if not gens:
        return {k: 0 for k in range(1, bound + 1)}
    HS = E.ideal(gens).hilbert_series()
    T = PowerSeriesRing(QQ, "t", default_prec=bound + 2)
    s = T(HS.numerator()) / T(HS.denominator())
    return {k: int(binomial(n + k - 1, k) - s[k]) for k in range(1, bound + 1)}


def as_rows(polys, p):
    from sage_attention.ideals.engine.product_span import residues
    return [(np.array([list(e) for e in f.exponents()], dtype=np.int16),
             residues(f.coefficients(), p), int(f.degree())) for f in polys if f]


def row(model, name, polys, Kmin, dims, nlin, bound, primes=(8388593, 8388587)):
    from sage_attention.variety.membership import check_family
    from sage_attention.ideals.engine.product_span import ProductSpan, monomials
    contained = check_family(model, polys).all_vanish if len(polys) else True
    E = model.essential_ring()
    to_E = model.to_essential()
    images = [g for g in (to_E(f) for f in polys) if g]
    n = E.ngens()
    counts, missing, cache = {}, {}, {}

    def rows(which, q):
        if (which, q) not in cache:
            cache[which, q] = as_rows(images if which == "members" else Kmin, q)
        return cache[which, q]

    def products(members, k):
        return [(monomials(n, k - deg), [(exps, res)]) for exps, res, deg in members]
    for k in range(1, bound + 1):
        target = dims[k]
        mons = monomials(n, k)
        for q in primes:
            members = rows("members", q)
            S = ProductSpan(mons, q, target)
            low = S.add(products([m for m in members if m[2] < k], k))
            full = S.add(products([m for m in members if m[2] == k], k))
            if full >= target:
                break
        if full > low:
            counts[k] = full - low
        if full < target:
            mixed = S.add(products([m for m in rows("kmin", q) if m[2] < k], k))
            if target > mixed:
                missing[k] = target - mixed
    if nlin:
        counts[1] = counts.get(1, 0) + nlin
    return {"family": name, "contained": contained, "generates": contained and not missing,
            "generators_by_degree": {str(k): v for k, v in sorted(counts.items())}}


def main(a):
    from sage_attention import LightningAttention
    from sage_attention.invariants import FAMILIES
    from sage_attention.ideals.minimal_generators import minimal_generators_count
    from sage_attention.variety.neurovariety import Neurovariety
    t0 = time.perf_counter()
    M = LightningAttention(d=3, t=2, a=a, out=1, entries=[(1, 1)])
    X = Neurovariety(M)
    # main's default for these 18 coordinates was elimination (today's default, interpolation
    # with its proof, has no essential_ideal)
    K = X.vanishing_ideal_report(algorithm="elimination").essential_ideal
    E = M.essential_ring()
    Kmin = [g for g in singular_function("minbase")(K) if g]
    minimal_generators_count(K)         # main counted the generators of I(X) this way
    bound = max([g.degree() for g in Kmin] + [1])
    assert binomial(E.ngens() + bound - 1, bound) <= 30000
    dims = ideal_dimensions(E, K, bound)
    nlin = len(M.linear_relations())
    rows, union = [], []
    for name in FAMILIES:
        try:
            fam = FAMILIES[name](M)
        except ValueError:
            continue
        if len(fam) == 0:
            continue
        polys = list(fam.polynomials())
        assert all(f.is_homogeneous() for f in polys if f)
        rows.append(row(M, name, polys, Kmin, dims, nlin, bound))
        union += polys
    rows.append(row(M, "all", union, Kmin, dims, nlin, bound))
    return {"seconds": time.perf_counter() - t0, "rows": rows}


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]))))
