r"""
The shape data of a localization: the lex basis of `J K[w]` over the rational functions `K = \GF{p}(z)` of an independent set.

For a homogeneous ideal `J \subseteq S = \GF{p}[z, w]` with `z` a maximal
independent set, the reduced lex Gröbner basis of `J K[w]` is, when `J` is
prime and after a generic linear change of the last variable `u`, in shape
position `\{w_i - r_i(u), m(u)\}` (the shape lemma). The proof by
localization (:mod:`sage_attention.ideals.proofs.localization`) clears its
denominators and checks everything exactly; nothing there rests on how the
basis was found here. Two routes compute it, chosen by the cost only
(:func:`by_block_order`):

- over `K` itself, by Singular over a rational function field
  (:func:`lex_basis_over_fractions`);
- from a Gröbner basis over `\GF{p}` for a block order, lex in `w` before
  degrevlex in `z`, with no arithmetic of rational functions
  (:func:`lex_basis_by_block_order`).

And the lowest degrees first: the basis of a few generators of low degree is
often far cheaper and, when its data pass the checks, the same
(:func:`generator_sets`).

REFERENCES: [GTZ1988]_.
"""
from sage.rings.polynomial.polynomial_ring_constructor import PolynomialRing
from sage.misc.misc_c import prod


def zero_dimensional_at(gens, z, values):
    r"""
    Return whether ``gens`` with the variables ``z`` set to ``values`` define finitely many points.

    A test at one random point, used only to choose the generators the lex
    basis is computed from (a subset whose lex basis over `\GF{p}(z)` is
    not zero-dimensional would cost much and give nothing).

    INPUT:

    - ``gens`` -- a nonempty list of polynomials of a ring `S` over a field
    - ``z`` -- a list of variables of `S`
    - ``values`` -- a list of elements of the field, one for each of ``z``

    OUTPUT: a boolean

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.shape_basis import zero_dimensional_at
        sage: R.<x,y,z,w> = GF(32003)[]
        sage: cubic = [x*z - y^2, y*w - z^2, x*w - y*z]
        sage: zero_dimensional_at(cubic, [x, w], [2, 3]), zero_dimensional_at(cubic[:1], [x, w], [2, 3])
        (True, False)
    """
    S = gens[0].parent()
    w = [x for x in S.gens() if x not in set(z)]
    if not w:
        return True
    W = PolynomialRing(S.base_ring(), len(w), [str(x) for x in w])
    point = dict(zip(z, values))
    images = [W(point[x]) if x in point else W.gen(w.index(x)) for x in S.gens()]
    to_W = S.hom(images, W)
    return W.ideal([to_W(g) for g in gens]).dimension() == 0


def generator_sets(J, z, rng):
    r"""
    Return the lists of generators of ``J`` to find the data from: those of degree at most `b`, for increasing `b`.

    A proper subset is kept only when it is zero-dimensional at a random
    value of `z` (:func:`zero_dimensional_at`); the last list is every
    generator. The lex basis of a few low-degree generators over
    `\GF{p}(z)` is often much cheaper than that of all of them (on the
    `d = 3` slices of rank `3`: 0.04 s from the 20 cubics, 0.8 s from all 110
    generators), and it is the same basis whenever its data pass checks (a)
    and (b): then they define the maximal ideal `M \subseteq J K[w]`, and
    `J K[w] = M`.

    INPUT:

    - ``J`` -- an ideal over a prime field `\GF{p}`
    - ``z`` -- a list of variables (an independent set)
    - ``rng`` -- a Python ``random.Random`` (the test points)

    OUTPUT: a list of lists of generators, the last one all of them

    EXAMPLES:

    The quadrics of the twisted cubic already define finitely many points
    over `\GF{p}(x, w)`; a cubic added to them makes two lists::

        sage: import random
        sage: from sage_attention.ideals.proofs.shape_basis import generator_sets
        sage: R.<x,y,z,w> = GF(32003)[]
        sage: J = R.ideal([x*z - y^2, y*w - z^2, x*w - y*z, y^3 - x^2*z])
        sage: [len(g) for g in generator_sets(J, [x, w], random.Random(int(0)))]
        [3, 4]
    """
    gens = [g for g in J.gens() if g]
    degrees = sorted({g.degree() for g in gens})
    p = int(J.ring().characteristic())
    sets = []
    for b in degrees[:-1]:
        sub = [g for g in gens if g.degree() <= b]
        if zero_dimensional_at(sub, z, [rng.randrange(1, p) for _ in z]):
            sets.append(sub)
    return sets + [gens]


def lex_ring(S, z):
    r"""
    Return `K[w]` in lex order, `K = \GF{p}(z)`, for the variables ``z`` of ``S`` and the others `w` (in their order in ``S``).

    The names are those of ``S``: the functions below map by name.

    INPUT:

    - ``S`` -- a polynomial ring over `\GF{p}`
    - ``z`` -- a list of variables of ``S``

    OUTPUT: a polynomial ring over a fraction field (multivariate, even for
    one variable)

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.shape_basis import lex_ring
        sage: R.<x,y,z,w> = GF(32003)[]
        sage: lex_ring(R, (x, w))
        Multivariate Polynomial Ring in y, z over Fraction Field of Multivariate
        Polynomial Ring in x, w over Finite Field of size 32003
    """
    zset = set(z)
    K = PolynomialRing(S.base_ring(), [str(x) for x in z]).fraction_field()
    w = [str(x) for x in S.gens() if x not in zset]
    return PolynomialRing(K, len(w), w, order="lex")


def _images(S, T):
    # the images in T of the variables of S: those of K[w] and of K, by name
    K = T.base_ring()
    names = {str(x): T(x) for x in T.gens()}
    names.update({str(x): T(x) for x in K.gens()})
    return [names[str(x)] for x in S.gens()]


def lex_basis_over_fractions(gens, T):
    r"""
    Return the reduced lex Gröbner basis of the ideal of ``gens`` in `T = K[w]`, `K = \GF{p}(z)`, computed over `K`.

    Singular computes over the rational function field: cheap when the
    independent variables are few compared with the dependent ones (on the
    `d = 3` slices, 10 of 18 variables: 0.09 s from the cubics), dear when
    the coefficients are rational functions in many variables (on the single
    tokens of width `3` and rank `2` and `3`, 8 of 10 variables: 6 to 7 s).

    INPUT:

    - ``gens`` -- a nonempty list of polynomials of a ring `S` over `\GF{p}`
    - ``T`` -- the ring `K[w]` of :func:`lex_ring`

    OUTPUT: a list of elements of ``T``

    EXAMPLES: see :func:`lex_basis_by_block_order`.
    """
    S = gens[0].parent()
    to_T = S.hom(_images(S, T), T)
    return list(T.ideal([to_T(g) for g in gens]).groebner_basis("libsingular:std"))


def _renamed(polys, B):
    r"""
    Return the polynomials ``polys`` in the ring ``B``, each variable sent to the variable of ``B`` of the same name.

    By their exponent dictionaries (a ring map is several times slower on
    large polynomials). The names of the variables of ``polys`` must be
    among those of ``B``.
    """
    if not polys:
        return []
    names = [str(x) for x in polys[0].parent().gens()]
    where = {str(x): i for i, x in enumerate(B.gens())}
    perm = [where[x] for x in names]
    n = B.ngens()
    out = []
    for g in polys:
        d = {}
        for e, c in g.dict().items():
            e = (e,) if len(names) == 1 else e
            img = [0] * n
            for i, a in enumerate(e):
                if a:
                    img[perm[i]] = a
            d[tuple(img)] = c
        out.append(B(d))
    return out


def lex_basis_by_block_order(gens, T):
    r"""
    Return the reduced lex Gröbner basis of the ideal of ``gens`` in `T = K[w]`, from a Gröbner basis over `\GF{p}`, or ``None``.

    A Gröbner basis `G` of the ideal in `\GF{p}[w, z]` for the block order
    (lex in `w`) `>` (degrevlex in `z`) is a Gröbner basis of its extension
    `J K[w]` for lex, each element read with its coefficients in
    `\GF{p}[z]`. (The block order compares the `w`-parts first, so the
    leading monomial over `K` of `g \in G` is the `w`-part of its leading
    monomial. For `h \in J K[w]` some `c \in \GF{p}[z]` has `c h \in J`,
    so the leading monomial of `c h`, the `w`-part of `h`'s times a monomial
    in `z`, is divisible by that of some `g`.) Nothing below rests on this:
    the data are checked. So when the minimal exponents in `w` of the
    leading monomials are those of a shape basis, `w_1, \dots, w_{s-1},
    u^\delta`, one element for each of them generates `J K[w]`, with
    pairwise coprime leading monomials; reduced by the others over `K` and
    made monic, they are the reduced lex basis. ``None`` when the exponents
    are not those of a shape basis (then `J K[w]` is not in shape position).

    No arithmetic with rational functions in the Gröbner basis: on the
    single tokens of width `3` (8 independent variables of 10) it takes 0.01
    to 0.13 s, against 0.2 to 6.8 s over `K`; on the slices (10 of 18 or 30
    of 40 variables) it is dearer (0.9 to 1.8 s against 0.1 s).

    INPUT: as for :func:`lex_basis_over_fractions`

    OUTPUT: a list of elements of ``T``, or ``None``

    EXAMPLES:

    The twisted cubic over `K = \GF{p}(x, w)`: the same basis as over the
    fractions; the union of two planes is not in shape position::

        sage: from sage_attention.ideals.proofs.shape_basis import (lex_ring, lex_basis_by_block_order,
        ....:                                                 lex_basis_over_fractions)
        sage: R.<x,y,z,w> = GF(32003)[]
        sage: T = lex_ring(R, (x, w))
        sage: cubic = [x*z - y^2, y*w - z^2, x*w - y*z]
        sage: lex_basis_by_block_order(cubic, T)
        [y - 1/w*z^2, z^3 + (-x*w^2)]
        sage: lex_basis_over_fractions(cubic, T)
        [y - 1/w*z^2, z^3 + (-x*w^2)]
        sage: lex_basis_by_block_order([x*y, x*w, z*y, z*w], T) is None
        True
    """
    from sage.rings.polynomial.term_order import TermOrder
    S = gens[0].parent()
    K = T.base_ring()
    s, z = T.ngens(), K.gens()
    B = PolynomialRing(S.base_ring(), [str(x) for x in T.gens()] + [str(x) for x in z],
                       order=TermOrder("lex", s) + TermOrder("degrevlex", len(z)))
    G = B.ideal(_renamed(gens, B)).groebner_basis()
    chosen = {}
    for g in G:
        e = tuple(g.lm().exponents()[0][:s])
        if e not in chosen or g.degree() < chosen[e].degree():
            chosen[e] = g
    minimal = [e for e in chosen if not any(o != e and all(a <= b for a, b in zip(o, e)) for o in chosen)]
    units = {tuple(int(i == j) for j in range(s)) for i in range(s - 1)}
    last = [e for e in minimal if e not in units]
    if len(minimal) != s or not units <= set(minimal) or len(last) != 1 or any(last[0][:-1]):
        return None
    to_T = B.hom(list(T.gens()) + [T(x) for x in z], T)
    picked = [to_T(chosen[e]) for e in sorted(units, reverse=True)] + [to_T(chosen[last[0]])]
    basis = []
    for i, g in enumerate(picked):
        g = g.reduce(picked[:i] + picked[i + 1:])
        basis.append(g * g.lc().inverse_of_unit())
    return basis


def by_block_order(z, w):
    r"""
    Return whether the lex basis is found by :func:`lex_basis_by_block_order` (else :func:`lex_basis_over_fractions`).

    The rule chooses the cost, never what is proved: the block order when
    the dependent variables ``w`` are fewer than half of the independent
    ones ``z`` (the single tokens: 2 or 3 of 10 variables; the slices,
    with 8 of 18 or 30 of 40, keep the fractions). The times are in the
    documentation of the two functions.

    INPUT:

    - ``z``, ``w`` -- lists of variables

    OUTPUT: a boolean

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.shape_basis import by_block_order
        sage: R = GF(7)['y0,y1,y2,y3,y4,y5,y6,y7,y8,y9']; y = R.gens()
        sage: by_block_order(y[:8], y[8:]), by_block_order(y[:4], y[4:])
        (True, False)
    """
    return 2 * len(w) < len(z)


def shape_data(J, z, gens=None):
    r"""
    Find ``(u, cleared, f, delta)`` from the lex basis of `J K[w]`, or ``(None, reason)``.

    The lex basis is that of the ideal of ``gens`` (default: the generators
    of ``J``) over `K = \GF{p}(z)`, computed by
    :func:`lex_basis_by_block_order` or :func:`lex_basis_over_fractions`
    (:func:`by_block_order` chooses). ``cleared`` are `f (w_i - r_i(u))`
    and, last, `f m(u)`, in `S`; ``f`` is the least common multiple of the
    denominators, in `\GF{p}[z] \subseteq S`, and ``delta`` the degree of
    `m`. The proof (:mod:`sage_attention.ideals.proofs.localization`) checks them.

    INPUT:

    - ``J`` -- a homogeneous ideal of `S` over `\GF{p}`
    - ``z`` -- a tuple of variables of `S` (a maximal independent set)
    - ``gens`` -- (default: the generators of ``J``) polynomials of ``J``

    OUTPUT: ``((u, cleared, f, delta), None)``, or ``(None, reason)``

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.shape_basis import shape_data
        sage: R.<x,y,z,w> = GF(32003)[]
        sage: J = R.ideal([x*z - y^2, y*w - z^2, x*w - y*z])
        sage: shape_data(J, (x, w))
        ((z, (-z^2 + y*w, z^3*w - x*w^3), w, 3), None)
        sage: shape_data(R.ideal([x*y, x*w, z*y, z*w]), (x, w))
        (None, 'the lex basis over the independent variables is not in shape position')
    """
    S = J.ring()
    zset = set(z)
    w = [x for x in S.gens() if x not in zset]
    T = lex_ring(S, z)
    K = T.base_ring()
    Pz = K.ring()
    gens = [g for g in (J.gens() if gens is None else gens) if g]
    if by_block_order(z, w):
        GT = lex_basis_by_block_order(gens, T)
    else:
        GT = lex_basis_over_fractions(gens, T)
    u = T.gens()[-1]
    if GT is None or len(GT) != len(w):
        return None, "the lex basis over the independent variables is not in shape position"
    by_lead = {}
    for g in GT:
        by_lead[g.lm()] = g
    m = [g for g in GT if g.variables() == (u,)]
    if len(m) != 1 or any(x not in by_lead or set(by_lead[x].variables()) - {x, u} or by_lead[x].degree(x) != 1
                          for x in T.gens()[:-1]):
        return None, "the lex basis over the independent variables is not in shape position"
    m = m[0]
    f = Pz.one()
    for den in sorted({Pz(c.denominator()) for g in GT for c in g.coefficients()}):
        f = f.lcm(den)
    f = f * f.lc().inverse_of_unit()        # monic: the same f whatever the order of the lcms

    def clear(g):
        # f * g, with coefficients in GF(p)[z], as an element of S (each coefficient sent by name)
        out = S.zero()
        for c, mon in zip(g.coefficients(), g.monomials()):
            q, r = f.quo_rem(Pz(c.denominator()))
            if r:
                raise ValueError("the denominator does not clear the lex basis")
            out += _renamed([q * Pz(c.numerator())], S)[0] * prod(S(str(x)) ** mon.degree(x) for x in T.gens())
        return out

    ordered = [by_lead[x] for x in T.gens()[:-1]] + [m]
    cleared = tuple(clear(g) for g in ordered)
    return (w[-1], cleared, _renamed([f], S)[0], int(m.degree())), None
