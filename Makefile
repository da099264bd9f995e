# Two entry points: `make demo` and `make test`. Both set up .venv/ first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup demo test lint clean

setup: $(STAMP)

# _version.py: the installed record (pip show, importlib.metadata) is written at install time.
$(STAMP): pyproject.toml src/paralign/_version.py
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -e '.[dev,neural,web]'
	touch $(STAMP)

demo: setup
	$(VENV)/bin/paralign demo --report demo-report.html

test: setup
	$(PY) -m pytest -q

lint: setup
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff check --preview --select E301,E302,E303,E304,E305,E306 src tests benchmarks
	$(VENV)/bin/lint-imports
	$(PY) -m mypy

clean:
	rm -rf $(VENV) build dist src/*.egg-info
