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
``criterion`` and ``loo_mse`` of shape (k,), ``alphas`` of shape (k,).

A method that cannot run on some targets lists the ones it can in ``tasks``; the protocol
records the others as skipped. ``memory_bytes`` and ``tags["flops"]`` feed the protocol's
memory and time budgets (:func:`rlsbench.benchmark.protocol.feasibility`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points

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
        Targets the method supports, a subset of :data:`TASKS`.
    own_alpha : bool
        The method chooses λ itself (``alpha`` is ignored).
    randomized : bool
        The protocol runs it once per seed of ``main.random_seeds``.
    memory_bytes : callable or None
        Peak bytes for (n_samples, n_features, k); None = O(mn), always feasible.
    tags : dict
        Free-form; ``tags["flops"]`` = callable (m, n, k, t) -> operation count.
    """

    name: str
    run: Callable
    description: str
    tasks: tuple[str, ...] = TASKS
    own_alpha: bool = False
    randomized: bool = False
    memory_bytes: Callable[[int, int, int], int] | None = None
    tags: dict = field(default_factory=dict)


class MethodPluginError(RuntimeError):
    """A method plugin that cannot be used; the message names its distribution."""


def _distribution(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    if dist is None:
        return "an unknown distribution"
    return f"distribution {dist.name} {dist.version}"


@functools.cache
def _entry_points() -> dict[str, EntryPoint]:
    """The group's entry points by name; a name two distributions declare is an error.

    Listed once per process, when a method is first needed (planning a workflow asks for
    methods once per job).
    """
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
