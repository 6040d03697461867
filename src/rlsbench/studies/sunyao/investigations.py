"""Isolating runs for Sun & Yao's Table 1: the paper's protocol with one thing changed at a time.

The ledger (``results/paper/fidelity.csv``) finds Table 1 and claims S1/S2 contradicted. Each
*variant* here is the Table 1 run of a config section (normally ``config/paper.yaml``) with
exactly one setting changed, run through the same functions as the workflow
(:func:`~rlsbench.studies.sunyao.experiments.choose_hyperparameters`,
:func:`~rlsbench.studies.sunyao.experiments.table1_rows`,
:func:`~rlsbench.studies.sunyao.experiments.summarize_table1`), so that the difference between a
variant and the ``config`` row is caused by that setting alone:

``config``
    the section as it is (the committed Table 1).
``all_inputs``
    every column of the prepared dataset (no ``features`` selection: Ozone 9 inputs with
    ``doy``, Boston 13 with ``CHAS``, Abalone 10 with sex one-hot), our former preprocessing.
``boston_drop_b``
    Boston's 12 inputs without ``B`` instead of without ``CHAS`` (the other plausible 12).
``paper_k_max``
    Forward's k_max fixed at the number of basis vectors the paper prints (Ozone 100, Boston
    150, Abalone 100) instead of chosen by CV; r and λ still by CV.
``rvm_old_10x_iter``
    the Old RVM run 10× longer (``max_iter``), which settles whether its non-converged splits
    matter.

A variant's CV results and split runs are computed once per (dataset, inputs, method,
settings) and shared with every variant that does not change them. ``--hyper`` names the
``hyper/table1`` folder of a workflow run: a dataset's CV choices there are reused (not
recomputed) for every variant whose settings hash to the ``config_hash`` the workflow recorded
in the file, i.e. exactly the settings the workflow used. The output table
(``table1_variants.csv`` and ``.md``) has one row per (variant, dataset, method): test MSE
mean ± std over the splits, basis vectors, the paired t-test against Forward, and whether claim
S1 ("Forward and the better RVM are comparable: the paired t-test does not reject at 0.01")
holds.

The variants, datasets and workflow folder to run are the ``table1_variants`` section of
``config/investigations/sunyao.yaml``; the settings changed are the paper config's ``sunyao``
section. Run (after the ``prepare`` rule made the datasets)::

    rlsbench investigate sunyao table1_variants \\
        --set variants=[config,all_inputs] --set datasets=[ozone]
"""

from __future__ import annotations

import copy
import json
import logging
from pathlib import Path

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from rlsbench.benchmark.config import ConfigError
from rlsbench.benchmark.investigate import Investigation
from rlsbench.benchmark.provenance import config_hash
from rlsbench.benchmark.tables import markdown_table, write_csv
from rlsbench.studies.sunyao.experiments import (
    LABELS,
    METHODS,
    PAPER_TABLE1,
    choose_hyperparameters,
    load_data,
    summarize_table1,
    table1_rows,
)

log = logging.getLogger(__name__)

#: S1's threshold (sun-yao-marginal-likelihood-forward.md:95).
P_THRESHOLD = 0.01


def _all_inputs(section):
    for entry in section["table1"]["datasets"]:
        entry.pop("features", None)
    return "every prepared column (no features selection)"


def _boston_drop_b(section):
    for entry in section["table1"]["datasets"]:
        if entry["name"] == "boston-housing":
            entry["features"] = {"drop": ["B"]}
    return "boston-housing: features.drop = [B] instead of [CHAS]"


def _paper_k_max(section):
    section["k_max_by_dataset"] = {
        name: int(paper["forward"][2]) for name, paper in PAPER_TABLE1.items()
    }
    return (
        "Forward's k_max = the paper's basis vectors ("
        + ", ".join(f"{name} {k}" for name, k in section["k_max_by_dataset"].items())
        + ")"
    )


def _rvm_old_10x_iter(section):
    section["rvm"]["rvm_old"]["max_iter"] *= 10
    return f"rvm_old.max_iter = {section['rvm']['rvm_old']['max_iter']}"


#: name -> function changing a copy of the section in place and saying what it changed.
VARIANTS = {
    "config": lambda section: "the config as it is",
    "all_inputs": _all_inputs,
    "boston_drop_b": _boston_drop_b,
    "paper_k_max": _paper_k_max,
    "rvm_old_10x_iter": _rvm_old_10x_iter,
}


def _key(*parts):
    return json.dumps(parts, sort_keys=True, default=str)


class _Runs:
    """CV choices and split runs, each computed once per the settings it depends on."""

    def __init__(self, prepared, seed, threads, hyper_dir=None):
        self.prepared, self.seed, self.threads = Path(prepared), seed, threads
        self.hyper, self.rows, self.data = {}, {}, {}
        self.hyper_dir = None if hyper_dir is None else Path(hyper_dir)
        self.reused = []

    def workflow_hyper(self, section, entry, sigma2):
        """The workflow's CV choices of this dataset, if made with exactly these settings
        (the hash :func:`rlsbench.studies.sunyao.jobs.hyper_job` records), else None."""
        path = None if self.hyper_dir is None else self.hyper_dir / f"{entry['name']}.json"
        if path is None or not path.exists():
            return None
        chosen = json.loads(path.read_text())
        settings = {"cv": section["cv"], "rvm": section["rvm"], "entry": entry, "sigma2": sigma2}
        recorded = chosen.get("provenance", {})
        if recorded.get("config_hash") != config_hash(settings) or recorded.get("seed") != (
            self.seed
        ):
            return None
        return chosen

    def load(self, entry):
        key = _key(entry["name"], entry.get("features"), entry.get("source", "prepared"))
        if key not in self.data:
            path = self.prepared / f"{entry['name']}.npz"
            self.data[key] = load_data(entry["name"], entry, path)
        return self.data[key]

    def method_rows(self, section, entry, method):
        X, y = self.load(entry)
        sigma2 = entry.get("sigma2", section["sigma2"])
        cv = dict(section["cv"])
        k_max = section.get("k_max_by_dataset", {}).get(entry["name"])
        if method == "forward" and k_max is not None:
            cv["k_max"] = [k_max]
        settings = (
            {"cv": cv, "sigma2": sigma2}
            if method == "forward"
            else {"cv": {k: v for k, v in cv.items() if k not in ("lams", "k_max")}}
        )
        settings |= {"rvm": section["rvm"].get(method), "target": entry.get("target", "raw")}
        hkey = _key(entry["name"], entry.get("features"), method, settings, self.seed)
        if hkey not in self.hyper and k_max is None:
            reused = self.workflow_hyper(section, entry, sigma2)
            if reused is not None:
                self.hyper[hkey] = reused
                self.reused.append(f"{entry['name']} {method}")
        if hkey not in self.hyper:
            with threadpool_limits(self.threads):
                self.hyper[hkey] = choose_hyperparameters(
                    X,
                    y,
                    cv,
                    section["rvm"],
                    sigma2=sigma2,
                    seed=self.seed,
                    target=entry.get("target", "raw"),
                    methods=(method,),
                )
            log.info("%s %s: %s", entry["name"], method, self.hyper[hkey][method])
        hyper = self.hyper[hkey]
        rkey = _key(hkey, entry["n_train"], entry["n_test"], section["table1"]["n_splits"])
        if rkey not in self.rows:
            with threadpool_limits(self.threads):
                rows = table1_rows(
                    X,
                    y,
                    method,
                    hyper,
                    n_train=entry["n_train"],
                    n_test=entry["n_test"],
                    n_splits=section["table1"]["n_splits"],
                    seed=self.seed,
                    sigma2=sigma2,
                    rvm=section["rvm"],
                    target=entry.get("target", "raw"),
                )
            self.rows[rkey] = [{**r, "dataset": entry["name"]} for r in rows]
        return X.shape[1], hyper[method], self.rows[rkey]


def run_variants(
    section, prepared, variants=tuple(VARIANTS), datasets=None, threads=1, hyper_dir=None
):
    """Table 1 of ``section`` under each variant (one setting changed at a time).

    Parameters
    ----------
    section : dict
        The ``sunyao`` config section (validated).
    prepared : path-like
        Folder of the prepared datasets (``<name>.npz``).
    variants : sequence of str
        Keys of :data:`VARIANTS`.
    datasets : sequence of str or None
        Table 1 datasets to run (None: all of the section).
    threads : int
    hyper_dir : path-like or None
        A workflow run's ``sunyao/hyper/table1`` folder whose CV choices are reused where
        their recorded settings are exactly a variant's.

    Returns
    -------
    pandas.DataFrame
        One row per (variant, dataset, method): ``changed``, ``d``, ``mse_mean``, ``mse_std``,
        ``n_basis_mean``, ``n_not_converged``, ``n_outliers``, ``p_vs_forward``, the chosen
        hyperparameters, and per (variant, dataset) the S1 outcome (``best_rvm``,
        ``s1_p``, ``s1_comparable``) on the Forward row.
    """
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        raise ValueError(f"unknown variant(s) {', '.join(unknown)}; known: {', '.join(VARIANTS)}")
    runs = _Runs(prepared, section["seed"], threads, hyper_dir)
    out = []
    for name in variants:
        changed_section = copy.deepcopy(section)
        changed = VARIANTS[name](changed_section)
        for entry in changed_section["table1"]["datasets"]:
            if datasets is not None and entry["name"] not in datasets:
                continue
            frames, info = [], {}
            for method in METHODS:
                d, hyper, rows = runs.method_rows(changed_section, entry, method)
                frames.append(pd.DataFrame(rows))
                info[method] = hyper
            summary = summarize_table1(pd.concat(frames, ignore_index=True))
            rvm = summary[summary["method"] != "forward"]
            best = rvm.loc[rvm["mse_mean"].idxmin()]
            for _, r in summary.iterrows():
                h = info[r["method"]]
                out.append(
                    {
                        "variant": name,
                        "changed": changed,
                        "dataset": entry["name"],
                        "d": d,
                        "method": r["method"],
                        "mse_mean": r["mse_mean"],
                        "mse_std": r["mse_std"],
                        "n_basis_mean": r["n_basis_mean"],
                        "n_not_converged": r["n_not_converged"],
                        "n_outliers": r["n_outliers"],
                        "p_vs_forward": r["p_vs_forward"],
                        "width": h["width"],
                        "lam": h.get("lam", np.nan),
                        "k_max": h.get("k_max", np.nan),
                        "best_rvm": best["method"] if r["method"] == "forward" else "",
                        "s1_p": best["p_vs_forward"] if r["method"] == "forward" else np.nan,
                        "s1_comparable": (
                            bool(best["p_vs_forward"] >= P_THRESHOLD)
                            if r["method"] == "forward"
                            else None
                        ),
                        "paper_mse_mean": r["paper_mse_mean"],
                    }
                )
    log.info("CV choices reused from %s: %s", hyper_dir, ", ".join(runs.reused) or "none")
    return pd.DataFrame(out)


def variants_markdown(frame):
    """The variants as Markdown: per (variant, dataset) the three methods' ``MSE ± std
    (basis vectors)``, S1's p-value and verdict."""
    lines = []
    for (variant, dataset), g in frame.groupby(["variant", "dataset"], sort=False):
        g = g.set_index("method")
        fwd = g.loc["forward"]
        cells = [
            f"{g.at[m, 'mse_mean']:.4g} ± {g.at[m, 'mse_std']:.3g} ({g.at[m, 'n_basis_mean']:.0f})"
            for m in METHODS
        ]
        lines.append(
            {
                "variant": variant,
                "dataset": dataset,
                "d": str(int(fwd["d"])),
                **{LABELS[m]: c for m, c in zip(METHODS, cells)},
                "S1: p (best RVM)": f"{fwd['s1_p']:.2g} ({LABELS[fwd['best_rvm']]})",
                "S1 holds": "yes" if fwd["s1_comparable"] else "no",
            }
        )
    changed = frame.drop_duplicates("variant")[["variant", "changed"]]
    legend = "\n".join(f"- `{v}`: {c}" for v, c in changed.itertuples(index=False))
    return (
        _made_by(frame)
        + "Table 1 under one change at a time (test MSE ± std over the splits, mean basis "
        "vectors). S1 holds when the paired t-test of Forward against the better RVM does not "
        f"reject at p = {P_THRESHOLD}.\n\n"
        + markdown_table(pd.DataFrame(lines))
        + "\n"
        + legend
        + "\n"
    )


def _made_by(frame):
    """Header lines naming the commands and commits that made the rows of ``frame`` (rows
    merged from several invocations keep their own; rows written before ``command`` was
    recorded name their commit only)."""
    if "git_commit" not in frame.columns:
        return ""
    cols = [c for c in ("command", "git_commit") if c in frame.columns]
    made = frame[cols].fillna("").drop_duplicates()
    lines = []
    for r in made.itertuples(index=False):
        command = getattr(r, "command", "")
        what = f"`{command}`" if command else "an earlier invocation"
        lines.append(f"Made by {what} at commit `{r.git_commit}`.")
    return "\n".join(lines) + "\n\n"


def table1_variants(ctx):
    """Run the section's variants on its datasets, merge them into ``table1_variants.csv``
    (rows of other (variant, dataset) pairs kept) and rewrite ``table1_variants.md``.

    One BLAS thread, whatever ``--jobs`` (the variants share their CV choices and split runs
    through one cache, computed in order), so that no row depends on the machine's threads.
    """
    section = ctx.paper_section()
    variants = tuple(ctx.section["variants"] or VARIANTS)
    datasets = ctx.section["datasets"]
    try:
        frame = run_variants(
            section,
            ctx.data,
            variants,
            datasets,
            threads=1,
            hyper_dir=ctx.section["hyper"],
        )
    except ValueError as exc:
        raise ConfigError(f"{ctx.config}: table1_variants: {exc}") from None
    info = {"section": section, "variants": list(variants), "datasets": datasets}
    path = ctx.out / "table1_variants.csv"
    write_csv(merge_variants(path, ctx.provenance(frame, info, section["seed"])), path)
    return markdown_from_csv(ctx)


def markdown_from_csv(ctx):
    frame = ctx.read_csv("table1_variants.csv")
    return ctx.write_markdown("table1_variants.md", variants_markdown(frame))


def merge_variants(path, frame):
    """``frame`` with the rows of ``path`` (an earlier output) for the (variant, dataset)
    pairs it does not have, in :data:`VARIANTS` order: variants can be run in separate
    invocations (each row keeps its own provenance)."""
    if not Path(path).exists():
        return frame
    old = pd.read_csv(path)
    done = set(zip(frame["variant"], frame["dataset"]))
    kept = old[[(v, d) not in done for v, d in zip(old["variant"], old["dataset"])]]
    merged = pd.concat([kept, frame], ignore_index=True)
    order = {name: i for i, name in enumerate(VARIANTS)}
    datasets = {name: i for i, name in enumerate(dict.fromkeys(merged["dataset"]))}
    methods = {name: i for i, name in enumerate(METHODS)}
    key = (
        merged["variant"].map(order) * 10**6
        + merged["dataset"].map(datasets) * 10**3
        + merged["method"].map(methods)
    )
    return merged.iloc[np.argsort(key.to_numpy(), kind="stable")].reset_index(drop=True)


INVESTIGATIONS = {
    "table1_variants": Investigation(
        table1_variants,
        markdown_from_csv,
        "Table 1 with one setting changed at a time (inputs, k_max, the Old RVM's iterations)",
        keys=("variants", "datasets", "hyper"),
    ),
}
