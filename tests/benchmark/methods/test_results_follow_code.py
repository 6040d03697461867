"""Results follow the code (issue 30): a method's version (its distribution, the distribution's
version and a hash of its module's source) is a parameter of its selection jobs, so editing a
plugin reruns exactly its jobs (and what aggregates them) and nothing else.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rlsbench.benchmark import methods
from rlsbench.benchmark.methods import GROUP, MethodPluginError, method_version
from tests.benchmark.methods.test_methods_plugins import PLUGIN_MODULE, _with_site, build_wheel

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def site(tmp_path, monkeypatch):
    """A directory on sys.path for a fake distribution; the entry-point listing is re-read."""
    path = tmp_path / "site"
    path.mkdir()
    monkeypatch.syspath_prepend(str(path))
    methods._entry_points.cache_clear()
    yield path
    methods._entry_points.cache_clear()
    for name in [m for m in sys.modules if m.startswith("fake_versioned")]:
        del sys.modules[name]


def _distribution(site: Path, module: str, source: bytes, version: str = "0.1") -> None:
    """An installed distribution ``fake-versioned`` declaring ``versioned = <module>:method``."""
    (site / f"{module}.py").write_bytes(source)
    info = site / f"fake_versioned-{version}.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: fake-versioned\nVersion: {version}\n"
    )
    (info / "entry_points.txt").write_text(f"[{GROUP}]\nversioned = {module}:method\n")


SOURCE = b"# a method module\nmethod = None\n"


def test_version_names_the_distribution_and_hashes_the_source(site):
    _distribution(site, "fake_versioned_a", SOURCE)
    version = method_version("versioned")
    assert re.fullmatch(r"fake-versioned 0\.1 fake_versioned_a sha256:[0-9a-f]{12}", version)
    # found by path, not imported: a module that is never loaded still has a version
    assert "fake_versioned_a" not in sys.modules
    assert "/" not in version and "\\" not in version  # no path of this machine


def test_editing_the_module_changes_the_version(site):
    _distribution(site, "fake_versioned_b", SOURCE)
    before = method_version("versioned")
    (site / "fake_versioned_b.py").write_bytes(SOURCE + b"# tuned a constant\n")
    after = method_version("versioned")
    assert before != after
    assert before.rsplit(" ", 1)[0] == after.rsplit(" ", 1)[0]  # only the hash moved


def test_a_new_distribution_version_changes_the_version(site):
    _distribution(site, "fake_versioned_c", SOURCE, version="0.1")
    before = method_version("versioned")
    (site / "fake_versioned-0.1.dist-info").rename(site / "fake_versioned-0.2.dist-info")
    _distribution(site, "fake_versioned_c", SOURCE, version="0.2")
    methods._entry_points.cache_clear()
    assert method_version("versioned") == before.replace(" 0.1 ", " 0.2 ")


def test_line_endings_do_not_change_the_version(site):
    _distribution(site, "fake_versioned_d", SOURCE)
    unix = method_version("versioned")
    (site / "fake_versioned_d.py").write_bytes(SOURCE.replace(b"\n", b"\r\n"))
    assert method_version("versioned") == unix


def test_the_version_is_the_same_in_another_process():
    here = {name: method_version(name) for name in ("greedy_rls", "random", "wrapper_loo")}
    code = (
        "import json; from rlsbench.benchmark.methods import method_version as v; "
        "print(json.dumps({n: v(n) for n in ('greedy_rls', 'random', 'wrapper_loo')}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert yaml.safe_load(out.stdout) == here


def test_methods_of_one_module_share_a_version_and_other_modules_differ():
    # wrapper_blackbox and wrapper_loo live in one module: an edit there reruns both
    assert method_version("wrapper_blackbox") == method_version("wrapper_loo")
    assert method_version("greedy_rls") != method_version("random")
    assert method_version("greedy_rls").startswith("rlsbench ")


def test_unknown_method_and_missing_module_are_named_errors(site):
    with pytest.raises(KeyError, match=r"unknown method 'greedy_rsl'.*greedy_rls"):
        method_version("greedy_rsl")
    info = site / "fake_versioned-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-versioned\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\nversioned = fake_versioned_gone:method\n")
    methods._entry_points.cache_clear()
    with pytest.raises(MethodPluginError, match="fake_versioned_gone.*not installed") as err:
        method_version("versioned")
    assert "distribution fake-versioned 0.1" in str(err.value)


# ---------------------------------------------------------------------------------------------
# The workflow: editing the plugin reruns its jobs only


def _install(tmp_path: Path) -> Path:
    """The out-of-tree plugin of tests/benchmark/methods/test_methods_plugins.py, installed into
    a fresh site."""
    wheel = build_wheel(
        tmp_path,
        "rlsbench-corr-plugin",
        "0.1",
        {"rlsbench_corr_plugin/__init__.py": PLUGIN_MODULE},
        f"[{GROUP}]\ncorr_ranker = rlsbench_corr_plugin:method\n",
    )
    site = tmp_path / "site"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet"]
        + ["--target", str(site), str(wheel)],
        check=True,
        capture_output=True,
        env={**env, "PIP_CONFIG_FILE": os.devnull},
        timeout=120,
    )
    return site


def _snakemake(site: Path, workdir: Path, configfile: Path, *args: str):
    proc = subprocess.run(
        [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--cores", "2"]
        + ["--directory", str(workdir), "main_all", "--configfile", str(configfile), *args],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": _with_site(site)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    return proc.stdout + proc.stderr


def _scheduled(log: str) -> dict[str, list[str]]:
    """Rule -> the outputs of its jobs, from a dry run's job listing."""
    jobs: dict[str, list[str]] = {}
    for block in re.split(r"\n(?=rule \w+:|localrule \w+:)", log):
        match = re.match(r"(?:local)?rule (\w+):", block)
        outputs = re.search(r"^\s*output: (.+)$", block, re.M)
        if match and outputs:
            jobs.setdefault(match.group(1), []).extend(outputs.group(1).split(", "))
    return jobs


@pytest.mark.slow
def test_editing_a_plugin_reruns_its_jobs_and_no_other(tmp_path):
    site = _install(tmp_path)
    config = {
        "run_name": "follow",
        "main": {
            "enabled": True,
            "datasets": ["wine"],
            "methods": ["corr_ranker", "greedy_rls"],
            "n_folds": 2,
            "cv_seed": 0,
            "alphas": [0.5, 2.0],
            "k_max": 2,
            "report_k": [1, 2],
            "threads": 1,
        },
    }
    configfile = tmp_path / "follow.yaml"
    configfile.write_text(yaml.safe_dump(config))
    workdir = tmp_path / "work"
    jobs = "results/runs/follow/main/jobs/wine"

    _snakemake(site, workdir, configfile)
    assert "Nothing to be done" in _snakemake(site, workdir, configfile, "-n")

    module = site / "rlsbench_corr_plugin" / "__init__.py"
    module.write_text(module.read_text() + "\n# a user edits the plugin\n")
    # (not --list-changes params: Snakemake 9.27 lists every output there, changed or not)
    dry_run = _snakemake(site, workdir, configfile, "-n")
    scheduled = _scheduled(dry_run)
    assert scheduled["main_select"] == [f"{jobs}/corr_ranker.csv"], dry_run[-4000:]
    assert "Params have changed since last execution" in dry_run
    assert "main_alpha" not in scheduled  # the λ search depends on no method
    assert "main_aggregate" in scheduled  # downstream of the rerun job

    _snakemake(site, workdir, configfile)
    assert "Nothing to be done" in _snakemake(site, workdir, configfile, "-n")
