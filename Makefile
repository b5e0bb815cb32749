# The two commands of README.md: `make run` starts the whole site, `make test` runs every test.
PYTHON ?= python3.11
VENV := .venv
STAMP := $(VENV)/.installed
PORT ?= 8000
HOST ?= 127.0.0.1

.PHONY: run test lint install bench clean

run: $(STAMP)
	$(VENV)/bin/python -m config.embedded --host $(HOST) --port $(PORT)

test: $(STAMP)
	bash scripts/test $(ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .

install: $(STAMP)

# Reinstall only when the declared dependencies or the compiled solver core change.
$(STAMP): pyproject.toml setup.py $(wildcard games/engine/solver/*.c games/engine/solver/*.h)
	@command -v $(PYTHON) >/dev/null || { echo "$(PYTHON) is needed (Debian: apt-get install python3 python3-venv)"; exit 1; }
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

bench: $(STAMP)
	$(VENV)/bin/python bench/engines.py

clean:
	rm -rf $(VENV) var test-artifacts
