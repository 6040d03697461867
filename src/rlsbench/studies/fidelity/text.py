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

from rlsbench.lazy import lazy_module
from rlsbench.studies.fidelity.papers import paper_ledgers
from rlsbench.studies.fidelity.verdicts import GOOD

# pandas on first use: Snakemake reads this module with the rule files before any job
pd = lazy_module("pandas")

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


# ---------------------------------------------------------------------------------------------
# What a text says of a claim's verdict comes from the ledger
# ---------------------------------------------------------------------------------------------
#: Words that state a verdict or whose a contradiction is. A sentence that names a ledger claim
#: id ("R36") must not carry them by hand: its verdict comes from the ledger, through the
#: documentation's ``:ledger:`R36``` role (:func:`ledger_says`), which these checks skip.
VERDICT_WORDS = re.compile(
    r"\b(?:contradict\w*|does not hold|do not hold|holds?|held|fails?|failed|confirm\w*"
    r"|inconclusive|reproduc\w*|not borne out|unexplained|not explained|within noise|chance"
    r"|implementation differs|our setting|disagrees? with itself|not investigated)\b",
    re.IGNORECASE,
)
#: The documentation's role that writes a claim's verdict from the ledger.
LEDGER_ROLE = re.compile(r":ledger:`(?P<target>[^`]*)`")
#: Sentence ends inside a paragraph ("Fig. 4", "e.g." and "Sec. 2" are not ends).
_SENTENCE = re.compile(r"(?<![A-Z][a-z]\.)(?<!\be\.g\.)(?<!\bi\.e\.)(?<=[.!?])\s+(?=[A-Z*\"(])")


def claim_rows(ledger, target):
    """The ledger's claim rows of ``target``: ``"R36"`` or ``"S1/boston-housing"`` (a scope)."""
    claim_id, _, scope = target.partition("/")
    rows = ledger[(ledger["level"] == "claim") & (ledger["claim_id"] == claim_id.strip())]
    if scope:
        rows = rows[rows["row"] == scope.strip()]
    if rows.empty:
        raise ValueError(f"ledger: no claim row {target!r} (claim_id[/scope] of fidelity.csv)")
    return rows


def ledger_says(ledger, target):
    """What the ledger says of a claim (``target`` as for :func:`claim_rows`), in words:
    ``"R36: contradicts, paper disagrees with itself"``; scopes with different verdicts are
    named: ``"S1: same conclusion on ozone, abalone; contradicts, our setting, on boston"``."""
    rows = claim_rows(ledger, target)
    whose = rows["whose"] if "whose" in rows else pd.Series("", index=rows.index)
    said = [f"{v}, {w}" if w else v for v, w in zip(rows["verdict"], whose)]
    claim_id = target.partition("/")[0].strip()
    if len(set(said)) == 1:
        return f"{claim_id}: {said[0]}"
    groups: dict = {}
    for s, scope in zip(said, rows["row"]):
        groups.setdefault(s, []).append(scope)
    return f"{claim_id}: " + "; ".join(
        f"{s}{',' if ', ' in s else ''} on {', '.join(scopes)}" for s, scopes in groups.items()
    )


def hand_written_verdicts(text, claim_ids, items=()):
    """Sentences of ``text`` that name a claim id of ``claim_ids``, or an item of ``items``
    (the contradicted items of the paper the text is about: "Table II"), next to a verdict word
    of their own (:data:`VERDICT_WORDS`), outside the ``:ledger:`` role.

    Returns
    -------
    pandas.DataFrame
        Columns line (the paragraph's first line), claim_id (the id or the item), word,
        sentence.
    """
    columns = ["line", "claim_id", "word", "sentence"]
    ids = sorted(set(claim_ids), key=len, reverse=True)
    id_rx = re.compile(r"\b(" + "|".join(map(re.escape, ids)) + r")\b") if ids else None
    items = set(items)
    rows = []
    for number, block, _ in _paragraphs(LEDGER_ROLE.sub(" ", text)):
        for sentence in _SENTENCE.split(block):
            words = VERDICT_WORDS.findall(sentence)
            if not words:
                continue
            named = id_rx.findall(sentence) if id_rx else []
            named += [i for m in ITEM_REF.finditer(sentence) for i in item_names(m) if i in items]
            rows += [
                dict(line=number, claim_id=c, word=words[0], sentence=sentence)
                for c in dict.fromkeys(named)
            ]
    return pd.DataFrame(rows, columns=columns)


# ---------------------------------------------------------------------------------------------
# Results a text states in numbers or words: the ledger's, or cited from it
# ---------------------------------------------------------------------------------------------
#: A fitted growth exponent written as a power: "N^0.88", "D^2.75".
EXPONENT = re.compile(r"\b(?P<var>[A-Za-z])\^(?P<value>\d+\.\d+)\b")
#: The paper's own number ("the paper's N^2.55"), which the ledger need not hold.
_THE_PAPERS = re.compile(r"paper's\W*(?:\w+\W+){0,2}$")
#: A growth order stated in words ("grows quadratically in m", "scales linearly").
GROWTH_WORDS = re.compile(
    r"\b(?:grows?|growing|grew|scales?|scaling)\b[^.;]{0,40}?\b(?P<order>linearly|quadratically"
    r"|cubically)\b",
    re.IGNORECASE,
)
_ROLE_MARK = "⟦ledger:{}⟧"
_MARKED_ROLE = re.compile(r"⟦ledger:(?P<target>[^⟧]*)⟧")


def sentences(text):
    """(first line of the paragraph, sentence) of every sentence of a README or docs page, each
    ``:ledger:`` role kept as a mark that :func:`cited_claims` reads."""
    marked = LEDGER_ROLE.sub(lambda m: _ROLE_MARK.format(m.group("target")), text)
    for number, block, _ in _paragraphs(marked):
        for sentence in _SENTENCE.split(block):
            yield number, sentence


def cited_claims(sentence):
    """The ``:ledger:`` targets a sentence of :func:`sentences` cites."""
    return [m.group("target") for m in _MARKED_ROLE.finditer(sentence)]


def _ledger_text(ledger):
    return [str(x) for col in ledger.columns for x in ledger[col].astype(str).unique()]


def unstated_exponents(text, ledger):
    """Exponents a text states ("N^0.93") that the ledger does not hold.

    An exponent of ours stands only when some text of the ledger (``ours``, a variant's
    ``ours``, a finding) states it: as the same power, or as a number after the word
    "exponent". The paper's own exponents ("the paper's N^2.55") are skipped.

    Returns
    -------
    pandas.DataFrame
        Columns line, exponent, sentence.
    """
    texts = _ledger_text(ledger)
    rows = []
    for number, sentence in sentences(text):
        for m in EXPONENT.finditer(sentence):
            if _THE_PAPERS.search(sentence[: m.start()]):
                continue
            value = re.escape(m.group("value"))
            stated = (
                re.compile(rf"\b{m.group('var')}\^{value}(?![\d])"),
                re.compile(rf"exponent[^;|]*?(?<![\d.]){value}(?![\d])"),
            )
            if not any(p.search(t) for t in texts for p in stated):
                rows.append(dict(line=number, exponent=m.group(0), sentence=sentence))
    return pd.DataFrame(rows, columns=["line", "exponent", "sentence"])


def uncited_growth(text, ledger):
    """Sentences that state a growth order in words ("grows quadratically") without citing,
    through the ``:ledger:`` role, a claim whose every cited row the ledger confirms
    (*match* or *same conclusion*): a growth the ledger calls inconclusive is not a result.

    Returns
    -------
    pandas.DataFrame
        Columns line, order, cited (the roles' ``ledger_says``), sentence.
    """
    rows = []
    for number, sentence in sentences(text):
        m = GROWTH_WORDS.search(sentence)
        if not m:
            continue
        cited = cited_claims(sentence)
        verdicts = [v for c in cited for v in claim_rows(ledger, c)["verdict"]]
        if not verdicts or not all(v in GOOD for v in verdicts):
            said = "; ".join(ledger_says(ledger, c) for c in cited) or "no :ledger: role"
            rows.append(dict(line=number, order=m.group("order"), cited=said, sentence=sentence))
    return pd.DataFrame(rows, columns=["line", "order", "cited", "sentence"])


#: A hand-written count of the verdicts a variant changes ("changes no verdict", "moves 8 of
#: the headline's rows"): the ledger's summary lists them (``variants_markdown``).
VARIANT_COUNT = re.compile(
    r"\b(?:changes?|moves?)\s+(?:no|\d+|none)\b(?:\s+of)?[^.;]{0,40}?\b(?:verdicts?|rows?)\b",
    re.IGNORECASE,
)


def hand_counted_variants(text):
    """Sentences of ``text`` that count by hand the verdicts a variant changes."""
    rows = [
        dict(line=number, words=m.group(0), sentence=sentence)
        for number, sentence in sentences(text)
        for m in VARIANT_COUNT.finditer(sentence)
    ]
    return pd.DataFrame(rows, columns=["line", "words", "sentence"])
