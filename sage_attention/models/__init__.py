r"""
Attention architectures compiled to Sage rings and ring maps.

See :func:`LightningAttention` and :func:`SoftmaxAttention`; the classes
they return are listed in :mod:`sage_attention.models.base`.
"""
from sage_attention.models.base import AttentionNetwork, Coordinate  # noqa: F401
from sage_attention.models.polynomial import PolynomialAttentionNetwork  # noqa: F401
from sage_attention.models.lightning import LightningAttentionLayer  # noqa: F401
from sage_attention.models.deep import DeepLightningAttention  # noqa: F401
from sage_attention.models.softmax_network import SoftmaxAttentionNetwork  # noqa: F401
from sage_attention.models.multihead import MultiHeadLightningAttention  # noqa: F401
from sage_attention.models.constructors import LightningAttention, SoftmaxAttention  # noqa: F401
from sage_attention.models.layers import dense, attention  # noqa: F401
from sage_attention.models.stack import LayerStack, Network, PolynomialNetwork  # noqa: F401
