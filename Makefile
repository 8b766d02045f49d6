# Two entry points: `make report` (build + main job) and `make test` (build + tests).
# Everything installs into a local virtual environment; nothing is needed beforehand
# but Python 3.11, gcc and make.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
KERNEL_SRC := src/_fastdeal.pyx src/_parquet.pyx $(wildcard src/*.pxd src/*.pxi)
REPORT_DIR ?= report
JOBS ?= 2

.PHONY: all build test test-long test-fast report bench mutants clean

all: build

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet "setuptools>=77" wheel "Cython>=3.0.10" "numpy>=2.0"
	$(PY) -m pip install --quiet --no-build-isolation -e ".[test,dev]"
	touch $(STAMP)

# Rebuild the kernel in place whenever its sources change.
src/thousand/.kernel-built: $(STAMP) $(KERNEL_SRC) setup.py
	$(PY) setup.py -q build_ext --inplace
	touch $@

build: src/thousand/.kernel-built

# The solver's exhaustive checks (marked `long`: 10,080 endgames, 200 deals against the
# reference, 10,000 deals against itself) made a fresh clone's suite run over 15 minutes on
# 2 cores (2026-12-01): they run on demand, make test-long.
test: build
	$(PY) -m pytest -n $(JOBS) -q -m "not long"

test-long: build
	$(PY) -m pytest -n $(JOBS) -q -m long

test-fast: build
	$(PY) -m pytest -n $(JOBS) -q -m "not slow"

report: build
	$(VENV)/bin/thousand report --out $(REPORT_DIR)

bench: build
	$(PY) benchmarks/run_all.py

# The mutation check (docs/testing.md): every rule, strategy branch and analysis formula
# of tools/mutants.toml changed in turn must make a test fail; about half an hour on 2 cores.
mutants: build
	$(PY) tools/mutants.py --jobs $(JOBS)

clean:
	rm -rf build src/thousand/_fastdeal*.so src/thousand/_parquet*.so src/_fastdeal.c src/_parquet.c src/thousand/.kernel-built
