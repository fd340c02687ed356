r"""
The table of invariant families

Each invariant family (:ref:`mathematics, §3 <math-3>` and 4) is one
:class:`Family` entry of :data:`FAMILIES`: its name, its options
(:class:`~sage_attention.catalog.options.Option`) and the dotted name of
the function that builds it (resolved by :mod:`sage_attention.invariants`
only when the family is built). The spec language checks the families of
an ``invariants`` statement against this table (:func:`family_problems`),
the size guard estimates them by name
(:mod:`sage_attention.catalog.family_costs`), and the library builds them
from it. Adding a family is one entry here, one estimate there and the
function that builds it. This module imports no Sage.

EXAMPLES::

    sage: from sage_attention.catalog.families import FAMILIES, ALL_FAMILIES
    sage: sorted(FAMILIES)
    ['brill', 'chow', 'linear', 'low_rank', 'pencil', 'rank_one', 'rows',
     'single_token_low_rank', 'sylvester', 'syzygies', 'veronese']
    sage: print(FAMILIES["veronese"].option("r").describe())
    r -- integer >= 2 (default: every admissible r); the size of the index sets (degree 2r)

The option values of a family are checked against the model::

    sage: from sage_attention.catalog.families import family_problems
    sage: from sage_attention.dsl.spec import ModelSpec, Layer
    sage: m = ModelSpec("m", input=3, tokens=2, layers=(Layer(2, 1),))
    sage: family_problems((("veronese", (("r", 3),)), ("pencl", ())), m)
    [Problem(message='family `veronese`: `r` (=3) must be at most 2 (min(d, a); larger r give no invariant)',
             key='family:veronese', fix='write `r = 2` or less'),
     Problem(message='unknown invariant family `pencl` (did you mean `pencil`?)',
             key='family:pencl', fix='use one of: linear, low_rank, pencil, syzygies, veronese, sylvester, rank_one, chow, single_token_low_rank, rows, brill, all')]
"""
from dataclasses import dataclass

from sage_attention.misc.text import did_you_mean, format_value
from sage_attention.misc.randomness import MAX_SEED
from sage_attention.catalog.options import Option, Problem


@dataclass(frozen=True)
class Family:
    r"""
    An invariant family: its name, options and the function that builds it.

    EXAMPLES::

        sage: from sage_attention.catalog.families import FAMILIES
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

            sage: from sage_attention.catalog.families import FAMILIES
            sage: FAMILIES["linear"].option("limit") is None
            True
        """
        return next((o for o in self.options if o.name == name), None)


def _veronese_bound(model):
    d, a = model.input, model.layers[0].rank if model.layers else None
    if d is None or a is None:
        return None, ""
    return min(d, a), "min(d, a); larger r give no invariant"


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

        sage: from sage_attention.catalog.families import distinct_families
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


def inapplicable(fam, model, keys=None):
    r"""
    Return why the family ``fam`` does not apply to ``model`` -- an option
    of it (among ``keys``, default all) has no admissible value there (its
    model-dependent bound is below its minimum) -- or ``None``.

    Without the option (``invariants veronese``) the family is built with
    every admissible value: none, so no member.

    EXAMPLES::

        sage: from sage_attention.catalog.families import FAMILIES, inapplicable
        sage: from sage_attention.dsl.spec import ModelSpec, Layer
        sage: m = ModelSpec("m", input=3, tokens=1, layers=(Layer(1, 1),))
        sage: inapplicable(FAMILIES["veronese"], m)
        'it needs min(d, a) >= 2 (its `r` is at least 2 and at most min(d, a)), and min(d, a) = 1 here'
        sage: inapplicable(FAMILIES["veronese"], ModelSpec("m", input=3, tokens=1, layers=(Layer(2, 1),))) is None
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


def family_problems(families, model):
    r"""
    Return the problems of the families ``families`` (the option
    ``families`` of ``invariants``) on ``model``: unknown families, options
    a family does not have or gives twice, values out of range, and
    families that do not apply to ``model`` whatever the value.

    INPUT:

    - ``families`` -- a tuple of pairs ``(name, options)``
    - ``model`` -- a :class:`~sage_attention.dsl.spec.ModelSpec`

    OUTPUT: a list of :class:`~sage_attention.catalog.options.Problem`, whose
    ``key`` is ``"family:NAME"``

    EXAMPLES::

        sage: from sage_attention.catalog.families import family_problems
        sage: from sage_attention.dsl.spec import ModelSpec, Layer
        sage: m = ModelSpec("m", input=3, tokens=1, layers=(Layer(1, 1),))
        sage: family_problems((("veronese", (("r", 2),)),), m)[0].message
        'family `veronese` does not apply to model `m`: it needs min(d, a) >= 2 (its `r` is at least 2 and at most min(d, a)), and min(d, a) = 1 here'
        sage: family_problems((("pencil", (("limit", 3), ("lines", 1))),), m)[0].fix
        'use one of its options: limit'
    """
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
            unfit = inapplicable(fam, model, [k for k, _ in options])
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
                                   options_fix(f"family `{name}`", key,
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


def options_fix(owner, key, names):
    r"""
    Return the fix of an option ``key`` that ``owner`` (a statement or a family) does not have.

    EXAMPLES::

        sage: from sage_attention.catalog.families import options_fix
        sage: options_fix("family `linear`", "limit", [])
        'drop `limit = ...`: family `linear` has no options'
    """
    if names:
        return f"use one of its options: {', '.join(names)}"
    return f"drop `{key} = ...`: {owner} has no options"


__all__ = ["Family", "FAMILIES", "ALL_FAMILIES", "distinct_families", "inapplicable",
           "family_problems"]
