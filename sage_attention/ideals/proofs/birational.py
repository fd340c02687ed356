r"""
Quadrics with a common linear factor: the whole ideal by a birational inverse

Let `x_0, \dots, x_{n-1}` be `n \ge 2` features, `V` the linear forms in
them and `k \ge 2`. The variety

.. MATH::

    X = \overline{\{(\ell m_0, \dots, \ell m_{k-1}) : \ell, m_0, \dots, m_{k-1} \in V\}}
    \subseteq (\mathrm{Sym}^2 V)^k

of `k`-tuples of quadrics with a common linear factor is the variety `X'`
of the first `a` columns of the one-entry slice of width `n` and rank `a`
(`k = a`; :mod:`sage_attention.ideals.proofs.inheritance`) and the slice of full
rank `a = n` itself (`k = n`). For `n = 4`, `k = 3` (`30` coordinates, the
base of the slices of width `4` and rank `3`) the localization of
:mod:`sage_attention.ideals.proofs.localization` does not finish in 1200 s, and
the variety has no fewer features to inherit from
(:mod:`sage_attention.ideals.proofs.subspace`). Its parametrization has an
explicit rational inverse, and that proves the ideal with one Gröbner basis
and linear algebra.

Let `c_{o,ij}` be the coefficient of `x_i x_j` in the `o`-th quadric, `S =
K[c]` (`K` a field), and `\Phi : S \to A = K[l_1, \dots, l_{n-1}, m_{oi}]`
the map of `\ell = x_0 + \sum_j l_j x_j`, `m_o = \sum_i m_{oi} x_i`:
`\Phi(c_{o,ii}) = l_i m_{oi}`, `\Phi(c_{o,ij}) = l_i m_{oj} + l_j m_{oi}`
(`l_0 = 1`). With, for `1 \le j \le n-1`,

.. MATH::

    D_j = c_{1,00} c_{0,0j} - c_{0,00} c_{1,0j}, \qquad N_j = c_{1,00} c_{0,jj} - c_{0,00} c_{1,jj},

one has `\Phi(D_j) = m_{10} m_{0j} - m_{00} m_{1j} \ne 0` and `\Phi(N_j) =
l_j \Phi(D_j)`, so `\psi: l_j = N_j / D_j`, `m_{o0} = c_{o,00}`, `m_{oj} =
c_{o,0j} - l_j c_{o,00}` inverts `\Phi` (`\psi \circ \Phi = \mathrm{id}`).
Substituting `\psi` in `\Phi(c_{o,jl})`, `1 \le j \le l`, and clearing
denominators gives the *cleared relations* (degree `5`)

.. MATH::

    \rho_{o,jj} = D_j^2 c_{o,jj} - N_j D_j c_{o,0j} + N_j^2 c_{o,00}, \qquad
    \rho_{o,jl} = D_j D_l c_{o,jl} - N_j D_l c_{o,0l} - N_l D_j c_{o,0j} + 2 N_j N_l c_{o,00}.

    **Theorem.** Let `J \subseteq S` be a homogeneous ideal such that

    (a) `\Phi(J) = 0`;

    (b) every `\rho_{o,jl}` (`0 \le o < k`, `1 \le j \le l \le n - 1`)
        lies in `J`;

    (c) `D_1` is a nonzerodivisor on `S/J`;

    (d) for `2 \le j \le n - 1`, the transposition `\sigma_j` of the
        features `x_1, x_j` (which permutes the `c_{o,il}`) maps `J` into
        `J`.

    Then `J = \ker \Phi`, a prime ideal of dimension `(n - 1) + kn`.

    *Proof.* `\sigma_j` is a graded automorphism of `S` with `\sigma_j(J)
    \subseteq J`, so `\sigma_j(J) = J` (equal dimensions in each degree),
    and `D_j = \sigma_j(D_1)` is a nonzerodivisor on `S/J` by (c); so is
    `f = D_1 \cdots D_{n-1}`. Let `\pi : S \to S_f/J_f` and define `\theta
    : A \to S_f/J_f` by `l_j \mapsto N_j/D_j`, `m_{o0} \mapsto c_{o,00}`,
    `m_{oj} \mapsto c_{o,0j} - (N_j/D_j) c_{o,00}`. Then `\theta \Phi(c) =
    \pi(c)` for every coordinate: for `c_{o,00}` and `c_{o,0j}` by
    expanding, for `c_{o,jl}` because `\theta\Phi(c_{o,jl}) - \pi(c_{o,jl})`
    is `\pm \pi(\rho_{o,jl})` divided by a product of `D`'s, zero by (b).
    So `\theta \circ \Phi = \pi` on `S`, and `\ker \Phi \subseteq \ker \pi
    = J : f^\infty = J` by (c). With (a), `J = \ker \Phi`, the kernel of a
    map into a domain: prime. Its dimension is the transcendence degree of
    `K(\Phi(S))`, which contains `\Phi(N_j)/\Phi(D_j) = l_j`,
    `\Phi(c_{o,00}) = m_{o0}` and `\Phi(c_{o,0j}) - l_j m_{o0} = m_{oj}`:
    all of `K(l, m)`, of transcendence degree `(n-1) + kn`. `\square`

The proof over `\QQ`. The model's coordinates are checked exactly to be
the `c_{o,ij}` up to nonzero scales, of tuples `\ell \cdot (m_0, \dots,
m_{k-1})` with the `m_o` the columns of a product `W^T E` of rank `a \ge
\min(n, k)`, so every `n \times k` matrix
(:func:`~sage_attention.ideals.proofs.form_coordinates.structure_holds` and the shape of
:mod:`sage_attention.ideals.proofs.common_factor`): then `X` is the closure of the
image of `\Phi` (`\ell m = (\ell/\ell_0)(\ell_0 m)` where `\ell_0 \ne 0`),
`I(X) = \ker \Phi`, and `\dim X = (n - 1) + kn` (the identities above hold
over `\ZZ`). With `J` the ideal of the engine's generators (each verified
to vanish on `X`) and `J_p` that of their reductions modulo `p` (the
primitive integral generators), the theorem over `K = \GF{p}` shows `J_p`
prime of dimension `\dim X`, and the claim of
:mod:`sage_attention.ideals.proofs.completeness` gives `J = I(X)`.

The checks, all exact modulo `p`:

- (a) every generator composed with `\Phi` modulo `p` is zero;
- (b) and (d) linear algebra in one piece of the grading by the torus of
  `GL_n \times GL_k` (the coordinate `c_{o,ij}` has weight `(e_o, e_i +
  e_j)`; the generators must be homogeneous for it): a polynomial `h` of
  degree `e` lies in `J_e` when it is in the span of the products `u g`
  of generators `g` and monomials `u` of the weight of `h` minus that of
  `g` (a sufficient condition, so a wrong "yes" is impossible;
  :func:`~sage_attention.ideals.ideal_checks.ideal_membership`);
- (c) by Bayer and Stillman's criterion [BS1987]_: `D_1` is a
  nonzerodivisor on `S/J` if and only if `t` is one on `S[t]/(J + (t^2 -
  D_1))` (a free `S/J`-module with basis `1, t`), and for a homogeneous
  ideal and the degree reverse lexicographic order with `t` last, if and
  only if no minimal generator of the initial ideal is divisible by `t`.
  One Gröbner basis (Singular's ``std``,
  :func:`~sage_attention.ideals.ideal_checks.nonzerodivisor_check`) in a
  forked process under a time limit; this is the expensive step (minutes
  for `n = 4`, `k = 3`).

When a check fails nothing is claimed: a missing generator (a cleared
relation outside `J`, or `D_1` a zerodivisor: an extra component or an
embedded one contains the zeros of `D_1`), generators that do not vanish
on `X`, or a limit reached. The theorem needs no Hilbert series, and gives
none.

EXAMPLES:

The pairs of ternary quadrics with a common linear factor (the variety of
the first two columns of the slice of width `3` and rank `2`), generated
by `4` cubics and `15` quartics; without a quartic the certificate fails::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.ideals.proofs.inheritance import matrix_factorization
    sage: from sage_attention.ideals.engine.graded_kernel import graded_kernel
    sage: from sage_attention.ideals.proofs.birational import birational_certificate
    sage: M = LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)])
    sage: _, psi = matrix_factorization(M.essential_parametrization()).sub_map()
    sage: L = M.linear_form_structure().restricted(psi.domain().variable_names())
    sage: G = graded_kernel(psi, 4, seed=0); {k: len(g) for k, g in G.items()}
    {3: 4, 4: 15}
    sage: gens = G[3] + G[4]
    sage: B = birational_certificate(gens, psi, L); B
    Birational certificate modulo 32003: prime of dimension 8 (pairs of quadrics in 3 features with a
    common linear factor; 6 cleared relations, 1 transposition, D_1 a nonzerodivisor)
    sage: B.verify()
    True
    sage: birational_certificate(gens[:-1], psi, L).reason
    'the cleared relation rho_(...) is not in the ideal (a generator of degree at most 5 is missing)'

REFERENCES: [BS1987]_, [GTZ1988]_.
"""
import time
from dataclasses import dataclass, field

from sage.rings.finite_rings.finite_field_constructor import GF
from sage.rings.rational_field import QQ

from sage_attention.ideals.proofs.birational_inverse import CommonFactorCoordinates, common_factor_coordinates  # noqa: F401
from sage_attention.ideals.proofs.problem import ProofProblem
from sage_attention.ideals.proofs.protocol import ProofCertificate, timings_dict
from sage_attention.misc.forked import steps_in_child
from sage_attention.ideals.engine.graded_kernel import graded_kernel
from sage_attention.ideals.hilbert import reduction
from sage_attention.ideals.ideal_checks import ideal_membership, nonzerodivisor_check
from sage_attention.misc.randomness import resolve_seed
from sage_attention.settings import settings


@dataclass
class BirationalCertificate(ProofCertificate):
    r"""
    A proof (or a failed attempt) that `J_p` is the prime ideal of the quadrics with a common linear factor.

    Made by :func:`birational_certificate`. Attributes: ``proved``,
    ``reason`` (a sentence), ``prime``, ``coordinates`` (the
    :class:`CommonFactorCoordinates`, or ``None``), ``dimension`` (`(n-1) +
    kn` when proved), ``relations`` (the number of cleared relations shown
    in `J_p`), ``transpositions`` (the number of transpositions shown to
    preserve `J_p`), ``nonzerodivisor`` (``(holds, basis size, leading
    monomials divisible by t)`` of check (c), or ``None``), ``generators``,
    ``parametrization``, ``structure`` (what was checked), ``timings``.
    """
    proved: bool
    reason: str
    prime: int = None
    coordinates: object = None
    dimension: object = None
    relations: int = 0
    transpositions: int = 0
    nonzerodivisor: object = None
    generators: tuple = ()
    parametrization: object = None
    structure: object = None
    timings: dict = field(default_factory=dict)
    technique = "birational"
    label = "by a birational inverse"
    reduction_prime = True

    def verify(self, timeout=None):
        r"""
        Re-check every step from the stored data (the Gröbner basis of check (c) included); return whether it holds.

        INPUT:

        - ``timeout`` -- (default: ``None``, no limit) seconds for check (c)

        EXAMPLES:

        A certificate whose generators were altered afterwards fails::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.proofs.inheritance import matrix_factorization
            sage: from sage_attention.ideals.engine.graded_kernel import graded_kernel
            sage: from sage_attention.ideals.proofs.birational import birational_certificate
            sage: M = LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)])
            sage: _, psi = matrix_factorization(M.essential_parametrization()).sub_map()
            sage: L = M.linear_form_structure().restricted(psi.domain().variable_names())
            sage: G = graded_kernel(psi, 4, seed=0)
            sage: B = birational_certificate(G[3] + G[4], psi, L)
            sage: B.verify()
            True
            sage: B.generators = B.generators[1:]; B.verify()
            False
        """
        if not self.proved:
            return False
        again = birational_certificate(self.generators, self.parametrization, self.structure, p=self.prime,
                                       timeout=timeout)
        return again.proved and again.dimension == self.dimension

    def to_dict(self):
        r"""
        Return a JSON-ready dictionary.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.proofs.birational import birational_certificate
            sage: M = LightningAttention(d=3, t=2, a=3, out=1, entries=[(1, 1)])
            sage: birational_certificate([], M.essential_parametrization(), M.linear_form_structure()).to_dict()['proved']
            False
        """
        C = self.coordinates
        return {"proved": self.proved, "reason": self.reason, "prime": self.prime,
                "features": None if C is None else C.n, "quadrics": None if C is None else C.k,
                "dimension": self.dimension, "cleared_relations": self.relations,
                "transpositions": self.transpositions,
                "nonzerodivisor": None if self.nonzerodivisor is None else
                dict(zip(("holds", "basis_size", "leads_with_t"), map(int, self.nonzerodivisor))),
                "timings": timings_dict(self.timings)}

    def rows(self):
        r"""
        Return the rows of the HTML table: the quadrics, the cleared relations, the transpositions, check (c).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.implicitization import implicitize
            sage: from sage_attention.ideals.proofs.birational import birational_certificate
            sage: M = LightningAttention(d=3, t=2, a=3, out=1, entries=[(1, 1)])
            sage: G = implicitize(M, 4, seed=0, prove=False).essential_generators
            sage: birational_certificate(G, M.essential_parametrization(), M.linear_form_structure()).rows()[0]
            ('quadrics with a common linear factor', '3 in 3 features')
        """
        return [("quadrics with a common linear factor", f"{self.coordinates.k} in {self.coordinates.n} features"),
                ("cleared relations in the ideal", self.relations),
                ("transpositions preserving the ideal", self.transpositions),
                ("D_1 a nonzerodivisor (Groebner basis size)", self.nonzerodivisor[1])]

    def __repr__(self):
        if self.proved:
            C = self.coordinates
            what = "pairs" if C.k == 2 else f"{C.k}-tuples"
            return (f"Birational certificate modulo {self.prime}: prime of dimension {self.dimension} ({what} of "
                    f"quadrics in {C.n} features with a common linear factor; {self.relations} cleared relations, "
                    f"{self.transpositions} transposition{'' if self.transpositions == 1 else 's'}, D_1 a "
                    "nonzerodivisor)")
        return f"Birational certificate modulo {self.prime}: not proved ({self.reason})"


def _nonzerodivisor_step(job, send):
    gens, h = job
    t0 = time.time()
    out = nonzerodivisor_check(gens, h)
    send((out, time.time() - t0))


def birational_certificate(gens, psi, structure, p=None, timeout=None):
    r"""
    Try to prove that ``gens`` generate the whole ideal of `k`-tuples of quadrics with a common linear factor.

    The theorem and the checks are in the module documentation: the
    coordinates (exact), (b) the cleared relations and (d) the
    transpositions (linear algebra modulo `p`), (a) the generators on the
    normalized map modulo `p`, (c) the nonzerodivisor (one Gröbner basis,
    in a forked process within ``timeout`` seconds).

    INPUT:

    - ``gens`` -- polynomials over `\QQ` in the domain of ``psi``, which
      vanish on its variety (the engine's generators)
    - ``psi`` -- the parametrization, over `\QQ`
    - ``structure`` -- its
      :class:`~sage_attention.models.linear_forms.LinearFormStructure`
      (checked exactly)
    - ``p`` -- (default: ``None``, the first of ``settings.HILBERT_PRIMES``, `32003`) the prime
    - ``timeout`` -- (default: ``None``, no limit, in this process) seconds
      for check (c)

    OUTPUT: a :class:`BirationalCertificate`; when proved, `J_p` is prime of
    the dimension of the variety, so the generators generate its whole
    ideal over `\QQ` (:mod:`sage_attention.ideals.proofs.completeness`)

    EXAMPLES:

    The slice of width `3` and full rank `3` (triples of ternary quadrics
    with a common factor, `18` coordinates) through degree `4`; through
    degree `3` the cleared relations are not in the ideal of the cubics::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.implicitization import implicitize
        sage: from sage_attention.ideals.proofs.birational import birational_certificate
        sage: M = LightningAttention(d=3, t=2, a=3, out=1, entries=[(1, 1)])
        sage: phi, L = M.essential_parametrization(), M.linear_form_structure()
        sage: G = implicitize(M, 4, seed=0, prove=False).essential_generators
        sage: birational_certificate(G, phi, L).proved
        True
        sage: birational_certificate([g for g in G if g.degree() == 3], phi, L).proved
        False

    Generators that do not vanish on the variety, and a map of another
    shape, are refused::

        sage: y = phi.domain().gens()
        sage: birational_certificate(list(G) + [y[0]], phi, L).reason
        'a generator does not vanish on the variety (modulo 32003)'
        sage: M2 = LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)])
        sage: birational_certificate([], M2.essential_parametrization(), M2.linear_form_structure()).reason
        'the coordinates are not those of tuples of quadrics with a common linear factor (...)'
    """
    if p is None:
        p = settings.HILBERT_PRIMES[0]
    t_start = time.time()
    timings = {}
    common = dict(prime=int(p), generators=tuple(gens), parametrization=psi, structure=structure, timings=timings)
    C = common_factor_coordinates(psi, structure)
    if C is None:
        return BirationalCertificate(False, "the coordinates are not those of tuples of quadrics with a common "
                                     "linear factor (see sage_attention.ideals.proofs.birational)", **common)
    common["coordinates"] = C
    n, k = C.n, C.k
    # the inverse, exactly over QQ (the identities have integer coefficients)
    Phi = C.normalized_map(QQ)
    D, N = C.inverse()
    ls = Phi.codomain().gens()[:n - 1]
    if any(Phi(d) == 0 or Phi(q) != l * Phi(d) for d, q, l in zip(D, N, ls)):
        return BirationalCertificate(False, "the map has no such inverse (an identity failed)", **common)
    Rp = C.ring.change_ring(GF(p))
    gp = [g for g in reduction(gens, C.ring, p).gens() if g]
    if not gp:
        return BirationalCertificate(False, "no generator", **common)
    # (a) the generators vanish on the normalized map modulo p
    t0 = time.time()
    Phip = C.normalized_map(GF(p))
    if any(Phip(g) for g in gp):
        return BirationalCertificate(False, f"a generator does not vanish on the variety (modulo {p})", **common)
    timings["generators on the map"] = time.time() - t0
    # (b) the cleared relations, (d) the transpositions: linear algebra modulo p
    t0 = time.time()
    try:
        rels = C.cleared_relations(Rp)
        inside = ideal_membership(C.weight, gp, [rho for _, rho in rels])
    except ValueError as exc:
        return BirationalCertificate(False, str(exc), **common)
    timings["cleared relations"] = time.time() - t0
    missing = [w for (w, _), ok in zip(rels, inside) if not ok]
    if missing:
        o, j, l = missing[0]
        return BirationalCertificate(False, f"the cleared relation rho_({o},{j}{l}) is not in the ideal (a generator "
                                     "of degree at most 5 is missing)", **common)
    common["relations"] = len(rels)
    t0 = time.time()
    for j in range(2, n):
        s = C.transposition(j, Rp)
        if not all(ideal_membership(C.weight, gp, [s(g) for g in gp])):
            return BirationalCertificate(False, f"the transposition of the features x_1, x_{j} does not preserve the "
                                         "ideal", **common)
    timings["transpositions"] = time.time() - t0
    common["transpositions"] = max(n - 2, 0)
    # (c) D_1 a nonzerodivisor: one Groebner basis, in a forked process
    t0 = time.time()
    got = steps_in_child(_nonzerodivisor_step, (gp, Rp(D[0])), timeout, 1, "the nonzerodivisor check")
    timings["nonzerodivisor"] = time.time() - t0
    timings["total"] = time.time() - t_start
    if not got:
        return BirationalCertificate(False, f"the nonzerodivisor check (one Groebner basis) did not finish in "
                                     f"{timeout} s", **common)
    common["nonzerodivisor"] = got[0][0]
    if not got[0][0][0]:
        return BirationalCertificate(False, "D_1 is a zerodivisor modulo the ideal (an extra or embedded "
                                     "component)", **common)
    return BirationalCertificate(True, f"prime of dimension {n - 1 + k * n}: the explicit birational inverse of "
                                 f"the quadrics with a common linear factor, {len(rels)} cleared relations in "
                                 f"the ideal, D_1 a nonzerodivisor (sage_attention.ideals.proofs.birational)",
                                 dimension=n - 1 + k * n, **common)


def _kernel_steps(job, send):
    r"""
    The steps of :func:`birational_kernel` (in the child): the generators, then the certificate.
    """
    psi, L, degree, seed, p = job
    t0 = time.time()
    G = graded_kernel(psi, degree, seed=seed)
    send(("kernel", G, time.time() - t0))
    t0 = time.time()
    B = birational_certificate([g for k in sorted(G) for g in G[k]], psi, L, p=p, timeout=None)
    send(("certificate", B, time.time() - t0))


def _completeness(B, timings):
    r"""
    Return the :class:`~sage_attention.ideals.proofs.completeness.CompletenessCertificate` of a :class:`BirationalCertificate`, concluded by the strategy.
    """
    from sage_attention.ideals.proofs.strategy import concluded
    C = B.coordinates
    dim = B.dimension or (None if C is None else C.n - 1 + C.k * C.n)
    problem = ProofProblem.for_map(B.parametrization, B.generators, 0, dim or 0, prime=B.prime)
    return concluded(problem, B, timings.get("certificate", 0), timings)


def birational_kernel(psi, structure, degree, seed=0, p=None, timeout=30):
    r"""
    Return ``(generators, certificate, timings)``: the ideal of the quadrics with a common linear factor through ``degree``, and its proof.

    For the proof by inheritance of a matrix product
    (:mod:`sage_attention.ideals.proofs.inheritance`), whose variety of the first
    columns is such a variety: the generators through ``degree`` by
    :func:`~sage_attention.ideals.engine.graded_kernel.graded_kernel`, then
    :func:`birational_certificate`,
    in a forked child within ``timeout`` seconds.

    INPUT:

    - ``psi`` -- the parametrization, over `\QQ`
    - ``structure`` -- its :class:`~sage_attention.models.linear_forms.LinearFormStructure`
    - ``degree`` -- positive integer
    - ``seed`` -- (default: `0`) the random points of the generators (they
      change the time, never what is proved)
    - ``p`` -- (default: ``None``, the first of ``settings.HILBERT_PRIMES``, `32003`) the prime
    - ``timeout`` -- (default: `30`) seconds, or ``None`` (in this process)

    OUTPUT: ``{degree: generators}`` or ``None``, a
    :class:`~sage_attention.ideals.proofs.completeness.CompletenessCertificate`
    (``method='birational'`` when proved) or ``None``, and ``{step:
    seconds}`` (``None`` for what did not finish)

    EXAMPLES:

    The pairs of ternary quadrics with a common linear factor, the variety of
    the first two columns of the slice of width `3` and rank `2`::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.proofs.inheritance import matrix_factorization
        sage: from sage_attention.ideals.proofs.birational import birational_kernel
        sage: M = LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)])
        sage: _, psi = matrix_factorization(M.essential_parametrization()).sub_map()
        sage: L = M.linear_form_structure().restricted(psi.domain().variable_names())
        sage: G, C, t = birational_kernel(psi, L, 4)
        sage: {k: len(g) for k, g in G.items()}, C.method, C.dimension, C.verify()
        ({3: 4, 4: 15}, 'birational', 8, True)
    """
    if p is None:
        p = settings.HILBERT_PRIMES[0]
    t0 = time.time()
    results = steps_in_child(_kernel_steps, (psi, structure, int(degree), resolve_seed(seed), int(p)), timeout, 2,
                             f"the ideal of {psi.domain().ngens()} coordinates")
    got = {r[0]: r[1] for r in results}
    timings = {r[0]: r[2] for r in results}
    timings["total"] = time.time() - t0
    B = got.get("certificate")
    return got.get("kernel"), None if B is None else _completeness(B, timings), timings


def birational_completeness(gens, ring, dimension, parametrization, structure, timeout=30, method="localization",
                            seed=0, progress=False, processes=None):
    r"""
    Prove the whole ideal by the birational inverse when the variety is one of quadrics with a common linear factor, else as usual.

    When :func:`birational_certificate` does not prove (or does not apply),
    the rest of the time goes to
    :func:`~sage_attention.ideals.proofs.completeness.completeness_certificate`
    with ``method``, unless ``method`` is ``'birational'``.

    INPUT:

    - ``gens``, ``ring``, ``dimension``, ``timeout``, ``seed``, ``progress``,
      ``processes`` -- as in
      :func:`~sage_attention.ideals.proofs.completeness.completeness_certificate`
      (``timeout`` also bounds the Gröbner basis of check (c))
    - ``parametrization``, ``structure`` -- as in :func:`birational_certificate`
    - ``method`` -- (default: ``'localization'``) ``'birational'`` or a method
      of :func:`~sage_attention.ideals.proofs.completeness.completeness_certificate`

    OUTPUT: a :class:`~sage_attention.ideals.proofs.completeness.CompletenessCertificate`
    (``method='birational'`` and the :class:`BirationalCertificate` in
    ``birational`` when proved that way)

    EXAMPLES:

    The slice of width `3` and full rank::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.implicitization import implicitize
        sage: from sage_attention.ideals.proofs.birational import birational_completeness
        sage: M = LightningAttention(d=3, t=2, a=3, out=1, entries=[(1, 1)])
        sage: G = implicitize(M, 4, seed=0, prove=False).essential_generators
        sage: C = birational_completeness(G, M.essential_ring(), 11, M.essential_parametrization(),
        ....:                             M.linear_form_structure(), method='birational'); C
        Completeness certificate modulo 32003: the whole vanishing ideal (prime of dimension 11, by a birational
        inverse)
        sage: C.verify()
        True
    """
    from sage_attention.ideals.proofs.strategy import prove_in_order
    problem = ProofProblem(ring, gens, 0, parametrization=parametrization, dimension_bound=dimension, seed=seed,
                           progress=progress, processes=processes, structure=structure)
    return prove_in_order(problem, ["birational"], timeout=timeout, method=method)


def applies(problem):
    r"""
    Return ``None`` when the proof by a birational inverse applies to ``problem``, else the reason.

    It applies, when ``prove`` is given (its Gröbner basis takes minutes),
    to tuples of quadrics with a common linear factor over `\QQ` that are
    neither a Segre product, nor a matrix product, nor forms in fewer
    linear forms than features (the slices of full rank).

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.proofs.problem import ProofProblem
        sage: from sage_attention.ideals.proofs.birational import applies
        sage: M = LightningAttention(d=3, t=2, a=3, out=1, entries=[(1, 1)])
        sage: applies(ProofProblem(M.essential_ring(), [], 4, model=M, prove=True)) is None
        True
        sage: applies(ProofProblem(M.essential_ring(), [], 4, model=M))
        'tried only when prove is given (one Groebner basis of the generators, minutes)'
    """
    if problem.prove is None:
        return "tried only when prove is given (one Groebner basis of the generators, minutes)"
    if problem.segre_factorization() is not None:
        return "the parametrization is a Segre product (proved by that technique)"
    if problem.matrix_factorization() is not None:
        return "the parametrization is a matrix product F(p) * C (proved by inheritance)"
    L = problem.linear_form_structure()
    if L is not None and L.nfeatures > L.nforms:
        return "forms in fewer linear forms than features (proved by inheritance from fewer features)"
    if common_factor_coordinates(problem.parametrization_map(), L) is None:
        return "the coordinates are not those of tuples of quadrics with a common linear factor"
    return None


def prove(problem, timeout):
    r"""
    Run the proof by a birational inverse on ``problem`` (:func:`birational_certificate`): the registry's ``'birational'``.

    INPUT:

    - ``problem`` -- a :class:`~sage_attention.ideals.proofs.problem.ProofProblem`
    - ``timeout`` -- seconds for check (c), or ``None``

    OUTPUT: a :class:`BirationalCertificate`

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.implicitization import implicitize
        sage: from sage_attention.ideals.proofs.problem import ProofProblem
        sage: from sage_attention.ideals.proofs.birational import prove
        sage: M = LightningAttention(d=3, t=2, a=3, out=1, entries=[(1, 1)])
        sage: G = implicitize(M, 4, seed=0, prove=False).essential_generators
        sage: prove(ProofProblem(M.essential_ring(), G, 4, model=M, prove=True), 60).proved
        True
    """
    return birational_certificate(problem.generators, problem.parametrization_map(), problem.linear_form_structure(),
                                  timeout=timeout)
