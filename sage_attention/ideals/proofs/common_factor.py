r"""
The degree of a variety of forms with a common linear factor

Let `V` be the linear forms in `n` features and `Y \subseteq
(\mathrm{Sym}^e V)^k` an irreducible cone of `k`-tuples of forms whose
general member has no common linear factor. The variety

.. MATH::

    X = \overline{\{\ell \cdot F = (\ell F_1, \dots, \ell F_k) : \ell \in V, F \in Y\}}
    \subseteq (\mathrm{Sym}^{e+1} V)^k

is, for two kinds of `Y`, a lightning neurovariety:

- `e = 1`, `Y` the `n \times k` matrices (columns the linear forms `L_c`)
  of rank at most `r`: the one-entry slices (`k = n = d`, `r = a`, `L = K^T
  Q`; :ref:`mathematics, the degree of the one-entry slices <math-6>`) and
  the variety `X'` of their first `a` columns (`k = a`, every matrix). The
  general member has no common factor when `r \ge 2`.
- `e = 2`, `k = 1`, `Y` the quadrics of rank at most `r = \min(2a, n)`: the
  single tokens with one output, `(v \cdot x) \, x^T K^T Q x`. The general
  member is irreducible when `r \ge 3`.

**Theorem.** Then `X` has dimension `n + y` (affine cone) and degree

.. MATH::

    \deg X = \binom{n - 1 + y}{n - 1} \deg Y, \qquad y = \dim \mathbb{P}(Y),

with, for matrices, `y = r(n + k - r) - 1` and `\deg Y = \prod_{i=0}^{k-r-1}
\frac{(n+i)!\, i!}{(r+i)!\, (n-r+i)!}` (Giambelli--Thom--Porteous,
[Har1992]_ Example 19.10), and for quadrics `y = r(2n - r + 1)/2 - 1` and
`\deg Y` the Harris--Tu degree of the symmetric matrices of rank at most
`r` [HT1984]_.

*Proof.* The map `\Phi([\ell], [F]) = [\ell \cdot F]` is defined on all of
`\mathbb{P}^{n-1} \times \mathbb{P}(Y)` (a product of nonzero polynomials is
nonzero) and is bilinear, so `\Phi^* \mathcal{O}(1) = \mathcal{O}(1, 1)`. It
is injective on the open set of the `F` without a common linear factor: if
`\ell F = \ell' F'` with `[\ell] \ne [\ell']`, then `\ell'` divides every
`F_j` (unique factorization). Hence `\Phi` is birational onto
`\mathbb{P}(X)`, of dimension `n - 1 + y`, and `\deg X = \int (h_1 +
h_2)^{n-1+y} = \binom{n - 1 + y}{n - 1} \int_{\mathbb{P}(Y)} h_2^{y}`.
`\square`

The structure comes from the model
(:meth:`~sage_attention.models.essential.EssentialCoordinates.linear_form_structure`)
and is checked exactly (:func:`~sage_attention.ideals.proofs.form_coordinates.structure_holds`
and the shape of the `P_o` below), so a model that gives wrong data gets no
degree. ``tests/test_slice_degree.py`` compares the theorem with the degrees
of proved ideals.

EXAMPLES:

The one-entry slice of width `4` and rank `2`, whose proof by inheritance
gives no Hilbert series, and the token of width `4` and rank `2` (the
cubics with a linear factor), which has no equation of degree at most `4`::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.ideals.proofs.common_factor import common_factor_degree
    sage: common_factor_degree(LightningAttention(d=4, t=2, a=2, out=1, entries=[(1, 1)]))
    (7280, 15)
    sage: common_factor_degree(LightningAttention(d=4, t=1, a=2))
    (220, 13)
"""
from math import comb, factorial
from fractions import Fraction

from sage_attention.ideals.proofs.form_coordinates import structure_holds


def determinantal_degree(n, k, r):
    r"""
    Return the degree of the variety of `n \times k` matrices of rank at most `r`.

    INPUT:

    - ``n``, ``k`` -- positive integers; ``r`` -- integer, `0 \le r`

    OUTPUT: an integer ([Har1992]_ Example 19.10; `1` when `r \ge \min(n, k)`)

    EXAMPLES:

    The determinant of a `3 \times 3` matrix, the Segre variety `\mathbb{P}^1
    \times \mathbb{P}^2`, and the `4 \times 4` matrices of rank at most `2`::

        sage: from sage_attention.ideals.proofs.common_factor import determinantal_degree
        sage: determinantal_degree(3, 3, 2), determinantal_degree(2, 3, 1), determinantal_degree(4, 4, 2)
        (3, 3, 20)
    """
    n, k, r = int(n), int(k), int(r)
    if r >= min(n, k):
        return 1
    out = Fraction(1)
    for i in range(k - r):
        out *= Fraction(factorial(n + i) * factorial(i), factorial(r + i) * factorial(n - r + i))
    return int(out)


def symmetric_degree(n, r):
    r"""
    Return the degree of the variety of symmetric `n \times n` matrices of rank at most `r`.

    INPUT:

    - ``n`` -- positive integer; ``r`` -- integer, `0 \le r`

    OUTPUT: an integer ([HT1984]_; `1` when `r \ge n`)

    EXAMPLES:

    The determinant of a symmetric `3 \times 3` matrix, the Veronese surface
    (rank one in `3 \times 3`), the quadrics of rank at most two in four
    variables::

        sage: from sage_attention.ideals.proofs.common_factor import symmetric_degree
        sage: symmetric_degree(3, 2), symmetric_degree(3, 1), symmetric_degree(4, 2)
        (3, 4, 10)
    """
    n, r = int(n), int(r)
    if r >= n:
        return 1
    out = Fraction(1)
    for i in range(n - r):
        out *= Fraction(comb(n + i, n - r - i), comb(2 * i + 1, i))
    return int(out)


def matrix_shape(L):
    r"""
    Return ``(n, k, a)`` when every `P_c = s_0 \sum_{j=1}^{a} e_{jc} s_j` with distinct extra weights `e_{jc}` (others unused), else ``None``.

    Then the forms are the `k` quadrics `\ell_0 \cdot (W^T E)_c` in `n`
    features: a common linear factor times the columns of an `n \times k`
    matrix of rank at most `a`. Only the polynomials `P_c` are read; whether
    they describe a map is :func:`~sage_attention.ideals.proofs.form_coordinates.structure_holds`.

    INPUT:

    - ``L`` -- a :class:`~sage_attention.models.linear_forms.LinearFormStructure`

    OUTPUT: a triple of integers or ``None``

    EXAMPLES:

    A one-entry slice, and a single token (one cubic)::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.proofs.common_factor import matrix_shape
        sage: matrix_shape(LightningAttention(d=4, t=2, a=3, out=1, entries=[(1, 1)]).linear_form_structure())
        (4, 4, 3)
        sage: matrix_shape(LightningAttention(d=3, t=1, a=1).linear_form_structure()) is None
        True
    """
    m, k = L.nforms, len(L.outer)
    a = m - 1
    if a < 1 or k < 1 or len(set(L.extra)) != len(L.extra):
        return None
    R = L.outer[0].parent()
    s, e = R.gens()[:m], R.gens()[m:]
    used = set()
    for P in L.outer:
        if P.parent() is not R or any(c != 1 for c in P.coefficients()):
            return None
        found = []
        for j in range(1, m):
            hit = [x for x in e if P.monomial_coefficient(s[0] * s[j] * x) == 1]
            if len(hit) != 1:
                return None
            found.append(hit[0])
        if P != s[0] * sum(x * s[j] for j, x in zip(range(1, m), found)) or used & set(found):
            return None
        used |= set(found)
    return L.nfeatures, k, a


def _quadric_shape(L):
    r"""
    Return ``a`` when there is one form `P = s_0 \sum_{r=1}^{a} s_r s_{a+r}` (no extra weight), else ``None``.
    """
    m = L.nforms
    if len(L.outer) != 1 or L.extra or m < 3 or m % 2 == 0:
        return None
    a = (m - 1) // 2
    s = L.outer[0].parent().gens()
    return a if L.outer[0] == s[0] * sum(s[r] * s[a + r] for r in range(1, a + 1)) else None


def common_factor_degree(model, structure=None):
    r"""
    Return ``(degree, dimension)`` of the model's variety by the theorem of this module, or ``None``.

    INPUT:

    - ``model`` -- a model (its essential parametrization and, unless
      given, its ``linear_form_structure()``)
    - ``structure`` -- (default: ``None``, the model's) a
      :class:`~sage_attention.models.linear_forms.LinearFormStructure`

    OUTPUT: ``None`` unless the coordinates are checked exactly to be those
    of the tuples `\ell \cdot F` above, over a field of characteristic `0`,
    with rank `r = \min(a, n, k) \ge 2` (matrices) or `r = \min(2a, n) \ge
    3` (quadrics); then the degree of the projective variety and the
    dimension of the affine cone

    EXAMPLES:

    The one-entry slices of width `3` (their proofs give the same degrees,
    from a Hilbert series), and no answer for rank one (the map is then two
    to one); the single tokens of width `3` and ranks `2`, `3` (the
    cubics with a linear factor, degree `21` as their proofs find), not of
    rank one (three linear factors)::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.proofs.common_factor import common_factor_degree
        sage: [common_factor_degree(LightningAttention(d=3, t=2, a=a, out=1, entries=[(1, 1)])) for a in (1, 2, 3)]
        [None, (108, 10), (45, 11)]
        sage: [common_factor_degree(LightningAttention(d=3, t=1, a=a)) for a in (1, 2, 3)]
        [None, (21, 8), (21, 8)]
    """
    L = structure if structure is not None else getattr(model, "linear_form_structure", lambda: None)()
    if L is None or not L.outer:
        return None
    phi = model.essential_parametrization()
    if phi.domain().base_ring().characteristic() != 0:
        return None
    matrices, quadrics = matrix_shape(L), _quadric_shape(L)
    if (matrices is None and quadrics is None) or not structure_holds(phi, L):
        return None
    n = L.nfeatures
    if matrices is not None:
        _, k, a = matrices
        r = min(a, n, k)
        if r < 2:
            return None
        y = r * (n + k - r) - 1
        deg = determinantal_degree(n, k, r)
    else:
        r = min(2 * quadrics, n)
        if r < 3:
            return None
        y = r * (2 * n - r + 1) // 2 - 1
        deg = symmetric_degree(n, r)
    return comb(n - 1 + y, n - 1) * deg, n + y
