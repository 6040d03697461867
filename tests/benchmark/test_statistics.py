"""Statistics across datasets (rlsbench.benchmark.statistics, the main_statistics rule):
published values of Demšar (2006), first-principles checks of the operating points and of the
Nogueira et al. (2018) stability index, the edge cases, and a tiny workflow run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from rlsbench.benchmark import statistics as st
from rlsbench.benchmark.config import ConfigError
from rlsbench.studies.main import statistics as main_statistics

REPO = Path(__file__).resolve().parents[2]

# Demšar (2006), Table 6: AUC of C4.5 and three of its variants on 14 UCI datasets
DEMSAR_METHODS = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
DEMSAR_AUC = pd.DataFrame(
    [
        [0.763, 0.768, 0.771, 0.798],
        [0.599, 0.591, 0.590, 0.569],
        [0.954, 0.971, 0.968, 0.967],
        [0.628, 0.661, 0.654, 0.657],
        [0.882, 0.888, 0.886, 0.898],
        [0.936, 0.931, 0.916, 0.931],
        [0.661, 0.668, 0.609, 0.685],
        [0.583, 0.583, 0.563, 0.625],
        [0.775, 0.838, 0.866, 0.875],
        [1.000, 1.000, 1.000, 1.000],
        [0.940, 0.962, 0.965, 0.962],
        [0.619, 0.666, 0.614, 0.669],
        [0.972, 0.981, 0.975, 0.975],
        [0.957, 0.978, 0.946, 0.970],
    ],
    columns=DEMSAR_METHODS,
)
# the average ranks Demšar prints under Table 6
DEMSAR_PRINTED_RANKS = [3.143, 2.000, 2.893, 1.964]


# ---------------------------------------------------------------------------------------------
# Demšar (2006)
# ---------------------------------------------------------------------------------------------
def test_average_ranks_of_demsar_table_6_rank_ties_by_their_average():
    ranks = st.average_ranks(DEMSAR_AUC)
    # by hand from the table: mushroom ties all four (2.5 each), lung cancer, iris, primary
    # tumor and voting tie two. The table's values give 2.929 and 1.929 for the last two
    # variants where the paper prints 2.893 and 1.964 (half a rank on one dataset apart);
    # the first two agree with the print.
    expected = {"C4.5": 44 / 14, "C4.5+m": 28 / 14, "C4.5+cf": 41 / 14, "C4.5+m+cf": 27 / 14}
    assert ranks.to_dict() == pytest.approx(expected)
    assert ranks["C4.5"] == pytest.approx(DEMSAR_PRINTED_RANKS[0], abs=5e-4)
    assert ranks["C4.5+m"] == pytest.approx(DEMSAR_PRINTED_RANKS[1], abs=5e-4)
    assert list(ranks.index) == ["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]


def test_friedman_from_demsars_printed_ranks_gives_his_chi2_and_f():
    result = st.friedman_from_ranks(DEMSAR_PRINTED_RANKS, 14)
    # Section 3.2.2: χ²_F = 9.28, F_F = 3.69 with (3, 39) degrees of freedom, above the
    # critical F(3, 39) = 2.85 at α = 0.05
    assert result.chi2 == pytest.approx(9.28, abs=5e-3)
    assert result.iman_davenport_f == pytest.approx(3.69, abs=5e-3)
    assert (result.df_num, result.df_den) == (3, 39)
    assert result.p_f < 0.05


def test_friedman_uses_scipys_tie_corrected_chi2_and_equals_demsars_formula_without_ties():
    # Demšar's table has ties: scipy's correction makes χ²_F larger than the formula's
    tied = st.friedman(DEMSAR_AUC)
    from_ranks = st.friedman_from_ranks(st.average_ranks(DEMSAR_AUC).to_numpy(), 14)
    assert tied.chi2 > from_ranks.chi2
    # without ties the two agree
    rng = np.random.default_rng(0)
    scores = pd.DataFrame(rng.random((9, 5)), columns=list("abcde"))
    result = st.friedman(scores)
    formula = st.friedman_from_ranks(st.average_ranks(scores).to_numpy(), 9)
    assert result.chi2 == pytest.approx(formula.chi2)
    assert result.iman_davenport_f == pytest.approx(formula.iman_davenport_f)
    assert result.p_chi2 == pytest.approx(formula.p_chi2)


def test_critical_difference_of_demsars_example():
    # q_0.05 = 2.569, q_0.10 = 2.291 for k = 4 (Table 5a); CD = 1.25 and 1.12 (Section 3.2.4)
    assert st.nemenyi_q(4, 0.05) == pytest.approx(2.569, abs=1e-3)
    assert st.nemenyi_q(4, 0.10) == pytest.approx(2.291, abs=1e-3)
    assert st.nemenyi_q(10, 0.05) == pytest.approx(3.164, abs=1e-3)
    assert st.critical_difference(4, 14, 0.05) == pytest.approx(1.25, abs=5e-3)
    assert st.critical_difference(4, 14, 0.10) == pytest.approx(1.12, abs=5e-3)


def test_nemenyi_separates_c45_from_the_m_variants_at_010_only():
    # Demšar: no pair differs at 0.05; at 0.10, C4.5 is worse than C4.5+m and C4.5+m+cf
    p = st.nemenyi(DEMSAR_AUC)
    pairs = st.pairs_table(p, 0.10)
    assert not st.pairs_table(p, 0.05)["significant"].any()
    significant = {
        frozenset(r) for r in pairs.loc[pairs.significant, ["method_a", "method_b"]].values
    }
    assert significant == {frozenset({"C4.5", "C4.5+m"}), frozenset({"C4.5", "C4.5+m+cf"})}
    assert np.allclose(p.to_numpy(), p.to_numpy().T)


def test_wilcoxon_of_c45_m_against_c45_is_demsars_t_12():
    # Section 3.1.3: R+ = 93, R− = 12 (the two ties split), T = 12 < 21, significant at 0.05
    table = st.wilcoxon_vs_reference(DEMSAR_AUC, "C4.5")
    row = table.set_index("method").loc["C4.5+m"]
    assert row["statistic"] == 12
    assert row["p_value"] < 0.05
    assert (row["wins"], row["ties"], row["losses"]) == (10, 2, 2)
    # Holm: the smallest p is multiplied by the number of comparisons
    p = table["p_value"].to_numpy()
    assert table["p_holm"].min() == pytest.approx(min(1.0, 3 * p.min()))
    assert (table["p_holm"] >= table["p_value"]).all()


def test_holm_wilcoxon_pairs_are_at_least_the_plain_wilcoxon_p_values():
    from scipy.stats import wilcoxon

    p = st.holm_wilcoxon(DEMSAR_AUC)
    plain = wilcoxon(DEMSAR_AUC["C4.5+m"], DEMSAR_AUC["C4.5"], zero_method="zsplit").pvalue
    assert p.loc["C4.5+m", "C4.5"] >= plain
    assert p.loc["C4.5+m", "C4.5"] <= 6 * plain + 1e-12  # 6 pairs: Holm at most Bonferroni


# ---------------------------------------------------------------------------------------------
# Bayesian signed-rank test
# ---------------------------------------------------------------------------------------------
def test_bayesian_signed_rank_left_means_the_method_is_better():
    base = np.linspace(0.6, 0.9, 12)
    scores = pd.DataFrame({"ref": base, "better": base + 0.05, "same": base + 0.001})
    table = st.bayesian_signed_rank(scores, "ref", rope=0.01, nsamples=5000).set_index("method")
    assert table.loc["better", "p_left"] > 0.95
    assert table.loc["same", "p_rope"] > 0.95
    probs = table[["p_left", "p_rope", "p_right"]].sum(axis=1)
    assert np.allclose(probs, 1.0)


def test_bayesian_signed_rank_without_rope_has_no_equivalence_mass():
    table = st.bayesian_signed_rank(DEMSAR_AUC, "C4.5", rope=0.0, nsamples=2000)
    assert (table["p_rope"] == 0).all()
    assert np.allclose(table[["p_left", "p_right"]].sum(axis=1), 1.0)
    # C4.5+m beats C4.5 on 10 of the 12 datasets where they differ
    assert table.set_index("method").loc["C4.5+m", "p_left"] > 0.9


@pytest.mark.parametrize("rope", [0.0, 0.005, 0.01])
def test_signed_rank_probs_are_baycomps_draw_for_draw(rope):
    """The matrix-product form gives baycomp's probabilities exactly: the same Dirichlet draws,
    on scores with ties, zero differences and differences of exactly twice the rope."""
    from baycomp import SignedRankTest

    rng = np.random.default_rng(7)
    for n in (2, 5, 17, 40):
        x = np.round(rng.random(n), 2)
        y = np.round(x + rng.normal(0, 0.02, n), 2)
        y[: n // 3] = x[: n // 3]
        ours = st.signed_rank_probs(x, y, rope, nsamples=3000, random_state=n)
        theirs = SignedRankTest.probs(x, y, rope, nsamples=3000, random_state=n)
        assert ours == tuple(float(p) for p in theirs)


def test_bayesian_signed_rank_is_reproducible_with_its_seed():
    a = st.bayesian_signed_rank(DEMSAR_AUC, "C4.5", rope=0.01, nsamples=2000, random_state=3)
    b = st.bayesian_signed_rank(DEMSAR_AUC, "C4.5", rope=0.01, nsamples=2000, random_state=3)
    pd.testing.assert_frame_equal(a, b)


# ---------------------------------------------------------------------------------------------
# Edge cases
# ---------------------------------------------------------------------------------------------
def test_missing_cells_drop_the_empty_method_then_the_incomplete_datasets():
    scores = DEMSAR_AUC.iloc[:5].copy()
    scores["skipped"] = np.nan
    scores.loc[2, "C4.5+cf"] = np.nan
    complete = st.complete_cases(scores)
    assert complete.dropped_methods == ["skipped"]
    assert complete.dropped_datasets == [2]
    assert complete.scores.shape == (4, 4)


def test_too_few_methods_or_datasets_is_a_named_error():
    with pytest.raises(st.StatisticsInputError, match="at least 2 datasets and 3 methods"):
        st.friedman(DEMSAR_AUC[["C4.5", "C4.5+m"]])
    with pytest.raises(st.StatisticsInputError, match="got 1 dataset"):
        st.nemenyi(DEMSAR_AUC.iloc[:1])
    with pytest.raises(KeyError, match="reference method 'nope'"):
        st.wilcoxon_vs_reference(DEMSAR_AUC, "nope")


def test_wilcoxon_row_says_why_with_one_shared_dataset_and_gives_p_1_for_identical_scores():
    scores = pd.DataFrame({"ref": [0.5, 0.6, 0.7], "one": [0.4, np.nan, np.nan]})
    scores["same"] = scores["ref"]
    table = st.wilcoxon_vs_reference(scores, "ref").set_index("method")
    assert np.isnan(table.loc["one", "p_value"])
    assert "1 dataset(s) shared" in table.loc["one", "reason"]
    assert table.loc["same", "p_value"] == 1.0


def test_friedman_of_all_ties_is_zero_with_p_one():
    result = st.friedman(pd.DataFrame(np.ones((4, 3))))
    assert result.chi2 == 0.0 and result.p_chi2 == 1.0


# ---------------------------------------------------------------------------------------------
# Operating points on a step table
# ---------------------------------------------------------------------------------------------
def _steps(rows):
    columns = ["dataset", "method", "fold", "seed", "k", "test_accuracy", "loo_accuracy"]
    frame = pd.DataFrame(rows, columns=columns)
    frame["status"] = "ok"
    return frame


def test_operating_points_by_hand():
    steps = _steps(
        [
            # one run each: test accuracy after k = 1, 2, 3, and the LOO estimates
            ("d", "a", 0, 0, 1, 0.6, 0.70),
            ("d", "a", 0, 0, 2, 0.8, 0.90),
            ("d", "a", 0, 0, 3, 0.7, 0.90),  # ties the best LOO: the smaller k wins
            ("d", "b", 0, 0, 1, 0.5, 0.80),
            ("d", "b", 0, 0, 2, 0.9, 0.60),
            ("d", "b", 1, 0, 1, 0.7, 0.50),
            ("d", "b", 1, 0, 2, 0.3, 0.55),
        ]
    )
    fixed = st.at_fixed_k(steps, 2)
    assert fixed.loc["d", "a"] == pytest.approx(0.8)
    assert fixed.loc["d", "b"] == pytest.approx((0.9 + 0.3) / 2)
    loo = st.at_loo_k(steps)
    assert loo.loc["d", "a"] == pytest.approx(0.8)
    assert loo.loc["d", "b"] == pytest.approx((0.5 + 0.3) / 2)
    auc = st.auc_over_k(steps)  # K = 2: the runs of b stop there
    assert auc.loc["d", "a"] == pytest.approx((0.6 + 0.8) / 2)
    assert auc.loc["d", "b"] == pytest.approx(((0.5 + 0.9) / 2 + (0.7 + 0.3) / 2) / 2)
    assert np.isnan(st.at_fixed_k(steps, 3).loc["d", "b"])


def test_skipped_rows_give_missing_cells():
    steps = _steps([("d", "a", 0, 0, 1, 0.6, 0.7), ("d", "b", 0, 0, 1, np.nan, np.nan)])
    steps.loc[1, "status"] = "skipped"
    scores = st.at_fixed_k(steps, 1)
    assert list(scores.columns) == ["a", "b"] and np.isnan(scores.loc["d", "b"])


# ---------------------------------------------------------------------------------------------
# Nogueira, Sechidis & Brown (2018)
# ---------------------------------------------------------------------------------------------
def _authors_reference(Z):
    """The authors' published reference code (getVarianceofStability), loop for loop."""
    M, d = Z.shape
    hat_p = Z.mean(axis=0)
    k_bar = hat_p.sum()
    k = Z.sum(axis=1)
    denom = (k_bar / d) * (1 - k_bar / d)
    stab = 1 - (M / (M - 1)) * np.mean(hat_p * (1 - hat_p)) / denom
    phi = np.zeros(M)
    for i in range(M):
        phi[i] = (1 / denom) * (
            np.mean(Z[i] * hat_p)
            - (k[i] * k_bar) / d**2
            + (stab / 2) * ((2 * k[i] * k_bar) / d**2 - k[i] / d - k_bar / d + 1)
        )
    return stab, (4 / M**2) * np.sum((phi - phi.mean()) ** 2)


def test_stability_of_identical_sets_is_one():
    Z = np.tile([1, 0, 1, 0, 0, 1], (5, 1))
    result = st.nogueira_stability(Z)
    assert result.stability == pytest.approx(1.0)
    assert result.variance == pytest.approx(0.0)


def test_stability_by_hand():
    # p = (1, 2/3, 1/3, 0), k̄ = 2, s² = 3/2 p(1 − p) = (0, 1/3, 1/3, 0):
    # Φ = 1 − (1/6) / (1/2 · 1/2) = 1/3
    Z = np.array([[1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]])
    assert st.nogueira_stability(Z).stability == pytest.approx(1 / 3)


def test_stability_and_variance_match_the_authors_code():
    rng = np.random.default_rng(1)
    Z = (rng.random((10, 20)) < 0.3).astype(float)
    Z[:, :3] = 1  # some agreement
    result = st.nogueira_stability(Z, alpha=0.05)
    stability, variance = _authors_reference(Z)
    assert result.stability == pytest.approx(stability)
    assert result.variance == pytest.approx(variance)
    half = 1.959963984540054 * np.sqrt(variance)
    assert (result.ci_low, result.ci_high) == pytest.approx((stability - half, stability + half))


def test_stability_of_random_sets_of_fixed_size_is_zero_in_expectation():
    rng = np.random.default_rng(2)
    d, k, M = 30, 5, 10
    values = []
    for _ in range(2000):
        Z = np.zeros((M, d))
        for row in Z:
            row[rng.choice(d, size=k, replace=False)] = 1
        values.append(st.nogueira_stability(Z).stability)
    values = np.asarray(values)
    assert abs(values.mean()) < 3 * values.std() / np.sqrt(values.size)


def test_stability_is_nan_where_undefined():
    assert np.isnan(st.nogueira_stability(np.ones((3, 4))).stability)  # k̄ = d
    assert np.isnan(st.nogueira_stability(np.ones((1, 4))).stability)  # one set
    with pytest.raises(ValueError, match="0/1"):
        st.nogueira_stability(np.full((3, 4), 0.5))


def test_stability_table_reads_the_first_k_features_of_each_run():
    rows = []
    for fold, order in enumerate([[0, 1, 2], [0, 1, 3], [1, 0, 4]]):
        for k, feature in enumerate(order, start=1):
            rows.append(("d", "a", fold, 0, k, 0.5, 0.5, feature))
    steps = pd.DataFrame(
        rows,
        columns=[
            "dataset",
            "method",
            "fold",
            "seed",
            "k",
            "test_accuracy",
            "loo_accuracy",
            "feature",
        ],
    ).assign(status="ok", n_features=6)
    at_2 = st.stability_table(steps, 2).iloc[0]
    assert at_2["stability"] == pytest.approx(1.0) and at_2["runs"] == 3
    at_3 = st.stability_table(steps, 3).iloc[0]
    Z = np.zeros((3, 6))
    for i, order in enumerate([[0, 1, 2], [0, 1, 3], [1, 0, 4]]):
        Z[i, order] = 1
    assert at_3["stability"] == pytest.approx(_authors_reference(Z)[0])
    too_far = st.stability_table(steps, 4).iloc[0]
    assert np.isnan(too_far["stability"]) and "0 run(s) reach k = 4" in too_far["reason"]


# ---------------------------------------------------------------------------------------------
# The config section and the workflow rule
# ---------------------------------------------------------------------------------------------
def test_statistics_section_names_its_key_when_wrong():
    main = {"methods": ["greedy_rls", "random"]}
    with pytest.raises(ConfigError, match="main.statistics.reference"):
        main_statistics.check({**main, "statistics": {"reference": "ffs", "operating_points": {}}})
    section = {"reference": "random", "operating_points": {"loo_k": True, "auc": False}}
    with pytest.raises(ConfigError, match="main.statistics.stability_k"):
        main_statistics.check({**main, "statistics": section})
    assert main_statistics.check(main) == {}
    assert main_statistics.outputs({}) == {}


def _snakemake(workdir, configfile, *targets):
    cmd = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--cores", "2"]
    cmd += [*targets, "--directory", str(workdir), "--configfile", str(configfile)]
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=900)


@pytest.mark.slow
def test_workflow_writes_the_statistics_of_a_tiny_run(tmp_path):
    config = yaml.safe_load((REPO / "config" / "examples" / "statistics.yaml").read_text())
    config["run_name"] = "stats"
    config["main"].update(datasets=["breast_cancer", "wine", "synth_small"], k_max=4)
    config["main"]["report_k"] = [1, 2, 4]
    config["main"]["statistics"]["bayes_samples"] = 2000
    configfile = tmp_path / "stats.yaml"
    configfile.write_text(yaml.safe_dump(config))
    proc = _snakemake(tmp_path, configfile, "main_all")
    assert proc.returncode == 0, proc.stderr[-4000:]
    run = tmp_path / "results" / "runs" / "stats" / "main"
    out = run / "tables" / "statistics"
    points = ["fixed_k4", "loo_k", "auc"]
    friedman = pd.read_csv(out / "friedman.csv")
    assert list(friedman["operating_point"]) == points
    assert (friedman["n_datasets"] == 3).all() and (friedman["n_methods"] == 3).all()
    ranks = pd.read_csv(out / "ranks.csv")
    # each point's ranks of 3 methods sum to 1 + 2 + 3
    assert ranks.groupby("operating_point")["average_rank"].sum().to_list() == [6.0] * 3
    wilcoxon = pd.read_csv(out / "wilcoxon.csv")
    assert set(wilcoxon["method"]) == {"fisher_score", "random"}
    bayes = pd.read_csv(out / "bayes.csv")
    assert np.allclose(bayes[["p_left", "p_rope", "p_right"]].sum(axis=1), 1.0)
    # the scores are the step table's, recomputed here independently at k = 4
    steps = pd.read_csv(run / "tables" / "steps.csv")
    at_4 = steps[(steps["k"] == 4) & (steps["status"] == "ok")]
    expected = at_4.groupby(["dataset", "method"])["test_accuracy"].mean()
    scores = pd.read_csv(out / "scores.csv").query("operating_point == 'fixed_k4'")
    got = scores.set_index(["dataset", "method"])["score"]
    pd.testing.assert_series_equal(got.sort_index(), expected.sort_index(), check_names=False)
    stability = pd.read_csv(out / "stability.csv")
    assert (stability["k"] == 4).all() and stability["stability"].between(-1, 1).all()
    assert "Stability of the selected sets" in (out / "summary.md").read_text()
    for point in points:
        for suffix in (".png", ".pdf"):
            assert (run / "figures" / "statistics" / f"cd_{point}{suffix}").stat().st_size > 0


# ---------------------------------------------------------------------------------------------
# by_task: classification and regression compared apart; R² for regression
# ---------------------------------------------------------------------------------------------
def test_r2_from_mse_is_scikit_learns_r2_on_the_split():
    from sklearn.metrics import r2_score

    from rlsbench.benchmark.protocol import r2_from_mse, scores

    rng = np.random.default_rng(0)
    y = rng.normal(3.0, 2.0, size=40)
    decision = y[None] + rng.normal(size=(3, 40)) * np.array([[0.1], [1.0], [3.0]])
    _, mse = scores(decision, y, "regression")
    expected = [r2_score(y, d) for d in decision]
    np.testing.assert_allclose(r2_from_mse(mse, y, "regression"), expected, rtol=1e-12)
    assert np.isnan(r2_from_mse(mse, y, "binary")).all()
    assert np.isnan(r2_from_mse(mse, np.ones(40), "regression")).all()


def _mixed_steps():
    """Two classification and three regression datasets; `clf_only` has no regression run,
    `good` beats `bad` everywhere (accuracy, R², and the LOO estimates agree)."""
    rows = []
    datasets = {"c1": "binary", "c2": "multiclass", "r1": "regression", "r2": "regression"}
    datasets["r3"] = "regression"
    quality = {"good": 0.9, "bad": 0.6, "clf_only": 0.75}
    for dataset, task in datasets.items():
        for method, q in quality.items():
            if task == "regression" and method == "clf_only":
                rows.append((dataset, task, method, 0, 0, 0, "skipped", *[np.nan] * 5, 0))
                continue
            for fold in range(3):
                for k in (1, 2, 3):
                    acc = q - 0.01 * k + 0.001 * fold if task != "regression" else np.nan
                    r2 = q - 0.01 * k + 0.001 * fold if task == "regression" else np.nan
                    mse = 1.0 - q + 0.01 * k
                    loo_acc = acc if task != "regression" else np.nan
                    rows.append(
                        (dataset, task, method, fold, 0, k, "ok", acc, r2, mse, loo_acc, mse, k)
                    )
    columns = ["dataset", "task", "method", "fold", "seed", "k", "status", "test_accuracy"]
    columns += ["test_r2", "test_mse", "loo_accuracy", "loo_mse", "feature"]
    frame = pd.DataFrame(rows, columns=columns)
    return frame.assign(n_features=5, reason="")


def test_by_task_compares_classification_on_accuracy_and_regression_on_r2(tmp_path):
    steps_csv = tmp_path / "steps.csv"
    _mixed_steps().to_csv(steps_csv, index=False)
    section = {
        "reference": "good",
        "operating_points": {"fixed_k": 1, "loo_k": True, "auc": False},
        "alpha": 0.05,
        "rope": 0.01,
        "bayes_samples": 2000,
        "seed": 0,
        "by_task": True,
    }
    assert main_statistics.check({"methods": ["good", "bad", "clf_only"], "statistics": section})
    files = main_statistics.outputs(section)
    stems = [Path(p).stem for p in files["cd"]]
    assert stems == [
        "cd_classification_fixed_k1",
        "cd_classification_loo_k",
        "cd_regression_fixed_k1",
        "cd_regression_loo_k",
    ]
    tables = {name: str(tmp_path / f"{name}.csv") for name in main_statistics.TABLES}
    cd = [str(tmp_path / Path(p).name) for p in files["cd"]]
    main_statistics.statistics_job(
        str(steps_csv), str(tmp_path / "summary.md"), cd, settings=section, **tables
    )
    ranks = pd.read_csv(tables["ranks"])
    classification = ranks.query("group == 'classification' and operating_point == 'fixed_k1'")
    assert classification.set_index("method")["average_rank"].to_dict() == {
        "good": 1.0,
        "clf_only": 2.0,
        "bad": 3.0,
    }
    # regression: the classification-only method leaves the comparison, no dataset does
    regression = ranks.query("group == 'regression' and operating_point == 'loo_k'")
    assert regression.set_index("method")["average_rank"].to_dict() == {"good": 1.0, "bad": 2.0}
    assert (regression["n_datasets"] == 3).all()
    scores = pd.read_csv(tables["scores"]).query("group == 'regression'")
    # loo_k picks k = 1 (smallest LOO MSE): the R² there, mean over 3 folds
    at = scores.query("operating_point == 'loo_k' and method == 'good' and dataset == 'r1'")
    assert at["score"].item() == pytest.approx(0.9 - 0.01 + 0.001)
    friedman = pd.read_csv(tables["friedman"])
    assert set(friedman["group"]) == {"classification", "regression"}
    assert "regression: loo_k" in (tmp_path / "summary.md").read_text()
    # the mean stability over the comparison's datasets beside the ranks (feature = k: every
    # run selects the same sets, index 1)
    assert ranks["mean_stability"].dropna().eq(1.0).all()
    for png in cd:
        assert Path(png).stat().st_size > 0


def test_regression_comparison_on_an_old_step_table_names_the_missing_column():
    old = _mixed_steps().drop(columns="test_r2")
    with pytest.raises(KeyError, match="test_r2"):
        main_statistics.group_steps(old, ("regression",))


def test_stability_of_a_method_without_nested_subsets_reads_each_steps_subset():
    rows = []
    for fold, subsets in enumerate([["3", "1 2"], ["3", "2 1"], ["0", "1 2"]]):
        for k, subset in enumerate(subsets, start=1):
            rows.append(("d", "best", fold, 0, k, int(subset.split()[-1]), subset))
    columns = ["dataset", "method", "fold", "seed", "k", "feature", "subset"]
    steps = pd.DataFrame(rows, columns=columns).assign(status="ok", n_features=4)
    # at k = 2 every run has {1, 2}, though its step-2 `feature` differs and its k = 1 pick
    # (not a prefix) is 3 or 0
    assert st.stability_table(steps, 2).iloc[0]["stability"] == pytest.approx(1.0)
