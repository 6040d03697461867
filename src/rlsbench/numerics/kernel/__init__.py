"""Kernel Gram-matrix feature selection of Ramona et al. (2012), multiclass throughout.

Modules (one idea each): :mod:`.kernels` (scaled linear / RBF / polynomial kernels and their
derivatives), :mod:`.alignment` (kernel target alignment, eq. 3-4, 7-11), :mod:`.separability`
(kernel class separability, eq. 14-18, 22-23), :mod:`.blockwise` (the memory-lean Gram sums of
Section VI.A), :mod:`.selectors` (SAS, SCSS, SFS, KFDS, Fisher score), :mod:`.wrappers`
(SVM-RFE, AROM, R2W2 on scikit-learn's SVC). Weston et al.'s toy problems are in
:mod:`rlsbench.numerics.synthetic`; the paper's protocol, tables and config section in
:mod:`rlsbench.studies.ramona`.

References
----------
M. Ramona, G. Richard, B. David, "Multiclass feature selection with kernel Gram-matrix-based
criteria", IEEE Trans. Neural Netw. Learn. Syst. 23(10):1611-1623, 2012.
"""

from rlsbench.numerics.kernel.kernels import ScaledKernel
from rlsbench.numerics.kernel.selectors import KFDS, SAS, SCSS, SFS, FisherScore
from rlsbench.numerics.kernel.wrappers import AROM, R2W2, SVMRFE

__all__ = ["AROM", "KFDS", "R2W2", "SAS", "SCSS", "SFS", "SVMRFE", "FisherScore", "ScaledKernel"]
