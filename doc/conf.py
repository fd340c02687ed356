"""Sphinx configuration of the sage_attention documentation (``make docs``)."""
import os
import sys

# Document the checkout this file belongs to, not an installed copy.
sys.path.insert(0, os.path.abspath(".."))

# Initialize Sage's modular distributions once, in their own order, before
# autodoc imports the package's modules one by one: in a fresh interpreter a
# module whose first Sage import is, e.g., ``sage.rings.rational_field``
# cannot be the one that initializes Sage (a circular import inside Sage).
import sage.all__sagemath_singular  # noqa: E402,F401

project = "sage_attention"
author = "sage_attention developers"
copyright = "2026, sage_attention developers"
try:
    from importlib.metadata import version as _version
    release = _version("sage_attention")
except Exception:  # a source tree that is not installed
    release = ""

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "sphinx.ext.intersphinx",
    # MathJax shipped in the site (_static/mathjax), not loaded from a CDN:
    # the formulas render offline
    "sphinx-mathjax-offline",
]

# Links into Sage's documentation need its inventory (objects.inv), which
# Sphinx fetches while it builds: offline that fails, so it is used only
# when SAGE_DOC_INVENTORY names one, as "URL" (fetched) or "URL,PATH" (the
# base of the links and a local copy of the inventory), e.g.
# SAGE_DOC_INVENTORY=https://doc.sagemath.org/html/en/reference/,/path/objects.inv
intersphinx_mapping = {}
if os.environ.get("SAGE_DOC_INVENTORY"):
    _url, _, _inv = os.environ["SAGE_DOC_INVENTORY"].partition(",")
    intersphinx_mapping["sage"] = (_url, _inv or None)


def _drop_tests(app, what, name, obj, options, lines):
    r"""
    Drop the ``TESTS::`` sections of a docstring from the site.

    They are doctests of corner cases (``sage -t`` runs them), not teaching:
    a section runs from its ``TESTS:`` or ``TESTS::`` line to the next
    nonblank line indented no more than it, or to the end.
    """
    out, skip = [], None
    for line in lines:
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if skip is not None and stripped and indent <= skip:
            skip = None
        if skip is not None:
            continue
        if stripped in ("TESTS:", "TESTS::"):
            skip = indent
            continue
        out.append(line)
    lines[:] = out


def setup(app):
    app.connect("autodoc-process-docstring", _drop_tests)

root_doc = "index"
templates_path = ["_templates"]
exclude_patterns = ["_build", "figures/*.md"]

# Sage docstrings write mathematics in single backticks: `\dim V`.
default_role = "math"

# The API pages are generated from the package on every build
# (autosummary's recursive mode), so new modules appear without editing them.
autosummary_generate = True
autosummary_generate_overwrite = True
autosummary_imported_members = False
autodoc_default_options = {
    "members": True,
    "show-inheritance": True,
    "member-order": "bysource",
    # document each object once, in the module that defines it
    "ignore-module-all": True,
}
autodoc_typehints = "none"
autodoc_preserve_defaults = True
# A class shows its own docstring followed by that of __init__.
autoclass_content = "both"

# Sage's LaTeX macros used in the docstrings.
mathjax3_config = {
    "tex": {
        "macros": {
            "ZZ": r"\mathbf{Z}",
            "QQ": r"\mathbf{Q}",
            "RR": r"\mathbf{R}",
            "CC": r"\mathbf{C}",
            "GF": [r"\mathbf{F}_{#1}", 1],
            "Bold": [r"\mathbf{#1}", 1],
        }
    }
}

html_theme = "furo"
html_title = "sage_attention"
html_static_path = []
# no copies of the .rst sources in the build: `sage -t doc` would doctest them again
html_copy_source = False
html_show_sourcelink = False
pygments_style = "sphinx"

# ``sage:`` sessions are literal blocks, shown as they are (Python console
# highlighting would garble the ``....:`` continuation lines). ``.. linkall``
# (a Sage doctest marker) is a reST comment and renders nothing.
highlight_language = "none"
