"""Does a run give the committed results again? The identity check of the result tables.

A refactoring must change no result: every table committed under ``results/paper/`` (the
published copy of a run of ``config/paper.yaml``) must come out of a new run of the same config
identical. This module compares a run's directory (``results/runs/paper``) with the committed
tree, table by table, with :func:`pandas.testing.assert_frame_equal`::

    snakemake --cores 2 --configfile config/paper.yaml          # in a clean clone
    python -m rlsbench.studies.identity results/runs/paper --committed results/paper

What is compared
----------------
The CSV tables of every part (``<committed>/<part>/**.csv`` against ``<run>/<part>/**.csv``),
cell for cell and with their dtypes, once the columns that two runs of one config may differ in
are set aside: :data:`rlsbench.benchmark.tables.RUN_DEPENDENT_COLUMNS` (the measured times and
memory each part declares in ``Part.measurement_columns``, and the machine and checkout
columns). Figures, Markdown and LaTeX files are derived from these tables and are not compared.
The folders ``investigations/`` are left out: they are written by separate runs
(``results/paper/<part>/investigations/``), not by the workflow.

A number past float64's precision carries no reproducible digits: a condition number at or
above 1/ε (≈ 4.5e15; the matrix is singular to working precision) is the ratio of a singular
value to a rounding error, and its digits change with the CPU's BLAS kernels (buteneers'
``cond`` of the Cancer task: 4.87e17 on the machine that made the committed table, 1.24e18 on
another, every other cell of the part's tables the same). The columns of
:data:`PRECISION_LIMITED` therefore compare such values as one value, "beyond float64"; below
the limit they are compared exactly, as everything else.

The fidelity ledger (``<committed>/fidelity.csv``, made from ``<run>/fidelity/``) quotes
measured times in its ``ours`` cells, so it is compared on what two runs must share: each
row's key, the paper's numbers, the verdict, the cause and the evidence; the rows whose *ours*
cells differ are counted and reported by metric (a measured time is expected to). Its summary
(``fidelity_summary.csv``: the counts of every verdict) is compared cell for cell.

The exit status is 1 when a committed table differs or is missing from the run; the
report (Markdown, to stdout and ``--out``) says which and where.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from rlsbench.studies.fidelity.ledger import KEY_COLUMNS

#: Columns whose values at or above a limit mean only "beyond float64's precision": there they
#: compare as one value (+inf), below it exactly. ``cond``: condition numbers (buteneers).
PRECISION_LIMITED = {"cond": 1.0 / np.finfo(np.float64).eps}

#: Columns that identify a row of the fidelity ledger (``results/paper/fidelity.csv``).
LEDGER_KEY = KEY_COLUMNS

#: Columns of the ledger that two runs of one config must share besides the key: what the
#: paper printed, the verdict and why.
LEDGER_SHARED = (
    "unit",
    "reported",
    "reported_value",
    "reported_spread",
    "reported_n",
    "tolerance",
    "verdict",
    "whose",
    "source",
    "cause",
    "evidence",
)

#: Columns of the ledger that quote our run (a measured time among them).
LEDGER_OURS = ("ours", "ours_value", "ours_spread", "ours_n", "difference", "reason")

#: The ledger's files in the committed tree (top level) and where a run writes them.
LEDGER_DIR = "fidelity"
LEDGER = "fidelity.csv"
LEDGER_SUMMARY = "fidelity_summary.csv"

#: Folders of the committed tree that the workflow does not write.
NOT_FROM_THE_WORKFLOW = ("investigations",)


@dataclass
class Comparison:
    """The outcome for one committed table."""

    table: str
    rows: int
    status: str  # "identical", "differs" or "missing in the run"
    detail: str = ""
    aside: tuple = ()

    @property
    def ok(self) -> bool:
        return self.status == "identical"


def _read(path: Path) -> pd.DataFrame:
    # keep_default_na=False: an empty cell stays "" on both sides (no NaN-vs-"" noise)
    return pd.read_csv(path, keep_default_na=False, na_values=[""])


def _run_path(run: Path, rel: Path) -> Path:
    """Where a run writes the committed table ``rel`` (relative to the committed tree)."""
    if len(rel.parts) == 1:  # the ledger's files sit at the top of the committed tree
        return run / LEDGER_DIR / rel
    return run / rel


def committed_tables(committed: Path, parts=None) -> list[Path]:
    """The CSV tables of the committed tree (relative paths) that a run of the workflow
    writes: every part's (``parts``: only those) and the ledger's."""
    out = []
    for path in sorted(committed.rglob("*.csv")):
        rel = path.relative_to(committed)
        if any(folder in NOT_FROM_THE_WORKFLOW for folder in rel.parts[:-1]):
            continue
        if parts is not None:
            part = rel.parts[0] if len(rel.parts) > 1 else LEDGER_DIR
            if part not in parts:
                continue
        out.append(rel)
    return out


def _first_difference(a: pd.DataFrame, b: pd.DataFrame) -> str:
    """The first differing cell of two frames of one shape, as text."""
    for column in a.columns:
        x, y = a[column], b[column]
        same = (x == y) | (x.isna() & y.isna())
        if not same.all():
            i = int((~same).to_numpy().nonzero()[0][0])
            return f"line {i + 2}, column {column!r}: run {x.iloc[i]!r}, committed {y.iloc[i]!r}"
    return ""


def compare_frames(ours: pd.DataFrame, committed: pd.DataFrame) -> str:
    """'' when ``ours`` equals ``committed`` (assert_frame_equal, exact), else what differs."""
    if list(ours.columns) != list(committed.columns):
        only_ours = [c for c in ours.columns if c not in committed.columns]
        only_committed = [c for c in committed.columns if c not in ours.columns]
        return f"columns differ (only in the run: {only_ours}; only committed: {only_committed})"
    if len(ours) != len(committed):
        return f"{len(ours)} rows in the run, {len(committed)} committed"
    try:
        pd.testing.assert_frame_equal(ours, committed, check_exact=True)
    except AssertionError as exc:
        where = _first_difference(ours, committed)
        return where or " ".join(str(exc).split())[:300]
    return ""


def compare_table(run_file: Path, committed_file: Path, rel: Path) -> Comparison:
    """A part's table: cell for cell once the run-dependent columns are set aside."""
    from rlsbench.benchmark.tables import RUN_DEPENDENT_COLUMNS

    ours, theirs = _read(run_file), _read(committed_file)
    aside = tuple(c for c in theirs.columns if c in RUN_DEPENDENT_COLUMNS)
    keep = [c for c in theirs.columns if c not in RUN_DEPENDENT_COLUMNS]
    ours = ours[[c for c in ours.columns if c not in RUN_DEPENDENT_COLUMNS]]
    ours, theirs = beyond_precision(ours), beyond_precision(theirs[keep])
    problem = compare_frames(ours, theirs)
    status = "differs" if problem else "identical"
    return Comparison(str(rel), len(theirs), status, problem, aside)


def beyond_precision(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with the values of :data:`PRECISION_LIMITED` columns at or above their limit
    replaced by +inf (a copy where any is)."""
    columns = [c for c in PRECISION_LIMITED if c in frame.columns]
    if not columns:
        return frame
    frame = frame.copy()
    for column in columns:
        values = frame[column]
        if pd.api.types.is_numeric_dtype(values):
            frame[column] = values.mask(values >= PRECISION_LIMITED[column], np.inf)
    return frame


def compare_ledger(run_file: Path, committed_file: Path, rel: Path) -> Comparison:
    """The fidelity ledger: key, the paper's numbers, verdict, cause and evidence of every
    row; the rows whose *ours* cells differ are counted by metric."""
    ours, theirs = _read(run_file), _read(committed_file)
    shared = [c for c in (*LEDGER_KEY, *LEDGER_SHARED) if c in theirs.columns]
    missing = sorted(set(shared) - set(ours.columns))
    if missing:
        problem = f"columns missing in the run: {missing}"
    else:
        problem = compare_frames(ours[shared], theirs[shared])
    detail = problem
    if not problem:
        quoted = [c for c in LEDGER_OURS if c in theirs.columns]
        a, b = ours[quoted], theirs[quoted]
        moved = ~((a == b) | (a.isna() & b.isna())).all(axis=1)
        if moved.any():
            by_metric = theirs.loc[moved, "metric"].fillna("(claim)").value_counts()
            detail = f"{int(moved.sum())} rows quote other numbers of ours, by metric: " + (
                ", ".join(f"{m} {n}" for m, n in by_metric.items())
            )
    aside = tuple(c for c in theirs.columns if c not in shared)
    return Comparison(str(rel), len(theirs), "differs" if problem else "identical", detail, aside)


def compare(run: Path, committed: Path, parts=None) -> list[Comparison]:
    """Every committed table (of ``parts``; None: all) against the run's."""
    run, committed = Path(run), Path(committed)
    results = []
    for rel in committed_tables(committed, parts):
        run_file = _run_path(run, rel)
        if not run_file.exists():
            results.append(Comparison(str(rel), 0, "missing in the run", str(run_file)))
        elif rel.name == LEDGER and len(rel.parts) == 1:
            results.append(compare_ledger(run_file, committed / rel, rel))
        else:
            results.append(compare_table(run_file, committed / rel, rel))
    return results


def report(results: list[Comparison], run: Path, committed: Path) -> str:
    """The comparison as Markdown: one line per table, the verdict first."""
    bad = [r for r in results if not r.ok]
    lines = [
        f"# Identity check: {run} against {committed}",
        "",
        f"{len(results) - len(bad)} of {len(results)} tables identical"
        + (f"; {len(bad)} not" if bad else "")
        + " (pandas assert_frame_equal, exact; run-dependent columns set aside).",
        "",
        "| table | rows | result | set aside | detail |",
        "|---|---:|---|---|---|",
    ]
    for r in results:
        aside = ", ".join(r.aside) if len(r.aside) <= 6 else f"{len(r.aside)} columns"
        lines.append(f"| {r.table} | {r.rows} | {r.status} | {aside} | {r.detail} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rlsbench.studies.identity",
        description="Compare a run's result tables with the committed ones (exact, "
        "run-dependent columns aside).",
    )
    parser.add_argument("run", type=Path, help="the run's directory, e.g. results/runs/paper")
    parser.add_argument(
        "--committed",
        type=Path,
        default=Path("results/paper"),
        help="the committed tree (default: results/paper)",
    )
    parser.add_argument(
        "--parts",
        nargs="+",
        metavar="PART",
        help="only these parts ('fidelity' for the ledger); default: every committed one",
    )
    parser.add_argument("--out", type=Path, help="also write the Markdown report here")
    args = parser.parse_args(argv)
    for name, path in (("run", args.run), ("--committed", args.committed)):
        if not path.is_dir():
            parser.error(f"{name}: {path} is not a directory")
    results = compare(args.run, args.committed, set(args.parts) if args.parts else None)
    if not results:
        parser.error(f"no committed table under {args.committed} for parts {args.parts}")
    text = report(results, args.run, args.committed)
    if args.out:
        from rlsbench.benchmark.atomic import atomic_write_text

        atomic_write_text(args.out, text)
    print(text, end="")
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
