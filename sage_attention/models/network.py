r"""
Attention networks as polynomial maps

An attention network takes a `d \times t` matrix `X` of tokens to a
`d' \times t` matrix `Y`. Without normalization ("lightning" attention) one
layer is the cubic map

.. MATH::

    Y = V X (X^T K^T Q X),

with weights `Q, K` of size `a \times d` and `V` of size `d' \times d`;
write `A = K^T Q`, a `d \times d` matrix of rank at most `a`. Every entry of
`Y` is a cubic form in the `d t` input variables whose coefficients are
polynomials in the weights. The map from weights to coefficients is the
*parametrization*; the Zariski closure of its image is the *neurovariety*
[HMK2024]_, [ADM2026]_.

This module compiles such a network into Sage objects: the weight ring, the
input ring, the output matrix `Y`, the ring of coefficient coordinates (one
variable per output entry and monomial), the parametrization as a ring
morphism, and the linear relations among the coordinates.

We build the one-entry slice that [ADM2026]_ studies: input width `3`, two
tokens, rank `2`, one output row::

    sage: from sage_attention import LightningAttention
    sage: M = LightningAttention(d=3, t=2, a=2, out=1); M
    LightningAttention(d=3, d'=1, t=2, a=2) over Rational Field
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

The linear relations of :ref:`mathematics, §2 <math-2>` leave `d' \cdot d \cdot d(d+1)/2`
essential coordinates; every other coordinate is a linear combination of
them::

    sage: len(M.linear_relations()), len(M.essential_coordinates())
    (38, 18)

The dimension of the neurovariety is the rank of the Jacobian of the
parametrization at a random point; it agrees with the formula of [HMK2024]_::

    sage: D = M.dimension(seed=1); D
    The neurovariety of LightningAttention(d=3, d'=1, t=2, a=2) over Rational Field has dimension 10
    (expected 10 from [HMK2024]); the generic fiber has dimension 5.
    sage: D.dimension == M.expected_dimension()
    True

The same model with the weights `(A, V)` and the coefficients scaled as in
[ADM2026]_::

    sage: N = LightningAttention(d=3, t=2, a=2, out=1, weights='AV', coordinates='scaled')
    sage: N.dimension(seed=1).dimension
    10
    sage: N.parametrization()(N.coordinate_ring()('Y11_x12x22x31'))
    1/2*v12*A13 + 1/2*v11*A23

AUTHORS:

- sage_attention developers (2026)
"""
# sage.doctest: needs sage.libs.singular

from collections import namedtuple
from itertools import combinations_with_replacement, permutations
import logging
import random

from sage.all__sagemath_singular import (SageObject, UniqueRepresentation, cached_method,
                                         ZZ, QQ, GF, PolynomialRing, matrix, zero_matrix)

from sage_attention.errors import SpecError
from sage_attention.sizes import estimate_size, check_size

logger = logging.getLogger("sage_attention")

#: The prime of the default field for randomized ranks: the largest prime
#: below `2^{26}`, so that Sage's fast double-based modular matrices apply.
DEFAULT_PRIME = 67108859

NORMALIZATIONS = ("lightning", "softmax")
WEIGHT_SPACES = ("QKV", "AV")
COORDINATE_KINDS = ("raw", "scaled")

Coordinate = namedtuple("Coordinate", ["row", "token", "kind", "indices", "context"])
Coordinate.__doc__ = r"""
Description of one coefficient coordinate.

- ``row``, ``token`` -- the output entry `Y_{row, token}` (1-based)
- ``kind`` -- ``'cross'`` (monomial `x_{a n} x_{b n} x_{c j}`, `n \neq j`),
  ``'pure'`` (monomial `x_{a j} x_{b j} x_{c j}`) or ``'deep'``
- ``indices`` -- ``(a, b, c)`` (1-based, `a \le b`; sorted for pure), or the
  exponent vector for ``'deep'``
- ``context`` -- the context token `n` of a cross monomial, else ``None``
"""


def _index_name(prefix, indices, compact):
    if compact:
        return prefix + "".join(str(i) for i in indices)
    return prefix + "_".join(str(i) for i in indices)


def _distinct_orderings(m):
    return sorted(set(permutations(m)))


class AttentionNetwork(UniqueRepresentation, SageObject):
    r"""
    An attention network with fixed architecture, weight space and coordinates.

    Users normally call :func:`LightningAttention` or :func:`SoftmaxAttention`,
    which return instances of this class.

    INPUT:

    - ``widths`` -- tuple `(d_0, d_1, \dots, d_l)` of positive integers: the
      input width and the output width of each layer
    - ``ranks`` -- tuple `(a_1, \dots, a_l)` of positive integers: the
      attention rank of each layer (a rank larger than the width is allowed
      and is no constraint)
    - ``tokens`` -- positive integer `t`
    - ``normalization`` -- (default: ``'lightning'``) a string, or a tuple
      with one string per layer: ``'lightning'`` or ``'softmax'``
    - ``weights`` -- (default: ``'QKV'``) ``'QKV'`` for the trained weights,
      ``'AV'`` for `A = K^T Q` with `\operatorname{rank} A \le a` imposed by
      minors
    - ``coordinates`` -- (default: ``'raw'``) ``'raw'`` coefficients or
      ``'scaled'`` ones (divided by their number of terms, as in [ADM2026]_)
    - ``entries`` -- (default: ``None``, all) a collection of 1-based output
      entries ``(row, token)`` to keep
    - ``base_ring`` -- (default: `\QQ`) the coefficient field

    EXAMPLES::

        sage: from sage_attention.models.network import AttentionNetwork
        sage: from sage_attention import LightningAttention
        sage: M = AttentionNetwork(widths=(3, 1), ranks=(2,), tokens=2)
        sage: M is LightningAttention(d=3, t=2, a=2, out=1)
        True
        sage: AttentionNetwork((3, 3, 3), (2, 2), 3)
        LightningAttention(widths=(3, 3, 3), ranks=(2, 2), t=3) over Rational Field

    TESTS::

        sage: loads(dumps(M)) is M
        True
        sage: TestSuite(M).run()
        sage: AttentionNetwork((3, 0), (1,), 2)
        Traceback (most recent call last):
        ...
        SpecError: width d_1 (=0) must be a positive integer
        sage: AttentionNetwork((3, 1), (1, 1), 2)
        Traceback (most recent call last):
        ...
        SpecError: ranks (=(1, 1)) must have one entry per layer (1 layers)
        sage: AttentionNetwork((3, 1), (1,), 2, entries=[(2, 1)])
        Traceback (most recent call last):
        ...
        SpecError: entry (=(2, 1)) must have row in 1..1 and token in 1..2
        sage: AttentionNetwork((3, 1), (1,), 2, weights='QK')
        Traceback (most recent call last):
        ...
        SpecError: weights (='QK') must be one of 'QKV', 'AV'
        sage: AttentionNetwork(('three', 1), (1,), 2)
        Traceback (most recent call last):
        ...
        SpecError: width d_0 (='three') must be a positive integer
    """

    @staticmethod
    def __classcall__(cls, widths, ranks, tokens, normalization="lightning", weights="QKV",
                      coordinates="raw", entries=None, base_ring=None):
        def positive(value, what):
            try:
                v = ZZ(value)
            except (TypeError, ValueError):
                raise SpecError(f"{what} (={value!r}) must be a positive integer") from None
            if v <= 0:
                raise SpecError(f"{what} (={value!r}) must be a positive integer")
            return int(v)

        if isinstance(widths, (str, bytes)) or not hasattr(widths, "__iter__"):
            raise SpecError(f"widths (={widths!r}) must be a list of positive integers")
        widths = tuple(positive(w, f"width d_{i}") for i, w in enumerate(widths))
        if len(widths) < 2:
            raise SpecError(f"widths (={widths}) needs the input width and at least one layer")
        if isinstance(ranks, (str, bytes)) or not hasattr(ranks, "__iter__"):
            ranks = (ranks,)
        ranks = tuple(positive(a, f"rank a_{i + 1}") for i, a in enumerate(ranks))
        layers = len(widths) - 1
        if len(ranks) != layers:
            raise SpecError(f"ranks (={ranks}) must have one entry per layer ({layers} layers)")
        tokens = positive(tokens, "tokens t")
        if isinstance(normalization, str):
            normalization = (normalization,) * layers
        normalization = tuple(str(n).lower() for n in normalization)
        if len(normalization) != layers or any(n not in NORMALIZATIONS for n in normalization):
            raise SpecError(f"normalization (={normalization}) must be 'lightning' or 'softmax' "
                            f"for each of the {layers} layers")
        if weights not in WEIGHT_SPACES:
            raise SpecError(f"weights (={weights!r}) must be one of 'QKV', 'AV'")
        if coordinates not in COORDINATE_KINDS:
            raise SpecError(f"coordinates (={coordinates!r}) must be one of 'raw', 'scaled'")
        if entries is not None:
            clean = []
            for e in entries:
                try:
                    i, j = (int(ZZ(x)) for x in e)
                except (TypeError, ValueError):
                    raise SpecError(f"entry (={e!r}) must be a pair (row, token) of integers") from None
                if not (1 <= i <= widths[-1] and 1 <= j <= tokens):
                    raise SpecError(f"entry (={e!r}) must have row in 1..{widths[-1]} "
                                    f"and token in 1..{tokens}")
                clean.append((i, j))
            entries = tuple(sorted(set(clean)))
            if not entries:
                raise SpecError("entries must not be empty (omit it to keep all entries)")
            if len(entries) == widths[-1] * tokens:
                entries = None
        if base_ring is None:
            base_ring = QQ
        if not base_ring.is_field():
            raise SpecError(f"base_ring (={base_ring}) must be a field")
        if coordinates == "scaled" and base_ring.characteristic() in (2, 3, 5):
            raise SpecError(f"scaled coordinates divide by 2, 3 and 6: base_ring (={base_ring}) "
                            "must not have characteristic 2, 3 or 5")
        return super().__classcall__(cls, widths, ranks, tokens, normalization, weights,
                                     coordinates, entries, base_ring)

    def __init__(self, widths, ranks, tokens, normalization, weights, coordinates, entries,
                 base_ring):
        r"""
        Initialize ``self``; the arguments are checked in ``__classcall__``.

        TESTS::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=1, a=1).tokens
            1
        """
        self.widths = widths
        self.ranks = ranks
        self.tokens = tokens
        self.normalization = normalization
        self.weights = weights
        self.coordinates = coordinates
        self.entries = entries
        self._base_ring = base_ring

    # ------------------------------------------------------------------
    # Architecture
    # ------------------------------------------------------------------

    def base_ring(self):
        r"""
        Return the coefficient field.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=2, a=1, base_ring=GF(101)).base_ring()
            Finite Field of size 101
        """
        return self._base_ring

    @property
    def d(self):
        r"""
        The input width `d = d_0`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=3, t=2, a=1, out=2).d
            3
        """
        return self.widths[0]

    @property
    def out(self):
        r"""
        The output width `d' = d_l`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=3, t=2, a=1, out=2).out
            2
        """
        return self.widths[-1]

    def nlayers(self):
        r"""
        Return the number of layers `l`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(widths=[3, 3, 3], ranks=[2, 2], t=3).nlayers()
            2
        """
        return len(self.ranks)

    def is_lightning(self):
        r"""
        Return whether no layer is normalized (the network is polynomial).

        EXAMPLES::

            sage: from sage_attention import LightningAttention, SoftmaxAttention
            sage: LightningAttention(d=2, t=2, a=1).is_lightning()
            True
            sage: SoftmaxAttention(d=2, t=2, a=1).is_lightning()
            False
        """
        return all(n == "lightning" for n in self.normalization)

    def output_entries(self):
        r"""
        Return the 1-based output entries ``(row, token)`` this model keeps.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=2, a=1, out=2).output_entries()
            ((1, 1), (1, 2), (2, 1), (2, 2))
            sage: LightningAttention(d=2, t=2, a=1, out=2, entries=[(2, 1)]).output_entries()
            ((2, 1),)
        """
        if self.entries is not None:
            return self.entries
        return tuple((i, j) for i in range(1, self.out + 1) for j in range(1, self.tokens + 1))

    def output_rows(self):
        r"""
        Return the sorted output rows that occur among the kept entries.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=2, a=1, out=3, entries=[(3, 1), (1, 2)]).output_rows()
            (1, 3)
        """
        return tuple(sorted({i for i, _ in self.output_entries()}))

    def _repr_(self):
        r"""
        Return a one-line description that reads like the constructor.

        EXAMPLES::

            sage: from sage_attention import LightningAttention, SoftmaxAttention
            sage: LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)], weights='AV')
            LightningAttention(d=3, d'=1, t=2, a=2, weights='AV', entries=((1, 1),)) over Rational Field
            sage: SoftmaxAttention(d=3, t=3, a=2, out=3)
            SoftmaxAttention(d=3, d'=3, t=3, a=2) over Rational Field
            sage: from sage_attention.models.network import AttentionNetwork
            sage: AttentionNetwork((3, 3, 3), (2, 2), 3, normalization=('lightning', 'softmax'))
            AttentionNetwork(widths=(3, 3, 3), ranks=(2, 2), t=3, normalization=('lightning', 'softmax')) over Rational Field
        """
        if self.is_lightning():
            name = "LightningAttention"
        elif all(n == "softmax" for n in self.normalization):
            name = "SoftmaxAttention"
        else:
            name = "AttentionNetwork"
        if self.nlayers() == 1:
            args = [f"d={self.d}", f"d'={self.out}", f"t={self.tokens}", f"a={self.ranks[0]}"]
        else:
            args = [f"widths={self.widths}", f"ranks={self.ranks}", f"t={self.tokens}"]
        if name == "AttentionNetwork":
            args.append(f"normalization={self.normalization}")
        if self.weights != "QKV":
            args.append(f"weights={self.weights!r}")
        if self.coordinates != "raw":
            args.append(f"coordinates={self.coordinates!r}")
        if self.entries is not None:
            args.append(f"entries={self.entries}")
        return f"{name}({', '.join(args)}) over {self._base_ring}"

    def _latex_(self):
        r"""
        Return a LaTeX description.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: latex(LightningAttention(d=3, t=2, a=2, out=1))
            \mathcal{V}^{\mathrm{light}}_{d=3,\, d'=1,\, t=2,\, a=2}
        """
        kind = r"\mathrm{light}" if self.is_lightning() else r"\mathrm{soft}"
        if self.nlayers() == 1:
            sub = rf"d={self.d},\, d'={self.out},\, t={self.tokens},\, a={self.ranks[0]}"
        else:
            sub = (r"\mathbf{d}=(" + ",".join(map(str, self.widths)) + r"),\, \mathbf{a}=("
                   + ",".join(map(str, self.ranks)) + rf"),\, t={self.tokens}")
        return rf"\mathcal{{V}}^{{{kind}}}_{{{sub}}}"

    def size_estimate(self):
        r"""
        Return the :class:`~sage_attention.sizes.SizeEstimate` of this model.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=3, t=2, a=2, out=1).size_estimate()
            SizeEstimate(coordinates=56, essential_coordinates=18, parameters=15, terms=672)
        """
        return estimate_size(self.widths, self.ranks, self.tokens, self.weights, self.entries)

    def nparameters(self):
        r"""
        Return the number of weight parameters.

        For ``weights='AV'`` this counts the entries of `A` and `V`; the
        dimension of the weight variety `\{\operatorname{rank} A \le a\}
        \times K^{d' d}` is :meth:`parameter_dimension`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=3, t=2, a=2, out=1).nparameters()
            15
            sage: LightningAttention(d=3, t=2, a=2, out=1, weights='AV').nparameters()
            12
        """
        return self.size_estimate().parameters

    def parameter_dimension(self):
        r"""
        Return the dimension of the weight space.

        For ``'QKV'`` this is the number of weights; for ``'AV'`` it is
        `\sum_i r_i (2 d_{i-1} - r_i) + d_i d_{i-1}` with
        `r_i = \min(a_i, d_{i-1})`, the dimension of the rank-constrained
        weight variety.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=3, t=2, a=1, out=1, weights='AV').parameter_dimension()
            8
        """
        if self.weights == "QKV":
            return self.nparameters()
        total = 0
        for i, a in enumerate(self.ranks):
            din, dout = self.widths[i], self.widths[i + 1]
            r = min(a, din)
            total += r * (2 * din - r) + dout * din
        return total

    def ncoordinates(self):
        r"""
        Return the number of coefficient coordinates.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=3, t=1, a=1, out=3).ncoordinates()
            30
        """
        if self.nlayers() == 1:
            return self.size_estimate().coordinates
        return len(self._coordinate_data()[0])

    # ------------------------------------------------------------------
    # Rings and the parametrization
    # ------------------------------------------------------------------

    def _require_lightning(self, what):
        if not self.is_lightning():
            raise ValueError(f"{what} needs a polynomial (lightning) network; {self} has a "
                             "softmax layer: use numerical_dimension() instead")

    def _compact(self):
        return max(self.widths + self.ranks + (self.tokens,)) < 10

    def _weight_names(self):
        compact = self._compact()
        names = []
        deep = self.nlayers() > 1
        for l, a in enumerate(self.ranks):
            din, dout = self.widths[l], self.widths[l + 1]
            pre = (lambda s: f"{s}{l + 1}_") if deep else (lambda s: s)
            if self.weights == "QKV":
                names += [_index_name(pre("q"), (k, c), compact) for k in range(1, a + 1)
                          for c in range(1, din + 1)]
                names += [_index_name(pre("k"), (k, b), compact) for k in range(1, a + 1)
                          for b in range(1, din + 1)]
            names += [_index_name(pre("v"), (i, p), compact) for i in range(1, dout + 1)
                      for p in range(1, din + 1)]
            if self.weights == "AV":
                names += [_index_name(pre("A"), (b, c), compact) for b in range(1, din + 1)
                          for c in range(1, din + 1)]
        return names

    @cached_method
    def weight_ring(self):
        r"""
        Return the polynomial ring of the weights.

        Variables: ``q{k}{c}``, ``k{k}{b}`` (rows of `Q` and `K`), ``v{i}{a}``
        and, for ``weights='AV'``, ``A{b}{c}``. In a deep network each name
        carries its layer: ``q2_11`` is `(Q_2)_{11}`. Indices are separated by
        ``_`` when a width reaches 10.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=2, a=1, out=1).weight_ring()
            Multivariate Polynomial Ring in q11, q12, k11, k12, v11, v12 over Rational Field
            sage: LightningAttention(d=2, t=2, a=1, out=1, weights='AV').weight_ring().gens()
            (v11, v12, A11, A12, A21, A22)
        """
        return PolynomialRing(self._base_ring, self._weight_names(), order="degrevlex")

    def weight_matrices(self):
        r"""
        Return the weight matrices over :meth:`weight_ring`, one tuple per layer.

        OUTPUT: a list with, for each layer, ``(Q, K, V)`` or ``(A, V)``

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: (Q, K, V), = LightningAttention(d=2, t=2, a=1, out=1).weight_matrices()
            sage: K.transpose() * Q
            [q11*k11 q12*k11]
            [q11*k12 q12*k12]
        """
        W = self.weight_ring()
        gens = iter(W.gens())
        result = []
        for l, a in enumerate(self.ranks):
            din, dout = self.widths[l], self.widths[l + 1]
            if self.weights == "QKV":
                Q = matrix(W, a, din, [next(gens) for _ in range(a * din)])
                K = matrix(W, a, din, [next(gens) for _ in range(a * din)])
                V = matrix(W, dout, din, [next(gens) for _ in range(dout * din)])
                result.append((Q, K, V))
            else:
                V = matrix(W, dout, din, [next(gens) for _ in range(dout * din)])
                A = matrix(W, din, din, [next(gens) for _ in range(din * din)])
                result.append((A, V))
        return result

    def attention_matrices(self):
        r"""
        Return the matrices `A_i = K_i^T Q_i` (or the generic `A_i`) over the weight ring.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=2, a=1, out=1, weights='AV').attention_matrices()
            [
            [A11 A12]
            [A21 A22]
            ]
        """
        from sage.structure.sequence import Sequence
        out = []
        for w in self.weight_matrices():
            out.append(w[1].transpose() * w[0] if len(w) == 3 else w[0])
        return Sequence(out, immutable=True)

    def rank_ideal(self):
        r"""
        Return the ideal of the weight ring imposing `\operatorname{rank} A_i \le a_i`.

        For ``weights='QKV'`` this is the zero ideal; for ``weights='AV'`` it
        is generated by the `(a_i + 1)`-minors of each `A_i` (none when
        `a_i \ge d_{i-1}`).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=2, a=1, out=1, weights='AV').rank_ideal()
            Ideal (-A12*A21 + A11*A22) of Multivariate Polynomial Ring in v11, v12, A11, A12, A21, A22 over Rational Field
            sage: LightningAttention(d=2, t=2, a=2, out=1, weights='AV').rank_ideal()
            Ideal (0) of Multivariate Polynomial Ring in v11, v12, A11, A12, A21, A22 over Rational Field
        """
        W = self.weight_ring()
        gens = []
        if self.weights == "AV":
            for A, a in zip(self.attention_matrices(), self.ranks):
                if a < A.nrows():
                    gens += A.minors(a + 1)
        return W.ideal(gens if gens else [W.zero()])

    @cached_method
    def input_ring(self):
        r"""
        Return the polynomial ring of the input tokens over :meth:`weight_ring`.

        The variable ``x{k}{n}`` is the entry `X_{kn}` (row `k`, token `n`).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=2, a=1).input_ring()
            Multivariate Polynomial Ring in x11, x12, x21, x22 over Multivariate Polynomial Ring in q11, q12, k11, k12, v11, v12 over Rational Field
        """
        compact = self._compact()
        names = [_index_name("x", (k, n), compact) for k in range(1, self.d + 1)
                 for n in range(1, self.tokens + 1)]
        return PolynomialRing(self.weight_ring(), names, order="degrevlex")

    def input_matrix(self):
        r"""
        Return the generic input matrix `X` over :meth:`input_ring`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=2, a=1).input_matrix()
            [x11 x12]
            [x21 x22]
        """
        R = self.input_ring()
        return matrix(R, self.d, self.tokens, R.gens())

    @cached_method
    def output_matrix(self, force=False):
        r"""
        Return the output `Y` of the network on the generic input, expanded.

        INPUT:

        - ``force`` -- boolean (default: ``False``); expand even when the size
          guard refuses

        OUTPUT: a `d' \times t` matrix over :meth:`input_ring`

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: Y = LightningAttention(d=1, t=2, a=1, out=1, weights='AV').output_matrix(); Y
            [v11*A11*x11^3 + v11*A11*x11*x12^2 v11*A11*x11^2*x12 + v11*A11*x12^3]

        TESTS::

            sage: LightningAttention(widths=[4, 4, 4, 4], ranks=[2, 2, 2], t=3).output_matrix()
            Traceback (most recent call last):
            ...
            ComputationTooLarge: expanding the parametrization needs about ... terms (limit 2000000); ...
        """
        self._require_lightning("output_matrix")
        check_size(self.size_estimate(), "parametrization", force,
                   hint="dimension() needs no expansion")
        X = self.input_matrix()
        R = X.base_ring()
        for w, A in zip(self.weight_matrices(), self.attention_matrices()):
            V = w[-1] if len(w) == 3 else w[1]
            A = A.change_ring(R)
            V = V.change_ring(R)
            X = V * X * (X.transpose() * A * X)
        X.set_immutable()
        return X

    @cached_method
    def _coordinate_data(self):
        r"""
        Return ``(coordinates, names)``: the :class:`Coordinate` tuples and
        their variable names, in order.
        """
        d, t = self.d, self.tokens
        compact = self._compact()

        def mono_name(i, j, factors):
            body = "".join(_index_name("x", f, compact) for f in sorted(factors))
            return _index_name("Y", (i, j), compact) + "_" + body

        coords, names = [], []
        if self.nlayers() == 1:
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
        # deep: the support of the expanded output
        Y = self.output_matrix()
        R = self.input_ring()
        for i, j in self.output_entries():
            for e in sorted(Y[i - 1, j - 1].exponents(), reverse=True):
                coords.append(Coordinate(i, j, "deep", tuple(e), None))
                factors = []
                for var, k in zip(R.gens(), e):
                    idx = R.gens().index(var)
                    factors += [(idx // t + 1, idx % t + 1)] * k
                names.append(mono_name(i, j, factors))
        return tuple(coords), tuple(names)

    def coordinates_list(self):
        r"""
        Return the descriptions of all coordinates, in the order of the ring's variables.

        OUTPUT: a tuple of :class:`Coordinate`

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=1, a=1)
            sage: M.coordinates_list()
            (Coordinate(row=1, token=1, kind='pure', indices=(1, 1, 1), context=None),
             Coordinate(row=1, token=1, kind='pure', indices=(1, 1, 2), context=None),
             Coordinate(row=1, token=1, kind='pure', indices=(1, 2, 2), context=None),
             Coordinate(row=1, token=1, kind='pure', indices=(2, 2, 2), context=None))
        """
        self._require_lightning("coordinates")
        return self._coordinate_data()[0]

    @cached_method
    def coordinate_ring(self, force=False):
        r"""
        Return the polynomial ring of the coefficient coordinates.

        ``Y{i}{j}_x..x..x..`` is the coefficient of that monomial in `Y_{ij}`.

        INPUT:

        - ``force`` -- boolean (default: ``False``); build it even when the
          size guard refuses

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=1, a=1).coordinate_ring()
            Multivariate Polynomial Ring in Y11_x11x11x11, Y11_x11x11x21, Y11_x11x21x21, Y11_x21x21x21 over Rational Field
        """
        self._require_lightning("coordinate_ring")
        check_size(self.size_estimate(), "coordinates", force,
                   hint="dimension() needs no coordinates")
        return PolynomialRing(self._base_ring, self._coordinate_data()[1], order="degrevlex")

    def coordinate_info(self, var):
        r"""
        Return the :class:`Coordinate` description of a coordinate variable.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=2, a=1)
            sage: M.coordinate_info(M.coordinate_ring().gen(0))
            Coordinate(row=1, token=1, kind='cross', indices=(1, 1, 1), context=2)
        """
        C = self.coordinate_ring()
        return self.coordinates_list()[C.gens().index(C(var))]

    def _term_count(self, coord):
        if coord.kind == "cross":
            a, b, _ = coord.indices
            return 1 if a == b else 2
        if coord.kind == "pure":
            return len(_distinct_orderings(coord.indices))
        return 1

    @cached_method
    def _images(self):
        r"""
        Return the images of all coordinates in the weight ring.
        """
        W = self.weight_ring()
        coords = self.coordinates_list()
        if self.nlayers() > 1:
            Y = self.output_matrix()
            R = self.input_ring()
            return tuple(Y[c.row - 1, c.token - 1].monomial_coefficient(R.monomial(*c.indices))
                         for c in coords)
        A = self.attention_matrices()[0]
        V = self.weight_matrices()[0][-1] if self.weights == "QKV" else self.weight_matrices()[0][1]
        scaled = self.coordinates == "scaled"
        images = []
        for c in coords:
            v = V.row(c.row - 1)
            if c.kind == "cross":
                a, b, cc = (x - 1 for x in c.indices)
                f = v[a] * A[b, cc] + (v[b] * A[a, cc] if a != b else 0)
            else:
                f = sum(v[p - 1] * A[q - 1, r - 1] for p, q, r in _distinct_orderings(c.indices))
            if scaled:
                f = f / self._term_count(c)
            images.append(W(f))
        return tuple(images)

    @cached_method
    def parametrization(self):
        r"""
        Return the parametrization as a ring morphism from coordinates to weights.

        Its kernel is the vanishing ideal of the neurovariety.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=1, a=1, weights='AV')
            sage: M.parametrization()
            Ring morphism:
              From: Multivariate Polynomial Ring in Y11_x11x11x11, Y11_x11x11x21, Y11_x11x21x21, Y11_x21x21x21 over Rational Field
              To:   Multivariate Polynomial Ring in v11, v12, A11, A12, A21, A22 over Rational Field
              Defn: Y11_x11x11x11 |--> v11*A11
                    Y11_x11x11x21 |--> v12*A11 + v11*A12 + v11*A21
                    Y11_x11x21x21 |--> v12*A12 + v12*A21 + v11*A22
                    Y11_x21x21x21 |--> v12*A22

        The images are exactly the coefficients of the expanded output
        (an independent computation)::

            sage: Y = M.output_matrix(); R = M.input_ring()
            sage: phi = M.parametrization()
            sage: all(Y[0, 0].monomial_coefficient(R(str(x).split('_')[1].replace('x', '*x')[1:])) == phi(x)
            ....:     for x in M.coordinate_ring().gens())
            True
        """
        C = self.coordinate_ring()
        return C.hom(list(self._images()), self.weight_ring())

    # ------------------------------------------------------------------
    # Linear relations
    # ------------------------------------------------------------------

    @cached_method
    def _linear_structure(self):
        r"""
        Return ``(essential_indices, expressions)``: the indices of the
        essential coordinates, and for each coordinate a dictionary
        ``{essential index: coefficient}`` expressing it.
        """
        coords = self.coordinates_list()
        n = len(coords)
        if self.nlayers() > 1 or self.tokens == 1:
            return tuple(range(n)), tuple({k: 1} for k in range(n))
        F = self._base_ring
        scaled = self.coordinates == "scaled"
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
                    coef = F(1 if a == b else 2) / self._term_count(c)
                e[key] = e.get(key, 0) + coef
            expr.append(e)
        return essential, tuple(expr)

    def essential_coordinates(self):
        r"""
        Return the essential coordinates: those left after the linear relations.

        For `t \ge 2` these are, for each output row, one cross coordinate
        per pair `(\{a, b\}, c)`: the entries of the tensor `T` of :ref:`mathematics, §2 <math-2>`. For `t = 1` all coordinates are essential.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=3, a=1)
            sage: M.essential_coordinates()
            (Y11_x11x12x12,
             Y11_x12x12x21,
             Y11_x11x12x22,
             Y11_x12x21x22,
             Y11_x11x22x22,
             Y11_x21x22x22)
        """
        C = self.coordinate_ring()
        return tuple(C.gen(k) for k in self._linear_structure()[0])

    def linear_relations(self):
        r"""
        Return the linear relations among the coordinates (:ref:`mathematics, §2 <math-2>`).

        These are the copy relations (a cross coefficient does not depend on
        the context token nor on the output token) and the symmetrization
        relations (each pure coefficient is a sum of cross coefficients).
        Together with the essential coordinates they express every
        coordinate.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=1, t=2, a=1)
            sage: M.linear_relations()
            (-Y11_x11x12x12 + Y11_x11x11x11,
             -Y11_x11x12x12 + Y12_x11x11x12,
             -Y11_x11x12x12 + Y12_x12x12x12)

        Each relation vanishes on the parametrization::

            sage: M = LightningAttention(d=3, t=3, a=2, out=2, coordinates='scaled')
            sage: phi = M.parametrization()
            sage: all(phi(f) == 0 for f in M.linear_relations())
            True
        """
        C = self.coordinate_ring()
        essential, expr = self._linear_structure()
        ess = set(essential)
        rels = []
        for k, e in enumerate(expr):
            if k in ess:
                continue
            rels.append(C.gen(k) - sum(coef * C.gen(j) for j, coef in e.items()))
        return tuple(rels)

    @cached_method
    def essential_ring(self):
        r"""
        Return the polynomial ring in the essential coordinates.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=2, a=1).essential_ring()
            Multivariate Polynomial Ring in Y11_x11x12x12, Y11_x12x12x21, Y11_x11x12x22, Y11_x12x21x22, Y11_x11x22x22, Y11_x21x22x22 over Rational Field
        """
        names = [str(x) for x in self.essential_coordinates()]
        return PolynomialRing(self._base_ring, names, order="degrevlex")

    @cached_method
    def to_essential(self):
        r"""
        Return the morphism from the coordinate ring onto the essential ring.

        It sends each coordinate to its expression in the essential
        coordinates; its kernel is generated by :meth:`linear_relations`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=1, t=2, a=1)
            sage: M.to_essential()(M.coordinate_ring()('Y12_x12x12x12'))
            Y11_x11x12x12
        """
        E = self.essential_ring()
        essential, expr = self._linear_structure()
        pos = {k: i for i, k in enumerate(essential)}
        images = [sum(coef * E.gen(pos[j]) for j, coef in e.items()) for e in expr]
        return self.coordinate_ring().hom(images, E)

    @cached_method
    def from_essential(self):
        r"""
        Return the inclusion of the essential ring into the coordinate ring.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=2, a=1)
            sage: f = M.from_essential(); g = M.to_essential()
            sage: all(g(f(x)) == x for x in M.essential_ring().gens())
            True
        """
        C = self.coordinate_ring()
        return self.essential_ring().hom(list(self.essential_coordinates()), C)

    @cached_method
    def essential_parametrization(self):
        r"""
        Return the parametrization restricted to the essential coordinates.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=2, a=1, weights='AV', coordinates='scaled')
            sage: M.essential_parametrization()(M.essential_ring().gen(2))
            1/2*v12*A11 + 1/2*v11*A21
        """
        phi = self.parametrization()
        return self.essential_ring().hom([phi(x) for x in self.essential_coordinates()],
                                         self.weight_ring())

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
            sage: M = LightningAttention(d=2, t=2, a=1, weights='AV')
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
        if self.tokens < 2 or self.nlayers() != 1:
            raise ValueError(f"the cross tensor needs t >= 2 tokens (here t = {self.tokens})"
                             if self.tokens < 2 else "the cross tensor is defined for one layer")
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
            scale = 1 if (self.coordinates == "scaled" or a == b) else self._base_ring(1) / 2
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
        for x, c in zip(C.gens(), self.coordinates_list()):
            if c.kind == "pure" and c.row == row and c.token == token:
                coef = x * self._term_count(c) if self.coordinates == "scaled" else x
                f += coef * z[c.indices[0] - 1] * z[c.indices[1] - 1] * z[c.indices[2] - 1]
        return S, f

    # ------------------------------------------------------------------
    # Evaluation at points
    # ------------------------------------------------------------------

    def random_weights(self, field=None, seed=None):
        r"""
        Return random weight matrices over ``field``.

        INPUT:

        - ``field`` -- (default: the base ring) a field; over `\QQ` the
          entries are integers in `[-100, 100]`
        - ``seed`` -- (default: ``None``) integer; the same seed gives the
          same weights

        OUTPUT: a list with, for each layer, ``(Q, K, V)`` or ``(A, V)``;
        for ``'AV'`` the matrix `A` has rank `\min(a, d)`

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=3, t=2, a=1, weights='AV')
            sage: (A, V), = M.random_weights(seed=5)
            sage: A.rank(), V.dimensions()
            (1, (1, 3))
            sage: M.random_weights(seed=5) == M.random_weights(seed=5)
            True
        """
        F = self._base_ring if field is None else field
        rng = random.Random(None if seed is None else int(seed))
        out = []
        for l, a in enumerate(self.ranks):
            din, dout = self.widths[l], self.widths[l + 1]
            mat = lambda r, c: _random_matrix(F, r, c, rng)
            if self.weights == "QKV":
                out.append((mat(a, din), mat(a, din), mat(dout, din)))
            else:
                r = min(a, din)
                A = mat(din, r) * mat(r, din)
                out.append((A, mat(dout, din)))
        return out

    def weights_point(self, weights):
        r"""
        Return the list of values of the weight-ring variables for given matrices.

        INPUT:

        - ``weights`` -- a list as returned by :meth:`random_weights`

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=1, t=2, a=1)
            sage: M.weights_point([(matrix([[2]]), matrix([[3]]), matrix([[5]]))])
            [2, 3, 5]
        """
        vals = []
        for w in weights:
            if self.weights == "QKV":
                Q, K, V = w
                vals += Q.list() + K.list() + V.list()
            else:
                A, V = w
                vals += V.list() + A.list()
        return vals

    def forward(self, X, weights):
        r"""
        Return the output `Y` of the network at an input matrix and weights.

        Softmax layers are evaluated with `\exp` applied entrywise and each
        column normalized (this needs a real or complex field).

        INPUT:

        - ``X`` -- a `d \times t` matrix
        - ``weights`` -- a list as returned by :meth:`random_weights`

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=1, t=2, a=1, weights='AV')
            sage: M.forward(matrix(QQ, [[1, 2]]), [(matrix([[1]]), matrix([[1]]))])
            [ 5 10]
        """
        for w, norm in zip(weights, self.normalization):
            if len(w) == 3:
                Q, K, V = w
                A = K.transpose() * Q
            else:
                A, V = w
            S = X.transpose() * A * X
            if norm == "softmax":
                S = S.apply_map(lambda s: s.exp())
                S = matrix(S.base_ring(), [[S[n, j] / sum(S.column(j)) for j in range(S.ncols())]
                                           for n in range(S.nrows())])
            X = V * X * S
        return X

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
        """
        self._require_lightning("coefficients_at")
        if self.nlayers() > 1:
            pt = self.weights_point(weights)
            return [f(pt) for f in self._images()]
        w = weights[0]
        if len(w) == 3:
            A = w[1].transpose() * w[0]
            V = w[2]
        else:
            A, V = w
        F = A.base_ring()
        scaled = self.coordinates == "scaled"
        vals = []
        for c in self.coordinates_list():
            v = V.row(c.row - 1)
            if c.kind == "cross":
                a, b, cc = (x - 1 for x in c.indices)
                f = v[a] * A[b, cc] + (v[b] * A[a, cc] if a != b else 0)
            else:
                f = sum(v[p - 1] * A[q - 1, r - 1] for p, q, r in _distinct_orderings(c.indices))
            vals.append(F(f) / self._term_count(c) if scaled else F(f))
        return vals

    # ------------------------------------------------------------------
    # Dimension and fibers
    # ------------------------------------------------------------------

    def expected_dimension(self):
        r"""
        Return the dimension predicted by the published formulas, or ``None``.

        Single lightning layer ([HMK2024]_, :ref:`mathematics, §5 <math-5>`), with
        `r = \min(a, d)` and `d'` replaced by the number of output rows kept:

        - `t \ge 2`: `d d' + r(2d - r) - 1`;
        - `t = 1`: `d d' + s(2d - s + 1)/2 - 1` with `s = \min(2a, d)`.

        Deep lightning network with no hidden layer narrower than the input
        and no rank-one layer before the last: `\sum_i r_i (2 d_0 - r_i) +
        d_0 d_l - l`, `r_i = \min(a_i, d_0)`. Softmax layers: the same
        formulas without the `-l` (the scaling symmetry is gone; proved for
        one layer in [HMK2024]_, conjectured for deeper networks). ``None``
        where no formula applies (a bottleneck, a rank-one hidden layer, a
        deep network with `t = 1`): see :meth:`expected_dimension_note`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention, SoftmaxAttention
            sage: LightningAttention(d=3, t=2, a=2, out=1).expected_dimension()
            10
            sage: LightningAttention(d=3, t=1, a=1, out=3).expected_dimension()
            13
            sage: LightningAttention(widths=[3, 3, 3], ranks=[2, 2], t=3).expected_dimension()
            23
            sage: SoftmaxAttention(widths=[3, 3, 3], ranks=[2, 2], t=3).expected_dimension()
            25
            sage: LightningAttention(widths=[3, 2, 3], ranks=[1, 1], t=3).expected_dimension() is None
            True
        """
        return self._expected()[0]

    def expected_dimension_note(self):
        r"""
        Return a sentence saying which formula :meth:`expected_dimension` used.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=3, t=2, a=4).expected_dimension_note()
            "[HMK2024] single layer, t >= 2: d*d' + r*(2d - r) - 1 with r = min(a, d) = 3"
            sage: LightningAttention(widths=[3, 2, 3], ranks=[2, 2], t=3).expected_dimension_note()
            'no published formula: hidden width d_1 = 2 is narrower than the input (a bottleneck lowers the dimension)'
        """
        return self._expected()[1]

    @cached_method
    def _expected(self):
        d, l = self.d, self.nlayers()
        softmax = not self.is_lightning()
        minus = 0 if softmax else 1
        if l == 1:
            a = self.ranks[0]
            rows = len(self.output_rows())
            if self.tokens >= 2:
                r = min(a, d)
                return (d * rows + r * (2 * d - r) - minus,
                        "[HMK2024] single layer, t >= 2: d*d' + r*(2d - r)"
                        + (" - 1" if minus else "") + f" with r = min(a, d) = {r}")
            if softmax:
                return None, "no published formula for softmax attention with one token"
            s = min(2 * a, d)
            return (d * rows + s * (2 * d - s + 1) // 2 - 1,
                    f"[HMK2024] single layer, t = 1: d*d' + s(2d - s + 1)/2 - 1 with s = min(2a, d) = {s}")
        if self.tokens == 1:
            return None, "no published formula for deep networks with one token"
        for i in range(1, l):
            if self.widths[i] < d:
                return None, (f"no published formula: hidden width d_{i} = {self.widths[i]} is "
                              "narrower than the input (a bottleneck lowers the dimension)")
        for i in range(l - 1):
            if min(self.ranks[i], d) == 1:
                return None, (f"no published formula: layer {i + 1} has rank 1, so every later "
                              "token matrix has rank one and later layers only see Sym(A)")
        if self.entries is not None:
            return None, "no published formula for a deep network restricted to some entries"
        rs = [min(a, d) for a in self.ranks]
        value = sum(r * (2 * d - r) for r in rs) + d * self.out - (0 if softmax else l)
        return value, ("[HMK2024] deep: sum r_i(2 d_0 - r_i) + d_0 d_l"
                       + ("" if softmax else " - l") + f" with r = {tuple(rs)}")

    def dimension(self, seed=None, field=None, proof=False):
        r"""
        Return the dimension of the neurovariety, with a report.

        The dimension (of the affine cone) is the generic rank of the
        Jacobian of the parametrization. It is computed at random weights by
        forward-mode differentiation of the network at random inputs, so the
        polynomials are never expanded: the Jacobian of
        weights `\mapsto (Y(X_1), \dots, Y(X_N))` has the same generic rank
        as the coefficient map once the inputs are generic and numerous
        enough. Inputs are added one at a time until a new one adds no rank
        (then every function in the kernel vanishes at a generic point, hence
        everywhere).

        INPUT:

        - ``seed`` -- (default: ``None``) integer; the same seed gives the
          same random points and the same report
        - ``field`` -- (default: `\GF{p}` with `p = 67108859`) the field of
          the random points; `\QQ` is exact but slower
        - ``proof`` -- boolean (default: ``False``); must be ``False``: the
          rank at a random point is a certified lower bound and equals the
          dimension only with high probability

        OUTPUT: a :class:`~sage_attention.models.reports.DimensionReport`

        .. WARNING::

            The result is never larger than the true dimension (a rank at a
            point, reduced modulo `p` or not, is at most the generic rank).
            It is smaller with probability at most
            ``report.failure_probability`` (Schwartz--Zippel over the random
            weights and inputs).

        ALGORITHM: [HMK2024]_ for the expected value; exact linear algebra
        over `\GF{p}` for the computed one.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=4, t=3, a=2, out=2)
            sage: D = M.dimension(seed=0)
            sage: D.dimension, D.expected, D.agrees
            (19, 19, True)
            sage: D.failure_probability < 1e-4
            True

        Over `\QQ` the same rank::

            sage: M.dimension(seed=0, field=QQ).dimension
            19

        A deep network: the rank one first layer makes the formula
        inapplicable; the computed dimension is still exact::

            sage: LightningAttention(widths=[3, 3, 3], ranks=[1, 2], t=3).dimension(seed=2)
            The neurovariety of LightningAttention(widths=(3, 3, 3), ranks=(1, 2), t=3) over Rational Field has dimension 18
            (no published formula: layer 1 has rank 1, so every later token matrix has rank one and later layers only see Sym(A)); the generic fiber has dimension 18.

        TESTS::

            sage: M.dimension(proof=True)
            Traceback (most recent call last):
            ...
            NotImplementedError: proof=True is not available: the dimension is a rank at a random point; pass proof=False
        """
        from sage_attention.models.reports import DimensionReport
        if proof:
            raise NotImplementedError("proof=True is not available: the dimension is a rank at a "
                                      "random point; pass proof=False")
        if not self.is_lightning():
            from sage_attention.models.softmax import numerical_dimension
            return numerical_dimension(self, seed=seed)
        F = GF(DEFAULT_PRIME) if field is None else field
        rank, ninputs, bound = _jacobian_rank(self, F, seed)
        expected, note = self._expected()
        return DimensionReport(
            model=repr(self), dimension=rank, expected=expected, expected_note=note,
            parameters=self.nparameters(), parameter_dimension=self.parameter_dimension(),
            fiber_dimension=self.parameter_dimension() - rank,
            failure_probability=float(bound), seed=seed, field=str(F), inputs=ninputs,
            method="rank of the Jacobian at random weights and inputs (forward mode)")

    def fibers(self, seed=None):
        r"""
        Return the generic fiber of the parametrization, with its symmetries.

        The fiber dimension is the weight-space dimension minus the
        dimension of the neurovariety. For one lightning layer with `t \ge 2`
        it is compared with the symmetry group of [HMK2024]_: `GL_a \times
        K^*` acting by `(Q, K, V) \mapsto (C Q, \lambda C^{-T} K,
        \lambda^{-1} V)` (for `a \le d`; weights ``'AV'``: only the scaling
        `(A, V) \mapsto (\lambda A, \lambda^{-1} V)`).

        INPUT:

        - ``seed`` -- (default: ``None``) integer, passed to :meth:`dimension`

        OUTPUT: a :class:`~sage_attention.models.reports.FiberReport`

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: F = LightningAttention(d=3, t=2, a=2, out=2).fibers(seed=0); F
            Generic fibers of LightningAttention(d=3, d'=2, t=2, a=2) over Rational Field have dimension 5 = dim(GL_2 x K^*):
            the weights are identifiable up to (Q, K, V) -> (C Q, lambda C^-T K, lambda^-1 V).
            sage: F.identifiable_up_to_symmetry
            True

        With one token only `\operatorname{Sym}(A)` matters, so the fiber is
        larger than the group orbit::

            sage: LightningAttention(d=3, t=1, a=2, out=1, weights='AV').fibers(seed=0).statement
            'the weights are not identifiable up to the known symmetries: only Sym(A) = (A + A^T)/2 enters the map, so the fiber has dimension 3 > 1'
        """
        from sage_attention.models.reports import FiberReport
        D = self.dimension(seed=seed)
        fib = D.fiber_dimension
        group, gdim, action = self._symmetry_group()
        identifiable = (gdim == fib)
        if identifiable:
            statement = f"the weights are identifiable up to {action}"
        elif self.tokens == 1 and self.nlayers() == 1:
            statement = ("the weights are not identifiable up to the known symmetries: only "
                         f"Sym(A) = (A + A^T)/2 enters the map, so the fiber has dimension {fib} > {gdim}")
        else:
            statement = (f"the generic fiber (dimension {fib}) is larger than the orbits of "
                         f"{group} (dimension {gdim}): further symmetries or degeneracies")
        return FiberReport(model=repr(self), fiber_dimension=fib, symmetry_group=group,
                           symmetry_dimension=gdim, identifiable_up_to_symmetry=identifiable,
                           statement=statement, dimension=D.dimension, seed=seed)

    def neurovariety(self):
        r"""
        Return the neurovariety of this model: vanishing ideal, membership,
        invariants and certificates.

        OUTPUT: a :class:`~sage_attention.variety.neurovariety.Neurovariety`

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
            sage: X = M.neurovariety(); X
            Neurovariety of LightningAttention(d=2, d'=1, t=2, a=1, entries=((1, 1),)) over Rational Field
            sage: all(X.contains(f) for f in X.vanishing_ideal().gens())
            True

        .. SEEALSO::

            :mod:`sage_attention.variety.neurovariety`, :mod:`sage_attention.invariants`
        """
        from sage_attention.variety.neurovariety import Neurovariety
        return Neurovariety(self)

    def _symmetry_group(self):
        r"""
        Return ``(name, dimension, action)`` of the known symmetry group.
        """
        parts, dim, acts = [], 0, []
        l = self.nlayers()
        for i, a in enumerate(self.ranks):
            din = self.widths[i]
            if self.weights == "QKV":
                if a <= din:
                    parts.append(f"GL_{a}")
                    dim += a * a
                else:
                    parts.append(f"{{(Q, K): K^T Q fixed}} (dim {2 * a * din - din * din})")
                    dim += 2 * a * din - din * din
        if l > 1:
            # X_i -> C X_i for a hidden width, compensated in the next layer
            for h in self.widths[1:l]:
                parts.append(f"GL_{h}")
                dim += h * h
        scalings = sum(1 for n in self.normalization if n == "lightning")
        if scalings:
            parts.append("K^*" if scalings == 1 else f"(K^*)^{scalings}")
            dim += scalings
        name = " x ".join(parts) if parts else "trivial group"
        if l == 1 and self.weights == "QKV" and self.ranks[0] <= self.d:
            action = "(Q, K, V) -> (C Q, lambda C^-T K, lambda^-1 V)"
        elif l == 1 and self.weights == "AV":
            action = "(A, V) -> (lambda A, lambda^-1 V)"
        else:
            action = name
        return name, dim, action


def _random_matrix(F, r, c, rng):
    if F.characteristic() == 0:
        return matrix(F, r, c, [rng.randint(-100, 100) for _ in range(r * c)])
    p = F.characteristic()
    return matrix(F, r, c, [rng.randrange(p) for _ in range(r * c)])


def _degree_bound(model):
    r"""
    Return a bound on the total degree of the Jacobian entries in the random
    weights and inputs.
    """
    T = 1
    for _ in model.ranks:
        T = 3 * T + (3 if model.weights == "QKV" else 2)
    return T + (1 if model.weights == "AV" else 0)


def _layer_derivatives(model, X, weights, F):
    r"""
    Return the list of derivatives `\partial Y / \partial w` (one matrix per
    weight direction) at input ``X`` and ``weights``. For ``'AV'`` the
    directions in `A` are the tangent directions `dB\, C + B\, dC` of the
    factorization `A = B C` used to draw `A`.
    """
    # forward pass, keeping the intermediate token matrices
    Xs = [X]
    As, Vs = [], []
    for w in weights:
        if len(w) == 3:
            A = w[1].transpose() * w[0]
            V = w[2]
        else:
            A, V = w[0], w[1]
        As.append(A)
        Vs.append(V)
        Xs.append(V * Xs[-1] * (Xs[-1].transpose() * A * Xs[-1]))

    def propagate(start, dX):
        # push a derivative of the output of layer `start` through later layers
        for m in range(start + 1, len(weights)):
            Xm, A, V = Xs[m], As[m], Vs[m]
            M = Xm.transpose() * A * Xm
            dM = dX.transpose() * A * Xm + Xm.transpose() * A * dX
            dX = V * dX * M + V * Xm * dM
        return dX

    derivs = []
    for m, w in enumerate(weights):
        Xm, A, V = Xs[m], As[m], Vs[m]
        M = Xm.transpose() * A * Xm
        AX = A * Xm
        # directions in A
        dAs = []
        if len(w) == 3:
            Q, K = w[0], w[1]
            a, din = Q.dimensions()
            for k in range(a):
                for c in range(din):
                    E = zero_matrix(F, a, din)
                    E[k, c] = 1
                    dAs.append(K.transpose() * E)          # dQ
            for k in range(a):
                for b in range(din):
                    E = zero_matrix(F, a, din)
                    E[k, b] = 1
                    dAs.append(E.transpose() * Q)          # dK
        else:
            din = A.nrows()
            r = min(model.ranks[m], din)
            if r >= din:
                for b in range(din):
                    for c in range(din):
                        E = zero_matrix(F, din, din)
                        E[b, c] = 1
                        dAs.append(E)
            else:
                B, C = _factor(A, r)
                for b in range(din):
                    for k in range(r):
                        E = zero_matrix(F, din, r)
                        E[b, k] = 1
                        dAs.append(E * C)
                for k in range(r):
                    for c in range(din):
                        E = zero_matrix(F, r, din)
                        E[k, c] = 1
                        dAs.append(B * E)
        VX = V * Xm
        dV_list = []
        dout = V.nrows()
        for i in range(dout):
            for p in range(din):
                E = zero_matrix(F, dout, din)
                E[i, p] = 1
                dV_list.append(E * Xm * M)
        dA_list = [VX * (Xm.transpose() * dA * Xm) for dA in dAs]
        if len(w) == 3:
            layer = dA_list + dV_list
        else:
            layer = dV_list + dA_list
        derivs += [propagate(m, D) for D in layer]
    return derivs, Xs[-1]


def _factor(A, r):
    r"""
    Return `(B, C)` with `A = B C`, `B` of size `d \times r`.
    """
    pivots = A.pivots()
    if len(pivots) != r:
        raise ValueError(f"matrix has rank {len(pivots)}, expected {r}")
    B = A.matrix_from_columns(pivots)
    C = A.echelon_form().matrix_from_rows(range(r))
    return B, C


def _jacobian_rank(model, F, seed):
    r"""
    Return ``(rank, number of inputs, failure bound)``.
    """
    rng = random.Random(None if seed is None else int(seed))
    weights = model.random_weights(field=F, seed=rng.randrange(2**32))
    entries = [(i - 1, j - 1) for i, j in model.output_entries()]
    ncols = model.nparameters() if model.weights == "QKV" else None
    rows = []
    rank = -1
    ninputs = 0
    steps = 0
    per_input = len(entries)
    target = None
    while True:
        X = _random_matrix(F, model.d, model.tokens, rng)
        derivs, _ = _layer_derivatives(model, X, weights, F)
        for (i, j) in entries:
            rows.append([D[i, j] for D in derivs])
        ninputs += 1
        if ncols is None:
            ncols = len(rows[-1])
        if target is None:
            # a first batch large enough to reach full column rank
            target = max(1, -(-(ncols + 1) // per_input))
        if ninputs < target:
            continue
        new_rank = matrix(F, rows).rank()
        steps += 1
        logger.info("dimension: %d inputs, rank %d", ninputs, new_rank)
        if new_rank == rank or new_rank == ncols:
            rank = new_rank
            break
        rank = new_rank
    if F.characteristic() == 0:
        size = 201
    else:
        size = F.characteristic()
    bound = (steps + 1) * rank * _degree_bound(model) / size
    return rank, ninputs, min(bound, 1.0)


def LightningAttention(d=None, t=None, a=None, out=1, *, widths=None, ranks=None,
                       weights="QKV", coordinates="raw", entries=None, base_ring=None):
    r"""
    Return a lightning (unnormalized) attention network.

    Give either one layer by ``d, t, a, out``, or a deep network by
    ``widths``, ``ranks`` and ``t``.

    INPUT:

    - ``d`` -- positive integer; the input width (one layer)
    - ``t`` -- positive integer; the number of tokens
    - ``a`` -- positive integer; the attention rank (one layer)
    - ``out`` -- positive integer (default: `1`); the output width `d'`
    - ``widths`` -- list `(d_0, \dots, d_l)` (deep network)
    - ``ranks`` -- list `(a_1, \dots, a_l)` (deep network)
    - ``weights``, ``coordinates``, ``entries``, ``base_ring`` -- as in
      :class:`AttentionNetwork`

    OUTPUT: an :class:`AttentionNetwork`

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: LightningAttention(d=3, t=2, a=1, out=2)
        LightningAttention(d=3, d'=2, t=2, a=1) over Rational Field
        sage: LightningAttention(widths=[3, 4, 5], ranks=[2, 3], t=3)
        LightningAttention(widths=(3, 4, 5), ranks=(2, 3), t=3) over Rational Field

    TESTS::

        sage: LightningAttention(d=3, t=2)
        Traceback (most recent call last):
        ...
        SpecError: give either d, t, a (one layer) or widths, ranks, t (a deep network)
    """
    return _network("lightning", d, t, a, out, widths, ranks, weights, coordinates, entries,
                    base_ring)


def SoftmaxAttention(d=None, t=None, a=None, out=1, *, widths=None, ranks=None,
                     weights="QKV", entries=None, base_ring=None):
    r"""
    Return a softmax-normalized attention network.

    The arguments are those of :func:`LightningAttention`. The network is
    not polynomial; its dimension is estimated numerically
    (:func:`~sage_attention.models.softmax.numerical_dimension`).

    EXAMPLES::

        sage: from sage_attention import SoftmaxAttention
        sage: SoftmaxAttention(widths=[3, 3, 3], ranks=[2, 2], t=3)
        SoftmaxAttention(widths=(3, 3, 3), ranks=(2, 2), t=3) over Rational Field
    """
    return _network("softmax", d, t, a, out, widths, ranks, weights, "raw", entries, base_ring)


def _network(norm, d, t, a, out, widths, ranks, weights, coordinates, entries, base_ring):
    if widths is None and ranks is None and d is not None and a is not None and t is not None:
        widths, ranks = (d, out), (a,)
    elif widths is not None and ranks is not None and t is not None and d is None and a is None:
        pass
    else:
        raise SpecError("give either d, t, a (one layer) or widths, ranks, t (a deep network)")
    return AttentionNetwork(widths=widths, ranks=ranks, tokens=t, normalization=norm,
                            weights=weights, coordinates=coordinates, entries=entries,
                            base_ring=base_ring)
