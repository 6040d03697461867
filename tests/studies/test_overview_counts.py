"""The first page's verdict counts (rlsbench.studies.overview): *contradicts* split by whose
it is, also for a small run's ledger that has no contradiction (its empty ``whose`` column is
read as NaN: the split failed on it, found by `make test`'s out-of-tree paper run)."""

from __future__ import annotations

import io

import pandas as pd

from rlsbench.studies import overview

LEDGER = """level,paper,verdict,whose
item,toy,match,
claim,toy,same conclusion,
item,toy,not run,
"""


def test_a_ledger_without_contradictions_splits_to_its_verdicts():
    ledger = pd.read_csv(io.StringIO(LEDGER))
    assert ledger["whose"].isna().all()  # as pandas reads it
    assert list(overview.split_verdicts(ledger)) == ["match", "same conclusion", "not run"]
    # no class to split into: one "contradicts" column (of zeros), as the report shows it
    assert [c for c in overview.split_columns(ledger) if c.startswith("contradicts")] == [
        "contradicts"
    ]


def test_a_contradiction_is_counted_under_its_class():
    ledger = pd.read_csv(io.StringIO(LEDGER + "claim,toy,contradicts,our setting\n"))
    assert overview.split_verdicts(ledger).iloc[-1] == "contradicts: our setting"
    assert "contradicts: our setting" in overview.split_columns(ledger)
