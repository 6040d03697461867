"""The ledger is a framework: a paper it has never heard of, brought by one ledger module and its
transcription files in a package of its own, gets its rows, claims and summary line; malformed
papers are refused with the module or file (and line) named."""

from __future__ import annotations

import sys
import textwrap

import pandas as pd
import pytest

from rlsbench.studies.fidelity import build_ledger, papers, summarize
from rlsbench.studies.fidelity.papers import PaperLedger, paper_ledgers

TOY_LEDGER = """
from rlsbench.studies.fidelity import ClaimChecks, Outcome, PaperLedger
from rlsbench.studies.fidelity.claims import not_run
from rlsbench.studies.fidelity.ours import row

CHECKS = ClaimChecks()


def our_numbers(tree):
    t = tree.table("toy", "table.csv")
    if t is None:
        return []
    return [row("toy", "Table 1", r.dataset, "", "", "error_pct", r.error) for r in t.itertuples()]


@CHECKS.register("T1")
def _small_error(tree):
    t = tree.table("toy", "table.csv")
    if t is None:
        return not_run("toy/table.csv")
    return [Outcome("all", bool((t["error"] < 10).all()), f"max {t['error'].max()}", "below 10")]


LEDGER = PaperLedger(
    paper="toy",
    title="Toy & Example, A paper the ledger has never heard of (2025)",
    items=("Table 1",),
    part_files={"toy": ("table.csv",)},
    reader=our_numbers,
    checks=CHECKS,
    heading=r"toy & example",
    data=__package__,
)
"""
REPORTED = """\
paper,item,kind,row,column,dataset,method,setting,metric,printed,value,spread,n_reps,unit,compare,group,availability,source
toy,Table 1,cell,one,error,one,,,error_pct,5.0,5.0,,,%,value,,public,toy.md:1
toy,Table 1,cell,two,error,two,,,error_pct,7.0,7.0,,,%,value,,public,toy.md:2
"""
CLAIMS = """\
paper,claim_id,items,claim,where,availability
toy,T1,Table 1,Every error is below 10 %.,toy.md:3,public
"""
INVESTIGATIONS = "paper,scope,dataset,cause,finding,evidence\n"


@pytest.fixture
def toy_paper(tmp_path, monkeypatch):
    """A package ``toy_study`` (outside rlsbench) with a ledger module and its three CSVs;
    the framework's list of ledger modules holds only it. Returns a writer of its files."""
    package = tmp_path / "pkgs" / "toy_study"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "ledger.py").write_text(textwrap.dedent(TOY_LEDGER))

    def write(reported=REPORTED, claims=CLAIMS, investigations=INVESTIGATIONS):
        (package / "reported.csv").write_text(reported)
        (package / "claims.csv").write_text(claims)
        (package / "investigations.csv").write_text(investigations)

    write()
    monkeypatch.syspath_prepend(str(tmp_path / "pkgs"))
    monkeypatch.setattr(papers, "ledger_modules", lambda: ("toy_study.ledger",))
    yield write
    for name in [m for m in sys.modules if m == "toy_study" or m.startswith("toy_study.")]:
        del sys.modules[name]


def test_the_shipped_papers_are_found_each_with_its_own_rows():
    ledgers = paper_ledgers()
    assert [ledger.paper for ledger in ledgers] == ["pahikkala", "buteneers", "ramona", "sunyao"]
    for ledger in ledgers:
        assert isinstance(ledger, PaperLedger)
        reported = pd.read_csv(ledger.data_file("reported.csv").open(encoding="utf-8"))
        assert set(reported["paper"]) == {ledger.paper}, ledger.where("reported.csv")


def test_a_paper_the_framework_never_heard_of_gets_its_ledger_rows(toy_paper, tmp_path):
    tree = tmp_path / "run"
    (tree / "toy").mkdir(parents=True)
    pd.DataFrame({"dataset": ["one", "two"], "error": [5.0, 30.0]}).to_csv(
        tree / "toy" / "table.csv", index=False
    )
    ledger = build_ledger(tree)
    assert set(ledger["paper"]) == {"toy"}
    cells = ledger[ledger["level"] == "cell"].set_index("dataset")
    assert cells.loc["one", "verdict"] == "match"
    assert cells.loc["two", "verdict"] == "contradicts"
    (claim,) = ledger[ledger["level"] == "claim"].itertuples(index=False)
    assert (claim.claim_id, claim.verdict) == ("T1", "contradicts")
    (item,) = ledger[ledger["level"] == "item"].itertuples(index=False)
    assert item.source == "Toy & Example, A paper the ledger has never heard of (2025)"
    assert list(summarize(ledger)["paper"].unique()) == ["toy", "all"]


def test_a_row_of_another_paper_in_a_papers_file_is_refused_with_file_and_line(toy_paper):
    toy_paper(reported=REPORTED + REPORTED.splitlines()[1].replace("toy,", "ramona,", 1) + "\n")
    with pytest.raises(ValueError, match=r"toy_study/reported\.csv.*line 4 \('ramona'\)"):
        build_ledger("nowhere")


def test_a_public_claim_without_a_check_is_refused_naming_the_paper(toy_paper):
    toy_paper(claims=CLAIMS + "toy,T2,Table 1,Another claim.,toy.md:4,public\n")
    with pytest.raises(ValueError, match=r"toy_study/claims\.csv: claim T2 has no check.*'toy'"):
        build_ledger("nowhere")


def test_a_ledger_module_without_a_ledger_is_refused(toy_paper, monkeypatch):
    monkeypatch.setattr(papers, "ledger_modules", lambda: ("toy_study",))
    with pytest.raises(ValueError, match="ledger module toy_study defines no LEDGER"):
        paper_ledgers()


def test_two_modules_bringing_one_paper_are_refused(toy_paper, monkeypatch):
    monkeypatch.setattr(papers, "ledger_modules", lambda: ("toy_study.ledger",) * 2)
    with pytest.raises(ValueError, match="both bring paper 'toy'"):
        paper_ledgers()
