r"""
The semantic checks of a model spec

A parsed :class:`~sage_attention.dsl.spec.ModelSpec` is checked for what
the grammar cannot see (:func:`check_model`): positive widths, ranks and
tokens below ``settings.MAX_SPEC_SIZE``; ``p`` prime and below
:data:`MAX_CHARACTERISTIC` (:func:`is_prime`); entries in range;
duplicate items; a known mask and activation; the combinations each model
class supports (softmax only with one head and no mask, dense layers only
with lightning attention layers, a nonlinear last layer only with
``linear_output = false``). The first error raises a located
:class:`~sage_attention.dsl.errors.SpecError`, through a :class:`Checker`
that also collects the notes. The checks of statements are in
:mod:`sage_attention.dsl.statement_checks`; the whole pass is
:func:`~sage_attention.dsl.validation.validate`.

It reads the spec's objects through their attributes only, so it imports
neither :mod:`sage_attention.dsl.spec` nor Sage.

EXAMPLES::

    sage: from sage_attention.dsl import parse_spec
    sage: from sage_attention.dsl.model_checks import Checker, check_model
    sage: spec = parse_spec("model m { input = 3; tokens = 2; layer attention(rank = 4, out = 1) }")
    sage: chk = Checker(spec); check_model(chk, spec.models[0]); chk.notes
    ['<spec>:1:50: note: rank 4 exceeds input width 3: rank A <= 3 anyway, the rank is no constraint']
    sage: spec = parse_spec("model m { input = 3; tokens = 2; layer attention(rank = 1, out = 2, residual = true) }")
    sage: check_model(Checker(spec), spec.models[0])
    Traceback (most recent call last):
    ...
    SpecError: <spec>:1:69: layer 1 of model `m` has `residual = true`, which adds its input to its output, so its output width `out` (=2) must equal its input width (=3)
    ...
"""
from fractions import Fraction

from sage_attention.settings import settings
from sage_attention.misc.text import WrittenInt, did_you_mean, format_value, near_integers

#: The attention masks a layer may have.
MASKS = ("none", "causal")

#: The activations of a dense layer: ``power(r)`` (`x^r`, `r \ge 1`) or ``linear``.
ACTIVATIONS = ("power", "linear")

#: ``GF(p)`` needs ``p`` below this bound (so primality is decided exactly).
MAX_CHARACTERISTIC = 2**64


def is_prime(p):
    r"""
    Return whether the integer ``p`` (`< 2^{64}`) is prime.

    A deterministic Miller-Rabin test (the first twelve primes as bases
    decide every `p < 3.3 \cdot 10^{24}`), so ``GF(2^61 - 1)`` is checked
    at once.

    EXAMPLES::

        sage: from sage_attention.dsl.model_checks import is_prime
        sage: [p for p in range(30) if is_prime(p)]
        [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
        sage: is_prime(2**61 - 1), is_prime(2**61 + 1), is_prime(3215031751)
        (True, False, False)
        sage: is_prime(2**64 + 13)
        Traceback (most recent call last):
        ...
        ValueError: p (=18446744073709551629) must be below 2^64
    """
    if p >= MAX_CHARACTERISTIC:
        raise ValueError(f"p (={p}) must be below 2^64")
    if p < 2:
        return False
    bases = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
    for q in bases:
        if p % q == 0:
            return p == q
    d, s = p - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in bases:
        x = pow(a, d, p)
        if x in (1, p - 1):
            continue
        for _ in range(s - 1):
            x = x * x % p
            if x == p - 1:
                break
        else:
            return False
    return True


class Checker:
    r"""
    The context of the semantic checks of a spec: raise an error located in its source, collect notes.

    INPUT:

    - ``spec`` -- the :class:`~sage_attention.dsl.spec.Spec` checked (its
      ``filename`` and ``source`` locate the messages)

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.dsl.model_checks import Checker
        sage: spec = parse_spec("model m { input = 0 }")
        sage: chk = Checker(spec)
        sage: chk.note("hello", spec.models[0].span); chk.notes
        ['<spec>:1:1: note: hello']
        sage: chk.positive(0, "input", spec.models[0].item_spans[0][1])
        Traceback (most recent call last):
        ...
        SpecError: <spec>:1:11: input (=0) must be a positive integer
            model m { input = 0 }
                      ^
        fix: write a positive integer, e.g. `input = 1`
        sage: chk.positive(int(10**7), "input", None)     # a value as parsed: a Python int
        Traceback (most recent call last):
        ...
        SpecError: input (=10000000) must be at most 1000000: no computation of this package is feasible beyond that size
        fix: write a number of at most 1000000
    """

    def __init__(self, spec):
        self.spec = spec
        self.notes = []

    def error(self, message, span, fix=None):
        r"""
        Raise a :class:`~sage_attention.dsl.errors.SpecError` at ``span`` of the source.

        EXAMPLES::

            sage: from sage_attention.dsl import parse_spec
            sage: from sage_attention.dsl.model_checks import Checker
            sage: Checker(parse_spec("")).error("wrong", None, fix="repair it")
            Traceback (most recent call last):
            ...
            SpecError: wrong
            fix: repair it
        """
        from sage_attention.dsl.errors import SpecError as LocatedSpecError
        raise LocatedSpecError(message, span, self.spec.filename, self.spec.source, fix=fix)

    def note(self, message, span):
        r"""
        Add the note ``message`` at ``span`` of the source to :attr:`notes`.

        EXAMPLES::

            sage: from sage_attention.dsl import parse_spec
            sage: from sage_attention.dsl.model_checks import Checker
            sage: chk = Checker(parse_spec("")); chk.note("nothing to do", None); chk.notes
            ['note: nothing to do']
        """
        where = f"{self.spec.filename or '<spec>'}:{span.line}:{span.column}: " if span else ""
        self.notes.append(f"{where}note: {message}")

    def positive(self, value, what, span, maximum="default", written=None):
        r"""
        Raise an error unless ``value`` is ``None`` or a positive integer at most ``maximum``.

        INPUT:

        - ``value`` -- the value as parsed
        - ``what`` -- the name of the value in the message
        - ``span`` -- where it is written
        - ``maximum`` -- (default: ``settings.MAX_SPEC_SIZE``) the largest
          value; ``None`` for no bound
        - ``written`` -- (default: ``what = {}`` for a name) how the value
          is written, for the fix

        EXAMPLES::

            sage: from sage_attention.dsl import parse_spec
            sage: from sage_attention.dsl.model_checks import Checker
            sage: from sage_attention.settings import settings
            sage: chk = Checker(parse_spec(""))
            sage: chk.positive(int(3), "rank", None)
            sage: with settings.override(MAX_SPEC_SIZE=2):
            ....:     chk.positive(int(3), "rank", None)
            Traceback (most recent call last):
            ...
            SpecError: rank (=3) must be at most 2: no computation of this package is feasible beyond that size
            fix: write a number of at most 2
        """
        if value is None:
            return
        if maximum == "default":
            maximum = settings.MAX_SPEC_SIZE
        written = written or (what + " = {}" if what.isidentifier() else None)
        if isinstance(value, WrittenInt) and value >= 1:
            # `input = 3.0`, `rank = 4/2`: an integer in another notation
            self.error(f"{what} (={value.text}) must be written as an integer", span,
                       fix=f"write `{written.format(int(value))}`" if written
                       else f"write `{int(value)}`")
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            near = []
            if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
                near = near_integers(value, 1)          # `rank = 2.5`: 2 or 3
            example = " or ".join(f"`{written.format(n)}`" for n in near or [1]) if written else ""
            self.error(f"{what} (={format_value(value)}) must be a positive integer", span,
                       fix=f"write a positive integer, e.g. {example}" if written
                       else "write a positive integer")
        if maximum is not None and value > maximum:
            shown = str(value) if len(str(value)) <= 40 else f"a number of {len(str(value))} digits"
            self.error(f"{what} (={shown}) must be at most {maximum}: no computation of this "
                       "package is feasible beyond that size", span,
                       fix=f"write a number of at most {maximum}")


def span_of_key(spans, key, default):
    r"""
    Return the span of ``key`` among the pairs ``(key, span)`` ``spans`` (the first), or ``default``.

    EXAMPLES::

        sage: from sage_attention.dsl.model_checks import span_of_key
        sage: span_of_key((("input", 1), ("tokens", 2)), "tokens", None), span_of_key((), "x", 0)
        (2, 0)
    """
    for k, s in spans:
        if k == key:
            return s
    return default


def _check_field(chk, m):
    """The checks of ``field = GF(p)``."""
    if m.field.kind == "GF":
        span = span_of_key(m.item_spans, "field", m.span)
        chk.positive(m.field.p, "the characteristic p", span, maximum=None,
                     written="field = GF({})")
        if m.field.p >= MAX_CHARACTERISTIC:
            shown = str(m.field.p) if len(str(m.field.p)) <= 40 else \
                f"a number of {len(str(m.field.p))} digits"
            chk.error(f"GF(p) needs p below 2^64, got p (={shown})", span,
                      fix="write a prime such as `field = GF(32003)`")
        if not is_prime(m.field.p):
            chk.error(f"GF(p) needs p prime, got p (={m.field.p}) (a spec file takes prime "
                      "fields; other finite fields from Python: base_ring=GF(q))", span,
                      fix="write a prime such as `field = GF(32003)`")
        if m.coordinates == "scaled" and m.field.p in (2, 3, 5):
            chk.error(f"`coordinates = scaled` divides by 2, 3 and 6, so it needs a field of "
                      f"characteristic other than 2, 3, 5 (here GF({m.field.p}))",
                      span_of_key(m.item_spans, "coordinates", span),
                      fix="write `coordinates = raw`, or a larger prime")


def _check_size_item(chk, m, key):
    """The checks of ``input = d`` or ``tokens = t``."""
    what = {"input": "input width", "tokens": "the number of tokens"}[key]
    dense_only = bool(m.layers) and all(la.kind == "dense" for la in m.layers)
    value = getattr(m, key)
    if value is None and key == "tokens" and dense_only:
        return                  # dense layers act on each token: one token is the default
    if value is None:
        chk.error(f"model `{m.name}` needs `{key} = ...` ({what}, a positive integer)", m.span,
                  fix=f"add a line `{key} = 2` to the model")
    chk.positive(value, f"{key}", span_of_key(m.item_spans, key, m.span))


def _position(span):
    """A sort key of a span (``None`` last)."""
    return (float("inf"), 0) if span is None else (span.line, span.column)


def check_model(chk, m):
    r"""
    Check the model spec ``m``: raise the first error (through ``chk``, a :class:`Checker`), note the rest.

    The field and the sizes are checked in source order, then the layers,
    the model class's combinations and the entries.

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.dsl.model_checks import Checker, check_model
        sage: spec = parse_spec("model m { tokens = 0; field = GF(4); input = 2 }")
        sage: check_model(Checker(spec), spec.models[0])
        Traceback (most recent call last):
        ...
        SpecError: <spec>:1:11: tokens (=0) must be a positive integer
        ...
    """
    seen = {}
    for key, span in m.item_spans:
        if key in seen and key != "layer":
            chk.error(f"duplicate `{key}` in model `{m.name}` (first given on line "
                      f"{seen[key].line})", span, fix="keep one of them")
        seen.setdefault(key, span)
    # the field and the sizes are independent: check them in source order, so the first
    # error of the file is the one reported
    checks = [("field", lambda: _check_field(chk, m))]
    checks += [(key, lambda key=key: _check_size_item(chk, m, key)) for key in ("input", "tokens")]
    for _, check in sorted(checks, key=lambda kc: _position(span_of_key(m.item_spans, kc[0], m.span))):
        check()
    if not m.layers:
        chk.error(f"model `{m.name}` needs at least one `layer attention(rank = ..., out = ...)` "
                  "or `layer dense(out = ...)`", m.span,
                  fix="add a line such as `layer attention(rank = 1, out = 1)`")
    width = m.input
    for i, layer in enumerate(m.layers, 1):
        seen = {}
        for key, span in layer.arg_spans:
            if key in seen:
                chk.error(f"duplicate `{key}` in layer {i} of model `{m.name}`", span,
                          fix="keep one of them")
            seen[key] = span
        if layer.kind == "dense":
            _check_dense_layer(chk, m, i, layer, width)
            width = layer.out
            continue
        for key in ("rank", "out"):
            value = getattr(layer, key)
            if value is None:
                chk.error(f"layer {i} of model `{m.name}` needs `{key} = ...`", layer.span,
                          fix="give it, e.g. `layer attention(rank = 2, out = 1)`")
            chk.positive(value, key, span_of_key(layer.arg_spans, key, layer.span))
        if layer.rank > width:
            what = f"input width {width}" if i == 1 else f"the width {width} of its input"
            chk.note(f"rank {layer.rank} exceeds {what}: rank A <= {width} anyway, "
                     "the rank is no constraint", span_of_key(layer.arg_spans, "rank", layer.span))
        if layer.normalization.value == "softmax" and m.field.kind != "QQ":
            chk.error("softmax normalization needs `field = QQ` (exp is not defined over GF(p))",
                      span_of_key(layer.arg_spans, "normalization", layer.span),
                      fix="write `field = QQ`, or `normalization = lightning`")
        _check_extended_layer(chk, m, i, layer, width)
        width = layer.out
    if m.has_dense_layers():
        _check_stack_model(chk, m)
    elif not m.is_plain():
        _check_extended_model(chk, m)
    if not isinstance(m.linear_output, bool):
        chk.error(f"`linear_output` (={format_value(m.linear_output)}) in model `{m.name}` must "
                  f"be true or false{did_you_mean(m.linear_output, ('true', 'false'))}",
                  span_of_key(m.item_spans, "linear_output", m.span),
                  fix=("write `linear_output = false` (its last layer is nonlinear)"
                       if m.layers and m.layers[-1].kind == "dense" and m.layers[-1].power != 1
                       else "write `linear_output = true`"))
    elif m.linear_output is False and m.layers and (m.layers[-1].kind != "dense"
                                                    or m.layers[-1].power == 1):
        chk.error(f"`linear_output = false` in model `{m.name}` only concerns a dense last "
                  "layer (it allows a nonlinear one), but the last layer of "
                  f"`{m.name}` is {'linear' if m.layers[-1].kind == 'dense' else 'an attention layer'}: "
                  "the option would change nothing",
                  span_of_key(m.item_spans, "linear_output", m.span),
                  fix="drop `linear_output = false`")
    if m.entries is not None:
        span = span_of_key(m.item_spans, "entries", m.span)
        seen = set()
        for row, token in m.entries:
            for value, what in ((row, "row"), (token, "token")):
                chk.positive(value, f"entry {what}", span)
            if row > width:
                chk.error(f"entry ({row}, {token}): row {row} exceeds the output width {width}",
                          span, fix=f"an entry is (row, token) with row <= {width}")
            if token > m.tokens:
                chk.error(f"entry ({row}, {token}): token {token} exceeds the number of "
                          f"tokens {m.tokens}", span,
                          fix=f"an entry is (row, token) with token <= {m.tokens}")
            if (row, token) in seen:
                chk.error(f"entry ({row}, {token}) is listed twice", span, fix="list it once")
            seen.add((row, token))


def _activation_fix(m, i, degree=None):
    r"""
    The fix of the activation of layer ``i`` of ``m``: ``linear`` or a power, but only ``linear``
    for the last layer of a network whose output is linear (``linear_output = true``).

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.dsl.model_checks import _activation_fix
        sage: m = parse_spec("model m { input = 2; layer dense(out = 2, activation = power(2)); layer dense(out = 1) }").models[0]
        sage: _activation_fix(m, 1), _activation_fix(m, 2)
        ('use `activation = power(r)` (x^r, r a positive integer), e.g. `activation = power(2)`, or `activation = linear`',
         'write `activation = linear` (the last layer is linear)')
    """
    if i == len(m.layers) and m.linear_output is True:
        return "write `activation = linear` (the last layer is linear)"
    power = degree if isinstance(degree, int) and not isinstance(degree, bool) and degree >= 2 else 2
    return (f"use `activation = power(r)` (x^r, r a positive integer), e.g. "
            f"`activation = power({power})`, or `activation = linear`")


def _boolean_fix(key, true_fits):
    r"""
    The fix of a layer's boolean ``key`` whose value is not a boolean: the values that fit
    (``residual = true`` only where the layer's output width equals its input width).

    EXAMPLES::

        sage: from sage_attention.dsl.model_checks import _boolean_fix
        sage: _boolean_fix("bias", True), _boolean_fix("residual", False)
        ('write `bias = true` or `bias = false`', 'write `residual = false` (`out` differs from the input width)')
    """
    if true_fits:
        return f"write `{key} = true` or `{key} = false`"
    return f"write `{key} = false` (`out` differs from the input width)"


def _check_extended_layer(chk, m, i, layer, width):
    # heads, mask and residual of layer i (its input has width `width`)
    where = f"layer {i} of model `{m.name}`"
    chk.positive(layer.heads, "heads", span_of_key(layer.arg_spans, "heads", layer.span))
    if layer.mask not in MASKS:
        chk.error(f"unknown mask `{layer.mask}` in {where}{did_you_mean(layer.mask, MASKS)}",
                  span_of_key(layer.arg_spans, "mask", layer.span),
                  fix=f"use one of: {', '.join(MASKS)}, i.e. " +
                  " or ".join(f"`mask = {k}`" for k in MASKS))
    span = span_of_key(layer.arg_spans, "residual", layer.span)
    if not isinstance(layer.residual, bool):
        chk.error(f"`residual` (={format_value(layer.residual)}) in {where} must be true or "
                  f"false{did_you_mean(layer.residual, ('true', 'false'))}", span,
                  fix=_boolean_fix("residual", layer.out in (None, width)))
    if layer.residual and layer.out is not None and width is not None and layer.out != width:
        chk.error(f"{where} has `residual = true`, which adds its input to its output, so its "
                  f"output width `out` (={layer.out}) must equal its input width (={width})",
                  span, fix=f"write `out = {width}` or drop `residual`")
    if not layer.is_plain() and layer.normalization.value != "lightning":
        key = next(k for k in ("heads", "mask", "residual") if getattr(layer, k) !=
                   {"heads": 1, "mask": "none", "residual": False}[k])
        chk.error(f"`{key}` in {where} needs a lightning layer; several heads, masks and "
                  "residual connections are not available with softmax normalization",
                  span_of_key(layer.arg_spans, key, layer.span),
                  fix="write `normalization = lightning`" if m.has_dense_layers() else
                  f"drop `{key}`, or write `normalization = lightning`")


def _check_dense_layer(chk, m, i, layer, width):
    # a dense layer Y = (W X + b 1^T)^r; its input has width `width`
    where = f"layer {i} of model `{m.name}`"
    if layer.out is None:
        chk.error(f"{where} needs `out = ...`", layer.span,
                  fix="give it, e.g. `layer dense(out = 4, activation = power(2))`")
    chk.positive(layer.out, "out", span_of_key(layer.arg_spans, "out", layer.span))
    span = span_of_key(layer.arg_spans, "activation", layer.span)
    if layer.activation not in ACTIVATIONS:
        chk.error(f"unknown activation `{layer.activation}` in {where}"
                  f"{did_you_mean(layer.activation, ACTIVATIONS)}; the layers are polynomial",
                  span, fix=_activation_fix(m, i))
    if layer.activation == "linear" and layer.degree is not None:
        chk.error(f"`linear` takes no degree in {where}", span, fix=_activation_fix(m, i, layer.degree))
    if layer.activation == "power":
        r = layer.degree
        if r is None:
            chk.error(f"`activation = power` in {where} needs its degree", span,
                      fix=_activation_fix(m, i))
        if isinstance(r, bool) or not isinstance(r, int) or r < 1:
            chk.error(f"the activation `power({format_value(r)})` in {where} needs a positive "
                      "integer degree r (x^r is a polynomial; r = 1 is a linear layer)", span,
                      fix=_activation_fix(m, i))
        chk.positive(r, "the activation degree r", span, written="activation = power({})")
    for key in ("bias", "residual"):
        value = getattr(layer, key)
        if not isinstance(value, bool):
            chk.error(f"`{key}` (={format_value(value)}) in {where} must be true or false"
                      f"{did_you_mean(value, ('true', 'false'))}",
                      span_of_key(layer.arg_spans, key, layer.span),
                      fix=_boolean_fix(key, key == "bias" or layer.out in (None, width)))
    if layer.residual and layer.out is not None and width is not None and layer.out != width:
        chk.error(f"{where} has `residual = true`, which adds its input to its output, so its "
                  f"output width `out` (={layer.out}) must equal its input width (={width})",
                  span_of_key(layer.arg_spans, "residual", layer.span),
                  fix=f"write `out = {width}` or drop `residual`")


def _check_stack_model(chk, m):
    # what a stack of dense and attention layers supports (LayerStack)
    for i, layer in enumerate(m.layers, 1):
        if layer.kind == "attention" and layer.normalization.value != "lightning":
            chk.error(f"layer {i} of model `{m.name}` has softmax normalization, but the model "
                      "has dense layers, which need lightning attention layers (the network is "
                      "polynomial)", span_of_key(layer.arg_spans, "normalization", layer.span),
                      fix="write `normalization = lightning`")
    for key, default, value in (("weights", "QKV", m.weights),
                                ("coordinates", "raw", m.coordinates),
                                ("entries", None, m.entries)):
        if value != default:
            fix = {"weights": "`weights = Q K V` (or no `weights` line)",
                   "coordinates": "`coordinates = raw` (or no `coordinates` line)",
                   "entries": "no `entries` (all output entries)"}[key]
            chk.error(f"model `{m.name}` has dense layers, which needs {fix}",
                      span_of_key(m.item_spans, key, m.span),
                      fix="drop `entries`" if key == "entries" else f"write {fix}")
    last = m.layers[-1]
    if last.kind == "dense" and last.power != 1 and m.linear_output is True:
        chk.error(f"the last layer of model `{m.name}` has `activation = "
                  f"{last.activation}({last.degree})`, but the last layer of a polynomial network "
                  "is linear (the convention of Kileel-Trager-Bruna)",
                  span_of_key(last.arg_spans, "activation", last.span),
                  fix="drop its `activation`, add a linear `layer dense(out = ...)` after it, or "
                  "write `linear_output = false` in the model to allow it")


def _check_extended_model(chk, m):
    # what the multi-head model class and the layer stack support: lightning layers,
    # weights Q K V, all entries (layers that differ in mask or residual build a
    # LayerStack, which applies each layer's own: ModelSpec.is_stack)
    for i, layer in enumerate(m.layers, 1):
        if layer.normalization.value != "lightning":
            chk.error(f"layer {i} of model `{m.name}` has softmax normalization, but the model "
                      "has several heads, a mask or residual connections, which need lightning "
                      "layers throughout", span_of_key(layer.arg_spans, "normalization", layer.span),
                      fix="write `normalization = lightning`")
    for key, default, value in (("weights", "QKV", m.weights),
                                ("coordinates", "raw", m.coordinates),
                                ("entries", None, m.entries)):
        if value != default:
            fix = {"weights": "`weights = Q K V`", "coordinates": "`coordinates = raw`",
                   "entries": "no `entries` (all output entries)"}[key]
            chk.error(f"model `{m.name}` has several heads, a mask or residual connections, "
                      f"which needs {fix}", span_of_key(m.item_spans, key, m.span),
                      fix="drop `entries`" if key == "entries" else f"write {fix}")


__all__ = ["MASKS", "ACTIVATIONS", "MAX_CHARACTERISTIC", "is_prime", "Checker", "span_of_key",
           "check_model"]


def refuse_at_statement(chk, c, model, e):
    r"""
    Raise the refusal ``e`` of a size guard (a :class:`~sage_attention.misc.errors.ComputationTooLarge`), located at the statement ``c``.

    Its estimate and limit are kept; the message gains the place in the spec,
    the statement and the model, and the source line, and its way out names
    ``--force`` (the option of ``sage-attention``) or ``force=True``.

    INPUT:

    - ``chk`` -- the checker of the spec (its ``spec`` has the file name and the source)
    - ``c`` -- the statement; ``model`` -- its model
    - ``e`` -- the refusal

    OUTPUT: none; raises ``e`` located

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec, validate
        sage: validate(parse_spec("model m { input = 2\n layer dense(out = 3, activation = power(7), bias = true)\n"
        ....:                     " layer dense(out = 1) }\ncompute m { vanishing_ideal }"))
        Traceback (most recent call last):
        ...
        ComputationTooLarge: <spec>:4:13: `vanishing_ideal` on model `m`: elimination over 36 coordinates and 12 weights ...
    """
    span = c.span
    loc = f"{chk.spec.filename or '<spec>'}:{span.line}:{span.column}: " if span else ""
    context = ""
    lines = (chk.spec.source or "").split("\n")
    if span and 1 <= span.line <= len(lines):
        from sage_attention.dsl.errors import context_lines
        context = "\n" + context_lines(lines[span.line - 1].rstrip("\r"), span.column)
    raise e.replace(reason=f"{loc}`{c.name}` on model `{model.name}`: {e.reason}", context=context,
                    force_option="--force (or force=True)") from None
