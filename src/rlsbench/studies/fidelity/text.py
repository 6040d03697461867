"""Hold a text's claims of fidelity ("reproduced", "confirmed", "matches") against the ledger.

A README or report line that calls a numbered table or figure reproduced must agree with that
item's ledger verdict: *match* or *same conclusion*. A line that calls it regenerated must at
least have run it: any verdict but *not run* and *not public*. :func:`text_claims` finds such
lines, :func:`check_text` returns them with the verdict and whether they may stand.

Which paper an item name ("Table 1" exists in several papers) belongs to comes from the
argument ``paper`` or, line by line, from the last Markdown heading that names exactly one
paper (matches its ``PaperLedger.heading``, :mod:`~rlsbench.studies.fidelity.papers`).
"""

from __future__ import annotations

import re

import pandas as pd

from rlsbench.studies.fidelity.papers import paper_ledgers
from rlsbench.studies.fidelity.verdicts import GOOD

#: Words that call an item reproduced (kind "reproduced") or merely run again ("regenerated").
CLAIM_WORDS = re.compile(
    r"\b(?:(?P<reproduced>reproduc\w*|confirm\w*|match\w*|agree\w*)|(?P<regenerated>regenerat\w*))\b",
    re.IGNORECASE,
)
RAN = ("match", "same conclusion", "inconclusive", "contradicts")
#: A negation shortly before the claim word ("not reproduced", "does not match").
NEGATION = re.compile(
    r"\b(not|no|never|cannot|can't|doesn't|don't|isn't|aren't|fails?\s+to|unable\s+to)\b"
    r"[^.;:]{0,30}$",
    re.IGNORECASE,
)
#: Clauses of a line: a claim word speaks for the items of its own clause ("Tables 3-6
#: regenerated; Table 5 reproduced" claims only Table 5). "Fig. 4" is not a sentence end.
CLAUSE = re.compile(r";|\.\s+(?=[A-Z])")


def paper_names():
    """Paper -> the compiled pattern of a heading that names it (``PaperLedger.heading``)."""
    return {ledger.paper: re.compile(ledger.heading, re.IGNORECASE) for ledger in paper_ledgers()}


_ROMAN = {"I": 1, "V": 5, "X": 10}
_NUM = r"(?:\d+|[IVX]+)"
ITEM_REF = re.compile(
    rf"\b(?P<kind>Tables?|Figs?\.?|Figures?)\s+(?P<list>{_NUM}(?:\s*(?:[-–,]|and|&)\s*{_NUM})*)",
)


def _roman(text):
    total, prev = 0, 0
    for ch in reversed(text):
        v = _ROMAN[ch]
        total, prev = (total - v, prev) if v < prev else (total + v, v)
    return total


def _to_roman(n):
    out = ""
    for value, sym in ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out, n = out + sym, n - value
    return out


def item_names(match):
    """The item names a reference spells: 'Tables 3-6' -> Table 3 … Table 6; 'Figs. 4–9'."""
    kind = "Table" if match.group("kind").lower().startswith("table") else "Fig."
    tokens = re.split(r"\s*(?:,|and|&)\s*", match.group("list"))
    names = []
    for token in tokens:
        bounds = re.split(r"\s*[-–]\s*", token.strip())
        roman = bounds[0].isalpha()
        values = [_roman(b) if b.isalpha() else int(b) for b in bounds if b]
        span = range(values[0], values[-1] + 1) if len(values) == 2 else values
        names += [f"{kind} {_to_roman(v) if roman else v}" for v in span]
    return names


def text_claims(text, paper=None):
    """Paragraphs of ``text`` that call a numbered item reproduced or regenerated.

    A paragraph is a run of lines up to a blank line, a heading or a new list item (Markdown
    wraps sentences over lines); a table row is a paragraph of its own; inline code is skipped.
    A claim word speaks for the items named in its own clause.

    Returns
    -------
    pandas.DataFrame
        Columns line (1-based, the paragraph's first line), paper, item, kind ("reproduced" or
        "regenerated"), word, text (the paragraph): one row per (paragraph, item) whose clause
        has a non-negated claim word. ``paper`` is None where no paper is in context.
    """
    rows, current = [], paper
    names = paper_names() if paper is None else {}
    for number, block, is_heading in _paragraphs(text):
        if paper is None and is_heading:
            named = [p for p, rx in names.items() if rx.search(block)]
            if len(named) == 1:
                current = named[0]
        for clause in CLAUSE.split(block):
            words = [
                m for m in CLAIM_WORDS.finditer(clause) if not NEGATION.search(clause[: m.start()])
            ]
            if not words:
                continue
            # the strongest word of the clause: "reproduced" over "regenerated"
            word = next((m for m in words if m.group("reproduced")), words[0])
            kind = "reproduced" if word.group("reproduced") else "regenerated"
            for ref in ITEM_REF.finditer(clause):
                for item in item_names(ref):
                    rows.append(
                        dict(
                            line=number,
                            paper=current,
                            item=item,
                            kind=kind,
                            word=word.group(0),
                            text=block,
                        )
                    )
    return pd.DataFrame(rows, columns=["line", "paper", "item", "kind", "word", "text"])


#: Inline code (`make reproduce`) is not prose.
_CODE = re.compile(r"`[^`]*`")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+")


def _paragraphs(text):
    """(first line number, joined text, is a heading) of each paragraph of Markdown text."""
    start, lines = None, []
    for number, line in enumerate(text.splitlines(), start=1):
        line = _CODE.sub("", line)
        heading = line.lstrip().startswith("#")
        row = line.lstrip().startswith("|")
        if lines and (not line.strip() or heading or row or _BULLET.match(line)):
            yield start, " ".join(lines), False
            start, lines = None, []
        if heading or row:
            yield number, line.strip(), heading
        elif line.strip():
            start = number if start is None else start
            lines.append(line.strip())
    if lines:
        yield start, " ".join(lines), False


def check_text(text, ledger, paper=None):
    """Every fidelity claim of ``text`` with the item's ledger verdict and whether it may stand.

    Parameters
    ----------
    text : str
        A README, report caption or output heading.
    ledger : pandas.DataFrame
        A ledger (``fidelity.csv``): its ``level == "item"`` rows are used.
    paper : str or None
        The paper the whole text is about; None: from Markdown headings.

    Returns
    -------
    pandas.DataFrame
        :func:`text_claims`'s columns plus ``verdict`` (the item's, or "unknown item" when no
        paper is in context or the paper has no such item) and ``ok`` (for "reproduced": the
        verdict is *match* or *same conclusion*; for "regenerated": the item ran at all).
    """
    found = text_claims(text, paper)
    items = ledger[ledger["level"] == "item"].set_index(["paper", "item"])["verdict"]
    verdicts = [
        items.get((p, i), "unknown item") if p is not None else "unknown item"
        for p, i in zip(found["paper"], found["item"])
    ]
    ok = [v in (GOOD if k == "reproduced" else RAN) for v, k in zip(verdicts, found["kind"])]
    return found.assign(verdict=verdicts, ok=ok)
