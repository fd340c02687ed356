r"""
The typed model of a spec file

A spec file (see :mod:`sage_attention.dsl`) describes attention networks and
the computations to run on them.  Parsing it gives a :class:`Spec`: a tuple
of :class:`ModelSpec` (field, input width `d`, number of tokens `t`, the
layers with their ranks, output widths and normalizations, the weight space
and the coefficient coordinates) and a tuple of :class:`Computation`.

These are frozen dataclasses and import no Sage, so the DSL is tested in
milliseconds.  Equality ignores source positions, so a spec equals the
parse of its canonical source :meth:`Spec.to_dsl`. The records of the
layers are in :mod:`sage_attention.dsl.layers`, the source positions in
:mod:`sage_attention.dsl.source_text` (both importable from here); a model
spec is built into its Sage model by :meth:`ModelSpec.build`
(:mod:`sage_attention.dsl.build`).

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
from fractions import Fraction  # noqa: F401 (part of this module's API)

from sage_attention.settings import moved_to_settings
from sage_attention.misc.errors import SpecError  # noqa: F401 (part of this module's API)
from sage_attention.misc.text import did_you_mean, format_value  # noqa: F401 (part of this module's API)
from sage_attention.catalog.computations import ALL_FAMILIES, check_statement  # noqa: F401
# the layers, the source spans and the semantic checks live in their own modules; their
# public names stay importable from here
from sage_attention.dsl.source_text import SourceSpan  # noqa: F401
from sage_attention.dsl.layers import ACTIVATIONS, DenseLayer, Layer, Normalization  # noqa: F401
from sage_attention.dsl.validation import (COMPUTATION_OPTIONS, INVARIANT_FAMILIES,  # noqa: F401
                                           MASKS, MAX_CHARACTERISTIC, is_prime, validate)

_is_prime = is_prime

# the largest width, rank or number of tokens is settings.MAX_SPEC_SIZE; the old name reads it
__getattr__ = moved_to_settings(__name__, {"MAX_SIZE": "MAX_SPEC_SIZE"})


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
        Return the Sage field (:func:`~sage_attention.dsl.build.build_field`).

        EXAMPLES::

            sage: from sage_attention.dsl.spec import Field
            sage: Field().build(), Field("GF", 101).build()
            (Rational Field, Finite Field of size 101)
        """
        from sage_attention.dsl.build import build_field
        return build_field(self)


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

    def is_homogeneous_network(self):
        r"""
        Return whether every layer is dense without bias or residual stream: a
        polynomial network whose vanishing ideal the interpolation engine computes
        (:meth:`~sage_attention.models.stack.LayerStack.coordinate_model`).

        EXAMPLES::

            sage: from sage_attention.dsl.spec import ModelSpec, DenseLayer
            sage: ModelSpec("m", input=2, layers=(DenseLayer(3, "power", 6), DenseLayer(1))).is_homogeneous_network()
            True
            sage: ModelSpec("m", input=2, layers=(DenseLayer(3, "power", 6, bias=True), DenseLayer(1))).is_homogeneous_network()
            False
        """
        return bool(self.layers) and all(layer.kind == "dense" and layer.bias in (False, "false")
                                          and layer.residual in (False, "false") for layer in self.layers)

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
        :data:`sage_attention.catalog.computations.COMPUTATIONS`.

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
        Return the :class:`~sage_attention.catalog.model_sizes.SizeEstimate` of this model,
        without building it (:func:`~sage_attention.dsl.build.model_size_estimate`).

        EXAMPLES::

            sage: from sage_attention.dsl.spec import ModelSpec, Layer
            sage: m = ModelSpec("m", input=3, tokens=2, layers=(Layer(2, 1),))
            sage: m.size_estimate().parameters
            15
        """
        from sage_attention.dsl.build import model_size_estimate
        return model_size_estimate(self)

    def build(self):
        r"""
        Return the Sage model described here (:func:`~sage_attention.dsl.build.build_model`:
        an :class:`~sage_attention.models.base.AttentionNetwork`, a multi-head
        lightning model or a stack of layers, as :meth:`is_stack` and
        :meth:`is_plain` choose).

        Validate the spec first (:func:`~sage_attention.dsl.validation.validate`).

        EXAMPLES::

            sage: from sage_attention.dsl.spec import ModelSpec, Layer
            sage: from sage_attention import LightningAttention
            sage: m = ModelSpec("m", input=3, tokens=2, layers=(Layer(2, 1),))
            sage: N = m.build(); N.nparameters()
            15
            sage: m.build() is LightningAttention(d=3, t=2, a=2, out=1)
            True
        """
        from sage_attention.dsl.build import build_model
        return build_model(self)

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

