"""The first page of the report: what a run found, from the parts' own tables.

Answers, each from the tables of the parts that ran (a part that did not run says so):

* **what ran** — the parts this run's config enabled, each with its category of the report
  (:func:`parts_ran`), so a run of one part (a user's ``main`` with their own methods and
  datasets) is described as what it is;

* **fidelity to the papers**, the framework's own — the ledger's verdict counts per paper for
  the numbered tables and figures and for the claims in words, *contradicts* split by whose it
  is (the ledger's ``whose``), the verdict of every numbered table and figure with its reason,
  and every claim with the verdicts of its checked scopes (:mod:`rlsbench.studies.fidelity`,
  ``fidelity.csv``);
* then what each paper brings (:class:`Answer`): the ``overview`` function of its part
  (:class:`rlsbench.benchmark.parts.Part`) reads the tables its parts list in
  ``overview_tables`` and returns its answers (a headline, a section of the page, a fragment
  of the landing page), in the parts' listing order (:func:`part_answers`).

:func:`overview_job` writes it as one HTML page (:func:`rlsbench.benchmark.views.page`); the
report shows it as its first page (``workflow/report/workflow.rst``) and as the result "At a
glance". :func:`sortable_table`, :func:`compact_table`, :func:`category_link` and
:func:`times` are the pieces a paper's answers are made of.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rlsbench.benchmark.atomic import atomic_write_text
from rlsbench.benchmark.parts import PartPluginError, distribution_of, installed_parts, papers
from rlsbench.benchmark.views import page
from rlsbench.lazy import lazy_module
from rlsbench.studies.fidelity.investigations import CLASSES
from rlsbench.studies.fidelity.ours import RunTree
from rlsbench.studies.fidelity.transcription import load_claims
from rlsbench.studies.fidelity.verdicts import VERDICTS

# pandas on first use: Snakemake reads this module with the rule files before any job
pd = lazy_module("pandas")

log = logging.getLogger(__name__)

#: Background colour of each verdict.
VERDICT_COLOURS = {
    "match": "#b7e4c7",
    "same conclusion": "#d8f3dc",
    "inconclusive": "#e5dbff",
    "contradicts": "#ffc9c9",
    "not public": "#e9ecef",
    "not run": "#fff3bf",
}

_CSS = """
.rlsbench-view .verdict { padding: 0 .35em; border-radius: 3px; white-space: nowrap;
  line-height: 1.9; }
.rlsbench-view .legend .verdict { margin-right: .4em; }
.rlsbench-view ul.answers li { margin: .25em 0; }
.rlsbench-view .answers b { font-weight: 600; }
"""


@dataclass(frozen=True)
class Answer:
    """One answer of a paper on the first page (``Part.overview`` returns a list of them).

    Parameters
    ----------
    headline : str
        One sentence (HTML) in the page's list of answers.
    section : str
        The page's section of it (HTML; ``""``: none).
    first_page : str
        Its fragment on the report's landing page (HTML with inline styles only, tables of at
        most four columns, no ``<script>`` or ``<style>``; ``""``: none).
    """

    headline: str
    section: str = ""
    first_page: str = ""


_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def number_word(n: int) -> str:
    """A small count as a reader says it (``four``), a larger one in digits."""
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def _papers_of(ledger: pd.DataFrame) -> str:
    return number_word(ledger["paper"].nunique())


def _verdict_html(verdict: str, text: str | None = None) -> str:
    colour = VERDICT_COLOURS.get(verdict, "#ffffff")
    label = html.escape(verdict if text is None else text)
    return (
        f'<span class="verdict" style="background:{colour}" title="{html.escape(verdict)}">'
        f"{label}</span>"
    )


def times(ratio: float) -> str:
    """A speed-up as a reader says it: ×1.5, ×12, ×155, ×7,890."""
    return f"×{ratio:,.0f}" if ratio >= 100 else f"×{ratio:.2g}"


def sortable_table(frame: pd.DataFrame, ident: str, *, escape=True, numeric=()) -> str:
    """A small sortable table (pandas Styler) in the classes of the table views, with the HTML
    id ``ident`` (``escape``: cells are text, else HTML; ``numeric``: columns aligned right)."""
    frame = frame.reset_index(drop=True)
    from pandas.io.formats.style import Styler

    styler = Styler(frame, uuid=ident, cell_ids=False)
    styler.hide(axis="index")
    styler.format(escape="html" if escape else None, na_rep="–")
    if numeric:
        classes = pd.DataFrame(
            [["num" if c in numeric else "" for c in frame.columns]] * len(frame),
            index=frame.index,
            columns=frame.columns,
        )
        styler.set_td_classes(classes)
    styler.set_table_attributes(f'id="{ident}" class="sortable"')
    return f'<div class="table-wrap">{styler.to_html()}</div>'


# ---------------------------------------------------------------------------------------------
# Fidelity
# ---------------------------------------------------------------------------------------------
def split_verdicts(rows: pd.DataFrame) -> pd.Series:
    """Each row's verdict, *contradicts* as ``"contradicts: <whose>"`` (the ledger's class of
    the contradiction, :data:`~rlsbench.studies.fidelity.investigations.CLASSES`)."""
    contradicts = rows["verdict"] == "contradicts"
    # a ledger without contradictions reads its empty ``whose`` column as NaN (float)
    whose = rows["whose"].fillna("").astype(str)
    return rows["verdict"].where(~contradicts, "contradicts: " + whose)


def split_columns(ledger: pd.DataFrame) -> list[str]:
    """The verdicts of the first page's counts: *contradicts* replaced by the classes that
    occur among the ledger's ``item`` and ``claim`` rows, in the order of ``CLASSES`` (kept as
    one column when none occurs)."""
    present = set(split_verdicts(ledger[ledger["level"].isin(["item", "claim"])]))
    at = VERDICTS.index("contradicts")
    classes = [f"contradicts: {c}" for c in CLASSES if f"contradicts: {c}" in present]
    # no contradiction at all: one "contradicts" column of zeros, not none
    return [*VERDICTS[:at], *(classes or ["contradicts"]), *VERDICTS[at + 1 :]]


def spell_counts(rows: pd.DataFrame) -> str:
    """'3 match, …, 13 contradicts (3 within noise, 5 our setting, …), …' of ``rows``."""
    counts = rows["verdict"].value_counts()
    classes = rows.loc[rows["verdict"] == "contradicts", "whose"].value_counts()
    split = ", ".join(f"{int(classes[c])} {c}" for c in CLASSES if c in classes)
    return ", ".join(
        f"{int(counts.get(v, 0))} {v}" + (f" ({split})" if v == "contradicts" and split else "")
        for v in VERDICTS
    )


def verdict_counts(ledger: pd.DataFrame) -> pd.DataFrame:
    """Verdict counts per paper (rows, plus "all") for the numbered tables and figures and the
    claims (column groups), from the ledger's ``item`` and ``claim`` rows; *contradicts* split
    by whose it is (:func:`split_columns`)."""
    known = papers()
    blocks = {}
    columns = split_columns(ledger)
    for level, title in (("item", "tables and figures"), ("claim", "claim checks")):
        rows = ledger[ledger["level"] == level]
        counts = pd.crosstab(rows["paper"], split_verdicts(rows)).reindex(
            index=[p for p in known if p in set(ledger["paper"])], columns=columns, fill_value=0
        )
        counts.loc["all"] = counts.sum()
        counts["total"] = counts.sum(axis=1)
        blocks[title] = counts
    table = pd.concat(blocks, axis=1)
    table.index = [known.get(p, p) for p in table.index]
    return table.fillna(0).astype(int)


def item_verdicts(ledger: pd.DataFrame) -> pd.DataFrame:
    """One row per numbered table and figure: paper, item, verdict, whose a contradiction is,
    reason."""
    items = ledger[ledger["level"] == "item"]
    known = papers()
    return pd.DataFrame(
        {
            "paper": items["paper"].map(lambda p: known.get(p, p)),
            "item": items["item"],
            "verdict": items["verdict"],
            "whose": items["whose"].fillna(""),
            "why": items["reason"].fillna(""),
        }
    )


def claim_verdicts(ledger: pd.DataFrame, claims: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per claim in words: paper, id, the claim, and how many of its checked scopes
    got each verdict (the ledger has one row per scope)."""
    if claims is None:
        claims = load_claims()
    rows = ledger[ledger["level"] == "claim"]
    text = claims.set_index(["paper", "claim_id"])["claim"]
    known = papers()
    out = []
    for (paper, cid), group in rows.groupby(["paper", "claim_id"], sort=False):
        counts = group["verdict"].value_counts()
        classes = group.loc[group["verdict"] == "contradicts", "whose"]
        out.append(
            {
                "paper": known.get(paper, paper),
                "claim": cid,
                "what the paper says": text.get((paper, cid), ""),
                "verdicts of its scopes": ", ".join(
                    f"{int(counts[v])} {v}" for v in VERDICTS if v in counts
                ),
                "worst": next(v for v in ("contradicts", *VERDICTS) if v in counts),
                "whose": ", ".join(c for c in CLASSES if c in set(classes)),
            }
        )
    return pd.DataFrame(out)


def ran(sections: Mapping[str, Mapping]) -> list:
    """The installed parts whose config section is present and enabled in this run, in the
    parts' listing order."""
    return [part for part in installed_parts() if sections.get(part.name)]


def parts_ran(sections: Mapping[str, Mapping], *, links: bool = False) -> str:
    """One sentence (HTML) naming the parts that ran, each with its report category (a link
    with ``links``), their datasets and methods where the section names them.

    Parameters
    ----------
    sections : dict
        Each part's config section (``{}`` when it did not run).
    links : bool
        The categories as links of the report's landing page (:func:`category_link`).
    """
    described = []
    for part in ran(sections):
        section = sections[part.name]
        counts = [
            f"{len(section[key])} {key}"
            for key in ("datasets", "methods")
            if isinstance(section.get(key), list | tuple) and section[key]
        ]
        where = category_link(part.category, part.category) if links else part.category
        described.append(
            f"<b>{html.escape(part.title)}</b> (<code>{html.escape(part.name)}</code>"
            + (f": {', '.join(counts)}" if counts else "")
            + f"; category {where})"
        )
    if not described:
        return "<b>What ran</b>: no part of rlsbench is enabled in this run's config."
    return "<b>What ran</b>: " + "; ".join(described) + "."


def fidelity_section(ledger: pd.DataFrame | None) -> tuple[str, str]:
    """(headline sentence, HTML section) of the fidelity ledger; without one (the run did
    not build it: a run of one part's target, a run of the user's own), a sentence that says
    so and points to no category the report does not have."""
    if ledger is None:
        return "<b>Fidelity to the papers</b>: the ledger was not computed in this run.", ""
    items = ledger[ledger["level"] == "item"]
    claims = ledger[ledger["level"] == "claim"]
    headline = (
        f"<b>Fidelity to the papers</b>: of {len(items)} numbered tables and figures, "
        f"{html.escape(spell_counts(items))}; of {len(claims)} checked scopes of the papers' "
        f"claims in words, {html.escape(spell_counts(claims))}."
    )
    counts = verdict_counts(ledger)
    counts_html = sortable_table(
        counts.reset_index(names="paper").set_axis(
            pd.MultiIndex.from_tuples([("", "paper"), *counts.columns]), axis=1
        ),
        "fidelity_counts",
        numeric=list(counts.columns),
    )
    item_table = item_verdicts(ledger)
    chips = (
        item_table.groupby("paper", sort=False)
        .apply(
            lambda g: " ".join(_verdict_html(v, i) for i, v in zip(g["item"], g["verdict"])),
            include_groups=False,
        )
        .rename("tables and figures, coloured by verdict")
        .reset_index()
    )
    legend = '<p class="legend">' + "".join(_verdict_html(v) for v in VERDICTS) + "</p>"
    item_table["verdict"] = item_table["verdict"].map(_verdict_html)
    item_table["why"] = item_table["why"].map(html.escape)
    item_table["whose"] = item_table["whose"].map(html.escape)
    claim_table = claim_verdicts(ledger)
    claim_table["worst"] = claim_table["worst"].map(_verdict_html)
    for col in ("paper", "claim", "what the paper says", "verdicts of its scopes", "whose"):
        claim_table[col] = claim_table[col].map(lambda v: html.escape(str(v)))
    section = (
        "<h2>Fidelity to the papers</h2>\n"
        "<p>Verdicts of the fidelity ledger: every numbered table and figure of the "
        f"{_papers_of(ledger)} papers and every claim they make in words, judged against this "
        "run by written rules "
        "(<em>match</em>: within the spread of our repetitions or the paper's precision; "
        "<em>same conclusion</em>: the paper's ordering or claim holds, the numbers differ; "
        "<em>inconclusive</em>: within the spread of our own repetitions, or a measured "
        "exponent whose confidence interval straddles the claim's threshold; "
        "<em>contradicts</em>, split by whose it is ("
        + "; ".join(f"<em>{c}</em>: {html.escape(what)}" for c, what in CLASSES.items())
        + "); <em>not public</em>: the data are not available; "
        "<em>not run</em>: not in this run's configuration). Every cell and series with its "
        "reason: the Fidelity category.</p>\n"
        + counts_html
        + "<h3>Numbered tables and figures</h3>\n"
        + legend
        + sortable_table(chips, "fidelity_chips", escape=False)
        + "<details><summary>Every numbered table and figure with the reason of its verdict"
        + "</summary>\n"
        + sortable_table(item_table, "fidelity_items", escape=False)
        + "</details>\n"
        + f"<details><summary>The {len(claim_table)} claims in words</summary>\n"
        + sortable_table(claim_table, "fidelity_claims", escape=False)
        + "</details>\n"
    )
    return headline, section


# ---------------------------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------------------------
def overview_html(
    *,
    ledger: pd.DataFrame | None,
    answers: Sequence[Answer] = (),
    run: str,
    configfiles=(),
    sections: Mapping[str, Mapping] | None = None,
) -> str:
    """The first page as one HTML document (see the module text): what ran (with
    ``sections``), the fidelity answer, then the papers' ``answers`` (:func:`part_answers`)."""
    fid_head, fid = fidelity_section(ledger)
    config = ", ".join(f"<code>{html.escape(str(c))}</code>" for c in configfiles) or "–"
    what_ran = parts_ran(sections) if sections is not None else ""
    headlines = "".join(
        f"<li>{h}</li>" for h in (what_ran, fid_head, *(a.headline for a in answers)) if h
    )
    body = (
        f"<style>{_CSS}</style>\n"
        f"<p>rlsbench reruns {number_word(len(papers()))} papers on wrapper feature selection "
        "with regularized least squares. This page answers what run "
        f"<code>{html.escape(run)}</code> (config {config}) found; every table and figure "
        "behind it is in the categories of this report.</p>\n"
        f'<ul class="answers">{headlines}</ul>\n' + fid + "".join(a.section for a in answers)
    )
    return page("At a glance: what this run found", body)


# ---------------------------------------------------------------------------------------------
# The report's landing page
# ---------------------------------------------------------------------------------------------
# Snakemake's report puts the workflow description (workflow/report/workflow.rst) into its
# landing page with innerHTML, inside a column 32 rem wide beside the rule graph, and embeds it
# in a <script> as a JSON string: the fragment holds no <script> (a "</script>" in it ends the
# report's own script and blanks the page) and no <style> (it would restyle the whole report),
# only elements with inline styles, and tables of at most four columns.
_CELL = "padding:.15em .5em;border-bottom:1px solid #e4e7eb;vertical-align:top;"
_NUM = _CELL + "text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums;"


def compact_table(frame: pd.DataFrame, numeric=()) -> str:
    """A small HTML table with inline styles for the landing page; cells are HTML already
    (``numeric``: the columns aligned right)."""
    head = "".join(
        f'<th style="{_NUM if c in numeric else _CELL}">{html.escape(str(c))}</th>' for c in frame
    )
    rows = "".join(
        "<tr>"
        + "".join(f'<td style="{_NUM if c in numeric else _CELL}">{v}</td>' for c, v in row.items())
        + "</tr>"
        for _, row in frame.iterrows()
    )
    return (
        '<table style="border-collapse:collapse;margin:.3em 0 .8em;font-size:.95em">'
        f"<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
    )


def category_link(category: str, text: str) -> str:
    """A link of the landing page to a category of the report."""
    # app.showCategory is the report's own navigation (the links its RST captions get)
    return f"<a href=\"javascript:app.showCategory('{category}')\">{html.escape(text)}</a>"


def first_page_html(
    *,
    ledger: pd.DataFrame | None,
    answers: Sequence[Answer] = (),
    sections: Mapping[str, Mapping] | None = None,
) -> str:
    """The answers of the overview as an HTML fragment for the report's landing page.

    Short sections, each a sentence and a table of at most four columns: what ran (with
    ``sections``: the parts, linked to their categories), the fidelity ledger's verdict counts
    (tables and figures, claim checks; nothing where the run computed no ledger), then each of
    the papers' ``answers`` (their ``first_page``; the parts that did not run are named as such
    there).
    """
    out = ['<div class="rlsbench-first" id="rlsbench-first">']
    if sections is not None:
        out.append(f"<p>{parts_ran(sections, links=True)}</p>")
    if ledger is None:
        out.append("<p><b>Fidelity to the papers</b>: the ledger was not computed.</p>")
    else:
        levels = ledger[ledger["level"] == "item"], ledger[ledger["level"] == "claim"]
        items, claims = (rows["verdict"].value_counts() for rows in levels)
        split = [split_verdicts(rows).value_counts() for rows in levels]
        shown = split_columns(ledger)
        counts = pd.DataFrame(
            {
                "verdict": [
                    _verdict_html("contradicts", v)
                    if v.startswith("contradicts: ")
                    else _verdict_html(v)
                    for v in shown
                ]
                + ["<b>total</b>"],
                "tables and figures": [int(split[0].get(v, 0)) for v in shown] + [int(items.sum())],
                "claim checks": [int(split[1].get(v, 0)) for v in shown] + [int(claims.sum())],
            }
        )
        confirmed = int(items.get("match", 0) + items.get("same conclusion", 0))
        out.append(
            "<p><b>Fidelity to the papers</b>: "
            f"{confirmed} of {int(items.sum())} numbered tables and figures of the "
            f"{_papers_of(ledger)} papers confirmed (match or same conclusion), "
            f"{int(items.get('contradicts', 0))} contradicted (split below by whose it is: "
            "the paper's own numbers, our setting, our implementation, within noise, not borne "
            f"out, hardware); of {int(claims.sum())} checks of "
            f"their claims in words, "
            f"{int(claims.get('match', 0) + claims.get('same conclusion', 0))} confirmed, "
            f"{int(claims.get('contradicts', 0))} contradicted, "
            f"{int(claims.get('inconclusive', 0))} inconclusive (within our own runs' spread). "
            "Every row with its reason: " + category_link("Fidelity", "Fidelity") + ".</p>"
        )
        out.append(compact_table(counts, numeric=("tables and figures", "claim checks")))
    out += [answer.first_page for answer in answers if answer.first_page]
    out.append(
        "<p>All of it with every table behind it: "
        + category_link("At a glance", "At a glance")
        + ".</p></div>"
    )
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# The papers' answers and the job
# ---------------------------------------------------------------------------------------------
def part_answers(tree, sections: Mapping[str, Mapping]) -> list[Answer]:
    """The answers of every installed part's ``overview`` function (each function once, in
    the parts' listing order; :class:`rlsbench.benchmark.parts.Part`).

    Parameters
    ----------
    tree : rlsbench.studies.fidelity.ours.RunTree
        The tables the page may read: the ``overview_tables`` of the parts that ran.
    sections : dict
        Each part's config section (``{}`` when it did not run).
    """
    out: list[Answer] = []
    called: set[str] = set()
    for part in installed_parts():
        if part.overview is None or part.overview in called:
            continue
        called.add(part.overview)
        for answer in part.overview_function()(tree, sections):
            if not isinstance(answer, Answer):
                raise PartPluginError(
                    f"part {part.name!r} of {distribution_of(part.name)}: overview "
                    f"{part.overview!r} returned a {type(answer).__name__}, not a "
                    "rlsbench.studies.overview.Answer"
                )
            out.append(answer)
    return out


def overview_inputs(rundir: str, built: Mapping[str, Sequence[str]]) -> list[str]:
    """The tables the first page reads: every part's ``overview_tables`` (under
    ``<rundir>/<part>/``) that the part builds in this run (``built``: part -> its files)."""
    return [
        path
        for part in installed_parts()
        for path in (f"{rundir}/{part.name}/{rel}" for rel in part.overview_tables)
        if path in set(built.get(part.name, ()))
    ]


def _read(path):
    return pd.read_csv(path) if path else None


def overview_job(
    overview,
    first_page,
    *,
    run,
    configfiles,
    rundir,
    sections,
    ledger=None,
    tables=(),
):
    """Write the overview page (:func:`overview_html`) and the report's landing-page fragment
    (:func:`first_page_html`) from the tables of the parts that ran.

    Parameters
    ----------
    overview : str
        The HTML page written (the report's result "At a glance").
    first_page : str
        The HTML fragment written (the report's landing page, ``workflow/report/workflow.rst``).
    run : str
        The run's name.
    configfiles : list of str
        The run's config file(s).
    rundir : str
        The run's directory (``results/runs/<run>``).
    sections : dict
        Each part's config section (``{}`` when it did not run), for the parts' answers.
    ledger : str, optional
        ``fidelity.csv``; absent when the ledger was not computed.
    tables : list of str
        The parts' tables the page reads (:func:`overview_inputs`); any other counts as absent.
    """
    frame = _read(ledger)
    answers = part_answers(RunTree(rundir, only=tables), sections)
    text = overview_html(
        ledger=frame, answers=answers, run=run, configfiles=configfiles, sections=sections
    )
    atomic_write_text(overview, text)
    log.info("%s (%d bytes)", Path(overview), len(text))
    fragment = first_page_html(ledger=frame, answers=answers, sections=sections)
    atomic_write_text(first_page, fragment)
    log.info("%s (%d bytes)", Path(first_page), len(fragment))
