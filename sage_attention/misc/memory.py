r"""
The memory guard of the linear-algebra engines

Before the implicitization engine (:mod:`sage_attention.ideals.implicitization`)
or the generation report builds a monomial table or a matrix, it estimates
the bytes that table needs (what the algorithm really builds: the numpy
arrays and their temporary copies) and compares the estimate with
:func:`memory_limit`. Beyond the limit :class:`~sage_attention.misc.errors.ComputationTooLarge`
is raised *before* anything is allocated; the message names the estimate,
the limit and ``force=True``.

The limit is an eighth of the physical memory (at most
``settings.MEMORY_CAP``, `4` GiB by default), and at most half of what an
address-space limit (``RLIMIT_AS``, e.g. ``ulimit -v``) leaves to this
process. The environment variable ``SAGE_ATTENTION_MEMORY_LIMIT`` (bytes,
or with a suffix ``K``, ``M``, ``G``, ``T``) overrides it, and a value it
cannot read is an error (:class:`~sage_attention.misc.errors.SettingError`),
never ignored; the setting ``settings.MEMORY_LIMIT`` (bytes; see
:mod:`sage_attention.settings`), when not ``None``, overrides both for the
session. A refusal names the limit and where it comes from.

EXAMPLES::

    sage: from sage_attention.misc.memory import check_memory, memory_limit, format_bytes
    sage: memory_limit() > 10**8
    True
    sage: check_memory(10**6, "a small table")
    sage: check_memory(10**15, "the evaluation matrix (10^7 x 10^7)")
    Traceback (most recent call last):
    ...
    ComputationTooLarge: the evaluation matrix (10^7 x 10^7) needs about 931322.6 GiB of memory (limit ... GiB on this machine, SAGE_ATTENTION_MEMORY_LIMIT=8G, say, sets another); pass force=True to run it anyway
    sage: check_memory(10**15, "the evaluation matrix", force=True)
    sage: format_bytes(3 * 2**30)
    '3.0 GiB'

The limit set for a block of code::

    sage: from sage_attention.settings import settings
    sage: with settings.override(MEMORY_LIMIT=2**20):
    ....:     check_memory(2**21, "the table")
    Traceback (most recent call last):
    ...
    ComputationTooLarge: the table needs about 2.0 MiB of memory (limit 1.0 MiB set by settings.MEMORY_LIMIT); pass force=True to run it anyway
"""
import os

from sage_attention.misc.errors import ComputationTooLarge, SettingError
from sage_attention.settings import moved_to_settings, settings

# DEFAULT_CAP, the upper bound of the default limit, is now settings.MEMORY_CAP
__getattr__ = moved_to_settings(__name__, {"DEFAULT_CAP": "MEMORY_CAP"})


def format_bytes(n):
    r"""
    Return ``n`` bytes in MiB or GiB, rounded.

    EXAMPLES::

        sage: from sage_attention.misc.memory import format_bytes
        sage: format_bytes(5 * 2**20), format_bytes(2**31), format_bytes(3000)
        ('5.0 MiB', '2.0 GiB', '2.9 KiB')
    """
    n = float(n)
    if n >= 2 ** 30:
        return f"{n / 2 ** 30:.1f} GiB"
    if n >= 2 ** 20:
        return f"{n / 2 ** 20:.1f} MiB"
    return f"{n / 2 ** 10:.1f} KiB"


def _parse(text):
    import re
    m = re.fullmatch(r"\s*([0-9.]+)\s*([KMGT]?)(I?B)?\s*", text.upper())
    if not m:
        raise ValueError(text)
    return int(float(m.group(1)) * 2 ** (10 * " KMGT".index(m.group(2) or " ")))


def memory_limit():
    r"""
    Return the number of bytes one table or matrix may take.

    OUTPUT: an integer: ``settings.MEMORY_LIMIT`` when it is not ``None``;
    else ``SAGE_ATTENTION_MEMORY_LIMIT`` when it is set (an error when it is
    not a size); else an eighth of this machine's memory, at most
    ``settings.MEMORY_CAP``, and at most half of what an address-space limit
    leaves

    EXAMPLES::

        sage: import os
        sage: from sage_attention.misc.memory import memory_limit
        sage: os.environ["SAGE_ATTENTION_MEMORY_LIMIT"] = "512M"
        sage: memory_limit()
        536870912
        sage: os.environ["SAGE_ATTENTION_MEMORY_LIMIT"] = "lots"
        sage: memory_limit()
        Traceback (most recent call last):
        ...
        SettingError: SAGE_ATTENTION_MEMORY_LIMIT='lots' is not a size: write a number of bytes, or one with a suffix K, M, G or T (for instance 8G), or unset it for the default (an eighth of this machine's memory, at most 4.0 GiB)
        sage: del os.environ["SAGE_ATTENTION_MEMORY_LIMIT"]

    The setting comes first; ``MEMORY_CAP`` bounds the default::

        sage: from sage_attention.settings import settings
        sage: settings.MEMORY_LIMIT = 2**30
        sage: memory_limit()
        1073741824
        sage: settings.reset("MEMORY_LIMIT")
        sage: with settings.override(MEMORY_CAP=2**20):
        ....:     memory_limit() <= 2**20
        True
    """
    if settings.MEMORY_LIMIT is not None:
        return settings.MEMORY_LIMIT
    cap = settings.MEMORY_CAP
    env = os.environ.get("SAGE_ATTENTION_MEMORY_LIMIT")
    if env is not None and env.strip():
        try:
            return _parse(env)
        except ValueError:
            raise SettingError(f"SAGE_ATTENTION_MEMORY_LIMIT={env!r} is not a size: write a number of bytes, or "
                               "one with a suffix K, M, G or T (for instance 8G), or unset it for the default (an "
                               f"eighth of this machine's memory, at most {format_bytes(cap)})") from None
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        total = 8 * 2 ** 30
    limit = min(total // 8, cap)
    try:
        import resource
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY and soft > 0:
            used = 0
            try:
                with open("/proc/self/statm") as fh:
                    used = int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
            except (OSError, ValueError, IndexError):
                pass
            limit = min(limit, max(soft - used, 0) // 2)
    except ImportError:
        pass
    return limit


def check_memory(nbytes, what, force=False, hint="", degree=None, lower_degree=False):
    r"""
    Refuse to build ``what`` when its estimate ``nbytes`` is beyond :func:`memory_limit`.

    INPUT:

    - ``nbytes`` -- integer; the estimated peak memory of the table
    - ``what`` -- string; what would be built (named in the message)
    - ``force`` -- boolean (default: ``False``); build it anyway
    - ``hint`` -- string (default: empty); a cheaper alternative
    - ``lower_degree`` -- boolean (default: ``False``); advise a lower
      degree (the error's ``lower_degree``)
    - ``degree`` -- (default: ``None``) the degree to suggest instead,
      kept as the error's ``degree``

    OUTPUT: ``None``, or :class:`~sage_attention.misc.errors.ComputationTooLarge`
    (with ``estimate`` the number of bytes, and ``force_helps``)

    EXAMPLES::

        sage: from sage_attention.misc.memory import check_memory
        sage: check_memory(2**50, "the table", lower_degree=True)
        Traceback (most recent call last):
        ...
        ComputationTooLarge: the table needs about 1048576.0 GiB of memory (limit ...); lower the degree; pass force=True to run it anyway
    """
    if force:
        return
    limit = memory_limit()
    if nbytes > limit:
        if settings.MEMORY_LIMIT is not None:
            where = "set by settings.MEMORY_LIMIT"
        elif (os.environ.get("SAGE_ATTENTION_MEMORY_LIMIT") or "").strip():
            where = "set by SAGE_ATTENTION_MEMORY_LIMIT"
        else:
            where = "on this machine, SAGE_ATTENTION_MEMORY_LIMIT=8G, say, sets another"
        msg = f"{what} needs about {format_bytes(nbytes)} of memory (limit {format_bytes(limit)} {where})"
        raise ComputationTooLarge(msg, nbytes, degree=degree, lower_degree=lower_degree, hint=hint,
                                  force_helps=True)
