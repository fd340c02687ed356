r"""
The spec language of sage_attention

A spec file describes attention networks and the computations to run on
them (see ``doc/dsl.rst`` for the reference). Two functions are all a user
needs: :func:`parse_spec` (text to a typed :class:`~sage_attention.dsl.spec.Spec`)
and :func:`~sage_attention.dsl.validation.validate` (the semantic checks and the size
guard).

EXAMPLES::

    sage: from sage_attention.dsl import parse_spec, validate
    sage: spec = parse_spec("model m { input = 3; tokens = 2; layer attention(rank = 2, out = 1) }")
    sage: validate(spec)
    []
"""
from sage_attention.dsl.parser import parse_spec, parse_spec_file, parse_spec_stream  # noqa: F401
from sage_attention.dsl.errors import DSLSyntaxError  # noqa: F401
from sage_attention.dsl.validation import validate  # noqa: F401
