r"""
Primality of a homogeneous ideal by one localization

Let `S = \GF{p}[y_1, \dots, y_N]` and `J \subseteq S` a homogeneous ideal.
A primary decomposition decides whether `J` is prime, but it does not scale
to the vanishing ideals of this package (Singular's ``minAssGTZ`` on the
`d = 3`, `a = 2` slice gave no answer in 300 s). This module proves `J`
prime by **one localization** and a handful of exact checks, after
Gianni--Trager--Zacharias [GTZ1988]_: over the field of rational functions
of a maximal independent set, `J` becomes a zero-dimensional ideal, which is
maximal when its lex Gröbner basis is in shape position with an irreducible
last polynomial; the contraction of a maximal ideal is prime, and `J` equals
that contraction when the denominators met are nonzerodivisors.

The data (found, not trusted). Split the variables into `z = (z_1, \dots,
z_n)` and `w = (w_1, \dots, w_s, u)`, with `u` the last (the *shape
variable*). Let `K = \GF{p}(z)`. The data are rational functions
`r_1, \dots, r_s \in K[u]`, a monic `m \in K[u]` of degree `\delta \ge 1`,
and a homogeneous `f \in \GF{p}[z]` such that the *cleared polynomials*

.. MATH::

    f\,(w_i - r_i(u)) \quad (1 \le i \le s), \qquad f\,m(u)

have coefficients in `\GF{p}[z]`. They are found from the reduced lex
Gröbner basis of `J K[w]` (:mod:`sage_attention.ideals.proofs.shape_basis`: over
the rational function field, or from a block order over `\GF{p}`), which
for a prime `J` is `\{w_i - r_i(u), m(u)\}` after a generic linear change
of `u` ("shape position": the shape lemma); `f` is the least common
multiple of the denominators. Nothing below rests on how they were found.
So the lex basis is first computed from the generators of the lowest
degrees only, which is often far cheaper: when the data of such a subset
pass checks (a) and (b), the maximal ideal they define lies in `J K[w]`
and so equals it, and they are the data of `J` (otherwise more degrees are
added, up to all generators).

The checks (each exact, over `\GF{p}`):

(a) every cleared polynomial lies in `J` (normal form zero with respect to
    a Gröbner basis of `J`);
(b) `m` is irreducible over `K`: in the factorization of `f m` in
    `\GF{p}[z, u]`, exactly one irreducible factor has positive degree in
    `u`, and it occurs once (Gauss's lemma: the other factors lie in
    `\GF{p}[z]` and are units of `K`);
(c) every irreducible factor `h` of `f` is homogeneous and a nonzerodivisor
    on `S/J` (then so is `f`). For `h` of degree `e` this is the equality of
    Hilbert series `H_{S/(J + h)}(t) = (1 - t^e) H_{S/J}(t)` (from the exact
    sequence `0 \to (J:h)/J\,(-e) \to S/J(-e) \to S/J \to S/(J+h) \to 0`).
    It is checked factor by factor, which is cheaper than the product, and
    the factors are shared among the available cores (forked processes).
    Its Gröbner bases may be computed in any variable order (a permutation
    of the variables is a graded automorphism and changes no Hilbert
    series). Which order is cheaper depends on the ideal, and a rule only
    chooses the cost: the variables of `f` are put last in degrevlex when
    they are at most half of the variables (three times cheaper on the `d =
    3` slices), the given order is kept otherwise (on the single tokens of
    rank 2 and 3 the other order is ten times dearer). The
    left side is the Hilbert series of the leading monomials of the
    polynomials Singular returns for `J + h`: as they lie in `J + h`, it
    bounds `H_{S/(J+h)}` from above, coefficientwise, while the right side
    bounds it from below (the exact sequence), so their equality proves the
    equality whatever the algorithm did. The checks are made after cuts: if a linear form `\ell` satisfies `H_{S/(J+\ell)} = (1-t)
    H_{S/J}` (so `\ell` is a nonzerodivisor) and `h` is a nonzerodivisor on
    `S/(J + \ell)`, then `h` is one on `S/J` (if `hx = 0` with `x \ne 0`
    homogeneous of least degree, then `x \in \ell S/J`, `x = \ell x'`,
    `h x' = 0`, and `x'` has smaller degree). By induction the same holds
    for a sequence `\ell_1, \dots, \ell_k`, each a nonzerodivisor modulo
    `J` and the ones before it; the certificate records the sequence
    (``cuts``) and each equality. Each factor may have a sequence of its
    own: the common cuts, then one variable `v` chosen for it
    (``second_cuts``, with the equality showing that `v` is a
    nonzerodivisor modulo the cuts). When `f` involves more than half of the
    variables, up to ``settings.LOCALIZATION_SECOND_CUTS`` variables are tried in order for
    each factor, with the Gröbner bases bounded in degree so that a choice
    that does not work fails soon (a bounded basis can only make the
    equality fail, never hold wrongly); on the single tokens of width `3`
    and ranks `2`, `3` the factors of degree `4` and `5` then take about 0.1
    s each instead of 0.8 and 2.8 s. A factor that is a constant times the
    image of a checked factor, or of the first cut (a nonzerodivisor on
    `S/J` itself), under a permutation of the variables that maps every
    generator of `J` into `J` is a nonzerodivisor too and is not checked
    again (:mod:`sage_attention.ideals.proofs.factor_orbits`: the permutation is
    checked exactly, and the certificate records it with the factor,
    ``factors_by_symmetry``);
    When `f` involves at most half of the variables, the common cuts and
    the factors are checked side by side, each Gröbner basis from the
    generators (:func:`_side_by_side`): a factor of degree `e` is compared
    with `(1 - t^e)(1-t)^k H_{S/J}(t)`, which is `(1 - t^e) H_{S/(J +
    \ell_1 + \dots + \ell_k)}(t)` once the `k` cuts hold, so nothing
    waits for the basis of the cuts (on the `d = 3`, `a = 2` slice the
    proof takes 0.5 s in place of 0.8 s on two cores);
(d) `\dim S/J = n` (from the Hilbert series).

**Theorem.** If (a)--(d) hold, then `J` is prime (of dimension `n`).

*Proof.* `M = (w_1 - r_1, \dots, w_s - r_s, m)` is a maximal ideal of
`K[w]`, as `K[w]/M \cong K[u]/(m)` is a field by (b). Its contraction
`P = M \cap S` is prime; `S/P` embeds in `K[u]/(m)`, which is algebraic
over `K`, and contains `\GF{p}[z]`, so `\dim S/P = n`. Let `L \subseteq S`
be the ideal of the cleared polynomials. For `g \in P`: in `S_f = S[1/f]`,
`w_i \equiv r_i(u)` modulo `L S_f`, so `g \equiv g(z, r(u), u)`; this lies
in `M \cap K[u] = m K[u]` and has coefficients in `\GF{p}[z]_f`, and the
division by the monic `m \in \GF{p}[z]_f[u]` stays there; hence `g \in L
S_f`, that is `f^k g \in L \subseteq J` for some `k` (by (a)). As `f` is a
nonzerodivisor on `S/J` (c), `g \in J`. So `P \subseteq J`. If `P \ne J`,
every minimal prime of `J` strictly contains the prime `P`, and `\dim S/J <
\dim S/P = n`, against (d). So `J = P` is prime. `\square`

No check that `J` lies in the kernel of `S \to K[u]/(m)` is needed: the
argument gives `J = P`. A linear change of coordinates `u \mapsto u +
\sum_i c_i w_i` is a graded automorphism of `S`, so the checks may be made
on the transformed ideal; the certificate records the change.

Failure modes (each returns "not proved" with the reason; none is a proof
that `J` is not prime): no shape position after the linear changes tried
(e.g. `J` not radical, or an inseparable extension); `m` reducible (then
`J` is not prime when (a), (c) hold); a factor of `f` that is not
homogeneous or is a zero divisor (an embedded or extra component through
`V(f)`); the dimension is not `n`. The random linear changes only decide
whether the data are found (a bad change fails with probability at most
about `\delta^2 / p` per attempt), never what is proved.

EXAMPLES:

The twisted cubic is prime; the union of two planes in 4-space is not
proved (the localization sees one plane only: its equation ``y`` is not in
the ideal)::

    sage: from sage_attention.ideals.proofs.localization import localization_certificate
    sage: R.<x,y,z,w> = GF(32003)[]
    sage: C = localization_certificate(R.ideal([x*z - y^2, y*w - z^2, x*w - y*z]), 2); C
    Primality certificate modulo 32003: prime (dimension 2, independent set (x, w),
    shape variable z, delta = 3, denominator w)
    sage: C.verify()
    True
    sage: localization_certificate(R.ideal([x*y, x*w, z*y, z*w]), 2).reason
    'the cleared polynomial y does not lie in the ideal: not proved'

REFERENCES: [GTZ1988]_.
"""
import time
from dataclasses import dataclass, field

from sage_attention.ideals.proofs.localization_checks import changed, exact_checks, hilbert_numerator, krull_dimension
from sage_attention.ideals.proofs.protocol import ProofCertificate
from sage_attention.ideals.proofs.shape_basis import generator_sets, shape_data
from sage_attention.misc.randomness import python_random, resolve_seed
from sage_attention.settings import settings

#: the tunables of version 0.2, now read from :mod:`sage_attention.settings` when used
_MOVED_TUNABLES = {"LINEAR_CHANGES": "LOCALIZATION_LINEAR_CHANGES", "SECOND_CUTS": "LOCALIZATION_SECOND_CUTS"}


def __getattr__(name):
    if name in _MOVED_TUNABLES:
        return getattr(settings, _MOVED_TUNABLES[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass
class PrimalityCertificate(ProofCertificate):
    r"""
    What was checked to prove (or fail to prove) that a homogeneous ideal over `\GF{p}` is prime.

    Made by :func:`localization_certificate`; :meth:`verify` re-runs every
    exact check from the stored data. The attributes:

    - ``ideal`` -- the ideal `J` (after the linear ``change``, if any)
    - ``dimension`` -- the dimension `n` claimed
    - ``proved`` -- whether (a)--(d) of the module documentation hold
    - ``reason`` -- a sentence: what is proved, or why not
    - ``original`` -- the ideal before the change
    - ``change`` -- ``None`` or ``(u, {w: c})``: the substitution `u \mapsto
      u + \sum c\,w` applied to the generators of ``original``
    - ``independent`` -- the variables `z`; ``shape_variable`` -- `u`
    - ``delta`` -- the degree of `m`
    - ``cleared`` -- the cleared polynomials `f (w_i - r_i)`, then `f m`
    - ``denominator`` -- `f`; ``denominator_factors`` -- its factorization
    - ``m_factors`` -- the factorization of `f m` as ``(factor, exponent)``
    - ``cuts`` -- the linear forms cut by in check (c), in order
    - ``hilbert_checks`` -- tuples ``(what, left, right)`` of Hilbert
      numerators over `(1-t)^N` that were compared (equal when proved)
    - ``symmetries`` -- the permutations of the variables given that
      preserve the ideal (:mod:`sage_attention.ideals.proofs.factor_orbits`);
      ``factors_by_symmetry`` -- the factors of `f` not checked by a
      Hilbert series, as ``(h, r, g)``: `h` is a constant times the image
      of the checked factor `r` under the product `g` of those permutations
    - ``second_cuts`` -- pairs ``(h, v)``: the factor `h` was checked after
      the ``cuts`` and one more cut by the variable `v` (itself checked to
      be a nonzerodivisor modulo the ``cuts``)
    - ``timings`` -- seconds by step
    """
    ideal: object
    dimension: int
    proved: bool
    reason: str
    original: object = None
    change: object = None
    independent: tuple = ()
    shape_variable: object = None
    delta: int = None
    cleared: tuple = ()
    denominator: object = None
    denominator_factors: tuple = ()
    m_factors: tuple = ()
    cuts: tuple = ()
    hilbert_checks: tuple = ()
    symmetries: tuple = ()
    factors_by_symmetry: tuple = ()
    second_cuts: tuple = ()
    timings: dict = field(default_factory=dict)
    technique = "localization"
    label = "by localization"
    reduction_prime = True
    rests_on_dimension = True

    def __getstate__(self):
        r"""
        Pickle the ideals without their cached Gröbner bases (a tenth of the size, for the forked proof).

        TESTS::

            sage: import pickle
            sage: from sage_attention.ideals.proofs.localization import localization_certificate
            sage: R.<x,y,z> = GF(101)[]
            sage: C = localization_certificate(R.ideal([x*y - z^2]), 2)
            sage: D = pickle.loads(pickle.dumps(C))
            sage: D.ideal == C.ideal and D.cleared == C.cleared and D.verify()
            True
        """
        state = dict(self.__dict__)
        for key in ("ideal", "original"):
            if state[key] is not None:
                state[key] = state[key].ring().ideal(list(state[key].gens()))
        return state

    @property
    def prime(self):
        r"""
        The characteristic `p`.

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.localization import localization_certificate
            sage: R.<x,y> = GF(101)[]
            sage: localization_certificate(R.ideal([x^2 - y^2 + x*y]), 1).prime
            101
        """
        return int(self.ideal.ring().characteristic())

    def verify(self):
        r"""
        Re-run the exact checks (a)--(d) from the stored data; return whether all hold.

        Only the stored data are used (nothing is searched for again), so
        this is the check a reader makes of the certificate.

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.localization import localization_certificate
            sage: R.<x,y,z> = GF(101)[]
            sage: C = localization_certificate(R.ideal([x*y - z^2]), 2)
            sage: C.proved, C.verify()
            (True, True)

        A certificate whose data are altered no longer verifies::

            sage: C.cleared = C.cleared[:-1] + (C.cleared[-1] + x,)
            sage: C.verify()
            False
        """
        if not self.proved:
            return False
        if self.original is not None and self.change is not None:
            if changed(self.original, self.change) != self.ideal:
                return False
        return not exact_checks(self.ideal, self.dimension, self.independent, self.shape_variable,
                           self.cleared, self.denominator, list(self.cuts), processes=None,
                           symmetries=self.symmetries, second_cuts=dict(self.second_cuts))[0]

    def to_dict(self):
        r"""
        Return a JSON-ready dictionary (the ``'localization'`` entry of the completeness certificate's).

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.localization import localization_certificate
            sage: R.<x,y,z> = GF(101)[]
            sage: D = localization_certificate(R.ideal([x*y - z^2]), 2).to_dict()
            sage: D['proved'], D['independent'], D['delta']
            (True, ['x', 'z'], 1)
        """
        return {"proved": self.proved, "reason": self.reason,
                "independent": [str(z) for z in self.independent],
                "shape_variable": None if self.shape_variable is None else str(self.shape_variable),
                "delta": self.delta, "denominator": None if self.denominator is None else str(self.denominator),
                "denominator_factors": [[str(h), int(e)] for h, e in self.denominator_factors],
                "linear_change": None if self.change is None else {str(w): str(c) for w, c in self.change[1].items()},
                "hilbert_checks": [[what, str(a), str(b)] for what, a, b in self.hilbert_checks],
                "factors_by_symmetry": [[str(h), str(r), list(g)] for h, r, g in self.factors_by_symmetry]}

    def rows(self):
        r"""
        Return the rows of the HTML table: the data of the localization and the checks.

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.localization import localization_certificate
            sage: R.<x,y,z> = GF(101)[]
            sage: localization_certificate(R.ideal([x*y - z^2]), 2).rows()[:2]
            [('independent set', 'x, z'), ('shape variable', y)]
        """
        rows = [("independent set", ", ".join(str(z) for z in self.independent)),
                ("shape variable", self.shape_variable), ("delta", self.delta), ("denominator", self.denominator),
                ("denominator factors", ", ".join(f"({h})^{e}" for h, e in self.denominator_factors)),
                ("linear change", "none" if self.change is None else "yes")]
        rows += [(what, "holds" if a == b else "FAILS") for what, a, b in self.hilbert_checks]
        rows += [(f"the factor {h} is a nonzerodivisor", f"a constant times the image of {r} under the "
                  "permutation of the variables " + str(g) + ", which preserves the ideal")
                 for h, r, g in self.factors_by_symmetry]
        return rows

    def __repr__(self):
        p = self.prime
        if not self.proved:
            return f"Primality certificate modulo {p}: not proved ({self.reason})"
        change = "" if self.change is None else ", after a linear change of the shape variable"
        return (f"Primality certificate modulo {p}: prime (dimension {self.dimension}, independent set "
                f"({', '.join(str(z) for z in self.independent)}), shape variable {self.shape_variable}, "
                f"delta = {self.delta}, denominator {self.denominator}{change})")


def localization_certificate(J, dimension, seed=None, linear_changes=None, processes=None, symmetries=()):
    r"""
    Try to prove that the homogeneous ideal ``J`` over `\GF{p}` is prime of dimension ``dimension``.

    See the module documentation for the checks and the theorem. The data
    are found from a lex Gröbner basis over the rational functions of a
    maximal independent set (:mod:`sage_attention.ideals.proofs.shape_basis`; first without a change of coordinates, then
    with up to ``linear_changes`` random linear changes of the shape
    variable), then checked exactly.

    INPUT:

    - ``J`` -- a homogeneous ideal of a polynomial ring over a prime field
      `\GF{p}` (in degrevlex order)
    - ``dimension`` -- integer; the dimension `n` to prove
    - ``seed`` -- (default: ``None``, drawn from Sage's random state)
      integer; the linear changes (they affect whether the data are found,
      never what is proved)
    - ``linear_changes`` -- integer (default: ``None``,
      ``settings.LOCALIZATION_LINEAR_CHANGES``, `3`)
    - ``processes`` -- (default: ``None``, one per available core) integer;
      the factors of the denominator are checked in this many processes
      (forked; `1`: all in this process). It changes the time, never the
      certificate.
    - ``symmetries`` -- (default: ``()``) permutations of the variables
      (tuples, ``g[i]`` the index of the image of the `i`-th); those that
      preserve ``J`` (checked exactly) spare the Hilbert series of the
      factors of `f` that are images of others
      (:mod:`sage_attention.ideals.proofs.factor_orbits`); unused after a linear
      change

    OUTPUT: a :class:`PrimalityCertificate`; ``proved`` is ``True`` only
    when every check holds.

    EXAMPLES:

    A quadric cone is prime; the union of two lines in the plane (as a cone)
    is not proved, nor is the square of a prime::

        sage: from sage_attention.ideals.proofs.localization import localization_certificate
        sage: R.<x,y,z> = GF(32003)[]
        sage: localization_certificate(R.ideal([x*y - z^2]), 2).proved
        True
        sage: localization_certificate(R.ideal([x*y]), 2).proved
        False
        sage: localization_certificate(R.ideal([(x*y - z^2)^2]), 2).reason
        'the polynomial m of degree 2 in y is reducible over GF(32003)(x, z): not proved'

    An embedded component (the cone `x z - y^2 = 0` with the origin
    embedded) is never proved: the denominator is a zero divisor::

        sage: I = R.ideal([x*z - y^2]) * R.ideal([x, y, z])
        sage: localization_certificate(I, 2).proved
        False

    The wrong dimension is refused before anything is searched for::

        sage: localization_certificate(R.ideal([x*y - z^2]), 1).reason
        'the ideal has dimension 2, not 1'

    TESTS::

        sage: localization_certificate(R.ideal([x^2 + y]), 2)
        Traceback (most recent call last):
        ...
        ValueError: the ideal must be homogeneous
        sage: localization_certificate(QQ['a,b'].ideal([0]), 2)
        Traceback (most recent call last):
        ...
        ValueError: the ideal must be over a prime field GF(p), not Rational Field
    """
    if linear_changes is None:
        linear_changes = settings.LOCALIZATION_LINEAR_CHANGES
    S = J.ring()
    k = S.base_ring()
    if not (k.is_finite() and k.is_prime_field()):
        raise ValueError(f"the ideal must be over a prime field GF(p), not {k}")
    if not all(g.is_homogeneous() for g in J.gens()):
        raise ValueError("the ideal must be homogeneous")
    n = int(dimension)
    timings = {}
    t0 = time.time()
    N = S.ngens()
    num = hilbert_numerator(J)
    dim = krull_dimension(num, N)
    timings["hilbert series"] = time.time() - t0
    if dim != n:
        return PrimalityCertificate(J, n, False, f"the ideal has dimension {dim}, not {n}", timings=timings)
    if n in (0, N):
        # dimension N: J = 0, prime; dimension 0: prime exactly when J contains every variable
        failure = exact_checks(J, n, (), None, (), None, [])[0]
        what = "the zero ideal" if n == N else "the ideal of all variables"
        return PrimalityCertificate(J, n, failure is None, f"{what}: prime" if failure is None else
                                    failure + ": not prime", timings=timings,
                                    independent=tuple(S.gens()) if n == N else ())
    from sage.libs.singular.function import singular_function
    t0 = time.time()
    G = J.groebner_basis()
    GS = S.ideal(G)
    flags = singular_function("indepSet")(GS, attributes={GS: {"isSB": 1}})
    z = tuple(x for x, b in zip(S.gens(), flags) if b)
    timings["independent set"] = time.time() - t0
    if len(z) != n:
        return PrimalityCertificate(J, n, False, f"the independent set found has {len(z)} variables, not {n}",
                                    timings=timings)
    rng = python_random(resolve_seed(seed))
    w = [x for x in S.gens() if x not in set(z)]
    p = int(S.characteristic())
    last_reason = None
    for attempt in range(int(linear_changes) + 1):
        change = None
        Jc = J
        if attempt:
            u = w[-1]
            change = (u, {x: S.base_ring()(rng.randrange(1, p)) for x in w[:-1]})
            Jc = changed(J, change)
        t0 = time.time()
        candidates = generator_sets(Jc, z, rng)
        timings[f"generator subsets (attempt {attempt + 1})"] = time.time() - t0
        for k, gens in enumerate(candidates):
            last = k == len(candidates) - 1
            label = f"attempt {attempt + 1}" + ("" if last else f", generators of degree at most "
                                                f"{max(g.degree() for g in gens)}")
            t0 = time.time()
            data, why = shape_data(Jc, z, gens)
            timings[f"lex basis ({label})"] = time.time() - t0
            if data is None:
                last_reason = why
                continue
            u, cleared, f, delta = data
            t0 = time.time()
            # check (c) after cutting by the shape variable when it is a nonzerodivisor (the
            # Hilbert series get cheaper); if a factor fails there, again without the cut
            # (a second common cut was tried: on these ideals some factors then stop being
            # nonzerodivisors; a second cut chosen for each factor, _second_cut, works)
            for cuts in ([u], []):
                failure, m_factors, f_factors, hilbert, extra = exact_checks(
                    Jc, n, z, u, cleared, f, cuts, greedy=True, processes=processes,
                    symmetries=symmetries if change is None else ())
                if failure is None or not failure.startswith("the factor"):
                    break
            timings[f"checks ({label})"] = time.time() - t0
            if not last and failure is not None and not failure.startswith(("the factor", "the cut",
                                                                             "the dimension")):
                # the data of a subset are not those of J K[w]: try more generators
                last_reason = failure
                continue
            common = dict(original=J, change=change, independent=z, shape_variable=u, delta=delta,
                          cleared=cleared, denominator=f, denominator_factors=f_factors, m_factors=m_factors,
                          cuts=tuple(cuts), hilbert_checks=hilbert, timings=timings, **extra)
            if failure is None:
                return PrimalityCertificate(Jc, n, True, f"prime: checks (a)-(d) hold (delta = {delta})",
                                            **common)
            if failure == "reducible":
                return PrimalityCertificate(Jc, n, False, f"the polynomial m of degree {delta} in {u} is "
                                            f"reducible over GF({p})({', '.join(str(x) for x in z)}): not proved",
                                            **common)
            return PrimalityCertificate(Jc, n, False, failure + ": not proved", **common)
    return PrimalityCertificate(J, n, False, f"{last_reason} after {int(linear_changes)} random linear changes: "
                                "not proved", timings=timings, independent=z)
