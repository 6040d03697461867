# Sun & Yao (2006), issue 8: forward regression by marginal likelihood against the original RVM
# (Tipping 2001) and the fast RVM (Tipping & Faul 2003).
# Jobs: sunyao_hyper_method (5-fold CV on a ≤1000-example subset: (r, λ, k_max) of Forward, r of
# each RVM, one job per method), sunyao_hyper (the dataset's three merged), sunyao_table1_runs
# (one dataset × method over the random train/test splits),
# sunyao_fig1_runs (one method over growing training sets, stopped at the flop/memory budget).
# Reports: sunyao_table1 (MSE ± std (basis vectors) beside the paper's values, paired t-tests),
# sunyao_fig1 (training time and test NMSE against the training size).
# Datasets: `source: prepared` reads results/datasets/prepared/{name}.npz (rule `prepare`);
# `source: sinc` generates Tipping's sinc data in the job (no download).
#   snakemake sunyao_all --cores 2
#   snakemake sunyao_publish --cores 2 --configfile config/paper.yaml  (-> results/paper/sunyao)
from rlsbench.studies.sunyao import config as sunyao_config
from rlsbench.studies.sunyao.config import METHODS as SUNYAO_METHODS

SUNYAO = part_section("sunyao")
SUNYAO_DIR = f"{RUNDIR}/sunyao"
SUNYAO_T1 = sunyao_config.table1(SUNYAO)
SUNYAO_F1 = sunyao_config.fig1(SUNYAO)
SUNYAO_OUTPUTS = sunyao_config.outputs(SUNYAO, SUNYAO_DIR)
SUNYAO_TARGETS = sunyao_config.targets(SUNYAO, SUNYAO_DIR)
PART_TARGETS["sunyao"] = SUNYAO_TARGETS
SUNYAO_PUBLISHED = sunyao_config.published(SUNYAO, SUNYAO_DIR)
PART_BUILT_EXTRA["sunyao"] = SUNYAO_PUBLISHED


wildcard_constraints:
    sy_study="table1|fig1",
    sy_method="|".join(SUNYAO_METHODS),
    sy_dataset="[^/]+",


# Each method's CV is its own job: Forward's (r, λ, k_max) grid does not depend on the RVMs'
# settings (sunyao.rvm), so changing those re-runs only the RVMs' searches.
rule sunyao_hyper_method:
    input:
        unpack(
            lambda wc: (
                {"data": prepared(wc.sy_dataset)}
                if sunyao_config.needs_file(SUNYAO, wc.sy_study, wc.sy_dataset)
                else {}
            )
        ),
    output:
        hyper=f"{SUNYAO_DIR}/hyper/{{sy_study}}/{{sy_dataset}}/{{sy_method}}.json",
    log:
        f"{SUNYAO_DIR}/logs/hyper/{{sy_study}}/{{sy_dataset}}/{{sy_method}}.log",
    benchmark:
        f"{SUNYAO_DIR}/benchmarks/hyper/{{sy_study}}/{{sy_dataset}}/{{sy_method}}.tsv"
    conda:
        ENVIRONMENT
    threads: SUNYAO.get("threads", 1)
    params:
        function="rlsbench.studies.sunyao.jobs.hyper_method_job",
        dataset="{sy_dataset}",
        method="{sy_method}",
        entry=lambda wc: sunyao_config.entry(SUNYAO, wc.sy_study, wc.sy_dataset),
        cv=lambda wc: sunyao_config.cv(SUNYAO, wc.sy_study),
        rvm=lambda wc: sunyao_config.method_rvm(SUNYAO, wc.sy_method),
        sigma2=SUNYAO.get("sigma2"),
        seed=SUNYAO.get("seed"),
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule sunyao_hyper:
    input:
        # a search with the same inputs as an earlier study's is that one's (search_source)
        parts=lambda wc: [
            "{}/hyper/{}/{}/{}.json".format(
                SUNYAO_DIR,
                *sunyao_config.search_source(SUNYAO, wc.sy_study, wc.sy_dataset, m),
                m,
            )
            for m in SUNYAO_METHODS
        ],
    output:
        hyper=f"{SUNYAO_DIR}/hyper/{{sy_study}}/{{sy_dataset}}.json",
    log:
        f"{SUNYAO_DIR}/logs/hyper/{{sy_study}}/{{sy_dataset}}.log",
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.studies.sunyao.jobs.hyper_job",
        entry=lambda wc: sunyao_config.entry(SUNYAO, wc.sy_study, wc.sy_dataset),
        cv=lambda wc: sunyao_config.cv(SUNYAO, wc.sy_study),
        rvm=SUNYAO.get("rvm"),
        sigma2=SUNYAO.get("sigma2"),
        seed=SUNYAO.get("seed"),
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule sunyao_table1_runs:
    input:
        unpack(
            lambda wc: (
                {"data": prepared(wc.sy_dataset)}
                if sunyao_config.needs_file(SUNYAO, "table1", wc.sy_dataset)
                else {}
            )
        ),
        hyper=f"{SUNYAO_DIR}/hyper/table1/{{sy_dataset}}.json",
    output:
        table=f"{SUNYAO_DIR}/table1/runs/{{sy_dataset}}/{{sy_method}}.csv",
    log:
        f"{SUNYAO_DIR}/logs/table1/{{sy_dataset}}/{{sy_method}}.log",
    benchmark:
        f"{SUNYAO_DIR}/benchmarks/table1/{{sy_dataset}}/{{sy_method}}.tsv"
    conda:
        ENVIRONMENT
    threads: SUNYAO.get("threads", 1)
    params:
        function="rlsbench.studies.sunyao.jobs.table1_runs_job",
        dataset="{sy_dataset}",
        method="{sy_method}",
        entry=lambda wc: sunyao_config.entry(SUNYAO, "table1", wc.sy_dataset),
        n_splits=SUNYAO_T1.get("n_splits"),
        rvm=lambda wc: sunyao_config.method_rvm(SUNYAO, wc.sy_method),
        sigma2=SUNYAO.get("sigma2"),
        seed=SUNYAO.get("seed"),
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule sunyao_table1:
    input:
        runs=[
            f"{SUNYAO_DIR}/table1/runs/{d}/{m}.csv"
            for d in SUNYAO_T1["datasets"]
            for m in SUNYAO_METHODS
        ],
        hyper=[f"{SUNYAO_DIR}/hyper/table1/{d}.json" for d in SUNYAO_T1["datasets"]],
    output:
        md=f"{SUNYAO_DIR}/table1/table1.md",
        csv=f"{SUNYAO_DIR}/table1/table1.csv",
        splits=f"{SUNYAO_DIR}/table1/splits.csv",
    log:
        f"{SUNYAO_DIR}/logs/table1.log",
    benchmark:
        f"{SUNYAO_DIR}/benchmarks/table1.tsv"
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.studies.sunyao.jobs.table1_job",
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule sunyao_fig1_runs:
    input:
        unpack(
            lambda wc: (
                {"data": prepared(SUNYAO_F1["dataset"])}
                if sunyao_config.needs_file(SUNYAO, "fig1", SUNYAO_F1["dataset"])
                else {}
            )
        ),
        hyper=lambda wc: f"{SUNYAO_DIR}/hyper/fig1/{SUNYAO_F1['dataset']}.json",
    output:
        table=f"{SUNYAO_DIR}/fig1/runs/{{sy_method}}.csv",
    log:
        f"{SUNYAO_DIR}/logs/fig1/{{sy_method}}.log",
    benchmark:
        f"{SUNYAO_DIR}/benchmarks/fig1/{{sy_method}}.tsv"
    conda:
        ENVIRONMENT
    threads: SUNYAO.get("threads", 1)
    resources:
        mem_mb=lambda wc: 500 + (SUNYAO_F1 or {}).get("memory_budget_mb", 0),
    params:
        function="rlsbench.studies.sunyao.jobs.fig1_runs_job",
        method="{sy_method}",
        entry=SUNYAO_F1,
        rvm=lambda wc: sunyao_config.method_rvm(SUNYAO, wc.sy_method),
        sigma2=SUNYAO.get("sigma2"),
        seed=SUNYAO.get("seed"),
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule sunyao_fig1:
    input:
        runs=[f"{SUNYAO_DIR}/fig1/runs/{m}.csv" for m in SUNYAO_METHODS],
    output:
        figure_variants(f"{SUNYAO_DIR}/fig1/fig1.png"),
        png=report(
            f"{SUNYAO_DIR}/fig1/fig1.png",
            caption="report/fig1.rst",
            category="Sun & Yao",
            subcategory="Fig. 1",
        ),
        md=f"{SUNYAO_DIR}/fig1/fig1.md",
        csv=f"{SUNYAO_DIR}/fig1/fig1.csv",
    log:
        f"{SUNYAO_DIR}/logs/fig1.log",
    benchmark:
        f"{SUNYAO_DIR}/benchmarks/fig1.tsv"
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.studies.sunyao.jobs.fig1_job",
        entry=SUNYAO_F1,
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule sunyao_all:
    input:
        SUNYAO_TARGETS,


# The committed copy of a run (normally the paper run), never refreshed by the run itself.
rule sunyao_publish:
    input:
        sources=derived(SUNYAO_PUBLISHED),
    output:
        targets=published("sunyao", derived(SUNYAO_PUBLISHED)),
        provenance_json=published_provenance("sunyao"),
    log:
        f"{SUNYAO_DIR}/logs/publish.log",
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.benchmark.tables.publish",
        config=config,
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)
