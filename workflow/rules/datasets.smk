# Datasets: rule `download` (verified raw files) and rule `prepare` (one canonical .npz each).
# Registry: the package's built-in one (rlsbench/benchmark/datasets/registry.yaml) plus the user's,
# through rlsbench.benchmark.datasets.rules. Config keys (top level):
#   mirrors:            base URLs (http://, file://) or paths relative to the workflow directory,
#                       laid out like shared/datasets/, tried before the upstream URLs. Default [].
#   download:           optional {timeout, retries, backoff, deadline} (see the config schema).
#   dataset_registries: user registry files (same schema; `rlsbench datasets hash FILE` writes
#                       one), relative to the working directory.
#   datasets:           user entries inline, name -> entry (`path:` relative to the working dir).
# Every part can then name a user dataset (e.g. main.datasets: [my_set]).
import rlsbench.benchmark.datasets.rules as dsrules

DATASETS = dsrules.registry_from_config(config)


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
        function="rlsbench.benchmark.datasets.rules.download_rule",
        root=workflow.basedir,
        raw_dir=dsrules.RAW,
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule prepare:
    input:
        lambda wildcards: dsrules.raw_input(DATASETS, wildcards.dataset),
    output:
        prepared=dsrules.PREPARED,
    log:
        "results/datasets/logs/prepare/{dataset}.log",
    benchmark:
        "results/datasets/benchmarks/prepare/{dataset}.tsv"
    wildcard_constraints:
        dataset=dsrules.name_constraint(DATASETS),
    conda:
        "../../environment.yml"
    params:
        function="rlsbench.benchmark.datasets.rules.prepare_rule",
        raw_dir=dsrules.RAW,
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule datasets_all:
    """Prepare every registry dataset (not part of `all`)."""
    input:
        expand(dsrules.PREPARED, dataset=list(DATASETS)),
