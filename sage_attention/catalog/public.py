r"""
The public names of the package: each name and the module that defines it

The facade :mod:`sage_attention` serves these names, loading a module on
first use (so ``import sage_attention.dsl`` loads no Sage); ``make shell``
and ``sage-attention script`` put them in the session's namespace
(:func:`sage_attention.app.sage_script.sage_namespace`). This module imports
nothing.

EXAMPLES::

    sage: from sage_attention.catalog.public import PUBLIC_NAMES
    sage: PUBLIC_NAMES["implicitize"]
    'sage_attention.ideals.implicitization'
"""

#: public name -> module that defines it (loaded on first access)
PUBLIC_NAMES = {
    "AttentionNetwork": "sage_attention.models",
    "LightningAttention": "sage_attention.models",
    "SoftmaxAttention": "sage_attention.models",
    "PolynomialNetwork": "sage_attention.models",
    "Network": "sage_attention.models",
    "dense": "sage_attention.models",
    "attention": "sage_attention.models",
    "Neurovariety": "sage_attention.variety.neurovariety",
    "implicitize": "sage_attention.ideals.implicitization",
    "certify": "sage_attention.variety.certificates",
    "parse_spec": "sage_attention.dsl",
    "parse_spec_file": "sage_attention.dsl",
}
