# Two commands do all set-up on a fresh machine:
#   make demo   -- run the main job on the default example spec
#   make test   -- run every test (pytest, the sage -t doctests, the notebook,
#                  and the documentation build with warnings as errors)
PYTHON ?= python3.11
VENV   ?= .venv
BIN     = $(VENV)/bin
STAMP   = $(VENV)/.installed
DOCTEST = $(BIN)/sage -tp 2 --force-lib --environment=sage_attention._doctest_environment

.PHONY: demo test pytest doctest notebook docs shell testlong bench tools venv clean

venv: $(STAMP)

$(STAMP): setup.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,docs]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/sage-attention run examples/slice.att

test: pytest doctest notebook docs

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

pytest: $(STAMP)
	$(BIN)/python -m pytest -q tests

doctest: $(STAMP)
	$(DOCTEST) sage_attention doc

# An interactive Sage session (preparser, Sage's integers) with the installed
# passagemath distributions and sage_attention imported. Plain `.venv/bin/sage`
# warns that sage.all is not available; the startup file imports the parts we have.
SHELL_INIT = $(VENV)/sage_attention_init.sage
shell: $(STAMP)
	@printf '%s\n' 'from sage.all__sagemath_singular import *' \
	  'from sage_attention import LightningAttention, SoftmaxAttention, Neurovariety, parse_spec, parse_spec_file, implicitize, certify' \
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

testlong: $(STAMP)
	$(BIN)/python -m pytest -q tests
	$(DOCTEST) --long --warn-long 2 sage_attention doc

bench: $(STAMP) tools
	$(BIN)/python -m pip install -q -e '.[test,bench]'
	$(BIN)/python -m benchmarks.bench_dimension
	$(BIN)/python -m benchmarks.bench_softmax
	$(BIN)/python -m benchmarks.run
	$(BIN)/python -m benchmarks.bench_proof_degree
	$(BIN)/python -m benchmarks.bench_generation
	$(BIN)/python -m benchmarks.bench_overhead
	$(BIN)/python -m benchmarks.bench_certificate

clean:
	rm -rf $(VENV) build *.egg-info doc/_build doc/_autosummary
