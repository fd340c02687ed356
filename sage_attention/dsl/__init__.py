r"""
The spec language of sage_attention

A spec file describes attention networks and the computations to run on
them (:doc:`/dsl` is the reference). Two functions are all a user needs:
:func:`parse_spec` (text to a typed :class:`~sage_attention.dsl.spec.Spec`)
and :func:`~sage_attention.dsl.validation.validate` (the semantic checks and
the size guard). The whole folder imports no Sage, so ``sage-attention
check`` is instant; a model of a spec is built into the Sage object only by
:meth:`~sage_attention.dsl.spec.ModelSpec.build`.

The folder, in the order a spec goes through it:

- :mod:`~sage_attention.dsl.grammar` -- the grammar
  (``grammar/attention.lark``, shipped as ``sage_attention.grammar``) and
  its LALR parser, built once;
- :mod:`~sage_attention.dsl.parser` -- :func:`parse_spec` and its file and
  stream variants;
- :mod:`~sage_attention.dsl.transformer` -- from the parse tree to the
  typed spec;
- :mod:`~sage_attention.dsl.spec` -- the typed spec (its models and
  statements) and its canonical text; :mod:`~sage_attention.dsl.layers` --
  the records of its layers; :mod:`~sage_attention.dsl.build` -- from a
  model spec to the Sage model, and its size before it is built;
- :mod:`~sage_attention.dsl.validation` -- the semantic checks, against
  the catalog (:mod:`sage_attention.catalog`):
  :mod:`~sage_attention.dsl.model_checks` for the models,
  :mod:`~sage_attention.dsl.statement_checks` for the statements and the
  size guard;
- :mod:`~sage_attention.dsl.errors` -- the labelled syntax errors;
  :mod:`~sage_attention.dsl.diagnosis` -- which label a syntax error gets
  and how to fix it; :mod:`~sage_attention.dsl.source_text` -- positions
  in the source, and the text around an error; :mod:`~sage_attention.dsl.fixes` -- the
  ``fix:`` line of a message as edits of the source.

EXAMPLES:

A spec, parsed, validated and printed back in canonical form::

    sage: from sage_attention.dsl import parse_spec, validate
    sage: spec = parse_spec("model m { input = 3; tokens = 2; layer attention(rank = 2, out = 1) }")
    sage: validate(spec)
    []
    sage: parse_spec(spec.to_dsl()) == spec
    True

A malformed spec says where, what was expected, and how to fix it::

    sage: parse_spec("model m {\n  input = 3; tokens = 2\n  layer attention(rank = , out = 1)\n}",
    ....:            filename="m.att")
    Traceback (most recent call last):
    ...
    MissingValue: m.att:3:26: Missing value: `rank =` needs a value
          layer attention(rank = , out = 1)
                                 ^
    expected: a number
    fix: write a positive integer, e.g. `rank = 2`
"""
from sage_attention.dsl.parser import parse_spec, parse_spec_file, parse_spec_stream  # noqa: F401
from sage_attention.dsl.errors import DSLSyntaxError  # noqa: F401
from sage_attention.dsl.validation import validate  # noqa: F401
