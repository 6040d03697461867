"""Mutual information of equal-frequency-binned features with the targets: the plug-in filter,
vectorised over the features.

Each feature is cut at its empirical quantiles into :data:`N_BINS` equal-frequency bins (bins
right-closed, like ``pandas.qcut``; equal values always share a bin, so a column with ties may
have fewer bins), and ranked by the plug-in (maximum-likelihood) estimate of its mutual
information with the class labels (:func:`.ranking.class_labels`), or, for a real-valued target,
with the target cut the same way:

    I(x_j; c) = Σ_{b,c} p(b, c) log(p(b, c) / (p(b) p(c))),  in nats,

p the relative frequencies of the training split. Ties by index. The contingency tables of all
features are one ``numpy.bincount`` over (feature, bin, class) cells, so the whole ranking costs
O(mn) memory-bound passes over X (blocks of columns), where :data:`.filters.mutual_info` (the
k-nearest-neighbour estimator of Kraskov et al. and Ross, kept as its own method) builds
nearest-neighbour trees for every feature: a few milliseconds a feature, a minute on 10⁴
features, seconds a feature on 10⁵ rows.

Discretising before estimating mutual information is how the information-theoretic filter
literature works at this scale: scikit-feature's filters (Li et al. 2017) take discrete data,
and the comparison of twenty years of such criteria by Brown et al. (2012) ranks discretised
features by plug-in estimates. Equal-frequency (quantile) bins, among the unsupervised
discretisations Dougherty et al. (1995) compare, put as many training rows in every bin
whatever the scale, so one outlier cannot empty the others; five of them keep nine or more rows
in each at the smallest training split of the benchmark (45 rows). The plug-in estimate's bias,
about (B − 1)(C − 1) / (2m) nats for B bins and C classes, is the same for every feature with
B bins; a feature whose ties leave it fewer bins has a smaller bias, so the ranking slightly
favours features with many distinct values, as information gain does.

The protocol's RLS model is scored along the first ``k`` (:func:`.ranking.ranked_path`);
constant columns come last.

Package: numpy (``quantile``, ``bincount``) and scipy (``special.xlogy``). scikit-learn's
``KBinsDiscretizer(strategy="quantile")`` bins one column at a time and warns where ties merge
bins; ``mutual_info_score`` takes one pair of variables per call: the tests hold this module to
both.

References
----------
G. Brown, A. Pocock, M.-J. Zhao and M. Luján. Conditional likelihood maximisation: a unifying
framework for information theoretic feature selection. JMLR 13:27–66, 2012.

J. Dougherty, R. Kohavi and M. Sahami. Supervised and unsupervised discretization of continuous
features. ICML 1995, 194–202.

J. Li, K. Cheng, S. Wang, F. Morstatter, R. P. Trevino, J. Tang and H. Liu. Feature selection:
a data perspective. ACM Computing Surveys 50(6):94, 2017.
"""

from __future__ import annotations

import numpy as np
from scipy.special import xlogy

from rlsbench.benchmark.methods import Method
from rlsbench.benchmark.methods.ranking import class_labels, protocol_flops, ranked_path

#: Equal-frequency bins of each feature (and of a real-valued target).
N_BINS = 5

# elements of X handled at once: the quantiles' sorted copy and the bin codes of a block of
# columns stay near 32 MiB whatever the shape
_BLOCK_ELEMENTS = 1 << 22


def _column_blocks(m, n):
    width = max(1, _BLOCK_ELEMENTS // max(m, 1))
    return [slice(start, min(start + width, n)) for start in range(0, n, width)]


def equal_frequency_bins(X, n_bins=N_BINS):
    """Bin index of every entry: column j cut at its quantiles 1/B, …, (B − 1)/B.

    Entry x falls in bin b when it exceeds exactly b of the column's cut points (numpy's
    linearly interpolated quantiles), so bins are right-closed and equal values share a bin;
    cut points that coincide (ties) leave bins empty.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    n_bins : int

    Returns
    -------
    ndarray of shape (n_samples, n_features), uint8
        Values in ``[0, n_bins)``.
    """
    m, n = X.shape
    levels = np.arange(1, n_bins) / n_bins
    codes = np.empty((m, n), dtype=np.uint8)
    for block in _column_blocks(m, n):
        cuts = np.quantile(X[:, block], levels, axis=0)
        counts = np.zeros((m, block.stop - block.start), dtype=np.uint8)
        for cut in cuts:
            counts += X[:, block] > cut
        codes[:, block] = counts
    return codes


def plug_in_mutual_info(codes, labels, n_bins=N_BINS):
    """Plug-in mutual information (nats) of every binned column with one discrete variable.

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features), int
        Bin indices in ``[0, n_bins)`` (:func:`equal_frequency_bins`).
    labels : ndarray of shape (n_samples,)
        Any discrete values (class labels, or the bins of a real target).
    n_bins : int

    Returns
    -------
    ndarray of shape (n_features,)
        ``Σ p(b, c) log(p(b, c) / (p(b) p(c)))`` from the relative frequencies, at least 0.
    """
    m, n = codes.shape
    _, classes = np.unique(labels, return_inverse=True)
    n_classes = int(classes.max()) + 1
    cells = n_bins * n_classes
    class_counts = np.bincount(classes, minlength=n_classes).astype(np.float64)
    # m I = Σ n_bc log n_bc − Σ n_b log n_b − Σ n_c log n_c + m log m (counts n, natural log)
    constant = m * np.log(m) - xlogy(class_counts, class_counts).sum()
    scores = np.empty(n)
    for block in _column_blocks(m, n):
        width = block.stop - block.start
        index = codes[:, block].astype(np.intp) * n_classes + classes[:, None]
        index += np.arange(width) * cells
        joint = np.bincount(index.ravel(), minlength=width * cells).astype(np.float64)
        joint = joint.reshape(width, n_bins, n_classes)
        bins = joint.sum(axis=2)
        scores[block] = (
            xlogy(joint, joint).sum(axis=(1, 2)) - xlogy(bins, bins).sum(axis=1) + constant
        ) / m
    return np.maximum(scores, 0.0)


def binned_mutual_info_scores(X, y, n_bins=N_BINS):
    """Plug-in mutual information of each binned feature with the targets (module docstring).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, t)
        ±1 or one-vs-rest ±1 columns (the class labels, :func:`.ranking.class_labels`), or one
        real-valued target, binned like the features.
    n_bins : int

    Returns
    -------
    ndarray of shape (n_features,)
    """
    labels = class_labels(y)
    if labels is None:
        labels = equal_frequency_bins(y.reshape(-1, 1), n_bins)[:, 0]
    return plug_in_mutual_info(equal_frequency_bins(X, n_bins), labels, n_bins)


def binned_mutual_info_order(X, y, k):
    """Features by decreasing :func:`binned_mutual_info_scores`, ties by index.

    Returns
    -------
    ndarray of shape (n_features,), int
    """
    return np.argsort(-binned_mutual_info_scores(X, y), kind="stable")


def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """RLS path along the first k features of :func:`binned_mutual_info_order`."""
    return ranked_path(
        "mutual_info_binned",
        X,
        y,
        k,
        alpha=alpha,
        bias=bias,
        criterion=criterion,
        n_jobs=n_jobs,
        rank=binned_mutual_info_order,
    )


def _binned_mi_flops(m, n, k, t):
    # per entry of X: the quantiles' partial sort of a copy, four comparisons, the bin codes'
    # cell index and bincount: about BINNED_MI_FLOPS_PER_ENTRY at the nominal rate (measured
    # points in MEASURED_S), then the run's checks and RLS path
    return BINNED_MI_FLOPS_PER_ENTRY * m * n + protocol_flops(m, n, k, t)


BINNED_MI_FLOPS_PER_ENTRY = 100.0

#: CPU seconds of one run, measured like ``benchmarks/bench_cost_models.py`` does (one thread,
#: ``time.process_time``, the protocol's 10-fold training split; usps, adult, mnist5 and ijcnn1
#: read through their registry entries; arcene's second run in the process: the first took
#: 0.74 s, the allocations' page faults; the machine under a load of 5 to 11 on 2 cores):
#: (data, m, n, k, t, seconds);
#: ``tests/benchmark/methods/test_cost_models.py`` holds each estimate within a factor 3.
MEASURED_S = {
    "mutual_info_binned": (
        ("arcene", 180, 10000, 50, 1, 0.141),
        ("nci9", 54, 9712, 50, 9, 0.0649),
        ("TOX_171", 153, 5748, 50, 4, 0.0936),
        ("Prostate_GE", 91, 5966, 50, 1, 0.0611),
        ("riboflavin", 63, 4088, 50, 1, 0.0392),
        ("BASEHOCK", 1793, 4862, 50, 1, 0.706),
        ("usps", 8368, 256, 50, 10, 0.242),
        ("adult", 29304, 123, 50, 1, 0.237),
        ("mnist5", 63000, 780, 50, 1, 3.26),
        ("ijcnn1", 127521, 22, 22, 1, 0.278),
    ),
}


# One entry point in pyproject.toml ([project.entry-points."rlsbench.methods"]).
method = Method(
    name="mutual_info_binned",
    run=run,
    description="Univariate mutual-information filter, plug-in estimate on equal-frequency bins",
    flops=_binned_mi_flops,
    tags={"package": "numpy, scipy (quantile, bincount, xlogy)"},
)
