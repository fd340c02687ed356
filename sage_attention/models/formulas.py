r"""
The published dimension formulas

The dimension of the neurovariety of an attention network is known in
closed form in several cases ([HMK2024]_, :ref:`mathematics, §5 <math-5>`).
This module states them as functions of the architecture alone, so they can
be compared with a computed Jacobian rank. Each function returns the value
(or ``None`` where no formula applies) and a sentence naming the formula.

EXAMPLES::

    sage: from sage_attention.models.formulas import published_dimension
    sage: published_dimension((3, 1), (2,), 2)
    (10, "[HMK2024] single layer, t >= 2: d*d' + r*(2d - r) - 1 with r = min(a, d) = 2")
    sage: published_dimension((3, 3, 3), (2, 2), 3, softmax=True)[0]
    25
"""


def single_layer_dimension(d, rows, a, tokens, softmax=False):
    r"""
    Return the dimension formula of one attention layer, and its note.

    INPUT:

    - ``d`` -- the input width
    - ``rows`` -- the number of output rows kept (`d'` for all entries)
    - ``a`` -- the attention rank
    - ``tokens`` -- the number of tokens `t`
    - ``softmax`` -- boolean (default: ``False``); softmax normalization
      (no scaling symmetry, so no `-1`)

    OUTPUT: a pair ``(value or None, note)``:

    - `t \ge 2`: `d d' + r(2d - r) - 1`, `r = \min(a, d)` (without the
      `-1` for softmax);
    - `t = 1`, lightning: `d d' + s(2d - s + 1)/2 - 1`, `s = \min(2a, d)`.

    EXAMPLES::

        sage: from sage_attention.models.formulas import single_layer_dimension
        sage: single_layer_dimension(3, 3, 1, 1)[0]
        13
        sage: single_layer_dimension(3, 1, 1, 1, softmax=True)
        (None, 'no published formula for softmax attention with one token')
    """
    minus = 0 if softmax else 1
    if tokens >= 2:
        r = min(a, d)
        return (d * rows + r * (2 * d - r) - minus,
                "[HMK2024] single layer, t >= 2: d*d' + r*(2d - r)"
                + (" - 1" if minus else "") + f" with r = min(a, d) = {r}")
    if softmax:
        return None, "no published formula for softmax attention with one token"
    s = min(2 * a, d)
    return (d * rows + s * (2 * d - s + 1) // 2 - 1,
            f"[HMK2024] single layer, t = 1: d*d' + s(2d - s + 1)/2 - 1 with s = min(2a, d) = {s}")


def deep_dimension(widths, ranks, tokens, all_entries=True, softmax=False, lightning_layers=None):
    r"""
    Return the dimension formula of a deep network, and its note.

    The formula `\sum_i r_i (2 d_0 - r_i) + d_0 d_l - l`, `r_i = \min(a_i,
    d_0)`, holds for lightning networks with no hidden layer narrower than
    the input and no rank-one layer before the last; softmax drops the `-l`
    (conjectured in [HMK2024]_ and checked numerically there).

    A stack that mixes the two is in neither statement. Each lightning
    layer keeps its scaling `(K, V) \mapsto (\lambda K, \lambda^{-1} V)`
    whatever the other layers are, and the softmax layers have none, so the
    value given is the formula minus one per lightning layer, and the note
    says that it is not published (the tests compare it with computed
    ranks).

    INPUT:

    - ``widths``, ``ranks``, ``tokens`` -- the architecture
    - ``all_entries`` -- boolean (default: ``True``); whether every output
      entry is kept
    - ``softmax`` -- boolean (default: ``False``); every layer is a softmax
      layer
    - ``lightning_layers`` -- (default: ``None``: all or none, by
      ``softmax``) the number of lightning layers of a mixed stack

    OUTPUT: a pair ``(value or None, note)``

    EXAMPLES::

        sage: from sage_attention.models.formulas import deep_dimension
        sage: deep_dimension((3, 3, 3), (2, 2), 3)[0]
        23
        sage: deep_dimension((3, 3, 3), (1, 2), 3)[0] is None
        True

    A lightning layer and a softmax layer::

        sage: deep_dimension((3, 3, 3), (2, 2), 3, lightning_layers=1)
        (24, 'sum r_i(2 d_0 - r_i) + d_0 d_l - (number of lightning layers) with r = (2, 2):
        the [HMK2024] deep formula, with -1 per lightning layer for a stack mixing lightning
        and softmax (not published)')
    """
    d, l = widths[0], len(ranks)
    if tokens == 1:
        return None, "no published formula for deep networks with one token"
    for i in range(1, l):
        if widths[i] < d:
            return None, (f"no published formula: hidden width d_{i} = {widths[i]} is "
                          "narrower than the input (a bottleneck lowers the dimension)")
    for i in range(l - 1):
        if min(ranks[i], d) == 1:
            return None, (f"no published formula: layer {i + 1} has rank 1, so every later "
                          "token matrix has rank one and later layers only see Sym(A)")
    if not all_entries:
        return None, "no published formula for a deep network restricted to some entries"
    rs = [min(a, d) for a in ranks]
    value = sum(r * (2 * d - r) for r in rs) + d * widths[-1]
    if lightning_layers is not None and 0 < lightning_layers < l:
        return value - lightning_layers, (
            "sum r_i(2 d_0 - r_i) + d_0 d_l - (number of lightning layers) with r = "
            f"{tuple(rs)}: the [HMK2024] deep formula, with -1 per lightning layer for a stack mixing "
            "lightning and softmax (not published)")
    if lightning_layers is not None:
        softmax = lightning_layers == 0
    return value - (0 if softmax else l), ("[HMK2024] deep: sum r_i(2 d_0 - r_i) + d_0 d_l"
                                           + ("" if softmax else " - l") + f" with r = {tuple(rs)}")


def published_dimension(widths, ranks, tokens, rows=None, all_entries=True, softmax=False, lightning_layers=None):
    r"""
    Return the published dimension of an architecture, and its note.

    INPUT:

    - ``widths``, ``ranks``, ``tokens`` -- the architecture
    - ``rows`` -- (default: the output width) number of output rows kept
    - ``all_entries`` -- boolean (default: ``True``)
    - ``softmax`` -- boolean (default: ``False``); every layer is normalized
    - ``lightning_layers`` -- (default: ``None``, all or none by
      ``softmax``) the number of lightning layers, for a mixed stack

    OUTPUT: a pair ``(value or None, note)``: :func:`single_layer_dimension`
    for one layer, :func:`deep_dimension` otherwise

    EXAMPLES::

        sage: from sage_attention.models.formulas import published_dimension
        sage: published_dimension((3, 2, 3), (2, 2), 3)[1]
        'no published formula: hidden width d_1 = 2 is narrower than the input (a bottleneck lowers the dimension)'
    """
    if len(ranks) == 1:
        return single_layer_dimension(widths[0], widths[-1] if rows is None else rows, ranks[0],
                                      tokens, softmax=softmax)
    return deep_dimension(widths, ranks, tokens, all_entries=all_entries, softmax=softmax,
                          lightning_layers=lightning_layers)
