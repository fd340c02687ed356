r"""
The vanishing ideal of a small polynomial network or transformer block, by elimination

For a :class:`~sage_attention.models.stack.LayerStack` the coordinates are
the coefficients of its output polynomials
(:mod:`sage_attention.models.stack_coordinates`) and the vanishing ideal is
the kernel of the parametrization: Singular eliminates the weights from the
graph ideal `(c_k - \varphi(c_k))`. The implicitization engine of
:mod:`sage_attention.ideals.implicitization` is written for the coordinates
of attention layers (their linear relations, multigrading and symmetries) and
refuses these models; elimination is what works for them, where it is small.

A network with biases is not homogeneous in its input: its coordinates are
the coefficients of every degree `\le D`, not only of degree `D`. Its
neurovariety is still a cone (scale the last layer) and still invariant under
`x \mapsto \lambda x` (scale the first layer), so its ideal is homogeneous in
the coordinates and also graded by the degree of each coefficient's monomial;
it is computed in the same way.

EXAMPLES:

The twisted cubic: binary cubic forms that are cubes of linear forms::

    sage: from sage_attention import PolynomialNetwork
    sage: from sage_attention.ideals.stack_elimination import stack_vanishing_ideal
    sage: I = stack_vanishing_ideal(PolynomialNetwork([2, 1, 1], 3))
    sage: I.gens()
    [c1^2 - 3*c0*c2, c1*c2 - 9*c0*c3, c2^2 - 3*c1*c3]
    sage: I.dimension()
    2
"""
# sage.doctest: needs sage.libs.singular

from sage_attention.misc.errors import ComputationTooLarge  # noqa: F401 (raised by check_size)
from sage_attention.catalog.costs import LIMITS, check_size


def stack_vanishing_ideal(model, force=False):
    r"""
    Return the vanishing ideal of the neurovariety of a small ``LayerStack``.

    INPUT:

    - ``model`` -- a :class:`~sage_attention.models.stack.LayerStack`
    - ``force`` -- boolean (default: ``False``); run even when the size
      guard refuses (more than 60 coordinates)

    OUTPUT: an ideal of the coordinate ring (the domain of
    ``model.parametrization()``), its reduced Gröbner basis in degrevlex

    Ctrl-C raises :class:`~sage_attention.misc.interrupts.ComputationInterrupted`
    (phase ``'elimination'``, nothing finished: a Gröbner basis is all or
    nothing).

    EXAMPLES:

    A shallow network with a bias: `x \mapsto c (w \cdot x + b)^2 + b'` in two
    variables. The coordinates (the six coefficients of degree `\le 2`)
    satisfy the rank condition of the quadratic part and one more relation
    tying the linear part to it; the constant term is free::

        sage: from sage_attention import Network, dense
        sage: from sage_attention.ideals.stack_elimination import stack_vanishing_ideal
        sage: M = Network([dense(out=1, r=2, bias=True), dense(out=1, bias=True)], d=2)
        sage: I = stack_vanishing_ideal(M)
        sage: I.dimension(), M.dimension(seed=0)
        (4, 4)
        sage: [M.coordinate_description()[k][2] for k in range(6)]
        [(2, 0), (1, 1), (0, 2), (1, 0), (0, 1), (0, 0)]

    A network whose outputs fill their space has the zero ideal, returned
    without elimination: the rank of the Jacobian at a random point (a
    lower bound on the dimension, whatever the point; :meth:`dimension`)
    reaches the number of coordinates. Here `6` of `6`, the ternary
    quadrics, sums of four squares of linear forms, which eliminating
    `16` weights would take minutes to find::

        sage: stack_vanishing_ideal(Network([dense(out=4, r=2), dense(out=1)], d=3))
        Ideal (0) of Multivariate Polynomial Ring in c0, c1, c2, c3, c4, c5 over Rational Field

    Membership in the ideal is membership in Sage::

        sage: C = I.ring(); c = C.gens()
        sage: c[1]^2 - 4*c[0]*c[2] in I
        True

    TESTS::

        sage: from sage_attention import PolynomialNetwork, LightningAttention
        sage: stack_vanishing_ideal(PolynomialNetwork([3, 3, 1], 4))
        Traceback (most recent call last):
        ...
        ComputationTooLarge: elimination over 15 coordinates and 12 weights ...
        sage: stack_vanishing_ideal(PolynomialNetwork([2, 1, 1], 3, base_ring=GF(next_prime(2^30))))
        Traceback (most recent call last):
        ...
        ValueError: `vanishing_ideal` by elimination runs in Singular, whose prime fields need p < 2^29, not GF(1073741827) ...: use a prime below 2^29 (e.g. 536870909) or the model over QQ
        sage: stack_vanishing_ideal(LightningAttention(d=2, t=2, a=1))
        Traceback (most recent call last):
        ...
        TypeError: model (=LightningAttention(d=2, out=1, t=2, a=1) over Rational Field) must be a LayerStack (a network with dense layers); for attention networks use sage_attention.ideals.implicitization.implicitize or eliminate
    """
    from sage_attention.models.stack import LayerStack
    if not isinstance(model, LayerStack):
        raise TypeError(f"model (={model}) must be a LayerStack (a network with dense layers); "
                        "for attention networks use sage_attention.ideals.implicitization."
                        "implicitize or eliminate")
    from sage_attention.catalog.fields import require_field
    # as ``check`` refuses it: beyond 2^29 Singular's minimal bases fail (the ring Z/p)
    require_field("elimination", model.base_ring(), "`vanishing_ideal` by elimination")
    est = model.size_estimate()
    for task in STACK_ELIMINATION_TASKS:
        check_size(est, task, force, hint="the dimension needs no ideal (dimension_report)")
    phi = model.parametrization(force=force)
    C, W = phi.domain(), phi.codomain()
    try:
        filled = model.dimension_report(seed=0, force=force).dimension == C.ngens()
    except ValueError:
        # over a small field the dimension is refused (a Jacobian rank there
        # is no certified bound): eliminate
        filled = False
    if filled:
        # the rank of the Jacobian at a point (modulo p) is at most its
        # generic rank over the base field, and at most the number of
        # coordinates: equal to it, the image is dense and the ideal is zero
        return C.ideal(0)
    from sage.all__sagemath_singular import PolynomialRing
    names = [str(w) for w in W.gens()] + [str(c) for c in C.gens()]
    G = PolynomialRing(model.base_ring(), len(names), names, order=f"degrevlex({W.ngens()}),"
                       f"degrevlex({C.ngens()})")
    w, c = G.gens()[:W.ngens()], G.gens()[W.ngens():]
    to_G = W.hom(list(w), G)
    graph = G.ideal([ck - to_G(f) for ck, f in zip(c, phi.im_gens())])
    from sage_attention.misc.interrupts import raise_interrupted
    try:
        J = graph.elimination_ideal(list(w))
        back = G.hom([0] * W.ngens() + list(C.gens()), C)
        I = C.ideal([back(g) for g in J.gens()])
        return C.ideal(I.groebner_basis())
    except KeyboardInterrupt as e:
        # a Groebner basis is all or nothing: nothing finished
        raise_interrupted(e, "elimination", None, "", "the same call starts again")


#: the size-guard tasks of this elimination (also evaluated by ``check``)
STACK_ELIMINATION_TASKS = ("elimination", "stack elimination")


def __getattr__(name):
    # STACK_ELIMINATION_LIMIT: coordinates times weights let through without ``force=True``
    # (a Groebner basis of the graph ideal is doubly exponential in the worst case), the size
    # guard's limit for the task 'stack elimination' (catalog.costs.LIMITS), read when asked
    if name == "STACK_ELIMINATION_LIMIT":
        return LIMITS["stack elimination"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
