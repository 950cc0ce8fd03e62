# The project's commands: `make demo` and `make test` (both make .venv, with the
# development tools, themselves), and `make install` (the service alone, for production).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Where `make install` puts the service's own virtual environment (docs/deploy.md).
PREFIX ?= /srv/moderator/venv

.PHONY: demo test lint typecheck bench clean install

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

# The service without the development tools, PostgreSQL's driver included; then
# $(PREFIX)/bin/moderator is the command (README, Running it for real).
install:
	$(PYTHON) -m venv $(PREFIX)
	$(PREFIX)/bin/python -m pip install --quiet --upgrade pip
	$(PREFIX)/bin/python -m pip install --quiet '.[postgres]'
	@$(PREFIX)/bin/moderator --version
	@echo "installed: $(PREFIX)/bin/moderator"

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
