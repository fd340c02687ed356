r"""
The semantic checks of a spec: :func:`validate`

Parsing gives a typed :class:`~sage_attention.dsl.spec.Spec`; this pass
checks what the grammar cannot: positive widths below :data:`MAX_SIZE`,
``p`` prime and below :data:`MAX_CHARACTERISTIC` (:func:`is_prime`), entries
in range, duplicate items, the options of each computation (read from
:data:`sage_attention.dsl.computations.COMPUTATIONS`) and the size guard of
:mod:`sage_attention.sizes`. An error raises a
:class:`~sage_attention.errors.SpecError` that points at its source; notes
(e.g. a rank that is no constraint) are returned.

It reads the spec's objects through their attributes only, so it imports
neither :mod:`sage_attention.dsl.spec` (which re-exports its public names)
nor Sage.

EXAMPLES::

    sage: from sage_attention.dsl import parse_spec
    sage: from sage_attention.dsl.validation import validate
    sage: validate(parse_spec("model m { input = 3; tokens = 2; layer attention(rank = 4, out = 1) }"))
    ['<spec>:1:50: note: rank 4 exceeds input width 3: rank A <= 3 anyway, the rank is no constraint']
    sage: validate(parse_spec("model m { input = 3; tokens = 2; layer attention(rank = 1, out = 1, mask = future) }"))
    Traceback (most recent call last):
    ...
    SpecError: <spec>:1:69: unknown mask `future` in layer 1 of model `m`
    ...
    fix: use one of: none, causal
"""
from fractions import Fraction

from sage_attention.dsl.text import (WrittenInt, did_you_mean, format_value,
                                     near_integers)
from sage_attention.dsl.computations import (ALL_FAMILIES, COMPUTATIONS, FAMILIES,
                                              check_statement)

#: The attention masks a layer may have.
MASKS = ("none", "causal")

#: The activations of a dense layer: ``power(r)`` (`x^r`, `r \ge 1`) or ``linear``.
ACTIVATIONS = ("power", "linear")

#: The option names of each computation statement, read from the table
#: :data:`sage_attention.dsl.computations.COMPUTATIONS` (kept for old callers).
COMPUTATION_OPTIONS = {name: set(c.option_names) for name, c in COMPUTATIONS.items()}

#: The invariant family names, read from :data:`sage_attention.dsl.computations.FAMILIES`.
INVARIANT_FAMILIES = tuple(FAMILIES) + (ALL_FAMILIES,)


#: ``GF(p)`` needs ``p`` below this bound (so primality is decided exactly).
MAX_CHARACTERISTIC = 2**64

#: The largest width, rank or number of tokens a spec may write.
MAX_SIZE = 10**6


def is_prime(p):
    r"""
    Return whether the integer ``p`` (`< 2^{64}`) is prime.

    A deterministic Miller-Rabin test (the first twelve primes as bases
    decide every `p < 3.3 \cdot 10^{24}`), so ``GF(2^61 - 1)`` is checked
    at once.

    EXAMPLES::

        sage: from sage_attention.dsl.validation import is_prime
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



class _Checker:
    """Collect the context needed to raise a located SpecError."""

    def __init__(self, spec):
        self.spec = spec
        self.notes = []

    def error(self, message, span, fix=None):
        from sage_attention.dsl.errors import SpecError as LocatedSpecError
        raise LocatedSpecError(message, span, self.spec.filename, self.spec.source, fix=fix)

    def note(self, message, span):
        where = f"{self.spec.filename or '<spec>'}:{span.line}:{span.column}: " if span else ""
        self.notes.append(f"{where}note: {message}")

    def positive(self, value, what, span, maximum=MAX_SIZE, written=None):
        # ``written``: how ``what`` is written with a value (default `what = {}`)
        if value is None:
            return
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


def _span_of(spans, key, default):
    for k, s in spans:
        if k == key:
            return s
    return default


def _check_field(chk, m):
    """The checks of ``field = GF(p)``."""
    if m.field.kind == "GF":
        span = _span_of(m.item_spans, "field", m.span)
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
                      _span_of(m.item_spans, "coordinates", span),
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
    chk.positive(value, f"{key}", _span_of(m.item_spans, key, m.span))


def _position(span):
    """A sort key of a span (``None`` last)."""
    return (float("inf"), 0) if span is None else (span.line, span.column)


def _check_model(chk, m):
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
    for _, check in sorted(checks, key=lambda kc: _position(_span_of(m.item_spans, kc[0], m.span))):
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
            chk.positive(value, key, _span_of(layer.arg_spans, key, layer.span))
        if layer.rank > width:
            what = f"input width {width}" if i == 1 else f"the width {width} of its input"
            chk.note(f"rank {layer.rank} exceeds {what}: rank A <= {width} anyway, "
                     "the rank is no constraint", _span_of(layer.arg_spans, "rank", layer.span))
        if layer.normalization.value == "softmax" and m.field.kind != "QQ":
            chk.error("softmax normalization needs `field = QQ` (exp is not defined over GF(p))",
                      _span_of(layer.arg_spans, "normalization", layer.span),
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
                  _span_of(m.item_spans, "linear_output", m.span),
                  fix="write `linear_output = true` or `linear_output = false`")
    elif m.linear_output is False and m.layers and (m.layers[-1].kind != "dense"
                                                    or m.layers[-1].power == 1):
        chk.error(f"`linear_output = false` in model `{m.name}` only concerns a dense last "
                  "layer (it allows a nonlinear one), but the last layer of "
                  f"`{m.name}` is {'linear' if m.layers[-1].kind == 'dense' else 'an attention layer'}: "
                  "the option would change nothing",
                  _span_of(m.item_spans, "linear_output", m.span),
                  fix="drop `linear_output = false`")
    if m.entries is not None:
        span = _span_of(m.item_spans, "entries", m.span)
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


def _check_extended_layer(chk, m, i, layer, width):
    # heads, mask and residual of layer i (its input has width `width`)
    where = f"layer {i} of model `{m.name}`"
    chk.positive(layer.heads, "heads", _span_of(layer.arg_spans, "heads", layer.span))
    if layer.mask not in MASKS:
        chk.error(f"unknown mask `{layer.mask}` in {where}{did_you_mean(layer.mask, MASKS)}",
                  _span_of(layer.arg_spans, "mask", layer.span),
                  fix=f"use one of: {', '.join(MASKS)}")
    span = _span_of(layer.arg_spans, "residual", layer.span)
    if not isinstance(layer.residual, bool):
        chk.error(f"`residual` (={format_value(layer.residual)}) in {where} must be true or "
                  f"false{did_you_mean(layer.residual, ('true', 'false'))}", span,
                  fix="write `residual = true` or `residual = false`")
    if layer.residual and layer.out is not None and width is not None and layer.out != width:
        chk.error(f"{where} has `residual = true`, which adds its input to its output, so its "
                  f"output width `out` (={layer.out}) must equal its input width (={width})",
                  span, fix=f"write `out = {width}` or drop `residual`")
    if not layer.is_plain() and layer.normalization.value != "lightning":
        key = next(k for k in ("heads", "mask", "residual") if getattr(layer, k) !=
                   {"heads": 1, "mask": "none", "residual": False}[k])
        chk.error(f"`{key}` in {where} needs a lightning layer; several heads, masks and "
                  "residual connections are not available with softmax normalization",
                  _span_of(layer.arg_spans, key, layer.span),
                  fix=f"drop `{key}`, or write `normalization = lightning`")


def _check_dense_layer(chk, m, i, layer, width):
    # a dense layer Y = (W X + b 1^T)^r; its input has width `width`
    where = f"layer {i} of model `{m.name}`"
    if layer.out is None:
        chk.error(f"{where} needs `out = ...`", layer.span,
                  fix="give it, e.g. `layer dense(out = 4, activation = power(2))`")
    chk.positive(layer.out, "out", _span_of(layer.arg_spans, "out", layer.span))
    span = _span_of(layer.arg_spans, "activation", layer.span)
    if layer.activation not in ACTIVATIONS:
        chk.error(f"unknown activation `{layer.activation}` in {where}"
                  f"{did_you_mean(layer.activation, ACTIVATIONS)}; the layers are polynomial",
                  span, fix="use `activation = power(r)` (x^r, r a positive integer) or `linear`")
    if layer.activation == "linear" and layer.degree is not None:
        chk.error(f"`linear` takes no degree in {where}", span,
                  fix=f"write `activation = linear` or "
                  f"`activation = power({format_value(layer.degree)})`")
    if layer.activation == "power":
        r = layer.degree
        if r is None:
            chk.error(f"`activation = power` in {where} needs its degree", span,
                      fix="give it, e.g. `activation = power(2)`")
        if isinstance(r, bool) or not isinstance(r, int) or r < 1:
            chk.error(f"the activation `power({format_value(r)})` in {where} needs a positive "
                      "integer degree r (x^r is a polynomial; r = 1 is a linear layer)", span,
                      fix="write e.g. `activation = power(2)`")
        chk.positive(r, "the activation degree r", span, written="activation = power({})")
    for key in ("bias", "residual"):
        value = getattr(layer, key)
        if not isinstance(value, bool):
            chk.error(f"`{key}` (={format_value(value)}) in {where} must be true or false"
                      f"{did_you_mean(value, ('true', 'false'))}",
                      _span_of(layer.arg_spans, key, layer.span),
                      fix=f"write `{key} = true` or `{key} = false`")
    if layer.residual and layer.out is not None and width is not None and layer.out != width:
        chk.error(f"{where} has `residual = true`, which adds its input to its output, so its "
                  f"output width `out` (={layer.out}) must equal its input width (={width})",
                  _span_of(layer.arg_spans, "residual", layer.span),
                  fix=f"write `out = {width}` or drop `residual`")


def _check_stack_model(chk, m):
    # what a stack of dense and attention layers supports (LayerStack)
    for i, layer in enumerate(m.layers, 1):
        if layer.kind == "attention" and layer.normalization.value != "lightning":
            chk.error(f"layer {i} of model `{m.name}` has softmax normalization, but the model "
                      "has dense layers, which need lightning attention layers (the network is "
                      "polynomial)", _span_of(layer.arg_spans, "normalization", layer.span),
                      fix="write `normalization = lightning`")
    for key, default, value in (("weights", "QKV", m.weights),
                                ("coordinates", "raw", m.coordinates),
                                ("entries", None, m.entries)):
        if value != default:
            fix = {"weights": "`weights = Q K V` (or no `weights` line)",
                   "coordinates": "`coordinates = raw` (or no `coordinates` line)",
                   "entries": "no `entries` (all output entries)"}[key]
            chk.error(f"model `{m.name}` has dense layers, which needs {fix}",
                      _span_of(m.item_spans, key, m.span),
                      fix="drop `entries`" if key == "entries" else f"write {fix}")
    last = m.layers[-1]
    if last.kind == "dense" and last.power != 1 and m.linear_output is True:
        chk.error(f"the last layer of model `{m.name}` has `activation = "
                  f"{last.activation}({last.degree})`, but the last layer of a polynomial network "
                  "is linear (the convention of Kileel-Trager-Bruna)",
                  _span_of(last.arg_spans, "activation", last.span),
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
                      "layers throughout", _span_of(layer.arg_spans, "normalization", layer.span),
                      fix="write `normalization = lightning`")
    for key, default, value in (("weights", "QKV", m.weights),
                                ("coordinates", "raw", m.coordinates),
                                ("entries", None, m.entries)):
        if value != default:
            fix = {"weights": "`weights = Q K V`", "coordinates": "`coordinates = raw`",
                   "entries": "no `entries` (all output entries)"}[key]
            chk.error(f"model `{m.name}` has several heads, a mask or residual connections, "
                      f"which needs {fix}", _span_of(m.item_spans, key, m.span),
                      fix="drop `entries`" if key == "entries" else f"write {fix}")


def _interpolates_by_default(model):
    r"""
    Return whether ``vanishing_ideal`` without an algorithm interpolates on ``model`` (more than
    :data:`~sage_attention.sizes.ELIMINATION_DEFAULT_LIMIT` essential coordinates) and never eliminates.
    """
    from sage_attention.sizes import ELIMINATION_DEFAULT_LIMIT
    if None in model.widths or model.has_dense_layers():
        return False
    return model.size_estimate().essential_coordinates > ELIMINATION_DEFAULT_LIMIT


def _check_computation(chk, c, model, available, force):
    span = c.span
    if available is not None and c.name in COMPUTATIONS and c.name not in available:
        chk.error(f"computation `{c.name}` is not available in this version", span,
                  fix=f"use one of: {', '.join(sorted(available))}")
    problems = check_statement(c, model)
    if problems:
        message, key, fix = problems[0]
        where = span if key is None else _span_of(c.option_spans, key, span)
        chk.error(message, where, fix=fix)
    decl = COMPUTATIONS[c.name]
    tasks = decl.size_tasks_for(model)
    opts = c.options_dict
    if c.name == "vanishing_ideal" and opts.get("algorithm") != "elimination" and not model.has_dense_layers():
        # the engine may run (``run`` interpolates first, also where it then
        # eliminates), and it reads the memory limit: an unreadable
        # SAGE_ATTENTION_MEMORY_LIMIT is refused here as there
        from sage_attention.ideals.memory import memory_limit
        memory_limit()
    if c.name == "vanishing_ideal" and (opts.get("algorithm") == "interpolation"
                                        or "degree" in opts):
        tasks = ("coordinates",)
    elif c.name == "vanishing_ideal" and "algorithm" not in opts and not model.has_dense_layers() \
            and None not in model.widths and _interpolates_by_default(model):
        # without an algorithm it interpolates there (check_interpolation estimates that)
        tasks = tuple(t for t in tasks if t != "elimination")
    if c.name == "check" and opts.get("what") == "generation":
        # the report's own limit (its vanishing ideal is computed as ``vanishing_ideal``
        # computes it by default: elimination only up to 18 essential coordinates)
        tasks = tasks + ("generation",)
    if "coordinates" in tasks and len(model.layers) == 1 and None not in model.widths:
        # Singular's limit on the variables of the coordinate ring, which `run` meets (one
        # layer: the count is exact), with or without --force
        from sage_attention.errors import ComputationTooLarge
        from sage_attention.sizes import SINGULAR_MAX_VARIABLES
        n = model.size_estimate().coordinates
        if n > SINGULAR_MAX_VARIABLES:
            _refuse(chk, c, model, ComputationTooLarge(
                f"the coordinate ring needs {n} variables (Singular's limit is {SINGULAR_MAX_VARIABLES}); "
                "Singular cannot build it", n, hint="keep fewer output entries (e.g. `entries = (1, 1)`); "
                "`dimension` and `fibers` need no coordinate ring", force_helps=False))
    if tasks:
        from sage_attention.errors import ComputationTooLarge
        from sage_attention.sizes import check_size
        estimate = model.size_estimate()
        for task in tasks:
            hint = ""
            if task == "generation":
                hint = "use fewer entries (`entries = ...`) or a smaller model"
            elif task == "elimination":
                hint = ("use `algorithm = interpolation`, `up to degree N`, "
                        "or fewer entries/a smaller model")
            try:
                check_size(estimate, task, force=force, hint=hint)
            except ComputationTooLarge as e:
                _refuse(chk, c, model, e)
    if c.name in ("vanishing_ideal", "check") and not force and not problems \
            and not model.has_dense_layers():
        from sage_attention.errors import ComputationTooLarge
        try:
            check_interpolation(model, c.name, opts)
        except ComputationTooLarge as e:
            _refuse(chk, c, model, e)
    if c.name in ("invariants", "check") and not force and not problems:
        from sage_attention.errors import ComputationTooLarge
        families = opts.get("families")
        if c.name == "check" and not families:
            # ``check`` alone checks the families of the block's ``invariants`` statements
            families = tuple(f for other in chk.spec.computations_of(model.name)
                             if other.name == "invariants"
                             for f in dict(other.options).get("families", ())) or None
        try:
            check_families(model, families)
        except ComputationTooLarge as e:
            _refuse(chk, c, model, e)


def _refuse(chk, c, model, e):
    # the refusal ``e`` of a size guard, located at the statement ``c`` (its data kept)
    span = c.span
    loc = f"{chk.spec.filename or '<spec>'}:{span.line}:{span.column}: " if span else ""
    context = ""
    lines = (chk.spec.source or "").split("\n")
    if span and 1 <= span.line <= len(lines):
        from sage_attention.dsl.errors import context_lines
        context = "\n" + context_lines(lines[span.line - 1].rstrip("\r"), span.column)
    raise e.replace(reason=f"{loc}`{c.name}` on model `{model.name}`: {e.reason}", context=context,
                    force_option="--force (or force=True)") from None


def check_interpolation(model, name, options):
    r"""
    Refuse the interpolation a ``vanishing_ideal`` or ``check generation`` statement runs when its monomial table is beyond this machine.

    The statement interpolates through its degree (``up to degree N``),
    or, without one, when the model has more than
    :data:`~sage_attention.sizes.ELIMINATION_DEFAULT_LIMIT` essential
    coordinates, through
    :data:`~sage_attention.sizes.DEFAULT_INTERPOLATION_DEGREE`. The table is
    estimated by :func:`~sage_attention.sizes.monomial_table`, the estimate
    :func:`~sage_attention.ideals.implicitization.implicitize` checks before
    it builds anything, against the same
    :func:`~sage_attention.ideals.memory.memory_limit`. The fix named is one
    the statement has: a lower ``up to degree`` for ``vanishing_ideal``,
    fewer entries for ``check generation`` (it has no degree).

    INPUT:

    - ``model`` -- a :class:`~sage_attention.dsl.spec.ModelSpec`
    - ``name`` -- ``"vanishing_ideal"`` or ``"check"``
    - ``options`` -- the statement's options (a dict)

    OUTPUT: ``None``, or :class:`~sage_attention.errors.ComputationTooLarge`

    EXAMPLES::

        sage: from sage_attention.dsl.spec import ModelSpec, Layer
        sage: from sage_attention.dsl.validation import check_interpolation
        sage: m = ModelSpec("m", input=6, tokens=2, layers=(Layer(1, 1),), entries=((1, 1),))
        sage: check_interpolation(m, "vanishing_ideal", {"degree": 3})
        sage: check_interpolation(m, "vanishing_ideal", {"degree": 4})
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the table of the 11009376 monomials of degree 4 in 126 essential coordinates needs about ... GiB of memory (limit ...); write a lower degree (`up to degree 3`, the largest that fits); pass force=True to run it anyway
    """
    from sage_attention.ideals.memory import check_memory, memory_limit
    from sage_attention.sizes import (DEFAULT_INTERPOLATION_DEGREE, ELIMINATION_DEFAULT_LIMIT,
                                      interpolation_parameters, largest_fitting_degree, monomial_table)
    if None in model.widths or not model.is_plain():
        return
    if name == "check" and options.get("what") != "generation":
        return
    estimate = model.size_estimate()
    n = estimate.essential_coordinates
    degree = options.get("degree") if name == "vanishing_ideal" else None
    algorithm = options.get("algorithm") if name == "vanishing_ideal" else None
    if degree is None:
        if algorithm == "elimination" or (algorithm is None and n <= ELIMINATION_DEFAULT_LIMIT):
            return
        degree = DEFAULT_INTERPOLATION_DEGREE
    m = interpolation_parameters(model.widths, model.ranks, model.tokens, model.weights,
                                 model.entries)
    count, nbytes = monomial_table(n, degree, m)
    # the degree to suggest is one this estimate accepts (asked for only when it refuses)
    limit = memory_limit()
    fits = largest_fitting_degree(n, m, degree, limit) if nbytes > limit else None
    if name == "check":
        hint = (f"`check generation` interpolates through degree {degree} beyond "
                f"{ELIMINATION_DEFAULT_LIMIT} essential coordinates: use fewer entries "
                "(`entries = ...`) or a smaller model")
    elif fits is not None and options.get("degree") is None:
        hint = (f"without a degree it interpolates through degree {degree}: write "
                f"`up to degree {fits}`, the largest degree that fits")
    elif fits is not None:
        hint = f"write a lower degree (`up to degree {fits}`, the largest that fits)"
    else:
        hint = "use fewer entries (`entries = ...`) or a smaller model"
    # a deep network's coordinates are counted without expanding its output: an upper bound
    # (sizes.token_parity_monomials)
    bound = " (at most: a deep network's coordinates are counted, not listed)" if len(model.layers) > 1 else ""
    check_memory(nbytes, f"the table of the {count} monomials of degree {degree} in {n} "
                 f"essential coordinates{bound}", hint=hint)


def check_families(model, families):
    r"""
    Refuse the invariant families of a statement whose estimated memory is beyond this machine.

    INPUT:

    - ``model`` -- a :class:`~sage_attention.dsl.spec.ModelSpec` with one layer
    - ``families`` -- the ``families`` option of ``invariants`` or
      ``check``: a tuple of ``(name, options)`` pairs, or ``None`` (every
      family except ``rank_one``; for ``check``, the families of the
      block, which their own statements check)

    OUTPUT: ``None``, or :class:`~sage_attention.errors.ComputationTooLarge`
    (the estimate of :func:`~sage_attention.sizes.family_estimate` against
    :func:`~sage_attention.ideals.memory.memory_limit`); no Sage is loaded.
    Each family is estimated once, with the options it is built with
    (:func:`~sage_attention.dsl.computations.distinct_families`: with
    ``low_rank(limit = 10), all``, ``low_rank`` with ``limit = 10``)

    EXAMPLES::

        sage: from sage_attention.dsl.spec import ModelSpec, Layer
        sage: from sage_attention.dsl.validation import check_families
        sage: check_families(ModelSpec("m", input=3, tokens=2, layers=(Layer(3, 1),)),
        ....:                (("syzygies", ()),))
        sage: check_families(ModelSpec("m", input=6, tokens=2, layers=(Layer(6, 1),)),
        ....:                (("syzygies", ()),))
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the family syzygies (about 53802 members of about 1440 terms) needs about ... GiB of memory (limit ...); take a smaller model; pass force=True to run it anyway
    """
    from sage_attention.dsl.computations import ALL_FAMILIES, FAMILIES, distinct_families
    from sage_attention.ideals.memory import check_memory
    from sage_attention.sizes import family_estimate
    if len(model.layers) != 1 or None in model.widths:
        return
    # each family once, with its explicit options (as they are built: families_of)
    chosen, rest = distinct_families(families)
    for name, options in chosen:
        names = rest if name == ALL_FAMILIES else [name]
        for n in names:
            est = family_estimate(n, model.widths, model.ranks, model.tokens, model.entries,
                                  dict(options))
            if est is None:
                continue
            fam = FAMILIES[n]
            # the options of a family are written in its parentheses: `pencil(limit = 100)`
            hint = (f"write `{n}(limit = N)` for fewer members or take a smaller model"
                    if fam.option("limit") else "take a smaller model")
            if n == "sylvester":
                hint = "write `sylvester(lines = coordinate)` or take a smaller model"
            check_memory(est.nbytes, est.describe(), hint=hint)


def validate(spec, force=False, available=None):
    r"""
    Check a spec for semantic errors and size; return its notes.

    INPUT:

    - ``spec`` -- a :class:`~sage_attention.dsl.spec.Spec`
    - ``force`` -- boolean (default: ``False``); skip the size guard
    - ``available`` -- (default: ``None``, all) the names of the
      computations this program can run

    OUTPUT: a list of notes (strings), e.g. about a rank that is no
    constraint. Raise :class:`~sage_attention.errors.SpecError` on the first
    error, with its source location, and
    :class:`~sage_attention.errors.ComputationTooLarge` when a computation
    is beyond the size guard.

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.dsl.validation import validate
        sage: validate(parse_spec("model m { input = 3; tokens = 2; layer attention(rank = 2, out = 1) }"))
        []

    TESTS:

    Each semantic error points at its source::

        sage: validate(parse_spec("model m {\n  input = 0; tokens = 2\n  layer attention(rank = 1, out = 1)\n}"))
        Traceback (most recent call last):
        ...
        SpecError: <spec>:2:3: input (=0) must be a positive integer
            input = 0; tokens = 2
            ^
        fix: write a positive integer, e.g. `input = 1`
        sage: validate(parse_spec("model m { field = GF(8); input = 2; tokens = 2; layer attention(rank = 1, out = 1) }"))
        Traceback (most recent call last):
        ...
        SpecError: <spec>:1:11: GF(p) needs p prime, got p (=8) (a spec file takes prime fields; other finite fields from Python: base_ring=GF(q))
        ...
        fix: write a prime such as `field = GF(32003)`
        sage: validate(parse_spec("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
        ....:                     "compute n { dimension }"))
        Traceback (most recent call last):
        ...
        SpecError: <spec>:2:9: `compute n` names an unknown model; the models are: m
            compute n { dimension }
                    ^
        fix: name one of them, or define `model n { ... }`
        sage: validate(parse_spec("model m { input = 4; tokens = 3; layer attention(rank = 2, out = 4) }\n"
        ....:                     "compute m { vanishing_ideal }"))
        Traceback (most recent call last):
        ...
        ComputationTooLarge: <spec>:2:13: `vanishing_ideal` on model `m`: the table of the 28342440 monomials of degree 4 in 160 essential coordinates needs about ... GiB of memory (limit ...)
            compute m { vanishing_ideal }
                        ^
        fix: without a degree it interpolates through degree 4: write `up to degree 3`, the largest degree that fits; pass --force (or force=True) to run it anyway
    """
    chk = _Checker(spec)
    names = {}
    for m in spec.models:
        if m.name in names:
            chk.error(f"duplicate model name `{m.name}` (first defined on line "
                      f"{names[m.name].span.line if names[m.name].span else '?'})", m.span,
                      fix="rename one of them")
        names[m.name] = m
        _check_model(chk, m)
    for c in spec.computations:
        if c.model not in names:
            chk.error(f"`compute {c.model}` names an unknown model{did_you_mean(c.model, names)}; "
                      f"the models are: {', '.join(names) or 'none'}", c.model_span or c.span,
                      fix=f"name one of them, or define `model {c.model} {{ ... }}`")
        _check_computation(chk, c, names[c.model], available, force)
        _statement_notes(chk, c)
    for model, span in getattr(spec, "empty_blocks", ()):
        if model not in names:
            chk.error(f"`compute {model}` names an unknown model{did_you_mean(model, names)}; "
                      f"the models are: {', '.join(names) or 'none'}", span,
                      fix=f"name one of them, or define `model {model} {{ ... }}`")
        chk.note(f"the block `compute {model} {{ }}` is empty: it computes nothing "
                 f"(add a statement, e.g. `compute {model} {{ dimension }}`, or remove it)", span)
    return chk.notes


def _statement_notes(chk, c):
    r"""
    Note what a valid ``invariants`` statement ``c`` does that its text
    leaves open: a family named twice is built once, with the options of
    both mentions (a later value winning); a family's own ``seed`` wins over
    the statement's ``seed``, which goes to the other families that take one.

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.dsl.validation import validate
        sage: M = "model m { input = 3; tokens = 1; layer attention(rank = 1, out = 1) }\n"
        sage: for n in validate(parse_spec(M + "compute m { invariants brill(seed = 1), brill seed = 2 }")):
        ....:     print(n)
        <spec>:2:13: note: family `brill` is named twice: it is built once, with the options of every mention (a later value of an option wins)
        <spec>:2:13: note: `brill(seed = 1)` keeps its own seed; the statement's `seed = 2` goes to the other families that take a seed
    """
    if c.name != "invariants":
        return
    families = dict(c.options).get("families") or ()
    counts = {}
    for name, _ in families:
        counts[name] = counts.get(name, 0) + 1
    for name, n in counts.items():
        if n > 1:
            chk.note(f"family `{name}` is named {'twice' if n == 2 else f'{n} times'}: it is "
                     "built once, with the options of every mention (a later value of an "
                     "option wins)", c.span)
    seed = dict(c.options).get("seed")
    if seed is None:
        return
    own = {}
    for name, options in families:
        if "seed" in dict(options):
            own[name] = dict(options)["seed"]
    for name, value in own.items():
        chk.note(f"`{name}(seed = {format_value(value)})` keeps its own seed; the statement's "
                 f"`seed = {format_value(seed)}` goes to the other families that take a seed",
                 c.span)
