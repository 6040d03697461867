"""Registry of selection methods the evaluation protocol can run.

One small module per method (benchopt style); each registers a :class:`Method` with
:func:`register`. Adding a method = adding one module and one import line below.

A method's ``run`` has the signature::

    run(X, y, *, alpha, k, criterion, bias, seed, n_jobs) -> SelectionPath

with ``X`` of shape (n_samples, n_features) float64, ``y`` of shape (n_samples,) or
(n_samples, t) float64 (±1 for binary, one-vs-rest ±1 columns for multiclass, real values for
regression), ``alpha`` the λ chosen by the protocol's LOO grid search on all features (methods
with ``own_alpha=True`` ignore it and choose their own), ``k`` the number of features to select,
``criterion`` "squared" or "zero_one", ``bias`` the value of the constant bias feature (0 = none),
``seed`` an int, ``n_jobs`` the threads the job may use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

TASKS = ("binary", "multiclass", "regression")


@dataclass(frozen=True)
class Method:
    name: str
    run: Callable
    description: str
    tasks: tuple[str, ...] = TASKS
    own_alpha: bool = False
    randomized: bool = False  # repeated with several seeds by the protocol
    # Peak memory in bytes for (n_samples, n_features, k); None = O(mn), always feasible.
    memory_bytes: Callable[[int, int, int], int] | None = None
    tags: dict = field(default_factory=dict)


METHODS: dict[str, Method] = {}


def register(method: Method) -> Method:
    if method.name in METHODS:
        raise ValueError(f"method {method.name!r} is registered twice")
    METHODS[method.name] = method
    return method


def get_method(name: str) -> Method:
    try:
        return METHODS[name]
    except KeyError:
        raise KeyError(
            f"unknown method {name!r}; known methods: {', '.join(sorted(METHODS))}"
        ) from None


# Each import registers its method(s). Keep one line per module.
# (modules are added by the issues that implement them)
from rlsbench.benchmark.methods import (  # noqa: E402,F401  (issue 6: Buteneers et al. FFS / BFS)  # noqa: E402,F401  (issue 2: core RLS selectors)
    bfs,
    ffs,
    greedy_rls,
    lowrank_lssvm,
    marglik,  # noqa: E402,F401  (issue 8: Sun & Yao forward selection)
    ramona,  # noqa: E402,F401  (issue 7: Ramona et al. SAS, SCSS, SFS, KFDS, Fisher, SVM-RFE, AROM, R2W2)
    random,
    wrapper,
)
