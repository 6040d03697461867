"""The transcription format: the papers' reported numbers and claims, as package data.

Every paper's ledger module (:mod:`~rlsbench.studies.fidelity.papers`) has, next to it,
``reported.csv`` (one row per table cell, figure series or number stated in the text of the
paper) and ``claims.csv`` (one row per claim the paper makes in words). This module states
their schema and loads them, every paper's rows in the order of
:func:`~rlsbench.studies.fidelity.papers.ledger_modules`; a test checks that every numbered
table and figure of a paper (its ``PaperLedger.items``) is transcribed.

Columns of ``reported.csv``
---------------------------
paper, item
    The paper's key (``PaperLedger.paper``; a file holds its own paper's rows only) and the
    paper's own name of the table or figure ("Table 5", "Fig. 4", "Table VII").
kind
    ``cell`` (a number: a table cell, or a value the text states about a figure) or
    ``series`` (a figure's curve; its value is empty when the text gives no number).
row, column
    The labels as printed in the paper (for display).
dataset, method, setting, metric
    The join key with our results (with paper and item; unique). ``setting`` is a ``;``-joined
    list of ``key=value`` (``kernel``, ``S``, ``n``, ``N``, ``D``, ``m``, ``k``).
printed
    The cell as printed (times keep their unit suffix, "6.7 ± 1.0" keeps its spread).
value, spread, n_reps
    The number in ``unit``, the printed ± (a standard deviation over the paper's repetitions),
    and how many repetitions the paper averaged over, where it says.
unit
    One of :data:`UNITS`.
compare
    How a value is compared with ours (:mod:`rlsbench.studies.fidelity.verdicts`): ``value``,
    ``log``, ``setting``, ``hardware``, ``hardware_bound`` or ``claims``.
group
    Cells of one (paper, item, group) are ordered against each other for the *same conclusion*
    rule (e.g. the methods of one table row); empty: no ordering.
availability
    ``public`` (we can run it), ``not public`` (the data are not available) or ``quoted`` (the
    paper quotes another publication's result for a method we do not implement).
source
    The line of the paper's text copy in ``shared/papers/`` and transcription notes.
"""

from __future__ import annotations

import math
import re

from rlsbench.lazy import lazy_module
from rlsbench.studies.fidelity.papers import paper_ledgers

# pandas on first use: Snakemake reads this module with the rule files before any job
pd = lazy_module("pandas")

REPORTED_COLUMNS = (
    "paper",
    "item",
    "kind",
    "row",
    "column",
    "dataset",
    "method",
    "setting",
    "metric",
    "printed",
    "value",
    "spread",
    "n_reps",
    "unit",
    "compare",
    "group",
    "availability",
    "source",
)
KEY = ("paper", "item", "dataset", "method", "setting", "metric")
KINDS = ("cell", "series")
UNITS = (
    "%",
    "fraction",
    "s",
    "NRMSE x10",
    "MSE",
    "NMSE",
    "count",
    "1",
    "normalised time",
    "% of cases",
)
COMPARES = ("value", "log", "setting", "hardware", "hardware_bound", "claims")
AVAILABILITY = ("public", "not public", "quoted")

CLAIM_COLUMNS = ("paper", "claim_id", "items", "claim", "where", "availability")

_TIME_UNITS = {"s": 1.0, "m": 60.0, "min": 60.0, "h": 3600.0, "d": 86400.0}
_NUMBER = re.compile(r"^[<≈~]?\s*(?P<num>[0-9][0-9 ]*(?:\.[0-9]+)?(?:e[0-9]+)?)(?P<suffix>[a-z]*)$")


def parse_printed(printed, unit):
    """The value, spread and precision of a printed cell, in ``unit``.

    Parameters
    ----------
    printed : str
        The cell as printed: ``"6.7 ± 1.0"``, ``"4.5d"`` (times carry a unit suffix s, m, h,
        d), ``"9.0e11"``, ``"10 × 100"``, ``"≈15"``, ``"<12m"``, ``"17 764"``.
    unit : str
        The unit of the row (``"s"`` converts a time suffix to seconds).

    Returns
    -------
    value, spread, precision : float
        ``precision`` is half a unit of the last printed digit of the value (the paper's
        stated precision), in ``unit``. ``spread`` is NaN when none is printed.
    """
    text = printed.strip()
    spread = math.nan
    if "±" in text:
        text, spread_text = (part.strip() for part in text.split("±"))
        spread = float(spread_text)
    if "×" in text:
        factors = [_parse_number(part.strip()) for part in text.split("×")]
        return factors[0][0] * factors[1][0], spread, 0.5
    (value, precision), suffix = _parse_number(text), _suffix(text)
    if suffix:
        if unit != "s" or suffix not in _TIME_UNITS:
            raise ValueError(f"cell {printed!r}: suffix {suffix!r} in a row of unit {unit!r}")
        value, precision = value * _TIME_UNITS[suffix], precision * _TIME_UNITS[suffix]
    return value, spread, precision


def _suffix(text):
    match = _NUMBER.match(text)
    if match is None:
        raise ValueError(f"cell {text!r} is not a number as the papers print them")
    return match.group("suffix")


def _parse_number(text):
    match = _NUMBER.match(text)
    if match is None:
        raise ValueError(f"cell {text!r} is not a number as the papers print them")
    digits = match.group("num").replace(" ", "")
    mantissa, _, exponent = digits.partition("e")
    decimals = len(mantissa.partition(".")[2])
    scale = 10.0 ** int(exponent) if exponent else 1.0
    return float(mantissa) * scale, 0.5 * 10.0**-decimals * scale


def read_data(ledger, name, columns):
    """One transcription file of one paper (a :class:`~rlsbench.studies.fidelity.papers.
    PaperLedger`), as strings, its ``columns`` only; every row must be that paper's."""
    with ledger.data_file(name).open(encoding="utf-8") as fh:
        frame = pd.read_csv(fh, dtype=str, keep_default_na=False)
    where = ledger.where(name)
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{where}: missing column(s) {', '.join(missing)}")
    others = [
        f"line {i} ({p!r})" for i, p in enumerate(frame["paper"], start=2) if p != ledger.paper
    ]
    if others:
        raise ValueError(
            f"{where}: rows of another paper than {ledger.paper!r}: {', '.join(others)}"
        )
    return frame[list(columns)]


def _read_all(name, columns, ledgers):
    ledgers = paper_ledgers() if ledgers is None else ledgers
    frames = [read_data(ledger, name, columns) for ledger in ledgers]
    if not frames:
        return pd.DataFrame(columns=list(columns), dtype=str)
    return pd.concat(frames, ignore_index=True)


def load_reported(ledgers=None):
    """``reported.csv`` with ``value``, ``spread``, ``n_reps`` as floats and ``precision`` added.

    Parameters
    ----------
    ledgers : sequence of PaperLedger or None
        The papers whose rows are read (a paper's own module passes its ``LEDGER``); None:
        every paper's.

    Returns
    -------
    pandas.DataFrame
        One row per transcribed cell or series; columns :data:`REPORTED_COLUMNS` and
        ``precision`` (half a unit of the last printed digit, NaN for series without a value).
    """
    frame = _read_all("reported.csv", REPORTED_COLUMNS, ledgers)
    for col in ("value", "spread", "n_reps"):
        frame[col] = pd.to_numeric(frame[col].replace("", math.nan))
    frame["precision"] = [
        parse_printed(p, u)[2] if p else math.nan for p, u in zip(frame["printed"], frame["unit"])
    ]
    return frame


def load_claims(ledgers=None):
    """``claims.csv``: one row per claim in words (``items`` is ``;``-separated), of
    ``ledgers`` (None: every paper)."""
    return _read_all("claims.csv", CLAIM_COLUMNS, ledgers)


def claim_items(claims):
    """(paper, claim_id, item) for every item a claim refers to."""
    rows = [
        (paper, cid, item.strip())
        for paper, cid, items in zip(claims["paper"], claims["claim_id"], claims["items"])
        for item in items.split(";")
        if item.strip()
    ]
    return pd.DataFrame(rows, columns=["paper", "claim_id", "item"])
