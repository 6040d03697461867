"""The isolating runs of the `ramona` part (issue 17), on tiny cases."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from threadpoolctl import threadpool_limits

from rlsbench.benchmark.config import ConfigError
from rlsbench.benchmark.datasets.prepare import Dataset, save_prepared
from rlsbench.benchmark.investigate import Context, load_section, run
from rlsbench.numerics.kernel.alignment import encode_labels
from rlsbench.numerics.kernel.selectors import fisher_direction
from rlsbench.numerics.kernel.wrappers import enclosing_ball
from rlsbench.studies.ramona import investigations as inv

#: The grids of the ramona investigations (the tests shrink them with overrides).
GRIDS = Path(__file__).resolve().parents[3] / "config" / "investigations" / "ramona.yaml"


@pytest.fixture(autouse=True)
def _one_blas_thread():
    with threadpool_limits(limits=1):
        yield


def _dataset(name, X, y, task):
    y = np.where(y > 0, 1.0, -1.0) if task == "binary" else y.astype(np.int64)
    names = [f"x{i}" for i in range(X.shape[1])]
    return Dataset(name=name, X=X, y=y, task=task, feature_names=names)


@pytest.fixture()
def tiny(tmp_path):
    """A config whose experiments have the paper run's names, on small synthetic data."""
    rng = np.random.default_rng(0)
    y = np.repeat(np.arange(3), 40)
    X = rng.normal(size=(120, 6))
    X[:, 1] += y
    save_prepared(_dataset("digits3", X, y, "multiclass"), tmp_path / "digits3.npz")
    y2 = np.repeat([0, 1], 40)
    X2 = rng.normal(size=(80, 5))
    X2[:, 0] += 2 * y2
    save_prepared(_dataset("two", X2, y2, "binary"), tmp_path / "two.npz")
    section = {
        "realdata": {
            "methods": ["fisher", "sas"],
            "n_repeats": 2,
            "experiments": {
                "table2_usps": {
                    "dataset": "digits3",
                    "kernels": ["rbf"],
                    "train_per_class": 20,
                    "n_train": 60,
                    "pools": {"train": [0, 90], "test": [90, 120]},
                    "standardize": False,
                    "n_selected": [1, 2],
                    "methods": ["fisher", "sas", "scss"],
                },
                "table6_ionosphere": {
                    "dataset": "two",
                    "kernels": ["rbf"],
                    "n_train": 0.7,
                    "n_selected": [1, 3],
                },
                "fig3_ionosphere": {
                    "dataset": "two",
                    "kernels": ["linear"],
                    "n_train": 50,
                    "n_test": 30,
                    "n_selected": [1, 2],
                    "methods": ["fisher", "sas", "svm"],
                },
            },
        },
        "cputime": {"fixed": 8, "N": [10, 20], "D": [4, 8]},
    }
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"ramona": section}))
    return {"paper_config": str(config), "data": str(tmp_path), "out": str(tmp_path / "out")}


def _run(tiny, name, **overrides):
    """``rlsbench investigate ramona NAME`` on the tiny config; the rows it wrote."""
    run("ramona", name, config=GRIDS, overrides=overrides, **tiny)
    return pd.read_csv(Path(tiny["out"]) / f"{name}.csv")


def _context(tiny, name, **overrides):
    section = load_section(GRIDS, name, inv.INVESTIGATIONS[name].keys, overrides)
    paths = {k: Path(v) for k, v in tiny.items()}
    return Context("ramona", name, section, GRIDS, command="cmd", **paths)


def test_tuned_epsilon_picks_the_lowest_validation_error_from_the_grid():
    rng = np.random.default_rng(1)
    y = np.repeat([0, 1], 30)
    X = rng.normal(size=(60, 5))
    X[:, 2] += 2 * y
    eps, scores = inv.tuned_epsilon(X, y, "rbf", [1, 2], standardize=True, epsilons=(0.01, 1.0))
    assert set(scores) == {0.01, 1.0} and eps == min(scores, key=lambda e: (scores[e], e))
    assert all(0.0 <= v <= 1.0 for v in scores.values())


def test_scss_epsilon_runs_every_variant_on_the_same_splits(tiny):
    frame = _run(tiny, "scss_epsilon", repeats=1, epsilons=[0.1, 10.0])
    variants = set(zip(frame["variant"], frame["stopping"]))
    assert ("fisher", "converged") in variants and ("scss tuned", "10 iterations") in variants
    fixed = frame[frame["variant"] == "scss fixed"]
    assert set(fixed["epsilon"]) == {0.1, 10.0}
    assert set(frame["experiment"]) == {"table2_usps", "table6_ionosphere"}
    # repeats limits the USPS experiment only
    assert frame.groupby("experiment")["repeat"].nunique().to_dict() == {
        "table2_usps": 1,
        "table6_ionosphere": 2,
    }
    text = (Path(tiny["out"]) / "scss_epsilon.md").read_text()
    assert "SCSS below Fisher (claim R18" in text
    assert "`rlsbench investigate ramona scss_epsilon --set" in text
    assert {"git_commit", "config_hash", "seed", "command"} <= set(frame.columns)


def test_usps_bound_compares_default_and_tuned_svms_and_a_wrapper(tiny, monkeypatch):
    def fake_split(exp, y, seed, r, dataset):
        return np.arange(0, 60), np.arange(1100, 1200)

    monkeypatch.setattr(inv, "_split", fake_split)
    # the wrapper validates on 1000 other training-pool samples: enlarge the tiny pool
    rng = np.random.default_rng(2)
    y = np.arange(1200) % 3
    X = rng.normal(size=(1200, 4))
    X[:, 3] += y
    save_prepared(_dataset("digits3", X, y, "multiclass"), Path(tiny["data"]) / "digits3.npz")
    cfg = yaml.safe_load(Path(tiny["paper_config"]).read_text())
    cfg["ramona"]["realdata"]["experiments"]["table2_usps"]["pools"] = {
        "train": [0, 1100],
        "test": [1100, 1200],
    }
    Path(tiny["paper_config"]).write_text(yaml.safe_dump(cfg))
    svm_grid = {"C": [1.0, 10.0], "gamma_factor": [0.3, 1.0]}
    ctx = _context(tiny, "usps_bound", repeats=1, wrapper_steps=2, svm_grid=svm_grid)
    frame, _ = inv.usps_bound(ctx)
    assert set(frame["method"]) == {"fisher", "arom", "wrapper"}
    assert set(frame["svm"]) == {"C = 1/R̄², γ = 1/(S·Var)", "(C, γ) tuned by 3-fold CV"}
    wrapper = frame[frame["method"] == "wrapper"].sort_values("n_selected")
    assert wrapper["n_selected"].tolist() == [1, 2]
    # the informative feature is the wrapper's first pick
    assert wrapper["feature"].iloc[0] == 3
    assert "paper (Table II)" in inv._usps_bound_text(frame, "`cmd`")


def test_r2w2_cost_splits_an_evaluation_into_its_phases(tiny):
    frame = _run(tiny, "r2w2_cost")
    assert sorted(zip(frame["axis"], frame["N"], frame["D"])) == [
        ("D", 8, 4),
        ("D", 8, 8),
        ("N", 10, 8),
        ("N", 20, 8),
    ]
    phases = frame[["gram_seconds", "ball_seconds", "svm_seconds", "grad_seconds"]]
    np.testing.assert_allclose(phases.sum(axis=1), frame["evaluation_seconds"])
    assert (frame["frank_wolfe_iterations"] >= 1).all() and (frame["support_vectors"] >= 2).all()
    # the general QP solver finds the same radius as our Frank-Wolfe solver
    assert (frame["dense_qp_radius_gap"] < 1e-4).all()


def test_cputime_n_times_the_part_sweep_on_the_grids_sizes(tiny):
    frame = _run(tiny, "cputime_n", N=[10, 12, 16], methods=["sas", "kfds"], n_repeats=2)
    # the part's fixed D and iterations; the grid's sizes, methods and repetitions
    assert sorted(zip(frame["N"], frame["method"])) == [
        (n, m) for n in (10, 12, 16) for m in ("kfds", "sas")
    ]
    assert (frame["D"] == 8).all() and (frame["repeats"] == 2).all()
    assert (frame["axis"] == "N").all()
    assert (frame["seconds"] >= frame["seconds_min"]).all() and (frame["seconds_min"] > 0).all()
    text = (Path(tiny["out"]) / "cputime_n.md").read_text()
    assert "Fitted growth exponents in N: kfds" in text and "sas" in text


def test_exponent_claims_read_cputime_n_where_it_has_the_methods(tmp_path):
    """R30 and R31 fit on the investigation's sizes where it ran, else on the part's rows."""
    from rlsbench.studies.fidelity.ours import RunTree
    from rlsbench.studies.ramona.ledger import CHECKS

    def rows(sizes, exponents):
        return pd.DataFrame(
            [
                dict(axis="N", N=n, D=30, method=m, seconds=1e-6 * n**e, seconds_min=1e-6)
                for n in sizes
                for m, e in exponents.items()
            ]
        )

    part = tmp_path / "ramona"
    (part / "cputime").mkdir(parents=True)
    rows([5, 200, 500, 1000], {"r2w2": 2.0, "sas": 1.0, "kfds": 1.5}).to_csv(
        part / "cputime" / "rows.csv", index=False
    )
    tree = RunTree(tmp_path)
    r31 = {o.scope: o for o in CHECKS["R31"](tree)}
    assert "3 sizes" in r31["r2w2"].ours
    (part / "investigations").mkdir()
    sizes = [200, 300, 400, 500, 600, 800, 1000]
    rows(sizes, {"r2w2": 2.0, "sas": 2.0, "kfds": 1.0}).to_csv(
        part / "investigations" / "cputime_n.csv", index=False
    )
    tree = RunTree(tmp_path)
    r31 = {o.scope: o for o in CHECKS["R31"](tree)}
    assert "7 sizes" in r31["sas"].ours and r31["sas"].holds is True
    (r30,) = CHECKS["R30"](tree)
    # r2w2 grows as fast as sas (both N^2) and faster than kfds: not above both
    assert "on 7 sizes" in r30.ours and r30.holds is not True


def test_dense_qp_and_frank_wolfe_agree_on_the_enclosing_ball():
    rng = np.random.default_rng(4)
    Z = rng.normal(size=(25, 3))
    K = Z @ Z.T
    _, r2_qp = inv.dense_qp_radius_seconds(K)
    r2, _, n_iter = enclosing_ball(K, return_n_iter=True)
    assert r2_qp == pytest.approx(r2, rel=1e-5) and n_iter >= 1


def test_primal_fisher_direction_is_the_dual_one():
    rng = np.random.default_rng(5)
    y = np.repeat([0, 1], 20)
    Z = rng.normal(size=(40, 6)) + y[:, None]
    codes, _, counts = encode_labels(y)
    primal = inv.fisher_direction_primal(Z, codes, 1e-9)
    dual = fisher_direction(Z, codes, counts, 1e-9)
    # D < n: both solve the same (unregularised) discriminant, up to scale
    cos = primal @ dual / np.linalg.norm(primal) / np.linalg.norm(dual)
    assert cos == pytest.approx(1.0, abs=1e-6)


def test_kfds_primal_times_both_forms_and_arom(tiny):
    frame = _run(tiny, "kfds_primal")
    assert set(frame["form"]) == {"dual", "primal", "arom"} and set(frame["D"]) == {4, 8}
    assert (frame["seconds"] > 0).all()
    assert "Growth exponents in D" in (Path(tiny["out"]) / "kfds_primal.md").read_text()


def test_seeds_repeat_an_experiment_with_other_splits(tiny, monkeypatch):
    ctx = _context(tiny, "seeds", seeds=[0, 1])
    frame, _ = inv.seeds(ctx)
    assert set(frame["split_seed"]) == {0, 1}
    assert set(frame["method"]) == {"fisher", "sas", "svm"}
    a = frame[frame["split_seed"] == 0].set_index(["method", "repeat", "n_selected"])["error"]
    b = frame[frame["split_seed"] == 1].set_index(["method", "repeat", "n_selected"])["error"]
    assert not a.equals(b)
    assert "lowest mean error" in inv._seeds_text(frame, "`cmd`")
    # written and read back, the seeds survive the provenance columns (which hold "seed")
    Path(tiny["out"]).mkdir()
    ctx.write_csv("seeds.csv", frame, {}, 0)
    back = pd.read_csv(Path(tiny["out"]) / "seeds.csv")
    assert set(back["split_seed"]) == {0, 1}


def test_paper_self_check_reproduces_the_papers_own_orderings(tmp_path):
    frame, _ = inv.paper_self_check()
    r25 = frame[frame["check"] == "R25"].set_index(["dataset", "setting"])
    # Table VI: GMKL 86.3 against SAS's 88.6 on Parkinsons at S = 3
    assert not r25.loc[("parkinsons", "kernel=rbf;S=3"), "gmkl_ahead"]
    assert r25.loc[("sonar", "kernel=rbf;S=10"), "gmkl_ahead"]
    t7 = frame[(frame["check"] == "Table VII") & (frame["numbers"] == "the paper's")]
    t7 = t7.set_index(["method", "setting"])["value"]
    # 29 rows of Tables IV-VI: SAS first in more than a third, as the paper's 37.9 %
    assert t7[("sas", "rank_first_pct")] > 100 / 3
    assert t7[("kfds", "rank_first_pct")] < t7[("sas", "rank_first_pct")]
    r24 = frame[frame["check"] == "R24"].astype({"below": bool})
    # the paper's own Table V: SCSS is not below Wang's KCS at S = 50 (14.7 against 11.5)
    at50 = r24[(r24["setting"] == "kernel=rbf;S=50") & (r24["method"] == "scss")]
    assert not at50[at50["reference"] == "kcs_wang"]["below"].iloc[0]


def test_stopping_runs_the_iterative_methods_both_ways_on_the_same_splits(tiny):
    frame, _ = inv.stopping(_context(tiny, "stopping", experiments=["fig3_ionosphere"], n_iter=2))
    assert set(frame["method"]) == {"sas"}
    assert set(frame["stopping"]) == {"converged", "2 iterations"}
    a = frame[frame["stopping"] == "converged"]
    b = frame[frame["stopping"] == "2 iterations"]
    assert a["n_train"].tolist() == b["n_train"].tolist()
    others, _ = inv.seeds(_context(tiny, "seeds", seeds=[0]))
    text = inv._stopping_text(frame, "`cmd`", paper_rows=others.drop(columns="split_seed"))
    assert "best proposed below best existing at" in text
    assert "SAS significantly below every other method at" in text


def test_unstandardized_changes_only_the_standardisation(tiny):
    frame, used = inv.unstandardized(_context(tiny, "unstandardized"))
    assert used["experiment"]["standardize"] is False and set(frame["split_seed"]) == {0}
    assert set(frame["overrides"]) == {"standardize=False"}
    assert "with one setting changed (standardize=False)" in inv._seeds_text(frame, "`cmd`")


def test_n_excluded_takes_a_fraction_of_the_remaining_or_a_count():
    assert [inv.n_excluded(n, 0.1) for n in (57, 19, 9, 2)] == [5, 1, 1, 1]
    assert inv.n_excluded(10, 3) == 3 and inv.n_excluded(3, 5) == 2
    for bad in (0, 0.0, -1, 1.5, "a", True):
        with pytest.raises(ValueError, match="drop"):
            inv.n_excluded(10, bad)


def test_exclusion_order_is_a_permutation_with_the_planted_feature_first():
    rng = np.random.default_rng(1)
    y = np.repeat([0, 1], 30)
    X = rng.normal(size=(60, 7))
    X[:, 4] += 3.0 * y
    ranker = inv.make_ranker("sas", "linear")
    order, n_rounds = inv.exclusion_order(ranker, X, y, drop=0.3)
    assert sorted(order.tolist()) == list(range(7)) and order[0] == 4
    # 7 -> 5 -> 4 -> 3 -> 2 -> 1 features: one fit per round
    assert n_rounds == 5
    one_by_one, n_rounds = inv.exclusion_order(ranker, X, y, drop=1)
    assert order[0] == one_by_one[0] and n_rounds == 6


@pytest.mark.parametrize("options", [None, {"sas": {"n_iter": 2}}])
def test_exclusion_ranks_both_ways_on_the_paper_runs_splits_and_judges_the_claim(tiny, options):
    # ``options``: the part's ranker options (a fixed iteration count) reach both selections,
    # so that 'ranked once' is the paper run's ranking
    config = yaml.safe_load(Path(tiny["paper_config"]).read_text())
    if options:
        config["ramona"]["method_options"] = options
    fig3 = config["ramona"]["realdata"]["experiments"]["fig3_ionosphere"]
    config["ramona"]["realdata"]["experiments"]["fig6_parkinsons"] = {
        **fig3, "kernels": ["poly"], "n_selected": [1, 2, 5], "methods": ["fisher", "sas", "svm"]
    }  # fmt: skip
    Path(tiny["paper_config"]).write_text(yaml.safe_dump(config))
    frame, used = inv.exclusion(
        _context(tiny, "exclusion", experiments=["fig6_parkinsons"], methods=["sas"], limited=[])
    )
    assert set(frame["selection"]) == {"ranked once", "exclusion"}
    assert used["drop"] == 0.1 and set(frame["repeat"]) == {0, 1}
    paper, _ = inv.seeds(
        _context(tiny, "seeds", experiment="fig6_parkinsons", kernel="poly", seeds=[0])
    )
    once = frame[frame["selection"] == "ranked once"].merge(
        paper[paper["method"] == "sas"], on=["repeat", "n_selected"], suffixes=("", "_paper")
    )
    assert len(once) == 6 and (once["error"] == once["error_paper"]).all()
    text = inv._exclusion_text(frame, "`cmd`", paper_rows=paper.drop(columns="split_seed"))
    assert "equals the paper run's error in 6 of 6" in text
    assert "| fig6_parkinsons | R17" in text


@pytest.mark.parametrize(
    ("key", "value"), [("drop", 0), ("methods", ["fisher"]), ("repeats", 0), ("limited", ["x"])]
)
def test_exclusion_names_a_bad_key(tiny, key, value):
    with pytest.raises(ConfigError, match=f"exclusion.{key}"):
        inv.exclusion(_context(tiny, "exclusion", **{key: value}))


def test_part_svm_is_the_paper_runs_and_a_one_point_grid_changes_nothing():
    rng = np.random.default_rng(3)
    y = np.repeat([0, 1], 30)
    X = rng.normal(size=(60, 4))
    X[:, 0] += 1.5 * y
    tr, te = np.arange(0, 60, 2), np.arange(1, 60, 2)
    for kernel in ("linear", "rbf", "poly"):
        one = {"C_factor": [1.0], "gamma_factor": [1.0]}
        part, tuned, chosen = inv.part_and_tuned_svm_errors(
            X[tr], y[tr], X[te], y[te], kernel, one, cv=3
        )
        assert part == inv.svm_error(X[tr], y[tr], X[te], y[te], kernel)
        assert tuned == part and chosen["C_factor"] == 1.0
        wide = {"C_factor": [0.1, 10.0], "gamma_factor": [0.5, 2.0]}
        _, _, chosen = inv.part_and_tuned_svm_errors(X[tr], y[tr], X[te], y[te], kernel, wide, cv=3)
        assert chosen["C_factor"] in (0.1, 10.0)
        assert np.isnan(chosen["gamma_factor"]) == (kernel == "linear")


def test_svm_grid_checks_the_claims_under_both_svms(tiny):
    cfg = yaml.safe_load(Path(tiny["paper_config"]).read_text())
    experiments = cfg["ramona"]["realdata"]["experiments"]
    common = {"dataset": "two", "n_train": 50, "n_test": 30, "n_selected": [1, 2, 5],
              "methods": ["fisher", "sas", "svm"]}  # fmt: skip
    experiments["fig6_parkinsons"] = {**common, "kernels": ["poly"]}
    experiments["fig2_spambase"] = {**common, "kernels": ["linear", "rbf"]}
    Path(tiny["paper_config"]).write_text(yaml.safe_dump(cfg))
    grid = {"C_factor": [0.1, 1.0], "gamma_factor": [1.0]}
    frame = _run(tiny, "svm_grid", methods=["fisher", "sas", "svm"], svm_grid=grid, cv=2)
    assert set(frame["svm"]) == {"part", "tuned"}
    # the paper run's splits: the part's SVM gives realdata_rows' errors
    part = frame[(frame["svm"] == "part") & (frame["experiment"] == "fig6_parkinsons")]
    ref = inv._seeds_task("fig6_parkinsons", {**common, "n_repeats": 2}, "poly", "sas",
                          *inv._load(tiny["data"], "two"), 0)  # fmt: skip
    ref = pd.DataFrame(ref).set_index(["repeat", "n_selected"])["error"]
    mine = part[part["method"] == "sas"].set_index(["repeat", "n_selected"])["error"]
    assert mine.sort_index().tolist() == ref.sort_index().tolist()
    text = (Path(tiny["out"]) / "svm_grid.md").read_text()
    assert "| tuned | R17" in text and "| part  | R5" in text
    # the all-feature SVM (S = D) is there so that the ledger's rules leave S = D out
    assert set(frame[frame["method"] == "svm"]["n_selected"]) == {5}
    with pytest.raises(ConfigError, match="svm_grid.cases"):
        _run(tiny, "svm_grid", cases=[["fig6_parkinsons", "rbf"]])


@pytest.mark.parametrize("task", ["_stopping_task", "_seeds_task"])
def test_investigation_tasks_run_the_experiments_own_protocol(monkeypatch, task):
    # an investigation re-running an experiment must use its multiclass scheme, pools and
    # per-class sizes (the stopping run once fell back to the joint USPS protocol)
    seen = {}
    monkeypatch.setattr(inv, "realdata_rows", lambda X, y, **kw: seen.update(kw) or [])
    exp = {
        "dataset": "usps",
        "n_train": 1000,
        "n_test": 2007,
        "train_per_class": 100,
        "pools": {"train": [0, 7291], "test": "rest"},
        "n_repeats": 30,
        "standardize": False,
        "multiclass": "pairwise",
        "n_selected": [5, 10],
    }
    args = ("table2_usps", exp, "rbf", "sas", np.zeros((3, 2)), np.zeros(3), 0)
    getattr(inv, task)(*args, *((10,) if task == "_stopping_task" else ()))
    assert seen["multiclass"] == "pairwise"
    assert seen["pools"] == {"train": [0, 7291], "test": "rest"}
    assert (seen["train_per_class"], seen["n_repeats"], seen["standardize"]) == (100, 30, False)


def test_stopping_summary_of_table2_counts_the_s_where_sas_and_scss_beat_fisher():
    # claim R18 on USPS: SAS and SCSS below Fisher at most S, under each stopping rule
    rows = []
    errors = {
        ("sas", "converged"): [0.10, 0.30],
        ("scss", "converged"): [0.30, 0.30],
        ("sas", "10 iterations"): [0.10, 0.10],
        ("scss", "10 iterations"): [0.10, 0.30],
    }
    for (method, stopping), errs in errors.items():
        for S, e in zip([5, 10], errs, strict=True):
            rows.append(dict(experiment="table2_usps", kernel="rbf", method=method,
                             stopping=stopping, n_selected=S, repeat=0, error=e))  # fmt: skip
    paper = pd.DataFrame(
        [
            dict(
                experiment="table2_usps", kernel="rbf", method=m, n_selected=S, repeat=0, error=0.2
            )
            for m in ("fisher", "arom")
            for S in (5, 10)
        ]  # fmt: skip
    )
    text = inv._stopping_text(pd.DataFrame(rows), "`cmd`", paper_rows=paper)
    assert "converged: SAS below Fisher at 1 of 2 S; SCSS below Fisher at 0 of 2 S." in text
    assert "10 iterations: SAS below Fisher at 2 of 2 S; SCSS below Fisher at 1 of 2 S." in text
    assert "best proposed below best existing" not in text  # R5's reading is Fig. 2's, not here
