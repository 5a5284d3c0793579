# The two set-up commands of the README. Both install what is missing first (scripts/setup.sh).
PY := .venv/bin/python

.PHONY: setup run test test-fast bench

setup:
	@bash scripts/setup.sh

run: setup
	$(PY) manage.py serve

test: setup
	$(PY) -m pytest

# Unit and app tests only, without the browser tests.
test-fast: setup
	$(PY) -m pytest -m "not e2e"
