"""The ``scaling`` config section: its checks and the files its rules write.

``workflow/rules.smk`` here reads the section with
:func:`rlsbench.benchmark.config.part_section` (schema ``workflow/schema.yaml`` here,
then :func:`check`); its jobs are the timing points of
:func:`rlsbench.studies.scaling.experiment.plan_points` within the budget
(:func:`rlsbench.studies.scaling.experiment.run_points`).
"""

from __future__ import annotations

from collections.abc import Mapping

from rlsbench.benchmark.config import check_lambda
from rlsbench.studies.scaling.experiment import get_scaling_method, plan_points

#: Output name -> file name under ``<run>/scaling/tables/``.
TABLES = {
    "exponents_csv": "exponents.csv",
    "exponents_md": "exponents.md",
    "speedups_csv": "speedups.csv",
    "speedups_md": "speedups.md",
    "timings_csv": "timings.csv",
    "timings_md": "timings.md",
    "paper_csv": "paper.csv",
    "paper_md": "paper.md",
}


def check(section: dict, datasets: Mapping) -> None:
    """The sweeps must make a plan (varied and fixed sizes, known methods with exponents,
    k < n) and its λ must be usable; raises ConfigError naming the key. The study generates its
    data: no dataset."""
    check_lambda(section["alpha"], "scaling.alpha")
    plan_points(section)


def point_settings(section: dict, method: str) -> dict:
    """What a timing job of ``method`` needs besides its point: not the budget, which the plan
    applies, so changing it never re-times a point that runs either way."""
    spec = section["methods"][method]
    if "timeout_s" in spec:
        key, timeout = f"scaling.methods.{method}.timeout_s", spec["timeout_s"]
    else:
        key, timeout = "scaling.budget.timeout_s", section["budget"]["timeout_s"]
    return {
        "alpha": section["alpha"],
        "seed": section["seed"],
        "timeout_s": timeout,
        "timeout_key": key,
    }


def agreement_excluded(section: dict) -> list[str]:
    """The section's methods the agreement check leaves out: those that do not optimise greedy
    RLS's criterion (``ScalingMethod.comparable`` false). Only the configured methods are
    looked up, so an installed plugin the config does not name is never loaded."""
    return [m for m in section.get("methods", {}) if not get_scaling_method(m).comparable]


def legend_labels(section: dict) -> dict[str, str]:
    """Legend label of each of the section's methods (``ScalingMethod.label``)."""
    return {m: get_scaling_method(m).label for m in section.get("methods", {})}


def tables(directory: str) -> dict[str, str]:
    """The tables of rule ``scaling_tables``, by output name."""
    return {name: f"{directory}/tables/{file}" for name, file in TABLES.items()}


def figures(section: dict, directory: str) -> list[str]:
    """One figure per sweep and axis scale (``figures`` of the sweep, default log-log)."""
    return [
        f"{directory}/figures/{sweep}_{scale}.png"
        for sweep, spec in section.get("sweeps", {}).items()
        for scale in spec.get("figures", ["log"])
    ]


def outputs(section: dict, directory: str) -> list[str]:
    """What `scaling_all` builds."""
    return [*figures(section, directory), *tables(directory).values()] + [
        f"{directory}/tables/agreement.md"
    ]


def published(section: dict, directory: str) -> list[str]:
    """What `scaling_publish` copies: the outputs and the data behind them (none when the
    part is disabled)."""
    if not section:
        return []
    return [
        *figures(section, directory),
        *tables(directory).values(),
        *[f"{directory}/tables/{name}" for name in ("agreement.csv", "agreement.md")],
        *[f"{directory}/tables/{name}" for name in ("points.csv", "provenance.json")],
    ]


# ---------------------------------------------------------------------------------------------
# The plan a run prints before any job starts (rlsbench.studies.plan, Part.plan)
# ---------------------------------------------------------------------------------------------
def scaling_seconds(section: Mapping) -> float:
    """Estimated single-core seconds of the scaling study's planned points (repeats counted)."""
    from rlsbench.studies.plan import DEFAULT_FLOPS_PER_SECOND
    from rlsbench.studies.scaling.experiment import plan_points, plan_rows

    rows = plan_rows(plan_points(section), section)
    rate = section.get("flops_per_second", DEFAULT_FLOPS_PER_SECOND)
    repeats = section.get("repeats", 1)
    return sum(r["estimated_flops"] for r in rows if r.get("status") != "skipped") * repeats / rate


def plan_line(section: Mapping, datasets: Mapping) -> str:
    """The scaling study's line of the plan: its methods and the cost model's CPU time."""
    from rlsbench.studies.plan import minutes, names

    methods = section.get("methods", {})
    return (
        f"methods {names(methods)}; "
        f"up to {minutes(scaling_seconds(section))} of CPU (the budgets' cost model)"
    )
