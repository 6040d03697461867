"""Write the slice of the reference benchmark that `make test-slurm` runs (issue 41).

The slice is config/benchmark.yaml as it is (protocol, λ grid, budgets, statistics), with only
the keys below replaced: two datasets the packages bundle (no download on a machine without
the internet: multiclass wine and regression diabetes), two of the benchmark's own methods (a
deterministic and a randomized selector), 2 folds and k <= 5 (the statistics' fixed k). Every
SLURM job pays a Snakemake start-up and a status-poll delay, and the whole test (apt install
included) must stay within ~8 minutes on 2 cores.

    python tests/slurm/benchmark_slice.py config/benchmark.yaml OUT.yaml
"""

from __future__ import annotations

import sys

import yaml

RUN_NAME = "benchmark_slice"
SLICE = {
    "datasets": ["wine", "diabetes"],
    "methods": ["greedy_rls", "random"],
    "n_folds": 2,
    "k_max": 5,
    "k_max_per_dataset": {},
    "report_k": [1, 5],
}


def main(argv=None) -> int:
    source, out = sys.argv[1:] if argv is None else argv
    with open(source, encoding="utf-8") as fh:
        config = yaml.safe_load(fh)
    missing = [m for m in SLICE["methods"] if m not in config["main"]["methods"]]
    if missing:
        raise SystemExit(f"{source}: the slice's methods {missing} are not in main.methods")
    config["run_name"] = RUN_NAME
    config["main"].update(SLICE)
    budgets = config["main"].get("time_budget_s")
    if isinstance(budgets, dict):  # per-method budgets name only the slice's methods
        keep = {"default", *SLICE["methods"]}
        config["main"]["time_budget_s"] = {m: s for m, s in budgets.items() if m in keep}
    config["main"].pop("publish_to", None)  # a slice is never published
    with open(out, "w", encoding="utf-8") as fh:
        yaml.safe_dump(config, fh, sort_keys=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
