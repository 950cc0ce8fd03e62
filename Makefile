# The project's two commands: `make demo` and `make test`. Both make .venv themselves.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test lint typecheck bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/moderator demo

lint: $(STAMP)
	$(BIN)/ruff check moderator tests bench
	$(BIN)/ruff format --check moderator tests bench

typecheck: $(STAMP)
	$(BIN)/mypy --strict moderator

test: lint typecheck
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
