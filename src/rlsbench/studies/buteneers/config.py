"""The ``buteneers`` config section: its checks and its jobs (one per task).

``workflow/rules.smk`` here reads the section with
:func:`rlsbench.benchmark.config.part_section` (schema
``workflow/schema.yaml`` here, then :func:`check`).
"""

from __future__ import annotations

from collections.abc import Mapping

from rlsbench.benchmark import config as checks
from rlsbench.benchmark.config import ConfigError

#: The files of a run that `buteneers_all` builds and `buteneers_publish` copies.
OUTPUTS = ("tables.md", "results.csv", "timing.csv")

#: Keys of the section every task job depends on.
COMMON_KEYS = ("seed", "methods", "covariance_steps", "method_options")


def check(section: dict, datasets: Mapping) -> None:
    """Task names are unique; a task's dataset is a registry dataset with binary or real
    targets (Tables 3-6 have no multiclass task). Raises ConfigError naming the key."""
    seen = set()
    for i, task in enumerate(section["tasks"]):
        key = f"config key buteneers.tasks[{i}]"
        if task["name"] in seen:
            raise ConfigError(f"{key}.name: task names must be unique, {task['name']!r} repeats")
        seen.add(task["name"])
        name = task.get("dataset")
        if name is None or not datasets:
            continue
        if name not in datasets:
            raise ConfigError(
                f"{key}.dataset: unknown dataset {name!r}"
                f" (`rlsbench datasets list` lists the registry)"
            )
        if (datasets[name] or {}).get("task") == "multiclass":
            raise ConfigError(
                f"{key}.dataset: {name!r} is multiclass; Tables 3-6 need binary or real targets"
            )
    check_sizes(section, datasets)


def check_sizes(section: dict, datasets: Mapping) -> None:
    """Each task's split fits its data (n_train < examples, n_train + n_test <= examples) and
    its folds fit the training split, the timing folds the smallest M (ConfigError naming the
    key)."""
    for i, task in enumerate(section["tasks"]):
        key = f"buteneers.tasks[{i}]"
        if "synthetic" in task:
            total, source = task["synthetic"]["n_samples"], f"{key}.synthetic.n_samples"
        else:
            total = checks.n_samples_of((datasets or {}).get(task["dataset"], {}))
            source = f"dataset {task['dataset']!r}"
        # the test rows are the rest of the data after the n_train training rows
        checks.check_at_most(
            task["n_train"],
            None if total is None else total - 1,
            f"{key}.n_train",
            f"{source} - 1 = {total and total - 1} (some examples must be left for testing)",
        )
        if task.get("n_test") and total is not None:
            checks.check_at_most(
                task["n_train"] + task["n_test"],
                total,
                f"{key}.n_test",
                f"the {total} examples of {source} (as n_train + n_test)",
            )
        checks.check_at_most(
            task["n_folds"],
            task["n_train"],
            f"{key}.n_folds",
            f"the {task['n_train']} training examples ({key}.n_train)",
        )
    timing = section.get("timing")
    if timing:
        smallest = min([*timing["M_values"], timing["M_fixed"]])
        checks.check_at_most(
            timing["n_folds"],
            smallest,
            "buteneers.timing.n_folds",
            f"the smallest M = {smallest} (M_values, M_fixed)",
        )
        checks.check_not_empty(timing["methods"], "buteneers.timing.methods", "method list")


def tasks(section: dict) -> dict[str, dict]:
    """Task settings by task name (without the name)."""
    return {
        t["name"]: {k: v for k, v in t.items() if k != "name"} for t in section.get("tasks", [])
    }


def common(section: dict) -> dict:
    """The section's settings shared by every task job."""
    return {k: section[k] for k in COMMON_KEYS if k in section}


def plan_line(section: Mapping, datasets: Mapping) -> str:
    """The part's line of the plan a run prints (rlsbench.studies.plan): tasks and methods."""
    from rlsbench.studies.plan import names

    tasks = section.get("tasks", [])
    return (
        f"tasks {names(t['name'] for t in tasks)}; methods "
        f"{names(section.get('methods', []))}; no cost model"
    )
