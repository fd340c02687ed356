# Two commands do all set-up on a fresh machine:
#   make demo   -- run the main job on the default example spec
#   make test   -- run every test (pytest, then the sage -t doctests)
PYTHON ?= python3.11
VENV   ?= .venv
BIN     = $(VENV)/bin
STAMP   = $(VENV)/.installed
DOCTEST = $(BIN)/sage -tp 2 --force-lib --environment=sage_attention._doctest_environment

.PHONY: demo test pytest doctest testlong bench tools venv clean

venv: $(STAMP)

$(STAMP): setup.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/sage-attention run examples/slice.att

test: pytest doctest

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

testlong: $(STAMP)
	$(BIN)/python -m pytest -q tests
	$(DOCTEST) --long --warn-long 2 sage_attention doc

bench: $(STAMP) tools
	$(BIN)/python -m pip install -q -e '.[test,bench]'
	$(BIN)/python -m benchmarks.bench_dimension
	$(BIN)/python -m benchmarks.bench_softmax
	$(BIN)/python -m benchmarks.run

clean:
	rm -rf $(VENV) build *.egg-info
