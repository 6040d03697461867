"""What a run will do, said before it starts: the parts, their datasets and methods, and a
rough time from the library's operation counts.

The workflow prints :func:`describe` when Snakemake parses it in its main process (a run or a
dry run, ``snakemake -n``), so a user sees what a config asks for before any job starts.
Times are estimates from the cost models the workflow already uses to size and budget jobs
(:func:`rlsbench.benchmark.protocol.estimate_flops` for the main part, the scaling study's
``estimated_flops`` of each planned point) at the config's ``flops_per_second``; a part
without a cost model says so instead of guessing.
"""

from __future__ import annotations

from collections.abc import Mapping

PARTS = ("main", "scaling", "buteneers", "ramona", "sunyao")
#: Operations per second assumed where a part's section gives none (the shipped configs' value).
DEFAULT_FLOPS_PER_SECOND = 2.0e9


def _minutes(seconds: float) -> str:
    if seconds < 60:
        return "1 min"
    return f"~{seconds / 60:.0f} min" if seconds < 5400 else f"~{seconds / 3600:.1f} h"


def _names(values) -> str:
    values = list(dict.fromkeys(values))
    return ", ".join(map(str, values)) if values else "–"


def main_seconds(main: Mapping, datasets: Mapping) -> float:
    """Estimated single-core seconds of the main part: every λ search and every selection
    task the protocol will run (a task over the memory or time budget is skipped, as the
    protocol skips it) with its LOO path."""
    from rlsbench.benchmark.methods import get_method
    from rlsbench.benchmark.protocol import feasibility
    from rlsbench.studies.main.config import _n_tasks, n_outputs, train_shape

    rate = main.get("flops_per_second", DEFAULT_FLOPS_PER_SECOND)
    total = 0.0
    for dataset in main.get("datasets", []):
        m, n, k = train_shape(main, datasets, dataset)
        total += (2.0 * m * n * min(m, n) + 124.0 * m * n) * main.get("n_folds", 10) / rate
        for method in main.get("methods", []):
            feas = feasibility(
                get_method(method),
                m,
                n,
                k,
                n_outputs(datasets, dataset),
                memory_budget_mb=main["memory_budget_mb"],
                time_budget_s=main["time_budget_s"],
                flops_per_second=rate,
            )
            if feas.feasible:
                total += (feas.seconds + 8.0 * m * k * k / rate) * _n_tasks(main, method)
    return total


def scaling_seconds(section: Mapping) -> float:
    """Estimated single-core seconds of the scaling study's planned points (repeats counted)."""
    from rlsbench.studies.scaling.experiment import plan_points, plan_rows

    rows = plan_rows(plan_points(section), section)
    rate = section.get("flops_per_second", DEFAULT_FLOPS_PER_SECOND)
    repeats = section.get("repeats", 1)
    return sum(r["estimated_flops"] for r in rows if r.get("status") != "skipped") * repeats / rate


def _part_line(part: str, section: Mapping, datasets: Mapping) -> str:
    if part == "main":
        what = f"datasets {_names(section['datasets'])}; methods {_names(section['methods'])}"
        cpu = _minutes(main_seconds(section, datasets))
        return f"{what}; up to {cpu} of CPU (the budgets' cost model)"
    if part == "scaling":
        methods = section.get("methods", {})
        return (
            f"methods {_names(methods)}; "
            f"up to {_minutes(scaling_seconds(section))} of CPU (the budgets' cost model)"
        )
    if part == "buteneers":
        tasks = section.get("tasks", [])
        return (
            f"tasks {_names(t['name'] for t in tasks)}; methods "
            f"{_names(section.get('methods', []))}; no cost model"
        )
    if part == "ramona":
        experiments = section.get("experiments", {})
        names = (
            experiments if isinstance(experiments, Mapping) else [e["name"] for e in experiments]
        )
        return f"experiments {_names(names) if names else 'toy and CPU-time'}; no cost model"
    if part == "sunyao":
        data = [e["name"] for e in section.get("table1", {}).get("datasets", [])]
        return f"Table 1 datasets {_names(data)}; no cost model"
    return ""


def describe(config: Mapping, sections: Mapping[str, Mapping], datasets: Mapping) -> str:
    """The plan of a run, one line per enabled part.

    Parameters
    ----------
    config : dict
        The run's config (its ``run_name``).
    sections : dict
        Each part's validated section (``{}`` for an absent or disabled part).
    datasets : dict
        The dataset registry (shapes for the cost model).

    Returns
    -------
    str
        Lines ``rlsbench plan (<run>): ...``; a part whose estimate fails says so on its line
        (the plan never stops a run).
    """
    lines = [f"rlsbench plan for run '{config.get('run_name', '?')}' (before any job starts):"]
    enabled = [p for p in PARTS if sections.get(p)]
    for part in enabled:
        try:
            text = _part_line(part, sections[part], datasets)
        except (KeyError, TypeError, ValueError) as exc:
            text = f"no estimate ({type(exc).__name__}: {exc})"
        lines.append(f"  {part:<10} {text}")
    if not enabled:
        lines.append("  no part is enabled")
    lines.append(
        "  (CPU time is divided among --cores; the measured times of the shipped configs: "
        "the documentation's Getting started page)"
    )
    return "\n".join(lines)
