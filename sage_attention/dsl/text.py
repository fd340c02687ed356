r"""
Words and values as the spec language writes them

Two helpers shared by the spec model (:mod:`sage_attention.dsl.spec`) and the
table of computations (:mod:`sage_attention.dsl.computations`): the source
text of an option value, and the "did you mean" hint of an error message.
Imports no Sage.
"""
import difflib


def format_value(value):
    r"""
    Return the source text of an option value.

    EXAMPLES::

        sage: from fractions import Fraction
        sage: from sage_attention.dsl.text import format_value
        sage: format_value(3), format_value(Fraction("-1/2")), format_value("slimgb")
        ('3', '-1/2', 'slimgb')
        sage: format_value((1, Fraction("1/3"))), format_value(True)
        ('[1, 1/3]', 'true')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    return str(value)


def did_you_mean(word, candidates):
    r"""
    Return ``" (did you mean `x`?)"`` for the closest candidate, or ``""``.

    EXAMPLES::

        sage: from sage_attention.dsl.text import did_you_mean
        sage: did_you_mean("tokns", ["input", "tokens"])
        ' (did you mean `tokens`?)'
        sage: did_you_mean("zzz", ["input", "tokens"])
        ''
    """
    close = difflib.get_close_matches(str(word), list(candidates), n=1, cutoff=0.6)
    return f" (did you mean `{close[0]}`?)" if close else ""
