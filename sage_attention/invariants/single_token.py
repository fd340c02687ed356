r"""
Helpers for the single-token (`t = 1`) families: scaled cubic coefficients
"""
from itertools import permutations


def scaled_coefficients(model, row):
    r"""
    Return ``{(k, l, m): c}`` (sorted 1-based indices) with `c` in the
    coordinate ring: the *scaled* coefficient of `x_k x_l x_m` in the entry
    `Y_{row, 1}` (the raw coefficient divided by its number of distinct
    orderings), so that `f = \sum_{k,l,m} c_{klm} x_k x_l x_m` over all
    ordered triples. On the neurovariety it is the symmetric tensor
    `\mathrm{Sym}(v \otimes \mathrm{Sym}(A))`.
    """
    C = model.coordinate_ring()
    out = {}
    for x, c in zip(C.gens(), model.coordinates_list()):
        if c.kind == "pure" and c.row == row:
            n = len(set(permutations(c.indices)))
            out[tuple(c.indices)] = x if model.coordinate_scaling == "scaled" else x / n
    return out
