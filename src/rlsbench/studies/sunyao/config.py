"""The ``sunyao`` config section: its checks and the inputs and files of its rules.

``workflow/rules.smk`` here reads the section with
:func:`rlsbench.benchmark.config.part_section` (schema ``workflow/schema.yaml`` here,
then :func:`check`). Its studies are ``table1`` (a list of datasets, each over random
splits) and ``fig1`` (one dataset over growing training sets); a dataset's ``source`` is
``prepared`` (a registry dataset, ``results/datasets/prepared/<name>.npz``) or ``sinc``
(generated in the job).
"""

from __future__ import annotations

from collections.abc import Mapping

from rlsbench.benchmark import config as checks
from rlsbench.benchmark.config import ConfigError

#: The three methods of Sun & Yao's comparison (the rule files read this module, which stays
#: light; :mod:`rlsbench.studies.sunyao.experiments` runs them).
METHODS = ("forward", "rvm_old", "rvm_new")


def _check_dataset(entry: dict, key: str, datasets: Mapping) -> None:
    name = entry.get("name", entry.get("dataset"))
    if entry.get("source", "prepared") != "prepared" or not datasets:
        return
    if name not in datasets:
        raise ConfigError(
            f"config key {key}: unknown dataset {name!r}"
            f" (`rlsbench datasets list` lists the registry)"
        )
    task = (datasets[name] or {}).get("task")
    if task is not None and task != "regression":
        raise ConfigError(
            f"config key {key}: dataset {name!r} is a {task} task; Sun & Yao's experiments "
            "need regression"
        )


def check(section: dict, datasets: Mapping) -> None:
    """Table 1's dataset names are unique; a ``prepared`` dataset is a regression dataset of
    the registry. Raises ConfigError naming the key."""
    check_sizes(section, datasets)
    seen = set()
    for i, entry in enumerate(section["table1"]["datasets"]):
        key = f"sunyao.table1.datasets[{i}]"
        if entry["name"] in seen:
            raise ConfigError(f"config key {key}.name: {entry['name']!r} repeats")
        seen.add(entry["name"])
        _check_dataset(entry, f"{key}.name", datasets)
    if fig1(section):
        _check_dataset(section["fig1"], "sunyao.fig1.dataset", datasets)
        if "time_budget_s" in section["fig1"]:
            # a clock made the sizes that ran depend on the machine (issue 19.3)
            raise ConfigError(
                "config key sunyao.fig1.time_budget_s: replaced by sunyao.fig1.flop_budget "
                "(estimated floating-point operations per RVM fit, the same on any machine)"
            )


def _n_samples(entry: dict, datasets: Mapping) -> int | None:
    if entry.get("source", "prepared") == "sinc":
        return entry["n_samples"]
    name = entry.get("name", entry.get("dataset"))
    return checks.n_samples_of((datasets or {}).get(name, {}))


def check_sizes(section: dict, datasets: Mapping) -> None:
    """Splits fit their data (n_train + n_test, Fig. 1's largest training size + n_test) and
    the CV folds fit the CV subset (ConfigError naming the key). Names are checked first."""
    cv = section.get("cv") or {}
    folds, subset = cv.get("folds"), cv.get("subset")
    if "lams" in cv:
        checks.check_lambda_grid(cv["lams"], "sunyao.cv.lams")
    checks.check_at_most(
        folds,
        subset,
        "sunyao.cv.folds",
        f"the {subset} examples of the CV subset (sunyao.cv.subset)",
    )
    for i, entry in enumerate((section.get("table1") or {}).get("datasets", [])):
        _check_dataset(entry, f"sunyao.table1.datasets[{i}].name", datasets)
        if "n_train" not in entry or "n_test" not in entry:
            continue
        total = _n_samples(entry, datasets)
        checks.check_at_most(
            entry["n_train"] + entry["n_test"],
            total,
            f"sunyao.table1.datasets[{i}].n_test",
            f"the {total} examples of dataset {entry['name']!r} (as n_train + n_test)",
        )
        checks.check_at_most(
            folds,
            entry["n_train"],
            "sunyao.cv.folds",
            f"the {entry['n_train']} training examples of {entry['name']!r}",
        )
    f1 = fig1(section)
    if f1 and "train_sizes" in f1 and "n_test" in f1:
        _check_dataset(f1, "sunyao.fig1.dataset", datasets)
        total = _n_samples(f1, datasets)
        checks.check_at_most(
            max(f1["train_sizes"]) + f1["n_test"],
            total,
            "sunyao.fig1.train_sizes",
            f"the {total} examples of dataset {f1['dataset']!r} (as the largest train size + "
            "n_test)",
        )


def table1(section: dict) -> dict:
    """``sunyao.table1`` with its datasets as a mapping name -> entry (none when off)."""
    t1 = dict(section.get("table1") or {"datasets": []})
    t1["datasets"] = {entry["name"]: entry for entry in t1["datasets"]}
    return t1


def fig1(section: dict) -> dict | None:
    """``sunyao.fig1``, or None when absent or disabled."""
    f1 = section.get("fig1")
    return f1 if f1 and f1.get("enabled", True) else None


def entry(section: dict, study: str, dataset: str) -> dict:
    """The config entry of a dataset in a study (table1: its datasets map; fig1: the section)."""
    if study == "table1":
        datasets = table1(section)["datasets"]
        if dataset not in datasets:
            raise ConfigError(
                f"config key sunyao.table1.datasets: no dataset {dataset!r} "
                f"(known: {', '.join(datasets)})"
            )
        return datasets[dataset]
    f1 = fig1(section)
    if not f1 or f1["dataset"] != dataset:
        raise ConfigError(f"config key sunyao.fig1.dataset is not {dataset!r}")
    return f1


def needs_file(section: dict, study: str, dataset: str) -> bool:
    """Whether the dataset is read from a prepared file (else generated in the job)."""
    return entry(section, study, dataset).get("source", "prepared") == "prepared"


def cv(section: dict, study: str) -> dict:
    """The CV settings of a study (Fig. 1 has its own k_max grid)."""
    settings = dict(section["cv"])
    if study == "fig1":
        settings["k_max"] = section["fig1"]["cv_k_max"]
    return settings


#: What a method's CV search reads of ``sunyao.cv`` (Forward its whole grid; an RVM only the
#: widths, as :func:`rlsbench.numerics.marglik.hyper.cv_rvm` searches r alone).
_CV_READ = {"forward": None, "rvm_old": ("subset", "folds", "width_factors")}
_CV_READ["rvm_new"] = _CV_READ["rvm_old"]


def _search_inputs(section: dict, study: str, dataset: str, method: str) -> tuple:
    """Everything a method's CV search on a dataset reads (its job's params, and the data they
    make), as a comparable value: the data (sinc's generator settings, or the prepared
    dataset and its ``features``), the target, the effective σ², the seed, the CV settings the
    method reads and its RVM settings."""
    e = entry(section, study, dataset)
    source = e.get("source", "prepared")
    if source == "sinc":
        data = ("sinc", e["n_samples"], e.get("noise", 0.1), e.get("data_seed", 0))
    else:
        data = (source, dataset, repr(e.get("features")))
    settings = cv(section, study)
    read = _CV_READ.get(method)
    if read is not None:
        settings = {key: settings[key] for key in read if key in settings}
    return (
        data,
        e.get("target", "raw"),
        e.get("sigma2", section.get("sigma2")),
        section.get("seed"),
        section.get("threads", 1),
        repr(sorted(settings.items())),
        repr(method_rvm(section, method)),
    )


def search_source(section: dict, study: str, dataset: str, method: str) -> tuple[str, str]:
    """The (study, dataset) whose CV search of ``method`` this one's is: the first, Table 1's
    datasets then Fig. 1's, with the same inputs (:func:`_search_inputs`). A search is run
    once however many studies take its choices: in the default config Fig. 1's sinc data are
    Table 1's, and both RVMs' searches there were run twice (issue 46)."""
    mine = _search_inputs(section, study, dataset, method)
    studies = [("table1", name) for name in table1(section)["datasets"]]
    f1 = fig1(section)
    if f1:
        studies.append(("fig1", f1["dataset"]))
    for other in studies:
        if other == (study, dataset):
            break
        if _search_inputs(section, *other, method) == mine:
            return other
    return study, dataset


def method_rvm(section: dict, method: str) -> dict | None:
    """The RVM settings a method's jobs get: ``sunyao.rvm`` for an RVM, None for Forward, whose
    fits never read them (so that changing them re-runs no Forward job)."""
    return None if method == "forward" else section.get("rvm")


def outputs(section: dict, directory: str) -> dict[str, list[str]]:
    """The report files of the two studies (empty when a study is off)."""
    t1, f1 = table1(section), fig1(section)
    return {
        "table1": [f"{directory}/table1/{n}" for n in ("table1.md", "table1.csv", "splits.csv")]
        if t1["datasets"]
        else [],
        "fig1": [f"{directory}/fig1/{n}" for n in ("fig1.png", "fig1.md", "fig1.csv")]
        if f1
        else [],
    }


def targets(section: dict, directory: str) -> list[str]:
    """What `sunyao_all` builds."""
    out = outputs(section, directory)
    return [*out["table1"], *out["fig1"]]


def published(section: dict, directory: str) -> list[str]:
    """What `sunyao_publish` copies: the reports and the CV choices behind them."""
    t1, f1 = table1(section), fig1(section)
    return [
        *targets(section, directory),
        *[f"{directory}/hyper/table1/{d}.json" for d in t1["datasets"]],
        *([f"{directory}/hyper/fig1/{f1['dataset']}.json"] if f1 else []),
    ]


def plan_line(section: Mapping, datasets: Mapping) -> str:
    """The part's line of the plan a run prints (rlsbench.studies.plan): Table 1's datasets."""
    from rlsbench.studies.plan import names

    data = [e["name"] for e in section.get("table1", {}).get("datasets", [])]
    return f"Table 1 datasets {names(data)}; no cost model"
