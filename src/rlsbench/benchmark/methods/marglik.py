"""Sun & Yao's forward selection by marginal likelihood, as a feature selector (regression).

The basis vectors are the raw features (columns of X); λ is the protocol's α, σ² is fixed
(the paper's choice, σ² = 1). A non-zero ``bias`` adds a constant column of that value which is
in every model (added first, as in eq. 6-9, without competing) and is reported as the intercept.
"""

from __future__ import annotations

import numpy as np

from rlsbench.benchmark.methods import Method
from rlsbench.numerics.marglik.forward import forward_marglik
from rlsbench.numerics.path import SelectionPath

SIGMA2 = 1.0


def run(X, y, *, alpha, k, criterion="squared", bias=0.0, seed=0, n_jobs=1):
    """Select ``k`` features of X by greedy marginal likelihood (Sun & Yao 2006, eq. 2-10).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, 1)
        Real-valued targets.
    alpha : float
        λ = σ² α of eq. (2).
    k : int
        Number of features to select (at most n_features).
    criterion : str
        Unused: the selection criterion is the marginal loss J; reported in ``criterion``.
    bias : float
        Value of the constant bias feature (0 = none).
    seed, n_jobs : int
        Unused (the method is deterministic and single-threaded beyond BLAS).

    Returns
    -------
    SelectionPath
        ``criterion`` holds J after each addition (eq. 2), ``loo_mse`` the exact LOO MSE of the
        ridge model on the selected features, ``info["delta_loss"]`` the ΔJ of eq. (5).
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if y.ndim == 2:
        if y.shape[1] != 1:
            raise ValueError(f"y must have one output for marglik_forward, got shape {y.shape}")
        y = y[:, 0]
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError(
            f"X must be (n_samples, n_features) and y (n_samples,); got {X.shape}, {y.shape}"
        )
    n_features = X.shape[1]
    forced = ()
    if bias != 0.0:
        X = np.column_stack([X, np.full(X.shape[0], float(bias))])
        forced = (n_features,)
    path = forward_marglik(
        X, y, min(int(k), n_features), float(alpha), sigma2=SIGMA2, forced=forced
    )
    steps = len(path.selected)
    intercept = float(bias) * path.forced_coef_path[:, 0] if forced else np.zeros(steps)
    return SelectionPath(
        selected=path.selected,
        criterion=path.loss[1:],
        loo_mse=path.loo_mse,
        coef_path=path.coef_path,
        intercept_path=intercept,
        alphas=np.full(steps, float(alpha)),
        info={"delta_loss": path.delta_loss, "sigma2": SIGMA2, "stopped": path.info["stopped"]},
    )


method = Method(
    name="marglik_forward",
    run=run,
    description="Sun & Yao (2006): forward selection maximizing the marginal likelihood",
    tasks=("regression",),
)
