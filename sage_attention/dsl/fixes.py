r"""
The fixes of the spec's messages, as edits of the source

Every message of ``sage-attention check`` ends in a line ``fix: ...``.
Where that line names spec text in backquotes, it is an edit that a
program can apply: :func:`fix_edits` reads it, with the location of the
message, as a list of alternatives, each an :class:`Edit` (a replacement
of a region of the source), and :func:`apply_edit` applies one. A test
applies every alternative of every message of a corpus of broken specs
and checks the spec again: the message must not come back at the place
that was edited (``tests/test_fix_suggestions.py``).

The fix line is read clause by clause (clauses are separated by ``;``,
``, or`` or ``or`` before a verb), each clause by its verb:

- ``write``, ``use one of``, ``give it, e.g.``, ``name``: each snippet in
  backquotes is an alternative. A snippet ``key = value`` sets ``key``
  where the message points (the item there, or the item ``key`` of the
  same layer, statement or model, or a new item); ``up to degree N`` is
  set likewise; a single word replaces the word where the message points
  (a misspelt keyword); another snippet replaces the item there;
- ``drop`` and ``remove``: the item named is removed (``drop one of
  them``, ``keep one`` and ``remove this`` remove the item pointed at);
- ``put X before``, ``add X before``, ``add the missing X``: ``X`` is
  inserted where the message points; ``add a line X to the model`` sets
  ``X`` in the model.

A clause with no snippet (``take a smaller model``) is advice: it is
no edit. A snippet with a placeholder (``...``, ``N``, ``r``) is
written with a concrete value where one is obvious (``up to degree N``:
`2`) and skipped otherwise. This module imports neither Lark nor Sage.

EXAMPLES::

    sage: from sage_attention.dsl import parse_spec, validate
    sage: from sage_attention.dsl.fixes import fix_edits, apply_edit
    sage: source = "model m {\n  input = 3; tokns = 2\n  layer attention(rank = 2, out = 1)\n}"
    sage: try:
    ....:     parse_spec(source)
    ....: except SyntaxError as e:
    ....:     error = e
    sage: print(error.hint)
    write `tokens`
    sage: [edit] = fix_edits(error, source)
    sage: print(apply_edit(source, edit))
    model m {
      input = 3; tokens = 2
      layer attention(rank = 2, out = 1)
    }
"""
import re
from typing import NamedTuple

from sage_attention.catalog.computations import COMPUTATIONS
from sage_attention.dsl.source_text import strip_comments

#: The verbs that start a clause of a fix line.
_VERBS = ("write", "use", "give", "name", "drop", "remove", "put", "add", "keep", "e.g.")
_LOCATION = re.compile(r"^[^\n]*?:(\d+):(\d+): ")


class Edit(NamedTuple):
    r"""
    A replacement of the source text from ``(line, column)`` to ``(end_line, end_column)``
    (1-based; the end excluded) by ``new``.

    EXAMPLES::

        sage: from sage_attention.dsl.fixes import Edit, apply_edit
        sage: apply_edit("input = 3 tokens = 2", Edit(1, 11, 1, 11, "; "))
        'input = 3 ; tokens = 2'
    """
    line: int
    column: int
    end_line: int
    end_column: int
    new: str


def _offset(lines, line, column):
    """The offset in the source of the 1-based ``(line, column)`` (clamped to the source)."""
    if line > len(lines):
        return sum(len(x) + 1 for x in lines) - 1
    return sum(len(x) + 1 for x in lines[:line - 1]) + min(max(column - 1, 0), len(lines[line - 1]))


def _position(source, pos):
    """The 1-based ``(line, column)`` of the offset ``pos``."""
    line = source.count("\n", 0, pos) + 1
    return line, pos - (source.rfind("\n", 0, pos) + 1) + 1


def apply_edit(source, edit):
    r"""
    Return ``source`` with the :class:`Edit` ``edit`` applied.

    EXAMPLES::

        sage: from sage_attention.dsl.fixes import Edit, apply_edit
        sage: apply_edit("a\nbcd", Edit(2, 2, 2, 3, "X"))
        'a\nbXd'
    """
    lines = source.split("\n")
    start = _offset(lines, edit.line, edit.column)
    end = _offset(lines, edit.end_line, edit.end_column)
    return source[:start] + edit.new + source[max(start, end):]


def error_location(error):
    r"""
    Return the region ``(line, column, end_line, end_column)`` an error of a spec points at, or ``None``.

    A located :class:`~sage_attention.dsl.errors.SpecError` gives its
    span, a syntax error its position, another error (a refusal of the
    size guard) the position its message starts with.

    EXAMPLES::

        sage: from sage_attention.dsl.fixes import error_location
        sage: from sage_attention.misc.errors import ComputationTooLarge
        sage: error_location(ComputationTooLarge("a.att:2:13: too large", 10))
        (2, 13, 2, 13)
    """
    span = getattr(error, "span", None)
    if span is not None and getattr(span, "end_line", None) is not None:
        return span.line, span.column, span.end_line, span.end_column
    if span is not None:
        return span.line, span.column, span.line, span.column
    if isinstance(getattr(error, "lineno", None), int) and isinstance(getattr(error, "offset", None), int):
        return error.lineno, error.offset, error.lineno, error.offset
    m = _LOCATION.match(str(error))
    if m:
        line, column = int(m.group(1)), int(m.group(2))
        return line, column, line, column
    return None


def fix_text(error):
    r"""
    Return the text of an error's ``fix:`` line, or ``None``.

    EXAMPLES::

        sage: from sage_attention.dsl.fixes import fix_text
        sage: from sage_attention.misc.errors import SpecError
        sage: fix_text(SpecError("bad", fix="write `rank = 1`"))
        'write `rank = 1`'
    """
    for attr in ("fix", "hint"):
        value = getattr(error, attr, None)
        if isinstance(value, str) and value:
            return value
    m = re.search(r"\nfix: (.*)$", str(error))
    return m.group(1) if m else None


def clauses(text):
    r"""
    Return the clauses of a fix line, each a pair ``(verb, text)``; a clause without a verb
    takes the verb of the clause before it.

    EXAMPLES::

        sage: from sage_attention.dsl.fixes import clauses
        sage: clauses("write `out = 3` or drop `residual`")
        [('write', 'write `out = 3`'), ('drop', 'drop `residual`')]
        sage: clauses("use one of its options: `up to degree N`; `algorithm = elimination` or `seed = 1`")
        [('use', 'use one of its options: `up to degree N`'), ('use', '`algorithm = elimination` or `seed = 1`')]
    """
    # split outside remarks in parentheses (and outside backquotes)
    masked, depth, quoted = [], 0, False
    for ch in text:
        if ch == "`":
            quoted = not quoted
        elif not quoted and ch == "(":
            depth += 1
        elif not quoted and ch == ")" and depth:
            depth -= 1
        masked.append(ch if depth == 0 or ch in "()" else "_")
    masked = "".join(masked)
    cuts = [(m.start(), m.end()) for m in re.finditer(
        r";\s+|,\s+or\s+(?=[a-z])|\s+or\s+(?=(?:drop|remove|write|add|put|use|give|keep)\b)"
        r"|,\s+(?=(?:drop|remove|add|put|keep)\b)", masked)]
    parts, start = [], 0
    for a, b in cuts:
        parts.append(text[start:a])
        start = b
    parts.append(text[start:])
    out, verb = [], None
    for part in parts:
        part = part.strip()
        if not part:
            continue
        m = re.match(r"(?:or\s+)?([a-z.]+)", part)
        word = m.group(1) if m else ""
        after = re.search(r":\s+(drop|remove|write)\b", part)
        if word not in _VERBS and after:
            # `\`input\` is already given: remove \`d = 3\``
            word = after.group(1)
        if word in _VERBS:
            verb = word
        out.append((verb, part))
    return out


def _snippets(clause):
    r"""
    Return the snippets in backquotes of a clause, except those in a remark in parentheses.

    EXAMPLES::

        sage: from sage_attention.dsl.fixes import _snippets
        sage: _snippets("write `residual = false` (`out` differs) or `layer dense(out = 1)`")
        ['residual = false', 'layer dense(out = 1)']
    """
    out, depth = [], 0
    for i, part in enumerate(clause.split("`")):
        if i % 2:
            if depth == 0:
                out.append(part)
        else:
            depth += part.count("(") - part.count(")")
    return out


def _scan_item_end(text, start):
    """The offset just after the item of ``text`` starting at ``start`` (a key and its value)."""
    depth, i = 0, start
    pairs = re.match(r"entries\s*=", text[start:])       # `entries = (1, 1), (2, 1)`
    while i < len(text):
        ch = text[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and ch == "," and pairs and re.match(r",\s*\(", text[i:]):
            pass
        elif depth == 0 and ch in ";,\n":
            break
        i += 1
    while i > start and text[i - 1] in " \t\r":
        i -= 1
    return i


def _scope(text, pos):
    r"""
    Return ``(start, end)`` of the innermost scope around ``pos``: the
    parentheses of a layer, the statement of a ``compute`` block, or a model's block.
    """
    stack = []
    for i, ch in enumerate(text[:pos]):
        if ch in "({[":
            stack.append(i)
        elif ch in ")}]" and stack:
            stack.pop()
    opener = next((i for i in reversed(stack) if text[i] in "({"), None)
    if opener is None:
        return 0, len(text)
    close = {"(": ")", "{": "}"}[text[opener]]
    depth, end = 0, len(text)
    for j in range(opener, len(text)):
        if text[j] in "({[":
            depth += 1
        elif text[j] in ")}]":
            depth -= 1
            if depth == 0:
                end = j
                break
    start = opener + 1
    header = text[text.rfind("\n", 0, opener) + 1:opener]
    if close == "}" and re.match(r"\s*compute\b", header):
        # a statement of a compute block: from the separator before pos to the one after
        seps = [m.start() for m in re.finditer(r"[;\n]", text[start:end])]
        before = [start + s + 1 for s in seps if start + s < pos]
        after = [start + s for s in seps if start + s >= pos]
        return (before[-1] if before else start), (after[0] if after else end)
    return start, end


def _find_item(text, scope, key):
    """The ``(start, end)`` of the item ``key`` (``key = ...``, ``up to degree N``, a word) in ``scope``."""
    start, end = scope
    if key == "up to degree":
        pattern = r"\bup\s+to\s+degree\b"
    else:
        pattern = r"(?<![\w.])" + re.escape(key) + r"(?![\w(])"
    plain = strip_comments(text)
    for m in re.finditer(pattern, plain[start:end]):
        s = start + m.start()
        return s, min(_scan_item_end(plain, s), end)
    return None


def _delete(text, s, e):
    """Delete the item ``text[s:e]`` and one separator next to it."""
    before = text[:s].rstrip(" \t")
    if before and (before[-1].isalnum() or before[-1] in "_)]"):
        # an option after a statement's word (`dimension foo = 1; fibers`): its space goes
        return before + text[e:]
    m = re.match(r"\s*[,;]\s*", text[e:])
    if m:
        return text[:s] + text[e + m.end():]
    m = re.search(r"\s*[,;]\s*$", text[:s])
    if m and text[:m.start()].rstrip()[-1:] not in ("(", "{"):
        return text[:m.start()] + text[e:]
    return text[:s] + text[e:]


def _concrete(snippet):
    """The snippet with its placeholders written as values, or ``None`` if it keeps one."""
    snippet = re.sub(r"\bup to degree N\b", "up to degree 2", snippet)
    snippet = re.sub(r"= N\b", "= 2", snippet)
    if snippet.rstrip().endswith("=") or "..." in snippet or re.search(r"\b(N|WHAT|value|w|r|p|a|r')\b(?!\s*=)", snippet) \
            or "{" in snippet:
        return None
    return snippet


def _item_key(snippet):
    """The key a snippet sets: ``key`` of ``key = value``, ``up to degree``, or ``None``."""
    if re.match(r"up\s+to\s+degree\b", snippet):
        return "up to degree"
    m = re.match(r"([A-Za-z_]\w*)\s*=", snippet)
    return m.group(1) if m else None


def _set(text, pos, item, snippet):
    """Set the snippet ``key = value`` in the scope of ``pos`` (``item`` the item pointed at)."""
    key = _item_key(snippet)
    scope = _scope(text, pos)
    if key is None:
        if item is not None:
            return text[:item[0]] + snippet + text[item[1]:]
        return text[:pos] + snippet + " " + text[pos:]
    if item is not None:
        head = re.match(r"(up\s+to\s+degree|[A-Za-z_]\w*)", text[item[0]:item[1]])
        head = head.group(1) if head else ""
        if head in COMPUTATIONS:
            # an option of the statement there: set it in the statement
            found = _find_item(text, (item[0], item[1]), key)
            if found is not None:
                return text[:found[0]] + snippet + text[found[1]:]
            return text[:item[1]] + " " + snippet + text[item[1]:]
        if re.sub(r"\s+", " ", head) == key or key is None:
            return text[:item[0]] + snippet + text[item[1]:]
    found = _find_item(text, scope, key)
    if found is None and key in ("field", "input", "tokens", "weights", "coordinates", "entries",
                                 "linear_output"):
        # an item of the model: its block
        model = re.compile(r"\bmodel\s+\w+\s*\{")
        opening = [m for m in model.finditer(strip_comments(text)) if m.start() <= pos]
        if opening:
            scope = _scope(text, opening[-1].end())
            found = _find_item(text, scope, key)
            if found is None:
                at = opening[-1].end()
                return text[:at] + f" {snippet};" + text[at:]
    if found is not None:
        return text[:found[0]] + snippet + text[found[1]:]
    if item is not None:
        return text[:item[0]] + snippet + text[item[1]:]
    return text[:pos] + snippet + " " + text[pos:]


def fix_edits(error, source):
    r"""
    Return the edits the ``fix:`` line of ``error`` suggests, one for each alternative.

    INPUT:

    - ``error`` -- an error of a spec (a syntax error, a
      :class:`~sage_attention.dsl.errors.SpecError` or a refusal of the
      size guard), whose message starts with its location
    - ``source`` -- the spec's text

    OUTPUT: a list of :class:`Edit`, one per alternative (each replaces the
    smallest region of the source that changes); empty when the fix is
    advice only

    EXAMPLES::

        sage: from sage_attention.dsl import parse_spec, validate
        sage: from sage_attention.dsl.fixes import fix_edits, apply_edit
        sage: source = "model m { input = 3; tokens = 2; layer attention(rank = 1, out = 2, residual = true) }"
        sage: try:
        ....:     validate(parse_spec(source))
        ....: except ValueError as e:
        ....:     error = e
        sage: print(error.fix)
        write `out = 3` or drop `residual`
        sage: for edit in fix_edits(error, source):
        ....:     print(apply_edit(source, edit))
        model m { input = 3; tokens = 2; layer attention(rank = 1, out = 3, residual = true) }
        model m { input = 3; tokens = 2; layer attention(rank = 1, out = 2) }
    """
    text = fix_text(error)
    where = error_location(error)
    if not text or where is None:
        return []
    lines = source.split("\n")
    pos = _offset(lines, where[0], where[1])
    end = _offset(lines, where[2], where[3])
    plain = strip_comments(source)
    if pos < len(plain) and (end <= pos or plain[pos:end].strip() == ""):
        e = _scan_item_end(plain, pos) if re.match(r"[A-Za-z_]", plain[pos:pos + 1]) else pos
        end = e if e > pos else pos
    item = (pos, end) if end > pos else None
    syntax = isinstance(error, SyntaxError)
    value = re.search(r"([A-Za-z_]\w*)\s*=\s*$", plain[:pos])
    if syntax and value and pos < len(plain):
        # a syntax error at a value: the item is its `key = value`
        item = (value.start(1), max(_scan_item_end(plain, pos), pos))
    results = []
    for verb, clause in clauses(text):
        listed = clause.rsplit(": ", 1)[-1] if verb in ("use", "remove", "drop") else clause
        snippets = _snippets(listed)
        if verb in ("drop", "remove", "keep") and (not snippets or "one of them" in clause
                                                  or clause.startswith(("keep", "remove this"))):
            if item is not None:
                results.append(_delete(source, *item))
            elif re.match(r"remove this", clause) and pos < len(source):
                results.append(source[:pos] + source[pos + 1:])
            continue
        if verb in ("drop", "remove"):
            for s in snippets:
                key = s.split("=")[0].strip()
                key = "up to degree" if key.startswith("up to degree") else key.split()[0]
                found = (_find_item(plain, _scope(plain, pos), key) if pos < len(plain) else None) \
                    or _find_item(plain, (0, len(plain)), key) if key else None
                if found is not None:
                    results.append(_delete(source, *found))
            continue
        if verb in ("put", "add"):
            if re.match(r"add a line", clause) and snippets:
                s = _concrete(snippets[0])
                opening = source.find("{", pos)
                if s is not None and _item_key(s) is not None:
                    results.append(_set(source, pos, None, s))
                elif s is not None and opening >= 0:
                    results.append(source[:opening + 1] + "\n  " + s + source[opening + 1:])
                continue
            if snippets and (re.search(r"\bbefore\b", clause) or "missing" in clause):
                inserted = snippets[0]
                if inserted in (";", "`;`") or clause.startswith("put a newline"):
                    inserted = ";"
                results.append(source[:pos] + inserted + " " + source[pos:])
            continue
        if verb in ("write", "use", "give", "name", "e.g."):
            if re.search(r"\bin (each|layer|the model)\b", clause):
                continue            # text to write elsewhere: advice
            for s in snippets:
                s = _concrete(s)
                if s is None:
                    continue
                words = s.split(" ", 1)
                if len(words) == 2 and words[0] in COMPUTATIONS and item is not None \
                        and re.search(r"\b" + words[0] + r"\s+$", plain[:item[0]]):
                    s = words[1]        # `check generation` for the word after `check`
                if re.fullmatch(r"[A-Za-z_]\w*", s):
                    # a keyword written for the word there, or a value for the value there
                    m = re.match(r"[A-Za-z_]\w*|[^\s,;(){}\[\]]+", plain[pos:])
                    if m:
                        results.append(source[:pos] + s + source[pos + m.end():])
                    continue
                if _item_key(s) is not None and syntax and item is not None:
                    # a syntax error points at the item to rewrite
                    results.append(source[:item[0]] + s + source[item[1]:])
                elif _item_key(s) is not None:
                    results.append(_set(source, pos, item, s))
                elif item is not None:
                    results.append(source[:item[0]] + s + source[item[1]:])
    edits = []
    for new in results:
        if new == source:
            continue
        # the smallest region that differs, as one edit
        a = 0
        while a < min(len(new), len(source)) and new[a] == source[a]:
            a += 1
        b = 0
        while b < min(len(new), len(source)) - a and new[-1 - b] == source[-1 - b]:
            b += 1
        line, column = _position(source, a)
        end_line, end_column = _position(source, len(source) - b)
        edit = Edit(line, column, end_line, end_column, new[a:len(new) - b])
        if edit not in edits:
            edits.append(edit)
    return edits


__all__ = ["Edit", "apply_edit", "fix_edits", "fix_text", "error_location", "clauses"]
