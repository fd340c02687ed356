r"""
Seeds, random generators and primes

Every randomized computation of sage_attention takes ``seed=``. The policy is
Sage's (:mod:`sage.misc.randstate`): an explicit integer seed gives the same
result in every process; ``seed=None`` draws a seed from Sage's current
random state, so ``set_random_seed(n)`` makes a whole session reproducible.
Either way the seed actually used is recorded in the report, never ``None``.
The generators are local: drawing from them leaves Sage's global state
untouched (only the one draw of a ``seed=None`` call advances it).

The primes of the modular computations are tunables:
``settings.JACOBIAN_PRIME``, ``settings.LINALG_PRIMES`` and
``settings.MINIMUM_RANK_PRIME`` (:mod:`sage_attention.settings`). The old
names of this module (``JACOBIAN_PRIME``, ``LINALG_PRIME``, the first of
``LINALG_PRIMES``, ``LINALG_PRIMES``, ``MINIMUM_RANK_PRIME``) still read
them.

EXAMPLES::

    sage: from sage_attention.misc.randomness import resolve_seed
    sage: resolve_seed(5)
    5
    sage: set_random_seed(1); s = resolve_seed(None)
    sage: set_random_seed(1); s == resolve_seed(None)
    True

A report records the seed it used::

    sage: from sage_attention import LightningAttention
    sage: set_random_seed(2)
    sage: D = LightningAttention(d=2, t=2, a=1).dimension_report()
    sage: D.seed is not None
    True
    sage: LightningAttention(d=2, t=2, a=1).dimension_report(seed=D.seed) == D
    True

TESTS::

    sage: resolve_seed(1.7)
    Traceback (most recent call last):
    ...
    TypeError: seed (=1.70000000000000) must be an integer or None
    sage: resolve_seed(True)
    Traceback (most recent call last):
    ...
    TypeError: seed (=True) must be an integer or None
"""
import hashlib
import numbers
import random

from sage_attention.settings import moved_to_settings

# The primes are tunables (settings.JACOBIAN_PRIME, settings.LINALG_PRIMES,
# settings.MINIMUM_RANK_PRIME); the old names read them. The first linear
# algebra prime is the largest below 2^23: LinBox echelonizes double-precision
# matrices over it about ten times faster than over p ~ 2^26.
__getattr__ = moved_to_settings(__name__, {
    "JACOBIAN_PRIME": "JACOBIAN_PRIME",
    "LINALG_PRIME": lambda s: s.LINALG_PRIMES[0],
    "LINALG_PRIMES": "LINALG_PRIMES",
    "MINIMUM_RANK_PRIME": "MINIMUM_RANK_PRIME"})

#: The largest seed (Sage's random state takes seeds of 64 bits); the same
#: range in Python, on the command line and in a spec file.
MAX_SEED = 2 ** 64 - 1


def resolve_seed(seed):
    r"""
    Return the integer seed to use for ``seed``.

    INPUT:

    - ``seed`` -- an integer, or ``None`` to draw one from Sage's current
      random state (:func:`sage.misc.randstate.current_randstate`)

    OUTPUT: a Python integer in `[0, 2^{64})`: an explicit seed unchanged
    (one outside that range is refused, as in a spec file: :data:`MAX_SEED`),
    a drawn one below `2^{62}`

    EXAMPLES::

        sage: from sage_attention.misc.randomness import resolve_seed
        sage: resolve_seed(7), resolve_seed(ZZ(7))
        (7, 7)
        sage: set_random_seed(0); a = resolve_seed(None); b = resolve_seed(None)
        sage: set_random_seed(0); (a, b) == (resolve_seed(None), resolve_seed(None))
        True

    TESTS::

        sage: resolve_seed('1')
        Traceback (most recent call last):
        ...
        TypeError: seed (='1') must be an integer or None
        sage: resolve_seed(-1)
        Traceback (most recent call last):
        ...
        ValueError: seed (=-1) must be an integer >= 0 and <= 2^64 - 1
        sage: resolve_seed(2^64 - 1) == 2^64 - 1
        True
    """
    if seed is None:
        from sage.misc.randstate import current_randstate
        return int(current_randstate().python_random().getrandbits(62))
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        try:
            from sage.rings.integer import Integer
        except ImportError:                     # pragma: no cover
            Integer = ()
        if not isinstance(seed, Integer) or isinstance(seed, bool):
            raise TypeError(f"seed (={seed!r}) must be an integer or None")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed (={seed}) must be an integer >= 0 and <= 2^64 - 1")
    return int(seed)


def derived_seed(seed, *tags):
    r"""
    Return a seed derived from ``seed`` and the labels ``tags``.

    The same arguments give the same value in every process (unlike
    Python's ``hash``, which is salted per process for strings).

    EXAMPLES::

        sage: from sage_attention.misc.randomness import derived_seed
        sage: derived_seed(3, 'points', 2) == derived_seed(3, 'points', 2)
        True
        sage: derived_seed(3, 'points', 2) != derived_seed(3, 'points', 3)
        True
    """
    text = repr((int(seed),) + tuple(str(t) for t in tags)).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


def python_random(seed):
    r"""
    Return a local :class:`random.Random` generator for an integer seed.

    EXAMPLES::

        sage: from sage_attention.misc.randomness import python_random
        sage: python_random(4).random() == python_random(4).random()
        True
    """
    return random.Random(int(seed))


def numpy_generator(seed, *tags):
    r"""
    Return a local numpy generator for an integer seed and optional labels.

    EXAMPLES::

        sage: from sage_attention.misc.randomness import numpy_generator
        sage: float(numpy_generator(4).random()) == float(numpy_generator(4).random())
        True
        sage: float(numpy_generator(4, 'a').random()) == float(numpy_generator(4, 'b').random())
        False
    """
    import numpy as np
    if tags:
        seed = derived_seed(seed, *tags)
    return np.random.default_rng(int(seed))
