"""The protocol's settings, parsed once from a config section into typed objects.

A config section (the main part's ``main``, or any section a study gives the same keys) is
read once, at the edge, by :meth:`ProtocolSettings.from_section`: the folds, the seeds, the λ
grid (:class:`LambdaGrid`), the LOO criterion, the bias, the k caps and the budgets become
typed fields, and every error names the key the user wrote (``<section>.k_max``, not a key of
some other section). The code below it (:mod:`rlsbench.benchmark.protocol`,
:mod:`rlsbench.benchmark.jobs`) takes the object, never the dict.

The object also says which keys a result depends on: :attr:`ProtocolSettings.job_keys` and
:attr:`ProtocolSettings.alpha_keys`, and the parts of the section made of them
(:meth:`ProtocolSettings.job_settings`, :meth:`ProtocolSettings.alpha_settings`), which the
main part's rules give Snakemake as ``params.settings`` (a change re-runs exactly the jobs that
depend on it) and which the rows' ``config_hash`` covers. Those dicts are taken from the
section as written, values untouched (an ``int`` stays an ``int``), so that a parse changes
neither a hash nor a rerun trigger.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np

from rlsbench.benchmark.config import ConfigError, check_lambda, check_not_empty

#: Keys of a section that a selection job's result depends on, in the order of
#: :meth:`ProtocolSettings.job_settings` (the provenance hash and the rerun trigger cover them).
JOB_KEYS = (
    "n_folds",
    "cv_seed",
    "cv_repeats",
    "cv_repeat_below",
    "random_seeds",
    "alphas",
    "criterion",
    "bias",
    "standardize",
    "k_max",
    "k_max_per_dataset",
    "k_max_clip",
    "memory_budget_mb",
    "time_budget_s",
    "flops_per_second",
)

#: Keys of a section that a λ search depends on.
ALPHA_KEYS = (
    "n_folds",
    "cv_seed",
    "cv_repeats",
    "cv_repeat_below",
    "alphas",
    "criterion",
    "bias",
    "standardize",
)

#: LOO criteria of the λ search and the selectors.
CRITERIA = ("squared", "zero_one")

#: Where the selection of a method that runs on device arrays may run.
DEVICES = ("cpu", "cuda")


# ---------------------------------------------------------------------------------------------
# The λ grid
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class LambdaGrid:
    """The λ grid of the LOO search: listed values, or ``base**min_exp … base**max_exp``.

    Every λ (listed, or the two ends of the powers, in float64) is finite and > 0 with 1/λ
    finite: λ and 1/λ are normal float64 (2.2e-308 <= λ <= 4.5e307), since the solvers divide
    by λ as well as add it. A grid that gives no value is refused. Errors are
    :class:`~rlsbench.benchmark.config.ConfigError` naming ``key`` (``<key>[i]`` for a listed
    value, ``<key>.min_exp`` / ``<key>.max_exp`` for an end of the powers).

    Parameters
    ----------
    listed : tuple of float or None
        The values as listed; None for a grid of powers.
    base : float, default=2
        Base of the powers (as the config writes it: it is printed in messages).
    min_exp, max_exp : int, default=-15, 15
        Exponents of the smallest and largest λ.
    key : str
        The config key of the grid, for error messages (not part of the grid's identity).

    See Also
    --------
    LambdaGrid.from_spec : the grid from its config form.
    """

    listed: tuple[float, ...] | None = None
    base: float = 2
    min_exp: int = -15
    max_exp: int = 15
    key: str = field(default="alphas", compare=False)

    def __post_init__(self):
        if self.listed is not None:
            check_not_empty(self.listed, self.key, "λ list")
            for i, value in enumerate(self.listed):
                check_lambda(value, f"{self.key}[{i}]")
            return
        base, low, high = float(self.base), int(self.min_exp), int(self.max_exp)
        if low > high:
            check_not_empty([], self.key, "λ grid (base**min_exp ... base**max_exp)")
        for name, exp in (("min_exp", low), ("max_exp", high)):
            try:
                lam = base**exp
            except OverflowError:
                lam = math.inf
            try:
                check_lambda(lam, f"{self.key}.{name}")
            except ConfigError as exc:
                raise ConfigError(f"{exc} (as base**{name} = {self.base}**{exp})") from None

    @classmethod
    def from_spec(cls, spec, key: str = "alphas") -> LambdaGrid:
        """The grid of a config value: a list of λ, or a mapping ``{base, min_exp, max_exp}``
        (``base`` 2 when left out).

        Parameters
        ----------
        spec : sequence of float or mapping
        key : str
            The config key of ``spec`` (e.g. ``"main.alphas"``), for error messages.

        Raises
        ------
        ConfigError
            A λ outside the normal float64 range, or a grid without values; the message starts
            with ``config key <key>``.
        """
        if isinstance(spec, Mapping):
            return cls(
                base=spec.get("base", 2), min_exp=spec["min_exp"], max_exp=spec["max_exp"], key=key
            )
        return cls(listed=tuple(spec), key=key)

    def spec(self):
        """The grid in its config form: a list, or ``{"base", "min_exp", "max_exp"}``."""
        if self.listed is not None:
            return list(self.listed)
        return {"base": self.base, "min_exp": self.min_exp, "max_exp": self.max_exp}

    def values(self) -> np.ndarray:
        """The grid's values.

        Returns
        -------
        ndarray of shape (R,), float64
            The listed values in their order, or ``base**min_exp … base**max_exp`` increasing
            (the default gives 2^-15 … 2^15).
        """
        if self.listed is not None:
            return np.asarray(self.listed, dtype=np.float64)
        exps = np.arange(int(self.min_exp), int(self.max_exp) + 1)
        return float(self.base) ** exps.astype(np.float64)

    def __len__(self) -> int:
        if self.listed is not None:
            return len(self.listed)
        return int(self.max_exp) - int(self.min_exp) + 1


#: The λ grid of the main part's schema and of the estimators' ``alpha="loo"``: 2^-15 … 2^15.
DEFAULT_LAMBDA_GRID = LambdaGrid(base=2, min_exp=-15, max_exp=15)


# ---------------------------------------------------------------------------------------------
# The protocol's settings
# ---------------------------------------------------------------------------------------------
def time_budget_for(time_budget_s, method_name):
    """Seconds allowed to one job of ``method_name``: a number, or a mapping with per-method
    entries and a ``default``."""
    if isinstance(time_budget_s, Mapping):
        return float(time_budget_s.get(method_name, time_budget_s["default"]))
    return float(time_budget_s)


def _is_int(value) -> bool:
    return isinstance(value, Integral) and not isinstance(value, bool)


def _is_positive(value) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool) and value > 0


@dataclass(frozen=True)
class ProtocolSettings:
    """The settings of the evaluation protocol (:mod:`rlsbench.benchmark.protocol`).

    Build it with :meth:`from_section`; the fields keep the values as the section gives them
    (validated, not converted), since the result rows and their messages print them.

    Attributes
    ----------
    key : str
        The config section's name (``"main"``): errors name ``<key>.<field>``.
    n_folds : int
        Folds of the seeded (stratified for classification) K-fold split.
    cv_seed : int
        ``random_state`` of the splitter; also the seed of deterministic methods.
    cv_repeats : int
        Repetitions of the K-fold split of a dataset with fewer than ``cv_repeat_below``
        examples (:func:`rlsbench.benchmark.protocol.cv_plan`).
    cv_repeat_below : int
        Datasets with fewer examples are split ``cv_repeats`` times (0: never).
    random_seeds : tuple of int
        Seeds of randomized methods, one run each.
    alphas : LambdaGrid
        The grid of the LOO λ search.
    criterion : {"squared", "zero_one"}
        LOO criterion of the λ search and the selectors.
    bias : float
        Value of the constant bias feature (0: none).
    standardize : bool
        Standardise the features by the training split (False: as the dataset gives them).
    k_max : int or None
        Features to select (None: all).
    k_max_per_dataset : dict of str to int
        Per-dataset caps, over ``k_max``.
    k_max_clip : bool
        A cap above a dataset's feature count selects all its features (False: such a cap is
        an error).
    memory_budget_mb : float
        A job whose estimated peak memory exceeds it is recorded as skipped.
    time_budget_s : float or dict of str to float
        Estimated seconds per job above which it is skipped, or ``{"default": s, "<method>": s}``.
    flops_per_second : float
        Machine speed of the time estimate.
    device : {"cpu", "cuda"}
        Where the selection of a method on device arrays (greedy RLS) runs.
    section : dict
        The section as written (a copy): what :meth:`job_settings`, :meth:`alpha_settings` and
        the rows' provenance hash are made of. Built from the fields when the object is made
        directly rather than by :meth:`from_section`.
    """

    #: Keys of the section a selection job's result depends on (:meth:`job_settings`).
    job_keys: ClassVar[tuple[str, ...]] = JOB_KEYS
    #: Keys of the section a λ search depends on (:meth:`alpha_settings`).
    alpha_keys: ClassVar[tuple[str, ...]] = ALPHA_KEYS

    key: str = "main"
    n_folds: int = 10
    cv_seed: int = 0
    cv_repeats: int = 1
    cv_repeat_below: int = 0
    random_seeds: tuple[int, ...] = (0, 1, 2)
    alphas: LambdaGrid = DEFAULT_LAMBDA_GRID
    criterion: str = "squared"
    bias: float = 1.0
    standardize: bool = True
    k_max: int | None = None
    k_max_per_dataset: dict = field(default_factory=dict)
    k_max_clip: bool = False
    memory_budget_mb: float = 8000
    time_budget_s: Any = 3600
    flops_per_second: float = 2.0e9
    device: str = "cpu"
    section: dict | None = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        self._check()
        if self.section is None:
            object.__setattr__(self, "section", self._as_section())

    def _as_section(self) -> dict:
        section = {
            "n_folds": self.n_folds,
            "cv_seed": self.cv_seed,
            "random_seeds": list(self.random_seeds),
            "alphas": self.alphas.spec(),
            "criterion": self.criterion,
            "bias": self.bias,
            "standardize": self.standardize,
            "k_max": self.k_max,
            "k_max_per_dataset": dict(self.k_max_per_dataset),
            "memory_budget_mb": self.memory_budget_mb,
            "time_budget_s": (
                dict(self.time_budget_s)
                if isinstance(self.time_budget_s, Mapping)
                else self.time_budget_s
            ),
            "flops_per_second": self.flops_per_second,
        }
        if self.device != "cpu":
            section["device"] = self.device
        if self.k_max_clip:  # hashes of runs without it unchanged
            section["k_max_clip"] = True
        if (self.cv_repeats, self.cv_repeat_below) != (1, 0):  # hashes of plain runs unchanged
            section["cv_repeats"] = self.cv_repeats
            section["cv_repeat_below"] = self.cv_repeat_below
        return section

    def _check(self):
        def refuse(name, why):
            raise ConfigError(f"config key {self.key}.{name}: {why}")

        if not _is_int(self.n_folds) or self.n_folds < 2:
            refuse("n_folds", f"{self.n_folds!r} is not an integer >= 2")
        if not (_is_int(self.cv_seed) and self.cv_seed >= 0):
            refuse("cv_seed", f"{self.cv_seed!r} is not an integer >= 0")
        if not (_is_int(self.cv_repeats) and self.cv_repeats >= 1):
            refuse("cv_repeats", f"{self.cv_repeats!r} is not an integer >= 1")
        if not (_is_int(self.cv_repeat_below) and self.cv_repeat_below >= 0):
            refuse("cv_repeat_below", f"{self.cv_repeat_below!r} is not an integer >= 0")
        if not self.random_seeds:
            refuse("random_seeds", "give at least one seed")
        for i, seed in enumerate(self.random_seeds):
            if not (_is_int(seed) and seed >= 0):
                refuse(f"random_seeds[{i}]", f"{seed!r} is not an integer >= 0")
        if self.criterion not in CRITERIA:
            refuse("criterion", f"{self.criterion!r} is not one of {', '.join(CRITERIA)}")
        if self.device not in DEVICES:
            refuse("device", f"{self.device!r} is not one of {', '.join(DEVICES)}")
        if not isinstance(self.standardize, bool):
            refuse("standardize", f"{self.standardize!r} is not true or false")
        if not isinstance(self.bias, Real) or isinstance(self.bias, bool) or self.bias < 0:
            refuse("bias", f"{self.bias!r} is not a number >= 0")
        if self.k_max is not None and not (_is_int(self.k_max) and self.k_max >= 1):
            refuse("k_max", f"{self.k_max!r} is neither null nor an integer >= 1")
        for name, k in self.k_max_per_dataset.items():
            if not (_is_int(k) and k >= 1):
                refuse(f"k_max_per_dataset.{name}", f"{k!r} is not an integer >= 1")
        if not isinstance(self.k_max_clip, bool):
            refuse("k_max_clip", f"{self.k_max_clip!r} is not true or false")
        for name in ("memory_budget_mb", "flops_per_second"):
            if not _is_positive(getattr(self, name)):
                refuse(name, f"{getattr(self, name)!r} is not a number > 0")
        budgets = self.time_budget_s
        if isinstance(budgets, Mapping):
            if "default" not in budgets:
                refuse("time_budget_s", "a per-method mapping needs a 'default' entry")
            for name, seconds in budgets.items():
                if not _is_positive(seconds):
                    refuse(f"time_budget_s.{name}", f"{seconds!r} is not a number > 0")
        elif not _is_positive(budgets):
            refuse("time_budget_s", f"{budgets!r} is not a number > 0")

    @classmethod
    def from_section(cls, section: Mapping, key: str = "main") -> ProtocolSettings:
        """Parse and validate a config section once.

        Parameters
        ----------
        section : mapping
            The section (e.g. the main part's ``main``, or the :meth:`job_settings` a rule
            passes to its job). Keys it leaves out take the main part's schema defaults;
            keys the protocol does not read (``datasets``, ``report_k``, ...) are kept in
            :attr:`section` only.
        key : str, default="main"
            The section's name, for error messages.

        Returns
        -------
        ProtocolSettings

        Raises
        ------
        ConfigError
            A value the protocol cannot run with; the message names ``<key>.<name>``.
        """
        given = {name: section[name] for name in JOB_KEYS + ("device",) if name in section}
        alphas = given.pop("alphas", None)
        caps = given.pop("k_max_per_dataset", None) or {}
        budgets = given.pop("time_budget_s", cls.time_budget_s)
        return cls(
            key=key,
            alphas=(
                DEFAULT_LAMBDA_GRID
                if alphas is None
                else LambdaGrid.from_spec(alphas, key=f"{key}.alphas")
            ),
            random_seeds=tuple(given.pop("random_seeds", cls.random_seeds)),
            k_max_per_dataset=dict(caps),
            time_budget_s=dict(budgets) if isinstance(budgets, Mapping) else budgets,
            section=dict(section),
            **given,
        )

    @classmethod
    def of(cls, settings, key: str = "main") -> ProtocolSettings:
        """``settings`` itself, or a section parsed by :meth:`from_section` (for callers that
        hold a config section, such as scripts run against older source trees)."""
        return settings if isinstance(settings, cls) else cls.from_section(settings, key=key)

    # -------------------------------------------------------------------- what a job runs
    def k_cap(self, dataset_name: str) -> int | None:
        """The configured number of features of ``dataset_name``: its own cap, else ``k_max``
        (None: all)."""
        return self.k_max_per_dataset.get(dataset_name, self.k_max)

    def k_for(self, dataset_name: str, n_features: int) -> int:
        """Number of features a job on ``dataset_name`` selects.

        Parameters
        ----------
        dataset_name : str
        n_features : int
            Features of the dataset.

        Returns
        -------
        int
            The per-dataset cap, else ``k_max``, else ``n_features``; with
            :attr:`k_max_clip`, at most ``n_features``.

        Raises
        ------
        ValueError
            The cap exceeds ``n_features`` (without :attr:`k_max_clip`); the message names the
            key that set it (``<key>.k_max`` or ``<key>.k_max_per_dataset.<dataset>``).
        """
        k = self.k_cap(dataset_name)
        if k is None:
            return int(n_features)
        if self.k_max_clip:
            return int(min(k, n_features))
        if k > n_features:
            where = (
                f"{self.key}.k_max_per_dataset.{dataset_name}"
                if dataset_name in self.k_max_per_dataset
                else f"{self.key}.k_max"
            )
            raise ValueError(f"{where} ({k}) exceeds the {n_features} features of {dataset_name!r}")
        return int(k)

    def time_budget_for(self, method_name: str) -> float:
        """Seconds allowed to one job of ``method_name`` (its own entry, else the default)."""
        return time_budget_for(self.time_budget_s, method_name)

    def seeds_for(self, method) -> list[int]:
        """Seeds a method runs with: every seed of :attr:`random_seeds` for a randomized
        method, else :attr:`cv_seed` alone.

        Parameters
        ----------
        method : str or rlsbench.benchmark.methods.Method
            A method or its registered name.
        """
        if isinstance(method, str):
            from rlsbench.benchmark.methods import get_method

            method = get_method(method)
        return list(self.random_seeds) if method.randomized else [self.cv_seed]

    # -------------------------------------------------------------------- what a result depends on
    def alpha_settings(self) -> dict:
        """The part of the section a λ search depends on (:attr:`alpha_keys`, in that order,
        as written)."""
        return {name: self.section[name] for name in ALPHA_KEYS if name in self.section}

    def job_settings(self, dataset_name: str) -> dict:
        """The part of the section one dataset's selection jobs depend on.

        :attr:`job_keys` in that order, as written; the k caps of other datasets dropped (the
        dataset's own moves to the end); ``device`` only when it is not the default ``cpu``, so
        that CPU runs keep their settings and provenance hashes.
        """
        settings = {name: self.section[name] for name in JOB_KEYS if name in self.section}
        if self.section.get("device", "cpu") != "cpu":
            settings["device"] = self.section["device"]
        caps = settings.pop("k_max_per_dataset", {}) or {}
        if dataset_name in caps:
            settings["k_max_per_dataset"] = {dataset_name: caps[dataset_name]}
        return settings


__all__ = [
    "ALPHA_KEYS",
    "CRITERIA",
    "DEFAULT_LAMBDA_GRID",
    "DEVICES",
    "JOB_KEYS",
    "LambdaGrid",
    "ProtocolSettings",
    "time_budget_for",
]
