"""Installation script for sage_attention.

The metadata and the dependencies are in ``pyproject.toml``; this file adds
what is computed: the version (the one number in ``sage_attention/version.py``)
and the packages, with ``grammar/`` shipped as ``sage_attention.grammar`` and the
example specs and notebook of ``examples/`` as ``sage_attention.examples``.
``pip install -e .`` and ``python -m build`` both use it.
"""
import os
import re

from setuptools import setup, find_packages

HERE = os.path.dirname(os.path.abspath(__file__))

# the one version number lives in sage_attention/version.py
with open(os.path.join(HERE, "sage_attention", "version.py"), encoding="utf-8") as f:
    VERSION = re.search(r'__version__ = "([^"]+)"', f.read()).group(1)

setup(
    version=VERSION,
    packages=find_packages(include=["sage_attention", "sage_attention.*"])
    + ["sage_attention.grammar", "sage_attention.examples"],
    package_dir={"sage_attention.grammar": "grammar", "sage_attention.examples": "examples"},
    # the example specs and notebook ship in the wheel: `sage-attention examples` writes them out
    package_data={"sage_attention.grammar": ["*.lark"],
                  "sage_attention.examples": ["*.att", "*.ipynb", "errors/*.att"]},
)
