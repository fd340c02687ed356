r"""
The models: attention architectures compiled to Sage rings and ring maps

An architecture is a polynomial (or, with softmax, analytic) map from its
weights to the coefficients of its output. The factories
:func:`~sage_attention.models.constructors.LightningAttention` and
:func:`~sage_attention.models.constructors.SoftmaxAttention` validate the
arguments once and pick the class; every model is a unique object, so the
same arguments give the same model (also from a spec file).

The folder, by concept:

- :mod:`~sage_attention.models.constructors` -- the factories;
  :mod:`~sage_attention.models.arguments` -- checking and normalizing their
  arguments; :mod:`~sage_attention.models.checks` -- the argument checks of
  the public functions of ``ideals`` and ``variety``;
- :mod:`~sage_attention.models.base` -- the common base class;
  :mod:`~sage_attention.models.polynomial` -- rings and the parametrization
  of lightning networks; :mod:`~sage_attention.models.lightning` -- one
  layer; :mod:`~sage_attention.models.deep` -- deep stacks;
  :mod:`~sage_attention.models.multihead` -- several heads, causal masks,
  residual streams; :mod:`~sage_attention.models.softmax_network` and
  :mod:`~sage_attention.models.softmax` -- softmax networks and their
  numerical dimension;
- :mod:`~sage_attention.models.layers` -- the layer kinds (dense,
  attention); :mod:`~sage_attention.models.stack`,
  :mod:`~sage_attention.models.stack_coordinates` and
  :mod:`~sage_attention.models.stack_dimension` -- polynomial networks and
  transformer blocks as stacks of layers, their coordinates and their
  dimension;
  :mod:`~sage_attention.models.stack_dimension` -- their Jacobian, expected
  dimension and symmetries;
- :mod:`~sage_attention.models.essential` -- linear relations and essential
  coordinates; :mod:`~sage_attention.models.linear_forms` -- coordinates
  that are coefficients of a polynomial in linear forms;
- :mod:`~sage_attention.models.jacobian` -- the generic rank of the
  Jacobian, from the derivatives of
  :mod:`~sage_attention.models.derivatives` (forward and reverse mode) and,
  for layer stacks, :mod:`~sage_attention.models.stack_gradients`;
  :mod:`~sage_attention.models.frobenius` -- where a rank in positive
  characteristic is not the dimension;
  :mod:`~sage_attention.models.formulas`,
  :mod:`~sage_attention.models.symmetries` and
  :mod:`~sage_attention.models.join` -- the published formulas, the
  symmetries of the weights, the join bound of summed heads;
- :mod:`~sage_attention.models.reports` -- the report objects;
  :mod:`~sage_attention.models.guards` -- size guards.

A new layer kind is a class in :mod:`~sage_attention.models.layers` (and
an entry of the catalog, :mod:`sage_attention.catalog`).

EXAMPLES:

One lightning layer `Y = V X (X^T K^T Q X)` with `d = 3`, `t = 2`, rank
`a = 1` and one output row: `56` coordinates, of which `38` are copies of
others (linear relations), and `9` weights::

    sage: from sage_attention import LightningAttention
    sage: M = LightningAttention(d=3, t=2, a=1, out=1)
    sage: M.coordinate_ring().ngens(), len(M.linear_relations()), M.weight_ring().ngens()
    (56, 38, 9)

Its dimension, the rank of the Jacobian at random weights and inputs,
against the published formula::

    sage: M.dimension(seed=0), M.expected_dimension()
    (7, 7)

A deep network and a transformer block (attention, then a dense layer
with activation `x^2`, then a linear one) are models too::

    sage: LightningAttention(widths=[3, 3, 3], ranks=[1, 2], t=3).dimension(seed=0)
    18
    sage: from sage_attention import Network, dense, attention
    sage: Network([attention(a=2, out=3), dense(out=4, r=2), dense(out=3)], d=3, t=2).dimension(seed=0)
    25
"""
# Sage is initialized before any of its submodules is imported (a module of this folder may
# import `sage.rings...` first, which fails in a fresh interpreter otherwise)
import sage.all__sagemath_singular  # noqa: F401,E402
from sage_attention.models.base import AttentionNetwork, Coordinate  # noqa: F401
from sage_attention.models.polynomial import PolynomialAttentionNetwork  # noqa: F401
from sage_attention.models.lightning import LightningAttentionLayer  # noqa: F401
from sage_attention.models.deep import DeepLightningAttention  # noqa: F401
from sage_attention.models.softmax_network import SoftmaxAttentionNetwork  # noqa: F401
from sage_attention.models.multihead import MultiHeadLightningAttention  # noqa: F401
from sage_attention.models.constructors import LightningAttention, SoftmaxAttention  # noqa: F401
from sage_attention.models.layers import dense, attention  # noqa: F401
from sage_attention.models.stack import LayerStack, Network, PolynomialNetwork  # noqa: F401
