"""Every k a table reports at is one the run's selections reach (issue 45, item 12).

``statistics.operating_points.fixed_k: 50`` with ``main.k_max: 3`` passed the dry run; after
the whole run the statistics said "got 2 dataset(s) and 0 method(s)" and never named
``fixed_k``. ``latex.k`` and ``report_k`` above ``k_max`` were accepted too. Each is refused
when the config is read, in one line naming the key and the ``k_max`` that caps it.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
import yaml

from rlsbench.benchmark.config import ConfigError

from .test_config_faults import REPO, edited, read_config


def _main(**values):
    def edit(config):
        config["main"].update(values)

    return edit


STATS = {"reference": "greedy_rls"}

CASES = [
    ("fixed-k", _main(k_max=3, report_k=[1, 2],
                      statistics={**STATS, "operating_points": {"fixed_k": 50}}),
     "main.statistics.operating_points.fixed_k", "k = 50 exceeds main.k_max = 3"),
    ("stability-k", _main(k_max=3, report_k=[1], statistics={**STATS, "stability_k": 4}),
     "main.statistics.stability_k", "k = 4 exceeds main.k_max = 3"),
    ("latex-k", _main(k_max=3, report_k=[1], latex={"k": 50}),
     "main.latex.k", "k = 50 exceeds main.k_max = 3"),
    ("report-k", _main(k_max=3, report_k=[1, 2, 5]),
     "main.report_k[2]", "k = 5 exceeds main.k_max = 3"),
    # k_max: null selects every feature: wine's 13 (digits5 has 64; the run's largest is 64)
    ("all-features", _main(datasets=["wine"], k_max=None, report_k=[1, 14]),
     "main.report_k[1]", "k = 14 exceeds the 13 features of dataset 'wine'"),
    ("per-dataset-cap", _main(datasets=["wine", "breast_cancer"], k_max=2,
                              k_max_per_dataset={"wine": 4}, report_k=[1, 5]),
     "main.report_k[1]", r"k = 5 exceeds main.k_max_per_dataset.wine = 4"),
]  # fmt: skip


@pytest.mark.parametrize("edit, key, message", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_k_beyond_the_runs_k_max_is_refused_naming_key_and_k_max(edit, key, message):
    with pytest.raises(ConfigError) as info:
        read_config(edited(edit))
    text = str(info.value)
    assert "\n" not in text and text.startswith(f"config key {key}: "), text
    assert re.search(message, text), text


@pytest.mark.parametrize(
    "edit",
    [
        _main(k_max=3, report_k=[1, 3], statistics={**STATS, "operating_points": {"fixed_k": 3}}),
        _main(k_max=3, report_k=[1], latex={"k": "loo"}),
        # one dataset's own cap reaches it: its rows exist
        _main(k_max=2, k_max_per_dataset={"wine": 5}, datasets=["wine", "digits5"], report_k=[5]),
    ],  # fmt: skip
    ids=["at-k-max", "latex-loo", "one-dataset-reaches"],
)
def test_a_k_the_run_reaches_passes(edit):
    read_config(edited(edit))


def test_the_issues_dry_run_stops_naming_fixed_k_before_any_job(tmp_path):
    config = edited(CASES[0][1])
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.yaml").write_text(yaml.safe_dump(config))
    proc = subprocess.run(
        [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "-n"]
        + ["--cores", "1", "--directory", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out[-3000:]
    (line,) = [line for line in out.splitlines() if line.startswith("config key")]
    assert line.startswith("config key main.statistics.operating_points.fixed_k: k = 50 ")
    assert "main.k_max = 3" in line and "Job stats" not in out
