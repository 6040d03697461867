"""The documentation: the configuration reference renders every schema key, every committed
result table and figure is shown on some page, and the README stays a front door.

The site itself is built with warnings as errors by ``make docs`` (in CI); these tests pin what
a successful build alone would not show.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import re
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
SCHEMAS = sorted((REPO / "workflow" / "schemas").glob("*.schema.yaml")) + [
    *sorted((REPO / "src" / "rlsbench" / "studies").glob("*/workflow/schema.yaml")),
    REPO / "src" / "rlsbench" / "benchmark" / "datasets" / "registry.schema.yaml",
]
#: Internal tags and machine-local paths that no user-facing text may carry.
FORBIDDEN = re.compile(r"\bissues? ?#?\d+|\.\./shared", re.IGNORECASE)


def _load_extension(name):
    spec = importlib.util.spec_from_file_location(f"_docs_{name}", DOCS / "_ext" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


schema_doc = _load_extension("schema_doc")


def _keys_by_walking(node) -> set[str]:
    """Every name under a ``properties`` mapping anywhere in a schema, found independently of
    the extension (a plain recursive walk over the YAML)."""
    found = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                found |= set(value)
            found |= _keys_by_walking(value)
    elif isinstance(node, list):
        for value in node:
            found |= _keys_by_walking(value)
    return found


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_the_schema_extension_renders_every_key(path):
    schema = yaml.safe_load(path.read_text())
    rendered = schema_doc.schema_rows(schema)
    shown = {part.strip("[]") for row in rendered.rows for part in row.path.split(".")}
    keys = _keys_by_walking(schema)
    assert keys, f"{path.name}: no keys found, the walk itself is broken"
    assert keys <= shown, f"{path.name}: keys missing from the reference: {keys - shown}"
    assert len({row.path for row in rendered.rows}) == len(rendered.rows), "a key rendered twice"
    for row in rendered.rows:
        assert row.type, f"{path.name}: {row.path} has no type"
        assert not FORBIDDEN.search(row.description), f"{path.name}: {row.path}: {row.description}"
    assert not FORBIDDEN.search(str(schema.get("description", "")))


def test_the_schema_extension_follows_every_nesting():
    schema = {
        "$defs": {"entry": {"type": "object", "properties": {"deep": {"type": "integer"}}}},
        "type": "object",
        "required": ["a"],
        "properties": {
            "a": {"type": "integer", "minimum": 1, "default": 3, "description": "an a"},
            "b": {"type": "array", "items": {"type": "object", "properties": {"c": {}}}},
            "d": {"type": "object", "additionalProperties": {"$ref": "#/$defs/entry"}},
            "e": {"oneOf": [{"type": "null"}, {"type": "object", "properties": {"f": {}}}]},
            "g": {"type": "object", "patternProperties": {"^x_": {"properties": {"h": {}}}}},
        },
        "if": {"properties": {"a": {"const": 2}}},
        "then": {"required": ["b"]},
    }
    rendered = schema_doc.schema_rows(schema)
    rows = {row.path: row for row in rendered.rows}
    assert set(rows) == {
        "a",
        "b",
        "b[].c",
        "d",
        "d.<name>",
        "d.<name>.deep",
        "e",
        "e.f",
        "g",
        "g.<x_>",
        "g.<x_>.h",
    }
    assert rows["a"].required and not rows["b"].required
    assert rows["a"].type == "integer, ≥ 1" and rows["a"].default == "3"
    assert rows["a"].description == "an a"
    assert rendered.conditions == ["if a = 2 → required: b"]


def test_the_schema_extension_refuses_what_it_cannot_render():
    with pytest.raises(schema_doc.SchemaError, match="dependentRequired"):
        schema_doc.schema_rows({"properties": {"a": {"dependentRequired": {"a": ["b"]}}}})


def test_every_schema_is_on_the_configuration_page():
    page = (DOCS / "configuration.rst").read_text()
    shown = set(re.findall(r"^\.\. config-schema:: (\S+)", page, re.MULTILINE))
    wanted = {path.relative_to(REPO).as_posix() for path in SCHEMAS}
    assert wanted <= shown, f"schemas without a section in docs/configuration.rst: {wanted - shown}"


def _pages():
    return sorted(DOCS.rglob("*.rst"))


def test_every_committed_table_and_figure_is_shown():
    """Each Markdown table and PNG figure under results/paper/ is included by some page (a
    new result file needs a ``result-markdown`` or ``result-figures`` directive)."""
    tables, figures = set(), []
    for page in _pages():
        text = page.read_text()
        tables |= set(re.findall(r"^\s*\.\. result-markdown:: (\S+)", text, re.MULTILINE))
        figures += re.findall(r"^\s*\.\. result-figures:: (\S+)", text, re.MULTILINE)
    assert tables and figures, "no result directives found: the scan itself is broken"
    committed = sorted(
        p.relative_to(REPO).as_posix() for p in (REPO / "results" / "paper").rglob("*")
    )
    missing = [p for p in committed if p.endswith(".md") and p not in tables]
    missing += [
        p
        for p in committed
        if p.endswith(".png") and not any(fnmatch.fnmatch(p, pattern) for pattern in figures)
    ]
    assert not missing, f"committed results shown on no documentation page: {missing}"


def test_the_pages_name_no_internal_tag_or_local_path():
    offending = [
        f"{page.relative_to(REPO)}:{number}: {line.strip()}"
        for page in _pages()
        for number, line in enumerate(page.read_text().splitlines(), 1)
        if FORBIDDEN.search(line)
    ]
    assert not offending, "\n".join(offending)


def test_the_readme_is_a_front_door():
    text = (REPO / "README.md").read_text()
    lines = text.splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines; the rest belongs in docs/"
    offending = [f"{n}: {line}" for n, line in enumerate(lines, 1) if FORBIDDEN.search(line)]
    assert not offending, "README.md: " + "; ".join(offending)
    # every relative link of the front door leads to a file of the repository
    targets = re.findall(r"\]\(([^)#\s]+)\)", text)
    assert targets, "no links found: the scan itself is broken"
    broken = [t for t in targets if "://" not in t and not (REPO / t).exists()]
    assert not broken, f"README.md links to missing files: {broken}"


def test_the_forbidden_pattern_catches_what_it_should():
    assert FORBIDDEN.search("as issue 17 asks") and FORBIDDEN.search("see ../shared/datasets")
    assert FORBIDDEN.search("Issue #4") and not FORBIDDEN.search("a known issue with numbers")


def test_the_readme_headline_tables_are_what_the_committed_files_say():
    """The front page's speed and fidelity tables are made by docs/readme_headline.py from
    benchmarks/results/greedy_rls.md and results/paper/fidelity_summary.csv: a number there
    cannot drift from its source (rerun `make readme` after regenerating either)."""
    spec = importlib.util.spec_from_file_location(
        "readme_headline", REPO / "docs" / "readme_headline.py"
    )
    headline = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(headline)
    readme = (REPO / "README.md").read_text()
    assert headline.render(readme) == readme, "README.md headline tables are stale: make readme"
    summary = pd.read_csv(REPO / "results" / "paper" / "fidelity_summary.csv")
    total = summary[(summary["level"] == "item") & (summary["paper"] == "all")].iloc[0]
    cells = ["all four", *(total[v] for v in ("match", "same conclusion", "inconclusive"))]
    # contradicts, split by whose it is: the classes that occur, adding up to the total
    levels = summary[summary["level"].isin(["item", "claim"])]
    classes = [c for c in summary.columns if c.startswith("contradicts: ") and levels[c].sum()]
    assert classes and sum(total[c] for c in classes) == total["contradicts"]
    cells += [total[c] for c in classes]
    row = r"\|" + r"\|".join(rf"\s*{re.escape(str(c))}\s*" for c in cells) + r"\|"
    assert re.search(row, readme), row
    for c in classes:  # each class named in a header and defined above the tables
        short = headline.SHORT[c.removeprefix("contradicts: ")]
        assert f" {short} |" in readme  # a column header
        assert f"*{short}*: " in readme


def test_the_benchmark_readme_numbers_are_what_its_files_say():
    """results/benchmark/README.md's numbers (what ran, where the time went, the budget skips,
    the rank tests' power) are made by docs/readme_headline.py from the files beside it."""
    spec = importlib.util.spec_from_file_location(
        "readme_headline", REPO / "docs" / "readme_headline.py"
    )
    headline = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(headline)
    name = "results/benchmark/README.md"
    readme = (REPO / name).read_text()
    blocks = headline.TARGETS[name]
    assert set(blocks) == {
        "BENCHMARK-SETUP",
        "BENCHMARK-TIME",
        "BENCHMARK-SKIPS",
        "BENCHMARK-STATISTICS",
    }
    assert headline.render(readme, blocks, name) == readme, f"{name} is stale: make readme"
    # the skips block counts what summary.csv says, and the budgets stay under 3 % a method
    summary = pd.read_csv(
        REPO / "results" / "benchmark" / "tables" / "summary.csv", keep_default_na=False
    )
    budget = summary["reason"].str.startswith(headline.BUDGET_REASONS)
    supported = ~summary["reason"].str.startswith("task:")
    assert f"{int(budget.sum())} of the {int(supported.sum())} cells" in readme
    share = budget[supported].groupby(summary.loc[supported, "method"]).mean()
    assert (share < 0.03).all(), share[share >= 0.03]


def test_the_benchmark_page_justifies_its_rope_with_the_runs_own_spread():
    """docs/benchmark.rst says the rope of ±0.01 accuracy lies below the spread over the folds
    on most of the run's classification cells, and gives the share: it is what curves.csv
    says, and it is most."""
    tables = REPO / "results" / "benchmark" / "tables"
    # gzip-compressed from the publication that applies main.publish_gzip on
    gz = tables / "curves.csv.gz"
    curves = pd.read_csv(gz if gz.is_file() else tables / "curves.csv")
    at5 = curves[(curves["k"] == 5) & curves["test_accuracy_mean"].notna()]
    share = float((at5["test_accuracy_sd"] > 0.01).mean())
    assert share > 0.5
    page = " ".join((DOCS / "benchmark.rst").read_text().split())
    assert f"exceeds 0.01 in {round(100 * share)} % of the classification cells" in page


def _texts_about_the_papers():
    """README.md, every docs page and the report's captions, each with the paper it is about
    (a part's page: its part's paper; else None)."""
    from rlsbench.benchmark.parts import installed_parts

    paper_of_page = {part.docs: part.paper for part in installed_parts() if part.docs}
    texts = [(REPO / "README.md", None)]
    texts += [(page, paper_of_page.get(page.relative_to(DOCS).as_posix())) for page in _pages()]
    captions = sorted((REPO / "src" / "rlsbench" / "studies").glob("*/workflow/report/*.rst"))
    captions += sorted((REPO / "workflow" / "report").glob("*.rst"))
    assert captions, "no report captions found: the scan itself is broken"
    return texts + [(c, None) for c in captions]


def test_sentences_naming_a_claim_take_its_verdict_from_the_ledger():
    """A sentence of the README, the docs or the report's captions that names a ledger claim id
    (or, on a paper's page, one of its contradicted items) says nothing of its verdict by hand:
    it writes it with the ``:ledger:`` role, from ``results/paper/fidelity.csv``; every role's
    target is a claim of the ledger."""
    from rlsbench.studies.fidelity.text import LEDGER_ROLE, claim_rows, hand_written_verdicts

    ledger = pd.read_csv(REPO / "results" / "paper" / "fidelity.csv", keep_default_na=False)
    claim_ids = set(ledger.loc[ledger["level"] == "claim", "claim_id"])
    bad = ledger[(ledger["level"] == "item") & (ledger["verdict"] == "contradicts")]
    problems, roles = [], 0
    for path, paper in _texts_about_the_papers():
        text = path.read_text()
        items = set(bad.loc[bad["paper"] == paper, "item"]) if paper else set()
        for r in hand_written_verdicts(text, claim_ids, items).itertuples(index=False):
            problems.append(
                f"{path.relative_to(REPO)}:{r.line}: {r.claim_id} next to {r.word!r}: "
                f"{r.sentence[:120]}"
            )
        for m in LEDGER_ROLE.finditer(text):
            roles += 1
            try:
                claim_rows(ledger, m.group("target"))
            except ValueError as exc:
                problems.append(f"{path.relative_to(REPO)}: {exc}")
    assert roles, "no :ledger: role found: the scan itself is broken"
    assert not problems, "\n".join(problems)


def test_the_sentence_check_fails_on_a_planted_wrong_sentence():
    from rlsbench.studies.fidelity.text import hand_written_verdicts

    page = (DOCS / "parts" / "main.rst").read_text()
    planted = page + "\nClaim P7 comes from our protocol's additions: it does not hold.\n"
    assert hand_written_verdicts(page, ["P7"]).empty
    assert hand_written_verdicts(planted, ["P7"])["claim_id"].tolist() == ["P7"]
