"""rlsbench: fast wrapper feature selection with regularized least squares, benchmarked."""

from rlsbench.errors import RLSBenchError, RLSBenchWarning

__version__ = "0.1.0"

#: The estimators of :mod:`rlsbench.estimators` (its ``__all__``), also importable from here.
_ESTIMATORS = (
    "AROM",
    "ELMFeatures",
    "FisherScore",
    "ForwardMarglikRegressor",
    "GreedyRLS",
    "KFDS",
    "LowRankLSSVM",
    "NystromFeatures",
    "PluginSelector",
    "R2W2",
    "RVMRegressor",
    "RandomSelector",
    "SAS",
    "SCSS",
    "SFS",
    "SVMRFE",
    "WrapperRLS",
)

__all__ = [
    "AROM",
    "ELMFeatures",
    "FisherScore",
    "ForwardMarglikRegressor",
    "GreedyRLS",
    "KFDS",
    "LowRankLSSVM",
    "NystromFeatures",
    "PluginSelector",
    "R2W2",
    "RLSBenchError",
    "RLSBenchWarning",
    "RVMRegressor",
    "RandomSelector",
    "SAS",
    "SCSS",
    "SFS",
    "SVMRFE",
    "SelectionPath",
    "WrapperRLS",
    "__version__",
]


def __getattr__(name):
    # The estimators pull in scikit-learn and SelectionPath numpy; import them on first use so
    # that light modules (rlsbench.benchmark.jobserver, the job script's whole import) stay
    # cheap to import in workflow scripts.
    if name == "SelectionPath":
        from rlsbench.numerics.path import SelectionPath

        return SelectionPath
    if name in _ESTIMATORS:
        from rlsbench import estimators

        return getattr(estimators, name)
    raise AttributeError(f"module 'rlsbench' has no attribute {name!r}")
