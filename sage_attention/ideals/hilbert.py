r"""
Hilbert series, degree, Betti numbers and a completeness proof, modulo primes

The implicitization engine (:mod:`sage_attention.ideals.implicitization`)
returns generators with rational coefficients. Gröbner bases of these ideals
over `\QQ` are slow (coefficient growth): the dimension of the `d = 3`,
`a = 2` slice's ideal takes minutes in Sage over `\QQ`, its Hilbert series a
fraction of a second over `\GF{32003}`. This module works modulo primes and
says exactly what transfers to `\QQ`.

Reduction modulo `p`. Scale every generator to a primitive integral
polynomial; `J` is the ideal they generate over `\QQ`, `J_p` the ideal their
reductions generate over `\GF{p}`. Let `J_\ZZ = J \cap \ZZ_{(p)}[y]` and
`A = \ZZ_{(p)}[y] / J_\ZZ`. Every graded part of `A` is a free
`\ZZ_{(p)}`-module (torsion free, finitely generated), so `A \otimes \QQ =
\QQ[y]/J` and `A / pA = \GF{p}[y]/J'` (with `J' \supseteq J_p`) have the same
Hilbert function. Hence, in every degree,

.. MATH::

    \dim_{\GF{p}} (\GF{p}[y]/J_p)_k \;\ge\; \dim_{\QQ} (\QQ[y]/J)_k,

with equality for all but finitely many `p`. So the Hilbert series modulo `p`
bounds the one over `\QQ` coefficientwise; the functions below compute it
modulo two primes and report whether they agree (evidence, not a proof), and
:func:`completeness_certificate` proves equality when it proves the ideal
prime (then `J' = J_p`). The graded Betti numbers over `\QQ` are at most those
modulo `p` when the Hilbert functions agree (upper semicontinuity in a flat
family). Each table is checked: its alternating sum
`\sum_{i,j} (-1)^i \beta_{i,j} t^j` must be the numerator of the Hilbert series
over `(1-t)^n`, computed separately; equal tables modulo two primes are
evidence, not a proof, of equality with the table over `\QQ`.

Linear forms in the ideal. If `J = (x_1, \dots, x_r) + J'` with `J'`
generated in `S' = k[x_{r+1}, \dots, x_n]` (after a linear change of
coordinates: substitute the linear forms), then `S/J = S'/J' \otimes_k
k[x_1, \dots, x_r]/(x_1, \dots, x_r)`, and the tensor product of a minimal
resolution of `S'/J'` with the Koszul complex of `x_1, \dots, x_r` is a
minimal resolution of `S/J`:

.. MATH::

    \beta^S_{i,j}(S/J) = \sum_{k} \binom{r}{k} \beta^{S'}_{i-k,\,j-k}(S'/J').

The whole-ideal proof (:func:`completeness_certificate`). Let `I` be the
vanishing ideal of the neurovariety `X` (prime, :ref:`math-1`), `J \subseteq
I` the ideal of the generators found (each one verified exactly), and `n` a
lower bound of `\dim X` (the Jacobian rank at a point, :ref:`math-5`).

    **Claim.** If `J_p` is a prime ideal of `\GF{p}[y]` of dimension `n`,
    then `J = I`.

    *Proof.* `n \le \dim X \le \dim \QQ[y]/J = \dim A/pA \le
    \dim \GF{p}[y]/J_p = n`, so `J'` and `J_p` have the same dimension. A
    minimal prime of `J'` of dimension `n` contains the prime `J_p` of the
    same dimension, so equals it: `J' \subseteq J_p`, and `J' = J_p` is prime.
    So `p` is a prime element of `A`; as `\bigcap_m p^m A = 0` (each graded
    part is a finitely generated free `\ZZ_{(p)}`-module) and `A` has no
    `p`-torsion, `A` is a domain (write `x = p^a x'`, `y = p^b y'` with
    `x', y' \notin pA`: `xy = 0` forces `x'y' = 0 \in pA`). So `\QQ[y]/J`, a
    localization of `A`, is a domain: `J` is prime, contained in the prime `I`
    of the same dimension, hence `J = I`. `\square`

Primality of `J_p` is decided by Singular's ``minAssGTZ`` (the minimal
associated primes; `J_p` is prime when there is one and it is contained in
`J_p`). This is far cheaper than over `\QQ`, but not always cheap: it runs
under a time limit, and the answer says "not proved" with the reason when the
limit is hit. Singular's decomposition in positive characteristic is
documented for large primes; `p = 32003` is large compared with the degrees
here. If `J_p` is not prime, nothing is concluded about `J` (the reduction of
a prime ideal need not be prime); the result says so.

Equal degree and dimension alone do not prove `J = I` (an embedded or
lower-dimensional component of `J` changes neither), which is why the proof
goes through primality.

EXAMPLES:

The single token `d = 3`, `a = 1`: the Chow variety of completely split
ternary cubics (`35` quartics), of dimension `7` and degree `15`::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.ideals.implicitization import implicitize
    sage: from sage_attention.ideals.hilbert import hilbert_data
    sage: M = LightningAttention(d=3, t=1, a=1)
    sage: R = implicitize(M, 4, seed=0, prove=False)
    sage: H = hilbert_data(R.essential_generators, M.essential_ring()); H
    Hilbert data modulo 32003 and 32009 (they agree): dimension 7, degree 15,
    generators by degree {4: 35}
    sage: H.numerator
    t^9 - 7*t^8 + 21*t^7 - 35*t^6 + 35*t^5 - 20*t^4 + 10*t^3 + 6*t^2 + 3*t + 1

REFERENCES: [HMK2024]_, [ADM2026]_.
"""
import time
from dataclasses import dataclass, field

from sage.all__sagemath_singular import GF, QQ, ZZ, PolynomialRing

from sage_attention.progress import Heartbeat

#: The primes used by default: the first computes, the second checks.
PRIMES = (32003, 32009)


def integral_generators(gens):
    r"""
    Return the generators scaled to primitive polynomials with integer coefficients.

    INPUT:

    - ``gens`` -- polynomials over `\QQ`

    OUTPUT: a list of polynomials over `\QQ` (same ring) with coprime integer coefficients

    EXAMPLES::

        sage: from sage_attention.ideals.hilbert import integral_generators
        sage: R.<x,y> = QQ[]
        sage: integral_generators([x/2 - y/3, 4*x*y])
        [3*x - 2*y, x*y]
    """
    out = []
    for g in gens:
        if not g:
            continue
        c = g.denominator() * g
        cont = ZZ(0)
        for a in c.coefficients():
            cont = cont.gcd(ZZ(a))
        out.append(c / cont)
    return out


def reduction(gens, ring, p):
    r"""
    Return the ideal over `\GF{p}` generated by the reductions of the primitive integral generators.

    INPUT:

    - ``gens`` -- polynomials of ``ring`` over `\QQ`
    - ``ring`` -- their polynomial ring
    - ``p`` -- a prime

    EXAMPLES::

        sage: from sage_attention.ideals.hilbert import reduction
        sage: R.<x,y> = QQ[]
        sage: reduction([x/2 - y/3], R, 5)
        Ideal (-2*x - 2*y) of Multivariate Polynomial Ring in x, y over Finite Field of size 5

    TESTS::

        sage: reduction([x], R, 4)
        Traceback (most recent call last):
        ...
        ValueError: p (=4) must be a prime
    """
    p = ZZ(p)
    if not p.is_prime():
        raise ValueError(f"p (={p}) must be a prime")
    Rp = ring.change_ring(GF(p))
    gp = [Rp(g) for g in integral_generators(gens)]
    gp = [g for g in gp if g]
    return Rp.ideal(gp if gp else [Rp.zero()])


def series_data(J):
    r"""
    Return ``(numerator in ZZ[t], dimension, degree)`` of `R/J` from Singular's first Hilbert series.

    INPUT:

    - ``J`` -- a homogeneous ideal of a polynomial ring `R`

    OUTPUT: a triple: the numerator `N(t)` of the Hilbert series
    `N(t)/(1-t)^{\dim R/J}` (with `N(1) \neq 0`), the Krull dimension of
    `R/J` and its degree `N(1)`

    EXAMPLES:

    The twisted cubic has dimension `2` (as an affine cone) and degree `3`::

        sage: from sage_attention.ideals.hilbert import series_data
        sage: R.<a, b, c, d> = QQ[]
        sage: series_data(R.ideal([a*c - b^2, b*d - c^2, a*d - b*c]))
        (2*t + 1, 2, 3)
    """
    S = PolynomialRing(ZZ, "t")
    t = S.gen()
    n = J.ring().ngens()
    if J.is_zero():
        return S.one(), n, 1
    num = S(list(J.hilbert_numerator()))
    # reduce num / (1-t)^n
    dim = n
    while dim > 0 and num(1) == 0:
        num = num // (1 - t)
        dim -= 1
    return num, dim, int(num(1))


@dataclass(frozen=True)
class HilbertData:
    r"""
    Hilbert series, dimension, degree and graded Betti numbers of `R/J`, computed modulo primes.

    Attributes:

    - ``numerator`` -- the polynomial `h(t)` in `\ZZ[t]` with Hilbert series
      `h(t)/(1-t)^{\dim}` (reduced: `h(1) \ne 0`)
    - ``dimension`` -- the Krull dimension of `R/J` (of the affine cone)
    - ``degree`` -- `h(1)`, the degree
    - ``betti`` -- ``None`` or a list, ``betti[i] = {degree: number}``, the
      graded Betti numbers of `R/J` (``betti[0] = {0: 1}``)
    - ``generators_by_degree`` -- ``betti[1]`` as a dict (the minimal
      generators of `J` by degree), or ``None``
    - ``primes`` -- the primes used; ``agree`` -- whether the data agree
      modulo all of them
    - ``certified`` -- whether the Hilbert series is proved to equal the one
      over `\QQ` (set by :func:`completeness_certificate`)
    - ``timings`` -- seconds
    - ``notes`` -- sentences on what was not computed (e.g. a resolution
      that did not finish within its time limit)

    EXAMPLES::

        sage: from sage_attention.ideals.hilbert import hilbert_data
        sage: R.<x,y,z,w> = QQ[]
        sage: H = hilbert_data([x*z - y^2, y*w - z^2, x*w - y*z], R); H.degree, H.betti
        (3, [{0: 1}, {2: 3}, {3: 2}])
        sage: H.hilbert_series()
        (2*t + 1)/(t^2 - 2*t + 1)
    """
    numerator: object
    dimension: int
    degree: int
    betti: object
    primes: tuple
    agree: bool
    certified: bool = False
    timings: dict = field(default_factory=dict)
    notes: tuple = ()

    @property
    def generators_by_degree(self):
        return None if self.betti is None or len(self.betti) < 2 else dict(self.betti[1])

    def hilbert_series(self):
        r"""
        Return the Hilbert series `h(t)/(1-t)^{\dim}` as a rational function over `\QQ`.

        EXAMPLES::

            sage: from sage_attention.ideals.hilbert import hilbert_data
            sage: R.<x,y> = QQ[]
            sage: hilbert_data([x*y], R).hilbert_series()
            (-t - 1)/(t - 1)
        """
        S = PolynomialRing(QQ, "t")
        t = S.gen()
        return S(self.numerator) / (1 - t) ** self.dimension

    def hilbert_polynomial(self):
        r"""
        Return the Hilbert polynomial of `R/J` (in the variable `k`).

        EXAMPLES::

            sage: from sage_attention.ideals.hilbert import hilbert_data
            sage: R.<x,y,z> = QQ[]
            sage: hilbert_data([x*y*z], R).hilbert_polynomial()
            3*k
        """
        S = PolynomialRing(QQ, "k")
        k = S.gen()
        n = self.dimension
        if n == 0:
            return S.zero()
        out = S.zero()
        for i, c in enumerate(self.numerator.list()):
            # t^i/(1-t)^n contributes binomial(k - i + n - 1, n - 1)
            term = S.one()
            for j in range(1, n):
                term *= (k - i + j) / j
            out += c * term
        return out

    def to_dict(self):
        r"""
        Return a JSON-ready dictionary.

        EXAMPLES::

            sage: from sage_attention.ideals.hilbert import hilbert_data
            sage: R.<x,y> = QQ[]
            sage: hilbert_data([x*y], R).to_dict()['degree']
            2
        """
        return {"numerator": str(self.numerator), "dimension": self.dimension, "degree": self.degree,
                "betti": None if self.betti is None else [{str(k): v for k, v in b.items()} for b in self.betti],
                "primes": list(self.primes), "agree": self.agree, "certified": self.certified}

    def _repr_html_(self):
        r"""
        Return an HTML table of the Hilbert data (Jupyter's rich display).

        EXAMPLES::

            sage: from sage_attention.ideals.hilbert import hilbert_data
            sage: R.<x,y> = QQ[]
            sage: '<tr><th>degree</th><td>2</td></tr>' in hilbert_data([x*y], R)._repr_html_()
            True
        """
        from sage_attention.html import html_table
        rows = [("numerator", self.numerator), ("dimension", self.dimension), ("degree", self.degree),
                ("generators by degree", self.generators_by_degree), ("Betti numbers", self.betti),
                ("primes", ", ".join(str(p) for p in self.primes)), ("agree", self.agree),
                ("certified", self.certified)]
        rows += [("note", n) for n in self.notes]
        return html_table(rows, caption="Hilbert data")

    def __repr__(self):
        ps = " and ".join(str(p) for p in self.primes)
        s = (f"Hilbert data modulo {ps} ({'they agree' if self.agree else 'THEY DISAGREE'}"
             f"{', equal to the data over QQ (proved)' if self.certified else ''}): "
             f"dimension {self.dimension}, degree {self.degree}")
        if self.betti is not None:
            s += f",\ngenerators by degree {self.generators_by_degree}"
        for n in self.notes:
            s += f";\n{n}"
        return s


def _betti_modp(J):
    r"""
    Return the graded Betti numbers of `R/J` from Singular's ``sres`` of a standard basis, minimized by ``betti``.

    The resolution itself is never converted to Sage matrices (that
    conversion, in ``graded_free_resolution``, was the slow part).
    """
    from sage.libs.singular.function import singular_function
    R = J.ring()
    G = R.ideal(list(singular_function("std")(J)))
    res = singular_function("sres")(G, 0, attributes={G: {"isSB": 1}})
    B = singular_function("betti")(res, 1)
    # entry (r, i) of Singular's table is beta_{i, i + r} (rowShift 0: R/J starts in degree 0)
    out = []
    for i in range(B.ncols()):
        b = {r + i: int(B[r, i]) for r in range(B.nrows()) if B[r, i]}
        if not b:
            break
        out.append(b)
    return out


def alternating_sum(betti):
    r"""
    Return `\sum_{i,j} (-1)^i \beta_{i,j} t^j`, the numerator of the Hilbert series over `(1-t)^n`.

    INPUT:

    - ``betti`` -- a list of dicts ``{degree: number}`` (a Betti table)

    OUTPUT: a polynomial in `\ZZ[t]`

    EXAMPLES::

        sage: from sage_attention.ideals.hilbert import alternating_sum
        sage: alternating_sum([{0: 1}, {2: 3}, {3: 2}])
        2*t^3 - 3*t^2 + 1
    """
    S = PolynomialRing(ZZ, "t")
    t = S.gen()
    return sum(((-1) ** i * v * t ** j for i, b in enumerate(betti) for j, v in b.items()), S.zero())


def without_linear_forms(J):
    r"""
    Return ``(K, r)``: the ideal `J` with its linear forms substituted away, and their number.

    If the degree-one part of `J` has dimension `r`, a reduced echelon basis
    `x_{k} - \ell_k` (one pivot variable `x_k` each) is substituted into the
    other generators; `K` lives in the same ring but involves only the
    `n - r` other variables, and `S/J \cong S'/K'` as in the module
    documentation (the Betti tables differ by the Koszul factor).

    INPUT:

    - ``J`` -- a homogeneous ideal

    OUTPUT: a pair ``(K, r)``

    EXAMPLES::

        sage: from sage_attention.ideals.hilbert import without_linear_forms
        sage: R.<x,y,z,w> = GF(101)[]
        sage: without_linear_forms(R.ideal([x - y, x*z - w^2]))
        (Ideal (y*z - w^2) of Multivariate Polynomial Ring in x, y, z, w over Finite Field of size 101, 1)
    """
    R = J.ring()
    lin = [g for g in J.gens() if g and g.degree() == 1]
    if not lin:
        return J, 0
    from sage.all__sagemath_singular import matrix
    xs = R.gens()
    A = matrix(R.base_ring(), [[g.monomial_coefficient(x) for x in xs] for g in lin]).echelon_form()
    A = A.matrix_from_rows([i for i in range(A.nrows()) if A.row(i)])
    piv = A.pivots()
    sub = list(xs)
    for row, c in zip(A.rows(), piv):
        sub[c] = xs[c] - sum(a * x for a, x in zip(row, xs))
    phi = R.hom(sub, R)
    rest = [phi(g) for g in J.gens() if g and g.degree() != 1]
    rest = [g for g in rest if g]
    return R.ideal(rest if rest else [R.zero()]), len(piv)


def betti_numbers(J, timeout=None):
    r"""
    Return the graded Betti numbers of `R/J` (a list of dicts ``{degree: number}``).

    Uses Singular's Schreyer resolution ``sres`` of a standard basis of `J`
    (degree reverse lexicographic order), minimized by Singular's ``betti``,
    through the library interface (no conversion of the resolution's
    matrices). The result is checked: its alternating sum must equal the
    numerator of the Hilbert series that Singular computes separately from
    the standard basis.

    INPUT:

    - ``J`` -- a homogeneous ideal of a polynomial ring over a finite field
      (or `\QQ`)
    - ``timeout`` -- (default: ``None``) seconds, or ``None``: no limit, run
      in this process. With a limit the resolution runs in a forked process
      that is killed at the limit (interrupting Singular in this process can
      leave it unusable); the answer is then ``None``

    OUTPUT: a list, ``betti[i] = {j: beta_ij}``, or ``None`` after ``timeout``

    EXAMPLES::

        sage: from sage_attention.ideals.hilbert import betti_numbers
        sage: R.<x,y,z> = GF(101)[]
        sage: betti_numbers(R.ideal([x, y, z]))
        [{0: 1}, {1: 3}, {2: 3}, {3: 1}]
        sage: betti_numbers(R.ideal([x*y, y*z]), timeout=30)
        [{0: 1}, {2: 2}, {3: 1}]

    TESTS::

        sage: betti_numbers(R.ideal([R.zero()]))
        [{0: 1}]
        sage: betti_numbers(R.ideal([x]), timeout=-1)
        Traceback (most recent call last):
        ...
        ValueError: timeout (=-1) must be a positive number of seconds or None
    """
    if timeout is not None and not timeout > 0:
        raise ValueError(f"timeout (={timeout}) must be a positive number of seconds or None")
    if J.is_zero():
        return [{0: 1}]
    K, r = without_linear_forms(J)
    out = _in_child(_betti_modp, K, timeout, "resolution") if not K.is_zero() else [{0: 1}]
    if out is None:
        return None
    if r:
        # tensor with the Koszul complex of the r linear forms (module documentation)
        from sage.all__sagemath_singular import binomial
        tab = {}
        for i, b in enumerate(out):
            for j, v in b.items():
                for k in range(r + 1):
                    tab.setdefault(i + k, {})
                    tab[i + k][j + k] = tab[i + k].get(j + k, 0) + int(binomial(r, k)) * v
        out = [dict(sorted(tab[i].items())) for i in sorted(tab)]
    S = PolynomialRing(ZZ, "t")
    if alternating_sum(out) != S(list(J.hilbert_numerator())):
        raise RuntimeError(f"the Betti table {out} does not reproduce the Hilbert series of the ideal")
    return out


def hilbert_data(gens, ring, primes=PRIMES, betti=True, progress=False, timeout=None):
    r"""
    Return the Hilbert series, dimension, degree and Betti numbers of ``ring/(gens)``, modulo primes.

    The first prime computes everything; the others recompute it as a check
    (``agree``). Modulo `p` the Hilbert function of the quotient is at least
    the one over `\QQ` in every degree (see the module documentation);
    equality is proved by :func:`completeness_certificate`.

    INPUT:

    - ``gens`` -- homogeneous polynomials of ``ring`` (over `\QQ`)
    - ``ring`` -- a polynomial ring over `\QQ`
    - ``primes`` -- (default: ``(32003, 32009)``) a nonempty tuple of primes
    - ``betti`` -- boolean (default: ``True``); compute the graded Betti
      numbers (a minimal free resolution, the expensive part)
    - ``progress`` -- boolean (default: ``False``); show each step (the
      series, the resolution, modulo each prime) and the seconds it has been
      running on standard error (:class:`~sage_attention.progress.Heartbeat`)
    - ``timeout`` -- (default: ``None``) seconds for each resolution (see
      :func:`betti_numbers`), or ``None`` for no limit; when the limit is
      hit, ``betti`` is ``None`` and ``notes`` says so

    OUTPUT: a :class:`HilbertData`

    EXAMPLES:

    Three quadrics (the twisted cubic)::

        sage: from sage_attention.ideals.hilbert import hilbert_data
        sage: R.<x,y,z,w> = QQ[]
        sage: hilbert_data([x*z - y^2, y*w - z^2, x*w - y*z], R)
        Hilbert data modulo 32003 and 32009 (they agree): dimension 2, degree 3,
        generators by degree {2: 3}

    A prime that divides a coefficient that matters is caught by the second one::

        sage: hilbert_data([x^2 - 7*y^2, 7*x*y], R, primes=(7, 11), betti=False).agree
        False

    TESTS::

        sage: hilbert_data([x*y + z], R)
        Traceback (most recent call last):
        ...
        ValueError: gens must be homogeneous; x*y + z is not
        sage: hilbert_data([x], R, primes=())
        Traceback (most recent call last):
        ...
        ValueError: primes (=()) must be a nonempty tuple of primes
    """
    primes = tuple(primes)
    if not primes:
        raise ValueError(f"primes (={primes}) must be a nonempty tuple of primes")
    for g in gens:
        if g and not g.is_homogeneous():
            raise ValueError(f"gens must be homogeneous; {g} is not")
    first = None
    agree = True
    timings = {}
    notes = []
    for p in primes:
        t0 = time.time()
        with Heartbeat(f"Hilbert series modulo {p}", progress):
            J = reduction(gens, ring, p)
            num, dim, deg = series_data(J)
        b = None
        if betti and not notes:
            with Heartbeat(f"Betti numbers modulo {p} (minimal free resolution)", progress):
                b = betti_numbers(J, timeout=timeout)
            if b is None:
                notes.append(f"graded Betti numbers not computed within {timeout} s (modulo {p})")
        timings[int(p)] = time.time() - t0
        if first is None:
            first = (num, dim, deg, b)
        elif (num, dim, deg) != first[:3] or (b is not None and first[3] is not None and b != first[3]):
            agree = False
    num, dim, deg, b = first
    if notes:
        b = None
    return HilbertData(numerator=num, dimension=dim, degree=deg, betti=b, primes=tuple(int(p) for p in primes),
                       agree=agree, timings=timings, notes=tuple(notes))


_PRIMDEC_LOADED = []


def _load_primdec():
    r"""
    Load Singular's ``primdec.lib`` once per process (a forked child inherits it).
    """
    if not _PRIMDEC_LOADED:
        from sage.libs.singular.function import lib as singular_lib
        singular_lib("primdec.lib")
        _PRIMDEC_LOADED.append(True)


def _primality(J):
    r"""
    Return ``(number of minimal primes, whether J is contained in ... equal to the one)``.
    """
    from sage.libs.singular.function import singular_function
    _load_primdec()
    minass = singular_function("minAssGTZ")
    P = [J.ring().ideal(list(Q)) for Q in minass(J)]
    G = J.groebner_basis()
    return len(P), len(P) == 1 and all(g.reduce(G) == 0 for g in P[0].gens())


def _child(conn, fn, J):
    try:
        conn.send(fn(J))
    except BaseException as e:  # reported to the parent
        conn.send(("error", repr(e)))
    conn.close()


def _in_child(fn, J, timeout, what):
    r"""
    Return ``fn(J)`` computed in a forked process, or ``None`` after ``timeout`` seconds.

    The process is killed at the time limit (interrupting Singular's
    computations in this process can leave Singular unusable).
    """
    if timeout is None:
        return fn(J)
    import multiprocessing
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(send, fn, J), daemon=True)
    proc.start()
    send.close()
    try:
        if not recv.poll(max(timeout, 0.01)):
            return None
        res = recv.recv()
    except EOFError:
        res = ("error", f"the process of the {what} died")
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        recv.close()
    if isinstance(res, tuple) and res and res[0] == "error":
        raise RuntimeError(f"the {what} modulo p failed: {res[1]}")
    return res


def _proof_child(conn, J, dimension):
    try:
        series = series_data(J)
        conn.send(series)
        if series[1] == dimension:
            conn.send(_primality(J))
    except BaseException as e:  # reported to the parent
        conn.send(("error", repr(e)))
    conn.close()


def _series_and_primality(J, dimension, timeout):
    r"""
    Return ``(series, primality)`` for ``J``, computed in one forked process within ``timeout`` seconds.

    ``series`` is :func:`series_data` of ``J`` (``None`` when it did not
    finish in time); ``primality`` is ``(number of minimal primes, prime?)``
    from Singular's ``minAssGTZ``, computed only when the dimension
    is ``dimension`` (else, or when the time ran out, ``None``). One child
    does both (a fork of a large Sage process costs tens of milliseconds);
    ``primdec.lib`` is loaded here first so the child inherits it. With
    ``timeout=None`` both run in this process.

    TESTS:

    A quadric cone is prime, the union of two planes is not (both have the
    Hilbert series `(1 + t)/(1 - t)^2`); with another dimension the
    primality test is not run::

        sage: from sage_attention.ideals.hilbert import _series_and_primality
        sage: R.<x,y,z> = GF(101)[]
        sage: _series_and_primality(R.ideal([x*y - z^2]), 2, 30)
        ((t + 1, 2, 2), (1, True))
        sage: _series_and_primality(R.ideal([x*y]), 2, None)
        ((t + 1, 2, 2), (2, False))
        sage: _series_and_primality(R.ideal([x*y]), 1, 30)
        ((t + 1, 2, 2), None)
    """
    if timeout is None:
        series = series_data(J)
        return series, (tuple(_primality(J)) if series[1] == dimension else None)
    import multiprocessing
    _load_primdec()
    t0 = time.time()
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_proof_child, args=(send, J, dimension), daemon=True)
    proc.start()
    send.close()
    results = []
    try:
        for what in ("Hilbert series", "primality test"):
            if not recv.poll(max(timeout - (time.time() - t0), 0.01)):
                break
            try:
                res = recv.recv()
            except EOFError:
                res = ("error", f"the process of the {what} died")
            if isinstance(res, tuple) and res and isinstance(res[0], str) and res[0] == "error":
                raise RuntimeError(f"the {what} modulo p failed: {res[1]}")
            results.append(res)
            if res[1] != dimension:
                break
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        recv.close()
    series = results[0] if results else None
    return series, (tuple(results[1]) if len(results) > 1 else None)


def completeness_certificate(gens, ring, dimension, p=PRIMES[0], timeout=10, progress=False):
    r"""
    Try to prove that ``gens`` generate a prime ideal of dimension ``dimension`` (hence the vanishing ideal).

    See the module documentation for the argument: if the reduction `J_p` of
    the ideal modulo `p` is prime of dimension ``dimension`` (a lower bound of
    the dimension of the variety the generators vanish on), then the ideal is
    prime over `\QQ` and equals the vanishing ideal.

    INPUT:

    - ``gens`` -- homogeneous polynomials over `\QQ` that vanish on an
      irreducible variety `X` (e.g. verified generators of its ideal)
    - ``ring`` -- their ring
    - ``dimension`` -- integer, a lower bound of `\dim X` (affine cone)
    - ``p`` -- (default: `32003`) a prime
    - ``timeout`` -- (default: `10`) seconds for the primality test modulo
      `p`, or ``None`` for no limit
    - ``progress`` -- boolean (default: ``False``); show each step (the
      Hilbert series, the primality test) and the seconds it has been
      running on standard error (:class:`~sage_attention.progress.Heartbeat`)

    OUTPUT: a tuple ``(proved, reason, data)``: a boolean, a sentence saying
    what is proved or why not, and the :class:`HilbertData` modulo ``p``
    (``certified`` set when proved; ``None`` when the Hilbert series did not
    finish in time). The Hilbert series and the primality test run one
    after the other in one forked process, within the time limit (with
    ``timeout=None``, in this process).

    EXAMPLES:

    The twisted cubic is proved (its ideal is prime of dimension `2`)::

        sage: from sage_attention.ideals.hilbert import completeness_certificate
        sage: R.<x,y,z,w> = QQ[]
        sage: G = [x*z - y^2, y*w - z^2, x*w - y*z]
        sage: completeness_certificate(G, R, 2)[:2]
        (True, 'the ideal found is prime modulo 32003 (Singular minAssGTZ) of dimension 2, the dimension of the variety: so it is prime over QQ and is the whole vanishing ideal')

    With one generator dropped, the ideal has the right dimension but is not
    prime (it contains the line `y = z = 0` as a second component); it is never
    proved complete::

        sage: completeness_certificate(G[:2], R, 2)[:2]
        (False, 'the ideal found modulo 32003 has 2 minimal primes (or is not radical): not proved (this does not show that generators are missing)')
        sage: completeness_certificate(G[:1], R, 2)[:2]
        (False, 'the ideal found has dimension at least 3 modulo 32003 and the variety at least 2: not proved (generators are missing or the dimension bound is not sharp)')

    No generator: the zero ideal is prime, so it is the whole vanishing ideal
    exactly when the variety fills the space (decided without a child process)::

        sage: completeness_certificate([], R, 4)[0], completeness_certificate([], R, 3)[0]
        (True, False)

    With ``progress=True`` the step is shown on standard error, rewritten
    every second while it runs::

        sage: import io, sys; sys.stderr = io.StringIO()
        sage: proved = completeness_certificate(G, R, 2, progress=True)[0]
        sage: shown, sys.stderr = sys.stderr.getvalue(), sys.__stderr__
        sage: for line in shown.split("\n")[:-1]:
        ....:     print(line.split("\r")[-1])
        completeness proof: Hilbert series and primality test modulo 32003 (at most ... s): done in ... s
    """
    t0 = time.time()
    J = reduction(gens, ring, p)
    if all(g.is_zero() for g in J.gens()):
        # the zero ideal of a polynomial ring is prime, of dimension the number of variables: no child
        series = series_data(J)
        P = (1, True) if series[1] == dimension else None
    else:
        limit = "no time limit" if timeout is None else f"at most {timeout:.0f} s"
        with Heartbeat(f"completeness proof: Hilbert series and primality test modulo {p} ({limit})", progress):
            series, P = _series_and_primality(J, dimension, timeout)
    t1 = time.time()
    if series is None:
        return False, (f"the Hilbert series modulo {p} of the ideal found did not finish in {timeout} s: "
                       "not proved"), None
    num, dim, deg = series
    data = HilbertData(numerator=num, dimension=dim, degree=deg, betti=None, primes=(int(p),), agree=True,
                       timings={"hilbert and primality": t1 - t0})
    if dim != dimension:
        if dim < dimension:
            return False, (f"the ideal found has dimension {dim} modulo {p} but the variety at least "
                           f"{dimension}: the generators do not vanish on the variety"), data
        return False, (f"the ideal found has dimension at least {dim} modulo {p} and the variety at least "
                       f"{dimension}: not proved (generators are missing or the dimension bound is not sharp)"), data
    if P is None:
        return False, (f"the ideal found has dimension {dim} (that of the variety) and degree {deg} modulo {p}, but "
                       f"the primality test modulo {p} did not finish in {timeout} s: not proved"), data
    if P[1]:
        data = HilbertData(numerator=num, dimension=dim, degree=deg, betti=None, primes=(int(p),), agree=True,
                           certified=True, timings=data.timings)
        return True, (f"the ideal found is prime modulo {p} (Singular minAssGTZ) of dimension {dim}, the "
                      "dimension of the variety: so it is prime over QQ and is the whole vanishing ideal"), data
    return False, (f"the ideal found modulo {p} has {P[0]} minimal primes (or is not radical): not proved "
                   "(this does not show that generators are missing)"), data
