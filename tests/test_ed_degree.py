"""
ED degrees (sage_attention.ideals.metric) against independent mathematics.

Every expected value below comes from a theorem, not from the code:

- a generic affine hypersurface of degree D in C^n: D * sum_{i<n} (D-1)^i [DHOST2016, Cor. 2.10];
- Eckart-Young: m x n matrices of rank <= r under the Frobenius metric: binomial(min(m, n), r);
  symmetric n x n matrices of rank <= r under the Frobenius metric: binomial(n, r) (eigenvalues);
- a smooth projective variety under a generic metric: the Chern-class formula of DHOST
  (Thm. 5.4), sum_i (-1)^i (2^{m+1-i} - 1) deg(c_i(X)), evaluated here in the Chow ring of the
  Segre or Veronese variety (an independent computation);
- the Veronese under Bombieri-Weyl: the eigenvectors of a symmetric tensor,
  ((d-1)^n - 1)/(d-2) (Cartwright-Sturmfels), n for quadrics; rational normal curves: d;
- the two worked decision-boundary examples of arXiv 2602.06105's public code: 4 and 2.
"""
import pytest

from sage.all__sagemath_singular import (GF, QQ, PolynomialRing, binomial, diagonal_matrix, matrix,
                                         identity_matrix)

from sage_attention import PolynomialNetwork
from sage_attention.ideals.metric import ed_degree
from sage_attention.ideals.metric.backends import msolve_available
from sage_attention.ideals.metric.boundary import boundary_ed_degree
from sage_attention.ideals.metric.critical import critical_count
from sage_attention.ideals.proofs.protocol import accepted, is_certificate
from sage_attention.ideals.proofs.registry import techniques
from sage_attention.variety.metric import network_ed_degree


# -- independent formulas -------------------------------------------------------------------------------------

def generic_hypersurface(n, D):
    return D * sum((D - 1) ** i for i in range(n))


def chern_ed_degree(factors, degrees):
    """DHOST Thm 5.4 for the Segre-Veronese embedding of P^{n_1-1} x ... by O(d_1, ..., d_k)."""
    k = len(factors)
    R = PolynomialRing(QQ, "h", k)
    h = R.gens()
    dim = sum(n - 1 for n in factors)

    def trunc(f):
        return sum(c * m for c, m in zip(f.coefficients(), f.monomials())
                   if all(m.degree(h[i]) < factors[i] for i in range(k)))

    def deg(f):
        top = R.monomial(*[n - 1 for n in factors])
        return trunc(f).monomial_coefficient(top)

    H = sum(d * hi for d, hi in zip(degrees, h))
    c = R(1)
    for i in range(k):
        c = trunc(c * (1 + h[i]) ** factors[i])
    total = 0
    for i in range(dim + 1):
        ci = sum(t for t in [c.coefficients()[j] * c.monomials()[j] for j in range(len(c.monomials()))]
                 if t.degree() == i) if c != 0 else 0
        total += (-1) ** i * (2 ** (dim + 1 - i) - 1) * deg(ci * H ** (dim - i))
    return total


def test_chern_formula_reproduces_known_values():
    assert chern_ed_degree([2, 2], [1, 1]) == 6           # P1 x P1, DHOST Example
    assert chern_ed_degree([3], [2]) == 13                 # v2(P2)
    assert chern_ed_degree([2], [3]) == 7                  # twisted cubic: 3d - 2
    assert chern_ed_degree([2], [4]) == 3 * 4 - 2


# -- varieties ---------------------------------------------------------------------------------------------------

def matrix_ideal(m, n, r, field=QQ):
    R = PolynomialRing(field, "a", m * n)
    return R.ideal(matrix(R, m, n, R.gens()).minors(r + 1))


def symmetric_ideal(n, r, field=QQ):
    names = [f"a{i}{j}" for i in range(n) for j in range(i, n)]
    R = PolynomialRing(field, names)
    g = iter(R.gens())
    A = matrix(R, n, n)
    for i in range(n):
        for j in range(i, n):
            A[i, j] = A[j, i] = next(g)
    frobenius = diagonal_matrix(QQ, [1 if i == j else 2 for i in range(n) for j in range(i, n)])
    return R.ideal(A.minors(r + 1)), frobenius


def veronese_ideal(n, d):
    """Forms (l . x)^d in the coefficients c_alpha of x^alpha (by elimination, independent of the package)."""
    import itertools
    exps = sorted((e for e in itertools.product(range(d + 1), repeat=n) if sum(e) == d), reverse=True)
    S = PolynomialRing(QQ, [f"l{i}" for i in range(n)] + [f"c{j}" for j in range(len(exps))])
    l, c = S.gens()[:n], S.gens()[n:]
    from sage.all__sagemath_singular import multinomial, prod
    J = S.ideal([c[j] - multinomial(*e) * prod(l[i] ** e[i] for i in range(n)) for j, e in enumerate(exps)])
    E = J.elimination_ideal(list(l))
    R = PolynomialRing(QQ, [f"c{j}" for j in range(len(exps))])
    return R.ideal([R(g) for g in E.gens()]), exps


@pytest.mark.parametrize("n,D", [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)])
def test_generic_hypersurface(n, D):
    import random
    rng = random.Random(n * 100 + D)
    R = PolynomialRing(QQ, "x", n)
    monomials = [m for k in range(D + 1) for m in (sum(R.gens()) ** k).monomials()]
    f = sum(rng.choice([-1, 1]) * rng.randrange(1, 1000) * m for m in monomials)   # dense, random coefficients
    E = ed_degree(R.ideal([f]), "euclidean", seed=11)
    assert E.degree == generic_hypersurface(n, D)
    assert E.variety == "affine" and E.is_certified()


@pytest.mark.parametrize("m,n,r", [(2, 2, 1), (2, 3, 1), (3, 3, 1), (3, 3, 2), (2, 4, 1)])
def test_eckart_young(m, n, r):
    assert ed_degree(matrix_ideal(m, n, r), "euclidean", seed=1).degree == binomial(min(m, n), r)


@pytest.mark.parametrize("n,r", [(3, 1), (3, 2), (4, 1), (4, 2)])
def test_symmetric_eckart_young(n, r):
    I, frobenius = symmetric_ideal(n, r)
    assert ed_degree(I, frobenius, seed=2).degree == binomial(n, r)


@pytest.mark.parametrize("factors", [(2, 2), (2, 3), (3, 3)])
def test_segre_generic_metric(factors):
    m, n = factors
    E = ed_degree(matrix_ideal(m, n, 1), "generic", seed=3)
    assert E.degree == chern_ed_degree([m, n], [1, 1])
    assert E.variety == "cone"


@pytest.mark.parametrize("n,d", [(2, 2), (2, 3), (2, 4), (3, 2)])
def test_veronese_generic_and_bombieri_weyl(n, d):
    I, exps = veronese_ideal(n, d)
    assert ed_degree(I, "generic", seed=4).degree == chern_ed_degree([n], [d])
    eigen = n if d == 2 else ((d - 1) ** n - 1) // (d - 2)
    assert ed_degree(I, "bombieri_weyl", exponents=exps, seed=4).degree == eigen


def test_twisted_cubic_numbers():
    I, exps = veronese_ideal(2, 3)
    assert ed_degree(I, "bombieri_weyl", exponents=exps, seed=5).degree == 3
    assert ed_degree(I, "generic", seed=5).degree == 7


# -- what a result says -----------------------------------------------------------------------------------------

def test_the_count_drops_at_special_data_and_metric():
    R = PolynomialRing(QQ, "x,y")
    x, y = R.gens()
    I = R.ideal([x ** 2 + y ** 2 - 1])
    E = ed_degree(I, "euclidean", data=[0, 0], seed=1)
    assert E.degree is None and E.drops is True and E.certificate.random_count == 2
    E = ed_degree(I, "euclidean", data=[1, 0], seed=1)     # a point of the circle, off the centre: still 2
    assert E.degree == 2 and E.drops is False
    E = ed_degree(I, "euclidean", seed=1, compare=True)
    assert (E.degree, E.generic_degree, E.drops_with_metric()) == (2, 4, True)


def test_two_primes_and_independent_data_are_recorded():
    E = ed_degree(matrix_ideal(2, 2, 1), "generic", seed=7)
    runs = E.certificate.runs
    assert len(runs) == 2 and runs[0][0] != runs[1][0] and runs[0][1] != runs[1][1]
    assert [r[2] for r in runs] == [6, 6]
    assert E.certificate.problem.seed == 7
    d = E.to_dict()
    assert d["certificate"]["seed"] == 7 and d["degree"] == 6


def test_over_a_prime_field_both_runs_use_it():
    I = matrix_ideal(2, 2, 1, GF(32003))
    E = ed_degree(I, "euclidean", seed=1)
    assert [r[0] for r in E.certificate.runs] == [32003, 32003] and E.degree == 2


def test_the_certificate_lives_in_the_registry():
    assert [T.name for T in techniques("ED degree")] == ["critical ideal", "parametrization chart"]
    E = ed_degree(matrix_ideal(2, 2, 1), "euclidean", seed=3)
    C = E.certificate
    assert is_certificate(C) and C.technique == "critical ideal"
    assert accepted(C, "critical ideal", recheck=True) == (True, "")
    assert [A.technique for A in E.attempts] == ["critical ideal"]


@pytest.mark.skipif(not msolve_available(), reason="msolve is not installed")
def test_backends_agree():
    I, frobenius = symmetric_ideal(3, 2, GF(8388593))
    for metric in ("generic", "euclidean"):
        a = critical_count(I, metric, seed=5, backend="singular")
        b = critical_count(I, metric, seed=5, backend="msolve")
        assert a == b


def test_user_gram_matrix_and_errors():
    I = matrix_ideal(2, 2, 1)
    assert ed_degree(I, identity_matrix(QQ, 4), seed=1).degree == 2
    with pytest.raises(ValueError, match="bombieri_weyl"):
        ed_degree(I, "bombieri_weyl", seed=1)
    with pytest.raises(ValueError, match="must be one of"):
        ed_degree(I, "frobenius")


# -- networks --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [3, 4])
def test_two_neuron_quadratic_network_bombieri_weyl(n):
    # arXiv 2512.21016: the secant of the quadratic Veronese = symmetric matrices of rank <= 2;
    # Bombieri-Weyl on quadrics = Frobenius on symmetric matrices: binomial(n, 2)
    assert network_ed_degree(PolynomialNetwork([n, 2, 1], 2), "bombieri_weyl", seed=0).degree == binomial(n, 2)


def test_two_neuron_quadratic_network_generic_n3():
    # the determinant hypersurface of symmetric 3 x 3 matrices is dual to v2(P2): same generic ED degree,
    # 13 (DHOST Thm 5.2 and the Chern formula), the count of arXiv 2512.21016's Results.txt
    assert network_ed_degree(PolynomialNetwork([3, 2, 1], 2), "generic", seed=0).degree == \
        chern_ed_degree([3], [2]) == 13


@pytest.mark.parametrize("n", [3, 4, 5])
def test_parametrization_route_bombieri_weyl(n):
    # pure critical points of the loss in a gauge chart = ED degree x fiber size (Trager-Kohn-Bruna's pure points)
    E = network_ed_degree(PolynomialNetwork([n, 2, 1], 2), "bombieri_weyl", seed=1, route="parametrization")
    assert E.degree == binomial(n, 2) and E.certificate.technique == "parametrization chart"


def test_the_two_routes_agree_under_a_generic_metric():
    M = PolynomialNetwork([3, 2, 1], 2)
    a = network_ed_degree(M, "generic", seed=2, route="ideal")
    b = network_ed_degree(M, "generic", seed=2, route="parametrization")
    assert a.degree == b.degree == 13


def test_parametrization_of_the_twisted_cubic_counts_the_fiber():
    from sage_attention.ideals.metric.parametric import parametric_ed_count
    R = PolynomialRing(QQ, "c0,c1,c2,c3")
    S = PolynomialRing(QQ, "s,t")
    s, t = S.gens()
    c = parametric_ed_count(R.hom([s ** 3, 3 * s ** 2 * t, 3 * s * t ** 2, t ** 3], S), "bombieri_weyl",
                            exponents=[(3, 0), (2, 1), (1, 2), (0, 3)], seed=3)
    assert (c["fiber"], c["ed_degree"]) == (3, 3)      # cube roots of unity; d = 3 under Bombieri-Weyl


@pytest.mark.parametrize("n", [3, 4])
def test_pure_critical_points_are_ed_degree_times_fiber(n):
    # Trager-Kohn-Bruna: pure critical points of the loss map onto the ED critical points; the fiber of the
    # gauge chart is an O(2)-orbit (two conics: degree 4) cut by a hyperplane
    from sage_attention.variety.metric import critical_points
    C = critical_points(PolynomialNetwork([n, 2, 1], 2), "bombieri_weyl", seed=n, spurious=False)
    assert C.fiber == 4 and C.pure == 4 * binomial(n, 2) and C.ed_degree == binomial(n, 2)


def test_neurovariety_of_a_one_entry_slice_is_a_segre_variety():
    # the one-entry slice of width 2, two tokens, rank one: P^1 x P^2 (degree 3, 3 quadrics); its generic
    # ED degree is the Chern-class number of the Segre variety
    from sage_attention import LightningAttention
    X = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)]).neurovariety()
    E = X.ed_degree("generic", seed=4)
    assert E.degree == chern_ed_degree([2, 3], [1, 1]) == 10 and E.variety == "cone"


# -- the hypersurface count without localization ---------------------------------------------------------------

def _saturation_count(f, gram, u):
    """The paper's method over GF(p): f, the 2 x 2 minors of [gram (x - u); grad f], saturated by grad f."""
    R = f.parent()
    xs = R.gens()
    grad = [f.derivative(x) for x in xs]
    top = [sum(gram[i, j] * (xs[j] - u[j]) for j in range(len(xs))) for i in range(len(xs))]
    crit = R.ideal([f] + matrix(R, [top, grad]).minors(2))
    return crit.saturation(R.ideal(grad))[0].vector_space_dimension()


@pytest.mark.parametrize("name", ["node", "cusp", "cone", "cayley", "two lines"])
def test_hypersurface_count_without_localization_matches_saturation(name):
    # singular hypersurfaces: the count skips the localization (f(u) != 0, an invertible metric), and must
    # equal the saturation of the minors formulation, an independent computation, under two metrics
    import random
    from sage.all__sagemath_singular import vector
    from sage_attention.ideals.metric.critical import critical_ideal
    F = GF(32003)
    R = PolynomialRing(F, "x,y,z")
    x, y, z = R.gens()
    f = {"node": y ** 2 - x ** 2 * (x + 1), "cusp": y ** 2 - x ** 3, "cone": x ** 2 + y ** 2 - z ** 2,
         "cayley": x * y * z + x * y + y * z + z * x, "two lines": (x - y) * (x + 2 * y - 1)}[name]
    if name in ("node", "cusp", "two lines"):
        R = PolynomialRing(F, "x,y")
        f = R(str(f))
    n = R.ngens()
    rng = random.Random(int(len(name)))
    A = matrix(F, n, n, lambda i, j: rng.randrange(1, 100))
    for gram in (identity_matrix(F, n), A + A.transpose()):
        u = vector(F, [rng.randrange(1, 1000) for _ in range(n)])
        J = critical_ideal(R.ideal([f]), gram, u, seed=3, codim=1)
        assert J.gens()[-1] == J.ring().gens()[-1] - 1        # no localization was needed
        assert J.vector_space_dimension() == _saturation_count(f, gram, u)


def test_quadratic_chart_is_birational_and_counts_eckart_young():
    # the chart A = L S L^T of symmetric matrices of rank <= 2 has fiber 1; Bombieri-Weyl gives binomial(n, 2)
    from sage_attention.ideals.metric.parametric import parametric_ed_count
    from sage_attention.variety.metric import quadratic_chart
    for n in (3, 4, 5, 6):
        M = PolynomialNetwork([n, 2, 1], 2)
        exps = [e for _, _, e in M.coordinate_description()]
        c = parametric_ed_count(quadratic_chart(M), "bombieri_weyl", exponents=exps, seed=n)
        assert (c["fiber"], c["ed_degree"], c["dimension"]) == (1, binomial(n, 2), 2 * n - 1)
    assert quadratic_chart(PolynomialNetwork([3, 3, 1], 2)) is None       # rank <= 3: all ternary quadrics
    assert quadratic_chart(PolynomialNetwork([3, 2, 1], 2, bias=True)) is None


def test_quadratic_chart_generic_metric_veronese_and_its_dual():
    # rank <= 1: the Veronese v2(P^{n-1}), generic ED degree by the Chern formula ((3^n - 1)/2);
    # rank <= n - 1: the determinant hypersurface, the dual variety, with the same generic ED degree
    # (DHOST Thm 5.2: the dual of rank <= r symmetric matrices is rank <= n - r)
    for n, r in ((3, 1), (4, 1), (4, 3)):
        E = network_ed_degree(PolynomialNetwork([n, r, 1], 2), "generic", seed=n + r)
        assert E.degree == chern_ed_degree([n], [2]) == (3 ** n - 1) // 2
        assert E.certificate.technique == "parametrization chart" and E.variety == "cone"


def test_counts_over_a_prime_field_are_refused():
    # the two-neuron network on R^3 has ED degree binomial(3, 2) = 3 under Bombieri-Weyl (Eckart-Young);
    # over GF(7) the counts were 1 and "agreed" -- a model over GF(p) is refused, as in a spec
    from sage.all__sagemath_singular import GF
    from sage_attention import PolynomialNetwork
    from sage_attention.variety.metric import network_ed_degree, critical_points
    from sage_attention.ideals.metric.boundary import boundary_ed_degree
    M = PolynomialNetwork([3, 2, 1], 2, base_ring=GF(7))
    for call in (lambda: network_ed_degree(M, 'bombieri_weyl', seed=1), lambda: critical_points(M, seed=1),
                 lambda: boundary_ed_degree(PolynomialNetwork([2, 2, 1], 2, base_ring=GF(101)), seed=1)):
        with pytest.raises(ValueError, match="count over QQ.*take it over QQ"):
            call()
    assert network_ed_degree(PolynomialNetwork([3, 2, 1], 2), 'bombieri_weyl', seed=1).degree == 3
