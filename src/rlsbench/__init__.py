"""rlsbench: fast wrapper feature selection with regularized least squares, benchmarked."""

from rlsbench.errors import RLSBenchError, RLSBenchWarning
from rlsbench.numerics.path import SelectionPath

__version__ = "0.1.0"

__all__ = [
    "GreedyRLS",
    "LowRankLSSVM",
    "PluginSelector",
    "RLSBenchError",
    "RLSBenchWarning",
    "RandomSelector",
    "SelectionPath",
    "WrapperRLS",
    "__version__",
]

_ESTIMATORS = ("GreedyRLS", "LowRankLSSVM", "PluginSelector", "RandomSelector", "WrapperRLS")


def __getattr__(name):
    # The estimators pull in scikit-learn; import them on first use so that light modules
    # (rlsbench.numerics.path, rlsbench.benchmark._io) stay cheap to import in workflow scripts.
    if name in _ESTIMATORS:
        from rlsbench.benchmark import estimators

        return getattr(estimators, name)
    raise AttributeError(f"module 'rlsbench' has no attribute {name!r}")
