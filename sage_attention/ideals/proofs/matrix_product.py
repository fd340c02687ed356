r"""
A parametrization as a matrix product `F(p) \cdot C`: the factorization, found and checked exactly

The proof by inheritance (:mod:`sage_attention.ideals.proofs.inheritance`,
whose documentation states the conditions and the theorem) rests on writing
the coordinates as the entries of `F(p) \cdot C`, an `m \times a` matrix of
polynomials times an `a \times s` matrix of free parameters.
:func:`matrix_factorization` finds it (and checks every equation exactly);
:func:`columns_structure` gives the variety `X'` of the first `a` columns,
and its structure of forms in fewer linear forms when it has one.

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.ideals.proofs.matrix_product import matrix_factorization
    sage: M = LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)])
    sage: F = matrix_factorization(M.essential_parametrization()); F.shape, F.check()
    ((6, 2, 3), True)
"""
from collections import Counter
from dataclasses import dataclass

from sage.matrix.constructor import matrix
from sage.rings.polynomial.polynomial_ring_constructor import PolynomialRing

from sage_attention.ideals.engine.grading import linear_blocks
from sage_attention.ideals.proofs.form_coordinates import base_map, structure_holds
from sage_attention.ideals.proofs.protocol import OverLimit
from sage_attention.settings import settings


@dataclass(frozen=True)
class MatrixFactorization:
    r"""
    A parametrization written as the matrix product `F(p) \cdot C`.

    Made by :func:`matrix_factorization`. Attributes: ``columns`` (the
    parameters of `C`, ``columns[l][i]`` `= c_{il}`), ``groups`` (the
    indices of the coordinates, ``groups[l][w]`` for `y_{wl}`),
    ``factor`` (the `m \times a` polynomials `F_{wi}`, ``factor[w][i]``),
    ``parametrization`` (the map it factors).
    """
    columns: tuple
    groups: tuple
    factor: tuple
    parametrization: object

    @property
    def rank(self):
        r"""The number `a` of rows of `C` (the rank bound)."""
        return len(self.columns[0])

    @property
    def shape(self):
        r"""``(m, a, s)``: `F` is `m \times a` and `C` is `a \times s`."""
        return len(self.factor), self.rank, len(self.columns)

    def coordinate_matrix(self):
        r"""
        Return the `m \times s` matrix `T = (y_{wl})` of the coordinates.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.proofs.matrix_product import matrix_factorization
            sage: M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
            sage: matrix_factorization(M.essential_parametrization()).coordinate_matrix()
            [Y11_x11x12x12 Y11_x12x12x21]
            [Y11_x11x12x22 Y11_x12x21x22]
            [Y11_x11x22x22 Y11_x21x22x22]
        """
        E = self.parametrization.domain()
        m, _, s = self.shape
        return matrix(E, m, s, lambda w, l: E.gen(self.groups[l][w]))

    def sub_map(self):
        r"""
        Return ``(iota, phi')``: the parametrization of `X'` (the first `a` groups) and its ring's inclusion.

        ``phi'`` maps `k[y_{wl} : l \le a]` (the coordinates in the order of
        the domain of the parametrization) to the parameters; ``iota`` maps
        that ring into the domain.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.proofs.matrix_product import matrix_factorization
            sage: M = LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)])
            sage: iota, phi1 = matrix_factorization(M.essential_parametrization()).sub_map()
            sage: phi1.domain().ngens(), iota.codomain().ngens()
            (12, 18)
        """
        phi = self.parametrization
        E = phi.domain()
        keep = sorted(i for l in range(self.rank) for i in self.groups[l])
        E1 = PolynomialRing(E.base_ring(), [str(E.gen(i)) for i in keep], order=E.term_order())
        return E1.hom([E.gen(i) for i in keep], E), E1.hom([phi(E.gen(i)) for i in keep], phi.codomain())

    def check(self):
        r"""
        Return whether `\varphi(y_{wl}) = \sum_i F_{wi} c_{il}` holds exactly for every coordinate.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.proofs.matrix_product import matrix_factorization
            sage: M = LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)])
            sage: matrix_factorization(M.essential_parametrization()).check()
            True
        """
        phi = self.parametrization
        E, P = phi.domain(), phi.codomain()
        m, a, s = self.shape
        idx = sorted(i for g in self.groups for i in g)
        if idx != list(range(E.ngens())) or any(len(g) != m for g in self.groups) or \
                any(len(c) != a for c in self.columns) or s <= a:
            return False
        block = {c for col in self.columns for c in col}
        if any(v in block for row in self.factor for f in row for v in P(f).variables()):
            return False
        return all(phi(E.gen(self.groups[l][w])) == sum(self.factor[w][i] * self.columns[l][i] for i in range(a))
                   for l in range(s) for w in range(m))

    def __repr__(self):
        m, a, s = self.shape
        C = "; ".join(", ".join(str(self.columns[l][i]) for l in range(s)) for i in range(a))
        return f"Matrix factorization F(p) * C: {m} x {a} times {a} x {s}, C = [{C}]"


def _columns(images, B):
    r"""
    The classes of ``B`` (parameter indices) under "occur in one image", and the class of each image.
    """
    root = {j: j for j in B}

    def find(j):
        while root[j] != j:
            root[j] = root[root[j]]
            j = root[j]
        return j
    used = []
    for f in images:
        js = sorted({j for e in f.exponents() for j in B if e[j]})
        used.append(js)
        for j in js[1:]:
            root[find(j)] = find(js[0])
    classes = {}
    for j in B:
        classes.setdefault(find(j), []).append(j)
    order = sorted(classes, key=lambda r: min(classes[r]))
    label = {r: l for l, r in enumerate(order)}
    return [classes[r] for r in order], [label[find(js[0])] for js in used]


def matrix_factorization(phi):
    r"""
    Return the factorization of ``phi`` as a matrix product `F(p) \cdot C` with `s > a`, or ``None``.

    See the module documentation for the conditions (checked exactly).

    INPUT:

    - ``phi`` -- a morphism of polynomial rings from the coordinates to the
      parameters (e.g. ``model.essential_parametrization()``)

    OUTPUT: a :class:`MatrixFactorization` or ``None``

    EXAMPLES:

    The slice of width `4` and rank `2`: four groups of ten coordinates,
    the quadrics in `v, k` times the two entries of a column of the query::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.proofs.matrix_product import matrix_factorization
        sage: M = LightningAttention(d=4, t=2, a=2, out=1, entries=[(1, 1)])
        sage: F = matrix_factorization(M.essential_parametrization()); F.shape
        (10, 2, 4)
        sage: F.factor[0]
        (k11*v11, k21*v11)
    """
    E, P = phi.domain(), phi.codomain()
    images = [phi(y) for y in E.gens()]
    if not images or any(not f for f in images):
        return None
    params = P.gens()
    for B in linear_blocks(images, len(params)):
        cols, where = _columns(images, B)
        s, a = len(cols), len(cols[0])
        if s <= a or any(len(c) != a for c in cols) or len(images) % s:
            continue
        groups = [[i for i, l in enumerate(where) if l == c] for c in range(s)]
        m = len(images) // s
        if any(len(g) != m for g in groups):
            continue
        coeff = {(i, j): images[i].derivative(params[j]) for l in range(s) for i in groups[l] for j in cols[l]}

        def var_key(l, j):
            return tuple(sorted(Counter(str(coeff[i, j]) for i in groups[l]).items()))
        keys0 = {var_key(0, j): n for n, j in enumerate(cols[0])}
        if len(keys0) != a:
            continue
        ordered_cols, ordered_groups, factor = [], [], None
        for l in range(s):
            match = {}
            for j in cols[l]:
                n = keys0.get(var_key(l, j))
                if n is None or n in match:
                    break
                match[n] = j
            if len(match) != a:
                break
            col = [match[n] for n in range(a)]
            rows = {}
            for i in groups[l]:
                rows.setdefault(tuple(str(coeff[i, j]) for j in col), []).append(i)
            if any(len(v) != 1 for v in rows.values()):
                break
            if l == 0:
                order = sorted(rows)
                factor = tuple(tuple(coeff[rows[key][0], j] for j in col) for key in order)
            elif set(rows) != set(order):
                break
            ordered_cols.append(tuple(params[j] for j in col))
            ordered_groups.append(tuple(rows[key][0] for key in order))
        else:
            F = MatrixFactorization(tuple(ordered_cols), tuple(ordered_groups), factor, phi)
            if F.check():
                return F
    return None


def columns_structure(F, structure):
    r"""
    Return ``(psi, L)``: the map of `X'`, the variety of the first columns of ``F``, and its structure of forms in fewer linear forms, or ``None``.

    ``L`` is ``structure`` (of the whole parametrization) restricted to the
    coordinates of `X'`, when that is a variety of forms in fewer linear
    forms than features and the restriction holds exactly
    (:func:`~sage_attention.ideals.proofs.form_coordinates.structure_holds`); then the
    ideal of `X'` is inherited from fewer features
    (:mod:`sage_attention.ideals.proofs.subspace`).

    INPUT:

    - ``F`` -- a :class:`MatrixFactorization`
    - ``structure`` -- a
      :class:`~sage_attention.models.linear_forms.LinearFormStructure` of
      the parametrization, or ``None``

    EXAMPLES:

    The pairs of quadrics in `5` features with a common linear factor, in `3`
    linear forms; the triples of quaternary quadrics are in `4`, as many as
    their features::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.proofs.matrix_product import columns_structure, matrix_factorization
        sage: for d, a in [(5, 2), (4, 3)]:
        ....:     M = LightningAttention(d=d, t=2, a=a, out=1, entries=[(1, 1)])
        ....:     F = matrix_factorization(M.essential_parametrization())
        ....:     psi, L = columns_structure(F, M.linear_form_structure())
        ....:     print(psi.domain().ngens(), None if L is None else (L.nfeatures, L.nforms))
        30 (5, 3)
        30 None
    """
    psi = F.sub_map()[1]
    L = structure.restricted(psi.domain().variable_names()) if structure is not None else None
    if L is None or L.nfeatures <= L.nforms or not structure_holds(psi, L):
        return psi, None
    return psi, L


def inherited_coordinates(G, L):
    r"""
    Return the number of coordinates of the variety that the proof by inheritance of the matrix product ``G`` rests on.

    That is the variety `X'` of its first columns, or, when `X'` is a
    variety of forms in fewer linear forms than features
    (:func:`columns_structure` of ``L``, the model's structure), the
    variety of fewer features it is inherited from
    (:func:`~sage_attention.ideals.proofs.form_coordinates.base_map`).

    INPUT:

    - ``G`` -- a :class:`MatrixFactorization`
    - ``L`` -- the model's :class:`~sage_attention.models.linear_forms.LinearFormStructure`, or ``None``

    OUTPUT: an integer

    EXAMPLES:

    The pairs of quadrics in `5` features with a common linear factor (`30`
    coordinates) rest on the pairs of ternary quadrics (`12`); the triples
    of quaternary quadrics (`30`) on themselves::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.proofs.matrix_product import inherited_coordinates, matrix_factorization
        sage: for d, a in [(5, 2), (4, 3)]:
        ....:     M = LightningAttention(d=d, t=2, a=a, out=1, entries=[(1, 1)])
        ....:     G = matrix_factorization(M.essential_parametrization())
        ....:     print(G.shape[0] * G.rank, inherited_coordinates(G, M.linear_form_structure()))
        30 12
        30 30
    """
    psi, Lr = columns_structure(G, L)
    return psi.domain().ngens() if Lr is None else base_map(Lr).domain().ngens()


def over_sub_coordinates_limit(problem):
    r"""
    Return ``None``, or the reason why the default proof (``prove=None``) does not try the proof by inheritance of ``problem``.

    That is when the variety it rests on (:func:`inherited_coordinates`)
    has more than ``settings.PROOF_SUB_COORDINATES_LIMIT`` coordinates (an
    :class:`~sage_attention.ideals.proofs.protocol.OverLimit`, naming the
    coordinates of `X'`).

    INPUT:

    - ``problem`` -- a :class:`~sage_attention.ideals.proofs.problem.ProofProblem`

    OUTPUT: ``None`` or an :class:`~sage_attention.ideals.proofs.protocol.OverLimit`

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.proofs.problem import ProofProblem
        sage: from sage_attention.ideals.proofs.matrix_product import over_sub_coordinates_limit
        sage: M = LightningAttention(d=4, t=2, a=3, out=1, entries=[(1, 1)])
        sage: over_sub_coordinates_limit(ProofProblem(M.essential_ring(), [], 4, model=M))
        'the proof by inheritance would need the ideal of 30 coordinates, more than 24'
    """
    G, limit = problem.matrix_factorization(), settings.PROOF_SUB_COORDINATES_LIMIT
    if G is None or problem.prove is not None or inherited_coordinates(G, problem.linear_form_structure()) <= limit:
        return None
    return OverLimit(f"the proof by inheritance would need the ideal of {G.shape[0] * G.rank} coordinates, "
                     f"more than {limit}")
