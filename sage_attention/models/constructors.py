r"""
The factories of attention networks

Two functions build every network a user needs; each returns the instance
of the class for the architecture (one class per kind, see
:mod:`sage_attention.models.base`):

1. :func:`LightningAttention` -- no normalization:

   - one layer (``d, t, a, out``): a
     :class:`~sage_attention.models.lightning.LightningAttentionLayer`;
   - several layers (``widths, ranks, t``): a
     :class:`~sage_attention.models.deep.DeepLightningAttention`.

   - several heads, a causal mask or residual connections (``heads``,
     ``causal``, ``residual``): a
     :class:`~sage_attention.models.multihead.MultiHeadLightningAttention`.

2. :func:`SoftmaxAttention` -- every layer normalized: a
   :class:`~sage_attention.models.softmax_network.SoftmaxAttentionNetwork`.

Networks are unique: the same arguments give the same object, however they
are spelled.

EXAMPLES::

    sage: from sage_attention import LightningAttention, SoftmaxAttention
    sage: type(LightningAttention(d=3, t=2, a=1)).__name__
    'LightningAttentionLayer'
    sage: type(LightningAttention(widths=[3, 3, 3], ranks=[2, 2], t=3)).__name__
    'DeepLightningAttention'
    sage: type(SoftmaxAttention(d=3, t=2, a=1)).__name__
    'SoftmaxAttentionNetwork'
    sage: LightningAttention(d=3, t=2, a=1) is LightningAttention(widths=(3, 1), ranks=[1], t=2)
    True
"""
from sage_attention.misc.errors import SpecError
from sage_attention.models.arguments import spec_keyword_hints
from sage_attention.models.base import AttentionNetwork, renamed_keyword
from sage_attention.models.multihead import MultiHeadLightningAttention


def _network(norm, d, t, a, out, widths, ranks, weight_space, coordinate_scaling, entries,
             base_ring):
    if widths is None and ranks is None and d is not None and a is not None and t is not None:
        widths, ranks = (d, out), (a,)
    elif widths is not None and ranks is not None and t is not None and d is None and a is None:
        pass
    else:
        raise SpecError("give either d, t, a (one layer) or widths, ranks, t (a deep network)")
    return AttentionNetwork(widths, ranks, t, norm, weight_space, coordinate_scaling, entries,
                            base_ring)


@spec_keyword_hints
def LightningAttention(d=None, t=None, a=None, out=1, *, widths=None, ranks=None,
                       weight_space=None, coordinate_scaling=None, entries=None,
                       base_ring=None, heads=None, causal=False, residual=False,
                       weights=None, coordinates=None):
    r"""
    Return a lightning (unnormalized) attention network.

    Give either one layer by ``d, t, a, out``, or a deep network by
    ``widths``, ``ranks`` and ``t``.

    INPUT:

    - ``d`` -- positive integer; the input width (one layer)
    - ``t`` -- positive integer; the number of tokens
    - ``a`` -- positive integer; the attention rank (one layer)
    - ``out`` -- positive integer (default: `1`); the output width `d'`
    - ``widths`` -- list `(d_0, \dots, d_l)` (deep network)
    - ``ranks`` -- list `(a_1, \dots, a_l)` (deep network)
    - ``weight_space`` -- (default: ``'QKV'``) ``'QKV'`` or ``'AV'``
    - ``coordinate_scaling`` -- (default: ``'raw'``) ``'raw'`` or ``'scaled'``
    - ``entries``, ``base_ring`` -- as in
      :class:`~sage_attention.models.base.AttentionNetwork` (the base ring
      must be an exact field)
    - ``heads`` -- (default: `1`) positive integer, or one per layer: the
      number of summed attention heads
    - ``causal`` -- boolean (default: ``False``); mask the later tokens
    - ``residual`` -- boolean (default: ``False``); residual connections
    - ``weights``, ``coordinates`` -- deprecated names of ``weight_space``
      and ``coordinate_scaling``

    OUTPUT: a :class:`~sage_attention.models.lightning.LightningAttentionLayer`
    (one layer), a :class:`~sage_attention.models.deep.DeepLightningAttention`
    (several layers), or, with several heads, a causal mask or residual
    connections, a :class:`~sage_attention.models.multihead.MultiHeadLightningAttention`

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: LightningAttention(d=3, t=2, a=1, out=2)
        LightningAttention(d=3, out=2, t=2, a=1) over Rational Field
        sage: LightningAttention(widths=[3, 4, 5], ranks=[2, 3], t=3)
        LightningAttention(widths=(3, 4, 5), ranks=(2, 3), t=3) over Rational Field

    TESTS::

        sage: LightningAttention(d=3, t=2)
        Traceback (most recent call last):
        ...
        SpecError: give either d, t, a (one layer) or widths, ranks, t (a deep network)
        sage: LightningAttention(d=True, t=2, a=1)
        Traceback (most recent call last):
        ...
        TypeError: width d_0 (=True) must be a positive integer
        sage: LightningAttention(d='3', t=2, a=1)
        Traceback (most recent call last):
        ...
        TypeError: width d_0 (='3') must be a positive integer
        sage: LightningAttention(d=3.0, t=2, a=1)
        Traceback (most recent call last):
        ...
        TypeError: width d_0 (=3.00000000000000) must be a positive integer
        sage: LightningAttention(d=6/2, t=2, a=1) is LightningAttention(d=3, t=2, a=1)   # an integral rational
        True
        sage: LightningAttention(d=5/2, t=2, a=1)
        Traceback (most recent call last):
        ...
        TypeError: width d_0 (=5/2) must be a positive integer, not a fraction
        sage: LightningAttention(d=3, t=2, a=1, base_ring='QQ')
        Traceback (most recent call last):
        ...
        TypeError: base_ring (='QQ') must be a field such as QQ or GF(p), not a string
        sage: LightningAttention(d=3, t=2, a=1, base_ring=RR)
        Traceback (most recent call last):
        ...
        ValueError: base_ring (=Real Field with 53 bits of precision) must be an exact field (QQ, a number field or a finite field): the rings and ranks here are exact
        sage: LightningAttention(d=3, t=2, a=1, base_ring=CC)
        Traceback (most recent call last):
        ...
        ValueError: base_ring (=Complex Field with 53 bits of precision) must be an exact field ...
        sage: LightningAttention(d=3, t=2, a=1, weights='AV') is LightningAttention(d=3, t=2, a=1, weight_space='AV')
        doctest:warning...
        DeprecationWarning: the keyword weights= is deprecated; use weight_space= instead
        True
    """
    weight_space = renamed_keyword(weight_space, "weight_space", weights, "weights", "QKV")
    coordinate_scaling = renamed_keyword(coordinate_scaling, "coordinate_scaling", coordinates,
                                         "coordinates", "raw")
    if heads not in (None, 1) or causal is not False or residual is not False:
        if weight_space != "QKV" or coordinate_scaling != "raw" or entries is not None:
            raise ValueError("heads, causal and residual need weight_space='QKV' and all "
                             "output entries")
        if widths is None and ranks is None and d is not None and a is not None and t is not None:
            widths, ranks = (d, out), (a,)
        elif not (widths is not None and ranks is not None and t is not None
                  and d is None and a is None):
            raise SpecError("give either d, t, a (one layer) or widths, ranks, t (a deep network)")
        return MultiHeadLightningAttention(widths, ranks, t, 1 if heads is None else heads,
                                           causal, residual, base_ring)
    return _network("lightning", d, t, a, out, widths, ranks, weight_space, coordinate_scaling,
                    entries, base_ring)


@spec_keyword_hints
def SoftmaxAttention(d=None, t=None, a=None, out=1, *, widths=None, ranks=None,
                     weight_space=None, entries=None, base_ring=None, weights=None):
    r"""
    Return a softmax-normalized attention network.

    The arguments are those of :func:`LightningAttention` (without
    ``coordinate_scaling``: a softmax network has no coordinates). The
    network is not polynomial; its dimension is estimated numerically
    (:func:`~sage_attention.models.softmax.numerical_dimension`).

    OUTPUT: a :class:`~sage_attention.models.softmax_network.SoftmaxAttentionNetwork`

    EXAMPLES::

        sage: from sage_attention import SoftmaxAttention
        sage: SoftmaxAttention(widths=[3, 3, 3], ranks=[2, 2], t=3)
        SoftmaxAttention(widths=(3, 3, 3), ranks=(2, 2), t=3) over Rational Field
        sage: SoftmaxAttention(d=2, t=2, a=1, base_ring=RDF).base_ring()
        Real Double Field
    """
    weight_space = renamed_keyword(weight_space, "weight_space", weights, "weights", "QKV")
    return _network("softmax", d, t, a, out, widths, ranks, weight_space, "raw", entries,
                    base_ring)
