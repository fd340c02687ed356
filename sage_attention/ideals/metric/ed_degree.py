r"""
The Euclidean distance degree of a variety, exact over `GF(p)`

The ED degree of a variety `X \subset \CC^n` for a Gram matrix `\Lambda` is
the number of complex critical points of `d_u(x) = (x-u)^T\Lambda(x-u)` on
the smooth part of `X`, for a generic data point `u` [DHOST2016]_. It
measures the algebraic complexity of finding the point of `X` nearest to
data: for a neurovariety, of fitting a network by least squares.

:func:`ed_degree` asks the proof registry's question ``'ED degree'``
(:mod:`sage_attention.ideals.proofs.registry`): its technique counts the
critical points modulo two primes at independent random data
(:mod:`~sage_attention.ideals.metric.certificate`) and the result carries
the certificate. An ideal of homogeneous polynomials defines an affine cone:
its ED degree is that of the projective variety, and the result says so.

EXAMPLES:

Eckart-Young: a generic `3 \times 3` matrix has `\binom{3}{1} = 3` critical
rank-one approximations under the Frobenius metric; under a generic metric
the cone over `\mathbb{P}^2 \times \mathbb{P}^2` has ED degree `39` [DHOST2016]_::

    sage: from sage_attention.ideals.metric.ed_degree import ed_degree
    sage: R = PolynomialRing(QQ, 'a', 9); A = matrix(R, 3, 3, R.gens())
    sage: I = R.ideal(A.minors(2))
    sage: E = ed_degree(I, 'euclidean', seed=0); E
    ED degree 3 of an affine cone (= the projective variety), metric 'euclidean', random data:
    2 counts agree: 3 over GF(8388593), 3 over GF(8388617)
    sage: E.degree, E.certificate.technique
    (3, 'critical ideal')
    sage: ed_degree(I, 'generic', seed=0).degree           # long time (2 s)
    39

A plane curve of degree `D = 3`, affine: `D \sum_{i<2} (D-1)^i = 9` under a
generic metric, and the count drops at the origin under a special one::

    sage: S.<x,y> = QQ[]
    sage: ed_degree(S.ideal([x^3 + y^3 - 2*x*y + x - 1]), seed=1).degree
    9
    sage: E = ed_degree(S.ideal([x^2 + y^2 - 1]), 'euclidean', data=[0, 0], seed=1); E.drops, E.degree
    (True, None)
    sage: E
    no ED count at the data (0, 0) for an affine variety, metric 'euclidean': the critical set at the data
    is not finite (special data); at random data: 2
"""
# sage.doctest: needs sage.libs.singular
import time
from dataclasses import dataclass

from sage_attention.ideals.proofs.registry import techniques
from sage_attention.ideals.proofs.protocol import Attempt, accepted
from sage_attention.ideals.metric.certificate import ED_DEGREE, EDProblem
from sage_attention.ideals.metric.gram import METRICS, metric_name


@dataclass(frozen=True)
class EDDegreeResult:
    r"""
    An ED degree, with what it counts and its certificate.

    Attributes: ``degree`` (an integer, or ``None`` when the runs gave no
    count), ``metric`` (its name), ``data`` (``None`` for random data),
    ``variety`` (``'affine'`` or ``'cone'``: an affine cone, whose ED
    degree is the projective variety's), ``drops`` (given data: whether
    the count at the data is below the count at random data; else
    ``None``), ``generic_degree`` (with ``compare=True``: the count under a
    generic metric), ``certificate``, ``attempts``, ``seconds``.

    EXAMPLES:

    Symmetric `2 \times 2` matrices `[[x, y], [y, z]]` of rank one under the
    Frobenius metric `x^2 + 2 y^2 + z^2` (two eigenvalues, Eckart-Young) and
    under the standard metric of `(x, y, z)`, which is as good as generic here::

        sage: from sage_attention.ideals.metric.ed_degree import ed_degree
        sage: R.<x,y,z> = QQ[]
        sage: I = R.ideal([x*z - y^2])
        sage: E = ed_degree(I, diagonal_matrix([1, 2, 1]), seed=0, compare=True)
        sage: E.degree, E.generic_degree, E.variety, E.drops_with_metric()
        (2, 4, 'cone', True)
        sage: ed_degree(I, 'euclidean', seed=0).degree
        4
        sage: sorted(E.to_dict())
        ['certificate', 'data', 'degree', 'drops', 'generic_degree', 'metric', 'seconds', 'variety']
    """
    degree: object
    metric: str
    data: object
    variety: str
    drops: object
    generic_degree: object
    certificate: object
    attempts: tuple
    seconds: float

    def is_certified(self):
        r"""
        Return whether the runs agree (the evidence of the certificate).

        EXAMPLES::

            sage: from sage_attention.ideals.metric.ed_degree import ed_degree
            sage: R.<x,y> = QQ[]
            sage: ed_degree(R.ideal([x*y - 1]), seed=0).is_certified()
            True
        """
        return bool(self.certificate is not None and self.certificate.proved)

    def drops_with_metric(self):
        r"""
        Return whether the count is below the generic metric's (``None`` unless computed with ``compare=True``).

        EXAMPLES::

            sage: from sage_attention.ideals.metric.ed_degree import ed_degree
            sage: R.<x,y> = QQ[]
            sage: ed_degree(R.ideal([x*y - 1]), 'euclidean', seed=0).drops_with_metric() is None
            True
        """
        if self.generic_degree is None or self.degree is None:
            return None
        return self.degree < self.generic_degree

    def to_dict(self):
        r"""
        Return a JSON-ready dictionary.

        EXAMPLES::

            sage: from sage_attention.ideals.metric.ed_degree import ed_degree
            sage: R.<x,y> = QQ[]
            sage: ed_degree(R.ideal([x*y - 1]), seed=0).to_dict()['degree']
            4
        """
        return {"degree": self.degree, "metric": self.metric,
                "data": None if self.data is None else [str(a) for a in self.data], "variety": self.variety,
                "drops": self.drops, "generic_degree": self.generic_degree, "seconds": round(self.seconds, 4),
                "certificate": None if self.certificate is None else self.certificate.to_dict()}

    def __repr__(self):
        where = "an affine cone (= the projective variety)" if self.variety == "cone" else "an affine variety"
        data = "random data" if self.data is None else "the data " + str(tuple(self.data))
        why = self.certificate.reason if self.certificate is not None else "no technique applies"
        extra = ""
        if self.generic_degree is not None:
            extra = f"; generic metric: {self.generic_degree}"
        if self.degree is None:
            at = "" if self.data is None else f" at {data}"
            rnd = "" if self.certificate is None or self.certificate.random_count is None else \
                f"; at random data: {self.certificate.random_count}"
            return f"no ED count{at} for {where}, metric {self.metric!r}: {why}{rnd}"
        return f"ED degree {self.degree} of {where}, metric {self.metric!r}, {data}: {why}{extra}"

    def _repr_html_(self):
        r"""
        Return the certificate's HTML table (Jupyter).

        EXAMPLES::

            sage: from sage_attention.ideals.metric.ed_degree import ed_degree
            sage: R.<x,y> = QQ[]
            sage: 'count over GF' in ed_degree(R.ideal([x*y - 1]), seed=0)._repr_html_()
            True
        """
        return self.certificate._repr_html_()


def is_homogeneous_ideal(I):
    r"""
    Return whether the generators of ``I`` are homogeneous (then `V(I)` is an affine cone).

    INPUT:

    - ``I`` -- an ideal of a polynomial ring

    OUTPUT: boolean

    EXAMPLES::

        sage: from sage_attention.ideals.metric.ed_degree import is_homogeneous_ideal
        sage: R.<x,y> = QQ[]
        sage: is_homogeneous_ideal(R.ideal([x^2 - y^2])), is_homogeneous_ideal(R.ideal([x - 1]))
        (True, False)
    """
    return all(g.is_homogeneous() for g in I.gens() if g != 0)


def ed_degree(I, metric="generic", data=None, seed=None, projective=None, exponents=None, primes=None,
              backend=None, codimension=None, compare=False, parametrization=None):
    r"""
    Return the ED degree of `V(I)` for ``metric``, counted exactly over `GF(p)` at two primes.

    INPUT:

    - ``I`` -- a prime ideal of a polynomial ring over `\QQ` or `GF(p)`
      (or a list of its generators)
    - ``metric`` -- (default: ``'generic'``) ``'generic'`` (a random
      symmetric Gram matrix), ``'euclidean'`` (the identity),
      ``'bombieri_weyl'`` (needs ``exponents``) or a symmetric matrix; see
      :mod:`~sage_attention.ideals.metric.gram`
    - ``data`` -- (default: ``None``, random) a data point `u`; with data,
      a third count at random data says whether the count drops
    - ``seed`` -- (default: ``None``, fresh and recorded) the seed of every
      random choice
    - ``projective`` -- (default: ``None``: a cone when the generators are
      homogeneous) ``True`` asks for the ED degree of the projective
      variety (the generators must be homogeneous), ``False`` for the
      affine variety (for a cone, the same number)
    - ``exponents`` -- (default: ``None``) the exponent vector of the
      monomial whose coefficient each coordinate is (Bombieri-Weyl)
    - ``primes`` -- (default: ``settings.ED_PRIMES``) two primes
    - ``backend`` -- (default: ``None``: msolve if installed, else Singular)
    - ``codimension`` -- (default: ``None``, computed) the codimension of `I`
    - ``compare`` -- boolean (default: ``False``); also count under a
      generic metric (first prime), to say whether ``metric`` lowers it
    - ``parametrization`` -- (default: ``None``) a ring map coordinates
      `\to` weights with image dense in `V(I)`: the registry's second
      technique counts in a chart of it (:mod:`~sage_attention.ideals.metric.parametric`);
      ``I`` may then be ``None``

    OUTPUT: an :class:`EDDegreeResult`

    EXAMPLES:

    The twisted cubic cone, in the coefficients `(c_0, c_1, c_2, c_3)` of
    binary cubics `c_0 x^3 + c_1 x^2 y + c_2 x y^2 + c_3 y^3` (the cubes
    `(s x + t y)^3`): ED degree `3 d - 2 = 7` for a generic metric, `d = 3`
    for Bombieri-Weyl [DHOST2016]_::

        sage: from sage_attention.ideals.metric.ed_degree import ed_degree
        sage: R.<c0,c1,c2,c3> = QQ[]
        sage: I = R.ideal([c1^2 - 3*c0*c2, c2^2 - 3*c1*c3, c1*c2 - 9*c0*c3])
        sage: ed_degree(I, 'generic', seed=0).degree
        7
        sage: e = [(3, 0), (2, 1), (1, 2), (0, 3)]
        sage: ed_degree(I, 'bombieri_weyl', exponents=e, seed=0).degree
        3

    TESTS::

        sage: S.<x,y> = QQ[]
        sage: ed_degree(S.ideal([x - 1]), projective=True)
        Traceback (most recent call last):
        ...
        ValueError: projective=True needs homogeneous generators (an affine cone)
        sage: ed_degree(S.ideal([x]), metric='frobenius')
        Traceback (most recent call last):
        ...
        ValueError: metric (='frobenius') must be one of 'generic', 'euclidean', 'bombieri_weyl' or a symmetric matrix
        sage: ed_degree(S.ideal([x]), seed=0).degree     # a line: one foot of the perpendicular
        1

    The same count from a parametrization alone (the conic of squares of
    binary linear forms, `3 d - 2 = 4`)::

        sage: Q.<a,b,c> = QQ[]; T.<s,t> = QQ[]
        sage: E = ed_degree(None, parametrization=Q.hom([s^2, s*t, t^2], T), seed=0)
        sage: E.degree, E.certificate.technique, E.variety
        (4, 'parametrization chart', 'cone')
    """
    if isinstance(I, (list, tuple)):
        I = I[0].parent().ideal(list(I))
    if isinstance(metric, str) and metric not in METRICS:
        raise ValueError(f"metric (={metric!r}) must be one of 'generic', 'euclidean', 'bombieri_weyl' "
                         "or a symmetric matrix")
    if I is None:
        if parametrization is None:
            raise ValueError("give an ideal or a parametrization")
        images = [parametrization(x) for x in parametrization.domain().gens()]
        cone = all(f.is_homogeneous() for f in images) and len({f.degree() for f in images if f}) == 1
    else:
        cone = is_homogeneous_ideal(I)
    if projective and not cone:
        raise ValueError("projective=True needs homogeneous generators (an affine cone)")
    t0 = time.time()
    problem = EDProblem(I, metric=metric, data=None if data is None else tuple(data), seed=seed,
                        exponents=exponents, primes=None if primes is None else tuple(primes), backend=backend,
                        codim=codimension, parametrization=parametrization)
    certificate, attempts = None, []
    for T in techniques(ED_DEGREE):
        a0 = time.time()
        why = T.applies_function()(problem)
        if why is not None:
            attempts.append(Attempt(T.name, time.time() - a0, "not applicable", why))
            continue
        C = T.prover_function()(problem, None)
        ok, why = accepted(C, T.name, T.recheck)
        attempts.append(Attempt(T.name, time.time() - a0, "proved" if ok else "not proved", C.reason, C))
        certificate = C
        if ok:
            break
    degree = certificate.degree if certificate is not None and certificate.proved else None
    drops = None
    if data is not None and certificate is not None and certificate.random_count is not None:
        counts = [r[2] for r in certificate.runs]
        drops = any(n is None or n < certificate.random_count for n in counts)
    generic = None
    if compare and metric != "generic" and I is not None:
        generic = problem.count(problem.primes[0], problem.run_seeds()[0], data=None, metric="generic")
    return EDDegreeResult(degree, metric_name(metric), problem.data, "cone" if cone else "affine", drops, generic,
                          certificate, tuple(attempts), time.time() - t0)
