# `make run`: fit a rule on the embedded Breast Cancer data; `make test`: the test suite without its slow tier
# (tests marked `slow`: process-level ones, benchmark scripts' runs); `make test-slow`: that tier. CI (.ci/run) runs both.
# Each target creates the project-local virtual environment .venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin

.PHONY: run test test-slow

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-core: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-all: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[all]"
	touch $@ $(VENV)/.installed-core

run: $(VENV)/.installed-core
	$(BIN)/boolrules fit

test: $(VENV)/.installed-all
	$(BIN)/python -m pytest -n 2 --dist worksteal -m "not slow" --durations=15

test-slow: $(VENV)/.installed-all
	$(BIN)/python -m pytest -n 2 --dist loadgroup -m slow --durations=15
