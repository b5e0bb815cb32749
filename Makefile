# The two commands of README.md: `make run` starts the whole site, `make test` runs every test
# (`make check`: the quick tier of the inner loop).
PYTHON ?= python3.11
VENV := .venv
STAMP := $(VENV)/.installed
LOCK := requirements.lock
PORT ?= 8000
HOST ?= 127.0.0.1
WORKERS ?= auto

.PHONY: run test check lint typecheck install lock bench bench-scale bench-turns clean dev faults fuzz messages

# The demo series (a Triad tournament every 10 minutes) is seeded once the database is
# migrated; the launcher's own migrate then finds nothing to do.
run: $(STAMP)
	$(VENV)/bin/python manage.py migrate --noinput --verbosity 0
	$(VENV)/bin/python manage.py seed_demo_series
	$(VENV)/bin/python -m launcher.embedded --host $(HOST) --port $(PORT) --workers $(WORKERS)

test: $(STAMP) typecheck
	$(VENV)/bin/python scripts/check_lock.py
	bash scripts/test $(ARGS)

# The inner loop's tier: the engine's tests, and the services' and consumers' that need no
# server process (no Celery worker, daphne or browser: those are marked `services` or `e2e`,
# tests/conftest.py). About a minute; `make test` runs these and all the rest.
CHECK := tests/engine $(wildcard tests/*/test_*services*.py tests/*/test_*consumers*.py)
check: $(STAMP)
	bash scripts/test -m "not e2e and not services" $(CHECK) $(ARGS)

lint: $(STAMP) typecheck
	$(VENV)/bin/ruff check .

# mypy with django-stubs: games/engine/ under --strict, the rest of the project in mypy's
# default mode (settings in pyproject.toml). A few seconds once its caches are warm.
typecheck: $(STAMP)
	bash scripts/typecheck

install: $(STAMP)

# Reinstall only when the locked dependencies or the compiled solver core change. Every
# machine installs exactly the lock's versions, each checked against the lock's hashes;
# the project itself goes on top, without resolving anything again.
$(STAMP): $(LOCK) pyproject.toml setup.py $(wildcard games/engine/solver/*.c games/engine/solver/*.h)
	@command -v $(PYTHON) >/dev/null || { echo "$(PYTHON) is needed (Debian: apt-get install python3 python3-venv)"; exit 1; }
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --require-hashes --no-deps -r $(LOCK)
	$(VENV)/bin/python -m pip install --quiet --no-deps -e .
	$(VENV)/bin/python scripts/check_lock.py
	touch $(STAMP)

# Every translatable message into locale/<language>/LC_MESSAGES/{django,djangojs}.po for each
# language of settings.LANGUAGES, then compiled to the .mo files, which are committed: `make run`
# on a fresh clone reads them and compiles nothing. Needs GNU gettext (Debian: gettext), as
# `make test` does for its catalogue check. README.md, "Adding a language".
messages: $(STAMP)
	$(VENV)/bin/python manage.py messages

# After editing pyproject.toml's dependencies (or to take upgrades: ARGS="--upgrade-package NAME"):
# recompile the lock, then run `make test` before committing both files.
# Needs no up-to-date install (the lock may be what is out of date): only uv, from the old lock.
lock:
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	test -x $(VENV)/bin/uv || $(VENV)/bin/python -m pip install --quiet --require-hashes --no-deps -r $(LOCK)
	$(VENV)/bin/uv pip compile pyproject.toml --extra dev --generate-hashes --universal \
		--python-version 3.11 --custom-compile-command "make lock" --quiet -o $(LOCK) $(ARGS)
	$(VENV)/bin/python scripts/check_lock.py

bench: $(STAMP)
	$(VENV)/bin/python bench/engines.py

# The rating pages at a million rated games, warm and cold, with the production settings: fills
# a database of its own the first time (about ten minutes), then only measures (a few minutes).
# scripts/bench_scale says where; `make bench-scale ARGS="--requests 50"` for a quick look.
bench-scale: $(STAMP)
	bash scripts/bench_scale $(ARGS)

# LP-8's "your turn" count and page at 100,000 open turn-based games among 20,000 people, warm
# and cold, with the production settings: fills a database of its own (capstone_turns) the
# first time (about a minute), then only measures. scripts/bench_turns says where.
bench-turns: $(STAMP)
	bash scripts/bench_turns $(ARGS)

clean:
	rm -rf $(VENV) var test-artifacts .mypy_cache

# `make run` with Django's debug pages and static files re-read on every request.
# Never for a site others can reach: the debug pages show settings and every URL.
dev: $(STAMP)
	DJANGO_DEBUG=1 $(VENV)/bin/python -m launcher.embedded --host $(HOST) --port $(PORT)

# Fault and fuzz suites against an isolated copy of the whole site (its own database,
# Redis, daphnes, worker and beat); figures go to docs/benchmarks.md. Small counts:
# `make faults ARGS="--kills 2"`, `make fuzz ARGS="--frames 500 --requests 50"`.
faults: $(STAMP)
	bash scripts/faults $(ARGS)

fuzz: $(STAMP)
	bash scripts/fuzz $(ARGS)
