"""The protocol investigation of the main part on hand-made run trees."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rlsbench.benchmark.investigate import load_section, run
from rlsbench.studies.main import investigations as inv

GRIDS = Path(__file__).resolve().parents[3] / "config" / "investigations" / "main.yaml"
KEYS = inv.INVESTIGATIONS["protocol"].keys


def _summary(root, acc):
    path = root / "main" / "tables" / "summary.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    row = {k: "" for k in load_section(GRIDS, "protocol", KEYS)["ks"]}
    row.update({"dataset": "german.numer", "method": "greedy_rls", "k=1": acc})
    pd.DataFrame([row, {**row, "method": "random"}]).to_csv(path, index=False)


def _curves(root, greedy, random):
    path = root / "main" / "tables" / "curves.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = []
    for method, accs in (("greedy_rls", greedy), ("random", random)):
        for k, a in enumerate(accs, start=1):
            rows.append(dict(dataset="german.numer", method=method, k=k, runs=10,
                             test_accuracy_mean=a, test_accuracy_sd=0.01))  # fmt: skip
    pd.DataFrame(rows).to_csv(path, index=False)


def test_protocol_table_and_claim_per_variant(tmp_path):
    runs, paper = tmp_path / "runs", tmp_path / "paper"
    _summary(paper, "0.70 ± 0.01")
    _curves(paper, [0.69] + [0.75] * 11, [0.70] * 12)  # random ahead at k = 1: P7 fails
    section = load_section(GRIDS, "protocol", KEYS)
    for i, name in enumerate(v["run"] for v in section["variants"][1:]):
        _summary(runs / name, f"0.6{i} ± 0.01")
        (runs / f"{name}_german").mkdir(parents=True)
        _curves(runs / f"{name}_german", [0.75] * 12, [0.70] * 12)
    out = tmp_path / "out"
    where = {"runs": str(runs), "paper": str(paper)}
    text = run("main", "protocol", config=GRIDS, overrides=where, out=out)
    table = pd.read_csv(tmp_path / "out" / "protocol.csv")
    # rows: (as given, bias 0), (as given, 1), (standardised, 0), (standardised, 1) = the paper run
    assert list(table["k=1"]) == ["0.62 ± 0.01", "0.61 ± 0.01", "0.60 ± 0.01", "0.70 ± 0.01"]
    p7 = pd.read_csv(tmp_path / "out" / "protocol_p7.csv")
    assert list(p7["P7 holds"]) == [False, True, True, True]
    assert "config/investigations/protocol_" in text
    assert "Made by `rlsbench investigate main protocol --set" in text
    # --markdown-only rewrites the same text from the CSVs
    (out / "protocol.md").unlink()
    again = run("main", "protocol", config=GRIDS, overrides=where, out=out, markdown_only=True)
    assert again == text == (out / "protocol.md").read_text()


def test_a_missing_variant_run_names_its_file(tmp_path):
    _summary(tmp_path / "paper", "0.7")
    with pytest.raises(FileNotFoundError, match="protocol_std_nobias"):
        inv.protocol_table(
            tmp_path / "runs", tmp_path / "paper", load_section(GRIDS, "protocol", KEYS)
        )


# --------------------------------------------------------------------------------------- seeds
def _tiny_run(tmp_path):
    """A tiny binary set named german.numer, a paper config with a small main section and a
    grid of two seed triples."""
    import yaml

    from rlsbench.benchmark.datasets.prepare import Dataset, save_prepared

    rng = np.random.default_rng(0)
    y = np.repeat([1.0, -1.0], 30)
    X = rng.normal(size=(60, 6))
    X[:, 0] += 0.8 * y
    data = tmp_path / "data"
    data.mkdir()
    names = [f"x{i}" for i in range(6)]
    save_prepared(
        Dataset(name="german.numer", task="binary", X=X, y=y, feature_names=names),
        data / "german.numer.npz",
    )
    main = dict(
        enabled=True, datasets=["german.numer"], methods=["greedy_rls", "random"], n_folds=3,
        cv_seed=0, random_seeds=[0, 1, 2], alphas=dict(base=2, min_exp=-3, max_exp=3),
        criterion="zero_one", bias=1.0, k_max=None, k_max_per_dataset={},
        memory_budget_mb=6000, time_budget_s=dict(default=900), flops_per_second=2e9,
        threads=1, report_k=[1, 2], standardize=True,
    )  # fmt: skip
    paper = tmp_path / "paper.yaml"
    paper.write_text(yaml.safe_dump({"main": main}))
    grid = tmp_path / "main.yaml"
    seeds = {"dataset": "german.numer", "seed_triples": [[0, 1, 2], [3, 4, 5]]}
    grid.write_text(yaml.safe_dump({"seeds": seeds}))
    return dict(config=grid, paper_config=paper, data=data, out=tmp_path / "out")


def test_seeds_runs_random_selection_per_triple_under_the_paper_protocol(tmp_path):
    from rlsbench.benchmark.investigate import without_provenance
    from rlsbench.studies.fidelity import RunTree
    from rlsbench.studies.main.ledger import CHECKS, p7_gaps

    where = _tiny_run(tmp_path)
    text = run("main", "seeds", **where)
    curves = without_provenance(pd.read_csv(where["out"] / "seeds.csv"))
    claims = without_provenance(pd.read_csv(where["out"] / "seeds_p7.csv"))
    assert list(curves["seeds"].unique()) == ["0 1 2", "3 4 5"]
    by = {s: t.set_index("k") for s, t in curves.groupby("seeds")}
    assert list(by["0 1 2"].index) == [1, 2, 3, 4, 5, 6]
    # greedy RLS draws nothing: one curve over the folds; random selection: folds × 3 seeds
    pd.testing.assert_series_equal(by["0 1 2"]["greedy_mean"], by["3 4 5"]["greedy_mean"])
    assert set(curves["greedy_runs"]) == {3} and set(curves["random_runs"]) == {9}
    assert not np.allclose(by["0 1 2"]["random_mean"], by["3 4 5"]["random_mean"])
    # every k keeps all features at k = 6: both curves meet there
    assert by["0 1 2"].loc[6, "greedy_mean"] == by["0 1 2"].loc[6, "random_mean"]
    gap = by["0 1 2"]["greedy_mean"] - by["0 1 2"]["random_mean"]
    np.testing.assert_allclose(by["0 1 2"]["gap"], gap, atol=1e-6)
    # P7 per triple is the ledger's own reading of the same curves
    for _, row in claims.iterrows():
        t = by[row["seeds"]]
        g, r = (
            t[[f"{m}_mean", f"{m}_sd", f"{m}_runs"]].set_axis(
                ["test_accuracy_mean", "test_accuracy_sd", "runs"], axis=1
            )
            for m in ("greedy", "random")
        )
        assert bool(row["P7 holds"]) == p7_gaps(g, r)["holds"]
    assert "Made by `rlsbench investigate main seeds" in text
    # the ledger's P7 check reads the table where the investigation writes it
    tree = tmp_path / "tree"
    (tree / "main" / "investigations").mkdir(parents=True)
    (where["out"] / "seeds.csv").rename(tree / "main" / "investigations" / "seeds.csv")
    rows = [
        dict(dataset="german.numer", method=m, k=k, runs=3, test_accuracy_mean=0.7,
             test_accuracy_sd=0.01)
        for m in ("greedy_rls", "random") for k in range(1, 7)
    ]  # fmt: skip
    (tree / "main" / "tables").mkdir()
    pd.DataFrame(rows).to_csv(tree / "main" / "tables" / "curves.csv", index=False)
    (p7,) = [o for o in CHECKS["P7"](RunTree(tree)) if o.scope == "german.numer"]
    assert "of 2 seed triples" in p7.ours


def test_seeds_markdown_only_rewrites_the_same_text(tmp_path):
    where = _tiny_run(tmp_path)
    text = run("main", "seeds", overrides={"seed_triples": [[7]]}, **where)
    (where["out"] / "seeds.md").unlink()
    again = run("main", "seeds", overrides={"seed_triples": [[7]]}, markdown_only=True, **where)
    assert again == text == (where["out"] / "seeds.md").read_text()
    assert "--set 'seed_triples=[[7]]'" in text


def test_seeds_without_the_prepared_set_names_the_file(tmp_path):
    where = _tiny_run(tmp_path)
    (where["data"] / "german.numer.npz").unlink()
    with pytest.raises(FileNotFoundError, match="german.numer.npz"):
        run("main", "seeds", **where)
