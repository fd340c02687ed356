r"""
The JSON output of ``sage-attention``: JSON Lines, one convention for every command

With ``--json`` every command that prints results (``run``, ``check``,
``sweep``, ``defectivity``, ``filling``, ``figures``; not ``script``, whose
output is the script's own) prints on standard output one JSON object per
line, and nothing else. Every object has

- ``"format"`` -- the version of this convention (:data:`JSON_FORMAT`); it
  grows when a key changes meaning or disappears, not when keys are added;
- ``"record"`` -- what the object is: ``"model"`` (the report of a model of
  ``run``), ``"check"`` (the result of ``check``), ``"row"`` (a row of
  ``sweep``, ``defectivity`` or ``filling``, whose ``"command"`` says
  which), ``"file"`` (a file that ``figures`` wrote: ``"path"``) or
  ``"error"`` (an error in the spec or the arguments, or an interrupt; then
  ``"error"`` is the message, ``"error_type"`` the kind and
  ``"exit_status"`` the exit status of the command, and a spec error also
  has ``"file"``, ``"line"`` and ``"column"`` where known).

A failed computation of ``run`` stays inside its model record (its entry has
an ``"error"``), and the run goes on. The records are documented in
``doc/json.rst``.

EXAMPLES::

    sage: from sage_attention.app.jsonout import record, error_record
    sage: list(record("row", {"command": "sweep", "dimension": 6}).items())
    [('format', 1), ('record', 'row'), ('command', 'sweep'), ('dimension', 6)]
    sage: from sage_attention.dsl import parse_spec
    sage: try:
    ....:     parse_spec("model m {\n  input = 3 tokens = 2\n}", filename="a.att")
    ....: except Exception as e:
    ....:     rec = error_record(e, 2)
    sage: rec["record"], rec["error_type"], rec["file"], rec["line"], rec["column"], rec["exit_status"]
    ('error', 'MissingSeparator', 'a.att', 2, 13, 2)
"""
import json

#: The version of the JSON convention (the ``"format"`` of every record).
JSON_FORMAT = 1

#: The kinds of record (the ``"record"`` of every object).
RECORDS = ("model", "check", "row", "file", "error")


def record(kind, fields=None):
    r"""
    Return the JSON record of kind ``kind`` with the entries ``fields``.

    INPUT:

    - ``kind`` -- one of :data:`RECORDS`
    - ``fields`` -- (default: ``None``) a dictionary; its ``"format"`` and
      ``"record"`` are replaced

    OUTPUT: a new dictionary starting with ``"format"`` and ``"record"``

    EXAMPLES::

        sage: from sage_attention.app.jsonout import record
        sage: list(record("check", {"models": 1}).items())
        [('format', 1), ('record', 'check'), ('models', 1)]
        sage: record("table")
        Traceback (most recent call last):
        ...
        ValueError: kind (='table') must be one of model, check, row, file, error
    """
    if kind not in RECORDS:
        raise ValueError(f"kind (={kind!r}) must be one of {', '.join(RECORDS)}")
    out = {"format": JSON_FORMAT, "record": kind}
    out.update({k: v for k, v in (fields or {}).items() if k not in ("format", "record")})
    return out


def error_record(error, exit_status):
    r"""
    Return the ``"error"`` record of the exception ``error``.

    INPUT:

    - ``error`` -- an exception (a spec error gives its file, line and column)
    - ``exit_status`` -- integer; the exit status the command returns

    OUTPUT: a dictionary (:func:`record` of kind ``"error"``)

    EXAMPLES::

        sage: from sage_attention.app.jsonout import error_record
        sage: import json
        sage: print(json.dumps(error_record(KeyboardInterrupt(), 130)))
        {"format": 1, "record": "error", "error": "interrupted", "error_type": "KeyboardInterrupt", "exit_status": 130}
    """
    message = "interrupted" if isinstance(error, KeyboardInterrupt) else str(error)
    fields = {"error": message, "error_type": type(error).__name__, "exit_status": int(exit_status)}
    span = getattr(error, "span", None)
    line = getattr(span, "line", None) if span is not None else getattr(error, "line", None)
    column = getattr(span, "column", None) if span is not None else getattr(error, "column", None)
    filename = getattr(error, "filename", None)
    if filename is not None:
        fields["file"] = str(filename)
    if isinstance(line, int) and isinstance(column, int):
        fields["line"], fields["column"] = line, column
    return record("error", fields)


def emit(out, rec):
    r"""
    Print the record ``rec`` on ``out`` as one line of JSON and flush.

    INPUT:

    - ``out`` -- a text file
    - ``rec`` -- a dictionary of JSON values (:func:`record`)

    EXAMPLES::

        sage: import sys
        sage: from sage_attention.app.jsonout import emit, record
        sage: emit(sys.stdout, record("row", {"command": "sweep", "agrees": True}))
        {"format": 1, "record": "row", "command": "sweep", "agrees": true}
    """
    print(json.dumps(rec), file=out)
    out.flush()
