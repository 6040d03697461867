"""`snakemake --lint` is clean for the whole workflow, every rule file, with each shipped config:
functions live in workflow/rules/common.smk, rule files hold rules.

A copy of the workflow with a function put back beside the report's rules shows that the
check sees a lint where there is one.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

# each lint parses the whole workflow (about 15 s)
pytestmark = pytest.mark.slow


def _lints(root: Path, configfile: Path) -> tuple[list[str], subprocess.CompletedProcess]:
    """The files or rules ``snakemake --lint`` reports on (its "Lints for X:" headers)."""
    proc = subprocess.run(
        [sys.executable, "-m", "snakemake", "-s", str(root / "Snakefile"), "--lint"]
        + ["--configfile", str(configfile)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return re.findall(r"^Lints for (.*):$", proc.stdout + proc.stderr, re.M), proc


@pytest.mark.parametrize(
    "configfile", ["config/config.yaml", "config/paper.yaml", "tests/configs/tiny.yaml"]
)
def test_the_whole_workflow_is_lint_clean(configfile):
    headers, proc = _lints(REPO, REPO / configfile)
    assert headers == [], proc.stdout[-4000:]
    assert proc.returncode == 0, proc.stderr[-4000:]


def test_a_function_beside_the_report_rules_is_a_lint(tmp_path):
    for name in ("Snakefile", "workflow", "config", "profiles"):
        source = REPO / name
        copy = shutil.copytree if source.is_dir() else shutil.copy
        copy(source, tmp_path / name)
    report = tmp_path / "workflow" / "rules" / "report.smk"
    report.write_text(report.read_text() + "\n\ndef _helper(path):\n    return path\n")
    headers, proc = _lints(tmp_path, tmp_path / "config" / "config.yaml")
    assert [h for h in headers if h.endswith("report.smk")], proc.stdout[-4000:] + proc.stderr
