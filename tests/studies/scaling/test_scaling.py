"""The runtime scaling study (issue 5): analysis functions and the workflow part end to end.

No test asserts a wall-clock time: timings only feed fits whose inputs here are synthetic.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from rlsbench.benchmark.workflow import JobError
from rlsbench.numerics.synthetic import make_two_gaussians
from rlsbench.studies.scaling.experiment import (
    SCALING_METHODS,
    Point,
    SelectionDisagreement,
    add_repeat,
    agreement_table,
    budget_decision,
    check_agreement,
    fit_exponent,
    fit_exponents,
    plan_points,
    plan_rows,
    point_record,
    points_frame,
    run_points,
    speedup_table,
    sweep_frame,
    thread_speedup_table,
    time_selection,
)

REPO = Path(__file__).resolve().parents[3]
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
EXPONENTS = {
    "greedy_rls": {"m": 1, "n": 1, "k": 1},
    "lowrank_lssvm": {"m": 2, "n": 1, "k": 1},
    "wrapper_loo": {"m": 1, "n": 1, "k": 3},
    "wrapper_blackbox": {"m": 2, "n": 1, "k": 3},
    "sfs_ridge_loo": {"m": 2, "n": 1, "k": 3},
    "sfs_ridgeclassifier_cv5": {"m": 1, "n": 1, "k": 3},
}


# ---------------------------------------------------------------- exponent fit


@pytest.mark.parametrize("exponent", [0.5, 1.0, 2.0, 3.0])
def test_fit_exponent_recovers_exact_power_law(exponent):
    sizes = np.array([500, 1000, 2000, 5000, 10000])
    fitted, stderr = fit_exponent(sizes, 3e-7 * sizes**exponent)
    assert fitted == pytest.approx(exponent, abs=1e-10)
    assert stderr < 1e-6


@pytest.mark.parametrize("exponent", [1.0, 2.0])
def test_fit_exponent_recovers_exponent_under_multiplicative_noise(exponent):
    rng = np.random.default_rng(7)
    sizes = np.geomspace(500, 50000, 12)
    times = 1e-6 * sizes**exponent * np.exp(rng.normal(0.0, 0.05, sizes.size))
    fitted, stderr = fit_exponent(sizes, times)
    assert abs(fitted - exponent) < 4 * stderr + 1e-3
    assert abs(fitted - exponent) < 0.05


def test_fit_exponent_rejects_unfittable_input():
    with pytest.raises(ValueError, match="two distinct sizes"):
        fit_exponent([100, 100], [1.0, 2.0])
    with pytest.raises(ValueError, match="positive"):
        fit_exponent([100, 200], [0.0, 1.0])
    with pytest.raises(ValueError, match="equal length"):
        fit_exponent([100, 200, 300], [1.0, 2.0])


def _sweeps_frame(rows):
    """A sweep_frame-like table from (sweep, method, threads, size, status, time)."""
    frame = pd.DataFrame(rows, columns=["sweep", "method", "threads", "size", "status", "time_s"])
    frame["vary"] = "m"
    frame["metric"] = "cpu"
    frame["threads_used"] = frame["threads"]
    return frame


def test_fit_exponents_per_method_uses_only_successful_points_and_needs_min_points():
    sizes = [500, 1000, 2000, 5000]
    rows = [("s", "greedy_rls", 1, m, "ok", 1e-4 * m) for m in sizes]
    rows += [("s", "lowrank_lssvm", 1, m, "ok", 1e-6 * m**2) for m in sizes[:3]]
    rows += [("s", "lowrank_lssvm", 1, 5000, "skipped", np.nan)]
    rows += [("s", "wrapper_loo", 1, m, "ok" if m == 500 else "skipped", 1.0) for m in sizes]
    table = fit_exponents(_sweeps_frame(rows), EXPONENTS, min_points=3).set_index("method")
    assert table.loc["greedy_rls", "exponent"] == pytest.approx(1.0)
    assert table.loc["lowrank_lssvm", "exponent"] == pytest.approx(2.0)
    assert table.loc["lowrank_lssvm", "n_points"] == 3
    assert table.loc["lowrank_lssvm", "n_skipped"] == 1
    assert table.loc["lowrank_lssvm", "expected"] == 2
    assert np.isnan(table.loc["wrapper_loo", "exponent"])  # one size: reported, not fitted


# ---------------------------------------------------------------- speed-ups


def test_speedup_table_divides_each_method_by_greedy_at_the_same_size_and_threads():
    rows = [
        ("s", "greedy_rls", 1, 500, "ok", 0.5),
        ("s", "greedy_rls", 1, 1000, "ok", 1.0),
        ("s", "greedy_rls", 2, 1000, "ok", 0.25),
        ("s", "lowrank_lssvm", 1, 500, "ok", 10.0),
        ("s", "lowrank_lssvm", 1, 1000, "skipped", np.nan),
        ("s", "lowrank_lssvm", 2, 1000, "ok", 5.0),
        ("t", "lowrank_lssvm", 1, 500, "ok", 99.0),  # other sweep, no greedy: no row
    ]
    table = speedup_table(_sweeps_frame(rows))
    got = {(r.threads, r.size): r.speedup for r in table.itertuples()}
    assert set(got) == {(1, 500), (1, 1000), (2, 1000)}
    assert got[(1, 500)] == pytest.approx(20.0)
    assert np.isnan(got[(1, 1000)])
    assert got[(2, 1000)] == pytest.approx(20.0)  # 5.0 / 0.25, not 5.0 / 1.0
    assert (table["reference"] == "greedy_rls").all()


def test_thread_speedup_table_divides_single_by_multi_threaded_time():
    rows = [
        ("s", "greedy_rls", 1, 1000, "ok", 3.0),
        ("s", "greedy_rls", 2, 1000, "ok", 2.0),
        ("s", "greedy_rls", 2, 2000, "ok", 4.0),  # no single-threaded partner
    ]
    table = thread_speedup_table(_sweeps_frame(rows))
    assert len(table) == 1
    assert table["speedup"].iloc[0] == pytest.approx(1.5)


# ---------------------------------------------------------------- agreement


def _points(rows):
    """points_frame-like table from (method, threads, m, selected, ordered)."""
    return pd.DataFrame(
        [
            {
                "method": meth,
                "threads": t,
                "m": m,
                "n": 20,
                "k": 3,
                "status": "ok",
                "selected": " ".join(map(str, sel)),
                "ordered": ordered,
            }
            for meth, t, m, sel, ordered in rows
        ]
    )


def test_agreement_passes_when_all_comparable_methods_select_the_same():
    points = _points(
        [
            ("greedy_rls", 1, 50, [4, 1, 7], True),
            ("greedy_rls", 2, 50, [4, 1, 7], True),
            ("lowrank_lssvm", 1, 50, [4, 1, 7], True),
            ("sfs_ridge_loo", 1, 50, [1, 4, 7], False),  # set only: order unknown
            ("sfs_ridgeclassifier_cv5", 1, 50, [0, 2, 3], False),  # excluded criterion
            ("greedy_rls", 1, 100, [9, 8, 2], True),  # alone at its size: nothing to compare
        ]
    )
    table = agreement_table(points, excluded=["sfs_ridgeclassifier_cv5"])
    check_agreement(table)
    compared = table[table["compared_by"] != "excluded"]
    assert len(compared) == 3
    assert set(compared["compared_by"]) == {"order", "set"}
    assert (
        table.loc[table["method"] == "sfs_ridgeclassifier_cv5", "compared_by"].item() == "excluded"
    )


def test_agreement_detects_a_different_order():
    points = _points(
        [
            ("greedy_rls", 1, 50, [4, 1, 7], True),
            ("wrapper_loo", 1, 50, [4, 7, 1], True),
        ]
    )
    table = agreement_table(points)
    assert not table["agree"].iloc[0]
    assert "step 2" in table["detail"].iloc[0]
    with pytest.raises(SelectionDisagreement, match="m=50 n=20 k=3: wrapper_loo/t1"):
        check_agreement(table)


def test_agreement_detects_a_different_set_for_unordered_methods():
    points = _points(
        [
            ("greedy_rls", 1, 50, [4, 1, 7], True),
            ("sfs_ridge_loo", 1, 50, [1, 4, 8], False),
        ]
    )
    with pytest.raises(SelectionDisagreement, match="sets differ"):
        check_agreement(agreement_table(points))


def test_agreement_detects_threads_disagreeing():
    points = _points(
        [
            ("greedy_rls", 1, 50, [4, 1, 7], True),
            ("greedy_rls", 2, 50, [4, 1, 6], True),
        ]
    )
    with pytest.raises(SelectionDisagreement, match="greedy_rls/t2 vs greedy_rls/t1"):
        check_agreement(agreement_table(points))


# ---------------------------------------------------------------- planning and budget


def _cfg(**sweeps):
    return {
        "threads": [1],
        "methods": {m: {"exponents": e} for m, e in EXPONENTS.items()},
        "sweeps": sweeps,
    }


def test_plan_points_shares_points_between_sweeps():
    cfg = _cfg(
        a={
            "vary": "m",
            "values": [1000, 500, 2000],
            "fixed": {"n": 100, "k": 5},
            "methods": ["greedy_rls"],
            "threads": [1, 2],
        },
        b={
            "vary": "k",
            "values": [5, 10],
            "fixed": {"m": 500, "n": 100},
            "methods": ["greedy_rls"],
        },
    )
    points = plan_points(cfg)
    assert len(points) == 3 * 2 + 1  # (m=500, k=5, t1) is in both sweeps, planned once
    shared = points["greedy_rls/t1/m500_n100_k5"]
    assert shared.sweeps == ("a", "b") and shared.vary == "m"
    assert points["greedy_rls/t2/m2000_n100_k5"].vary == "m"
    assert points["greedy_rls/t1/m500_n100_k10"].vary == "k"


@pytest.mark.parametrize(
    "sweep, message",
    [
        (
            {"vary": "m", "values": [10], "fixed": {"n": 5, "k": 5}, "methods": ["greedy_rls"]},
            "k=5 must be < n=5",
        ),
        (
            {"vary": "m", "values": [10], "fixed": {"n": 5}, "methods": ["greedy_rls"]},
            r"sweeps\.bad\.fixed: lacks",
        ),
        (
            {"vary": "m", "values": [10], "fixed": {"n": 5, "k": 1}, "methods": ["nope"]},
            "unknown scaling method",
        ),
    ],
)
def test_plan_points_rejects_bad_sweeps_naming_them(sweep, message):
    with pytest.raises((ValueError, KeyError), match=message):
        plan_points(_cfg(bad=sweep))


def _record(point, cpu):
    rec = point_record(point, alpha=1.0, seed=0, threads_used=1)
    for t in cpu:
        add_repeat(rec, {"status": "ok", "wall_s": t, "cpu_s": t, "selected": [0, 1]})
    return rec


def _budget(max_flops, **per_method):
    return {
        "budget": {"max_flops": max_flops, "timeout_s": 60},
        "methods": {
            m: {"exponents": e, **({"max_flops": per_method[m]} if m in per_method else {})}
            for m, e in EXPONENTS.items()
        },
    }


def test_budget_decision_compares_the_cost_model_with_the_budget():
    point = Point("lowrank_lssvm", 1, 1000, 100, 5, vary="m")
    flops = SCALING_METHODS["lowrank_lssvm"].flops(1000, 100, 5)
    assert flops == pytest.approx(2.0 * 5 * 1000**2 * 100)  # O(km²n), Algorithm 2
    run = budget_decision(point, _budget(flops))
    assert run.run and run.estimated_flops == flops and run.budget_flops == flops
    assert run.budget_key == "scaling.budget.max_flops"
    skip = budget_decision(point, _budget(1e15, lowrank_lssvm=flops / 2))
    assert not skip.run and skip.budget_key == "scaling.methods.lowrank_lssvm.max_flops"
    assert "skipped: estimated 1e+09 flops > scaling.methods.lowrank_lssvm.max_flops" in skip.reason


@pytest.mark.parametrize("method", sorted(EXPONENTS))
def test_cost_models_grow_with_every_size(method):
    flops = SCALING_METHODS[method].flops
    base = flops(100, 50, 5)
    assert base > 0
    assert flops(200, 50, 5) >= base and flops(100, 100, 5) > base and flops(100, 50, 10) > base


def test_the_plan_and_its_budget_are_a_function_of_the_config_alone():
    cfg = {
        **_cfg(
            a={
                "vary": "m",
                "values": [100, 1000, 10000],
                "fixed": {"n": 100, "k": 5},
                "methods": ["greedy_rls", "lowrank_lssvm"],
            }
        ),
        **_budget(1e10),
    }
    points = plan_points(cfg)
    rows = plan_rows(points, cfg)
    assert rows == plan_rows(plan_points(cfg), cfg)  # no clock, no load: same plan twice
    status = {r["key"]: r["status"] for r in rows}
    # greedy RLS 8kmn <= 4e7; low-rank 2km²n: 1e8, 1e10 (= budget: runs), 1e12 skipped
    assert status == {
        "greedy_rls/t1/m100_n100_k5": "ok",
        "greedy_rls/t1/m1000_n100_k5": "ok",
        "greedy_rls/t1/m10000_n100_k5": "ok",
        "lowrank_lssvm/t1/m100_n100_k5": "ok",
        "lowrank_lssvm/t1/m1000_n100_k5": "ok",
        "lowrank_lssvm/t1/m10000_n100_k5": "skipped",
    }
    assert set(run_points(points, cfg)) == {k for k, v in status.items() if v == "ok"}


def test_add_repeat_refuses_repeats_that_select_differently():
    rec = _record(Point("greedy_rls", 1, 10, 5, 2), [0.1])
    with pytest.raises(RuntimeError, match="non-deterministic"):
        add_repeat(rec, {"status": "ok", "wall_s": 0.1, "cpu_s": 0.1, "selected": [1, 0]})


# ---------------------------------------------------------------- timing one point


def test_hard_time_limit_stops_a_selector_even_if_it_catches_exceptions():
    def stubborn(X, y, k, alpha, threads):
        deadline = time.perf_counter() + 30
        while time.perf_counter() < deadline:
            try:
                sum(range(1000))
            except Exception:  # what scikit-learn's cross-validation does with a failure
                pass
        return np.arange(k)

    X, y = make_two_gaussians(20, 5, seed=0)
    result = time_selection(stubborn, X, y, k=2, alpha=1.0, timeout_s=0.3, warmup=False)
    assert result["status"] == "timeout" and result["selected"] is None


def test_all_loo_methods_and_sklearn_sfs_select_the_same_features():
    """The premise of the agreement check, on the real selectors (tiny problem)."""
    X, y = make_two_gaussians(30, 8, seed=3)
    methods = {name: SCALING_METHODS[name] for name in EXPONENTS}
    selections = {
        name: time_selection(method.select, X, y, k=3, alpha=1.0)["selected"]
        for name, method in methods.items()
    }
    reference = selections["greedy_rls"]
    assert [n for n, m in methods.items() if not m.comparable] == ["sfs_ridgeclassifier_cv5"]
    for name, method in methods.items():
        if not method.comparable:
            continue
        if method.ordered:
            assert selections[name] == reference, name
        else:
            assert sorted(selections[name]) == sorted(reference), name


def test_points_frame_reports_medians_and_keeps_skipped_points():
    ran = Point("greedy_rls", 1, 10, 5, 2, sweeps=("s",), vary="m")
    skipped = Point("lowrank_lssvm", 1, 10, 5, 2, sweeps=("s",), vary="m")
    cfg = _budget(1e12, lowrank_lssvm=1.0)
    plan = plan_rows({ran.key: ran, skipped.key: skipped}, cfg)
    bench = pd.DataFrame({"s": [1.0, 3.0, 2.0], "cpu_time": [1, 1, 1], "max_rss": [50, 60, 70]})
    frame = points_frame(plan, {ran.key: _record(ran, [0.3, 0.1, 0.2])}, {ran.key: bench})
    assert frame.loc[0, "cpu_s"] == pytest.approx(0.2)
    assert frame.loc[0, "job_s"] == pytest.approx(2.0)
    assert frame.loc[0, "estimated_flops"] == pytest.approx(8.0 * 2 * 10 * 5)
    assert frame.loc[1, "status"] == "skipped" and np.isnan(frame.loc[1, "cpu_s"])
    assert frame.loc[1, "budget_flops"] == 1.0 and frame.loc[1, "n_repeats"] == 0
    sweeps = sweep_frame(frame, {"s": {"vary": "m"}})
    assert list(sweeps["size"]) == [10, 10]


def test_points_frame_refuses_a_record_that_contradicts_the_plan():
    point = Point("greedy_rls", 1, 10, 5, 2, sweeps=("s",), vary="m")
    with pytest.raises(JobError, match="planned to run but it has no finished record"):
        points_frame(plan_rows({point.key: point}, _budget(1e12)), {})
    with pytest.raises(JobError, match="over its budget but it has a record"):
        points_frame(plan_rows({point.key: point}, _budget(1.0)), {point.key: _record(point, [1])})


# ---------------------------------------------------------------- workflow


def _snakemake(workdir, *args, timeout=900):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.run(
        [
            SNAKEMAKE,
            "--snakefile",
            str(REPO / "Snakefile"),
            "--directory",
            str(workdir),
            "--cores",
            "2",
            "--nolock",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def test_default_config_dry_run_plans_the_scaling_part(tmp_path):
    # in an empty work directory: the repository's own results/ (after `make reproduce`) must
    # not change what a test sees
    result = _snakemake(
        tmp_path, "scaling_all", "-n", "--configfile", str(REPO / "config" / "config.yaml")
    )
    assert result.returncode == 0, result.stderr[-3000:] + result.stdout[-3000:]
    assert "scaling_point" in result.stdout and "scaling_agreement" in result.stdout


TINY = {
    "enabled": True,
    "seed": 0,
    "alpha": 1.0,
    "repeats": 2,
    "threads": [1],
    "metric": "cpu",
    "budget": {"max_flops": 1e10, "timeout_s": 120},
    "methods": {
        **{m: {"exponents": e} for m, e in EXPONENTS.items()},
        # between the estimates at m = 16 and m = 24: the larger point is a recorded skip
        "wrapper_blackbox": {"exponents": EXPONENTS["wrapper_blackbox"], "max_flops": 4e7},
    },
    "sweeps": {
        "tiny_m": {
            "vary": "m",
            "values": [16, 24],
            "fixed": {"n": 6, "k": 2},
            "methods": list(EXPONENTS),
            "figures": ["linear", "log"],
        },
        "tiny_threads": {
            "vary": "m",
            "values": [16, 24],
            "fixed": {"n": 6, "k": 2},
            "methods": ["greedy_rls"],
            "threads": [1, 2],
            "metric": "wall",
        },
    },
    "paper_reference": {
        "method": "greedy_rls",
        "m": 24,
        "n": 6,
        "k": 2,
        "seconds": 720,
        "source": "paper",
        "note": "test",
    },
}


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("scaling")
    (workdir / "config").mkdir()
    config = {"run_name": "tiny", "scaling": TINY}
    (workdir / "config" / "config.yaml").write_text(yaml.safe_dump(config))
    result = _snakemake(workdir, "scaling_all")
    assert result.returncode == 0, result.stderr[-4000:]
    return workdir


def test_tiny_scaling_run_end_to_end(tiny_run):
    out = tiny_run / "results" / "runs" / "tiny" / "scaling"
    points = pd.read_csv(out / "tables" / "points.csv")
    assert len(points) == len(EXPONENTS) * 2 + 2  # + greedy_rls t2 at both sizes
    skipped = points[points["status"] == "skipped"]
    assert list(skipped["method"]) == ["wrapper_blackbox"]
    assert "flops > scaling.methods.wrapper_blackbox.max_flops" in skipped["reason"].item()
    ran = points[points["status"] == "ok"]
    assert (ran["n_repeats"] == 2).all()
    bench = pd.read_csv(out / "benchmarks" / "greedy_rls" / "t1" / "m16_n6_k2.tsv", sep="\t")
    assert len(bench) == 2  # repeat(..., 2)
    agreement = pd.read_csv(out / "tables" / "agreement.csv")
    compared = agreement[agreement["compared_by"] != "excluded"]
    assert compared["agree"].all() and len(compared) >= 5
    exponents = pd.read_csv(out / "tables" / "exponents.csv")
    assert {"greedy_rls", "lowrank_lssvm"} <= set(exponents["method"])
    for name in ("tiny_m_linear.png", "tiny_m_log.png", "tiny_threads_log.png"):
        assert (out / "figures" / name).stat().st_size > 0
    speedups = (out / "tables" / "speedups.md").read_text()
    assert "(×" in speedups and "skipped" in speedups
    assert "paper" in (out / "tables" / "paper.md").read_text()


def test_agreement_rule_fails_on_a_tampered_selection(tiny_run):
    out = tiny_run / "results" / "runs" / "tiny" / "scaling"
    record_path = out / "points" / "lowrank_lssvm" / "t1" / "m24_n6_k2.json"
    record = json.loads(record_path.read_text())
    record["selected"] = record["selected"][::-1]
    record_path.write_text(json.dumps(record))
    result = _snakemake(tiny_run, "scaling_all")
    assert result.returncode != 0
    # one line on stderr and in the log; the traceback in a file of its own
    line = next(x for x in result.stderr.splitlines() if x.startswith("rule scaling_agreement:"))
    assert "selection(s) differ where the methods must agree: m=24 n=6 k=2" in line
    assert "lowrank_lssvm/t1 vs greedy_rls/t1" in line
    assert line in (out / "logs" / "agreement.log").read_text()
    assert "SelectionDisagreement" in (out / "logs" / "agreement.log.traceback").read_text()
    assert "Traceback" not in result.stderr
    assert not (out / "tables" / "agreement.csv").exists()


def test_a_point_past_its_hard_limit_fails_its_job_instead_of_becoming_a_row(tmp_path, monkeypatch):
    from rlsbench.studies.scaling import experiment, jobs

    def slow(X, y, k, alpha, threads):
        if len(X) < 20:  # the warm-up on a tiny problem, outside the limit
            return np.arange(k)
        deadline = time.perf_counter() + 30
        while time.perf_counter() < deadline:
            sum(range(1000))
        return np.arange(k)

    method = experiment.SCALING_METHODS["greedy_rls"]
    monkeypatch.setattr(
        jobs, "get_scaling_method", lambda name: experiment.dataclasses.replace(method, select=slow)
    )
    point = Point("greedy_rls", 1, 20, 5, 2, vary="m")
    settings = {
        "alpha": 1.0,
        "seed": 0,
        "timeout_s": 0.3,
        "timeout_key": "scaling.budget.timeout_s",
    }
    record = tmp_path / "point.json"
    with pytest.raises(JobError, match=r"hard time limit of 0.3 s .*scaling\.budget\.timeout_s"):
        jobs.point_job(str(record), point=job_fields(point), settings=settings, threads=1)
    assert not record.exists()


def job_fields(point):
    return {
        "method": point.method,
        "threads": point.threads,
        "m": point.m,
        "n": point.n,
        "k": point.k,
        "vary": point.vary,
    }
