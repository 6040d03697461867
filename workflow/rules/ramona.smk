# Ramona et al. (2012), kernel Gram-matrix feature selection (issue 7): the toy problems of
# Fig. 1, the real-data protocol of Section V-B/C (Tables II, IV, VI) and the CPU-time
# Tables VIII-IX. Library: rlsbench.numerics.kernel; one job per (problem | experiment, kernel, method).
#   snakemake ramona_all --cores 2                           (embedded default, < 1 min)
#   snakemake ramona_all --cores 2 --configfile config/paper.yaml
#   snakemake ramona_publish --cores 1 --configfile config/paper.yaml   (-> results/paper/ramona)
import rlsbench.studies.ramona.config as ramona_cfg

RAMONA_DIR = f"{RUNDIR}/ramona"
RAMONA_PUBLISH_DIR = "results/paper/ramona"

if part_enabled("ramona"):
    validate(config["ramona"], "../schemas/ramona.schema.yaml")
    RAMONA = config["ramona"]
    # the dataset registry as read by common.smk (config/datasets.yaml)
    ramona_cfg.check(RAMONA, globals().get("DATASET_REGISTRY"))
else:
    RAMONA = {"enabled": False}

# One job per (toy problem, method) and per (experiment, kernel) running all its methods.
RAMONA_TOY_FILES = ramona_cfg.toy_files(RAMONA, RAMONA_DIR)
RAMONA_REAL_FILES = ramona_cfg.realdata_files(RAMONA, RAMONA_DIR)
RAMONA_CPU_AXES = ramona_cfg.cputime_axes(RAMONA)

RAMONA_OUTPUTS = {
    "toy_rows": f"{RAMONA_DIR}/toy/rows.csv",
    "toy_summary": f"{RAMONA_DIR}/toy/summary.csv",
    "toy_figure": f"{RAMONA_DIR}/figures/fig1_toy.png",
    "real_rows": f"{RAMONA_DIR}/realdata/rows.csv",
    "real_summary": f"{RAMONA_DIR}/realdata/summary.csv",
    "real_tests": f"{RAMONA_DIR}/realdata/paired_tests.csv",
    "real_tests_sas": f"{RAMONA_DIR}/realdata/paired_tests_sas.md",
    "real_figure": f"{RAMONA_DIR}/figures/realdata_curves.png",
    "table2": f"{RAMONA_DIR}/tables/table2_usps.md",
    "table4": f"{RAMONA_DIR}/tables/table4_neumann.md",
    "table6": f"{RAMONA_DIR}/tables/table6_gmkl.md",
    "cpu_rows": f"{RAMONA_DIR}/cputime/rows.csv",
    "table8": f"{RAMONA_DIR}/tables/table8_cputime_N.md",
    "table9": f"{RAMONA_DIR}/tables/table9_cputime_D.md",
}
RAMONA_TARGETS = (
    (
        [RAMONA_OUTPUTS[k] for k in ("toy_rows", "toy_summary", "toy_figure")]
        if RAMONA_TOY_FILES
        else []
    )
    + (
        [
            RAMONA_OUTPUTS[k]
            for k in (
                "real_rows",
                "real_summary",
                "real_tests",
                "real_tests_sas",
                "real_figure",
                "table2",
                "table4",
                "table6",
            )
        ]
        if RAMONA_REAL_FILES
        else []
    )
    + ([RAMONA_OUTPUTS[k] for k in ("cpu_rows", "table8", "table9")] if RAMONA_CPU_AXES else [])
)


rule ramona_toy:
    output:
        f"{RAMONA_DIR}/toy/{{problem}}/{{method}}.csv",
    log:
        f"{RAMONA_DIR}/logs/toy/{{problem}}/{{method}}.log",
    benchmark:
        f"{RAMONA_DIR}/benchmarks/toy/{{problem}}/{{method}}.tsv"
    wildcard_constraints:
        problem="linear|nonlinear",
        method="[a-z0-9]+",
    conda:
        "../../environment.yml"
    threads: RAMONA.get("threads", 1)
    params:
        # the settings of this job only: adding a method must not re-run the others
        toy={k: v for k, v in RAMONA.get("toy", {}).items() if k != "methods"},
        seed=RAMONA.get("seed", 0),
    script:
        "../scripts/ramona_toy.py"


rule ramona_realdata:
    input:
        data=lambda wc: "results/datasets/prepared/{}.npz".format(
            ramona_cfg.experiment(RAMONA, wc.experiment)["dataset"]
        ),
    output:
        f"{RAMONA_DIR}/realdata/{{experiment}}/{{kernel}}.csv",
    log:
        f"{RAMONA_DIR}/logs/realdata/{{experiment}}/{{kernel}}.log",
    benchmark:
        f"{RAMONA_DIR}/benchmarks/realdata/{{experiment}}/{{kernel}}.tsv"
    wildcard_constraints:
        experiment="[A-Za-z0-9_\-]+",
        kernel="linear|rbf|poly",
    conda:
        "../../environment.yml"
    threads: RAMONA.get("threads", 1)
    params:
        experiment=lambda wc: ramona_cfg.experiment_job(RAMONA, wc.experiment, wc.kernel),
        seed=RAMONA.get("seed", 0),
    script:
        "../scripts/ramona_realdata.py"


rule ramona_cputime:
    output:
        f"{RAMONA_DIR}/cputime/{{axis}}.csv",
    log:
        f"{RAMONA_DIR}/logs/cputime/{{axis}}.log",
    benchmark:
        f"{RAMONA_DIR}/benchmarks/cputime/{{axis}}.tsv"
    wildcard_constraints:
        axis="N|D",
    conda:
        "../../environment.yml"
    threads: 1
    params:
        cputime=RAMONA.get("cputime"),
        seed=RAMONA.get("seed", 0),
    script:
        "../scripts/ramona_cputime.py"


rule ramona_toy_report:
    input:
        RAMONA_TOY_FILES,
    output:
        rows=RAMONA_OUTPUTS["toy_rows"],
        summary=RAMONA_OUTPUTS["toy_summary"],
        figure=report(
            RAMONA_OUTPUTS["toy_figure"],
            caption="../report/ramona_toy.rst",
            category="Ramona et al.",
            subcategory="Toy problems",
        ),
    log:
        f"{RAMONA_DIR}/logs/toy_report.log",
    benchmark:
        f"{RAMONA_DIR}/benchmarks/toy_report.tsv"
    conda:
        "../../environment.yml"
    script:
        "../scripts/ramona_toy_report.py"


rule ramona_realdata_report:
    input:
        RAMONA_REAL_FILES,
    output:
        rows=RAMONA_OUTPUTS["real_rows"],
        summary=RAMONA_OUTPUTS["real_summary"],
        tests=RAMONA_OUTPUTS["real_tests"],
        tests_sas=report(
            RAMONA_OUTPUTS["real_tests_sas"],
            caption="../report/ramona_paired_tests.rst",
            category="Ramona et al.",
            subcategory="Tables",
        ),
        figure=report(
            RAMONA_OUTPUTS["real_figure"],
            caption="../report/ramona_realdata.rst",
            category="Ramona et al.",
            subcategory="Real data",
        ),
        table2=report(
            RAMONA_OUTPUTS["table2"],
            caption="../report/ramona_tables.rst",
            category="Ramona et al.",
            subcategory="Tables",
        ),
        table4=report(
            RAMONA_OUTPUTS["table4"],
            caption="../report/ramona_tables.rst",
            category="Ramona et al.",
            subcategory="Tables",
        ),
        table6=report(
            RAMONA_OUTPUTS["table6"],
            caption="../report/ramona_tables.rst",
            category="Ramona et al.",
            subcategory="Tables",
        ),
    log:
        f"{RAMONA_DIR}/logs/realdata_report.log",
    benchmark:
        f"{RAMONA_DIR}/benchmarks/realdata_report.tsv"
    conda:
        "../../environment.yml"
    params:
        experiments={
            name: ramona_cfg.experiment(RAMONA, name)
            for name in RAMONA.get("realdata", {}).get("experiments", {})
        },
    script:
        "../scripts/ramona_realdata_report.py"


rule ramona_cputime_report:
    input:
        [f"{RAMONA_DIR}/cputime/{a}.csv" for a in RAMONA_CPU_AXES],
    output:
        rows=RAMONA_OUTPUTS["cpu_rows"],
        table8=report(
            RAMONA_OUTPUTS["table8"],
            caption="../report/ramona_cputime.rst",
            category="Ramona et al.",
            subcategory="CPU time",
        ),
        table9=report(
            RAMONA_OUTPUTS["table9"],
            caption="../report/ramona_cputime.rst",
            category="Ramona et al.",
            subcategory="CPU time",
        ),
    log:
        f"{RAMONA_DIR}/logs/cputime_report.log",
    benchmark:
        f"{RAMONA_DIR}/benchmarks/cputime_report.tsv"
    conda:
        "../../environment.yml"
    script:
        "../scripts/ramona_cputime_report.py"


rule ramona_all:
    input:
        RAMONA_TARGETS,


# The committed copy of a run (normally the paper run), never refreshed by the run itself:
#   snakemake ramona_publish --cores 1 --configfile config/paper.yaml
rule ramona_publish:
    input:
        RAMONA_TARGETS,
    output:
        [p.replace(RAMONA_DIR, RAMONA_PUBLISH_DIR, 1) for p in RAMONA_TARGETS],
    log:
        f"{RAMONA_DIR}/logs/publish.log",
    conda:
        "../../environment.yml"
    script:
        "../scripts/publish.py"
