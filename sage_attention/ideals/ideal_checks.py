r"""
Two checks on an ideal given by generators: membership by linear algebra, and a nonzerodivisor

Both serve the proof by a birational inverse
(:mod:`sage_attention.ideals.proofs.birational`), modulo a prime.

- :func:`ideal_membership`: a polynomial `h` of degree `e` lies in the
  ideal `J` of ``gens`` when it is in the span of the products `u g` of
  generators and monomials of degree `e - \deg g`; with a grading by a
  torus (every generator homogeneous) only the products of the weight of
  `h` are needed, a small matrix per piece. A sufficient test: ``True``
  is a proof, ``False`` only "not shown" (`J_e` may need products of
  generators of other degrees when ``gens`` are not all of `J` up to `e`;
  for an ideal generated in degrees at most `e` it is exact).
- :func:`nonzerodivisor_check`: the criterion of Bayer and Stillman
  [BS1987]_. For a homogeneous ideal `K` and the degree reverse
  lexicographic order with the variable `t` last, `\mathrm{in}(K : t) =
  \mathrm{in}(K) : t`; so `t` is a nonzerodivisor modulo `K` if and only if
  it is one modulo the monomial ideal `\mathrm{in}(K)`. For a quadric `h`,
  `R[t]/(J + (t^2 - h))` is a free `R/J`-module with basis `1, t`, and
  `t^2` acts as `h`: `h` is a nonzerodivisor modulo `J` if and only if `t`
  is one modulo `K = J + (t^2 - h)`. One Gröbner basis of `K`.

EXAMPLES:

The quadric `xz` is a nonzerodivisor modulo `xy - z^2`, and `x \cdot (xy -
z^2)` is in the ideal (for the grading `x \mapsto (2, 0)`, `y \mapsto (0,
2)`, `z \mapsto (1, 1)`)::

    sage: from sage_attention.ideals.ideal_checks import ideal_membership, nonzerodivisor_check
    sage: R.<x,y,z> = GF(101)[]
    sage: nonzerodivisor_check([x*y - z^2], x*z)[0]
    True
    sage: weight = lambda e: (2*e[0] + e[2], 2*e[1] + e[2])
    sage: ideal_membership(weight, [x*y - z^2], [x^2*y - x*z^2, x^3])
    [True, False]

REFERENCES: [BS1987]_.
"""
import numpy as np

from sage.matrix.constructor import matrix
from sage.rings.polynomial.polynomial_ring_constructor import PolynomialRing


def _homogeneous_weight(weight, f):
    r"""
    Return ``(degree, weight)`` of ``f`` for the grading ``weight``, or ``None`` if it is not homogeneous.
    """
    exps = f.exponents()
    if not exps:
        return None
    keys = {(sum(e), weight(e)) for e in exps}
    return keys.pop() if len(keys) == 1 else None


def monomials_of_weight(var_w, k, w, cache=None):
    r"""
    Return the exponent vectors of the monomials of degree ``k`` and weight ``w``: an ``int16`` array, one row each.

    INPUT:

    - ``var_w`` -- the weights of the variables, tuples of nonnegative
      integers (a grading by a torus), each nonzero
    - ``k`` -- the degree
    - ``w`` -- the weight, a tuple
    - ``cache`` -- (default: ``None``) a dictionary kept between calls

    OUTPUT: a numpy array of shape ``(count, len(var_w))``, in
    lexicographic order of the variables chosen

    EXAMPLES:

    The monomials of degree `2` and weight `(2, 2)` for `x \mapsto (2, 0)`,
    `y \mapsto (0, 2)`, `z \mapsto (1, 1)`: `xy` and `z^2`::

        sage: from sage_attention.ideals.ideal_checks import monomials_of_weight
        sage: monomials_of_weight([(2, 0), (0, 2), (1, 1)], 2, (2, 2)).tolist()
        [[1, 1, 0], [0, 0, 2]]
    """
    key = (k, tuple(w))
    if cache is not None and key in cache:
        return cache[key]
    N = len(var_w)
    out = []

    def walk(start, r, rest, chosen):
        if r == 0:
            if not any(rest):
                e = np.zeros(N, dtype=np.int16)
                for v in chosen:
                    e[v] += 1
                out.append(e)
            return
        for v in range(start, N):
            nxt = tuple(a - b for a, b in zip(rest, var_w[v]))
            if min(nxt) >= 0:
                walk(v, r - 1, nxt, chosen + [v])

    walk(0, k, tuple(w), [])
    found = np.array(out, dtype=np.int16).reshape(len(out), N)
    if cache is not None:
        cache[key] = found
    return found


def ideal_membership(weight, gens, targets):
    r"""
    Return, for each target, whether linear algebra proves it in the ideal of ``gens`` (a sufficient test).

    A target `h` of degree `e` and weight `w` (for the grading ``weight``)
    is in the ideal when it lies in the span of the products `u g`
    of generators `g` and monomials `u` of degree `e - \deg g` and weight
    `w - w(g)`. ``False`` means only "not shown": `h` is not in `J_e` when
    the generators span `J` up to degree `e`, not otherwise.

    INPUT:

    - ``weight`` -- a function from exponent tuples to tuples of
      nonnegative integers, additive (a grading of the ring by a torus),
      with every variable of nonzero weight
    - ``gens``, ``targets`` -- polynomials in one ring (e.g. over
      `\GF{p}`), each homogeneous for ``weight`` (else ``ValueError``)

    OUTPUT: a list of booleans

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.proofs.birational import common_factor_coordinates
        sage: from sage_attention.ideals.ideal_checks import ideal_membership
        sage: M = LightningAttention(d=2, t=2, a=2, out=1, entries=[(1, 1)])
        sage: C = common_factor_coordinates(M.essential_parametrization(), M.linear_form_structure())
        sage: y = C.ring.gens(); D, N = C.inverse()
        sage: ideal_membership(C.weight, [D[0]], [y[4] * D[0], N[0] * D[0], N[0]])
        [True, True, False]
    """
    R = gens[0].parent() if gens else (targets[0].parent() if targets else None)
    if not targets:
        return []
    N = R.ngens()
    var_w = [weight(tuple(int(i == v) for i in range(N))) for v in range(N)]
    groups = {}
    for g in gens:
        key = _homogeneous_weight(weight, g)
        if key is None:
            raise ValueError("a generator is not homogeneous for the torus grading")
        groups.setdefault(key, []).append(g)
    wanted = {}
    for idx, h in enumerate(targets):
        key = _homogeneous_weight(weight, h) if h else (0, ())
        if key is None:
            raise ValueError("a target is not homogeneous for the torus grading")
        wanted.setdefault(key, []).append(idx)

    def monomials(r, w):
        return [R.monomial(*(int(c) for c in e)) for e in monomials_of_weight(var_w, r, w)]

    out = [False] * len(targets)
    for (e, w), idxs in wanted.items():
        if not w:
            for i in idxs:
                out[i] = True          # the zero polynomial
            continue
        products = []
        for (dg, wg), gs in groups.items():
            diff = tuple(a - b for a, b in zip(w, wg))
            if dg > e or min(diff) < 0:
                continue
            us = list(monomials(e - dg, diff))
            products += [u * g for u in us for g in gs]
        if not products:
            continue
        index = {}
        for f in products + [targets[i] for i in idxs]:
            for mono in f.monomials():
                index.setdefault(mono, len(index))
        K = R.base_ring()
        M = matrix(K, len(products), len(index), {(r, index[mono]): c for r, f in enumerate(products)
                                                  for c, mono in zip(f.coefficients(), f.monomials())}, sparse=True)
        r0 = M.rank()
        rows = lambda ids: matrix(K, len(ids), len(index), {(r, index[mono]): c for r, i in enumerate(ids) for c, mono
                                                            in zip(targets[i].coefficients(), targets[i].monomials())},
                                  sparse=True)
        if M.stack(rows(idxs)).rank() == r0:
            for i in idxs:
                out[i] = True
            continue
        for i in idxs:
            out[i] = M.stack(rows([i])).rank() == r0
    return out


def nonzerodivisor_check(gens, h):
    r"""
    Return ``(is_nonzerodivisor, basis_size, t_leads)``: whether ``h`` is a nonzerodivisor modulo the ideal of ``gens``.

    The criterion of Bayer and Stillman [BS1987]_: for the homogeneous
    ideal `K = J + (t^2 - h)` of `R[t]` (``h`` a quadric) and the degree
    reverse lexicographic order with `t` last, `t` (so `h`, as `R[t]/K` is
    free over `R/J` with basis `1, t`) is a nonzerodivisor if and only if
    `\mathrm{in}(K) : t = \mathrm{in}(K)`, that is, `m/t \in \mathrm{in}(K)`
    for every leading monomial `m` divisible by `t`. One Gröbner basis, by
    Singular's ``std`` (run it in a forked process under a time limit: it
    cannot be interrupted).

    INPUT:

    - ``gens`` -- homogeneous polynomials over a prime field
    - ``h`` -- a homogeneous quadric of the same ring

    OUTPUT: a boolean, the number of elements of the Gröbner basis, and the
    number of its leading monomials divisible by `t`

    EXAMPLES:

    `x` is a nonzerodivisor modulo `y^2`, not modulo `xy` (and neither is
    the quadric `x^2`)::

        sage: from sage_attention.ideals.ideal_checks import nonzerodivisor_check
        sage: R.<x,y,z> = GF(101)[]
        sage: nonzerodivisor_check([y^2], x^2)[0], nonzerodivisor_check([x*y], x^2)[0]
        (True, False)
    """
    R = h.parent()
    if h.degree() != 2 or not all(g.is_homogeneous() for g in gens) or not h.is_homogeneous():
        raise ValueError("nonzerodivisor_check needs homogeneous generators and a homogeneous quadric")
    names = R.variable_names()
    t = "t" if "t" not in names else "t_" + "_".join(names)
    Rt = PolynomialRing(R.base_ring(), list(names) + [t], order="degrevlex")
    T = Rt.gens()[-1]
    K = Rt.ideal([Rt(g) for g in gens] + [T ** 2 - Rt(h)])
    G = K.groebner_basis("libsingular:std")
    leads = [tuple(g.lm().exponents()[0]) for g in G]
    divides = lambda a, b: all(i <= j for i, j in zip(a, b))
    with_t = [m for m in leads if m[-1]]
    ok = all(any(divides(a, m[:-1] + (m[-1] - 1,)) for a in leads) for m in with_t)
    return ok, len(G), len(with_t)
