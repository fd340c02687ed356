"""
The minimal generators' count removes the linear generators through a sparse matrix read off their
terms: a model with thousands of linear relations in tens of thousands of coordinates
(``vanishing_ideal up to degree 1`` of ``input = 8; tokens = 3; rank = 2; out = 8``) spent minutes in
a dense matrix of ``monomial_coefficient`` calls, with no output. The count is checked against the
rank of the dense coefficient matrix (an independent computation) on random relations.
"""
import random

from sage.all__sagemath_singular import QQ, PolynomialRing, matrix

from sage_attention.ideals.minimal_generators import minimal_generators_count


def test_the_linear_count_is_the_rank_of_the_relations():
    rnd = random.Random(0)
    R = PolynomialRing(QQ, "y", 40)
    y = R.gens()
    for trial in range(5):
        lin = [sum(QQ(rnd.randint(-3, 3)) * y[rnd.randrange(40)] for _ in range(rnd.randint(1, 4)))
               for _ in range(25)]
        lin = [g for g in lin if g]
        rank = matrix(QQ, [[g.monomial_coefficient(v) for v in y] for g in lin]).rank()
        quad = [y[0] * y[1] - y[2] ** 2, y[3] ** 2]
        counts = minimal_generators_count(R.ideal(lin + quad))
        assert counts.get(1, 0) == rank


def test_many_relations_in_many_coordinates():
    n = 20000
    R = PolynomialRing(QQ, "y", n)
    y = R.gens()
    lin = [y[2 * i] - 3 * y[2 * i + 1] for i in range(n // 2)] + [y[1] - y[3]]
    counts = minimal_generators_count(R.ideal(lin + [y[5] * y[7] - y[9] ** 2]))
    # n/2 independent relations, y1 - y3 one more; the quadric survives in the other coordinates
    assert counts == {1: n // 2 + 1, 2: 1}
