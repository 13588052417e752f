# The two commands: `make run` starts the whole platform, `make test` runs every test.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
PACKAGES := protos services/runtime[service] services/timeline services/news services/scout services/gateway devstack
CONTEXTS := timeline news scout

.PHONY: system-deps install run test proto check-proto bench $(addprefix bench-,$(CONTEXTS)) eval-scout clean-data

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.installed: $(VENV)/bin/python requirements-dev.txt $(wildcard protos/pyproject.toml services/*/pyproject.toml)
	$(PY) -m pip install --quiet $(foreach p,$(PACKAGES),-e "$(p)") -r requirements-dev.txt
	touch $@

# Debian packages the tests need: Chromium for the browser tests (Playwright drives it, it never
# downloads a browser of its own), CJK fonts so its screenshots show the pages' Chinese text, and
# Prometheus for promtool, which checks the alert rules and dashboard queries of deploy/.
# Only `make test` needs them; `make run` works without root.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
system-deps:
	@if [ ! -x /usr/bin/chromium ] || ! fc-list 2>/dev/null | grep -qi "Noto Sans CJK" || [ ! -x /usr/bin/promtool ]; then \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium fonts-noto-cjk prometheus; fi

install: $(VENV)/.installed

run: install
	$(PY) -m devstack

test: system-deps install
	$(PY) -m pytest $(PYTEST_ARGS)

proto: install
	$(PY) protos/generate.py

bench: $(addprefix bench-,$(CONTEXTS))

$(addprefix bench-,$(CONTEXTS)): bench-%: install
	$(PY) services/$*/bench/run.py

eval-scout: install
	$(PY) services/scout/eval/evaluate.py $(DATASET)

clean-data:
	rm -rf .data
