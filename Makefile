# The two commands of the README: `make run` and `make test`. Both build the
# virtualenv they need first. Django 6 wants Python >= 3.12: the newest Python
# found is used (pyenv's versions included), falling back to python3 (>= 3.11).

VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

PYTHON ?= $(shell for p in python3.13 python3.12 $(wildcard $(HOME)/.pyenv/versions/3.13*/bin/python3) $(wildcard $(HOME)/.pyenv/versions/3.12*/bin/python3) python3; do \
	if $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then echo $$p; break; fi; done)

.PHONY: run test lint bench messages clean

$(PY):
	@test -n "$(PYTHON)" || { echo "Python 3.11 or newer is needed" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py solve --if-missing --background
	$(PY) manage.py serve --host $(HOST) --port $(PORT)

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(PY) -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(PY) -m bench.load $(BENCH_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

messages: $(STAMP)
	$(PY) manage.py makemessages --all --ignore=.venv
	$(PY) manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV)
