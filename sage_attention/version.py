r"""
The version of sage_attention: one number, read by ``setup.py``, the package
(``sage_attention.__version__``), the command line (``--version``), the
documentation and ``CITATION.cff``.

EXAMPLES::

    sage: import sage_attention
    sage: from sage_attention.version import __version__
    sage: sage_attention.__version__ == __version__
    True
"""
__version__ = "0.2.0"
