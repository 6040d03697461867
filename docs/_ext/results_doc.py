"""Sphinx extension: the committed results, shown from their files at build time.

The pages explain; the numbers come from the files the workflow publishes under
``results/paper/``, so no page can quote a number that a later run has changed. Paths are
relative to the repository root; a missing file, or a pattern that matches nothing, fails the
build.

``.. result-markdown:: results/paper/main/tables/summary.md``
    A published Markdown table (or a Markdown file of tables), rendered through MyST. The
    file's own headings become rubrics, so that they do not break the page's sections. Cells
    stay on one line (a wide table scrolls) unless ``:wrap:`` is given.
``.. result-figures:: results/paper/main/figures/test_*.png``
    Every figure the pattern matches, in name order, each captioned with its file name; several
    are laid out side by side, a single one at ``:width:``.
``.. result-csv:: results/paper/fidelity_summary.csv``
    A CSV file as a table (pandas); options ``:columns:`` (comma-separated, in that order),
    ``:where:`` (``column=value[|value...]``, repeatable with ``;``), ``:pivot:``
    (``index[,index...] / column / value``: one row per index, one column per value of
    ``column``) and ``:decimals:`` (rounding of the numeric cells).
``.. dataset-registry::``
    The built-in dataset registry (package data, read with rlsbench's own loader): one row per
    dataset with its task, format, shape and class counts after preprocessing and the hosts of
    its upstream URLs, then each dataset's description and preprocessing.
``:ledger:`R36``` (a role; ``:ledger:`S1/boston-housing``` for one scope)
    What the ledger (``results/paper/fidelity.csv``) says of a claim: its verdict and, for a
    contradiction, whose it is, written by
    :func:`rlsbench.studies.fidelity.text.ledger_says`. A sentence that names a claim id says
    its verdict through this role only (``tests/test_docs.py`` checks it).
``.. fidelity-ledger:: pahikkala``
    The rows of ``results/paper/fidelity.csv`` for one paper: option ``:levels:`` (default
    ``item,claim``) picks the row levels, ``:items:`` (a regular expression searched in the
    ``item`` column) the items of one part, ``:columns:`` the columns.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pandas as pd
from docutils import nodes, utils
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

LEDGER = "results/paper/fidelity.csv"
LEDGER_COLUMNS = "level,item,row,column,dataset,method,reported,ours,verdict,reason"


def _root(directive: SphinxDirective) -> Path:
    return Path(directive.config.rlsbench_repo_root)


def _existing(directive: SphinxDirective, relative: str) -> Path:
    path = _root(directive) / relative
    if not path.is_file():
        raise directive.error(f"{directive.name}: no file {relative} (repository root {path})")
    directive.env.note_dependency(str(path))
    return path


def dataframe_table(frame: pd.DataFrame, classes=()) -> nodes.table:
    """``frame`` as a docutils table; cells are plain text (no markup is interpreted)."""
    table = nodes.table(classes=["result-table", *classes])
    group = nodes.tgroup(cols=len(frame.columns))
    table += group
    for _ in frame.columns:
        group += nodes.colspec(colwidth=1)
    head = nodes.thead()
    group += head
    head += _row([str(c) for c in frame.columns])
    body = nodes.tbody()
    group += body
    for values in frame.itertuples(index=False):
        body += _row(["" if pd.isna(v) else str(v) for v in values])
    return table


def _row(texts) -> nodes.row:
    row = nodes.row()
    for text in texts:
        entry = nodes.entry()
        entry += nodes.paragraph(text=text)
        row += entry
    return row


def _source_line(relative: str, what: str = "File") -> nodes.paragraph:
    para = nodes.paragraph(classes=["result-source"])
    para += nodes.Text(f"{what}: ")
    para += nodes.literal(text=relative)
    return para


_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def markdown_without_headings(text: str) -> str:
    """Markdown with every ATX heading turned into a MyST ``rubric`` directive."""
    lines = []
    fence = False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        match = None if fence else _HEADING.match(line)
        if match:
            # a tilde fence: its info string may hold the backticks of a heading
            lines += ["", "~~~{rubric} " + match.group(2), "~~~", ""]
        else:
            lines.append(line)
    return "\n".join(lines) + "\n"


class ResultMarkdown(SphinxDirective):
    required_arguments = 1
    option_spec = {"wrap": directives.flag}

    def run(self):
        from myst_parser.parsers.sphinx_ import MystParser

        path = _existing(self, self.arguments[0])
        text = markdown_without_headings(path.read_text(encoding="utf-8"))
        # parsed as its own document, as docutils' ``include`` does for a foreign parser
        document = utils.new_document(str(path), self.state.document.settings)
        MystParser().parse(text, document)
        # ``:wrap:``: tables of sentences (claims, reasons) wrap instead of scrolling
        box = nodes.container(
            classes=["result-markdown", *(["wrap"] if "wrap" in self.options else [])]
        )
        box.extend(node.deepcopy() for node in document.children)
        return [box, _source_line(self.arguments[0])]


class ResultFigures(SphinxDirective):
    required_arguments = 1
    option_spec = {"width": directives.unchanged}

    def run(self):
        root = _root(self)
        pattern = self.arguments[0]
        paths = sorted(root.glob(pattern))
        if not paths:
            raise self.error(f"result-figures: no file matches {pattern}")
        # several figures side by side (a CSS grid), a single one at the width asked for
        grid = nodes.container(classes=["result-figures"] if len(paths) > 1 else [])
        for path in paths:
            self.env.note_dependency(str(path))
            relative = path.relative_to(root).as_posix()
            # images are referenced relative to this document's directory
            source_dir = Path(self.env.doc2path(self.env.docname)).parent
            uri = Path(os.path.relpath(path, source_dir)).as_posix()
            figure = nodes.figure(classes=["result-figure"])
            image = nodes.image(uri=uri, alt=relative, candidates={})
            image["width"] = "100%" if len(paths) > 1 else self.options.get("width", "90%")
            figure += image
            caption = nodes.caption()
            caption += nodes.literal(text=relative)
            figure += caption
            grid += figure
        return [grid]


def _columns(option: str | None, default: str) -> list[str]:
    return [c.strip() for c in (option or default).split(",") if c.strip()]


def _filter(frame: pd.DataFrame, where: str | None, directive) -> pd.DataFrame:
    for clause in (where or "").split(";"):
        if not clause.strip():
            continue
        column, _, values = clause.partition("=")
        column = column.strip()
        if column not in frame.columns:
            raise directive.error(f"{directive.name}: no column {column!r} to filter on")
        frame = frame[frame[column].astype(str).isin([v.strip() for v in values.split("|")])]
    return frame


def _select(frame: pd.DataFrame, columns: list[str], directive, relative: str) -> pd.DataFrame:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise directive.error(f"{directive.name}: {relative} has no column(s) {missing}")
    return frame[columns]


class ResultCsv(SphinxDirective):
    required_arguments = 1
    option_spec = {
        "columns": directives.unchanged,
        "where": directives.unchanged,
        "pivot": directives.unchanged,
        "decimals": directives.nonnegative_int,
    }

    def run(self):
        relative = self.arguments[0]
        frame = pd.read_csv(_existing(self, relative), dtype=str, keep_default_na=False)
        frame = _filter(frame, self.options.get("where"), self)
        if "pivot" in self.options:
            frame = self._pivot(frame, relative)
        if "columns" in self.options:
            frame = _select(frame, _columns(self.options["columns"], ""), self, relative)
        if frame.empty:
            raise self.error(f"result-csv: no rows of {relative} to show")
        if "decimals" in self.options:
            frame = frame.map(lambda v: _rounded(v, self.options["decimals"]))
        return [dataframe_table(frame), _source_line(relative)]

    def _pivot(self, frame, relative):
        parts = [p.strip() for p in self.options["pivot"].split("/")]
        if len(parts) != 3:
            raise self.error("result-csv: :pivot: is 'index[,index...] / column / value'")
        index, column, value = _columns(parts[0], ""), parts[1], parts[2]
        _select(frame, [*index, column, value], self, relative)
        numeric = pd.to_numeric(frame[column], errors="coerce")
        order = frame.assign(_key=numeric).sort_values("_key", kind="stable")[column].unique()
        table = frame.pivot(index=index, columns=column, values=value)
        table = table.reindex(columns=list(order)).fillna("")
        table.columns = [str(c) for c in table.columns]
        table = table.reset_index()
        # numbers (S, n) in numeric order, names in the order of the file
        return table.sort_values(by=index, key=_order_of(frame), kind="stable", ignore_index=True)


def _order_of(frame: pd.DataFrame):
    def key(column: pd.Series) -> pd.Series:
        numeric = pd.to_numeric(column, errors="coerce")
        if numeric.notna().all():
            return numeric
        first_seen = {v: i for i, v in enumerate(dict.fromkeys(frame[column.name]))}
        return column.map(first_seen)

    return key


def _rounded(value, decimals):
    """``value`` rounded when it is a decimal number; integers and text stay as they are."""
    if re.fullmatch(r"-?\d+", str(value)):
        return value
    try:
        number = float(value)
    except (TypeError, ValueError):
        return value
    return f"{number:.{decimals}f}"


class FidelityLedger(SphinxDirective):
    required_arguments = 1
    option_spec = {
        "levels": directives.unchanged,
        "items": directives.unchanged,
        "columns": directives.unchanged,
    }

    def run(self):
        paper = self.arguments[0]
        frame = pd.read_csv(_existing(self, LEDGER), dtype=str, keep_default_na=False)
        if paper not in set(frame["paper"]):
            raise self.error(f"fidelity-ledger: no rows for paper {paper!r} in {LEDGER}")
        levels = _columns(self.options.get("levels"), "item,claim")
        rows = frame[(frame["paper"] == paper) & frame["level"].isin(levels)]
        if "items" in self.options:
            pattern = re.compile(self.options["items"])
            rows = rows[rows["item"].map(lambda item: bool(pattern.search(item)))]
        rows = _select(rows, _columns(self.options.get("columns"), LEDGER_COLUMNS), self, LEDGER)
        # columns empty on every row of this selection say nothing
        rows = rows.loc[:, (rows != "").any(axis=0)]
        if rows.empty:
            raise self.error(f"fidelity-ledger: no {levels} rows for {paper!r} in {LEDGER}")
        counts = rows["verdict"].value_counts() if "verdict" in rows else pd.Series(dtype=int)
        summary = ", ".join(f"{n} {verdict}" for verdict, n in counts.items())
        intro = nodes.paragraph(text=f"{len(rows)} row(s) of level {', '.join(levels)}: {summary}.")
        return [intro, dataframe_table(rows, classes=["fidelity-ledger"]), _source_line(LEDGER)]


class DatasetRegistry(SphinxDirective):
    def run(self):
        from urllib.parse import urlparse

        from rlsbench.benchmark.datasets import load_registry

        registry = load_registry()
        self.env.note_dependency(str(registry.path))
        rows, notes = [], nodes.definition_list()
        for name, spec in registry.items():
            expected = spec.expected
            counts = expected.get("class_counts") or {}
            hosts = sorted({urlparse(u).netloc for f in spec.files for u in f.upstream})
            rows.append(
                {
                    "dataset": name,
                    "task": spec.task,
                    "format": spec.format,
                    "shape": f"{expected['n_samples']} × {expected['n_features']}",
                    "classes": " ".join(f"{k}:{v}" for k, v in counts.items()) or "–",
                    "upstream": ", ".join(hosts) or spec.format,
                }
            )
            item = nodes.definition_list_item()
            term = nodes.term()
            term += nodes.literal(text=name)
            item += term
            definition = nodes.definition()
            definition += nodes.paragraph(text=spec.description)
            definition += nodes.paragraph(text=f"Preprocessing: {spec.preprocessing}")
            item += definition
            notes += item
        table = dataframe_table(pd.DataFrame(rows))
        return [table, _source_line("src/rlsbench/benchmark/datasets/registry.yaml"), notes]


_LEDGERS: dict = {}


def ledger_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``:ledger:`R36``` -> "R36: contradicts, paper disagrees with itself" (see the module)."""
    from rlsbench.studies.fidelity.text import ledger_says

    env = inliner.document.settings.env
    path = Path(env.config.rlsbench_repo_root) / LEDGER
    env.note_dependency(str(path))
    key = (str(path), path.stat().st_mtime_ns)
    if key not in _LEDGERS:
        _LEDGERS[key] = pd.read_csv(path, keep_default_na=False)
    try:
        said = ledger_says(_LEDGERS[key], utils.unescape(text))
    except ValueError as exc:
        msg = inliner.reporter.error(f"{rawtext}: {exc}", line=lineno)
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    return [nodes.emphasis(said, said, classes=["ledger-says"])], []


def setup(app):
    if "rlsbench_repo_root" not in app.config.values:
        app.add_config_value("rlsbench_repo_root", str(Path(__file__).resolve().parents[2]), "env")
    app.add_directive("result-markdown", ResultMarkdown)
    app.add_directive("result-figures", ResultFigures)
    app.add_directive("result-csv", ResultCsv)
    app.add_directive("fidelity-ledger", FidelityLedger)
    app.add_directive("dataset-registry", DatasetRegistry)
    app.add_role("ledger", ledger_role)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
