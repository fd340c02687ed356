r"""
The coordinates of forms in linear forms: the exact check of a structure, and the variety of fewer features

A model that is a variety of forms `F_o(x) = P_o(\ell_1(x), \dots,
\ell_m(x))` in `n` features says so through a
:class:`~sage_attention.models.linear_forms.LinearFormStructure`. The
proofs that rest on it (:mod:`sage_attention.ideals.proofs.subspace`,
:mod:`sage_attention.ideals.proofs.birational`,
:mod:`sage_attention.ideals.proofs.common_factor`) check it exactly first
(:func:`structure_holds`): a model that gives wrong data gets no proof.
The variety `X_m` of the same polynomials in `m` features, the base of
the proof by fewer features, is parametrized by :func:`base_map`, with
its own structure (:func:`base_structure`).

EXAMPLES:

The split cubics of the token of width `3` and rank `1`, in `4`
features::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.ideals.proofs.form_coordinates import base_map, base_structure, structure_holds
    sage: L = LightningAttention(d=3, t=1, a=1).linear_form_structure()
    sage: phi, B = base_map(L, 4), base_structure(L, 4)
    sage: phi.domain().ngens(), structure_holds(phi, B)
    (20, True)
"""
from math import comb

from sage.rings.polynomial.polynomial_ring_constructor import PolynomialRing

from sage_attention.models.linear_forms import LinearFormStructure


def _form_ring(base, weights, features):
    # the ring of the weights and the features, the features last
    return PolynomialRing(base, list(weights) + list(features))


def _substituted(P, forms, extra, T):
    # P(l_1, ..., l_m) with its other variables (the extra weights) sent to those of T
    S = P.parent()
    m = S.ngens() - len(extra)
    return S.hom(list(forms) + [T(w) for w in S.variable_names()[m:]], T)(P)


def structure_holds(phi, structure):
    r"""
    Return whether ``phi`` is the parametrization that ``structure`` describes (an exact check).

    INPUT:

    - ``phi`` -- the parametrization (coordinates to weights)
    - ``structure`` -- a :class:`~sage_attention.models.linear_forms.LinearFormStructure`

    OUTPUT: ``True`` when the coordinates are those of the domain of
    ``phi``, every monomial of degree `e_o` in the features is the monomial
    of exactly one coordinate of the form `F_o` (`e_o \ge 1`), the weights
    named are distinct generators of the weight ring, each `P_o` is
    homogeneous of degree `e_o` in the `s`, and `\sum_\alpha s_\alpha
    \varphi(y_{o\alpha}) x^\alpha = P_o(\ell_1(x), \dots, \ell_m(x))`
    for every `o`

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.proofs.form_coordinates import structure_holds
        sage: M = LightningAttention(d=3, t=1, a=2)
        sage: L = M.linear_form_structure()
        sage: structure_holds(M.essential_parametrization(), L)
        True

    A wrong polynomial `P` is refused::

        sage: from dataclasses import replace
        sage: s = L.outer[0].parent().gens()
        sage: structure_holds(M.essential_parametrization(), replace(L, outer=(s[0] * s[1] * s[3],)))
        False
    """
    L = structure
    E, W = phi.domain(), phi.codomain()
    n, m = L.nfeatures, L.nforms
    if tuple(L.coordinates) != tuple(E.variable_names()) or len(L.monomials) != E.ngens() or not L.outer:
        return False
    if any(P.parent().ngens() != m + len(L.extra) or tuple(P.parent().variable_names()[m:]) != tuple(L.extra)
           for P in L.outer):
        return False
    by_form = {}
    for o, a, scale in L.monomials:
        if not 0 <= o < len(L.outer) or len(a) != n or min(a) < 0 or not scale:
            return False
        by_form.setdefault(o, []).append(tuple(a))
    if set(by_form) != set(range(len(L.outer))):
        return False
    for o, exps in by_form.items():
        e = sum(exps[0])
        if e < 1 or len(set(exps)) != len(exps) or len(exps) != comb(n + e - 1, e) or \
                any(sum(a) != e for a in exps):
            return False
        P = L.outer[o]
        if P == 0 or any(sum(mono[:m]) != e for mono in P.exponents()):
            return False
    names = [w for form in L.linear_forms for w in form] + list(L.extra)
    weights = [str(w) for w in W.gens()]
    if any(len(form) != n for form in L.linear_forms) or len(set(names)) != len(names) or \
            not set(names) <= set(weights) or set(L.features) & set(weights):
        return False
    T = _form_ring(W.base_ring(), weights, L.features)
    x = T.gens()[len(weights):]
    zero = [0] * len(weights)
    lhs = [T.zero() for _ in L.outer]
    for y, (o, a, scale) in zip(E.gens(), L.monomials):
        lhs[o] += T(scale) * T(phi(y)) * T.monomial(*(zero + list(a)))
    forms = [sum(T(w) * xi for w, xi in zip(form, x)) for form in L.linear_forms]
    return all(lhs[o] == _substituted(P, forms, L.extra, T) for o, P in enumerate(L.outer))


def base_variety(structure, m=None):
    r"""
    Return ``(base_map(structure, m), base_structure(structure, m))``, expanding the forms `P_o(W'x)` once.

    INPUT: as for :func:`base_map`

    OUTPUT: a ring morphism and a :class:`~sage_attention.models.linear_forms.LinearFormStructure`

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.proofs.form_coordinates import base_variety, structure_holds
        sage: psi, B = base_variety(LightningAttention(d=5, t=1, a=1).linear_form_structure())
        sage: psi.domain().ngens(), B.nfeatures, structure_holds(psi, B)
        (10, 3, True)
    """
    L = structure
    k = L.outer[0].base_ring()
    m = L.nforms if m is None else int(m)
    weights = [f"w_{j}_{i}" for j in range(L.nforms) for i in range(m)] + list(L.extra)
    features = [f"x{i}" for i in range(m)]
    T = _form_ring(k, weights, features)
    x = T.gens()[len(weights):]
    Wr = PolynomialRing(k, weights)
    forms = [sum(T(f"w_{j}_{i}") * x[i] for i in range(m)) for j in range(L.nforms)]
    names, images, monomials = [], [], []
    for o, (P, e) in enumerate(zip(L.outer, L.degrees())):
        coeffs = {}
        for exps, c in _substituted(P, forms, L.extra, T).dict().items():
            a = tuple(exps[len(weights):])
            coeffs[a] = coeffs.get(a, 0) + c * Wr.monomial(*exps[:len(weights)])
        if len(coeffs) != comb(m + e - 1, e):
            raise ValueError(f"P_{o}(W'x) misses a monomial: its coefficient is zero for every W'")
        for a in sorted(coeffs, reverse=True):
            names.append(f"c{o}_" + "_".join(map(str, a)))
            images.append(coeffs[a])
            monomials.append((o, a, 1))
    U = PolynomialRing(k, names, order="degrevlex")
    linear = tuple(tuple(f"w_{j}_{i}" for i in range(m)) for j in range(L.nforms))
    return U.hom(images, Wr), LinearFormStructure(tuple(features), tuple(names), tuple(monomials), linear,
                                                  tuple(L.outer), tuple(L.extra))


def base_map(structure, m=None):
    r"""
    Return the parametrization of `X_m`: the coefficients of the `P_o(W' x)` with `W'` an `m \times m` matrix.

    INPUT:

    - ``structure`` -- a :class:`~sage_attention.models.linear_forms.LinearFormStructure`
    - ``m`` -- (default: the number of linear forms) the number of features

    OUTPUT: a morphism from the ring of the coordinates ``c<o>_<exponents>``
    (one per form `F_o` and monomial of degree `e_o` in `m` features) to that
    of the weights ``w_j_i`` and the ``extra`` weights

    EXAMPLES:

    The split ternary cubics::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.proofs.form_coordinates import base_map
        sage: psi = base_map(LightningAttention(d=5, t=1, a=1).linear_form_structure())
        sage: psi.domain().ngens(), psi.codomain().ngens()
        (10, 9)
        sage: psi(psi.domain().gen(0))
        w_0_0*w_1_0*w_2_0

    The slice of width `5` and rank `2` has `5` quadrics in `3` linear
    forms: its base is the `5` ternary quadrics, `30` coordinates::

        sage: L = LightningAttention(d=5, t=2, a=2, out=1, entries=[(1, 1)]).linear_form_structure()
        sage: base_map(L).domain().ngens()
        30
    """
    return base_variety(structure, m)[0]


def base_structure(structure, m=None):
    r"""
    Return the :class:`~sage_attention.models.linear_forms.LinearFormStructure` of :func:`base_map`.

    The same polynomials `P_o` in the `m` features ``x0``, ``x1``, ...;
    the linear forms have the weights ``w_j_i`` of :func:`base_map`. With
    it the proofs that need a structure (the birational inverse of
    :mod:`sage_attention.ideals.proofs.birational`) apply to the variety of `m`
    features, and the proof here to the forms in more features (``m``
    larger than the number of linear forms).

    INPUT: as for :func:`base_map`

    OUTPUT: a :class:`~sage_attention.models.linear_forms.LinearFormStructure`
    that :func:`structure_holds` accepts for ``base_map(structure, m)``

    EXAMPLES:

    The base of the slice of width `5` and rank `3`, restricted to its first
    three columns, is the triples of quaternary quadrics with a common
    linear factor::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.proofs.inheritance import columns_structure, matrix_factorization
        sage: from sage_attention.ideals.proofs.form_coordinates import base_map, base_structure, structure_holds
        sage: M = LightningAttention(d=5, t=2, a=3, out=1, entries=[(1, 1)])
        sage: psi, L = columns_structure(matrix_factorization(M.essential_parametrization()), M.linear_form_structure())
        sage: B = base_structure(L); B
        3 quadratic forms in 4 features x0, x1, x2, x3: P(l_1, l_2, l_3, l_4) = (s0*s1*q11 + s0*s2*q21 + s0*s3*q31, ...), l_1 = (w_0_0, w_0_1, w_0_2, w_0_3), ...
        sage: structure_holds(base_map(L), B)
        True
    """
    return base_variety(structure, m)[1]
