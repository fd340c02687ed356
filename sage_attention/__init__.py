r"""
sage_attention: the algebraic geometry of attention networks

The functions a newcomer needs:

- :func:`LightningAttention` -- a lightning (unnormalized) attention network,
  one layer or deep, compiled to Sage rings and ring maps;
- :func:`SoftmaxAttention` -- the same with softmax normalization;
- :func:`parse_spec` -- read a DSL spec file into typed models.

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: M = LightningAttention(d=3, t=2, a=1, out=1)
    sage: M.dimension(seed=0).dimension == M.expected_dimension()
    True
"""
from importlib.metadata import version as _version, PackageNotFoundError as _PNF

try:
    __version__ = _version("sage_attention")
except _PNF:  # running from a source tree that is not installed
    __version__ = "0.0.0"

from sage_attention.network import AttentionNetwork, LightningAttention, SoftmaxAttention  # noqa: E402

__all__ = ["AttentionNetwork", "LightningAttention", "SoftmaxAttention"]
