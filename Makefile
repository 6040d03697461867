# Set-up and entry points. Everything runs inside a virtual environment this Makefile creates.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
CORES  ?= 2

.PHONY: install test lint docs reproduce bench clean

# Exact versions with hashes from the lock file (pyproject.toml keeps the ranges; the lock holds
# the dependencies and the test, lint and docs extras); the package itself goes in editable,
# without touching them. Then numba's cache is filled, as pip compiles .pyc files, so that the
# first run's jobs load the selectors' kernels instead of compiling them (compile_cache.py).
LOCK := requirements/lock.txt
$(BIN)/rlsbench: pyproject.toml $(LOCK)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet --require-hashes -r $(LOCK)
	$(BIN)/pip install --quiet --no-deps --no-build-isolation -e .
	$(BIN)/python -m rlsbench.benchmark.compile_cache --quiet
	touch $@

install: $(BIN)/rlsbench

# Regenerate the lock after changing a dependency range in pyproject.toml (needs PyPI); pins
# that still satisfy the ranges are kept, `make lock UPGRADE=1` moves every pin to the newest.
.PHONY: lock
lock:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml --extra test --extra lint --extra docs \
		--universal --python-version 3.11 --generate-hashes $(if $(UPGRADE),--upgrade) \
		--output-file $(LOCK)

test: install
	$(BIN)/python -m pytest -n 2 --dist loadfile tests

# Style: ruff (lint + format) for Python, snakefmt for the Snakemake files.
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/snakefmt --check Snakefile workflow/ src/rlsbench/studies/

# The documentation site (docs/, Sphinx + pydata theme + numpydoc) into docs/_build/html;
# any warning fails the build. It reads the committed results under results/paper/.
docs: install
	$(BIN)/sphinx-build -W --keep-going -b html docs docs/_build/html

# Every part on the embedded default config (no network needed), then the HTML report.
# `rlsbench config check` first: Snakemake's own message of a YAML error in a --configfile names
# neither the file nor the line.
reproduce: install
	$(BIN)/rlsbench config check config/config.yaml
	$(BIN)/snakemake --cores $(CORES) --configfile config/config.yaml \
		--report results/report.html --report-after-run

# Greedy RLS against the bandwidth bound and the alternatives (abess from the bench extra);
# prints the ratio table (benchmarks/README.md). BENCH_ARGS=--quick for a small problem.
# The README's headline tables from benchmarks/results/greedy_rls.md (make bench),
# results/paper/fidelity_summary.csv and results/benchmark/ (tests/test_docs.py checks they
# agree).
.PHONY: readme
readme: install
	$(BIN)/python docs/readme_headline.py

bench: install
	$(BIN)/python -c 'import abess' 2>/dev/null || $(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/bench_greedy_rls.py --markdown benchmarks/results/greedy_rls.md \
		--json benchmarks/results/greedy_rls.json $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .snakemake results/runs results/datasets results/report.html

# SLURM integration test (issue 9): installs slurm-wlm + munge, runs a tiny config through a
# localhost SLURM controller and locally, compares; needs root and apt-get. See tests/slurm/.
.PHONY: test-slurm
# The executor plugin is installed here only: once installed, every Snakemake start (dry runs and
# tests included) asks `scontrol` for the cluster's config, which waits ~10 s where slurm-wlm is
# installed but no controller runs.
test-slurm: install
	$(BIN)/pip install --quiet -e '.[slurm]'
	tests/slurm/run_test.sh

# One part of config/paper.yaml (PART=<part>: a section of it, a plugin's part too; the plan
# `snakemake -n --configfile config/paper.yaml` prints names them), then its committed copy
# under results/paper/<PART>/ with provenance.json (from a clean checkout: publishing refuses a
# dirty one). Datasets from MIRROR or the upstream URLs. Times on 2 cores: docs/parts/<PART>.rst.
PART ?=
.PHONY: paper
paper: install
	@test -n "$(PART)" || { echo "make paper PART=<part>: one of the parts of config/paper.yaml" >&2; exit 2; }
	$(BIN)/rlsbench config check config/paper.yaml
	nice -n 10 $(BIN)/snakemake $(PART)_publish --cores $(CORES) --configfile config/paper.yaml \
		--config 'mirrors=[$(MIRRORS)]'

# A named variant of the paper config (config/variants/<VARIANT>.yaml: our own choice beside the
# paper's wording), layered on config/paper.yaml: its part run and published under
# results/paper/variants/<VARIANT>/ (from a clean checkout), then the committed ledger rebuilt
# with the variant's columns. `ls config/variants` lists them.
VARIANT ?=
.PHONY: variant
variant: install
	@test -f "config/variants/$(VARIANT).yaml" || { echo "make variant VARIANT=<name>: one of $$(ls config/variants | sed 's/\.yaml$$//' | tr '\n' ' ')" >&2; exit 2; }
	$(BIN)/rlsbench config check config/paper.yaml config/variants/$(VARIANT).yaml
	nice -n 10 $(BIN)/snakemake \
		$$($(BIN)/python -c "import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))['variant']['part'])" config/variants/$(VARIANT).yaml)_publish \
		--cores $(CORES) --config 'mirrors=[$(MIRRORS)]' \
		--configfile config/paper.yaml config/variants/$(VARIANT).yaml
	$(BIN)/python -m rlsbench.studies.fidelity results/paper

# The identity check: every committed table under results/paper/ against the run of
# config/paper.yaml in results/runs/paper/ (run it first, e.g. in a clean clone: `snakemake
# --cores 2 --configfile config/paper.yaml`); exact, measured times and machine columns aside.
.PHONY: identity
identity: install
	$(BIN)/python -m rlsbench.studies.identity results/runs/paper --committed results/paper

# (The target comes before --config: Snakemake reads every word after --config as a config
# entry.)
# Every registry dataset downloaded, verified and prepared into results/datasets/prepared/
# (MIRROR: mirrors laid out like ../shared/datasets, one per registry collection, separated by
# spaces; empty = upstream URLs only).
MIRROR ?= ../shared/datasets ../shared/datasets-highdim ../shared/datasets-pmlb
MIRRORS = $(subst $(eval) ,$(comma),$(foreach m,$(MIRROR),"$(m)"))
comma := ,
.PHONY: datasets
datasets: install
	$(BIN)/snakemake --cores $(CORES) datasets_all --config 'mirrors=[$(MIRRORS)]'

# The reference benchmark (issues 30, 41): config/benchmark.yaml (every public dataset of the
# registry, 135; 16 methods; k up to 50; statistics across datasets), then its committed copy
# under results/benchmark/ (from a clean checkout: main_publish refuses a dirty one). Wall time
# on 2 cores: results/benchmark/README.md.
.PHONY: benchmark
benchmark: install
	$(BIN)/rlsbench config check config/benchmark.yaml
	$(BIN)/snakemake main_publish --cores $(CORES) --configfile config/benchmark.yaml \
		--config 'mirrors=[$(MIRRORS)]'

