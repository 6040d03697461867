# Sun & Yao (2006), issue 8: forward regression by marginal likelihood against the original RVM
# (Tipping 2001) and the fast RVM (Tipping & Faul 2003).
#
#   sunyao_hyper       5-fold CV on a ≤1000-example subset: (r, λ, k_max) of Forward, r of each RVM
#   sunyao_table1_runs one dataset × method over the random train/test splits (Table 1)
#   sunyao_table1      MSE ± std (basis vectors) beside the paper's values, paired t-tests
#   sunyao_fig1_runs   one method over growing training sets, stopped at the time/memory budget
#   sunyao_fig1        training time and test NMSE against the training size (Fig. 1)
#   sunyao_publish     copy of a run (normally config/paper.yaml) into results/paper/sunyao/
# Datasets: `source: prepared` reads results/datasets/prepared/{name}.npz (rule `prepare`);
# `source: sinc` generates Tipping's sinc data in the job (no download).

SUNYAO_DIR = f"{RUNDIR}/sunyao"
SUNYAO_PUBLISH_DIR = "results/paper/sunyao"
SUNYAO_METHODS = ["forward", "rvm_old", "rvm_new"]

if part_enabled("sunyao"):
    validate(config["sunyao"], "../schemas/sunyao.schema.yaml")
    SUNYAO = config["sunyao"]
else:
    SUNYAO = {"table1": {"datasets": []}}

SUNYAO_T1 = dict(SUNYAO.get("table1") or {"datasets": []})
SUNYAO_T1["datasets"] = {entry["name"]: entry for entry in SUNYAO_T1["datasets"]}
SUNYAO_F1 = SUNYAO.get("fig1") if (SUNYAO.get("fig1") or {}).get("enabled", True) else None

SUNYAO_T1_OUT = [
    f"{SUNYAO_DIR}/table1/{name}" for name in ("table1.md", "table1.csv", "splits.csv")
]
SUNYAO_F1_OUT = (
    [f"{SUNYAO_DIR}/fig1/{name}" for name in ("fig1.png", "fig1.md", "fig1.csv")]
    if SUNYAO_F1
    else []
)
SUNYAO_TARGETS = (
    [*(SUNYAO_T1_OUT if SUNYAO_T1["datasets"] else []), *SUNYAO_F1_OUT]
    if part_enabled("sunyao")
    else []
)


wildcard_constraints:
    sy_study="table1|fig1",
    sy_method="|".join(SUNYAO_METHODS),


rule sunyao_hyper:
    input:
        unpack(sunyao_hyper_data),
    output:
        f"{SUNYAO_DIR}/hyper/{{sy_study}}/{{sy_dataset}}.json",
    log:
        f"{SUNYAO_DIR}/logs/hyper/{{sy_study}}/{{sy_dataset}}.log",
    benchmark:
        f"{SUNYAO_DIR}/benchmarks/hyper/{{sy_study}}/{{sy_dataset}}.tsv"
    conda:
        "../../environment.yml"
    threads: SUNYAO.get("threads", 1)
    params:
        entry=lambda wc: sunyao_entry(wc.sy_study, wc.sy_dataset),
        cv=lambda wc: sunyao_cv(wc.sy_study),
        rvm=SUNYAO.get("rvm"),
        sigma2=SUNYAO.get("sigma2"),
        seed=SUNYAO.get("seed"),
    script:
        "../scripts/sunyao_hyper.py"


rule sunyao_table1_runs:
    input:
        unpack(sunyao_table1_data),
        hyper=f"{SUNYAO_DIR}/hyper/table1/{{sy_dataset}}.json",
    output:
        f"{SUNYAO_DIR}/table1/runs/{{sy_dataset}}/{{sy_method}}.csv",
    log:
        f"{SUNYAO_DIR}/logs/table1/{{sy_dataset}}/{{sy_method}}.log",
    benchmark:
        f"{SUNYAO_DIR}/benchmarks/table1/{{sy_dataset}}/{{sy_method}}.tsv"
    conda:
        "../../environment.yml"
    threads: SUNYAO.get("threads", 1)
    params:
        study="table1",
        entry=lambda wc: sunyao_entry("table1", wc.sy_dataset),
        n_splits=SUNYAO_T1.get("n_splits"),
        rvm=SUNYAO.get("rvm"),
        sigma2=SUNYAO.get("sigma2"),
        seed=SUNYAO.get("seed"),
    script:
        "../scripts/sunyao_table1_runs.py"


rule sunyao_table1:
    input:
        runs=[
            f"{SUNYAO_DIR}/table1/runs/{d}/{m}.csv"
            for d in SUNYAO_T1["datasets"]
            for m in SUNYAO_METHODS
        ],
        hyper=[f"{SUNYAO_DIR}/hyper/table1/{d}.json" for d in SUNYAO_T1["datasets"]],
    output:
        md=report(
            f"{SUNYAO_DIR}/table1/table1.md",
            caption="../report/sunyao_table1.rst",
            category="Sun & Yao",
            subcategory="Table 1",
        ),
        csv=f"{SUNYAO_DIR}/table1/table1.csv",
        splits=f"{SUNYAO_DIR}/table1/splits.csv",
    log:
        f"{SUNYAO_DIR}/logs/table1.log",
    benchmark:
        f"{SUNYAO_DIR}/benchmarks/table1.tsv"
    conda:
        "../../environment.yml"
    params:
        shapes={d: [None, e["n_train"], e["n_test"]] for d, e in SUNYAO_T1["datasets"].items()},
    script:
        "../scripts/sunyao_table1.py"


rule sunyao_fig1_runs:
    input:
        unpack(sunyao_fig1_data),
        hyper=lambda wc: f"{SUNYAO_DIR}/hyper/fig1/{SUNYAO_F1['dataset']}.json",
    output:
        f"{SUNYAO_DIR}/fig1/runs/{{sy_method}}.csv",
    log:
        f"{SUNYAO_DIR}/logs/fig1/{{sy_method}}.log",
    benchmark:
        f"{SUNYAO_DIR}/benchmarks/fig1/{{sy_method}}.tsv"
    conda:
        "../../environment.yml"
    threads: SUNYAO.get("threads", 1)
    resources:
        mem_mb=lambda wc: 500 + (SUNYAO_F1 or {}).get("memory_budget_mb", 0),
    params:
        study="fig1",
        entry=SUNYAO_F1,
        rvm=SUNYAO.get("rvm"),
        sigma2=SUNYAO.get("sigma2"),
        seed=SUNYAO.get("seed"),
    script:
        "../scripts/sunyao_fig1_runs.py"


rule sunyao_fig1:
    input:
        runs=[f"{SUNYAO_DIR}/fig1/runs/{m}.csv" for m in SUNYAO_METHODS],
    output:
        png=report(
            f"{SUNYAO_DIR}/fig1/fig1.png",
            caption="../report/sunyao_fig1.rst",
            category="Sun & Yao",
            subcategory="Fig. 1",
        ),
        md=report(
            f"{SUNYAO_DIR}/fig1/fig1.md",
            caption="../report/sunyao_fig1.rst",
            category="Sun & Yao",
            subcategory="Fig. 1",
        ),
        csv=f"{SUNYAO_DIR}/fig1/fig1.csv",
    log:
        f"{SUNYAO_DIR}/logs/fig1.log",
    benchmark:
        f"{SUNYAO_DIR}/benchmarks/fig1.tsv"
    conda:
        "../../environment.yml"
    params:
        entry=SUNYAO_F1,
    script:
        "../scripts/sunyao_fig1.py"


rule sunyao_all:
    input:
        SUNYAO_TARGETS,


# The committed copy of a run, never refreshed by the run itself:
#   snakemake sunyao_publish --configfile config/paper.yaml --cores 2
SUNYAO_PUBLISHED = [
    *(SUNYAO_T1_OUT if SUNYAO_T1["datasets"] else []),
    *SUNYAO_F1_OUT,
    *[f"{SUNYAO_DIR}/hyper/table1/{d}.json" for d in SUNYAO_T1["datasets"]],
    *([f"{SUNYAO_DIR}/hyper/fig1/{SUNYAO_F1['dataset']}.json"] if SUNYAO_F1 else []),
]


rule sunyao_publish:
    input:
        SUNYAO_PUBLISHED,
    output:
        [path.replace(SUNYAO_DIR, SUNYAO_PUBLISH_DIR, 1) for path in SUNYAO_PUBLISHED],
    log:
        f"{SUNYAO_DIR}/logs/publish.log",
    conda:
        "../../environment.yml"
    script:
        "../scripts/publish.py"
