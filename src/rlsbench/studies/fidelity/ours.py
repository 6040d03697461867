"""Our numbers, read from a run's part folders, keyed like the transcribed ones.

A *tree* is a folder holding the parts' outputs: ``results/runs/<run>/`` or the committed
``results/paper/`` (the same layout: one folder per part). Each paper's
:class:`~rlsbench.studies.fidelity.papers.PaperLedger` lists the tables its reader and checks
read (``part_files``); a missing table makes the rows that need it *not run*.

Every paper's reader returns rows (made by :func:`row` or :func:`series`) with the join key
of ``reported.csv`` (paper, item, dataset, method, setting, metric) and ``ours_value`` (a
mean), ``ours_spread`` (the standard deviation over our repetitions: folds, splits, repeats;
for a fitted exponent its standard error), ``ours_n`` (the number of repetitions),
``ours_text`` (how the number reads) and ``ours_note`` (why a value is missing or how it was
derived).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from rlsbench.lazy import lazy_module
from rlsbench.studies.fidelity.papers import paper_ledgers, part_files

# pandas on first use: Snakemake reads this module with the rule files before any job
pd = lazy_module("pandas")

#: The columns of our numbers (a reader's rows).
OURS_COLUMNS = (
    "paper",
    "item",
    "dataset",
    "method",
    "setting",
    "metric",
    "ours_value",
    "ours_spread",
    "ours_n",
    "ours_text",
    "ours_note",
)


class RunTree:
    """The part tables under one folder, read once each.

    Parameters
    ----------
    root : str or pathlib.Path
        ``results/paper`` or ``results/runs/<run>``.
    only : iterable of str or None
        If given, the paths (as strings, relative to the working directory or absolute) that
        may be read; any other table counts as absent. The workflow passes the rule's inputs,
        so a stale table of a disabled part is never read.
    """

    def __init__(self, root, only=None):
        self.root = Path(root)
        self.only = None if only is None else {Path(p).resolve() for p in only}
        self._cache = {}

    def path(self, part, rel):
        return self.root / part / rel

    def table(self, part, rel):
        """The table as a DataFrame, or None when it is absent (or not among ``only``)."""
        key = (part, rel)
        if key not in self._cache:
            path = self.path(part, rel)
            allowed = self.only is None or path.resolve() in self.only
            self._cache[key] = pd.read_csv(path) if allowed and path.is_file() else None
        return self._cache[key]

    def inputs(self):
        """The tables the papers' ledgers read
        (:func:`~rlsbench.studies.fidelity.papers.part_files`) that exist (and may be read)."""
        return [
            self.path(part, rel)
            for part, rels in part_files().items()
            for rel in rels
            if self.table(part, rel) is not None
        ]


def setting(**values):
    """The canonical ``setting`` string: ``key=value`` in a fixed key order, ``;``-joined."""
    order = ("kernel", "S", "n", "N", "D", "m", "k")
    return ";".join(f"{k}={values[k]}" for k in order if values.get(k) is not None)


def row(
    paper,
    item,
    dataset,
    method,
    setting_,
    metric,
    value,
    spread=math.nan,
    n=math.nan,
    text="",
    note="",
):
    """One row of our numbers (columns :data:`OURS_COLUMNS`).

    ``setting_`` is a :func:`setting` string; ``spread`` the standard deviation over our
    repetitions (for a fitted exponent its standard error), ``n`` their number; ``text`` how
    the number reads (default: the value, its spread and n) and ``note`` why a value is missing
    or how it was derived.
    """
    value = float(value) if value is not None and not pd.isna(value) else math.nan
    spread = float(spread) if spread is not None and not pd.isna(spread) else math.nan
    if not text and not math.isnan(value):
        text = fmt(value) + ("" if math.isnan(spread) else f" ± {fmt(spread)}")
        if not pd.isna(n):
            text += f" (n = {int(n)})"
    return dict(
        paper=paper,
        item=item,
        dataset=dataset,
        method=method,
        setting=setting_,
        metric=metric,
        ours_value=value,
        ours_spread=spread,
        ours_n=float(n) if not pd.isna(n) else math.nan,
        ours_text=text,
        ours_note=note,
    )


def fmt(x):
    """A number as the ledger prints it: an integer as such, else 4 (3 if large) digits."""
    if float(x).is_integer() and abs(x) < 1e9:
        return str(int(x))
    return f"{x:.4g}" if abs(x) < 1e5 else f"{x:.3g}"


def series_text(xs, ys, name):
    """'name 0.779 (k=1) … 0.846 (k=123)': the first and last point of a curve."""
    if len(xs) == 0:
        return ""
    return f"{fmt(ys[0])} ({name}={xs[0]}) … {fmt(ys[-1])} ({name}={xs[-1]})"


def series(paper, item, dataset, method, setting_, metric, xs, ys, n, name):
    """The row of a curve ``ys`` over ``xs`` (named ``name``): the mean of its points, read as
    its first and last point; NaN points are dropped."""
    ok = ~np.isnan(np.asarray(ys, dtype=float))
    xs, ys = np.asarray(xs)[ok], np.asarray(ys, dtype=float)[ok]
    if len(ys) == 0:
        return row(paper, item, dataset, method, setting_, metric, math.nan)
    text = series_text(list(xs), list(ys), name) + (f" (n = {int(n)})" if not pd.isna(n) else "")
    return row(
        paper,
        item,
        dataset,
        method,
        setting_,
        metric,
        float(np.mean(ys)),
        n=n,
        text=text,
        note=f"value = mean over the {len(ys)} points of the curve",
    )


def read_ours(tree, ledgers=None):
    """All our values of a tree, one row per join key (columns :data:`OURS_COLUMNS`).

    ``ledgers``: the :class:`~rlsbench.studies.fidelity.papers.PaperLedger` whose readers run
    (default: every paper's).
    """
    ledgers = paper_ledgers() if ledgers is None else ledgers
    rows = [r for ledger in ledgers for r in ledger.reader(tree)]
    frame = pd.DataFrame(rows, columns=list(OURS_COLUMNS))
    key = ["paper", "item", "dataset", "method", "setting", "metric"]
    dup = frame.duplicated(key, keep=False)
    if dup.any():
        raise ValueError(f"our values have duplicate keys:\n{frame[dup][key].to_string()}")
    return frame
