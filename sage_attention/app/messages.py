r"""
The library's refusals, told in the words of the command line

A size or memory guard of the library refuses with a
:class:`~sage_attention.misc.errors.ComputationTooLarge` that carries its ways
out as data: a lower degree (``lower_degree``, ``degree``), other hints
(``hint``), and whether ``force=True`` runs it anyway (``force_helps``).
Its message is in the words of a Python caller; on the command line the
same advice must name what the command has. :func:`command_line_advice`
writes it from the data: ``--force`` for ``run`` and ``check``, nothing
for the commands without that option (``sweep``, ``defectivity``,
``filling``, ...), and, for a ``vanishing_ideal`` statement without ``up
to degree``, the clause the spec writes in place of a lower degree.

Importing this module loads no Sage.

EXAMPLES::

    sage: from sage_attention.misc.errors import ComputationTooLarge
    sage: from sage_attention.app.messages import command_line_advice
    sage: e = ComputationTooLarge("too big (limit 5)", force_helps=True); print(e)
    too big (limit 5); pass force=True to run it anyway
    sage: command_line_advice(e)
    'too big (limit 5); pass --force to run it anyway'
    sage: command_line_advice(e, force=False)
    'too big (limit 5)'
"""
from sage_attention.misc.errors import ComputationTooLarge, located


def command_line_advice(error, force=True, degree_clause=None, hint=None):
    r"""
    Return the message of the library's error ``error`` with advice the command line can follow.

    INPUT:

    - ``error`` -- an exception; a
      :class:`~sage_attention.misc.errors.ComputationTooLarge` is written from
      its data, any other error is its message
    - ``force`` -- boolean (default: ``True``); whether the command has the
      option ``--force``: a refusal that ``force`` lifts advises ``pass
      --force``, and without the option nothing is said of it
    - ``degree_clause`` -- (default: ``None``: the advice of a lower
      degree as the library gives it) or ``False``: the statement has no
      ``up to degree``, so the advice of a lower degree becomes the clause
      ``up to degree N`` to write (``N`` the largest that fits), or is
      dropped when no degree is known to fit
    - ``hint`` -- (default: ``None``) string; advice of the command (e.g.
      the option to lower), after the library's hints

    OUTPUT: a string

    EXAMPLES::

        sage: from sage_attention.misc.errors import ComputationTooLarge
        sage: from sage_attention.app.messages import command_line_advice
        sage: e = ComputationTooLarge("the table of the 5985 monomials of degree 4 needs about "
        ....:                         "1.3 MiB (limit 1.0 KiB)", lower_degree=True, force_helps=True)
        sage: command_line_advice(e, degree_clause=False)
        'the table of the 5985 monomials of degree 4 needs about 1.3 MiB (limit 1.0 KiB); pass --force to run it anyway'
        sage: e = e.replace(degree=3)
        sage: command_line_advice(e, degree_clause=False)
        'the table of the 5985 monomials ... (limit 1.0 KiB); write `vanishing_ideal up to degree 3` (the largest degree whose table fits); pass --force to run it anyway'
        sage: command_line_advice(e)
        'the table of the 5985 monomials ... (limit 1.0 KiB); lower the degree (degree=3, the largest whose table fits); pass --force to run it anyway'
        sage: e = ComputationTooLarge("the Jacobian holds 10 entries (limit 5)", force_helps=True)
        sage: command_line_advice(e, force=False, hint="lower --width")
        'the Jacobian holds 10 entries (limit 5); lower --width'
        sage: e = ComputationTooLarge("Singular cannot build it", force_helps=False)
        sage: command_line_advice(e), command_line_advice(e, force=False)
        ('Singular cannot build it; --force does not lift this limit', 'Singular cannot build it')

    Other errors keep their message::

        sage: command_line_advice(ValueError("no such file"))
        'no such file'
    """
    if not isinstance(error, ComputationTooLarge):
        text = str(error)
        return f"{text.rstrip('; ')}; {hint}" if hint else text
    parts = [error.reason]
    if error.lower_degree:
        if degree_clause is not False:
            parts.append("lower the degree" + (f" (degree={error.degree}, the largest whose table fits)"
                                               if error.degree else ""))
        elif error.degree:
            parts.append(f"write `vanishing_ideal up to degree {error.degree}` (the largest degree "
                         "whose table fits)")
    if error.hint:
        parts.append(error.hint)
    if hint:
        parts.append(hint)
    if force and error.force_helps is True:
        parts.append("pass --force to run it anyway")
    elif force and error.force_helps is False:
        parts.append("--force does not lift this limit")
    return located(parts, error.context)
