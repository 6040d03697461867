"""Protocol, tables and config of the `ramona` workflow part (Ramona et al. 2012, Section V)."""

from pathlib import Path

import matplotlib.colors
import numpy as np
import pandas as pd
import pytest
import yaml
from snakemake.utils import validate
from threadpoolctl import threadpool_limits

from rlsbench.benchmark.datasets import load_registry
from rlsbench.studies.ramona import config as workflow_config
from rlsbench.studies.ramona.experiments import (
    binarize_labels,
    cputime_rows,
    draw_split,
    make_ranker,
    method_applies,
    realdata_rows,
    selection_subset,
    svm_error,
    toy_rows,
)
from rlsbench.studies.ramona.report import (
    PAIRED_TEST_COLUMNS,
    PROPOSED,
    cputime_table,
    method_style,
    paired_tests,
    paired_tests_against,
    plot_order,
    summarize,
    table4,
    table5,
    table6,
)

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(autouse=True)
def _one_blas_thread():
    with threadpool_limits(limits=1):
        yield


def test_splits_are_disjoint_and_sized_as_asked():
    y = np.repeat(np.arange(3), [50, 30, 20])
    rng = np.random.default_rng(0)
    tr, te = draw_split(y, rng, n_train=40, n_test=25)
    assert tr.size == 40 and te.size == 25 and np.intersect1d(tr, te).size == 0
    tr, te = draw_split(y, rng, n_train=0.7)
    assert tr.size == 70 and te.size == 30 and np.intersect1d(tr, te).size == 0
    tr, te = draw_split(y, rng, n_train=0, train_per_class=10, n_test=50)
    np.testing.assert_array_equal(np.bincount(y[tr]), [10, 10, 10])
    assert te.size == 50 and np.intersect1d(tr, te).size == 0
    with pytest.raises(ValueError, match="n_test"):
        draw_split(y, rng, n_train=90, n_test=20)
    y = np.arange(100) % 3
    tr, te = draw_split(
        y, rng, n_train=0, train_per_class=5, pools={"train": [0, 80], "test": [80, 100]}
    )
    assert tr.max() < 80 and te.min() >= 80 and te.size == 20
    np.testing.assert_array_equal(np.bincount(y[tr]), [5, 5, 5])


def test_toy_rows_are_reproducible_and_share_the_data_across_methods():
    a = toy_rows("linear", "fisher", n_train=[20], n_test=100, n_repeats=2, seed=3)
    b = toy_rows("linear", "fisher", n_train=[20], n_test=100, n_repeats=2, seed=3)

    def drop_time(rows):
        return [{k: v for k, v in r.items() if k != "fit_seconds"} for r in rows]

    assert drop_time(a) == drop_time(b)
    c = toy_rows("linear", "fisher", n_train=[20], n_test=100, n_repeats=2, seed=4)
    assert [r["error"] for r in a] != [r["error"] for r in c]
    # SFS has no linear-kernel version: no rows on the linear problem
    assert toy_rows("linear", "sfs", n_train=[20], n_repeats=1) == []
    assert not method_applies("sfs", "poly") and method_applies("kfds", "rbf")


def test_svm_error_is_zero_on_separable_data_and_half_on_noise():
    rng = np.random.default_rng(0)
    y = np.repeat([-1.0, 1.0], 100)
    X = rng.normal(size=(200, 2)) + 5.0 * y[:, None]
    for kernel in ("linear", "rbf", "poly"):
        assert svm_error(X[::2], y[::2], X[1::2], y[1::2], kernel) == 0.0
    noise = rng.normal(size=(200, 2))
    assert 0.3 < svm_error(noise[::2], y[::2], noise[1::2], y[1::2], "linear") < 0.7


def test_realdata_rows_cover_every_repeat_and_s():
    rng = np.random.default_rng(1)
    y = np.repeat([0, 1, 2], 30)
    X = rng.normal(size=(90, 6))
    X[:, 2] += y
    kw = dict(experiment="e", dataset="d", method="sas", kernel="rbf", n_train=60)
    rows = realdata_rows(X, y, n_selected=[1, 3], n_repeats=2, **kw)
    assert [(r["repeat"], r["n_selected"]) for r in rows] == [(0, 1), (0, 3), (1, 1), (1, 3)]
    assert all(r["n_train"] == 60 and r["n_test"] == 30 for r in rows)
    # the repetitions on two workers give the same rows (fit_seconds aside)
    side = realdata_rows(X, y, n_selected=[1, 3], n_repeats=2, n_jobs=2, **kw)
    timeless = [
        [{k: v for k, v in r.items() if k != "fit_seconds"} for r in t] for t in (rows, side)
    ]
    assert timeless[0] == timeless[1] and len(timeless[0]) == 4
    with pytest.raises(ValueError, match="n_selected"):
        realdata_rows(X, y, n_selected=[7], n_repeats=1, **kw)


def test_binarized_labels_split_the_classes_and_name_the_dataset():
    y = np.repeat(np.arange(10), 3)
    np.testing.assert_array_equal(binarize_labels(y, [0, 1, 2, 3, 4]), (y < 5).astype(int))
    with pytest.raises(ValueError, match=r"labels \[11\]"):
        binarize_labels(y, [0, 11])
    with pytest.raises(ValueError, match="same class"):
        binarize_labels(y, list(range(10)))


def test_selection_subset_draws_per_class_from_the_training_sample():
    y = np.repeat([0, 1], 50)
    train = np.arange(10, 90)
    sub = selection_subset(train, y, np.random.default_rng(0), 7)
    assert np.isin(sub, train).all() and np.bincount(y[sub]).tolist() == [7, 7]
    again = selection_subset(train, y, np.random.default_rng(0), 7)
    np.testing.assert_array_equal(sub, again)
    with pytest.raises(ValueError, match="select_per_class=60"):
        selection_subset(train, y, np.random.default_rng(0), 60)


def test_wangs_protocol_ranks_on_the_small_subset_and_trains_on_the_whole_sample():
    rng = np.random.default_rng(2)
    y = np.repeat(np.arange(4), 40)
    X = rng.normal(size=(160, 8))
    X[:, 3] += 4.0 * (y < 2)
    kw = dict(experiment="t5", dataset="d", kernel="rbf", n_selected=[1, 2], n_train=100)
    rows = realdata_rows(X, y, method="sas", binarize=[0, 1], select_per_class=5, n_repeats=2, **kw)
    assert {r["dataset"] for r in rows} == {"d-binary"}
    assert all(r["n_select"] == 10 and r["n_train"] == 100 for r in rows)
    full = realdata_rows(X, y, method="sas", binarize=[0, 1], n_repeats=2, **kw)
    assert all(r["n_select"] == 100 for r in full)
    # the relevant feature separates the two merged classes: found on 10 samples already
    assert np.mean([r["error"] for r in rows if r["n_selected"] == 1]) < 0.25


def test_method_options_reach_the_ranker_and_unknown_ones_fail():
    assert make_ranker("scss", "rbf", epsilon=2.0).epsilon == 2.0
    assert make_ranker("scss", "rbf").epsilon == 0.1
    assert make_ranker("sas", "rbf", n_iter=10).max_iter == 10
    with pytest.raises(ValueError, match="SCSS only"):
        make_ranker("sas", "rbf", epsilon=1.0)
    assert make_ranker("r2w2", "rbf").radius == "frank_wolfe"
    assert make_ranker("r2w2", "rbf", radius="qp").radius == "qp"
    assert make_ranker("kfds", "linear", mu=1e-4).mu == 1e-4
    assert make_ranker("kfds", "linear").mu == 0.1
    with pytest.raises(ValueError, match="radius is an option of R2W2 only, not of 'sas'"):
        make_ranker("sas", "rbf", radius="qp")
    with pytest.raises(ValueError, match="mu is an option of KFDS only, not of 'arom'"):
        make_ranker("arom", "linear", mu=1.0)
    rng = np.random.default_rng(3)
    y = np.repeat([0, 1], 30)
    X = rng.normal(size=(60, 5))
    X[:, 1] += y
    kw = dict(experiment="e", dataset="d", kernel="rbf", n_selected=[2], n_train=40, n_repeats=1)
    with pytest.raises(ValueError, match=r"unknown option\(s\) \['epsilon'\]"):
        realdata_rows(X, y, method="sas", method_options={"epsilon": 1.0}, **kw)
    rows = realdata_rows(X, y, method="scss", method_options={"epsilon": 5.0, "n_iter": 3}, **kw)
    assert len(rows) == 1
    with pytest.raises(ValueError, match=r"unknown option\(s\) \['radius'\]"):
        realdata_rows(X, y, method="kfds", method_options={"radius": "qp"}, **kw)


def test_toy_and_cputime_rows_pass_the_radius_solver_to_r2w2(monkeypatch):
    from rlsbench.numerics.kernel import wrappers

    calls = []
    solver = wrappers.RADIUS_SOLVERS["qp"]

    def spy(K):
        calls.append(K.shape[0])
        return solver(K)

    monkeypatch.setitem(wrappers.RADIUS_SOLVERS, "qp", spy)
    toy = toy_rows(
        "nonlinear", "r2w2", n_train=[12], n_test=20, n_repeats=1,
        method_options={"radius": "qp", "n_iter": 2},
    )  # fmt: skip
    assert len(toy) == 1 and calls
    calls.clear()
    cpu = cputime_rows(
        "N", [12], fixed=4, methods=["r2w2"], n_iter=2, n_repeats=1,
        method_options={"r2w2": {"radius": "qp", "n_iter": 50}},
    )  # fmt: skip
    assert len(cpu) == 1 and calls


def test_table5_puts_ours_beside_the_paper_and_wangs_quoted_results():
    rows = pd.DataFrame(
        {
            "experiment": "t5",
            "dataset": "usps-binary",
            "kernel": "rbf",
            "method": "kfds",
            "n_selected": 50,
            "repeat": [0, 1],
            "error": [0.1, 0.2],
        }
    )
    summary = summarize(rows, ["experiment", "dataset", "kernel", "method", "n_selected"])
    t5 = table5(summary, "t5").set_index("S")
    assert t5.loc[50, "3) KFDS ours"].startswith("15.0 ±")
    assert t5.loc[50, "3) KFDS paper"] == "12.7 ± 3.5"
    assert t5.loc[50, "R2W2 (Wang) paper"] == "10.0" and t5.loc[1, "KCS (Wang) paper"] == "41.5"
    assert t5.loc[10, "1) SAS ours"] == "—"


def test_tables_put_our_numbers_beside_the_papers():
    rows = pd.DataFrame(
        {
            "experiment": "t4",
            "dataset": "sonar",
            "kernel": "rbf",
            "method": "sas",
            "n_selected": 10,
            "repeat": [0, 1],
            "error": [0.2, 0.3],
        }
    )
    summary = summarize(rows, ["experiment", "dataset", "kernel", "method", "n_selected"])
    assert summary["mean"].iloc[0] == pytest.approx(25.0)
    t4 = table4(summary, {"sonar": "t4"})
    row = t4[(t4["kernel"] == "rbf") & (t4["dataset"] == "sonar")].iloc[0]
    assert row["S (ours)"] == 10  # 9.6 in the paper, rounded
    assert row["1) SAS ours"].startswith("25.0 ±") and row["1) SAS paper"] == "24.9 ± 3.1"
    assert row["2) SCSS ours"] == "—"
    rows["experiment"] = "t6"
    t6 = table6(
        summarize(rows, ["experiment", "dataset", "kernel", "method", "n_selected"]),
        {"sonar": "t6"},
    )
    assert (
        t6[(t6["dataset"] == "sonar") & (t6["S"] == 10)]["1) SAS ours"].iloc[0].startswith("75.0 ±")
    )  # accuracy = 100 − error


def _paired_rows():
    """Three (experiment, S) cells: sas/fisher/scss with 8 shared repetitions, kfds with one
    repetition only, svm identical to sas, (one cell) arom with no shared repetition; rows
    shuffled."""
    rng = np.random.default_rng(7)
    recs = []
    for exp, S in (("e2", 5), ("e1", 10), ("e1", 3)):
        base = rng.uniform(0.1, 0.3, 8)
        errs = {
            "sas": base,
            "fisher": base + rng.normal(0.02, 0.02, 8),
            "scss": base + rng.normal(0.0, 0.05, 8),
            "svm": base.copy(),
        }
        for m, e in errs.items():
            recs += [(exp, "rbf", m, S, r, float(v)) for r, v in enumerate(e)]
        # kfds: one repetition only, equal to sas's there in one cell (still no test)
        recs.append((exp, "rbf", "kfds", S, 3, float(base[3]) if S == 10 else 0.2))
    recs.append(("e1", "rbf", "arom", 10, 99, 0.2))  # shares no repetition with the others
    rows = pd.DataFrame(
        recs, columns=["experiment", "kernel", "method", "n_selected", "repeat", "error"]
    )
    return rows.sample(frac=1.0, random_state=0).reset_index(drop=True)


def test_paired_tests_match_scipy_and_handle_degenerate_pairs():
    from scipy.stats import ttest_rel

    rows = _paired_rows()
    t = paired_tests(rows)
    assert tuple(t.columns) == PAIRED_TEST_COLUMNS
    assert len(t) == 2 * 10 + 15  # 5 (6 in e1/10) methods -> 10 (15) pairs per cell
    for (exp, S, a, b), rec in t.set_index(["experiment", "S", "method_a", "method_b"]).iterrows():
        assert a < b
        sel = rows[(rows["experiment"] == exp) & (rows["n_selected"] == S)]
        ea = sel[sel["method"] == a].set_index("repeat")["error"]
        eb = sel[sel["method"] == b].set_index("repeat")["error"]
        shared = ea.index.intersection(eb.index)
        assert rec["n_pairs"] == len(shared)
        if "arom" in (a, b):  # nothing shared: no test, no difference
            assert rec["n_pairs"] == 0 and np.isnan(rec["mean_diff"])
            assert np.isnan(rec["p_value"]) and not rec["significant_5pct"]
            continue
        if "kfds" in (a, b):  # one shared repetition (even an equal one): no test
            assert rec["n_pairs"] == 1 and np.isnan(rec["p_value"])
            assert not rec["significant_5pct"]
            continue
        d = ea[shared] - eb[shared]
        assert rec["mean_diff"] == pytest.approx(100 * d.mean())
        if {a, b} == {"sas", "svm"}:  # identical errors: scipy gives NaN, we give 1
            assert np.isnan(ttest_rel(ea[shared], eb[shared]).pvalue)
            assert rec["p_value"] == 1.0 and not rec["significant_5pct"]
            continue
        p = ttest_rel(ea[shared].to_numpy(), eb[shared].to_numpy()).pvalue
        assert rec["p_value"] == pytest.approx(p, rel=1e-12)
        assert rec["significant_5pct"] == (p < 0.05)
    # both outcomes occur in this data, so the flag is really tested
    assert t["significant_5pct"].any() and not t["significant_5pct"].all()
    # deterministic order: sorted by experiment, kernel, S, pair; independent of row order
    keys = ["experiment", "kernel", "S", "method_a", "method_b"]
    pd.testing.assert_frame_equal(t, t.sort_values(keys).reset_index(drop=True))
    assert list(t[["experiment", "S"]].drop_duplicates().itertuples(index=False, name=None)) == [
        ("e1", 3),
        ("e1", 10),
        ("e2", 5),
    ]
    pd.testing.assert_frame_equal(t, paired_tests(rows.iloc[::-1]))
    with pytest.raises(ValueError, match="duplicated"):
        paired_tests(pd.concat([rows, rows.iloc[:1]]))


def test_paired_tests_against_one_method_flip_the_sign():
    t = paired_tests(_paired_rows())
    wide = paired_tests_against(t, "sas")
    assert list(wide.columns) == [
        "experiment",
        "kernel",
        "S",
        "vs Fisher",
        "vs AROM",
        "vs 2) SCSS",
        "vs 3) KFDS",
        "vs SVM (all features)",
    ]
    rec = t[
        (t["experiment"] == "e1")
        & (t["S"] == 10)
        & (t["method_a"] == "fisher")
        & (t["method_b"] == "sas")
    ].iloc[0]
    cell = wide[(wide["experiment"] == "e1") & (wide["S"] == 10)]["vs Fisher"].iloc[0]
    assert cell.startswith(f"{-rec['mean_diff']:+.1f} (p ")  # SAS − Fisher = −(Fisher − SAS)
    assert cell.endswith("*") == bool(rec["significant_5pct"])
    assert (wide["vs 3) KFDS"] == "—").all() and (wide["vs AROM"] == "—").all()
    assert wide["vs SVM (all features)"].str.startswith("+0.0 (p 1.000)").all()


def test_every_method_has_its_own_colour_and_the_papers_line_style():
    from rlsbench.studies.ramona.experiments import METHODS

    styles = {m: method_style(m) for m in METHODS}
    colours = [s["color"] for s in styles.values()]
    assert len(set(colours)) == len(colours)  # distinct, whatever methods a panel holds
    assert all(styles[m]["ls"] == ":" for m in PROPOSED)
    assert all(styles[m]["ls"] == "-" for m in METHODS if m not in PROPOSED)
    assert matplotlib.colors.to_hex(styles["svm"]["color"]) == "#000000"  # the full SVM: black
    # legend order is fixed (the paper's) and independent of the input order
    assert plot_order(["svm", "sas", "zzz", "fisher", "r2w2"]) == [
        "fisher",
        "r2w2",
        "sas",
        "svm",
        "zzz",
    ]


def test_cputime_table_is_normalised_to_the_fastest_cell():
    rows = pd.DataFrame(
        cputime_rows("N", [5, 12], fixed=6, methods=("kfds", "sas"), n_iter=2, n_repeats=3)
    )
    # a cell is the median of its runs, the minimum beside it
    assert (rows["seconds"] >= rows["seconds_min"]).all() and (rows["repeats"] == 3).all()
    assert set(rows["method"]) == {"kfds", "sas"} and (rows["D"] == 6).all()
    table = cputime_table(rows, "N")
    ours = table[[c for c in table.columns if c.endswith("ours")]].to_numpy(dtype=float)
    assert ours.min() == pytest.approx(1.0, abs=0.05)
    assert table["3) KFDS paper"].iloc[0] == 2  # Table VIII, N = 5
    assert np.isnan(table["3) KFDS paper"].iloc[1])  # N = 12 is not in the paper


@pytest.mark.parametrize("config", ["config/config.yaml", "config/paper.yaml"])
def test_ramona_sections_validate_and_name_known_datasets(config):
    section = yaml.safe_load((REPO / config).read_text())["ramona"]
    validate(section, str(REPO / "src/rlsbench/studies/ramona/workflow/schema.yaml"))
    workflow_config.check(section, load_registry().as_dicts())
    files = workflow_config.realdata_files(section, "run")
    assert files and all(f.startswith("run/realdata/") for f in files)


def test_config_check_names_the_bad_key():
    section = {
        "enabled": True,
        "realdata": {
            "methods": ["sas"],
            "experiments": {
                "ok": {"dataset": "nope", "kernels": ["rbf"], "n_train": 10, "n_selected": [1]}
            },
        },
    }
    with pytest.raises(ValueError, match=r"ramona.realdata.experiments.ok.dataset"):
        workflow_config.check(section, {"sonar": {}})
    section["realdata"]["experiments"]["ok"].update(dataset="sonar", n_selected={"linear": [1]})
    with pytest.raises(ValueError, match=r"ok.n_selected"):
        workflow_config.check(section, {"sonar": {}})
    section["realdata"]["experiments"]["ok"].update(
        n_selected=[1], method_options={"sas": {"epsilon": 1.0}}
    )
    with pytest.raises(ValueError, match=r"ok.method_options.sas.epsilon: not an option of sas"):
        workflow_config.check(section, {"sonar": {}})
