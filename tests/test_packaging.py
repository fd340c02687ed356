"""
The package's metadata: one version number everywhere, a valid citation
file, compatible-release requirements, Sage behind the extra ``passagemath``.

The plain install itself (a wheel into a fresh virtual environment) is
``tests/plain_install.sh`` (``make installtest``, part of ``make test``).
"""
import os
import re
import tomllib

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read(name):
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        return f.read()


def version_py():
    return re.search(r'^__version__ = "([^"]+)"$', read("sage_attention/version.py"), re.M).group(1)


def test_the_versions_agree():
    import sage_attention
    v = version_py()
    assert sage_attention.__version__ == v
    cff = re.findall(r'^version: "?([^"\n]+)"?$', read("CITATION.cff"), re.M)
    assert cff == [v], f"CITATION.cff says {cff}, sage_attention/version.py says {v}"
    headings = re.findall(r"^## (\d[^\s]*)", read("CHANGELOG.md"), re.M)
    assert headings and headings[0] == v, \
        f"the newest release in CHANGELOG.md is {headings[:1]}, sage_attention/version.py says {v}"


def test_the_citation_file_is_cff_1_2_0():
    yaml = pytest.importorskip("yaml")
    cff = yaml.safe_load(read("CITATION.cff"))
    assert cff["cff-version"] == "1.2.0"
    for key in ("message", "title", "authors", "version", "license"):
        assert key in cff, key
    assert all("name" in a or "family-names" in a for a in cff["authors"])
    assert cff["license"] == tomllib.loads(read("pyproject.toml"))["project"]["license"]


def requirement_names(reqs):
    return {re.match(r"[A-Za-z0-9_.-]+", r).group(0).lower() for r in reqs}


def test_requirements_are_ranges_and_sage_comes_with_the_passagemath_extra():
    project = tomllib.loads(read("pyproject.toml"))["project"]
    every = project["dependencies"] + [r for reqs in project["optional-dependencies"].values()
                                       for r in reqs]
    pinned = [r for r in every if "==" in r]
    assert not pinned, f"exact pins: {pinned}"
    # Sage comes with the extra `passagemath` (the plain-Python route); the plain dependencies are
    # the small ones, so that `sage -pip install sage_attention` into a Sage adds no second Sage
    deps = project["dependencies"]
    assert not any(r.lower().startswith(("passagemath", "sagemath")) for r in deps), deps
    extra = project["optional-dependencies"]["passagemath"]
    assert {"passagemath-singular", "passagemath-flint", "passagemath-linbox",
            "passagemath-repl"} <= requirement_names(extra)
    assert all("~= 10.8" in r for r in extra), extra
    assert "lark >= 1.2, < 2" in deps


def test_the_readme_installs_are_what_the_install_test_installs():
    plain = 'pip install "sage_attention[passagemath]"'
    assert plain in read("README.md") and plain in read("PYPI.md")
    script = read("tests/plain_install.sh")
    assert 'EXTRAS="${PLAIN_INSTALL_EXTRAS-[passagemath]}"' in script     # the README's extra
    assert "sage -pip install sage_attention" in read("README.md")
    assert '"$WORK/sage-env/bin/python" -m pip install -q "$WHEEL"' in script   # into a Sage: no extra
