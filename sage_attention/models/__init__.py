r"""
Attention architectures compiled to Sage rings and ring maps.

See :func:`LightningAttention` and :func:`SoftmaxAttention`.
"""
from sage_attention.models.network import AttentionNetwork, LightningAttention, SoftmaxAttention  # noqa: F401
