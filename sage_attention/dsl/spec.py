r"""
The typed model of a spec file

A spec file (see :mod:`sage_attention.dsl`) describes attention networks and
the computations to run on them.  Parsing it gives a :class:`Spec`: a tuple
of :class:`ModelSpec` (field, input width `d`, number of tokens `t`, the
layers with their ranks, output widths and normalizations, the weight space
and the coefficient coordinates) and a tuple of :class:`Computation`.

These are frozen dataclasses and import no Sage, so the DSL is tested in
milliseconds.  Equality ignores source positions, so a spec equals the
parse of its canonical source :meth:`Spec.to_dsl`.

Semantic checks (positive widths, `p` prime, entries in range, known
computations, the size guard) are a separate pass,
:func:`~sage_attention.dsl.validation.validate` (importable from here too).

EXAMPLES::

    sage: from sage_attention.dsl import parse_spec
    sage: spec = parse_spec('''
    ....: model slice {
    ....:   input = 3; tokens = 2
    ....:   layer attention(rank = 2, out = 1)
    ....:   weights = A V; coordinates = scaled; entries = (1, 1)
    ....: }
    ....: compute slice { dimension; fibers }
    ....: ''')
    sage: m = spec.models[0]
    sage: m.widths, m.ranks, m.tokens, m.weights, m.entries
    ((3, 1), (2,), 2, 'AV', ((1, 1),))
    sage: [c.name for c in spec.computations]
    ['dimension', 'fibers']
    sage: print(spec.to_dsl())
    model slice {
      field = QQ
      input = 3
      tokens = 2
      layer attention(rank = 2, out = 1)
      weights = A V
      coordinates = scaled
      entries = (1, 1)
    }
    compute slice {
      dimension
      fibers
    }
    sage: parse_spec(spec.to_dsl()) == spec
    True
    sage: from sage_attention.dsl.spec import validate
    sage: validate(spec)
    []
"""
from dataclasses import dataclass, field as dc_field
from enum import Enum
from fractions import Fraction

from sage_attention.errors import SpecError  # noqa: F401 (part of this module's API)
from sage_attention.dsl.text import did_you_mean, format_value  # noqa: F401 (part of this module's API)
from sage_attention.dsl.computations import ALL_FAMILIES, check_statement  # noqa: F401
# the semantic checks live in their own module; their public names stay importable from here
from sage_attention.dsl.validation import (COMPUTATION_OPTIONS, INVARIANT_FAMILIES,  # noqa: F401
                                           MASKS, MAX_CHARACTERISTIC, MAX_SIZE, is_prime,
                                           validate)

_is_prime = is_prime


@dataclass(frozen=True)
class SourceSpan:
    r"""
    A region of the source text (1-based lines and columns).

    EXAMPLES::

        sage: from sage_attention.dsl.spec import SourceSpan
        sage: SourceSpan(2, 3, 2, 10)
        SourceSpan(line=2, column=3, end_line=2, end_column=10)
    """
    line: int
    column: int
    end_line: int
    end_column: int


class Normalization(Enum):
    r"""
    The normalization of an attention layer.

    EXAMPLES::

        sage: from sage_attention.dsl.spec import Normalization
        sage: Normalization("softmax"), Normalization.LIGHTNING.value
        (<Normalization.SOFTMAX: 'softmax'>, 'lightning')
    """
    LIGHTNING = "lightning"
    SOFTMAX = "softmax"


@dataclass(frozen=True)
class Field:
    r"""
    The coefficient field: ``QQ`` or ``GF(p)``.

    INPUT:

    - ``kind`` -- ``"QQ"`` (default) or ``"GF"``
    - ``p`` -- (default: ``None``) the characteristic, for ``"GF"``

    EXAMPLES::

        sage: from sage_attention.dsl.spec import Field
        sage: str(Field()), str(Field("GF", 7))
        ('QQ', 'GF(7)')
    """
    kind: str = "QQ"
    p: int = None

    def __str__(self):
        return "QQ" if self.kind == "QQ" else f"GF({self.p})"

    def build(self):
        r"""
        Return the Sage field.

        EXAMPLES::

            sage: from sage_attention.dsl.spec import Field
            sage: Field().build(), Field("GF", 101).build()
            (Rational Field, Finite Field of size 101)
        """
        if self.kind == "QQ":
            from sage.rings.rational_field import QQ
            return QQ
        from sage.rings.finite_rings.finite_field_constructor import GF
        return GF(self.p)


@dataclass(frozen=True)
class Layer:
    r"""
    One attention layer: its rank `a`, output width `d'`, normalization,
    number of summed heads, mask and residual connection.

    ``rank`` or ``out`` is ``None`` when the source omits it;
    :func:`~sage_attention.dsl.validation.validate` reports that. ``mask`` is one of
    :data:`~sage_attention.dsl.validation.MASKS`
    (``"none"``: every output token sees every token; ``"causal"``: output
    token `j` sees the tokens `n \le j`); ``residual = true`` adds the
    layer's input to its output (`Y = X + \mathrm{attention}(X)`).

    EXAMPLES::

        sage: from sage_attention.dsl.spec import Layer, Normalization
        sage: Layer(2, 1).to_dsl()
        'layer attention(rank = 2, out = 1)'
        sage: Layer(2, 3, Normalization.SOFTMAX).to_dsl()
        'layer attention(rank = 2, out = 3, normalization = softmax)'
        sage: Layer(2, 3, heads=2, mask="causal", residual=True).to_dsl()
        'layer attention(rank = 2, out = 3, heads = 2, mask = causal, residual = true)'
        sage: Layer(2, 3).is_plain(), Layer(2, 3, heads=2).is_plain()
        (True, False)
    """
    #: the kind of layer (a class attribute)
    kind = "attention"
    rank: int = None
    out: int = None
    normalization: Normalization = Normalization.LIGHTNING
    heads: int = 1
    mask: str = "none"
    residual: bool = False
    span: SourceSpan = dc_field(default=None, compare=False, repr=False)
    #: ``(key, span)`` of each argument as written, for validation
    arg_spans: tuple = dc_field(default=(), compare=False, repr=False)

    def to_dsl(self):
        r"""
        Return the canonical source of this layer.

        EXAMPLES::

            sage: from sage_attention.dsl.spec import Layer
            sage: Layer(out=1).to_dsl()
            'layer attention(out = 1)'
        """
        args = []
        if self.rank is not None:
            args.append(f"rank = {self.rank}")
        if self.out is not None:
            args.append(f"out = {self.out}")
        if self.normalization is not Normalization.LIGHTNING:
            args.append(f"normalization = {self.normalization.value}")
        if self.heads != 1:
            args.append(f"heads = {format_value(self.heads)}")
        if self.mask != "none":
            args.append(f"mask = {self.mask}")
        if self.residual is not False:
            args.append(f"residual = {format_value(self.residual)}")
        return f"layer attention({', '.join(args)})"

    def is_plain(self):
        r"""
        Return whether this layer has one head, no mask and no residual connection.

        EXAMPLES::

            sage: from sage_attention.dsl.spec import Layer
            sage: Layer(1, 1).is_plain(), Layer(1, 1, mask="causal").is_plain()
            (True, False)
        """
        return self.heads == 1 and self.mask == "none" and self.residual is False


#: The activations a dense layer may have: ``linear`` or ``power(r)``.
ACTIVATIONS = ("linear", "power")


@dataclass(frozen=True)
class DenseLayer:
    r"""
    One dense (MLP) layer `Y = (W X + b \mathbf{1}^T)^{\circ r}`, acting on each token.

    ``activation`` is the name written (``"linear"``, the default, or
    ``"power"``) and ``degree`` its argument (``None`` for a bare name); both
    are checked by :func:`~sage_attention.dsl.validation.validate`, as are
    ``bias`` and ``residual`` (``True``/``False``, or the word written).

    EXAMPLES::

        sage: from sage_attention.dsl.spec import DenseLayer
        sage: DenseLayer(4, "power", 3, bias=True).to_dsl()
        'layer dense(out = 4, activation = power(3), bias = true)'
        sage: DenseLayer(1).to_dsl(), DenseLayer(1).power
        ('layer dense(out = 1)', 1)
        sage: DenseLayer(2, "power", 2, residual=True).power
        2
    """
    #: the kind of layer (a class attribute)
    kind = "dense"
    out: int = None
    activation: str = "linear"
    degree: object = None
    bias: object = False
    residual: object = False
    span: SourceSpan = dc_field(default=None, compare=False, repr=False)
    #: ``(key, span)`` of each argument as written, for validation
    arg_spans: tuple = dc_field(default=(), compare=False, repr=False)

    @property
    def power(self):
        r"""
        Return the power `r` of the activation (`1` for a linear layer).

        EXAMPLES::

            sage: from sage_attention.dsl.spec import DenseLayer
            sage: DenseLayer(3, "power", 5).power
            5
        """
        return 1 if self.activation == "linear" and self.degree is None else self.degree

    def nparameters(self, din):
        r"""
        Return the number of weights `d_i d_{i-1}` (plus `d_i` with a bias).

        EXAMPLES::

            sage: from sage_attention.dsl.spec import DenseLayer
            sage: DenseLayer(3, bias=True).nparameters(2)
            9
        """
        return self.out * din + (self.out if self.bias is True else 0)

    def to_dsl(self):
        r"""
        Return the canonical source of this layer.

        EXAMPLES::

            sage: from sage_attention.dsl.spec import DenseLayer
            sage: DenseLayer(2, "power", 2, residual=True).to_dsl()
            'layer dense(out = 2, activation = power(2), residual = true)'
        """
        args = []
        if self.out is not None:
            args.append(f"out = {self.out}")
        if self.degree is not None:
            args.append(f"activation = {self.activation}({format_value(self.degree)})")
        elif self.activation != "linear":
            args.append(f"activation = {self.activation}")
        if self.bias is not False:
            args.append(f"bias = {format_value(self.bias)}")
        if self.residual is not False:
            args.append(f"residual = {format_value(self.residual)}")
        return f"layer dense({', '.join(args)})"

    def is_plain(self):
        r"""
        Return ``False``: a dense layer is not an attention layer with one head.

        EXAMPLES::

            sage: from sage_attention.dsl.spec import DenseLayer
            sage: DenseLayer(1).is_plain()
            False
        """
        return False


WEIGHT_SPACES = {"QKV": "Q K V", "AV": "A V"}


@dataclass(frozen=True)
class ModelSpec:
    r"""
    A named attention network, as written in a spec file.

    INPUT:

    - ``name`` -- string
    - ``field`` -- a :class:`Field` (default: ``QQ``)
    - ``input`` -- the input width `d`
    - ``tokens`` -- the number of tokens `t`
    - ``layers`` -- tuple of :class:`Layer`
    - ``weights`` -- ``"QKV"`` (default) or ``"AV"``
    - ``coordinates`` -- ``"raw"`` (default) or ``"scaled"``
    - ``entries`` -- ``None`` (all output entries) or a tuple of 1-based
      pairs ``(row, token)``

    EXAMPLES::

        sage: from sage_attention.dsl.spec import ModelSpec, Layer
        sage: m = ModelSpec("m", input=3, tokens=2, layers=(Layer(2, 3), Layer(2, 3)))
        sage: m.widths, m.ranks
        ((3, 3, 3), (2, 2))
        sage: print(m.to_dsl())
        model m {
          field = QQ
          input = 3
          tokens = 2
          layer attention(rank = 2, out = 3)
          layer attention(rank = 2, out = 3)
          weights = Q K V
          coordinates = raw
        }
    """
    name: str
    field: Field = Field()
    input: int = None
    tokens: int = None
    layers: tuple = ()
    weights: str = "QKV"
    coordinates: str = "raw"
    entries: tuple = None
    #: whether a last dense layer must be linear (``True``, the convention of
    #: Kileel--Trager--Bruna), or the word written
    linear_output: object = True
    span: SourceSpan = dc_field(default=None, compare=False, repr=False)
    #: ``(key, span)`` of each item as written, for validation
    item_spans: tuple = dc_field(default=(), compare=False, repr=False)

    def has_dense_layers(self):
        r"""
        Return whether some layer is dense (then the model is built as a
        :class:`~sage_attention.models.stack.LayerStack`, see :meth:`is_stack`).

        EXAMPLES::

            sage: from sage_attention.dsl.spec import ModelSpec, Layer, DenseLayer
            sage: ModelSpec("m", input=2, layers=(DenseLayer(2, "power", 2), DenseLayer(1))).has_dense_layers()
            True
        """
        return any(layer.kind == "dense" for layer in self.layers)

    def is_stack(self):
        r"""
        Return whether the model is built as a
        :class:`~sage_attention.models.stack.LayerStack`: some layer is dense,
        or the layers differ in ``mask`` or ``residual``
        (:class:`~sage_attention.models.multihead.MultiHeadLightningAttention`
        has one mask and one residual choice for the whole network; the stack
        applies each layer's own).

        This is the one place where the class of a model is chosen (:meth:`build`).

        EXAMPLES::

            sage: from sage_attention.dsl.spec import ModelSpec, Layer
            sage: ModelSpec("m", input=2, tokens=3, layers=(Layer(1, 2, mask="causal"),
            ....:                                           Layer(1, 2, mask="causal"))).is_stack()
            False
            sage: m = ModelSpec("m", input=2, tokens=3, layers=(Layer(1, 2, mask="causal"), Layer(1, 1)))
            sage: m.is_stack(), m.build()
            (True, Network([attention(a=1, out=2, causal=True), attention(a=1, out=1)], d=2, t=3) over Rational Field)
        """
        if self.has_dense_layers():
            return True
        return any(len({getattr(layer, key) for layer in self.layers}) > 1
                   for key in ("mask", "residual"))

    @property
    def widths(self):
        r"""
        Return the widths `(d_0, d_1, \dots, d_l)`.

        EXAMPLES::

            sage: from sage_attention.dsl.spec import ModelSpec, Layer
            sage: ModelSpec("m", input=4, tokens=2, layers=(Layer(1, 2),)).widths
            (4, 2)
        """
        return (self.input,) + tuple(layer.out for layer in self.layers)

    @property
    def ranks(self):
        r"""
        Return the attention ranks `(a_1, \dots, a_l)`.

        EXAMPLES::

            sage: from sage_attention.dsl.spec import ModelSpec, Layer
            sage: ModelSpec("m", input=4, tokens=2, layers=(Layer(1, 2),)).ranks
            (1,)
        """
        return tuple(getattr(layer, "rank", None) for layer in self.layers)

    @property
    def normalizations(self):
        r"""
        Return the normalizations of the layers, as strings.

        EXAMPLES::

            sage: from sage_attention.dsl.spec import ModelSpec, Layer
            sage: ModelSpec("m", input=4, tokens=2, layers=(Layer(1, 2),)).normalizations
            ('lightning',)
        """
        return tuple(layer.normalization.value for layer in self.layers
                     if layer.kind == "attention")

    @property
    def heads(self):
        r"""
        Return the numbers of summed heads `(H_1, \dots, H_l)`.

        EXAMPLES::

            sage: from sage_attention.dsl.spec import ModelSpec, Layer
            sage: ModelSpec("m", input=4, tokens=2, layers=(Layer(1, 2, heads=3),)).heads
            (3,)
        """
        return tuple(getattr(layer, "heads", None) for layer in self.layers)

    def is_plain(self):
        r"""
        Return whether every layer has one head, no mask and no residual connection.

        Models that are not plain are built as
        :class:`~sage_attention.models.multihead.MultiHeadLightningAttention`
        (or, when their layers differ in mask or residual, as a
        :class:`~sage_attention.models.stack.LayerStack`: :meth:`is_stack`);
        the computations that apply to them are marked ``extended`` in
        :data:`sage_attention.dsl.computations.COMPUTATIONS`.

        EXAMPLES::

            sage: from sage_attention.dsl.spec import ModelSpec, Layer
            sage: ModelSpec("m", input=2, tokens=2, layers=(Layer(1, 2),)).is_plain()
            True
            sage: ModelSpec("m", input=2, tokens=2, layers=(Layer(1, 2, residual=True),)).is_plain()
            False
        """
        return all(layer.is_plain() for layer in self.layers)

    def size_estimate(self):
        r"""
        Return the :class:`~sage_attention.sizes.SizeEstimate` of this model.

        EXAMPLES::

            sage: from sage_attention.dsl.spec import ModelSpec, Layer
            sage: m = ModelSpec("m", input=3, tokens=2, layers=(Layer(2, 1),))
            sage: m.size_estimate().parameters
            15
        """
        if self.is_stack():
            return self._stack_size_estimate()
        from sage_attention.sizes import estimate_size
        return estimate_size(self.widths, self.ranks, self.tokens,
                             self.weights, self.entries, heads=self.heads,
                             residual=any(layer.residual is True for layer in self.layers))

    def _stack_size_estimate(self):
        from sage_attention.sizes import estimate_stack_size
        params, degree, homogeneous = 0, 1, True
        for din, layer in zip(self.widths, self.layers):
            if layer.kind == "dense":
                params += layer.nparameters(din)
                degree *= layer.power
                homogeneous &= layer.bias is not True and not (layer.residual is True
                                                               and layer.power != 1)
            else:
                params += layer.heads * (2 * layer.rank * din + layer.out * din)
                degree *= 3
                homogeneous &= layer.residual is not True
        per_token = all(layer.kind == "dense" for layer in self.layers)
        return estimate_stack_size(self.input, self.tokens or 1, params, degree, self.widths[-1],
                                   homogeneous, per_token)

    def build(self):
        r"""
        Return the Sage model
        (:class:`~sage_attention.models.base.AttentionNetwork`) described here.

        Validate the spec first (:func:`~sage_attention.dsl.validation.validate`).

        EXAMPLES::

            sage: from sage_attention.dsl.spec import ModelSpec, Layer
            sage: m = ModelSpec("m", input=3, tokens=2, layers=(Layer(2, 1),))
            sage: N = m.build(); N.nparameters()
            15

        Several heads, a mask or residual connections build the same object
        as the Python constructor::

            sage: from sage_attention import LightningAttention
            sage: m = ModelSpec("m", input=3, tokens=2,
            ....:               layers=(Layer(2, 3, heads=2, mask="causal", residual=True),))
            sage: m.build() is LightningAttention(d=3, t=2, a=2, out=3, heads=2, causal=True, residual=True)
            True

        Layers that differ in mask or residual build a stack of layers, each
        with its own (:meth:`is_stack`), as :func:`~sage_attention.models.stack.Network` does::

            sage: from sage_attention import Network, attention
            sage: m = ModelSpec("m", input=2, tokens=3,
            ....:               layers=(Layer(1, 2, mask="causal", residual=True), Layer(1, 1)))
            sage: m.build() is Network([attention(a=1, out=2, causal=True, residual=True),
            ....:                       attention(a=1, out=1)], d=2, t=3)
            True
        """
        if self.is_stack():
            from sage_attention.models import Network, attention, dense
            layers = [dense(la.out, la.power, la.bias, la.residual) if la.kind == "dense" else
                      attention(la.rank, la.out, la.heads, la.mask == "causal", la.residual)
                      for la in self.layers]
            return Network(layers, self.input, self.tokens, self.linear_output is True,
                           base_ring=self.field.build())
        if not self.is_plain():
            from sage_attention.models import LightningAttention
            return LightningAttention(widths=self.widths, ranks=self.ranks, t=self.tokens,
                                      heads=self.heads,
                                      causal=self.layers[0].mask == "causal",
                                      residual=self.layers[0].residual is True,
                                      base_ring=self.field.build())
        from sage_attention.models import AttentionNetwork
        return AttentionNetwork(widths=self.widths, ranks=self.ranks,
                                tokens=self.tokens,
                                normalization=self.normalizations,
                                weight_space=self.weights,
                                coordinate_scaling=self.coordinates,
                                entries=self.entries,
                                base_ring=self.field.build())

    def to_dsl(self):
        r"""
        Return the canonical source of this model.

        EXAMPLES::

            sage: from sage_attention.dsl.spec import ModelSpec, Layer, Field
            sage: m = ModelSpec("m", Field("GF", 7), 2, 1, (Layer(1, 1),), entries=((1, 1),))
            sage: print(m.to_dsl())
            model m {
              field = GF(7)
              input = 2
              tokens = 1
              layer attention(rank = 1, out = 1)
              weights = Q K V
              coordinates = raw
              entries = (1, 1)
            }
        """
        lines = [f"model {self.name} {{", f"  field = {self.field}"]
        if self.input is not None:
            lines.append(f"  input = {self.input}")
        if self.tokens is not None:
            lines.append(f"  tokens = {self.tokens}")
        lines.extend("  " + layer.to_dsl() for layer in self.layers)
        if self.linear_output is not True:
            lines.append(f"  linear_output = {format_value(self.linear_output)}")
        if not self.has_dense_layers() or self.weights != "QKV" or self.coordinates != "raw":
            lines.append(f"  weights = {WEIGHT_SPACES[self.weights]}")
            lines.append(f"  coordinates = {self.coordinates}")
        if self.entries is not None:
            lines.append("  entries = " + ", ".join(f"({i}, {j})" for i, j in self.entries))
        lines.append("}")
        return "\n".join(lines)


def _format_options(options):
    return "".join(f" {k} = {format_value(v)}" for k, v in options)


@dataclass(frozen=True)
class Computation:
    r"""
    A computation statement: the model it runs on, its name and options.

    ``options`` is a tuple of ``(key, value)`` pairs in source order.  Values
    are ``int``, :class:`~fractions.Fraction`, ``str``, ``bool`` or tuples
    of numbers.  Some statements have special syntax, kept as the first
    option:

    - ``invariants pencil, veronese(r = 2)`` -- ``("families", (("pencil", ()), ("veronese", (("r", 2),))))``
    - ``vanishing_ideal up to degree 4`` -- ``("degree", 4)``
    - ``check invariants`` -- ``("what", "invariants")``
    - ``certify point [1, -1/2]`` -- ``("point", (1, Fraction(-1, 2)))``

    EXAMPLES::

        sage: from sage_attention.dsl.spec import Computation
        sage: c = Computation("m", "vanishing_ideal", (("degree", 4), ("algorithm", "elimination")))
        sage: c.to_dsl()
        'vanishing_ideal up to degree 4 algorithm = elimination'
        sage: c.option("algorithm"), c.option("seed", 0)
        ('elimination', 0)
    """
    model: str
    name: str
    options: tuple = ()
    span: SourceSpan = dc_field(default=None, compare=False, repr=False)
    #: ``(key, span)`` of each option as written, for validation
    option_spans: tuple = dc_field(default=(), compare=False, repr=False)
    #: where the model name of the ``compute`` block is written
    model_span: SourceSpan = dc_field(default=None, compare=False, repr=False)

    def option(self, key, default=None):
        r"""
        Return the value of the option ``key`` (or ``default``).

        EXAMPLES::

            sage: from sage_attention.dsl.spec import Computation
            sage: Computation("m", "dimension", (("seed", 3),)).option("seed")
            3
        """
        for k, v in self.options:
            if k == key:
                return v
        return default

    @property
    def options_dict(self):
        r"""
        Return the options as a dictionary.

        EXAMPLES::

            sage: from sage_attention.dsl.spec import Computation
            sage: Computation("m", "dimension", (("seed", 3),)).options_dict
            {'seed': 3}
        """
        return dict(self.options)

    def to_dsl(self):
        r"""
        Return the canonical source of this statement.

        EXAMPLES::

            sage: from fractions import Fraction
            sage: from sage_attention.dsl.spec import Computation
            sage: fam = (("pencil", ()), ("veronese", (("r", 2),)))
            sage: Computation("m", "invariants", (("families", fam),)).to_dsl()
            'invariants pencil, veronese(r = 2)'
            sage: Computation("m", "certify", (("point", (1, Fraction("-1/2"))),)).to_dsl()
            'certify point [1, -1/2]'
            sage: Computation("m", "check", (("what", "invariants"),)).to_dsl()
            'check invariants'
        """
        head, rest = self.name, self.options
        first = rest[0] if rest else (None, None)
        if self.name == "invariants" and first[0] == "families":
            fams = []
            for name, opts in first[1]:
                if opts:
                    name += "(" + ", ".join(f"{k} = {format_value(v)}" for k, v in opts) + ")"
                fams.append(name)
            head += " " + ", ".join(fams)
            rest = rest[1:]
        elif self.name == "vanishing_ideal" and "degree" in dict(rest):
            # `up to degree N` is written first, wherever it was given
            head += f" up to degree {format_value(dict(rest)['degree'])}"
            rest = tuple(o for o in rest if o[0] != "degree")
        elif self.name == "check" and first[0] == "what":
            head += f" {first[1]}"
            rest = rest[1:]
        elif self.name == "certify" and first[0] == "point":
            head += f" point {format_value(first[1])}"
            rest = rest[1:]
        return head + _format_options(rest)


@dataclass(frozen=True)
class Spec:
    r"""
    A parsed spec file: its models and its computations.

    EXAMPLES::

        sage: from sage_attention.dsl.spec import Spec, ModelSpec, Layer, Computation
        sage: s = Spec((ModelSpec("m", input=2, tokens=2, layers=(Layer(1, 1),)),),
        ....:          (Computation("m", "dimension"),))
        sage: s.model("m").widths
        (2, 1)
        sage: from sage_attention.dsl import parse_spec
        sage: parse_spec(s.to_dsl()) == s
        True
    """
    models: tuple = ()
    computations: tuple = ()
    filename: str = dc_field(default=None, compare=False, repr=False)
    source: str = dc_field(default=None, compare=False, repr=False)
    #: the empty ``compute`` blocks, as pairs ``(model name, SourceSpan)`` (they add no
    #: computation; ``validate`` notes them)
    empty_blocks: tuple = dc_field(default=(), compare=False, repr=False)

    def model(self, name):
        r"""
        Return the model called ``name``.

        EXAMPLES::

            sage: from sage_attention.dsl.spec import Spec, ModelSpec
            sage: Spec((ModelSpec("a"),)).model("a").name
            'a'
            sage: Spec((ModelSpec("a"),)).model("b")
            Traceback (most recent call last):
            ...
            KeyError: 'b'
        """
        for m in self.models:
            if m.name == name:
                return m
        raise KeyError(name)

    def computations_of(self, name):
        r"""
        Return the computations that run on the model ``name``, in order.

        EXAMPLES::

            sage: from sage_attention.dsl.spec import Spec, ModelSpec, Computation
            sage: s = Spec((ModelSpec("a"),), (Computation("a", "fibers"),))
            sage: [c.name for c in s.computations_of("a")]
            ['fibers']
        """
        return tuple(c for c in self.computations if c.model == name)

    def to_dsl(self):
        r"""
        Return the canonical source of this spec.

        Models come first, then the computations, grouped into one
        ``compute`` block per run of consecutive statements on one model.

        EXAMPLES::

            sage: from sage_attention.dsl import parse_spec
            sage: s = parse_spec("model m { input = 2; tokens = 1; layer attention(rank=1, out=1) }\n"
            ....:                "compute m { dimension seed = 5 }")
            sage: print(s.to_dsl())
            model m {
              field = QQ
              input = 2
              tokens = 1
              layer attention(rank = 1, out = 1)
              weights = Q K V
              coordinates = raw
            }
            compute m {
              dimension seed = 5
            }
            sage: parse_spec(s.to_dsl()) == s
            True
        """
        blocks = [m.to_dsl() for m in self.models]
        group, current = [], None
        for c in self.computations + (None,):
            if group and (c is None or c.model != current):
                blocks.append(f"compute {current} {{\n"
                              + "".join(f"  {g.to_dsl()}\n" for g in group) + "}")
                group = []
            if c is not None:
                current = c.model
                group.append(c)
        return "\n".join(blocks) + "\n"

    def validate(self, force=False, available=None):
        r"""
        Check this spec; see :func:`~sage_attention.dsl.validation.validate`.

        EXAMPLES::

            sage: from sage_attention.dsl import parse_spec
            sage: parse_spec("model m { input = 3; tokens = 2; layer attention(rank = 5, out = 1) }").validate()
            ['<spec>:1:50: note: rank 5 exceeds input width 3: rank A <= 3 anyway, the rank is no constraint']
        """
        return validate(self, force=force, available=available)
