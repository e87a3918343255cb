# Quickstart targets: each creates .venv if needed, installs what it needs, then runs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip

.PHONY: demo test bench lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

demo: $(BIN)/python
	$(PIP) install -q -e .
	$(BIN)/taas play continental_v1 --agents greedy,greedy,random,random --rounds 4 --seed 1 --render

test: $(BIN)/python
	$(PIP) install -q -e ".[dev]"
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q -n 2 --dist worksteal

bench: $(BIN)/python
	$(PIP) install -q -e ".[peers]"
	$(BIN)/python -m taas.benchmarks.speed --out results/speed.json

lint: $(BIN)/python
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) results .pytest_cache .ruff_cache
