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
members with monomials, echelonized modulo a prime `p` (the first of
``settings.LINALG_PRIMES``): since `J \subseteq I`
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

When a degree has more than ``settings.DENSE_LIMIT`` monomials
(:mod:`sage_attention.settings`), or a member is not homogeneous, the comparison uses Gröbner bases of the families' ideals
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
from dataclasses import replace

from sage.all__sagemath_singular import QQ
from sage_attention.misc.forked import available_cores, map_in_children
from sage_attention.misc.progress import redelivering_interrupts
from sage_attention.ideals.minimal_generators import (minimal_basis, minimal_generator_counts,
                                                       truncated_groebner_basis)
from sage_attention.settings import settings
from sage_attention.variety.family_members import Composer, FamilyMembers
# the records of the report were defined here: their old import path keeps working
from sage_attention.variety.generation_records import (GenerationReport, GenerationRow,  # noqa: F401
                                                       SATURATION_NOTE)
from sage_attention.variety.generation_spans import ProductSpans, ideal_dimensions, linear_algebra_row

logger = logging.getLogger("sage_attention")

#: the module constants that became tunables, by their settings names
_TUNABLES = {"DENSE_LIMIT": "DENSE_LIMIT"}


def __getattr__(name):
    r"""
    Return the tunables once defined here (``DENSE_LIMIT``, ``PRIMES``) from :data:`~sage_attention.settings.settings`.

    EXAMPLES::

        sage: import sage_attention.variety.generation as gen
        sage: from sage_attention.settings import settings
        sage: gen.DENSE_LIMIT == settings.DENSE_LIMIT, gen.PRIMES == settings.LINALG_PRIMES[:2]
        (True, True)
    """
    if name in _TUNABLES:
        return getattr(settings, _TUNABLES[name])
    if name == "PRIMES":
        return settings.LINALG_PRIMES[:2]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    are compared by linear algebra (at most ``settings.DENSE_LIMIT``
    monomials in that degree), ``spans`` the
    :class:`~sage_attention.variety.generation_spans.ProductSpans` of the rows.
    """
    from sage.all__sagemath_singular import binomial
    E = model.essential_ring()
    if hasattr(res, "essential_ideal"):
        K = res.essential_ideal
    else:
        gens = [g for g in res.essential_generators if g]
        K = E.ideal(gens if gens else [E.zero()])
    kg = [g for g in K.gens() if g]
    Kmin = minimal_basis(K) if kg else []
    nlin = len(model.linear_relations())
    total = {}
    for g in Kmin:          # the degrees of the minimal generators (minbase: homogeneous)
        total[int(g.degree())] = total.get(int(g.degree()), 0) + 1
    if nlin:
        total[1] = total.get(1, 0) + nlin
    total = {int(k): int(v) for k, v in sorted(total.items())}
    bound = max([g.degree() for g in Kmin] + [1])
    linear = binomial(E.ngens() + bound - 1, bound) <= settings.DENSE_LIMIT
    if not linear:
        dims = {}
    elif hasattr(res, "ideal_dimensions") and res.complete_through_degree >= bound:
        # the engine's exact dimensions of the degree parts (each degree proved complete)
        dims = {k: int(res.ideal_dimensions.get(k, 0)) for k in range(1, bound + 1)}
    else:
        dims = ideal_dimensions(E, K, bound)
    return Kmin, nlin, total, bound, ProductSpans(E.ngens(), dims, Kmin), linear


def _family_members(model, names, built, every, force):
    r"""
    Return ``[(name, outcome)]``: each family built, with its members in the essential coordinates.

    ``outcome`` is ``("ok", members, note, degrees, FamilyMembers, seconds)``,
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
            composer = composer or Composer(model)
            members = FamilyMembers(composer, polys)
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


@redelivering_interrupts()
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
      :meth:`~sage_attention.variety.vanishing_ideal.VanishingIdeal.vanishing_ideal`
    - ``progress`` -- boolean (default: ``False``); show a progress bar on
      standard error, one per row (family), advancing degree by degree, as
      :func:`~sage_attention.ideals.implicitization.implicitize` does;
      progress is also logged at level ``DEBUG``

    - ``force`` -- boolean (default: ``False``); skip the size and memory
      guards of the vanishing ideal and of the families built here, and
      the report's own limit of 60 essential coordinates
      (:data:`~sage_attention.catalog.costs.LIMITS`: with `75` it did not finish
      in ten minutes)

    OUTPUT: a :class:`GenerationReport` with one row per family and a last
    row for their union. The vanishing ideal is computed in this process
    while the families are built, and their members composed with the
    parametrization, in a forked one (when two cores are available; the
    results are the same). Ctrl-C raises
    :class:`~sage_attention.misc.interrupts.ComputationInterrupted`: while
    the rows are computed (phase ``'generation'``) its ``partial`` is the
    report of the finished rows, with ``interrupted=True``; while the
    vanishing ideal is computed, it is that computation's (no row is
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
    from sage_attention.ideals.engine.workers import PieceProgress
    from sage_attention.variety.neurovariety import Neurovariety
    if not isinstance(progress, bool):
        raise TypeError(f"progress (={progress!r}) must be True or False")
    X = Neurovariety(model)
    if model.base_ring() is not QQ:
        raise ValueError(f"the generation report works over QQ, and the model is "
                         f"{model}; build it with base_ring=QQ (the default)")
    from sage_attention.catalog.costs import check_size
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
    primes = settings.LINALG_PRIMES[:2]

    def ideal():
        res = X.vanishing_ideal_report(algorithm=algorithm, degree=degree, force=force, progress=progress)
        part = _ideal_part(model, res)
        _, _, _, bound, spans, linear = part
        if linear:          # the echelon forms that every row uses, while the families are built
            for k in range(1, bound + 1):
                spans.lower(k, primes[0])
            if two_cores:   # and those of the second prime, which confirms a rank that falls short
                for k in range(1, bound + 1):
                    spans.lower(k, primes[1])
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
            return linear_algebra_row(spans, name, keys, size, degrees, contained, nlin, bound, note, step)
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
    except KeyboardInterrupt as exc:
        interrupted = exc
        logger.info("generation report of %s interrupted after %d rows", model, len(rows))
    finally:
        bar.close()
    generate = rows[-1].generates if rows and not interrupted else None
    report = GenerationReport(str(model), tuple(rows), total, generate, algo,
                              bool(complete), float(ideal_seconds), interrupted=bool(interrupted))
    if interrupted:
        from sage_attention.misc.interrupts import raise_interrupted
        raise_interrupted(interrupted, "generation", report,
                          f"{len(rows)} rows finished ({', '.join(r.family for r in rows) or 'none'})",
                          "the same call computes the rows again (the vanishing ideal is cached)",
                          summary={"rows": [r.family for r in rows]})
    return report
