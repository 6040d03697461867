# Merge the per-job tables of the main part into one tidy table; derive the compact curves
# table and the jobs' run-time table.


rule main_aggregate:
    input:
        main_job_tables,
    output:
        f"{RUNDIR}/main/tables/steps.csv",
    log:
        f"{RUNDIR}/main/logs/aggregate.log",
    benchmark:
        f"{RUNDIR}/main/benchmarks/aggregate.tsv"
    conda:
        "../../environment.yml"
    script:
        "../scripts/main_aggregate.py"


rule main_curves:
    input:
        f"{RUNDIR}/main/tables/steps.csv",
    output:
        f"{RUNDIR}/main/tables/curves.csv",
    log:
        f"{RUNDIR}/main/logs/curves.log",
    conda:
        "../../environment.yml"
    script:
        "../scripts/main_curves.py"


rule main_runtime:
    input:
        main_benchmarks,
    output:
        f"{RUNDIR}/main/tables/runtime.csv",
    log:
        f"{RUNDIR}/main/logs/runtime.log",
    conda:
        "../../environment.yml"
    params:
        prefix=f"{RUNDIR}/main/benchmarks/",
    script:
        "../scripts/main_runtime.py"
