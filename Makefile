# The two commands of the README: `make run` and `make test`. Both build the
# virtualenv they need first, from the lock (requirements/dev.txt, hashes required),
# afresh whenever the lock changes, so that it holds what the lock says and nothing
# else. `make lock` rewrites the lock from pyproject.toml (requirements/lock.py).
# Django 6 wants Python >= 3.12: the newest Python found is used (pyenv's versions
# included), falling back to python3 (>= 3.11).

VENV := .venv
PY := $(VENV)/bin/python
LOCKED := $(VENV)/.locked
STAMP := $(VENV)/.installed
UV_VERSION := 0.13.9
HOST ?= 127.0.0.1
PORT ?= 8000

PYTHON ?= $(shell for p in python3.13 python3.12 $(wildcard $(HOME)/.pyenv/versions/3.13*/bin/python3) $(wildcard $(HOME)/.pyenv/versions/3.12*/bin/python3) python3; do \
	if $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then echo $$p; break; fi; done)

.PHONY: run test lint bench messages lock clean

define new_venv
@test -n "$(PYTHON)" || { echo "Python 3.11 or newer is needed" >&2; exit 1; }
rm -rf $(VENV)
$(PYTHON) -m venv $(VENV)
endef

$(PY):
	$(new_venv)

$(LOCKED): requirements/dev.txt
	$(new_venv)
	$(PY) -m pip install --quiet --require-hashes -r requirements/dev.txt
	touch $(LOCKED)

# the project itself: its dependencies and build backend come from the lock
$(STAMP): $(LOCKED) pyproject.toml
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py solve --if-missing --background
	$(PY) manage.py serve --host $(HOST) --port $(PORT)

# pytest on every core (pytest-xdist, a test database per worker); PYTEST_WORKERS=0 runs
# it in one process. The browser tests run after the others, in pytest processes of
# their own: their servers share a worker's test database, and nothing an earlier test
# left running in the worker's process (a thread, a timer) can meet them there.
# PYTEST_MARK narrows both runs (CI: 'not backend_free'); a run that selects no test
# (exit 5) is no failure.
PYTEST_WORKERS ?= auto
PYTEST_MARK ?=
and_mark = $(if $(PYTEST_MARK), and ($(PYTEST_MARK)))

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(PY) -m pytest -n $(PYTEST_WORKERS) -m "not e2e$(and_mark)" $(PYTEST_ARGS) || [ $$? -eq 5 ]
	$(PY) -m pytest -n $(PYTEST_WORKERS) -m "e2e$(and_mark)" $(PYTEST_ARGS) || [ $$? -eq 5 ]

bench: $(STAMP)
	$(PY) -m bench.load $(BENCH_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

messages: $(STAMP)
	$(PY) manage.py makemessages --all --no-obsolete --ignore=.venv
	$(PY) manage.py compilemessages --ignore=.venv

# UPGRADE=1 moves every pin to the newest release the ranges allow; without it, the pins
# that still fit pyproject.toml stay as they are.
lock: | $(PY)
	$(PY) -m pip install --quiet uv==$(UV_VERSION)
	$(PY) requirements/lock.py $(if $(UPGRADE),--upgrade)

clean:
	rm -rf $(VENV)
