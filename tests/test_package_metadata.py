"""What a user of a research package expects besides the code: a licence and a citation file."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import yaml

import rlsbench

REPO = Path(__file__).resolve().parents[1]


def test_licence_is_declared_and_shipped():
    assert "BSD 3-Clause License" in (REPO / "LICENSE").read_text()
    assert importlib.metadata.metadata("rlsbench")["License-Expression"] == "BSD-3-Clause"


def test_citation_file_cites_the_package_and_the_four_papers():
    cff = yaml.safe_load((REPO / "CITATION.cff").read_text())
    assert cff["cff-version"] == "1.2.0"
    assert cff["version"] == rlsbench.__version__
    titles = " | ".join(ref["title"] for ref in cff["references"])
    for words in (
        "Linear Time Feature Selection for Regularized Least-Squares",
        "Regularization Parameter and Feature Selection for Ridge Regression",
        "Kernel Gram-Matrix-Based Criteria",
        "Efficient Forward Regression with Marginal Likelihood",
    ):
        assert words in titles
    for ref in cff["references"]:
        assert ref["authors"] and ref["year"]
