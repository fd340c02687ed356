r"""
Forms in few linear forms: the whole ideal by inheritance from fewer features

Some neurovarieties are varieties of forms (:mod:`sage_attention.models.linear_forms`):
the coordinates are the coefficients of forms `F_o` of degrees `e_o \ge 1`
in `n` features,

.. MATH::

    F_o(x) = P_o(\ell_1(x), \dots, \ell_m(x)), \qquad \ell_j(x) = \sum_{i=1}^{n} w_{ji} x_i,

with polynomials `P_o` in `m` variables, whose coefficients may be further
weights `q`, and `W = (w_{ji})` free. A single lightning token is one, with
`P = s_0 \sum_r s_r s_{a+r}` and `m = 2a + 1`; a one-entry slice is the
tuple of the `d` quadrics `s_0 \sum_r q_{rc} s_r` in `m = a + 1` linear
forms, the query `q` as coefficients. Let `X_n` be the closure of these
tuples of forms. When `n > m` its ideal is inherited from that of `X_m`, a
variety of fewer coordinates: for the token of width `4` and rank `1` (the
cubics that split into three linear forms, `20` coordinates) from the token
of width `3` (`10` coordinates), where the localization of
:mod:`sage_attention.ideals.proofs.localization` does not finish (its lex basis
over `10` independent variables).

    **Theorem.** Over a field of characteristic `0`, let `n > m` and let
    `I(X_m)` be generated in degrees at most `r`. Then `I(X_n)` is
    generated in degrees at most `\max(r, m + 1)` (at most `r` when the
    forms are linear and fewer than `m + 1`).

    *Proof.* By induction on `n`, from `X_{n-1}` to `X_n` (for `n - 1 = m`,
    the hypothesis). Let `G = GL_n` act on the coordinate ring `R` of the
    tuples of forms by linear substitution of the features (on every form
    at once; not on `q`); the coordinate `c_{o\alpha}` (the coefficient of
    `x^\alpha` in `F_o`) has weight `\alpha` for the diagonal torus, so a
    monomial `\prod_j c_{o_j\alpha_j}` has weight `\sum_j \alpha_j`. `X_n`
    is `G`-stable (`F_o(g x) = P_o(W g x)`), so `I = I(X_n)` is, and in
    characteristic `0` each `I_\delta` is the sum of its intersections with
    the isotypic components `R_\delta^{(\pi)}` of `R_\delta`, each spanned
    by the `G`-translates of its highest weight vectors, of weight `\pi`
    (`\pi_1 \ge \dots \ge \pi_n \ge 0`). Let `U = \langle x_1, \dots,
    x_{n-1} \rangle` and `\mathrm{pr}` the substitution `x_n \mapsto 0`:
    `\mathrm{pr}(P_o(Wx)) = P_o(W' x)` with `W'` the first `n - 1`
    columns, so `\mathrm{pr}(X_n) \subseteq X_{n-1} \subseteq X_n`
    (`X_{n-1}` the tuples of `X_n` in the forms on `U`).

    - `\pi_n = 0`: a highest weight vector `f \in I` has weight `\pi`, so
      every coordinate in it has `\alpha_n = 0`: `f = f_0 \circ
      \mathrm{pr}` with `f_0` a polynomial on the forms on `U`, which
      vanishes on `X_{n-1}`. By induction `f_0 = \sum_j h_j g_j` with `g_j
      \in I(X_{n-1})` of degree at most `\max(r, m + 1)`, and `g_j \circ
      \mathrm{pr}` vanishes on `X_n` (as `\mathrm{pr}(X_n) \subseteq
      X_{n-1}`). So `f` lies in the ideal of `I_{\le \max(r, m + 1)}`, and so
      does the whole component (a `G`-stable ideal).
    - `\pi_n > 0`: every weight `\mu` of `S_\pi k^n` has `\mu_n > 0` (a
      weight with `\mu_n = 0`, sorted, has at most `n - 1` parts, and its
      first `n - 1` parts sum to `|\pi| > \pi_1 + \dots + \pi_{n-1}`: it
      is not dominated by `\pi`). So every vector of `R^{(\pi)}` is a sum of
      weight vectors each of whose monomials has a coordinate with
      `\alpha_n > 0`: it vanishes on the tuples of forms on `U`, hence
      (being in a `G`-stable space) on those on every `g U`: the tuples in
      `n - 1` common linear forms, whose first partial derivatives
      `\partial/\partial x_i` (of all the forms together) are linearly
      dependent. The `n \times \sum_o \binom{n + e_o - 2}{e_o - 1}` matrix
      of the coefficients of these partials is a matrix of linear forms in
      the coordinates, and it is 1-generic (in the coordinates of symmetric
      tensors a generalized entry is `(T_o) \mapsto \sum_o \langle T_o, a
      \cdot b_o \rangle`, which is zero only when `a = 0` or every `b_o =
      0`), so its maximal minors generate a prime ideal (Eisenbud
      [Eis1988]_, Theorem 1): the ideal of the tuples in `n - 1` linear
      forms. The component lies in it. Each maximal minor is, by Laplace's
      expansion along any `m + 1` of its columns (`m + 1 \le n`), a
      combination of `(m+1)`-minors of the same matrix, and these vanish on
      `X_n`: there the partials are `\partial F_o / \partial x_i = \sum_j
      w_{ji} (\partial P_o / \partial s_j)(\ell)`, so the rows of the matrix
      are combinations of `m` rows and its rank is at most `m`. So the
      component lies in the ideal of `I_{m+1}`. (With fewer columns than `n`
      every tuple is one, and these components are zero; the matrix has at
      least `n` columns for some `n > m` exactly when it has at least `m +
      1` columns for `n = m + 1`, since the number of columns grows with `n`
      for forms of degree `e_o \ge 2` and is the number of forms for linear
      ones.)

    Hence `I` is generated in degrees at most `\max(r, m + 1)`. `\square`

    An earlier version of this module bounded the
    degrees by `\max(r, n)` (the maximal minors themselves); the bound
    `m + 1` proves the token of width `5` and rank `1` and the pairs of
    quadrics in `5` features with a common linear factor from their
    generators through degree `4`, where `5` was needed.

This is the inheritance of [LM2004]_ (see also [Lan2012]_), with the
ideal of the tuples in `n - 1` linear forms as its only input beyond
`I(X_m)`.

The proof. The structure is checked exactly (:func:`~sage_attention.ideals.proofs.form_coordinates.structure_holds`:
`\sum_\alpha s_{o\alpha} \varphi(y_{o\alpha}) x^\alpha = P_o(Wx)` in the
polynomial ring of the weights and the features for every `o`, with every
monomial of degree `e_o` a coordinate of `F_o` once). The ideal of `X_m`
(the same `P_o`, `m` features, :func:`~sage_attention.ideals.proofs.form_coordinates.base_map`) is computed and proved
whole (:func:`base_kernel`: a Segre product or the localization, and for
the tuples of quadrics with a common linear factor their birational
inverse, :mod:`sage_attention.ideals.proofs.birational`); `r` is the largest
degree of its generators. Then the engine's generators `J`, which span
`I(X_n)_k` for every `k \le c` (``complete_through_degree``, a theorem of
the engine), are the whole ideal when `\max(r, m + 1) \le c`, and also
when `r \le c < m + 1` if the `(m+1)`-minors lie in the ideal of `J`
(:mod:`sage_attention.ideals.proofs.partial_minors`: a rank against a dimension
in one piece of degree `m + 1` per orbit of the permutations of the
features; the triples of quadrics in `5` features with a common linear
factor, in `4` linear forms, are proved so from their generators through
degree `4`). When the generators found through
`\max(r, m + 1)` have smaller degrees, the ideal is generated in those
degrees: the proof by inheritance of a matrix product
(:mod:`sage_attention.ideals.proofs.inheritance`) uses this for the variety of
its first columns (the slice of width `5` and rank `2`: the pairs of
quadrics with a common linear factor, in `3` linear forms, computed through
degree `4`). ``verify()`` re-checks the structure, the base ideal
and its certificate, the degrees, and the spanning hypothesis on `J`
itself (:func:`~sage_attention.ideals.engine.graded_kernel.kernel_spans`), which
catches a dropped generator. Like the other structural proofs it gives no
Hilbert series of `X_n`.

EXAMPLES:

The cubics in `4` features that split into three linear forms (the token
of width `4` and rank `1`): their `1085` quartics are the whole ideal,
inherited from the `35` quartics of the token of width `3`::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.ideals.implicitization import implicitize
    sage: from sage_attention.ideals.proofs.subspace import subspace_certificate
    sage: M = LightningAttention(d=4, t=1, a=1)
    sage: R = implicitize(M, 4, seed=0, prove=False)
    sage: S = subspace_certificate(R.essential_generators, M.essential_parametrization(),
    ....:                          M.linear_form_structure(), 4, seed=0); S
    Subspace certificate: the whole vanishing ideal (forms in 3 linear forms of 4 features; the variety of
    3 features in 10 coordinates, its ideal generated in degree 4; generated in degree at most 4,
    generators complete through degree 4)

The `(m+1)`-minors of the partial derivatives have degree `m + 1 = 4`
for every width, and no cubic vanishes on the split cubics, so generators
through degree `3` prove nothing: the minors are not in their ideal::

    sage: M5 = LightningAttention(d=5, t=1, a=1)
    sage: subspace_certificate([], M5.essential_parametrization(), M5.linear_form_structure(), 3).reason
    'the 4-minors of the partial derivatives have degree 4, but the generators are known complete only through
    degree 3, and they are not shown in the ideal of the generators (their multiples do not fill the ideal in 18
    of the 18 pieces of the minors, up to permutations of the features; sage_attention.ideals.proofs.partial_minors)'

REFERENCES: [Eis1988]_, [LM2004]_, [Lan2012]_.
"""
import time
from dataclasses import dataclass, field

from sage_attention.ideals.proofs.form_coordinates import base_map, structure_holds
from sage_attention.misc.forked import in_child, steps_in_child
from sage_attention.ideals.engine.graded_kernel import graded_kernel, jacobian_rank
from sage_attention.ideals.proofs.inherited import InheritedCertificate
from sage_attention.ideals.proofs.fewer_features import base_kernel, minors_degree
from sage_attention.ideals.proofs.kernels import proved_kernel_holds
from sage_attention.ideals.proofs.matrix_product import over_sub_coordinates_limit
from sage_attention.ideals.proofs.partial_minors import minors_in_ideal
from sage_attention.ideals.proofs.problem import ProofProblem
from sage_attention.ideals.proofs.protocol import timings_dict
from sage_attention.misc.randomness import derived_seed, resolve_seed
from sage_attention.misc.polynomial_text import polynomial_text
from sage_attention.settings import settings


@dataclass
class SubspaceCertificate(InheritedCertificate):
    r"""
    A proof (or a failed attempt) that generators give the whole ideal of a variety of forms in few linear forms.

    Made by :func:`subspace_certificate`. Attributes: those of
    :class:`~sage_attention.ideals.proofs.segre.InheritedCertificate`
    (``generation_degree`` is `\max(r, m + 1)`), and ``structure`` (the
    :class:`~sage_attention.models.linear_forms.LinearFormStructure`),
    ``parametrization`` (`\varphi`), ``base_generators`` (``{degree:
    generators of I(X_m)}``, in the ring of :func:`~sage_attention.ideals.proofs.form_coordinates.base_map`),
    ``base_certificate`` (the
    :class:`~sage_attention.ideals.proofs.completeness.CompletenessCertificate` of
    `I(X_m)`), ``minors_check`` (when the generators are known complete
    only below the degree `m + 1` of the minors: the
    :class:`~sage_attention.ideals.proofs.partial_minors.MinorsCheck` that shows the
    minors in their ideal, and ``generation_degree`` is then `\max(r, e)`,
    `e` the largest degree of the generators).

    EXAMPLES:

    The base of the token of width `4` and rank `1` is the token of width
    `3`, whose `35` quartics are proved by the localization::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.implicitization import implicitize
        sage: from sage_attention.ideals.proofs.subspace import subspace_certificate
        sage: M = LightningAttention(d=4, t=1, a=1)
        sage: R = implicitize(M, 4, seed=0, prove=False)
        sage: S = subspace_certificate(R.essential_generators, M.essential_parametrization(),
        ....:                          M.linear_form_structure(), 4, seed=0)
        sage: {k: len(g) for k, g in S.base_generators.items()}, S.base_certificate.method
        ({4: 35}, 'localization')
        sage: S.span_checks()
        [(1, 0, 0), (2, 0, 0), (3, 0, 0), (4, 1085, 1085)]
    """
    structure: object = None
    parametrization: object = None
    base_generators: dict = field(default_factory=dict)
    base_certificate: object = None
    minors_check: object = None
    technique = "subspace"
    label = "by inheritance from fewer features"

    def parametrization_map(self):
        r"""
        Return the parametrization `\varphi`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.proofs.subspace import subspace_certificate
            sage: M = LightningAttention(d=4, t=1, a=1); phi = M.essential_parametrization()
            sage: subspace_certificate([], phi, M.linear_form_structure(), 3).parametrization_map() is phi
            True
        """
        return self.parametrization

    def verify(self):
        r"""
        Re-check the certificate; return whether it holds.

        Re-checked: the structure (exactly), that every generator of
        `I(X_m)` vanishes on `X_m` (exactly), the certificate of `I(X_m)`
        (its own ``verify()``), the degrees (`\max(r, m + 1) \le c`, or the
        minors in the ideal of `J`, checked again by
        :func:`~sage_attention.ideals.proofs.partial_minors.minors_in_ideal`, and
        `\max(r, e) \le c`), and the spanning hypothesis on `J`
        (:meth:`span_checks`).

        EXAMPLES:

        A dropped quartic, with the false claim that the rest is complete
        through degree `4`, is caught::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.implicitization import implicitize
            sage: from sage_attention.ideals.proofs.subspace import subspace_certificate
            sage: M = LightningAttention(d=4, t=1, a=1)
            sage: G = implicitize(M, 4, seed=0, prove=False).essential_generators
            sage: S = subspace_certificate(G[:-1], M.essential_parametrization(), M.linear_form_structure(), 4)
            sage: S.proved, S.verify()
            (True, False)
        """
        L = self.structure
        if not self.proved or L is None or not structure_holds(self.parametrization, L):
            return False
        if not proved_kernel_holds(base_map(L), self.base_generators, self.base_certificate):
            return False
        r, minors = max(self.base_generators, default=1), minors_degree(L) or 1
        if minors > self.complete_through:
            check = minors_in_ideal(self.parametrization, list(self.generators), L)
            if not check.holds:
                return False
            return self.degrees_hold(max(r, check.generators_degree))
        return self.degrees_hold(max(r, minors))

    def to_dict(self):
        r"""
        Return a JSON-ready dictionary.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.proofs.subspace import subspace_certificate
            sage: M = LightningAttention(d=5, t=1, a=1)
            sage: D = subspace_certificate([], M.essential_parametrization(), M.linear_form_structure(), 3).to_dict()
            sage: D['proved'], D['features'], D['linear_forms'], D['outer']
            (False, 5, 3, ['s0*s1*s2'])
        """
        L = self.structure
        return {"proved": self.proved, "reason": self.reason,
                "features": None if L is None else L.nfeatures, "linear_forms": None if L is None else L.nforms,
                "outer": None if L is None else [str(P) for P in L.outer],
                "base_generators": {int(k): [polynomial_text(g) for g in v] for k, v in self.base_generators.items()},
                "base_certificate": None if self.base_certificate is None else self.base_certificate.to_dict(),
                "generation_degree": self.generation_degree, "complete_through": self.complete_through,
                "timings": timings_dict(self.timings)}

    def rows(self):
        r"""
        Return the rows of the HTML table: the forms, the base ideal and the degrees.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.implicitization import implicitize
            sage: from sage_attention.ideals.proofs.subspace import subspace_certificate
            sage: M = LightningAttention(d=4, t=1, a=1)
            sage: G = implicitize(M, 4, seed=0, prove=False).essential_generators
            sage: subspace_certificate(G, M.essential_parametrization(), M.linear_form_structure(), 4).rows()[0]
            ('forms', 'P(l_1, ..., l_3) in 4 features, P = (s0*s1*s2,)')
        """
        L = self.structure
        return [("forms", f"P(l_1, ..., l_{L.nforms}) in {L.nfeatures} features, P = {L.outer}"),
                ("base generators by degree", {k: len(v) for k, v in self.base_generators.items()}),
                ("base ideal proved", self.base_certificate.reason),
                ("generation degree of I(X)", self.generation_degree),
                ("complete through degree", self.complete_through)]

    def __repr__(self):
        if not self.proved:
            return f"Subspace certificate: not proved ({self.reason})"
        L, G = self.structure, self.base_generators
        base = (f"its ideal generated in degree{'s' if len(G) > 1 else ''} {', '.join(map(str, sorted(G)))}" if G
                else "its ideal zero")
        return (f"Subspace certificate: the whole vanishing ideal (forms in {L.nforms} linear forms of "
                f"{L.nfeatures} features; the variety of {L.nforms} features in "
                f"{base_map(L).domain().ngens()} coordinates, {base}; generated in degree at most "
                f"{self.generation_degree}, generators complete through degree {self.complete_through})")


def subspace_certificate(gens, phi, structure, complete_through, seed=None, timeout=30, p=None,
                         processes=None, base=None):
    r"""
    Try to prove that ``gens`` generate the whole vanishing ideal of a variety of forms in few linear forms.

    See the module documentation for the theorem and the checks.

    INPUT:

    - ``gens`` -- polynomials in the domain of ``phi`` that vanish on its
      variety `X_n` and span `I(X_n)_k` for every `k \le`
      ``complete_through`` (the engine's generators and its
      ``complete_through_degree``); re-checked by ``verify()`` only
    - ``phi`` -- the parametrization, over `\QQ`
    - ``structure`` -- a :class:`~sage_attention.models.linear_forms.LinearFormStructure`
      of ``phi`` (checked here), or ``None``
    - ``complete_through`` -- integer `c`
    - ``seed`` -- (default: ``None``, drawn from Sage's random state) the
      random points of the base ideal and of its proof (they change the
      time, never what is proved)
    - ``timeout`` -- (default: `30`) seconds for the check of the minors
      (when the generators are known complete only below their degree),
      the base ideal and its proof together, or ``None`` (no limit; then in
      this process)
    - ``p`` -- (default: ``None``, the first of ``settings.HILBERT_PRIMES``,
      `32003`) the prime of the proof of `I(X_m)` and of
      the check of the minors
    - ``processes`` -- (default: ``None``) as in
      :func:`~sage_attention.ideals.proofs.completeness.completeness_certificate`
    - ``base`` -- (default: ``None``, computed here) the ideal of the
      variety of `m` features and its certificate, as
      :func:`~sage_attention.ideals.proofs.segre.proved_kernel` returns them for
      :func:`~sage_attention.ideals.proofs.form_coordinates.base_map` (a proved certificate means the whole ideal, whatever
      the degree it was computed through); checked again by ``verify()``

    OUTPUT: a :class:`SubspaceCertificate`

    EXAMPLES:

    Through degree `3` nothing is proved (the base ideal has quartics); a
    model with no such structure says so::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.proofs.subspace import subspace_certificate
        sage: M = LightningAttention(d=4, t=1, a=1)
        sage: subspace_certificate([], M.essential_parametrization(), M.linear_form_structure(), 3).proved
        False
        sage: S = LightningAttention(d=3, t=2, a=1, out=1)
        sage: subspace_certificate([], S.essential_parametrization(), S.linear_form_structure(), 4).reason
        'the coordinates are not the coefficients of a polynomial in linear forms of the features'

    As many features as linear forms: nothing to inherit from::

        sage: T = LightningAttention(d=3, t=1, a=1)
        sage: subspace_certificate([], T.essential_parametrization(), T.linear_form_structure(), 4).reason
        'the forms have 3 features and 3 linear forms: no fewer features to inherit from'
    """
    c = int(complete_through)
    L = structure
    if p is None:
        p = settings.HILBERT_PRIMES[0]
    common = dict(structure=L, parametrization=phi, complete_through=c, generators=tuple(gens))
    if L is None:
        return SubspaceCertificate(False, "the coordinates are not the coefficients of a polynomial in linear forms "
                                   "of the features", **common)
    n, m = L.nfeatures, L.nforms
    if phi.domain().base_ring().characteristic():
        return SubspaceCertificate(False, "the theorem of the proof by inheritance needs characteristic 0 "
                                   f"(the ring is over {phi.domain().base_ring()})", **common)
    if n <= m:
        return SubspaceCertificate(False, f"the forms have {n} features and {m} linear forms: no fewer features to "
                                   "inherit from", **common)
    if not structure_holds(phi, L):
        return SubspaceCertificate(False, "the coordinates are not the coefficients of the polynomial in linear "
                                   "forms that the model gives (checked exactly)", **common)
    minors = minors_degree(L)
    timings = {}
    common["timings"] = timings
    check, t_start = None, time.time()
    if minors is not None and minors > c:
        # under the time limit, in a forked child (the pieces of degree m + 1 can be large)
        check = in_child(_minors_job, (phi, list(gens), L, resolve_seed(seed), p), timeout, "check of the minors")
        timings["minors"] = time.time() - t_start
        common["minors_check"] = check if check else None
        if not check or not check.holds:
            why = (f"the check did not finish in {timeout} s" if check is None else
                   "a generator is not homogeneous for the grading by forms and features" if not check else
                   f"their multiples do not fill the ideal in {sum(1 for _, r, d in check.pieces if r != d)} of the "
                   f"{len(check.pieces)} pieces of the minors, up to permutations of the features")
            return SubspaceCertificate(False, f"the {minors}-minors of the partial derivatives have degree {minors}, but "
                                       f"the generators are known complete only through degree {c}, and they are not "
                                       f"shown in the ideal of the generators ({why}; "
                                       "sage_attention.ideals.proofs.partial_minors)", **common)
    if base is None:
        rest = None if timeout is None else max(timeout - (time.time() - t_start), 1)
        G, C, steps = base_kernel(L, c, resolve_seed(seed), p, processes, rest)
        timings.update(steps)
    else:
        G, C = base
    if C is None:
        step = "its generators" if G is None else "the proof of its ideal"
        return SubspaceCertificate(False, f"the variety of {m} features did not finish in {timeout} s ({step})",
                                   base_generators=G or {}, **common)
    common.update(base_generators=G, base_certificate=C)
    if not C.proved:
        return SubspaceCertificate(False, f"the ideal of the variety of {m} features through degree {c} is not "
                                   f"proved whole ({C.reason})", **common)
    r = max(G, default=1)
    need = max(r, minors or 1) if check is None else max(r, check.generators_degree)
    common.update(generation_degree=need)
    with_minors = f" and the {minors}-minors of the partial derivatives" if minors else ""
    if check is not None:
        with_minors = (f" and the {minors}-minors of the partial derivatives, which lie in the ideal of the generators "
                       f"of degree at most {check.generators_degree} (sage_attention.ideals.proofs.partial_minors)")
    if need > c:
        return SubspaceCertificate(False, f"the ideal is generated in degree at most {need} (the base ideal in degree "
                                   f"at most {r}{with_minors}), but the generators "
                                   f"are known complete only through degree {c}", **common)
    return SubspaceCertificate(True, f"the coordinates are the coefficients of a polynomial in {m} linear forms of "
                               f"{n} features; by inheritance from the variety of {m} features (its ideal generated "
                               f"in degree at most {r}, proved: {C.reason}){with_minors}"
                               f", the ideal is generated in degree at most {need} "
                               f"(sage_attention.ideals.proofs.subspace), and the generators are complete through degree "
                               f"{c}", **common)


def _minors_job(job):
    r"""
    Return :func:`~sage_attention.ideals.proofs.partial_minors.minors_in_ideal` of ``job``, ``False`` when not homogeneous.
    """
    phi, gens, L, seed, p = job
    try:
        return minors_in_ideal(phi, gens, L, seed=seed, p=p)
    except ValueError:
        return False


def _subspace_steps(job, send):
    r"""
    The steps of :func:`subspace_kernel` (in the child): the base ideal and its proof, the generators, the certificate.
    """
    psi, L, degree, seed, p, processes = job
    t0 = time.time()
    minors = minors_degree(L) or 1
    Gb, Cb, steps = base_kernel(L, degree, seed, p, processes, None)
    send(("base", (Gb, Cb), time.time() - t0))
    if Cb is None or not Cb.proved:
        return
    # first below the minors when the base allows it (they may lie in the ideal of lower degrees), else through them
    for c in sorted({max(degree, max(Gb, default=1)), max(degree, minors, max(Gb, default=1))}):
        t0 = time.time()
        G = graded_kernel(psi, c, seed=seed)
        send(("kernel", G, time.time() - t0))
        t0 = time.time()
        S = subspace_certificate([g for k in sorted(G) for g in G[k]], psi, L, c, seed=seed, timeout=None, p=p,
                                 processes=processes, base=(Gb, Cb))      # the base computed above
        send(("certificate", S, time.time() - t0))
        if S.proved or S.minors_check is None:
            return              # through degree m + 1 only when the minors were not shown below it


def subspace_kernel(psi, structure, degree, seed, p=None, processes=None, timeout=30):
    r"""
    Return ``(generators, certificate, timings)``: the ideal of a variety of forms in few linear forms, and its proof.

    For the proof by inheritance of a matrix product
    (:mod:`sage_attention.ideals.proofs.inheritance`), whose variety of the first
    columns may be such a variety: the base ideal (:func:`base_kernel`);
    then the ideal is computed through `c = \max(` ``degree``, `r)` (`r`
    the generation degree of the base ideal, `m` the linear forms) and
    proved whole by :func:`~sage_attention.ideals.proofs.subspace.subspace_certificate` when the `(m+1)`-minors
    lie in the ideal of its generators
    (:mod:`sage_attention.ideals.proofs.partial_minors`), else through `\max(c, m +
    1)`, which the theorem shows is enough. The ideal is then generated by
    the generators found, so in the degrees where there are some (which
    can stay below `m + 1`), in a forked child within ``timeout`` seconds.

    INPUT:

    - ``psi`` -- the parametrization, over `\QQ`
    - ``structure`` -- its :class:`~sage_attention.models.linear_forms.LinearFormStructure`
    - ``degree`` -- positive integer: the least degree to compute
    - ``seed``, ``p``, ``processes`` -- as in :func:`~sage_attention.ideals.proofs.subspace.subspace_certificate`
    - ``timeout`` -- (default: `30`) seconds, or ``None`` (in this process)

    OUTPUT: ``{degree: generators}`` or ``None``, a
    :class:`~sage_attention.ideals.proofs.completeness.CompletenessCertificate`
    (``method='subspace'`` when proved) or ``None``, and ``{step: seconds}``
    (``None`` for what did not finish)

    EXAMPLES:

    The pairs of quadrics in `4` features with a common linear factor (the
    first two columns of the slice of width `4` and rank `2`): computed
    through degree `4` (the `4`-minors) and generated in degrees `3` and `4`::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.proofs.inheritance import matrix_factorization
        sage: from sage_attention.ideals.proofs.subspace import subspace_kernel
        sage: M = LightningAttention(d=4, t=2, a=2, out=1, entries=[(1, 1)])
        sage: _, psi = matrix_factorization(M.essential_parametrization()).sub_map()
        sage: L = M.linear_form_structure().restricted(psi.domain().variable_names())
        sage: G, C, t = subspace_kernel(psi, L, 4, seed=0)
        sage: {k: len(g) for k, g in G.items()}, C.method, C.subspace.generation_degree
        ({3: 40, 4: 125}, 'subspace', 4)
    """
    if p is None:
        p = settings.HILBERT_PRIMES[0]
    t0 = time.time()
    results = steps_in_child(_subspace_steps, (psi, structure, int(degree), seed, p, processes), timeout, 5,
                             f"the ideal of {psi.domain().ngens()} coordinates")
    got = {r[0]: r[1] for r in results}
    timings = {r[0]: r[2] for r in results}
    timings["total"] = time.time() - t0
    S = got.get("certificate")
    if S is None:
        return got.get("kernel"), None, timings
    G = got["kernel"]
    U = psi.domain()
    dim = jacobian_rank([psi(u) for u in U.gens()], p, derived_seed(seed, "small map jacobian"))
    # the certificate made in the child, concluded as the strategy concludes any
    from sage_attention.ideals.proofs.strategy import concluded
    problem = ProofProblem.for_map(psi, [g for k in sorted(G) for g in G[k]], max(G, default=0), dim, prime=p)
    C = concluded(problem, S, timings.get("certificate", 0), timings)
    return G, C, timings


def subspace_completeness(gens, ring, dimension, parametrization, structure, complete_through, timeout=30,
                          method="localization", seed=0, progress=False, processes=None):
    r"""
    Prove the whole ideal by inheritance from fewer features for forms in few linear forms, else as usual.

    The proof by inheritance from fewer features (:func:`subspace_certificate`)
    needs no Gröbner basis of ``gens``; when it does not prove, the rest of
    the time goes to
    :func:`~sage_attention.ideals.proofs.completeness.completeness_certificate` with
    ``method``, unless ``method`` is ``'subspace'`` (then nothing else is
    tried).

    INPUT:

    - ``gens``, ``ring``, ``dimension``, ``timeout``, ``seed``, ``progress``,
      ``processes`` -- as in
      :func:`~sage_attention.ideals.proofs.completeness.completeness_certificate`
    - ``parametrization`` -- the map whose variety is `X` (from ``ring``)
    - ``structure`` -- as in :func:`subspace_certificate`
    - ``complete_through`` -- integer `c`: ``gens`` span `I(X)_k` for every
      `k \le c` (the engine proves it); re-checked by ``verify()``
    - ``method`` -- (default: ``'localization'``) ``'subspace'`` or a
      method of :func:`~sage_attention.ideals.proofs.completeness.completeness_certificate`

    OUTPUT: a :class:`~sage_attention.ideals.proofs.completeness.CompletenessCertificate`
    (``method='subspace'`` and the :class:`SubspaceCertificate` in
    ``subspace`` when proved that way; ``subspace`` also holds a failed
    attempt)

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.implicitization import implicitize
        sage: from sage_attention.ideals.proofs.subspace import subspace_completeness
        sage: M = LightningAttention(d=4, t=1, a=1)
        sage: G = implicitize(M, 4, seed=0, prove=False).essential_generators
        sage: E, phi = M.essential_ring(), M.essential_parametrization()
        sage: C = subspace_completeness(G, E, 10, phi, M.linear_form_structure(), 4); C
        Completeness certificate modulo 32003: the whole vanishing ideal (prime of dimension 10, by inheritance from fewer features)
        sage: C.method, C.hilbert is None
        ('subspace', True)
    """
    from sage_attention.ideals.proofs.strategy import prove_in_order
    problem = ProofProblem(ring, gens, complete_through, parametrization=parametrization, dimension_bound=dimension,
                           seed=seed, progress=progress, processes=processes, structure=structure)
    return prove_in_order(problem, ["subspace"], timeout=timeout, method=method)


def applies(problem):
    r"""
    Return ``None`` when the proof by inheritance from fewer features applies to ``problem``, else the reason.

    It applies to forms in fewer linear forms than features over `\QQ`
    (the model's structure) that are neither a Segre product nor a matrix
    product proved by inheritance (:mod:`sage_attention.ideals.proofs.inheritance`).

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.proofs.problem import ProofProblem
        sage: from sage_attention.ideals.proofs.subspace import applies
        sage: M = LightningAttention(d=4, t=1, a=1)
        sage: applies(ProofProblem(M.essential_ring(), [], 4, model=M)) is None
        True
        sage: T = LightningAttention(d=3, t=1, a=1)
        sage: applies(ProofProblem(T.essential_ring(), [], 4, model=T))
        'the forms have 3 features and 3 linear forms: no fewer features to inherit from'
    """
    if problem.segre_factorization() is not None:
        return "the parametrization is a Segre product (proved by that technique)"
    L = problem.linear_form_structure()
    if L is None:
        return "the coordinates are not the coefficients of a polynomial in linear forms of the features over QQ"
    if L.nfeatures <= L.nforms:
        return f"the forms have {L.nfeatures} features and {L.nforms} linear forms: no fewer features to inherit from"
    if problem.matrix_factorization() is not None and over_sub_coordinates_limit(problem) is None:
        return "the parametrization is a matrix product F(p) * C (proved by inheritance)"
    return None


def prove(problem, timeout):
    r"""
    Run the proof by inheritance from fewer features on ``problem`` (:func:`subspace_certificate`): the registry's ``'subspace'``.

    INPUT:

    - ``problem`` -- a :class:`~sage_attention.ideals.proofs.problem.ProofProblem`
    - ``timeout`` -- seconds, or ``None``

    OUTPUT: a :class:`SubspaceCertificate`

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.implicitization import implicitize
        sage: from sage_attention.ideals.proofs.problem import ProofProblem
        sage: from sage_attention.ideals.proofs.subspace import prove
        sage: M = LightningAttention(d=4, t=1, a=1)
        sage: G = implicitize(M, 4, seed=0, prove=False).essential_generators
        sage: prove(ProofProblem(M.essential_ring(), G, 4, model=M, seed=0), 60).proved
        True
    """
    return subspace_certificate(problem.generators, problem.parametrization_map(), problem.linear_form_structure(),
                                problem.complete_through, seed=problem.seed, timeout=timeout,
                                processes=problem.processes)
