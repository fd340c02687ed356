"""Sphinx configuration of the sage_attention documentation (``make docs``)."""
import os
import sys

from docutils.parsers.rst import Directive

# Document the checkout this file belongs to, not an installed copy.
sys.path.insert(0, os.path.abspath(".."))

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
]

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
# Functions keep the Sage docstring layout (INPUT:, OUTPUT:, EXAMPLES::).
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

# ``sage:`` sessions are literal blocks; highlight them as Python console
# sessions would garble the ``....:`` continuation lines, so keep them plain.
highlight_language = "none"


class _Ignored(Directive):
    """``.. linkall`` and similar Sage doctest markers: render nothing."""
    has_content = True
    optional_arguments = 10
    final_argument_whitespace = True

    def run(self):
        return []


def setup(app):
    # Sage-specific roles that may appear in docstrings.
    from docutils.parsers.rst import roles
    from docutils import nodes

    def _issue(name, rawtext, text, lineno, inliner, options=None, content=None):
        return [nodes.literal(rawtext, f"issue {text}")], []
    roles.register_local_role("issue", _issue)
    app.add_directive("linkall", _Ignored)
