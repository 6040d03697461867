"""Protocol, tables and config of the `ramona` workflow part (Ramona et al. 2012, Section V)."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from snakemake.utils import validate
from threadpoolctl import threadpool_limits

from rlsbench.kernel import workflow_config
from rlsbench.kernel.experiments import (
    cputime_rows,
    draw_split,
    method_applies,
    realdata_rows,
    svm_error,
    toy_rows,
)
from rlsbench.kernel.report import (
    PROPOSED,
    cputime_table,
    method_style,
    plot_order,
    summarize,
    table4,
    table6,
)

REPO = Path(__file__).resolve().parents[1]


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
    tr, te = draw_split(y, rng, n_train=0, train_per_class=5,
                        pools={"train": [0, 80], "test": [80, 100]})
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
    rows = realdata_rows(X, y, experiment="e", dataset="d", method="sas", kernel="rbf",
                         n_selected=[1, 3], n_train=60, n_repeats=2)
    assert [(r["repeat"], r["n_selected"]) for r in rows] == [(0, 1), (0, 3), (1, 1), (1, 3)]
    assert all(r["n_train"] == 60 and r["n_test"] == 30 for r in rows)
    with pytest.raises(ValueError, match="n_selected"):
        realdata_rows(X, y, experiment="e", dataset="d", method="sas", kernel="rbf",
                      n_selected=[7], n_train=60, n_repeats=1)


def test_tables_put_our_numbers_beside_the_papers():
    rows = pd.DataFrame({
        "experiment": "t4", "dataset": "sonar", "kernel": "rbf", "method": "sas",
        "n_selected": 10, "repeat": [0, 1], "error": [0.2, 0.3],
    })
    summary = summarize(rows, ["experiment", "dataset", "kernel", "method", "n_selected"])
    assert summary["mean"].iloc[0] == pytest.approx(25.0)
    t4 = table4(summary, {"sonar": "t4"})
    row = t4[(t4["kernel"] == "rbf") & (t4["dataset"] == "sonar")].iloc[0]
    assert row["S (ours)"] == 10  # 9.6 in the paper, rounded
    assert row["1) SAS ours"].startswith("25.0 ±") and row["1) SAS paper"] == "24.9 ± 3.1"
    assert row["2) SCSS ours"] == "—"
    rows["experiment"] = "t6"
    t6 = table6(summarize(rows, ["experiment", "dataset", "kernel", "method", "n_selected"]),
                {"sonar": "t6"})
    assert t6[(t6["dataset"] == "sonar") & (t6["S"] == 10)]["1) SAS ours"].iloc[0].startswith(
        "75.0 ±")  # accuracy = 100 − error


def test_every_method_has_its_own_colour_and_the_papers_line_style():
    from rlsbench.kernel.experiments import METHODS

    styles = {m: method_style(m) for m in METHODS}
    colours = [s["color"] for s in styles.values()]
    assert len(set(colours)) == len(colours)  # distinct, whatever methods a panel holds
    assert all(styles[m]["ls"] == ":" for m in PROPOSED)
    assert all(styles[m]["ls"] == "-" for m in METHODS if m not in PROPOSED)
    assert styles["svm"]["color"] == "black"
    # legend order is fixed (the paper's) and independent of the input order
    assert plot_order(["svm", "sas", "zzz", "fisher", "r2w2"]) == [
        "fisher", "r2w2", "sas", "svm", "zzz"]


def test_cputime_table_is_normalised_to_the_fastest_cell():
    rows = pd.DataFrame(cputime_rows("N", [5, 12], fixed=6, methods=("kfds", "sas"),
                                     n_iter=2, n_repeats=1))
    assert set(rows["method"]) == {"kfds", "sas"} and (rows["D"] == 6).all()
    table = cputime_table(rows, "N")
    ours = table[[c for c in table.columns if c.endswith("ours")]].to_numpy(dtype=float)
    assert ours.min() == pytest.approx(1.0, abs=0.05)
    assert table["3) KFDS paper"].iloc[0] == 2  # Table VIII, N = 5
    assert np.isnan(table["3) KFDS paper"].iloc[1])  # N = 12 is not in the paper


@pytest.mark.parametrize("config", ["config/config.yaml", "config/paper.yaml"])
def test_ramona_sections_validate_and_name_known_datasets(config):
    section = yaml.safe_load((REPO / config).read_text())["ramona"]
    validate(section, str(REPO / "workflow/schemas/ramona.schema.yaml"))
    registry = yaml.safe_load((REPO / "config/datasets.yaml").read_text())
    registry = registry.get("datasets", registry)
    workflow_config.check(section, registry)
    files = workflow_config.realdata_files(section, "run")
    assert files and all(f.startswith("run/realdata/") for f in files)


def test_config_check_names_the_bad_key():
    section = {"enabled": True, "realdata": {"methods": ["sas"], "experiments": {
        "ok": {"dataset": "nope", "kernels": ["rbf"], "n_train": 10, "n_selected": [1]}}}}
    with pytest.raises(ValueError, match=r"ramona.realdata.experiments.ok.dataset"):
        workflow_config.check(section, {"sonar": {}})
    section["realdata"]["experiments"]["ok"].update(dataset="sonar",
                                                    n_selected={"linear": [1]})
    with pytest.raises(ValueError, match=r"ok.n_selected"):
        workflow_config.check(section, {"sonar": {}})
