"""The ledger on the committed results (results/paper): a row for every transcribed cell, series,
item and claim, a verdict and reason for each, the committed fidelity files up to date; on an
empty tree every row is not run or not public; the command line."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from rlsbench.studies.fidelity import (
    LEDGER_COLUMNS,
    OUTPUTS,
    VERDICTS,
    build_ledger,
    items,
    ledger_outputs,
    load_claims,
    load_reported,
    part_files,
    summarize,
)
from rlsbench.studies.fidelity.__main__ import main
from rlsbench.studies.fidelity.transcription import KEY

ITEMS = items()
PART_FILES = part_files()

REPO = Path(__file__).resolve().parents[3]
PAPER = REPO / "results" / "paper"


@pytest.fixture(scope="module")
def ledger():
    return build_ledger(PAPER)


def test_ledger_columns(ledger):
    assert tuple(ledger.columns) == LEDGER_COLUMNS


def test_every_transcribed_row_is_in_the_ledger_once(ledger):
    reported = load_reported()
    rows = ledger[ledger["level"].isin(["cell", "series"])]
    assert len(rows) == len(reported)
    keys = list(KEY)
    merged = reported[keys].merge(rows[keys], on=keys, how="outer", indicator=True)
    assert (merged["_merge"] == "both").all()


def test_every_item_has_a_row_with_its_claims(ledger):
    items = ledger[ledger["level"] == "item"]
    assert set(zip(items["paper"], items["item"])) == {
        (paper, item) for paper, names in ITEMS.items() for item in names
    }
    assert len(items) == sum(len(v) for v in ITEMS.values())


def test_every_claim_has_at_least_one_row(ledger):
    claims = ledger[ledger["level"] == "claim"]
    assert set(claims["claim_id"]) == set(load_claims()["claim_id"])


def test_every_row_has_a_verdict_and_a_reason(ledger):
    assert set(ledger["verdict"]) <= set(VERDICTS)
    assert (ledger["reason"] != "").all()


def test_the_committed_results_reach_every_part(ledger):
    """results/paper holds all five parts: no part is wholly `not run`."""
    cells = ledger[ledger["level"] == "cell"]
    for paper in ITEMS:
        ran = cells[(cells["paper"] == paper) & cells["ours_value"].notna()]
        assert len(ran) > 0, paper


def test_not_public_items_stay_in_the_ledger(ledger):
    items = ledger[ledger["level"] == "item"].set_index(["paper", "item"])["verdict"]
    for key in [("buteneers", "Table 1"), ("buteneers", "Table 4"), ("ramona", "Table III")]:
        assert items[key] == "not public"


def test_match_rows_are_within_their_tolerance(ledger):
    rows = ledger[(ledger["verdict"] == "match") & ledger["tolerance"].notna()]
    rows = rows[rows["unit"] != "1"]  # condition numbers: tolerance on log10
    assert (rows["difference"].abs() <= rows["tolerance"] + 1e-12).all()


@pytest.fixture(scope="module")
def outputs():
    return ledger_outputs(PAPER)


@pytest.mark.parametrize("name", OUTPUTS)
def test_committed_fidelity_files_are_what_the_code_computes(outputs, name):
    """results/paper/fidelity* are regenerated from the committed results (with their variants'
    columns), never edited."""
    committed = PAPER / name
    ledger, summary, markdown = outputs
    if name.endswith(".md"):
        # the line naming the tree differs when fidelity_publish copied a run's summary
        def body(text):
            return [line for line in text.splitlines() if not line.startswith("Computed by")]

        assert body(committed.read_text()) == body(markdown)
        return
    frame = ledger if name == "fidelity.csv" else summary
    expected = pd.read_csv(committed, keep_default_na=False)
    got = pd.read_csv(pd.io.common.StringIO(frame.to_csv(index=False)), keep_default_na=False)
    pd.testing.assert_frame_equal(got, expected)


def test_an_empty_tree_gives_only_not_run_and_not_public(tmp_path):
    ledger = build_ledger(tmp_path)
    rows = ledger[ledger["level"] != "item"]
    assert set(rows["verdict"]) == {"not run", "not public"}
    public = rows[rows["level"].isin(["cell", "series"])]
    assert (public[public["verdict"] == "not public"]["ours"] == "").all()


def test_only_limits_the_tables_read(tmp_path):
    main_only = [PAPER / "main" / rel for rel in PART_FILES["main"]]
    ledger = build_ledger(PAPER, only=[str(p) for p in main_only])
    cells = ledger[ledger["level"] == "cell"]
    assert cells[cells["paper"] == "sunyao"]["verdict"].eq("not run").all()
    assert (cells[cells["paper"] == "pahikkala"]["ours_value"].notna()).any()


def test_summary_counts_add_up(ledger):
    summary = summarize(ledger)
    for level, frame in summary.groupby("level"):
        total = frame[frame["paper"] == "all"].iloc[0]
        assert total["total"] == (ledger["level"] == level).sum()
        assert total[list(VERDICTS)].sum() == total["total"]


def test_whose_is_given_on_contradicts_rows_only_and_the_classes_add_up(ledger):
    from rlsbench.studies.fidelity.investigations import CLASSES

    contradicts = ledger["verdict"] == "contradicts"
    assert ledger.loc[contradicts, "whose"].isin(list(CLASSES)).all()
    assert (ledger.loc[~contradicts, "whose"] == "").all()
    summary = summarize(ledger)
    classes = [f"contradicts: {c}" for c in CLASSES]
    assert (summary[classes].sum(axis=1) == summary["contradicts"]).all()


def test_command_line_writes_the_three_files(tmp_path, capsys):
    assert main([str(PAPER), "--out", str(tmp_path)]) == 0
    for name in OUTPUTS:
        assert (tmp_path / name).is_file()
    assert "items:" in capsys.readouterr().out


def test_command_line_names_a_missing_tree(tmp_path):
    with pytest.raises(SystemExit):
        main([str(tmp_path / "nope")])
