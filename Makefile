# The two commands: `make run` starts the whole platform, `make test` runs every test.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
UV := $(VENV)/bin/uv
# The uv that reads uv.lock; the same pin is in the workspace's dev group, so `uv sync` keeps it.
UV_VERSION := 0.13.9
CONTEXTS := timeline news scout
# Typed packages mypy checks in `make lint`.
TYPED := services/runtime/feeds_runtime services/timeline/timeline services/news/news services/scout/scout \
	services/gateway/gateway devstack/src/devstack
export UV_LINK_MODE := copy

.PHONY: system-deps install lint run soak test proto bench $(addprefix bench-,$(CONTEXTS)) bench-replicas eval-scout clean-data

# The environment, then every package of the workspace (editable) and the dev tools, exactly as
# uv.lock pins them, their bytecode compiled as the images' is: a process then never compiles a
# library at start, which costs time and leaves megabytes of freed memory resident (and where
# PYTHONDONTWRITEBYTECODE is set, at every start). Output only on failure.
$(UV):
	@$(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install --quiet --disable-pip-version-check "uv==$(UV_VERSION)" >$(VENV)/bootstrap.log 2>&1 \
		|| { cat $(VENV)/bootstrap.log; exit 1; }

$(VENV)/.installed: $(UV) uv.lock pyproject.toml $(wildcard protos/pyproject.toml services/*/pyproject.toml devstack/pyproject.toml)
	@$(UV) sync --locked --quiet --compile-bytecode
	@touch $@

# Debian packages the tests need: Chromium for the browser tests (Playwright drives it, it never
# downloads a browser of its own), CJK fonts so its screenshots show the pages' Chinese text, and
# Prometheus for promtool, which checks the alert rules and dashboard queries of deploy/.
# Only `make test` needs them; `make run` works without root.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
system-deps:
	@if [ ! -x /usr/bin/chromium ] || ! fc-list 2>/dev/null | grep -qi "Noto Sans CJK" || [ ! -x /usr/bin/promtool ]; then \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium fonts-noto-cjk prometheus; fi

install: $(VENV)/.installed

lint: install
	@$(VENV)/bin/ruff check --quiet .
	@$(VENV)/bin/mypy $(TYPED)

run: install
	@FEEDS_ENV=dev $(PY) -m devstack

# Mixed load on the platform for SOAK_SECONDS (README.md, "Soak"); fails unless the run met the bar.
soak: install
	@FEEDS_ENV=dev $(PY) -m devstack.soak

test: system-deps install
	FEEDS_ENV=dev $(PY) -m pytest $(PYTEST_ARGS)

proto: install
	$(PY) protos/generate.py

bench: $(addprefix bench-,$(CONTEXTS)) bench-replicas

$(addprefix bench-,$(CONTEXTS)): bench-%: install
	FEEDS_ENV=dev $(PY) services/$*/bench/run.py

# Read-replica drills on a primary and a streaming replica (services/timeline/bench/replicas.py).
bench-replicas: install
	FEEDS_ENV=dev $(PY) services/timeline/bench/replicas.py $(BENCH_ARGS)

eval-scout: install
	FEEDS_ENV=dev $(PY) services/scout/eval/evaluate.py $(DATASET) $(EVAL_ARGS)

clean-data:
	rm -rf .data
