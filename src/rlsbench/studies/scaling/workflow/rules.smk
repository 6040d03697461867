# The runtime scaling study (issue 5): Pahikkala et al. (2010), Section 4.1, Figs. 1-3, against
# the wrappers and scikit-learn's SequentialFeatureSelector.
# Jobs: each timing point (method, threads, m, n, k) within the budget is one job, benchmarked by
# Snakemake with `repeat(..., repeats)`. The budget is decided from the config alone: a point
# whose estimated operations (the method's cost model) exceed `budget.max_flops` (per method
# `max_flops`) is no job and is recorded as skipped with its estimate, so the same config always
# gives the same rows. A hard limit `budget.timeout_s` (wall) fails a job that overshoots anyway.
# Threads: the wildcard `t1` is the single-threaded variant, `t2`, `t4`, ... multi-threaded.
# Reports: points.csv, the selection agreement check, exponent/speed-up tables, figures.
#   snakemake scaling_all --cores 2
#   snakemake scaling_publish --cores 2 --configfile config/paper.yaml   (-> results/paper/scaling)
from rlsbench.studies.scaling import config as scaling_config
from rlsbench.studies.scaling.experiment import (
    SCALING_METHODS,
    job_params,
    plan_points,
    plan_rows,
    run_points,
)

SCALING = part_section("scaling")
SCALING_DIR = f"{RUNDIR}/scaling"
SCALING_PLAN = plan_points(SCALING) if SCALING else {}
SCALING_POINTS = run_points(SCALING_PLAN, SCALING) if SCALING else {}
SCALING_POINT_STEM = "{method}/t{threads}/m{m}_n{n}_k{k}"
SCALING_TABLES = scaling_config.tables(SCALING_DIR)
SCALING_TARGETS = scaling_config.outputs(SCALING, SCALING_DIR) if SCALING else []
PART_TARGETS["scaling"] = SCALING_TARGETS
SCALING_PUBLISHED = scaling_config.published(SCALING, SCALING_DIR)
PART_BUILT_EXTRA["scaling"] = SCALING_PUBLISHED


rule scaling_point:
    output:
        record=f"{SCALING_DIR}/points/{SCALING_POINT_STEM}.json",
    log:
        f"{SCALING_DIR}/logs/points/{SCALING_POINT_STEM}.log",
    benchmark:
        repeat(f"{SCALING_DIR}/benchmarks/{SCALING_POINT_STEM}.tsv", SCALING.get("repeats", 1))
    wildcard_constraints:
        method="|".join(SCALING_METHODS),
        threads=r"\d+",
        m=r"\d+",
        n=r"\d+",
        k=r"\d+",
    conda:
        ENVIRONMENT
    # exclusive: the job reserves every core so that no other job disturbs its timing; it
    # still uses only its wildcard's thread count (capped in the job).
    threads: lambda wc: workflow.cores if SCALING.get("exclusive", False) else int(wc.threads)
    params:
        function="rlsbench.studies.scaling.jobs.point_job",
        point=lambda wc: job_params(SCALING_POINTS, wc),
        settings=lambda wc: scaling_config.point_settings(SCALING, wc.method),
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule scaling_collect:
    input:
        records=[f"{SCALING_DIR}/points/{key}.json" for key in SCALING_POINTS],
        benchmarks=[f"{SCALING_DIR}/benchmarks/{key}.tsv" for key in SCALING_POINTS],
    output:
        points=f"{SCALING_DIR}/tables/points.csv",
        provenance_json=f"{SCALING_DIR}/tables/provenance.json",
    log:
        f"{SCALING_DIR}/logs/collect.log",
    benchmark:
        f"{SCALING_DIR}/benchmarks/collect.tsv"
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.studies.scaling.jobs.collect_job",
        plan=plan_rows(SCALING_PLAN, SCALING) if SCALING else [],
        section=SCALING,
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule scaling_agreement:
    input:
        points=rules.scaling_collect.output.points,
    output:
        csv=f"{SCALING_DIR}/tables/agreement.csv",
        md=f"{SCALING_DIR}/tables/agreement.md",
    log:
        f"{SCALING_DIR}/logs/agreement.log",
    benchmark:
        f"{SCALING_DIR}/benchmarks/agreement.tsv"
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.studies.scaling.jobs.agreement_job",
        excluded=scaling_config.agreement_excluded(SCALING),
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule scaling_tables:
    input:
        points=rules.scaling_collect.output.points,
        agreement=rules.scaling_agreement.output.csv,  # tables only from agreeing selections
    output:
        exponents_csv=SCALING_TABLES["exponents_csv"],
        exponents_md=SCALING_TABLES["exponents_md"],
        speedups_csv=SCALING_TABLES["speedups_csv"],
        speedups_md=SCALING_TABLES["speedups_md"],
        timings_csv=SCALING_TABLES["timings_csv"],
        timings_md=SCALING_TABLES["timings_md"],
        paper_csv=SCALING_TABLES["paper_csv"],
        paper_md=SCALING_TABLES["paper_md"],
    log:
        f"{SCALING_DIR}/logs/tables.log",
    benchmark:
        f"{SCALING_DIR}/benchmarks/tables.tsv"
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.studies.scaling.jobs.tables_job",
        settings=SCALING,
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule scaling_figure:
    input:
        points=rules.scaling_collect.output.points,
        agreement=rules.scaling_agreement.output.csv,
    output:
        figure_variants(f"{SCALING_DIR}/figures/{{sweep}}_{{scale}}.png"),
        figure=report(
            f"{SCALING_DIR}/figures/{{sweep}}_{{scale}}.png",
            caption="report/figure.rst",
            category="Scaling",
            subcategory="Figures",
            labels={"sweep": "{sweep}", "axes": "{scale}"},
        ),
    log:
        f"{SCALING_DIR}/logs/figure_{{sweep}}_{{scale}}.log",
    benchmark:
        f"{SCALING_DIR}/benchmarks/figure_{{sweep}}_{{scale}}.tsv"
    wildcard_constraints:
        sweep="|".join(SCALING.get("sweeps", {})) or "(?!)",
        scale="linear|log",
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.studies.scaling.jobs.figure_job",
        sweep="{sweep}",
        scale="{scale}",
        settings=SCALING,
        labels=scaling_config.legend_labels(SCALING),
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule scaling_all:
    input:
        SCALING_TARGETS,


# The committed copy of a run (normally the paper run), never refreshed by the run itself.
rule scaling_publish:
    input:
        sources=derived(SCALING_PUBLISHED),
    output:
        targets=published("scaling", derived(SCALING_PUBLISHED)),
        provenance_json=published_provenance("scaling"),
    log:
        f"{SCALING_DIR}/logs/publish.log",
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.benchmark.tables.publish",
        config=config,
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)
