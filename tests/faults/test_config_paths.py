"""A config never names an output path outside the run's results (issue 45, item 2).

``main.publish_to: 'results/../../../escaped'`` matched the schema's ``^results/[A-Za-z0-9_./-]+$``
and ``main_publish`` planned every output outside the repository. Every key that names an
output folder (``main.publish_to``, ``publish_dir``, ``run_name``, and the names that the
scaling, buteneers and sunyao parts turn into folders) refuses a ``..`` component, naming the
key.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
import yaml

from rlsbench.benchmark.config import ConfigError

from .test_config_faults import REPO, _set, edited, read_config


def _rename(path, old, new):
    """Rename the key ``old`` of the mapping at ``path`` (order kept)."""

    def edit(config):
        node = config
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = {new if k == old else k: v for k, v in node[path[-1]].items()}

    return edit


def _first_table1_name(value):
    def edit(config):
        config["sunyao"]["table1"]["datasets"][0]["name"] = value

    return edit


CASES = [
    ("publish-to-escapes", _set(("main", "publish_to"), "results/../../../escaped"),
     "main.publish_to"),
    ("publish-to-up-inside", _set(("main", "publish_to"), "results/paper/../../x"),
     "main.publish_to"),
    ("publish-to-is-dotdot", _set(("main", "publish_to"), "results/.."), "main.publish_to"),
    ("publish-dir-escapes", _set(("publish_dir",), "results/../.."), "publish_dir"),
    ("run-name-dotdot", _set(("run_name",), ".."), "run_name"),
    ("scaling-sweep-dotdot", _rename(("scaling", "sweeps"), "fig3", ".."), "scaling.sweeps"),
    ("sunyao-dataset-dotdot", _first_table1_name(".."), "sunyao.table1.datasets.0.name"),
]  # fmt: skip


@pytest.mark.parametrize("edit, key", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_dotdot_in_an_output_path_is_refused_naming_the_key(edit, key):
    with pytest.raises(ConfigError) as info:
        read_config(edited(edit))
    text = str(info.value)
    assert "\n" not in text and text.startswith(f"config key {key}"), text
    assert "does not match" in text or "should be valid" in text, text


@pytest.mark.parametrize(
    "value", ["results/paper/main", "results/benchmark", "results/a..b/c", "results/x./y"]
)
def test_publish_to_under_results_with_dots_inside_names_passes(value):
    read_config(edited(_set(("main", "publish_to"), value)))


def test_the_dry_run_of_the_issues_publish_to_stops_with_the_key_and_no_job(tmp_path):
    config = edited(_set(("main", "publish_to"), "results/../../../escaped"))
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.yaml").write_text(yaml.safe_dump(config))
    proc = subprocess.run(
        [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "-n", "main_publish"]
        + ["--cores", "1", "--directory", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out[-3000:]
    assert [line for line in out.splitlines() if re.match(r"config key main\.publish_to: ", line)]
    assert "escaped" not in "".join(line for line in out.splitlines() if "main_publish" in line)
    assert "Job stats" not in out and not (tmp_path / "results").exists()
