# The two set-up commands of the README. Both install what is missing first (scripts/setup.sh).
PY := .venv/bin/python

.PHONY: setup run test test-fast lint

setup:
	@bash scripts/setup.sh

run: setup
	$(PY) manage.py serve

# Lint (ruff, configured in pyproject.toml) and type-check the framework-free library first: both are quick.
test: setup
	$(PY) -m ruff check .
	$(PY) -m mypy
	$(PY) -m pytest

lint: setup
	$(PY) -m ruff check .
	$(PY) -m mypy

# Unit and app tests only, without the browser tests.
test-fast: setup
	$(PY) -m pytest -m "not e2e"
