# Ramona et al. (2012), kernel Gram-matrix feature selection (issue 7): the toy problems of
# Fig. 1, the real-data protocol of Section V-B/C (Tables II, IV, V, VI) and the CPU-time
# Tables VIII-IX.
# Jobs: one per (toy problem, method), per (real-data experiment, kernel) running all its
# methods, and per CPU-time axis. Reports: Fig. 1, the real-data curves, paired t-tests and
# the paper's tables beside ours.
#   snakemake ramona_all --cores 2                                    (embedded default, < 1 min)
#   snakemake ramona_publish --cores 1 --configfile config/paper.yaml   (-> results/paper/ramona)
from rlsbench.studies.ramona import config as ramona_config

RAMONA = part_section("ramona")
RAMONA_DIR = f"{RUNDIR}/ramona"
RAMONA_TOY_FILES = ramona_config.toy_files(RAMONA, RAMONA_DIR)
RAMONA_REAL_FILES = ramona_config.realdata_files(RAMONA, RAMONA_DIR)
RAMONA_CPU_AXES = ramona_config.cputime_axes(RAMONA)
RAMONA_OUTPUTS = ramona_config.outputs(RAMONA, RAMONA_DIR)
RAMONA_TARGETS = ramona_config.targets(RAMONA, RAMONA_DIR)
PART_TARGETS["ramona"] = RAMONA_TARGETS


rule ramona_toy:
    output:
        table=f"{RAMONA_DIR}/toy/{{problem}}/{{method}}.csv",
    log:
        f"{RAMONA_DIR}/logs/toy/{{problem}}/{{method}}.log",
    benchmark:
        f"{RAMONA_DIR}/benchmarks/toy/{{problem}}/{{method}}.tsv"
    wildcard_constraints:
        problem="linear|nonlinear",
        method="[a-z0-9]+",
    conda:
        ENVIRONMENT
    threads: RAMONA.get("threads", 1)
    params:
        function="rlsbench.studies.ramona.jobs.toy_job",
        problem="{problem}",
        method="{method}",
        # the settings of this job only: adding a method must not re-run the others
        toy=lambda wc: ramona_config.toy_job_settings(RAMONA, wc.method),
        seed=RAMONA.get("seed", 0),
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule ramona_realdata:
    input:
        data=lambda wc: prepared(ramona_config.experiment(RAMONA, wc.experiment)["dataset"]),
    output:
        table=f"{RAMONA_DIR}/realdata/{{experiment}}/{{kernel}}.csv",
    log:
        f"{RAMONA_DIR}/logs/realdata/{{experiment}}/{{kernel}}.log",
    benchmark:
        f"{RAMONA_DIR}/benchmarks/realdata/{{experiment}}/{{kernel}}.tsv"
    wildcard_constraints:
        experiment="[A-Za-z0-9_\-]+",
        kernel="linear|rbf|poly",
    conda:
        ENVIRONMENT
    threads: RAMONA.get("threads", 1)
    params:
        function="rlsbench.studies.ramona.jobs.realdata_job",
        experiment_name="{experiment}",
        kernel="{kernel}",
        experiment=lambda wc: ramona_config.experiment_job(RAMONA, wc.experiment, wc.kernel),
        seed=RAMONA.get("seed", 0),
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule ramona_cputime:
    output:
        table=f"{RAMONA_DIR}/cputime/{{axis}}.csv",
    log:
        f"{RAMONA_DIR}/logs/cputime/{{axis}}.log",
    benchmark:
        f"{RAMONA_DIR}/benchmarks/cputime/{{axis}}.tsv"
    wildcard_constraints:
        axis="N|D",
    conda:
        ENVIRONMENT
    threads: 1
    params:
        function="rlsbench.studies.ramona.jobs.cputime_job",
        axis="{axis}",
        cputime=ramona_config.cputime_job_settings(RAMONA),
        seed=RAMONA.get("seed", 0),
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule ramona_toy_report:
    input:
        tables=RAMONA_TOY_FILES,
    output:
        figure_variants(RAMONA_OUTPUTS["toy_figure"]),
        rows=RAMONA_OUTPUTS["toy_rows"],
        summary=RAMONA_OUTPUTS["toy_summary"],
        figure=report(
            RAMONA_OUTPUTS["toy_figure"],
            caption="report/toy.rst",
            category="Ramona et al.",
            subcategory="Toy problems",
        ),
    log:
        f"{RAMONA_DIR}/logs/toy_report.log",
    benchmark:
        f"{RAMONA_DIR}/benchmarks/toy_report.tsv"
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.studies.ramona.jobs.toy_report_job",
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule ramona_realdata_report:
    input:
        tables=RAMONA_REAL_FILES,
    output:
        figure_variants(RAMONA_OUTPUTS["real_figure"]),
        rows=RAMONA_OUTPUTS["real_rows"],
        summary=RAMONA_OUTPUTS["real_summary"],
        tests=RAMONA_OUTPUTS["real_tests"],
        tests_sas=RAMONA_OUTPUTS["real_tests_sas"],
        figure=report(
            RAMONA_OUTPUTS["real_figure"],
            caption="report/realdata.rst",
            category="Ramona et al.",
            subcategory="Real data",
        ),
        table2_md=RAMONA_OUTPUTS["table2"],
        table4_md=RAMONA_OUTPUTS["table4"],
        table5_md=RAMONA_OUTPUTS["table5"],
        table6_md=RAMONA_OUTPUTS["table6"],
    log:
        f"{RAMONA_DIR}/logs/realdata_report.log",
    benchmark:
        f"{RAMONA_DIR}/benchmarks/realdata_report.tsv"
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.studies.ramona.jobs.realdata_report_job",
        experiments={
            name: ramona_config.experiment(RAMONA, name)
            for name in RAMONA.get("realdata", {}).get("experiments", {})
        },
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule ramona_cputime_report:
    input:
        tables=[f"{RAMONA_DIR}/cputime/{a}.csv" for a in RAMONA_CPU_AXES],
    output:
        rows=RAMONA_OUTPUTS["cpu_rows"],
        table8=RAMONA_OUTPUTS["table8"],
        table9=RAMONA_OUTPUTS["table9"],
    log:
        f"{RAMONA_DIR}/logs/cputime_report.log",
    benchmark:
        f"{RAMONA_DIR}/benchmarks/cputime_report.tsv"
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.studies.ramona.jobs.cputime_report_job",
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule ramona_all:
    input:
        RAMONA_TARGETS,


# The committed copy of a run (normally the paper run), never refreshed by the run itself.
rule ramona_publish:
    input:
        sources=derived(RAMONA_TARGETS),
    output:
        targets=published("ramona", derived(RAMONA_TARGETS)),
        provenance_json=published_provenance("ramona"),
    log:
        f"{RAMONA_DIR}/logs/publish.log",
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.benchmark.tables.publish",
        config=config,
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)
