r"""
From parse tree to typed spec

:class:`SpecTransformer` turns the Lark parse tree of a spec file into the
frozen dataclasses of :mod:`sage_attention.dsl.spec`. It has one method per
grammar rule (no catch-all), each quoting its rule, and records the source
span of every node. It checks nothing: semantic checks are
:func:`sage_attention.dsl.validation.validate`.

EXAMPLES::

    sage: from sage_attention.dsl.parser import spec_parser
    sage: from sage_attention.dsl.transformer import SpecTransformer
    sage: tree = spec_parser().parse("model m { input = 2; tokens = 1; layer attention(rank = 1, out = 1) }")
    sage: spec = SpecTransformer().transform(tree)
    sage: spec.models[0].widths, spec.models[0].span
    ((2, 1), SourceSpan(line=1, column=1, end_line=1, end_column=70))
"""
import re
from collections import namedtuple
from dataclasses import replace
from fractions import Fraction

from lark import Token, Transformer, v_args

from sage_attention.settings import moved_to_settings, settings
from sage_attention.misc.errors import SpecError
from sage_attention.misc.text import WrittenFraction, WrittenInt
from sage_attention.dsl.spec import (Computation, DenseLayer, Field, Layer, ModelSpec,
                                 Normalization, SourceSpan, Spec)

# The most digits a number in a spec may have is settings.MAX_SPEC_DIGITS; the old name reads it.
__getattr__ = moved_to_settings(__name__, {"MAX_DIGITS": "MAX_SPEC_DIGITS"})

_Item = namedtuple("_Item", "key value span")
_Family = namedtuple("_Family", "name options span")
_EmptyBlock = namedtuple("_EmptyBlock", "model span")


def span_of(meta):
    r"""
    Return the :class:`~sage_attention.dsl.spec.SourceSpan` of a Lark ``meta``
    or token.

    EXAMPLES::

        sage: from lark import Token
        sage: from sage_attention.dsl.transformer import span_of
        sage: span_of(Token("NAME", "x", line=2, column=5, end_line=2, end_column=6))
        SourceSpan(line=2, column=5, end_line=2, end_column=6)
    """
    if getattr(meta, "empty", False):
        return None
    return SourceSpan(meta.line, meta.column, meta.end_line, meta.end_column)


def number(text):
    r"""
    Return the number written ``text``: an ``int``, or a
    :class:`~fractions.Fraction` if it is not an integer.

    EXAMPLES::

        sage: from sage_attention.dsl.transformer import number
        sage: number("-3"), number("6/4"), number("0.25"), number("4/2")
        (-3, Fraction(3, 2), Fraction(1, 4), 2)

    A number written otherwise than its value remembers how it is written,
    e.g. ``3.0`` (an integer option refuses it) or ``2.5`` (messages echo
    it)::

        sage: number("3.0").text, number("2.5").text, type(number("1/2")).__name__
        ('3.0', '2.5', 'Fraction')
        sage: number("1/0")
        Traceback (most recent call last):
        ...
        SpecError: the number 1/0 divides by zero
        fix: write a nonzero denominator, e.g. `1/2`
        sage: number("9" * 5000)
        Traceback (most recent call last):
        ...
        SpecError: the number has 5000 digits; a spec number has at most 1000 digits

    The most digits is ``settings.MAX_SPEC_DIGITS``::

        sage: from sage_attention.settings import settings
        sage: with settings.override(MAX_SPEC_DIGITS=3):
        ....:     number("1234")
        Traceback (most recent call last):
        ...
        SpecError: the number has 4 digits; a spec number has at most 3 digits
    """
    digits = sum(ch.isdigit() for ch in str(text))
    if digits > settings.MAX_SPEC_DIGITS:
        raise SpecError(f"the number has {digits} digits; a spec number has at most "
                        f"{settings.MAX_SPEC_DIGITS} digits",
                        span_of(text) if hasattr(text, "line") else None)
    try:
        value = Fraction(str(text))
    except ZeroDivisionError:
        raise SpecError(f"the number {text} divides by zero",
                        span_of(text) if hasattr(text, "line") else None,
                        fix="write a nonzero denominator, e.g. `1/2`") from None
    written = str(text).lstrip("+")
    if value.denominator == 1:
        # `3.0` or `4/2`: the value 3 or 2, which remembers how it is written (an
        # integer option refuses that notation, with the integer to write)
        return int(value) if re.fullmatch(r"-?[0-9]+", written) else WrittenInt(value, written)
    # `2.5` or `6/4`: a message echoes it as written, not as 5/2 or 3/2
    return value if written == str(value) else WrittenFraction(text=written)


@v_args(meta=True)
class SpecTransformer(Transformer):
    r"""
    Transform a parse tree of ``attention.lark`` into a
    :class:`~sage_attention.dsl.spec.Spec`.

    EXAMPLES::

        sage: from sage_attention.dsl.parser import spec_parser
        sage: from sage_attention.dsl.transformer import SpecTransformer
        sage: t = spec_parser().parse("model m { field = GF(7) }\ncompute m { check invariants }")
        sage: s = SpecTransformer().transform(t)
        sage: s.models[0].field, s.computations[0]
        (Field(kind='GF', p=7), Computation(model='m', name='check', options=(('what', 'invariants'),)))
    """

    def start(self, meta, children):
        """start: _SEP? (_declaration (_SEP _declaration)* _SEP?)?"""
        models, computations, empty = [], [], []
        for child in children:
            if isinstance(child, ModelSpec):
                models.append(child)
            elif isinstance(child, _EmptyBlock):
                empty.append((child.model, child.span))
            else:
                computations.extend(child)
        return Spec(tuple(models), tuple(computations), empty_blocks=tuple(empty))

    # -- models

    def model(self, meta, children):
        """model: "model" NAME "{" _SEP? (_model_item (_SEP _model_item)* _SEP?)? "}" """
        name, items = children[0], children[1:]
        values = {"layers": []}
        item_spans = []
        for item in items:
            if isinstance(item, (Layer, DenseLayer)):
                values["layers"].append(item)
                item_spans.append(("layer", item.span))
            else:
                values.setdefault(item.key, item.value)
                item_spans.append((item.key, item.span))
        values["layers"] = tuple(values["layers"])
        return ModelSpec(str(name), span=span_of(meta), item_spans=tuple(item_spans), **values)

    def field_item(self, meta, children):
        """field_item: "field" "=" field_value"""
        return _Item("field", children[0], span_of(meta))

    def input_item(self, meta, children):
        """input_item: "input" "=" NUMBER"""
        return _Item("input", number(children[0]), span_of(meta))

    def tokens_item(self, meta, children):
        """tokens_item: "tokens" "=" NUMBER"""
        return _Item("tokens", number(children[0]), span_of(meta))

    def weights_item(self, meta, children):
        """weights_item: "weights" "=" weight_space"""
        return _Item("weights", children[0], span_of(meta))

    def coordinates_item(self, meta, children):
        """coordinates_item: "coordinates" "=" coordinate_kind"""
        return _Item("coordinates", children[0], span_of(meta))

    def entries_item(self, meta, children):
        """entries_item: "entries" "=" entry_list"""
        return _Item("entries", children[0], span_of(meta))

    def layer(self, meta, children):
        """layer: "layer" "attention" "(" [_layer_args] ")" """
        args = [c for c in children if c is not None]
        values = {}
        for arg in args:
            values.setdefault(arg.key, arg.value)
        return Layer(span=span_of(meta), arg_spans=tuple((a.key, a.span) for a in args), **values)

    def dense_layer(self, meta, children):
        """layer: "layer" "dense" "(" [_dense_args] ")" -> dense_layer"""
        args = [c for c in children if c is not None]
        values = {}
        for arg in args:
            if arg.key == "activation":
                values.setdefault("activation", arg.value[0])
                values.setdefault("degree", arg.value[1])
            else:
                values.setdefault(arg.key, arg.value)
        return DenseLayer(span=span_of(meta), arg_spans=tuple((a.key, a.span) for a in args),
                          **values)

    def activation_arg(self, meta, children):
        """dense_arg: "activation" "=" activation -> activation_arg"""
        return _Item("activation", children[0], span_of(meta))

    def activation_call(self, meta, children):
        """activation: NAME "(" NUMBER ")" -> activation_call"""
        return (str(children[0]), number(children[1]))

    def activation_name(self, meta, children):
        """activation: NAME -> activation_name"""
        return (str(children[0]), None)

    def bias_arg(self, meta, children):
        """dense_arg: "bias" "=" NAME -> bias_arg"""
        word = str(children[0])
        return _Item("bias", {"true": True, "false": False}.get(word, word), span_of(meta))

    def linear_output_item(self, meta, children):
        """linear_output_item: "linear_output" "=" NAME"""
        word = str(children[0])
        return _Item("linear_output", {"true": True, "false": False}.get(word, word),
                     span_of(meta))

    def rank_arg(self, meta, children):
        """layer_arg: "rank" "=" NUMBER -> rank_arg"""
        return _Item("rank", number(children[0]), span_of(meta))

    def out_arg(self, meta, children):
        """layer_arg: "out" "=" NUMBER -> out_arg"""
        return _Item("out", number(children[0]), span_of(meta))

    def normalization_arg(self, meta, children):
        """layer_arg: "normalization" "=" normalization -> normalization_arg"""
        return _Item("normalization", children[0], span_of(meta))

    def heads_arg(self, meta, children):
        """layer_arg: "heads" "=" NUMBER -> heads_arg"""
        return _Item("heads", number(children[0]), span_of(meta))

    def mask_arg(self, meta, children):
        """layer_arg: "mask" "=" NAME -> mask_arg"""
        return _Item("mask", str(children[0]), span_of(meta))

    def residual_arg(self, meta, children):
        """layer_arg: "residual" "=" NAME -> residual_arg"""
        word = str(children[0])
        return _Item("residual", {"true": True, "false": False}.get(word, word), span_of(meta))

    def rationals(self, meta, children):
        """field_value: "QQ" -> rationals"""
        return Field()

    def finite_field(self, meta, children):
        """field_value: "GF" "(" NUMBER ")" -> finite_field"""
        return Field("GF", number(children[0]))

    def qkv(self, meta, children):
        """weight_space: "Q" "K" "V" -> qkv"""
        return "QKV"

    def av(self, meta, children):
        """weight_space: "A" "V" -> av"""
        return "AV"

    def raw(self, meta, children):
        """coordinate_kind: "raw" -> raw"""
        return "raw"

    def scaled(self, meta, children):
        """coordinate_kind: "scaled" -> scaled"""
        return "scaled"

    def lightning(self, meta, children):
        """normalization: "lightning" -> lightning"""
        return Normalization.LIGHTNING

    def softmax(self, meta, children):
        """normalization: "softmax" -> softmax"""
        return Normalization.SOFTMAX

    def all_entries(self, meta, children):
        """entry_list: "all" -> all_entries"""
        return None

    def some_entries(self, meta, children):
        """entry_list: entry ("," entry)* -> some_entries"""
        return tuple(children)

    def entry(self, meta, children):
        """entry: "(" NUMBER "," NUMBER ")" """
        return (number(children[0]), number(children[1]))

    # -- computations

    def compute(self, meta, children):
        """compute: "compute" NAME "{" _SEP? (_computation (_SEP _computation)* _SEP?)? "}" """
        name = children[0]
        if not children[1:]:
            return _EmptyBlock(str(name), span_of(meta))
        return [replace(c, model=str(name), model_span=span_of(name)) for c in children[1:]]

    def _statement(self, name, meta, items, first=None):
        options = [] if first is None else [first]
        options.extend(i for i in items if i is not None)
        return Computation(None, name,
                           tuple((o.key, o.value) for o in options),
                           span=span_of(meta),
                           option_spans=tuple((o.key, o.span) for o in options))

    def dimension(self, meta, children):
        """dimension: "dimension" option*"""
        return self._statement("dimension", meta, children)

    def fibers(self, meta, children):
        """fibers: "fibers" option*"""
        return self._statement("fibers", meta, children)

    def invariants(self, meta, children):
        """invariants: "invariants" [family ("," family)*] option*"""
        fams = [f for f in children if isinstance(f, _Family)]
        families = tuple((f.name, f.options) for f in fams)
        options = [c for c in children if isinstance(c, _Item)]
        first = _Item("families", families, span_of(meta)) if families else None
        comp = self._statement("invariants", meta, options, first)
        # where each family is written, keyed `family:NAME`, for messages
        return replace(comp, option_spans=comp.option_spans
                       + tuple((f"family:{f.name}", f.span) for f in fams))

    def vanishing_ideal(self, meta, children):
        """vanishing_ideal: "vanishing_ideal" (_up_to_degree | option)*
        _up_to_degree: "up" "to" "degree" NUMBER"""
        # in source order: `algorithm = elimination up to degree 3` is the same statement
        items = [_Item("degree", number(c), span_of(c)) if isinstance(c, Token) else c
                 for c in children]
        # the degree first, as it is written canonically (`to_dsl`): one statement, one value
        items.sort(key=lambda item: item.key != "degree")
        return self._statement("vanishing_ideal", meta, items)

    def check(self, meta, children):
        """check: "check" NAME option*"""
        what = children[0]
        return self._statement("check", meta, children[1:], _Item("what", str(what), span_of(what)))

    def certify(self, meta, children):
        """certify: "certify" "point" vector option*"""
        return self._statement("certify", meta, children[1:],
                               _Item("point", children[0], span_of(meta)))

    def other_computation(self, meta, children):
        """other_computation: NAME option*"""
        return self._statement(str(children[0]), meta, children[1:])

    def family(self, meta, children):
        """family: NAME ["(" option ("," option)* ")"]"""
        return _Family(str(children[0]),
                       tuple((o.key, o.value) for o in children[1:] if o is not None),
                       span_of(meta))

    def option(self, meta, children):
        """option: NAME "=" value"""
        return _Item(str(children[0]), children[1], span_of(meta))

    def number(self, meta, children):
        """value: NUMBER -> number"""
        return number(children[0])

    def word(self, meta, children):
        """value: NAME -> word"""
        word = str(children[0])
        return {"true": True, "false": False}.get(word, word)

    def vector(self, meta, children):
        """vector: "[" _SEP? [NUMBER ("," _SEP? NUMBER)* _SEP?] "]" """
        return tuple(number(c) for c in children if c is not None)
