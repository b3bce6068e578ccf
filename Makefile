# The two commands of the README:  make run  and  make test.
PYTHON ?= python3.11
# make run HOST=0.0.0.0 PORT=8080: listen beyond this computer (phones at the table)
HOST   ?= 127.0.0.1
PORT   ?= 5000
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# The translations: .po sources in the repository, .mo compiled here (and by
# the wheel's build hook, hatch_build.py)
PO     := $(wildcard ginrules/words/locale/*/LC_MESSAGES/ginrules.po)
MO     := $(PO:.po=.mo)

.PHONY: run test lint typecheck pytest bench clean system-deps messages catalogues

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

%.mo: %.po $(STAMP)
	$(BIN)/pybabel -q compile -i $< -o $@

## catalogues: compile the translations (.po -> .mo)
catalogues: $(MO)

## messages: extract every message and merge it into the de, es and fr catalogues
messages: $(STAMP)
	bash scripts/messages.sh

## system-deps: the Debian packages for PDFs and their tests (apt-get when root)
system-deps:
	bash scripts/system-deps.sh

## run: set up, check every shipped ruleset, then serve the site on SQLite (instance/);
##      HOST=0.0.0.0 serves the phones on this network, PORT=8080 another port
run: $(STAMP) $(MO) system-deps
	$(BIN)/ginrules validate --all
	$(BIN)/ginrules serve --host $(HOST) --port $(PORT)

## test: set up (and start PostgreSQL for the storage tests), then ruff, mypy, pytest:
##       the suite in two processes, then the load and fault suite on its own (its
##       timings are about this machine, not about a neighbour's tests)
test: $(STAMP) $(MO) system-deps
	bash scripts/postgres-test-db.sh
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2 -m "not load"
	$(BIN)/python -m pytest -m load

lint: $(STAMP)
	$(BIN)/ruff check . && $(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP) $(MO) system-deps
	$(BIN)/python -m pytest -n 2 -m "not load"
	$(BIN)/python -m pytest -m load

## bench: every benchmark (melds, engine, rules) against rlcard and open_spiel (own venv)
bench:
	bash bench/run.sh

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
