r"""
The library's refusals, told in the words of the command line

A size or memory guard of the library refuses with advice for a Python
caller: ``pass force=True to run it anyway``, ``lower the degree``. On the
command line the same advice must name what the command has:
:func:`command_line_advice` turns ``force=True`` into the option
``--force`` of ``run`` and ``check``, drops it for the commands without
that option (``sweep``, ``defectivity``, ``filling``, ...), and, for a
``vanishing_ideal`` statement without ``up to degree``, turns ``lower the
degree`` into the clause the spec writes.

Importing this module loads no Sage.

EXAMPLES::

    sage: from sage_attention.app.messages import command_line_advice
    sage: command_line_advice("too big (limit 5); pass force=True to run it anyway")
    'too big (limit 5); pass --force to run it anyway'
    sage: command_line_advice("too big (limit 5); pass force=True to run it anyway", force=False)
    'too big (limit 5)'
"""
import re

#: The advice of the guards to pass ``force=True`` (with the semicolon before it).
FORCE_ADVICE = re.compile(r";? ?pass force=True to run it anyway")

#: The advice of an interpolation refused by its table: lower the degree,
#: with the largest degree that fits when one does.
DEGREE_ADVICE = re.compile(r"lower the degree(?: [(]degree=([0-9]+), the largest whose table fits[)])?")


def command_line_advice(message, force=True, degree_clause=None, hint=None):
    r"""
    Return the library's message ``message`` with advice the command line can follow.

    INPUT:

    - ``message`` -- string; the message of a library exception
    - ``force`` -- boolean (default: ``True``); whether the command has the
      option ``--force``: ``pass force=True`` becomes ``pass --force``, and
      without it the advice is dropped (as is ``force=True`` in ``with or
      without force=True``)
    - ``degree_clause`` -- (default: ``None``: leave the degree advice as
      it is) or ``False``: the statement has no ``up to degree``, so
      ``lower the degree (degree=N, ...)`` becomes ``write `up to degree N` ...``
      and ``lower the degree`` without a degree that fits is dropped
    - ``hint`` -- (default: ``None``) string; advice of the command (e.g.
      the option to lower) put where the ``force`` advice was dropped

    OUTPUT: a string

    EXAMPLES::

        sage: from sage_attention.app.messages import command_line_advice
        sage: m = ("the table of the 5985 monomials of degree 4 needs about 1.3 MiB (limit 1.0 KiB); "
        ....:      "lower the degree; pass force=True to run it anyway")
        sage: command_line_advice(m, degree_clause=False)
        'the table of the 5985 monomials of degree 4 needs about 1.3 MiB (limit 1.0 KiB); pass --force to run it anyway'
        sage: m = ("the table ... (limit 1.0 GiB); lower the degree (degree=3, the largest whose "
        ....:      "table fits); pass force=True to run it anyway")
        sage: command_line_advice(m, degree_clause=False)
        'the table ... (limit 1.0 GiB); write `vanishing_ideal up to degree 3` (the largest degree whose table fits); pass --force to run it anyway'
        sage: command_line_advice(m)
        'the table ... (limit 1.0 GiB); lower the degree (degree=3, the largest whose table fits); pass --force to run it anyway'
        sage: command_line_advice("the Jacobian holds 10 entries (limit 5); pass force=True to run it anyway",
        ....:                     force=False, hint="lower --width")
        'the Jacobian holds 10 entries (limit 5); lower --width'
        sage: command_line_advice("Singular cannot build it, with or without force=True", force=False)
        'Singular cannot build it'
    """
    text = str(message)
    if degree_clause is False:
        def degree(match):
            n = match.group(1)
            return "" if n is None else (f"write `vanishing_ideal up to degree {n}` (the largest "
                                         "degree whose table fits)")
        text = DEGREE_ADVICE.sub(degree, text)
        text = re.sub(r"(; )+", "; ", text)
        text = re.sub(r";\s*$", "", text)
    if force:
        text = FORCE_ADVICE.sub(lambda m: m.group(0).replace("force=True", "--force"), text)
        text = text.replace("with or without force=True", "with or without --force")
    else:
        text = FORCE_ADVICE.sub("", text)
        text = text.replace(", with or without force=True", "")
        text = text.replace(" with or without force=True", "")
    if hint:
        text = text.rstrip("; ") + f"; {hint}"
    return text
