"""The LaTeX tables (rlsbench.benchmark.views): every Markdown table a part publishes becomes
booktabs floats that compile in ``\\documentclass[twocolumn]{article}`` with no overfull box,
the layouts chosen for narrow, wide, very wide and long tables.

Compiled with ``pdflatex`` (Debian: texlive-latex-recommended, texlive-latex-extra); the
compiling tests are skipped, naming what is missing, where pdflatex or a package the article
loads is not there (tests/_tools.py). The committed results' tables (results/paper)
are compiled as the views rule writes them; the tiny run's own files are compiled in
tests/test_report_browser.py.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from rlsbench.benchmark.views import (
    TEXT_PT,
    fit_latex,
    latex_escape,
    markdown_blocks,
    markdown_latex,
)
from rlsbench.benchmark.views.fit import key_columns
from tests._tools import latex_packages, missing_latex

REPO = Path(__file__).resolve().parents[2]
PAPER = REPO / "results" / "paper"
PUBLISHED = sorted(PAPER.rglob("*.md"))

ARTICLE = r"""\documentclass[twocolumn]{article}
\usepackage[utf8]{inputenc}
\usepackage{booktabs,array}
\usepackage{morefloats}
\begin{document}
\input{%s}
\end{document}
"""
# pdflatex and every package the article and the tables load (kpsewhich finds each)
MISSING_LATEX = missing_latex(latex_packages(ARTICLE))
needs_pdflatex = pytest.mark.skipif(MISSING_LATEX is not None, reason=MISSING_LATEX or "")
# what pdflatex says of a table that does not fit: wider than its float (overfull hbox), a
# float higher than the page, or a character it cannot typeset
MISFITS = re.compile(
    r"^(Overfull \\hbox.*|Overfull \\vbox.*|LaTeX Warning: Float too large.*|"
    r".*Missing character.*|! .*)$",
    re.M,
)


def compile_in_article(tex: Path, workdir: Path) -> str:
    """Compile ``tex`` inside a minimal two-column article; fail on an error or a misfit.

    Returns
    -------
    str
        The pdflatex log.
    """
    name = re.sub(r"[^A-Za-z0-9]+", "-", str(tex.resolve()))[-80:]
    build = workdir / name
    build.mkdir(parents=True, exist_ok=True)
    shutil.copy(tex, build / "table.tex")
    (build / "article.tex").write_text(ARTICLE % "table")
    proc = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "article.tex"],
        cwd=build,
        capture_output=True,
        text=True,
        timeout=300,
    )
    log = (build / "article.log").read_text(errors="replace")
    assert proc.returncode == 0, f"{tex}: pdflatex failed\n{proc.stdout[-3000:]}"
    misfits = MISFITS.findall(log)
    assert not misfits, f"{tex}: " + "\n".join(misfits)
    assert (build / "article.pdf").is_file()
    return log


def _relative(path: Path) -> str:
    return str(path.relative_to(PAPER))


# ---------------------------------------------------------------------------------------------
# The committed tables
# ---------------------------------------------------------------------------------------------
def test_every_published_markdown_table_has_latex_tables():
    assert PUBLISHED, "no committed Markdown tables under results/paper"
    for md in PUBLISHED:
        text = md.read_text()
        tables = [b for b in markdown_blocks(text) if not isinstance(b, str)]
        latex = markdown_latex(text, name=_relative(md))
        floats = re.findall(r"\\begin\{table\*?\}", latex)
        assert len(floats) >= len(tables), md
        assert "\\toprule" in latex if tables else True, md


@needs_pdflatex
@pytest.mark.slow
@pytest.mark.parametrize("md", PUBLISHED, ids=[_relative(p) for p in PUBLISHED])
def test_published_table_compiles_and_fits(md, tmp_path):
    tex = tmp_path / "written.tex"
    tex.write_text(markdown_latex(md.read_text(), name=_relative(md)))
    compile_in_article(tex, tmp_path)


COMMITTED_TEX = sorted(PAPER.rglob("*.tex"))


@needs_pdflatex
@pytest.mark.slow
@pytest.mark.parametrize("tex", COMMITTED_TEX, ids=[_relative(p) for p in COMMITTED_TEX])
def test_committed_latex_table_compiles_and_fits(tex, tmp_path):
    # <part>_publish copies the views rule's LaTeX file beside each Markdown table; a file
    # from before the views rule existed is replaced when the results are regenerated
    if "written by rlsbench.benchmark.views" not in tex.read_text():
        pytest.skip(f"{_relative(tex)} predates the views rule (regenerate results/paper)")
    compile_in_article(tex, tmp_path)


# ---------------------------------------------------------------------------------------------
# Layouts
# ---------------------------------------------------------------------------------------------
def _markdown(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(map(str, row)) + " |" for row in rows]
    return "## A table\n\n" + "\n".join(lines) + "\n"


def _table(header, rows):
    (table,) = [b for b in markdown_blocks(_markdown(header, rows)) if not isinstance(b, str)]
    return table


NARROW = (["dataset", "error"], [["abalone", "0.512 ± 0.01"], ["boston", "11.2 ± 0.4"]])
WIDE = (
    ["dataset"] + [f"method {i}" for i in range(6)],
    [["breast_cancer"] + [f"0.{i}51 ± 0.015" for i in range(6)] for _ in range(4)],
)
VERY_WIDE = (
    ["dataset"] + [f"a long column name {i}" for i in range(24)],
    [["breast_cancer"] + [f"0.{i % 10}51 ± 0.015" for i in range(24)] for _ in range(3)],
)
WORDY = (
    ["claim", "verdict", "why"],
    [
        [
            "greedy RLS selects the same features as the wrapper " * 2,
            "match",
            "the selections of every fold agree, " * 6,
        ]
    ]
    * 5,
)
LONG = (["k", "error"], [[k, f"0.{k:03d}"] for k in range(200)])


def test_a_narrow_table_takes_one_column():
    (layout,) = fit_latex(_table(*NARROW))
    assert layout.environment == "table"
    assert layout.widths == [None, None]


def test_a_wide_table_spans_both_columns():
    layouts = fit_latex(_table(*WIDE))
    assert [lay.environment for lay in layouts] == ["table*"]
    assert layouts[0].columns == list(range(7))


def test_a_very_wide_table_is_split_by_columns_each_led_by_the_first():
    layouts = fit_latex(_table(*VERY_WIDE))
    assert len(layouts) > 1
    assert all(lay.columns[0] == 0 for lay in layouts)
    shown = sorted({j for lay in layouts for j in lay.columns})
    assert shown == list(range(25))


#: A summary whose rows are named by (dataset, method): a dataset repeats over methods.
KEYED = (
    ["dataset", "method"] + [f"a long column name {i}" for i in range(20)],
    [
        [dataset, method] + [f"0.{i % 10}51 ± 0.015" for i in range(20)]
        for dataset in ("breast_cancer", "adult")
        for method in ("greedy_rls", "random", "lowrank_lssvm")
    ],
)


def test_the_key_of_a_summary_is_dataset_and_method():
    assert key_columns(_table(*KEYED)) == [0, 1]
    assert key_columns(_table(*VERY_WIDE)) == [0]  # one row per dataset: the dataset names it


def test_every_part_of_a_table_split_by_columns_names_dataset_and_method():
    layouts = fit_latex(_table(*KEYED))
    assert len(layouts) > 1
    assert all(lay.columns[:2] == [0, 1] for lay in layouts)
    shown = sorted({j for lay in layouts for j in lay.columns[2:]})
    assert shown == list(range(2, 22))  # every value column once
    latex = markdown_latex(_markdown(*KEYED), name="keyed")
    for part in latex.split("\\begin{table*}")[1:]:
        body = part.split("\\midrule", 1)[1]
        assert "greedy\\_\\allowbreak{}rls & " in body and "adult & random & " in body


def test_explicit_keys_are_repeated_in_every_part():
    layouts = fit_latex(_table(*KEYED), keys=[1])
    assert len(layouts) > 1
    assert all(lay.columns[0] == 1 and 0 not in lay.columns[1:] for lay in layouts[1:])
    with pytest.raises(ValueError, match="keys"):
        fit_latex(_table(*KEYED), keys=[30])


def test_long_text_columns_wrap():
    layouts = fit_latex(_table(*WORDY))
    wrapped = [w for lay in layouts for w in lay.widths if w is not None]
    assert wrapped and all(w < TEXT_PT for w in wrapped)


def test_a_long_table_is_split_by_rows_each_with_the_header():
    layouts = fit_latex(_table(*LONG))
    assert len(layouts) > 1
    assert sorted(i for lay in layouts for i in lay.rows) == list(range(200))
    latex = markdown_latex(_markdown(*LONG), name="long")
    assert latex.count("\\midrule") == len(layouts)  # the header rule, once per float


def test_latex_escape_typesets_the_tables_symbols():
    assert latex_escape("0.91 ± 0.02") == r"0.91~$\pm$~0.02"
    assert latex_escape("a_b & 50%") == r"a\_\allowbreak{}b \& 50\%"
    assert latex_escape("λ ≤ 2") == r"$\lambda$ $\le$ 2"


@needs_pdflatex
@pytest.mark.slow
@pytest.mark.parametrize(
    ("case", "environment"),
    [
        (NARROW, "table"),
        (WIDE, "table*"),
        (VERY_WIDE, "table*"),
        (KEYED, "table*"),
        (WORDY, None),
        (LONG, None),
    ],
    ids=["narrow", "wide", "very-wide", "keyed", "wordy", "long"],
)
def test_each_layout_compiles_and_fits(case, environment, tmp_path):
    tex = tmp_path / "case.tex"
    latex = markdown_latex(_markdown(*case), name="case")
    tex.write_text(latex)
    compile_in_article(tex, tmp_path)
    if environment:
        assert f"\\begin{{{environment}}}" in latex
