"""Datasets of one source count once in the tests across datasets (issue 41 item 1)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from rlsbench.studies.main.statistics import by_family, check, shared_families

REGISTRY = {
    "ALLAML": {"task": "binary", "family": "golub-leukemia"},
    "leukemia": {"task": "binary", "family": "golub-leukemia"},
    "sonar": {"task": "binary"},
    "wine": {"task": "multiclass"},
}
SECTION = {
    "reference": "a",
    "operating_points": {"fixed_k": 5},
    "stability_k": 5,
    "by_task": True,
    "alpha": 0.05,
}


def test_only_families_with_two_members_in_the_run_are_merged():
    main = {"datasets": ["ALLAML", "leukemia", "sonar"], "methods": ["a", "b"]}
    assert shared_families(main, REGISTRY) == {
        "ALLAML": "golub-leukemia",
        "leukemia": "golub-leukemia",
    }
    alone = {"datasets": ["ALLAML", "sonar"], "methods": ["a", "b"]}
    assert shared_families(alone, REGISTRY) == {}
    # a run without shared families keeps its section (and so its rule's params) as it was
    assert "families" not in check({**alone, "statistics": SECTION}, REGISTRY)
    assert check({**main, "statistics": SECTION}, REGISTRY)["families"]["leukemia"] == (
        "golub-leukemia"
    )


def test_a_family_is_one_row_the_mean_and_missing_if_any_member_misses():
    scores = pd.DataFrame(
        {"a": [0.9, 0.7, 0.6], "b": [0.8, np.nan, 0.5]},
        index=pd.Index(["ALLAML", "leukemia", "sonar"], name="dataset"),
    )
    merged = by_family(scores, {"ALLAML": "golub-leukemia", "leukemia": "golub-leukemia"})
    assert list(merged.index) == ["golub-leukemia", "sonar"]
    assert merged.index.name == "dataset"
    assert merged.loc["golub-leukemia", "a"] == 0.8
    assert np.isnan(merged.loc["golub-leukemia", "b"])
    assert merged.loc["sonar"].tolist() == [0.6, 0.5]
    assert by_family(scores, {}) is scores
