r"""
Powers of the Frobenius map: where a Jacobian rank is not the dimension

Over a field of characteristic `p`, an activation `x^r` with `p \mid r` is
`(x^{r/p})^p`, and `f \mapsto f^p` is additive: its derivative vanishes.
A Jacobian rank of such a network says nothing about its dimension (for one
layer `(w \cdot x)^p` over `\GF{p}` the rank is `0`, the dimension `d`), so
:func:`~sage_attention.models.jacobian.jacobian_rank` refuses it
(:func:`check_separable`) and names the network with the reduced
activation, which has the same dimension (:func:`frobenius_reduced_layers`,
with the proof).

In general a rank at a point over `\GF{p}` is a lower bound of the
dimension over `\overline{\GF{p}}`, with equality when the parametrization
is separable; that holds for instance when `p` exceeds the product of the
degrees of `n` coordinates that form a transcendence basis ([BMS2013]_).
This module refuses only the case where the lower bound is known to be
useless.
"""

def frobenius_layers(model, p):
    r"""
    Return the dense layers whose activation `x^r` has `r` divisible by the prime ``p``.

    Over a field of characteristic `p` the power `z^{p m}` is `(z^m)^p`, and
    `f \mapsto f^p` (Frobenius) is additive: its derivative vanishes, so the
    Jacobian of such a network loses every direction that passes through the
    layer, and its rank is not the dimension (for one layer `(w \cdot x)^p`
    the rank is `0`, the dimension `d`). :func:`jacobian_rank` refuses these.

    INPUT:

    - ``model`` -- a network
    - ``p`` -- a prime, or `0`

    OUTPUT: a list of pairs ``(layer number from 1, r)``

    EXAMPLES::

        sage: from sage_attention import Network, dense
        sage: from sage_attention.models.frobenius import frobenius_layers
        sage: M = Network([dense(out=2, r=65537 * 2), dense(out=1)], d=2)
        sage: frobenius_layers(M, 65537), frobenius_layers(M, 0), frobenius_layers(M, 67108859)
        ([(1, 131074)], [], [])
    """
    if not p:
        return []
    return [(i, layer.r) for i, layer in enumerate(getattr(model, "layers", ()), 1)
            if getattr(layer, "kind", None) == "dense" and layer.r % p == 0]


def frobenius_reduced_layers(model, p):
    r"""
    Return the layers of ``model`` with each activation `x^r` replaced by `x^{r / p^v}`, `p^v` the
    largest power of ``p`` dividing `r`, or ``None`` when a reduced layer has a residual stream.

    Over `\overline{\GF{p}}` the reduced network has the dimension of
    ``model``. Proof: write `F(f) = f^p` for a vector of polynomials
    (coefficients raised to the `p`-th power, exponents multiplied by `p`):
    an injective ring map that is bijective on the coefficients. A layer
    `(W u + b)^{p^v m}` outputs `F^v((W u + b)^m)`. Every later layer applied
    to `F^v(u')` equals `F^v` of the same layer at the `p^v`-th roots of its
    weights (a bijection of the weight space over `\overline{\GF{p}}`): its
    products, sums, biases, masks (entries `0`, `1`) and residual streams
    `F^v(a) + F^v(b) = F^v(a + b)` commute with `F^v`. So the image of the
    network is `F^v` of the image of the reduced one, and `F^v` is a
    bijection onto its image that preserves dimension. A residual stream at
    the reduced layer itself adds its input `u`, which is not a `p^v`-th
    power: then ``None``.

    EXAMPLES::

        sage: from sage_attention import Network, dense
        sage: from sage_attention.models.frobenius import frobenius_reduced_layers
        sage: M = Network([dense(out=2, r=65537 * 2), dense(out=1)], d=2)
        sage: frobenius_reduced_layers(M, 65537)
        [dense(out=2, r=2), dense(out=1)]
        sage: frobenius_reduced_layers(Network([dense(out=2, r=65537, residual=True), dense(out=1)], d=2), 65537) is None
        True
    """
    from dataclasses import replace
    out = []
    for layer in model.layers:
        if getattr(layer, "kind", None) == "dense" and layer.r % p == 0:
            if layer.residual:
                return None
            r = layer.r
            while r % p == 0:
                r //= p
            layer = replace(layer, r=r)
        out.append(layer)
    return out


def check_separable(model, F):
    r"""
    Refuse a Jacobian rank over ``F`` that a Frobenius power makes meaningless (:func:`frobenius_layers`).

    The error names the layers and a way out: over a base field of
    characteristic `p`, the network with the reduced activations (same
    dimension, :func:`frobenius_reduced_layers`); over `\QQ`, another field
    for the random points.

    EXAMPLES::

        sage: from sage_attention import Network, dense
        sage: M = Network([dense(out=1, r=65537)], d=2, linear_output=False, base_ring=GF(65537))
        sage: M.dimension(seed=0)
        Traceback (most recent call last):
        ...
        ValueError: the activation x^65537 of layer 1 is a power of the Frobenius map over Finite Field of size 65537 (65537 divides 65537): its derivative vanishes, so the Jacobian rank is not the dimension; the network with the activation x^1 has the same dimension over the algebraic closure (see sage_attention.models.frobenius.frobenius_reduced_layers): compute Network([dense(out=1)], d=2, base_ring=GF(65537)).dimension()
        sage: Network([dense(out=1)], d=2, base_ring=GF(65537)).dimension(seed=0)
        2

    Two inputs, two hidden neurons `x^{2p}`: the reduced network has
    activation `x^2`, and so the dimension of quadrics of rank at most `2`
    in `2` variables, `3` (every binary quadric)::

        sage: from sage_attention import PolynomialNetwork
        sage: PolynomialNetwork([2, 2, 1], 2 * 65537, base_ring=GF(65537)).dimension(seed=0)
        Traceback (most recent call last):
        ...
        ValueError: ... compute Network([dense(out=2, r=2), dense(out=1)], d=2, base_ring=GF(65537)).dimension()
        sage: Network([dense(out=2, r=2), dense(out=1)], d=2, base_ring=GF(65537)).dimension(seed=0)
        3

    Over a small prime field too (the points come from `\GF{7^6}`); the
    reduced network is answered there::

        sage: M = PolynomialNetwork([2, 2, 1], 14, base_ring=GF(7))
        sage: M.dimension(seed=0)
        Traceback (most recent call last):
        ...
        ValueError: the activation x^14 of layer 1 is a power of the Frobenius map over Finite Field of size 7 (7 divides 14): ... compute Network([dense(out=2, r=2), dense(out=1)], d=2, base_ring=GF(7)).dimension()
        sage: Network([dense(out=2, r=2), dense(out=1)], d=2, base_ring=GF(7)).dimension(seed=0)
        3

    Over `\QQ` with the random points in a field where the activation is
    no Frobenius power, the rank is computed (sums of two `65537`-th powers
    of binary linear forms: `6` weights less `2` rescalings)::

        sage: PolynomialNetwork([2, 2, 1], 65537).dimension(seed=0)
        4
        sage: PolynomialNetwork([2, 2, 1], 65537).dimension(seed=0, field=GF(65537))
        Traceback (most recent call last):
        ...
        ValueError: ...; pass field=QQ or a prime field whose characteristic divides no activation degree
    """
    p = int(F.characteristic())
    bad = frobenius_layers(model, p)
    if not bad:
        return
    which = ", ".join(f"x^{r} of layer {i}" for i, r in bad)
    # over a small GF(p) the points come from an extension GF(p^k): name the base field
    over = model.base_ring() if int(model.base_ring().characteristic()) == p else F
    head = (f"the activation {which} {'is a power' if len(bad) == 1 else 'are powers'} of the Frobenius "
            f"map over {over} ({p} divides {', '.join(str(r) for _, r in bad)}): its derivative vanishes, "
            "so the Jacobian rank is not the dimension")
    if int(model.base_ring().characteristic()) == p:
        reduced = frobenius_reduced_layers(model, p)
        if reduced is None:
            raise ValueError(head + "; a Frobenius layer with a residual stream has no reduction: the dimension "
                             "of this network is not computed")
        args = [f"[{', '.join(map(repr, reduced))}]", f"d={model.d}"]
        if getattr(model, "tokens", 1) != 1:
            args.append(f"t={model.tokens}")
        if not getattr(model, "linear_output", True) and not reduced[-1].is_linear():
            args.append("linear_output=False")
        K = model.base_ring()
        args.append(f"base_ring=GF({K.order()})" if K.is_prime_field() else f"base_ring={K}")
        raise ValueError(head + "; the network with the activation "
                         + ", ".join(f"x^{l.r}" for (i, _), l in
                                     ((b, reduced[b[0] - 1]) for b in bad))
                         + " has the same dimension over the algebraic closure (see "
                         "sage_attention.models.frobenius.frobenius_reduced_layers): compute "
                         f"Network({', '.join(args)}).dimension()")
    raise ValueError(head + f"; pass field=QQ or a prime field whose characteristic divides no activation degree")
