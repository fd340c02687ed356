r"""
HTML tables for the reports (their rich display in Jupyter)

Every report of the package has ``_repr_html_``, which Jupyter calls to
show it: a caption (the sentence of its ``repr``) and a table of its
numbers, built by :func:`html_table`. Every cell is escaped with
``html.escape``. This module imports no Sage, so every layer may use it.

EXAMPLES::

    sage: from sage_attention.html import html_table
    sage: print(html_table([("dimension", 4), ("model", "a < b")], caption="D"))
    <table class="sage-attention-report">
    <caption>D</caption>
    <tr><th>dimension</th><td>4</td></tr>
    <tr><th>model</th><td>a &lt; b</td></tr>
    </table>
"""
from html import escape


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

        sage: from sage_attention.html import html_table
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
            out.append("<tr>" + "".join(f"<td>{escape(str(x))}</td>" for x in row) + "</tr>")
    else:
        for name, *values in rows:
            out.append(f"<tr><th>{escape(str(name))}</th>"
                       + "".join(f"<td>{escape(str(x))}</td>" for x in values) + "</tr>")
    out.append("</table>")
    return "\n".join(out)
