r"""
Which invariants of one head still vanish on summed heads

The outputs of `H` summed heads are sums of `H` outputs of one head, and the
coefficient coordinates of a sum are the sums of the coordinates (the map
from outputs to coefficients is linear, in raw and in scaled coordinates).
So the neurovariety of `H` summed heads is the `H`-fold join of the one-head
neurovariety, in the **same** coordinate ring (:doc:`/multihead`), and an
invariant of one head vanishes on `H` heads iff it vanishes on the join.

:func:`join_membership` decides this for each member of the invariant
families of a one-layer model (one output entry and `d \le 3` keep it
fast): a nonzero value at a sum of `H` random points proves that the member
does not vanish on the join; otherwise the member is composed with the sum
of `H` copies of the parametrization, in `H` disjoint sets of weights, and
compared with zero (exact, :ref:`math-6`).

EXAMPLES:

The linear relations cut out the span, so they survive every number of
heads; the `2 \times 2` minors of the flattening (rank one) do not survive
two heads::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.variety.joins import join_membership
    sage: M = LightningAttention(d=2, t=3, a=1, entries=[(1, 1)])
    sage: for r in join_membership(M, 2, families=['linear', 'low_rank']): print(r)
    linear: 10 of 10 vanish on 2 summed heads (exact)
    low_rank: 0 of 3 vanish on 2 summed heads (exact)
"""
from dataclasses import dataclass

from sage_attention.randomness import derived_seed


@dataclass(frozen=True)
class JoinMembership:
    r"""
    How many members of an invariant family vanish on `H` summed heads.

    Attributes: ``family`` (its name), ``heads``, ``members``,
    ``vanishing`` (the number that vanish), ``exact`` (every vanishing
    member was composed with the parametrization; every failing one has a
    point where it is nonzero).

    EXAMPLES::

        sage: from sage_attention.variety.joins import JoinMembership
        sage: JoinMembership("pencil", 2, 10, 0, True)
        pencil: 0 of 10 vanish on 2 summed heads (exact)
    """
    family: str
    heads: int
    members: int
    vanishing: int
    exact: bool

    def __repr__(self):
        how = "exact" if self.exact else "at random points only"
        return (f"{self.family}: {self.vanishing} of {self.members} vanish on "
                f"{self.heads} summed heads ({how})")

    def to_dict(self):
        r"""
        Return the result as a JSON-able dictionary.

        EXAMPLES::

            sage: from sage_attention.variety.joins import JoinMembership
            sage: JoinMembership("linear", 3, 4, 4, True).to_dict()['vanishing']
            4
        """
        return {"family": self.family, "heads": self.heads, "members": self.members,
                "vanishing": self.vanishing, "exact": self.exact}


def summed_images(model, heads):
    r"""
    Return the coordinates of `H` summed heads as polynomials in `H` disjoint sets of weights.

    INPUT:

    - ``model`` -- a one-layer lightning model (one head)
    - ``heads`` -- positive integer `H`

    OUTPUT: a tuple, one polynomial per generator of
    ``model.coordinate_ring()``, in a ring with the weights of every head
    (named ``h1_...``, ``h2_...``); the weights are `Q, K, V` of each head

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.joins import summed_images
        sage: M = LightningAttention(d=1, t=1, a=1)
        sage: summed_images(M, 2)
        (h1_q11*h1_k11*h1_v11 + h2_q11*h2_k11*h2_v11,)
    """
    from sage.all__sagemath_singular import PolynomialRing
    qkv = model.with_weight_space("QKV")
    phi = qkv.parametrization()
    images = list(phi.im_gens())
    W = images[0].parent()
    names = [f"h{h}_{x}" for h in range(1, heads + 1) for x in W.variable_names()]
    R = PolynomialRing(model.base_ring(), names)
    n = W.ngens()
    total = [R.zero()] * len(images)
    for h in range(heads):
        sub = R.gens()[h * n:(h + 1) * n]
        hom = W.hom(list(sub), R)
        total = [s + hom(f) for s, f in zip(total, images)]
    return tuple(total)


def join_membership(model, heads, families=None, seed=0, proof=True, points=2):
    r"""
    Return, for each invariant family of ``model``, how many members vanish on ``heads`` summed heads.

    INPUT:

    - ``model`` -- a one-layer lightning model (its invariant families and
      coordinates are those of one head)
    - ``heads`` -- positive integer `H`
    - ``families`` -- (default: ``None``, every family that applies) names
      of invariant families, as for
      :func:`~sage_attention.invariants.invariants`
    - ``seed`` -- (default: `0`) integer; the random weights
    - ``proof`` -- boolean (default: ``True``); compose the members that
      vanish at the random points exactly with the summed parametrization
    - ``points`` -- (default: `2`) random sums of `H` points tried first

    OUTPUT: a list of :class:`JoinMembership`, one per family

    EXAMPLES:

    Single-token cubics of three variables: the Chow invariants (a product
    of a linear form and a quadric) fail on two heads, whose sums fill the
    span (every ternary cubic)::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.joins import join_membership
        sage: M = LightningAttention(d=3, t=1, a=1)
        sage: join_membership(M, 2, families=['chow'])
        [chow: 0 of 45 vanish on 2 summed heads (exact)]

    Two rank-one heads still have a flattening of rank at most `2`, so the
    context syzygies (relations among its maximal minors) survive::

        sage: M = LightningAttention(d=3, t=2, a=1, entries=[(1, 1)])
        sage: join_membership(M, 2, families=['low_rank', 'syzygies'])
        [low_rank: 0 of 45 vanish on 2 summed heads (exact),
         syzygies: 10 of 10 vanish on 2 summed heads (exact)]

    TESTS::

        sage: join_membership(M, 0)
        Traceback (most recent call last):
        ...
        ValueError: heads (=0) must be a positive integer
        sage: join_membership(LightningAttention(widths=[2, 2, 2], ranks=[1, 1], t=2), 2)
        Traceback (most recent call last):
        ...
        ValueError: join_membership needs one lightning layer; model (=LightningAttention(widths=(2, 2, 2), ranks=(1, 1), t=2) over Rational Field) is not
    """
    from sage.all__sagemath_singular import Integer
    if isinstance(heads, bool) or not isinstance(heads, (int, Integer)) or heads < 1:
        raise ValueError(f"heads (={heads}) must be a positive integer")
    if not model.is_lightning() or model.nlayers() != 1:
        raise ValueError(f"join_membership needs one lightning layer; model (={model}) is not")
    from sage_attention.invariants import FAMILIES, invariants
    qkv = model.with_weight_space("QKV")
    C = model.coordinate_ring()
    if C.variable_names() != qkv.coordinate_ring().variable_names():  # pragma: no cover
        raise ValueError(f"the coordinates of {model} differ from those of its Q K V twin")
    if families is None:
        families = [name for name in FAMILIES if name != "rank_one"]
    sums = []
    for k in range(points):
        vals = None
        for h in range(heads):
            w = qkv.random_weights(seed=derived_seed(seed, "join", k, h))
            v = qkv.coefficients_at(w)
            vals = list(v) if vals is None else [a + b for a, b in zip(vals, v)]
        sums.append(vals)
    images = None
    out = []
    for name in families:
        fam = invariants(model, families=[name])
        vanishing = 0
        for f in fam.polynomials():
            f = C(f)
            if any(f(*vals) != 0 for vals in sums):
                continue
            if proof:
                if images is None:
                    images = summed_images(model, heads)
                if f(*images) != 0:
                    continue
            vanishing += 1
        out.append(JoinMembership(name, int(heads), len(fam), vanishing, bool(proof)))
    return out
