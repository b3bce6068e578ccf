# The two commands of the README:  make run  and  make test.
PYTHON ?= python3.11
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench clean system-deps

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## system-deps: the Debian packages for PDFs and their tests (apt-get when root)
system-deps:
	bash scripts/system-deps.sh

## run: set up, then list and validate every ruleset and house rule
run: $(STAMP) system-deps
	$(BIN)/ginrules list
	$(BIN)/ginrules validate --all

## test: set up, then ruff, mypy and the whole pytest suite
test: $(STAMP) system-deps
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check . && $(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP) system-deps
	$(BIN)/python -m pytest

## bench: every benchmark (melds, engine, rules) against rlcard and open_spiel (own venv)
bench:
	bash bench/run.sh

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
