r"""
The table of computations

This module is the one place that declares what a ``compute`` block may
say: each computation statement with its options (their types, ranges and
defaults), the models it applies to (lightning or softmax, one layer or
deep, weight space, field) and the dotted name of the function that runs it
(resolved by :mod:`sage_attention.app.runners` only when the computation runs),
and each invariant family with its options.

``sage-attention check`` validates a spec against this table
(:func:`check_statement`), and ``sage-attention run`` reads its options
through the same table (:meth:`Computation.with_defaults`), so a statement
that passes ``check`` is never refused by ``run`` for a reason ``check``
could have seen. Like the rest of :mod:`sage_attention.dsl`, it imports no
Sage.

EXAMPLES::

    sage: from sage_attention.dsl.computations import COMPUTATIONS, FAMILIES
    sage: sorted(COMPUTATIONS)
    ['certify', 'check', 'dimension', 'fibers', 'invariants', 'vanishing_ideal']
    sage: print(COMPUTATIONS["vanishing_ideal"].describe())
    vanishing_ideal [up to degree N] [algorithm = ...]: the vanishing ideal, complete or through a degree (with dense layers: by elimination, small networks only)
      up to degree N -- integer >= 1 (default: none); interpolate through this degree (implies `algorithm = interpolation`)
      algorithm -- one of elimination, interpolation (default: interpolation through degree 4 with the whole-ideal proof; where it is not proved, up to 18 essential coordinates, the next degrees, then elimination); Singular's elimination (the whole ideal) or interpolation degree by degree
      applies to: lightning models with one head, no mask and no residual; and models with dense layers (algorithm = elimination)
    sage: COMPUTATIONS["vanishing_ideal"].runner
    'sage_attention.app.runners.run_vanishing_ideal'
    sage: sorted(FAMILIES)
    ['brill', 'chow', 'linear', 'low_rank', 'pencil', 'rank_one', 'rows',
     'single_token_low_rank', 'sylvester', 'syzygies', 'veronese']

An option checks its value and says what is wrong and how to fix it (a
:class:`Problem`)::

    sage: COMPUTATIONS["vanishing_ideal"].option("algorithm").problem("groebner")
    Problem(message='`algorithm` (=groebner) must be one of elimination, interpolation',
            key='algorithm', fix='write `algorithm = elimination` or `algorithm = interpolation`')
    sage: print(COMPUTATIONS["dimension"].option("seed").problem(-1).message)
    `seed` (=-1) must be an integer >= 0 and <= 2^64 - 1
"""
import operator
from dataclasses import dataclass
from typing import NamedTuple

from fractions import Fraction

from sage_attention.dsl.text import WrittenInt, did_you_mean, format_value, near_integers
from sage_attention.randomness import MAX_SEED


def _as_int(value):
    """The integer ``value`` (a Python or Sage integer), else ``None``."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def _plural(n, word):
    return f"{n} {word}{'s' * (n != 1)}"


class Problem(NamedTuple):
    r"""
    A problem of a computation statement: what is wrong, where, how to fix it.

    ``sage-attention check`` shows ``message`` at the option ``key`` (the
    statement when ``key`` is ``None``; ``"family:NAME"`` for a family) and
    ``fix`` on a last line ``fix: ...``, as for the errors of a model.

    EXAMPLES::

        sage: from sage_attention.dsl.computations import Problem
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
_WRITTEN = {"degree": "up to degree {}", "what": "check {}", "point": "certify point {}"}


def _written(name, value):
    """The option ``name`` with ``value``, as it is written in a statement."""
    return _WRITTEN.get(name, name + " = {}").format(value)


#: What an option not written ``name = value`` is, in a message about its value.
_WRITTEN_SUBJECT = {"degree": "the degree", "what": "what to check", "point": "the point"}


def _subject(name, shown):
    r"""
    The subject of a message about the value ``shown`` of the option
    ``name``: ```seed` (=-1)``, or, for an option written otherwise, the
    words written (```check generaton`: what to check``), never its internal name.

    EXAMPLES::

        sage: from sage_attention.dsl.computations import _subject
        sage: _subject("seed", "-1"), _subject("what", "generaton")
        ('`seed` (=-1)', '`check generaton`: what to check')
    """
    if name in _WRITTEN_SUBJECT:
        return f"`{_written(name, shown)}`: {_WRITTEN_SUBJECT[name]}"
    return f"`{name}` (={shown})"


#: How an option not written ``name = value`` is shown in the help (``describe``).
_DESCRIBED = {"degree": "up to degree N", "what": "check WHAT", "point": "point [c_1, ..., c_N]",
              "families": "family, family(key = value), ..."}

#: How each option of a statement is written, for the lists of options in messages and help.
_WRITTEN_OPTION = {"degree": "`up to degree N`", "what": "`check invariants` or `check generation`",
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

        sage: from sage_attention.dsl.computations import Option
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

            sage: from sage_attention.dsl.computations import COMPUTATIONS
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

            sage: from sage_attention.dsl.computations import FAMILIES
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
                               f"write `{_written(self.name, int(value))}`")
            near = []
            if isinstance(value, Fraction):
                near = near_integers(value, self.minimum)       # `limit = 2.5`: 2 or 3
            value = _as_int(value)
            if value is None or (self.minimum is not None and value < self.minimum):
                examples = near or [1 if self.minimum is None else self.minimum]
                example = " or ".join(f"`{_written(self.name, n)}`" for n in examples)
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
                       f"write `{_written(self.name, bound)}` or less")
                return Problem(f"{subject} must be at most "
                               f"{self.maximum_doc or bound}" + (f" ({why})" if why else ""),
                               self.name, fix)
            return None
        if self.kind == "choice":
            if value not in self.choices:
                close = did_you_mean(value, self.choices) if isinstance(value, str) else ""
                choices = [close[len(" (did you mean `"):-len("`?)")]] if close else self.choices
                return Problem(f"{subject} must be {self.type_text()}{close}", self.name,
                               "write " + " or ".join(f"`{_written(self.name, c)}`"
                                                      for c in choices))
            return None
        if self.kind == "point":
            if not isinstance(value, tuple) or not value:
                return Problem(f"{subject} must be {self.type_text()}", self.name,
                               f"write the values in brackets, e.g. "
                               f"`{_written(self.name, '[1, -1/2, 0]')}`")
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

            sage: from sage_attention.dsl.computations import COMPUTATIONS
            sage: COMPUTATIONS["fibers"].option("seed").describe()
            'seed -- integer >= 0 and <= 2^64 - 1 (default: random); the seed of the random weights and inputs'

        An option not written ``name = value`` is shown as it is written::

            sage: COMPUTATIONS["invariants"].option("families").describe()
            'family, family(key = value), ... -- list of invariant families (default: every family that applies); the families'
        """
        default = self.default_doc or ("none" if self.default is None else str(self.default))
        kind = self.type_text()
        if kind.startswith("an "):
            kind = kind[3:]
        elif kind.startswith("a "):
            kind = kind[2:]
        return f"{_DESCRIBED.get(self.name, self.name)} -- {kind} (default: {default}); {self.doc}"


@dataclass(frozen=True)
class Family:
    r"""
    An invariant family: its name, options and the function that builds it.

    EXAMPLES::

        sage: from sage_attention.dsl.computations import FAMILIES
        sage: FAMILIES["veronese"].function
        'sage_attention.invariants.veronese.veronese_invariants'
        sage: [o.name for o in FAMILIES["veronese"].options]
        ['r', 'limit']
    """
    name: str
    function: str
    options: tuple = ()
    doc: str = ""

    def option(self, name):
        r"""
        Return the option ``name`` (or ``None``).

        EXAMPLES::

            sage: from sage_attention.dsl.computations import FAMILIES
            sage: FAMILIES["linear"].option("limit") is None
            True
        """
        return next((o for o in self.options if o.name == name), None)


@dataclass(frozen=True)
class Computation:
    r"""
    A computation statement: options, the models it applies to, its runner.

    INPUT:

    - ``name`` -- the statement
    - ``runner`` -- dotted name of ``f(model, computation, options) -> dict``
    - ``options`` -- tuple of :class:`Option`
    - ``doc`` -- one line
    - ``syntax`` -- how the statement is written
    - ``normalizations`` -- the normalizations it supports (every layer)
    - ``one_layer`` -- boolean; only one-layer models
    - ``size_tasks`` -- the size-guard tasks (see
      :func:`sage_attention.sizes.check_size`)
    - ``extended`` -- boolean (default: ``False``); it also applies to
      models with several heads, a mask or residual connections
    - ``dense`` -- boolean (default: ``False``); it also applies to models
      with dense layers (:class:`~sage_attention.models.stack.LayerStack`)
    - ``dense_runner`` -- (default: ``""``: ``runner``) dotted name of the
      runner on models with dense layers
    - ``dense_options`` -- (default: ``None``: all) a dictionary ``{option:
      allowed values or None}`` of the options that apply on models with
      dense layers
    - ``dense_size_tasks`` -- (default: ``None``: ``size_tasks``) the
      size-guard tasks on models with dense layers

    EXAMPLES::

        sage: from sage_attention.dsl.computations import COMPUTATIONS
        sage: from sage_attention.dsl.spec import ModelSpec, Layer, Normalization
        sage: inv = COMPUTATIONS["invariants"]
        sage: deep = ModelSpec("m", input=3, tokens=2, layers=(Layer(2, 3), Layer(2, 3)))
        sage: inv.refusal(deep)
        '`invariants` needs a model with one layer; `m` has 2 layers'
        sage: COMPUTATIONS["dimension"].refusal(deep) is None
        True
    """
    name: str
    runner: str
    options: tuple = ()
    doc: str = ""
    syntax: str = ""
    normalizations: tuple = ("lightning", "softmax")
    one_layer: bool = False
    size_tasks: tuple = ()
    extended: bool = False
    dense: bool = False
    dense_runner: str = ""
    dense_options: object = None
    dense_size_tasks: tuple = None

    def runner_for(self, model):
        r"""
        Return the dotted name of the runner of this statement on ``model`` (a model spec).

        EXAMPLES::

            sage: from sage_attention.dsl import parse_spec
            sage: from sage_attention.dsl.computations import COMPUTATIONS
            sage: pnn = parse_spec("model p { input = 2; layer dense(out = 2, activation = power(2)); "
            ....:                  "layer dense(out = 1) }").models[0]
            sage: COMPUTATIONS["vanishing_ideal"].runner_for(pnn)
            'sage_attention.app.runners.run_stack_vanishing_ideal'
        """
        if self.dense_runner and model is not None and model.has_dense_layers():
            return self.dense_runner
        return self.runner

    def size_tasks_for(self, model):
        r"""
        Return the size-guard tasks of this statement on ``model`` (a model spec).

        EXAMPLES::

            sage: from sage_attention.dsl import parse_spec
            sage: from sage_attention.dsl.computations import COMPUTATIONS
            sage: pnn = parse_spec("model p { input = 2; layer dense(out = 1, activation = power(3)); "
            ....:                  "layer dense(out = 1) }").models[0]
            sage: COMPUTATIONS["vanishing_ideal"].size_tasks_for(pnn)
            ('coordinates', 'elimination', 'stack elimination')
        """
        if self.dense_size_tasks is not None and model.has_dense_layers():
            return self.dense_size_tasks
        return self.size_tasks

    def option(self, name):
        r"""
        Return the option ``name`` (or ``None``).

        EXAMPLES::

            sage: from sage_attention.dsl.computations import COMPUTATIONS
            sage: COMPUTATIONS["dimension"].option("method") is None
            True
        """
        return next((o for o in self.options if o.name == name), None)

    @property
    def option_names(self):
        r"""
        Return the names of the options, in order.

        EXAMPLES::

            sage: from sage_attention.dsl.computations import COMPUTATIONS
            sage: COMPUTATIONS["certify"].option_names
            ('point', 'seed')
        """
        return tuple(o.name for o in self.options)

    def refusal(self, model):
        r"""
        Return why this computation does not apply to ``model``, or ``None``.

        EXAMPLES::

            sage: from sage_attention.dsl.computations import COMPUTATIONS
            sage: from sage_attention.dsl.spec import ModelSpec, Layer, Normalization
            sage: soft = ModelSpec("s", input=2, tokens=2,
            ....:                  layers=(Layer(1, 1, Normalization.SOFTMAX),))
            sage: COMPUTATIONS["vanishing_ideal"].refusal(soft)
            '`vanishing_ideal` needs lightning layers (polynomial); `s` has softmax normalization'
            sage: gpt = ModelSpec("g", input=2, tokens=2, layers=(Layer(1, 2, heads=2, mask="causal"),))
            sage: COMPUTATIONS["invariants"].refusal(gpt)
            '`invariants` needs a model with one head, no mask and no residual; `g` has several heads and a mask (on such models use dimension or fibers)'
            sage: COMPUTATIONS["dimension"].refusal(gpt) is None
            True
            sage: from sage_attention.dsl.spec import DenseLayer
            sage: pnn = ModelSpec("p", input=2, layers=(DenseLayer(3, "power", 2), DenseLayer(1)))
            sage: COMPUTATIONS["certify"].refusal(pnn)
            '`certify` needs attention layers only; `p` has dense layers (on such models use dimension or fibers or vanishing_ideal)'
        """
        problem = self.refusal_problem(model)
        if problem is None:
            return None
        return problem.message + (f" ({problem.fix})" if problem.fix else "")

    def refusal_problem(self, model, statement=None):
        r"""
        Return why this computation does not apply to ``model``, as a
        :class:`Problem` (its fix names the statements that apply), or ``None``.

        INPUT:

        - ``model`` -- a :class:`~sage_attention.dsl.spec.ModelSpec`
        - ``statement`` -- (default: the computation's name) the statement
          as written, named in the message (e.g. ``check generation``)

        EXAMPLES::

            sage: from sage_attention.dsl.computations import COMPUTATIONS
            sage: from sage_attention.dsl.spec import ModelSpec, Layer
            sage: gpt = ModelSpec("g", input=2, tokens=2, layers=(Layer(1, 2, heads=2),))
            sage: COMPUTATIONS["invariants"].refusal_problem(gpt)
            Problem(message='`invariants` needs a model with one head, no mask and no residual; `g` has several heads',
                    key=None, fix='on such models use dimension or fibers')

        A statement that needs one layer says so too, and names itself as written::

            sage: deep = ModelSpec("g", input=2, tokens=2, layers=(Layer(1, 2, residual=True),
            ....:                                                  Layer(1, 2, residual=True)))
            sage: COMPUTATIONS["check"].refusal_problem(deep, statement="check generation").message
            '`check generation` needs a model with one layer, one head, no mask and no residual; `g` has 2 layers and residual connections'
        """
        name = statement or self.name
        if not self.dense and model.has_dense_layers():
            can = " or ".join(n for n, c in COMPUTATIONS.items() if c.dense)
            return Problem(f"`{name}` needs attention layers only; `{model.name}` has dense "
                           "layers", None, f"on such models use {can}")
        if not self.extended and not model.is_plain() and not model.has_dense_layers():
            # (with dense layers the model is a stack, computed as a whole)
            deep = self.one_layer and len(model.layers) != 1
            what = [w for w, ok in ((_plural(len(model.layers), 'layer'), deep),
                                    ("several heads", any(h != 1 for h in model.heads)),
                                    ("a mask", any(la.mask != "none" for la in model.layers)),
                                    ("residual connections",
                                     any(la.residual is not False for la in model.layers)))
                    if ok]
            can = " or ".join(n for n, c in COMPUTATIONS.items() if c.extended)
            return Problem(f"`{name}` needs a model with {'one layer, ' if deep else ''}one head, no "
                           f"mask and no residual; `{model.name}` has {' and '.join(what)}", None,
                           f"on such models use {can}")
        if self.one_layer and len(model.layers) != 1:
            return Problem(f"`{name}` needs a model with one layer; `{model.name}` has "
                           f"{_plural(len(model.layers), 'layer')}")
        bad = sorted(set(model.normalizations) - set(self.normalizations))
        if bad:
            return Problem(f"`{name}` needs {' or '.join(self.normalizations)} layers "
                           f"(polynomial); `{model.name}` has {', '.join(bad)} normalization")
        return None

    def with_defaults(self, options):
        r"""
        Return the options of a statement with the default of every option
        that is not written.

        EXAMPLES::

            sage: from sage_attention.dsl.computations import COMPUTATIONS
            sage: sorted(COMPUTATIONS["check"].with_defaults({"seed": 2}).items())
            [('families', None), ('seed', 2), ('what', 'invariants')]
        """
        out = {o.name: o.default for o in self.options}
        out.update(options)
        return out

    def describe(self):
        r"""
        Return the documentation of this statement.

        EXAMPLES::

            sage: from sage_attention.dsl.computations import COMPUTATIONS
            sage: print(COMPUTATIONS["dimension"].describe())
            dimension: the dimension of the neurovariety (generic rank of the Jacobian)
              seed -- integer >= 0 and <= 2^64 - 1 (default: random); the seed of the random weights and inputs
              applies to: every model
        """
        lines = [f"{self.syntax or self.name}: {self.doc}"]
        # (the families of `check` are those of the block's `invariants`: not written)
        lines += ["  " + o.describe() for o in self.options
                  if not (o.name == "families" and self.name != "invariants")]
        where = []
        if tuple(self.normalizations) != ("lightning", "softmax"):
            where.append(" or ".join(self.normalizations))
        if self.one_layer:
            where.append("one-layer")
        text = " ".join(where) + " models" if where else "every model"
        if not self.extended:
            text = (text if where else "models") + " with one head, no mask and no residual"
        if self.dense and text != "every model":
            text += "; and models with dense layers"
            if self.dense_options is not None:
                text += " (" + (", ".join(f"{k} = {' or '.join(v)}" if v else k
                                          for k, v in self.dense_options.items()) or "no options") + ")"
        lines.append("  applies to: " + text)
        return "\n".join(lines)


def _veronese_bound(model):
    d, a = model.input, model.layers[0].rank if model.layers else None
    if d is None or a is None:
        return None, ""
    return min(d, a), "min(d, a); larger r give no invariant"



_SEED = Option("seed", "int", "the seed of the random weights and inputs", minimum=0,
               maximum=MAX_SEED, maximum_doc="2^64 - 1", default_doc="random")
_LIMIT = Option("limit", "int", "stop after this many invariants", minimum=1,
                default_doc="no limit")
_MAX_MINORS = Option("max_minors", "int", "refuse when there are more minors than this",
                     minimum=1, default_doc="the family's own")

#: The invariant families, by name (:ref:`mathematics, §3 <math-3>` and 4).
FAMILIES = {f.name: f for f in (
    Family("linear", "sage_attention.invariants.linear.linear_invariants",
           doc="the linear relations"),
    Family("low_rank", "sage_attention.invariants.low_rank.low_rank_invariants", (_LIMIT,),
           "the (a+1)-minors of each flattening"),
    Family("pencil", "sage_attention.invariants.pencil.pencil_invariants", (_LIMIT,),
           "the cubic pencil invariants"),
    Family("syzygies", "sage_attention.invariants.syzygies.context_syzygies",
           doc="the context syzygies"),
    Family("veronese", "sage_attention.invariants.veronese.veronese_invariants",
           (Option("r", "int", "the size of the index sets (degree 2r)", minimum=2,
                   maximum=_veronese_bound, default_doc="every admissible r"), _LIMIT),
           "the Veronese-type invariants"),
    Family("sylvester", "sage_attention.invariants.sylvester.sylvester_invariants",
           (Option("lines", "choice", "which lines the quadrics are restricted to",
                   choices=("generic", "coordinate"), default_doc="generic for d <= 3"),
            Option("seed", "int", "the seed of the generic lines", minimum=0, maximum=MAX_SEED,
                   maximum_doc="2^64 - 1", default=0)),
           "the Sylvester resultants of the slice quadrics"),
    Family("rank_one", "sage_attention.invariants.rank_one.rank_one_invariants", (_LIMIT,),
           "the invariants that cut out the rank-one neurovariety"),
    Family("chow", "sage_attention.invariants.chow.chow_invariants", (_LIMIT, _MAX_MINORS),
           "the Chow (split 2+1) invariants (t = 1)"),
    Family("single_token_low_rank",
           "sage_attention.invariants.chow.single_token_low_rank_invariants", (_LIMIT,),
           "the (2a+2)-minors of each output row (t = 1)"),
    Family("rows", "sage_attention.invariants.rows.row_coupling_invariants",
           (_LIMIT, _MAX_MINORS), "the invariants that tie pairs of output rows"),
    Family("brill", "sage_attention.invariants.brill.brill_invariants",
           (_LIMIT, Option("seed", "int", "the seed of the evaluation points", minimum=0,
                           maximum=MAX_SEED, maximum_doc="2^64 - 1", default=0)),
           "Brill's equations: the cubic is a product of three linear forms (t = 1, a = 1)"),
)}

#: The family name that stands for every family (except ``rank_one``).
ALL_FAMILIES = "all"


def distinct_families(families):
    r"""
    Return the families that ``families`` names, each family once.

    A family may be named more than once in a statement, e.g. by
    ``invariants all, brill`` (``all`` stands for every family except
    ``rank_one``, ``brill`` among them) or by ``invariants`` and ``check``
    statements of one ``compute`` block. It is built once:

    - a family named explicitly is built with its explicit options, not by
      ``all`` (``invariants brill(limit = 3), all`` builds ``brill`` with
      ``limit = 3``, and ``all`` the other families);
    - a family named explicitly twice gets the options of both mentions, a
      later value of the same option winning
      (``brill(limit = 2), brill(limit = 3, seed = 1)`` is
      ``brill(limit = 3, seed = 1)``);
    - ``all`` named twice is one ``all``.

    The families keep the place of their first mention.

    INPUT:

    - ``families`` -- ``None`` or a sequence of pairs ``(name, options)``,
      ``options`` a sequence of pairs ``(key, value)``, as in the option
      ``families`` of ``invariants`` and ``check``

    OUTPUT: a pair ``(chosen, rest)``: ``chosen`` a tuple of pairs ``(name,
    options)``, each name once (:data:`ALL_FAMILIES` included, when named
    or when ``families`` is empty), and ``rest`` the tuple of the families
    that :data:`ALL_FAMILIES` stands for here: those it names that are not
    named explicitly (empty when ``chosen`` has no :data:`ALL_FAMILIES`)

    EXAMPLES::

        sage: from sage_attention.dsl.computations import distinct_families
        sage: chosen, rest = distinct_families((("all", ()), ("brill", ())))
        sage: chosen, "brill" in rest, "low_rank" in rest
        ((('all', ()), ('brill', ())), False, True)
        sage: distinct_families((("brill", (("limit", 2),)), ("pencil", ()),
        ....:                    ("brill", (("limit", 3), ("seed", 1)))))
        ((('brill', (('limit', 3), ('seed', 1))), ('pencil', ())), ())
        sage: chosen, rest = distinct_families(None)
        sage: chosen, rest[:3]
        ((('all', ()),), ('linear', 'low_rank', 'pencil'))
    """
    chosen = {}
    for name, options in (families or ((ALL_FAMILIES, ()),)):
        chosen.setdefault(name, {}).update(dict(options))
    chosen = tuple((name, tuple(opts.items())) for name, opts in chosen.items())
    rest = ()
    if ALL_FAMILIES in dict(chosen):
        rest = tuple(n for n in FAMILIES if n != "rank_one" and n not in dict(chosen))
    return chosen, rest

_FAMILIES_OPTION = Option("families", "families", "the families", default=None,
                          default_doc="every family that applies")

#: The computation statements, by name.
COMPUTATIONS = {c.name: c for c in (
    Computation("dimension", "sage_attention.app.runners.run_dimension", (_SEED,),
                "the dimension of the neurovariety (generic rank of the Jacobian)",
                size_tasks=("jacobian",), extended=True, dense=True),
    Computation("fibers", "sage_attention.app.runners.run_fibers", (_SEED,),
                "the generic fiber and the symmetries of the weights",
                size_tasks=("jacobian",), extended=True, dense=True),
    Computation("invariants", "sage_attention.app.runners.run_invariants",
                (_FAMILIES_OPTION, _SEED),
                "build invariant families (`seed` goes to the families that take one and "
                "have no `seed` of their own: `brill(seed = 1)` keeps 1)",
                syntax="invariants [family, family(key = value), ...]",
                normalizations=("lightning",), one_layer=True, size_tasks=("coordinates",)),
    Computation("check", "sage_attention.app.runners.run_check",
                (Option("what", "choice", "what to check: `invariants` (every member "
                        "vanishes on the neurovariety) or `generation` (do the families "
                        "generate its vanishing ideal?)", default="invariants",
                        choices=("invariants", "generation")),
                 _FAMILIES_OPTION, _SEED),
                "test that the families of the block vanish on the neurovariety, or "
                "whether they generate its vanishing ideal",
                syntax="check invariants | check generation",
                normalizations=("lightning",), one_layer=True,
                size_tasks=("coordinates", "parametrization")),
    Computation("vanishing_ideal", "sage_attention.app.runners.run_vanishing_ideal",
                (Option("degree", "int",
                        "interpolate through this degree (implies `algorithm = interpolation`)",
                        minimum=1),
                 Option("algorithm", "choice", "Singular's elimination (the whole ideal) or "
                        "interpolation degree by degree", choices=("elimination", "interpolation"),
                        default_doc="interpolation through degree 4 with the whole-ideal "
                                    "proof; where it is not proved, up to 18 essential "
                                    "coordinates, the next degrees, then elimination")),
                "the vanishing ideal, complete or through a degree (with dense layers: "
                "by elimination, small networks only)",
                syntax="vanishing_ideal [up to degree N] [algorithm = ...]",
                normalizations=("lightning",), size_tasks=("coordinates", "elimination"),
                dense=True, dense_runner="sage_attention.app.runners.run_stack_vanishing_ideal",
                dense_options={"algorithm": ("elimination",)},
                dense_size_tasks=("coordinates", "elimination", "stack elimination")),
    Computation("certify", "sage_attention.app.runners.run_certify",
                (Option("point", "point", "the value of every coordinate, in the order of "
                        "the coordinate ring"), _SEED),
                "is the coefficient point realizable by weights?",
                syntax="certify point [c_1, ..., c_N]",
                normalizations=("lightning",), one_layer=True, size_tasks=("coordinates",)),
)}


def check_statement(comp, model):
    r"""
    Return the problems of the computation statement ``comp`` on ``model``.

    INPUT:

    - ``comp`` -- a :class:`sage_attention.dsl.spec.Computation`
    - ``model`` -- its :class:`~sage_attention.dsl.spec.ModelSpec`

    OUTPUT: a list of :class:`Problem` ``(message, key, fix)``, where
    ``key`` is the option the message is about (``None`` for the
    statement) and ``fix`` how to repair it (or ``None``), in source order.

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.dsl.computations import check_statement
        sage: s = parse_spec("model m { input = 3; tokens = 2; layer attention(rank = 2, out = 1) }\n"
        ....:                "compute m { vanishing_ideal up to degree 3 algorithm = elimination }")
        sage: check_statement(s.computations[0], s.models[0])
        [Problem(message='`up to degree 3` asks for interpolation, but `algorithm = elimination`
                          computes the whole ideal',
                 key='algorithm', fix='drop one of them')]
        sage: s = parse_spec("model m { input = 3; tokens = 2; layer attention(rank = 2, out = 1) }\n"
        ....:                "compute m { invariants veronese(r = 3, foo = 1) }")
        sage: for msg, key, fix in check_statement(s.computations[0], s.models[0]):
        ....:     print(f"{msg} -- fix: {fix}")
        family `veronese`: `r` (=3) must be at most 2 (min(d, a); larger r give no invariant) -- fix: write `r = 2` or less
        family `veronese` has no option `foo` -- fix: use one of its options: r, limit
    """
    decl = COMPUTATIONS.get(comp.name)
    if decl is None:
        close = did_you_mean(comp.name, COMPUTATIONS)
        return [Problem(f"unknown computation `{comp.name}`{close}", None,
                        f"write `{close[len(' (did you mean `'):-len('`?)')]}`" if close else
                        f"use one of: {', '.join(sorted(COMPUTATIONS))}")]
    problems = []
    seen = set()
    for key, _ in comp.options:
        option = decl.option(key)
        if option is None:
            problems.append(Problem(f"`{comp.name}` has no option `{key}`"
                                    f"{did_you_mean(key, decl.option_names)}", key,
                                    _statement_options_fix(decl, key)))
        elif key in seen:
            what = (f"`{_WRITTEN[key].format('N' if key == 'degree' else '...')}`"
                    if key in _WRITTEN else f"option `{key}`")
            problems.append(Problem(f"{what} of `{comp.name}` is given twice", key,
                                    "keep one"))
        seen.add(key)
    if problems:
        return problems
    what = dict(comp.options).get("what") if comp.name == "check" else None
    refusal = decl.refusal_problem(model, statement=f"check {what}" if what else None)
    if refusal:
        return [refusal]
    opts = dict(comp.options)
    if decl.dense_options is not None and model.has_dense_layers():
        for key, value in comp.options:
            allowed = decl.dense_options.get(key, ())
            if key not in decl.dense_options or (allowed is not None and value not in allowed):
                what = f"`{_written(key, value)}`"
                problems.append(Problem(f"{what} does not apply to `{model.name}`, which has "
                                        f"dense layers: there `{comp.name}` eliminates the "
                                        "weights (the whole ideal)", key, f"drop {what}"))
        if problems:
            return problems
    for key, value in comp.options:
        option = decl.option(key)
        problem = option.problem(value, model)
        if option.kind == "families" and not problem:
            problems += _family_problems(value, model)
            continue
        if problem:
            problems.append(problem)
    if problems:
        return problems
    if comp.name == "vanishing_ideal" and "degree" in opts and \
            opts.get("algorithm") == "elimination":
        problems.append(Problem(f"`up to degree {opts['degree']}` asks for interpolation, but "
                                "`algorithm = elimination` computes the whole ideal",
                                "algorithm", "drop one of them"))
    problems += field_problems(comp.name, opts, model)
    if problems:
        return problems
    if comp.name == "certify" and model.field.kind == "GF" and model.field.p:
        p = model.field.p
        bad = [v for v in opts["point"] if getattr(v, "denominator", 1) % p == 0]
        if bad:
            problems.append(Problem(f"the value {format_value(bad[0])} is not defined over "
                                    f"GF({p}): its denominator is divisible by {p}", "point",
                                    f"write values whose denominators are prime to {p}"))
    if comp.name == "certify" and len(model.layers) == 1 and None not in model.widths:
        n = model.size_estimate().coordinates
        k = len(opts["point"])
        if k != n:
            problems.append(Problem(f"the point has {_plural(k, 'value')}; model "
                                    f"`{model.name}` has {_plural(n, 'coordinate')}", "point",
                                    "list the value of every coordinate, in the order of the "
                                    "coordinate ring"))
    return problems


def written_options(decl):
    r"""
    Return how each option of the statement ``decl`` (a :class:`Computation`)
    is written in a spec, in order (the ``families`` of ``check`` are those
    of the block's ``invariants`` statements, not written).

    EXAMPLES::

        sage: from sage_attention.dsl.computations import COMPUTATIONS, written_options
        sage: written_options(COMPUTATIONS["invariants"])
        ['the families after the statement (e.g. `invariants pencil, veronese(r = 2)`)', '`seed = N`']
        sage: written_options(COMPUTATIONS["vanishing_ideal"])
        ['`up to degree N`', '`algorithm = elimination` or `algorithm = interpolation`']
    """
    out = []
    for o in decl.options:
        if o.name == "families" and decl.name != "invariants":
            continue
        if o.name in _WRITTEN_OPTION:
            out.append(_WRITTEN_OPTION[o.name])
        elif o.kind == "choice":
            out.append(" or ".join(f"`{o.name} = {c}`" for c in o.choices))
        else:
            out.append(f"`{o.name} = N`")
    return out


def _statement_options_fix(decl, key):
    """The fix of an option ``key`` that the statement ``decl`` does not have."""
    names = written_options(decl)
    fix = f"use one of its options: {'; '.join(names)}" if names else \
        f"drop `{key} = ...`: `{decl.name}` has no options"
    takes = [f for f, fam in FAMILIES.items() if fam.option(key)]
    if decl.name == "invariants" and takes:
        # `invariants limit = 3`: an option of a family, written in its parentheses
        fix = (f"`{key}` is an option of a family, written in its parentheses, e.g. "
               f"`invariants {takes[0]}({key} = ...)`; or " + fix)
    return fix


def _options_fix(owner, key, names):
    """The fix of an option ``key`` that ``owner`` (a statement or a family) does not have."""
    if names:
        return f"use one of its options: {', '.join(names)}"
    return f"drop `{key} = ...`: {owner} has no options"


def field_tasks(name, options, model):
    r"""
    Return the field rules (keys of :data:`sage_attention.fields.RULES`) that
    the statement ``name`` with ``options`` needs on ``model``, with the
    option each is about.

    ``vanishing_ideal`` without an algorithm chooses as ``run`` does:
    elimination up to :data:`ELIMINATION_DEFAULT_LIMIT` essential
    coordinates, else interpolation.

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.dsl.computations import field_tasks
        sage: m = parse_spec("model m { input = 3; tokens = 1; layer attention(rank = 1, out = 1) }").models[0]
        sage: field_tasks("vanishing_ideal", {}, m), field_tasks("invariants", {"families": None}, m)
        ([('elimination', None)], [('invariants', None), ('brill', 'families')])
    """
    if name in ("dimension", "fibers", "certify"):
        return [(name, None)]
    if name == "vanishing_ideal":
        algorithm = options.get("algorithm")
        if algorithm is None and model.has_dense_layers():
            algorithm = "elimination"       # the only algorithm there
        if algorithm is None:
            if options.get("degree") is not None:
                algorithm = "interpolation"
            elif None in model.widths:
                return []
            else:
                n = model.size_estimate().essential_coordinates
                algorithm = "elimination" if n <= ELIMINATION_DEFAULT_LIMIT else "interpolation"
        return [(algorithm, "algorithm" if "algorithm" in options else None)]
    if name == "check" and options.get("what") == "generation":
        return [("generation", "what")]
    if name in ("invariants", "check"):
        families = options.get("families")
        names = [n for n, _ in families] if families else [ALL_FAMILIES]
        tasks = [("invariants", None)]
        brill_applies = (len(model.layers) == 1 and model.tokens == 1
                         and model.layers[0].rank == 1)
        if "brill" in names or (ALL_FAMILIES in names and brill_applies):
            tasks.append(("brill", "families"))
        return tasks
    return []


def field_problems(name, options, model):
    r"""
    Return the problems of the field of ``model`` for the statement ``name``
    (the rules of :mod:`sage_attention.fields`, which the library calls apply too).

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec
        sage: from sage_attention.dsl.computations import field_problems
        sage: m = parse_spec("model m { field = GF(2); input = 3; tokens = 1; layer attention(rank = 1, out = 1) }").models[0]
        sage: field_problems("certify", {}, m)
        [Problem(message='`certify` needs a base field of characteristic 0 or > 3, not GF(2): the coordinates and the fiber divide by 2 and 3',
                 key=None, fix=None)]
    """
    from sage_attention.fields import refusal, spec_field_info
    field = spec_field_info(model.field)
    out = []
    for task, key in field_tasks(name, options, model):
        what = {"generation": "`check generation`", "brill": "the family `brill`",
                "elimination": "`vanishing_ideal` by elimination",
                "interpolation": "`vanishing_ideal` by interpolation"}.get(task, f"`{name}`")
        why = refusal(task, field, what)
        if why:
            out.append(Problem(why, key))
    return out


#: ``vanishing_ideal`` without ``algorithm`` interpolates with the whole-ideal
#: proof, and up to this many essential coordinates eliminates when the proof
#: fails or the field does not allow interpolation (the library's choice,
#: :data:`sage_attention.sizes.ELIMINATION_DEFAULT_LIMIT`): so up to it the
#: field must allow elimination.
from sage_attention.sizes import ELIMINATION_DEFAULT_LIMIT  # noqa: E402  (one number, also read by the library)


def _inapplicable(fam, model, keys=None):
    r"""
    Return why the family ``fam`` does not apply to ``model`` -- an option
    of it (among ``keys``, default all) has no admissible value there (its
    model-dependent bound is below its minimum) -- or ``None``.

    Without the option (``invariants veronese``) the family is built with
    every admissible value: none, so no member.

    EXAMPLES::

        sage: from sage_attention.dsl.computations import FAMILIES, _inapplicable
        sage: from sage_attention.dsl.spec import ModelSpec, Layer
        sage: m = ModelSpec("m", input=3, tokens=1, layers=(Layer(1, 1),))
        sage: _inapplicable(FAMILIES["veronese"], m)
        'it needs min(d, a) >= 2 (its `r` is at least 2 and at most min(d, a)), and min(d, a) = 1 here'
        sage: _inapplicable(FAMILIES["veronese"], ModelSpec("m", input=3, tokens=1, layers=(Layer(2, 1),))) is None
        True
    """
    for o in fam.options:
        if o.kind != "int" or not callable(o.maximum) or o.minimum is None or \
                (keys is not None and o.name not in keys):
            continue
        bound, why = o.maximum(model)
        if bound is not None and bound < o.minimum:
            expr = why.partition(";")[0] or "its bound"     # `min(d, a); larger r give ...`
            return (f"it needs {expr} >= {o.minimum} (its `{o.name}` is at least {o.minimum} "
                    f"and at most {expr}), and {expr} = {bound} here")
    return None


def _family_problems(families, model):
    names = list(FAMILIES) + [ALL_FAMILIES]
    out = []
    for name, options in families:
        fam = FAMILIES.get(name)
        if fam is None and name != ALL_FAMILIES:
            out.append(Problem(f"unknown invariant family `{name}`{did_you_mean(name, names)}",
                               f"family:{name}", f"use one of: {', '.join(names)}"))
            continue
        known = fam.options if fam else ()
        if fam is not None and options:
            # an option written with no admissible value (`veronese(r = 2)` where
            # min(d, a) = 1): the family does not apply, whatever the value
            unfit = _inapplicable(fam, model, [k for k, _ in options])
            if unfit:
                written = f"{name}(" + ", ".join(f"{k} = {format_value(v)}"
                                                 for k, v in options) + ")"
                out.append(Problem(f"family `{name}` does not apply to model `{model.name}`: "
                                   f"{unfit}", f"family:{name}",
                                   f"drop `{written}` (`invariants` alone builds every "
                                   "family that applies)"))
                continue
        seen = set()
        for key, value in options:
            option = fam.option(key) if fam else None
            if option is None:
                out.append(Problem(f"family `{name}` has no option `{key}`"
                                   f"{did_you_mean(key, [o.name for o in known])}",
                                   f"family:{name}",
                                   _options_fix(f"family `{name}`", key,
                                                [o.name for o in known])))
                continue
            if key in seen:
                out.append(Problem(f"option `{key}` of family `{name}` is given twice",
                                   f"family:{name}", "keep one"))
            seen.add(key)
            problem = option.problem(value, model)
            if problem:
                out.append(problem._replace(message=f"family `{name}`: {problem.message}",
                                            key=f"family:{name}"))
    return out


def statement_options(name):
    r"""
    Return the option names of the statement ``name`` (empty if unknown).

    EXAMPLES::

        sage: from sage_attention.dsl.computations import statement_options
        sage: statement_options("vanishing_ideal")
        ('degree', 'algorithm')
    """
    decl = COMPUTATIONS.get(name)
    return decl.option_names if decl else ()


def register(computation):
    r"""
    Add the :class:`Computation` ``computation`` to the table.

    EXAMPLES::

        sage: from sage_attention.dsl.computations import register, Computation, COMPUTATIONS
        sage: register(Computation("hello", "builtins.print", doc="say hello"))
        sage: COMPUTATIONS.pop("hello").doc
        'say hello'
    """
    if not isinstance(computation, Computation):
        raise TypeError(f"computation (={computation!r}) must be a Computation")
    COMPUTATIONS[computation.name] = computation


def describe_all():
    r"""
    Return the reference of every statement and family (for ``--help``
    and the documentation).

    EXAMPLES::

        sage: from sage_attention.dsl.computations import describe_all
        sage: print(describe_all())
        dimension: the dimension of the neurovariety (generic rank of the Jacobian)
        ...
        invariant families: linear, low_rank(limit), pencil(limit), syzygies, veronese(r, limit), ...
    """
    parts = [c.describe() for c in COMPUTATIONS.values()]
    fams = []
    for f in FAMILIES.values():
        opts = ", ".join(o.name for o in f.options)
        fams.append(f"{f.name}({opts})" if opts else f.name)
    parts.append("invariant families: " + ", ".join(fams) + f", {ALL_FAMILIES}")
    return "\n".join(parts)


__all__ = ["Problem", "Option", "Family", "Computation", "COMPUTATIONS", "FAMILIES", "ALL_FAMILIES",
           "distinct_families", "check_statement", "field_tasks", "field_problems",
           "statement_options", "register", "describe_all"]
