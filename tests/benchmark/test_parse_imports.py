"""Reading the workflow imports no heavy library: every Snakemake start (a run, a dry run, a
batch job under the SLURM profile) pays what the Snakefile and the rule files import, so they
load scikit-learn, scipy, numba and matplotlib only in the jobs that need them (the ramona
part's rules once imported scikit-learn through its toy plan, the method plugins numba and
scipy through the selectors: ~1-2 s a start)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# pandas too (a quarter of a second a start): the modules the rule files name hold it as
# rlsbench.lazy.lazy_module("pandas"), and the views import pandas' Styler where they use it.
# (Snakemake imports pandas itself where it compares the params of outputs that exist; the
# dry run here is of a fresh folder, like a first run.)
HEAVY = ("sklearn", "scipy.stats", "scipy.linalg", "numba", "matplotlib", "seaborn", "pandas")

# a dry run of Snakemake's command line in this process; the modules it loaded go to a file
CODE = """
import atexit, runpy, sys
out = sys.argv.pop(1)
atexit.register(lambda: open(out, "w").write("\\n".join(sorted(sys.modules))))
sys.argv[0] = "snakemake"
runpy.run_module("snakemake", run_name="__main__", alter_sys=True)
"""


def _loaded(tmp_path, snakefile, name):
    modules = tmp_path / f"{name}.txt"
    subprocess.run(
        [sys.executable, "-c", CODE, str(modules), "-n", "--cores", "1",
         "-s", str(snakefile), "--directory", str(tmp_path / name)],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )  # fmt: skip
    return set(modules.read_text().split())


def test_reading_the_workflow_imports_no_heavy_library(tmp_path):
    # what Snakemake loads by itself in this environment (an executor plugin may load pandas)
    empty = tmp_path / "Snakefile"
    empty.write_text("rule all:\n    output: touch('done')\n")
    own = _loaded(tmp_path, empty, "bare")
    loaded = _loaded(tmp_path, REPO / "Snakefile", "rlsbench")
    assert "rlsbench.studies.ramona.config" in loaded  # every part's rules were read
    assert "rlsbench.benchmark.methods.greedy_rls" in loaded  # and the methods they name
    assert not [name for name in HEAVY if name in loaded - own]
