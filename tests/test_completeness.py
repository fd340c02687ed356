"""
Tests of the whole-ideal proof by localization (sage_attention.ideals.proofs.localization,
sage_attention.ideals.proofs.completeness).

Soundness: a wrong ideal is never proved (a dropped generator, an embedded
component, a union with a linear space of the same dimension, the square of a
prime), on engine ideals and on small ideals. Every proof is re-checked by
independent code: Singular's primary decomposition (minAssGTZ) over GF(p) where
it finishes, the certificate's own data re-verified, and Singular's elimination
over QQ (the kernel of the parametrization) for the ideal it proves complete.
"""
import functools
import random
import sys

import pytest

from sage.all__sagemath_singular import GF, QQ, PolynomialRing
from sage.libs.singular.function import lib as singular_lib, singular_function

from sage_attention import LightningAttention
from sage_attention.ideals.proofs.completeness import completeness_certificate
from sage_attention.ideals.hilbert import reduction
from sage_attention.ideals.implicitization import implicitize
from sage_attention.ideals.proofs.localization import localization_certificate

P = 32003

# the rows of the one-entry table that primary decomposition could not prove in seconds
ROWS = {
    "slice-d2-t2-a1": dict(d=2, t=2, a=1, out=1, entries=[(1, 1)]),
    "token-d3-a1": dict(d=3, t=1, a=1),
    "slice-d3-t2-a1": dict(d=3, t=2, a=1, out=1, entries=[(1, 1)]),
    "slice-d3-t2-a2": dict(d=3, t=2, a=2, out=1, entries=[(1, 1)]),
    "slice-d3-t2-a3": dict(d=3, t=2, a=3, out=1, entries=[(1, 1)]),
    "slice-d4-t2-a1": dict(d=4, t=2, a=1, out=1, entries=[(1, 1)]),
}


def singular_prime(J):
    """Whether J (over GF(p)) is prime, by Singular's minAssGTZ (independent of the certificate)."""
    singular_lib("primdec.lib")
    Q = list(singular_function("minAssGTZ")(J))
    if len(Q) != 1:
        return False
    G = J.groebner_basis()
    return all(g.reduce(G) == 0 for g in Q[0])


@pytest.fixture(scope="module")
def rows():
    out = {}
    for name, kw in ROWS.items():
        M = LightningAttention(**kw)
        R = implicitize(M, 4, seed=0, executor=False, prove=False)
        out[name] = (M, M.essential_ring(), list(R.essential_generators), M.dimension(seed=0))
    return out


@pytest.mark.parametrize("name", sorted(ROWS))
def test_rows_proved_and_certificate_reverified(rows, name):
    M, E, gens, n = rows[name]
    C = completeness_certificate(gens, E, n, timeout=120)
    assert C.proved, C.reason
    assert C.method == "localization"
    # the certificate's data, checked again from scratch
    assert C.verify()
    P_ = C.primality
    assert len(P_.independent) == n and P_.delta >= 1
    # the certificate is about J_p itself (or its image under the recorded linear change)
    Jp = reduction(gens, E, P)
    assert P_.original is None or P_.original == Jp
    if P_.change is None:
        assert P_.ideal == Jp
    # the Hilbert-series equalities recorded hold
    assert all(left == right for _, left, right in P_.hilbert_checks)


@pytest.mark.parametrize("name", ["slice-d3-t2-a1"])
def test_proof_agrees_with_primary_decomposition(rows, name):
    # (minAssGTZ does not finish in minutes on the other rows)
    M, E, gens, n = rows[name]
    assert completeness_certificate(gens, E, n, timeout=120).proved
    assert singular_prime(reduction(gens, E, P))


def test_proved_ideal_is_the_kernel_over_QQ():
    # the d = 3, a = 1 slice: proved by localization; Singular's elimination over QQ gives the same
    # ideal (elimination does not finish in minutes for the ranks 2 and 3)
    M = LightningAttention(**ROWS["slice-d3-t2-a1"])
    R = implicitize(M, 4, seed=0, executor=False)
    assert R.proved_complete, R.proof
    from sage_attention.ideals.elimination import eliminate
    assert R.ideal == eliminate(M).ideal


def _wrong_ideals(J, n):
    """Ideals over GF(p), not equal to the prime J, whose dimension is that of J."""
    S = J.ring()
    y = S.gens()
    gens = list(J.gens())
    m = S.ideal(list(y))
    L = S.ideal(list(y[n:]))            # a coordinate subspace of the same dimension
    yield "dropped generator", gens[:-1]
    yield "dropped first generator", gens[1:]
    yield "embedded component (J * m)", list((J * m).gens())
    yield "union with a linear space of the same dimension", list(J.intersection(L).gens())
    if len(gens) <= 12:                 # (the square of a larger ideal is slow to build)
        yield "square", list((J * J).gens())


@pytest.mark.parametrize("name", ["slice-d2-t2-a1", "slice-d3-t2-a1", "token-d3-a1", "slice-d3-t2-a2"])
def test_wrong_ideals_never_proved(rows, name):
    M, E, gens, n = rows[name]
    J = reduction(gens, E, P)
    assert completeness_certificate(list(J.gens()), J.ring(), n, timeout=120).proved
    for what, wrong in _wrong_ideals(J, n):
        W = J.ring().ideal(wrong)
        assert W != J, what                 # it is really another ideal
        C = completeness_certificate(wrong, J.ring(), n, timeout=120, method="localization")
        assert not C.proved, (what, C.reason)


def _primes_and_non_primes(R, rng):
    """Small homogeneous ideals over GF(p), with the truth from Singular."""
    x = R.gens()
    k = R.base_ring()

    def lin():
        return sum(k(rng.randrange(P)) * v for v in x)

    def change(I):
        # a random linear change of coordinates (keeps primality)
        images = [lin() for _ in x]
        return R.ideal([g(*images) for g in I.gens()])
    twisted = R.ideal([x[0] * x[2] - x[1] ** 2, x[1] * x[3] - x[2] ** 2, x[0] * x[3] - x[1] * x[2]])
    cone = R.ideal([x[0] * x[1] - x[2] ** 2])
    ci = R.ideal([lin() * lin() + lin() ** 2, lin() * lin()])
    plane = R.ideal([x[0], x[1]])
    out = [twisted, change(twisted), cone, change(cone), ci, plane]
    out += [twisted * cone, twisted.intersection(change(twisted)), cone * cone, twisted * R.ideal(list(x)),
            twisted.intersection(plane), R.ideal([x[0] * x[1], x[0] * x[2]]), change(R.ideal([x[0] ** 2, x[1]]))]
    return out


def test_small_ideals_agree_with_singular():
    R = PolynomialRing(GF(P), "x", 4, order="degrevlex")
    rng = random.Random(1)
    proved = 0
    for J in _primes_and_non_primes(R, rng) + _primes_and_non_primes(R, rng):
        dim = J.dimension()
        C = localization_certificate(J, dim, seed=0)
        truth = singular_prime(J)
        if C.proved:
            proved += 1
            assert truth, (J, C)
            assert C.verify()
        # a certificate is never proved in a wrong dimension
        assert not localization_certificate(J, dim + 1, seed=0).proved
    assert proved >= 8          # the primes are found, not only refused


def test_tampered_certificate_fails():
    R = PolynomialRing(GF(P), "x", 4, order="degrevlex")
    x = R.gens()
    C = localization_certificate(R.ideal([x[0] * x[2] - x[1] ** 2, x[1] * x[3] - x[2] ** 2,
                                          x[0] * x[3] - x[1] * x[2]]), 2, seed=0)
    assert C.verify()
    # a claimed dimension that is not the ideal's
    C.dimension = 3
    assert not C.verify()
    C.dimension = 2
    # a denominator that is not the one of the data
    f = C.denominator
    C.denominator = f * x[0] + f
    assert not C.verify()


def test_default_implicitize_proves_without_decomposition():
    # the default call proves the d = 3 slice of rank 2 by localization (no primary decomposition)
    R = implicitize(LightningAttention(**ROWS["slice-d3-t2-a2"]), 4, seed=0, executor=False)
    assert R.proved_complete
    assert R.certificate.method == "localization"
    assert "localization" in R.proof
    assert R.to_dict()["certificate"]["localization"]["delta"] == 2


def test_prove_false_and_not_prime_field():
    R = implicitize(LightningAttention(**ROWS["slice-d3-t2-a1"]), 3, seed=0, executor=False, prove=False)
    assert not R.proved_complete and R.certificate is None
    S = PolynomialRing(QQ, "x", 3)
    with pytest.raises(ValueError, match="prime field"):
        completeness_certificate([S.gen(0)], S.change_ring(GF(9, "a")), 2)


def _conjugate_points(degree, h):
    """The prime ideal over GF(p) of `degree` conjugate points (alpha : h(alpha) : 1) of the plane,
    by elimination (independent of the certificate)."""
    F = GF(P)
    g = PolynomialRing(F, "a").irreducible_element(degree)
    T = PolynomialRing(F, "a,s,x,y,t")
    a, s, x, y, t = T.gens()
    E = T.ideal([g(a), x - a * s, y - h(a) * s, t - s]).elimination_ideal([a, s])
    R = PolynomialRing(F, "x,y,t")
    return R.ideal(R.ideal([R(str(q)) for q in E.gens()]).interreduced_basis())


def test_the_lex_basis_of_a_subset_with_extra_points_is_not_used():
    # eight conjugate points lie on two cubics, which meet in a ninth point: the lex basis of
    # the cubics alone has delta = 9 and a reducible m, so the certificate must go on to all
    # the generators (the quartics remove the ninth point) and prove delta = 8
    J = _conjugate_points(8, lambda a: a ** 5 + 3 * a ** 3 - a + 7)
    R = J.ring()
    cubics = [g for g in J.gens() if g.degree() == 3]
    assert sorted(g.degree() for g in J.gens()) == [3, 3, 4, 4] and singular_prime(J)
    Q = R.ideal(cubics)
    assert Q.dimension() == 1 and Q.hilbert_polynomial() == 9   # nine points
    assert not singular_prime(Q)
    C = localization_certificate(J, 1)
    assert C.proved and C.delta == 8 and C.verify()
    assert "lex basis (attempt 1, generators of degree at most 3)" in C.timings   # tried first
    assert "lex basis (attempt 1)" in C.timings                                   # then all
    assert not localization_certificate(Q, 1).proved


def test_the_lex_basis_of_the_low_degrees_gives_the_data_of_the_whole_ideal(rows):
    # on the d = 3 slice of rank 3 the cubics are used; the data are those of all generators
    from sage_attention.ideals.proofs.shape_basis import shape_data
    M, E, gens, n = rows["slice-d3-t2-a3"]
    J = reduction(gens, E, P)
    C = localization_certificate(J, n)
    assert C.proved and "lex basis (attempt 1, generators of degree at most 3)" in C.timings
    assert "lex basis (attempt 1)" not in C.timings
    data, _ = shape_data(C.ideal, C.independent)          # from every generator
    assert data[1] == C.cleared and data[2] == C.denominator and data[3] == C.delta


@pytest.mark.parametrize("name", ["slice-d3-t2-a2", "slice-d3-t2-a3"])
def test_the_factors_checked_in_two_processes_give_the_same_certificate(rows, name):
    # check (c) shares the factors of the denominator among forked processes; the Hilbert
    # numerators compared must be those of the check in one process, factor by factor
    M, E, gens, n = rows[name]
    one = localization_certificate(reduction(gens, E, P), n, seed=0, processes=1)
    two = localization_certificate(reduction(gens, E, P), n, seed=0, processes=2)
    assert one.proved and two.proved and len(one.denominator_factors) >= 2
    assert one.hilbert_checks == two.hilbert_checks and one.cleared == two.cleared
    # and every factor was checked: one equality per factor (after the cuts)
    assert len(one.hilbert_checks) == len(one.cuts) + len(one.denominator_factors)


def test_a_zero_divisor_among_the_factors_fails_in_two_processes():
    # the twisted cubic P, proved with the denominator w; its data multiplied by x are data
    # with the denominator x*w (two factors) of P and of J = P \cap (x, y, z - w) (the cleared
    # polynomials, multiples of x, lie in both). On P both factors are nonzerodivisors; on J
    # the factor w is a nonzerodivisor and x a zero divisor (it lies in the associated prime
    # (x, y, z - w) of the point [0:0:1:1], which is not on the cubic), and the
    # check in one process and the check shared by two processes must both say so
    from sage_attention.ideals.proofs.localization_checks import exact_checks as _checks
    R = PolynomialRing(GF(P), "x,y,z,w")
    x, y, z, w = R.gens()
    cubic = R.ideal([x * z - y ** 2, y * w - z ** 2, x * w - y * z])
    C = localization_certificate(cubic, 2, seed=0, processes=1)
    assert C.proved and C.denominator == w and C.independent == (x, w)
    cleared = [x * g for g in C.cleared]
    J = cubic.intersection(R.ideal([x, y, z - w]))
    assert all(g.reduce(J.groebner_basis()) == 0 for g in cleared) and J.dimension() == 2
    for k in (1, 2):
        failure, _, factors, checks, _ = _checks(cubic, 2, C.independent, C.shape_variable, cleared, x * w, [],
                                              processes=k)
        assert failure is None and len(factors) == 2 and all(a == b for _, a, b in checks)
        failure, _, factors, _, _ = _checks(J, 2, C.independent, C.shape_variable, cleared, x * w, [],
                                         processes=k)
        assert failure == "the factor x of the denominator is a zero divisor"
    assert J != cubic and not localization_certificate(J, 2, seed=0).proved


def _numerators_agree(J, h):
    # h is a nonzerodivisor on S/J: H(S/(J + h)) = (1 - t^deg h) H(S/J), from Sage's Hilbert numerators
    T = PolynomialRing(QQ, "t")
    t = T.gen()
    return T(list((J + h).hilbert_numerator())) == (1 - t ** h.degree()) * T(list(J.hilbert_numerator()))


def test_a_permutation_that_does_not_preserve_the_ideal_is_never_used():
    # the data of the test above (factors w, x of the denominator x*w) and the reversal of the
    # coordinates, which preserves the twisted cubic and maps w to x. On the cubic the factor
    # x is then the image of w and is not checked again; on J = P \cap (x, y, z - w), whose
    # factor x is a zero divisor, the reversal does not preserve J, so it is refused and x is
    # checked: had its image been trusted, only w would have been checked, and w is a
    # nonzerodivisor on S/J
    from sage_attention.ideals.proofs.localization_checks import exact_checks as _checks
    R = PolynomialRing(GF(P), "x,y,z,w")
    x, y, z, w = R.gens()
    rev = (3, 2, 1, 0)
    cubic = R.ideal([x * z - y ** 2, y * w - z ** 2, x * w - y * z])
    C = localization_certificate(cubic, 2, seed=0, processes=1)
    cleared = [x * g for g in C.cleared]
    J = cubic.intersection(R.ideal([x, y, z - w]))
    args = (2, C.independent, C.shape_variable, cleared, x * w, [])
    failure, _, factors, checks, extra = _checks(cubic, *args, symmetries=[rev])
    assert [h for h, _ in factors] == [w, x]
    assert failure is None and extra["symmetries"] == (rev,) and extra["factors_by_symmetry"] == ((x, w, rev),)
    assert len(checks) == 1
    assert _numerators_agree(cubic, x)          # the factor spared is a nonzerodivisor
    failure, _, _, checks, extra = _checks(J, *args, symmetries=[rev])
    assert failure == "the factor x of the denominator is a zero divisor"
    assert extra["symmetries"] == () and extra["factors_by_symmetry"] == ()
    assert _numerators_agree(J, w) and not _numerators_agree(J, x)


def test_the_factors_spared_by_symmetry_are_nonzerodivisors(rows):
    # on the d = 3, a = 2 slice the swaps of input features map one factor of the denominator to
    # another and the first cut to the linear factor; each permutation recorded maps the ideal
    # into itself, and each factor spared is a nonzerodivisor by its own Hilbert series
    from sage_attention.ideals.engine.symmetry import coordinate_symmetries
    M, E, gens, n = rows["slice-d3-t2-a2"]
    sym = coordinate_symmetries(M).generators
    C = localization_certificate(reduction(gens, E, P), n, seed=0, processes=1, symmetries=sym)
    assert C.proved and len(C.factors_by_symmetry) == 2 and C.verify()
    assert len(C.hilbert_checks) == len(C.cuts) + len(C.denominator_factors) - len(C.factors_by_symmetry)
    J = C.ideal
    S = J.ring()
    for h, r, g in C.factors_by_symmetry:
        sub = S.hom([S.gen(j) for j in g])          # Sage's ring map and ideal membership
        assert g in C.symmetries and all(sub(q) in J for q in J.gens())
        assert sub(r) * h.lc() == h * sub(r).lc()    # h is a constant times g(r)
        assert _numerators_agree(J, h)
    assert any(r == C.cuts[0] for _, r, _ in C.factors_by_symmetry)


def _wait_for(path):
    # until the forked child has written its process id to ``path``
    import time
    for _ in range(200):
        if path.exists() and path.read_text():
            return int(path.read_text())
        time.sleep(0.05)
    raise AssertionError("the child did not start")


def _alive(pid):
    # running (not a zombie) by /proc
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


def test_forked_shares_leave_no_process_behind(tmp_path):
    import os
    import time
    from sage_attention.misc.forked import map_in_children
    pidfile = tmp_path / "share.pid"

    def slow_then_fail(n):
        if n == 0:
            _wait_for(pidfile)                 # fail once the child has started
            raise ValueError("first share fails")
        pidfile.write_text(str(os.getpid()))
        time.sleep(30)
        return n
    t0 = time.time()
    with pytest.raises(ValueError):
        map_in_children(slow_then_fail, [0, 1], 2)    # this process fails first: the child is killed
    assert time.time() - t0 < 10
    with pytest.raises(ChildProcessError):
        os.waitpid(int(pidfile.read_text()), os.WNOHANG)     # killed and reaped already


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
def test_a_forked_share_dies_with_its_parent(tmp_path):
    # a proof killed at its time limit must not leave its shares computing on
    import multiprocessing
    import os
    import signal
    import time
    from sage_attention.misc.forked import map_in_children
    pidfile = tmp_path / "share.pid"

    def work(n):
        if n == 1:
            pidfile.write_text(str(os.getpid()))
        time.sleep(60)
        return n
    parent = multiprocessing.get_context("fork").Process(target=map_in_children, args=(work, [0, 1], 2))
    parent.start()
    share = _wait_for(pidfile)
    os.kill(parent.pid, signal.SIGKILL)
    parent.join()
    for _ in range(100):
        if not _alive(share):
            break
        time.sleep(0.05)
    assert not _alive(share)


@functools.lru_cache(maxsize=None)
def _token(a, degree):
    # the single token of width 3 and rank a: its dimension and its ideal through ``degree`` mod p
    M = LightningAttention(d=3, t=1, a=a)
    R = implicitize(M, degree, seed=0, executor=False, prove=False)
    return M.dimension(seed=0), reduction(list(R.essential_generators), M.essential_ring(), P)


@pytest.mark.parametrize("a, degree", [(1, 4), (2, 8)])
def test_the_block_order_gives_the_lex_basis_over_the_fractions(a, degree):
    # on the single tokens (8 independent variables of 10) the lex basis over GF(p)(z) is read
    # off a Groebner basis over GF(p) for a block order; it must be the reduced lex basis that
    # Singular computes over the rational function field itself
    from sage_attention.ideals.proofs import shape_basis as L
    n, J = _token(a, degree)
    C = localization_certificate(J, n, seed=0)
    assert C.proved and C.verify()
    S, z = J.ring(), C.independent
    w = [x for x in S.gens() if x not in z]
    assert L.by_block_order(z, w)                     # the route the proof took
    T = L.lex_ring(S, z)
    gens = list(J.gens())
    by_block = L.lex_basis_by_block_order(gens, T)
    over_fractions = L.lex_basis_over_fractions(gens, T)
    assert sorted(by_block) == sorted(over_fractions)
    assert len(by_block) == len(w) and max(g.degree() for g in by_block) == C.delta


def test_the_second_cuts_are_nonzerodivisors_by_their_own_hilbert_series():
    # on the single token of rank 2 (octics; the denominator involves 8 of the 10 variables)
    # each factor of the denominator is checked after the cut by u and one more cut by a
    # variable; every step is checked again here by Sage's Hilbert numerators of the ideals
    # themselves, and a certificate whose second cut is altered no longer verifies
    n, J = _token(2, 8)
    C = localization_certificate(J, n, seed=0, processes=1)
    assert C.proved and C.second_cuts and C.verify()
    (u,) = C.cuts
    assert _numerators_agree(J, u)
    for h, v in C.second_cuts:
        assert h in [g for g, _ in C.denominator_factors]
        assert _numerators_agree(J + u, v) and _numerators_agree(J + u + v, h)
    (h, v), rest = C.second_cuts[0], C.second_cuts[1:]
    C.second_cuts = ((h, u),) + rest              # u is zero modulo the cut by u
    assert not C.verify()


def test_a_second_cut_never_makes_a_zero_divisor_a_nonzerodivisor():
    # the search for second cuts on J = P \cap (x, y, z - w) of the tests above, where the
    # factor x is a zero divisor and w is not: whichever cuts it tries, x fails
    from sage_attention.ideals.proofs.localization_checks import _factor_checks, hilbert_numerator as _numerator
    R = PolynomialRing(GF(P), "x,y,z,w")
    x, y, z, w = R.gens()
    cubic = R.ideal([x * z - y ** 2, y * w - z ** 2, x * w - y * z])
    J = cubic.intersection(R.ideal([x, y, z - w]))
    same = R.hom(R.gens(), R)
    G = list(J.groebner_basis())
    failure, _, _ = _factor_checks(G, same, _numerator(J), [], [w], list(R.gens()), {}, processes=1)
    assert failure is None and _numerators_agree(J, w)
    failure, _, _ = _factor_checks(G, same, _numerator(J), [], [w, x], list(R.gens()), {}, processes=1)
    assert failure == "the factor x of the denominator is a zero divisor" and not _numerators_agree(J, x)


def test_preserving_agrees_with_ideal_membership():
    # preserving takes an image that is a constant times a generator as lying in J, and
    # reduces the others; on every permutation of three variables it keeps exactly those that
    # Sage's ring map and ideal membership show to map J into J (among them ideals where some
    # images are generators and another is not in J)
    from itertools import permutations
    from sage_attention.ideals.proofs.factor_orbits import preserving
    R = PolynomialRing(GF(P), "x,y,z")
    x, y, z = R.gens()
    ideals = [[x * y, z ** 2 + x], [x * z - y ** 2], [x * y, y * z, 2 * x * z], [x + y, y ** 2 - z ** 2],
              [x * y - z ** 2, x * z - y ** 2, y * z - x ** 2]]
    perms = list(permutations(range(3)))
    for gens in ideals:
        J = R.ideal(gens)
        kept = preserving(J.groebner_basis(), gens, perms)
        expected = tuple(g for g in perms if all(R.hom([R.gen(j) for j in g])(q) in J for q in gens))
        assert kept == expected
    assert preserving(R.ideal([x * y, z ** 2 + x]).groebner_basis(), [x * y, z ** 2 + x], [(1, 0, 2)]) == ()


def test_the_checks_side_by_side_agree_with_the_ideal_quotients():
    # the cut and the factors checked at once, each against the Hilbert series the cut gives
    # (_side_by_side), on J = (x) \cap (y, z) with the extra variable w: the cut w is a
    # nonzerodivisor, z is not (then nothing is claimed and the caller cuts one by one), and a
    # factor is declared a nonzerodivisor modulo J + w exactly when Sage's ideal quotient
    # (J + w) : h equals J + w; on two processes the same as on one
    from sage_attention.ideals.proofs.localization_checks import hilbert_numerator as _numerator, _side_by_side
    R = PolynomialRing(GF(P), "x,y,z,w")
    x, y, z, w = R.gens()
    J = R.ideal([x]).intersection(R.ideal([y, z]))
    same = R.hom(R.gens(), R)
    assert _side_by_side(J.gens(), same, _numerator(J), [z], [x + y], 1) is None
    assert not _numerators_agree(J, z)
    for h in [x + y, x, y, x + z, x * y + z ** 2, x ** 2 + y * z]:
        results = [_side_by_side(J.gens(), same, _numerator(J), [w], [x + y, h], k) for k in (1, 2)]
        assert results[0] == results[1]
        failure, checks = results[0]
        assert checks[0][1] == checks[0][2]          # w is a nonzerodivisor modulo J
        K = J + w
        assert (failure is None) == (K.quotient(R.ideal([h])) == K), h
        assert (failure is None) == _numerators_agree(K, h), h
