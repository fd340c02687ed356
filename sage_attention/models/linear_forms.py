r"""
Coordinates that are the coefficients of a polynomial in linear forms

Some neurovarieties are varieties of forms: the coordinates are the
coefficients of homogeneous forms `F_o(x)` in `n` input features, and the
network computes

.. MATH::

    F_o(x) = P_o(\ell_1(x), \dots, \ell_m(x)), \qquad \ell_j(x) = \sum_{i=1}^{n} w_{ji} x_i,

for polynomials `P_o` in `m` variables (whose coefficients may be other
weights) and an `m \times n` matrix `W` of free weights. A single lightning token with one output entry is such a
form (:ref:`mathematics, §2 <math-2>`): `F(x) = (v \cdot x) \sum_{r=1}^{a}
(k_r \cdot x)(q_r \cdot x)`, with `m = 2a + 1` linear forms, the value row
`v` and the rows of `K` and `Q`.

The variety is then stable under every linear substitution of the
features (`x \mapsto g x` replaces `W` by `W g`), and each of its forms
involves at most `m` linear forms. The whole-ideal proof of
:mod:`sage_attention.ideals.proofs.subspace` rests on that; it re-checks the
structure exactly (:func:`~sage_attention.ideals.proofs.form_coordinates.structure_holds`),
so a model that gives wrong data gets no proof.

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: L = LightningAttention(d=4, t=1, a=1).linear_form_structure(); L
    Cubic form in 4 features x11, x21, x31, x41: P(l_1, l_2, l_3) = s0*s1*s2, l_1 = (v11, v12, v13, v14), ...
    sage: L.nfeatures, L.nforms
    (4, 3)

A one-entry slice is a tuple of quadrics in the features of a context token,
`(v \cdot x) \sum_r q_{rc} (k_r \cdot x)` for `c = 1, \dots, d`: the
query's entries are coefficients of the `P_c`, and there are `a + 1` linear
forms; two output entries are none::

    sage: LightningAttention(d=4, t=2, a=2, out=1, entries=[(1, 1)]).linear_form_structure()
    4 quadratic forms in 4 features x12, x22, x32, x42: P(l_1, l_2, l_3) = (s0*s1*q11 + s0*s2*q21, ...), l_1 = (v11, v12, v13, v14), ...
    sage: LightningAttention(d=3, t=2, a=1, out=1).linear_form_structure() is None
    True
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class LinearFormStructure:
    r"""
    The coordinates as the coefficients of forms `P_o(\ell_1(x), \dots, \ell_m(x))`.

    Made by a model's ``linear_form_structure()``. A tuple of forms `F_o`,
    `o = 0, 1, \dots`, each `F_o = P_o(\ell_1(x), \dots, \ell_m(x))` of
    degree `e_o` in the `n` features, with the same free linear forms
    `\ell_j(x) = \sum_i w_{ji} x_i`; the polynomials `P_o` may have other
    weights as coefficients (``extra``: substitutions of the features do not
    act on them). Attributes:

    - ``features`` -- the names of the `n` variables `x_i` of the forms
    - ``coordinates`` -- the names of the coordinates, those of the
      generators of the model's essential ring in order
    - ``monomials`` -- for each coordinate ``(o, exponents, scale)``: the
      coefficient of `x^\alpha` (``exponents`` `= \alpha`) in `F_o` is
      ``scale`` times the coordinate
    - ``linear_forms`` -- `m` tuples of weight names, the `j`-th the
      coefficients `(w_{j1}, \dots, w_{jn})` of `\ell_j`
    - ``outer`` -- the polynomials `P_o`, in a ring whose first `m`
      variables `s_0, \dots, s_{m-1}` stand for the linear forms and whose
      others are the ``extra`` weights; `P_o` is homogeneous of degree `e_o`
      in the `s`
    - ``extra`` -- the names of the other weights in the `P_o`

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: L = LightningAttention(d=3, t=1, a=2).linear_form_structure()
        sage: L.outer, L.linear_forms[3]
        ((s0*s1*s3 + s0*s2*s4,), ('k11', 'k12', 'k13'))
        sage: L.monomials[:2]
        ((0, (3, 0, 0), 1), (0, (2, 1, 0), 1))

    A one-entry slice is the tuple of the `d` quadrics `(v \cdot x) \sum_r
    q_{rc} (k_r \cdot x)`, `c = 1, \dots, d`, in the features of the
    second token, with the query's entries as coefficients::

        sage: S = LightningAttention(d=3, t=2, a=1, out=1, entries=[(1, 1)]).linear_form_structure()
        sage: S.features, S.outer[2], S.extra
        (('x12', 'x22', 'x32'), s0*s1*q13, ('q11', 'q12', 'q13'))
    """
    features: tuple
    coordinates: tuple
    monomials: tuple
    linear_forms: tuple
    outer: tuple
    extra: tuple = ()

    @property
    def nfeatures(self):
        r"""The number `n` of features (variables of the forms)."""
        return len(self.features)

    @property
    def nforms(self):
        r"""The number `m` of linear forms."""
        return len(self.linear_forms)

    def degrees(self):
        r"""
        Return the degrees `e_o` of the forms, from the monomials.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=3, t=1, a=1).linear_form_structure().degrees()
            (3,)
        """
        found = {}
        for o, a, _ in self.monomials:
            found.setdefault(o, sum(a))
        return tuple(found[o] for o in range(len(self.outer)))

    def restricted(self, names):
        r"""
        Return the structure of the coordinates ``names`` only (the forms of which they are coefficients).

        The forms met are renumbered in order; ``None`` when ``names`` are
        not coordinates of this structure.

        EXAMPLES:

        The first two quadrics of a slice of width `3`::

            sage: from sage_attention import LightningAttention
            sage: S = LightningAttention(d=3, t=2, a=1, out=1, entries=[(1, 1)]).linear_form_structure()
            sage: T = S.restricted([y for y, (o, _, _) in zip(S.coordinates, S.monomials) if o < 2])
            sage: len(T.coordinates), T.outer
            (12, (s0*s1*q11, s0*s1*q12))
        """
        where = dict(zip(self.coordinates, self.monomials))
        if any(y not in where for y in names):
            return None
        kept = sorted({where[y][0] for y in names})
        new = {o: i for i, o in enumerate(kept)}
        monomials = tuple((new[where[y][0]],) + tuple(where[y][1:]) for y in names)
        return LinearFormStructure(self.features, tuple(names), monomials, self.linear_forms,
                                   tuple(self.outer[o] for o in kept), self.extra)

    def __repr__(self):
        kinds = {2: "quadratic", 3: "cubic", 4: "quartic"}
        degrees = sorted(set(self.degrees()))
        what = "/".join(kinds.get(e, f"degree-{e}") for e in degrees)
        count = len(self.outer)
        forms = f"{count} {what} forms" if count > 1 else f"{what.capitalize()} form"
        s = ", ".join(f"l_{j + 1}" for j in range(self.nforms))
        P = self.outer[0] if count == 1 else f"({self.outer[0]}, ...)"
        features = "feature" if self.nfeatures == 1 else "features"
        return (f"{forms} in {self.nfeatures} {features} {', '.join(self.features)}: P({s}) = {P}, "
                f"l_1 = ({', '.join(self.linear_forms[0])}), ...")
