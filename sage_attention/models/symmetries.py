r"""
Published formulas and symmetries of an attention network

A mixin of :class:`~sage_attention.models.base.AttentionNetwork`: the
dimension the published formulas predict (:mod:`sage_attention.models.formulas`),
the known symmetry group of the weights, and the generic fiber compared
with it.

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: M = LightningAttention(d=3, t=2, a=2)
    sage: M.expected_dimension(), M.symmetry_group()[1], M.fibers(seed=0).fiber_dimension
    (10, 5, 5)
"""
from sage_attention.models.formulas import published_dimension
from sage_attention.misc.keywords import keyword_hints


@keyword_hints
class FormulasAndSymmetries:
    r"""
    Mixin: published dimension formulas, symmetry group and generic fibers.

    EXAMPLES::

        sage: from sage_attention import SoftmaxAttention
        sage: from sage_attention.models.symmetries import FormulasAndSymmetries
        sage: isinstance(SoftmaxAttention(d=2, t=2, a=1), FormulasAndSymmetries)
        True
    """

    # ------------------------------------------------------------------
    # Published formulas and symmetries
    # ------------------------------------------------------------------

    def expected_dimension(self):
        r"""
        Return the dimension predicted by the published formulas, or ``None``.

        Single lightning layer ([HMK2024]_, :ref:`mathematics, §5 <math-5>`), with
        `r = \min(a, d)` and `d'` replaced by the number of output rows kept:

        - `t \ge 2`: `d d' + r(2d - r) - 1`;
        - `t = 1`: `d d' + s(2d - s + 1)/2 - 1` with `s = \min(2a, d)`.

        Deep lightning network with no hidden layer narrower than the input
        and no rank-one layer before the last: `\sum_i r_i (2 d_0 - r_i) +
        d_0 d_l - l`, `r_i = \min(a_i, d_0)`. Softmax layers: the same
        formulas without the `-l` (the scaling symmetry is gone; proved for
        one layer in [HMK2024]_, conjectured for deeper networks); a stack
        mixing both: `-1` per lightning layer (not published). ``None``
        where no formula applies (a bottleneck, a rank-one hidden layer, a
        deep network with `t = 1`): see :meth:`expected_dimension_note`.
        The formulas are in :mod:`sage_attention.models.formulas`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention, SoftmaxAttention
            sage: LightningAttention(d=3, t=2, a=2, out=1).expected_dimension()
            10
            sage: LightningAttention(d=3, t=1, a=1, out=3).expected_dimension()
            13
            sage: LightningAttention(widths=[3, 3, 3], ranks=[2, 2], t=3).expected_dimension()
            23
            sage: SoftmaxAttention(widths=[3, 3, 3], ranks=[2, 2], t=3).expected_dimension()
            25
            sage: LightningAttention(widths=[3, 2, 3], ranks=[1, 1], t=3).expected_dimension() is None
            True
        """
        return self._published()[0]

    def expected_dimension_note(self):
        r"""
        Return a sentence saying which formula :meth:`expected_dimension` used.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: LightningAttention(d=3, t=2, a=4).expected_dimension_note()
            "[HMK2024] single layer, t >= 2: d*d' + r*(2d - r) - 1 with r = min(a, d) = 3"
            sage: LightningAttention(widths=[3, 2, 3], ranks=[2, 2], t=3).expected_dimension_note()
            'no published formula: hidden width d_1 = 2 is narrower than the input (a bottleneck lowers the dimension)'
        """
        return self._published()[1]

    def _published(self):
        return published_dimension(self.widths, self.ranks, self.tokens,
                                   rows=len(self.output_rows()),
                                   all_entries=self.entries is None,
                                   softmax=not self.is_lightning(),
                                   lightning_layers=sum(n == "lightning" for n in self.normalization))

    def _symmetry_action(self, name):
        return name

    def symmetry_group(self):
        r"""
        Return ``(name, dimension, action)`` of the known symmetry group of the weights.

        The group is `GL_{a_i}` per layer (for ``'QKV'``, `a_i \le d_{i-1}`),
        `GL_{d_i}` per hidden width (a change of basis of the hidden tokens,
        undone by the next layer), and one scaling `K^*` per lightning layer.

        EXAMPLES::

            sage: from sage_attention import LightningAttention, SoftmaxAttention
            sage: LightningAttention(d=3, t=2, a=2).symmetry_group()
            ('GL_2 x K^*', 5, '(Q, K, V) -> (C Q, lambda C^-T K, lambda^-1 V)')
            sage: LightningAttention(widths=[3, 3, 3], ranks=[2, 2], t=3).symmetry_group()[:2]
            ('GL_2 x GL_2 x GL_3 x (K^*)^2', 19)
            sage: SoftmaxAttention(d=3, t=2, a=2).symmetry_group()[:2]
            ('GL_2', 4)
        """
        parts, dim = [], 0
        for i, a in enumerate(self.ranks):
            din = self.widths[i]
            if self.weight_space == "QKV":
                if a <= din:
                    parts.append(f"GL_{a}")
                    dim += a * a
                else:
                    parts.append(f"{{(Q, K): K^T Q fixed}} (dim {2 * a * din - din * din})")
                    dim += 2 * a * din - din * din
        # X_i -> C X_i for a hidden width, compensated in the next layer
        for h in self.widths[1:-1]:
            parts.append(f"GL_{h}")
            dim += h * h
        scalings = sum(1 for n in self.normalization if n == "lightning")
        if scalings:
            parts.append("K^*" if scalings == 1 else f"(K^*)^{scalings}")
            dim += scalings
        name = " x ".join(parts) if parts else "trivial group"
        return name, dim, self._symmetry_action(name)

    #: how a report says that the dimension reached :meth:`ambient_dimension`
    #: (for attention networks the dimension of the linear span, an upper bound)
    _saturation = "is saturated: its dimension {dim} reaches the dimension {ambient} of its linear span"

    def _fiber_statement(self, fib, group, gdim):
        return (f"the generic fiber (dimension {fib}) is larger than the orbits of "
                f"{group} (dimension {gdim}): further symmetries or degeneracies")

    def _saturated_statement(self, fib, group, gdim, dim, ambient):
        # the dimension cannot grow: the fiber is the excess of the weights
        return (f"the neurovariety {self._saturation.format(dim=dim, ambient=ambient)}, so the "
                f"generic fiber (dimension {fib} = {fib + dim} weights - {dim}) is larger than "
                f"the orbits of {group} (dimension {gdim}): the weights are more than the "
                f"dimension can use")

    def fibers(self, seed=None):
        r"""
        Return the generic fiber of the parametrization, with its symmetries.

        The fiber dimension is the weight-space dimension minus the
        dimension of the neurovariety; it is compared with the dimension of
        :meth:`symmetry_group` (for one lightning layer with `t \ge 2`, the
        group `GL_a \times K^*` of [HMK2024]_ acting by `(Q, K, V) \mapsto
        (C Q, \lambda C^{-T} K, \lambda^{-1} V)`; weights ``'AV'``: only the
        scaling `(A, V) \mapsto (\lambda A, \lambda^{-1} V)`).

        INPUT:

        - ``seed`` -- (default: ``None``) integer, passed to :meth:`dimension_report`

        OUTPUT: a :class:`~sage_attention.models.reports.FiberReport`

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: F = LightningAttention(d=3, t=2, a=2, out=2).fibers(seed=0); F
            Generic fibers of LightningAttention(d=3, out=2, t=2, a=2) over Rational Field have dimension 5 = dim(GL_2 x K^*):
            the weights are identifiable up to (Q, K, V) -> (C Q, lambda C^-T K, lambda^-1 V).
            sage: F.identifiable_up_to_symmetry
            True

        With one token only `\operatorname{Sym}(A)` matters, so the fiber is
        larger than the group orbit::

            sage: LightningAttention(d=3, t=1, a=2, out=1, weight_space='AV').fibers(seed=0).statement
            'the weights are not identifiable up to the known symmetries: only Sym(A) = (A + A^T)/2 enters the map, so the fiber has dimension 3 > 1'

        When the dimension reaches the dimension of the linear span (an
        upper bound), the report says the neurovariety is saturated: the
        fiber is large because the dimension cannot grow, which is no sign
        of further symmetries::

            sage: print(LightningAttention(d=2, t=2, a=1, heads=5).fibers(seed=0).statement)
            the neurovariety is saturated: its dimension 6 reaches the dimension 6 of its linear span, so the generic fiber (dimension 24 = 30 weights - 6) is larger than the orbits of (GL_1 x K^*)^5 (dimension 10): the weights are more than the dimension can use
        """
        from sage_attention.models.reports import FiberReport
        D = self.dimension_report(seed=seed)
        fib = D.fiber_dimension
        group, gdim, action = self.symmetry_group()
        identifiable = (gdim == fib)
        ambient = getattr(D, "ambient_dimension", None)
        if identifiable:
            statement = f"the weights are identifiable up to {action}"
        elif ambient is not None and D.dimension >= ambient and fib > gdim:
            statement = self._saturated_statement(fib, group, gdim, D.dimension, ambient)
        else:
            statement = self._fiber_statement(fib, group, gdim)
        return FiberReport(model=repr(self), fiber_dimension=fib, symmetry_group=group,
                           symmetry_dimension=gdim, identifiable_up_to_symmetry=identifiable,
                           statement=statement, dimension=D.dimension, seed=D.seed)
