# Helpers shared by the rule files (snakemake --lint wants functions here, not beside rules).
# The installed parts (PARTS, rlsbench.benchmark.parts: the Snakefile includes their rule
# files), the top-level config check, the run directory, the dataset registry, and the two
# helpers every part's rule file uses, `part_section` (its validated and checked config
# section, see rlsbench.benchmark.config) and `published` (where `<part>_publish` copies the
# run's files). A part's rule file sets PART_TARGETS[<part>] (what `rule all` builds);
# part_section fills PART_SECTIONS[<part>]; PART_BUILT_EXTRA[<part>], files it builds besides
# its targets (the published copies of its raw tables) that the fidelity ledger may read.
# Each rule that runs Python names a function in params and hands it to JOB (from its run
# directive, in a thread of Snakemake's process; see rlsbench.benchmark.workflow and .jobserver)
# or to the script CALL, workflow/scripts/call.py (a process per job), and names the conda
# environment ENVIRONMENT. Both paths are absolute: a part's rule file lives in its own package.
import os
import re
from pathlib import Path

import yaml

from rlsbench.benchmark.config import config_errors_end_the_run
from rlsbench.benchmark.config import part_section as read_part_section
from rlsbench.benchmark.config import validate_config
from rlsbench.benchmark.parts import PartPluginError, installed_parts
from rlsbench.benchmark.run_folder import unwritable

REPO = Path(workflow.basedir)
SCHEMAS = REPO / "workflow" / "schemas"
REPORT_CAPTIONS = REPO / "workflow" / "report"
try:
    PARTS = installed_parts()
except PartPluginError as exc:
    raise SystemExit(str(exc)) from None
PART_BY_NAME = {part.name: part for part in PARTS}
# a bad config ends the parse with its one-line message, not a traceback
with config_errors_end_the_run():
    validate_config(config, SCHEMAS / "config.schema.yaml", PART_BY_NAME)

RUN = config["run_name"]
RUNDIR = f"results/runs/{RUN}"
# a results folder that cannot be written is named in one line before any job (issue 45)
for _folder in (RUNDIR, "results/datasets"):
    if _why := unwritable(_folder):
        raise SystemExit(_why)
# where the *_publish rules copy a run (results/paper; a variant's results/paper/variants/<name>)
PUBLISH_DIR = config.get("publish_dir", "results/paper").rstrip("/")
CALL = str(REPO / "workflow" / "scripts" / "call.py")


def JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration):
    """What a job's run directive does: the function its params name, in a child of the job
    server (else in a new interpreter), as the script CALL runs it but without an interpreter
    start per job (rlsbench.benchmark.jobserver.run_in_thread)."""
    from snakemake.script import Snakemake

    from rlsbench.benchmark.jobserver import run_in_thread

    run_in_thread(
        Snakemake(
            input, output, params, wildcards, threads, resources, log, config, rule,
            bench_iteration, workflow.basedir,
        )
    )  # fmt: skip


ENVIRONMENT = str(REPO / "environment.yml")
# each part's validated section ({} when absent or disabled) and what `rule all` builds of it
PART_SECTIONS = {}
PART_TARGETS = {}
# files a part builds besides its targets that other rules may read (the fidelity ledger)
PART_BUILT_EXTRA = {}


# ---------------------------------------------------------------------------------------------
# The dataset registry (built-in package data + the config's own entries): names and shapes.
# ---------------------------------------------------------------------------------------------
def _load_registry():
    """The built-in registry (package data) plus the config's dataset_registries and datasets."""
    from rlsbench.benchmark.datasets.rules import registry_entries

    with config_errors_end_the_run():
        return registry_entries(config)


DATASET_REGISTRY = _load_registry()


def prepared(dataset):
    """The prepared (canonical .npz) file of a registry dataset (rule `prepare`)."""
    return f"results/datasets/prepared/{dataset}.npz"


# ---------------------------------------------------------------------------------------------
# One pattern for the parts (PARTS)
# ---------------------------------------------------------------------------------------------
def part_section(name):
    """The config section of part ``name`` validated against its schema and checked by its
    check (rlsbench.benchmark.parts.Part); {} when the part is absent or disabled."""
    part = PART_BY_NAME[name]
    with config_errors_end_the_run():
        PART_SECTIONS[name] = read_part_section(
            config, name, part.schema, check=part.check_function(), datasets=DATASET_REGISTRY
        )
    return PART_SECTIONS[name]


def published(part, paths):
    """The committed copies (PUBLISH_DIR/<part>/..., results/paper/<part>/... for the paper
    run) of a run's files of a part."""
    return [path.replace(f"{RUNDIR}/{part}", f"{PUBLISH_DIR}/{part}", 1) for path in paths]


def published_provenance(part):
    """The provenance record of a part's committed copy (PUBLISH_DIR/<part>/provenance.json)."""
    return f"{PUBLISH_DIR}/{part}/provenance.json"


# ---------------------------------------------------------------------------------------------
# Files derived from a part's tables and figures (workflow/rules/report.smk): the LaTeX file
# of every Markdown table, the vector and one-column files of every figure.
# ---------------------------------------------------------------------------------------------
def figure_variants(png):
    """The files a figure rule writes besides ``png`` (rlsbench.benchmark.figures)."""
    from rlsbench.benchmark.outputs import figure_files

    return figure_files(png)[1:]


def derived(paths):
    """``paths`` with the files derived from them: ``x.tex`` after every ``x.md`` (the
    views rules write it) and the vector files after every ``x.png`` (the figure rules)."""
    from rlsbench.benchmark.outputs import latex_path

    out = []
    for path in paths:
        out.append(path)
        if path.endswith(".md"):
            out.append(latex_path(path))
        elif path.endswith(".png"):
            out += figure_variants(path)
    return list(dict.fromkeys(out))


# ---------------------------------------------------------------------------------------------
# The report's table views (workflow/rules/report.smk): caption, category and title of a view.
# ---------------------------------------------------------------------------------------------
def view_spec(part, table):
    """(caption file, subcategory, title or None) of the view of ``table``: the first match
    in VIEW_CAPTIONS (report.smk) for its path under the part's run directory."""
    relative = table.removeprefix(f"{RUNDIR}/{part}/")
    for pattern, rst, subcategory, title in VIEW_CAPTIONS.get(part, []):
        if re.match(pattern, relative):
            return str(rst), subcategory, title
    return str(REPORT_CAPTIONS / "table_view.rst"), "Tables", None


def view_output(part, table):
    """The HTML view of ``table``, flagged for the report with its caption and the part's
    category (REPORT_PARTS, report.smk)."""
    from rlsbench.benchmark.outputs import view_path

    category = REPORT_PARTS[part][0]
    caption, subcategory, _ = view_spec(part, table)
    # the report lists a result by its labels (else by its whole path)
    name = os.path.splitext(table.removeprefix(f"{RUNDIR}/{part}/"))[0]
    return report(
        view_path(table),
        caption=caption,
        category=category,
        subcategory=subcategory,
        labels={"table": name},
    )
