r"""
The common base class of attention networks

An attention network takes a `d \times t` matrix `X` of tokens to a
`d' \times t` matrix `Y`, one layer after the other. Layer `i` has weights
`Q_i, K_i` of size `a_i \times d_{i-1}` and `V_i` of size `d_i \times
d_{i-1}`, and computes `V_i X S(X^T A_i X)` with `A_i = K_i^T Q_i`, where
`S` is the identity ("lightning" attention) or the column-wise softmax.

The class hierarchy, one class per kind of architecture (the factories
:func:`~sage_attention.models.constructors.LightningAttention` and
:func:`~sage_attention.models.constructors.SoftmaxAttention` choose it)::

    AttentionNetwork                      architecture, weights, evaluation,
     |                                    published formulas, symmetries
     +-- PolynomialAttentionNetwork       rings, coordinates, parametrization,
     |    |                               linear relations, exact Jacobian rank
     |    +-- LightningAttentionLayer     one lightning layer (closed-form
     |    |                               coordinates and linear relations)
     |    +-- DeepLightningAttention      several lightning layers (expanded)
     +-- MultiHeadLightningAttention      summed heads, causal mask, residual
     |                                    stream: exact Jacobian rank only
     +-- SoftmaxAttentionNetwork          some layer normalized: numerical
                                          Jacobian rank only

The published formulas and symmetries come from the mixin
:class:`~sage_attention.models.symmetries.FormulasAndSymmetries`; polynomial
networks add :class:`~sage_attention.models.essential.EssentialCoordinates`
(linear relations) and :class:`~sage_attention.models.jacobian.JacobianDimension`
(the dimension). This module holds the base class, which validates and
normalizes the arguments once, in ``__classcall__``
(:func:`~sage_attention.models.arguments.normalize_arguments`), and picks the
concrete class::

    sage: from sage_attention.models import AttentionNetwork
    sage: type(AttentionNetwork((3, 1), (2,), 2)).__name__
    'LightningAttentionLayer'
    sage: type(AttentionNetwork((3, 3, 3), (2, 2), 3)).__name__
    'DeepLightningAttention'
    sage: type(AttentionNetwork((3, 3), (2,), 3, normalization='softmax')).__name__
    'SoftmaxAttentionNetwork'
"""
# sage.doctest: needs sage.libs.singular

from sage.all__sagemath_singular import SageObject, UniqueRepresentation, QQ

from sage_attention.misc.errors import SpecError
from sage_attention.catalog.costs import estimate_size
from sage_attention.misc.randomness import resolve_seed, python_random
from sage_attention.models.arguments import (  # noqa: F401  (re-exported)
    NORMALIZATIONS, WEIGHT_SPACES, COORDINATE_SCALINGS, COORDINATE_KINDS, Coordinate,
    index_name, distinct_orderings, random_matrix, renamed_keyword, normalize_arguments)
from sage_attention.models.symmetries import FormulasAndSymmetries
from sage_attention.misc.keywords import keyword_hints
import warnings

from sage.misc.lazy_import import lazy_import

# The one arrow up the layers (tests/test_architecture.py): ``model.neurovariety()`` returns a
# variety, a class of the layer above; imported on first use, as Sage's algebraic_scheme.py does
lazy_import("sage_attention.variety.neurovariety", "Neurovariety")


@keyword_hints
class AttentionNetwork(FormulasAndSymmetries, UniqueRepresentation, SageObject):
    r"""
    An attention network with fixed architecture, weight space and coordinates.

    Users normally call :func:`~sage_attention.models.constructors.LightningAttention`
    or :func:`~sage_attention.models.constructors.SoftmaxAttention`. Calling
    this class returns an instance of the subclass for the architecture
    (see the hierarchy in :mod:`sage_attention.models.base`).

    INPUT:

    - ``widths`` -- tuple `(d_0, d_1, \dots, d_l)` of positive integers: the
      input width and the output width of each layer
    - ``ranks`` -- tuple `(a_1, \dots, a_l)` of positive integers: the
      attention rank of each layer (a rank larger than the width is allowed
      and is no constraint)
    - ``tokens`` -- positive integer `t`
    - ``normalization`` -- (default: ``'lightning'``) a string, or a tuple
      with one string per layer: ``'lightning'`` or ``'softmax'``
    - ``weight_space`` -- (default: ``'QKV'``) ``'QKV'`` for the trained
      weights, ``'AV'`` for `A = K^T Q` with `\operatorname{rank} A \le a`
      imposed by minors
    - ``coordinate_scaling`` -- (default: ``'raw'``) ``'raw'`` coefficients or
      ``'scaled'`` ones (divided by their number of terms, as in [ADM2026]_)
    - ``entries`` -- (default: ``None``, all) a collection of 1-based output
      entries ``(row, token)`` to keep
    - ``base_ring`` -- (default: `\QQ`) the coefficient field: an exact field
      for lightning networks, `\QQ` or ``RDF`` for softmax ones

    The keywords ``weights=`` and ``coordinates=`` are the deprecated names
    of ``weight_space=`` and ``coordinate_scaling=``.

    EXAMPLES::

        sage: from sage_attention.models import AttentionNetwork
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
        sage: AttentionNetwork((3, 1), (1,), 2, weight_space='QK')
        Traceback (most recent call last):
        ...
        SpecError: weight_space (='QK') must be one of 'QKV', 'AV'
        sage: AttentionNetwork(('three', 1), (1,), 2)
        Traceback (most recent call last):
        ...
        TypeError: width d_0 (='three') must be a positive integer
        sage: AttentionNetwork((3, 1), (1,), 2, entries=5)
        Traceback (most recent call last):
        ...
        TypeError: entries (=5) must be a list of pairs (row, token)
    """

    #: the concrete classes, by kind (filled by ``__init_subclass__``)
    _classes = {}
    #: the kind of architecture a concrete subclass implements
    _kind = None

    def __init_subclass__(cls, **kwds):
        super().__init_subclass__(**kwds)
        if cls.__dict__.get("_kind") is not None:
            AttentionNetwork._classes[cls._kind] = cls

    @staticmethod
    def __classcall__(cls, widths, ranks, tokens, normalization="lightning", weight_space=None,
                      coordinate_scaling=None, entries=None, base_ring=None, *,
                      weights=None, coordinates=None):
        weight_space = renamed_keyword(weight_space, "weight_space", weights, "weights", "QKV")
        coordinate_scaling = renamed_keyword(coordinate_scaling, "coordinate_scaling",
                                             coordinates, "coordinates", "raw")
        args = normalize_arguments(widths, ranks, tokens, normalization, weight_space,
                                   coordinate_scaling, entries)
        concrete = AttentionNetwork._classes[AttentionNetwork.kind_of(args[0], args[3])]
        if not issubclass(concrete, cls):
            raise TypeError(f"this architecture is a {concrete.__name__}, not a {cls.__name__}")
        base_ring = concrete.check_base_ring(QQ if base_ring is None else base_ring)
        if args[5] == "scaled" and base_ring.characteristic() in (2, 3, 5):
            raise SpecError(f"scaled coordinates divide by 2, 3 and 6: base_ring (={base_ring}) "
                            "must not have characteristic 2, 3 or 5")
        return super(AttentionNetwork, concrete).__classcall__(concrete, *args, base_ring)

    @staticmethod
    def kind_of(widths, normalization):
        r"""
        Return the kind of architecture: ``'lightning layer'``, ``'deep lightning'`` or ``'softmax'``.

        EXAMPLES::

            sage: from sage_attention.models import AttentionNetwork
            sage: AttentionNetwork.kind_of((3, 3, 3), ('lightning', 'softmax'))
            'softmax'
        """
        if any(n != "lightning" for n in normalization):
            return "softmax"
        return "lightning layer" if len(widths) == 2 else "deep lightning"

    @classmethod
    def check_base_ring(cls, base_ring):
        r"""
        Return ``base_ring`` if this class accepts it as coefficient field, else raise.

        EXAMPLES::

            sage: from sage_attention.models import AttentionNetwork
            sage: AttentionNetwork.check_base_ring(GF(5))
            Finite Field of size 5
            sage: AttentionNetwork.check_base_ring('QQ')
            Traceback (most recent call last):
            ...
            TypeError: base_ring (='QQ') must be a field such as QQ or GF(p), not a string
        """
        if isinstance(base_ring, str):
            raise TypeError(f"base_ring (={base_ring!r}) must be a field such as QQ or GF(p), "
                            "not a string")
        if not hasattr(base_ring, "is_field") or not base_ring.is_field():
            raise TypeError(f"base_ring (={base_ring!r}) must be a field")
        if not base_ring.is_exact():
            raise ValueError(f"base_ring (={base_ring}) must be an exact field (QQ, a number "
                             "field or a finite field): the rings and ranks here are exact")
        return base_ring

    def __init__(self, widths, ranks, tokens, normalization, weight_space, coordinate_scaling,
                 entries, base_ring):
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
        self.weight_space = weight_space
        self.coordinate_scaling = coordinate_scaling
        self.entries = entries
        self._base_ring = base_ring

    @property
    def weights(self):
        r"""
        Deprecated name of :attr:`weight_space`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=2, a=1).weights
            doctest:warning...
            DeprecationWarning: the attribute weights is deprecated; use weight_space instead
            'QKV'
        """
        warnings.warn("the attribute weights is deprecated; use weight_space instead",
                      DeprecationWarning, stacklevel=2)
        return self.weight_space

    @property
    def coordinates(self):
        r"""
        Deprecated name of :attr:`coordinate_scaling`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=2, t=2, a=1).coordinates
            doctest:warning...
            DeprecationWarning: the attribute coordinates is deprecated; use coordinate_scaling instead
            'raw'
        """
        warnings.warn("the attribute coordinates is deprecated; use coordinate_scaling instead",
                      DeprecationWarning, stacklevel=2)
        return self.coordinate_scaling

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

    def neurovariety(self):
        r"""
        Return the neurovariety of this model: vanishing ideal, membership,
        invariants and certificates.

        OUTPUT: a :class:`~sage_attention.variety.neurovariety.Neurovariety`
        (every model has one: its dimension and fibers work on all, the
        vanishing ideal and what is read off it need a lightning model with
        coordinates, and say so otherwise)

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=2, a=1, entries=[(1, 1)])
            sage: X = M.neurovariety(); X
            Neurovariety of LightningAttention(d=2, out=1, t=2, a=1, entries=((1, 1),)) over Rational Field
            sage: all(X.contains(f) for f in X.vanishing_ideal().gens())
            True

        Several heads: the dimension, not the ideal::

            sage: H = LightningAttention(d=2, t=2, a=1, heads=2).neurovariety()
            sage: H.dimension(seed=0)
            6
            sage: H.vanishing_ideal()
            Traceback (most recent call last):
            ...
            ValueError: the vanishing ideal needs a lightning model with coordinates (one head, no mask, no residual stream); ...

        .. SEEALSO::

            :mod:`sage_attention.variety.neurovariety`, :mod:`sage_attention.invariants`
        """
        # the one use of a higher layer (documented in tests/test_architecture.py): the variety
        # of a model, through the lazy import at the top of this module
        return Neurovariety(self)

    def with_weight_space(self, weight_space):
        r"""
        Return the same network with the other weight space.

        Both weight spaces parametrize the same neurovariety: `(Q, K, V)`
        and `(A, V)` with `\operatorname{rank} A \le a`. The coordinates are
        the same.

        INPUT:

        - ``weight_space`` -- ``'QKV'`` or ``'AV'``

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=2, t=2, a=1)
            sage: N = M.with_weight_space('AV'); N
            LightningAttention(d=2, out=1, t=2, a=1, weight_space='AV') over Rational Field
            sage: N.with_weight_space('QKV') is M
            True
            sage: N.coordinate_ring() is M.coordinate_ring()
            True
        """
        return AttentionNetwork(self.widths, self.ranks, self.tokens, self.normalization,
                                weight_space, self.coordinate_scaling, self.entries,
                                self._base_ring)

    def _architecture_arguments(self):
        r"""
        Return the constructor's arguments that describe the architecture (for the repr).
        """
        raise NotImplementedError

    #: the name of the factory, for the repr
    _constructor = "AttentionNetwork"

    def _repr_(self):
        r"""
        Return a one-line description that reads like the constructor.

        EXAMPLES::

            sage: from sage_attention import LightningAttention, SoftmaxAttention
            sage: LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)], weight_space='AV')
            LightningAttention(d=3, out=1, t=2, a=2, weight_space='AV', entries=((1, 1),)) over Rational Field
            sage: SoftmaxAttention(d=3, t=3, a=2, out=3)
            SoftmaxAttention(d=3, out=3, t=3, a=2) over Rational Field
        """
        args = self._architecture_arguments()
        if self.weight_space != "QKV":
            args.append(f"weight_space={self.weight_space!r}")
        if self.coordinate_scaling != "raw":
            args.append(f"coordinate_scaling={self.coordinate_scaling!r}")
        if self.entries is not None:
            args.append(f"entries={self.entries}")
        return f"{self._constructor}({', '.join(args)}) over {self._base_ring}"

    #: the superscript of the LaTeX name
    _latex_kind = r"\mathrm{light}"

    def _latex_(self):
        r"""
        Return a LaTeX description: the model's map `\varphi` with its architecture.

        The model is its parametrization `\varphi` (weights to the
        coefficients of the output); its neurovariety is the closure of the
        image, `\overline{\mathrm{im}\,\varphi}`
        (:class:`~sage_attention.variety.neurovariety.Neurovariety`).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: latex(LightningAttention(d=3, t=2, a=2, out=1))
            \varphi^{\mathrm{light}}_{d=3,\, d'=1,\, t=2,\, a=2}

        The weight space, the scaling of the coordinates and the entries
        kept are shown too, so two different models print differently::

            sage: latex(LightningAttention(d=3, t=2, a=1, out=1, weight_space='AV',
            ....:                          coordinate_scaling='scaled', entries=[(1, 1)]))
            \varphi^{\mathrm{light}}_{d=3,\, d'=1,\, t=2,\, a=1;\, (A, V),\, \mathrm{scaled},\, Y_{11}}
            sage: latex(LightningAttention(d=2, t=2, a=1, heads=2, causal=True))
            \varphi^{\mathrm{light}}_{d=2,\, d'=1,\, t=2,\, a=1,\, H=2,\, \mathrm{causal}}

        A field other than `\QQ` is shown::

            sage: latex(LightningAttention(d=2, t=2, a=1, base_ring=GF(65537)))
            \varphi^{\mathrm{light}}_{d=2,\, d'=1,\, t=2,\, a=1} \text{ over } \Bold{F}_{65537}
        """
        sub = r",\, ".join(self._architecture_arguments())
        sub = sub.replace("widths=", r"\mathbf{d}=").replace("ranks=", r"\mathbf{a}=")
        sub = sub.replace("out=", "d'=").replace("heads=", "H=")
        sub = sub.replace("causal=True", r"\mathrm{causal}").replace("residual=True", r"\mathrm{residual}")
        extra = []
        if self.weight_space != "QKV":
            extra.append("(" + ", ".join(self.weight_space) + ")")
        if self.coordinate_scaling != "raw":
            extra.append(rf"\mathrm{{{self.coordinate_scaling}}}")
        if self.entries is not None:
            extra.append(", ".join(f"Y_{{{i}{j}}}" if i < 10 and j < 10 else f"Y_{{{i},{j}}}"
                                   for i, j in self.entries))
        if extra:
            sub += r";\, " + r",\, ".join(extra)
        out = rf"\varphi^{{{self._latex_kind}}}_{{{sub}}}"
        K = self.base_ring()
        if K is not QQ:
            # the field is part of the model: GF(65537) is not QQ
            from sage.misc.latex import latex
            out += rf" \text{{ over }} {latex(K)}"
        return out

    def size_estimate(self):
        r"""
        Return the :class:`~sage_attention.catalog.model_sizes.SizeEstimate` of this model.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=3, t=2, a=2, out=1).size_estimate()
            SizeEstimate(coordinates=56, essential_coordinates=18, parameters=15, terms=672)
        """
        return estimate_size(self.widths, self.ranks, self.tokens, self.weight_space,
                             self.entries)

    def nparameters(self):
        r"""
        Return the number of weight parameters.

        For ``weight_space='AV'`` this counts the entries of `A` and `V`; the
        dimension of the weight variety `\{\operatorname{rank} A \le a\}
        \times K^{d' d}` is :meth:`parameter_dimension`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=3, t=2, a=2, out=1).nparameters()
            15
            sage: LightningAttention(d=3, t=2, a=2, out=1, weight_space='AV').nparameters()
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
            sage: LightningAttention(d=3, t=2, a=1, out=1, weight_space='AV').parameter_dimension()
            8
        """
        if self.weight_space == "QKV":
            return self.nparameters()
        total = 0
        for i, a in enumerate(self.ranks):
            din, dout = self.widths[i], self.widths[i + 1]
            r = min(a, din)
            total += r * (2 * din - r) + dout * din
        return total

    # ------------------------------------------------------------------
    # Weights and evaluation
    # ------------------------------------------------------------------

    def random_weights(self, field=None, seed=None):
        r"""
        Return random weight matrices over ``field``.

        INPUT:

        - ``field`` -- (default: the base ring) a field; over `\QQ` the
          entries are integers in `[-100, 100]`
        - ``seed`` -- (default: ``None``, drawn from Sage's random state)
          integer; the same seed gives the same weights

        OUTPUT: a list with, for each layer, ``(Q, K, V)`` or ``(A, V)``;
        for ``'AV'`` the matrix `A` has rank `\min(a, d)`

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: M = LightningAttention(d=3, t=2, a=1, weight_space='AV')
            sage: (A, V), = M.random_weights(seed=5)
            sage: A.rank(), V.dimensions()
            (1, (1, 3))
            sage: M.random_weights(seed=5) == M.random_weights(seed=5)
            True
        """
        F = self._base_ring if field is None else field
        rng = python_random(resolve_seed(seed))
        out = []
        for l, a in enumerate(self.ranks):
            din, dout = self.widths[l], self.widths[l + 1]
            if self.weight_space == "QKV":
                out.append((random_matrix(F, a, din, rng), random_matrix(F, a, din, rng),
                            random_matrix(F, dout, din, rng)))
            else:
                r = min(a, din)
                A = random_matrix(F, din, r, rng) * random_matrix(F, r, din, rng)
                out.append((A, random_matrix(F, dout, din, rng)))
        return out

    def weights_point(self, weights):
        r"""
        Return the list of values of the weight variables for given matrices.

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
            if self.weight_space == "QKV":
                Q, K, V = w
                vals += Q.list() + K.list() + V.list()
            else:
                A, V = w
                vals += V.list() + A.list()
        return vals

    @staticmethod
    def attention_and_value(w):
        r"""
        Return `(A, V)` from one layer's weights ``(Q, K, V)`` or ``(A, V)``.

        EXAMPLES::

            sage: from sage_attention.models import AttentionNetwork
            sage: AttentionNetwork.attention_and_value((matrix([[1, 2]]), matrix([[3, 4]]), matrix([[1, 1]])))
            (
            [3 6]
            [4 8], [1 1]
            )
        """
        if len(w) == 3:
            return w[1].transpose() * w[0], w[2]
        return w[0], w[1]
