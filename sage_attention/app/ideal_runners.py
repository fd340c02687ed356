r"""
The runners of ``vanishing_ideal``: interpolation, elimination, and the networks' ideals

:func:`run_vanishing_ideal` runs the statement on attention models (the
implicitization engine, or elimination where the library chooses it) and
:func:`run_stack_vanishing_ideal` on polynomial networks and transformer
blocks (elimination; an ideal that is not homogeneous is given by its
reduced Gröbner basis, since its minimal generators have no degrees).
They are named in :data:`sage_attention.catalog.computations.COMPUTATIONS`
and run by :func:`sage_attention.app.runners.runner`.

Importing this module loads no Sage: each runner imports what it needs.
"""
from sage_attention.settings import settings


def run_vanishing_ideal(model, computation, options):
    r"""
    Run ``vanishing_ideal [up to degree N] [algorithm = A]``.

    ``algorithm = elimination`` (Singular; complete) or ``interpolation``
    (degree by degree up to ``N``, default 4); ``up to degree N`` alone means
    interpolation through degree ``N``; with neither, elimination for small
    models and interpolation otherwise.

    INPUT: as for :func:`run_dimension`; ``options['progress']`` (set by
    the run, default ``False``) shows the progress of the vanishing ideal
    and of the minimal generators on standard error

    OUTPUT: a dictionary with ``generators_by_degree`` (minimal generators,
    linear relations included), ``complete_through_degree`` (``None`` when
    the whole ideal is known), ``proved_complete``, ``algorithm``,
    ``generators`` (strings) and ``text``

    EXAMPLES::

        sage: from sage_attention.app.ideal_runners import run_vanishing_ideal
        sage: from sage_attention import LightningAttention
        sage: M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
        sage: r = run_vanishing_ideal(M, None, {"algorithm": "elimination"})
        sage: r["generators_by_degree"], r["proved_complete"]
        ({1: 4, 2: 3}, True)
        sage: s = run_vanishing_ideal(M, None, {"algorithm": "interpolation", "degree": 3})
        sage: s["generators_by_degree"], s["complete_through_degree"]
        ({1: 4, 2: 3}, 3)
    """
    from sage_attention.misc.polynomial_text import polynomial_text
    X = model.neurovariety()
    algorithm = options.get("algorithm")
    degree = options.get("degree")
    if degree is not None and algorithm is None:
        algorithm = "interpolation"
    progress = bool(options.get("progress", False))
    force = bool(options.get("force", False))
    res = X.vanishing_ideal_report(algorithm=algorithm, degree=degree, force=force, progress=progress)
    interpolated = hasattr(res, "complete_through_degree")
    if interpolated:
        # the minimal generators of the neurovariety (its ``minimal_generators``: the linear
        # relations, then the engine's generators by degree), written without a second copy
        texts = generator_texts(model, res)
    else:
        texts = [polynomial_text(g) for g in X.minimal_generators(algorithm=algorithm, degree=degree,
                                                                   progress=progress)]
    count = "exact"
    if interpolated:
        by_degree, count = interpolation_counts(model, res, force, progress, count=options.get("count"))
        complete = res.complete_through_degree
        proved = bool(res.proved_complete)
        how = f"interpolation, complete through degree {complete}"
        # what is proved and what is not, in the words of the report (ImplicitizationReport)
        how += "; " + res.status() + str(res.proof)
    else:
        by_degree = dict(sorted(X.minimal_generators_by_degree(progress=progress).items()))
        complete, proved = None, True
        how = f"elimination ({res.algorithm}), the whole ideal, {res.seconds:.2f} s"
    counts = ", ".join(f"{n} of degree {k}" for k, n in by_degree.items())
    text = f"minimal generators: {counts}\n{how}"
    if count != "exact":
        text += "\n" + count
        count = "modulo p"
    out = {"algorithm": "interpolation" if interpolated else "elimination",
           "generators_by_degree": by_degree, "minimal_count": count, "complete_through_degree": complete,
           "proved_complete": proved, "generators": texts, "text": text}
    if interpolated:
        out["timings"] = dict(res.timings)
    elif getattr(res, "seconds", None) is not None:
        out["seconds"] = res.seconds
    return out


def generator_texts(model, res):
    r"""
    Return the texts of the minimal generators of an interpolation report, in the model's coordinates.

    They are the texts of
    :meth:`~sage_attention.variety.neurovariety.Neurovariety.minimal_generators`:
    the linear relations, then the engine's generators by increasing
    degree. When the essential ring's variables are named as the
    coordinates they stand for, in the same order (the rings are ordered
    degrevlex), a generator's terms come in the same order in both rings,
    so its text is written from the essential ring, without mapping it
    into the coordinate ring.

    INPUT:

    - ``model`` -- the model (or the coordinate model of a network) of the report
    - ``res`` -- an :class:`~sage_attention.ideals.engine.report.ImplicitizationReport`

    OUTPUT: a list of strings

    EXAMPLES::

        sage: from sage_attention.app.ideal_runners import generator_texts
        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.implicitization import implicitize
        sage: M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
        sage: R = implicitize(M, 2, seed=0)
        sage: generator_texts(M, R) == [str(g) for g in M.neurovariety().minimal_generators()]
        True
        sage: generator_texts(M, R)[-1]
        '-Y11_x12x12x21*Y11_x11x12x22 + Y11_x11x12x12*Y11_x12x21x22'
    """
    from sage_attention.misc.polynomial_text import polynomial_text
    C = model.coordinate_ring()
    texts = [polynomial_text(C(f)) for f in model.linear_relations()]
    gens = sorted(res.essential_generators, key=lambda g: g.degree())
    if not gens:
        return texts
    E = gens[0].parent()
    names = [str(x) for x in model.essential_coordinates()]
    index = {n: i for i, n in enumerate(C.variable_names())}
    same = (E.variable_names() == tuple(names) and all(n in index for n in names)
            and [index[n] for n in names] == sorted(index[n] for n in names)
            and E.term_order().name() == C.term_order().name() == "degrevlex")
    if same:
        return texts + [polynomial_text(g) for g in gens]
    toC = E.hom([C(x) for x in model.essential_coordinates()], C)
    return texts + [polynomial_text(toC(g)) for g in gens]


def interpolation_counts(model, res, force, progress, limit=None, count=None):
    r"""
    Return ``(by_degree, how)``: the numbers of minimal generators of an interpolation result.

    The engine's generators of each degree are independent modulo `p`
    modulo the multiples of the lower degrees (see
    :mod:`~sage_attention.ideals.implicitization`). In the lowest degree
    there are no multiples: integer polynomials independent modulo `p` are
    independent over `\QQ`, so that count is exact, and so are all of them
    when the generators have one degree. Above it, a count is an upper
    bound over `\QQ` (too large only if `p` divides a minor of the
    multiples' matrix). The counts are recounted exactly over `\QQ`
    (:func:`~sage_attention.ideals.minimal_generators.minimal_generators_count`)
    when ``count`` is ``'exact'``, or ``force`` is true, or (``count``
    ``None``, the default) the size of that recount
    (:func:`~sage_attention.ideals.minimal_generators.exact_count_size`) is
    at most ``settings.EXACT_COUNT_SIZE`` (:mod:`sage_attention.settings`;
    ``limit`` when given); ``how`` is then ``'exact'``, as it is when the
    generators have one degree (nothing to recount). Otherwise
    (``count = 'engine'``, or beyond the size) the engine's counts are
    returned (the linear relations added), and ``how`` is the sentence that
    says so.

    INPUT:

    - ``model`` -- the model of ``res`` (for a network, its coordinate model)
    - ``res`` -- an interpolation report
    - ``force`` -- boolean; recount at any size
    - ``progress`` -- boolean; show the recount's progress
    - ``limit`` -- integer (default: ``settings.EXACT_COUNT_SIZE``); the largest size recounted by default
    - ``count`` -- ``None`` (default), ``'exact'`` or ``'engine'``: the option ``count`` of the statement

    OUTPUT: a pair (dictionary, string)

    EXAMPLES::

        sage: from sage_attention.app.ideal_runners import interpolation_counts
        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.implicitization import implicitize
        sage: M = LightningAttention(d=3, t=2, a=1, entries=[(1, 1)])
        sage: R = implicitize(M, 3)
        sage: interpolation_counts(M, R, False, False)
        ({1: 10, 2: 45, 3: 10}, 'exact')

    Beyond the size limit, or with ``count = 'engine'``, the engine's counts
    are returned, and said to be::

        sage: counts, how = interpolation_counts(M, R, False, False, limit=10^5)
        sage: counts; print(how)
        {1: 10, 2: 45, 3: 10}
        the counts are the engine's: exact in degree 2 (independent modulo 8388593, hence over QQ),
        certified modulo 8388593 above it (an upper bound over QQ); the exact count over QQ
        (size 923400 > 100000) was skipped: pass --force (force=True) or write `count = exact` to run it
        sage: print(interpolation_counts(M, R, False, False, count="engine")[1])
        the counts are the engine's: ... the exact count over QQ was not run (`count = engine`)
        sage: interpolation_counts(M, R, True, False, limit=10^5)[1]
        'exact'
        sage: interpolation_counts(M, R, False, False, limit=10^5, count="exact")[1]
        'exact'

    Generators of one degree are counted exactly by the engine (the twisted
    cubic's three quadrics; the recount is not run)::

        sage: from sage_attention import PolynomialNetwork
        sage: N = PolynomialNetwork([2, 1, 1], 3).coordinate_model()
        sage: interpolation_counts(N, implicitize(N, 2), False, False, limit=0)
        ({2: 3}, 'exact')
    """
    from sage_attention.ideals import minimal_generators as mg
    from sage_attention.settings import settings
    if count not in (None, "exact", "engine"):
        raise ValueError(f"count (={count!r}) must be None, 'exact' or 'engine'")
    gens = [g for g in res.essential_generators if g]
    size = mg.exact_count_size([g.degree() for g in gens], model.essential_ring().ngens())
    limit = settings.EXACT_COUNT_SIZE if limit is None else int(limit)
    engine = {int(k): len(v) for k, v in res.generators_by_degree.items() if len(v)}
    nlin = len(model.linear_relations())
    if nlin:
        engine[1] = engine.get(1, 0) + nlin
    engine = dict(sorted(engine.items()))
    if force or count == "exact" or (count is None and 0 < size <= limit):
        from sage_attention.misc.interrupts import ComputationInterrupted, raise_interrupted
        try:
            return dict(sorted(mg.minimal_generators_count(res.coordinate_ideal(force=force), force=force,
                                                           progress=progress).items())), "exact"
        except ComputationInterrupted as e:
            # Ctrl-C in the recount: the interpolation finished, its counts are the engine's
            raise_interrupted(e, e.phase, e.partial, e.what_finished, e.resume,
                              dict(e.summary, complete_through_degree=res.complete_through_degree,
                                   generators_by_degree={int(k): len(v) for k, v in res.generators_by_degree.items()},
                                   linear_relations=nlin, prime=res.prime))
    degrees = sorted({int(g.degree()) for g in gens})
    if len(degrees) <= 1:
        # one degree (or none): independent modulo p, hence over QQ, and nothing lower to divide by
        return engine, "exact"
    why = ("was not run (`count = engine`)" if count == "engine" else
           f"(size {size} > {limit}) was skipped: pass --force (force=True) or write `count = exact` to run it")
    how = (f"the counts are the engine's: exact in degree {degrees[0]} (independent modulo {res.prime}, hence "
           f"over QQ), certified modulo {res.prime} above it (an upper bound over QQ); the exact count over QQ "
           + why)
    return engine, how


def run_stack_vanishing_ideal(model, computation, options):
    r"""
    Run ``vanishing_ideal`` on a network with dense layers.

    A network of dense layers without biases or residual streams is
    homogeneous in each layer's weights, so the interpolation engine applies
    (:func:`run_network_interpolation`; ``algorithm = elimination`` asks for
    elimination instead). The others are eliminated: the weights are
    eliminated from the graph ideal of the parametrization
    (:func:`~sage_attention.ideals.stack_elimination.stack_vanishing_ideal`),
    for small networks only (the size guard); the result is the whole ideal,
    so it is proved complete.

    INPUT: as for :func:`run_vanishing_ideal` (``check`` refuses
    ``algorithm = interpolation`` and ``up to degree N`` on the networks the
    engine does not take)

    OUTPUT: a dictionary as :func:`run_vanishing_ideal` returns

    EXAMPLES:

    The shallow network `x \mapsto c\,(w \cdot x)^3` in two variables: the
    binary cubics that are cubes, the twisted cubic, by the engine, and by
    elimination on request::

        sage: from sage_attention.app.ideal_runners import run_stack_vanishing_ideal
        sage: from sage_attention import PolynomialNetwork
        sage: r = run_stack_vanishing_ideal(PolynomialNetwork([2, 1, 1], 3), None, {})
        sage: r["generators_by_degree"], r["proved_complete"], r["algorithm"]
        ({2: 3}, True, 'interpolation')
        sage: r = run_stack_vanishing_ideal(PolynomialNetwork([2, 1, 1], 3), None, {"algorithm": "elimination"})
        sage: r["generators_by_degree"], r["proved_complete"], r["algorithm"]
        ({2: 3}, True, 'elimination')
        sage: print(r["text"])
        minimal generators: 3 of degree 2
        elimination (Singular, the weights eliminated), the whole ideal, ... s

    The ternary quadrics that are sums of four squares fill their space::

        sage: from sage_attention import Network, dense
        sage: r = run_stack_vanishing_ideal(Network([dense(out=4, r=2), dense(out=1)], d=3), None,
        ....:                               {"algorithm": "elimination"})
        sage: print(r["text"])
        minimal generators: none (the ideal is zero)
        the outputs fill their space (the Jacobian's rank is the number of coordinates, 6): nothing to eliminate, the whole ideal, ... s

    A residual stream mixes degrees: `x \mapsto x + (w x)^2` has the
    coefficient `1` at `x`, so its ideal is not homogeneous, and its reduced
    Gröbner basis is given instead of degrees of minimal generators::

        sage: M = Network([dense(out=1, r=2, residual=True)], d=1, linear_output=False)
        sage: r = run_stack_vanishing_ideal(M, None, {})
        sage: r["homogeneous"], r["generators_by_degree"], r["generators"]
        (False, None, ['c1 - 1', 'c2'])
        sage: print(r["text"])
        the ideal is not homogeneous (the network mixes degrees): its reduced Gröbner basis in the order degrevlex has 2 elements (of degrees 1, 1)
        elimination (Singular, the weights eliminated), the whole ideal, ... s
    """
    import time
    from sage_attention.misc.polynomial_text import polynomial_text
    from sage_attention.ideals.stack_elimination import stack_vanishing_ideal
    from sage_attention.misc.progress import Heartbeat
    from sage_attention.ideals.minimal_generators import minimal_basis, minimal_generators_count
    force, progress = bool(options.get("force", False)), bool(options.get("progress", False))
    if options.get("algorithm") != "elimination" and engine_applies(model):
        return run_network_interpolation(model, options)
    t0 = time.time()
    with Heartbeat("elimination: the weights of the network", progress):
        I = stack_vanishing_ideal(model, force=force)
    seconds = time.time() - t0
    if not I.is_zero() and not I.is_homogeneous():
        # a residual stream or a nonlinear last layer with biases mixes degrees: an inhomogeneous
        # ideal has no minimal generators counted by degree (their number and degrees are not
        # invariants), so its reduced Groebner basis is given, in the ring's (stated) order
        gb = list(I.groebner_basis())
        order = I.ring().term_order().name()
        degrees = ", ".join(str(int(g.degree())) for g in gb)
        text = (f"the ideal is not homogeneous (the network mixes degrees): its reduced Gröbner basis in "
                f"the order {order} has {len(gb)} element{'s' if len(gb) != 1 else ''} (of degrees {degrees})\n"
                f"elimination (Singular, the weights eliminated), the whole ideal, {seconds:.2f} s")
        return {"algorithm": "elimination", "homogeneous": False, "basis": f"reduced Groebner basis ({order})",
                "generators_by_degree": None, "complete_through_degree": None, "proved_complete": True,
                "generators": [polynomial_text(g) for g in gb], "text": text}
    gens = minimal_basis(I) if not I.is_zero() else []
    by_degree = dict(sorted(minimal_generators_count(I, force=force, progress=progress).items()))
    counts = ", ".join(f"{n} of degree {k}" for k, n in by_degree.items()) or "none (the ideal is zero)"
    if I.is_zero() and I.ring().ngens():
        how = (f"the outputs fill their space (the Jacobian's rank is the number of coordinates, "
               f"{I.ring().ngens()}): nothing to eliminate, the whole ideal")
    else:
        how = "elimination (Singular, the weights eliminated), the whole ideal"
    text = f"minimal generators: {counts}\n{how}, {seconds:.2f} s"
    return {"algorithm": "elimination", "homogeneous": True, "basis": "minimal generators",
            "generators_by_degree": by_degree, "complete_through_degree": None,
            "proved_complete": True, "generators": [polynomial_text(g) for g in gens], "text": text}


def engine_applies(model):
    r"""
    Return whether the interpolation engine takes the network ``model``: homogeneous dense layers, over
    a field the engine takes (:mod:`sage_attention.catalog.fields`; elsewhere the ideal is eliminated).

    EXAMPLES::

        sage: from sage_attention.app.ideal_runners import engine_applies
        sage: from sage_attention import PolynomialNetwork
        sage: engine_applies(PolynomialNetwork([2, 3, 1], 6)), engine_applies(PolynomialNetwork([2, 3, 1], 6, bias=True))
        (True, False)
    """
    from sage_attention.catalog.fields import field_info, refusal
    return (model.is_dense() and model.is_homogeneous()
            and not any(getattr(layer, "residual", False) or getattr(layer, "bias", False)
                        for layer in model.layers)
            and refusal("interpolation", field_info(model.base_ring())) is None)


def run_network_interpolation(model, options):
    r"""
    Run ``vanishing_ideal [up to degree N]`` on a homogeneous network of dense layers: the interpolation engine.

    With a degree, the engine runs through it, with the whole-ideal proof
    (:func:`~sage_attention.ideals.implicitization.implicitize`). Without
    one, through ``settings.DEFAULT_INTERPOLATION_DEGREE``, then degree by
    degree while generators are missing (the ideal found has a larger
    dimension than the network's: :func:`dimension_exceeds`) and the next
    degree has at most ``settings.HIGHER_DEGREE_MONOMIAL_LIMIT`` monomials;
    these passes interpolate only, and the whole-ideal proof runs once, at
    the last degree (the pieces computed are cached). It never falls back
    to elimination: an ideal not proved whole is reported complete through
    the degrees computed, and says so.

    INPUT: as for :func:`run_stack_vanishing_ideal`

    OUTPUT: a dictionary as :func:`run_vanishing_ideal` returns

    EXAMPLES:

    Two inputs, three hidden neurons of degree `6`: the binary sextics that
    are sums of three sixth powers, one quartic (the catalecticant), proved::

        sage: from sage_attention.app.ideal_runners import run_network_interpolation
        sage: from sage_attention import PolynomialNetwork
        sage: r = run_network_interpolation(PolynomialNetwork([2, 3, 1], 6), {"seed": 0})
        sage: r["generators_by_degree"], r["proved_complete"], r["algorithm"]
        ({4: 1}, True, 'interpolation')
        sage: print(r["text"])
        minimal generators: 1 of degree 4
        interpolation, complete through degree 4; the whole ideal is proved: ...
    """
    import tempfile
    from math import comb
    from sage_attention.ideals.implicitization import implicitize
    from sage_attention.misc.polynomial_text import polynomial_text
    force, progress = bool(options.get("force", False)), bool(options.get("progress", False))
    degree = options.get("degree")
    seed = options.get("seed")
    with tempfile.TemporaryDirectory(prefix="sage-attention-pieces-") as cache:
        k = degree if degree is not None else settings.DEFAULT_INTERPOLATION_DEGREE
        # the degrees by interpolation alone (the pieces cached), while the ideal found is too large in
        # dimension; the whole-ideal proof once, at the last degree (its pieces are read from the cache)
        while degree is None:
            res = implicitize(model, k, seed=seed, cache_dir=cache, progress=progress, force=force, prove=False)
            n = len(res.essential_coordinates)
            if not dimension_exceeds(model.coordinate_model(), res, seed) \
                    or comb(n + k, k + 1) > settings.HIGHER_DEGREE_MONOMIAL_LIMIT:
                break
            k += 1
        res = implicitize(model, k, seed=seed, cache_dir=cache, progress=progress, force=force)
    # the minimal generators counted exactly over the base field when small (as for attention models)
    by_degree, count = interpolation_counts(model.coordinate_model(), res, force, progress,
                                            count=options.get("count"))
    counts = ", ".join(f"{n} of degree {j}" for j, n in sorted(by_degree.items())) or \
        f"none through degree {res.complete_through_degree}"
    text = (f"minimal generators: {counts}\ninterpolation, complete through degree "
            f"{res.complete_through_degree}; {res.status()}{res.proof}")
    if count != "exact":
        text += "\n" + count
    out = {"algorithm": "interpolation", "homogeneous": True, "basis": "minimal generators",
           "generators_by_degree": dict(sorted(by_degree.items())),
           "minimal_count": "exact" if count == "exact" else "modulo p",
           "complete_through_degree": res.complete_through_degree,
           "proved_complete": bool(res.proved_complete),
           "generators": [polynomial_text(g) for g in res.essential_generators], "text": text}
    return out


def dimension_exceeds(model, res, seed=None):
    r"""
    Return whether the ideal found by the interpolation report ``res`` is too large in dimension: generators of higher degree are missing.

    The dimension of the quotient by the reduction modulo `p` of the ideal
    found (``settings.HILBERT_PRIMES[0]``) bounds its dimension over `\QQ`
    from above; when it exceeds the model's dimension (a Jacobian rank at
    random points, a lower bound), the ideal found is not the vanishing
    ideal. This is the test the whole-ideal proof starts with
    (:func:`~sage_attention.variety.vanishing_ideal.generators_missing`),
    without the proof.

    INPUT:

    - ``model`` -- the model of ``res`` (for a network, its coordinate model)
    - ``res`` -- an interpolation report
    - ``seed`` -- (default: ``None``) the seed of the model's dimension

    OUTPUT: boolean

    EXAMPLES:

    The ternary quartics that are sums of five fourth powers: no equation
    through degree 4 (their ideal is Clebsch's sextic, the catalecticant's
    determinant); the quartics of rank one (a Veronese surface) have their
    quadrics::

        sage: from sage_attention.app.ideal_runners import dimension_exceeds
        sage: from sage_attention import PolynomialNetwork
        sage: from sage_attention.ideals.implicitization import implicitize
        sage: C = PolynomialNetwork([3, 5, 1], 4).coordinate_model()
        sage: dimension_exceeds(C, implicitize(C, 4, prove=False), seed=0)
        True
        sage: V = PolynomialNetwork([3, 1, 1], 4).coordinate_model()
        sage: dimension_exceeds(V, implicitize(V, 2, prove=False), seed=0)
        False
    """
    from sage_attention.ideals.hilbert import reduction
    gens = [g for g in res.essential_generators if g]
    E = model.essential_ring()
    found = E.ngens() if not gens else int(reduction(gens, E, settings.HILBERT_PRIMES[0]).dimension())
    return found > int(model.dimension(seed=seed))
