"""Every user-facing scikit-learn estimator of rlsbench, in one place.

The classes stand next to their solvers (each numerics or benchmark module keeps the estimator
of its own algorithm); this module re-exports them, so that a user imports every selector from
one path::

    from rlsbench.estimators import GreedyRLS, SAS, RVMRegressor

The RLS selectors (:mod:`rlsbench.benchmark.estimators`)
    :class:`~rlsbench.benchmark.estimators.GreedyRLS`,
    :class:`~rlsbench.benchmark.estimators.LowRankLSSVM`,
    :class:`~rlsbench.benchmark.estimators.WrapperRLS`,
    :class:`~rlsbench.benchmark.estimators.RandomSelector`, and
    :class:`~rlsbench.benchmark.estimators.PluginSelector`, which runs any installed
    ``rlsbench.methods`` plugin.
Kernel feature rankers (:mod:`rlsbench.numerics.kernel`)
    :class:`~rlsbench.numerics.kernel.selectors.SAS`,
    :class:`~rlsbench.numerics.kernel.selectors.SFS`,
    :class:`~rlsbench.numerics.kernel.selectors.SCSS`,
    :class:`~rlsbench.numerics.kernel.selectors.KFDS`,
    :class:`~rlsbench.numerics.kernel.selectors.FisherScore`,
    :class:`~rlsbench.numerics.kernel.wrappers.AROM`,
    :class:`~rlsbench.numerics.kernel.wrappers.R2W2`,
    :class:`~rlsbench.numerics.kernel.wrappers.SVMRFE`.
Sparse kernel regressors by marginal likelihood (:mod:`rlsbench.numerics.marglik.models`)
    :class:`~rlsbench.numerics.marglik.models.ForwardMarglikRegressor`,
    :class:`~rlsbench.numerics.marglik.models.RVMRegressor`.
Read-out features for ridge regression (:mod:`rlsbench.numerics.ridgecv`)
    :class:`~rlsbench.numerics.ridgecv.elm.ELMFeatures`,
    :class:`~rlsbench.numerics.ridgecv.fixed_size_lssvm.NystromFeatures`.

Every class here is a :class:`sklearn.base.BaseEstimator`, and every public
``BaseEstimator`` subclass of the package is here (``tests/benchmark/test_estimators_module.py``).
Importing this module imports scikit-learn; ``import rlsbench`` alone does not
(``rlsbench.GreedyRLS`` and the others load on first use).
"""

from __future__ import annotations

from rlsbench.benchmark.estimators import (
    GreedyRLS,
    LowRankLSSVM,
    PluginSelector,
    RandomSelector,
    WrapperRLS,
)
from rlsbench.numerics.kernel.selectors import KFDS, SAS, SCSS, SFS, FisherScore
from rlsbench.numerics.kernel.wrappers import AROM, R2W2, SVMRFE
from rlsbench.numerics.marglik.models import ForwardMarglikRegressor, RVMRegressor
from rlsbench.numerics.ridgecv.elm import ELMFeatures
from rlsbench.numerics.ridgecv.fixed_size_lssvm import NystromFeatures

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
    "RVMRegressor",
    "RandomSelector",
    "SAS",
    "SCSS",
    "SFS",
    "SVMRFE",
    "WrapperRLS",
]
