r"""
Minimal generators of homogeneous ideals, degree by degree

A homogeneous ideal `J = (f_1, \ldots, f_m)` has minimal generating sets,
and the number of their elements of each degree `k` does not depend on the
choice: it is the dimension of `J_k / (R_1 J_{k-1})`, the degree-`k` part
modulo the multiples of lower degrees. It is computed here by reducing the
generators of degree `k` modulo a Gröbner basis of the lower-degree
generators truncated at degree `k`, and taking the rank of what is left.

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
from sage_attention.progress import Heartbeat, interruptible


#: The size (rows times columns of the matrices of multiples, summed over
#: the degrees) up to which :func:`exact_count_size` says the exact count
#: runs by default: about 10^8 on the width-4 slice of rank 1 (1 s); the
#: width-4 slice of rank 2 is 3 * 10^9 (more than 17 min).
EXACT_COUNT_SIZE = 5 * 10**8


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
      (:class:`~sage_attention.progress.Heartbeat`)

    OUTPUT: a dictionary from degrees to positive integers

    ALGORITHM: for each degree `k`, the generators of degree `k` are reduced
    modulo :func:`truncated_groebner_basis` of the lower ones at degree `k`;
    the rank of the remainders (linear algebra over the base field) is the
    number of minimal generators of degree `k`. Each degree runs in a
    forked child (:func:`~sage_attention.progress.interruptible`):
    Singular's Gröbner basis does not answer Ctrl-C, the child is killed.

    On Ctrl-C a ``KeyboardInterrupt`` is raised within a fraction of a
    second; its attribute ``finished`` is the dictionary of the degrees
    finished before it (complete for those degrees).

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
            e.finished = dict(counts)
            raise
        if r:
            counts[int(k)] = int(r)
    return counts
