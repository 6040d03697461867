"""Ramona et al. (2012) rankers in the main protocol: SAS, SCSS, SFS, KFDS, Fisher, SVM-RFE,
AROM, R2W2.

Each ranker orders the features on the training split (class labels recovered from the ±1
one-vs-rest columns); the protocol's RLS model is then scored along the first ``k`` features of
that order with :func:`rlsbench.numerics.selection.ridge_path` (λ = the protocol's ``alpha``).
Classification only. Constant columns, which no ranker can score, come last
(:func:`constant_last`). The scaled-kernel rankers use the linear kernel here (the protocol's model
is linear), except SFS, which is only defined for the RBF kernel (Section V-C).

Each method's ``tags["ranker"]`` is the one place its ranker is built:
``ranker(kernel, *, degree=3, standardize=True, n_iter=None, **options)`` returns the unfitted
ranker (its ``fit(X, y)`` sets ``order_``) as Ramona et al. set it up for an experiment with SVM
kernel ``kernel`` (the linear-only ones, KFDS, AROM and SVM-RFE, ignore it); ``n_iter`` fixes
the number of iterations (tolerance 0) as in the CPU-time comparison (Section VI-C);
``options`` are the method's own (``tags["options"]``, :data:`OPTIONS`: SCSS's ``epsilon``,
R2W2's ``radius``, KFDS's ``mu``), None meaning the ranker's default. The main protocol
calls it with its kernel and the defaults; the Ramona study
(:mod:`rlsbench.studies.ramona.experiments`) with each experiment's settings.
"""

from __future__ import annotations

import functools

import numpy as np
from threadpoolctl import threadpool_limits

from rlsbench.benchmark.methods import Method, check_k
from rlsbench.numerics.kernel.selectors import KFDS, SAS, SCSS, SFS, FisherScore
from rlsbench.numerics.kernel.wrappers import AROM, R2W2, SVMRFE


def constant_last(X, order):
    """``order`` with the constant columns of X moved behind the others (each group keeps its
    order).

    A constant column is one the rankers cannot score: its scale factor never leaves its start
    (its gradient is zero), its class separability and Fisher ratio are 0/0. Left where the
    ranker put it, it would be ranked by that start value (R2W2 ranked it first).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    order : ndarray of shape (n_features,), int

    Returns
    -------
    ndarray of shape (n_features,), int
    """
    constant = np.all(X == X[:1], axis=0)
    return np.concatenate([order[~constant[order]], order[constant[order]]])


def _fixed(n_iter):
    # a fixed number of iterations, the stopping rule off (Section VI-C's CPU-time comparison)
    return {} if n_iter is None else {"max_iter": int(n_iter), "tol": 0.0}


#: The options a ranker takes beyond ``n_iter``, by method (the estimators' own parameter
#: names): SCSS's ε (eq. 18, relative to tr K at w = 1), R2W2's radius solver
#: (``"frank_wolfe"`` or the paper's dense QP ``"qp"``), KFDS's ridge μ on N (relative to
#: tr N / n). Each method's ``tags["options"]``.
OPTIONS = {"scss": ("epsilon",), "r2w2": ("radius",), "kfds": ("mu",)}


def _own_options(name, options):
    """The options of ``options`` that are set (None = the ranker's default); ValueError
    naming the option when ``name``'s ranker does not take it."""
    for option in options:
        if option not in OPTIONS.get(name, ()):
            owners = [m.upper() for m, own in OPTIONS.items() if option in own]
            where = f"an option of {owners[0]} only" if owners else "no ranker's option"
            raise ValueError(f"{option} is {where}, not of {name!r}")
    return {k: v for k, v in options.items() if v is not None}


def _sas_ranker(kernel, *, degree=3, standardize=True, n_iter=None, **options):
    _own_options("sas", options)
    return SAS(kernel=kernel, degree=degree, standardize=standardize, **_fixed(n_iter))


def _scss_ranker(kernel, *, degree=3, standardize=True, n_iter=None, **options):
    eps = {k: float(v) for k, v in _own_options("scss", options).items()}
    return SCSS(kernel=kernel, degree=degree, standardize=standardize, **_fixed(n_iter), **eps)


def _sfs_ranker(kernel, *, degree=3, standardize=True, n_iter=None, **options):
    _own_options("sfs", options)
    return SFS(kernel=kernel, degree=degree, standardize=standardize, **_fixed(n_iter))


def _kfds_ranker(kernel, *, degree=3, standardize=True, n_iter=None, **options):
    mu = {k: float(v) for k, v in _own_options("kfds", options).items()}
    return KFDS(standardize=standardize, **_fixed(n_iter), **mu)


def _arom_ranker(kernel, *, degree=3, standardize=True, n_iter=None, **options):
    _own_options("arom", options)
    return AROM(standardize=standardize, **_fixed(n_iter))


def _svm_rfe_ranker(kernel, *, degree=3, standardize=True, n_iter=None, **options):
    _own_options("svm_rfe", options)
    return SVMRFE(standardize=standardize)


def _r2w2_ranker(kernel, *, degree=3, standardize=True, n_iter=None, **options):
    radius = _own_options("r2w2", options)
    # with a fixed iteration count: one descent round on all features (no elimination)
    extra = {} if n_iter is None else {"elimination": 1.0}
    return R2W2(
        kernel=kernel,
        degree=degree,
        standardize=standardize,
        **_fixed(n_iter),
        **extra,
        **radius,
    )


def _fisher_ranker(kernel, *, degree=3, standardize=True, n_iter=None, **options):
    # the Fisher criterion is a per-feature ratio: no kernel, no iterations, no scaling
    _own_options("fisher_score", options)
    return FisherScore()


def _runner(name, make_ranker):
    def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
        from rlsbench.numerics.selection import ridge_path

        X = np.asarray(X, dtype=np.float64)
        # the rankers order every feature whatever k is: without this, k > n_features would
        # give a short path instead of an error
        check_k(name, k, X.shape[1])
        with threadpool_limits(limits=max(int(n_jobs or 1), 1)):
            ranker = make_ranker().fit(X, y)
        order = constant_last(X, ranker.order_)
        path = ridge_path(X, y, order[:k], alpha, bias=bias, criterion=criterion)
        path.info.update({"ranker": type(ranker).__name__, "order": order.tolist()})
        return path

    return run


def _gram_block_bytes(m, n, k):
    # data + one 512 × 512 Gram block and its weighting matrices (Section VI.A)
    return 8 * (2 * m * n + 6 * min(m, 512) ** 2)


def _full_gram_bytes(m, n, k):
    # KFDS / SVM solvers hold the m × m Gram matrix (and N for KFDS)
    return 8 * (2 * m * n + 3 * m * m)


def _budget_flops(m, n, k, t):
    # Not a model of the rankers' cost (iterative: gradient steps on Gram blocks, SVM fits): the
    # count of greedy RLS, O(kmn), which the protocol's time budget has always applied to them.
    # Kept as it was so that no budget decision or job size of the committed runs changes.
    return 8.0 * k * m * n * t


def _ranker_method(name, ranker, description, memory_bytes, kernel="linear"):
    return Method(
        name=name,
        run=_runner(name, functools.partial(ranker, kernel)),
        description=description,
        tasks=("binary", "multiclass"),
        memory_bytes=memory_bytes,
        flops=_budget_flops,
        tags={"paper": "ramona2012", "ranker": ranker, "options": OPTIONS.get(name, ())},
    )


# One entry point each in pyproject.toml ([project.entry-points."rlsbench.methods"]).
sas = _ranker_method(
    "sas",
    _sas_ranker,
    "Ramona et al. scaled alignment selection (linear kernel, eq. 3/9)",
    _gram_block_bytes,
)
scss = _ranker_method(
    "scss",
    _scss_ranker,
    "Ramona et al. scaled class separability selection (linear kernel, eq. 18/22-23)",
    _gram_block_bytes,
)
sfs = _ranker_method(
    "sfs",
    _sfs_ranker,
    "Scaled Frobenius selection (RBF kernel, eq. 24)",
    _gram_block_bytes,
    kernel="rbf",
)
kfds = _ranker_method(
    "kfds",
    _kfds_ranker,
    "Ramona et al. kernel Fisher discriminant selection (linear kernel)",
    _full_gram_bytes,
)
fisher_score = _ranker_method(
    "fisher_score", _fisher_ranker, "Fisher criterion filter (eq. 1)", None
)
svm_rfe = _ranker_method(
    "svm_rfe",
    _svm_rfe_ranker,
    "SVM recursive feature elimination, linear SVC with C = 1/R̄²",
    _full_gram_bytes,
)
arom = _ranker_method(
    "arom",
    _arom_ranker,
    "AROM (L2), linear SVC with C = 1/R̄² (Weston et al. 2003)",
    _full_gram_bytes,
)
r2w2 = _ranker_method(
    "r2w2",
    _r2w2_ranker,
    "R2W2 radius-margin scale factors, linear kernel (Weston et al. 2000)",
    _full_gram_bytes,
)
