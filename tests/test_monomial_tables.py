"""
The monomial tables of the implicitization engine, against an independent
enumeration: every monomial of the degree exactly once, in the engine's
order, and the graded pieces a partition of them by multidegree (with the
multidegrees packed into one integer and without).
"""
from itertools import combinations_with_replacement
from math import comb

import numpy as np
import pytest

from sage_attention.ideals.engine.pieces import graded_pieces
from sage_attention.ideals.engine.product_span import monomials


def reference(n, k):
    """The exponent vectors of degree k, ordered by their last variable, then as the engine builds them."""
    rows = []
    for c in combinations_with_replacement(range(n), k):
        e = [0] * n
        for i in c:
            e[i] += 1
        rows.append(e)
    return rows


@pytest.mark.parametrize("n,k", [(1, 0), (1, 3), (3, 0), (3, 1), (4, 2), (5, 3), (7, 4), (2, 6)])
def test_monomials_are_each_monomial_once(n, k):
    mon = monomials(n, k)
    assert mon.dtype == np.int16 and mon.shape == (comb(n + k - 1, k), n)
    assert sorted(map(tuple, mon.tolist())) == sorted(map(tuple, reference(n, k)))
    assert (mon.sum(axis=1) == k).all()
    # ordered by the last variable (the prefix property the construction rests on)
    last = [max([i for i in range(n) if r[i]], default=-1) for r in mon.tolist()]
    assert last == sorted(last)


def _check_partition(n, k, degs):
    pcs = graded_pieces(n, k, degs)
    seen = []
    for delta, mons in pcs.items():
        assert len(mons) > 0
        assert all(tuple(int(x) for x in row.astype(np.int64) @ degs) == delta for row in mons)
        seen.extend(map(tuple, mons.tolist()))
    assert sorted(seen) == sorted(map(tuple, reference(n, k)))
    assert list(pcs) == sorted(pcs)                  # the pieces in the order of their multidegrees
    for mons in pcs.values():                        # each piece in the order of the table
        order = [monomials(n, k).tolist().index(r) for r in mons.tolist()]
        assert order == sorted(order)
    return pcs


@pytest.mark.parametrize("seed", range(20))
def test_graded_pieces_partition_the_monomials(seed):
    rng = np.random.default_rng(seed)
    n, k, r = int(rng.integers(1, 6)), int(rng.integers(1, 5)), int(rng.integers(1, 4))
    degs = rng.integers(-3, 4, size=(n, r)).astype(np.int64)
    _check_partition(n, k, degs)


@pytest.mark.parametrize("scale", [2 ** 40, 2 ** 61])
def test_graded_pieces_with_multidegrees_too_wide_for_one_integer(scale):
    # ranges whose product exceeds 2^62: one key per run of entries (2^40),
    # or no packing at all when one entry's range does (2^61)
    degs = np.array([[scale, 1, 0], [0, scale, 1], [1, 0, scale], [1, 1, 1]], dtype=np.int64)
    _check_partition(4, 3, degs)


def test_graded_pieces_of_a_fine_grading_need_several_keys():
    # 30 entries of range 13 (degree 4, degrees -1..2): about 16 per key
    rng = np.random.default_rng(7)
    degs = rng.integers(-1, 3, size=(6, 30)).astype(np.int64)
    pcs = _check_partition(6, 4, degs)
    coarse = _check_partition(6, 4, degs[:, :2])
    assert len(pcs) >= len(coarse)
