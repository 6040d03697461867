"""Runs that isolate why a result of ours differs from Buteneers et al.'s Tables 5-6.

Each investigation re-runs the ELM tasks of a config (normally ``config/paper.yaml``) with one
thing changed and writes a tidy CSV and a Markdown summary (with provenance) under
``results/paper/buteneers/investigations/``:

``encoding``
    The paper's input coding (``features: {categorical: ordinal, inputs: independent}``: one
    column per nominal attribute, linearly independent inputs only) against our former one
    (one-hot columns, every input): N and cond of Table 6, the errors of Table 5 and the
    claims of the paper checked on each.
``repeats``
    The same tasks over ``--seeds`` seeds (a seed draws the split of the random-split tasks,
    the ELM weights and the folds): the spread of every error and how often each claim of the
    paper holds, task by task and over all tasks. The paper reports one draw; so does our
    main table.
``grid``
    The paper's coding at the config's seed with the smallest λ of the grid raised from
    1e-8 to 1e-6, 1e-4 and 1e-2 times tr(A)/N (the paper gives R = 80 values, not their
    range): how much the selections, and the claims on them, depend on that unstated choice.
``paper``
    No run: the same claim checks applied to the paper's own printed Tables 3, 5 and 6
    (:mod:`rlsbench.studies.buteneers.paper_tables`), to tell a claim our data refute from a
    claim the paper's own public tables do not bear out.

Only the eigen variants run (the covariance variants make the same choices, see
``tests/numerics/test_ridgecv_selection.py``) and no time is recorded: these runs compare results.
The claims are checked by the fidelity ledger's own checks
(:data:`rlsbench.studies.buteneers.ledger.CHECKS`) on each run's rows.

Usage::

    python -m rlsbench.studies.buteneers.investigations encoding \\
        --config config/paper.yaml --mirror /work/shared/datasets \\
        --out results/paper/buteneers/investigations
    python -m rlsbench.studies.buteneers.investigations repeats --seeds 10 --jobs 2 ...
    python -m rlsbench.studies.buteneers.investigations repeats --markdown-only  # from the CSVs
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import yaml
from threadpoolctl import threadpool_limits

from rlsbench.benchmark.config import ConfigError
from rlsbench.benchmark.provenance import provenance
from rlsbench.benchmark.tables import with_provenance, write_csv, write_markdown
from rlsbench.studies.buteneers.experiment import run_task
from rlsbench.studies.buteneers.jobs import build_task, task_inputs

#: The methods these runs compare (the eigen variants stand for both variants).
METHODS = ("rr_eigen", "ffs_eigen", "bfs_eigen", "lars", "op_lr", "op_rr")
#: Input codings compared by ``encoding``: the paper's and our former one.
CODINGS = {
    "paper": {"categorical": "ordinal", "inputs": "independent"},
    "former": {"categorical": "onehot", "inputs": "all"},
}
#: The claims of the paper on Tables 5-6 that these runs check.
CLAIMS = ("B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9")
#: Columns of a run's rows that the summaries and the claim checks read.
KEEP = ("method", "error", "pct_removed", "n_selected", "alpha", "cond", "n_features")


def elm_tasks(section):
    """The ELM tasks of a ``buteneers`` config section that name the paper's task."""
    return [t for t in section["tasks"] if t["features"]["kind"] == "elm" and t.get("paper")]


#: Smallest λ of the grid (× tr(A)/N) compared by ``grid``; 1e-8 is the main tables'.
GRID_LOWS = (1e-8, 1e-6, 1e-4, 1e-2)


def run_case(spec, seed, coding, mirrors, cache_dir, methods=METHODS, lambda_low=1e-8):
    """Rows of one task, one seed and one input coding (dicts, without times).

    Parameters
    ----------
    spec : dict
        A task of the ``buteneers`` section (with its ``name``).
    seed : int
    coding : {"paper", "former"}
        The ``categorical`` and ``inputs`` of the ELM features (:data:`CODINGS`).
    mirrors : list of str
        Dataset mirrors (``file://`` URLs or paths).
    cache_dir : str
        Where prepared datasets are cached.
    methods : sequence of str
    lambda_low : float
        Smallest λ of the grid, as a multiple of tr(A)/N.

    Returns
    -------
    list of dict
    """
    from rlsbench.benchmark.datasets import load

    spec = dict(spec, features=dict(spec["features"], **CODINGS[coding]))
    dataset = load(spec["dataset"], mirrors=mirrors, cache_dir=cache_dir)
    U, y, kind = task_inputs(spec, seed, dataset)
    with threadpool_limits(1):
        built = build_task(spec["name"], spec, seed, U, y, kind)
        rows = run_task(
            built["X_train"],
            built["y_train"],
            built["X_test"],
            built["y_test"],
            task=built["task"],
            methods=methods,
            n_folds=spec["n_folds"],
            n_lambdas=spec["n_lambdas"],
            seed=seed,
            fixed=[built["X_train"].shape[1] - 1],
            lambda_range=(lambda_low, 1e2),
        )
    out = []
    for r in rows:
        row = {k: r[k] for k in KEEP}
        row.update(
            task=spec["name"],
            paper_table=spec["paper"],
            seed=seed,
            coding=coding,
            lambda_low=lambda_low,
            n_inputs=int(U.shape[1]),
            n_inputs_used=built["n_inputs_used"],
            n_train=int(built["X_train"].shape[0]),
        )
        out.append(row)
    return out


def _run_all(cases, jobs):
    if jobs <= 1:
        return [row for case in cases for row in run_case(*case)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return [row for rows in pool.map(run_case, *zip(*cases)) for row in rows]


def check_claims(rows):
    """The ledger's checks of :data:`CLAIMS` on one run's rows (one seed, one coding).

    Returns
    -------
    pandas.DataFrame
        claim, scope, holds (True / False / None), ours, reason.
    """
    from rlsbench.studies.buteneers.ledger import CHECKS
    from rlsbench.studies.fidelity.ours import RunTree

    frame = pd.DataFrame(rows).assign(timed_out=False, cut_by_budget=False, t_opt=np.nan)
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "buteneers").mkdir()
        frame.to_csv(Path(tmp) / "buteneers" / "results.csv", index=False)
        tree = RunTree(tmp)
        for claim in CLAIMS:
            for o in CHECKS[claim](tree):
                out.append(
                    dict(claim=claim, scope=o.scope, holds=o.holds, ours=o.ours, reason=o.reason)
                )
    return pd.DataFrame(out)


def _fmt(mean, sd=None):
    return f"{mean:.3g}" if sd is None or not np.isfinite(sd) else f"{mean:.3g} ± {sd:.2g}"


def _claims_by(frame, by):
    """Claim outcomes of every group of ``frame`` (grouped by the columns ``by``)."""
    parts = []
    for key, g in frame.groupby(list(by), sort=False):
        c = check_claims(g.to_dict("records"))
        for col, value in zip(by, key if isinstance(key, tuple) else (key,)):
            c[col] = value
        parts.append(c)
    return pd.concat(parts, ignore_index=True)


def _table(frame):
    """Markdown of a frame (no index)."""
    return frame.to_markdown(index=False)


def _made_by(frame):
    """The header line saying which command and commit made ``frame`` (its provenance
    columns; a table written before ``command`` was recorded names the commit only)."""
    first = frame.iloc[0] if len(frame) else {}
    command = first.get("command", "") if hasattr(first, "get") else ""
    parts = [f"Made by `{command}`" if isinstance(command, str) and command else "Made"]
    if "git_commit" in frame.columns:
        parts.append(f"at commit `{first['git_commit']}`")
    if "config_hash" in frame.columns:
        parts.append(f"(settings hash `{first['config_hash']}`)")
    return " ".join(parts) + "."


def encoding(section, mirrors, cache_dir, jobs=1):
    """The paper's input coding against our former one, at the config's seed.

    Returns
    -------
    rows : pandas.DataFrame
        One row per (coding, task, method).
    claims : pandas.DataFrame
        The claims' outcomes under each coding.
    """
    seed = int(section["seed"])
    cases = [
        (dict(t), seed, name, mirrors, cache_dir) for name in CODINGS for t in elm_tasks(section)
    ]
    frame = pd.DataFrame(_run_all(cases, jobs))
    return frame, _claims_by(frame, ["coding"])


def grid(section, mirrors, cache_dir, jobs=1, lows=GRID_LOWS):
    """The ELM tasks with the paper's coding and each smallest λ of ``lows``.

    Returns
    -------
    rows : pandas.DataFrame
        One row per (lambda_low, task, method).
    claims : pandas.DataFrame
        The claims' outcomes for every grid.
    """
    seed = int(section["seed"])
    cases = [
        (dict(t), seed, "paper", mirrors, cache_dir, METHODS, float(low))
        for low in lows
        for t in elm_tasks(section)
    ]
    frame = pd.DataFrame(_run_all(cases, jobs))
    return frame, _claims_by(frame, ["lambda_low"])


def grid_markdown(frame, claims):
    """Summary of :func:`grid`: errors, % removed and chosen λ per grid, and the claims."""
    lines = [
        "# Buteneers et al., Tables 5-6: the smallest λ of the grid",
        "",
        _made_by(frame),
        "",
        "The paper's input coding, the config's seed; R = 80 log-spaced λ from `lambda_low` to",
        "1e2 times tr(A)/N (the main tables: 1e-8). Only the grid changes.",
        "",
    ]
    for col, title in (("error", "Test error (NRMSE × 10)"), ("pct_removed", "Removed (%)")):
        t = frame.pivot_table(index=["paper_table", "lambda_low"], columns="method", values=col)
        t = t[[m for m in METHODS if m in t.columns]].round(2).reset_index()
        lines += [f"## {title}", "", _table(t), ""]
    lines += ["## The paper's claims per grid", "", _claims_table(claims, "lambda_low"), ""]
    return "\n".join(lines) + "\n"


def repeats(section, mirrors, cache_dir, seeds, jobs=1):
    """The ELM tasks with the paper's coding over ``seeds`` seeds.

    Returns
    -------
    rows : pandas.DataFrame
        One row per (seed, task, method).
    claims : pandas.DataFrame
        The claims' outcomes for every seed.
    """
    cases = [
        (dict(t), int(seed), "paper", mirrors, cache_dir)
        for seed in seeds
        for t in elm_tasks(section)
    ]
    frame = pd.DataFrame(_run_all(cases, jobs))
    return frame, _claims_by(frame, ["seed"])


def encoding_markdown(frame, claims, paper_n):
    """Summary of :func:`encoding`: N and cond per coding, errors, and the claims."""
    lines = [
        "# Buteneers et al., Tables 5-6: the paper's input coding against our former one",
        "",
        _made_by(frame),
        "",
        "paper coding: a nominal attribute as one column of level indices, only linearly",
        "independent input columns (the ELM's hidden layer and direct connections see those);",
        "former: one 0/1 column per level, every input column. Same split, ELM seed and folds.",
        "N = 100 hidden units + the inputs used (Table 6 counts no constant column).",
        "",
    ]
    first = frame.drop_duplicates(["coding", "task"])
    shape = first.pivot_table(
        index="paper_table", columns="coding", values=["n_features", "cond"], aggfunc="first"
    )
    shape = pd.DataFrame(
        {
            "task": shape.index,
            "N paper": [paper_n.get(t, np.nan) for t in shape.index],
            "N ours (paper coding)": shape[("n_features", "paper")].astype(int).to_numpy(),
            "N ours (former)": shape[("n_features", "former")].astype(int).to_numpy(),
            "cond (paper coding)": [f"{v:.2g}" for v in shape[("cond", "paper")]],
            "cond (former)": [f"{v:.2g}" for v in shape[("cond", "former")]],
        }
    )
    lines += ["## Table 6: features and condition number", "", _table(shape), ""]
    err = frame.pivot_table(index=["paper_table", "coding"], columns="method", values="error")
    err = err[[m for m in METHODS if m in err.columns]].round(2).reset_index()
    lines += ["## Table 5: test error (NRMSE × 10)", "", _table(err), ""]
    lines += ["## The paper's claims under each coding", "", _claims_table(claims, "coding"), ""]
    return "\n".join(lines) + "\n"


def _claims_table(claims, by):
    c = claims.assign(holds=claims["holds"].map({True: "holds", False: "fails", None: "–"}))
    c = c.pivot_table(index=["claim", "scope"], columns=by, values="holds", aggfunc="first")
    c.columns = [f"{by} {v}" for v in c.columns]
    return _table(c.reset_index())


def repeats_markdown(frame, claims):
    """Summary of :func:`repeats`: errors mean ± sd over seeds, claims' frequencies."""
    seeds = sorted(frame["seed"].unique())
    lines = [
        "# Buteneers et al., Tables 5-6 over seeds",
        "",
        _made_by(frame),
        "",
        f"Seeds {seeds[0]}…{seeds[-1]} ({len(seeds)}): each draws the split (random-split "
        "tasks; Ailerons and Elevators use Torgo's fixed train/test split), the ELM weights and "
        "the folds. The paper's input coding. Each cell: mean ± standard deviation over seeds.",
        "",
    ]
    stats = frame.groupby(["paper_table", "method"])["error"].agg(["mean", "std"])
    err = stats.apply(lambda r: _fmt(r["mean"], r["std"]), axis=1).unstack("method")
    err = err[[m for m in METHODS if m in err.columns]].reset_index()
    lines += ["## Test error (NRMSE × 10)", "", _table(err), ""]
    rm = frame.groupby(["paper_table", "method"])["pct_removed"].agg(["mean", "std"])
    rm = rm.apply(lambda r: _fmt(r["mean"], r["std"]), axis=1).unstack("method")
    rm = rm[[m for m in METHODS if m in rm.columns]].reset_index()
    lines += ["## Removed features (%)", "", _table(rm), ""]
    known = claims[claims["holds"].notna()]
    freq = (
        known.groupby(["claim", "scope"])["holds"]
        .agg(lambda s: f"{int(s.astype(bool).sum())} of {len(s)}")
        .rename("seeds on which it holds")
        .reset_index()
    )
    lines += [
        "## How often each claim holds",
        "",
        "The ledger's own checks on each seed's rows (all tasks = the ELM tasks here; the",
        "ledger's all-task claims also count adult).",
        "",
        _table(freq),
        "",
    ]
    return "\n".join(lines) + "\n"


def paper_numbers():
    """The paper's printed Tables 3, 5 and 6 as result rows, and the claims checked on them.

    Returns
    -------
    rows : pandas.DataFrame
        One row per (task, method) with the paper's error, % removed, cond and N.
    claims : pandas.DataFrame
    """
    from rlsbench.studies.buteneers.experiment import TABLE_METHODS
    from rlsbench.studies.buteneers.paper_tables import PAPER

    rows = [
        dict(
            method=m,
            paper_table=task,
            error=p["error"][i],
            pct_removed=p["pct_removed"][i],
            cond=p["cond"],
            n_features=p["N"],
            n_selected=np.nan,
            alpha=np.nan,
        )
        for task, p in PAPER.items()
        for i, m in enumerate(TABLE_METHODS)
    ]
    frame = pd.DataFrame(rows)
    return frame, check_claims(rows)


def paper_markdown(frame, claims):
    """Summary of :func:`paper_numbers`."""
    lines = [
        "# Buteneers et al.: the ledger's claim checks on the paper's own Tables 3, 5 and 6",
        "",
        _made_by(frame),
        "",
        "The same checks as `results/paper/fidelity.csv` (rlsbench.studies.fidelity.claims),",
        "applied to the numbers the paper prints for its public tasks (adult; the seven ELM",
        "tasks) instead of ours. A claim that fails here is not borne out by the paper's own",
        "public tables (its words may rest on Tables 1, 2 and 4, whose data are not public).",
        "",
    ]
    c = claims.assign(holds=claims["holds"].map({True: "holds", False: "fails", None: "–"}))
    table = _table(c[["claim", "scope", "holds", "reason", "ours"]])
    return "\n".join(lines + [table, ""]) + "\n"


def _paper_n():
    from rlsbench.studies.buteneers.paper_tables import PAPER

    return {k: v["N"] for k, v in PAPER.items() if k != "adult"}


def write_markdown_from_csv(which, out):
    """Rewrite ``<which>.md`` from the committed ``<which>.csv`` and ``<which>_claims.csv``."""
    out = Path(out)
    frame = pd.read_csv(out / f"{which}.csv")
    claims = pd.read_csv(out / f"{which}_claims.csv")
    claims["holds"] = claims["holds"].map({True: True, False: False}).astype(object)
    claims.loc[claims["holds"].isna(), "holds"] = None
    if which == "encoding":
        text = encoding_markdown(frame, claims, _paper_n())
    elif which == "repeats":
        text = repeats_markdown(frame, claims)
    elif which == "grid":
        text = grid_markdown(frame, claims)
    else:
        text = paper_markdown(frame, claims)
    write_markdown(out / f"{which}.md", text)
    return text


def _command(argv):
    """The command line of this run, without the options that change no result."""
    argv = list(sys.argv[1:] if argv is None else argv)
    kept, skip = [], False
    for a in argv:
        if skip:
            skip = False
            continue
        if a in ("--jobs", "--cache", "--out"):
            skip = True
            continue
        if a.startswith(("--jobs=", "--cache=", "--out=")):
            continue
        kept.append(a)
    return " ".join(["python -m rlsbench.studies.buteneers.investigations", *kept])


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m rlsbench.studies.buteneers.investigations",
        description=__doc__.split("\n")[0],
    )
    parser.add_argument("which", choices=["encoding", "repeats", "grid", "paper"])
    parser.add_argument("--config", default="config/paper.yaml", help="config with the tasks")
    parser.add_argument("--mirror", action="append", default=[], help="dataset mirror path")
    parser.add_argument("--cache", default="results/datasets/cache", help="prepared datasets")
    parser.add_argument("--out", default="results/paper/buteneers/investigations")
    parser.add_argument("--seeds", type=int, default=10, help="repeats: seeds 0..SEEDS-1")
    parser.add_argument("--jobs", type=int, default=1, help="processes (one BLAS thread each)")
    parser.add_argument("--tasks", nargs="*", help="only these task names")
    parser.add_argument(
        "--markdown-only",
        action="store_true",
        help="only rewrite <which>.md from the CSVs already in --out",
    )
    args = parser.parse_args(argv)
    if args.seeds < 1 or args.jobs < 1:
        parser.error("--seeds and --jobs must be at least 1")
    if args.markdown_only:
        try:
            print(write_markdown_from_csv(args.which, args.out))
        except OSError as exc:
            parser.error(f"--markdown-only: {exc}")
        return 0
    if args.which == "paper":
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        frame, claims = paper_numbers()
        prov = {"command": _command(argv), **provenance({"which": "paper"}, None)}
        write_csv(with_provenance(frame, prov), out / "paper.csv")
        write_csv(with_provenance(claims, prov), out / "paper_claims.csv")
        print(write_markdown_from_csv("paper", out))
        return 0
    try:
        section = yaml.safe_load(Path(args.config).read_text())["buteneers"]
        if args.tasks:
            section = dict(section, tasks=[t for t in section["tasks"] if t["name"] in args.tasks])
        if not elm_tasks(section):
            raise ConfigError(f"{args.config}: no ELM task of the paper in buteneers.tasks")
    except (OSError, KeyError, TypeError, yaml.YAMLError) as exc:
        parser.error(f"{args.config}: cannot read buteneers.tasks ({exc})")
    except ConfigError as exc:
        parser.error(str(exc))
    mirrors = [Path(m).resolve().as_uri() if "://" not in m else m for m in args.mirror]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    settings = {k: v for k, v in vars(args).items() if k not in ("jobs", "out", "cache")}
    command = {"command": _command(argv)}
    if args.which == "encoding":
        frame, claims = encoding(section, mirrors, args.cache, args.jobs)
    elif args.which == "grid":
        frame, claims = grid(section, mirrors, args.cache, args.jobs)
    else:
        frame, claims = repeats(section, mirrors, args.cache, range(args.seeds), args.jobs)
    prov = {
        **command,
        **provenance(dict(settings, config_section=section), int(section.get("seed", 0))),
    }
    # the rows' own seed (repeats: one per row) is data, not the config's seed
    prov = {k: v for k, v in prov.items() if k not in frame.columns}
    write_csv(with_provenance(frame, prov), out / f"{args.which}.csv", float_format="%.6g")
    write_csv(with_provenance(claims, prov), out / f"{args.which}_claims.csv")
    try:
        print(write_markdown_from_csv(args.which, out))
    except ImportError as exc:  # a machine without tabulate: the CSVs are written
        print(f"{exc}; rewrite the summary with --markdown-only", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
