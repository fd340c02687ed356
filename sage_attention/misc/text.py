r"""
Words and values as the spec language writes them

Two helpers shared by the spec model (:mod:`sage_attention.dsl.spec`) and the
table of computations (:mod:`sage_attention.catalog.computations`): the source
text of an option value, and the "did you mean" hint of an error message.
Imports no Sage.
"""
import difflib
from fractions import Fraction


class WrittenInt(int):
    r"""
    An integer written in a notation that is not an integer's, such as
    ``3.0`` or ``4/2``: its value, and ``text``, how it is written.

    A spec number is parsed to its value; an integer option (a width, a
    seed, a degree) refuses this one with a fix that writes the integer
    (:func:`integer_notation_problem`).

    EXAMPLES::

        sage: from sage_attention.misc.text import WrittenInt, format_value
        sage: n = WrittenInt(3, "3.0")
        sage: n == 3, n.text, format_value(n), repr(n)
        (True, '3.0', '3.0', '3')
        sage: import pickle; pickle.loads(pickle.dumps(n)).text
        '3.0'
    """
    def __new__(cls, value, text):
        obj = int.__new__(cls, value)
        obj.text = text
        return obj

    def __getnewargs__(self):
        return (int(self), self.text)


class WrittenFraction(Fraction):
    r"""
    A fraction written otherwise than its reduced form, such as ``2.5`` or
    ``6/4``: its value, and ``text``, how it is written (so a message
    echoes what the user wrote).

    EXAMPLES::

        sage: from sage_attention.misc.text import WrittenFraction, format_value
        sage: from fractions import Fraction
        sage: x = WrittenFraction(text="2.5")
        sage: x == Fraction("5/2"), x == float(2.5), format_value(x), repr(x)
        (True, True, '2.5', 'Fraction(5, 2)')
        sage: import pickle; pickle.loads(pickle.dumps(x)).text
        '2.5'
    """
    def __new__(cls, numerator=0, denominator=None, text=None):
        if text is None:
            # a Fraction method that builds its result with ``cls(...)``: a plain fraction
            return Fraction(numerator, denominator)
        obj = Fraction.__new__(cls, text)
        obj.text = text
        return obj

    def __reduce__(self):
        return (type(self), (self.numerator, self.denominator, self.text))

    def __repr__(self):
        return f"Fraction({self.numerator}, {self.denominator})"


def format_value(value):
    r"""
    Return the source text of an option value.

    EXAMPLES::

        sage: from fractions import Fraction
        sage: from sage_attention.misc.text import format_value
        sage: format_value(3), format_value(Fraction("-1/2")), format_value("slimgb")
        ('3', '-1/2', 'slimgb')
        sage: format_value((1, Fraction("1/3"))), format_value(True)
        ('[1, 1/3]', 'true')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    if isinstance(value, (WrittenInt, WrittenFraction)):
        return value.text
    return str(value)


def near_integers(value, minimum=None):
    r"""
    Return the integers nearest to the number ``value`` (not below
    ``minimum``), to suggest for an integer option written ``value``.

    EXAMPLES::

        sage: from fractions import Fraction
        sage: from sage_attention.misc.text import near_integers
        sage: near_integers(Fraction("5/2")), near_integers(Fraction("1/2"), 1), near_integers(3)
        ([2, 3], [1], [3])
    """
    import math
    out = sorted({math.floor(value), math.ceil(value)})
    if minimum is not None:
        out = sorted({max(v, minimum) for v in out})
    return out


def did_you_mean(word, candidates):
    r"""
    Return ``" (did you mean `x`?)"`` for the closest candidate, or ``""``.

    EXAMPLES::

        sage: from sage_attention.misc.text import did_you_mean
        sage: did_you_mean("tokns", ["input", "tokens"])
        ' (did you mean `tokens`?)'
        sage: did_you_mean("zzz", ["input", "tokens"])
        ''
    """
    close = difflib.get_close_matches(str(word), list(candidates), n=1, cutoff=0.6)
    return f" (did you mean `{close[0]}`?)" if close else ""
