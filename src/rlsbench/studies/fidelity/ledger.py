"""The fidelity ledger: the papers' reported numbers and claims joined with ours, each judged.

The papers are those of :func:`~rlsbench.studies.fidelity.papers.paper_ledgers`: each brings
its transcribed numbers, its reader of our numbers and its claim checks. :func:`build_ledger`
reads a tree of part outputs (``results/paper`` or a run folder) and
returns one row per transcribed cell or series (level ``cell`` / ``series``), per scope of a
checked claim (``claim``) and per numbered table or figure (``item``); the verdicts follow
:mod:`rlsbench.studies.fidelity.verdicts`, and
:mod:`~rlsbench.studies.fidelity.investigations` adds the cause found for each contradiction
and the run that shows it. :func:`summarize` counts verdicts per paper and
level; :func:`write_ledger` writes ``fidelity.csv``, ``fidelity_summary.csv`` and
``fidelity_summary.md`` atomically.

A tree may hold *variants* (``<tree>/variants/<name>/<part>/``, published by ``make variant
VARIANT=<name>`` from ``config/variants/<name>.yaml``): our own choices run beside the paper's
wording. :func:`with_variants` judges each one's tables by the same rules and adds its
``ours [<name>]`` and ``verdict [<name>]`` to the rows of the papers its parts reproduce. The
headline columns (``ours``, ``verdict``, ``whose``) and the summary's counts are always those
of the paper's wording.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from rlsbench.benchmark.atomic import atomic_path, atomic_write_text
from rlsbench.lazy import lazy_module
from rlsbench.studies.fidelity.claims import Outcome
from rlsbench.studies.fidelity.investigations import CLASSES, attach, first_class
from rlsbench.studies.fidelity.ours import RunTree, read_ours
from rlsbench.studies.fidelity.papers import paper_ledgers
from rlsbench.studies.fidelity.transcription import (
    KEY,
    claim_items,
    load_claims,
    load_reported,
)
from rlsbench.studies.fidelity.verdicts import VERDICTS, cell_verdicts, claim_verdict, roll_up

# pandas on first use: Snakemake reads this module with the rule files before any job
pd = lazy_module("pandas")

LEDGER_COLUMNS = (
    "level",
    "paper",
    "item",
    "row",
    "column",
    "dataset",
    "method",
    "setting",
    "metric",
    "unit",
    "reported",
    "reported_value",
    "reported_spread",
    "reported_n",
    "ours",
    "ours_value",
    "ours_spread",
    "ours_n",
    "difference",
    "tolerance",
    "verdict",
    "whose",
    "reason",
    "claim_id",
    "source",
    "cause",
    "evidence",
)
TEXT_COLUMNS = tuple(
    c
    for c in LEDGER_COLUMNS
    if not c.endswith(("_value", "_spread", "_n")) and c not in ("difference", "tolerance")
)
LEVELS = ("item", "cell", "series", "claim")
#: The summary's columns for the *contradicts* rows of each class (``whose``), in the order
#: of :data:`~rlsbench.studies.fidelity.investigations.CLASSES`; they add up to *contradicts*.
CLASS_COLUMNS = tuple(f"contradicts: {c}" for c in CLASSES)
SUMMARY_COLUMNS = (
    "level",
    "paper",
    *VERDICTS[: VERDICTS.index("contradicts") + 1],
    *CLASS_COLUMNS,
    *VERDICTS[VERDICTS.index("contradicts") + 1 :],
    "total",
)
OUTPUTS = ("fidelity.csv", "fidelity_summary.csv", "fidelity_summary.md")
#: The folder of a tree that holds its variants, one folder per variant name.
VARIANTS = "variants"
#: The columns that name a ledger row (unique within a ledger).
KEY_COLUMNS = (
    "level",
    "paper",
    "item",
    "row",
    "column",
    "dataset",
    "method",
    "setting",
    "metric",
    "claim_id",
)


def join(reported, ours):
    """Reported rows left-joined with ours on the key (paper, item, dataset, method, setting,
    metric); a reported row without ours keeps NaN values and a note saying what is missing."""
    joined = reported.merge(ours, how="left", on=list(KEY), validate="one_to_one")
    for col in ("ours_text", "ours_note"):
        joined[col] = joined[col].fillna("")
    have_item = set(zip(ours["paper"], ours["item"]))
    have_data = set(zip(ours["paper"], ours["item"], ours["dataset"]))
    have_method = set(zip(ours["paper"], ours["item"], ours["dataset"], ours["method"]))
    notes = []
    for r in joined.itertuples(index=False):
        if r.ours_note or r.ours_text or r.availability != "public":
            notes.append(r.ours_note)
        elif (r.paper, r.item) not in have_item:
            notes.append(f"our run has no output for {r.item}")
        elif (r.paper, r.item, r.dataset) not in have_data:
            notes.append(f"our run has no {r.dataset} results for {r.item}")
        elif (r.paper, r.item, r.dataset, r.method) not in have_method:
            what = r.method or "dataset-level value"
            notes.append(f"our run has no {what} on {r.dataset} for {r.item}")
        else:
            notes.append(f"our run does not record {r.metric} ({r.setting or 'any setting'})")
    return joined.assign(ours_note=notes)


def run_claims(tree, ledgers=None):
    """One row per (claim, scope): the check's outcome and its verdict, for every claim of
    ``ledgers`` (None: every paper's) in the order of their ``claims.csv``."""
    ledgers = paper_ledgers() if ledgers is None else ledgers
    rows = []
    for ledger in ledgers:
        for c in load_claims([ledger]).itertuples(index=False):
            if c.availability == "not public":
                outcomes = [Outcome("", None, "", "the paper's data are not public")]
            elif c.claim_id in ledger.checks:
                outcomes = ledger.checks[c.claim_id](tree)
            else:
                raise ValueError(
                    f"{ledger.where('claims.csv')}: claim {c.claim_id} has no check in the "
                    f"paper's ledger module (PaperLedger.checks of {ledger.paper!r})"
                )
            for o in outcomes:
                verdict = claim_verdict(o.holds, c.availability)
                rows.append(
                    dict(
                        level="claim",
                        paper=c.paper,
                        item=c.items,
                        row=o.scope,
                        reported=c.claim,
                        ours=o.ours,
                        verdict=verdict,
                        reason=o.reason,
                        claim_id=c.claim_id,
                        source=c.where,
                    )
                )
    return pd.DataFrame(rows)


def build_ledger(root, only=None):
    """The ledger of a tree of part outputs.

    Parameters
    ----------
    root : str or pathlib.Path
        ``results/paper`` or ``results/runs/<run>``.
    only : iterable of str or None
        The tables that may be read (the workflow passes the rule's inputs); None: any.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`LEDGER_COLUMNS`, one row per item, transcribed row and claim scope.
    """
    tree = RunTree(root, only)
    ledgers = paper_ledgers()
    reported = load_reported(ledgers)
    joined = cell_verdicts(join(reported, read_ours(tree, ledgers)))
    claim_rows = run_claims(tree, ledgers)

    links = claim_items(load_claims(ledgers))
    item_claims = claims_per_item(claim_rows, links, reported)

    verdicts, reasons = joined["verdict"].to_list(), joined["reason"].to_list()
    for i, row in enumerate(joined.itertuples(index=False)):
        if pd.isna(verdicts[i]):
            vs = [v for _, _, v in item_claims.get((row.paper, row.item), [])]
            if not vs or (_nan(row.ours_value) and not row.ours_text):
                verdicts[i] = "not run"
                reasons[i] = row.ours_note or "our run has no such output"
            elif "contradicts" in vs:
                verdicts[i], reasons[i] = "contradicts", "a claim on this figure is contradicted"
            elif "same conclusion" in vs:
                verdicts[i], reasons[i] = "same conclusion", "the claims on this figure hold"
            else:
                verdicts[i], reasons[i] = "not run", "no claim on this figure could be checked"
    joined = joined.assign(verdict=verdicts, reason=reasons)

    cells = pd.DataFrame(
        {
            "level": joined["kind"],
            "paper": joined["paper"],
            "item": joined["item"],
            "row": joined["row"],
            "column": joined["column"],
            "dataset": joined["dataset"],
            "method": joined["method"],
            "setting": joined["setting"],
            "metric": joined["metric"],
            "unit": joined["unit"],
            "reported": joined["printed"],
            "reported_value": joined["value"],
            "reported_spread": joined["spread"],
            "reported_n": joined["n_reps"],
            "ours": joined["ours_text"],
            "ours_value": joined["ours_value"],
            "ours_spread": joined["ours_spread"],
            "ours_n": joined["ours_n"],
            "difference": joined["ours_value"] - joined["value"],
            "tolerance": [_tolerance(r) for r in joined.itertuples(index=False)],
            "verdict": joined["verdict"],
            "reason": [
                r if not note or note in r else f"{r}; {note}"
                for r, note in zip(joined["reason"], joined["ours_note"])
            ],
            "claim_id": "",
            "source": joined["source"],
            "compare": joined["compare"],
        }
    )

    blocks = []
    for ledger in ledgers:
        paper = ledger.paper
        for item in ledger.items:
            rows = cells[(cells["paper"] == paper) & (cells["item"] == item)]
            claims_here = item_claims.get((paper, item), [])
            verdict, detail = roll_up(rows["verdict"].to_list(), [v for _, _, v in claims_here])
            detail += _contradicting(rows, claims_here)
            ids = sorted(
                {
                    link.claim_id
                    for link in links.itertuples()
                    if (link.paper, link.item) == (paper, item)
                },
                key=_claim_order,
            )
            blocks.append(
                pd.DataFrame(
                    [
                        dict(
                            level="item",
                            paper=paper,
                            item=item,
                            reported=f"{len(rows)} transcribed row(s)",
                            verdict=verdict,
                            reason=detail,
                            claim_id=";".join(ids),
                            source=ledger.title,
                        )
                    ]
                )
            )
            blocks.append(rows)
        blocks.append(claim_rows[claim_rows["paper"] == paper])
    ledger = pd.concat(blocks, ignore_index=True)
    for col in LEDGER_COLUMNS:
        if col not in ledger:
            ledger[col] = ""
    ledger[list(TEXT_COLUMNS)] = ledger[list(TEXT_COLUMNS)].fillna("")
    ledger["compare"] = ledger["compare"].fillna("")
    ledger = attach(ledger.drop(columns=["cause", "evidence", "whose"]))
    return item_classes(ledger, item_claims)[list(LEDGER_COLUMNS)]


def item_classes(ledger, item_claims):
    """``ledger`` with the ``whose`` of every contradicting item row taken from the evidence
    beneath it: the first class (decision order of
    :data:`~rlsbench.studies.fidelity.investigations.CLASSES`) of its contradicted claim
    scopes (``item_claims``, :func:`claims_per_item`), or, where none is contradicted, of its
    contradicting cells and series."""
    bad = ledger[ledger["verdict"] == "contradicts"]
    claim_class = {
        (r.paper, r.claim_id, r.row): r.whose for r in bad[bad["level"] == "claim"].itertuples()
    }
    out = ledger["whose"].copy()
    for i in ledger.index[(ledger["level"] == "item") & (ledger["verdict"] == "contradicts")]:
        paper, item = ledger.at[i, "paper"], ledger.at[i, "item"]
        claims = [
            claim_class[(paper, cid, scope)]
            for cid, scope, v in item_claims.get((paper, item), [])
            if v == "contradicts"
        ]
        rows = bad[
            bad["level"].isin(["cell", "series"]) & (bad["paper"] == paper) & (bad["item"] == item)
        ]
        out.at[i] = first_class(claims or rows["whose"]) or out.at[i]
    return ledger.assign(whose=out)


def claims_per_item(claim_rows, links, reported):
    """(paper, item) -> (claim_id, scope, verdict) of the claim scopes that speak to that item.

    A claim checked per data set (its scopes are data sets of its items) counts for an item
    only through the scopes on that item's data sets: a figure of data set A gets the claim's
    outcome on A, not its outcome on B. Other scopes (a kernel, "all tasks") count for every
    item the claim names.
    """
    datasets = reported.groupby(["paper", "item"])["dataset"].apply(set).to_dict()
    out = {}
    for link in links.itertuples(index=False):
        rows = claim_rows[claim_rows["claim_id"] == link.claim_id]
        claimed = set().union(
            *(
                datasets.get((link.paper, i), set())
                for i in links[links["claim_id"] == link.claim_id]["item"]
            )
        )
        mine = datasets.get((link.paper, link.item), set())
        keep = [scope not in claimed or scope in mine for scope in rows["row"]]
        # a boolean Series, not a list: an empty list would select columns (none)
        kept = rows[pd.Series(keep, index=rows.index, dtype=bool)]
        out.setdefault((link.paper, link.item), []).extend(
            zip(kept["claim_id"], kept["row"], kept["verdict"])
        )
    return out


def _contradicting(rows, claims_here, most=6):
    """'; contradicted: claims C7 (dataset-a); cells: dataset-b #instances, …'."""
    bad_claims = sorted(
        {
            f"{cid} ({scope})" if scope else cid
            for cid, scope, v in claims_here
            if v == "contradicts"
        }
    )
    bad = rows[(rows["verdict"] == "contradicts") & (rows["level"] == "cell")]
    cells = [f"{r} {c}".strip() for r, c in zip(bad["row"], bad["column"])]
    parts = []
    if bad_claims:
        parts.append("claims " + ", ".join(bad_claims))
    if cells:
        more = f" and {len(cells) - most} more" if len(cells) > most else ""
        parts.append("cells " + ", ".join(cells[:most]) + more)
    return "; contradicted: " + "; ".join(parts) if parts else ""


def _claim_order(cid):
    return (cid[0], int(cid[1:]))


def _nan(x):
    return x is None or (isinstance(x, float) and math.isnan(x))


def _tolerance(r):
    from rlsbench.studies.fidelity.verdicts import match_tolerance

    return match_tolerance(r)[0]


def summarize(ledger):
    """Verdict counts per level and paper (tidy: one row per level × paper, plus totals), with
    *contradicts* also split by whose it is (:data:`CLASS_COLUMNS`)."""
    rows = []
    for level in LEVELS:
        lv = ledger[ledger["level"] == level]
        if lv.empty:
            continue
        for paper in [*(ledger.paper for ledger in paper_ledgers()), "all"]:
            sub = lv if paper == "all" else lv[lv["paper"] == paper]
            counts = sub["verdict"].value_counts()
            classes = sub.loc[sub["verdict"] == "contradicts", "whose"].value_counts()
            rows.append(
                {
                    "level": level,
                    "paper": paper,
                    **{v: int(counts.get(v, 0)) for v in VERDICTS},
                    **{f"contradicts: {c}": int(classes.get(c, 0)) for c in CLASSES},
                    "total": len(sub),
                }
            )
    return pd.DataFrame(rows, columns=list(SUMMARY_COLUMNS))


def split_by_whose(summary):
    """The summary's count columns for a reader: the verdicts, *contradicts* replaced by the
    classes that occur in ``summary`` (``"contradicts: <class>"``), and the total."""
    classes = [c for c in CLASS_COLUMNS if summary[c].sum() > 0]
    at = VERDICTS.index("contradicts")
    return [*VERDICTS[:at], *classes, *VERDICTS[at + 1 :], "total"]


def summary_markdown(ledger, summary, source):
    """The summary as Markdown: counts per level, then every item and claim that contradicts."""
    titles = {
        "item": "Numbered tables and figures",
        "claim": "Claims in words (one row per checked scope)",
        "cell": "Table cells and numbers stated in the text",
        "series": "Figure series",
    }
    parts = [
        "# Fidelity ledger: summary",
        "",
        f"Computed by `rlsbench.studies.fidelity` from `{source}`; every row with its reason: "
        "`fidelity.csv`. Verdict rules: the docstring of "
        "`rlsbench/studies/fidelity/verdicts.py`.",
    ]
    parts += [
        "",
        "*Contradicts* is split by whose it is (column `whose` of `fidelity.csv`: the row's own "
        "evidence, then the causes found, in the decision order of "
        "`rlsbench/studies/fidelity/investigations.py`, first that applies): "
        + "; ".join(f"*{c}*: {what}" for c, what in CLASSES.items())
        + ".",
    ]
    for level in LEVELS:
        s = summary[summary["level"] == level]
        if s.empty:
            continue
        s = s[["paper", *split_by_whose(s)]]
        parts += ["", f"## {titles[level]}", "", s.to_markdown(index=False)]
    bad = ledger[(ledger["verdict"] == "contradicts") & ledger["level"].isin(["item", "claim"])]
    if len(bad):
        table = bad[
            ["paper", "level", "item", "claim_id", "row", "whose", "ours", "reason", "cause"]
        ]
        table = table.rename(columns={"row": "scope"})
        table = table.assign(cause=table["cause"].map(brief_causes))
        parts += [
            "",
            "## Items and claims that contradict the paper",
            "",
            f"Each cause with the first sentences of its finding (at most {BRIEF_CHARS} "
            "characters; […] marks a cut): the whole finding and its evidence are in "
            "`fidelity.csv`.",
            "",
            table.to_markdown(index=False),
        ]
    return "\n".join(parts) + "\n"


#: The characters of one finding the summary's table of contradictions keeps
#: (:func:`brief_causes`): a table row must fit a printed page.
BRIEF_CHARS = 300


def brief_causes(text, limit=BRIEF_CHARS):
    """The ``cause`` column of a ledger row (``"cause: finding | cause: finding"``, from
    :func:`~rlsbench.studies.fidelity.investigations.attach`) with each finding cut after its
    last whole sentence within ``limit`` characters (its first sentence cut at a word if
    that alone is longer), ``" […]"`` marking the cut.

    Examples
    --------
    >>> brief_causes("noise: One. Two three.", limit=12)
    'noise: One. […]'
    >>> brief_causes("data: Short.")
    'data: Short.'
    """
    out = []
    for finding in str(text).split(" | "):
        if len(finding) <= limit:
            out.append(finding)
            continue
        head = finding[:limit]
        cut = max(head.rfind(". "), head.rfind("; "))
        if cut <= head.find(": ") + 2:  # no whole sentence within the limit: cut at a word
            cut = head.rfind(" ") - 1
        out.append(finding[: cut + 1] + " […]")
    return " | ".join(out)


def variant_trees(root):
    """The variants published under ``root/variants/``.

    Returns
    -------
    dict
        Variant name -> ``(folder, parts, description)``: the variant's tree, the parts it
        holds (a part folder with its ``provenance.json``) and the ``variant.description`` of
        the config recorded there; sorted by name. Empty when there are none.
    """
    base = Path(root) / VARIANTS
    if not base.is_dir():
        return {}
    out = {}
    for folder in sorted(p for p in base.iterdir() if p.is_dir()):
        records = sorted(folder.glob("*/provenance.json"))
        if not records:
            continue
        descriptions = {
            json.loads(r.read_text()).get("config", {}).get("variant", {}).get("description", "")
            for r in records
        }
        out[folder.name] = (
            folder,
            tuple(r.parent.name for r in records),
            " ".join(sorted(d.strip() for d in descriptions if d)),
        )
    return out


def variant_columns(name):
    """The two ledger columns of variant ``name``: its ``ours`` and its ``verdict``."""
    return f"ours [{name}]", f"verdict [{name}]"


def with_variants(ledger, root):
    """``ledger`` with :func:`variant_columns` of every variant of ``root``
    (:func:`variant_trees`), filled on the rows of the papers whose parts the variant holds
    and empty elsewhere; the rows and the headline columns are unchanged."""
    papers_of = {}
    for paper in paper_ledgers():
        for part in paper.part_files:
            papers_of.setdefault(part, set()).add(paper.paper)
    for name, (folder, parts, _) in variant_trees(root).items():
        papers = set().union(*(papers_of.get(part, set()) for part in parts))
        ours, verdict = variant_columns(name)
        theirs = build_ledger(folder)
        theirs = theirs[theirs["paper"].isin(papers)][[*KEY_COLUMNS, "ours", "verdict"]]
        theirs = theirs.rename(columns={"ours": ours, "verdict": verdict})
        ledger = ledger.merge(theirs, on=list(KEY_COLUMNS), how="left", validate="one_to_one")
        ledger[[ours, verdict]] = ledger[[ours, verdict]].fillna("")
    return ledger


def variants_markdown(ledger, root):
    """The summary's section on the variants of ``root``: per variant, what it changes and how
    many of its papers' items and claims get another verdict than under the paper's wording.
    A variant that runs only some of a part's methods leaves the others' rows *not run*: those
    are counted apart, never as another verdict."""
    variants = variant_trees(root)
    if not variants:
        return []
    rows = []
    for name, (_, parts, description) in variants.items():
        _, verdict = variant_columns(name)
        if verdict not in ledger:
            continue
        mine = ledger[(ledger[verdict] != "") & ledger["level"].isin(["item", "claim"])]
        skipped = mine[(mine[verdict] == "not run") & (mine["verdict"] != "not run")]
        mine = mine.drop(index=skipped.index)
        moved = mine[mine[verdict] != mine["verdict"]].rename(columns={verdict: "variant_verdict"})
        rows.append(
            {
                "variant": name,
                "parts": ", ".join(parts),
                "what it changes": description,
                "items and claims": len(mine),
                "not run in it": len(skipped),
                "another verdict": len(moved),
                "of them": "; ".join(
                    f"{r.item if r.level == 'item' else r.claim_id}"
                    f"{' ' + r.row if r.level == 'claim' and r.row else ''}: "
                    f"{r.verdict} -> {r.variant_verdict}"
                    for r in moved.itertuples(index=False)
                ),
            }
        )
    if not rows:
        return []
    return [
        "",
        "## Variants (one setting other than the headline's each; never counted above)",
        "",
        pd.DataFrame(rows).to_markdown(index=False),
    ]


def ledger_outputs(root, only=None, source=None):
    """The three outputs of :func:`write_ledger` for the tree ``root``, unwritten.

    Returns
    -------
    tuple
        ``(ledger, summary, markdown)``: the ledger with its variants' columns
        (:func:`with_variants`), its :func:`summarize` and the summary as Markdown (with the
        variants' section).
    """
    ledger = with_variants(build_ledger(root, only), root)
    summary = summarize(ledger)
    markdown = summary_markdown(ledger, summary, source or str(root))
    if variant_trees(root):
        markdown += "\n".join(variants_markdown(ledger, root)) + "\n"
    return ledger, summary, markdown


def write_ledger(root, out_dir=None, only=None, source=None, log=None):
    """Compute the ledger of ``root`` and write :data:`OUTPUTS` into ``out_dir`` (default: root).

    ``only`` limits the tables read (see :class:`~rlsbench.studies.fidelity.ours.RunTree`),
    ``source`` is how the summary names the tree, ``log`` a file that lists the tables read
    and the files written.

    Returns
    -------
    list of pathlib.Path
        The files written.
    """
    out_dir = Path(root if out_dir is None else out_dir)
    ledger, summary, markdown = ledger_outputs(root, only, source)
    paths = [out_dir / name for name in OUTPUTS]
    for path, frame in zip(paths[:2], (ledger, summary)):
        with atomic_path(path) as tmp:
            frame.to_csv(tmp, index=False)
    atomic_write_text(paths[2], markdown)
    if log is not None:
        read = RunTree(root, only).inputs()
        lines = ["read:", *(f"  {p}" for p in read), "wrote:", *(f"  {p}" for p in paths)]
        Path(log).parent.mkdir(parents=True, exist_ok=True)
        Path(log).write_text("\n".join(lines) + "\n")
    return paths
