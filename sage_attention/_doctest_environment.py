"""Names available in every doctest (``sage -t --environment=...``)."""
from sage.all__sagemath_singular import *  # noqa: F401,F403
