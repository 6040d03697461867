"""The experiments of Sun & Yao (2006, sec. 4): Table 1 (random splits) and Fig. 1 (scaling).

Three methods, each on the Gaussian kernel of standardized inputs with centred targets:
``forward`` (:class:`~rlsbench.numerics.marglik.models.ForwardMarglikRegressor`, rank p = k_max),
``rvm_old`` (Tipping 2001) and ``rvm_new`` (Tipping & Faul 2003). The workflow's jobs
(:mod:`rlsbench.studies.sunyao.jobs`) call these functions; every function takes plain arrays
and dicts and returns tidy rows (one dict per measured point).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rlsbench.benchmark.progress import Progress
from rlsbench.benchmark.stats import paired_t_test
from rlsbench.benchmark.tables import markdown_table
from rlsbench.benchmark.timing import Stopwatch
from rlsbench.numerics.marglik.hyper import cv_forward, cv_rvm, cv_subset
from rlsbench.numerics.marglik.models import ForwardMarglikRegressor, RVMRegressor
from rlsbench.numerics.marglik.rvm import BudgetExceeded
from rlsbench.numerics.synthetic import make_sinc
from rlsbench.studies.sunyao.config import METHODS

LABELS = {"forward": "Forward", "rvm_old": "Old RVM", "rvm_new": "New RVM"}

#: Table 1 of the paper: (mean MSE, std, number of basis vectors) over 20 splits.
PAPER_TABLE1 = {
    "ozone": {
        "d": 8,
        "n": 250,
        "n_test": 80,
        "forward": (16.33, 2.91, 100),
        "rvm_old": (16.66, 2.79, 8),
        "rvm_new": (16.39, 2.79, 7),
    },
    "boston-housing": {
        "d": 12,
        "n": 481,
        "n_test": 25,
        "forward": (7.76, 3.99, 150),
        "rvm_old": (7.75, 3.96, 60),
        "rvm_new": (7.78, 3.60, 78),
    },
    "abalone": {
        "d": 8,
        "n": 1000,
        "n_test": 3177,
        "forward": (0.438, 0.009, 100),
        "rvm_old": (0.444, 0.009, 25),
        "rvm_new": (0.489, 0.029, 85),
    },
}


def split_indices(n_samples, n_train, n_test, seed, split):
    """Train/test indices of one random split (disjoint; ``split`` selects the stream).

    Returns
    -------
    train : ndarray of shape (n_train,), int
    test : ndarray of shape (n_test,), int
    """
    if n_train + n_test > n_samples:
        raise ValueError(
            f"n_train + n_test = {n_train + n_test} exceeds the {n_samples} examples of the dataset"
        )
    perm = np.random.default_rng([seed, split]).permutation(n_samples)
    return perm[:n_train], perm[n_train : n_train + n_test]


def standardize(X, y, train, *, target="raw"):
    """Inputs scaled to zero mean, unit variance on the training rows; targets ``raw`` or
    ``standardize`` (same statistics). Constant columns are left centred, not divided.

    Returns
    -------
    Xs : ndarray of shape (n_samples, n_features)
    ys : ndarray of shape (n_samples,)
    """
    mean, scale = X[train].mean(0), X[train].std(0)
    Xs = (X - mean) / np.where(scale > 0, scale, 1.0)
    if target == "standardize":
        return Xs, (y - y[train].mean()) / y[train].std()
    if target != "raw":
        raise ValueError(f"target must be 'raw' or 'standardize', got {target!r}")
    return Xs, y


def choose_hyperparameters(X, y, cv, rvm, *, sigma2, seed, target="raw", methods=METHODS):
    """Sun & Yao's CV on a random subset: (r, λ, k_max) for Forward, r for each RVM.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    cv : dict
        ``subset`` (size), ``folds``, ``width_factors`` (r = factor · n_features), ``lams``,
        ``k_max`` (list).
    rvm : dict
        ``noise`` (``"fixed"``, the default, or ``"estimated"``: see :func:`rvm_sigma2`) and,
        per RVM, ``max_iter``, ``tol`` and optional ``flop_budget`` (estimated operations per
        CV fit).
    sigma2 : float
        The fixed σ² (Forward's; the RVMs' when ``rvm["noise"]`` is fixed).
    seed : int
    target : {"raw", "standardize"}
    methods : sequence of str, default=METHODS
        The methods to tune (each one's search is independent of the others').

    Returns
    -------
    dict
        ``{"forward": {...}, "rvm_old": {...}, "rvm_new": {...}, "cv_rows": [...]}``; each
        method's entry holds its chosen values, ``cv_mse`` and ``at_grid_edge`` (see
        :func:`rlsbench.numerics.marglik.hyper.cv_forward`).
    """
    idx = cv_subset(len(y), cv["subset"], seed)
    Xs, ys = standardize(X[idx], y[idx], np.arange(len(idx)), target=target)
    widths = [f * X.shape[1] for f in cv["width_factors"]]
    out, rows = {}, []
    n_forward = len(widths) * len(cv["lams"]) * len(cv["k_max"]) if "forward" in methods else 0
    n_rvm = len(widths) * len([m for m in methods if m != "forward"])
    step = Progress(n_forward + n_rvm, "CV grid point").done
    if "forward" in methods:
        best, grid = cv_forward(
            Xs,
            ys,
            widths,
            cv["lams"],
            cv["k_max"],
            sigma2=sigma2,
            n_splits=cv["folds"],
            seed=seed,
            progress=lambda detail: step(f"forward {detail}"),
        )
        out["forward"] = best
        rows += [{"method": "forward", **r} for r in grid]
    for name, solver in (("rvm_old", "tipping2001"), ("rvm_new", "fast")):
        if name not in methods:
            continue
        best, grid = cv_rvm(
            Xs,
            ys,
            widths,
            method=solver,
            n_splits=cv["folds"],
            seed=seed,
            sigma2=rvm_sigma2(rvm, sigma2),
            max_iter=rvm[name]["max_iter"],
            tol=rvm[name]["tol"],
            flop_budget=rvm[name].get("flop_budget"),
            progress=lambda detail, name=name: step(f"{name} {detail}"),
        )
        out[name] = best
        rows += [{"method": name, **r} for r in grid]
    out["cv_rows"] = rows
    return out


def rvm_sigma2(rvm, sigma2):
    """The RVMs' noise variance: ``sigma2`` held fixed (``rvm["noise"]`` fixed, the default:
    the paper's "The parameter σ² is set to a fixed positive value (e.g. 1)" for all its
    experiments, Sec. 4, and eq. 11 with σ² fixed), or None, re-estimated at each iteration
    (``"estimated"``, as Tipping's RVM papers do)."""
    noise = rvm.get("noise", "fixed")
    if noise not in ("fixed", "estimated"):
        raise ValueError(f"sunyao.rvm.noise must be 'fixed' or 'estimated', got {noise!r}")
    return float(sigma2) if noise == "fixed" else None


def make_model(method, hyper, *, sigma2, rvm, k_max=None, flop_budget=None):
    """The estimator of ``method`` with its chosen hyperparameters."""
    if method == "forward":
        h = hyper["forward"]
        return ForwardMarglikRegressor(
            width=h["width"], lam=h["lam"], sigma2=sigma2, k_max=int(k_max or h["k_max"])
        )
    h = hyper[method]
    return RVMRegressor(
        width=h["width"],
        method="tipping2001" if method == "rvm_old" else "fast",
        sigma2=rvm_sigma2(rvm, sigma2),
        max_iter=rvm[method]["max_iter"],
        tol=rvm[method]["tol"],
        flop_budget=flop_budget,
    )


def _n_basis(model):
    return (
        int(len(model.basis_))
        if isinstance(model, ForwardMarglikRegressor)
        else int(model.coef_.size)
    )


def _converged(model):
    return True if isinstance(model, ForwardMarglikRegressor) else bool(model.result_.converged)


def table1_rows(X, y, method, hyper, *, n_train, n_test, n_splits, seed, sigma2, rvm, target="raw"):
    """Test MSE of ``method`` on ``n_splits`` random train/test splits (Table 1).

    Returns
    -------
    list of dict
        One row per split: ``split``, ``mse``, ``n_basis``, ``fit_s``, ``converged``, ``status``
        (``ok`` or ``failed: <error>``; a failed fit has NaN MSE).
    """
    rows = []
    for split in range(n_splits):
        train, test = split_indices(len(y), n_train, n_test, seed, split)
        Xs, ys = standardize(X, y, train, target=target)
        k_max = min(hyper["forward"]["k_max"], n_train) if method == "forward" else None
        model = make_model(method, hyper, sigma2=sigma2, rvm=rvm, k_max=k_max)
        row = {"split": split, "method": method}
        clock = Stopwatch().start()
        try:
            model.fit(Xs[train], ys[train])
            pred = model.predict(Xs[test])
        except (np.linalg.LinAlgError, FloatingPointError, ValueError) as exc:
            row.update(
                mse=np.nan,
                n_basis=np.nan,
                fit_s=clock.stop().cpu_s,
                converged=False,
                status=f"failed: {exc}",
            )
        else:
            row.update(
                mse=float(np.mean((pred - ys[test]) ** 2)),
                n_basis=_n_basis(model),
                fit_s=clock.stop().cpu_s,
                converged=_converged(model),
                status="ok",
            )
        rows.append(row)
    return rows


def memory_bytes(method, n_train, k_max, n_test):
    """Peak memory estimate of one Fig. 1 fit and its test predictions (bytes).

    Forward: G (n×p), M (n×k), the test Nyström block (n_test×p); Old RVM: K, ΦᵀΦ and the
    n×n posterior quantities of the first iterations (≈ 5 n² floats); New RVM: K and the
    distance buffer (≈ 2 n² floats).
    """
    if method == "forward":
        return 8 * (n_train * (2 * k_max + 16) + n_test * (k_max + 16))
    if method == "rvm_old":
        return 8 * 5 * n_train**2
    if method == "rvm_new":
        return 8 * 2 * n_train**2
    raise ValueError(f"unknown method {method!r}; known: {', '.join(METHODS)}")


def forward_flops(n_train, n_features, k_max, rank=None):
    """Estimated floating-point operations of one Forward fit (a multiply-add counts 2).

    Pivoted incomplete Cholesky of rank p (kernel columns 3·n·d·p, updates n·p²), the Gram
    GᵀG and the column norms (4·n·p²), then k steps of eq. (6)-(10) on ``Q = G Gᵀ`` (each
    C = G(Gᵀm_k) costs 4·n·p, m_k and the A, B updates 4·n·k): the paper's O(n·k_max²) with
    p = k_max.

    Parameters
    ----------
    n_train, n_features, k_max : int
    rank : int or None
        p; None: k_max (the paper's choice).

    Returns
    -------
    float
    """
    n, d, k = float(n_train), float(n_features), float(min(k_max, n_train))
    p = float(min(rank or k_max, n_train))
    return 3 * n * d * p + n * p * p + 4 * n * p * p + 4 * n * p * k + 2 * n * k * k


def _fit_flops(model, n_train, n_features):
    if isinstance(model, ForwardMarglikRegressor):
        return forward_flops(n_train, n_features, len(model.basis_), model.chol_.rank)
    return model.flops_


def fig1_rows(
    X,
    y,
    method,
    hyper,
    *,
    train_sizes,
    n_test,
    seed,
    sigma2,
    rvm,
    k_max_fraction,
    k_max_cap,
    flop_budget,
    memory_budget_mb,
    target="raw",
):
    """Training time and test NMSE of ``method`` for growing training sets (Fig. 1).

    The last ``n_test`` examples of one random permutation form the test set; the training sets
    are the first n of the others (nested). Forward uses k_max = min(fraction · n, cap). A method
    stops at the first size whose predicted memory exceeds ``memory_budget_mb`` or whose RVM fit
    would exceed ``flop_budget`` estimated floating-point operations (counted by the solver's
    own cost model, :mod:`rlsbench.numerics.marglik.rvm`); the larger sizes are recorded as
    skipped. Both budgets are counts, never clocks: which sizes run is a function of the data,
    the config and the seed alone. The CPU and wall-clock times are measured and reported,
    and decide nothing.

    Returns
    -------
    list of dict
        ``n_train``, ``k_max``, ``status`` (ok / over_flops / over_memory / skipped),
        ``flops`` (estimated operations of the fit, or spent when it stopped), ``fit_s`` (CPU
        seconds of the fit), ``wall_s``, ``nmse``, ``mse``, ``n_basis``,
        ``memory_mb_estimate``, ``reason``.
    """
    perm = np.random.default_rng([seed, 1]).permutation(len(y))
    test, pool = perm[len(y) - n_test :], perm[: len(y) - n_test]
    if max(train_sizes) > len(pool):
        raise ValueError(
            f"train size {max(train_sizes)} exceeds the {len(pool)} examples left "
            f"after the {n_test} test examples"
        )
    rows, stopped = [], None
    for n in sorted(train_sizes):
        train = pool[:n]
        k_max = int(min(round(k_max_fraction * n), k_max_cap))
        mem = memory_bytes(method, n, k_max, n_test)
        row = {
            "method": method,
            "n_train": n,
            "k_max": k_max if method == "forward" else None,
            "memory_mb_estimate": mem / 2**20,
            "flops": np.nan,
            "fit_s": np.nan,
            "wall_s": np.nan,
            "nmse": np.nan,
            "mse": np.nan,
            "n_basis": np.nan,
            "converged": None,
        }
        if stopped:
            rows.append({**row, "status": "skipped", "reason": stopped})
            continue
        if mem > memory_budget_mb * 2**20:
            stopped = f"over the memory budget at n = {n}"
            rows.append(
                {
                    **row,
                    "status": "over_memory",
                    "reason": f"{mem / 2**20:.0f} MB > {memory_budget_mb} MB",
                }
            )
            continue
        Xs, ys = standardize(X, y, train, target=target)
        model = make_model(
            method, hyper, sigma2=sigma2, rvm=rvm, k_max=k_max, flop_budget=flop_budget
        )
        clock = Stopwatch().start()
        try:
            model.fit(Xs[train], ys[train])
        except BudgetExceeded as exc:
            clock.stop()
            stopped = f"over the flop budget at n = {n}"
            rows.append(
                {
                    **row,
                    "status": "over_flops",
                    "flops": exc.flops,
                    "fit_s": clock.cpu_s,
                    "wall_s": clock.wall_s,
                    "reason": str(exc),
                }
            )
            continue
        fit_s, wall_s = clock.stop().cpu_s, clock.wall_s
        pred = model.predict(Xs[test])
        mse = float(np.mean((pred - ys[test]) ** 2))
        row.update(
            flops=_fit_flops(model, n, X.shape[1]),
            fit_s=fit_s,
            wall_s=wall_s,
            mse=mse,
            nmse=mse / float(np.var(ys[test])),
            n_basis=_n_basis(model),
            converged=_converged(model),
            status="ok",
            reason="",
        )
        rows.append(row)
    return rows


def summarize_table1(frame):
    """Mean ± std of the test MSE and the mean number of basis vectors per dataset and method,
    with the paired t-test of each RVM against Forward (over the splits both finished).

    Parameters
    ----------
    frame : pandas.DataFrame
        Rows of :func:`table1_rows` with a ``dataset`` column.

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, method): ``mse_mean``, ``mse_std``, ``n_basis_mean``,
        ``n_splits``, ``n_failed``, ``n_not_converged``, ``n_outliers`` (MSE above 2× the
        method's median on that dataset), ``p_vs_forward``, and the paper's values.
    """
    import pandas as pd

    out = []
    for (dataset, method), g in frame.groupby(["dataset", "method"], sort=False):
        ok = g[g["status"] == "ok"]
        fwd = frame[
            (frame["dataset"] == dataset)
            & (frame["method"] == "forward")
            & (frame["status"] == "ok")
        ].set_index("split")["mse"]
        p = np.nan
        if method != "forward":
            both = ok.set_index("split")["mse"].dropna().index.intersection(fwd.index)
            mse = ok.set_index("split")["mse"]
            p = paired_t_test(mse[both].to_numpy(), fwd[both].to_numpy()).p_value
        median = ok["mse"].median()
        paper = PAPER_TABLE1.get(dataset, {}).get(method, (np.nan, np.nan, np.nan))
        out.append(
            {
                "dataset": dataset,
                "method": method,
                "mse_mean": ok["mse"].mean(),
                "mse_std": ok["mse"].std(ddof=1) if len(ok) > 1 else np.nan,
                "n_basis_mean": ok["n_basis"].mean(),
                "n_splits": len(g),
                "n_failed": int((g["status"] != "ok").sum()),
                "n_not_converged": int((~ok["converged"].astype(bool)).sum()),
                "n_outliers": int((ok["mse"] > 2 * median).sum()),
                "p_vs_forward": p,
                "fit_s_mean": ok["fit_s"].mean(),
                "paper_mse_mean": paper[0],
                "paper_mse_std": paper[1],
                "paper_n_basis": paper[2],
            }
        )
    return pd.DataFrame(out)


def table1_markdown(summary, shapes):
    """Table 1 as Markdown, ours beside the paper's: ``MSE ± std (basis vectors)``.

    Parameters
    ----------
    summary : pandas.DataFrame
        :func:`summarize_table1` output.
    shapes : dict
        ``{dataset: (d, n_train, n_test)}`` of our runs.

    Returns
    -------
    str
    """

    def cell(mean, std, nb):
        if not np.isfinite(mean):
            return "–"
        digits = 3 if abs(mean) < 1 else 2
        return f"{mean:.{digits}f} ± {std:.{digits}f} ({nb:.0f})"

    rows = []
    for dataset in summary["dataset"].unique():
        s = summary[summary["dataset"] == dataset].set_index("method")
        d, n, n_test = shapes[dataset]
        ours = [
            cell(s.at[m, "mse_mean"], s.at[m, "mse_std"], s.at[m, "n_basis_mean"])
            if m in s.index
            else "–"
            for m in METHODS
        ]
        rows.append([dataset, "ours", d, n, n_test, *ours])
        pv = [
            (
                ""
                if m == "forward" or m not in s.index or not np.isfinite(s.at[m, "p_vs_forward"])
                else f"p = {s.at[m, 'p_vs_forward']:.3g}"
            )
            for m in METHODS
        ]
        rows.append(["", "paired t-test vs Forward", "", "", "", *pv])
        paper = PAPER_TABLE1.get(dataset)
        if paper:
            cells = [cell(*paper[m]) for m in METHODS]
            rows.append(["", "paper", paper["d"], paper["n"], paper["n_test"], *cells])
    columns = ["Dataset", "", "d", "n", "n_tst", *(LABELS[m] for m in METHODS)]
    return markdown_table(pd.DataFrame(rows, columns=columns).astype(str))


def table1_findings(summary, threshold=0.01):
    """What our Table 1 says about the paper's claim that Forward and the better RVM are
    "quite comparable" by a paired t-test at p = ``threshold`` (sec. 4), one line per dataset.

    Parameters
    ----------
    summary : pandas.DataFrame
        :func:`summarize_table1` output.
    threshold : float

    Returns
    -------
    str
        Markdown: a heading sentence with the count, then one bullet per dataset.
    """
    lines, comparable = [], 0
    datasets = list(summary["dataset"].unique())
    for dataset in datasets:
        s = summary[summary["dataset"] == dataset].set_index("method")
        rvm = s.drop(index="forward", errors="ignore")
        if "forward" not in s.index or rvm.empty:
            continue
        best = rvm["mse_mean"].idxmin()
        p = s.at[best, "p_vs_forward"]
        fwd, other = s.at["forward", "mse_mean"], s.at[best, "mse_mean"]
        if np.isfinite(p) and p >= threshold:
            comparable += 1
            verdict = "comparable"
        else:
            winner = "Forward" if fwd < other else LABELS[best]
            verdict = f"**not comparable**: {winner} better"
        lines.append(
            f"- {dataset}: Forward {fwd:.4g} against {LABELS[best]} {other:.4g}, "
            f"p = {p:.2g}: {verdict}"
        )
    head = (
        f"**Our run against the paper's claim** (Forward and the better RVM comparable, paired "
        f"t-test at p = {threshold}, on every dataset): comparable on {comparable} of "
        f"{len(lines)} datasets."
    )
    return head + "\n\n" + "\n".join(lines) + "\n"


def hyper_markdown(hypers, n_features):
    """The CV choices of every dataset as Markdown, with the ones on a grid edge named.

    Parameters
    ----------
    hypers : dict
        ``{dataset: choose_hyperparameters(...) output}``.
    n_features : dict
        ``{dataset: d}`` (the width is printed as r and as r/d, the grid's factor).

    Returns
    -------
    str
    """
    rows = []
    for dataset, hyper in hypers.items():
        for method in METHODS:
            h = hyper[method]
            edges = ", ".join(h.get("at_grid_edge", [])) or "no"
            lam = f"{h['lam']:g}" if "lam" in h else "–"
            k_max = str(h["k_max"]) if "k_max" in h else "–"
            rows.append(
                [
                    dataset,
                    LABELS[method],
                    f"{h['width']:g} ({h['width'] / n_features[dataset]:g})",
                    lam,
                    k_max,
                    f"{h['cv_mse']:.4g}",
                    edges,
                ]
            )
    columns = ["Dataset", "method", "r (r/d)", "λ", "k_max", "CV MSE", "at a grid edge"]
    return markdown_table(pd.DataFrame(rows, columns=columns))


def select_inputs(X, names, features, *, dataset="dataset"):
    """The inputs a dataset entry asks for: columns dropped, one-hot levels folded into codes.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    names : list of str
        Column names of X (a prepared dataset's ``feature_names``; one-hot columns are
        ``name=level``).
    features : dict or None
        The entry's ``features``: ``drop`` (names removed) and ``codes`` (``{name: [level, ...]}``:
        the columns ``name=level`` replaced, where the first of them stood, by one column
        ``name`` holding 1, 2, ... in the order of the levels listed).
    dataset : str
        For messages.

    Returns
    -------
    X : ndarray of shape (n_samples, n_kept)
    names : list of str
    """
    features = features or {}
    columns = {name: X[:, j] for j, name in enumerate(names)}
    order = list(names)
    known = ", ".join(names)
    for name in features.get("drop", []):
        if name not in columns:
            raise ValueError(
                f"dataset {dataset!r}: config key features.drop names {name!r}, which is not "
                f"a column (columns: {known})"
            )
        order.remove(name)
    for name, levels in features.get("codes", {}).items():
        onehot = [f"{name}={level}" for level in levels]
        missing = [c for c in onehot if c not in columns]
        if missing:
            raise ValueError(
                f"dataset {dataset!r}: config key features.codes.{name} needs the one-hot columns "
                f"{', '.join(missing)}, which are not columns (columns: {known})"
            )
        block = np.column_stack([columns[c] for c in onehot])
        if not np.array_equal(block.sum(axis=1), np.ones(len(block))):
            raise ValueError(
                f"dataset {dataset!r}: config key features.codes.{name}: the columns "
                f"{', '.join(onehot)} are not "
                "one-hot (each row must have exactly one 1); list every level"
            )
        columns[name] = block @ np.arange(1.0, len(levels) + 1.0)
        first = min(order.index(c) for c in onehot)
        order = [c for c in order if c not in onehot]
        order.insert(first, name)
    return np.column_stack([columns[c] for c in order]), order


def load_data(dataset, entry, path=None):
    """X, y of a study's dataset: a prepared file of the datasets part (with the entry's
    ``features`` selection, :func:`select_inputs`), or generated sinc data.

    Parameters
    ----------
    dataset : str
        Name (for messages).
    entry : dict
        Its config entry: ``source`` ("prepared" or "sinc"); sinc takes ``n_samples``,
        ``noise``, ``data_seed``; prepared takes an optional ``features``.
    path : str or None
        The prepared ``.npz`` (``source: prepared``).

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    """
    source = entry.get("source", "prepared")
    if source == "sinc":
        return make_sinc(
            entry["n_samples"], noise=entry.get("noise", 0.1), seed=entry.get("data_seed", 0)
        )
    if source != "prepared":
        raise ValueError(
            f"dataset {dataset!r}: source must be 'prepared' or 'sinc', got {source!r}"
        )
    from rlsbench.benchmark.datasets import load_prepared

    data = load_prepared(path)
    if data.task != "regression":
        raise ValueError(
            f"dataset {dataset!r} ({path}) is a {data.task} task; Sun & Yao's "
            "experiments need regression"
        )
    X, _ = select_inputs(
        np.asarray(data.X, dtype=np.float64),
        list(data.feature_names),
        entry.get("features"),
        dataset=dataset,
    )
    return X, np.asarray(data.y, dtype=np.float64)
