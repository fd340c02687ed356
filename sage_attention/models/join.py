r"""
The expected dimension of summed heads: the join bound

The neurovariety of one lightning layer with `H` summed heads is the `H`-fold
join of the one-head neurovariety `\mathcal V` (the set of sums of `H` points
of `\mathcal V`, closed): each head is one point of `\mathcal V`, and the
heads are independent. Hence (:doc:`/multihead`)

.. MATH::

    \dim \mathcal V^{(H)} \le \min\bigl(H \dim \mathcal V,\ \dim \langle \mathcal V \rangle\bigr),

the **join bound**, where `\langle \mathcal V \rangle` is the linear span of
`\mathcal V` (all dimensions are those of affine cones). Terracini's lemma
says the dimension of the join is the dimension of the sum of `H` tangent
spaces at generic points, which is what the Jacobian rank of the summed-heads
map computes. The join is **defective** when the rank is below the bound;
the **defect** is the bound minus the rank.

The one-head dimension is the published formula ([HMK2024]_,
:ref:`mathematics, §5 <math-5>`); the span is

- `t \ge 2`: `d' \cdot d \cdot d(d+1)/2`, the tensors `T` of
  :ref:`mathematics, §2 <math-2>` (one per output row; the linear relations
  are the only linear equations);
- `t = 1`: `d' \binom{d+2}{3}`, every `d'`-tuple of cubics (the products
  `x_p \cdot x_q x_r` are images).

A causal mask changes neither (for `t \ge 2` column `2` already has every
cross monomial `x_{a,1} x_{b,1} x_{c,2}`, whose coefficients are the whole
tensor `T`, so the masked coordinates are an injective linear image of the
unmasked span; for `t = 1` nothing is masked). A residual stream adds the
constant `X`, which translates the image without changing its dimension. For
deep networks no formula is known.

This module imports no Sage.

EXAMPLES::

    sage: from sage_attention.models.join import join_bound, span_dimension
    sage: span_dimension(2, 1, 2), span_dimension(3, 1, 1)
    (6, 10)
    sage: join_bound((2, 1), (1,), 2, (2,))
    (6, 'join bound min(H dim(one head), dim(span)) = min(2 * 4, 6) = 6')
"""
from math import comb

from sage_attention.models.formulas import published_dimension


def span_dimension(d, out, tokens):
    r"""
    Return the dimension of the linear span of the one-layer neurovariety.

    INPUT:

    - ``d`` -- the input width
    - ``out`` -- the output width `d'`
    - ``tokens`` -- the number of tokens `t`

    OUTPUT: `d' d^2 (d+1)/2` for `t \ge 2`, `d' \binom{d+2}{3}` for `t = 1`

    EXAMPLES::

        sage: from sage_attention.models.join import span_dimension
        sage: span_dimension(3, 2, 3), span_dimension(3, 2, 1)
        (36, 20)
    """
    if tokens >= 2:
        return out * d * d * (d + 1) // 2
    return out * comb(d + 2, 3)


def join_bound(widths, ranks, tokens, heads, causal=False, residual=False):
    r"""
    Return the join bound on the dimension of summed heads, and its note.

    INPUT:

    - ``widths``, ``ranks``, ``tokens`` -- the architecture
    - ``heads`` -- tuple, the number of heads of each layer
    - ``causal``, ``residual`` -- booleans

    OUTPUT: a pair ``(value or None, note)``; ``None`` for a deep network
    (no formula)

    EXAMPLES::

        sage: from sage_attention.models.join import join_bound
        sage: join_bound((3, 3), (1,), 2, (3,), causal=True, residual=True)[0]
        39
        sage: print(join_bound((3, 3), (1,), 2, (3,), causal=True, residual=True)[1])
        join bound min(H dim(one head), dim(span)) = min(3 * 13, 54) = 39; a causal mask ...; a residual stream translates the image, so the bound is unchanged
        sage: join_bound((3, 3), (2,), 2, (4,))[0]
        54
        sage: join_bound((2, 2, 2), (1, 1), 2, (2, 2))
        (None, 'no formula for deep networks with several heads, a mask or residual connections')
    """
    if len(ranks) != 1:
        return None, ("no formula for deep networks with several heads, a mask or residual "
                      "connections")
    d, out, H = widths[0], widths[1], heads[0]
    one, _ = published_dimension(widths, ranks, tokens)
    if one is None:
        return None, "no formula for one head of this layer"
    span = span_dimension(d, out, tokens)
    value = min(H * one, span)
    note = (f"join bound min(H dim(one head), dim(span)) = min({H} * {one}, {span}) = {value}")
    if causal:
        note += ("; a causal mask keeps every coordinate of T (t >= 2) or masks nothing "
                 "(t = 1), so the bound is the unmasked one")
    if residual:
        note += "; a residual stream translates the image, so the bound is unchanged"
    return value, note


def multihead_symmetry_group(widths, ranks, heads, residual=False):
    r"""
    Return ``(name, dimension, action)`` of the known symmetries of summed heads.

    Each head of layer `i` carries the symmetries of one layer: `GL_{a_i}`
    (or, for `a_i > d_{i-1}`, the pairs `(Q, K)` with `K^T Q` fixed, of
    dimension `2 a_i d_{i-1} - d_{i-1}^2`) and a scaling `K^*` between its
    `A` and its `V`. Without residual connections each hidden width adds
    `GL_{d_i}` (a change of basis of the hidden tokens, undone by the next
    layer's heads); a residual stream forbids it (the stream itself would
    change). The heads of a layer can also be permuted (a finite group, no
    dimension).

    INPUT:

    - ``widths``, ``ranks``, ``heads`` -- the architecture
    - ``residual`` -- boolean (default: ``False``)

    EXAMPLES::

        sage: from sage_attention.models.join import multihead_symmetry_group
        sage: multihead_symmetry_group((3, 1), (2,), (2,))[:2]
        ('(GL_2 x K^*)^2', 10)
        sage: multihead_symmetry_group((2, 2, 2), (1, 1), (2, 2))[:2]
        ('(GL_1 x K^*)^2 x (GL_1 x K^*)^2 x GL_2', 12)
        sage: multihead_symmetry_group((2, 2, 2), (1, 1), (2, 2), residual=True)[1]
        8
        sage: multihead_symmetry_group((2, 1), (3,), (1,))[:2]
        ('{(Q, K): K^T Q fixed} (dim 8) x K^*', 9)
    """
    parts, dim = [], 0
    for i, (a, h) in enumerate(zip(ranks, heads)):
        din = widths[i]
        if a <= din:
            one, odim = f"GL_{a} x K^*", a * a + 1
        else:
            extra = 2 * a * din - din * din
            one, odim = f"{{(Q, K): K^T Q fixed}} (dim {extra}) x K^*", extra + 1
        parts.append(one if h == 1 else f"({one})^{h}")
        dim += h * odim
    if not residual:
        for w in widths[1:-1]:
            parts.append(f"GL_{w}")
            dim += w * w
    name = " x ".join(parts)
    action = (f"{name}: on each head (Q, K, V) -> (C Q, lambda C^-T K, lambda^-1 V)"
              + ("" if residual or len(ranks) == 1 else
                 ", and a change of basis of each hidden width")
              + "; the heads of a layer can also be permuted")
    return name, dim, action
