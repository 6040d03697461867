"""Investigations: each cause found for a contradiction reaches the ledger rows it explains."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from rlsbench.studies.fidelity import build_ledger, items
from rlsbench.studies.fidelity.investigations import (
    CAUSES,
    CLASS_OF_CAUSE,
    CLASSES,
    as_frame,
    attach,
    load_investigations,
    unexplained,
    whose,
)

PAPER = Path(__file__).resolve().parents[3] / "results" / "paper"
ITEMS = items()


def _ledger(rows):
    cols = ["level", "paper", "item", "dataset", "claim_id", "verdict"]
    return pd.DataFrame(rows, columns=cols).fillna("")


LEDGER = _ledger(
    [
        ("item", "buteneers", "Table 5", "", "B3", "contradicts"),
        ("cell", "buteneers", "Table 5", "servo", "", "contradicts"),
        ("cell", "buteneers", "Table 5", "abalone", "", "contradicts"),
        ("cell", "buteneers", "Table 5", "servo", "", "match"),
        ("claim", "buteneers", "Table 3;Table 5", "", "B3", "contradicts"),
        ("claim", "buteneers", "Table 5", "servo", "B2", "contradicts"),
    ]
)


def test_a_cause_reaches_the_contradicting_rows_of_its_scope_only():
    inv = as_frame(
        [
            dict(
                paper="buteneers",
                scope="Table 5",
                dataset="servo",
                cause="data",
                finding="servo encoded otherwise",
                evidence="run A",
            ),
            dict(
                paper="buteneers",
                scope="B3",
                dataset="",
                cause="paper",
                finding="the paper's own tables do not bear it out",
                evidence="run B",
            ),
        ]
    )
    out = attach(LEDGER, inv)
    assert out["cause"].tolist() == [
        "data: servo encoded otherwise",  # the item takes its datasets' causes
        "data: servo encoded otherwise",
        "",  # abalone: no investigation
        "",  # not a contradiction
        "paper: the paper's own tables do not bear it out",
        "",  # B2 has none
    ]
    assert out["evidence"].tolist()[4] == "run B"
    assert unexplained(out)["claim_id"].tolist() == ["B2"]


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (dict(paper="buteneers", scope="Table 9", cause="data"), "neither an item nor a claim"),
        (dict(paper="buteneers", scope="B3", cause="bad luck"), "is not one of"),
        (dict(paper="buteneers", scope="B3", cause="noise", finding=""), "must both be given"),
    ],
)
def test_a_malformed_investigation_is_refused(monkeypatch, row, message):
    from rlsbench.studies.fidelity import investigations

    full = {"dataset": "", "finding": "x", "evidence": "y", **row}
    monkeypatch.setattr(investigations, "read_data", lambda ledger, name, cols: as_frame([full]))
    with pytest.raises(ValueError, match=message):
        investigations.load_investigations()


def test_the_shipped_investigations_load_and_use_known_causes():
    inv = load_investigations()
    assert len(inv) >= 1
    assert set(inv["cause"]) <= set(CAUSES)


@pytest.fixture(scope="module")
def committed_ledger():
    return build_ledger(PAPER)


@pytest.mark.parametrize("paper", sorted(ITEMS))
def test_every_contradicting_item_and_claim_of_the_committed_results_has_a_cause(
    committed_ledger, paper
):
    """Issue 17: each *contradicts* item or claim row of the committed results is chased to a
    cause (a row of investigations.csv naming the run that shows it)."""
    rows = committed_ledger[committed_ledger["paper"] == paper]
    missing = unexplained(rows)
    assert missing.empty, "contradicting without an investigation: " + "; ".join(
        f"{r.level} {r.claim_id or r.item} ({r.row or r.dataset or 'all'})"
        for r in missing.itertuples(index=False)
    )


def test_a_claim_investigation_reaches_the_ledger_row_of_its_scope():
    """The ledger names a claim's scope in ``row``: an investigation restricted to a dataset
    reaches that claim row, not the claim's other scopes."""
    ledger = _ledger(
        [
            ("claim", "sunyao", "Table 1", "", "S1", "contradicts"),
            ("claim", "sunyao", "Table 1", "", "S1", "contradicts"),
        ]
    ).assign(row=["ozone", "abalone"])
    inv = as_frame(
        [
            dict(
                paper="sunyao",
                scope="S1",
                dataset="ozone",
                cause="data",
                finding="a ninth input",
                evidence="run C",
            )
        ]
    )
    out = attach(ledger, inv)
    assert out["cause"].tolist() == ["data: a ninth input", ""]


def test_the_check_sees_a_contradicting_claim_without_a_cause():
    """The test above can fail: a contradicting claim no investigation names is reported."""
    ledger = _ledger([("claim", "sunyao", "Table 1", "ozone", "S1", "contradicts")])
    assert len(unexplained(attach(ledger, as_frame([])))) == 1


# ---------------------------------------------------------------------------------------------
# Whose a contradiction is (issue 28)
# ---------------------------------------------------------------------------------------------
def _investigation(scope, cause, finding="x"):
    return dict(
        paper="buteneers", scope=scope, dataset="", cause=cause, finding=finding, evidence="r"
    )


EXPECTED_CLASS = {
    "paper": "paper disagrees with itself",
    "implementation": "implementation differs",
    "bug": "implementation differs",
    "protocol": "our setting",
    "hyperparameter": "our setting",
    "data": "our setting",
    "wording": "our setting",
    "unexplained": "not borne out",
    "faithful": "not borne out",
    "hardware": "not investigated",  # a hardware finding classes timing rows only (below)
}


def test_every_cause_has_a_class():
    assert set(CLASS_OF_CAUSE) == set(CAUSES)
    assert set(CLASS_OF_CAUSE.values()) <= {*CLASSES, None}


def test_noise_never_classes_a_contradiction_and_shows_on_inconclusive_rows():
    # a contradiction lies beyond the noise by the verdict rules: a noise finding of its scope
    # does not explain it; the same finding is shown on the scope's inconclusive rows
    ledger = _ledger(
        [
            ("claim", "buteneers", "Table 5", "", "B3", "contradicts"),
            ("claim", "buteneers", "Table 5", "", "B3", "inconclusive"),
        ]
    )
    out = attach(ledger, as_frame([_investigation("B3", "noise", finding="ties")]))
    assert out["whose"].tolist() == ["not investigated", ""]
    assert out["cause"].tolist() == ["", "noise: ties"]
    assert whose("contradicts", ["noise"]) == "not investigated"


def test_a_timing_row_is_hardware_whatever_its_item_holds():
    # Buteneers Table 3/5's t_opt cells: times on other hardware, never "not borne out"
    ledger = _ledger([("cell", "buteneers", "Table 5", "", "", "contradicts")] * 2)
    ledger = ledger.assign(compare=["hardware", "value"])
    inv = as_frame([_investigation("Table 5", c, finding=c) for c in ("unexplained", "hardware")])
    out = attach(ledger, inv)
    assert out["whose"].tolist() == ["hardware", "not borne out"]
    assert "hardware: hardware" in out["cause"][0] and "hardware" not in out["cause"][1]


@pytest.mark.parametrize(("cause", "expected"), sorted(EXPECTED_CLASS.items()))
def test_a_contradiction_takes_the_class_of_its_cause(cause, expected):
    ledger = _ledger([("claim", "buteneers", "Table 5", "", "B3", "contradicts")])
    out = attach(ledger, as_frame([_investigation("B3", cause)]))
    assert out["whose"].tolist() == [expected]


@pytest.mark.parametrize(
    ("causes", "expected"),
    [
        (["hyperparameter", "paper"], "paper disagrees with itself"),  # R24
        (["protocol", "noise"], "our setting"),  # R11: noise classes no contradiction
        (["hardware", "noise", "data"], "our setting"),  # Table 5: hardware for timings only
        (["wording", "faithful"], "our setting"),  # a setting the paper states two ways
        (["implementation", "hyperparameter"], "our setting"),
        (["unexplained", "implementation"], "implementation differs"),
        (["hardware", "unexplained"], "not borne out"),  # Table 3's error cells
        (["implementation", "faithful"], "implementation differs"),  # Sun & Yao Table 1
    ],
)
def test_several_causes_give_the_class_first_in_priority(causes, expected):
    ledger = _ledger([("item", "buteneers", "Table 5", "", "", "contradicts")])
    inv = as_frame([_investigation("Table 5", c, finding=c) for c in causes])
    out = attach(ledger, inv)
    assert out["whose"].tolist() == [expected]
    assert whose("contradicts", list(reversed(causes))) == expected  # order does not matter


def test_a_contradiction_without_investigation_is_not_investigated_and_others_have_none():
    out = attach(LEDGER, as_frame([_investigation("B3", "paper")]))
    assert out["whose"].tolist() == [
        "not investigated",  # the item Table 5: B3's investigation is the claim's
        "not investigated",
        "not investigated",
        "",  # a match has no class
        "paper disagrees with itself",
        "not investigated",
    ]


def test_whose_refuses_an_unknown_cause():
    with pytest.raises(ValueError, match="bad luck"):
        whose("contradicts", ["bad luck"])


def test_the_summary_splits_contradicts_by_class():
    from rlsbench.studies.fidelity import SUMMARY_COLUMNS, split_by_whose, summarize

    rows = [
        ("claim", "buteneers", "Table 5", "", "B3", "contradicts"),
        ("claim", "buteneers", "Table 5", "", "B7", "contradicts"),
        ("claim", "buteneers", "Table 5", "", "B9", "contradicts"),
        ("claim", "buteneers", "Table 5", "", "B2", "same conclusion"),
        ("claim", "ramona", "Table V", "", "R24", "contradicts"),
    ]
    inv = as_frame(
        [_investigation("B3", "paper"), _investigation("B7", "noise")]
        + [dict(_investigation("R24", "protocol"), paper="ramona")]
    )
    summary = summarize(attach(_ledger(rows), inv))
    assert tuple(summary.columns) == SUMMARY_COLUMNS
    total = summary[summary["paper"] == "all"].iloc[0]
    assert total["contradicts"] == 4
    assert total["contradicts: paper disagrees with itself"] == 1
    assert total["contradicts: our setting"] == 1
    assert total["contradicts: not investigated"] == 2  # B7 (noise explains none), B9
    classes = [c for c in SUMMARY_COLUMNS if c.startswith("contradicts: ")]
    assert (summary[classes].sum(axis=1) == summary["contradicts"]).all()
    shown = split_by_whose(summary)
    assert "contradicts" not in shown and "contradicts: hardware" not in shown
    assert "contradicts: our setting" in shown and shown[-1] == "total"
    assert "not public" in shown and "inconclusive" in shown


def test_the_summary_keeps_the_first_sentences_of_a_long_finding():
    # the summary's table of contradictions must fit a printed page (tests/benchmark/
    # test_latex.py); the whole finding stays in fidelity.csv
    from rlsbench.studies.fidelity.ledger import brief_causes

    long = "noise: " + "A sentence here. " * 40
    out = brief_causes(long, limit=100)
    assert out.endswith(". […]") and len(out) <= 100 + len(" […]")
    assert brief_causes("data: Short. | " + long, limit=100).startswith(
        "data: Short. | noise: A sentence here. A sentence"
    )
    assert brief_causes("paper: short") == "paper: short"
    # a first sentence longer than the limit is cut at a word
    assert brief_causes("paper: " + "word " * 100, limit=50).endswith(" word […]")


def test_a_paper_finding_classes_its_item_and_claims_not_their_cells():
    # Ramona Table V: the paper's own table against its sentence (R24) is no evidence about a
    # cell of ours that lies beyond the paper's number
    ledger = _ledger(
        [
            ("item", "ramona", "Table V", "", "", "contradicts"),
            ("cell", "ramona", "Table V", "usps", "", "contradicts"),
        ]
    )
    inv = as_frame([dict(_investigation("Table V", "paper"), paper="ramona")])
    out = attach(ledger, inv)
    assert out["whose"].tolist() == ["paper disagrees with itself", "not investigated"]
