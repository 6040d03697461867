# Fidelity ledger (issue 17): the papers' transcribed tables, figures and claims (package data
# of each paper's ledger module, found by rlsbench.studies.fidelity.papers) joined with this
# run's part outputs, every row judged by the rules of rlsbench.studies.fidelity.verdicts.
#
#   fidelity          {RUNDIR}/fidelity/fidelity.csv + fidelity_summary.{csv,md}
#   fidelity_publish  copy of a run (normally config/paper.yaml) into results/paper/
# The committed results/paper/ tree has its own ledger too:
#   python -m rlsbench.studies.fidelity results/paper
from rlsbench.studies.fidelity import OUTPUTS as FIDELITY_OUTPUTS
from rlsbench.studies.fidelity import part_files as fidelity_part_files

FIDELITY_DIR = f"{RUNDIR}/fidelity"
FIDELITY_PUBLISH_DIR = PUBLISH_DIR

# What the enabled parts of this config build (targets and published files; nothing for a
# disabled part): the ledger reads the tables among them that the papers' ledgers read
# (part_files()); the rows needing the others are `not run`. Every installed part's rule file
# fills PART_TARGETS (and PART_BUILT_EXTRA) in workflow/rules/common.smk.
FIDELITY_BUILT = {
    part: {*targets, *PART_BUILT_EXTRA.get(part, [])} for part, targets in PART_TARGETS.items()
}
FIDELITY_INPUTS = sorted(
    path
    for part, rels in fidelity_part_files().items()
    for path in (f"{RUNDIR}/{part}/{rel}" for rel in rels)
    if path in FIDELITY_BUILT.get(part, ())
)
FIDELITY_TARGETS = (
    [f"{FIDELITY_DIR}/{name}" for name in FIDELITY_OUTPUTS] if FIDELITY_INPUTS else []
)


rule fidelity:
    input:
        tables=FIDELITY_INPUTS,
    output:
        ledger=f"{FIDELITY_DIR}/fidelity.csv",
        summary_csv=f"{FIDELITY_DIR}/fidelity_summary.csv",
        summary_md=f"{FIDELITY_DIR}/fidelity_summary.md",
    log:
        f"{FIDELITY_DIR}/logs/fidelity.log",
    conda:
        "../../environment.yml"
    params:
        function="rlsbench.studies.fidelity.jobs.ledger_job",
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)


rule fidelity_all:
    input:
        FIDELITY_TARGETS,


# The committed copy of a run's ledger, never refreshed by the run itself:
#   snakemake fidelity_publish --configfile config/paper.yaml --cores 2
rule fidelity_publish:
    input:
        sources=derived([f"{FIDELITY_DIR}/{name}" for name in FIDELITY_OUTPUTS]),
    output:
        targets=derived([f"{FIDELITY_PUBLISH_DIR}/{name}" for name in FIDELITY_OUTPUTS]),
        provenance_json=f"{FIDELITY_PUBLISH_DIR}/fidelity_provenance.json",
    log:
        f"{FIDELITY_DIR}/logs/publish.log",
    conda:
        "../../environment.yml"
    params:
        function="rlsbench.benchmark.tables.publish",
        config=config,
    run:
        JOB(input, output, params, wildcards, threads, resources, log, rule, bench_iteration)
