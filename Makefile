# Two commands do all set-up on a fresh machine:
#   make demo   -- run the main job on the default example spec
#   make test   -- run every test (pytest, the sage -t doctests, the notebook,
#                  and the documentation build with warnings as errors)
PYTHON ?= python3.11
VENV   ?= .venv
BIN     = $(VENV)/bin
STAMP   = $(VENV)/.installed
DOCTEST = $(BIN)/sage -tp 2 --force-lib --environment=sage_attention._doctest_environment

.PHONY: demo test pytest doctest notebook docs installtest dist pythons sagetest shell testlong bench tools venv clean

venv: $(STAMP)

# the development install: the package editable, Sage as the passagemath
# distributions (extra `passagemath`), the test and docs tools (extras `test`, `docs`)
$(STAMP): setup.py pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[passagemath,test,docs]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/sage-attention run examples/slice.att

test: pytest doctest notebook docs installtest

# The plain install as the README gives it: sdist and wheel built (twine
# check, the sdist's contents), the wheel installed without extras and
# nothing else into a fresh venv, then `sage-attention`
# and a Python session run from another folder with an empty TMPDIR and cache
# (about a minute with pip's cache; changes nothing outside a temporary folder).
installtest:
	bash tests/plain_install.sh $(PYTHON)

# The sdist and the wheel in dist/, and their metadata checked.
dist: $(STAMP)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .
	$(BIN)/python -m twine check --strict dist/*

# Under Python 3.12 and 3.13: the plain install (tests/plain_install.sh, the
# wheel without extras in a fresh venv), then the test suite in its own venv
# (.venv-3.12, .venv-3.13; pytest only: the doctests, the notebook and the
# docs run under $(PYTHON) in `make test`). An interpreter is taken from PATH
# or from pyenv's versions; a missing one is skipped with a message.
PYTHONS ?= 3.12 3.13
pythons:
	@for v in $(PYTHONS); do \
	  py=$$(command -v python$$v 2>/dev/null); \
	  if [ -z "$$py" ] || ! "$$py" --version >/dev/null 2>&1; then \
	    py=$$(ls -d $${PYENV_ROOT:-$$HOME/.pyenv}/versions/$$v*/bin/python$$v 2>/dev/null | tail -n 1); fi; \
	  if [ -z "$$py" ]; then echo "skipped: no Python $$v (on PATH or in pyenv: pyenv install $$v)"; continue; fi; \
	  echo "== Python $$v: $$py"; \
	  bash tests/plain_install.sh "$$py" || exit 1; \
	  test -x .venv-$$v/bin/python || "$$py" -m venv .venv-$$v || exit 1; \
	  .venv-$$v/bin/python -m pip install -q -e '.[passagemath,test]' || exit 1; \
	  .venv-$$v/bin/python -m pytest -q tests || exit 1; \
	done

# With a full Sage: passagemath-standard (the whole Sage library as wheels,
# several GB; about 6 minutes with pip's cache) in .venv-sage, the wheel of
# this checkout installed into it as `sage -pip install sage_attention` would
# (no extra), then a session with `from sage.all import *`. The smoke test
# fails when installing the wheel downgraded or removed anything of that Sage.
SAGE_VENV ?= .venv-sage
sagetest:
	test -x $(SAGE_VENV)/bin/python || $(PYTHON) -m venv $(SAGE_VENV)
	$(SAGE_VENV)/bin/python -m pip install -q --only-binary=:all: 'passagemath-standard ~= 10.8' build
	rm -rf $(SAGE_VENV)/dist
	$(SAGE_VENV)/bin/python -m build -q --wheel --outdir $(SAGE_VENV)/dist .
	$(SAGE_VENV)/bin/python -m pip freeze --all > $(SAGE_VENV)/before.txt
	$(SAGE_VENV)/bin/python -m pip install -q $(SAGE_VENV)/dist/*.whl
	$(SAGE_VENV)/bin/python -m pip install -q --force-reinstall --no-deps $(SAGE_VENV)/dist/*.whl
	$(SAGE_VENV)/bin/python -m pip freeze --all > $(SAGE_VENV)/after.txt
	cd $(SAGE_VENV) && bin/python $(CURDIR)/tests/sage_smoke.py before.txt after.txt

# Macaulay2 for the export round-trip test and the benchmarks. A test target
# never changes the system: the tests use the M2 of passagemath-macaulay2 (pip,
# in the test extra, installed into the venv)
# when its binary runs on this CPU, else an M2 on PATH, and are skipped with
# the reason otherwise. `make tools` only reports what it finds; Debian's
# macaulay2 package, if installed by hand, is used by `make bench`.
tools: $(STAMP)
	@M2BIN=$$($(BIN)/python -c "import os, sage_wheels; print(os.path.join(sage_wheels.__path__[0], 'bin', 'M2'))" 2>/dev/null); \
	  if [ -x "$$M2BIN" ] && timeout 30 "$$M2BIN" --version >/dev/null 2>&1; then echo "Macaulay2: $$M2BIN"; \
	  elif command -v M2 >/dev/null 2>&1; then echo "Macaulay2: $$(command -v M2)"; \
	  else echo "note: no working Macaulay2 (passagemath-macaulay2's M2 does not run on this CPU?): tests that need M2 are skipped; Debian's macaulay2 package provides one"; fi

# pytest in parallel workers (pytest-xdist, in the `test` extra), one per core by default;
# the tests of a module that share work done once per process stay on one worker, and the
# slowest start first (--dist loadgroup in the order of tests/conftest.py). PYTEST_WORKERS=0
# runs them in this process.
PYTEST_WORKERS ?= auto
PYTEST = $(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist loadgroup --no-loadscope-reorder

pytest: $(STAMP)
	$(PYTEST) tests

doctest: $(STAMP)
	$(DOCTEST) sage_attention doc

# An interactive Sage session (preparser, Sage's integers) with the installed
# passagemath distributions and sage_attention imported. Plain `.venv/bin/sage`
# warns that sage.all is not available; the startup file imports the parts we have
# (the names a script run by `sage-attention script` sees: app/sage_script.sage_namespace).
SHELL_INIT = $(VENV)/sage_attention_init.sage
shell: $(STAMP)
	@printf '%s\n' 'from sage_attention.app.sage_script import sage_namespace as _namespace' \
	  'globals().update((k, v) for k, v in _namespace().items() if not k.startswith("__"))' \
	  'print("sage_attention: Sage'"'"'s rings, fields and matrices and the package'"'"'s names are imported (the warning above is about sage.all, which the modular install does not have)")' \
	  > $(SHELL_INIT)
	SAGE_STARTUP_FILE=$(SHELL_INIT) $(BIN)/sage

# The example notebooks, executed cell by cell (nbmake); a failing cell fails the test.
notebook: $(STAMP)
	$(BIN)/python -m pytest -q --nbmake examples

# The documentation site (Sphinx, furo theme) in doc/_build/html, warnings as
# errors. The API pages are generated from the docstrings on every build;
# tests/test_docs_site.py then checks that the site works offline.
docs: $(STAMP)
	$(BIN)/python -m sphinx -b html -E -W --keep-going -q doc doc/_build/html
	touch doc/_build/nodoctest doc/_autosummary/nodoctest
	SAGE_ATTENTION_DOCS_HTML=doc/_build/html $(BIN)/python -m pytest -q tests/test_docs_site.py

# everything of `make pytest` and `make doctest`, with the long tests too
# (SAGE_ATTENTION_LONG=1 in tests/, --long in the doctests)
testlong: $(STAMP)
	SAGE_ATTENTION_LONG=1 $(PYTEST) tests
	$(DOCTEST) --long --warn-long 2 sage_attention doc

bench: $(STAMP) tools
	$(BIN)/python -m pip install -q -e '.[passagemath,test,bench]'
	$(BIN)/python -m benchmarks.bench_dimension
	$(BIN)/python -m benchmarks.bench_depth
	$(BIN)/python -m benchmarks.bench_softmax
	$(BIN)/python -m benchmarks.run
	$(BIN)/python -m benchmarks.bench_proof_degree
	$(BIN)/python -m benchmarks.bench_generation
	$(BIN)/python -m benchmarks.bench_overhead
	$(BIN)/python -m benchmarks.bench_certificate
	$(BIN)/python -m benchmarks.bench_network_ideals
	$(BIN)/python -m benchmarks.bench_first_call
	$(BIN)/python -m benchmarks.bench_ed_degree --timeout 60 --two-neuron-timeout 120
	$(BIN)/python -m benchmarks.bench_ed_crosscheck

clean:
	rm -rf $(VENV) build dist *.egg-info doc/_build doc/_autosummary
