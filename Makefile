# Set-up and entry points. Everything runs inside a virtual environment this Makefile creates.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
CORES  ?= 2

.PHONY: install test reproduce bench clean

$(BIN)/rlsbench: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,slurm]'
	touch $@

install: $(BIN)/rlsbench

test: install
	$(BIN)/python -m pytest -n 2 --dist loadfile tests

# The main job on the embedded default config (no network needed), then its HTML report.
reproduce: install
	$(BIN)/snakemake --cores $(CORES) --configfile config/config.yaml
	$(BIN)/snakemake --cores $(CORES) --configfile config/config.yaml --report results/report.html

bench: install
	$(BIN)/python benchmarks/bench_greedy_rls.py

clean:
	rm -rf $(VENV) .snakemake results/runs results/datasets results/report.html
