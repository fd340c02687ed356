r"""
Evaluation of monomials at random weight points modulo a prime

Part of the implicitization engine (:mod:`sage_attention.ideals.implicitization`):
the kernel of the map in a graded piece is the nullspace of the matrix of
the values of its monomials at random weight points, modulo a prime. The
:class:`EvaluationContext` keeps the images of the essential coordinates and
their values at a shared pool of points; :func:`nullspace_data` echelonizes
the evaluation matrix of a piece.
"""
import numpy as np

from sage.all__sagemath_singular import QQ, ZZ
from sage_attention.misc.memory import check_memory
from sage_attention.ideals.engine import linalg_modp as _la
from sage_attention.ideals.engine.product_span import residues
from sage_attention.misc.randomness import derived_seed


def to_flint(ctx, f):
    r"""
    Return the Sage polynomial ``f`` in the ``python-flint`` context ``ctx``.

    The variables of ``ctx`` are those of ``f``'s ring, in the same order;
    integer coefficients stay integers (so an ``fmpz_mpoly_ctx`` takes a
    polynomial with integer coefficients), others become ``fmpq``.

    EXAMPLES::

        sage: import flint
        sage: from sage_attention.ideals.engine.evaluation import to_flint
        sage: R.<x,y> = QQ[]
        sage: ctx = flint.fmpq_mpoly_ctx.get(("x", "y"), "degrevlex")
        sage: to_flint(ctx, x^2 - y/3)
        x^2 - 1/3*y
        sage: S.<z> = QQ[]                       # one variable: integer exponents
        sage: to_flint(flint.fmpz_mpoly_ctx.get(("z",), "degrevlex"), 2*z^3 + 1)
        2*z^3 + 1
    """
    import flint
    if ctx.nvars() == 1 or not hasattr(f, "exponents"):   # one variable: integer exponents
        d = {(int(e[0]) if hasattr(e, "__iter__") else int(e),): c for e, c in f.dict().items()}
        items = d.items()
    else:
        exps, coeffs = f.exponents(as_ETuples=False), f.coefficients()
        if f.base_ring() is QQ or f.base_ring() is ZZ:
            den = f.denominator() if f.base_ring() is QQ else 1
            if den == 1:                # the usual case: a dictionary built at C speed
                return ctx.from_dict(dict(zip(exps, map(int, coeffs))))
        items = zip(exps, coeffs)
    out = {}
    for e, c in items:
        c = QQ(c)
        n, q = c.numerator(), c.denominator()
        out[e] = int(n) if q == 1 else flint.fmpq(int(n), int(q))
    return ctx.from_dict(out)


class EvaluationContext:
    r"""
    What a worker needs: the images of the essential coordinates, and a shared
    pool of random weight points at which they are evaluated once.

    The values of the coordinates at the points of the pool are computed
    (vectorized, modulo `p`) the first time they are needed and kept; every
    piece evaluates its monomials at the first points of the pool. The pool is
    a function of ``seed`` only, so every worker builds the same one.

    INPUT:

    - ``images`` -- the images of the essential coordinates (polynomials in
      the weights)
    - ``ring`` -- the essential ring
    - ``seed`` -- (default: ``None``) integer; the pool of points
    - ``characteristic`` -- (default: `0`) `0` for a map over `\QQ`, or the
      prime `p` of a map over `\GF{p}`
    - ``envelope`` -- (default: ``None``) the images under a cheaper map
      `\psi` with ``images == L(psi)`` for a ring morphism `L`, checked
      (:func:`envelope_images`): used to verify generators, never to
      evaluate

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.engine.evaluation import EvaluationContext
        sage: M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
        sage: E = M.essential_ring(); phi = M.essential_parametrization()
        sage: ctx = EvaluationContext([phi(x) for x in E.gens()], E, seed=0)
        sage: from sage_attention.settings import settings
        sage: p = settings.LINALG_PRIMES[0]
        sage: ctx.pool(p, 3).shape                  # 3 points, 6 coordinates
        (3, 6)
        sage: bool((ctx.pool(p, 3) == EvaluationContext(ctx.images, E, seed=0).pool(p, 3)).all())
        True
    """

    CHUNK = 256

    #: whether :func:`~sage_attention.ideals.engine.product_span.verify_exactly`
    #: tries :attr:`envelope` first (it stops after the first polynomial that
    #: vanishes on the images but not on the envelope)
    envelope_useful = True

    def __init__(self, images, ring, seed=None, characteristic=0, envelope=None):
        self.images = tuple(images)         # polynomials in the weight ring
        # the images under a map psi with images = L(psi) (envelope_images): a polynomial
        # that vanishes on psi vanishes on the variety; tried first by verify_exactly
        self.envelope = None if envelope is None else tuple(envelope)
        self.ring = ring                    # the essential ring
        self.seed = seed
        # 0: the map is over QQ (kernels are lifted to QQ); a prime p: the map
        # is over GF(p) (its coefficients are kept as integers in [0, p)) and
        # kernels are computed and verified modulo p itself
        self.characteristic = int(characteristic)
        W = images[0].parent()
        self.nparams = W.ngens()
        self.terms = []
        for f in images:
            exps = np.array([list(e) for e in f.exponents()], dtype=np.int64)
            coeffs = [QQ(c) for c in f.coefficients()]
            self.terms.append((exps, coeffs))
        self._pools = {}

    def flint(self):
        r"""
        Return ``(coordinate context, weight context, images, coefficient
        conversion)`` for ``python-flint``, or ``None`` when it is not installed.
        """
        if not hasattr(self, "_flint"):
            self._flint = _flint_data(self.images, self.ring)
        return self._flint

    def flint_envelope(self):
        r"""
        Return :meth:`flint` for the images of :attr:`envelope`, or ``None`` (no envelope, or no ``python-flint``).
        """
        if not hasattr(self, "_flint_envelope"):
            self._flint_envelope = None if self.envelope is None else _flint_data(self.envelope, self.ring)
        return self._flint_envelope

    #: whether the memory guard is off (``implicitize(..., force=True)``)
    force = False

    def __getstate__(self):
        return {"images": self.images, "ring": self.ring, "seed": self.seed, "force": self.force,
                "characteristic": self.characteristic, "envelope": self.envelope}

    def __setstate__(self, state):
        self.__init__(state["images"], state["ring"], state["seed"],
                      state.get("characteristic", 0), state.get("envelope"))
        self.force = state.get("force", False)

    def eval_coordinates(self, points, p):
        r"""
        Return the values mod ``p`` of the essential coordinates at ``points`` (P x m array).
        """
        P = points.shape[0]
        out = np.zeros((P, len(self.terms)), dtype=np.int64)
        powers = {}

        def pw(j, e):
            key = (j, e)
            if key not in powers:
                v = points[:, j] % p
                acc = v
                for _ in range(e - 1):
                    acc = acc * v % p
                powers[key] = acc
            return powers[key]
        for i, (exps, coeffs) in enumerate(self.terms):
            acc = np.zeros(P, dtype=np.int64)
            for e, c in zip(exps, residues(coeffs, p)):
                v = np.full(P, int(c), dtype=np.int64)
                for j in np.nonzero(e)[0]:
                    v = v * pw(int(j), int(e[j])) % p
                acc = (acc + v) % p
            out[:, i] = acc
        return out

    def pool(self, p, count, tag=0):
        r"""
        Return the values mod ``p`` of the coordinates at the first ``count`` points of pool ``tag``.
        """
        key = (p, tag)
        vals = self._pools.get(key)
        while vals is None or len(vals) < count:
            chunk = 0 if vals is None else len(vals) // self.CHUNK
            rng = np.random.default_rng([derived_seed(self.seed, tag) % (2 ** 32), p, chunk])
            pts = rng.integers(0, p, size=(self.CHUNK, self.nparams), dtype=np.int64)
            new = self.eval_coordinates(pts, p)
            vals = new if vals is None else np.concatenate([vals, new])
            self._pools[key] = vals
        return vals[:count]


def _flint_data(images, ring):
    r"""
    Return ``(coordinate context, weight context, images, coefficient conversion)`` for ``python-flint``, or ``None``.
    """
    try:
        import flint
    except ImportError:
        return None
    W = images[0].parent()
    if all(c in ZZ for f in images for c in f.coefficients()):
        make, coeff = flint.fmpz_mpoly_ctx, int
    else:
        make = flint.fmpq_mpoly_ctx

        def coeff(c):
            c = QQ(c)
            return flint.fmpq(int(c.numerator()), int(c.denominator()))
    wctx = make.get(tuple(f"w{i}" for i in range(W.ngens())), "degrevlex")
    ectx = make.get(tuple(f"y{i}" for i in range(ring.ngens())), "degrevlex")
    return (ectx, wctx, [to_flint(wctx, f) for f in images], coeff)


def envelope_images(model, images, ring):
    r"""
    Return the images of the essential coordinates under a cheaper map whose image contains the variety's, or ``None``.

    The map is `\psi` of the model's
    :meth:`~sage_attention.models.polynomial.PolynomialAttentionNetwork.factored_parametrization`
    (the same network with generic attention matrices `A_i`), used only
    after the identity ``images == L(psi)`` is checked here, exactly,
    coordinate by coordinate. Then for every polynomial `f`, `f \circ
    \varphi = L(f \circ \psi)`, so `f \circ \psi = 0` implies `f \circ
    \varphi = 0`: `f` vanishes on the neurovariety. This is how
    :func:`~sage_attention.ideals.engine.product_span.verify_exactly` proves a
    generator first (composing with `\psi`: fewer weights, lower
    degree); only when `f \circ \psi \neq 0` (possible when some `a_i <
    d_{i-1}`) does it compose with `\varphi`.

    INPUT:

    - ``model`` -- the model whose essential parametrization has the ``images``
    - ``images`` -- the images of the generators of ``ring`` (polynomials in the model's weights)
    - ``ring`` -- the essential ring

    OUTPUT: a tuple of polynomials (in the weights of `\psi`), or ``None``
    when the model offers no factorization, the coordinates differ, or
    the identity does not hold

    EXAMPLES:

    The single token of width `3` and rank `3`: `\psi` has `12` weights in
    place of `21`, and its images have degree `2` in place of `3`::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.engine.evaluation import envelope_images
        sage: M = LightningAttention(d=3, t=1, a=3)
        sage: E = M.essential_ring(); phi = M.essential_parametrization()
        sage: images = [phi(x) for x in E.gens()]
        sage: psi = envelope_images(M, images, E)
        sage: psi[1], psi[1].parent().ngens(), images[1].parent().ngens()
        (v12*A11 + v11*A12 + v11*A21, 12, 21)

    A map that is not the model's is refused (the identity is checked)::

        sage: envelope_images(M, [2 * f for f in images], E) is None
        True
        sage: envelope_images(M.with_weight_space('AV'), images, E) is None
        True
    """
    factored = getattr(model, "factored_parametrization", None)
    got = factored() if factored is not None else None
    if got is None:
        return None
    psi, L = got
    if [str(x) for x in psi.domain().gens()] != [str(x) for x in ring.gens()] or len(images) != ring.ngens():
        return None
    out = tuple(psi(x) for x in psi.domain().gens())
    if L.codomain() is not images[0].parent() or any(L(f) != g for f, g in zip(out, images)):
        return None
    return out


def monomial_values(vals, mons, p):
    r"""
    Return the values mod ``p`` of the monomials ``mons`` (N x n, one total degree) at coordinate values ``vals`` (P x n).

    A monomial of degree `k` is a product of `k` coordinates: its values
    are `k - 1` vectorized products of columns of ``vals``.

    INPUT:

    - ``vals`` -- ``P x n`` array of coordinate values modulo ``p``
    - ``mons`` -- ``N x n`` array of exponent vectors of one total degree
    - ``p`` -- a prime

    OUTPUT: a ``P x N`` ``int64`` array

    EXAMPLES::

        sage: import numpy as np
        sage: from sage_attention.ideals.engine.evaluation import monomial_values
        sage: monomial_values(np.array([[2, 3]]), np.array([[2, 0], [1, 1]]), 7).tolist()
        [[4, 6]]
    """
    P = vals.shape[0]
    N, n = mons.shape
    if N == 0:
        return np.zeros((P, 0), dtype=np.int64)
    k = int(mons[0].sum())
    if k == 0:
        return np.ones((P, N), dtype=np.int64)
    idx = np.repeat(np.tile(np.arange(n), N), mons.astype(np.int64).ravel()).reshape(N, k)
    out = vals[:, idx[:, 0]] % p
    for c in range(1, k):
        out = out * vals[:, idx[:, c]] % p
    return out


def nullspace_data(ctx, mons, p, attempt, rank=None):
    r"""
    Return ``(R, pivots)``: the echelon form of the evaluation matrix of ``mons`` at random points.

    The points are the first points of the shared pool (pool ``attempt``:
    a retry uses other points). Points are added until the rank is smaller
    than their number minus `3` (or equals the number of monomials); the
    echelon form found so far is kept and only the new points are added to
    it. With ``rank`` (the rank found modulo another prime) the right number
    of points is taken at once.

    INPUT:

    - ``ctx`` -- an :class:`EvaluationContext`
    - ``mons`` -- array of exponent vectors (one total degree)
    - ``p`` -- a prime
    - ``attempt`` -- integer; the pool of points
    - ``rank`` -- (default: ``None``) the rank expected

    OUTPUT: the echelon form (``int64`` array) and the tuple of its pivot columns

    EXAMPLES:

    The quadrics in the coordinates of the one-entry slice: the kernel (the
    free columns) has dimension `3`, its three quadrics::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.engine.evaluation import EvaluationContext
        sage: M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
        sage: E = M.essential_ring(); phi = M.essential_parametrization()
        sage: ctx = EvaluationContext([phi(x) for x in E.gens()], E, seed=0)
        sage: from sage_attention.ideals.engine.evaluation import nullspace_data
        sage: from sage_attention.ideals.engine.product_span import monomials
        sage: from sage_attention.settings import settings
        sage: R, piv = nullspace_data(ctx, monomials(6, 2), settings.LINALG_PRIMES[0], 0)
        sage: len(monomials(6, 2)) - len(piv)
        3
    """
    N = len(mons)
    P = min(N, 48 if rank is None else rank) + 4
    R, used = None, 0
    while True:
        check_memory(_evaluation_bytes(P, N), f"the evaluation matrix of a graded piece ({P} points x "
                     f"{N} monomials)", ctx.force, lower_degree=True)
        vals = ctx.pool(p, P, attempt)[used:P]
        new = monomial_values(vals, mons, p)
        R, piv = _la.rref_modp(new if R is None else np.concatenate([R, new]), p)
        used = P
        if len(piv) < P - 3 or len(piv) == N:
            return R, piv
        P = min(N, max(P + P // 2, N // 2)) + 4


def _evaluation_bytes(P, N):
    r"""
    Return the peak bytes of echelonizing a ``P x N`` evaluation matrix.

    The matrix (``int64``), two temporaries of :func:`monomial_values`, and
    for more than ``settings.NUMPY_ELIMINATION_COLUMNS`` columns the
    Sage matrix and the echelon form copied back: about five copies.

    TESTS::

        sage: from sage_attention.ideals.engine.evaluation import _evaluation_bytes
        sage: _evaluation_bytes(100, 1000)
        4000000
    """
    return 5 * 8 * int(P) * int(N)
