r"""
Exceptions of sage_attention

Every error this package raises on purpose derives from
:class:`SageAttentionError`, so a caller can catch them all at once:

- :class:`SpecError` (also a ``ValueError``): a model description that is
  well formed but mathematically impossible or unsupported;
- :class:`ComputationTooLarge`: the size guard refused a computation that
  would not finish on this machine; it carries the estimate and the ways
  out as data (a lower degree, other hints, whether ``force=True`` helps);
- :class:`RandomizedFailure`: a randomized step failed for every seed it
  tried; the message lists the seeds, and ``retry`` says a rerun may help;
- :class:`SettingError` (also a ``ValueError``): an environment variable
  of the package has a value it cannot read (it is never ignored).

The DSL adds labelled syntax errors in :mod:`sage_attention.dsl.errors`.

EXAMPLES::

    sage: from sage_attention.misc.errors import SageAttentionError, SpecError
    sage: issubclass(SpecError, ValueError) and issubclass(SpecError, SageAttentionError)
    True
"""


class SageAttentionError(Exception):
    r"""
    Base class of all errors raised by sage_attention.

    EXAMPLES::

        sage: from sage_attention.misc.errors import SageAttentionError
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

        sage: from sage_attention.misc.errors import SpecError
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

    A refusal is data: what is too large (``reason``) and the ways out --
    a lower degree (``lower_degree``, with ``degree`` the largest that
    fits), other alternatives (``hint``), and whether ``force=True`` runs
    it anyway (``force_helps``). The message is written from them in the
    words of the Python API; the command line writes its own words from
    the same data (:func:`sage_attention.app.messages.command_line_advice`),
    never by editing this message.

    INPUT:

    - ``reason`` -- string; the estimate that failed, against its limit
    - ``estimate`` -- (default: ``None``) the size estimate that failed
    - ``degree`` -- (default: ``None``) for an interpolation refused by
      its table, the largest degree whose table fits (if one does)
    - ``lower_degree`` -- boolean (default: ``False``); a lower degree is
      a way out (named with ``degree`` when it is known)
    - ``hint`` -- string (default: empty); the other ways out
    - ``force_helps`` -- (default: ``None``: nothing said) ``True``:
      ``force=True`` runs it anyway; ``False``: no option lifts the limit
    - ``force_option`` -- string (default: ``"force=True"``); how the
      caller passes ``force``, in the message
    - ``context`` -- string (default: empty); lines after the reason
      (the source line of a spec, with a caret); the ways out then follow
      on a last line ``fix: ...``, as for the errors of a spec

    EXAMPLES::

        sage: from sage_attention.misc.errors import ComputationTooLarge
        sage: raise ComputationTooLarge("too big (limit 5)", force_helps=True)
        Traceback (most recent call last):
        ...
        ComputationTooLarge: too big (limit 5); pass force=True to run it anyway
        sage: e = ComputationTooLarge("the table needs 2 GiB (limit 1 GiB)", degree=3,
        ....:                         lower_degree=True, hint="or use fewer entries", force_helps=True)
        sage: print(e)
        the table needs 2 GiB (limit 1 GiB); lower the degree (degree=3, the largest whose table fits); or use fewer entries; pass force=True to run it anyway
        sage: e.reason, e.degree, e.force_helps
        ('the table needs 2 GiB (limit 1 GiB)', 3, True)

    :meth:`replace` gives the same refusal with other data, e.g. without
    the advice of a lower degree where the caller has no degree::

        sage: print(e.replace(lower_degree=False, hint="use fewer entries"))
        the table needs 2 GiB (limit 1 GiB); use fewer entries; pass force=True to run it anyway
        sage: print(ComputationTooLarge("the ring needs 40000 variables", force_helps=False))
        the ring needs 40000 variables; force=True does not lift this limit
    """

    def __init__(self, reason, estimate=None, degree=None, lower_degree=False, hint="",
                 force_helps=None, force_option="force=True", context=""):
        self.reason = str(reason)
        self.estimate = estimate
        self.degree = degree
        self.lower_degree = bool(lower_degree)
        self.hint = hint or ""
        self.force_helps = force_helps
        self.force_option = force_option
        self.context = context or ""
        super().__init__(self._message())

    def _message(self):
        parts = [self.reason]
        if self.lower_degree:
            parts.append("lower the degree" + (f" (degree={self.degree}, the largest whose table fits)"
                                               if self.degree else ""))
        if self.hint:
            parts.append(self.hint)
        if self.force_helps is True:
            parts.append(f"pass {self.force_option} to run it anyway")
        elif self.force_helps is False:
            parts.append(f"{self.force_option} does not lift this limit")
        return located(parts, self.context)

    def __reduce__(self):
        # its data survive pickling (a refusal in a forked child reaches the parent whole)
        return (type(self), (self.reason, self.estimate, self.degree, self.lower_degree, self.hint,
                             self.force_helps, self.force_option, self.context))

    def replace(self, **changes):
        r"""
        Return this refusal with the data ``changes`` (keywords of the constructor) replaced.

        EXAMPLES::

            sage: from sage_attention.misc.errors import ComputationTooLarge
            sage: e = ComputationTooLarge("too big (limit 5)", 10, force_helps=True)
            sage: f = e.replace(reason="`dimension` on model `m`: too big (limit 5)")
            sage: print(f); f.estimate
            `dimension` on model `m`: too big (limit 5); pass force=True to run it anyway
            10
        """
        data = dict(reason=self.reason, estimate=self.estimate, degree=self.degree,
                    lower_degree=self.lower_degree, hint=self.hint, force_helps=self.force_helps,
                    force_option=self.force_option, context=self.context)
        unknown = set(changes) - set(data)
        if unknown:
            raise TypeError(f"replace() got unknown data {sorted(unknown)}; its data: {', '.join(data)}")
        data.update(changes)
        return type(self)(**data)


def located(parts, context=""):
    r"""
    Return the message of a refusal: its reason and ways out ``parts``, joined by ``; ``, or, with
    ``context`` (source lines), the reason, the context and the ways out on a line ``fix: ...``.

    EXAMPLES::

        sage: from sage_attention.misc.errors import located
        sage: located(["too big (limit 5)", "use fewer entries"])
        'too big (limit 5); use fewer entries'
        sage: print(located(["f.att:2:13: too big (limit 5)", "use fewer entries"],
        ....:               "\n    compute m { dimension }\n                ^"))
        f.att:2:13: too big (limit 5)
            compute m { dimension }
                        ^
        fix: use fewer entries
    """
    if not context:
        return "; ".join(parts)
    return parts[0] + context + ("\nfix: " + "; ".join(parts[1:]) if parts[1:] else "")


class RandomizedFailure(SageAttentionError):
    r"""
    A randomized step failed for every seed it tried.

    INPUT:

    - ``message`` -- string
    - ``seeds`` -- list of the seeds that were tried
    - ``retry`` -- boolean (default: ``True``); whether rerunning with other
      seeds may succeed

    EXAMPLES::

        sage: from sage_attention.misc.errors import RandomizedFailure
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

        sage: from sage_attention.misc.errors import SettingError
        sage: raise SettingError("SAGE_ATTENTION_MEMORY_LIMIT='lots' is not a size")
        Traceback (most recent call last):
        ...
        SettingError: SAGE_ATTENTION_MEMORY_LIMIT='lots' is not a size
    """


#: how to get Sage, for the message of :class:`SageMissing`
SAGE_INSTALL = ('pip install "sage_attention[passagemath]" (Sage as the modular passagemath '
                "distributions), or install sage_attention into a Sage (sage -pip install sage_attention)")


class SageMissing(SageAttentionError, ImportError):
    r"""
    Sage is not installed: everything but ``sage-attention check`` needs it.

    Raised (with the command that installs it) where the package first needs
    Sage: the names of :mod:`sage_attention` and ``sage-attention run``.

    EXAMPLES::

        sage: from sage_attention.misc.errors import SageMissing
        sage: print(SageMissing.about(ModuleNotFoundError("No module named 'sage'", name="sage")))
        sage_attention needs Sage, which is not installed (No module named 'sage'): pip install "sage_attention[passagemath]" (Sage as the modular passagemath distributions), or install sage_attention into a Sage (sage -pip install sage_attention)
        sage: SageMissing.about(ModuleNotFoundError("No module named 'lark'", name="lark")) is None
        True
    """

    @classmethod
    def about(cls, error):
        r"""
        Return a :class:`SageMissing` for ``error`` when it is a missing module of Sage, else ``None``.
        """
        name = getattr(error, "name", None) or ""
        if isinstance(error, ModuleNotFoundError) and name.split(".")[0] == "sage":
            return cls(f"sage_attention needs Sage, which is not installed ({error}): {SAGE_INSTALL}")
        return None

