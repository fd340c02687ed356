"""The built documentation site works offline: every formula is in a math element that the
MathJax shipped in the site renders, no page loads a script or a stylesheet from the network,
and the TESTS sections of the docstrings are not shown. Run by ``make docs`` after the build
(SAGE_ATTENTION_DOCS_HTML names the built site); skipped without a build."""
import os
import re
from pathlib import Path

import pytest

SITE = os.environ.get("SAGE_ATTENTION_DOCS_HTML")
pytestmark = pytest.mark.skipif(not SITE, reason="run by `make docs` after the build "
                                                 "(SAGE_ATTENTION_DOCS_HTML=doc/_build/html)")

MATH = re.compile(r'<(span|div) class="math[^"]*">.*?</\1>', re.S)
CODE = re.compile(r"<pre>.*?</pre>", re.S)           # code is shown as it is
REMOTE = re.compile(r'<(?:script|link|img)\b[^>]*\b(?:src|href)="((?:https?:)?//[^"]*)"')


def pages():
    out = sorted(Path(SITE).rglob("*.html"))
    assert len(out) > 20, out
    return out


def test_every_formula_is_rendered_by_the_shipped_mathjax():
    mathjax = Path(SITE) / "_static" / "mathjax"
    assert (mathjax / "tex-chtml.js").stat().st_size > 100000
    assert any((mathjax / "output" / "chtml" / "fonts" / "woff-v2").glob("*.woff"))
    with_math = 0
    for page in pages():
        html = page.read_text(encoding="utf-8")
        rest = CODE.sub("", MATH.sub("", html))
        for delim in (r"\(", r"\["):
            assert delim not in rest, (page, rest[max(rest.index(delim) - 200, 0):rest.index(delim) + 100])
        if MATH.search(html):
            with_math += 1
            src = re.search(r'<script[^>]*src="([^"?]*mathjax/tex-chtml\.js)(?:\?[^"]*)?"', html)
            assert src, page
            assert (page.parent / src.group(1)).resolve() == (mathjax / "tex-chtml.js").resolve(), page
    assert with_math > 10


def test_no_page_loads_anything_from_the_network():
    for page in pages():
        html = page.read_text(encoding="utf-8")
        assert not REMOTE.findall(html), (page, REMOTE.findall(html))


def test_tests_sections_are_hidden_and_the_install_page_is_linked():
    api = list((Path(SITE) / "_autosummary").glob("*.html"))
    assert len(api) > 50
    for page in api:
        assert "TESTS" not in page.read_text(encoding="utf-8"), page
    # a TESTS-only doctest of Heartbeat is in the source, not in the site
    assert "TESTS::" in Path(__file__).parent.parent.joinpath("sage_attention", "misc", "progress.py").read_text()
    assert 'href="install.html"' in (Path(SITE) / "index.html").read_text(encoding="utf-8")
