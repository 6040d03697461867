"""The `ramona` config section of the workflow: defaults, checks and job lists.

Kept out of ``workflow/rules/ramona.smk`` so the rule file holds rules only (snakemake --lint).
"""

from __future__ import annotations

import re

from rlsbench.studies.ramona.experiments import method_applies

_NAME = re.compile(r"[A-Za-z0-9_\-]+")


def experiment(section: dict, name: str) -> dict:
    """Settings of one real-data experiment with the section's defaults filled in."""
    real = section.get("realdata", {})
    exp = dict(real.get("experiments", {})[name])
    exp.setdefault("methods", real.get("methods", []))
    exp.setdefault("n_repeats", real.get("n_repeats", 30))
    return exp


def n_selected(exp: dict, kernel: str) -> list[int]:
    """The S values of an experiment for one kernel (a list, or a kernel → list mapping)."""
    S = exp["n_selected"]
    return list(S[kernel]) if isinstance(S, dict) else list(S)


def experiment_job(section: dict, name: str, kernel: str) -> dict:
    """What one (experiment, kernel) job needs: the settings with S resolved for the kernel."""
    exp = experiment(section, name)
    return {**exp, "n_selected": n_selected(exp, kernel)}


def check(section: dict, known_datasets) -> None:
    """Errors the schema cannot express; the message names the config key."""
    known = set(known_datasets or ())
    for name, exp in section.get("realdata", {}).get("experiments", {}).items():
        key = f"config key ramona.realdata.experiments.{name}"
        if not _NAME.fullmatch(name):
            raise ValueError(f"{key}: use letters, digits, '_' and '-' only (it becomes a path)")
        if known and exp["dataset"] not in known:
            raise ValueError(
                f"{key}.dataset: unknown dataset {exp['dataset']!r}; see config/datasets.yaml"
            )
        S = exp["n_selected"]
        if isinstance(S, dict) and set(S) != set(exp["kernels"]):
            raise ValueError(
                f"{key}.n_selected: give S values for exactly the kernels "
                f"{exp['kernels']}, got {sorted(S)}"
            )


def toy_files(section: dict, rundir: str) -> list[str]:
    toy = section.get("toy")
    if not section.get("enabled") or not toy or not toy.get("enabled", True):
        return []
    return [
        f"{rundir}/toy/{p}/{m}.csv"
        for p in toy.get("problems", ["linear", "nonlinear"])
        for m in toy["methods"]
        if method_applies(m, "linear" if p == "linear" else "rbf")
    ]


def realdata_files(section: dict, rundir: str) -> list[str]:
    if not section.get("enabled"):
        return []
    files = []
    for name in section.get("realdata", {}).get("experiments", {}):
        exp = experiment(section, name)
        files += [
            f"{rundir}/realdata/{name}/{k}.csv"
            for k in exp["kernels"]
            if any(method_applies(m, k) for m in exp["methods"])
        ]
    return files


def cputime_axes(section: dict) -> list[str]:
    cpu = section.get("cputime")
    if not section.get("enabled") or not cpu or not cpu.get("enabled", True):
        return []
    return ["N", "D"]
