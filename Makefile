# GNU make. `make run` and `make test` work on a fresh clone with no configuration.
SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := run

PYTHON ?= python3.11
VENV = .venv
BIN = $(VENV)/bin
MANAGE = $(BIN)/python manage.py
ADDRESS ?= 127.0.0.1:8000
PYTEST_ARGS ?=
MO_FILES = $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/django.po))
# Settings read VAR_DIR from the environment too; make sees the same value.
VAR_DIR ?= var
STATIC_STAMP = $(VAR_DIR)/static/.collected

.PHONY: install run test clean chromium poppler

install: $(VENV)/.installed $(MO_FILES)

$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -e ".[dev]"
	touch $@

# Compiled catalogs are build output, not committed.
locale/%/LC_MESSAGES/django.mo: locale/%/LC_MESSAGES/django.po | $(VENV)/.installed
	$(MANAGE) compilemessages --locale $* --verbosity 0

# collectstatic compresses every file each time (about half a minute): only redo it when the
# project's static files or the installed packages changed.
$(STATIC_STAMP): $(VENV)/.installed $(shell find static -type f)
	$(MANAGE) collectstatic --noinput --verbosity 0
	touch $@

run: install $(STATIC_STAMP)
	$(MANAGE) migrate --noinput
	$(MANAGE) load_demo
	BIN=$(BIN) ADDRESS=$(ADDRESS) bash config/run.sh

# The browser test drives Debian's Chromium (never a browser Playwright downloads): installed when
# missing where we may (root, apt); elsewhere that test is skipped, with the reason.
chromium:
	@command -v chromium >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
		&& apt-get update -qq && apt-get install -y -qq chromium; } \
		|| echo "chromium is missing: the browser test will be skipped"

# The protocol tests check PDF signatures with pdfsig (poppler-utils), installed the same way.
poppler:
	@command -v pdfsig >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
		&& apt-get update -qq && apt-get install -y -qq poppler-utils; } \
		|| echo "pdfsig is missing: the tests that need it will be skipped"

# mypy first (its cache in .mypy_cache makes a second run take seconds): a type error fails the run.
test: install chromium poppler
	$(BIN)/lint-imports --no-cache
	$(BIN)/mypy
	$(BIN)/pytest $(PYTEST_ARGS)

clean:
	rm -rf var staticfiles
