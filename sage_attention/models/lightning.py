r"""
One lightning attention layer

One layer without normalization is the cubic map

.. MATH::

    Y = V X (X^T K^T Q X),

with weights `Q, K` of size `a \times d` and `V` of size `d' \times d`;
write `A = K^T Q`, a `d \times d` matrix of rank at most `a`. Every entry of
`Y` is a cubic form in the `d t` input variables whose coefficients are
polynomials in the weights. The map from weights to coefficients is the
*parametrization*; the Zariski closure of its image is the *neurovariety*
[HMK2024]_, [ADM2026]_. For one layer the coefficients, their linear
relations and the essential coordinates are known in closed form
(:ref:`mathematics, §2 <math-2>`), so nothing is expanded.

We build the one-entry slice that [ADM2026]_ studies: input width `3`, two
tokens, rank `2`, one output row::

    sage: from sage_attention import LightningAttention
    sage: M = LightningAttention(d=3, t=2, a=2, out=1); M
    LightningAttention(d=3, out=1, t=2, a=2) over Rational Field
    sage: M.nparameters(), M.ncoordinates()
    (15, 56)

The coordinates have readable names: ``Y11_x12x22x31`` is the coefficient of
the monomial `x_{12} x_{22} x_{31}` in the entry `Y_{11}` (row, token)::

    sage: C = M.coordinate_ring()
    sage: C.gens()[:3]
    (Y11_x11x12x12, Y11_x12x12x21, Y11_x12x12x31)
    sage: M.coordinate_info(C('Y11_x12x22x31'))
    Coordinate(row=1, token=1, kind='cross', indices=(1, 2, 3), context=2)

The parametrization is a ring morphism from the coordinates to the weights.
A cross coefficient is `v_a A_{bc} + v_b A_{ac}` with `A = K^T Q`::

    sage: phi = M.parametrization()
    sage: phi(C('Y11_x12x22x31'))
    q13*k12*v11 + q23*k22*v11 + q13*k11*v12 + q23*k21*v12

The linear relations of :ref:`mathematics, §2 <math-2>` leave
`d' \cdot d \cdot d(d+1)/2` essential coordinates; every other coordinate is
a linear combination of them::

    sage: len(M.linear_relations()), len(M.essential_coordinates())
    (38, 18)

The dimension of the neurovariety is the rank of the Jacobian of the
parametrization at a random point; it agrees with the formula of [HMK2024]_::

    sage: D = M.dimension_report(seed=1); D
    The neurovariety of LightningAttention(d=3, out=1, t=2, a=2) over Rational Field has dimension 10
    (expected 10 from [HMK2024]); the generic fiber has dimension 5.
    sage: D.dimension == M.expected_dimension()
    True

The same model with the weights `(A, V)` and the coefficients scaled as in
[ADM2026]_::

    sage: N = LightningAttention(d=3, t=2, a=2, out=1, weight_space='AV', coordinate_scaling='scaled')
    sage: N.dimension_report(seed=1).dimension
    10
    sage: N.parametrization()(N.coordinate_ring()('Y11_x12x22x31'))
    1/2*v12*A13 + 1/2*v11*A23
"""
# sage.doctest: needs sage.libs.singular

from itertools import combinations_with_replacement

from sage.all__sagemath_singular import cached_method, PolynomialRing

from sage_attention.misc.keywords import keyword_hints
from sage_attention.models.arguments import Coordinate, index_name, distinct_orderings
from sage_attention.models.polynomial import PolynomialAttentionNetwork


@keyword_hints
class LightningAttentionLayer(PolynomialAttentionNetwork):
    r"""
    One lightning attention layer, with closed-form coordinates.

    Returned by :func:`~sage_attention.models.constructors.LightningAttention`
    for one layer; see :class:`~sage_attention.models.base.AttentionNetwork`
    for the arguments.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: M = LightningAttention(d=2, t=2, a=1); type(M).__name__
        'LightningAttentionLayer'
        sage: TestSuite(M).run()
    """

    _kind = "lightning layer"

    def _architecture_arguments(self):
        return [f"d={self.d}", f"out={self.out}", f"t={self.tokens}", f"a={self.ranks[0]}"]

    def _weight_prefix(self, layer, letter):
        return letter

    def ncoordinates(self):
        r"""
        Return the number of coefficient coordinates (without building them).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=3, t=1, a=1, out=3).ncoordinates()
            30
        """
        return self.size_estimate().coordinates

    def _symmetry_action(self, name):
        if self.weight_space == "AV":
            return "(A, V) -> (lambda A, lambda^-1 V)"
        if self.ranks[0] <= self.d:
            return "(Q, K, V) -> (C Q, lambda C^-T K, lambda^-1 V)"
        return name

    def _fiber_statement(self, fib, group, gdim):
        if self.tokens == 1:
            return ("the weights are not identifiable up to the known symmetries: only "
                    f"Sym(A) = (A + A^T)/2 enters the map, so the fiber has dimension {fib} > {gdim}")
        return super()._fiber_statement(fib, group, gdim)

    @cached_method
    def _coordinate_data(self):
        d, t = self.d, self.tokens
        compact = self._compact()

        def mono_name(i, j, factors):
            body = "".join(index_name("x", f, compact) for f in sorted(factors))
            return index_name("Y", (i, j), compact) + "_" + body

        coords, names = [], []
        for i, j in self.output_entries():
            for n in range(1, t + 1):
                if n == j:
                    continue
                for a, b in combinations_with_replacement(range(1, d + 1), 2):
                    for c in range(1, d + 1):
                        coords.append(Coordinate(i, j, "cross", (a, b, c), n))
                        names.append(mono_name(i, j, [(a, n), (b, n), (c, j)]))
            for m in combinations_with_replacement(range(1, d + 1), 3):
                coords.append(Coordinate(i, j, "pure", m, None))
                names.append(mono_name(i, j, [(m[0], j), (m[1], j), (m[2], j)]))
        return tuple(coords), tuple(names)

    def linear_form_structure(self):
        r"""
        Return the coordinates as the coefficients of polynomials in linear forms, or ``None``.

        With one output entry `(i, j)` (:mod:`sage_attention.models.linear_forms`):

        - a single token (`t = 1`) computes the cubic form `F(x) = (v_i
          \cdot x) \sum_{r=1}^{a} (k_r \cdot x)(q_r \cdot x)` in its `d`
          features (`v_i` the `i`-th row of `V`, `k_r, q_r` the rows of `K,
          Q`): the polynomial `s_0 \sum_r s_r s_{a+r}` in the `2a + 1`
          linear forms `v_i, q_1, \dots, q_a, k_1, \dots, k_a`;
        - with `t \ge 2` the essential coordinates are the cross
          coefficients of a context token `n` (:ref:`mathematics, §2
          <math-2>`): `v_a A_{bc} + v_b A_{ac}` is the coefficient of
          `x_{an} x_{bn}` in the quadric `(v_i \cdot x) \sum_r q_{rc} (k_r
          \cdot x)`, `c = 1, \dots, d`: the `d` polynomials `s_0 \sum_r
          q_{rc} s_r` in the `a + 1` linear forms `v_i, k_1, \dots, k_a`,
          with the entries of `Q` as coefficients.

        ``None`` for several output entries or the weights `(A, V)`.

        OUTPUT: a :class:`~sage_attention.models.linear_forms.LinearFormStructure` or ``None``

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: L = LightningAttention(d=3, t=1, a=1).linear_form_structure(); L.outer
            (s0*s1*s2,)
            sage: L.linear_forms
            (('v11', 'v12', 'v13'), ('q11', 'q12', 'q13'), ('k11', 'k12', 'k13'))

        With scaled coordinates the coefficient is a multiple of the coordinate::

            sage: M = LightningAttention(d=2, t=1, a=1, coordinate_scaling='scaled')
            sage: M.linear_form_structure().monomials
            ((0, (3, 0), 1), (0, (2, 1), 3), (0, (1, 2), 3), (0, (0, 3), 1))

        The slice of width `2` and rank `1`: two quadrics in two linear forms::

            sage: S = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)]).linear_form_structure()
            sage: S.outer, S.monomials[:2]
            ((s0*s1*q11, s0*s1*q12), ((0, (2, 0), 1), (1, (2, 0), 1)))
            sage: LightningAttention(d=3, t=2, a=1).linear_form_structure() is None
            True
        """
        from sage_attention.models.linear_forms import LinearFormStructure
        entries = self.output_entries()
        if len(entries) != 1 or self.weight_space != "QKV":
            return None
        (row, token), = entries
        (Q, K, V), = self.weight_matrices()
        a, d = self.ranks[0], self.d
        coords = dict(zip(self._coordinate_data()[1], self._coordinate_data()[0]))
        scaled = self.coordinate_scaling == "scaled"
        names = tuple(str(y) for y in self.essential_ring().gens())
        found = [coords[y] for y in names]
        v = [str(w) for w in V.row(row - 1)]
        if self.tokens == 1:
            context, kinds, extra = token, {"pure"}, ()
            forms = [v] + [[str(w) for w in Q.row(r)] for r in range(a)] + [[str(w) for w in K.row(r)]
                                                                           for r in range(a)]
            S = PolynomialRing(self._base_ring, "s", 2 * a + 1)
            s = S.gens()
            outer = (s[0] * sum(s[1 + r] * s[1 + a + r] for r in range(a)),)
            monomials = [(0, tuple(c.indices.count(i) for i in range(1, d + 1))) for c in found]
        else:
            context, kinds = found[0].context, {"cross"}
            extra = tuple(str(w) for w in Q.list())
            forms = [v] + [[str(w) for w in K.row(r)] for r in range(a)]
            S = PolynomialRing(self._base_ring, [f"s{j}" for j in range(a + 1)] + list(extra))
            s, q = S.gens()[:a + 1], [[S(str(w)) for w in row] for row in Q.rows()]
            outer = tuple(s[0] * sum(q[r][c] * s[1 + r] for r in range(a)) for c in range(d))
            monomials = [(c.indices[2] - 1, tuple(c.indices[:2].count(i) for i in range(1, d + 1)))
                         for c in found]
        if any(c.kind not in kinds or c.context != (None if self.tokens == 1 else context) or c.row != row
               for c in found):
            return None
        monomials = tuple((o, e, self.term_count(c) if scaled else 1) for (o, e), c in zip(monomials, found))
        features = tuple(index_name("x", (i, context), self._compact()) for i in range(1, d + 1))
        return LinearFormStructure(features, names, monomials, tuple(tuple(f) for f in forms), outer, extra)

    def term_count(self, coordinate):
        r"""
        Return the number of terms of the raw coefficient of a coordinate.

        A cross coefficient `v_a A_{bc} + v_b A_{ac}` has two terms (one if
        `a = b`); a pure one has one term per distinct ordering of its
        indices. A scaled coordinate is the raw one divided by this number.

        INPUT:

        - ``coordinate`` -- a :class:`~sage_attention.models.arguments.Coordinate`

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=1, a=1)
            sage: [M.term_count(c) for c in M.coordinates_list()]
            [1, 3, 3, 1]
        """
        if coordinate.kind == "cross":
            a, b, _ = coordinate.indices
            return 1 if a == b else 2
        return len(distinct_orderings(coordinate.indices))

    def _values(self, A, V, coerce):
        # the coordinates as polynomials in the entries of A and V
        scaled = self.coordinate_scaling == "scaled"
        vals = []
        for c in self.coordinates_list():
            v = V.row(c.row - 1)
            if c.kind == "cross":
                a, b, cc = (x - 1 for x in c.indices)
                f = v[a] * A[b, cc] + (v[b] * A[a, cc] if a != b else 0)
            else:
                f = sum(v[p - 1] * A[q - 1, r - 1] for p, q, r in distinct_orderings(c.indices))
            f = coerce(f)
            vals.append(f / self.term_count(c) if scaled else f)
        return vals

    @cached_method
    def _images(self):
        A, V = self.attention_and_value(self.weight_matrices()[0])
        return tuple(self._values(A, V, self.weight_ring()))

    def coefficients_at(self, weights):
        r"""
        Return the values of all coordinates at given weights.

        INPUT:

        - ``weights`` -- a list as returned by :meth:`random_weights`

        OUTPUT: a list of field elements, in the order of the coordinate
        ring's variables

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=2, a=1)
            sage: w = M.random_weights(seed=3)
            sage: vals = M.coefficients_at(w)
            sage: vals == [f(M.weights_point(w)) for f in M.parametrization().im_gens()]
            True

        TESTS::

            sage: M.coefficients_at([])
            Traceback (most recent call last):
            ...
            ValueError: weights (=[]) must be a list with one tuple (Q, K, V) of matrices per layer (1 layers)
        """
        self._check_weights(weights)
        A, V = self.attention_and_value(weights[0])
        return self._values(A, V, A.base_ring())

    @cached_method
    def _linear_structure(self):
        coords = self.coordinates_list()
        n = len(coords)
        if self.tokens == 1:
            return tuple(range(n)), tuple({k: 1} for k in range(n))
        F = self._base_ring
        scaled = self.coordinate_scaling == "scaled"
        rep = {}  # (row, (a, b, c)) -> index of the representative cross coordinate
        for k, c in enumerate(coords):
            if c.kind == "cross" and (c.row, c.indices) not in rep:
                rep[(c.row, c.indices)] = k
        essential = tuple(sorted(rep.values()))
        expr = []
        for k, c in enumerate(coords):
            if c.kind == "cross":
                expr.append({rep[(c.row, c.indices)]: F.one()})
                continue
            # pure(m) = sum over distinct c in m of cross(m - c, c)   (raw)
            m = list(c.indices)
            e = {}
            for cc in sorted(set(m)):
                rest = list(m)
                rest.remove(cc)
                a, b = sorted(rest)
                key = rep[(c.row, (a, b, cc))]
                coef = F.one()
                if scaled:
                    coef = F(1 if a == b else 2) / self.term_count(c)
                e[key] = e.get(key, 0) + coef
            expr.append(e)
        return essential, tuple(expr)

    def cross_tensor(self, row):
        r"""
        Return the tensor `T_{\{a,b\},c}` of :ref:`mathematics, §2 <math-2>` for one output row.

        INPUT:

        - ``row`` -- integer; a 1-based output row among :meth:`output_rows`

        OUTPUT: a dictionary ``{(a, b, c): polynomial}`` (1-based, `a \le b`)
        over :meth:`essential_ring` whose image under the parametrization is
        `(v_a A_{bc} + v_b A_{ac})/2` (`v` the row of `V`); for raw
        coordinates this divides the cross coefficients with `a \ne b` by 2.
        Needs `t \ge 2`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=2, a=1, weight_space='AV')
            sage: T = M.cross_tensor(1); T[1, 2, 1]
            1/2*Y11_x11x12x22
            sage: M.essential_parametrization()(T[1, 2, 1])
            1/2*v12*A11 + 1/2*v11*A21

        TESTS::

            sage: LightningAttention(d=2, t=1, a=1).cross_tensor(1)
            Traceback (most recent call last):
            ...
            ValueError: the cross tensor needs t >= 2 tokens (here t = 1)
        """
        if self.tokens < 2:
            raise ValueError(f"the cross tensor needs t >= 2 tokens (here t = {self.tokens})")
        if row not in self.output_rows():
            raise ValueError(f"row (={row}) must be one of the output rows {self.output_rows()}")
        E = self.essential_ring()
        coords = self.coordinates_list()
        out = {}
        for k, x in zip(self._linear_structure()[0], E.gens()):
            c = coords[k]
            if c.row != row:
                continue
            a, b, _ = c.indices
            scale = 1 if (self.coordinate_scaling == "scaled" or a == b) else self._base_ring(1) / 2
            out[c.indices] = scale * x
        return out

    def pure_cubic(self, row, token=None):
        r"""
        Return the pure part of the entry `Y_{row, token}` as a cubic form.

        INPUT:

        - ``row`` -- integer (1-based)
        - ``token`` -- integer (default: the first token kept for ``row``)

        OUTPUT: a pair ``(S, f)``: a polynomial ring `S` in ``z1, ..., zd``
        over :meth:`coordinate_ring` and the cubic `f \in S` whose
        coefficients are the (raw) coefficients `c_{klm}` of
        `x_{k j} x_{l j} x_{m j}` in `Y_{row, token}`. For `t = 1` this is
        the whole entry, `(v \cdot x)\, x^T A x` under the parametrization.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=1, a=1)
            sage: S, f = M.pure_cubic(1); f
            Y11_x11x11x11*z1^3 + Y11_x11x11x21*z1^2*z2 + Y11_x11x21x21*z1*z2^2 + Y11_x21x21x21*z2^3
        """
        C = self.coordinate_ring()
        if token is None:
            token = min(j for i, j in self.output_entries() if i == row)
        S = PolynomialRing(C, [f"z{k}" for k in range(1, self.d + 1)])
        z = S.gens()
        f = S.zero()
        scaled = self.coordinate_scaling == "scaled"
        for x, c in zip(C.gens(), self.coordinates_list()):
            if c.kind == "pure" and c.row == row and c.token == token:
                coef = x * self.term_count(c) if scaled else x
                f += coef * z[c.indices[0] - 1] * z[c.indices[1] - 1] * z[c.indices[2] - 1]
        return S, f
