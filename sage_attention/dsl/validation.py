r"""
The semantic checks of a spec: :func:`validate`

Parsing gives a typed :class:`~sage_attention.dsl.spec.Spec`; this pass
checks what the grammar cannot. The models
(:mod:`~sage_attention.dsl.model_checks`): positive widths up to
``settings.MAX_SPEC_SIZE``, ``p`` prime and below
:data:`~sage_attention.dsl.model_checks.MAX_CHARACTERISTIC`
(:func:`~sage_attention.dsl.model_checks.is_prime`), entries in range,
duplicate items. The statements (:mod:`~sage_attention.dsl.statement_checks`):
the options of each computation (read from
:data:`sage_attention.catalog.computations.COMPUTATIONS`) and the size guard
of :mod:`sage_attention.catalog.costs`. An error raises a
:class:`~sage_attention.misc.errors.SpecError` that points at its source;
notes (e.g. a rank that is no constraint) are returned.

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
    fix: use one of: none, causal, i.e. `mask = none` or `mask = causal`
"""
from sage_attention.settings import moved_to_settings
from sage_attention.misc.text import did_you_mean
from sage_attention.catalog.computations import (ALL_FAMILIES, COMPUTATIONS, FAMILIES,  # noqa: F401
                                              check_statement)
# the checks of models and of statements live in their own modules; their public names stay
# importable from here
from sage_attention.dsl.model_checks import (ACTIVATIONS, MASKS, MAX_CHARACTERISTIC,  # noqa: F401
                                             Checker, check_model, is_prime)
from sage_attention.dsl.statement_checks import (check_computation, check_families,  # noqa: F401
                                                 check_interpolation, statement_notes)

#: The option names of each computation statement, read from the table
#: :data:`sage_attention.catalog.computations.COMPUTATIONS` (kept for old callers).
COMPUTATION_OPTIONS = {name: set(c.option_names) for name, c in COMPUTATIONS.items()}

#: The invariant family names, read from :data:`sage_attention.catalog.computations.FAMILIES`.
INVARIANT_FAMILIES = tuple(FAMILIES) + (ALL_FAMILIES,)

# the largest width, rank or number of tokens is settings.MAX_SPEC_SIZE; the old name reads it
__getattr__ = moved_to_settings(__name__, {"MAX_SIZE": "MAX_SPEC_SIZE"})


def validate(spec, force=False, available=None):
    r"""
    Check a spec for semantic errors and size; return its notes.

    INPUT:

    - ``spec`` -- a :class:`~sage_attention.dsl.spec.Spec`
    - ``force`` -- boolean (default: ``False``); skip the size guard
    - ``available`` -- (default: ``None``, all) the names of the
      computations this program can run

    OUTPUT: a list of notes (strings), e.g. about a rank that is no
    constraint. Raise :class:`~sage_attention.misc.errors.SpecError` on the first
    error, with its source location, and
    :class:`~sage_attention.misc.errors.ComputationTooLarge` when a computation
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
    chk = Checker(spec)
    names = {}
    for m in spec.models:
        if m.name in names:
            chk.error(f"duplicate model name `{m.name}` (first defined on line "
                      f"{names[m.name].span.line if names[m.name].span else '?'})", m.span,
                      fix="rename one of them")
        names[m.name] = m
        check_model(chk, m)
    for c in spec.computations:
        if c.model not in names:
            close = did_you_mean(c.model, names)
            chk.error(f"`compute {c.model}` names an unknown model{close}; "
                      f"the models are: {', '.join(names) or 'none'}", c.model_span or c.span,
                      fix=(f"write `{close[len(' (did you mean `'):-len('`?)')]}`, or define "
                           f"`model {c.model} {{ ... }}`" if close else
                           f"name one of them, or define `model {c.model} {{ ... }}`"))
        check_computation(chk, c, names[c.model], available, force)
        statement_notes(chk, c)
    for model, span in getattr(spec, "empty_blocks", ()):
        if model not in names:
            chk.error(f"`compute {model}` names an unknown model{did_you_mean(model, names)}; "
                      f"the models are: {', '.join(names) or 'none'}", span,
                      fix=f"name one of them, or define `model {model} {{ ... }}`")
        chk.note(f"the block `compute {model} {{ }}` is empty: it computes nothing "
                 f"(add a statement, e.g. `compute {model} {{ dimension }}`, or remove it)", span)
    return chk.notes


__all__ = ["validate", "is_prime", "check_interpolation", "check_families", "MASKS",
           "ACTIVATIONS", "MAX_CHARACTERISTIC", "COMPUTATION_OPTIONS", "INVARIANT_FAMILIES"]
