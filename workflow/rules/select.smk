# The protocol's jobs (greedy RLS paper, Section 4.2): λ by LOO grid search per training split,
# then one selection job per (dataset, method, fold[, seed]). The numerics live in
# rlsbench.benchmark.protocol; these rules only name files.


wildcard_constraints:
    dataset=r"[^/]+",
    method=r"[^/]+",
    fold=r"\d+",
    seed=r"\d+",


rule main_alpha:
    input:
        "results/datasets/prepared/{dataset}.npz",
    output:
        f"{RUNDIR}/main/alpha/{{dataset}}/fold{{fold}}.json",
    log:
        f"{RUNDIR}/main/logs/alpha/{{dataset}}/fold{{fold}}.log",
    benchmark:
        f"{RUNDIR}/main/benchmarks/alpha/{{dataset}}/fold{{fold}}.tsv"
    threads: main_threads
    resources:
        mem_mb=main_alpha_mem_mb,
        runtime=main_alpha_runtime,
    params:
        settings=main_alpha_settings,
    run:
        from rlsbench.benchmark.protocol import alpha_job

        alpha_job(input[0], wildcards.fold, params.settings, output[0], log[0], threads)


rule main_select:
    input:
        dataset="results/datasets/prepared/{dataset}.npz",
        alpha=f"{RUNDIR}/main/alpha/{{dataset}}/fold{{fold}}.json",
    output:
        f"{RUNDIR}/main/jobs/{{dataset}}/{{method}}/fold{{fold}}-seed{{seed}}.csv",
    log:
        f"{RUNDIR}/main/logs/select/{{dataset}}/{{method}}/fold{{fold}}-seed{{seed}}.log",
    benchmark:
        f"{RUNDIR}/main/benchmarks/select/{{dataset}}/{{method}}/fold{{fold}}-seed{{seed}}.tsv"
    threads: main_threads
    resources:
        mem_mb=main_select_mem_mb,
        runtime=main_select_runtime,
    params:
        settings=lambda wildcards: main_job_settings(wildcards.dataset),
    run:
        from rlsbench.benchmark.protocol import select_job

        select_job(
            input.dataset,
            wildcards.method,
            wildcards.fold,
            wildcards.seed,
            input.alpha,
            params.settings,
            output[0],
            log[0],
            threads,
        )
