r"""
The table of computations

This module is the one place that declares what a ``compute`` block may
say: each computation statement with its options (their types, ranges and
defaults), the models it applies to (lightning or softmax, one layer or
deep, weight space, field) and the dotted name of the function that runs it
(resolved by :mod:`sage_attention.app.runners` only when the computation runs).
The options are :class:`~sage_attention.catalog.options.Option` records
(:mod:`sage_attention.catalog.options`), and the invariant families that
``invariants`` builds have their own table,
:data:`~sage_attention.catalog.families.FAMILIES` (both importable from here too).

``sage-attention check`` validates a spec against this table
(:func:`check_statement`), and ``sage-attention run`` reads its options
through the same table (:meth:`Computation.with_defaults`), so a statement
that passes ``check`` is never refused by ``run`` for a reason ``check``
could have seen. Like the rest of :mod:`sage_attention.catalog`, it imports no
Sage.

EXAMPLES::

    sage: from sage_attention.catalog.computations import COMPUTATIONS, FAMILIES
    sage: sorted(COMPUTATIONS)
    ['certify', 'check', 'critical_points', 'decision_boundary', 'dimension', 'ed_degree', 'fibers',
     'invariants', 'vanishing_ideal']
    sage: print(COMPUTATIONS["vanishing_ideal"].describe())
    vanishing_ideal [up to degree N] [algorithm = ...]: the vanishing ideal, complete or through a degree (networks with biases or residual streams: by elimination, small networks only)
      up to degree N -- integer >= 1 (default: none); interpolate through this degree (implies `algorithm = interpolation`)
      algorithm -- one of elimination, interpolation (default: interpolation through degree 4 with the whole-ideal proof; where it is not proved, up to 18 essential coordinates, the next degrees, then elimination); Singular's elimination (the whole ideal) or interpolation degree by degree
      count -- one of exact, engine (default: the exact recount when it is small, else the engine's counts); the minimal generators after an interpolation: recounted exactly over QQ, or the engine's counts (exact in the lowest degree, certified modulo a prime above it); elimination counts exactly
      applies to: lightning models with one head, no mask and no residual; and models with dense layers
    sage: COMPUTATIONS["vanishing_ideal"].runner
    'sage_attention.app.ideal_runners.run_vanishing_ideal'
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
from dataclasses import dataclass

from sage_attention.settings import moved_to_settings
from sage_attention.misc.text import did_you_mean, format_value
# the options and the families have their own modules; their names stay importable from here
from sage_attention.catalog.options import (SEED_OPTION, WRITTEN, WRITTEN_OPTION,  # noqa: F401
                                            Option, Problem, plural, written)
from sage_attention.catalog.families import (ALL_FAMILIES, FAMILIES, Family,  # noqa: F401
                                             distinct_families, family_problems)
from sage_attention.catalog.metric_options import (BOUNDARY_METRIC_OPTION, DATA_OPTION, METRIC_OPTION,
                                                    NO_POINT_DATA_OPTION, OUTPUTS_OPTION, PROJECTIVE_OPTION,
                                                    SPURIOUS_OPTION, THRESHOLD_OPTION)
# the field rules of the statements have their own module; their names stay importable from here
from sage_attention.catalog.field_rules import (field_problems, field_tasks,  # noqa: F401
                                                frobenius_problems)

# the number of essential coordinates up to which ``vanishing_ideal`` eliminates by default is
# settings.ELIMINATION_DEFAULT_LIMIT; the old name reads it
__getattr__ = moved_to_settings(__name__, {"ELIMINATION_DEFAULT_LIMIT": "ELIMINATION_DEFAULT_LIMIT"})


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
      :func:`sage_attention.catalog.costs.check_size`)
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

        sage: from sage_attention.catalog.computations import COMPUTATIONS
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
            sage: from sage_attention.catalog.computations import COMPUTATIONS
            sage: pnn = parse_spec("model p { input = 2; layer dense(out = 2, activation = power(2)); "
            ....:                  "layer dense(out = 1) }").models[0]
            sage: COMPUTATIONS["vanishing_ideal"].runner_for(pnn)
            'sage_attention.app.ideal_runners.run_stack_vanishing_ideal'
        """
        if self.dense_runner and model is not None and model.has_dense_layers():
            return self.dense_runner
        return self.runner

    def size_tasks_for(self, model):
        r"""
        Return the size-guard tasks of this statement on ``model`` (a model spec).

        EXAMPLES::

            sage: from sage_attention.dsl import parse_spec
            sage: from sage_attention.catalog.computations import COMPUTATIONS
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

            sage: from sage_attention.catalog.computations import COMPUTATIONS
            sage: COMPUTATIONS["dimension"].option("method") is None
            True
        """
        return next((o for o in self.options if o.name == name), None)

    @property
    def option_names(self):
        r"""
        Return the names of the options, in order.

        EXAMPLES::

            sage: from sage_attention.catalog.computations import COMPUTATIONS
            sage: COMPUTATIONS["certify"].option_names
            ('point', 'seed')
        """
        return tuple(o.name for o in self.options)

    def refusal(self, model):
        r"""
        Return why this computation does not apply to ``model``, or ``None``.

        EXAMPLES::

            sage: from sage_attention.catalog.computations import COMPUTATIONS
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
            '`certify` needs attention layers only; `p` has dense layers (on such models use dimension or fibers or vanishing_ideal or ed_degree or critical_points or decision_boundary)'
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

            sage: from sage_attention.catalog.computations import COMPUTATIONS
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
            what = [w for w, ok in ((plural(len(model.layers), 'layer'), deep),
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
                           f"{plural(len(model.layers), 'layer')}")
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

            sage: from sage_attention.catalog.computations import COMPUTATIONS
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

            sage: from sage_attention.catalog.computations import COMPUTATIONS
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


_FAMILIES_OPTION = Option("families", "families", "the families to build, with their own options in parentheses",
                          default=None,
                          default_doc="every family that applies")

#: The computation statements, by name.
COMPUTATIONS = {c.name: c for c in (
    Computation("dimension", "sage_attention.app.runners.run_dimension", (SEED_OPTION,),
                "the dimension of the neurovariety (generic rank of the Jacobian)",
                size_tasks=("jacobian",), extended=True, dense=True),
    Computation("fibers", "sage_attention.app.runners.run_fibers", (SEED_OPTION,),
                "the generic fiber and the symmetries of the weights",
                size_tasks=("jacobian",), extended=True, dense=True),
    Computation("invariants", "sage_attention.app.runners.run_invariants",
                (_FAMILIES_OPTION, SEED_OPTION),
                "build invariant families (`seed` goes to the families that take one and "
                "have no `seed` of their own: `brill(seed = 1)` keeps 1)",
                syntax="invariants [family, family(key = value), ...]",
                normalizations=("lightning",), one_layer=True, size_tasks=("coordinates",)),
    Computation("check", "sage_attention.app.runners.run_check",
                (Option("what", "choice", "what to check: `invariants` (every member "
                        "vanishes on the neurovariety) or `generation` (do the families "
                        "generate its vanishing ideal?)", default="invariants",
                        choices=("invariants", "generation")),
                 _FAMILIES_OPTION, SEED_OPTION),
                "test that the families of the block vanish on the neurovariety, or "
                "whether they generate its vanishing ideal",
                syntax="check invariants | check generation",
                normalizations=("lightning",), one_layer=True,
                size_tasks=("coordinates", "parametrization")),
    Computation("vanishing_ideal", "sage_attention.app.ideal_runners.run_vanishing_ideal",
                (Option("degree", "int",
                        "interpolate through this degree (implies `algorithm = interpolation`)",
                        minimum=1),
                 Option("algorithm", "choice", "Singular's elimination (the whole ideal) or "
                        "interpolation degree by degree", choices=("elimination", "interpolation"),
                        default_doc="interpolation through degree 4 with the whole-ideal "
                                    "proof; where it is not proved, up to 18 essential "
                                    "coordinates, the next degrees, then elimination"),
                 Option("count", "choice", "the minimal generators after an interpolation: "
                        "recounted exactly over QQ, or the engine's counts (exact in the lowest "
                        "degree, certified modulo a prime above it); elimination counts exactly",
                        choices=("exact", "engine"),
                        default_doc="the exact recount when it is small, else the engine's counts")),
                "the vanishing ideal, complete or through a degree (networks with biases or "
                "residual streams: by elimination, small networks only)",
                syntax="vanishing_ideal [up to degree N] [algorithm = ...]",
                normalizations=("lightning",), size_tasks=("coordinates", "elimination"),
                dense=True, dense_runner="sage_attention.app.ideal_runners.run_stack_vanishing_ideal",
                dense_size_tasks=("coordinates", "elimination", "stack elimination")),
    Computation("certify", "sage_attention.app.runners.run_certify",
                (Option("point", "point", "the value of every coordinate, in the order of "
                        "the coordinate ring"), SEED_OPTION),
                "is the coefficient point realizable by weights?",
                syntax="certify point [c_1, ..., c_N]",
                normalizations=("lightning",), one_layer=True, size_tasks=("coordinates",)),
    # metric algebraic geometry: options in catalog.metric_options, costs in catalog.metric_costs
    Computation("ed_degree", "sage_attention.app.metric_runners.run_ed_degree",
                (METRIC_OPTION, DATA_OPTION, PROJECTIVE_OPTION, SEED_OPTION),
                "the ED degree of the neurovariety: critical points of the distance from data, counted "
                "exactly modulo two primes at independent random data",
                normalizations=("lightning",), size_tasks=("coordinates",), dense=True, dense_size_tasks=()),
    Computation("critical_points", "sage_attention.app.metric_runners.run_critical_points",
                (METRIC_OPTION, NO_POINT_DATA_OPTION, SPURIOUS_OPTION, SEED_OPTION),
                "the critical points of the squared loss in weight space: pure (ED degree x fiber) and "
                "spurious (by dimension), in a chart over GF(p)",
                normalizations=("lightning",), size_tasks=("coordinates",), dense=True, dense_size_tasks=()),
    Computation("decision_boundary", "sage_attention.app.metric_runners.run_decision_boundary",
                (OUTPUTS_OPTION, THRESHOLD_OPTION, BOUNDARY_METRIC_OPTION, DATA_OPTION, SEED_OPTION),
                "the decision boundary of a network at random weights (f_i = f_j, or f = threshold) and "
                "its ED degree in input space",
                normalizations=("lightning",), dense=True),
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
        sage: from sage_attention.catalog.computations import check_statement
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
            what = (f"`{WRITTEN[key].format('N' if key == 'degree' else '...')}`"
                    if key in WRITTEN else f"option `{key}`")
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
                what = f"`{written(key, value)}`"
                problems.append(Problem(f"{what} does not apply to `{model.name}`, which has "
                                        f"dense layers: there `{comp.name}` eliminates the "
                                        "weights (the whole ideal)", key, f"drop {what}"))
        if problems:
            return problems
    for key, value in comp.options:
        option = decl.option(key)
        problem = option.problem(value, model)
        if option.kind == "families" and not problem:
            problems += family_problems(value, model)
            continue
        if problem:
            problems.append(problem)
    if problems:
        return problems
    if comp.name == "vanishing_ideal" and model.has_dense_layers() and not model.is_homogeneous_network() \
            and ("degree" in opts or opts.get("algorithm") == "interpolation"):
        key = "degree" if "degree" in opts else "algorithm"
        what = f"`{written(key, opts[key])}`"
        problems.append(Problem(f"{what} asks for interpolation, but `{model.name}` has attention layers, "
                                "biases or residual streams: the interpolation engine takes networks of "
                                "dense layers without them, and `vanishing_ideal` eliminates the weights "
                                "here (the whole ideal)", key, f"drop {what}"))
    if comp.name == "vanishing_ideal" and opts.get("count") == "engine" and \
            (opts.get("algorithm") == "elimination"
             or (model.has_dense_layers() and not model.is_homogeneous_network())):
        problems.append(Problem("`count = engine` asks for the interpolation engine's counts, but "
                                "`vanishing_ideal` eliminates here and counts the minimal generators "
                                "exactly", "count", "drop `count = engine`"))
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
            problems.append(Problem(f"the point has {plural(k, 'value')}; model "
                                    f"`{model.name}` has {plural(n, 'coordinate')}", "point",
                                    "list the value of every coordinate, in the order of the "
                                    "coordinate ring"))
    return problems


def written_options(decl):
    r"""
    Return how each option of the statement ``decl`` (a :class:`Computation`)
    is written in a spec, in order (the ``families`` of ``check`` are those
    of the block's ``invariants`` statements, not written).

    EXAMPLES::

        sage: from sage_attention.catalog.computations import COMPUTATIONS, written_options
        sage: written_options(COMPUTATIONS["invariants"])
        ['the families after the statement (e.g. `invariants pencil, veronese(r = 2)`)', '`seed = N`']
        sage: written_options(COMPUTATIONS["vanishing_ideal"])
        ['`up to degree N`',
         '`algorithm = elimination` or `algorithm = interpolation`',
         '`count = exact` or `count = engine`']
    """
    out = []
    for o in decl.options:
        if o.name == "families" and decl.name != "invariants":
            continue
        if o.name in WRITTEN_OPTION:
            out.append(WRITTEN_OPTION[o.name])
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


def statement_options(name):
    r"""
    Return the option names of the statement ``name`` (empty if unknown).

    EXAMPLES::

        sage: from sage_attention.catalog.computations import statement_options
        sage: statement_options("vanishing_ideal")
        ('degree', 'algorithm', 'count')
    """
    decl = COMPUTATIONS.get(name)
    return decl.option_names if decl else ()


def register(computation):
    r"""
    Add the :class:`Computation` ``computation`` to the table.

    EXAMPLES::

        sage: from sage_attention.catalog.computations import register, Computation, COMPUTATIONS
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

        sage: from sage_attention.catalog.computations import describe_all
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
           "distinct_families", "check_statement", "written_options", "field_tasks", "field_problems",
           "statement_options", "register", "describe_all"]
