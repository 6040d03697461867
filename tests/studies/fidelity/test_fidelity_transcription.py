"""The transcription of the four papers (reported.csv, claims.csv): schema, coverage of every
numbered table and figure, internal consistency, and spot checks against the papers' text."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from rlsbench.studies.fidelity.papers import items, paper_ledgers
from rlsbench.studies.fidelity.transcription import (
    AVAILABILITY,
    CLAIM_COLUMNS,
    COMPARES,
    KEY,
    KINDS,
    REPORTED_COLUMNS,
    UNITS,
    claim_items,
    load_claims,
    load_reported,
    parse_printed,
)

ITEMS = items()
PAPER_FILES = {
    "pahikkala": "pahikkala-greedy-rls.md",
    "buteneers": "buteneers-ridge-cv-feature-selection.md",
    "ramona": "ramona-kernel-gram-feature-selection.txt",
    "sunyao": "sun-yao-marginal-likelihood-forward.md",
}
PAPERS_DIR = Path(__file__).resolve().parents[3] / ".." / "shared" / "papers"


@pytest.fixture(scope="module")
def reported():
    return load_reported()


@pytest.fixture(scope="module")
def claims():
    return load_claims()


def test_reported_has_the_documented_columns(reported):
    assert tuple(reported.columns) == (*REPORTED_COLUMNS, "precision")


def test_reported_values_come_from_the_allowed_vocabularies(reported):
    assert set(reported["paper"]) == set(ITEMS)
    assert set(reported["kind"]) <= set(KINDS)
    assert set(reported["unit"]) <= set(UNITS)
    assert set(reported["compare"]) <= set(COMPARES)
    assert set(reported["availability"]) <= set(AVAILABILITY)


def test_reported_keys_are_unique(reported):
    dup = reported[reported.duplicated(list(KEY), keep=False)]
    assert dup.empty, dup[list(KEY)].to_string()


@pytest.mark.parametrize("paper", sorted(ITEMS))
def test_every_numbered_table_and_figure_is_transcribed(reported, paper):
    items = set(reported.loc[reported["paper"] == paper, "item"])
    assert items == set(ITEMS[paper])


def test_items_on_unavailable_data_are_transcribed_too(reported):
    """Buteneers Tables 1, 2, 4 and Ramona's Lymphoma, Yeast and Speech/Music results."""
    hidden = reported[reported["availability"] == "not public"]
    assert {("buteneers", t) for t in ("Table 1", "Table 2", "Table 4")} <= set(
        zip(hidden["paper"], hidden["item"])
    )
    ramona = set(hidden.loc[hidden["paper"] == "ramona", "dataset"])
    assert {"lymphoma", "yeast", "speechmusic"} <= ramona
    assert len(reported[(reported["paper"] == "ramona") & (reported["item"] == "Table VII")]) == 21


def test_printed_cells_parse_to_their_value_and_spread(reported):
    for row in reported.itertuples(index=False):
        if not row.printed:
            assert row.compare == "claims" and math.isnan(row.value), row
            continue
        value, spread, precision = parse_printed(row.printed, row.unit)
        assert value == pytest.approx(row.value, rel=1e-12), row
        assert (math.isnan(spread) and math.isnan(row.spread)) or spread == row.spread, row
        assert precision == pytest.approx(row.precision), row


def test_cells_carry_a_number_and_only_series_may_lack_one(reported):
    cells = reported[reported["kind"] == "cell"]
    assert (cells["printed"] != "").all()
    assert set(reported.loc[reported["printed"] == "", "kind"]) <= {"series"}


def test_every_row_names_its_source_in_the_papers_text(reported):
    for paper, sources in reported.groupby("paper")["source"]:
        assert sources.str.startswith(PAPER_FILES[paper]).all(), paper


def test_quoted_results_are_other_publications_methods(reported):
    quoted = reported[reported["availability"] == "quoted"]
    assert set(quoted["paper"]) == {"ramona"}
    assert set(quoted["method"]) == {"neumann_kta", "kcs_wang", "r2w2_wang", "bahsic", "gmkl"}


def test_repetition_counts_are_positive_integers(reported):
    n = reported["n_reps"].dropna()
    assert (n > 0).all() and (n == n.round()).all()


@pytest.mark.parametrize(
    ("paper", "item", "dataset", "method", "setting", "metric", "value", "spread"),
    [
        ("pahikkala", "Table 1", "ijcnn1", "", "", "n_samples", 141691, None),
        (
            "pahikkala",
            "Fig. 3",
            "synthetic",
            "greedy_rls",
            "m=50000;n=1000;k=50",
            "cpu_time",
            720,
            None,
        ),
        ("buteneers", "Table 3", "adult", "bfs_covariance", "", "t_opt", 4.5 * 86400, None),
        ("buteneers", "Table 5", "auto-price", "lars", "", "nrmse_x10", 189, None),
        ("buteneers", "Table 6", "servo", "", "", "cond", 1.9e19, None),
        ("ramona", "Table II", "usps", "scss", "kernel=rbf;S=50", "error_pct", 6.5, 1.1),
        ("ramona", "Table IV", "pima", "kfds", "kernel=rbf", "error_pct", 32.7, 3.2),
        ("ramona", "Table V", "usps-binary", "sas", "kernel=rbf;S=5", "error_pct", 26.6, 2.9),
        ("ramona", "Table VI", "sonar", "gmkl", "kernel=rbf;S=15", "accuracy_pct", 80.7, 5.5),
        ("ramona", "Table VII", "section-v-c", "kfds", "", "rank_rest_pct", 93.1, None),
        ("ramona", "Table IX", "cputime", "rfe", "D=2000;N=30", "cpu_time_normalised", 80083, None),
        ("sunyao", "Table 1", "abalone", "rvm_new", "", "mse", 0.489, 0.029),
        ("sunyao", "Fig. 1", "california-housing", "rvm_new", "", "max_n_train", 4500, None),
    ],
)
def test_spot_checks_against_the_papers(
    reported, paper, item, dataset, method, setting, metric, value, spread
):
    row = reported[
        (reported["paper"] == paper)
        & (reported["item"] == item)
        & (reported["dataset"] == dataset)
        & (reported["method"] == method)
        & (reported["setting"] == setting)
        & (reported["metric"] == metric)
    ]
    assert len(row) == 1
    assert row["value"].iloc[0] == pytest.approx(value)
    if spread is not None:
        assert row["spread"].iloc[0] == pytest.approx(spread)


@pytest.mark.skipif(not PAPERS_DIR.is_dir(), reason="shared/papers not beside the checkout")
def test_table_cells_appear_in_the_papers_text(reported):
    """Every printed table number of Sun & Yao's and Buteneers' tables occurs on its source line."""
    for paper in ("sunyao", "buteneers"):
        lines = (PAPERS_DIR / PAPER_FILES[paper]).read_text().splitlines()
        rows = reported[(reported["paper"] == paper) & (reported["kind"] == "cell")]
        for row in rows.itertuples(index=False):
            number = re.match(r"\S+:(\d+)", row.source)
            if number is None or row.metric == "t_fixed":  # merged cells are spread out
                continue
            text = lines[int(number.group(1)) - 1]
            mean = row.printed.split("±")[0].strip()
            assert mean in text, (row.item, row.row, row.column, mean, text)


@pytest.mark.parametrize(
    ("printed", "unit", "expected"),
    [
        ("6.7 ± 1.0", "%", (6.7, 1.0, 0.05)),
        ("4.5d", "s", (388800.0, math.nan, 0.05 * 86400)),
        ("11m", "s", (660.0, math.nan, 30.0)),
        ("0.0062s", "s", (0.0062, math.nan, 0.00005)),
        ("9.0e11", "1", (9.0e11, math.nan, 0.05e11)),
        ("10 × 100", "count", (1000.0, math.nan, 0.5)),
        ("10 000", "count", (10000.0, math.nan, 0.5)),
        ("≈15", "%", (15.0, math.nan, 0.5)),
    ],
)
def test_parse_printed(printed, unit, expected):
    got = parse_printed(printed, unit)
    for a, b in zip(got, expected):
        assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b)


@pytest.mark.parametrize(("printed", "unit"), [("n/a", "%"), ("3x", "s"), ("4m", "%")])
def test_parse_printed_rejects_what_is_not_a_printed_number(printed, unit):
    with pytest.raises(ValueError, match=re.escape(repr(printed))):
        parse_printed(printed, unit)


def test_claims_have_the_documented_columns_and_unique_ids(claims):
    assert tuple(claims.columns) == CLAIM_COLUMNS
    assert not claims["claim_id"].duplicated().any()
    assert set(claims["availability"]) <= {"public", "not public"}


def test_claims_name_only_numbered_items_of_their_paper(claims):
    links = claim_items(claims)
    for link in links.itertuples(index=False):
        assert link.item in ITEMS[link.paper], link


@pytest.mark.parametrize("ledger", paper_ledgers(), ids=lambda ledger: ledger.paper)
def test_every_checkable_claim_has_a_check_and_every_check_a_claim(claims, ledger):
    mine = claims[claims["paper"] == ledger.paper]
    public = set(mine.loc[mine["availability"] == "public", "claim_id"])
    assert public == set(ledger.checks)


@pytest.mark.parametrize("claim_id", ["P1", "P10", "B2", "B3", "R16", "S1", "S4", "S5"])
def test_the_issue_examples_are_claims(claims, claim_id):
    """Claims the issue names: greedy RLS = wrapper, LOO optimism on small data, LARS on
    ill-conditioned sets, BFS vs FFS, SAS ≈ R2W2 on Speech/Music, forward regression as
    accurate as the RVMs at a fraction of the time."""
    assert claim_id in set(claims["claim_id"])
