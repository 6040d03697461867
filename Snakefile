# rlsbench: the whole workflow. This file only sets up and includes one rule file per stage.
# Run:  snakemake --cores N [--configfile config/paper.yaml]
import os
import sys
from pathlib import Path

from snakemake.utils import min_version

min_version("8.20")

# Results record the commit of the checkout holding this workflow, also when jobs run with
# --directory elsewhere or on cluster nodes (rlsbench.benchmark.provenance).
os.environ.setdefault("RLSBENCH_SOURCE_DIR", workflow.basedir)


envvars:
    "RLSBENCH_SOURCE_DIR",


# Without --configfile the embedded default runs. A user's --configfile says on its own what
# runs: the default is not merged under it (a part it does not name does not run), and its
# run name defaults to the file's name (results/runs/<name>/).
# Snakemake's own reading of a config file names no file in its error and keeps the last of a
# key given twice: read_config_file reads each again and names file, line and column.
from rlsbench.benchmark.config import config_errors_end_the_run, read_config_file

if workflow.config_settings.configfiles:
    with config_errors_end_the_run():
        for _configfile in workflow.config_settings.configfiles:
            read_config_file(_configfile)
    config.setdefault("run_name", Path(workflow.config_settings.configfiles[-1]).stem)
else:
    # the working directory's config/config.yaml (a clone's), else the workflow's own: an
    # installed Snakefile runs from any directory (`snakemake -s <site-packages>/.../Snakefile`)
    _default_config = "config/config.yaml"
    if not os.path.exists(_default_config):
        _default_config = os.path.join(workflow.basedir, "config", "config.yaml")
    with config_errors_end_the_run():
        read_config_file(_default_config)

    configfile: _default_config


# The job server (rlsbench.benchmark.jobserver) imports what jobs need while Snakemake reads
# the rule files below and builds its graph: the first job finds it listening.
if workflow.is_main_process:
    from rlsbench.benchmark.jobserver import warm_up

    warm_up()


# The rules' jobs (`run: JOB(...)`, rlsbench.benchmark.jobserver.run_in_thread) run in threads
# of this process, which hand them to the job server: without --force-use-threads, which
# Snakemake gives a cluster's single jobs but not its groups, it would start a Snakemake of its
# own for every run: job (jobserver.run_jobs_in_threads).
from rlsbench.benchmark.jobserver import run_jobs_in_threads

run_jobs_in_threads()


# Snakemake's default job rate limit is for cluster submissions; on a local run it only
# replans every second and holds the exit for a second (jobserver.lift_local_rate_limit).
onstart:
    from rlsbench.benchmark.jobserver import forward_stop_signals, lift_local_rate_limit

    lift_local_rate_limit(workflow)
    forward_stop_signals()


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/datasets.smk"


# The rule file of every installed part (PARTS, common.smk: the entry-point group
# rlsbench.parts, rlsbench.benchmark.parts), each in its own package, in listing order.
for _part in PARTS:

    include: _part.rules


include: "workflow/rules/fidelity.smk"
include: "workflow/rules/report.smk"


# Each part's rule file (one shape for all: its config section, job rules, report rules,
# <part>_all, <part>_publish) sets PART_TARGETS[<part>], empty when its config section is
# absent or disabled, so `snakemake` with no target builds every enabled part; REPORT_TARGETS
# are the tables' views and LaTeX files and the report's first page (workflow/rules/report.smk).
rule all:
    default_target: True
    input:
        [PART_TARGETS[part.name] for part in PARTS],
        FIDELITY_TARGETS,
        REPORT_TARGETS,


# What this run will do, before any job starts (a run or a dry run): parts, datasets, methods
# and a rough time from the cost models (rlsbench.studies.plan).
if workflow.is_main_process:
    from rlsbench.studies.plan import describe

    print(describe(config, PART_SECTIONS, DATASET_REGISTRY), file=sys.stderr)
