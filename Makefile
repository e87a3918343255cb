# Quickstart targets: each creates .venv if needed, installs what it needs, then runs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip
# torch is pinned here, not in pyproject.toml: 2.13.0 is the local CPU build on the project's
# machines, installed before the extras so that pip never pulls a multi-GB CUDA build.
TORCH ?= torch==2.13.0

.PHONY: demo install test train bench docs lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

demo: $(BIN)/python
	$(PIP) install -q -e .
	$(BIN)/taas play continental_v1 --agents greedy,greedy,random,random --rounds 4 --seed 1 --render

# play, the web table and tournaments, with the learned players (torch), without the test run
install: $(BIN)/python
	$(PIP) install -q "$(TORCH)"
	$(PIP) install -q -e ".[train,web,tournament]"
	$(BIN)/taas --version

test: $(BIN)/python
	$(PIP) install -q "$(TORCH)"
	$(PIP) install -q -e ".[dev,train,web,tournament,ray,docs,marl]"
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q -n 2 --dist worksteal

train: $(BIN)/python
	$(PIP) install -q "$(TORCH)"
	$(PIP) install -q -e ".[train]"
	$(BIN)/python -c "import sb3_contrib, torch; print('training extra ready: torch', torch.__version__)"

bench: $(BIN)/python
	$(PIP) install -q -e ".[peers]"
	$(BIN)/python -m taas.benchmarks.speed --out results/speed.json

# the docs site into site/; --strict: a broken link, a missing page or a docstring that does
# not render fails the build (tests/test_docs.py runs the same build in the suite)
docs: $(BIN)/python
	$(PIP) install -q -e ".[docs]"
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

lint: $(BIN)/python
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) results site .pytest_cache .ruff_cache
