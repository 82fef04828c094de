# `make run`: fit a rule on the embedded Breast Cancer data; `make test`: the whole test suite.
# Each target creates the project-local virtual environment .venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin

.PHONY: run test

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
	$(BIN)/python -m pytest -n 2 --durations=15
