"""The fidelity rule in the workflow: scheduled by `rule all` for every config, lint-clean, and
on a tiny run it reads only the enabled parts' tables and writes the ledger and its summary.
Runs in temporary directories (``--directory``); nothing here touches results/."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from rlsbench.studies.fidelity import OUTPUTS, load_reported

REPO = Path(__file__).resolve().parents[3]
TINY = REPO / "tests" / "configs" / "tiny.yaml"

pytestmark = pytest.mark.slow


def snakemake(*args, workdir):
    cmd = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--cores", "2"]
    proc = subprocess.run(
        [*cmd, "--directory", str(workdir), *map(str, args)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    return proc


@pytest.mark.parametrize(
    ("configfile", "run"), [("config/config.yaml", "default"), ("config/paper.yaml", "paper")]
)
def test_rule_all_schedules_the_ledger(tmp_path, configfile, run):
    proc = snakemake("-n", "--configfile", REPO / configfile, workdir=tmp_path)
    out = proc.stdout + proc.stderr
    assert re.search(r"^fidelity\s+1\s*$", out, re.M), out[-3000:]
    assert f"results/runs/{run}/fidelity/fidelity.csv" in out


def test_fidelity_rules_are_lint_clean(tmp_path):
    cmd = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--lint"]
    proc = subprocess.run(
        [*cmd, "--configfile", str(TINY)], cwd=REPO, capture_output=True, text=True, timeout=600
    )
    headers = re.findall(r"^Lints for (.*):$", proc.stdout + proc.stderr, re.M)
    assert [h for h in headers if "fidelity" in h] == [], headers


def test_tiny_run_writes_the_ledger_from_the_enabled_part(tmp_path):
    snakemake("fidelity", "--configfile", TINY, workdir=tmp_path)
    out = tmp_path / "results" / "runs" / "tiny" / "fidelity"
    for name in OUTPUTS:
        assert (out / name).is_file(), name
    log = (out / "logs" / "fidelity.log").read_text()
    read = re.findall(r" read (\S+)$", log, re.M)
    assert read and all(p.startswith("results/runs/tiny/main/") for p in read), log
    ledger = pd.read_csv(out / "fidelity.csv", keep_default_na=False)
    cells = ledger[ledger["level"].isin(["cell", "series"])]
    assert len(cells) == len(load_reported())
    # the tiny config runs none of the papers' datasets: every public row is not run
    assert set(cells["verdict"]) == {"not run", "not public"}
