"""Statistics across datasets: operating points, ranks, Friedman, post-hoc and Bayesian tests,
critical-difference diagrams and the stability of the selected sets.

The comparison follows Demšar (2006) [1]_ and Benavoli et al. (2017) [2]_: one score per (dataset,
method) at an operating point (:func:`at_fixed_k`, :func:`at_loo_k`, :func:`auc_over_k`), the
methods' average ranks over datasets, the Friedman test with the Nemenyi and the Holm-corrected
pairwise Wilcoxon post-hoc tests, a critical-difference diagram, the Wilcoxon signed-rank test of
every method against a reference, and the Bayesian signed-rank test with a region of practical
equivalence (rope). The libraries: SciPy (Friedman, Wilcoxon, the studentized range),
scikit-posthocs (Nemenyi, pairwise Wilcoxon with Holm's correction, the diagram; it takes the
tidy frames and p-value matrices we have and draws the diagram the papers draw), statsmodels
(Holm's step-down correction, through scikit-posthocs' own dependency) and baycomp's Bayesian
signed-rank test (by Benavoli's co-authors; :func:`signed_rank_probs` computes its draws with
matrix products, the same probabilities, checked against baycomp by the tests). The selection
stability is the index of Nogueira, Sechidis & Brown (2018) [3]_, written here from their
equations, as no maintained package has it.

Missing cells (a method skipped on a dataset) follow Demšar: the rank-based tests use the
datasets every method has a score on, after dropping the methods that have no score on any
dataset; both drops are returned so that the tables can say so. The pairwise tests (Wilcoxon,
Bayesian) use every dataset the two methods share.

References
----------
.. [1] J. Demšar, "Statistical comparisons of classifiers over multiple data sets", JMLR 7:1-30,
   2006.
.. [2] A. Benavoli, G. Corani, J. Demšar, M. Zaffalon, "Time for a change: a tutorial for
   comparing multiple classifiers through Bayesian analysis", JMLR 18(77):1-36, 2017.
.. [3] S. Nogueira, K. Sechidis, G. Brown, "On the stability of feature selection algorithms",
   JMLR 18(174):1-54, 2018.
"""

from __future__ import annotations

import functools
import itertools
import math
import warnings
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from rlsbench.errors import RLSBenchError
from rlsbench.lazy import lazy_module

stats = lazy_module("scipy.stats")
pd = lazy_module("pandas")  # the rule files import this module while Snakemake reads them

#: Columns of a step table that the operating points read.
RUN_COLUMNS = ["dataset", "method", "fold", "seed"]


class StatisticsInputError(ValueError, RLSBenchError):
    """A test was given too few datasets or methods (the message says which and how many)."""


# ---------------------------------------------------------------------------------------------
# Operating points: step table -> datasets × methods score matrix
# ---------------------------------------------------------------------------------------------
def _ok_rows(steps: pd.DataFrame, score: str) -> pd.DataFrame:
    missing = [c for c in [*RUN_COLUMNS, "k", "status", score] if c not in steps]
    if missing:
        raise KeyError(f"step table lacks the column(s) {missing} that the statistics read")
    ok = steps[steps["status"] == "ok"]
    return ok[ok[score].notna()]


def _matrix(per_run: pd.DataFrame, steps: pd.DataFrame) -> pd.DataFrame:
    """Mean of the per-run scores of every (dataset, method); a pair without one is NaN."""
    datasets = list(dict.fromkeys(steps["dataset"]))
    methods = list(dict.fromkeys(steps["method"]))
    if per_run.empty:
        return pd.DataFrame(np.nan, index=pd.Index(datasets, name="dataset"), columns=methods)
    table = per_run.groupby(["dataset", "method"], sort=False)["score"].mean().unstack("method")
    table = table.reindex(index=datasets, columns=methods).astype(float)
    table.index.name, table.columns.name = "dataset", None
    return table


def at_fixed_k(steps: pd.DataFrame, k: int, *, score: str = "test_accuracy") -> pd.DataFrame:
    """Mean score over runs (folds × seeds) after ``k`` selected features.

    Parameters
    ----------
    steps : pandas.DataFrame
        A step table (:func:`rlsbench.benchmark.results.read_step_table`): one row per
        (dataset, method, fold, seed, k).
    k : int
        Number of selected features; a run that stops before ``k`` has no score there.
    score : str
        The column scored (higher is better).

    Returns
    -------
    pandas.DataFrame of shape (n_datasets, n_methods)
        NaN where a method has no run reaching ``k`` on a dataset (skipped, or ``k`` above its
        k_max).
    """
    if int(k) < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    ok = _ok_rows(steps, score)
    per_run = ok[ok["k"] == int(k)].rename(columns={score: "score"})
    return _matrix(per_run, steps)


def at_loo_k(
    steps: pd.DataFrame, *, score: str = "test_accuracy", loo: str = "loo_accuracy"
) -> pd.DataFrame:
    """Mean over runs of the test score at the k each run chooses by its own LOO estimate.

    Per run (one fold and seed), k is the one whose leave-one-out estimate on the training
    split is best (highest ``loo``; ties go to the smaller k, as the summary table chooses);
    the run's score is its test score at that k. Nothing of the test split enters the choice.

    Parameters
    ----------
    steps : pandas.DataFrame
        A step table.
    score, loo : str
        The test column scored and the training-split LOO column maximised.

    Returns
    -------
    pandas.DataFrame of shape (n_datasets, n_methods)
    """
    ok = _ok_rows(steps, score)
    ok = ok[ok[loo].notna()].sort_values([*RUN_COLUMNS, "k"], kind="mergesort")
    # idxmax returns the first maximum: the smallest k among equal LOO estimates
    best = ok.loc[ok.groupby(RUN_COLUMNS, sort=False)[loo].idxmax()]
    return _matrix(best.rename(columns={score: "score"}), steps)


def auc_over_k(steps: pd.DataFrame, *, score: str = "test_accuracy") -> pd.DataFrame:
    """Normalised area under the score-k curve: the mean score over k = 1..K.

    K is, per dataset, the largest k every run of every method with a score there reaches, so
    that all methods of a dataset are measured over the same range of k.

    Parameters
    ----------
    steps : pandas.DataFrame
        A step table.
    score : str
        The column scored.

    Returns
    -------
    pandas.DataFrame of shape (n_datasets, n_methods)
        The mean over runs of (1/K) Σ_{k=1..K} score_k, in the units of ``score``.
    """
    ok = _ok_rows(steps, score)
    reach = ok.groupby(RUN_COLUMNS)["k"].max().groupby(level="dataset").min()
    within = ok[ok["k"] <= ok["dataset"].map(reach)]
    per_run = within.groupby(RUN_COLUMNS, sort=False)[score].mean().rename("score")
    return _matrix(per_run.reset_index(), steps)


# ---------------------------------------------------------------------------------------------
# Ranks and the Friedman test (Demšar 2006, Section 3.2.2)
# ---------------------------------------------------------------------------------------------
class CompleteCases(NamedTuple):
    """Outcome of :func:`complete_cases`."""

    scores: pd.DataFrame
    dropped_methods: list
    dropped_datasets: list


def complete_cases(scores: pd.DataFrame) -> CompleteCases:
    """The score matrix the rank-based tests use: methods with no score at all dropped first,
    then the datasets where a remaining method has none (Demšar's handling of missing cells).

    Parameters
    ----------
    scores : pandas.DataFrame of shape (n_datasets, n_methods)

    Returns
    -------
    CompleteCases
        ``scores`` without NaN, and the dropped method and dataset names.
    """
    empty = [m for m in scores.columns if scores[m].isna().all()]
    kept = scores.drop(columns=empty)
    incomplete = kept.index[kept.isna().any(axis=1)]
    return CompleteCases(kept.drop(index=incomplete), empty, list(incomplete))


def _need(scores: pd.DataFrame, datasets: int, methods: int, what: str) -> None:
    n, k = scores.shape
    if n < datasets or k < methods:
        raise StatisticsInputError(
            f"{what} needs at least {datasets} datasets and {methods} methods with a score on "
            f"every one of them; got {n} dataset(s) and {k} method(s)"
        )


def rank_matrix(scores: pd.DataFrame, *, higher_is_better: bool = True) -> pd.DataFrame:
    """Rank of every method on every dataset: 1 = best, ties share the average rank.

    Parameters
    ----------
    scores : pandas.DataFrame of shape (n_datasets, n_methods)
        Without NaN (:func:`complete_cases`).
    higher_is_better : bool
        Whether a larger score is better (accuracy) or worse (an error).

    Returns
    -------
    pandas.DataFrame of shape (n_datasets, n_methods)
    """
    if scores.isna().any().any():
        raise ValueError("rank_matrix needs a score in every cell; use complete_cases first")
    values = -scores.to_numpy(float) if higher_is_better else scores.to_numpy(float)
    ranks = stats.rankdata(values, axis=1, method="average")
    return pd.DataFrame(ranks, index=scores.index, columns=scores.columns)


def average_ranks(scores: pd.DataFrame, *, higher_is_better: bool = True) -> pd.Series:
    """Average rank of every method over the datasets (Demšar's R_j), best first.

    Parameters
    ----------
    scores : pandas.DataFrame of shape (n_datasets, n_methods)
        Without NaN (:func:`complete_cases`).
    higher_is_better : bool
        Whether a larger score is better.

    Returns
    -------
    pandas.Series of length n_methods
        Sorted ascending (rank 1 = best).
    """
    _need(scores, 1, 1, "average_ranks")
    ranks = rank_matrix(scores, higher_is_better=higher_is_better).mean(axis=0)
    return ranks.sort_values(kind="mergesort").rename("average_rank")


class FriedmanResult(NamedTuple):
    """Outcome of :func:`friedman` and :func:`friedman_from_ranks`."""

    n_datasets: int
    n_methods: int
    chi2: float
    p_chi2: float
    iman_davenport_f: float
    df_num: int
    df_den: int
    p_f: float


#: Rank assignments ((k!)^N for N datasets and k methods) up to which :func:`friedman` and
#: :func:`friedman_from_ranks` report the exact permutation p instead of the χ² and F
#: approximations: k = 3 methods on up to 7 datasets, k = 4 on up to 4, k = 5 or 6 on 2.
EXACT_MAX_ASSIGNMENTS = 10**6


def exact_friedman_applies(n_datasets: int, n_methods: int) -> bool:
    """Whether the Friedman p of ``n_datasets`` × ``n_methods`` is the exact permutation p:
    (k!)^N ≤ :data:`EXACT_MAX_ASSIGNMENTS`."""
    return math.factorial(int(n_methods)) ** int(n_datasets) <= EXACT_MAX_ASSIGNMENTS


def friedman_from_ranks(average_ranks, n_datasets: int) -> FriedmanResult:
    """Friedman's χ²_F and the Iman-Davenport F_F from average ranks (Demšar's equations, no
    correction for ties).

    χ²_F = 12N / (k(k+1)) [Σ_j R_j² − k(k+1)²/4] with k−1 degrees of freedom, and
    F_F = (N−1) χ²_F / (N(k−1) − χ²_F) with (k−1, (k−1)(N−1)) degrees of freedom. For a small
    design ((k!)^N ≤ :data:`EXACT_MAX_ASSIGNMENTS`) both p values are the exact permutation p
    (see :func:`friedman`), each dataset's ranks taken as a permutation of 1..k (no ties).

    Parameters
    ----------
    average_ranks : array-like of shape (n_methods,)
    n_datasets : int
        N, the number of datasets the ranks average over.

    Returns
    -------
    FriedmanResult
    """
    ranks = np.asarray(average_ranks, dtype=float)
    n, k = int(n_datasets), int(ranks.size)
    chi2 = 12.0 * n / (k * (k + 1)) * (np.sum(ranks**2) - k * (k + 1) ** 2 / 4.0)
    exact = None
    if exact_friedman_applies(n, k):
        exact = _exact_friedman_p(np.tile(np.arange(1.0, k + 1), (n, 1)), n * ranks)
    return _with_iman_davenport(n, k, float(chi2), exact)


def _exact_friedman_p(rank_rows, rank_sums) -> float:
    """P(Σ_j R_j² ≥ the observed Σ_j R_j²) when each dataset's ranks are put in a uniformly
    random order, independently of the other datasets (the null of the Friedman test).

    Σ_j R_j² orders the assignments as χ²_F does (with or without the tie correction, which
    is the same for every order of a dataset's ranks) and as F_F does (increasing in χ²_F).
    The distribution of the rank sums is one dataset's orders convolved N times: at most
    (k!)^N sums, far fewer where datasets share them.

    Parameters
    ----------
    rank_rows : ndarray of shape (n_datasets, n_methods)
        Each dataset's ranks (midranks where tied).
    rank_sums : ndarray of shape (n_methods,)
        The observed rank sums R_j.
    """
    # midranks are multiples of 1/2: doubled, every sum is an exact integer
    doubled = np.rint(2.0 * np.asarray(rank_rows, dtype=float)).astype(np.int64)
    observed = int(np.sum(np.rint(2.0 * np.asarray(rank_sums, dtype=float)).astype(np.int64) ** 2))
    k = doubled.shape[1]
    # a vector of sums as one integer (digits in base 1 + the largest sum): 1-d unique is
    # fast, and (k!)^N ≤ EXACT_MAX_ASSIGNMENTS keeps k ≤ 9 and the key within int64
    digits = (len(doubled) * int(doubled.max()) + 1) ** np.arange(k, dtype=np.int64)
    sums, probability = np.zeros((1, k), dtype=np.int64), np.ones(1)
    for row in doubled:
        # a dataset's distinct orders are equally likely (a tie repeats each k!/Π t! times)
        orders = np.unique(np.array(list(itertools.permutations(row))), axis=0)
        joint = (sums[:, None, :] + orders[None, :, :]).reshape(-1, k)
        _, first, which = np.unique(joint @ digits, return_index=True, return_inverse=True)
        sums = joint[first]
        probability = np.bincount(
            which.ravel(), weights=np.repeat(probability / len(orders), len(orders))
        )
    return float(min(1.0, probability[np.sum(sums**2, axis=1) >= observed].sum()))


def _with_iman_davenport(n: int, k: int, chi2: float, exact: float | None = None) -> FriedmanResult:
    df_num, df_den = k - 1, (k - 1) * (n - 1)
    p_chi2 = float(stats.chi2.sf(chi2, df_num))
    denominator = n * (k - 1) - chi2
    # χ²_F reaches its maximum N(k−1) when every dataset ranks the methods alike: F_F's
    # denominator is 0 and F_F undefined (NaN), never an infinite F with p = 0
    if denominator > 0:
        f = (n - 1) * chi2 / denominator
        p_f = float(stats.f.sf(f, df_num, df_den))
    else:
        f, p_f = np.nan, p_chi2
    if exact is not None:
        p_chi2 = p_f = exact
    return FriedmanResult(n, k, chi2, p_chi2, float(f), df_num, df_den, p_f)


def friedman(scores: pd.DataFrame) -> FriedmanResult:
    """The Friedman test of equal average ranks, and its Iman-Davenport F form.

    χ²_F is :func:`scipy.stats.friedmanchisquare`'s, which corrects for ties within a dataset
    (on data without ties it equals :func:`friedman_from_ranks`); F_F is computed from it.
    Demšar (2006) recommends the F_F form (``p_f``) as less conservative than χ²_F.

    Which p is reported:

    * Small designs, (k!)^N ≤ :data:`EXACT_MAX_ASSIGNMENTS` (k = 3 methods on up to 7
      datasets, k = 4 on up to 4, k = 5 or 6 on 2), where neither approximation can be
      trusted: ``p_chi2`` and ``p_f`` are both the exact permutation p, the probability that
      putting each dataset's ranks in a random order gives a χ²_F at least as large as the
      observed one (F_F increases with χ²_F, so it has the same exact p). Two datasets
      ranking three methods alike give p = 1/6.
    * Larger designs: ``p_chi2`` from χ² with k−1 degrees of freedom and ``p_f`` from F with
      (k−1, (k−1)(N−1)) degrees of freedom, as before.
    * Where χ²_F reaches its maximum N(k−1) (every dataset ranks the methods alike), F_F is
      undefined: ``iman_davenport_f`` is NaN and ``p_f`` is ``p_chi2`` (exact or χ²), never
      an infinite F with p = 0.

    Parameters
    ----------
    scores : pandas.DataFrame of shape (n_datasets, n_methods)
        Without NaN (:func:`complete_cases`); at least 2 datasets and 3 methods.

    Returns
    -------
    FriedmanResult
        χ²_F is 0 with p 1 when every dataset ties all methods.

    Raises
    ------
    StatisticsInputError
        With fewer than 2 datasets or 3 methods.
    """
    _need(scores, 2, 3, "the Friedman test")
    values = scores.to_numpy(float)
    n, k = values.shape
    if np.all(values == values[:, :1]):
        return _with_iman_davenport(n, k, 0.0, 1.0 if exact_friedman_applies(n, k) else None)
    chi2 = stats.friedmanchisquare(*values.T).statistic
    exact = None
    if exact_friedman_applies(n, k):
        ranks = stats.rankdata(values, axis=1)
        exact = _exact_friedman_p(ranks, ranks.sum(axis=0))
    return _with_iman_davenport(n, k, float(chi2), exact)


# ---------------------------------------------------------------------------------------------
# Post-hoc tests and the critical difference
# ---------------------------------------------------------------------------------------------
def nemenyi_q(n_methods: int, alpha: float = 0.05) -> float:
    """Demšar's q_α of the Nemenyi test: the studentized range quantile over √2."""
    if n_methods < 2:
        raise StatisticsInputError(f"the Nemenyi test needs at least 2 methods, got {n_methods}")
    return float(stats.studentized_range.ppf(1.0 - alpha, n_methods, np.inf) / np.sqrt(2.0))


def critical_difference(n_methods: int, n_datasets: int, alpha: float = 0.05) -> float:
    """Nemenyi's critical difference CD = q_α √(k(k+1) / (6N)) (Demšar 2006, Section 3.2.2).

    Two methods whose average ranks differ by more than CD differ at level α.
    """
    if n_datasets < 1:
        raise StatisticsInputError(f"the critical difference needs datasets, got {n_datasets}")
    k = int(n_methods)
    return nemenyi_q(k, alpha) * float(np.sqrt(k * (k + 1) / (6.0 * n_datasets)))


def nemenyi(scores: pd.DataFrame) -> pd.DataFrame:
    """p-values of the Nemenyi test of every pair of methods (scikit-posthocs'
    ``posthoc_nemenyi_friedman``).

    Parameters
    ----------
    scores : pandas.DataFrame of shape (n_datasets, n_methods)
        Without NaN; at least 2 datasets and 3 methods.

    Returns
    -------
    pandas.DataFrame of shape (n_methods, n_methods)
        Symmetric, 1 on the diagonal.
    """
    import scikit_posthocs as sp

    _need(scores, 2, 3, "the Nemenyi test")
    table = sp.posthoc_nemenyi_friedman(scores.to_numpy(float))
    table.index = table.columns = list(scores.columns)
    return table


def holm_wilcoxon(scores: pd.DataFrame) -> pd.DataFrame:
    """p-values of the Wilcoxon signed-rank test of every pair of methods over the datasets,
    Holm-corrected over the pairs (scikit-posthocs' ``posthoc_wilcoxon(p_adjust="holm")``).

    Benavoli, Corani & Mangili (JMLR 17(5), 2016) advise this pairwise test over the
    mean-rank post-hoc tests, whose outcome for two methods depends on the others compared.

    Parameters
    ----------
    scores : pandas.DataFrame of shape (n_datasets, n_methods)
        Without NaN; at least 2 datasets and 3 methods.

    Returns
    -------
    pandas.DataFrame of shape (n_methods, n_methods)
    """
    import scikit_posthocs as sp

    _need(scores, 2, 3, "the pairwise Wilcoxon test")
    long = scores.melt(var_name="method", value_name="score", ignore_index=False)
    with warnings.catch_warnings():
        # a pair with identical scores on every dataset: scipy warns, its p-value is NaN
        warnings.simplefilter("ignore", (RuntimeWarning, UserWarning))
        table = sp.posthoc_wilcoxon(
            long, val_col="score", group_col="method", zero_method="zsplit", p_adjust="holm"
        )
    return table.reindex(index=list(scores.columns), columns=list(scores.columns))


def pairs_table(p_values: pd.DataFrame, alpha: float) -> pd.DataFrame:
    """A symmetric p-value matrix as one row per unordered pair (method_a, method_b, p_value,
    significant)."""
    names = list(p_values.columns)
    rows = [
        {"method_a": a, "method_b": b, "p_value": float(p_values.loc[a, b])}
        for i, a in enumerate(names)
        for b in names[i + 1 :]
    ]
    frame = pd.DataFrame(rows, columns=["method_a", "method_b", "p_value"])
    frame["significant"] = frame["p_value"] < alpha
    return frame


# ---------------------------------------------------------------------------------------------
# Every method against a reference
# ---------------------------------------------------------------------------------------------
def _paired(scores: pd.DataFrame, method: str, reference: str) -> tuple[np.ndarray, np.ndarray]:
    both = scores[[method, reference]].dropna()
    return both[method].to_numpy(float), both[reference].to_numpy(float)


def _check_reference(scores: pd.DataFrame, reference: str) -> list:
    if reference not in scores.columns:
        raise KeyError(
            f"reference method {reference!r} is not among the methods {list(scores.columns)}"
        )
    others = [m for m in scores.columns if m != reference]
    if not others:
        raise StatisticsInputError("a comparison with the reference needs a second method")
    return others


def wilcoxon_vs_reference(
    scores: pd.DataFrame, reference: str, *, alpha: float = 0.05
) -> pd.DataFrame:
    """Wilcoxon signed-rank test of every method against ``reference`` over the datasets both
    have a score on, Holm-corrected over the methods (:func:`scipy.stats.wilcoxon`,
    statsmodels' ``multipletests(method="holm")``).

    Parameters
    ----------
    scores : pandas.DataFrame of shape (n_datasets, n_methods)
        NaN = no score (that dataset is left out of that pair).
    reference : str
        A column of ``scores``.
    alpha : float
        Level of the ``significant`` column (on the Holm-corrected p-value).

    Returns
    -------
    pandas.DataFrame
        One row per other method: n_datasets, wins / ties / losses (of the method against the
        reference), median_difference (method − reference), statistic, p_value, p_holm,
        significant, reason (why p is NaN: fewer than 2 shared datasets). p is 1 when every
        difference is 0 (where scipy's test is undefined).
    """
    from statsmodels.stats.multitest import multipletests

    rows = []
    for method in _check_reference(scores, reference):
        x, y = _paired(scores, method, reference)
        d = x - y
        row = {
            "method": method,
            "reference": reference,
            "n_datasets": int(d.size),
            "wins": int(np.sum(d > 0)),
            "ties": int(np.sum(d == 0)),
            "losses": int(np.sum(d < 0)),
            "median_difference": float(np.median(d)) if d.size else np.nan,
            "statistic": np.nan,
            "p_value": np.nan,
            "reason": "",
        }
        if d.size < 2:
            row["reason"] = f"{d.size} dataset(s) shared with the reference; the test needs 2"
        elif np.all(d == 0):
            row["p_value"] = 1.0
        else:
            # zsplit: a dataset where the two tie counts half for each side instead of vanishing
            test = stats.wilcoxon(x, y, zero_method="zsplit")
            row["statistic"], row["p_value"] = float(test.statistic), float(test.pvalue)
        rows.append(row)
    table = pd.DataFrame(rows)
    table["p_holm"] = np.nan
    tested = table["p_value"].notna()
    if tested.any():
        table.loc[tested, "p_holm"] = multipletests(table.loc[tested, "p_value"], method="holm")[1]
    table["significant"] = table["p_holm"] < alpha
    order = ["method", "reference", "n_datasets", "wins", "ties", "losses"]
    order += ["median_difference", "statistic", "p_value", "p_holm", "significant", "reason"]
    return table[order]


def _heaviside(a, threshold):
    return (a > threshold).astype(float) + 0.5 * (a == threshold).astype(float)


def _dirichlet_draws(size, prior, nsamples, random_state):
    """The posterior's weights of :func:`signed_rank_probs`, shape (nsamples, size).

    They depend on the number of datasets and the seed, not on the scores: a statistics job
    tests every method against the reference on the same datasets with the same seed, and
    drew the same 50 000 × (n + 1) gamma variates for each. A seed's draws are kept
    (read-only) while the tests of one comparison run (:func:`_seeded_draws`); an unseeded
    call (``random_state=None``) draws afresh, as numpy would.
    """
    if random_state is None:
        return _draw(size, prior, nsamples, None)
    return _seeded_draws(size, float(prior), int(nsamples), int(random_state))


def _draw(size, prior, nsamples, seed):
    weights = np.ones(size)
    weights[0] = prior
    return np.random.RandomState(seed).dirichlet(weights, nsamples)


@functools.lru_cache(maxsize=2)
def _seeded_draws(size, prior, nsamples, seed):
    draws = _draw(size, prior, nsamples, seed)
    draws.flags.writeable = False
    return draws


def signed_rank_probs(x, y, rope=0.0, *, nsamples=50_000, random_state=None, prior=0.5):
    """baycomp's Bayesian signed-rank test (``baycomp.SignedRankTest.probs``), the same draws
    and the same probabilities, with the posterior's masses as two matrix products instead of
    one outer product per draw (about 5x faster at 135 datasets: the reference benchmark's
    statistics job runs hundreds of these tests; ``tests/benchmark/test_statistics.py``
    compares the two on random inputs with ties).

    Parameters
    ----------
    x, y : ndarray of shape (n_datasets,)
        The two methods' scores.
    rope : float, default=0.0
        Half-width of the region of practical equivalence (0: none).
    nsamples : int, default=50_000
        Draws from the Dirichlet-process posterior (weights of shape (nsamples, n_datasets + 1),
        the first for the prior's pseudo-observation at 0).
    random_state : int or None
        Seed of numpy's ``RandomState`` that draws them (baycomp's).
    prior : float, default=0.5
        Weight of the pseudo-observation.

    Returns
    -------
    tuple of float
        ``(p_left, p_rope, p_right)`` with a rope, else ``(p_left, p_right)``: the share of
        draws in which each region has the largest mass (left: ``x`` better than ``y``).
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    diff = np.concatenate(([0.0], y - x))
    sums = diff[:, None] + diff[None, :]  # the Walsh sums, (n + 1, n + 1)
    draws = _dirichlet_draws(len(diff), prior, nsamples, random_state)

    def mass(region):  # w_iᵀ R w_i for every draw i
        return np.einsum("ij,ij->i", draws @ region, draws)

    samples = np.zeros((nsamples, 3))
    if rope > 0:
        samples[:, 0] = mass(_heaviside(-sums, 2 * rope))
        samples[:, 2] = mass(_heaviside(sums, 2 * rope))
        samples[:, 1] = -samples[:, 0] - samples[:, 2] + 1
    else:
        samples[:, 2] = mass(_heaviside(sums, 0))
        samples[:, 0] = -samples[:, 2] + 1
    left, middle, right = np.bincount(np.argmax(samples, axis=1), minlength=3) / nsamples
    if rope > 0:
        return float(left), float(middle), float(right)
    return float(left / (left + right)), float(right / (left + right))


def bayesian_signed_rank(
    scores: pd.DataFrame,
    reference: str,
    *,
    rope: float,
    nsamples: int = 50_000,
    random_state: int = 0,
) -> pd.DataFrame:
    """Bayesian signed-rank test (Benavoli et al. 2014, 2017) of every method against
    ``reference``, with a region of practical equivalence (baycomp's ``SignedRankTest``,
    computed by :func:`signed_rank_probs`).

    Parameters
    ----------
    scores : pandas.DataFrame of shape (n_datasets, n_methods)
        NaN = no score (that dataset is left out of that pair).
    reference : str
        A column of ``scores``.
    rope : float
        Half-width of the region of practical equivalence, in the units of the scores
        (0.01 = one percentage point of accuracy); 0 = no rope.
    nsamples : int
        Draws from the Dirichlet-process posterior.
    random_state : int
        Seed of the draws (the same scores give the same probabilities).

    Returns
    -------
    pandas.DataFrame
        One row per other method: n_datasets, rope, p_left (the method better than the
        reference by more than the rope), p_rope (practically equivalent), p_right (the
        reference better), reason (why the row is NaN: fewer than 2 shared datasets).
    """
    if rope < 0:
        raise ValueError(f"rope must be >= 0, got {rope}")
    rows = []
    for method in _check_reference(scores, reference):
        x, y = _paired(scores, method, reference)
        row = {"method": method, "reference": reference, "n_datasets": int(x.size), "rope": rope}
        row.update(p_left=np.nan, p_rope=np.nan, p_right=np.nan, reason="")
        if x.size < 2:
            row["reason"] = f"{x.size} dataset(s) shared with the reference; the test needs 2"
        else:
            # left: the first argument better (sums of y − x below −rope); without a rope
            # there is no middle
            probs = signed_rank_probs(x, y, rope, nsamples=nsamples, random_state=random_state)
            left, middle, right = probs if rope > 0 else (probs[0], 0.0, probs[1])
            row.update(p_left=float(left), p_rope=float(middle), p_right=float(right))
        rows.append(row)
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------------------
# The critical-difference diagram
# ---------------------------------------------------------------------------------------------
def plot_critical_difference(
    ranks: pd.Series,
    p_values: pd.DataFrame,
    cd: float,
    *,
    alpha,
    title: str = "",
    labels: Mapping[str, str] | None = None,
):
    """Draw the critical-difference diagram (scikit-posthocs): average ranks on an axis, the
    methods the post-hoc test cannot tell apart joined by a bar, and CD above the axis; the
    rank axis says that a lower rank is better, and the methods are shown by their labels.

    Parameters
    ----------
    ranks : pandas.Series
        Average rank per method (:func:`average_ranks`).
    p_values : pandas.DataFrame of shape (n_methods, n_methods)
        The post-hoc test's p-values (:func:`nemenyi`).
    cd : float
        The critical difference (:func:`critical_difference`), drawn as a bar below.
    alpha : float
        Level below which a pair is told apart.
    title : str
    labels : mapping, optional
        The name shown for each method (default: its ``tags["label"]``,
        :func:`rlsbench.benchmark.labels.method_labels`).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import scikit_posthocs as sp

    from rlsbench.benchmark.figures import at_each_width, subplots
    from rlsbench.benchmark.labels import method_labels

    shown = dict(method_labels(ranks.index) if labels is None else labels)
    ranks = ranks.rename(index=lambda m: shown.get(m, m))
    p_values = p_values.rename(index=lambda m: shown.get(m, m), columns=lambda m: shown.get(m, m))
    fig, ax = subplots(aspect=0.16 + 0.05 * len(ranks))
    sp.critical_difference_diagram(
        ranks,
        p_values,
        alpha=alpha,
        ax=ax,
        label_fmt_left="{label} ({rank:.2f})",
        label_fmt_right="({rank:.2f}) {label}",
        # greyscale-safe: black markers and bars; the labels carry the names
        color_palette=["black"] * len(ranks),
    )
    # the CD bar below the labels (scikit-posthocs draws its own over the tick labels)
    bottom = ax.get_ylim()[0]
    start = float(ranks.min())
    ax.plot([start, start + cd], [bottom - 0.4] * 2, color="black", linewidth=2.0)
    labels_drawn = list(ax.texts)
    ax.text(start + cd + 0.02, bottom - 0.4, f"CD = {cd:.2f}", ha="left", va="center")
    ax.set_ylim(bottom - 0.9, ax.get_ylim()[1])
    # the rank axis (drawn at the top, under the title) runs from the best rank: say so. The
    # figure's title, not the axes': the layout gives it the figure's width, where an axes
    # title wider than its narrow axes (one column, long labels beside) collapsed the layout
    import matplotlib as mpl

    fig.suptitle(
        "\n".join(filter(None, [title, RANK_CUE])), fontsize=mpl.rcParams["axes.titlesize"]
    )
    # scikit-posthocs anchors the methods' labels at the extreme ranks and lets them run out
    # of the axes: the constrained layout, asked to fit them, collapsed the axes and gave up
    # (the labels ran off the page). Keep them out of the layout and pad the axes by the
    # widest label instead, at each width save_figure writes: at one column (3.5 in) the
    # labels of the two-column size took more than the width, so there they get smaller type.
    for text in labels_drawn:
        text.set_in_layout(False)
    fit = _fit_labels_beside_the_axes(labels_drawn)
    at_each_width(fig, fit)
    fit(fig, fig.get_size_inches()[0])
    return fig


#: The rank axis of a critical-difference diagram (inches) that its labels leave at least,
#: the type they get to leave it (points, at least), and what they leave at most beyond that
#: (the axis and the type of labels too long for both).
CD_MIN_AXIS_IN = 1.5
CD_MIN_LABEL_PT = 6.0
CD_LAST_AXIS_IN = 0.8
CD_LAST_LABEL_PT = 4.0


def _fit_labels_beside_the_axes(labels):
    """A callback for :func:`rlsbench.benchmark.figures.at_each_width`: the figure's aspect
    at every width (the one-column default height, a panel's, left no room for a label a
    method), the labels at their first size, or smaller where the widest would leave the rank
    axis less than :data:`CD_MIN_AXIS_IN` (not below :data:`CD_MIN_LABEL_PT`; labels still
    too long get down to :data:`CD_LAST_LABEL_PT` for an axis of :data:`CD_LAST_AXIS_IN`),
    and the axes padded by the widest on both sides."""
    sizes = [text.get_fontsize() for text in labels]
    fig = labels[0].get_figure() if labels else None
    aspect = fig.get_size_inches()[1] / fig.get_size_inches()[0] if fig is not None else 1.0

    def widest_in(fig, scale):
        for text, size in zip(labels, sizes, strict=True):
            text.set_fontsize(size * scale)
        renderer = fig.canvas.get_renderer()
        return max((t.get_window_extent(renderer).width for t in labels), default=0.0) / fig.dpi

    def fit(fig, width_in):
        fig.set_size_inches(width_in, width_in * aspect)
        scale = 1.0
        widest = widest_in(fig, scale)
        for axis_in, smallest_pt in (
            (CD_MIN_AXIS_IN, CD_MIN_LABEL_PT),
            (CD_LAST_AXIS_IN, CD_LAST_LABEL_PT),
        ):
            room = (width_in - axis_in) / 2 - 0.05
            floor = min(smallest_pt / size for size in sizes)
            # text about as wide as its size (not quite, at small sizes): a few steps
            for _ in range(4):
                if widest <= room or scale <= floor:
                    break
                scale = max(scale * room / widest * 0.98, floor)
                widest = widest_in(fig, scale)
            if widest <= room:
                break
        fig.get_layout_engine().set(w_pad=widest + 0.05)

    return fit


#: What a critical-difference diagram's rank axis means, under its title.
RANK_CUE = "average rank (1 = best; lower is better)"


# ---------------------------------------------------------------------------------------------
# Stability of the selected sets (Nogueira, Sechidis & Brown 2018)
# ---------------------------------------------------------------------------------------------
class Stability(NamedTuple):
    """Outcome of :func:`nogueira_stability`."""

    stability: float
    variance: float
    ci_low: float
    ci_high: float
    n_sets: int


def nogueira_stability(Z, *, alpha: float = 0.05) -> Stability:
    """Stability index of Nogueira, Sechidis & Brown (2018) with its asymptotic confidence
    interval.

    Φ̂ = 1 − (1/d Σ_f s_f²) / (k̄/d (1 − k̄/d)), where s_f² =
    M/(M−1) p̂_f (1 − p̂_f) is the unbiased variance of feature f's selection indicator over
    the M sets and k̄ the mean set size (their Definition 4). Φ̂ is 1 for identical sets and 0
    in expectation for sets of a fixed size drawn at random (the correction for chance). Its
    variance is their asymptotic estimate 4/M² Σ_i (Φ̂_i − mean_i Φ̂_i)² over per-set terms
    Φ̂_i (as in the authors' reference code, ``getVarianceofStability``), and the interval is
    Φ̂ ± z_{1−α/2} √variance (their ``confidenceIntervals``).

    Parameters
    ----------
    Z : array-like of shape (n_sets, n_features)
        Z[i, f] = 1 when set i selects feature f (bool or 0/1).
    alpha : float
        1 − the interval's coverage.

    Returns
    -------
    Stability
        NaN when M < 2 or when every set selects all or none of the features (k̄ ∈ {0, d}: the
        index is undefined).
    """
    Z = np.asarray(Z, dtype=float)
    if Z.ndim != 2:
        raise ValueError(f"Z must be 2-d (n_sets, n_features), got shape {Z.shape}")
    if not np.all((Z == 0) | (Z == 1)):
        raise ValueError("Z must hold 0/1 (or bool) selection indicators")
    M, d = Z.shape
    nan = Stability(np.nan, np.nan, np.nan, np.nan, M)
    if M < 2 or d == 0:
        return nan
    p = Z.mean(axis=0)
    k_bar = p.sum()
    denominator = (k_bar / d) * (1.0 - k_bar / d)
    if denominator <= 0:
        return nan
    phi = 1.0 - (M / (M - 1.0)) * np.mean(p * (1.0 - p)) / denominator
    # the per-set terms Φ̂_i whose spread over the sets estimates the variance of Φ̂
    k = Z.sum(axis=1)
    phi_i = (
        (Z @ p) / d
        - k * k_bar / d**2
        + 0.5 * phi * (2.0 * k * k_bar / d**2 - k / d - k_bar / d + 1.0)
    ) / denominator
    variance = 4.0 / M**2 * np.sum((phi_i - phi_i.mean()) ** 2)
    half = stats.norm.ppf(1.0 - alpha / 2.0) * np.sqrt(variance)
    return Stability(float(phi), float(variance), float(phi - half), float(phi + half), M)


def selection_matrix(steps: pd.DataFrame, dataset: str, method: str, k: int) -> np.ndarray:
    """The first ``k`` features each run (fold × seed) of ``method`` on ``dataset`` selected
    (the step's own ``subset`` for a method whose subsets are not nested), as the indicator
    matrix of :func:`nogueira_stability`.

    Returns
    -------
    ndarray of shape (n_runs, n_features)
        One row per run that reaches ``k`` (runs that stop earlier or were skipped are left
        out); n_features from the table's ``n_features`` column.
    """
    rows = steps[
        (steps["dataset"] == dataset) & (steps["method"] == method) & (steps["status"] == "ok")
    ]
    if rows.empty:
        return np.zeros((0, 0))
    sets = _selection_sets(rows[rows["k"] <= k], k)
    return sets if sets.size else np.zeros((0, int(rows["n_features"].iloc[0])))


def _selection_sets(rows: pd.DataFrame, k: int) -> np.ndarray:
    """:func:`selection_matrix` of the ``status == "ok"`` rows with ``k`` at most ``k`` of one
    dataset and method."""
    if rows.empty:
        return np.zeros((0, 0))
    d = int(rows["n_features"].iloc[0])
    sets = []
    for _, first in rows.groupby(["fold", "seed"], sort=True):
        if int(first["k"].max()) < k:
            continue
        z = np.zeros(d)
        at_k = first[first["k"] == k]
        if "subset" in first and isinstance(at_k["subset"].iloc[0], str):
            # a method whose subsets are not nested (best subset): the subset of size k itself
            z[np.asarray(at_k["subset"].iloc[0].split(), dtype=int)] = 1.0
        else:
            z[first["feature"].astype(int).to_numpy()] = 1.0
        sets.append(z)
    return np.asarray(sets).reshape(len(sets), d)


def stability_table(steps: pd.DataFrame, k: int, *, alpha: float = 0.05) -> pd.DataFrame:
    """Nogueira's stability index of every (dataset, method) over its runs' first ``k``
    features (:func:`selection_matrix`, :func:`nogueira_stability`).

    Returns
    -------
    pandas.DataFrame
        dataset, method, k, runs (sets compared), stability, variance, ci_low, ci_high,
        reason (why the index is NaN).
    """
    for column in ("feature", "n_features"):
        if column not in steps:
            raise KeyError(f"step table lacks the column {column!r} that the stability reads")
    rows = []
    pairs = steps[["dataset", "method"]].drop_duplicates().itertuples(index=False)
    # the table split once (filtering the whole table for each of the reference benchmark's
    # 2160 pairs took five minutes)
    kept = steps[(steps["status"] == "ok") & (steps["k"] <= k)]
    runs = dict(iter(kept.groupby(["dataset", "method"], sort=False)))
    for dataset, method in pairs:
        Z = _selection_sets(runs.get((dataset, method), kept.iloc[:0]), k)
        result = nogueira_stability(Z, alpha=alpha) if Z.size else Stability(*[np.nan] * 4, 0)
        reason = ""
        if Z.shape[0] < 2:
            reason = f"{Z.shape[0]} run(s) reach k = {k}; the index compares at least 2"
        elif np.isnan(result.stability):
            reason = "every run selects all features (k̄ = d): the index is undefined"
        rows.append({"dataset": dataset, "method": method, "k": k, **result._asdict()})
        rows[-1]["runs"] = rows[-1].pop("n_sets")
        rows[-1]["reason"] = reason
    columns = ["dataset", "method", "k", "runs", "stability", "variance", "ci_low", "ci_high"]
    return pd.DataFrame(rows, columns=[*columns, "reason"])
