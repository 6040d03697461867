"""Sun & Yao (2006): forward regression by marginal likelihood, and the RVMs it is compared with.

Modules: :mod:`.forward` (the forward selection, eq. 2-10), :mod:`.lowrank` (its kernel variant
on a pivoted incomplete Cholesky factor), :mod:`.rvm` (Tipping 2001 and Tipping & Faul 2003),
:mod:`.hyper` (hyperparameters by cross-validation), :mod:`.models` (fit/predict estimators).
"""

from rlsbench.numerics.marglik.forward import ForwardPath, forward_marglik, marginal_loss
from rlsbench.numerics.marglik.lowrank import (
    forward_marglik_lowrank,
    gaussian_kernel,
    pivoted_cholesky,
)

__all__ = [
    "ForwardPath",
    "forward_marglik",
    "forward_marglik_lowrank",
    "gaussian_kernel",
    "marginal_loss",
    "pivoted_cholesky",
]
