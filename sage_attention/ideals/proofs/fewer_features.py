r"""
The variety of fewer features: the base of the proof by inheritance from fewer features

The theorem of :mod:`sage_attention.ideals.proofs.subspace` bounds the
generation degree of a variety of forms in `m` linear forms of `n > m`
features by that of the variety `X_m` of `m` features and the degree `m + 1`
of the minors of the partial derivatives (:func:`minors_degree`).
:func:`base_kernel` computes the ideal of `X_m` and proves it whole, through
the strategy or by a birational inverse.

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.ideals.proofs.fewer_features import minors_degree
    sage: minors_degree(LightningAttention(d=4, t=1, a=1).linear_form_structure())
    4
"""
from math import comb

from sage_attention.ideals.proofs.birational import birational_kernel
from sage_attention.ideals.proofs.birational_inverse import common_factor_coordinates
from sage_attention.ideals.proofs.form_coordinates import base_variety
from sage_attention.ideals.proofs.kernels import proved_kernel
from sage_attention.settings import settings


def minors_degree(structure):
    r"""
    Return the degree `m + 1` of the minors of the matrix of first partial derivatives that the theorem needs, or ``None``.

    The matrix has a row for each feature and, for each form `F_o` of
    degree `e_o`, `\binom{n + e_o - 2}{e_o - 1}` columns (the coefficients
    of `\partial F_o / \partial x_i`); on the variety its rank is at most
    the number `m` of linear forms. ``None`` when with `n = m + 1` features
    it has fewer than `m + 1` columns (then no step of the induction of the
    theorem has a minor).

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.proofs.fewer_features import minors_degree
        sage: minors_degree(LightningAttention(d=5, t=1, a=1).linear_form_structure())
        4
    """
    n = structure.nforms + 1
    columns = sum(comb(n + e - 2, e - 1) for e in structure.degrees())
    return n if columns >= n else None


def base_kernel(structure, degree, seed, p=None, processes=None, timeout=30):
    r"""
    Return ``(generators, certificate, timings)``: the ideal of the variety `X_m` of `m` features, and its proof.

    The base of the theorem: the tuples of quadrics with a common linear
    factor are proved by their birational inverse
    (:func:`~sage_attention.ideals.proofs.birational.birational_kernel`, through
    ``degree``), other varieties by a Segre product or the localization
    (:func:`~sage_attention.ideals.proofs.segre.proved_kernel`, through
    ``degree`` and the degree of the minors). A proved certificate means the
    whole ideal, whatever the degree computed.

    INPUT:

    - ``structure`` -- a :class:`~sage_attention.models.linear_forms.LinearFormStructure`
    - ``degree`` -- positive integer
    - ``seed``, ``p``, ``processes``, ``timeout`` -- as in :func:`~sage_attention.ideals.proofs.subspace.subspace_certificate`

    OUTPUT: as :func:`~sage_attention.ideals.proofs.segre.proved_kernel`

    EXAMPLES:

    The base of the token of width `4` and rank `1`, the split ternary cubics::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.proofs.fewer_features import base_kernel
        sage: G, C, t = base_kernel(LightningAttention(d=4, t=1, a=1).linear_form_structure(), 4, seed=0)
        sage: {k: len(g) for k, g in G.items()}, C.method
        ({4: 35}, 'localization')
    """
    if p is None:
        p = settings.HILBERT_PRIMES[0]
    psi, B = base_variety(structure)
    if common_factor_coordinates(psi, B) is not None:
        return birational_kernel(psi, B, degree, seed, p, timeout)
    return proved_kernel(psi, max(degree, minors_degree(structure) or 1), seed, p, processes, timeout,
                         f"the variety of {structure.nforms} features")
