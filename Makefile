# Two commands do all set-up on a fresh machine:
#   make demo   -- run the main job on the default example spec
#   make test   -- run every test (pytest, then the sage -t doctests)
PYTHON ?= python3.11
VENV   ?= .venv
BIN     = $(VENV)/bin
STAMP   = $(VENV)/.installed
DOCTEST = $(BIN)/sage -tp 2 --force-lib --environment=sage_attention._doctest_environment

.PHONY: demo test pytest doctest testlong bench venv clean

venv: $(STAMP)

$(STAMP): setup.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/sage-attention run examples/slice.att

test: pytest doctest

pytest: $(STAMP)
	$(BIN)/python -m pytest -q tests

doctest: $(STAMP)
	$(DOCTEST) sage_attention doc

testlong: $(STAMP)
	$(BIN)/python -m pytest -q tests
	$(DOCTEST) --long --warn-long 2 sage_attention doc

bench: $(STAMP)
	$(BIN)/python -m benchmarks.run

clean:
	rm -rf $(VENV) build *.egg-info
