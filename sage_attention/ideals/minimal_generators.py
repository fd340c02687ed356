r"""
Minimal generators of homogeneous ideals, degree by degree

A homogeneous ideal `J = (f_1, \ldots, f_m)` has minimal generating sets,
and the number of their elements of each degree `k` does not depend on the
choice: it is the dimension of `J_k / (R_1 J_{k-1})`, the degree-`k` part
modulo the multiples of lower degrees. It is computed here by reducing the
generators of degree `k` modulo a Gröbner basis of the lower-degree
generators truncated at degree `k`, and taking the rank of what is left
(:func:`minimal_generator_counts`).

This is the package's one implementation of minimal generators: the
neurovariety (:meth:`~sage_attention.variety.neurovariety.Neurovariety.minimal_generators_by_degree`),
the generation report and the command line count with
:func:`minimal_generators_count`, which first removes the linear
generators (solved for some variables, substituted in the others) and
hands an inhomogeneous ideal to Singular's ``minbase``
(:func:`minimal_basis`; refused without ``force=True`` in more than
``settings.MINBASE_VARIABLE_LIMIT`` variables). Whether the exact count is
cheap enough to run by default is :func:`exact_count_size` against
``settings.EXACT_COUNT_SIZE`` (:mod:`sage_attention.settings`).

EXAMPLES:

The twisted cubic has three quadrics; a multiple of one of them adds no
generator, a new cubic adds one::

    sage: from sage_attention.ideals.minimal_generators import minimal_generator_counts
    sage: R.<a, b, c, d> = QQ[]
    sage: q = [a*c - b^2, b*d - c^2, a*d - b*c]
    sage: minimal_generator_counts(R, q + [a*q[0], b^3], 3)
    {2: 3, 3: 1}
"""
# sage.doctest: needs sage.libs.singular
import logging

from sage_attention.misc.errors import ComputationTooLarge
from sage_attention.misc.progress import Heartbeat, interruptible, redelivering_interrupts
from sage_attention.misc.interrupts import ComputationInterrupted, raise_interrupted
from sage_attention.settings import settings

logger = logging.getLogger("sage_attention")

# ``settings.EXACT_COUNT_SIZE``: the size (rows times columns of the matrices
# of multiples, summed over the degrees) up to which the exact count runs by
# default: about 10^8 on the width-4 slice of rank 1 (1 s); the width-4 slice
# of rank 2 is 3 * 10^9 (more than 17 min). ``settings.MINBASE_VARIABLE_LIMIT``:
# :func:`minimal_generators_count` refuses (without ``force=True``) a Singular
# ``minbase`` in more variables than this, after the linear generators are removed.


def __getattr__(name):
    r"""
    Return the tunables once defined here (``EXACT_COUNT_SIZE``, ``MINBASE_VARIABLE_LIMIT``) from :data:`~sage_attention.settings.settings`.

    EXAMPLES::

        sage: from sage_attention.ideals import minimal_generators as mg
        sage: from sage_attention.settings import settings
        sage: with settings.override(EXACT_COUNT_SIZE=10):
        ....:     mg.EXACT_COUNT_SIZE
        10
        sage: mg.MINBASE_VARIABLE_LIMIT == settings.MINBASE_VARIABLE_LIMIT
        True
    """
    if name in ("EXACT_COUNT_SIZE", "MINBASE_VARIABLE_LIMIT"):
        return getattr(settings, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def exact_count_size(degrees, nvariables):
    r"""
    Return the size of the exact count of minimal generators of the given degrees.

    In degree `k` the generators of lower degrees `j` are multiplied by
    the `\binom{n + k - j - 1}{k - j}` monomials of degree `k - j`; the
    size is the number of these products times the number of monomials of
    degree `k`, summed over the degrees `k` of the generators. It measures
    the linear algebra of :func:`minimal_generator_counts` (the truncated
    Gröbner basis over the base field works on the same matrix).

    INPUT:

    - ``degrees`` -- the degrees of the generators (with repetitions)
    - ``nvariables`` -- integer; the number of variables `n`

    OUTPUT: an integer

    EXAMPLES:

    Ten quadrics and five cubics in six variables: in degree `3`, the 60
    products of the quadrics with the variables, against the 56 cubic
    monomials::

        sage: from sage_attention.ideals.minimal_generators import exact_count_size
        sage: exact_count_size([2] * 10 + [3] * 5, 6)
        3360
    """
    from math import comb
    degrees = [int(k) for k in degrees]
    n = int(nvariables)
    total = 0
    for k in sorted(set(degrees)):
        rows = sum(comb(n + k - j - 1, k - j) for j in degrees if j < k)
        total += rows * comb(n + k - 1, k)
    return total


def truncated_groebner_basis(E, polys, bound):
    r"""
    Return a Gröbner basis of the homogeneous ideal of ``polys`` truncated at degree ``bound``.

    It reduces a homogeneous polynomial of degree at most ``bound`` to zero
    exactly when the polynomial is in the ideal.

    INPUT:

    - ``E`` -- a polynomial ring
    - ``polys`` -- homogeneous polynomials of ``E``
    - ``bound`` -- integer; the degree bound

    OUTPUT: a list of polynomials (empty when ``polys`` has no nonzero element)

    EXAMPLES::

        sage: from sage_attention.ideals.minimal_generators import truncated_groebner_basis
        sage: R.<x, y> = QQ[]
        sage: G = truncated_groebner_basis(R, [x^2 - y^2, x*y], 3)
        sage: (x^3).reduce(G), (x^2).reduce(G) == 0
        (0, False)
    """
    polys = [f for f in polys if f]
    if not polys:
        return []
    return list(E.ideal(polys).groebner_basis("libsingular:std", deg_bound=int(bound)))


def _rank_modulo(E, lower, here, k):
    r"""
    Return the rank of the polynomials ``here`` (of degree ``k``) modulo the ideal of ``lower``.
    """
    from sage.all__sagemath_singular import matrix
    G = truncated_groebner_basis(E, lower, k)
    red = [f.reduce(G) if G else f for f in here]
    red = [f for f in red if f]
    if not red:
        return 0
    mons = sorted({m for f in red for m in f.monomials()})
    pos = {m: i for i, m in enumerate(mons)}
    A = matrix(E.base_ring(), len(red), len(mons), sparse=True)
    for i, f in enumerate(red):
        for c, m in zip(f.coefficients(), f.monomials()):
            A[i, pos[m]] = c
    return A.rank()


def minimal_generator_counts(E, polys, bound, progress=False):
    r"""
    Return ``{degree: number}`` of minimal generators of the homogeneous
    ideal of ``polys`` in degrees up to ``bound``.

    INPUT:

    - ``E`` -- a polynomial ring
    - ``polys`` -- homogeneous polynomials of ``E``
    - ``bound`` -- integer; degrees above it are not counted
    - ``progress`` -- boolean (default: ``False``); show each degree and the
      seconds it has been running on standard error
      (:class:`~sage_attention.misc.progress.Heartbeat`)

    OUTPUT: a dictionary from degrees to positive integers

    ALGORITHM: for each degree `k`, the generators of degree `k` are reduced
    modulo :func:`truncated_groebner_basis` of the lower ones at degree `k`;
    the rank of the remainders (linear algebra over the base field) is the
    number of minimal generators of degree `k`. Each degree runs in a
    forked child (:func:`~sage_attention.misc.progress.interruptible`):
    Singular's Gröbner basis does not answer Ctrl-C, the child is killed.

    On Ctrl-C :class:`~sage_attention.misc.interrupts.ComputationInterrupted`
    (a ``KeyboardInterrupt``, phase ``'minimal generators'``) is raised
    within a fraction of a second; its ``partial`` (also its attribute
    ``finished``) is the dictionary of the degrees finished before it
    (complete for those degrees).

    EXAMPLES::

        sage: from sage_attention.ideals.minimal_generators import minimal_generator_counts
        sage: R.<x, y, z> = QQ[]
        sage: minimal_generator_counts(R, [x^2, x*y, x^3 + y^3, z^3], 3)
        {2: 2, 3: 2}
        sage: minimal_generator_counts(R, [x^2, x*y, x^3 + y^3, z^3], 2)
        {2: 2}

    With ``progress=True`` each degree is shown on standard error::

        sage: import io, sys; sys.stderr = io.StringIO()
        sage: minimal_generator_counts(R, [x^2, x*y, x^3 + y^3, z^3], 3, progress=True)
        {2: 2, 3: 2}
        sage: shown, sys.stderr = sys.stderr.getvalue(), sys.__stderr__
        sage: for line in shown.split("\n")[:-1]:
        ....:     print(line.split("\r")[-1])
        minimal generators of degree 2 (2 generators, 0 of lower degree): done in ... s
        minimal generators of degree 3 (2 generators, 2 of lower degree): done in ... s
    """
    polys = [f for f in polys if f]
    counts = {}
    for k in sorted({f.degree() for f in polys}):
        if k > bound:
            break
        lower = [f for f in polys if f.degree() < k]
        here = [f for f in polys if f.degree() == k]
        try:
            with Heartbeat(f"minimal generators of degree {k} ({len(here)} generators, "
                           f"{len(lower)} of lower degree)", progress):
                r = interruptible(_rank_modulo, E, lower, here, k)
        except KeyboardInterrupt as e:
            _interrupted(e, counts, k)
        if r:
            counts[int(k)] = int(r)
    return counts


def _interrupted(exc, counts, k, offset=None):
    r"""
    Raise :class:`~sage_attention.misc.interrupts.ComputationInterrupted` for Ctrl-C in the count of degree ``k``.

    ``counts`` are the finished degrees (``offset``, the counts added by the
    caller: the linear generators).
    """
    done = dict(counts)
    for j, c in (offset or {}).items():
        done[j] = done.get(j, 0) + c
    done = dict(sorted(done.items()))
    what = (f"the minimal generators of degree less than {k} are counted: {done}" if k > 1
            else "no degree is counted")
    try:
        raise_interrupted(exc, "minimal generators", done, what, "the same call counts again",
                          summary={"minimal_generators_by_degree": done, "counted_below_degree": int(k)})
    except ComputationInterrupted as err:
        err.finished_degrees = int(k) - 1
        err.finished = done            # the name of this attribute before the exception had a class
        raise


def _remove_linear(I):
    r"""
    Return ``(number of independent linear forms in I, the other generators
    as polynomials in the remaining variables)``.

    The linear forms are solved for their pivot variables, which are
    substituted in the other generators; the result lives in a polynomial
    ring of the remaining variables (which keep their names).
    """
    from sage.all__sagemath_singular import matrix, PolynomialRing
    R = I.ring()
    gens = [g for g in I.gens() if g]
    lin = [g for g in gens if g.degree() == 1 and g.is_homogeneous()]
    rest = [g for g in gens if not (g.degree() == 1 and g.is_homogeneous())]
    if not lin:
        return 0, R, rest
    n = R.ngens()
    # a sparse matrix read off the terms (thousands of relations in tens of thousands of
    # coordinates, a few terms each: a dense matrix of monomial_coefficient calls took minutes)
    entries = {}
    for i, g in enumerate(lin):
        for e, c in g.dict().items():
            entries[i, e.nonzero_positions()[0]] = c
    A = matrix(R.base_ring(), len(lin), n, entries, sparse=True).echelon_form()
    piv = A.pivots()
    pivots = set(piv)
    keep = [j for j in range(n) if j not in pivots]
    if not keep:
        return len(piv), None, []
    S = PolynomialRing(R.base_ring(), [str(R.gen(j)) for j in keep],
                       order=R.term_order())
    from sage_attention.models.arguments import with_coordinate_latex_names
    with_coordinate_latex_names(S)
    images = [None] * n
    for j, x in zip(keep, S.gens()):
        images[j] = x
    rows = {}
    for (i, j), c in A.dict().items():       # the nonzero entries (a row of A is slow to read)
        rows.setdefault(i, []).append((j, c))
    for i, pj in enumerate(piv):
        # x_pj = - sum over the free columns of A[i, j] x_j
        images[pj] = -sum((c * images[j] for j, c in rows.get(i, ()) if j != pj), S.zero())
    phi = R.hom(images, S)
    return len(piv), S, [phi(g) for g in rest]


@redelivering_interrupts()
def minimal_generators_count(I, force=False, progress=False):
    r"""
    Return ``{degree: number}`` for a minimal generating set of a homogeneous ideal.

    The linear generators are removed first: they are solved for some of
    the variables, which are substituted in the other generators (for a
    homogeneous ideal `I` and a linear form `\ell \in I`, the minimal
    generators of `I` in degree at least `2` correspond to those of the
    image of `I` in `R/(\ell)`, again a polynomial ring). The other
    generators are then counted degree by degree in the remaining
    variables: those of degree `k` modulo a Gröbner basis of the
    lower-degree ones truncated at degree `k` (exact linear algebra over the
    base field); an inhomogeneous ideal goes to Singular's ``minbase``.
    The steps are logged at level ``INFO``.

    INPUT:

    - ``I`` -- a homogeneous ideal of a multivariate polynomial ring
    - ``force`` -- boolean (default: ``False``); run ``minbase`` (for an
      inhomogeneous ideal) even in more than
      ``settings.MINBASE_VARIABLE_LIMIT`` variables
    - ``progress`` -- boolean (default: ``False``); show each step and the
      seconds it has been running on standard error
      (:class:`~sage_attention.misc.progress.Heartbeat`)

    OUTPUT: a dictionary from degrees to positive integers

    Ctrl-C raises :class:`~sage_attention.misc.interrupts.ComputationInterrupted`
    (phase ``'minimal generators'``) within a fraction of a second; its
    ``partial`` holds the counts of the degrees finished (the linear
    generators included), as :func:`minimal_generator_counts` says.

    EXAMPLES::

        sage: from sage_attention.ideals.minimal_generators import minimal_generators_count
        sage: R.<x,y> = QQ[]
        sage: minimal_generators_count(R.ideal([x^2, x^3, x*y, x^2*y]))
        {2: 2}

    Linear generators count in degree `1` (independent ones only), and a
    generator that is a multiple of them is not minimal::

        sage: R.<x,y,z> = QQ[]
        sage: minimal_generators_count(R.ideal([x - y, 2*x - 2*y, x^2 - y*z, y^2 - y*z, z^3]))
        {1: 1, 2: 1, 3: 1}

    TESTS:

    A homogeneous ideal is counted degree by degree, in any number of
    variables; ``minbase`` (an inhomogeneous ideal) is refused beyond the
    limit::

        sage: R = PolynomialRing(QQ, 'x', 70)
        sage: minimal_generators_count(R.ideal([R.gen(0)^2, R.gen(0)^3]))
        {2: 1}
        sage: minimal_generators_count(R.ideal([R.gen(0)^2 + R.gen(1)]))
        Traceback (most recent call last):
        ...
        ComputationTooLarge: a minimal basis (Singular minbase) in 70 variables is beyond this machine (limit 60); pass force=True to run it anyway
    """
    import time
    if not (hasattr(I, "gens") and hasattr(I, "ring") and hasattr(I.ring(), "ngens")):
        raise TypeError(f"I (={I!r}) must be an ideal of a multivariate polynomial ring")
    gens = [g for g in I.gens() if g]
    if not gens:
        return {}
    with Heartbeat("minimal generators: the linear generators", progress):
        nlin, S, rest = _remove_linear(I)
    counts = {1: nlin} if nlin else {}
    rest = [g for g in rest if g]
    if not rest:
        return counts
    homogeneous = all(g.is_homogeneous() for g in rest)
    limit = settings.MINBASE_VARIABLE_LIMIT
    if not homogeneous and S.ngens() > limit and not force:
        raise ComputationTooLarge(f"a minimal basis (Singular minbase) in {S.ngens()} variables is "
                                  f"beyond this machine (limit {limit})", S.ngens(),
                                  force_helps=True)
    t0 = time.time()
    if homogeneous:
        # degree by degree: the generators of degree k modulo a Groebner
        # basis of the lower-degree ones truncated at k (exact), much
        # faster than minbase, which computes a whole standard basis
        logger.info("minimal generators: %d homogeneous generators in %d variables (%d linear "
                    "generators removed), degree by degree", len(rest), S.ngens(), nlin)
        try:
            found = minimal_generator_counts(S, rest, max(g.degree() for g in rest), progress=progress)
        except ComputationInterrupted as e:
            # the counts of the finished degrees, the linear generators included
            _interrupted(e, e.partial, e.finished_degrees + 1, counts)
        for k, c in found.items():
            counts[k] = counts.get(k, 0) + c
    else:
        logger.info("minimal generators: Singular minbase of %d generators in %d variables "
                    "(%d linear generators removed)", len(rest), S.ngens(), nlin)
        with Heartbeat(f"minimal generators: Singular minbase in {S.ngens()} variables", progress):
            # in a forked child that Ctrl-C kills (Singular does not answer it)
            try:
                degrees = interruptible(_minbase_degrees, S.ideal(rest))
            except KeyboardInterrupt as e:
                _interrupted(e, {}, 2, counts)
            for k in degrees:
                counts[k] = counts.get(k, 0) + 1
    logger.info("minimal generators: %.2f s", time.time() - t0)
    return dict(sorted(counts.items()))


def minimal_basis(I):
    r"""
    Return a minimal generating set of the homogeneous ideal ``I`` (Singular's ``minbase``).

    INPUT:

    - ``I`` -- a homogeneous ideal of a multivariate polynomial ring

    OUTPUT: the list of the nonzero minimal generators

    EXAMPLES::

        sage: from sage_attention.ideals.minimal_generators import minimal_basis
        sage: R.<x,y> = QQ[]
        sage: sorted(minimal_basis(R.ideal([x^2, x^3, x*y, x^2*y])))
        [x*y, x^2]
    """
    from sage.libs.singular.function import singular_function
    return [g for g in singular_function("minbase")(I) if g]


def _minbase_degrees(I):
    """The degrees of the elements of Singular's ``minbase`` of ``I``."""
    return [int(g.degree()) for g in minimal_basis(I)]
