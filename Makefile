# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Two installs: what serving needs (make run, make venv), and on top of it the tools of
# make test (pytest, mypy, ruff, playwright, the reference packages). Each has its stamp, so
# make run never installs the test toolchain.
RUNTIME := $(VENV)/.installed-runtime
DEV := $(VENV)/.installed-dev

NODE_MODULES := clients/typescript/node_modules/.package-lock.json

.PHONY: run venv test lint typecheck unit openapi clients image-test clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is needed"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUNTIME): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	@touch $(RUNTIME)

$(DEV): pyproject.toml $(RUNTIME)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(DEV)

## Serve on SQLite (./data/ratings.db) or RATINGS_DATABASE_URL; migrates first.
run: $(RUNTIME)
	$(BIN)/ratings serve

## The runtime install only (a server's virtual environment; docs/deploy.md "systemd").
venv: $(RUNTIME)

## Lint, type-check and run the whole suite (PostgreSQL too when RATINGS_TEST_POSTGRES_URL is set).
test: lint typecheck unit

lint: $(DEV)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(DEV)
	$(BIN)/mypy app

unit: $(DEV)
	$(BIN)/python -m pytest -q -p no:cacheprovider

openapi: $(RUNTIME)
	$(BIN)/ratings openapi --output openapi/openapi.json

## Regenerate both typed clients from openapi/openapi.json (docs/clients.md); a test fails
## while the committed ones differ from what this makes.
clients: $(DEV) $(NODE_MODULES)
	$(BIN)/openapi-python-client generate --path openapi/openapi.json --meta none --fail-on-warning \
		--config clients/python/openapi-python-client.yaml \
		--output-path clients/python/ratings_client --overwrite
	cd clients/typescript && npm run --silent generate

# The TypeScript client's tools, as its lockfile pins them.
$(NODE_MODULES): clients/typescript/package-lock.json
	cd clients/typescript && npm ci --no-audit --no-fund
	@touch $(NODE_MODULES)

## Build the Dockerfile with podman and check the image on PostgreSQL at 127.0.0.1:5432.
image-test:
	deploy/image-test.sh

clean:
	rm -rf $(VENV) data .mypy_cache .ruff_cache .pytest_cache clients/typescript/node_modules clients/typescript/dist
