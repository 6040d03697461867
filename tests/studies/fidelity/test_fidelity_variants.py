"""Variants in the ledger: a tree's ``variants/<name>/<part>/`` (published by ``make variant``)
gives the rows of that part's paper two columns, ``ours [<name>]`` and ``verdict [<name>]``,
judged by the same rules; the headline columns and the summary's counts stay the paper's
wording's; the variant files are valid configs layered on config/paper.yaml."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
import yaml

from rlsbench.studies.fidelity import (
    LEDGER_COLUMNS,
    build_ledger,
    ledger_outputs,
    variant_columns,
    variant_trees,
    with_variants,
)

REPO = Path(__file__).resolve().parents[3]
PAPER = REPO / "results" / "paper"
VARIANT_FILES = sorted((REPO / "config" / "variants").glob("*.yaml"))


def _tree_with_variant(tmp_path, name="test-variant", description="a planted variant"):
    """A copy of the committed sunyao tables as the tree, and the same tables as a variant."""
    tree = tmp_path / "tree"
    shutil.copytree(PAPER / "sunyao", tree / "sunyao")
    folder = tree / "variants" / name / "sunyao"
    shutil.copytree(PAPER / "sunyao", folder)
    record = {"config": {"variant": {"name": name, "part": "sunyao", "description": description}}}
    (folder / "provenance.json").write_text(json.dumps(record))
    return tree, folder


def test_a_tree_without_variants_has_none(tmp_path):
    assert variant_trees(tmp_path) == {}
    (tmp_path / "variants" / "empty").mkdir(parents=True)  # no part with a provenance record
    assert variant_trees(tmp_path) == {}


def test_a_variant_identical_to_the_paper_run_repeats_its_columns(tmp_path):
    tree, _ = _tree_with_variant(tmp_path)
    assert list(variant_trees(tree)) == ["test-variant"]
    base = build_ledger(tree)
    ledger = with_variants(base, tree)
    ours, verdict = variant_columns("test-variant")
    assert list(ledger.columns) == [*LEDGER_COLUMNS, ours, verdict]
    pd.testing.assert_frame_equal(ledger[list(LEDGER_COLUMNS)], base)
    sunyao = ledger["paper"] == "sunyao"
    assert (ledger.loc[sunyao, verdict] == ledger.loc[sunyao, "verdict"]).all()
    assert (ledger.loc[sunyao, ours] == ledger.loc[sunyao, "ours"]).all()
    # the other papers' rows are not the variant's: empty, not "not run"
    assert (ledger.loc[~sunyao, [ours, verdict]] == "").all().all()


def test_a_changed_variant_table_changes_only_the_variant_columns(tmp_path):
    tree, folder = _tree_with_variant(tmp_path)
    table = folder / "table1" / "table1.csv"
    frame = pd.read_csv(table)
    mse = [c for c in frame.columns if c.startswith("mse") and frame[c].dtype.kind == "f"]
    assert mse, frame.columns
    frame[mse] = frame[mse] * 3.0  # every MSE of the variant three times ours
    frame.to_csv(table, index=False)
    ledger, summary, markdown = ledger_outputs(tree)
    _, verdict = variant_columns("test-variant")
    cells = ledger[(ledger["paper"] == "sunyao") & (ledger["item"] == "Table 1")]
    cells = cells[cells["level"] == "cell"]
    assert (cells[verdict] != cells["verdict"]).any()
    # the headline is the paper's wording: the summary counts the tree's own columns
    assert summary.equals(ledger_outputs(_without_variants(tree, tmp_path))[1])
    assert "## Variants" in markdown and "a planted variant" in markdown
    assert "test-variant" in markdown


def test_rows_a_variant_does_not_run_are_counted_apart(tmp_path):
    """A variant that runs only some of a part's tables leaves the rest *not run*: the summary
    counts those apart, never as another verdict."""
    tree, folder = _tree_with_variant(tmp_path)
    shutil.rmtree(folder / "fig1")  # the variant ran Table 1 only
    ledger, _, markdown = ledger_outputs(tree)
    _, verdict = variant_columns("test-variant")
    rows = ledger[(ledger["paper"] == "sunyao") & ledger["level"].isin(["item", "claim"])]
    assert (
        rows.loc[rows["item"] == "Fig. 1", verdict] != rows.loc[rows["item"] == "Fig. 1", "verdict"]
    ).any()
    skipped = rows[(rows[verdict] == "not run") & (rows["verdict"] != "not run")]
    assert len(skipped) > 0
    section = markdown[markdown.index("## Variants") :]
    table = pd.read_csv(
        io.StringIO(
            "\n".join(line.strip("|").replace("|", "\t") for line in section.splitlines()[2:5:2])
        ),
        sep="\t",
    )
    table.columns = [c.strip() for c in table.columns]
    assert int(table["not run in it"].iloc[0]) == len(skipped)
    # Table 1 is the same tables: nothing else moves
    assert int(table["another verdict"].iloc[0]) == 0
    judged = rows[rows[verdict] != ""]
    assert int(table["items and claims"].iloc[0]) == len(judged) - len(skipped)


def _without_variants(tree, tmp_path):
    plain = tmp_path / "plain"
    shutil.copytree(tree / "sunyao", plain / "sunyao")
    return plain


@pytest.mark.parametrize("path", VARIANT_FILES, ids=lambda p: p.stem)
def test_variant_files_name_themselves_and_publish_apart(path):
    config = yaml.safe_load(path.read_text())
    variant = config["variant"]
    assert variant["name"] == path.stem
    assert config["publish_dir"] == f"results/paper/variants/{path.stem}"
    assert config["run_name"] != "paper"
    paper = yaml.safe_load((REPO / "config" / "paper.yaml").read_text())
    assert variant["part"] in paper, f"{path}: part {variant['part']!r} not in config/paper.yaml"
    # a variant changes its own part's section only (beside its name and folders)
    assert set(config) - {"variant", "run_name", "publish_dir"} == {variant["part"]}


@pytest.mark.parametrize("path", VARIANT_FILES, ids=lambda p: p.stem)
def test_a_committed_variant_is_what_its_file_says(path):
    """A published variant's provenance records the variant file's settings."""
    name = path.stem
    records = sorted((PAPER / "variants" / name).glob("*/provenance.json"))
    if not records:
        pytest.skip(f"{name}: not published under results/paper/variants/")
    config = yaml.safe_load(path.read_text())
    for record in records:
        recorded = json.loads(record.read_text())["config"]
        assert recorded["variant"] == config["variant"]
        assert recorded["publish_dir"] == config["publish_dir"]


def test_every_variant_is_documented():
    text = (REPO / "docs" / "fidelity.rst").read_text()
    for path in VARIANT_FILES:
        assert f"``{path.stem}``" in text, f"{path.stem}: not in docs/fidelity.rst's variants table"
