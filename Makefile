# Everything a checkout needs, from nothing but Python 3.11.
# `make run` serves the demo on http://127.0.0.1:8000; `make test` runs the whole suite.

PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

# make test-services: the real PostgreSQL, Redis and a Celery worker process.
PG_URL ?= postgres://postgres@127.0.0.1:5432/tarabish
REDIS ?= redis://127.0.0.1:6379/0
SERVICES_ENV := TARABISH_TEST_SERVICES=1 DATABASE_URL=$(PG_URL) \
	CELERY_BROKER_URL=$(REDIS) REDIS_URL=$(REDIS) \
	CELERY_TASK_DEFAULT_QUEUE=tarabish-test-$(shell date +%s)-$$$$ \
	CHANNEL_LAYER_PREFIX=tarabish-test-$(shell date +%s)-$$$$

.PHONY: venv run demo test test-js test-services check contract format lock messages screenshots clean

venv: $(STAMP)

$(STAMP): requirements-dev.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes \
		-r requirements-dev.lock
	touch $(STAMP)

# The sign-in is printed again once the server listens, below its start-up banner.
run: venv
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py demo
	$(BIN)/python manage.py demo_sign_in --when-listening $(HOST):$(PORT) & \
		$(BIN)/python manage.py runserver $(HOST):$(PORT)

demo: venv
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py demo

# The score-pad's JavaScript modules, checked and tested with Node alone (no packages, no build).
JS_MODULES := $(shell find static/js -name '*.js' | sort)
JS_TESTS := tests/js

# The whole suite (on the embedded defaults) prints its coverage, and fails below
# [tool.coverage.report] fail_under in pyproject.toml.
COVERAGE := --cov --cov-report=term:skip-covered
# ... on every core (pytest-xdist: one worker process per core, each with its own test
# database; in the services' run also its own Redis database, Celery queue and channel-layer
# prefix: tests/conftest.py); `make test PARALLEL=` runs it in one process.
PARALLEL ?= -n auto

# ... with each worker's tables made from the models (pytest-django's --nomigrations):
# migrating a fresh database costs a worker ~12 s, and the migration tests a minute more.
# test-services migrates (PostgreSQL, as in production) and runs those tests; make check
# holds the migrations in step with the models (makemigrations --check).
MIGRATIONS ?= --nomigrations

test: venv test-js
	$(BIN)/python -m pytest $(MIGRATIONS) $(COVERAGE) $(PARALLEL)

test-js:
	node --test --test-reporter=spec $(JS_TESTS)/

test-services: venv test-js
	$(SERVICES_ENV) $(BIN)/python -m pytest $(PARALLEL)

check: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .
	$(BIN)/lint-imports
	$(BIN)/python manage.py makemigrations --check --dry-run
	for module in $(JS_MODULES) $(wildcard $(JS_TESTS)/*.js); do node --check $$module || exit 1; done
	$(BIN)/python tools/i18n.py check

# The translation catalogues: every marked string extracted into locale/*/LC_MESSAGES/django.po,
# then compiled to the committed .mo files (tools/i18n.py; make check fails when they lag).
messages: venv
	$(BIN)/python tools/i18n.py messages

# The API as stock tools see it: the schema validated, a client generated from it playing a
# game and a tournament match, schemathesis over every operation (tools/api_contract.py).
contract: venv
	$(BIN)/python tools/api_contract.py

format: venv
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Pictures of the score-pad, a bracket, standings and the setup page at phone and desktop widths (screenshots/).
screenshots: venv
	$(BIN)/python tools/screenshots.py

# Re-resolve the locks after changing pyproject.toml (needs uv: pip install uv).
# requirements-dev.lock (a checkout: the service and its tools) is resolved first; the
# service's own requirements.lock (the production image) is constrained to the same versions.
lock:
	uv pip compile pyproject.toml --extra dev --python-version 3.11 --generate-hashes \
		--quiet -o requirements-dev.lock
	uv pip compile pyproject.toml --python-version 3.11 --generate-hashes \
		-c requirements-dev.lock --quiet -o requirements.lock

clean:
	rm -rf $(VENV) var
