# The main part: the greedy RLS paper's accuracy experiment (Pahikkala et al., Section 4.2).
# Jobs: one λ search per dataset (main_alpha: LOO grid search on every training split), then
# one selection job per (dataset, method) (main_select: every fold and seed); the folds of a
# job run side by side on its threads (rlsbench.benchmark.parallel). Reports: the merged step
# table, the λ chosen per fold, curves, run times, summary, the paper's checks and figures.
#   snakemake main_all --cores 2                                  (embedded default)
#   snakemake main_publish --cores 1 --configfile config/paper.yaml   (-> results/paper/main)
import shutil
from pathlib import Path

from rlsbench.benchmark.methods import method_version
from rlsbench.benchmark.protocol_settings import ProtocolSettings
from rlsbench.studies.main import config as main_config
from rlsbench.studies.main import statistics as main_statistics

MAIN = part_section("main")
# the protocol's settings, parsed once; the jobs get the parts their results depend on
with config_errors_end_the_run():
    MAIN_PROTOCOL = ProtocolSettings.from_section(MAIN, key="main")
# main.device: cuda needs a GPU where the selection jobs run: checked now when they run here;
# on a cluster's submitting node (sbatch on the PATH) the job checks where it lands instead
if MAIN and workflow.is_main_process and shutil.which("sbatch") is None:
    main_config.check_device(MAIN)
MAIN_DIR = f"{RUNDIR}/main"
MAIN_OUTPUTS = [f"{MAIN_DIR}/{name}" for name in main_config.outputs(MAIN)]
MAIN_TARGETS = MAIN_OUTPUTS if MAIN else []
# statistics across datasets only where the config has a main.statistics section
MAIN_STATISTICS = main_statistics.check(MAIN, DATASET_REGISTRY)
MAIN_STATISTICS_FILES = main_statistics.outputs(MAIN_STATISTICS)
# (a new list: MAIN_TARGETS is MAIN_OUTPUTS, which main_publish copies, and stays so)
MAIN_TARGETS = MAIN_TARGETS + [
    f"{MAIN_DIR}/{name}" for name in main_statistics.target_files(MAIN_STATISTICS)
]
# the table a paper prints only where the config has a main.latex section
MAIN_LATEX = MAIN.get("latex")
if MAIN_LATEX:
    # imported here: it loads pandas, a quarter of a second of every Snakemake start before the
    # first job where a config has no such table
    from rlsbench.benchmark import paper_table

    with config_errors_end_the_run():
        paper_table.check_settings(MAIN_LATEX, MAIN["methods"], key="main.latex")
    MAIN_TARGETS = MAIN_TARGETS + [f"{MAIN_DIR}/tables/paper_table.tex"]
# the figures across datasets (all test curves, run times, accuracy against time): built by
# main_all and copied by main_publish like every other target
MAIN_OVERVIEW_FIGURES = {
    name: f"{MAIN_DIR}/figures/{name}.png" for name in ("curves_all", "runtime", "pareto")
}
if MAIN:
    MAIN_TARGETS = MAIN_TARGETS + list(MAIN_OVERVIEW_FIGURES.values())
PART_TARGETS["main"] = MAIN_TARGETS
# a file of a dataset or method the run does not name has no rule (not a missing input)
MAIN_DATASETS = main_config.names_pattern(MAIN.get("datasets", []))
MAIN_METHODS = main_config.names_pattern(MAIN.get("methods", []))


wildcard_constraints:
    dataset=r"[^/]+",
    method=r"[^/]+",


rule main_alpha:
    input:
        data=prepared("{dataset}"),
    output:
        table=f"{MAIN_DIR}/alpha/{{dataset}}.csv",
    log:
        f"{MAIN_DIR}/logs/alpha/{{dataset}}.log",
    benchmark:
        f"{MAIN_DIR}/benchmarks/alpha/{{dataset}}.tsv"
    wildcard_constraints:
        dataset=MAIN_DATASETS,
    conda:
        ENVIRONMENT
    threads: MAIN.get("threads", 2)
    resources:
        mem_mb=lambda wc, threads: main_config.alpha_mem_mb(
            MAIN, DATASET_REGISTRY, wc.dataset, threads
        ),
        runtime=lambda wc, threads: main_config.alpha_runtime(
            MAIN, DATASET_REGISTRY, wc.dataset, threads
        ),
    params:
        # rlsbench.benchmark.jobs.alpha_job under the name the committed runs recorded (the
        # name is a param: a new one would re-run every job)
        function="rlsbench.benchmark.protocol.alpha_job",
        # the settings a λ search depends on (budgets or k caps do not re-run it)
        settings=MAIN_PROTOCOL.alpha_settings(),
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule main_select:
    input:
        data=prepared("{dataset}"),
        alphas=rules.main_alpha.output.table,
    output:
        table=f"{MAIN_DIR}/jobs/{{dataset}}/{{method}}.csv",
    log:
        f"{MAIN_DIR}/logs/select/{{dataset}}/{{method}}.log",
    benchmark:
        f"{MAIN_DIR}/benchmarks/select/{{dataset}}/{{method}}.tsv"
    wildcard_constraints:
        dataset=MAIN_DATASETS,
        method=MAIN_METHODS,
    conda:
        ENVIRONMENT
    threads: MAIN.get("threads", 2)
    resources:
        mem_mb=lambda wc, threads: main_config.select_mem_mb(
            MAIN, DATASET_REGISTRY, wc.dataset, wc.method, threads
        ),
        runtime=lambda wc, threads: main_config.select_runtime(
            MAIN, DATASET_REGISTRY, wc.dataset, wc.method, threads
        ),
    params:
        # the method's code (distribution, version, source hash): editing a method re-runs its
        # jobs and no other (Snakemake's params trigger). Unnamed, so it is not passed to
        # select_job (named params are its arguments): only the trigger reads it
        lambda wc: method_version(wc.method),
        # rlsbench.benchmark.jobs.select_job, under the name the committed runs recorded
        function="rlsbench.benchmark.protocol.select_job",
        method="{method}",
        # the settings one dataset's jobs depend on (a change re-runs only those jobs)
        settings=lambda wc: MAIN_PROTOCOL.job_settings(wc.dataset),
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule main_alphas:
    input:
        tables=lambda wc: main_config.alpha_tables(MAIN, MAIN_DIR),
    output:
        alphas=f"{MAIN_DIR}/tables/alphas.csv",
    log:
        f"{MAIN_DIR}/logs/alphas.log",
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.benchmark.results.alphas_job",
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule main_aggregate:
    input:
        tables=lambda wc: main_config.job_tables(MAIN, MAIN_DIR),
    output:
        steps=f"{MAIN_DIR}/tables/steps.csv",
    log:
        f"{MAIN_DIR}/logs/aggregate.log",
    benchmark:
        f"{MAIN_DIR}/benchmarks/aggregate.tsv"
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.benchmark.results.aggregate_job",
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule main_curves:
    input:
        steps=rules.main_aggregate.output.steps,
    output:
        curves=f"{MAIN_DIR}/tables/curves.csv",
    log:
        f"{MAIN_DIR}/logs/curves.log",
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.benchmark.results.curves_job",
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule main_runtime:
    input:
        benchmarks=lambda wc: main_config.job_benchmarks(MAIN, MAIN_DIR),
        # the jobs' own tables, in the order of their benchmarks: the method's and the
        # protocol's share of each job's time
        tables=lambda wc: main_config.alpha_tables(MAIN, MAIN_DIR)
        + main_config.job_tables(MAIN, MAIN_DIR),
    output:
        runtime=f"{MAIN_DIR}/tables/runtime.csv",
    log:
        f"{MAIN_DIR}/logs/runtime.log",
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.benchmark.results.runtime_job",
        prefix=f"{MAIN_DIR}/benchmarks/",
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule main_summary:
    input:
        steps=rules.main_aggregate.output.steps,
    output:
        csv=f"{MAIN_DIR}/tables/summary.csv",
        md=f"{MAIN_DIR}/tables/summary.md",
    log:
        f"{MAIN_DIR}/logs/summary.log",
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.benchmark.results.summary_job",
        report_k=MAIN.get("report_k", []),
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule main_checks:
    input:
        steps=rules.main_aggregate.output.steps,
    output:
        csv=f"{MAIN_DIR}/tables/paper_checks.csv",
        md=f"{MAIN_DIR}/tables/paper_checks.md",
    log:
        f"{MAIN_DIR}/logs/checks.log",
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.studies.main.jobs.checks_job",
        report_k=MAIN.get("report_k", []),
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule main_figures:
    input:
        steps=rules.main_aggregate.output.steps,
    output:
        figure_variants(f"{MAIN_DIR}/figures/test_{{dataset}}.png"),
        figure_variants(f"{MAIN_DIR}/figures/loo_vs_test_{{dataset}}.png"),
        test=report(
            f"{MAIN_DIR}/figures/test_{{dataset}}.png",
            caption="report/test.rst",
            category="Main",
            subcategory="Test accuracy vs k (Figs. 4-9)",
            labels={"dataset": "{dataset}", "figure": "test vs k"},
        ),
        loo=report(
            f"{MAIN_DIR}/figures/loo_vs_test_{{dataset}}.png",
            caption="report/loo.rst",
            category="Main",
            subcategory="LOO vs test, greedy RLS (Figs. 10-15)",
            labels={"dataset": "{dataset}", "figure": "LOO vs test"},
        ),
    log:
        f"{MAIN_DIR}/logs/figures/{{dataset}}.log",
    wildcard_constraints:
        dataset=MAIN_DATASETS,
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.studies.main.jobs.figures_job",
        dataset="{dataset}",
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


# one rule per figure across datasets, so that they draw side by side (each writes five files)
for _figure, _png in MAIN_OVERVIEW_FIGURES.items():

    rule:
        name:
            f"main_overview_{_figure}"
        input:
            steps=rules.main_aggregate.output.steps,
        output:
            figure_variants(_png),
            png=report(
                _png,
                caption=f"report/{_figure}.rst",
                category="Main",
                subcategory="Across datasets",
                labels={"figure": _figure.replace("_", " ")},
            ),
        log:
            f"{MAIN_DIR}/logs/overview_figures/{_figure}.log",
        conda:
            ENVIRONMENT
        params:
            function="rlsbench.studies.main.report.overview_figure_job",
            figure=_figure,
        run:
            JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


if MAIN_STATISTICS:

    rule main_statistics:
        input:
            steps=rules.main_aggregate.output.steps,
        output:
            *[
                variant
                for png in MAIN_STATISTICS_FILES["cd"]
                for variant in figure_variants(f"{MAIN_DIR}/{png}")
            ],
            **{
                name: f"{MAIN_DIR}/{path}"
                for name, path in MAIN_STATISTICS_FILES.items()
                if name != "cd"
            },
            cd=[
                report(
                    f"{MAIN_DIR}/{png}",
                    caption="report/cd.rst",
                    category="Main",
                    subcategory="Statistics across datasets",
                    labels={"diagram": Path(png).stem.removeprefix("cd_")},
                )
                for png in MAIN_STATISTICS_FILES["cd"]
            ],
        log:
            f"{MAIN_DIR}/logs/statistics.log",
        conda:
            ENVIRONMENT
        params:
            function="rlsbench.studies.main.statistics.statistics_job",
            settings=MAIN_STATISTICS,
        run:
            JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


if MAIN_LATEX:

    rule main_paper_table:
        input:
            steps=rules.main_aggregate.output.steps,
        output:
            tex=f"{MAIN_DIR}/tables/paper_table.tex",
        log:
            f"{MAIN_DIR}/logs/paper_table.log",
        conda:
            ENVIRONMENT
        params:
            function="rlsbench.benchmark.paper_table.paper_table_job",
            settings=MAIN_LATEX,
        run:
            JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule main_all:
    input:
        MAIN_TARGETS,


# The committed copy of a run, never refreshed by the run itself: every file main_all builds,
# under main.publish_to (default PUBLISH_DIR/main: results/paper/main for the paper run;
# results/benchmark for the reference benchmark).
MAIN_PUBLISH_TO = MAIN.get("publish_to", f"{PUBLISH_DIR}/main")
# less main.publish_exclude, and main.publish_gzip's files compressed (x.csv -> x.csv.gz);
# what an earlier publication wrote that these leave out is removed
with config_errors_end_the_run():
    MAIN_PUBLISHED, MAIN_UNPUBLISHED = main_config.published(
        MAIN, derived(MAIN_TARGETS), MAIN_DIR, MAIN_PUBLISH_TO
    )


rule main_publish:
    input:
        sources=[source for source, _ in MAIN_PUBLISHED],
        rows=f"{MAIN_DIR}/tables/steps.csv",
    output:
        targets=[target for _, target in MAIN_PUBLISHED],
        provenance_json=f"{MAIN_PUBLISH_TO}/provenance.json",
    log:
        f"{MAIN_DIR}/logs/publish.log",
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.benchmark.tables.publish",
        config=config,
        stale=MAIN_UNPUBLISHED,
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)
