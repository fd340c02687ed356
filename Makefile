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

test: tools pytest doctest

# Macaulay2 for the export round-trip test (Debian's package; the M2 binary of
# passagemath-macaulay2 does not run on every CPU). Without root or network
# the M2 tests are skipped with a message.
tools:
	@command -v M2 >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq macaulay2; } >/dev/null 2>&1 \
	  || echo "note: Macaulay2 could not be installed; tests that need M2 will be skipped"

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
	$(BIN)/python -m benchmarks.bench_proof_degree

clean:
	rm -rf $(VENV) build *.egg-info
