r"""
The ED-degree question of the proof registry: its problem, its technique and its certificate

The proof registry (:mod:`sage_attention.ideals.proofs.registry`) maps a
question to the techniques that answer it. The question ``'ED degree'``
asks: how many critical points does the squared distance from a generic
data point have on the smooth part of a variety? Its technique
``'critical ideal'`` counts them modulo primes (:mod:`~sage_attention.ideals.metric.critical`)
and returns an :class:`EDDegreeCertificate`, a certificate of the protocol
(:mod:`sage_attention.ideals.proofs.protocol`): ``proved``, ``reason``,
``verify()`` (which recounts from the stored data), ``to_dict()`` and ``rows()``.

What a count certifies. Each run reduces `I` modulo a prime `p`, draws
the data point `u`, the generic metric and the random combinations of
the generators from a recorded seed, and counts the critical points over
the algebraic closure of `GF(p)` with multiplicity (a Gröbner basis). This
count equals the generic ED degree over `\CC` unless the random choices
lie on a proper closed subset (of unknown degree `\delta`: probability at
most `\delta/p` by Schwartz-Zippel) or `p` is one of finitely many bad
primes; and a count is never larger than the generic one. The certificate
holds the evidence: two runs, at two primes (one prime when the ideal is
over `GF(p)`) and independent data, that agree. ``proved`` means exactly
that; it is not a proof over `\QQ`.

EXAMPLES::

    sage: from sage_attention.ideals.metric.certificate import EDProblem, prove, applies
    sage: R.<x,y> = QQ[]
    sage: P = EDProblem(R.ideal([y - x^2]), metric='euclidean', seed=0); P
    ED-degree problem: 1 generators in 2 coordinates over Rational Field, metric 'euclidean', random data
    sage: applies(P) is None
    True
    sage: C = prove(P, None); C
    ED degree certificate: 3 (2 counts agree: 3 over GF(8388593), 3 over GF(8388617))
    sage: C.proved, C.degree, C.verify()
    (True, 3, True)
    sage: from sage_attention.ideals.proofs.protocol import accepted
    sage: accepted(C, 'critical ideal', recheck=True)
    (True, '')
"""
# sage.doctest: needs sage.libs.singular
import random
import time
from dataclasses import dataclass, field

from sage.all__sagemath_singular import GF, QQ

from sage_attention.ideals.proofs.protocol import ProofCertificate
from sage_attention.ideals.metric.critical import critical_count, codimension
from sage_attention.ideals.metric.gram import metric_name
from sage_attention.settings import settings

#: the question of the registry
ED_DEGREE = "ED degree"


@dataclass
class EDProblem:
    r"""
    What the ED-degree techniques need: the ideal, the metric, the data and the random choices.

    INPUT (attributes):

    - ``ideal`` -- a prime ideal of a polynomial ring over `\QQ` or `GF(p)`
    - ``metric`` -- (default: ``'generic'``) see
      :func:`~sage_attention.ideals.metric.gram.gram_matrix`
    - ``data`` -- (default: ``None``, random) the data point `u`
    - ``seed`` -- (default: ``None``: a fresh seed, recorded) the seed of every random choice
    - ``exponents`` -- (default: ``None``) the exponents of the coordinates,
      for the Bombieri-Weyl metric
    - ``primes`` -- (default: ``settings.ED_PRIMES``) the primes of the runs
    - ``backend`` -- (default: ``None``) see :mod:`~sage_attention.ideals.metric.backends`
    - ``codim`` -- (default: ``None``, computed) the codimension of the ideal
    - ``parametrization`` -- (default: ``None``) a ring map coordinates
      `\to` weights whose image is dense in the variety: the route of
      :mod:`~sage_attention.ideals.metric.parametric` (``ideal`` may then be ``None``)
    - ``question`` -- ``'ED degree'``
    """
    ideal: object
    metric: object = "generic"
    data: object = None
    seed: object = None
    exponents: object = None
    primes: tuple = None
    backend: object = None
    codim: object = None
    parametrization: object = None
    question: str = ED_DEGREE
    _memo: dict = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self):
        if self.seed is None:
            self.seed = random.SystemRandom().randrange(2**31)
        self.seed = int(self.seed)
        F = (self.ideal.ring() if self.ideal is not None else self.parametrization.codomain()).base_ring()
        if self.primes is None:
            self.primes = ((F.characteristic(),) * 2 if F.characteristic() else tuple(settings.ED_PRIMES[:2]))

    def __repr__(self):
        data = "random data" if self.data is None else "data " + str(tuple(self.data))
        if self.ideal is None:
            R = self.parametrization.domain()
            return (f"ED-degree problem: a parametrization of {R.ngens()} coordinates over {R.base_ring()}, "
                    f"metric {metric_name(self.metric)!r}, {data}")
        R = self.ideal.ring()
        return (f"ED-degree problem: {len(self.ideal.gens())} generators in {R.ngens()} coordinates over "
                f"{R.base_ring()}, metric {metric_name(self.metric)!r}, {data}")

    def reduction(self, p):
        r"""
        Return the ideal modulo `p`.

        INPUT:

        - ``p`` -- a prime

        OUTPUT: an ideal over `GF(p)`

        EXAMPLES::

            sage: from sage_attention.ideals.metric.certificate import EDProblem
            sage: R.<x,y> = QQ[]
            sage: EDProblem(R.ideal([x/3 - y]), seed=0).reduction(7).gens()
            [-2*x - y]
        """
        if p not in self._memo:
            R = self.ideal.ring()
            S = R.change_ring(GF(p))
            self._memo[p] = S.ideal([S(g) for g in self.ideal.gens()])
        return self._memo[p]

    def codimension(self):
        r"""
        Return the codimension of the ideal (computed modulo the first prime, once).

        EXAMPLES::

            sage: from sage_attention.ideals.metric.certificate import EDProblem
            sage: R.<x,y,z> = QQ[]
            sage: EDProblem(R.ideal([x*y - z^2]), seed=0).codimension()
            1
        """
        if self.codim is None:
            self.codim = codimension(self.reduction(self.primes[0]))
        return int(self.codim)

    def run_seeds(self):
        r"""
        Return the seeds of the two runs, derived from :attr:`seed`.

        EXAMPLES::

            sage: from sage_attention.ideals.metric.certificate import EDProblem
            sage: R.<x> = QQ[]
            sage: P = EDProblem(R.ideal([x]), seed=5); P.run_seeds() == P.run_seeds()
            True
        """
        rng = random.Random(self.seed)
        return tuple(rng.randrange(2**31) for _ in self.primes)

    def count(self, p, seed, data="problem", metric=None):
        r"""
        Return the number of critical points modulo `p` with the random choices of ``seed``.

        INPUT:

        - ``p`` -- a prime of the runs
        - ``seed`` -- integer
        - ``data`` -- (default: the problem's) the data point, ``None`` for random
        - ``metric`` -- (default: the problem's) the metric

        OUTPUT: an integer, or ``None`` (the critical set is not finite)

        EXAMPLES::

            sage: from sage_attention.ideals.metric.certificate import EDProblem
            sage: R.<x,y> = QQ[]
            sage: P = EDProblem(R.ideal([x^2 + y^2 - 1]), metric='euclidean', seed=0)
            sage: P.count(32003, 1), P.count(32003, 1, metric='generic')
            (2, 4)
        """
        I = self.reduction(p)
        data = self.data if isinstance(data, str) else data
        return critical_count(I, self.metric if metric is None else metric, data=data, seed=seed,
                              exponents=self.exponents, codim=self.codimension(), backend=self.backend)


def applies(problem):
    r"""
    Return ``None`` when the technique ``'critical ideal'`` applies to ``problem``, else the reason.

    INPUT:

    - ``problem`` -- an :class:`EDProblem`

    OUTPUT: ``None`` or a sentence

    EXAMPLES::

        sage: from sage_attention.ideals.metric.certificate import EDProblem, applies
        sage: R.<x> = QQ[]
        sage: applies(EDProblem(R.ideal([x]), seed=0)) is None
        True
        sage: S.<y> = RR[]
        sage: applies(EDProblem(S.ideal([y]), seed=0, primes=(7, 11)))
        'the coefficients are in Real Field with 53 bits of precision, not QQ or a prime field'
    """
    if problem.ideal is None:
        return "no vanishing ideal (only a parametrization)"
    F = problem.ideal.ring().base_ring()
    if not (F is QQ or (F.is_field() and F.is_finite() and F.is_prime_field())):
        return f"the coefficients are in {F}, not QQ or a prime field"
    return None


def prove(problem, timeout=None):
    r"""
    Count the critical points at two primes and independent data; return an :class:`EDDegreeCertificate`.

    With data given, both runs use them, and a third run at random data
    (first prime) says whether the count at the data drops.

    INPUT:

    - ``problem`` -- an :class:`EDProblem`
    - ``timeout`` -- ignored (the counts are not interruptible yet)

    OUTPUT: an :class:`EDDegreeCertificate`

    EXAMPLES::

        sage: from sage_attention.ideals.metric.certificate import EDProblem, prove
        sage: R.<x,y> = GF(32003)[]
        sage: C = prove(EDProblem(R.ideal([x^2 + y^2 - 1]), metric='euclidean', data=[0, 0], seed=1)); C
        ED degree certificate: not proved (the critical set at the data is not finite (special data))
        sage: C.random_count
        2
    """
    runs = []
    for p, s in zip(problem.primes, problem.run_seeds()):
        t0 = time.time()
        n = problem.count(p, s)
        runs.append((int(p), int(s), n, round(time.time() - t0, 4)))
    random_count = None
    if problem.data is not None:
        random_count = problem.count(problem.primes[0], problem.run_seeds()[0] + 1, data=None)
    counts = [r[2] for r in runs]
    if any(n is None for n in counts):
        reason = "the critical set at the data is not finite (special data)" if problem.data is not None \
            else "the critical set is not finite: is the ideal prime, of the given codimension?"
        return EDDegreeCertificate(False, reason, problem, tuple(runs), None, random_count)
    if len(set(counts)) > 1:
        return EDDegreeCertificate(False, "the counts disagree: " + ", ".join(map(str, counts)), problem,
                                   tuple(runs), None, random_count)
    agree = ", ".join(f"{n} over GF({p})" for p, _, n, _ in runs)
    reason = f"{len(runs)} counts agree: {agree}"
    if random_count is not None and random_count != counts[0]:
        reason += f"; the count drops at the data (at random data: {random_count})"
    return EDDegreeCertificate(True, reason, problem, tuple(runs), counts[0], random_count)


@dataclass
class EDDegreeCertificate(ProofCertificate):
    r"""
    The evidence for an ED degree: counts of critical points modulo primes, at recorded seeds.

    Attributes: ``proved``, ``reason``, ``problem`` (the :class:`EDProblem`),
    ``runs`` (tuples ``(prime, seed, count, seconds)``), ``degree``,
    ``random_count`` (the count at random data, when data were given).

    EXAMPLES::

        sage: from sage_attention.ideals.metric.certificate import EDProblem, prove
        sage: R.<a,b,c,d> = QQ[]
        sage: C = prove(EDProblem(R.ideal([a*d - b*c]), metric='euclidean', seed=2))
        sage: C.rows()[:2]
        [('question', 'ED degree'), ('metric', 'euclidean')]
        sage: sorted(C.to_dict())
        ['degree', 'metric', 'proved', 'random_count', 'reason', 'runs', 'seed']
    """
    proved: bool
    reason: str
    problem: object = None
    runs: tuple = ()
    degree: object = None
    random_count: object = None
    technique = "critical ideal"
    label = "by the critical ideal modulo two primes"

    def verify(self):
        r"""
        Recount at the recorded primes and seeds; return whether every count is the same.

        EXAMPLES::

            sage: from sage_attention.ideals.metric.certificate import EDProblem, prove
            sage: R.<x,y> = QQ[]
            sage: prove(EDProblem(R.ideal([x*y - 1]), metric='euclidean', seed=3)).verify()
            True
        """
        if not self.proved:
            return False
        return all(self.problem.count(p, s) == n for p, s, n, _ in self.runs)

    def to_dict(self):
        r"""
        Return a JSON-ready dictionary.

        EXAMPLES::

            sage: from sage_attention.ideals.metric.certificate import EDProblem, prove
            sage: R.<x,y> = QQ[]
            sage: prove(EDProblem(R.ideal([x*y - 1]), seed=3)).to_dict()['runs'][0][2]
            4
        """
        return {"proved": self.proved, "reason": self.reason, "degree": self.degree,
                "metric": metric_name(self.problem.metric), "seed": self.problem.seed,
                "runs": [list(r) for r in self.runs], "random_count": self.random_count}

    def rows(self):
        r"""
        Return the rows of the HTML table.

        EXAMPLES::

            sage: from sage_attention.ideals.metric.certificate import EDProblem, prove
            sage: R.<x,y> = QQ[]
            sage: dict(prove(EDProblem(R.ideal([x*y - 1]), seed=3)).rows())['seed']
            3
        """
        rows = [("question", ED_DEGREE), ("metric", metric_name(self.problem.metric)),
                ("seed", self.problem.seed)]
        rows += [(f"count over GF({p})", f"{n} (seed {s}, {t:.2f} s)") for p, s, n, t in self.runs]
        if self.random_count is not None:
            rows.append(("count at random data", self.random_count))
        return rows

    def __repr__(self):
        if not self.proved:
            return f"ED degree certificate: not proved ({self.reason})"
        return f"ED degree certificate: {self.degree} ({self.reason})"


def applies_chart(problem):
    r"""
    Return ``None`` when the technique ``'parametrization chart'`` applies to ``problem``, else the reason.

    INPUT:

    - ``problem`` -- an :class:`EDProblem`

    OUTPUT: ``None`` or a sentence

    EXAMPLES::

        sage: from sage_attention.ideals.metric.certificate import EDProblem, applies_chart
        sage: R.<x> = QQ[]
        sage: applies_chart(EDProblem(R.ideal([x]), seed=0))
        'no parametrization given'
    """
    if problem.parametrization is None:
        return "no parametrization given"
    if problem.data is not None:
        return "the parametrization route counts at random data only"
    return None


def prove_chart(problem, timeout=None):
    r"""
    Count pure critical points and fibers of a chart at two primes; return an :class:`EDDegreeCertificate`.

    The ED degree is the number of pure critical points of the loss in the
    chart divided by the generic fiber size of the chart map (see
    :mod:`~sage_attention.ideals.metric.parametric`); the runs record both.

    INPUT:

    - ``problem`` -- an :class:`EDProblem` with a ``parametrization``
    - ``timeout`` -- ignored

    OUTPUT: an :class:`EDDegreeCertificate` (technique ``'parametrization chart'``)

    EXAMPLES::

        sage: from sage_attention.ideals.metric.certificate import EDProblem, prove_chart
        sage: R.<c0,c1,c2> = QQ[]; S.<s,t> = QQ[]
        sage: C = prove_chart(EDProblem(None, parametrization=R.hom([s^2, s*t, t^2], S), seed=1)); C
        ED degree certificate: 4 (2 counts agree: 4 over GF(8388593), 4 over GF(8388617);
        pure critical points / fiber: 8/2, 8/2)
        sage: C.technique, C.verify()
        ('parametrization chart', True)
    """
    from sage_attention.ideals.metric.parametric import parametric_ed_count
    runs, detail = [], []
    for p, s in zip(problem.primes, problem.run_seeds()):
        t0 = time.time()
        c = parametric_ed_count(problem.parametrization, problem.metric, p=p, seed=s, exponents=problem.exponents,
                                backend=problem.backend)
        runs.append((int(p), int(s), c["ed_degree"], round(time.time() - t0, 4)))
        detail.append(f"{c['pure']}/{c['fiber']}")
    counts = [r[2] for r in runs]
    if any(n is None for n in counts) or len(set(counts)) > 1:
        return ChartCertificate(False, "the chart counts give no common ED degree: " + ", ".join(detail), problem,
                                tuple(runs), None, None)
    agree = ", ".join(f"{n} over GF({p})" for p, _, n, _ in runs)
    return ChartCertificate(True, f"{len(runs)} counts agree: {agree}; pure critical points / fiber: "
                            + ", ".join(detail), problem, tuple(runs), counts[0], None)


class ChartCertificate(EDDegreeCertificate):
    r"""
    The evidence for an ED degree from a parametrization chart: pure critical points over fiber size, at two primes.

    EXAMPLES::

        sage: from sage_attention.ideals.metric.certificate import ChartCertificate
        sage: ChartCertificate.technique, ChartCertificate.label
        ('parametrization chart', 'by a parametrization chart modulo two primes')
    """
    technique = "parametrization chart"
    label = "by a parametrization chart modulo two primes"

    def verify(self):
        r"""
        Recount at the recorded primes and seeds; return whether every ED degree is the same.

        EXAMPLES::

            sage: from sage_attention.ideals.metric.certificate import ChartCertificate
            sage: ChartCertificate(False, "no").verify()
            False
        """
        if not self.proved:
            return False
        from sage_attention.ideals.metric.parametric import parametric_ed_count
        P = self.problem
        return all(parametric_ed_count(P.parametrization, P.metric, p=p, seed=s, exponents=P.exponents,
                                       backend=P.backend)["ed_degree"] == n for p, s, n, _ in self.runs)
