r"""
Exceptions of sage_attention

Every error this package raises on purpose derives from
:class:`SageAttentionError`, so a caller can catch them all at once:

- :class:`SpecError` (also a ``ValueError``): a model description that is
  well formed but mathematically impossible or unsupported;
- :class:`ComputationTooLarge`: the size guard refused a computation that
  would not finish on this machine; the message carries the estimate and the
  option that forces it;
- :class:`RandomizedFailure`: a randomized step failed for every seed it
  tried; the message lists the seeds, and ``retry`` says a rerun may help;
- :class:`SettingError` (also a ``ValueError``): an environment variable
  of the package has a value it cannot read (it is never ignored).

The DSL adds labelled syntax errors in :mod:`sage_attention.dsl.errors`.

EXAMPLES::

    sage: from sage_attention.errors import SageAttentionError, SpecError
    sage: issubclass(SpecError, ValueError) and issubclass(SpecError, SageAttentionError)
    True
"""


class SageAttentionError(Exception):
    r"""
    Base class of all errors raised by sage_attention.

    EXAMPLES::

        sage: from sage_attention.errors import SageAttentionError
        sage: raise SageAttentionError("something failed")
        Traceback (most recent call last):
        ...
        SageAttentionError: something failed
    """


class SpecError(SageAttentionError, ValueError):
    r"""
    A semantic error in a model description.

    INPUT:

    - ``message`` -- string; what is wrong and how to fix it
    - ``span`` -- (default: ``None``) a source span (anything with ``line``
      and ``column`` attributes) where the error was found
    - ``filename`` -- (default: ``None``) the spec file's name
    - ``source`` -- (default: ``None``) the spec's text, to show the line
    - ``fix`` -- (default: ``None``) how to repair it, shown on a last line
      ``fix: ...`` as for syntax errors

    EXAMPLES::

        sage: from sage_attention.errors import SpecError
        sage: str(SpecError("rank (=0) must be a positive integer"))
        'rank (=0) must be a positive integer'
        sage: print(SpecError("rank (=0) must be a positive integer", fix="write `rank = 1`"))
        rank (=0) must be a positive integer
        fix: write `rank = 1`
    """

    def __init__(self, message, span=None, filename=None, source=None, fix=None):
        self.message = message
        self.span = span
        self.filename = filename
        self.source = source
        self.fix = fix
        super().__init__(message)

    def __str__(self):
        fix = "" if self.fix is None else f"\nfix: {self.fix}"
        if self.span is None:
            return self.message + fix
        where = f"{self.filename or '<spec>'}:{self.span.line}:{self.span.column}"
        text = f"{where}: {self.message}"
        if self.source is not None:
            lines = self.source.splitlines()
            if 1 <= self.span.line <= len(lines):
                line = lines[self.span.line - 1]
                text += "\n    " + line + "\n    " + " " * (self.span.column - 1) + "^"
        return text + fix


class ComputationTooLarge(SageAttentionError):
    r"""
    The size guard refused a computation.

    INPUT:

    - ``message`` -- string; the estimate and the cheaper alternatives
    - ``estimate`` -- (default: ``None``) the size estimate that failed
    - ``degree`` -- (default: ``None``) for an interpolation refused by
      its table, the largest degree whose table fits (if one does)

    EXAMPLES::

        sage: from sage_attention.errors import ComputationTooLarge
        sage: raise ComputationTooLarge("too big; pass force=True to run it anyway")
        Traceback (most recent call last):
        ...
        ComputationTooLarge: too big; pass force=True to run it anyway
    """

    def __init__(self, message, estimate=None, degree=None):
        self.estimate = estimate
        self.degree = degree
        super().__init__(message)


class RandomizedFailure(SageAttentionError):
    r"""
    A randomized step failed for every seed it tried.

    INPUT:

    - ``message`` -- string
    - ``seeds`` -- list of the seeds that were tried
    - ``retry`` -- boolean (default: ``True``); whether rerunning with other
      seeds may succeed

    EXAMPLES::

        sage: from sage_attention.errors import RandomizedFailure
        sage: e = RandomizedFailure("no stable rank", seeds=[1, 2])
        sage: e.seeds, e.retry
        ([1, 2], True)
    """

    def __init__(self, message, seeds=(), retry=True):
        self.seeds = list(seeds)
        self.retry = retry
        super().__init__(message + (f" (seeds tried: {self.seeds})" if self.seeds else ""))


class SettingError(SageAttentionError, ValueError):
    r"""
    An environment variable of the package (such as ``SAGE_ATTENTION_MEMORY_LIMIT``) has a value it cannot read.

    EXAMPLES::

        sage: from sage_attention.errors import SettingError
        sage: raise SettingError("SAGE_ATTENTION_MEMORY_LIMIT='lots' is not a size")
        Traceback (most recent call last):
        ...
        SettingError: SAGE_ATTENTION_MEMORY_LIMIT='lots' is not a size
    """
