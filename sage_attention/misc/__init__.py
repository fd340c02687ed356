r"""
Plumbing: the bottom floor of the package

Every other layer may import these modules; they import nothing of the
package above this folder (besides :mod:`sage_attention.settings`, on the
same floor), and load Sage only where they need it.

- :mod:`~sage_attention.misc.errors` -- the package's exceptions
  (:class:`~sage_attention.misc.errors.ComputationTooLarge`, ...);
- :mod:`~sage_attention.misc.randomness` -- seeds, random generators, primes;
- :mod:`~sage_attention.misc.memory` -- the memory guard (estimate before you build);
- :mod:`~sage_attention.misc.forked` -- computations in a forked child under a time limit;
- :mod:`~sage_attention.misc.progress` -- progress bars, heartbeats, Ctrl-C inside compiled code;
- :mod:`~sage_attention.misc.text` -- numbers and near words as the user wrote them;
- :mod:`~sage_attention.misc.keywords` -- misspelled keyword arguments;
- :mod:`~sage_attention.misc.polynomial_text` -- the text of a polynomial without Sage's buffers;
- :mod:`~sage_attention.misc.html` -- the HTML tables of the reports;
- :mod:`~sage_attention.misc.plotting` -- pictures, with Sage's
  ``Graphics`` or matplotlib;
- :mod:`~sage_attention.misc.deprecation` -- old module paths kept for one version.

The tunables these modules read (the memory limit, the primes, the
progress intervals) live in :mod:`sage_attention.settings`.

EXAMPLES:

A computation too large for this machine is refused before it starts,
with the estimate and the way out::

    sage: from sage_attention.misc.memory import check_memory
    sage: check_memory(10**15, "the table of monomials")
    Traceback (most recent call last):
    ...
    ComputationTooLarge: the table of monomials needs about 931322.6 GiB of memory (limit ...); pass force=True to run it anyway

A misspelled keyword names the one meant::

    sage: from sage_attention import LightningAttention
    sage: LightningAttention(d=3, t=2, a=1, ot=1)
    Traceback (most recent call last):
    ...
    TypeError: LightningAttention() got an unexpected keyword argument 'ot' (did you mean `out`?); its keywords: ...

A seed of ``None`` is drawn from Sage's random state, so
``set_random_seed`` makes a run reproducible::

    sage: from sage_attention.misc.randomness import resolve_seed
    sage: set_random_seed(1); s = resolve_seed(None)
    sage: set_random_seed(1); s == resolve_seed(None)
    True
"""
