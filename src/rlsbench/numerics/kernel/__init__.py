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

import importlib

#: Where each public name lives. Loaded on first use (PEP 562): the selectors and wrappers are
#: scikit-learn estimators, and a module that needs only the kernels or the alignment (the
#: workflow reading the ramona part's rules) should not import scikit-learn with them.
_HOME = {
    "ScaledKernel": "kernels",
    **dict.fromkeys(("KFDS", "SAS", "SCSS", "SFS", "FisherScore"), "selectors"),
    **dict.fromkeys(("AROM", "R2W2", "SVMRFE"), "wrappers"),
}

__all__ = ["AROM", "KFDS", "R2W2", "SAS", "SCSS", "SFS", "SVMRFE", "FisherScore", "ScaledKernel"]


def __getattr__(name):
    if name in _HOME:
        return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
