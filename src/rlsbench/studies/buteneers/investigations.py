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
``timing_n``
    The λ-search time of the eigen method over more numbers of features N than the part's
    timing sweep (its M, folds and λ grid; more sizes and repeats): the growth exponent in N
    of claim B14 on enough sizes to decide it.
``paper``
    No run: the same claim checks applied to the paper's own printed Tables 3, 5 and 6
    (:mod:`rlsbench.studies.buteneers.paper_tables`), to tell a claim our data refute from a
    claim the paper's own public tables do not bear out.

Only the eigen variants run (the covariance variants make the same choices, see
``tests/numerics/test_ridgecv_selection.py``) and, but for ``timing_n``, no time is recorded:
these runs compare results.
The claims are checked by the fidelity ledger's own checks
(:data:`rlsbench.studies.buteneers.ledger.CHECKS`) on each run's rows.

Their grids (methods, input codings, seeds, λ floors, task subsets) are the sections of
``config/investigations/buteneers.yaml``; the tasks and the seed are the paper config's
(``buteneers`` section). Usage::

    rlsbench investigate buteneers encoding --mirror /work/shared/datasets
    rlsbench investigate buteneers repeats --set seeds=5 --jobs 2 --mirror ...
    rlsbench investigate buteneers repeats --markdown-only  # from the CSVs
    rlsbench investigate buteneers timing_n
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from rlsbench.benchmark.config import ConfigError
from rlsbench.benchmark.investigate import Investigation
from rlsbench.studies.buteneers.experiment import run_task
from rlsbench.studies.buteneers.jobs import build_task, task_inputs

#: The claims of the paper on Tables 5-6 that these runs check.
CLAIMS = ("B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9")
#: Columns of a run's rows that the summaries and the claim checks read.
KEEP = ("method", "error", "pct_removed", "n_selected", "alpha", "cond", "n_features")


def elm_tasks(section, names=None):
    """The ELM tasks of a ``buteneers`` config section that name the paper's task (only those
    called ``names``, when given)."""
    return [
        t
        for t in section["tasks"]
        if t["features"]["kind"] == "elm"
        and t.get("paper")
        and (names is None or t["name"] in names)
    ]


def run_case(spec, seed, coding, features, mirrors, cache_dir, methods, lambda_low=1e-8):
    """Rows of one task, one seed and one input coding (dicts, without times).

    Parameters
    ----------
    spec : dict
        A task of the ``buteneers`` section (with its ``name``; its ``method_options``, if
        any, are the section's: a variant's options of the table's columns).
    seed : int
    coding : str
        The coding's name (a column of the rows).
    features : dict
        Its ``categorical`` and ``inputs`` of the ELM features.
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

    spec = dict(spec, features=dict(spec["features"], **features))
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
            method_options=spec.get("method_options"),
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


def _serial(function, cases):
    return [function(*case) for case in cases]


def _rows(map_cases, cases):
    return pd.DataFrame([row for rows in map_cases(run_case, cases) for row in rows])


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


def encoding(tasks, seed, grid, mirrors, cache_dir, map_cases=_serial):
    """Every input coding of ``grid["codings"]`` at ``seed``.

    Parameters
    ----------
    tasks : list of dict
        The ELM tasks (:func:`elm_tasks`).
    seed : int
    grid : dict
        The ``encoding`` section of the grids: ``methods``, ``codings`` (name -> features).
    mirrors : list of str
    cache_dir : str
    map_cases : callable
        ``map_cases(function, cases)`` (the runner's parallel map; default: one by one).

    Returns
    -------
    rows : pandas.DataFrame
        One row per (coding, task, method).
    claims : pandas.DataFrame
        The claims' outcomes under each coding.
    """
    methods = tuple(grid["methods"])
    cases = [
        (dict(t), int(seed), name, features, mirrors, cache_dir, methods)
        for name, features in grid["codings"].items()
        for t in tasks
    ]
    frame = _rows(map_cases, cases)
    return frame, _claims_by(frame, ["coding"])


def grid(tasks, seed, grid, mirrors, cache_dir, map_cases=_serial):
    """The tasks with the grid's ``coding`` and each smallest λ of ``grid["lows"]``.

    Returns
    -------
    rows : pandas.DataFrame
        One row per (lambda_low, task, method).
    claims : pandas.DataFrame
        The claims' outcomes for every grid.
    """
    methods = tuple(grid["methods"])
    cases = [
        (dict(t), int(seed), "paper", grid["coding"], mirrors, cache_dir, methods, float(low))
        for low in grid["lows"]
        for t in tasks
    ]
    frame = _rows(map_cases, cases)
    return frame, _claims_by(frame, ["lambda_low"])


def grid_markdown(frame, claims, methods):
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
        t = t[[m for m in methods if m in t.columns]].round(2).reset_index()
        lines += [f"## {title}", "", _table(t), ""]
    lines += ["## The paper's claims per grid", "", _claims_table(claims, "lambda_low"), ""]
    return "\n".join(lines) + "\n"


def repeats(tasks, seeds, grid, mirrors, cache_dir, map_cases=_serial):
    """The tasks with the grid's ``coding`` over ``seeds``.

    Returns
    -------
    rows : pandas.DataFrame
        One row per (seed, task, method).
    claims : pandas.DataFrame
        The claims' outcomes for every seed.
    """
    methods = tuple(grid["methods"])
    cases = [
        (dict(t), int(seed), "paper", grid["coding"], mirrors, cache_dir, methods)
        for seed in seeds
        for t in tasks
    ]
    frame = _rows(map_cases, cases)
    return frame, _claims_by(frame, ["seed"])


def encoding_markdown(frame, claims, paper_n, methods):
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
    err = err[[m for m in methods if m in err.columns]].round(2).reset_index()
    lines += ["## Table 5: test error (NRMSE × 10)", "", _table(err), ""]
    lines += ["## The paper's claims under each coding", "", _claims_table(claims, "coding"), ""]
    return "\n".join(lines) + "\n"


def _claims_table(claims, by):
    c = claims.assign(holds=claims["holds"].map({True: "holds", False: "fails", None: "–"}))
    c = c.pivot_table(index=["claim", "scope"], columns=by, values="holds", aggfunc="first")
    c.columns = [f"{by} {v}" for v in c.columns]
    return _table(c.reset_index())


def repeats_markdown(frame, claims, methods):
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
    err = err[[m for m in methods if m in err.columns]].reset_index()
    lines += ["## Test error (NRMSE × 10)", "", _table(err), ""]
    rm = frame.groupby(["paper_table", "method"])["pct_removed"].agg(["mean", "std"])
    rm = rm.apply(lambda r: _fmt(r["mean"], r["std"]), axis=1).unstack("method")
    rm = rm[[m for m in methods if m in rm.columns]].reset_index()
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


def _markdown(ctx):
    """Rewrite ``<name>.md`` from ``<name>.csv`` and ``<name>_claims.csv`` in ``ctx.out``."""
    which = ctx.name
    frame = ctx.read_csv(f"{which}.csv")
    claims = ctx.read_csv(f"{which}_claims.csv")
    claims["holds"] = claims["holds"].map({True: True, False: False}).astype(object)
    claims.loc[claims["holds"].isna(), "holds"] = None
    methods = ctx.section.get("methods", ())
    if which == "encoding":
        text = encoding_markdown(frame, claims, _paper_n(), methods)
    elif which == "repeats":
        text = repeats_markdown(frame, claims, methods)
    elif which == "grid":
        text = grid_markdown(frame, claims, methods)
    else:
        text = paper_markdown(frame, claims)
    return ctx.write_markdown(f"{which}.md", text)


def _paper(ctx):
    frame, claims = paper_numbers()
    ctx.write_csv("paper.csv", frame, {"which": "paper"})
    ctx.write_csv("paper_claims.csv", claims, {"which": "paper"})
    return _markdown(ctx)


def _run(ctx):
    """Run ``ctx.name`` (encoding, repeats or grid) on the paper config's ELM tasks."""
    config = ctx.paper_section()
    tasks = elm_tasks(config, ctx.section["tasks"])
    if not tasks:
        raise ConfigError(f"{ctx.paper_config}: no ELM task of the paper in buteneers.tasks")
    if config.get("method_options"):  # a variant's (plain LARS): each task runs with them
        tasks = [dict(t, method_options=config["method_options"]) for t in tasks]
    seed = ctx.seed_or(config.get("seed", 0))
    where = (ctx.mirrors, str(ctx.cache))
    if ctx.name == "encoding":
        frame, claims = encoding(tasks, seed, ctx.section, *where, ctx.map)
    elif ctx.name == "grid":
        frame, claims = grid(tasks, seed, ctx.section, *where, ctx.map)
    else:
        seeds = range(int(ctx.section["seeds"]))
        frame, claims = repeats(tasks, seeds, ctx.section, *where, ctx.map)
    # the rows' own seed (repeats: one per row) is data, not the config's seed
    info = {"grid": ctx.section, "config_section": config}
    ctx.write_csv(f"{ctx.name}.csv", frame, info, seed, float_format="%.6g")
    ctx.write_csv(f"{ctx.name}_claims.csv", claims, info, seed)
    return _markdown(ctx)


def _timing_case(M, N, methods, n_folds, n_lambdas, seed, repeats):
    from rlsbench.studies.buteneers.experiment import timing_point

    return timing_point(
        M, N, methods=methods, n_folds=n_folds, n_lambdas=n_lambdas, seed=seed, repeats=repeats
    )


def _timing_n(ctx):
    """The part's timing sweep over N (its ``M_fixed``, ``n_folds``, ``n_lambdas``, seed) on
    the grid's ``N_values``, each time the minimum over ``repeats`` runs, one size after
    another on one BLAS thread (no competition for the cores): ``timing_n.csv``, laid out as
    the part's ``timing.csv`` (``sweep`` = N)."""
    config = ctx.paper_section()
    timing, grid = config["timing"], ctx.section
    seed = ctx.seed_or(config.get("seed", 0))
    M, folds, lambdas = int(timing["M_fixed"]), int(timing["n_folds"]), int(timing["n_lambdas"])
    cases = [
        (M, int(N), tuple(grid["methods"]), folds, lambdas, seed, int(grid["repeats"]))
        for N in grid["N_values"]
    ]
    rows = [row for part in ctx.map(_timing_case, cases, parallel=False) for row in part]
    frame = pd.DataFrame(rows).assign(
        sweep="N", n_folds=folds, n_lambdas=lambdas, threads=1, repeats=int(grid["repeats"])
    )
    info = {"grid": grid, "timing": timing}
    ctx.write_csv("timing_n.csv", frame, info, seed, float_format="%.6g")
    return _timing_n_markdown(ctx)


def _timing_n_markdown(ctx):
    from rlsbench.studies.fidelity.verdicts import fit_exponent, interval_text

    frame = ctx.read_csv("timing_n.csv")
    wide = frame.pivot_table(index="N", columns="method", values="t_opt")
    first = frame.iloc[0]
    fits = []
    for method in wide.columns:
        e, low, high = fit_exponent(wide.index, wide[method])
        fits.append(f"{method} {e:.2f} ({interval_text(low, high)})")
    text = "\n".join(
        [
            "# Buteneers et al.: the λ-search time over the number of features N (claim B14)",
            "",
            _made_by(frame),
            "",
            f"The part's timing problem (random regression, M = {first['M']} samples, "
            f"{first['n_folds']} folds, {first['n_lambdas']} values of λ) at "
            f"{len(wide)} numbers of features N; t_opt in seconds, the minimum of "
            f"{first['repeats']} runs, one BLAS thread. The claim: the λ search "
            '"scales proportionately to the number of features" (exponent 1; the paper\'s own '
            "analysis gives O(KN³)).",
            "",
            _table(wide.reset_index()),
            "",
            "Fitted growth exponent of t_opt in N: " + "; ".join(fits) + ".",
            "",
        ]
    )
    return ctx.write_markdown("timing_n.md", text)


INVESTIGATIONS = {
    "encoding": Investigation(
        _run,
        _markdown,
        "the paper's input coding against our former one: N, cond, errors, claims",
        keys=("methods", "codings", "tasks"),
    ),
    "repeats": Investigation(
        _run,
        _markdown,
        "the ELM tasks over seeds: the spread of every error, how often each claim holds",
        keys=("methods", "coding", "seeds", "tasks"),
    ),
    "grid": Investigation(
        _run,
        _markdown,
        "the smallest λ of the grid raised: how much the selections and claims depend on it",
        keys=("methods", "coding", "lows", "tasks"),
    ),
    "timing_n": Investigation(
        _timing_n,
        _timing_n_markdown,
        "the λ-search time over N on more sizes and repeats than the part's sweep (claim B14)",
        keys=("methods", "N_values", "repeats"),
    ),
    "paper": Investigation(
        _paper,
        _markdown,
        "no run: the ledger's claim checks on the paper's own printed Tables 3, 5 and 6",
    ),
}
