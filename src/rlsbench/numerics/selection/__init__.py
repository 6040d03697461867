"""Forward feature selection for RLS: greedy RLS and its baselines.

Every selector returns a :class:`rlsbench.numerics.path.SelectionPath`.

- :func:`greedy_rls` — Algorithm 3 of Pahikkala et al., O(kmn) time, O(mn) memory.
- :func:`lowrank_lssvm` — Algorithm 2 (Ojeda et al.), O(km²n) time, O(m²) memory.
- :func:`wrapper` — Algorithm 1, RLS as a black box (``loo="blackbox"``) or with the LOO
  shortcut (``loo="shortcut"``).
- :func:`random_selection` — seeded random order, the paper's sanity baseline.
- :func:`ridge_path` — the RLS path along a given order (for rankers and filters), and
  :func:`subset_models` — one RLS model per feature subset (for subsets that are not nested).

Every round's winner has a finite score and is not chosen yet (:func:`pick_winner`, the one
rule of every forward selector); a selector that cannot satisfy it raises
:class:`SelectionError` instead of guessing. Greedy RLS warns where its answer cannot be
trusted although every score was finite: :class:`LOOPrecisionWarning` (its LOO values are
off a direct solve, float64 digits lost to a tiny λ) and :class:`TiedCriteriaWarning` (every
candidate of a round tied, the lowest index won).
"""

import importlib

#: Where each public name lives, loaded on first use (PEP 562): the selectors compile numba
#: kernels, and a module that needs one of them, or only :func:`memory_bytes` (the workflow
#: planning its jobs), should not load the others.
_HOME = {
    **dict.fromkeys(
        ("LOOPrecisionWarning", "SelectionError", "TiedCriteriaWarning", "pick_winner"), "_common"
    ),
    "greedy_rls": "greedy",
    "lowrank_lssvm": "lowrank",
    "memory_bytes": "lowrank",
    "ridge_path": "order",
    "subset_models": "order",
    "random_selection": "random",
    "wrapper": "standard_wrapper",
}

__all__ = [
    "greedy_rls",
    "lowrank_lssvm",
    "memory_bytes",
    "wrapper",
    "random_selection",
    "ridge_path",
    "subset_models",
    "SelectionError",
    "LOOPrecisionWarning",
    "TiedCriteriaWarning",
    "pick_winner",
]


def __getattr__(name):
    if name in _HOME:
        return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
