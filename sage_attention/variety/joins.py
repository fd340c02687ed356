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

from sage_attention.misc.randomness import derived_seed


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
      :func:`~sage_attention.invariants.invariants` (a name listed twice is one row)
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
    for name in dict.fromkeys(families):        # a family listed twice is one row
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


class SummedHeads:
    r"""
    `H` summed heads of a one-layer lightning model, in the coordinates of one head.

    It offers what :func:`~sage_attention.ideals.implicitization.implicitize`
    needs (the essential ring and coordinates, the linear relations, the
    coordinate ring and the essential parametrization, here the sum of `H`
    copies of the one-head map in disjoint weights), so the engine computes
    the ideal of the `H`-fold join through a degree. The linear relations of
    one head hold on the join (it lies in the same span).

    INPUT:

    - ``model`` -- a one-layer lightning model with weights ``'QKV'``
    - ``heads`` -- positive integer `H`

    EXAMPLES:

    Two rank-one heads of `d = 2` fill the span; for `d = 3` the join has
    dimension `14` in a span of `18` (:meth:`dimension`) and `20` cubic
    equations (the `10` context syzygies among them)::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.joins import SummedHeads
        sage: from sage_attention.ideals.implicitization import implicitize
        sage: J = SummedHeads(LightningAttention(d=2, t=2, a=1, entries=[(1, 1)]), 2); J
        2 summed heads of LightningAttention(d=2, out=1, t=2, a=1, entries=((1, 1),)) over Rational Field
        sage: R = implicitize(J, 3, seed=0, symmetry=False, prove=False, executor=False)
        sage: R.generators_by_degree      # two heads fill the span of 6 coordinates
        {}
        sage: J = SummedHeads(LightningAttention(d=3, t=2, a=1, entries=[(1, 1)]), 2)
        sage: R = implicitize(J, 3, seed=0, symmetry=False, prove=False, executor=False)
        sage: {k: len(v) for k, v in R.generators_by_degree.items()}
        {3: 20}
        sage: from sage_attention.invariants import context_syzygies
        sage: I = R.ideal
        sage: all(f in I for f in context_syzygies(J.model).polynomials())
        True

    TESTS::

        sage: SummedHeads(LightningAttention(d=2, t=2, a=1), 0)
        Traceback (most recent call last):
        ...
        ValueError: heads (=0) must be a positive integer
    """

    weight_space = "QKV"

    def __init__(self, model, heads):
        if not model.is_lightning() or model.nlayers() != 1 or model.weight_space != "QKV":
            raise ValueError(f"SummedHeads needs one lightning layer with weights 'QKV'; "
                             f"model (={model}) is not")
        if isinstance(heads, bool) or int(heads) != heads or heads < 1:
            raise ValueError(f"heads (={heads}) must be a positive integer")
        self.model = model
        self.heads = int(heads)
        self.ranks = model.ranks
        self.widths = model.widths

    def __repr__(self):
        return f"{self.heads} summed heads of {self.model}"

    def is_lightning(self):
        r"""
        Return ``True``: summed lightning heads are a polynomial map.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.joins import SummedHeads
            sage: SummedHeads(LightningAttention(d=2, t=2, a=1), 2).is_lightning()
            True
        """
        return True

    def with_weight_space(self, weight_space):
        r"""
        Return ``self`` (the weights are `Q, K, V`).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.joins import SummedHeads
            sage: J = SummedHeads(LightningAttention(d=2, t=2, a=1), 2)
            sage: J.with_weight_space('QKV') is J
            True
        """
        return self

    def base_ring(self):
        r"""
        Return the base field (that of one head).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.joins import SummedHeads
            sage: SummedHeads(LightningAttention(d=2, t=2, a=1, out=1), 2).base_ring()
            Rational Field
        """
        return self.model.base_ring()

    def essential_ring(self):
        r"""
        Return the essential ring of one head.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.joins import SummedHeads
            sage: SummedHeads(LightningAttention(d=2, t=2, a=1), 2).essential_ring().ngens()
            6
        """
        return self.model.essential_ring()

    def coordinate_ring(self):
        r"""
        Return the coordinate ring of one head.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.joins import SummedHeads
            sage: SummedHeads(LightningAttention(d=1, t=1, a=1), 2).coordinate_ring().ngens()
            1
        """
        return self.model.coordinate_ring()

    def essential_coordinates(self):
        r"""
        Return the essential coordinates of one head.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.joins import SummedHeads
            sage: len(SummedHeads(LightningAttention(d=2, t=2, a=1), 2).essential_coordinates())
            6
        """
        return self.model.essential_coordinates()

    def linear_relations(self):
        r"""
        Return the linear relations of one head (they hold on the join).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.joins import SummedHeads
            sage: M = LightningAttention(d=2, t=3, a=1)
            sage: SummedHeads(M, 2).linear_relations() == M.linear_relations()
            True
        """
        return self.model.linear_relations()

    def essential_parametrization(self):
        r"""
        Return the map from the essential ring to the weights of `H` heads: the sum of the heads.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.joins import SummedHeads
            sage: phi = SummedHeads(LightningAttention(d=1, t=1, a=1), 2).essential_parametrization()
            sage: phi(phi.domain().gen(0))
            h1_q11*h1_k11*h1_v11 + h2_q11*h2_k11*h2_v11
        """
        C = self.model.coordinate_ring()
        images = summed_images(self.model, self.heads)
        index = {x: i for i, x in enumerate(C.gens())}
        E = self.essential_ring()
        R = images[0].parent()
        return E.hom([images[index[C(str(x))]] for x in E.gens()], R)

    def dimension_report(self, seed=None, field=None, force=False):
        r"""
        Return the dimension of the join, with a report.

        The rank of the Jacobian of the sum of `H` heads of :attr:`model`
        (its output entries kept), by
        :func:`~sage_attention.models.jacobian.summed_heads_report`; the
        expected value is the join bound.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.joins import SummedHeads
            sage: R = SummedHeads(LightningAttention(d=2, t=2, a=1, entries=[(1, 1)]), 2).dimension_report(seed=0)
            sage: R.dimension, R.ambient_dimension, R.agrees
            (6, 6, True)
        """
        from sage_attention.models.jacobian import summed_heads_report
        return summed_heads_report(self.model, self.heads, seed=seed, field=field, force=force)

    def dimension(self, seed=None, field=None, force=False):
        r"""
        Return the dimension of the join (the rank of the summed heads' Jacobian).

        It is never above the dimension of the span of one head (the join
        lies in it); see :meth:`dimension_report`.

        EXAMPLES:

        Two heads of the one-entry slice with `d = 2` fill its span of `6`
        essential coordinates (the engine finds no equation of the join,
        see the class's examples); with `d = 3` the join has dimension
        `2 \cdot 7` (twice one head) in a span of `18`::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.joins import SummedHeads
            sage: SummedHeads(LightningAttention(d=2, t=2, a=1, entries=[(1, 1)]), 2).dimension(seed=0)
            6
            sage: SummedHeads(LightningAttention(d=3, t=2, a=1, entries=[(1, 1)]), 2).dimension(seed=0)
            14
            sage: SummedHeads(LightningAttention(d=2, t=2, a=1), 2).dimension(seed=0)
            6
        """
        from sage.rings.integer import Integer
        return Integer(self.dimension_report(seed=seed, field=field, force=force).dimension)
