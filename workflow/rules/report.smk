# Tables and figures of the main part, regenerated from the merged step table, and the rule
# that refreshes the committed copy under results/paper/main/ (never run by `all`).


rule main_summary:
    input:
        f"{RUNDIR}/main/tables/steps.csv",
    output:
        csv=report(
            f"{RUNDIR}/main/tables/summary.csv",
            caption="../report/main_summary.rst",
            category="Main",
            subcategory="Tables",
        ),
        md=f"{RUNDIR}/main/tables/summary.md",
        tex=f"{RUNDIR}/main/tables/summary.tex",
    log:
        f"{RUNDIR}/main/logs/summary.log",
    conda:
        "../../environment.yml"
    params:
        report_k=MAIN.get("report_k", []),
    script:
        "../scripts/main_summary.py"


rule main_checks:
    input:
        f"{RUNDIR}/main/tables/steps.csv",
    output:
        csv=report(
            f"{RUNDIR}/main/tables/paper_checks.csv",
            caption="../report/main_checks.rst",
            category="Main",
            subcategory="Tables",
        ),
        md=f"{RUNDIR}/main/tables/paper_checks.md",
    log:
        f"{RUNDIR}/main/logs/checks.log",
    conda:
        "../../environment.yml"
    params:
        report_k=MAIN.get("report_k", []),
    script:
        "../scripts/main_checks.py"


rule main_figures:
    input:
        f"{RUNDIR}/main/tables/steps.csv",
    output:
        test=report(
            f"{RUNDIR}/main/figures/test_{{dataset}}.png",
            caption="../report/main_test.rst",
            category="Main",
            subcategory="Test accuracy vs k (Figs. 4-9)",
            labels={"dataset": "{dataset}", "figure": "test vs k"},
        ),
        loo=report(
            f"{RUNDIR}/main/figures/loo_vs_test_{{dataset}}.png",
            caption="../report/main_loo.rst",
            category="Main",
            subcategory="LOO vs test, greedy RLS (Figs. 10-15)",
            labels={"dataset": "{dataset}", "figure": "LOO vs test"},
        ),
    log:
        f"{RUNDIR}/main/logs/figures/{{dataset}}.log",
    conda:
        "../../environment.yml"
    script:
        "../scripts/main_figures.py"


MAIN_FILES = (
    [f"tables/summary.{ext}" for ext in ("csv", "md", "tex")]
    + ["tables/curves.csv", "tables/runtime.csv", "tables/paper_checks.csv"]
    + ["tables/paper_checks.md"]
    + [
        f"figures/{kind}_{d}.png"
        for d in MAIN.get("datasets", [])
        for kind in ("test", "loo_vs_test")
    ]
)
MAIN_TARGETS = [f"{RUNDIR}/main/{f}" for f in MAIN_FILES] if part_enabled("main") else []


rule main_all:
    input:
        MAIN_TARGETS,


rule main_publish:
    input:
        [f"{RUNDIR}/main/{f}" for f in MAIN_FILES],
    output:
        [f"results/paper/main/{f}" for f in MAIN_FILES],
    log:
        f"{RUNDIR}/main/logs/publish.log",
    conda:
        "../../environment.yml"
    script:
        "../scripts/publish.py"
