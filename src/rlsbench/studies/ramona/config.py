"""The ``ramona`` config section: its checks, defaults and the files its rules write.

``workflow/rules.smk`` here reads the section with
:func:`rlsbench.benchmark.config.part_section` (schema ``workflow/schema.yaml`` here,
then :func:`check`) and builds its rules from the functions here: one job per (toy problem,
method), per (real-data experiment, kernel) running all its methods, and per CPU-time axis.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Mapping

from rlsbench.benchmark import config as checks
from rlsbench.benchmark.config import ConfigError


def _experiments():
    # the experiments module loads the kernel selectors (scikit-learn estimators): imported
    # when a check needs it, not when the workflow reads this part's rules
    from rlsbench.studies.ramona import experiments

    return experiments


_NAME = re.compile(r"[A-Za-z0-9_\-]+")


def _layered(*layers) -> dict:
    """method -> options, each layer's options of a method updating the previous ones'. An
    option that ends up null is the ranker's default, as if unset: it is dropped (and a method
    left without options with it), so that a layer restoring a default gives the jobs, and
    their config hashes, of a config that never set it."""
    options: dict = {}
    for layer in layers:
        for method, own in (layer or {}).items():
            options[method] = {**options.get(method, {}), **(own or {})}
    options = {m: {k: v for k, v in o.items() if v is not None} for m, o in options.items()}
    return {m: o for m, o in options.items() if o}


def method_options(section: dict) -> dict:
    """``ramona.method_options``: the ranker options of every study of the part (toy
    problems, real data, CPU time), method -> options (a variant changes one option of the
    whole part here)."""
    return _layered(section.get("method_options"))


def toy_job_settings(section: dict, method: str) -> dict:
    """What one toy job of ``method`` needs: ``ramona.toy`` without its method list (adding a
    method must not re-run the others) and, where the part sets any, the method's options
    (``method_options``; absent otherwise, so that a config without options keeps its jobs)."""
    toy = {k: v for k, v in (section.get("toy") or {}).items() if k != "methods"}
    own = method_options(section).get(method)
    return {**toy, "method_options": own} if own else toy


def cputime_job_settings(section: dict) -> dict:
    """``ramona.cputime`` and, where the part sets any for its methods, their
    ``method_options`` (method -> options; absent otherwise, so that a config without options
    for the timed methods keeps its jobs). ``n_iter`` is left out: every timed method runs
    ``cputime.n_iter`` iterations whatever the part's stopping rule
    (:func:`~rlsbench.studies.ramona.experiments.cputime_rows`), so the part's ``n_iter``
    does not change the timings, nor their job."""
    cpu = dict(section.get("cputime") or {})
    timed = cpu.get("methods")
    options = {
        m: {k: v for k, v in o.items() if k != "n_iter"}
        for m, o in method_options(section).items()
        if timed is None or m in timed
    }
    options = {m: o for m, o in options.items() if o}
    return {**cpu, "method_options": options} if options else cpu


def experiment(section: dict, name: str) -> dict:
    """Settings of one real-data experiment with the section's defaults filled in.

    ``methods``, ``n_repeats`` and ``standardize`` come from ``ramona.realdata`` where the
    experiment does not set them; ``method_options`` are the part's (``ramona.method_options``)
    updated by ``ramona.realdata.method_options``, then by the experiment's own, option by
    option (so a variant can change one option everywhere), kept only for the experiment's
    own methods: an option of a method the experiment does not run leaves its settings, and
    so its job, as they were (R2W2's radius re-runs the experiments R2W2 is in, no other).
    """
    real = section.get("realdata", {})
    exp = dict(real.get("experiments", {})[name])
    exp.setdefault("methods", real.get("methods", []))
    exp.setdefault("n_repeats", real.get("n_repeats", 30))
    exp.setdefault("standardize", real.get("standardize", True))
    options = _layered(
        section.get("method_options"), real.get("method_options"), exp.get("method_options")
    )
    exp["method_options"] = {m: o for m, o in options.items() if m in exp["methods"]}
    return exp


def n_selected(exp: dict, kernel: str) -> list[int]:
    """The S values of an experiment for one kernel (a list, or a kernel → list mapping)."""
    S = exp["n_selected"]
    return list(S[kernel]) if isinstance(S, dict) else list(S)


def protocol(exp: dict) -> dict:
    """The keyword arguments of :func:`rlsbench.studies.ramona.experiments.realdata_rows` that
    an experiment's settings (:func:`experiment`) fix: sizes, pools, repetitions, kernel
    degree, preprocessing, binarisation and the multiclass scheme. Every caller (the workflow's
    job and the investigations) takes them from here, so that none runs another protocol
    than the experiment's."""
    return {
        "n_train": exp["n_train"],
        "n_test": exp.get("n_test"),
        "train_per_class": exp.get("train_per_class"),
        "pools": exp.get("pools"),
        "n_repeats": exp["n_repeats"],
        "degree": exp.get("degree", 3),
        "standardize": exp.get("standardize", True),
        "binarize": exp.get("binarize"),
        "select_per_class": exp.get("select_per_class"),
        "multiclass": exp.get("multiclass", "joint"),
    }


def experiment_job(section: dict, name: str, kernel: str) -> dict:
    """What one (experiment, kernel) job needs: the settings with S resolved for the kernel."""
    exp = experiment(section, name)
    return {**exp, "n_selected": n_selected(exp, kernel)}


def check(section: dict, datasets: Mapping) -> None:
    """Errors the schema cannot express; raises ConfigError naming the config key.

    Parameters
    ----------
    section : dict
        The validated ``ramona`` section.
    datasets : mapping
        The dataset registry (name -> entry); empty = names are not checked.
    """
    check_toy(section.get("toy") or {})
    check_method_options(section.get("method_options"), "config key ramona")
    check_method_options(
        section.get("realdata", {}).get("method_options"), "config key ramona.realdata"
    )
    known = set(datasets or ())
    for name, exp in section.get("realdata", {}).get("experiments", {}).items():
        key = f"config key ramona.realdata.experiments.{name}"
        if not _NAME.fullmatch(name):
            raise ConfigError(f"{key}: use letters, digits, '_' and '-' only (it becomes a path)")
        if known and exp["dataset"] not in known:
            raise ConfigError(
                f"{key}.dataset: unknown dataset {exp['dataset']!r}"
                f" (`rlsbench datasets list` lists the registry)"
            )
        check_method_options(exp.get("method_options"), key)
        S = exp["n_selected"]
        if isinstance(S, dict) and set(S) != set(exp["kernels"]):
            raise ConfigError(
                f"{key}.n_selected: give S values for exactly the kernels "
                f"{exp['kernels']}, got {sorted(S)}"
            )
        check_shapes(name, exp, datasets)


def check_method_options(method_options, key: str) -> None:
    """Every option is one its method's ranker takes (ConfigError naming the key)."""
    for method, options in (method_options or {}).items():
        allowed = {"n_iter", *_experiments().method_options_of(method)}
        for option in sorted(set(options) - allowed):
            raise ConfigError(
                f"{key}.method_options.{method}.{option}: not an option of {method} "
                f"(its options: {', '.join(sorted(allowed))})"
            )


def toy_features(problem: str) -> int:
    """Features of a Weston toy problem as the toy jobs draw it (202 linear, 52 nonlinear)."""
    from rlsbench.numerics import synthetic

    maker = synthetic.make_weston_linear if problem == "linear" else synthetic.make_weston_nonlinear
    return inspect.signature(maker).parameters["n_features"].default


def check_toy(toy: dict) -> None:
    """The S best features of Fig. 1 exist in every toy problem: a larger S would keep all
    of them without a word (ConfigError naming the key)."""
    if not toy or not toy.get("enabled", True) or "n_selected" not in toy:
        return
    for problem in toy.get("problems", ["linear", "nonlinear"]):
        n_features = toy_features(problem)
        checks.check_at_most(
            toy["n_selected"],
            n_features,
            "ramona.toy.n_selected",
            f"the {n_features} features of the {problem} toy problem",
        )


def check_shapes(name: str, exp: dict, datasets: Mapping) -> None:
    """An experiment's dataset has class labels, S fits its features, the split its examples
    and classes (ConfigError naming the key)."""
    key = f"ramona.realdata.experiments.{name}"
    entry = checks.dataset_entry(
        datasets,
        exp["dataset"],
        f"{key}.dataset",
        tasks=checks.CLASSIFICATION,
        part="Ramona et al.'s protocol",
    )
    dataset = exp["dataset"]
    n_features, total = checks.n_features_of(entry), checks.n_samples_of(entry)
    S = exp["n_selected"]
    for kernel, values in S.items() if isinstance(S, dict) else [("", S)]:
        where = f"{key}.n_selected" + (f".{kernel}" if kernel else "")
        checks.check_at_most(
            max(values), n_features, where, f"the {n_features} features of dataset {dataset!r}"
        )
    n_train, n_test = exp["n_train"], exp.get("n_test")
    if isinstance(n_train, int) and exp.get("train_per_class") is None and not exp.get("pools"):
        checks.check_at_most(
            n_train,
            None if total is None else total - 1,
            f"{key}.n_train",
            f"the {total} examples of dataset {dataset!r} less one test example",
        )
        if isinstance(n_test, int):
            checks.check_at_most(
                n_train + n_test,
                total,
                f"{key}.n_test",
                f"the {total} examples of dataset {dataset!r} (as n_train + n_test)",
            )
    if exp.get("train_per_class") is not None:
        smallest = checks.smallest_class_of(entry)
        checks.check_at_most(
            exp["train_per_class"],
            smallest,
            f"{key}.train_per_class",
            f"the {smallest} examples of the smallest class of {dataset!r}",
        )
    for pool, bounds in (exp.get("pools") or {}).items():
        if bounds == "rest":
            continue
        start, stop = bounds
        if start >= stop:
            raise ConfigError(f"config key {key}.pools.{pool}: [{start}, {stop}) is empty")
        checks.check_at_most(
            stop, total, f"{key}.pools.{pool}", f"the {total} examples of dataset {dataset!r}"
        )


def toy_files(section: dict, rundir: str) -> list[str]:
    toy = section.get("toy")
    if not section.get("enabled") or not toy or not toy.get("enabled", True):
        return []
    return [
        f"{rundir}/toy/{p}/{m}.csv"
        for p in toy.get("problems", ["linear", "nonlinear"])
        for m in toy["methods"]
        if _experiments().method_applies(m, "linear" if p == "linear" else "rbf")
    ]


def realdata_files(section: dict, rundir: str) -> list[str]:
    if not section.get("enabled"):
        return []
    files = []
    for name in section.get("realdata", {}).get("experiments", {}):
        exp = experiment(section, name)
        files += [
            f"{rundir}/realdata/{name}/{k}.csv"
            for k in exp["kernels"]
            if any(_experiments().method_applies(m, k) for m in exp["methods"])
        ]
    return files


def cputime_axes(section: dict) -> list[str]:
    cpu = section.get("cputime")
    if not section.get("enabled") or not cpu or not cpu.get("enabled", True):
        return []
    return ["N", "D"]


def outputs(section: dict, directory: str) -> dict[str, str]:
    """Every report file of the part, by name."""
    return {
        "toy_rows": f"{directory}/toy/rows.csv",
        "toy_summary": f"{directory}/toy/summary.csv",
        "toy_figure": f"{directory}/figures/fig1_toy.png",
        "real_rows": f"{directory}/realdata/rows.csv",
        "real_summary": f"{directory}/realdata/summary.csv",
        "real_tests": f"{directory}/realdata/paired_tests.csv",
        "real_tests_sas": f"{directory}/realdata/paired_tests_sas.md",
        "real_figure": f"{directory}/figures/realdata_curves.png",
        "table2": f"{directory}/tables/table2_usps.md",
        "table4": f"{directory}/tables/table4_neumann.md",
        "table5": f"{directory}/tables/table5_usps_binary.md",
        "table6": f"{directory}/tables/table6_gmkl.md",
        "cpu_rows": f"{directory}/cputime/rows.csv",
        "table8": f"{directory}/tables/table8_cputime_N.md",
        "table9": f"{directory}/tables/table9_cputime_D.md",
    }


def targets(section: dict, directory: str) -> list[str]:
    """What `ramona_all` builds (and `ramona_publish` copies): the reports of the studies
    the section enables."""
    out = outputs(section, directory)
    toy = ["toy_rows", "toy_summary", "toy_figure"] if toy_files(section, directory) else []
    real = (
        [
            "real_rows",
            "real_summary",
            "real_tests",
            "real_tests_sas",
            "real_figure",
            "table2",
            "table4",
            "table5",
            "table6",
        ]
        if realdata_files(section, directory)
        else []
    )
    cpu = ["cpu_rows", "table8", "table9"] if cputime_axes(section) else []
    return [out[name] for name in toy + real + cpu]


def plan_line(section: Mapping, datasets: Mapping) -> str:
    """The part's line of the plan a run prints (rlsbench.studies.plan): its experiments."""
    from rlsbench.studies.plan import names

    experiments = section.get("experiments", {})
    found = experiments if isinstance(experiments, Mapping) else [e["name"] for e in experiments]
    return f"experiments {names(found) if found else 'toy and CPU-time'}; no cost model"
