r"""
Misspelled keyword arguments: an error that names the keyword meant

Python answers ``implicitize(M, 4, progess=True)`` with "got an unexpected
keyword argument 'progess'" and leaves the user to find the right name.
The functions and methods a user calls with keywords are wrapped here so
that the error says which keyword was meant and lists those accepted. The
wrapper checks the names before the call (a loop over the keywords given,
nothing else), keeps the docstring, and gives Sage's introspection
(``f?`` in a Sage session, :func:`sage.misc.sageinspect.sage_getargspec`)
and :func:`inspect.signature` the signature of the function itself.

Imports no Sage.

EXAMPLES::

    sage: from sage_attention.misc.keywords import keyword_hints
    sage: @keyword_hints
    ....: def area(width, height=1, *, scale=1):
    ....:     return width * height * scale
    sage: area(2, heigth=3)
    Traceback (most recent call last):
    ...
    TypeError: area() got an unexpected keyword argument 'heigth' (did you mean `height`?); its keywords: width, height, scale
    sage: area(2, height=3)
    6
    sage: import inspect; inspect.signature(area)
    <Signature (width, height=1, *, scale=1)>
"""
import functools
import inspect

from sage_attention.misc.text import did_you_mean

_NAMED = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


def accepted_keywords(function):
    r"""
    Return the names ``function`` accepts as keywords, or ``None`` when it accepts any (``**kwargs``).

    EXAMPLES::

        sage: from sage_attention.misc.keywords import accepted_keywords
        sage: accepted_keywords(lambda x, y=2, *, z=3: x)
        ('x', 'y', 'z')
        sage: accepted_keywords(lambda x, **kw: x) is None
        True
    """
    parameters = inspect.signature(function).parameters.values()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return None
    return tuple(p.name for p in parameters if p.kind in _NAMED)


def unexpected_keyword(name, key, accepted, hint=None):
    r"""
    Return the :class:`TypeError` for the keyword ``key`` that ``name`` does not accept.

    INPUT:

    - ``name`` -- the function's name as Python prints it (its ``__qualname__``)
    - ``key`` -- the keyword given
    - ``accepted`` -- the keywords accepted
    - ``hint`` -- (default: ``None``) a sentence to say in place of the
      closest name, e.g. the Python name of a spec file's word

    EXAMPLES::

        sage: from sage_attention.misc.keywords import unexpected_keyword
        sage: unexpected_keyword("f", "sed", ["seed", "degree"])
        TypeError("f() got an unexpected keyword argument 'sed' (did you mean `seed`?); its keywords: seed, degree")
        sage: unexpected_keyword("f", "field", ["base_ring"], hint="write base_ring=")
        TypeError("f() got an unexpected keyword argument 'field': write base_ring=")
    """
    shown = [k for k in accepted if k != "self"]
    text = f"{name}() got an unexpected keyword argument {key!r}"
    if hint:
        return TypeError(f"{text}: {hint}")
    return TypeError(f"{text}{did_you_mean(key, shown)}; its keywords: {', '.join(shown) or 'none'}")


def keyword_hints(function=None, *, hints=None):
    r"""
    Wrap ``function`` (a function or a class) so that a misspelled keyword gets the name meant.

    On a class, every public method defined in it that takes a keyword
    besides ``self`` is wrapped (methods of other kinds, such as Sage's
    cached methods and properties, are left as they are). A function that
    accepts ``**kwargs`` is returned as it is.

    INPUT:

    - ``function`` -- a function or a class
    - ``hints`` -- (default: ``None``) a function of a keyword that returns a
      sentence to put in the error in place of the closest name (or
      ``None`` for the default)

    OUTPUT: the wrapped function, or the class with its methods wrapped

    EXAMPLES::

        sage: from sage_attention.misc.keywords import keyword_hints
        sage: @keyword_hints
        ....: class Box:
        ....:     def volume(self, scale=1):
        ....:         return scale
        sage: Box().volume(scael=2)
        Traceback (most recent call last):
        ...
        TypeError: Box.volume() got an unexpected keyword argument 'scael' (did you mean `scale`?); its keywords: scale
        sage: Box().volume(scale=2)
        2

    Sage's introspection sees the function's own arguments::

        sage: from sage.misc.sageinspect import sage_getargspec
        sage: from sage_attention import implicitize
        sage: sage_getargspec(implicitize).args[:3]
        ['model', 'degree', 'seed']
    """
    if function is None:
        return functools.partial(keyword_hints, hints=hints)
    if inspect.isclass(function):
        for name, member in list(vars(function).items()):
            if (not name.startswith("_") and inspect.isfunction(member)
                    and len(accepted_keywords(member) or ()) > 1):
                setattr(function, name, keyword_hints(member, hints=hints))
        return function
    accepted = accepted_keywords(function)
    if accepted is None or getattr(function, "_keyword_hints", False):
        return function
    known = frozenset(accepted)
    name = function.__qualname__

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        for key in kwargs:
            if key not in known:
                raise unexpected_keyword(name, key, accepted, hints(key) if hints else None)
        return function(*args, **kwargs)

    wrapper._sage_argspec_ = lambda: inspect.getfullargspec(inspect.unwrap(function))
    wrapper._keyword_hints = True
    return wrapper
