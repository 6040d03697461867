# Buteneers et al. (issue 6): K-fold λ search at a cost independent of M, FFS/BFS with λ per
# candidate set, and the baselines LARS / OP-LR / OP-RR, on the structure of Tables 3-6 plus a
# timing table against M and N. One job per task (all methods of one task run in the same
# process, so their times compare), one timing job, one table job; `buteneers_publish` copies
# the tables of the paper run to results/paper/buteneers/.
import re

BUTENEERS_DIR = f"{RUNDIR}/buteneers"
BUTENEERS_PUBLISH_DIR = "results/paper/buteneers"
BUTENEERS_OUTPUTS = ("tables.md", "results.csv", "timing.csv")

if part_enabled("buteneers"):
    validate(config["buteneers"], "../schemas/buteneers.schema.yaml")
    BUTENEERS = config["buteneers"]
    BUTENEERS_TASKS = {
        t["name"]: {k: v for k, v in t.items() if k != "name"} for t in BUTENEERS["tasks"]
    }
    if len(BUTENEERS_TASKS) != len(BUTENEERS["tasks"]):
        raise ValueError("config key buteneers.tasks: task names must be unique")
    BUTENEERS_TARGETS = [f"{BUTENEERS_DIR}/{name}" for name in BUTENEERS_OUTPUTS]
else:
    BUTENEERS, BUTENEERS_TASKS = {}, {}
    BUTENEERS_TARGETS = []


# Task names are the only values the {task} wildcard can take, so a lookup cannot fail.
BUTENEERS_TASK_RE = "|".join(re.escape(name) for name in BUTENEERS_TASKS) or "(?!)"
BUTENEERS_COMMON = {
    k: BUTENEERS[k] for k in ("seed", "methods", "fs_max_seconds") if k in BUTENEERS
}


rule buteneers_task:
    input:
        unpack(
            lambda wc: (
                {"data": f"results/datasets/prepared/{BUTENEERS_TASKS[wc.task]['dataset']}.npz"}
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
        task=BUTENEERS_TASK_RE,
    conda:
        "../../environment.yml"
    threads: 1
    params:
        task=lambda wc: BUTENEERS_TASKS[wc.task],
        common=BUTENEERS_COMMON,
    script:
        "../scripts/buteneers_task.py"


rule buteneers_timing:
    output:
        table=f"{BUTENEERS_DIR}/timing.csv",
    log:
        f"{BUTENEERS_DIR}/logs/timing.log",
    benchmark:
        f"{BUTENEERS_DIR}/benchmarks/timing.tsv"
    conda:
        "../../environment.yml"
    threads: 1
    params:
        timing=BUTENEERS.get("timing", {}),
        seed=BUTENEERS.get("seed", 0),
    script:
        "../scripts/buteneers_timing.py"


rule buteneers_tables:
    input:
        tasks=expand(f"{BUTENEERS_DIR}/tasks/{{task}}.csv", task=list(BUTENEERS_TASKS)),
        timing=rules.buteneers_timing.output.table,
    output:
        tables=report(
            f"{BUTENEERS_DIR}/tables.md",
            caption="../report/buteneers_tables.rst",
            category="Buteneers",
        ),
        results=report(
            f"{BUTENEERS_DIR}/results.csv",
            caption="../report/buteneers_results.rst",
            category="Buteneers",
        ),
    log:
        f"{BUTENEERS_DIR}/logs/tables.log",
    conda:
        "../../environment.yml"
    script:
        "../scripts/buteneers_tables.py"


rule buteneers_all:
    input:
        BUTENEERS_TARGETS,


rule buteneers_publish:
    input:
        [f"{BUTENEERS_DIR}/{name}" for name in BUTENEERS_OUTPUTS],
    output:
        [f"{BUTENEERS_PUBLISH_DIR}/{name}" for name in BUTENEERS_OUTPUTS],
    log:
        f"{BUTENEERS_DIR}/logs/publish.log",
    conda:
        "../../environment.yml"
    script:
        "../scripts/publish.py"
