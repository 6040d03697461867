"""Why a result contradicts its paper: the causes found, each with the run that shows it.

Each paper's ``investigations.csv`` (package data next to its ledger module, see
:mod:`~rlsbench.studies.fidelity.papers`) holds one row per cause found for a contradicting
item or claim of that paper. The ledger attaches it to every row of that scope whose verdict
is *contradicts* (columns ``cause`` and ``evidence``), so that a reader sees, next to each
contradiction, what differs and the run that isolates it.

Columns of ``investigations.csv``
---------------------------------
paper
    The paper's key (``PaperLedger.paper``; a file holds its own paper's rows only).
scope
    A numbered item of the paper (``PaperLedger.items``: "Table 5") or a claim id of its
    ``claims.csv`` ("B3").
dataset
    Restricts the row to one dataset (a claim's scope or a cell's dataset); empty: all.
cause
    One of :data:`CAUSES`.
finding
    What differs, in one or two sentences, with the numbers that show it.
evidence
    The run that isolates the cause: the config (file and keys), the command, and the output
    file it wrote (committed under ``results/paper/<part>/investigations/`` or named in the
    part's tables).

Whose a contradiction is
------------------------
The ledger's ``whose`` column gives every *contradicts* row one class of :data:`CLASSES`
(:func:`whose`). The class comes from the row's own evidence first, then from the causes
attached to it, in one decision order, which is the order of :data:`CLASSES`:

1. *hardware*: the row is a timing compared on other hardware (a cell with ``compare =
   hardware`` or ``hardware_bound``): whatever else is attached to its item, a time measured
   on another machine is compared by its orderings only;
2. *paper disagrees with itself*: a cause ``paper`` (on an item or a claim: a cell's number
   against the paper's own is evidence of the cell, not of the paper's text): the paper's own
   numbers or text do not bear its result out, so no faithful run could;
3. *our setting*: a cause ``protocol``, ``hyperparameter``, ``data`` or ``wording``: the
   result turns on a setting the paper does not state, states otherwise, or states two ways
   (one reading is ours);
4. *implementation differs*: a cause ``implementation`` or ``bug``;
5. *not borne out*: a cause ``unexplained`` or ``faithful``: ours faithful as far as known,
   and the result does not hold;
6. *not investigated*: no cause that applies to the row.

A cause ``noise`` never classes a contradiction: by the verdict rules
(:mod:`~rlsbench.studies.fidelity.verdicts`) a contradiction already lies beyond the noise of
the row's own repetitions and seed draws, and a row within it is *inconclusive*. A noise
finding is attached to the *inconclusive* rows of its scope instead, and a ``hardware`` cause
only to timing rows. An *item* row takes the first class, in this order, of the contradicting
rows and claims under it: its class too comes from the evidence beneath it, not from a cause
attached to the whole item. Rows whose verdict is not *contradicts* have an empty ``whose``.
"""

from __future__ import annotations

from rlsbench.lazy import lazy_module
from rlsbench.studies.fidelity.papers import paper_ledgers
from rlsbench.studies.fidelity.transcription import load_claims, read_data

# pandas on first use: Snakemake reads this module with the rule files before any job
pd = lazy_module("pandas")

COLUMNS = ("paper", "scope", "dataset", "cause", "finding", "evidence")

#: What a contradiction can come from.
CAUSES = {
    "bug": "a bug of ours, fixed (the row moved)",
    "protocol": "a protocol detail that differs from the paper's (preprocessing, splits, model)",
    "hyperparameter": "a hyperparameter the paper tuned or chose and does not state",
    "data": "a different version or encoding of the data",
    "implementation": "our re-implementation of a method the paper ran from other software",
    "hardware": "timings on different hardware and software",
    "paper": "the paper contradicts itself (text against its own tables)",
    "noise": "within the spread of repetitions: a difference the data cannot resolve",
    "wording": (
        "the result turns on a setting the paper leaves open or states two ways; the finding "
        "gives the readings and what each gives"
    ),
    "unexplained": "not found; what was tried is in the evidence",
    "faithful": (
        "run under the paper's own wording (every setting it states; where it is silent, ours, "
        "written next to the setting): the result does not hold there, and the finding says "
        "what makes our numbers differ from the paper's"
    ),
}

#: Whose a contradiction is, in the decision order (see the module text).
CLASSES = {
    "hardware": "timings on other hardware and software, compared by their orderings only",
    "paper disagrees with itself": "the paper's own numbers or text do not bear its result out",
    "our setting": (
        "the result turns on a setting the paper does not state, states otherwise or states "
        "two ways; ours is one reading"
    ),
    "implementation differs": "our implementation of a method differs from the paper's",
    "not borne out": (
        "ours faithful as far as known (no departure found, or re-run under the paper's wording), "
        "the result does not hold"
    ),
    "not investigated": "no investigation that applies to the row",
}

#: The class of each cause of :data:`CAUSES` (``noise``: none, see the module text).
CLASS_OF_CAUSE = {
    "bug": "implementation differs",
    "protocol": "our setting",
    "hyperparameter": "our setting",
    "data": "our setting",
    "wording": "our setting",
    "implementation": "implementation differs",
    "hardware": "hardware",
    "paper": "paper disagrees with itself",
    "noise": None,
    "unexplained": "not borne out",
    "faithful": "not borne out",
}

#: The ``compare`` kinds of a timing measured on other hardware (class *hardware*).
TIMING_COMPARES = ("hardware", "hardware_bound")


def whose(verdict, causes, timing=False):
    """The class (:data:`CLASSES`) of a ledger row with ``verdict`` and the ``causes``
    attached to it (names of :data:`CAUSES`); ``timing``: the row is a time measured on other
    hardware. ``""`` unless the verdict is *contradicts*."""
    if verdict != "contradicts":
        return ""
    unknown = sorted(set(causes) - set(CLASS_OF_CAUSE))
    if unknown:
        raise ValueError(f"whose: cause(s) {unknown} are not among {', '.join(CAUSES)}")
    if timing:
        return "hardware"
    classes = {CLASS_OF_CAUSE[c] for c in causes} - {None, "hardware"}
    return next((c for c in CLASSES if c in classes), "not investigated")


def first_class(classes):
    """The first of ``classes`` in the decision order of :data:`CLASSES` (``""`` if none)."""
    present = set(classes)
    return next((c for c in CLASSES if c in present), "")


def load_investigations(ledgers=None):
    """Every paper's ``investigations.csv`` (of ``ledgers``; None: every paper), checked:
    scopes that are the paper's items or claims, known causes, no empty finding."""
    ledgers = paper_ledgers() if ledgers is None else ledgers
    frames, problems = [], []
    for ledger in ledgers:
        frame = read_data(ledger, "investigations.csv", COLUMNS)
        claim_ids = set(load_claims([ledger])["claim_id"])
        for i, r in enumerate(frame.itertuples(index=False), start=2):
            where = f"{ledger.where('investigations.csv')} line {i}"
            if r.scope not in ledger.items and r.scope not in claim_ids:
                problems.append(f"{where}: {r.scope!r} is neither an item nor a claim of {r.paper}")
            if r.cause not in CAUSES:
                problems.append(f"{where}: cause {r.cause!r} is not one of {', '.join(CAUSES)}")
            if not r.finding.strip() or not r.evidence.strip():
                problems.append(f"{where}: finding and evidence must both be given")
        frames.append(frame)
    if problems:
        raise ValueError("investigations: " + "; ".join(problems))
    if not frames:
        return pd.DataFrame(columns=list(COLUMNS), dtype=str)
    return pd.concat(frames, ignore_index=True)


def _scopes(row):
    """The (scope, dataset) keys a ledger row can be explained under."""
    if row["level"] == "claim":
        # a claim row of the ledger names its scope (a dataset, "all tasks") in ``row``
        scope = row.get("row", "") or row["dataset"]
        return [(row["claim_id"], scope), (row["claim_id"], "")]
    items = [i.strip() for i in str(row["item"]).split(";") if i.strip()]
    keys = [(item, row["dataset"]) for item in items] + [(item, "") for item in items]
    if row["level"] == "item":  # an item rolls up all its datasets
        keys = [(item, "*") for item in items]
    return keys


def _applies(cause, verdict, timing, level):
    """Whether a finding with ``cause`` is shown on a row with ``verdict``: a noise finding on
    *inconclusive* rows only, a hardware finding on timing rows only, a paper finding (its text
    against its own tables) on item and claim rows only, the others on *contradicts* rows."""
    if cause == "noise":
        return verdict == "inconclusive"
    if verdict != "contradicts":
        return False
    if cause == "paper" and level in ("cell", "series"):
        return False
    return cause != "hardware" or timing


def attach(ledger, investigations=None):
    """``ledger`` with ``cause`` and ``evidence`` on its rows that a finding applies to
    (:func:`_applies`), and ``whose`` (:func:`whose`) on every *contradicts* row.

    A row takes every investigation of its paper whose scope is the row's claim (claim rows)
    or item (cell and series rows) and whose dataset is empty or the row's; an item row takes
    every investigation of the item, whatever its dataset. Several are joined with ``" | "``.
    A ``compare`` column, where the ledger has one, marks the timing rows
    (:data:`TIMING_COMPARES`).
    """
    inv = load_investigations() if investigations is None else investigations
    by_key: dict = {}
    for r in inv.itertuples(index=False):
        by_key.setdefault((r.paper, r.scope, r.dataset), []).append(r)
        by_key.setdefault((r.paper, r.scope, "*"), []).append(r)
    causes, evidence, classes = [], [], []
    for _, row in ledger.iterrows():
        timing = row.get("compare", "") in TIMING_COMPARES
        shows_all = timing or row["level"] == "item"  # an item's text names every finding
        found = []
        for scope, dataset in _scopes(row):
            for r in by_key.get((row["paper"], scope, dataset), []):
                if r not in found and _applies(r.cause, row["verdict"], shows_all, row["level"]):
                    found.append(r)
        causes.append(" | ".join(f"{r.cause}: {r.finding}" for r in found))
        evidence.append(" | ".join(r.evidence for r in found))
        classes.append(whose(row["verdict"], [r.cause for r in found], timing))
    return ledger.assign(cause=causes, evidence=evidence, whose=classes)


def unexplained(ledger):
    """The item and claim rows that contradict their paper without an investigation."""
    bad = ledger[(ledger["verdict"] == "contradicts") & ledger["level"].isin(["item", "claim"])]
    return bad[bad["cause"] == ""]


def as_frame(rows):
    """Investigation rows (dicts) as a frame with :data:`COLUMNS` (for tests and tools)."""
    return pd.DataFrame(rows, columns=list(COLUMNS)).fillna("")
