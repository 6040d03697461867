"""Hold a text's claims of fidelity ("reproduced", "confirmed", "matches") against the ledger.

A README or report line that calls a numbered table or figure reproduced must agree with that
item's ledger verdict: *match* or *same conclusion*. :func:`text_claims` finds such lines,
:func:`check_text` returns them with the verdict and whether they are allowed.

Which paper an item name ("Table 1" exists in three papers) belongs to comes from the argument
``paper`` or, line by line, from the last Markdown heading that names one of the papers'
first authors (Pahikkala, Buteneers, Ramona, Sun & Yao).
"""

from __future__ import annotations

import re

import pandas as pd

from rlsbench.studies.fidelity.verdicts import GOOD

#: Words that call an item reproduced.
CLAIM_WORDS = re.compile(r"\b(reproduc\w*|confirm\w*|match\w*|agree\w*)\b", re.IGNORECASE)
#: A negation shortly before the claim word ("not reproduced", "does not match").
NEGATION = re.compile(
    r"\b(not|no|never|cannot|can't|doesn't|don't|isn't|aren't|fails?\s+to|unable\s+to)\b"
    r"[^.;:]{0,30}$",
    re.IGNORECASE,
)
PAPER_NAMES = {
    "pahikkala": re.compile(r"pahikkala|greedy rls paper", re.IGNORECASE),
    "buteneers": re.compile(r"buteneers", re.IGNORECASE),
    "ramona": re.compile(r"ramona", re.IGNORECASE),
    "sunyao": re.compile(r"sun\s*(&|and)\s*yao", re.IGNORECASE),
}
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
    """Lines of ``text`` that call a numbered item reproduced.

    Returns
    -------
    pandas.DataFrame
        Columns line (1-based), paper, item, word, text: one row per (line, item) whose line
        has a non-negated claim word. ``paper`` is None where no paper is in context.
    """
    rows, current = [], paper
    for number, line in enumerate(text.splitlines(), start=1):
        if paper is None and line.lstrip().startswith("#"):
            named = [p for p, rx in PAPER_NAMES.items() if rx.search(line)]
            if len(named) == 1:
                current = named[0]
        words = [
            m.group(0) for m in CLAIM_WORDS.finditer(line) if not NEGATION.search(line[: m.start()])
        ]
        if not words:
            continue
        for ref in ITEM_REF.finditer(line):
            for item in item_names(ref):
                rows.append(dict(line=number, paper=current, item=item, word=words[0], text=line))
    return pd.DataFrame(rows, columns=["line", "paper", "item", "word", "text"])


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
        paper is in context or the paper has no such item) and ``ok`` (verdict is *match* or
        *same conclusion*).
    """
    found = text_claims(text, paper)
    items = ledger[ledger["level"] == "item"].set_index(["paper", "item"])["verdict"]
    verdicts = [
        items.get((p, i), "unknown item") if p is not None else "unknown item"
        for p, i in zip(found["paper"], found["item"])
    ]
    return found.assign(verdict=verdicts, ok=[v in GOOD for v in verdicts])
