r"""
HTML tables for the reports (their rich display in Jupyter)

Every report of the package has ``_repr_html_``, which Jupyter calls to
show it: a caption (the sentence of its ``repr``) and a table of its
numbers, built by :func:`html_table`. Every cell is escaped with
``html.escape``; a cell shows no Python ``None`` (an em dash stands for
"none"), a float to four significant digits, and a Sage object with a
LaTeX form (a polynomial, a matrix, a ring) as inline LaTeX math, which
Jupyter typesets. This module imports no Sage, so every layer may use
it.

EXAMPLES::

    sage: from sage_attention.misc.html import html_table
    sage: print(html_table([("dimension", 4), ("model", "a < b")], caption="D"))
    <table class="sage-attention-report">
    <caption>D</caption>
    <tr><th>dimension</th><td>4</td></tr>
    <tr><th>model</th><td>a &lt; b</td></tr>
    </table>
"""
from html import escape


def cell(value):
    r"""
    Return the HTML of one table cell's ``value``: escaped text, math for Sage objects.

    EXAMPLES::

        sage: from sage_attention.misc.html import cell
        sage: cell(None), cell(0.1234567), cell(3.2e-09), cell(7), cell("a < b")
        ('&mdash;', '0.1235', '3.2e-09', '7', 'a &lt; b')
        sage: R.<x, y> = QQ[]
        sage: cell(x^2 - y), cell(QQ(1/2))
        ('\\(x^{2} - y\\)', '1/2')
    """
    import numbers
    if value is None:
        return "&mdash;"
    if isinstance(value, float) or (isinstance(value, numbers.Real) and not isinstance(value, numbers.Rational)):
        return escape(f"{float(value):.4g}")
    latex = getattr(value, "_latex_", None)
    if latex is not None and not isinstance(value, (str, numbers.Number)):
        try:
            return "\\(" + escape(str(latex())) + "\\)"
        except Exception:           # an object whose LaTeX fails is shown as text
            pass
    return escape(str(value))


def html_table(rows, header=None, caption=None):
    r"""
    Return an HTML table of ``rows``, every cell escaped.

    INPUT:

    - ``rows`` -- list of tuples; the first entry of a row is its heading
      when ``header`` is ``None`` (a two-column table of names and values)
    - ``header`` -- (default: ``None``) list of column names
    - ``caption`` -- (default: ``None``) a string

    OUTPUT: a string

    EXAMPLES::

        sage: from sage_attention.misc.html import html_table
        sage: print(html_table([("linear", 4)], header=["family", "members"]))
        <table class="sage-attention-report">
        <tr><th>family</th><th>members</th></tr>
        <tr><td>linear</td><td>4</td></tr>
        </table>
    """
    out = ['<table class="sage-attention-report">']
    if caption is not None:
        out.append(f"<caption>{escape(str(caption))}</caption>")
    if header is not None:
        out.append("<tr>" + "".join(f"<th>{escape(str(h))}</th>" for h in header) + "</tr>")
        for row in rows:
            out.append("<tr>" + "".join(f"<td>{cell(x)}</td>" for x in row) + "</tr>")
    else:
        for name, *values in rows:
            out.append(f"<tr><th>{escape(str(name))}</th>"
                       + "".join(f"<td>{cell(x)}</td>" for x in values) + "</tr>")
    out.append("</table>")
    return "\n".join(out)
