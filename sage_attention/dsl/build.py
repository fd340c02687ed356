r"""
From a model spec to the Sage model, and its size before it is built

A :class:`~sage_attention.dsl.spec.ModelSpec` is a record of what a spec
file writes; this module turns it into the object a Sage user builds by
hand (:func:`build_model`: the same object, not an equal one, since the
models are unique) and estimates its size without Sage
(:func:`model_size_estimate`, the figures the size guard of ``check``
reads). The class of the model is chosen in one place,
:meth:`~sage_attention.dsl.spec.ModelSpec.is_stack`:

- attention layers with one head, no mask and no residual connection:
  :class:`~sage_attention.models.base.AttentionNetwork`;
- several heads, a mask or residual connections, the same in every
  layer: :class:`~sage_attention.models.multihead.MultiHeadLightningAttention`
  (``LightningAttention(..., heads=...)``);
- dense layers, or layers that differ in mask or residual: a
  :class:`~sage_attention.models.stack.LayerStack` (``Network([...])``).

The spec methods :meth:`~sage_attention.dsl.spec.ModelSpec.build` and
:meth:`~sage_attention.dsl.spec.ModelSpec.size_estimate` call these
functions. Sage is imported inside :func:`build_model` and
:func:`build_field` only, so importing this module loads no Sage.

EXAMPLES::

    sage: from sage_attention.dsl import parse_spec
    sage: from sage_attention.dsl.build import build_model, model_size_estimate
    sage: m = parse_spec("model m { input = 3; tokens = 2; layer attention(rank = 2, out = 1) }").models[0]
    sage: model_size_estimate(m)
    SizeEstimate(coordinates=56, essential_coordinates=18, parameters=15, terms=672)
    sage: from sage_attention import LightningAttention
    sage: build_model(m) is LightningAttention(d=3, t=2, a=2, out=1)
    True
"""


def build_field(field):
    r"""
    Return the Sage field of a spec's ``field`` (a :class:`~sage_attention.dsl.spec.Field`).

    EXAMPLES::

        sage: from sage_attention.dsl.spec import Field
        sage: from sage_attention.dsl.build import build_field
        sage: build_field(Field()), build_field(Field("GF", 101))
        (Rational Field, Finite Field of size 101)
    """
    # (from sage.all__sagemath_singular, which loads Sage's rings in the order they need:
    # sage.rings.rational_field alone, on a fresh start, meets a circular import)
    from sage.all__sagemath_singular import GF, QQ
    return QQ if field.kind == "QQ" else GF(field.p)


def build_model(model):
    r"""
    Return the Sage model described by the model spec ``model``.

    Validate the spec first (:func:`~sage_attention.dsl.validation.validate`).

    INPUT:

    - ``model`` -- a :class:`~sage_attention.dsl.spec.ModelSpec`

    OUTPUT: an :class:`~sage_attention.models.base.AttentionNetwork`, a
    multi-head lightning model or a
    :class:`~sage_attention.models.stack.LayerStack` (see the module
    documentation)

    EXAMPLES::

        sage: from sage_attention.dsl.spec import ModelSpec, Layer
        sage: from sage_attention.dsl.build import build_model
        sage: build_model(ModelSpec("m", input=3, tokens=2, layers=(Layer(2, 1),))).nparameters()
        15

    Several heads, a mask or residual connections build the same object
    as the Python constructor::

        sage: from sage_attention import LightningAttention
        sage: m = ModelSpec("m", input=3, tokens=2,
        ....:               layers=(Layer(2, 3, heads=2, mask="causal", residual=True),))
        sage: build_model(m) is LightningAttention(d=3, t=2, a=2, out=3, heads=2, causal=True, residual=True)
        True

    Layers that differ in mask or residual build a stack of layers, each
    with its own (:meth:`~sage_attention.dsl.spec.ModelSpec.is_stack`), as
    :func:`~sage_attention.models.stack.Network` does::

        sage: from sage_attention import Network, attention
        sage: m = ModelSpec("m", input=2, tokens=3,
        ....:               layers=(Layer(1, 2, mask="causal", residual=True), Layer(1, 1)))
        sage: build_model(m) is Network([attention(a=1, out=2, causal=True, residual=True),
        ....:                            attention(a=1, out=1)], d=2, t=3)
        True
    """
    from sage_attention.models import AttentionNetwork, LightningAttention, Network, attention, dense
    field = build_field(model.field)
    if model.is_stack():
        layers = [dense(la.out, la.power, la.bias, la.residual) if la.kind == "dense" else
                  attention(la.rank, la.out, la.heads, la.mask == "causal", la.residual)
                  for la in model.layers]
        return Network(layers, model.input, model.tokens, model.linear_output is True,
                       base_ring=field)
    if not model.is_plain():
        return LightningAttention(widths=model.widths, ranks=model.ranks, t=model.tokens,
                                  heads=model.heads,
                                  causal=model.layers[0].mask == "causal",
                                  residual=model.layers[0].residual is True,
                                  base_ring=field)
    return AttentionNetwork(widths=model.widths, ranks=model.ranks,
                            tokens=model.tokens,
                            normalization=model.normalizations,
                            weight_space=model.weights,
                            coordinate_scaling=model.coordinates,
                            entries=model.entries,
                            base_ring=field)


def model_size_estimate(model):
    r"""
    Return the :class:`~sage_attention.catalog.model_sizes.SizeEstimate` of the model spec ``model``, without building it.

    A model of attention layers is estimated by
    :func:`~sage_attention.catalog.model_sizes.estimate_size`; a stack
    (:meth:`~sage_attention.dsl.spec.ModelSpec.is_stack`) by
    :func:`~sage_attention.catalog.model_sizes.estimate_stack_size`, from its
    weights and the degree of its output: a dense layer raises the degree
    to its power, an attention layer triples it; the output is homogeneous
    unless a layer has a bias, or a residual connection around a layer that
    is not linear.

    INPUT:

    - ``model`` -- a :class:`~sage_attention.dsl.spec.ModelSpec` (validated)

    EXAMPLES::

        sage: from sage_attention.dsl.spec import ModelSpec, Layer, DenseLayer
        sage: from sage_attention.dsl.build import model_size_estimate
        sage: model_size_estimate(ModelSpec("m", input=3, tokens=2, layers=(Layer(2, 1),))).parameters
        15
        sage: model_size_estimate(ModelSpec("p", input=3, layers=(DenseLayer(4, "power", 3),
        ....:                                                     DenseLayer(1))))
        SizeEstimate(coordinates=10, essential_coordinates=10, parameters=16, terms=160)
    """
    if not model.is_stack():
        from sage_attention.catalog.model_sizes import estimate_size
        return estimate_size(model.widths, model.ranks, model.tokens,
                             model.weights, model.entries, heads=model.heads,
                             residual=any(layer.residual is True for layer in model.layers))
    from sage_attention.catalog.model_sizes import estimate_stack_size
    params, degree, homogeneous = 0, 1, True
    for din, layer in zip(model.widths, model.layers):
        if layer.kind == "dense":
            params += layer.nparameters(din)
            degree *= layer.power
            homogeneous &= layer.bias is not True and not (layer.residual is True
                                                           and layer.power != 1)
        else:
            params += layer.heads * (2 * layer.rank * din + layer.out * din)
            degree *= 3
            homogeneous &= layer.residual is not True
    per_token = all(layer.kind == "dense" for layer in model.layers)
    return estimate_stack_size(model.input, model.tokens or 1, params, degree, model.widths[-1],
                               homogeneous, per_token)


__all__ = ["build_field", "build_model", "model_size_estimate"]
