"""The protocol investigation of the main part on hand-made run trees."""

from __future__ import annotations

from pathlib import Path

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
