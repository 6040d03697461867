"""Selection methods the evaluation protocol runs by name, found as plugins.

A method is a :class:`Method` object that a distribution declares in the entry-point group
``rlsbench.methods`` of its ``pyproject.toml``; the entry point's name is the method's name
(the one a config's ``main.methods`` lists), its value the object::

    [project.entry-points."rlsbench.methods"]
    my_ranker = "my_package.my_ranker:method"

rlsbench's own methods (one module per method or family here: ``greedy_rls``, ``random``,
``ramona``, ...) are declared in rlsbench's ``pyproject.toml`` the same way, so there is one
path, not two (pytest's and benchopt's plugin rule). The group is read with
:func:`importlib.metadata.entry_points` when a method is first needed, never at import time,
and only the entry points asked for are loaded: a broken plugin breaks only the configs that
name it. Both the listing and the loaded methods are kept for the life of the process. Every
error about a plugin names its distribution. An installed distribution (an editable
``pip install -e .`` counts) is what declares entry points: after editing ``pyproject.toml``,
reinstall.

The interface
-------------
``run(X, y, *, alpha, k, criterion, bias, seed, n_jobs) -> SelectionPath``

X : ndarray of shape (n_samples, n_features), float64
    The training split, each feature standardised on it.
y : ndarray of shape (n_samples,) or (n_samples, t), float64
    ±1 for binary tasks, one-vs-rest ±1 columns for multiclass (t classes), real values for
    regression.
alpha : float
    The λ chosen by the protocol's LOO grid search on all features (a method with
    ``own_alpha=True`` ignores it and chooses its own, reported in ``SelectionPath.alphas``).
k : int
    Number of features to select (1 ≤ k ≤ n_features); the path must have exactly k steps.
    :meth:`Method.select` (what the protocol calls) refuses any other k with
    :class:`SelectionSizeError` before ``run`` sees it, and refuses a path of any other length
    with :class:`MethodPluginError`.
criterion : {"squared", "zero_one"}
    The LOO criterion of the wrapper methods.
bias : float
    Value of the constant bias feature (0 = none), regularised like the others.
seed : int
    Seed of a randomized method (the protocol runs those once per ``main.random_seeds``).
n_jobs : int
    Threads the job may use.

Returns a :class:`rlsbench.numerics.path.SelectionPath`: ``selected`` of shape (k,) (feature
indices in order of selection), ``coef_path`` (k, k[, t]) and ``intercept_path`` (k[, t]) of
the RLS model after each addition (the protocol scores the test split with them),
``criterion`` and ``loo_mse`` of shape (k,), ``alphas`` of shape (k,). Every number is finite
and every λ of ``alphas`` is > 0; ``criterion``, ``loo_mse`` and ``info["elapsed_s"]`` may
instead be NaN at every step (the method has no such number). :meth:`Method.select` refuses
any other path with :class:`MethodPluginError` naming the method, its entry point, its
distribution and the field, so that no number a method cannot stand behind reaches a table.
``X`` and ``y`` are read-only: a method that works in place copies them first (the protocol
scores the same arrays after the method).

A method that cannot run on some targets lists the ones it can in ``tasks``; the protocol
records the others as skipped.

Constant columns. A constant training column (all zeros after the protocol's standardisation)
changes no linear model. A method whose criterion cannot score it (scale factors that stay at
their start, class separability and Fisher ratios of 0/0, a basis vector of zero norm in the
marginal likelihood) ranks it after every other column. A method whose criterion scores it like
any other candidate (the LOO and cross-validation wrappers: adding a zero column leaves the RLS
model and its LOO error as they are) declares ``tags["constant_columns"] = "scored"`` and keeps
its own order, in which the column gets a zero weight; a randomized method draws it like any
other.

The cost model. ``flops(m, n, k, t)`` is the method's estimated operation count of one run (m
training examples, n features, k selected, t outputs) and ``memory_bytes(m, n, k)`` its peak
bytes: the only place a method's cost is written. The protocol's time and memory budgets
(:func:`rlsbench.benchmark.protocol.feasibility`), the jobs' resources, the plan a run prints
and the scaling study's budget all read them (through :meth:`Method.estimate_flops`). A method
without ``flops`` runs nowhere a cost is needed: asking for its estimate is a
:class:`MethodPluginError` naming the method and its distribution, never another method's count.

Results follow the code. :func:`method_version` names a method's distribution, its version and
a short sha256 of the source of the module its entry point names (where its ``Method`` and, for
every method rlsbench ships, its ``run`` are defined). The workflow puts it in the parameters of
the method's jobs, so editing that module, or installing another version of the distribution,
reruns that method's jobs and no other. Edits to other modules the method imports (a helper
module of the plugin's package, :mod:`rlsbench.numerics`) are not seen: hashing whole packages
would rerun every rlsbench method after any edit to rlsbench. Bump the distribution's version to
rerun after such an edit.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import numbers
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points

import numpy as np

from rlsbench.errors import RLSBenchError

#: The entry-point group every method (rlsbench's own included) is declared in.
GROUP = "rlsbench.methods"

TASKS = ("binary", "multiclass", "regression")


@dataclass(frozen=True)
class Method:
    """One selection method: its ``run`` function (see the module docstring) and what the
    protocol needs to know about it.

    Parameters
    ----------
    name : str
        The name configs use; equal to the entry point's name.
    run : callable
        ``run(X, y, *, alpha, k, criterion, bias, seed, n_jobs) -> SelectionPath``.
    description : str
        One line for listings and reports.
    tasks : tuple of str
        Targets the method supports, a subset of :data:`TASKS`; empty for a method that
        selects no features (it runs only where a study calls it otherwise, e.g. its
        ``tags["kfold"]``), which the main protocol and the scaling study refuse.
    own_alpha : bool
        The method chooses λ itself (``alpha`` is ignored).
    randomized : bool
        The protocol runs it once per seed of ``main.random_seeds``.
    memory_bytes : callable or None
        Peak bytes for (n_samples, n_features, k); None = O(mn), always feasible.
    flops : callable or None
        ``flops(m, n, k, t) -> float``: estimated operations of one run on m training examples
        and n features selecting k, with t outputs (the module docstring's cost model). None =
        no cost model: :meth:`estimate_flops` refuses.
    tags : dict
        Free-form. Read by the studies: ``"label"`` (short name for legends),
        ``"selects_as"`` (the name of a method this one must select the same features as, given
        the same λ and criterion: the scaling study's agreement check), ``"ranker"`` (the
        ranker factory of Ramona et al.'s methods, :mod:`rlsbench.benchmark.methods.ramona`),
        ``"constant_columns"``, ``"array_api"``, ``"paper"``, ``"kfold"`` (the method's runner on a
        K-fold task, where it chooses its own λ on shared fold covariances: Buteneers et
        al.'s tables, :mod:`rlsbench.benchmark.methods.kfold`).
    """

    name: str
    run: Callable
    description: str
    tasks: tuple[str, ...] = TASKS
    own_alpha: bool = False
    randomized: bool = False
    memory_bytes: Callable[[int, int, int], int] | None = None
    flops: Callable[[int, int, int, int], float] | None = None
    tags: dict = field(default_factory=dict)

    def estimate_flops(self, m, n, k, t=1) -> float:
        """Estimated operations of one run: ``flops(m, n, k, t)``.

        Parameters
        ----------
        m, n, k, t : int
            Training examples, features, features to select, outputs.

        Returns
        -------
        float

        Raises
        ------
        MethodPluginError
            The method declares no ``flops``; the message names it and its distribution.
        """
        if self.flops is None:
            # tags["flops"] was the interface's spelling before the cost model had its field
            hint = (
                " (it has tags['flops']: move it to Method(flops=...))"
                if "flops" in self.tags
                else ""
            )
            raise MethodPluginError(
                f"method {self.name!r} of {distribution_of(self.name)} declares no cost model"
                f"{hint}: give its Method a flops=lambda m, n, k, t: <operations of one run>, "
                "which the time budgets, job resources and plans need"
            )
        return float(self.flops(m, n, k, t))

    def select(self, X, y, *, alpha, k, criterion, bias, seed, n_jobs):
        """Run the method under the plugin contract: the call the protocol makes.

        Parameters are those of ``run`` (the module docstring); ``X`` may be an array of
        another array-API library (its shape is all this reads).

        Returns
        -------
        SelectionPath
            Exactly ``k`` steps of distinct feature indices in ``[0, n_features)``.

        Raises
        ------
        SelectionSizeError
            ``k`` is not an integer in ``[1, n_features]``; the message names the method, ``k``
            and ``n_features``.
        MethodPluginError
            The plugin broke the contract (wrong number of steps, repeated or invalid feature
            indices, wrongly shaped model path, a number that is not finite, a λ that is not
            > 0) or wrote into ``X`` or ``y``; the message names the method, its entry point
            and its distribution, and the field.

        Notes
        -----
        ``run`` gets read-only views of NumPy ``X`` and ``y``: the
        protocol scores the same arrays after the method, so its LOO and test numbers must
        not depend on what the method does to them. A method that works in place copies
        first.
        """
        shape = np.shape(X)  # .shape of any array library, without a copy
        if len(shape) != 2:
            raise ValueError(
                f"method {self.name!r}: X must be 2-d (n_samples, n_features), got shape {shape}"
            )
        n_features = check_k(self.name, k, shape[1])
        k = int(k)
        try:
            path = self.run(
                _read_only(X),
                _read_only(y),
                alpha=alpha,
                k=k,
                criterion=criterion,
                bias=bias,
                seed=seed,
                n_jobs=n_jobs,
            )
        except ValueError as exc:
            if "read-only" not in str(exc):
                _name_plugin(exc, self)
                raise
            raise MethodPluginError(
                f"{_plugin_name(self)} wrote into its input X or y in place ({exc}): the "
                "protocol scores these arrays after the method; copy them first "
                "(X = X.copy())"
            ) from exc
        except (ArithmeticError, TypeError, RLSBenchError) as exc:
            _name_plugin(exc, self)
            raise
        _check_path(self, path, k, n_features)
        return path


class MethodPluginError(RuntimeError, RLSBenchError):
    """A method plugin that cannot be used; the message names its distribution."""


class SelectionSizeError(ValueError, RLSBenchError):
    """A number of features to select that is not an integer in ``[1, n_features]``; the
    message names the method, ``k`` and ``n_features``."""


def check_k(method: str, k, n_features: int) -> int:
    """``n_features`` after checking that ``k`` is an integer in ``[1, n_features]``.

    The one place every method's ``k`` is checked (:meth:`Method.select`, and the ``run`` of
    the methods whose numerics would otherwise stop early or cap ``k``), so that every method
    refuses the same ``k`` with the same error.

    Raises
    ------
    SelectionSizeError
    """
    n_features = int(n_features)
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise SelectionSizeError(
            f"method {method!r}: k must be an integer number of features, got {k!r} "
            f"(n_features={n_features})"
        )
    if not 1 <= k <= n_features:
        raise SelectionSizeError(
            f"method {method!r}: k={int(k)} is outside [1, n_features={n_features}]: "
            "a method selects at least one and at most all of the features"
        )
    return n_features


def as_float64(values, name: str, method: str) -> np.ndarray:
    """``values`` as a float64 ndarray, or a ValueError naming the method and the argument
    (text labels, NaN or infinity) instead of NumPy's or a solver's own words."""
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"method {method!r}: {name} must be numeric: {exc}") from exc
    if not np.isfinite(array).all():
        raise ValueError(f"method {method!r}: {name} must be finite; it holds NaN or infinity")
    return array


def int_seed(seed) -> int:
    """An integer seed from an int or a :class:`numpy.random.Generator` (one draw from it),
    for numerics that seed a ``RandomState``."""
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(2**32))
    return seed


def _read_only(array):
    """A read-only view of a NumPy array (anything else as it is): writing into it raises
    NumPy's ``ValueError: ... is read-only`` instead of changing the caller's data."""
    if not isinstance(array, np.ndarray):
        return array
    view = array.view()
    view.setflags(write=False)
    return view


def _plugin_name(method: Method) -> str:
    """The method as errors about its output name it: its name, its entry point (or, for a
    :class:`Method` no distribution declares, its ``run``) and its distribution."""
    ep = _entry_points().get(method.name)
    if ep is not None:
        return f"method {method.name!r} ({ep.value}) of {_distribution(ep)}"
    run = f"{getattr(method.run, '__module__', '?')}.{getattr(method.run, '__qualname__', '?')}"
    return f"method {method.name!r} (run={run}), an unregistered method"


def _name_plugin(exc: BaseException, method: Method) -> None:
    """Prefix the one-line message of ``exc``, raised inside ``method.run``, with the method's
    name, entry point and distribution (:func:`_plugin_name`); its class stays, so that
    callers catching it (``SelectionError``, ``ValueError``) still do."""
    where = _plugin_name(method)
    if len(exc.args) == 1 and isinstance(exc.args[0], str) and where not in exc.args[0]:
        exc.args = (f"{where}: {exc.args[0]}",)


#: Fields of a SelectionPath whose every number must be finite (λ also > 0): the protocol
#: scores the test split and the LOO errors with them.
_MODEL_FIELDS = ("coef_path", "intercept_path", "alphas")
#: Fields a method may leave NaN throughout when it has no such number (SelectionPath's
#: "NaN where unknown"); a NaN at some steps only, or an infinity, is a failure.
_OPTIONAL_FIELDS = ("criterion", "loo_mse")


def _check_numbers(where: str, name: str, values, *, optional: bool) -> None:
    """Refuse a path field holding what is not a finite real number (see the field sets)."""
    from rlsbench.numerics.array_api import to_numpy

    try:
        array = np.asarray(to_numpy(values))
    except (TypeError, ValueError) as exc:  # ragged nesting and the like
        raise MethodPluginError(f"{where}: {name} is not an array of numbers ({exc})") from exc
    if array.dtype.kind not in "iuf":
        raise MethodPluginError(
            f"{where}: {name} must hold real numbers, got dtype {array.dtype} "
            f"({type(values).__name__})"
        )
    finite = np.isfinite(array)
    if optional and np.isnan(array).all():
        return
    if not finite.all():
        step = int(np.argwhere(~finite)[0][0])
        allowed = " (NaN at every step is allowed: the method has no such number)"
        raise MethodPluginError(
            f"{where}: {name} holds {int((~finite).sum())} NaN or infinite value(s), the first "
            f"at step {step + 1}; a method's path must be finite{allowed if optional else ''}"
        )
    if name == "alphas" and not (array > 0).all():
        bad = float(array[~(array > 0)][0])
        raise MethodPluginError(f"{where}: alphas must all be λ > 0 (the RLS models), got {bad!r}")


def _check_path(method: Method, path, k: int, n_features: int) -> None:
    """Refuse (:class:`MethodPluginError`) a path that breaks the contract of ``run``: its
    shapes and indices, and its numbers (what the protocol writes into tables)."""
    from rlsbench.numerics.array_api import to_numpy
    from rlsbench.numerics.path import SelectionPath

    where = _plugin_name(method)
    if not isinstance(path, SelectionPath):
        raise MethodPluginError(f"{where} returned a {type(path).__name__}, not a SelectionPath")
    selected = np.asarray(to_numpy(path.selected))
    if selected.shape != (k,):
        raise MethodPluginError(
            f"{where} returned {selected.shape[0] if selected.ndim else 0} steps, asked for "
            f"k={k} of n_features={n_features}"
        )
    if selected.dtype.kind not in "iu" or selected.min() < 0 or selected.max() >= n_features:
        raise MethodPluginError(
            f"{where} selected {selected.tolist()}: not feature indices in [0, {n_features})"
        )
    if np.unique(selected).size != k:
        raise MethodPluginError(f"{where} selected a feature twice: {selected.tolist()}")
    shapes = {
        "coef_path": (np.shape(path.coef_path)[:2], (k, k)),
        "intercept_path": (np.shape(path.intercept_path)[:1], (k,)),
        "criterion": (np.shape(path.criterion), (k,)),
        "loo_mse": (np.shape(path.loo_mse), (k,)),
        "alphas": (np.shape(path.alphas), (k,)),
    }
    for name, (got, want) in shapes.items():
        if tuple(got) != want:
            raise MethodPluginError(f"{where}: {name} has shape {tuple(got)}, expected {want}")
    for name in _MODEL_FIELDS + _OPTIONAL_FIELDS:
        _check_numbers(where, name, getattr(path, name), optional=name in _OPTIONAL_FIELDS)
    if "elapsed_s" in path.info:  # the rows' elapsed_s column
        _check_numbers(where, "info['elapsed_s']", path.info["elapsed_s"], optional=True)


def distribution_of(name: str) -> str:
    """Which distribution brings method ``name``, as error messages and ``rlsbench methods
    list`` name it ("distribution rlsbench 0.1.0"; "an unregistered method" for none)."""
    ep = _entry_points().get(name)
    return "an unregistered method" if ep is None else _distribution(ep)


def _distribution(ep: EntryPoint) -> str:
    release = _release(ep)
    return "an unknown distribution" if release is None else f"distribution {release}"


@functools.cache
def _release(ep: EntryPoint) -> str | None:
    """``"<distribution> <version>"`` of ``ep``, None where unknown. Read once per listing of
    the entry points (:func:`_entry_points`): parsing a distribution's metadata takes ~10 ms,
    and planning a workflow asks once per job (method_version)."""
    dist = getattr(ep, "dist", None)
    return None if dist is None else f"{dist.name} {dist.version}"


@functools.cache
def _entry_points() -> dict[str, EntryPoint]:
    """The group's entry points by name; a name two distributions declare is an error.

    Listed once per process, when a method is first needed (planning a workflow asks for
    methods once per job).
    """
    _release.cache_clear()  # listed afresh: read the distributions' versions afresh too
    found: dict[str, EntryPoint] = {}
    for ep in entry_points(group=GROUP):
        other = found.get(ep.name)
        # an editable install can show one distribution twice (same value): not a clash
        if other is not None and other.value != ep.value:
            raise MethodPluginError(
                f"method {ep.name!r} is declared twice in entry-point group {GROUP!r}: by "
                f"{_distribution(other)} ({other.value}) and by {_distribution(ep)} ({ep.value})"
            )
        found[ep.name] = ep
    return found


def method_names() -> list[str]:
    """Names of the installed methods, sorted (nothing is imported)."""
    return sorted(_entry_points())


@functools.cache
def _load(name: str, value: str) -> Method:
    ep = _entry_points()[name]
    where = f"method {name!r} ({ep.value}) of {_distribution(ep)}"
    try:
        method = ep.load()
    except Exception as exc:
        raise MethodPluginError(f"{where} failed to load: {type(exc).__name__}: {exc}") from exc
    if not isinstance(method, Method):
        raise MethodPluginError(
            f"{where} is a {type(method).__name__}, not a rlsbench.benchmark.methods.Method"
        )
    if method.name != name:
        raise MethodPluginError(f"{where} is named {method.name!r}; the two names must agree")
    unknown = set(method.tasks) - set(TASKS)
    if unknown:
        raise MethodPluginError(f"{where}: unknown tasks {sorted(unknown)}; known: {TASKS}")
    return method


def method_version(name: str) -> str:
    """The version of the code of method ``name``: what its jobs' results depend on.

    Read without importing the method's module (only its parent package, to find it), from
    the source text, so it is the same in every process and on every machine: no paths, no
    modification times, line endings normalised.

    Parameters
    ----------
    name : str
        A method name of the entry-point group ``rlsbench.methods``.

    Returns
    -------
    str
        ``"<distribution> <version> <module> sha256:<12 hex digits>"``, e.g.
        ``"rlsbench 0.1.0 rlsbench.benchmark.methods.greedy_rls sha256:0123456789ab"``; a
        module shipped without source (bytecode or an extension only) has ``no-source`` in
        place of the hash, and only the distribution's version tells its versions apart.

    Raises
    ------
    KeyError
        No installed distribution declares ``name``; the message lists the known names.
    MethodPluginError
        The entry point's module cannot be found; the message names its distribution.
    """
    eps = _entry_points()
    if name not in eps:
        known = ", ".join(sorted(eps)) or "none: is rlsbench installed (pip install -e .)?"
        raise KeyError(f"unknown method {name!r}; known methods ({GROUP}): {known}")
    ep = eps[name]
    release = _release(ep) or "unknown-distribution"
    where = f"method {name!r} ({ep.value}) of {_distribution(ep)}"
    try:
        spec = importlib.util.find_spec(ep.module)
    except (ImportError, ValueError) as exc:
        # find_spec imports the parent package of a dotted module name
        raise MethodPluginError(
            f"{where}: module {ep.module!r} cannot be found: {type(exc).__name__}: {exc}"
        ) from exc
    if spec is None:
        raise MethodPluginError(f"{where}: module {ep.module!r} is not installed")
    get_source = getattr(spec.loader, "get_source", None)
    # loaders decode with universal newlines: a CRLF checkout hashes like an LF one
    source = get_source(ep.module) if get_source is not None else None
    digest = (
        "no-source"
        if source is None
        else "sha256:" + hashlib.sha256(source.encode("utf-8")).hexdigest()[:12]
    )
    return f"{release} {ep.module} {digest}"


def get_method(name: str) -> Method:
    """The method declared under ``name`` in the entry-point group ``rlsbench.methods``.

    Raises
    ------
    KeyError
        No installed distribution declares ``name``; the message lists the known names.
    MethodPluginError
        The plugin does not load or is not a :class:`Method`; the message names its
        distribution.
    """
    eps = _entry_points()
    if name not in eps:
        known = ", ".join(sorted(eps)) or "none: is rlsbench installed (pip install -e .)?"
        raise KeyError(f"unknown method {name!r}; known methods ({GROUP}): {known}")
    return _load(name, eps[name].value)
