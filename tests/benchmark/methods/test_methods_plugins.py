"""Selection methods are plugins: found through the entry-point group ``rlsbench.methods`` when
needed (rlsbench's own methods included), every plugin error naming its distribution, and a
user's out-of-tree distribution adding a method that the workflow then runs by name.
"""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from rlsbench.benchmark import methods
from rlsbench.benchmark.methods import (
    GROUP,
    Method,
    MethodPluginError,
    get_method,
    method_names,
)

REPO = Path(__file__).resolve().parents[3]

# A user's method: rank features by |correlation| with the targets, then the RLS path along
# that order (rlsbench.numerics.selection.ridge_path). One module, one Method object.
PLUGIN_MODULE = textwrap.dedent(
    '''
    """Correlation ranker: an rlsbench method from outside rlsbench."""
    import numpy as np

    from rlsbench.benchmark.methods import Method
    from rlsbench.numerics.selection import ridge_path


    def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
        Y = y.reshape(len(y), -1)
        Xc, Yc = X - X.mean(axis=0), Y - Y.mean(axis=0)
        score = np.abs(Xc.T @ Yc).sum(axis=1) / np.maximum(np.linalg.norm(Xc, axis=0), 1e-300)
        order = np.argsort(-score, kind="stable")[:k]
        return ridge_path(X, y, order, alpha, bias=bias, criterion=criterion)


    method = Method(
        name="corr_ranker",
        run=run,
        description="|correlation| ranker + RLS path",
        # X^T Y, then the RLS path along k features: O(mn + k²m) per output
        flops=lambda m, n, k, t: 2.0 * m * n * t + 4.0 * k * k * m * t,
    )
    '''
)


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_wheel(directory: Path, dist: str, version: str, files: dict, entry_points: str) -> Path:
    """A pure-Python wheel of ``files`` (archive name -> text) declaring ``entry_points``.

    Assembled directly (a wheel is a zip with a ``.dist-info``: what any build backend makes of
    ``[project.entry-points."rlsbench.methods"]``), since no build backend can be fetched
    offline and the project's environment must not change.
    """
    stem = f"{dist.replace('-', '_')}-{version}"
    info = f"{stem}.dist-info"
    contents = {name: text.encode() for name, text in files.items()}
    contents[f"{info}/METADATA"] = (
        f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n".encode()
    )
    contents[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: rlsbench-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    contents[f"{info}/entry_points.txt"] = entry_points.encode()
    record = [_record_line(name, data) for name, data in contents.items()] + [f"{info}/RECORD,,"]
    contents[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = directory / f"{stem}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for name, data in contents.items():
            zf.writestr(name, data)
    return wheel


def fake_distribution(site: Path, dist: str, module: str, source: str, entry_points: str):
    """An installed distribution as importlib.metadata sees it: a module and its dist-info."""
    (site / f"{module}.py").write_text(textwrap.dedent(source))
    info = site / f"{dist.replace('-', '_')}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{entry_points}\n")


def _with_site(site: Path) -> str:
    """PYTHONPATH with ``site`` first, keeping the caller's (the checkout under test)."""
    return os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))


@pytest.fixture
def site(tmp_path, monkeypatch):
    """A fresh directory on sys.path for fake distributions; the load cache is cleared."""
    path = tmp_path / "site"
    path.mkdir()
    monkeypatch.syspath_prepend(str(path))
    methods._entry_points.cache_clear()
    methods._load.cache_clear()
    yield path
    methods._entry_points.cache_clear()
    methods._load.cache_clear()
    for name in [m for m in sys.modules if m.startswith("fake_plugin")]:
        del sys.modules[name]


BUILT_INS = {
    "greedy_rls",
    "lowrank_lssvm",
    "wrapper_blackbox",
    "wrapper_loo",
    "random",
    "ffs",
    "bfs",
    "marglik_forward",
    "sas",
    "scss",
    "sfs",
    "kfds",
    "fisher_score",
    "svm_rfe",
    "arom",
    "r2w2",
}


def test_built_in_methods_come_through_the_entry_point_group():
    assert BUILT_INS <= set(method_names())
    for name in BUILT_INS:
        method = get_method(name)
        assert isinstance(method, Method) and method.name == name
    assert get_method("random").randomized and not get_method("greedy_rls").randomized
    assert get_method("marglik_forward").tasks == ("regression",)


def test_importing_the_registry_loads_no_method():
    code = (
        "import sys, rlsbench.benchmark.methods as m; "
        "print(sorted(n for n in sys.modules if n.startswith('rlsbench.benchmark.methods.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_unknown_name_lists_the_installed_methods():
    with pytest.raises(KeyError, match=r"unknown method 'greedy_rsl'.*greedy_rls"):
        get_method("greedy_rsl")


def test_a_plugin_method_runs_through_the_interface(site):
    fake_distribution(
        site,
        "fake-plugin-ok",
        "fake_plugin_ok",
        PLUGIN_MODULE,
        "corr_ranker = fake_plugin_ok:method",
    )
    assert "corr_ranker" in method_names()
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 6))
    y = np.sign(X[:, 4] + 0.1 * rng.standard_normal(40))
    path = get_method("corr_ranker").run(
        X, y, alpha=1.0, k=3, criterion="squared", bias=1.0, seed=0, n_jobs=1
    )
    assert path.n_steps == 3 and path.selected[0] == 4


@pytest.mark.parametrize(
    ("source", "entry", "message"),
    [
        (
            "raise ImportError('no module named foo')\n",
            "broken = fake_plugin_a:method",
            "failed to load: ImportError",
        ),
        (
            "method = 42\n",
            "broken = fake_plugin_b:method",
            "is a int, not a rlsbench.benchmark.methods.Method",
        ),
        (
            "from rlsbench.benchmark.methods import Method\n"
            "method = Method(name='other', run=None, description='')\n",
            "broken = fake_plugin_c:method",
            "is named 'other'",
        ),
    ],
    ids=["import-error", "not-a-method", "name-mismatch"],
)
def test_a_broken_plugin_is_reported_with_its_distribution(site, source, entry, message):
    module = entry.split("= ")[1].split(":")[0]
    fake_distribution(site, "fake-plugin-broken", module, source, entry)
    with pytest.raises(MethodPluginError, match=message) as info:
        get_method("broken")
    assert "distribution fake-plugin-broken 0.1" in str(info.value)
    # the other methods are not affected
    assert get_method("greedy_rls").name == "greedy_rls"


def test_a_name_declared_by_two_distributions_names_both(site):
    fake_distribution(
        site,
        "fake-plugin-clash",
        "fake_plugin_clash",
        "method = None\n",
        "greedy_rls = fake_plugin_clash:method",
    )
    with pytest.raises(MethodPluginError, match="declared twice") as info:
        get_method("greedy_rls")
    assert "fake-plugin-clash 0.1" in str(info.value) and "rlsbench" in str(info.value)


@pytest.mark.slow
def test_an_installed_out_of_tree_plugin_runs_in_the_workflow(tmp_path):
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
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-index",
            "--quiet",
            "--target",
            str(site),
            str(wheel),
        ],
        check=True,
        capture_output=True,
        env={**env, "PIP_CONFIG_FILE": os.devnull},
        timeout=120,
    )
    assert (site / "rlsbench_corr_plugin-0.1.dist-info" / "entry_points.txt").exists()

    config = {
        "run_name": "plugin",
        "main": {
            "enabled": True,
            "datasets": ["wine"],
            "methods": ["corr_ranker"],
            "n_folds": 3,
            "cv_seed": 0,
            "alphas": [0.5, 1.0, 2.0],
            "k_max": 3,
            "report_k": [1, 3],
        },
    }
    configfile = tmp_path / "plugin.yaml"
    configfile.write_text(yaml.safe_dump(config))
    workdir = tmp_path / "work"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "snakemake",
            "-s",
            str(REPO / "Snakefile"),
            "--cores",
            "2",
            "--directory",
            str(workdir),
            "main_all",
            "--configfile",
            str(configfile),
        ],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": _with_site(site)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    tables = workdir / "results" / "runs" / "plugin" / "main" / "tables"
    steps = pd.read_csv(tables / "steps.csv")
    assert set(steps["method"]) == {"corr_ranker"}
    assert (steps["status"] == "ok").all()
    assert sorted(steps.groupby("fold")["k"].max()) == [3, 3, 3]
    assert steps["test_accuracy"].between(0, 1).all()
    summary = pd.read_csv(tables / "summary.csv")
    assert list(summary["method"]) == ["corr_ranker"]
