# Datasets: rule `download` (verified raw files) and rule `prepare` (one canonical .npz each).
# Registry: config/datasets.yaml (schema workflow/schemas/datasets.schema.yaml); helpers in
# src/rlsbench/datasets/rules.py. Config keys (top level):
#   mirrors:  list of base URLs (http://, file://) or paths relative to the repository root, laid
#             out like shared/datasets/, tried before the upstream URLs. Default [] (upstream only).
#   download: optional {timeout: seconds, retries: attempts per URL, backoff: first wait, s}.
from pathlib import Path

import rlsbench.benchmark.datasets.rules as dsrules
from rlsbench.benchmark.datasets import load_registry

DATASETS_ROOT = Path(workflow.current_basedir).resolve().parents[1]
DATASETS_REGISTRY_FILE = DATASETS_ROOT / "config" / "datasets.yaml"
DATASETS = load_registry(DATASETS_REGISTRY_FILE)


# Compute nodes of most clusters are offline: fetch on the host that runs Snakemake.
localrules:
    download,


rule download:
    output:
        dsrules.MANIFEST,
    log:
        "results/datasets/logs/download/{dataset}.log",
    wildcard_constraints:
        dataset=dsrules.name_constraint(n for n, s in DATASETS.items() if s.needs_download),
    conda:
        "../../environment.yml"
    resources:
        downloads=1,
    params:
        registry=str(DATASETS_REGISTRY_FILE),
        root=str(DATASETS_ROOT),
        raw_dir=dsrules.RAW,
    script:
        "../scripts/datasets_download.py"


rule prepare:
    input:
        lambda wildcards: dsrules.raw_input(DATASETS, wildcards.dataset),
    output:
        dsrules.PREPARED,
    log:
        "results/datasets/logs/prepare/{dataset}.log",
    benchmark:
        "results/datasets/benchmarks/prepare/{dataset}.tsv"
    wildcard_constraints:
        dataset=dsrules.name_constraint(DATASETS),
    conda:
        "../../environment.yml"
    params:
        cli=dsrules.cli(DATASETS_REGISTRY_FILE),
        raw_dir=dsrules.RAW,
    shell:
        "{params.cli} prepare {wildcards.dataset:q} --raw-dir {params.raw_dir:q}"
        " --output {output:q} > {log:q} 2>&1"


rule datasets_all:
    """Prepare every registry dataset (not part of `all`)."""
    input:
        expand(dsrules.PREPARED, dataset=list(DATASETS)),
