r"""
Settings: every tunable of the package, in one place

The package's time budgets, size limits, primes and progress intervals are
read from :data:`settings` when a computation starts, so a value changed
here holds for the rest of the session (or, with :meth:`Settings.override`,
for one block of code). Each tunable has a documented default; this module
imports no Sage, so the spec language and ``sage-attention check`` read it
too. (This follows sage_acsv's ``settings.py``.)

Changing a tunable changes how much work is tried, never what a result
claims: a proof that runs out of time says "not proved", a guard that
refuses names the limit, and a prime is part of every randomized result's
stated failure bound.

The tunables come in six sections (:data:`SECTIONS`; ``settings.describe()``
prints them with their values and meanings):

- ``memory`` -- the memory guard
  (:func:`~sage_attention.misc.memory.memory_limit`): how many bytes one
  table or matrix may take before a computation is refused (without
  ``force=True``). ``MEMORY_LIMIT`` (``None`` by default) sets the limit;
  unset, the environment variable ``SAGE_ATTENTION_MEMORY_LIMIT`` (bytes, or
  with a suffix ``K``, ``M``, ``G``, ``T``) does, as before; without either
  the limit is an eighth of this machine's memory, at most ``MEMORY_CAP``.
  Raising it lets larger degrees and models run (and can exhaust the
  machine); lowering it refuses them sooner.
- ``proofs`` -- the time budgets and size thresholds of the whole-ideal
  proofs of ``implicitize``. Larger budgets prove more ideals complete and
  take longer; a proof that runs out of time leaves the ideal "complete
  through degree k" but not proved.
- ``engine`` -- the interpolation engine and the other ideal algorithms:
  where numpy is used instead of LinBox, which sizes are computed by
  default, and which degree and how far interpolation goes before it
  eliminates. These change the time taken and which method runs, not the
  ideal found.
- ``primes`` -- the primes of the randomized and modular computations.
  The prime enters the failure bound a randomized answer states (a
  Schwartz--Zippel bound, of the order of a degree over the prime): a
  smaller prime raises it; over a prime below ``MINIMUM_RANK_PRIME`` a
  Jacobian rank draws its points from an extension field of at least that
  order, and the interpolation is refused. The
  linear-algebra primes must stay below `2^{23}` (the exact floating-point
  products of :mod:`~sage_attention.ideals.engine.linalg_modp`), the Hilbert
  primes below `2^{29}` (Singular's largest characteristic).
- ``limits`` -- the size limits of the spec language, the batch commands
  (``sweep``, ``filling``), ``certify`` and the size guard: larger inputs
  are refused, naming the limit (and, where it helps, ``force=True``). Also
  the gap of singular values that the numerical (softmax) dimension calls
  clear: a larger one warns more often.
- ``progress`` -- how often progress is shown and Ctrl-C is checked, and
  the time estimate that makes ``dimension`` warn that it is slow.

A setting holds in this process and in the processes it forks (the
workers of ``sweep``, the children of :mod:`~sage_attention.misc.forked` and
:func:`~sage_attention.misc.progress.interruptible`). A process started
otherwise (a Dask worker given as ``executor=``, a new ``sage-attention``
command) starts from the defaults, except for the environment variable above.

EXAMPLES:

The time the default whole-ideal proof may take, changed for one block::

    sage: from sage_attention.settings import settings
    sage: settings.PROOF_TIMEOUT
    30
    sage: with settings.override(PROOF_TIMEOUT=5):
    ....:     settings.PROOF_TIMEOUT
    5
    sage: settings.PROOF_TIMEOUT
    30

A misspelled name is refused with the name meant, and so is a value of the
wrong kind::

    sage: settings.PROOF_TIMOUT = 5
    Traceback (most recent call last):
    ...
    AttributeError: no tunable PROOF_TIMOUT (did you mean PROOF_TIMEOUT?); settings.names() lists them
    sage: settings.PROOF_TIMEOUT = -1
    Traceback (most recent call last):
    ...
    ValueError: PROOF_TIMEOUT (=-1) must be a positive number

Set for the session, then back to the default::

    sage: settings.PROOF_TIMEOUT = 12
    sage: settings.PROOF_TIMEOUT
    12
    sage: settings.reset("PROOF_TIMEOUT"); settings.PROOF_TIMEOUT
    30

The whole table, grouped by what the tunables govern::

    sage: print(settings.describe("proofs"))    # doctest: +ELLIPSIS
    proofs: the time budgets and thresholds of the whole-ideal proofs ...
      PROOF_TIMEOUT = 30 ...

A prime beyond what the computations take is refused::

    sage: settings.LINALG_PRIMES = (16777259,)
    Traceback (most recent call last):
    ...
    ValueError: LINALG_PRIMES (=(16777259,)) must be primes below 8388608

The memory limit of the session, in bytes (``None``: the environment
variable ``SAGE_ATTENTION_MEMORY_LIMIT``, else the machine's default)::

    sage: from sage_attention.misc.memory import memory_limit
    sage: with settings.override(MEMORY_LIMIT=2**30):
    ....:     memory_limit()
    1073741824
"""
import contextlib
import difflib
import numbers
from dataclasses import dataclass


@dataclass(frozen=True)
class Tunable:
    r"""
    One tunable: its name, default, section, kind and meaning.

    ``kind`` is ``'positive'`` (a positive number), ``'count'`` (a positive
    integer), ``'bytes'`` (``None`` or a positive integer), ``'prime'`` (a
    prime number) or ``'primes'`` (a nonempty tuple of distinct primes);
    ``below``, when not ``None``, bounds a prime (or each of the primes)
    strictly from above.
    """
    name: str
    default: object
    section: str
    kind: str
    doc: str
    below: object = None


def _is_prime(n):
    if n < 2:
        return False
    i = 2
    while i * i <= n:
        if n % i == 0:
            return False
        i += 1 if i == 2 else 2
    return True


def _check(t, value):
    name, kind = t.name, t.kind
    if kind == "positive":
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"{name} (={value!r}) must be a positive number")
        if not value > 0:
            raise ValueError(f"{name} (={value!r}) must be a positive number")
    elif kind == "count":
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{name} (={value!r}) must be a positive integer")
        if value < 1:
            raise ValueError(f"{name} (={value!r}) must be a positive integer")
        value = int(value)
    elif kind == "bytes":
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
                raise ValueError(f"{name} (={value!r}) must be None or a positive number of bytes")
            value = int(value)
    elif kind == "prime":
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not _is_prime(int(value)):
            raise ValueError(f"{name} (={value!r}) must be a prime number")
        value = int(value)
        if t.below is not None and value >= t.below:
            raise ValueError(f"{name} (={value!r}) must be a prime below {t.below}")
    elif kind == "primes":
        try:
            value = tuple(value)
        except TypeError:
            raise TypeError(f"{name} (={value!r}) must be a nonempty tuple of distinct primes") from None
        if (not value or len(set(value)) < len(value)
                or not all(isinstance(p, numbers.Integral) and not isinstance(p, bool)
                           and _is_prime(int(p)) for p in value)):
            raise ValueError(f"{name} (={value!r}) must be a nonempty tuple of distinct primes")
        value = tuple(int(p) for p in value)
        if t.below is not None and max(value) >= t.below:
            raise ValueError(f"{name} (={value!r}) must be primes below {t.below}")
    else:
        raise ValueError(f"{name}: unknown kind (={kind!r})")
    return value


#: What each section of tunables governs (see the module documentation).
SECTIONS = {
    "memory": "the memory guard: the bytes one table or matrix may take before a computation is refused",
    "proofs": "the time budgets and thresholds of the whole-ideal proofs (prove=None, prove=True)",
    "engine": "the interpolation engine and the ideal algorithms: method choices and default sizes",
    "primes": "the primes of the randomized and modular computations",
    "limits": "size limits (spec files, batch commands, certify, the size guard) and the clear gap of "
              "the numerical dimension",
    "progress": "progress display, Ctrl-C polling and the time estimate of dimension",
}


#: Every tunable, by section. Sections: memory, proofs, engine, primes, limits, progress.
TUNABLES = (
    # -- memory ---------------------------------------------------------------------------
    Tunable("MEMORY_LIMIT", None, "memory", "bytes",
            "bytes one table or matrix may take; None: the environment variable "
            "SAGE_ATTENTION_MEMORY_LIMIT if set, else an eighth of this machine's memory, at most "
            "MEMORY_CAP (sage_attention.misc.memory.memory_limit)"),
    Tunable("MEMORY_CAP", 4 * 2 ** 30, "memory", "count",
            "upper bound of the default memory limit, in bytes"),
    # -- proofs ---------------------------------------------------------------------------
    Tunable("PROOF_TIMEOUT", 30, "proofs", "positive",
            "seconds the default whole-ideal proof (implicitize(..., prove=None)) may take"),
    Tunable("PROOF_TIMEOUT_FORCED", 600, "proofs", "positive",
            "seconds the whole-ideal proof may take with prove=True"),
    Tunable("PROOF_TERMS_LIMIT", 20000, "proofs", "count",
            "prove=None tries a proof that needs a Groebner basis of the generators only when they "
            "have at most this many terms in all"),
    Tunable("PROOF_SUB_COORDINATES_LIMIT", 24, "proofs", "count",
            "prove=None tries the proof by inheritance only when the smaller variety it rests on has "
            "at most this many coordinates"),
    Tunable("PROOF_FIRST_SECONDS", 2, "proofs", "positive",
            "prove=None first gives the localization this many seconds (or PROOF_FIRST_FACTOR times "
            "the engine's seconds if more), then probes the next degree"),
    Tunable("PROOF_FIRST_FACTOR", 10, "proofs", "positive",
            "see PROOF_FIRST_SECONDS"),
    Tunable("PROBE_MONOMIALS", 10000, "proofs", "count",
            "the next degree is probed for new generators when it has at most this many monomials"),
    Tunable("LOCALIZATION_LINEAR_CHANGES", 3, "proofs", "count",
            "linear changes of the shape variable the localization tries after its first attempt"),
    Tunable("PROOF_IN_PROCESS_COORDINATES", 6, "proofs", "count",
            "the ideal of a smaller variety a proof rests on (a Segre factor) is computed and proved in "
            "this process, not in a forked child, when it has at most this many coordinates"),
    Tunable("LOCALIZATION_SECOND_CUTS", 4, "proofs", "count",
            "second cuts the localization tries for each factor of the denominator"),
    Tunable("SYMMETRY_ELEMENTS_LIMIT", 5040, "proofs", "count",
            "group elements enumerated at most when factors are shown nonzerodivisors by symmetry"),
    # -- engine ---------------------------------------------------------------------------
    Tunable("NUMPY_ELIMINATION_COLUMNS", 96, "engine", "count",
            "matrices with at most this many columns are reduced in numpy (the conversion to a Sage "
            "matrix costs more than the elimination)"),
    Tunable("EXACT_COUNT_SIZE", 5 * 10 ** 6, "engine", "count",
            "the exact count of minimal generators runs by default up to this size (about 0.5 s at "
            "3 * 10^6; 6 s and more at 8 * 10^7)"),
    Tunable("MINBASE_VARIABLE_LIMIT", 60, "engine", "count",
            "minimal generators by Singular's minbase are refused (without force=True) in more "
            "variables than this"),
    Tunable("DENSE_LIMIT", 30000, "engine", "count",
            "degrees with more monomials than this are compared by Groebner bases instead of dense "
            "linear algebra (generation reports)"),
    Tunable("ELIMINATION_DEFAULT_LIMIT", 18, "engine", "count",
            "the vanishing ideal eliminates, when interpolation fails to prove it, only in at most "
            "this many essential coordinates"),
    Tunable("DEFAULT_INTERPOLATION_DEGREE", 4, "engine", "count",
            "the degree of the interpolation when none is given"),
    Tunable("ED_CHART_LIMIT", 20000, "engine", "count",
            "ed_degree and critical_points statements are refused (without --force) when the Bezout "
            "number of the loss's critical equations in a chart of the weights is above this "
            "(sage_attention.catalog.metric_costs)"),
    Tunable("ED_BOUNDARY_LIMIT", 1000, "engine", "count",
            "decision_boundary statements are refused (without --force) when the ED degree of a generic "
            "hypersurface of the boundary's degree in input space is above this"),
    Tunable("HIGHER_DEGREE_MONOMIAL_LIMIT", 30000, "engine", "count",
            "interpolation goes on degree by degree while the next degree has at most this many "
            "monomials, before it eliminates"),
    # -- primes ---------------------------------------------------------------------------
    Tunable("JACOBIAN_PRIME", 67108859, "primes", "prime",
            "the prime of the randomized Jacobian ranks (dimensions, fibers); below 2^26 so that "
            "Sage's double-based modular matrices apply"),
    Tunable("LINALG_PRIMES", (8388593, 8388587, 8388581, 8388571, 8388547, 8388539, 8388473, 8388461),
            "primes", "primes",
            "the primes of the modular linear algebra (interpolation, kernels, generation reports, "
            "Brill's and Sylvester's invariants), the first used first, the others for Chinese "
            "remaindering; below 2^23 (exact floating-point products)", below=2 ** 23),
    Tunable("HILBERT_PRIMES", (32003, 32009), "primes", "primes",
            "the primes of Hilbert series, degrees and the whole-ideal proofs: the first computes, "
            "the second checks; below 2^29 (Singular's largest characteristic)", below=2 ** 29),
    Tunable("ED_PRIMES", (8388593, 8388617), "primes", "primes",
            "the two primes of an ED degree (sage_attention.ideals.metric): one count at each, at "
            "independent random data; below 2^29 (Singular's largest characteristic)", below=2 ** 29),
    Tunable("MINIMUM_RANK_PRIME", 2 ** 16, "primes", "count",
            "the least order of the field of a randomized Jacobian rank's points: over GF(p) with p "
            "below it they come from the smallest GF(p^k) this large (the Schwartz-Zippel bound is "
            "degree/p^k); the interpolation needs p at least this"),
    # -- limits ---------------------------------------------------------------------------
    Tunable("MAX_SPEC_BYTES", 1 << 20, "limits", "count",
            "the largest spec file read, in bytes"),
    Tunable("MAX_SPEC_SIZE", 10 ** 6, "limits", "count",
            "the largest width, rank or number of tokens a spec may write"),
    Tunable("MAX_SPEC_DIGITS", 1000, "limits", "count",
            "the most digits a number in a spec may have"),
    Tunable("MAX_SWEEP_ROWS", 10000, "limits", "count",
            "the largest grid sweep accepts (rows)"),
    Tunable("MAX_FILLING_ROWS", 5000, "limits", "count",
            "the most ranks one filling search computes (and the largest box its exhaustive search "
            "visits)"),
    Tunable("MAX_FILLING_BOX", 10 ** 6, "limits", "count",
            "the largest box of hidden widths the frontier search of filling visits"),
    Tunable("MAX_INVARIANT_WORK", 50000, "limits", "count",
            "the largest invariant work certify runs without force=True"),
    Tunable("HOPELESS_FACTOR", 10 ** 4, "limits", "count",
            "beyond this many times its limit a task is refused without advising force=True"),
    Tunable("SOFTMAX_CLEAR_GAP", 1e4, "limits", "positive",
            "a gap (ratio of consecutive singular values) below this is not clear (softmax "
            "numerical dimension)"),
    # -- progress -------------------------------------------------------------------------
    Tunable("HEARTBEAT_INTERVAL", 1.0, "progress", "positive",
            "seconds between two ticks of a heartbeat (progress of long opaque steps)"),
    Tunable("POLL_INTERVAL", 0.1, "progress", "positive",
            "seconds between two checks for Ctrl-C while a computation in compiled code is waited for"),
    Tunable("RESUME_RUNS", 2, "progress", "count",
            "interrupted interpolations whose finished degrees are kept in memory, so that the "
            "same call resumes from them (sage_attention.ideals.engine.interpolation.resume_state)"),
    Tunable("SLOW_DIMENSION_SECONDS", 60, "progress", "positive",
            "dimension warns that it is slow when its estimate is more seconds than this"),
    Tunable("JACOBIAN_STEP_SECONDS", 3e-4, "progress", "positive",
            "the measured seconds of one step of the Jacobian's reverse mode (one output entry's "
            "cotangent through one layer of width 2), used by the time estimate of dimension"),
)


class Settings:
    r"""
    The tunables of the package: read as attributes, set for the session,
    overridden for a block, reset to their defaults.

    There is one instance, :data:`settings`; see the module documentation.
    """

    def __init__(self, tunables):
        object.__setattr__(self, "_tunables", {t.name: t for t in tunables})
        object.__setattr__(self, "_values", {t.name: t.default for t in tunables})

    def _unknown(self, name):
        near = difflib.get_close_matches(name, list(self._tunables), n=1)
        hint = f" (did you mean {near[0]}?)" if near else ""
        return AttributeError(f"no tunable {name}{hint}; settings.names() lists them")

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._values[name]
        except KeyError:
            raise self._unknown(name) from None

    def __setattr__(self, name, value):
        t = self._tunables.get(name)
        if t is None:
            raise self._unknown(name)
        self._values[name] = _check(t, value)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._tunables))

    def names(self, section=None):
        r"""
        Return the names of the tunables (of one section).

        EXAMPLES::

            sage: from sage_attention.settings import settings
            sage: "PROOF_TIMEOUT" in settings.names("proofs")
            True
        """
        return [n for n, t in self._tunables.items() if section is None or t.section == section]

    def default(self, name):
        r"""
        Return the default value of the tunable ``name``.

        EXAMPLES::

            sage: from sage_attention.settings import settings
            sage: settings.default("PROOF_TIMEOUT")
            30
        """
        t = self._tunables.get(name)
        if t is None:
            raise self._unknown(name)
        return t.default

    def reset(self, *names):
        r"""
        Set the tunables ``names`` (all when none is given) back to their defaults.

        EXAMPLES::

            sage: from sage_attention.settings import settings
            sage: settings.PROOF_TIMEOUT = 3; settings.reset(); settings.PROOF_TIMEOUT
            30
        """
        for n in names or list(self._tunables):
            self._values[n] = self.default(n)

    @contextlib.contextmanager
    def override(self, **values):
        r"""
        Set tunables for the ``with`` block only (restored on exit, also on an error).

        EXAMPLES::

            sage: from sage_attention.settings import settings
            sage: with settings.override(PROOF_TIMEOUT=1):
            ....:     print(settings.PROOF_TIMEOUT)
            1
        """
        old = {}
        try:
            for n, v in values.items():
                old[n] = getattr(self, n)
                setattr(self, n, v)
            yield self
        finally:
            self._values.update(old)

    def describe(self, section=None):
        r"""
        Return a text table of the tunables (of one section): name, value, meaning.

        A value that differs from the default is marked with the default.

        EXAMPLES::

            sage: from sage_attention.settings import settings
            sage: "PROOF_TIMEOUT = 30" in settings.describe()
            True
        """
        lines = []
        sections = [section] if section else list(dict.fromkeys(t.section for t in self._tunables.values()))
        for s in sections:
            if s not in SECTIONS:
                raise ValueError(f"section (={s!r}) must be one of {', '.join(SECTIONS)}")
            lines.append(f"{s}: {SECTIONS[s]}")
            for n in self.names(s):
                t, v = self._tunables[n], self._values[n]
                mark = "" if v == t.default else f" (default {t.default!r})"
                lines.append(f"  {n} = {v!r}{mark} -- {t.doc}")
        return "\n".join(lines)

    def __repr__(self):
        return "Settings of sage_attention:\n" + self.describe()


#: The package's settings (the one instance).
settings = Settings(TUNABLES)


def moved_to_settings(module, names):
    r"""
    Return a module ``__getattr__`` serving the old constants ``names`` from :data:`settings`.

    A module whose tunable was a constant keeps the old name importable
    (``module.NAME``, ``from module import NAME``). The value is read from
    :data:`settings` when the name is asked for, so it follows the setting;
    a copy made by ``from module import NAME`` does not, which is why the
    package itself reads ``settings.NAME``.

    INPUT:

    - ``module`` -- string; the module's ``__name__`` (named in the error
      for any other name)
    - ``names`` -- dictionary; each old name to the tunable's name, or to a
      function of :data:`settings` (for a value derived from a tunable)

    OUTPUT: a function to assign to the module's ``__getattr__``

    EXAMPLES::

        sage: from sage_attention.settings import moved_to_settings, settings
        sage: getattr_ = moved_to_settings("m", {"PRIMES": "HILBERT_PRIMES",
        ....:                                    "PRIME": lambda s: s.HILBERT_PRIMES[0]})
        sage: getattr_("PRIMES"), getattr_("PRIME")
        ((32003, 32009), 32003)
        sage: with settings.override(HILBERT_PRIMES=(7, 11)):
        ....:     getattr_("PRIME")
        7
        sage: getattr_("OTHER")
        Traceback (most recent call last):
        ...
        AttributeError: module 'm' has no attribute 'OTHER'
    """
    def __getattr__(name):
        try:
            source = names[name]
        except KeyError:
            raise AttributeError(f"module {module!r} has no attribute {name!r}") from None
        return source(settings) if callable(source) else getattr(settings, source)
    return __getattr__
