"""A key given twice in a JSON config (issue 45, item 11).

Python's JSON reader keeps the last of a repeated key without a word, as YAML's does; the YAML
case was refused before (test_config_faults_round2.py). ``{"run_name": "x", "run_name": "y"}``
passed ``rlsbench config check`` as "no key given twice".
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from rlsbench.benchmark.config import ConfigError, read_config_file


@pytest.mark.parametrize(
    "text, key",
    [
        ('{"run_name": "x", "run_name": "y"}', "run_name"),
        ('{"run_name": "x", "main": {"k_max": 3, "datasets": ["wine"], "k_max": 4}}', "k_max"),
    ],
    ids=["top-level", "nested"],
)
def test_a_json_key_given_twice_is_refused_naming_file_and_key(tmp_path, text, key):
    path = tmp_path / "c.json"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        read_config_file(path)
    assert str(info.value) == (
        f"config file {path}: key {key!r} is given twice in the same JSON object"
    )


def test_config_check_refuses_the_issues_json(tmp_path):
    (tmp_path / "c.json").write_text('{"run_name": "x", "run_name": "y"}')
    proc = subprocess.run(
        [sys.executable, "-m", "rlsbench", "config", "check", "c.json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode != 0
    assert "config file c.json: key 'run_name' is given twice" in proc.stderr
    assert "readable" not in proc.stdout


def test_the_same_key_in_two_json_objects_is_not_a_repeat(tmp_path):
    path = tmp_path / "c.json"
    path.write_text('{"run_name": "x", "main": {"k_max": 3}, "scaling": {"k_max": 4}}')
    assert read_config_file(path)["scaling"] == {"k_max": 4}
