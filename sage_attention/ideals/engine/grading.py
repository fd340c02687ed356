r"""
The multigrading of a parametrization

Let `\varphi : K[e_1, \dots, e_n] \to K[w_1, \dots, w_m]` send each
coordinate `e_i` to a polynomial `\varphi(e_i)` whose monomials have exponent
vectors `\alpha_{i,1}, \alpha_{i,2}, \dots \in \ZZ^m`. A weight vector
`u \in \ZZ^m` on the parameters makes every `\varphi(e_i)` homogeneous iff
`u \cdot (\alpha_{i,s} - \alpha_{i,1}) = 0` for all `i, s`: so the gradings
are the integer kernel of the matrix `D` whose rows are these differences.
Choose a basis `u_1, \dots, u_r` of that kernel (the rows of a matrix `B`)
and give `e_i` the degree `B \alpha_{i,1} \in \ZZ^r`. Then `\varphi` is
homogeneous, so its kernel (the vanishing ideal) is homogeneous: every
graded piece of the coordinate ring can be treated on its own.

This is the character lattice of the largest torus acting on the parameters
diagonally and compatibly with `\varphi`; for attention networks it
contains the input scalings (`x_k \mapsto s_k x_k`), the output-row
scalings, and the scalings of the rows of `Q, K` and `V`, but it is computed
from the map itself, not assumed.

EXAMPLES:

For the one-entry slice of width `2` the grading has rank `5`::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.ideals.engine.grading import multigrading
    sage: M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
    sage: G = multigrading(M.essential_parametrization())
    sage: G.rank()
    5
    sage: all(G.is_homogeneous(M.essential_parametrization()(e)) for e in M.essential_ring().gens())
    True
"""
from dataclasses import dataclass

from sage.all__sagemath_singular import matrix, ZZ


@dataclass(frozen=True)
class Multigrading:
    r"""
    A multigrading making a parametrization homogeneous.

    Attributes: ``matrix`` (the integer matrix `B`; its rows are weight
    vectors on the parameters), ``degrees`` (tuple of integer tuples, the
    degree of each coordinate), ``parameter_names``, ``coordinate_names``.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.engine.grading import multigrading
        sage: G = multigrading(LightningAttention(d=2, t=1, a=1).essential_parametrization()); G
        Multigrading of rank 4 on 4 coordinates (4 distinct degrees)
    """
    matrix: object
    degrees: tuple
    parameter_names: tuple
    coordinate_names: tuple

    def rank(self):
        r"""
        Return the rank of the grading group.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.engine.grading import multigrading
            sage: multigrading(LightningAttention(d=2, t=1, a=1).essential_parametrization()).rank()
            4
        """
        return self.matrix.nrows()

    def degree_of_exponent(self, alpha):
        r"""
        Return the degree `B \alpha` of a parameter monomial with exponent vector ``alpha``.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.engine.grading import multigrading
            sage: G = multigrading(LightningAttention(d=2, t=1, a=1).essential_parametrization())
            sage: len(G.degree_of_exponent([0] * 6))
            4
        """
        return tuple(int(c) for c in self.matrix * matrix(ZZ, len(alpha), 1, list(alpha)).column(0))

    def is_homogeneous(self, f):
        r"""
        Return whether the parameter polynomial ``f`` is homogeneous for this grading.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.engine.grading import multigrading
            sage: M = LightningAttention(d=2, t=1, a=1)
            sage: G = multigrading(M.essential_parametrization())
            sage: q11, q12 = M.weight_ring().gens()[:2]
            sage: G.is_homogeneous(q11 * q12), G.is_homogeneous(q11 + q11 * q12)
            (True, False)
        """
        degs = {self.degree_of_exponent(e) for e in f.exponents()}
        return len(degs) <= 1

    def __repr__(self):
        return (f"Multigrading of rank {self.rank()} on {len(self.degrees)} coordinates "
                f"({len(set(self.degrees))} distinct degrees)")

    def to_dict(self):
        r"""
        Return a JSON-ready dictionary.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.engine.grading import multigrading
            sage: sorted(multigrading(LightningAttention(d=2, t=1, a=1).essential_parametrization()).to_dict())
            ['coordinate_names', 'degrees', 'matrix', 'parameter_names']
        """
        return {"matrix": [[int(c) for c in row] for row in self.matrix.rows()],
                "degrees": [list(d) for d in self.degrees],
                "parameter_names": list(self.parameter_names),
                "coordinate_names": list(self.coordinate_names)}


def multigrading(phi):
    r"""
    Return the finest multigrading making the ring map ``phi`` homogeneous.

    INPUT:

    - ``phi`` -- a morphism of polynomial rings (coordinates to parameters),
      e.g. ``model.essential_parametrization()``

    OUTPUT: a :class:`Multigrading`; the rows of its matrix are the Hermite normal form of a
    basis of the integer weight vectors on the parameters for which every
    image ``phi(e)`` is homogeneous, and ``degrees[i]`` is the degree of the
    ``i``-th coordinate.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.engine.grading import multigrading
        sage: M = LightningAttention(d=3, t=1, a=1, out=3)
        sage: G = multigrading(M.essential_parametrization()); G
        Multigrading of rank 7 on 30 coordinates (30 distinct degrees)

    The degree of a coordinate records its output row and its input monomial
    (up to a change of basis of the grading group)::

        sage: E = M.essential_ring(); phi = M.essential_parametrization()
        sage: all(G.is_homogeneous(phi(e)) for e in E.gens())
        True

    TESTS::

        sage: from sage.all__sagemath_singular import QQ, PolynomialRing
        sage: R = PolynomialRing(QQ, 'a,b'); S = PolynomialRing(QQ, 's,t')
        sage: multigrading(R.hom([S.gen(0), S.gen(0) + S.gen(1)**2], S)).degrees
        ((2,), (2,))
        sage: multigrading(R.hom([S(0), S.gen(1)], S))
        Traceback (most recent call last):
        ...
        ValueError: the image of a (=0) is zero; remove the coordinate first
    """
    R = phi.domain()
    S = phi.codomain()
    m = S.ngens()
    images = [phi(x) for x in R.gens()]
    rows = []
    base = []
    for x, f in zip(R.gens(), images):
        if f == 0:
            raise ValueError(f"the image of {x} (=0) is zero; remove the coordinate first")
        exps = [tuple(e) for e in f.exponents()]
        base.append(exps[0])
        for e in exps[1:]:
            rows.append([e[j] - exps[0][j] for j in range(m)])
    D = matrix(ZZ, len(rows), m, rows) if rows else matrix(ZZ, 0, m)
    B = D.right_kernel_matrix()
    if B.nrows():
        B = B.echelon_form()
    degrees = tuple(tuple(int(c) for c in B * matrix(ZZ, m, 1, list(b)).column(0)) for b in base)
    return Multigrading(B, degrees, tuple(str(v) for v in S.gens()), tuple(str(v) for v in R.gens()))


def linear_blocks(images, n):
    r"""
    Return blocks of parameters in which every monomial of ``images`` has degree exactly one.

    Two parameters are in one class when they replace each other in a
    monomial (``x m`` and ``y m`` both occur); the candidates are grown
    greedily from each class by the classes that share no monomial with
    those taken, and only those of degree one in every monomial are kept.
    These are candidates (of a Segre product,
    :mod:`sage_attention.ideals.proofs.segre`, or a matrix product,
    :mod:`sage_attention.ideals.proofs.inheritance`): what uses one checks it.

    INPUT:

    - ``images`` -- polynomials in one ring (the images of the coordinates)
    - ``n`` -- the number of variables of that ring

    OUTPUT: a list of tuples of variable indices

    EXAMPLES:

    The one-entry slice of rank two is linear in the query and in the
    values, and also in the second row of the query with the first of the
    keys (every monomial has one ``q_{1j} k_{1l}`` or one ``q_{2j} k_{2l}``)::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.engine.grading import linear_blocks
        sage: phi = LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)]).essential_parametrization()
        sage: P = phi.codomain()
        sage: for B in linear_blocks([phi(y) for y in phi.domain().gens()], P.ngens()):
        ....:     print([P.gen(j) for j in B])
        [q11, q12, q13, q21, q22, q23]
        [q21, q22, q23, k11, k12, k13]
        [q11, q12, q13, k21, k22, k23]
        [v11, v12, v13]
    """
    mons = {tuple(e) for f in images for e in f.exponents()}
    root = list(range(n))

    def find(j):
        while root[j] != j:
            root[j] = root[root[j]]
            j = root[j]
        return j
    context = {}
    for e in mons:
        for j, c in enumerate(e):
            if c == 1:
                key = e[:j] + (0,) + e[j + 1:]
                if key in context:
                    root[find(j)] = find(context[key])
                else:
                    context[key] = j
    classes = {}
    for j in range(n):
        classes.setdefault(find(j), []).append(j)
    keys = sorted(classes, key=lambda r: min(classes[r]))
    meets = {r: set() for r in keys}
    for e in mons:
        rs = {find(j) for j, c in enumerate(e) if c}
        for r in rs:
            meets[r] |= rs
    out = []
    for r0 in keys:
        taken = [r0]
        for r in keys:
            if r not in taken and not any(r in meets[t] for t in taken):
                taken.append(r)
        B = tuple(sorted(j for r in taken for j in classes[r]))
        if B not in out and all(sum(e[j] for j in B) == 1 for e in mons):
            out.append(B)
    return out
