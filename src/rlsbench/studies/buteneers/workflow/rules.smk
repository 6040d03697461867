# Buteneers et al. (issue 6): K-fold λ search at a cost independent of M, FFS/BFS with λ per
# candidate set, and the baselines LARS / OP-LR / OP-RR, on the structure of Tables 3, 5 and 6
# (Table 4: data not public) plus a timing table against M and N.
# Jobs: one per task (all methods of one task run in the same process, so their times
# compare) and one timing job. Reports: the tables beside the paper's numbers.
#   snakemake buteneers_all --cores 2
#   snakemake buteneers_publish --cores 1 --configfile config/paper.yaml (-> results/paper/buteneers)
import re

from rlsbench.studies.buteneers import config as buteneers_config

BUTENEERS = part_section("buteneers")
BUTENEERS_DIR = f"{RUNDIR}/buteneers"
BUTENEERS_TASKS = buteneers_config.tasks(BUTENEERS)
BUTENEERS_OUTPUTS = [f"{BUTENEERS_DIR}/{name}" for name in buteneers_config.OUTPUTS]
BUTENEERS_TARGETS = BUTENEERS_OUTPUTS if BUTENEERS else []
PART_TARGETS["buteneers"] = BUTENEERS_TARGETS


rule buteneers_task:
    input:
        unpack(
            lambda wc: (
                {"data": prepared(BUTENEERS_TASKS[wc.task]["dataset"])}
                if "dataset" in BUTENEERS_TASKS[wc.task]
                else {}
            )
        ),
    output:
        table=f"{BUTENEERS_DIR}/tasks/{{task}}.csv",
    log:
        f"{BUTENEERS_DIR}/logs/task_{{task}}.log",
    benchmark:
        f"{BUTENEERS_DIR}/benchmarks/task_{{task}}.tsv"
    wildcard_constraints:
        # task names are the only values the wildcard can take, so a lookup cannot fail
        task="|".join(re.escape(name) for name in BUTENEERS_TASKS) or "(?!)",
    conda:
        ENVIRONMENT
    threads: 1
    params:
        function="rlsbench.studies.buteneers.jobs.task_job",
        name="{task}",
        task=lambda wc: BUTENEERS_TASKS[wc.task],
        common=buteneers_config.common(BUTENEERS),
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule buteneers_timing:
    output:
        table=f"{BUTENEERS_DIR}/timing.csv",
    log:
        f"{BUTENEERS_DIR}/logs/timing.log",
    benchmark:
        f"{BUTENEERS_DIR}/benchmarks/timing.tsv"
    conda:
        ENVIRONMENT
    threads: 1
    params:
        function="rlsbench.studies.buteneers.jobs.timing_job",
        timing=BUTENEERS.get("timing", {}),
        seed=BUTENEERS.get("seed", 0),
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule buteneers_tables:
    input:
        tasks=expand(f"{BUTENEERS_DIR}/tasks/{{task}}.csv", task=list(BUTENEERS_TASKS)),
        timing=rules.buteneers_timing.output.table,
    output:
        tables=f"{BUTENEERS_DIR}/tables.md",
        results=f"{BUTENEERS_DIR}/results.csv",
    log:
        f"{BUTENEERS_DIR}/logs/tables.log",
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.studies.buteneers.jobs.tables_job",
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule buteneers_all:
    input:
        BUTENEERS_TARGETS,


# The committed copy of a run (normally the paper run), never refreshed by the run itself.
rule buteneers_publish:
    input:
        sources=derived(BUTENEERS_OUTPUTS),
    output:
        targets=published("buteneers", derived(BUTENEERS_OUTPUTS)),
        provenance_json=published_provenance("buteneers"),
    log:
        f"{BUTENEERS_DIR}/logs/publish.log",
    conda:
        ENVIRONMENT
    params:
        function="rlsbench.benchmark.tables.publish",
        config=config,
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)
