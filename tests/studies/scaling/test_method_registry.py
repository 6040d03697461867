"""One method registry: the scaling study times the installed ``rlsbench.methods`` plugins (their
own run and cost model), refuses by config key a method it cannot time, and times a user's
out-of-tree method named in its config alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from rlsbench.benchmark import methods
from rlsbench.benchmark.config import ConfigError
from rlsbench.benchmark.methods import GROUP, get_method
from rlsbench.numerics import selection
from rlsbench.numerics.synthetic import make_two_gaussians
from rlsbench.studies.scaling.experiment import (
    BASELINES,
    SCALING_METHODS,
    budget_decision,
    plan_points,
    plan_rows,
    time_selection,
)
from tests.benchmark.methods.test_methods_plugins import (
    PLUGIN_MODULE,
    _with_site,
    build_wheel,
    fake_distribution,
)

REPO = Path(__file__).resolve().parents[3]
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
PAPER_METHODS = ("greedy_rls", "lowrank_lssvm", "wrapper_loo", "wrapper_blackbox")


@pytest.fixture
def site(tmp_path, monkeypatch):
    """A directory on sys.path for fake distributions; the plugin caches are cleared."""
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


def _section(sweep_methods, method_entries=None):
    entries = method_entries or {m: {"exponents": {"m": 1, "n": 1, "k": 1}} for m in sweep_methods}
    return {
        "budget": {"max_flops": 1e12, "timeout_s": 60},
        "methods": entries,
        "sweeps": {
            "s": {
                "vary": "m",
                "values": [20, 40],
                "fixed": {"n": 8, "k": 3},
                "methods": sweep_methods,
            }
        },
    }


# ---------------------------------------------------------------- the plugins are the methods


@pytest.mark.parametrize("name", PAPER_METHODS)
def test_the_studys_methods_are_the_plugins_cost_and_description(name):
    plugin, timed = get_method(name), SCALING_METHODS[name]
    for m, n, k in [(10, 5, 2), (500, 1000, 50), (60000, 100, 30)]:
        assert timed.flops(m, n, k) == plugin.flops(m, n, k, 1) == plugin.estimate_flops(m, n, k)
    assert timed.description == plugin.description
    assert timed.label == plugin.tags["label"] and timed.comparable and timed.ordered


def test_every_installed_method_is_nameable_and_the_baselines_stay_the_studys_own():
    assert set(methods.method_names()) | set(BASELINES) == set(SCALING_METHODS)
    assert len(SCALING_METHODS) == len(methods.method_names()) + len(BASELINES)
    assert not any(BASELINES[b].ordered for b in BASELINES)
    # only the methods that optimise greedy RLS's criterion enter the agreement check
    comparable = {n for n in methods.method_names() if SCALING_METHODS[n].comparable}
    assert set(PAPER_METHODS) <= comparable
    assert not comparable & {"random", "ffs", "bfs", "sas", "fisher_score"}


# the numerics the study timed before its methods came from the plugins (rlsbench 7aa6f25)
DIRECT = {
    "greedy_rls": lambda X, y, k, a, t: selection.greedy_rls(X, y, k, a, n_jobs=t).selected,
    "lowrank_lssvm": lambda X, y, k, a, t: selection.lowrank_lssvm(X, y, k, a).selected,
    "wrapper_loo": lambda X, y, k, a, t: selection.wrapper(X, y, k, a, loo="shortcut").selected,
    "wrapper_blackbox": lambda X, y, k, a, t: (
        selection.wrapper(X, y, k, a, loo="blackbox").selected
    ),
}


@pytest.mark.parametrize("name", PAPER_METHODS)
@pytest.mark.parametrize(("m", "n", "k", "seed"), [(30, 12, 5, 0), (12, 40, 6, 3)])
def test_timing_through_the_plugin_selects_what_the_numerics_select(name, m, n, k, seed):
    X, y = make_two_gaussians(m, n, seed=seed)
    direct = DIRECT[name](X, y, k, 0.7, 1)
    timed = time_selection(SCALING_METHODS[name].select, X, y, k=k, alpha=0.7, warmup=False)
    assert timed["status"] == "ok" and timed["selected"] == [int(i) for i in direct]


# ---------------------------------------------------------------- the config check


@pytest.mark.parametrize(
    ("section", "key", "message"),
    [
        (
            _section(["greedy_rls", "no_such_method"]),
            r"scaling\.methods\.no_such_method",
            "unknown scaling method 'no_such_method'",
        ),
        (
            _section(["no_such_method"], {"greedy_rls": {"exponents": {"m": 1, "n": 1, "k": 1}}}),
            r"scaling\.sweeps\.s\.methods\[0\]",
            "unknown scaling method 'no_such_method'",
        ),
        (
            _section(["marglik_forward"]),
            r"scaling\.methods\.marglik_forward",
            "runs on regression targets only",
        ),
    ],
)
def test_the_config_check_refuses_a_method_it_cannot_time_naming_the_key(section, key, message):
    with pytest.raises(ConfigError, match=rf"config key {key}: .*{message}"):
        plan_points(section)


def test_an_installed_method_without_a_cost_model_is_refused_naming_the_key(site):
    fake_distribution(
        site,
        "fake-plugin-nocost",
        "fake_plugin_nocost",
        "from rlsbench.benchmark.methods import Method\n"
        "method = Method(name='nocost', run=None, description='no cost model')\n",
        "nocost = fake_plugin_nocost:method",
    )
    with pytest.raises(ConfigError, match=r"config key scaling\.methods\.nocost: .*no cost model"):
        plan_points(_section(["nocost"]))


def test_a_broken_plugin_is_refused_naming_the_key_and_its_distribution(site):
    fake_distribution(
        site,
        "fake-plugin-broken",
        "fake_plugin_broken",
        "raise ImportError('missing dependency')\n",
        "broken = fake_plugin_broken:method",
    )
    with pytest.raises(
        ConfigError,
        match=r"config key scaling\.methods\.broken: .*fake-plugin-broken 0\.1 failed to load",
    ):
        plan_points(_section(["broken"]))


def test_a_users_method_is_planned_budgeted_and_timed_by_config_alone(site):
    fake_distribution(
        site,
        "fake-plugin-corr",
        "fake_plugin_corr",
        PLUGIN_MODULE,
        "corr_ranker = fake_plugin_corr:method",
    )
    section = _section(["greedy_rls", "corr_ranker"])
    rows = {r["key"]: r for r in plan_rows(plan_points(section), section)}
    row = rows["corr_ranker/t1/m40_n8_k3"]
    plugin = get_method("corr_ranker")
    assert row["status"] == "ok" and row["estimated_flops"] == plugin.flops(40, 8, 3, 1)
    point = plan_points(section)["corr_ranker/t1/m40_n8_k3"]
    tight = {**section, "budget": {"max_flops": plugin.flops(40, 8, 3, 1) / 2, "timeout_s": 60}}
    assert not budget_decision(point, tight).run
    X, y = make_two_gaussians(40, 8, seed=0)
    timed = time_selection(SCALING_METHODS["corr_ranker"].select, X, y, k=3, alpha=1.0)
    own = plugin.run(X, y, alpha=1.0, k=3, criterion="squared", bias=0.0, seed=0, n_jobs=1)
    assert timed["selected"] == own.selected.tolist()
    assert not SCALING_METHODS["corr_ranker"].comparable  # another criterion than greedy RLS's


def test_an_installed_out_of_tree_method_is_timed_in_the_scaling_workflow(tmp_path):
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
    exponents = {"m": 1, "n": 1, "k": 1}
    scaling = {
        "enabled": True,
        "seed": 0,
        "alpha": 1.0,
        "repeats": 1,
        "threads": [1],
        "budget": {"max_flops": 1e10, "timeout_s": 120},
        "methods": {
            "greedy_rls": {"exponents": exponents},
            "corr_ranker": {"exponents": exponents},
        },
        "sweeps": {
            "user": {
                "vary": "m",
                "values": [16, 24],
                "fixed": {"n": 6, "k": 2},
                "methods": ["greedy_rls", "corr_ranker"],
            }
        },
        "paper_reference": {
            "method": "greedy_rls",
            "m": 24,
            "n": 6,
            "k": 2,
            "seconds": 1.0,
            "source": "test",
            "note": "test",
        },
    }
    workdir = tmp_path / "work"
    (workdir / "config").mkdir(parents=True)
    (workdir / "config" / "config.yaml").write_text(
        yaml.safe_dump({"run_name": "user", "scaling": scaling})
    )
    proc = subprocess.run(
        [SNAKEMAKE, "--snakefile", str(REPO / "Snakefile"), "--directory", str(workdir)]
        + ["--cores", "2", "--nolock", "scaling_all"],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": _with_site(site), "PYTHONUNBUFFERED": "1"},
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    out = workdir / "results" / "runs" / "user" / "scaling"
    points = pd.read_csv(out / "tables" / "points.csv")
    user = points[points["method"] == "corr_ranker"]
    assert list(user["status"]) == ["ok", "ok"] and (user["cpu_s"] > 0).all()
    record = json.loads((out / "points" / "corr_ranker" / "t1" / "m24_n6_k2.json").read_text())
    X, y = make_two_gaussians(24, 6, seed=0)
    Xc, Y = X - X.mean(axis=0), y - y.mean()
    score = np.abs(Xc.T @ Y) / np.linalg.norm(Xc, axis=0)
    assert record["selected"] == np.argsort(-score, kind="stable")[:2].tolist()
    agreement = pd.read_csv(out / "tables" / "agreement.csv")
    assert set(agreement.loc[agreement["method"] == "corr_ranker", "compared_by"]) == {"excluded"}


# ---------------------------------------------------------------- Ramona's rankers


def test_ramonas_study_builds_each_ranker_through_its_plugin(monkeypatch):
    from rlsbench.studies.ramona import experiments

    assert set(experiments.RANKERS) == set(experiments.METHODS) - {"svm"}
    built = []
    for study_name, plugin_name in experiments.RANKERS.items():
        factory = get_method(plugin_name).tags["ranker"]
        monkeypatch.setitem(
            get_method(plugin_name).tags,
            "ranker",
            lambda kernel, _f=factory, _n=study_name, **kw: built.append(_n) or _f(kernel, **kw),
        )
        ranker = experiments.make_ranker(study_name, "rbf", n_iter=7)
        assert built[-1] == study_name and hasattr(ranker, "fit")
    # the CPU-time comparison's fixed iterations (Section VI-C): stopping rule off
    r2w2 = experiments.make_ranker("r2w2", "poly", degree=2, n_iter=7).get_params()
    assert (r2w2["max_iter"], r2w2["tol"], r2w2["elimination"], r2w2["kernel"]) == (
        7,
        0.0,
        1.0,
        "poly",
    )
    with pytest.raises(ValueError, match="'svm' has no ranker"):
        experiments.make_ranker("svm", "linear")


def test_the_main_protocol_ranks_with_the_same_factory_at_its_kernel():
    X, y = make_two_gaussians(40, 6, seed=1)
    Y = np.where(y > 0, 1.0, -1.0)
    for name, kernel in [("sas", "linear"), ("sfs", "rbf"), ("r2w2", "linear")]:
        method = get_method(name)
        path = method.select(X, Y, alpha=1.0, k=3, criterion="squared", bias=0.0, seed=0, n_jobs=1)
        order = method.tags["ranker"](kernel).fit(X, y).order_
        assert path.info["order"][:3] == order[:3].tolist(), name


def test_the_scaling_rules_params_name_only_the_configured_methods():
    from rlsbench.studies.scaling import config as scaling_config

    section = yaml.safe_load((REPO / "config" / "paper.yaml").read_text())["scaling"]
    assert scaling_config.agreement_excluded(section) == ["sfs_ridgeclassifier_cv5"]
    # the legend of the paper's Figs. 1-3, as before the methods came from the plugins
    assert scaling_config.legend_labels(section) == {
        "greedy_rls": "greedy RLS",
        "lowrank_lssvm": "low-rank updated LS-SVM",
        "wrapper_loo": "wrapper, LOO short-cut",
        "wrapper_blackbox": "wrapper, black box",
        "sfs_ridge_loo": "sklearn SFS, Ridge, LOO",
        "sfs_ridgeclassifier_cv5": "sklearn SFS, RidgeClassifier, 5-fold",
    }
