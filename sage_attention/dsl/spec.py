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
computations, the size guard) are a separate pass, :func:`validate`.

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

from sage_attention.errors import SpecError
from sage_attention.dsl.text import did_you_mean, format_value  # noqa: F401 (part of this module's API)
from sage_attention.dsl.computations import (ALL_FAMILIES, COMPUTATIONS as _TABLE,
                                              FAMILIES as _FAMILY_TABLE, check_statement)


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
    :func:`validate` reports that. ``mask`` is one of :data:`MASKS`
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


#: The attention masks a layer may have.
MASKS = ("none", "causal")


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
    span: SourceSpan = dc_field(default=None, compare=False, repr=False)
    #: ``(key, span)`` of each item as written, for validation
    item_spans: tuple = dc_field(default=(), compare=False, repr=False)

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
        return tuple(layer.rank for layer in self.layers)

    @property
    def normalizations(self):
        r"""
        Return the normalizations of the layers, as strings.

        EXAMPLES::

            sage: from sage_attention.dsl.spec import ModelSpec, Layer
            sage: ModelSpec("m", input=4, tokens=2, layers=(Layer(1, 2),)).normalizations
            ('lightning',)
        """
        return tuple(layer.normalization.value for layer in self.layers)

    @property
    def heads(self):
        r"""
        Return the numbers of summed heads `(H_1, \dots, H_l)`.

        EXAMPLES::

            sage: from sage_attention.dsl.spec import ModelSpec, Layer
            sage: ModelSpec("m", input=4, tokens=2, layers=(Layer(1, 2, heads=3),)).heads
            (3,)
        """
        return tuple(layer.heads for layer in self.layers)

    def is_plain(self):
        r"""
        Return whether every layer has one head, no mask and no residual connection.

        Models that are not plain are built as
        :class:`~sage_attention.models.multihead.MultiHeadLightningAttention`;
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
        from sage_attention.sizes import estimate_size
        return estimate_size(self.widths, self.ranks, self.tokens,
                             self.weights, self.entries, heads=self.heads)

    def build(self):
        r"""
        Return the Sage model
        (:class:`~sage_attention.models.base.AttentionNetwork`) described here.

        Validate the spec first (:func:`validate`).

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
        """
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
        elif self.name == "vanishing_ideal" and first[0] == "degree":
            head += f" up to degree {first[1]}"
            rest = rest[1:]
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
        Check this spec; see :func:`validate`.

        EXAMPLES::

            sage: from sage_attention.dsl import parse_spec
            sage: parse_spec("model m { input = 3; tokens = 2; layer attention(rank = 5, out = 1) }").validate()
            ['<spec>:1:50: note: rank 5 exceeds input width 3: rank A <= 3 anyway, the rank is no constraint']
        """
        return validate(self, force=force, available=available)


# ------------------------------------------------------------------ validation

#: The option names of each computation statement, read from the table
#: :data:`sage_attention.dsl.computations.COMPUTATIONS` (kept for old callers).
COMPUTATION_OPTIONS = {name: set(c.option_names) for name, c in _TABLE.items()}

#: The invariant family names, read from :data:`sage_attention.dsl.computations.FAMILIES`.
INVARIANT_FAMILIES = tuple(_FAMILY_TABLE) + (ALL_FAMILIES,)


#: ``GF(p)`` needs ``p`` below this bound (so primality is decided exactly).
MAX_CHARACTERISTIC = 2**64

#: The largest width, rank or number of tokens a spec may write.
MAX_SIZE = 10**6


def is_prime(p):
    r"""
    Return whether the integer ``p`` (`< 2^{64}`) is prime.

    A deterministic Miller-Rabin test (the first twelve primes as bases
    decide every `p < 3.3 \cdot 10^{24}`), so ``GF(2^61 - 1)`` is checked
    at once.

    EXAMPLES::

        sage: from sage_attention.dsl.spec import is_prime
        sage: [p for p in range(30) if is_prime(p)]
        [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
        sage: is_prime(2**61 - 1), is_prime(2**61 + 1), is_prime(3215031751)
        (True, False, False)
        sage: is_prime(2**64 + 13)
        Traceback (most recent call last):
        ...
        ValueError: p (=18446744073709551629) must be below 2^64
    """
    if p >= MAX_CHARACTERISTIC:
        raise ValueError(f"p (={p}) must be below 2^64")
    if p < 2:
        return False
    bases = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
    for q in bases:
        if p % q == 0:
            return p == q
    d, s = p - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in bases:
        x = pow(a, d, p)
        if x in (1, p - 1):
            continue
        for _ in range(s - 1):
            x = x * x % p
            if x == p - 1:
                break
        else:
            return False
    return True


_is_prime = is_prime


class _Checker:
    """Collect the context needed to raise a located SpecError."""

    def __init__(self, spec):
        self.spec = spec
        self.notes = []

    def error(self, message, span):
        from sage_attention.dsl.errors import SpecError as LocatedSpecError
        raise LocatedSpecError(message, span, self.spec.filename, self.spec.source)

    def note(self, message, span):
        where = f"{self.spec.filename or '<spec>'}:{span.line}:{span.column}: " if span else ""
        self.notes.append(f"{where}note: {message}")

    def positive(self, value, what, span, maximum=MAX_SIZE):
        if value is None:
            return
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            self.error(f"{what} (={format_value(value)}) must be a positive integer", span)
        if maximum is not None and value > maximum:
            shown = str(value) if len(str(value)) <= 40 else f"a number of {len(str(value))} digits"
            self.error(f"{what} (={shown}) must be at most {maximum}; no computation of this "
                       "package is feasible beyond", span)


def _span_of(spans, key, default):
    for k, s in spans:
        if k == key:
            return s
    return default


def _check_model(chk, m):
    seen = {}
    for key, span in m.item_spans:
        if key in seen and key != "layer":
            chk.error(f"duplicate `{key}` in model `{m.name}` (first given on line "
                      f"{seen[key].line}); keep one of them", span)
        seen.setdefault(key, span)
    if m.field.kind == "GF":
        span = _span_of(m.item_spans, "field", m.span)
        chk.positive(m.field.p, "the characteristic p", span, maximum=None)
        if m.field.p >= MAX_CHARACTERISTIC:
            shown = str(m.field.p) if len(str(m.field.p)) <= 40 else \
                f"a number of {len(str(m.field.p))} digits"
            chk.error(f"GF(p) needs p below 2^64, got p (={shown}); try a prime such as 32003",
                      span)
        if not is_prime(m.field.p):
            chk.error(f"GF(p) needs p prime, got p (={m.field.p}); try a prime such as 32003", span)
        if m.coordinates == "scaled" and m.field.p in (2, 3, 5):
            chk.error(f"`coordinates = scaled` divides by 2, 3 and 6, so it needs a field of "
                      f"characteristic other than 2, 3, 5 (here GF({m.field.p})); use "
                      "`coordinates = raw` or a larger prime", _span_of(m.item_spans,
                                                                        "coordinates", span))
    for key, what in (("input", "input width"), ("tokens", "the number of tokens")):
        value = getattr(m, key)
        if value is None:
            chk.error(f"model `{m.name}` needs `{key} = ...` ({what}, a positive integer)", m.span)
        chk.positive(value, f"{key}", _span_of(m.item_spans, key, m.span))
    if not m.layers:
        chk.error(f"model `{m.name}` needs at least one `layer attention(rank = ..., out = ...)`",
                  m.span)
    width = m.input
    for i, layer in enumerate(m.layers, 1):
        seen = {}
        for key, span in layer.arg_spans:
            if key in seen:
                chk.error(f"duplicate `{key}` in layer {i} of model `{m.name}`; keep one of them",
                          span)
            seen[key] = span
        for key in ("rank", "out"):
            value = getattr(layer, key)
            if value is None:
                chk.error(f"layer {i} of model `{m.name}` needs `{key} = ...`, "
                          f"e.g. layer attention(rank = 2, out = 1)", layer.span)
            chk.positive(value, key, _span_of(layer.arg_spans, key, layer.span))
        if layer.rank > width:
            what = f"input width {width}" if i == 1 else f"the width {width} of its input"
            chk.note(f"rank {layer.rank} exceeds {what}: rank A <= {width} anyway, "
                     "the rank is no constraint", _span_of(layer.arg_spans, "rank", layer.span))
        if layer.normalization is Normalization.SOFTMAX and m.field.kind != "QQ":
            chk.error("softmax normalization needs `field = QQ` (exp is not defined over GF(p))",
                      _span_of(layer.arg_spans, "normalization", layer.span))
        _check_extended_layer(chk, m, i, layer, width)
        width = layer.out
    if not m.is_plain():
        _check_extended_model(chk, m)
    if m.entries is not None:
        span = _span_of(m.item_spans, "entries", m.span)
        seen = set()
        for row, token in m.entries:
            for value, what in ((row, "row"), (token, "token")):
                chk.positive(value, f"entry {what}", span)
            if row > width:
                chk.error(f"entry ({row}, {token}): row {row} exceeds the output width {width}",
                          span)
            if token > m.tokens:
                chk.error(f"entry ({row}, {token}): token {token} exceeds the number of "
                          f"tokens {m.tokens}", span)
            if (row, token) in seen:
                chk.error(f"entry ({row}, {token}) is listed twice", span)
            seen.add((row, token))


def _check_extended_layer(chk, m, i, layer, width):
    # heads, mask and residual of layer i (its input has width `width`)
    where = f"layer {i} of model `{m.name}`"
    chk.positive(layer.heads, "heads", _span_of(layer.arg_spans, "heads", layer.span))
    if layer.mask not in MASKS:
        chk.error(f"unknown mask `{layer.mask}` in {where}"
                  f"{did_you_mean(layer.mask, MASKS)}; use one of: {', '.join(MASKS)}",
                  _span_of(layer.arg_spans, "mask", layer.span))
    span = _span_of(layer.arg_spans, "residual", layer.span)
    if not isinstance(layer.residual, bool):
        chk.error(f"`residual` (={format_value(layer.residual)}) in {where} must be true or "
                  f"false{did_you_mean(layer.residual, ('true', 'false'))}", span)
    if layer.residual and layer.out is not None and width is not None and layer.out != width:
        chk.error(f"{where} has `residual = true`, which adds its input to its output, so its "
                  f"output width `out` (={layer.out}) must equal its input width (={width}); "
                  f"write `out = {width}` or drop `residual`", span)
    if not layer.is_plain() and layer.normalization is not Normalization.LIGHTNING:
        key = next(k for k in ("heads", "mask", "residual") if getattr(layer, k) !=
                   {"heads": 1, "mask": "none", "residual": False}[k])
        chk.error(f"`{key}` in {where} needs a lightning layer; several heads, masks and "
                  "residual connections are not available with softmax normalization",
                  _span_of(layer.arg_spans, key, layer.span))


def _check_extended_model(chk, m):
    # what the multi-head model class supports: one mask and one residual
    # choice for the whole network, weights Q K V, all entries
    first = m.layers[0]
    for i, layer in enumerate(m.layers, 1):
        if layer.normalization is not Normalization.LIGHTNING:
            chk.error(f"layer {i} of model `{m.name}` has softmax normalization, but the model "
                      "has several heads, a mask or residual connections, which need lightning "
                      "layers throughout", _span_of(layer.arg_spans, "normalization", layer.span))
    for i, layer in enumerate(m.layers[1:], 2):
        for key, shown in (("mask", first.mask), ("residual", format_value(first.residual))):
            if getattr(layer, key) != getattr(first, key):
                chk.error(f"layer {i} of model `{m.name}` has `{key} = "
                          f"{format_value(getattr(layer, key))}` but layer 1 has `{key} = "
                          f"{shown}`; every layer of a model must have the same `{key}` "
                          f"(write `{key} = {shown}` in every layer, or `{key} = ...` "
                          "as layer 1's)", _span_of(layer.arg_spans, key, layer.span))
    for key, default, value in (("weights", "QKV", m.weights),
                                ("coordinates", "raw", m.coordinates),
                                ("entries", None, m.entries)):
        if value != default:
            fix = {"weights": "`weights = Q K V`", "coordinates": "`coordinates = raw`",
                   "entries": "no `entries` (all output entries)"}[key]
            chk.error(f"model `{m.name}` has several heads, a mask or residual connections, "
                      f"which needs {fix}", _span_of(m.item_spans, key, m.span))


def _check_computation(chk, c, model, available, force):
    span = c.span
    if available is not None and c.name in _TABLE and c.name not in available:
        chk.error(f"computation `{c.name}` is not available in this version; available: "
                  f"{', '.join(sorted(available))}", span)
    problems = check_statement(c, model)
    if problems:
        message, key = problems[0]
        where = span if key is None else _span_of(c.option_spans, key, span)
        chk.error(message, where)
    decl = _TABLE[c.name]
    tasks = decl.size_tasks
    opts = c.options_dict
    if c.name == "vanishing_ideal" and (opts.get("algorithm") == "interpolation"
                                        or "degree" in opts):
        tasks = ("coordinates",)
    if tasks:
        from sage_attention.errors import ComputationTooLarge
        from sage_attention.sizes import check_size
        estimate = model.size_estimate()
        for task in tasks:
            hint = ""
            if task == "elimination":
                hint = ("use `algorithm = interpolation`, `up to degree N`, "
                        "or fewer entries/a smaller model")
            try:
                check_size(estimate, task, force=force, hint=hint)
            except ComputationTooLarge as e:
                loc = f"{chk.spec.filename or '<spec>'}:{span.line}:{span.column}: " if span else ""
                context = ""
                lines = (chk.spec.source or "").split("\n")
                if span and 1 <= span.line <= len(lines):
                    from sage_attention.dsl.errors import context_lines
                    context = "\n" + context_lines(lines[span.line - 1].rstrip("\r"),
                                                    span.column)
                raise ComputationTooLarge(
                    f"{loc}`{c.name}` on model `{model.name}`: {e}".replace(
                        "pass force=True", "pass --force (or force=True)") + context,
                    e.estimate) from None


def validate(spec, force=False, available=None):
    r"""
    Check a spec for semantic errors and size; return its notes.

    INPUT:

    - ``spec`` -- a :class:`Spec`
    - ``force`` -- boolean (default: ``False``); skip the size guard
    - ``available`` -- (default: ``None``, all) the names of the
      computations this program can run

    OUTPUT: a list of notes (strings), e.g. about a rank that is no
    constraint. Raise :class:`~sage_attention.errors.SpecError` on the first
    error, with its source location, and
    :class:`~sage_attention.errors.ComputationTooLarge` when a computation
    is beyond the size guard.

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.dsl.spec import validate
        sage: validate(parse_spec("model m { input = 3; tokens = 2; layer attention(rank = 2, out = 1) }"))
        []

    TESTS:

    Each semantic error points at its source::

        sage: validate(parse_spec("model m {\n  input = 0; tokens = 2\n  layer attention(rank = 1, out = 1)\n}"))
        Traceback (most recent call last):
        ...
        SpecError: <spec>:2:3: input (=0) must be a positive integer
            input = 0; tokens = 2
            ^
        sage: validate(parse_spec("model m { field = GF(8); input = 2; tokens = 2; layer attention(rank = 1, out = 1) }"))
        Traceback (most recent call last):
        ...
        SpecError: <spec>:1:11: GF(p) needs p prime, got p (=8); try a prime such as 32003
        ...
        sage: validate(parse_spec("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
        ....:                     "compute n { dimension }"))
        Traceback (most recent call last):
        ...
        SpecError: <spec>:2:9: `compute n` names an unknown model; the models are: m
            compute n { dimension }
                    ^
        sage: validate(parse_spec("model m { input = 4; tokens = 3; layer attention(rank = 2, out = 4) }\n"
        ....:                     "compute m { vanishing_ideal }"))
        Traceback (most recent call last):
        ...
        ComputationTooLarge: <spec>:2:13: `vanishing_ideal` on model `m`: elimination over 160 essential coordinates ...
    """
    chk = _Checker(spec)
    names = {}
    for m in spec.models:
        if m.name in names:
            chk.error(f"duplicate model name `{m.name}` (first defined on line "
                      f"{names[m.name].span.line if names[m.name].span else '?'}); "
                      "rename one of them", m.span)
        names[m.name] = m
        _check_model(chk, m)
    for c in spec.computations:
        if c.model not in names:
            chk.error(f"`compute {c.model}` names an unknown model{did_you_mean(c.model, names)}; "
                      f"the models are: {', '.join(names) or 'none'}", c.model_span or c.span)
        _check_computation(chk, c, names[c.model], available, force)
    return chk.notes
