r"""
The options of statements and families: how they are written, checked and described

An :class:`Option` is one key of a computation statement
(``dimension seed = 1``) or of an invariant family (``veronese(r = 2)``):
its kind (an integer with bounds, a choice among words, a point, the list
of families), its default and its documentation. :meth:`Option.problem`
checks a value as parsed and returns a :class:`Problem` -- what is wrong,
at which key, and how to fix it, in the words a spec writes (``up to
degree N``, ``check generation``), never in internal names. The tables
that use them are :data:`sage_attention.catalog.computations.COMPUTATIONS`
and :data:`sage_attention.catalog.families.FAMILIES`. This module imports
no Sage.

EXAMPLES::

    sage: from sage_attention.catalog.options import Option, written
    sage: o = Option("limit", "int", "stop after this many invariants", minimum=1)
    sage: o.problem(0)
    Problem(message='`limit` (=0) must be an integer >= 1', key='limit',
            fix='write an integer >= 1, e.g. `limit = 1`')
    sage: o.problem(3) is None
    True
    sage: written("degree", 4), written("seed", 0)
    ('up to degree 4', 'seed = 0')
"""
import operator
from dataclasses import dataclass
from typing import NamedTuple

from fractions import Fraction

from sage_attention.misc.text import WrittenInt, did_you_mean, format_value, near_integers
from sage_attention.misc.randomness import MAX_SEED


def _as_int(value):
    """The integer ``value`` (a Python or Sage integer), else ``None``."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def plural(n, word):
    r"""
    Return ``n`` and ``word``, in the plural unless ``n`` is `1`.

    EXAMPLES::

        sage: from sage_attention.catalog.options import plural
        sage: plural(1, "layer"), plural(2, "layer")
        ('1 layer', '2 layers')
    """
    return f"{n} {word}{'s' * (n != 1)}"


class Problem(NamedTuple):
    r"""
    A problem of a computation statement: what is wrong, where, how to fix it.

    ``sage-attention check`` shows ``message`` at the option ``key`` (the
    statement when ``key`` is ``None``; ``"family:NAME"`` for a family) and
    ``fix`` on a last line ``fix: ...``, as for the errors of a model.

    EXAMPLES::

        sage: from sage_attention.catalog.options import Problem
        sage: message, key, fix = Problem("option `seed` of `fibers` is given twice", "seed", "keep one")
        sage: fix
        'keep one'
        sage: Problem("`x` needs a model with one layer").fix is None
        True
    """
    message: str
    key: str = None
    fix: str = None


#: How an option is written in a statement, where it is not ``name = value``.
WRITTEN = {"degree": "up to degree {}", "what": "check {}", "point": "certify point {}"}


def written(name, value):
    r"""
    Return the option ``name`` with ``value``, as it is written in a statement.

    EXAMPLES::

        sage: from sage_attention.catalog.options import written
        sage: written("what", "generation"), written("limit", 3)
        ('check generation', 'limit = 3')
    """
    return WRITTEN.get(name, name + " = {}").format(value)


#: What an option not written ``name = value`` is, in a message about its value.
_WRITTEN_SUBJECT = {"degree": "the degree", "what": "what to check", "point": "the point"}


def _subject(name, shown):
    r"""
    The subject of a message about the value ``shown`` of the option
    ``name``: ```seed` (=-1)``, or, for an option written otherwise, the
    words written (```check generaton`: what to check``), never its internal name.

    EXAMPLES::

        sage: from sage_attention.catalog.options import _subject
        sage: _subject("seed", "-1"), _subject("what", "generaton")
        ('`seed` (=-1)', '`check generaton`: what to check')
    """
    if name in _WRITTEN_SUBJECT:
        return f"`{written(name, shown)}`: {_WRITTEN_SUBJECT[name]}"
    return f"`{name}` (={shown})"


#: How an option not written ``name = value`` is shown in the help (``describe``).
_DESCRIBED = {"degree": "up to degree N", "what": "check WHAT", "point": "point [c_1, ..., c_N]",
              "families": "family, family(key = value), ..."}

#: How each option of a statement is written, for the lists of options in messages and help.
WRITTEN_OPTION = {"degree": "`up to degree N`", "what": "`check invariants` or `check generation`",
                   "point": "`certify point [c_1, ..., c_N]`",
                   "families": "the families after the statement (e.g. `invariants pencil, "
                               "veronese(r = 2)`)"}


@dataclass(frozen=True)
class Option:
    r"""
    One option of a computation statement or of an invariant family.

    INPUT:

    - ``name`` -- string; the key written in the spec
    - ``kind`` -- ``"int"``, ``"choice"``, ``"point"`` (a list of numbers)
      or ``"families"`` (the family list of ``invariants``)
    - ``doc`` -- string; what it does
    - ``default`` -- (default: ``None``) the value ``run`` uses when the
      option is not written
    - ``default_doc`` -- (default: ``None``) how to print the default
    - ``minimum``, ``maximum`` -- (default: ``None``) bounds of an
      ``"int"``; ``maximum`` may be a function of the
      :class:`~sage_attention.dsl.spec.ModelSpec` returning ``(bound, why)``
    - ``choices`` -- (default: ``()``) the values of a ``"choice"``
    - ``keyword`` -- (default: ``name``) the keyword of the library call
      that receives the value

    EXAMPLES::

        sage: from sage_attention.catalog.options import Option
        sage: o = Option("seed", "int", "the random seed", minimum=0)
        sage: o.problem(3) is None, o.problem(True).message, o.problem("x").fix
        (True, '`seed` (=true) must be an integer >= 0', 'write an integer >= 0, e.g. `seed = 0`')
    """
    name: str
    kind: str
    doc: str = ""
    default: object = None
    default_doc: str = None
    minimum: int = None
    maximum: object = None
    choices: tuple = ()
    keyword: str = None
    maximum_doc: str = None

    def type_text(self):
        r"""
        Return what the value must be, in words.

        EXAMPLES::

            sage: from sage_attention.catalog.computations import COMPUTATIONS
            sage: COMPUTATIONS["check"].option("what").type_text()
            'one of invariants, generation'
        """
        if self.kind == "int":
            text = "an integer"
            if self.minimum is not None:
                text += f" >= {self.minimum}"
            if isinstance(self.maximum, int):
                text += f" and <= {self.maximum_doc or self.maximum}"
            return text
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "point":
            return "a non-empty list of numbers in brackets"
        return "a list of invariant families"

    def problem(self, value, model=None):
        r"""
        Return what is wrong with ``value`` (a :class:`Problem` about this
        option, with its fix), or ``None`` if it is valid.

        INPUT:

        - ``value`` -- the value as parsed (integer, fraction, word,
          boolean or tuple)
        - ``model`` -- (default: ``None``) the
          :class:`~sage_attention.dsl.spec.ModelSpec`, for bounds that
          depend on it

        EXAMPLES::

            sage: from sage_attention.catalog.families import FAMILIES
            sage: from sage_attention.dsl.spec import ModelSpec, Layer
            sage: m = ModelSpec("m", input=3, tokens=2, layers=(Layer(2, 3),))
            sage: r = FAMILIES["veronese"].option("r")
            sage: r.problem(2, m) is None
            True
            sage: r.problem(5, m)
            Problem(message='`r` (=5) must be at most 2 (min(d, a); larger r give no invariant)',
                    key='r', fix='write `r = 2` or less')
            sage: FAMILIES["sylvester"].option("lines").problem("all").fix
            'write `lines = generic` or `lines = coordinate`'
        """
        shown = format_value(value)
        subject = _subject(self.name, shown)
        if self.kind == "int":
            if isinstance(value, WrittenInt):
                # `seed = 1.0`, `up to degree 4/2`: an integer in another notation
                return Problem(f"{subject} must be written as an integer", self.name,
                               f"write `{written(self.name, int(value))}`")
            near = []
            if isinstance(value, Fraction):
                near = near_integers(value, self.minimum)       # `limit = 2.5`: 2 or 3
            value = _as_int(value)
            if value is None or (self.minimum is not None and value < self.minimum):
                examples = near or [1 if self.minimum is None else self.minimum]
                example = " or ".join(f"`{written(self.name, n)}`" for n in examples)
                return Problem(f"{subject} must be {self.type_text()}", self.name,
                               f"write {self.type_text()}, e.g. {example}")
            bound = self.maximum
            why = ""
            if callable(bound):
                if model is None:
                    return None
                bound, why = bound(model)
            if bound is not None and value > bound:
                fix = (f"write a value <= {self.maximum_doc}" if self.maximum_doc else
                       f"write `{written(self.name, bound)}` or less")
                return Problem(f"{subject} must be at most "
                               f"{self.maximum_doc or bound}" + (f" ({why})" if why else ""),
                               self.name, fix)
            return None
        if self.kind == "choice":
            if value not in self.choices:
                close = did_you_mean(value, self.choices) if isinstance(value, str) else ""
                choices = [close[len(" (did you mean `"):-len("`?)")]] if close else self.choices
                return Problem(f"{subject} must be {self.type_text()}{close}", self.name,
                               "write " + " or ".join(f"`{written(self.name, c)}`"
                                                      for c in choices))
            return None
        if self.kind == "point":
            if not isinstance(value, tuple) or not value:
                return Problem(f"{subject} must be {self.type_text()}", self.name,
                               f"write the values in brackets, e.g. "
                               f"`{written(self.name, '[1, -1/2, 0]')}`")
            return None
        if not (isinstance(value, tuple) and all(isinstance(v, tuple) and len(v) == 2
                                                 for v in value)):
            return Problem(f"`{self.name}` (={shown}) is not an option", self.name,
                           "list the families after the statement, e.g. "
                           "`invariants pencil, veronese(r = 2)`")
        return None

    def describe(self):
        r"""
        Return one line of documentation.

        EXAMPLES::

            sage: from sage_attention.catalog.computations import COMPUTATIONS
            sage: COMPUTATIONS["fibers"].option("seed").describe()
            'seed -- integer >= 0 and <= 2^64 - 1 (default: random); the seed of the random weights and inputs'

        An option not written ``name = value`` is shown as it is written::

            sage: COMPUTATIONS["invariants"].option("families").describe()
            'family, family(key = value), ... -- list of invariant families (default: every family that applies); the families to build, with their own options in parentheses'
        """
        default = self.default_doc or ("none" if self.default is None else str(self.default))
        kind = self.type_text()
        if kind.startswith("an "):
            kind = kind[3:]
        elif kind.startswith("a "):
            kind = kind[2:]
        return f"{_DESCRIBED.get(self.name, self.name)} -- {kind} (default: {default}); {self.doc}"


#: The option ``seed`` of the statements that draw random weights or points.
SEED_OPTION = Option("seed", "int", "the seed of the random weights and inputs", minimum=0,
                     maximum=MAX_SEED, maximum_doc="2^64 - 1", default_doc="random")


__all__ = ["Problem", "Option", "SEED_OPTION", "written", "plural", "WRITTEN", "WRITTEN_OPTION"]
