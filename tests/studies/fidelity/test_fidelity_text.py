"""Holding a text's "reproduced / confirmed / matches" against the ledger's item verdicts."""

from __future__ import annotations

import pandas as pd
import pytest

from rlsbench.studies.fidelity import check_text, text_claims


@pytest.fixture
def ledger():
    rows = [
        ("buteneers", "Table 3", "contradicts"),
        ("buteneers", "Table 4", "not public"),
        ("buteneers", "Table 5", "same conclusion"),
        ("buteneers", "Table 6", "match"),
        ("pahikkala", "Fig. 4", "same conclusion"),
        ("pahikkala", "Fig. 5", "contradicts"),
        ("ramona", "Table VIII", "contradicts"),
        ("ramona", "Table IX", "same conclusion"),
        ("sunyao", "Table 1", "contradicts"),
    ]
    return pd.DataFrame(
        [dict(level="item", paper=p, item=i, verdict=v) for p, i, v in rows]
        + [dict(level="cell", paper="sunyao", item="Table 1", verdict="match")]
    )


@pytest.mark.parametrize(
    ("line", "items"),
    [
        ("Tables 3-6 reproduced.", ["Table 3", "Table 4", "Table 5", "Table 6"]),
        ("Figs. 4–5 confirm the paper.", ["Fig. 4", "Fig. 5"]),
        ("Tables VIII-IX match the paper's growth.", ["Table VIII", "Table IX"]),
        ("Table 5 and Table 6 agree with the paper", ["Table 5", "Table 6"]),
        ("Figure 4, 5 reproduced", ["Fig. 4", "Fig. 5"]),
    ],
)
def test_item_references_are_expanded(line, items):
    found = text_claims(line, paper="x")
    assert found["item"].to_list() == items


@pytest.mark.parametrize(
    "line",
    [
        "Table 5 is not reproduced.",
        "Table 5: our numbers do not match the paper's.",
        "We fail to reproduce Table 5.",
        "Reproduced: nothing named here.",
    ],
)
def test_negated_or_itemless_lines_claim_nothing(line):
    assert text_claims(line, paper="buteneers").empty


def test_the_paper_comes_from_the_last_heading_that_names_one():
    text = "\n".join(
        [
            "# Results",
            "## Buteneers et al.",
            "Tables 5-6 reproduced.",
            "## Sun & Yao",
            "Table 1 reproduced.",
            "### Details",
            "Table 1 matches again.",
        ]
    )
    found = text_claims(text)
    assert list(zip(found["paper"], found["item"])) == [
        ("buteneers", "Table 5"),
        ("buteneers", "Table 6"),
        ("sunyao", "Table 1"),
        ("sunyao", "Table 1"),
    ]


def test_check_text_flags_claims_the_ledger_does_not_support(ledger):
    text = "\n".join(
        [
            "## Buteneers et al.",
            "Tables 3-6 regenerated; Tables 5-6 reproduced, Table 3 confirmed.",
            "## Sun & Yao",
            "Table 1 reproduced (paired t-tests).",
            "## Ramona et al.",
            "Table IX matches; Table II reproduced.",
        ]
    )
    out = check_text(text, ledger)
    got = {
        (p, i): (v, ok) for p, i, v, ok in zip(out["paper"], out["item"], out["verdict"], out["ok"])
    }
    assert got == {
        ("buteneers", "Table 4"): ("not public", False),
        ("buteneers", "Table 5"): ("same conclusion", True),
        ("buteneers", "Table 6"): ("match", True),
        ("buteneers", "Table 3"): ("contradicts", False),
        ("sunyao", "Table 1"): ("contradicts", False),
        ("ramona", "Table IX"): ("same conclusion", True),
        ("ramona", "Table II"): ("unknown item", False),
    }


def test_a_claim_outside_any_papers_context_is_unknown(ledger):
    out = check_text("Table 1 reproduced.", ledger)
    assert out["verdict"].to_list() == ["unknown item"] and not out["ok"].any()


def test_regenerated_needs_a_run_and_reproduced_a_good_verdict(ledger):
    out = check_text("Tables 3-6 regenerated.", ledger, paper="buteneers")
    assert out["kind"].eq("regenerated").all()
    assert dict(zip(out["item"], out["ok"])) == {
        "Table 3": True,  # it ran, even though it contradicts the paper
        "Table 4": False,  # not public: it cannot have been regenerated
        "Table 5": True,
        "Table 6": True,
    }


def test_a_claim_wrapped_over_lines_is_found():
    text = "## Sun & Yao\n\n* **Table 1 of the paper:\n  reproduced.** Forward is better.\n* Other."
    found = text_claims(text)
    assert list(zip(found["line"], found["item"], found["kind"])) == [(3, "Table 1", "reproduced")]


def test_inline_code_and_separate_table_rows_are_not_claims():
    text = "| `make reproduce` | Table 1 |\n| Fig. 2 | reproduced |"
    found = text_claims(text, paper="sunyao")
    assert found["item"].to_list() == ["Fig. 2"]


# ---------------------------------------------------------------------------------------------
# A sentence naming a claim id takes the claim's verdict from the ledger
# ---------------------------------------------------------------------------------------------
CLAIMS = pd.DataFrame(
    [
        dict(level="claim", claim_id="P7", row="adult", verdict="same conclusion", whose=""),
        dict(
            level="claim", claim_id="P7", row="german", verdict="contradicts", whose="within noise"
        ),
        dict(
            level="claim",
            claim_id="R36",
            row="D",
            verdict="contradicts",
            whose="paper disagrees with itself",
        ),
        dict(level="claim", claim_id="B14", row="N", verdict="inconclusive", whose=""),
    ]
)


def test_ledger_says_the_verdict_and_whose_of_each_scope():
    from rlsbench.studies.fidelity.text import ledger_says

    assert ledger_says(CLAIMS, "R36") == "R36: contradicts, paper disagrees with itself"
    assert ledger_says(CLAIMS, "B14") == "B14: inconclusive"
    assert ledger_says(CLAIMS, "P7/german") == "P7: contradicts, within noise"
    assert ledger_says(CLAIMS, "P7") == (
        "P7: same conclusion on adult; contradicts, within noise, on german"
    )
    with pytest.raises(ValueError, match="no claim row 'P7/ozone'"):
        ledger_says(CLAIMS, "P7/ozone")


@pytest.mark.parametrize(
    "wrong",
    [
        # the sentence the greedy RLS page had: the ledger says within noise
        "Claim P7 fails on german.numer: that contradiction comes from our protocol's additions.",
        "* *S1 on Boston* is not explained.",
        "R36 is an implementation difference: its cause is our implementation differs.",
        "The claim (B3) holds on 4 of the 8 tasks.",
        "The ledger calls\nB14 *inconclusive*.",
    ],
)
def test_a_hand_written_verdict_next_to_a_claim_id_is_found(wrong):
    from rlsbench.studies.fidelity.text import hand_written_verdicts

    found = hand_written_verdicts(wrong, ["P7", "S1", "R36", "B3", "B14"])
    assert len(found) == 1, found


@pytest.mark.parametrize(
    "right",
    [
        "Claim P7 (:ledger:`P7/german`): at k = 1 only, by one standard error.",
        "KFDS times (:ledger:`R36`) grow as D^2.75.",
        "The paper's model fails on 3 of 20 splits.",  # no claim id in the sentence
        "R36 grows as D^2.75. The fit failed twice.",  # the verdict word is another sentence's
    ],
)
def test_a_sentence_with_its_verdict_from_the_ledger_passes(right):
    from rlsbench.studies.fidelity.text import hand_written_verdicts

    assert hand_written_verdicts(right, ["P7", "R36"]).empty


def test_a_hand_written_verdict_next_to_a_contradicted_item_is_found():
    from rlsbench.studies.fidelity.text import hand_written_verdicts

    text = "The USPS errors of Table II stay unexplained. Table IV is shown below."
    found = hand_written_verdicts(text, [], items=["Table II"])
    assert found["claim_id"].tolist() == ["Table II"]
    assert hand_written_verdicts(text, [], items=["Table IV"]).empty
