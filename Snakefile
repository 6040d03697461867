# rlsbench: the whole workflow. This file only sets up and includes one rule file per stage.
# Run:  snakemake --cores N [--configfile config/paper.yaml]
from snakemake.utils import min_version

min_version("8.20")


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/datasets.smk"
include: "workflow/rules/main.smk"
include: "workflow/rules/scaling.smk"
include: "workflow/rules/buteneers.smk"
include: "workflow/rules/ramona.smk"
include: "workflow/rules/sunyao.smk"
include: "workflow/rules/fidelity.smk"


# Each part's rule file (one shape for all: its config section, job rules, report rules,
# <part>_all, <part>_publish) defines <PART>_TARGETS, empty when its config section is absent
# or disabled, so `snakemake` with no target builds every enabled part.
rule all:
    default_target: True
    input:
        MAIN_TARGETS,
        SCALING_TARGETS,
        BUTENEERS_TARGETS,
        RAMONA_TARGETS,
        SUNYAO_TARGETS,
        FIDELITY_TARGETS,
