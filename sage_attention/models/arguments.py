r"""
Arguments of attention networks: checking, normalizing, naming

The constructors of :mod:`sage_attention.models` accept many spellings of
one architecture; this module turns them into one canonical, hashable
tuple (so that equal architectures are the same object), names variables,
and describes coordinates.

EXAMPLES::

    sage: from sage_attention.models.arguments import normalize_arguments
    sage: normalize_arguments((3, 1), [2], 2, 'lightning', 'AV', 'raw', None)
    ((3, 1), (2,), 2, ('lightning',), 'AV', 'raw', None)
"""
from collections import namedtuple
from itertools import permutations
import numbers
import re
import warnings

from sage.all__sagemath_singular import matrix
from sage.rings.integer import Integer

from sage_attention.misc.deprecation import caller_stacklevel
from sage_attention.misc.errors import SpecError
from sage_attention.misc.keywords import keyword_hints

NORMALIZATIONS = ("lightning", "softmax")
WEIGHT_SPACES = ("QKV", "AV")
COORDINATE_SCALINGS = ("raw", "scaled")
#: the old name of :data:`COORDINATE_SCALINGS`
COORDINATE_KINDS = COORDINATE_SCALINGS

Coordinate = namedtuple("Coordinate", ["row", "token", "kind", "indices", "context"])
Coordinate.__doc__ = r"""
Description of one coefficient coordinate.

- ``row``, ``token`` -- the output entry `Y_{row, token}` (1-based)
- ``kind`` -- ``'cross'`` (monomial `x_{a n} x_{b n} x_{c j}`, `n \neq j`),
  ``'pure'`` (monomial `x_{a j} x_{b j} x_{c j}`) or ``'deep'``
- ``indices`` -- ``(a, b, c)`` (1-based, `a \le b`; sorted for pure), or the
  exponent vector for ``'deep'``
- ``context`` -- the context token `n` of a cross monomial, else ``None``
"""


def index_name(prefix, indices, compact):
    r"""
    Return a variable name: ``prefix`` followed by the indices.

    EXAMPLES::

        sage: from sage_attention.models.arguments import index_name
        sage: index_name('x', (1, 2), True), index_name('x', (1, 12), False)
        ('x12', 'x1_12')
    """
    if compact:
        return prefix + "".join(str(i) for i in indices)
    return prefix + "_".join(str(i) for i in indices)


_COORDINATE_NAME = re.compile(r"Y(\d+(?:_\d+)?)_((?:x\d+(?:_\d+)?)+)")


def coordinate_latex_name(name):
    r"""
    Return the LaTeX of a coefficient coordinate: ``Y11_x11x12x12`` is `Y_{11}^{x_{11} x_{12} x_{12}}`.

    The coefficient of the monomial `x_{11} x_{12} x_{12}` in the output
    entry `Y_{11}` (:ref:`mathematics, §2 <math-2>`). The whole is in
    braces, so a power `\{Y_{11}^{\dots}\}^2` is valid LaTeX. A name of
    another form gets Sage's default.

    EXAMPLES::

        sage: from sage_attention.models.arguments import coordinate_latex_name
        sage: coordinate_latex_name('Y11_x11x12x12')
        '{Y_{11}^{x_{11} x_{12} x_{12}}}'
        sage: coordinate_latex_name('Y1_12_x1_1x2_12')
        '{Y_{1,12}^{x_{1,1} x_{2,12}}}'
        sage: coordinate_latex_name('q11')
        'q_{11}'
    """
    m = _COORDINATE_NAME.fullmatch(name)
    if m is None:
        from sage.misc.latex import latex_variable_name
        return latex_variable_name(name)
    entry = m.group(1).replace("_", ",")
    xs = re.findall(r"x(\d+(?:_\d+)?)", m.group(2))
    monomial = " ".join(f"x_{{{x.replace('_', ',')}}}" for x in xs)
    return f"{{Y_{{{entry}}}^{{{monomial}}}}}"


def with_coordinate_latex_names(R):
    r"""
    Give the polynomial ring ``R`` the LaTeX names of :func:`coordinate_latex_name` and return it.

    The variable names do not change (they are what users type); only
    ``latex(R)``, ``latex`` of its elements and ideals use the new names.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: E = LightningAttention(d=2, t=2, a=1).essential_ring()
        sage: E.gen(0), latex(E.gen(0)^2)
        (Y11_x11x12x12, {Y_{11}^{x_{11} x_{12} x_{12}}}^{2})
    """
    R._latex_names = [coordinate_latex_name(x) for x in R.variable_names()]
    return R


def distinct_orderings(m):
    r"""
    Return the sorted list of distinct orderings of the tuple ``m``.

    EXAMPLES::

        sage: from sage_attention.models.arguments import distinct_orderings
        sage: distinct_orderings((1, 1, 2))
        [(1, 1, 2), (1, 2, 1), (2, 1, 1)]
    """
    return sorted(set(permutations(m)))


def random_matrix(F, r, c, rng):
    r"""
    Return an `r \times c` matrix over ``F`` with entries from ``rng``.

    Over a field of characteristic zero the entries are integers in
    `[-100, 100]`; over a finite field (`\GF{p}` or `\GF{p^k}`) they are uniform.

    EXAMPLES::

        sage: from sage_attention.models.arguments import random_matrix
        sage: from sage_attention.misc.randomness import python_random
        sage: random_matrix(GF(7), 2, 3, python_random(1)).dimensions()
        (2, 3)
    """
    if F.characteristic() == 0:
        return matrix(F, r, c, [rng.randint(-100, 100) for _ in range(r * c)])
    p = F.characteristic()
    if F.cardinality() != p:
        from sage_attention.misc.extension_points import random_element
        return matrix(F, r, c, [random_element(F, rng) for _ in range(r * c)])
    return matrix(F, r, c, [rng.randrange(p) for _ in range(r * c)])


def integer_argument(value, what):
    r"""
    Return ``value`` as a Python integer if it is a positive integer, else raise.

    A rational number that is an integer (``QQ(3)``, ``6/2`` in Sage) is
    taken as that integer. ``True``, strings, floats and other rationals are
    refused (``TypeError``), as are integers below 1 (``SpecError``);
    ``what`` names the argument.

    EXAMPLES::

        sage: from sage_attention.models.arguments import integer_argument
        sage: integer_argument(ZZ(3), 'rank a_1'), integer_argument(6/2, 'rank a_1')
        (3, 3)
        sage: integer_argument(True, 'rank a_1')
        Traceback (most recent call last):
        ...
        TypeError: rank a_1 (=True) must be a positive integer
        sage: integer_argument(3/2, 'rank a_1')
        Traceback (most recent call last):
        ...
        TypeError: rank a_1 (=3/2) must be a positive integer, not a fraction
    """
    from sage.rings.rational import Rational
    if isinstance(value, Rational):
        if value.denominator() != 1:
            raise TypeError(f"{what} (={value!r}) must be a positive integer, not a fraction")
        value = Integer(value)
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, Integer)):
        raise TypeError(f"{what} (={value!r}) must be a positive integer")
    if value <= 0:
        raise SpecError(f"{what} (={value!r}) must be a positive integer")
    return int(value)


def renamed_keyword(new_value, new_name, old_value, old_name, default):
    r"""
    Return the value of a renamed keyword, warning when the old name is used.

    EXAMPLES::

        sage: from sage_attention.models.arguments import renamed_keyword
        sage: renamed_keyword(None, 'weight_space', 'AV', 'weights', 'QKV')
        doctest:warning...
        DeprecationWarning: the keyword weights= is deprecated; use weight_space= instead
        'AV'
        sage: renamed_keyword('AV', 'weight_space', None, 'weights', 'QKV')
        'AV'
    """
    if old_value is not None:
        warnings.warn(f"the keyword {old_name}= is deprecated; use {new_name}= instead",
                      DeprecationWarning, stacklevel=caller_stacklevel())
        if new_value is not None and new_value != old_value:
            raise TypeError(f"give {new_name}= only (not also {old_name}=)")
        return old_value
    return default if new_value is None else new_value


#: the spec language's arguments (as written there) and the constructors' names for them
SPEC_KEYWORDS = {"input": ("input = ...", "d="), "tokens": ("tokens = ...", "t="),
                 "rank": ("rank = ...", "a="), "field": ("field = ...", "base_ring="),
                 "mask": ("mask = causal", "causal=True")}
# (``weights=`` and ``coordinates=`` are the deprecated keywords of version 0.1: they still work)

#: the same for the layers and networks: ``function name -> {spec word: (as written, Python)}``
SPEC_KEYWORDS_OF = {
    "attention": {"rank": ("rank = ...", "a="), "mask": ("mask = causal", "causal=True")},
    "dense": {"activation": ("activation = power(r)", "r="), "power": ("activation = power(r)", "r=")},
    "Network": {"input": ("input = ...", "d="), "tokens": ("tokens = ...", "t="),
                "field": ("field = ...", "base_ring=")},
    "PolynomialNetwork": {"input": ("input = ...", "widths= (the input width first)"),
                          "tokens": ("tokens = ...", "t="), "field": ("field = ...", "base_ring="),
                          "activation": ("activation = power(r)", "activation_degree="),
                          "power": ("activation = power(r)", "activation_degree="),
                          "r": ("activation = power(r)", "activation_degree=")},
}


def spec_keyword_hints(constructor):
    r"""
    Wrap ``constructor`` so that a spec file's name of an argument gets the Python name in the error.

    A user who writes a model in a spec file writes ``input``, ``tokens``,
    ``rank``, ``field`` and ``mask = causal``; the constructors take ``d``,
    ``t``, ``a``, ``base_ring`` and ``causal=True``. Python's own message
    ("got an unexpected keyword argument 'field'") does not say which.

    INPUT:

    - ``constructor`` -- a function with keyword arguments

    OUTPUT: the function, which raises a :class:`TypeError` naming the
    Python argument for a spec file's name, and the closest keyword for
    another misspelling (:func:`~sage_attention.misc.keywords.keyword_hints`)

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: LightningAttention(d=3, t=2, a=1, field=GF(5))
        Traceback (most recent call last):
        ...
        TypeError: LightningAttention() got an unexpected keyword argument 'field': write base_ring= (the spec file's `field = ...`)
        sage: LightningAttention(d=3, t=2, a=1, mask='causal')
        Traceback (most recent call last):
        ...
        TypeError: LightningAttention() got an unexpected keyword argument 'mask': write causal=True (the spec file's `mask = causal`)
        sage: LightningAttention(d=3, tokens=2, a=1)
        Traceback (most recent call last):
        ...
        TypeError: LightningAttention() got an unexpected keyword argument 'tokens': write t= (the spec file's `tokens = ...`)
        sage: from sage_attention import attention, dense, PolynomialNetwork
        sage: attention(rank=1, out=2)
        Traceback (most recent call last):
        ...
        TypeError: attention() got an unexpected keyword argument 'rank': write a= (the spec file's `rank = ...`)
        sage: PolynomialNetwork([2, 3, 1], power=2)
        Traceback (most recent call last):
        ...
        TypeError: PolynomialNetwork() got an unexpected keyword argument 'power': write activation_degree= (the spec file's `activation = power(r)`)
        sage: LightningAttention(d=3, t=2, a=1, entires=[(1, 1)])
        Traceback (most recent call last):
        ...
        TypeError: LightningAttention() got an unexpected keyword argument 'entires' (did you mean `entries`?); its keywords: d, t, a, out, widths, ranks, ...
    """
    table = SPEC_KEYWORDS_OF.get(constructor.__name__, SPEC_KEYWORDS)

    def hint(key):
        if key in table:
            spec, python = table[key]
            return f"write {python} (the spec file's `{spec}`)"
        return None
    return keyword_hints(constructor, hints=hint)


def normalize_arguments(widths, ranks, tokens, normalization, weight_space,
                        coordinate_scaling, entries):
    r"""
    Return the checked, canonical form of an architecture's arguments.

    OUTPUT: a tuple ``(widths, ranks, tokens, normalization, weight_space,
    coordinate_scaling, entries)`` of hashable values

    EXAMPLES::

        sage: from sage_attention.models.arguments import normalize_arguments
        sage: normalize_arguments([3, 1], 2, 2, 'lightning', 'QKV', 'raw', [(1, 2), (1, 1)])
        ((3, 1), (2,), 2, ('lightning',), 'QKV', 'raw', None)
    """
    if isinstance(widths, (str, bytes)) or not hasattr(widths, "__iter__"):
        raise TypeError(f"widths (={widths!r}) must be a list of positive integers")
    widths = tuple(integer_argument(w, f"width d_{i}") for i, w in enumerate(widths))
    if len(widths) < 2:
        raise SpecError(f"widths (={widths}) needs the input width and at least one layer")
    if isinstance(ranks, (str, bytes)) or not hasattr(ranks, "__iter__"):
        ranks = (ranks,)
    ranks = tuple(integer_argument(a, f"rank a_{i + 1}") for i, a in enumerate(ranks))
    layers = len(widths) - 1
    if len(ranks) != layers:
        raise SpecError(f"ranks (={ranks}) must have one entry per layer ({layers} layers)")
    tokens = integer_argument(tokens, "tokens t")
    if isinstance(normalization, str):
        normalization = (normalization,) * layers
    normalization = tuple(str(n).lower() for n in normalization)
    if len(normalization) != layers or any(n not in NORMALIZATIONS for n in normalization):
        raise SpecError(f"normalization (={normalization}) must be 'lightning' or 'softmax' "
                        f"for each of the {layers} layers")
    if weight_space not in WEIGHT_SPACES:
        raise SpecError(f"weight_space (={weight_space!r}) must be one of 'QKV', 'AV'")
    if coordinate_scaling not in COORDINATE_SCALINGS:
        raise SpecError(f"coordinate_scaling (={coordinate_scaling!r}) must be one of "
                        "'raw', 'scaled'")
    if entries is not None:
        if isinstance(entries, (str, bytes)) or not hasattr(entries, "__iter__"):
            raise TypeError(f"entries (={entries!r}) must be a list of pairs (row, token)")
        clean = []
        for e in entries:
            try:
                i, j = e
                i, j = integer_argument(i, "row"), integer_argument(j, "token")
            except (TypeError, ValueError):
                raise SpecError(f"entry (={e!r}) must be a pair (row, token) of positive "
                                "integers") from None
            if not (1 <= i <= widths[-1] and 1 <= j <= tokens):
                raise SpecError(f"entry (={e!r}) must have row in 1..{widths[-1]} "
                                f"and token in 1..{tokens}")
            clean.append((i, j))
        entries = tuple(sorted(set(clean)))
        if not entries:
            raise SpecError("entries must not be empty (omit it to keep all entries)")
        if len(entries) == widths[-1] * tokens:
            entries = None
    return widths, ranks, tokens, normalization, weight_space, coordinate_scaling, entries
