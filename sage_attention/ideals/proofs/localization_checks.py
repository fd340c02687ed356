r"""
The exact checks of the localization certificate

The checks (a)--(d) of :mod:`sage_attention.ideals.proofs.localization`, run
on given data: membership of the cleared polynomials, the factorization of
`f m`, and the Hilbert series that show the cuts and the factors of the
denominator to be nonzerodivisors (check (c), with the factors spared by
symmetry, :mod:`sage_attention.ideals.proofs.factor_orbits`, and the second
cuts). :func:`exact_checks` is what
:func:`~sage_attention.ideals.proofs.localization.localization_certificate`
runs on the data it finds and what
:meth:`~sage_attention.ideals.proofs.localization.PrimalityCertificate.verify`
runs again on the stored data; the proof that they suffice is in
:mod:`sage_attention.ideals.proofs.localization`.

EXAMPLES::

    sage: from sage_attention.ideals.proofs.localization import localization_certificate
    sage: from sage_attention.ideals.proofs.localization_checks import exact_checks
    sage: R.<x,y,z> = GF(101)[]
    sage: C = localization_certificate(R.ideal([x*y - z^2]), 2)
    sage: exact_checks(C.ideal, 2, C.independent, C.shape_variable, C.cleared, C.denominator, list(C.cuts))[0] is None
    True
    sage: exact_checks(C.ideal, 2, C.independent, C.shape_variable, C.cleared[:-1] + (x,), C.denominator, [])[0]
    'the cleared polynomial x does not lie in the ideal'
"""
from sage.rings.integer_ring import ZZ
from sage.rings.polynomial.polynomial_ring_constructor import PolynomialRing

from sage_attention.ideals.proofs.factor_orbits import factor_orbits, preserving
from sage_attention.misc.forked import available_cores, map_in_children
from sage_attention.ideals.hilbert import reduced_numerator
from sage_attention.settings import settings


def changed(J, change):
    r"""
    Return the ideal of the generators of ``J`` after the substitution ``change = (u, {w: c})``.

    INPUT:

    - ``J`` -- an ideal
    - ``change`` -- a pair ``(u, {w: c})``: `u \mapsto u + \sum c\,w`

    OUTPUT: an ideal of the same ring

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.localization_checks import changed
        sage: R.<x,y> = GF(7)[]
        sage: changed(R.ideal([x*y]), (x, {y: 2})).gens()
        [x*y + 2*y^2]
    """
    u, coeffs = change
    S = J.ring()
    image = u + sum(c * w for w, c in coeffs.items())
    return S.ideal([g.subs({u: image}) for g in J.gens()])


def hilbert_numerator(J):
    r"""
    Return the numerator of the Hilbert series of `S/J` over `(1-t)^N`, in `\ZZ[t]`.

    INPUT:

    - ``J`` -- a homogeneous ideal of `S`

    OUTPUT: a polynomial in `\ZZ[t]`

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.localization_checks import hilbert_numerator
        sage: R.<x,y,z> = GF(7)[]
        sage: hilbert_numerator(R.ideal([x*y - z^2]))
        -t^2 + 1
    """
    T = PolynomialRing(ZZ, "t")
    if J.is_zero():
        return T.one()
    return T(list(J.hilbert_numerator()))


def _lead_numerator(polys, S):
    r"""
    Return the Hilbert numerator of `S/\mathrm{in}(P)`, with `\mathrm{in}(P)` the ideal of the leading monomials of ``polys``.

    No Gröbner basis is computed. If ``polys`` lie in an ideal `I`, then
    `\mathrm{in}(P) \subseteq \mathrm{in}(I)`, so the Hilbert function of
    `S/\mathrm{in}(P)` is at least that of `S/I` in every degree, with
    equality exactly when ``polys`` are a Gröbner basis of `I`.
    """
    from sage.rings.polynomial.hilbert import first_hilbert_series
    T = PolynomialRing(ZZ, "t")
    lead = [g.lm() for g in polys if g]
    if not lead:
        return T.one()
    return T(first_hilbert_series(S.ideal(lead)))


def krull_dimension(num, N):
    r"""
    Return the Krull dimension of `S/J` from its Hilbert numerator ``num`` over `(1-t)^N`.

    INPUT:

    - ``num`` -- the numerator (:func:`hilbert_numerator`)
    - ``N`` -- the number of variables

    OUTPUT: an integer

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.localization_checks import hilbert_numerator, krull_dimension
        sage: R.<x,y,z> = GF(7)[]
        sage: krull_dimension(hilbert_numerator(R.ideal([x*y - z^2])), 3)
        2
    """
    return reduced_numerator(num, N)[1]


def _regular(G, h, num_base, bound=None):
    r"""
    Return ``(left, right, P)`` for generators ``G`` of an ideal `B` with Hilbert numerator ``num_base``.

    ``P`` is a Gröbner basis of `B + h` (Singular's ``std`` from ``G`` and
    `h`; ``G`` may be a Gröbner basis of `B`, which often makes it
    cheaper), ``left`` the Hilbert numerator of its leading monomials and
    ``right`` that of `(1 - t^{\deg h}) H_{S/B}`. As ``P`` lies in `B + h`,
    ``left`` bounds `H_{S/(B+h)}` from above and ``right`` bounds it from
    below (the exact sequence of check (c)): ``left == right`` proves that
    `h` is a nonzerodivisor on `S/B` whatever the algorithm did, and that
    ``P`` is a Gröbner basis of `B + h`. With an integer ``bound`` the basis
    is computed only up to that degree (Singular's ``degBound``): that only
    makes the equality fail sooner when the basis needs higher degrees; when
    it holds, it is the same proof.
    """
    S = h.parent()
    t = num_base.parent().gen()
    I = S.ideal(list(G) + [h])
    P = I.groebner_basis() if bound is None else I.groebner_basis("libsingular:std", deg_bound=int(bound))
    return _lead_numerator(P, S), (1 - t ** h.degree()) * num_base, P


def _second_cut(base, sigma, num_base, h, candidates, given=None):
    r"""
    Check that the factor ``h`` is a nonzerodivisor modulo ``base``, perhaps after one more cut; return ``(v, cut, factor)``.

    ``v`` is the variable cut by (or ``None``), ``cut`` the Hilbert numerators
    ``(left, right)`` showing that it is a nonzerodivisor modulo ``base``
    (or ``None``), ``factor`` those of ``h`` modulo ``base`` and ``v``. With
    ``given`` (a variable, or ``None`` for no cut) that is the check made;
    otherwise at most ``settings.LOCALIZATION_SECOND_CUTS`` of the ``candidates`` are tried
    in order, each with its Gröbner bases bounded in degree (a failure is
    cheap), and the check without a second cut is the fallback. The search
    chooses the cost only: whichever check holds is a proof. ``factor``
    is ``None`` when the given cut is not a nonzerodivisor.
    """
    if given is not None:
        left, right, P = _regular(base, sigma(given), num_base)
        return given, (left, right), (_regular(P, sigma(h), left)[:2] if left == right else None)
    top = max((g.degree() for g in base), default=0)
    for v in [x for x in candidates or () if x != h][:settings.LOCALIZATION_SECOND_CUTS]:
        left, right, P = _regular(base, sigma(v), num_base, bound=top + 1)
        if left != right:
            continue
        l2, r2, _ = _regular(P, sigma(h), left, bound=top + 2 * h.degree())
        if l2 == r2:
            return v, (left, right), (l2, r2)
    return None, None, _regular(base, sigma(h), num_base)[:2]


def _stop(failure, m_factors=(), f_factors=()):
    # the result of exact_checks when it ends before check (c)
    return failure, m_factors, f_factors, (), dict(symmetries=(), factors_by_symmetry=(), second_cuts=())


def exact_checks(J, n, z, u, cleared, f, cuts, greedy=False, processes=1, symmetries=(), second_cuts=None):
    r"""
    Run the exact checks (a)--(d) on the data; return ``(failure or None, m_factors, f_factors, hilbert, extra)``.

    ``failure`` is a sentence naming the first check that fails. ``cuts`` is a
    list of linear forms to cut by before check (c), each checked to be a
    nonzerodivisor modulo the ones before; with ``greedy`` one that is not is
    skipped (the list is changed in place to the cuts kept). The factors of
    check (c) are shared among ``processes`` processes (``None``: one per
    available core). ``symmetries`` are permutations of the variables
    (:mod:`sage_attention.ideals.proofs.factor_orbits`): those that preserve `J`
    and map a factor to another are kept (``extra['symmetries']``), and a
    factor that is such an image is not checked again
    (``extra['factors_by_symmetry']``, a list of ``(h, r, g)``).
    ``second_cuts`` (a dictionary from factors to variables) gives the
    second cut of each factor; by default they are searched for when `f`
    involves more than half of the variables (``extra['second_cuts']``, a
    tuple of ``(h, v)``).

    INPUT:

    - ``J``, ``n`` -- the ideal over `\GF{p}` and the dimension claimed
    - ``z``, ``u``, ``cleared``, ``f``, ``cuts`` -- the data of a
      :class:`~sage_attention.ideals.proofs.localization.PrimalityCertificate`
      (independent set, shape variable, cleared polynomials, denominator, cuts)
    - ``greedy``, ``processes``, ``symmetries``, ``second_cuts`` -- as above

    OUTPUT: a tuple ``(failure or None, m_factors, f_factors, hilbert, extra)``

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.localization import localization_certificate
        sage: from sage_attention.ideals.proofs.localization_checks import exact_checks
        sage: R.<x,y,z> = GF(101)[]
        sage: exact_checks(R.ideal([x*y - z^2]), 1, (), None, (), None, [])[0]
        'the dimension of the ideal is 2, not 1'
    """
    S = J.ring()
    N = S.ngens()
    num_J = hilbert_numerator(J)
    hilbert = []
    if krull_dimension(num_J, N) != n:
        return _stop(f"the dimension of the ideal is {krull_dimension(num_J, N)}, not {n}")
    if n == N:      # dimension N: J = 0, prime
        return _stop(None)
    G = J.groebner_basis()
    if n == 0:      # the only homogeneous prime of dimension 0 is the ideal of all variables
        return _stop(None if all(x.reduce(G) == 0 for x in S.gens()) else "not the ideal of all variables")
    for g in cleared:
        if g.reduce(G) != 0:
            return _stop(f"the cleared polynomial {_short(g)} does not lie in the ideal")
    zset = set(z)
    if u in zset or len(zset) != n or any(x not in S.gens() for x in zset):
        return _stop("the shape variable and the independent variables are not as claimed")
    if not f or any(x not in zset for x in f.variables()) or not f.is_homogeneous():
        return _stop("the denominator is not a nonzero homogeneous polynomial in the independent variables")
    fm = cleared[-1]
    if any(x not in zset and x != u for x in fm.variables()) or fm.degree(u) < 1:
        return _stop("the last cleared polynomial does not involve only the independent and the shape variable")
    if fm.coefficient({u: fm.degree(u)}) != f:
        return _stop("the last cleared polynomial is not f times a monic polynomial in the shape variable")
    for g, w in zip(cleared[:-1], [x for x in S.gens() if x not in zset and x != u]):
        if g.coefficient({w: 1}) != f or g.degree(w) != 1 or \
                any(x not in zset and x not in (u, w) for x in g.variables()):
            return _stop(f"the cleared polynomial for {w} is not f*({w} - r({u}))")
    if len(cleared) != N - len(z):
        return _stop("there is not one cleared polynomial for each dependent variable")
    m_factors = tuple(fm.factor())
    positive = [(h, e) for h, e in m_factors if h.degree(u) > 0]
    if len(positive) != 1 or positive[0][1] != 1:
        return _stop("reducible", m_factors)
    f_factors = tuple(f.factor())
    for h, _ in f_factors:
        if not h.is_homogeneous():
            return _stop(f"the factor {h} of the denominator is not homogeneous", m_factors, f_factors)
    if f.degree() > 0:
        # check (c) in the given variable order or in the one with the variables of f last
        # (a permutation changes no Hilbert series, so both give the same equalities). Which
        # is cheaper depends on the ideal; the rule only chooses the cost: the second order
        # when f involves at most half of the variables (on the d = 3 slices, 5 to 7 of 18
        # variables: three times cheaper), the given one otherwise (on the single tokens of
        # rank 2 and 3, 8 of 10 variables: the second order is ten times dearer there)
        k = available_cores() if processes is None else int(processes)
        # with many variables in f, each factor may be checked after one more cut by a
        # variable (tried in order, bounded in degree): on the single tokens of rank 3 the
        # factors of degree 4 and 5 take 0.15 s each after a second cut, 0.8 and 2.8 s without;
        # on the slices, with the variables of f last, the search would cost 3 to 5 s more
        many = 2 * len(f.variables()) > N
        if not many:
            sigma = _variables_last(S, f.variables())
            base = [sigma(g) for g in J.gens()]
        else:
            sigma, base = S.hom(S.gens(), S), list(G)
        # the factors that are images of others, or of the first cut (a nonzerodivisor on
        # S/J), under a permutation preserving J are nonzerodivisors with them (the lemma of
        # factor_orbits): one check per orbit; only the permutations that map a factor to
        # another are checked
        factors = [h for h, _ in f_factors]

        def spared_by_symmetry(kept):
            found = factor_orbits(factors, symmetries, kept[:1])[1] if symmetries else ()
            preserved = preserving(G, J.gens(), dict.fromkeys(g for _, _, g in found))
            return preserved, tuple((h, r, g) for h, r, g in found if g in preserved)

        if not many and cuts:
            # the cuts and the factors checked side by side, the factors against the Hilbert
            # series that the cuts, once checked, give (see _side_by_side)
            preserved, images = spared_by_symmetry(cuts)
            spared = {h for h, _, _ in images}
            done = _side_by_side(base, sigma, num_J, cuts, [h for h in factors if h not in spared], k)
            if done is not None:
                failure, checks = done
                extra = dict(symmetries=preserved, factors_by_symmetry=images, second_cuts=())
                return failure, m_factors, f_factors, checks, extra
            # a cut is a zero divisor: cut by those that are not, one after the other
        failure, kept, hilbert, base, num_base = _cut_by(base, sigma, num_J, cuts, greedy)
        cuts[:] = kept
        if failure is not None:
            return failure, m_factors, f_factors, tuple(hilbert), _stop(None)[4]
        preserved, images = spared_by_symmetry(kept)
        spared = {h for h, _, _ in images}
        candidates = [x for x in S.gens() if x not in kept] if many and second_cuts is None else None
        failure, checks, seconds = _factor_checks(base, sigma, num_base, kept, [h for h in factors if h not in spared],
                                                  candidates, second_cuts or {}, k)
        extra = dict(symmetries=preserved, factors_by_symmetry=images, second_cuts=seconds)
        return failure, m_factors, f_factors, tuple(hilbert + checks), extra
    return _stop(None, m_factors, f_factors)


def _cut_by(base, sigma, num_J, cuts, greedy):
    r"""
    Cut by the linear forms ``cuts`` after the graded automorphism ``sigma``; return ``(failure or None, kept, hilbert, base, num_base)``.

    ``base`` generates `\sigma(J)` (a Gröbner basis or not), ``num_J`` is
    the Hilbert numerator of `S/J`. Each cut must be a nonzerodivisor
    modulo `J` and the cuts kept before it; with ``greedy`` one that is not
    is skipped. ``base`` and ``num_base`` returned are a Gröbner basis and
    the Hilbert numerator of `\sigma(J)` plus the cuts kept.
    """
    hilbert, kept = [], []
    num_base = num_J
    for ell in cuts:
        left, right, P = _regular(base, sigma(ell), num_base)
        if left != right:
            if greedy:          # not a nonzerodivisor here: do not cut by it
                continue
            hilbert.append((f"{ell} is a nonzerodivisor modulo {tuple(kept)}", left, right))
            return f"the cut {ell} is a zero divisor", kept, hilbert, base, num_base
        hilbert.append((f"{ell} is a nonzerodivisor modulo {tuple(kept)}", left, right))
        kept.append(ell)
        base, num_base = P, left
    return None, kept, hilbert, base, num_base


def _side_by_side(gens, sigma, num_J, cuts, factors, processes=1):
    r"""
    Check the ``cuts`` and the ``factors`` at once, each from the generators; return ``(failure or None, hilbert)``, or ``None`` when a cut is a zero divisor.

    ``gens`` generate `\sigma(J)`, whose Hilbert numerator is ``num_J``.
    The `i`-th cut `\ell_i` is checked against `(1-t)^{i-1}` times
    ``num_J``, and each factor `h` of degree `e` against `(1 - t^e)
    (1-t)^k` times ``num_J`` (`k` cuts), by a Gröbner basis of the
    generators and the forms cut by, in ``processes`` processes. That is
    check (c) as :func:`_cut_by` and :func:`_factor_checks` make it, one
    check after the other: when the cuts hold, `H_{S/(J + \ell_1 + \dots
    + \ell_i)} = (1-t)^i H_{S/J}` for each `i` by induction, so every
    right side is the one of the sequential check, and an equality proves
    the same. Nothing waits for the Gröbner basis of another check, so
    the checks share the cores from the start (on the `d = 3`, `a = 2`
    slice: the cut and two quadrics, 0.1, 0.2 and 0.15 s, on two cores).
    ``None`` is returned when a cut fails (then the caller cuts by those
    that hold, one after the other).
    """
    t = num_J.parent().gen()
    jobs = [(list(gens) + [sigma(ell) for ell in cuts[:i]], ell, (1 - t) ** i * num_J) for i, ell in enumerate(cuts)]
    cut = list(gens) + [sigma(ell) for ell in cuts]
    jobs += [(cut, h, (1 - t) ** len(cuts) * num_J) for h in factors]
    results = map_in_children(lambda job: _regular(job[0], sigma(job[1]), job[2])[:2], jobs, processes)
    hilbert = []
    for i, (ell, (left, right)) in enumerate(zip(cuts, results)):
        if left != right:
            return None
        hilbert.append((f"{ell} is a nonzerodivisor modulo {tuple(cuts[:i])}", left, right))
    for h, (left, right) in zip(factors, results[len(cuts):]):
        hilbert.append((f"the factor {h} of the denominator is a nonzerodivisor modulo {tuple(cuts)}", left, right))
        if left != right:
            return f"the factor {h} of the denominator is a zero divisor", tuple(hilbert)
    return None, tuple(hilbert)


def _factor_checks(base, sigma, num_base, kept, factors, candidates, second_cuts, processes=1):
    r"""
    Check that each of ``factors`` is a nonzerodivisor modulo ``base`` (the ideal cut by ``kept``); return ``(failure or None, hilbert, second cuts)``.

    Each factor is checked by :func:`_second_cut`, with the second cut
    given for it in ``second_cuts`` (a dictionary) or searched among
    ``candidates`` (``None``: no search), in ``processes`` forked processes;
    the second cuts used are returned as a tuple of ``(h, v)``.
    """
    results = map_in_children(lambda h: _second_cut(base, sigma, num_base, h, candidates, second_cuts.get(h)),
                              factors, processes)
    hilbert, used = [], []
    for h, (v, cut, pair) in zip(factors, results):
        where = tuple(kept)
        if v is not None:
            used.append((h, v))
            hilbert.append((f"{v} is a nonzerodivisor modulo {where}", cut[0], cut[1]))
            if pair is None:
                return f"the cut {v} is a zero divisor", hilbert, tuple(used)
            where += (v,)
        hilbert.append((f"the factor {h} of the denominator is a nonzerodivisor modulo {where}", *pair))
        if pair[0] != pair[1]:
            return f"the factor {h} of the denominator is a zero divisor", hilbert, tuple(used)
    return None, hilbert, tuple(used)


def _variables_last(S, last):
    r"""
    Return the map from ``S`` to the polynomial ring over the same field, in degrevlex, with the variables ``last`` last.

    A permutation of the variables is a graded automorphism: ideals keep
    their Hilbert series and nonzerodivisors stay nonzerodivisors. The
    Gröbner bases of check (c) adding a factor `h` of the denominator are
    much cheaper when the variables of `h` are the smallest (on the `d = 3`
    slices of rank `3`, 0.5 s in place of 1.1 s; not always: see check (c)
    of the module documentation).

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.localization_checks import _variables_last
        sage: R.<x,y,z> = GF(7)[]
        sage: sigma = _variables_last(R, [x]); sigma(x*y + z).parent()
        Multivariate Polynomial Ring in y, z, x over Finite Field of size 7
    """
    names = [str(x) for x in S.gens()]
    tail = [str(x) for x in last]
    T = PolynomialRing(S.base_ring(), [x for x in names if x not in tail] + tail, order="degrevlex")
    return S.hom([T(x) for x in names], T)


def _short(g, n=60):
    s = str(g)
    return s if len(s) <= n else s[:n] + "..."
