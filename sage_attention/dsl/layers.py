r"""
The layers of a model spec

A model of a spec file is a sequence of layers, each a frozen record of
what its ``layer ...(...)`` line writes:

- :class:`Layer` -- ``layer attention(rank = a, out = d', ...)``: the
  rank, the output width, the :class:`Normalization`, the number of summed
  heads, the mask and the residual connection;
- :class:`DenseLayer` -- ``layer dense(out = d', activation = power(r), ...)``:
  a polynomial (MLP) layer acting on each token.

Each prints its canonical source (``to_dsl``); the values are checked by
:func:`~sage_attention.dsl.validation.validate`, not here. The records
import no Sage, and are importable from :mod:`sage_attention.dsl.spec` too.

EXAMPLES::

    sage: from sage_attention.dsl.layers import DenseLayer, Layer, Normalization
    sage: Layer(2, 1, Normalization.SOFTMAX).to_dsl()
    'layer attention(rank = 2, out = 1, normalization = softmax)'
    sage: DenseLayer(4, "power", 2).to_dsl(), DenseLayer(4, "power", 2).nparameters(3)
    ('layer dense(out = 4, activation = power(2))', 12)
"""
from dataclasses import dataclass, field as dc_field
from enum import Enum

from sage_attention.misc.text import format_value
from sage_attention.dsl.source_text import SourceSpan


class Normalization(Enum):
    r"""
    The normalization of an attention layer.

    EXAMPLES::

        sage: from sage_attention.dsl.layers import Normalization
        sage: Normalization("softmax"), Normalization.LIGHTNING.value
        (<Normalization.SOFTMAX: 'softmax'>, 'lightning')
    """
    LIGHTNING = "lightning"
    SOFTMAX = "softmax"


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

        sage: from sage_attention.dsl.layers import Layer, Normalization
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

            sage: from sage_attention.dsl.layers import Layer
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

            sage: from sage_attention.dsl.layers import Layer
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

        sage: from sage_attention.dsl.layers import DenseLayer
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

            sage: from sage_attention.dsl.layers import DenseLayer
            sage: DenseLayer(3, "power", 5).power
            5
        """
        return 1 if self.activation == "linear" and self.degree is None else self.degree

    def nparameters(self, din):
        r"""
        Return the number of weights `d_i d_{i-1}` (plus `d_i` with a bias).

        EXAMPLES::

            sage: from sage_attention.dsl.layers import DenseLayer
            sage: DenseLayer(3, bias=True).nparameters(2)
            9
        """
        return self.out * din + (self.out if self.bias is True else 0)

    def to_dsl(self):
        r"""
        Return the canonical source of this layer.

        EXAMPLES::

            sage: from sage_attention.dsl.layers import DenseLayer
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

            sage: from sage_attention.dsl.layers import DenseLayer
            sage: DenseLayer(1).is_plain()
            False
        """
        return False


__all__ = ["Normalization", "Layer", "DenseLayer", "ACTIVATIONS"]
