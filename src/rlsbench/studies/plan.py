"""What a run will do, said before it starts: the parts, their datasets and methods, and a
rough time from the library's operation counts.

The workflow prints :func:`describe` when Snakemake parses it in its main process (a run or a
dry run, ``snakemake -n``), so a user sees what a config asks for before any job starts.
Each installed part (:mod:`rlsbench.benchmark.parts`) writes its own line
(``Part.plan_line``). Times are estimates from the cost models the workflow already uses to size
and budget jobs (the methods' ``flops``, a study's own planned points) at the section's
``flops_per_second`` (:data:`DEFAULT_FLOPS_PER_SECOND` where it gives none); a part without a
cost model says so instead of guessing.
"""

from __future__ import annotations

from collections.abc import Mapping

#: Operations per second assumed where a part's section gives none (the shipped configs' value).
DEFAULT_FLOPS_PER_SECOND = 2.0e9


def minutes(seconds: float) -> str:
    """A CPU time as the plan says it: ``1 min``, ``~12 min``, ``~2.5 h``."""
    if seconds < 60:
        return "1 min"
    return f"~{seconds / 60:.0f} min" if seconds < 5400 else f"~{seconds / 3600:.1f} h"


def names(values) -> str:
    """``values`` once each, comma-separated (``–`` for none)."""
    values = list(dict.fromkeys(values))
    return ", ".join(map(str, values)) if values else "–"


def describe(config: Mapping, sections: Mapping[str, Mapping], datasets: Mapping) -> str:
    """The plan of a run, one line per enabled part (``Part.plan_line``), in listing order.

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
    from rlsbench.benchmark.parts import installed_parts

    lines = [f"rlsbench plan for run '{config.get('run_name', '?')}' (before any job starts):"]
    enabled = [part for part in installed_parts() if sections.get(part.name)]
    for part in enabled:
        try:
            text = part.plan_line(sections[part.name], datasets)
        except (KeyError, TypeError, ValueError) as exc:
            text = f"no estimate ({type(exc).__name__}: {exc})"
        lines.append(f"  {part.name:<10} {text}")
    if not enabled:
        lines.append("  no part is enabled")
    lines.append(
        "  (CPU time is divided among --cores; the measured times of the shipped configs: "
        "the documentation's Getting started page)"
    )
    return "\n".join(lines)
