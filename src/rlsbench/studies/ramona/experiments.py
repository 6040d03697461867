"""The evaluation protocol of Ramona et al. (2012), Section V, as tidy result rows.

* toy problems (Section V-A, Fig. 1): rank on n training points, keep the best two features,
  train an SVM on them, error on 500 fresh test points;
* real data (Section V-B/C): rank on a random training subset, train an SVM on the S best
  features, error on a disjoint test subset, for several S;
* CPU time (Section VI-C, Tables VIII-IX): wall time of one ranking with 10 iterations.

The SVM penalty is always Ĉ = 1/R̄² (footnote 4) computed on the SVM's own training data and
kernel. Every function returns a list of dicts (one row per measured point).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from rlsbench.benchmark.methods import get_method
from rlsbench.benchmark.parallel import map_tasks
from rlsbench.benchmark.timing import Stopwatch
from rlsbench.numerics.kernel.alignment import encode_labels
from rlsbench.numerics.kernel.kernels import ScaledKernel
from rlsbench.numerics.synthetic import make_toy
from rlsbench.studies.ramona.coupling import pairwise_coupling

#: Methods of the comparison; "svm" = no selection (all features), the black curve of Fig. 1.
METHODS = ("fisher", "arom", "rfe", "r2w2", "sas", "scss", "kfds", "sfs", "svm")
#: Kernels of the experiments (SVM and, for SAS / SCSS / SFS, the scaled kernel).
EXPERIMENT_KERNELS = ("linear", "rbf", "poly")
#: Multiclass protocols: "joint" ranks the features once on all classes and trains sklearn's
#: one-vs-one SVC on them (majority vote); "pairwise" ranks them for every pair of classes and
#: couples the pairwise SVMs' probabilities (Section V-B4, "45 SVMs trained").
MULTICLASS = ("joint", "pairwise")


def method_applies(method: str, kernel: str) -> bool:
    """Whether the paper runs ``method`` in an experiment with SVM kernel ``kernel``.

    SFS is only defined for the RBF kernel (Section V-C); all other methods are run with every
    kernel (the linear-only ones rank with a linear kernel, as in Fig. 2-3).
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if kernel not in EXPERIMENT_KERNELS:
        raise ValueError(f"kernel must be one of {EXPERIMENT_KERNELS}, got {kernel!r}")
    return not (method == "sfs" and kernel != "rbf")


#: The ``rlsbench.methods`` plugin of each ranking method (the study keeps the paper's short
#: names in its tables): its ``tags["ranker"]`` builds the ranker for an experiment.
RANKERS = {m: {"fisher": "fisher_score", "rfe": "svm_rfe"}.get(m, m) for m in METHODS[:-1]}


def method_options_of(method: str) -> tuple[str, ...]:
    """The options ``method``'s ranker accepts from the config (``method_options``) beyond
    ``n_iter``: its plugin's ``tags["options"]`` (SCSS's ``epsilon``, R2W2's ``radius``,
    KFDS's ``mu``); none for "svm"."""
    if method not in RANKERS:
        return ()
    return tuple(get_method(RANKERS[method]).tags.get("options", ()))


def make_ranker(
    method: str,
    kernel: str,
    *,
    degree: int = 3,
    standardize: bool = True,
    n_iter: int | None = None,
    **options,
):
    """The ranker of ``method`` for an experiment with kernel ``kernel``: the one its plugin
    builds (``tags["ranker"]`` of the method :data:`RANKERS` names,
    :mod:`rlsbench.benchmark.methods.ramona`).

    Parameters
    ----------
    method : one of METHODS except "svm"
    kernel : {"linear", "rbf", "poly"}
    degree : int
        Polynomial order (Parkinsons: 3).
    standardize : bool
    n_iter : int or None
        Fixed number of iterations (tolerance 0), as in the CPU-time comparison; None = the
        rankers' own stopping rules.
    **options
        The method's own options (:func:`method_options_of`), None = the ranker's default:
        ``epsilon`` (SCSS, the regulariser ε of eq. 18 relative to tr K at w = 1, default 0.1;
        the paper does not state its value), ``radius`` (R2W2, the solver of the radius:
        ``"frank_wolfe"``, the default, or ``"qp"``, the paper's dense quadratic program),
        ``mu`` (KFDS, the ridge on N relative to tr N / n, default 0.1; the paper states
        none). Another method's option is a ValueError naming it.
    """
    if method not in RANKERS:
        raise ValueError(f"method {method!r} has no ranker; rankers: {METHODS[:-1]}")
    ranker = get_method(RANKERS[method]).tags["ranker"]
    return ranker(kernel, degree=degree, standardize=standardize, n_iter=n_iter, **options)


def fit_svm(
    X_train,
    y_train,
    kernel: str,
    *,
    degree: int = 3,
    standardize: bool = True,
    probability: bool = False,
    random_state=None,
):
    """An SVM with C = 1/R̄² (footnote 4) fitted on (``X_train``, ``y_train``).

    RBF: k(x, y) = exp(−||x − y||² / S) on S (standardised) features, i.e. sklearn's
    gamma="scale" on unit-variance data; polynomial: (1 + ⟨x, y⟩ / S)^degree. Multiclass:
    sklearn's one-vs-one SVC. ``probability``: Platt-scaled outputs (sklearn's internal
    cross-validation, five stratified folds shuffled by ``random_state``).

    Parameters
    ----------
    X_train : ndarray of shape (n_train, S)
    y_train : ndarray of shape (n_train,)
    kernel : {"linear", "rbf", "poly"}

    Returns
    -------
    svc : fitted sklearn SVC (CalibratedClassifierCV around one with ``probability``)
    scaler : fitted StandardScaler or None
        What the test points go through before ``svc`` (None without ``standardize``).
    """
    scaler = None
    if standardize:
        from sklearn.preprocessing import StandardScaler

        scaler = StandardScaler().fit(X_train)
        X_train = scaler.transform(X_train)
    S = X_train.shape[1]
    var = float(X_train.var()) or 1.0
    gamma = 1.0 / (S * var)
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.model_selection import StratifiedKFold
    from sklearn.svm import SVC

    if kernel == "linear":
        sk = ScaledKernel("linear")
        svc = SVC(kernel="linear")
    elif kernel == "rbf":
        sk = ScaledKernel("rbf", sigma=np.sqrt(1.0 / (2.0 * gamma)))
        svc = SVC(kernel="rbf", gamma=gamma)
    elif kernel == "poly":
        sk = ScaledKernel("poly", degree=degree, coef=gamma)
        svc = SVC(kernel="poly", degree=degree, gamma=gamma, coef0=1.0)
    else:
        raise ValueError(f"kernel must be one of {EXPERIMENT_KERNELS}, got {kernel!r}")
    from rlsbench.numerics.kernel.wrappers import joachims_C  # scikit-learn's SVC: at use

    svc.set_params(C=joachims_C(X_train, sk))
    if probability:
        # Platt's sigmoid on out-of-fold decision values, then one SVM on all the data
        # (libsvm's -b 1, which sklearn's SVC(probability=True) wrapped until its deprecation)
        folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=random_state)
        svc = CalibratedClassifierCV(svc, method="sigmoid", cv=folds, ensemble=False)
    svc.fit(X_train, y_train)
    return svc, scaler


def svm_error(
    X_train, y_train, X_test, y_test, kernel: str, *, degree: int = 3, standardize: bool = True
) -> float:
    """Test error of an SVM with C = 1/R̄² (footnote 4), :func:`fit_svm`.

    Multiclass: sklearn's one-vs-one SVC with majority vote.

    Parameters
    ----------
    X_train : ndarray of shape (n_train, S)
    y_train : ndarray of shape (n_train,)
    X_test : ndarray of shape (n_test, S)
    y_test : ndarray of shape (n_test,)
    kernel : {"linear", "rbf", "poly"}

    Returns
    -------
    float
        Fraction of misclassified test points.
    """
    svc, scaler = fit_svm(X_train, y_train, kernel, degree=degree, standardize=standardize)
    if scaler is not None:
        X_test = scaler.transform(X_test)
    return float(np.mean(svc.predict(X_test) != y_test))


def rank(method, kernel, X, y, *, degree=3, standardize=True, n_iter=None, **options):
    """Feature order of ``method`` (all features in their order for "svm") and fit seconds;
    ``options`` as :func:`make_ranker`'s."""
    if method == "svm":
        return np.arange(X.shape[1]), 0.0
    ranker = make_ranker(
        method, kernel, degree=degree, standardize=standardize, n_iter=n_iter, **options
    )
    with Stopwatch() as clock:
        ranker.fit(X, y)
    return ranker.order_, clock.wall_s


# -- Section V-A: toy problems ---------------------------------------------------------------
def toy_rows(
    problem: str,
    method: str,
    *,
    n_train,
    n_test=500,
    n_repeats=40,
    n_select=2,
    method_options=None,
    seed=0,
) -> list[dict]:
    """Fig. 1: test error of an SVM on the ``n_select`` best features of a Weston toy problem.

    The linear problem uses the linear kernel, the nonlinear one the RBF kernel (for SAS /
    SCSS / SFS and for the SVM). Data of repetition r at size n come from the seed sequence
    (seed, problem, n, r), identical for every method. ``method_options``: the ranker's
    options (:func:`make_ranker`; ``n_iter`` among them).

    Returns
    -------
    list of dict
        One row per (n_train, repeat): problem, kernel, method, n_train, repeat, n_selected,
        error, selected (space-separated indices), fit_seconds.
    """
    kernel = "linear" if problem == "linear" else "rbf"
    if not method_applies(method, kernel):
        return []
    pid = 0 if problem == "linear" else 1
    rows = []
    for n in n_train:
        for r in range(n_repeats):
            ss = np.random.SeedSequence([int(seed), pid, int(n), r])
            s_train, s_test = ss.spawn(2)
            X, y = make_toy(problem, int(n), seed=np.random.default_rng(s_train))
            Xt, yt = make_toy(problem, int(n_test), seed=np.random.default_rng(s_test))
            if np.unique(y).size < 2:  # a one-class draw at n = 10: redraw deterministically
                y[0] = -y[0]
            order, sec = rank(method, kernel, X, y, **(method_options or {}))
            keep = order if method == "svm" else order[:n_select]
            err = svm_error(X[:, keep], y, Xt[:, keep], yt, kernel)
            rows.append(
                dict(
                    problem=problem,
                    kernel=kernel,
                    method=method,
                    n_train=int(n),
                    repeat=r,
                    n_selected=int(len(keep)),
                    error=err,
                    selected=" ".join(map(str, np.sort(keep[:n_select]))),
                    fit_seconds=sec,
                )
            )
    return rows


# -- Section V-B / V-C: real data ------------------------------------------------------------
def draw_split(y, rng, *, n_train, n_test=None, train_per_class=None, pools=None):
    """Disjoint random train / test indices.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
    rng : numpy Generator
    n_train : int or float
        Training size, or fraction of the data when < 1 (ignored with ``train_per_class``).
    n_test : int, float or None
        Test size, fraction, or None for all remaining samples.
    train_per_class : int or None
        Draw this many training samples from every class (USPS, Table II).
    pools : dict or None
        ``{"train": [start, stop], "test": [start, stop]}``: draw the training samples from
        rows start..stop−1 only and the test samples from the other range (a dataset's own
        train / test files, e.g. USPS). ``"test": "rest"``: test on the training pool's
        samples not drawn for training (Ramona et al.'s USPS, "the rest for testing", with
        Table I's 7291 examples = zip.train).

    Returns
    -------
    train, test : ndarrays of int
    """
    n = y.shape[0]
    perm = rng.permutation(n)
    test_pool = None
    if pools is not None:
        a, b = pools["train"]
        if pools["test"] == "rest":
            if not 0 <= a < b <= n:
                raise ValueError(f"pools={pools!r}: need a row range within 0..{n}")
        else:
            c, d = pools["test"]
            if not (0 <= a < b <= n and 0 <= c < d <= n and (b <= c or d <= a)):
                raise ValueError(f"pools={pools!r}: need disjoint row ranges within 0..{n}")
            test_pool = perm[(perm >= c) & (perm < d)]
        perm = perm[(perm >= a) & (perm < b)]
    if train_per_class is not None:
        codes = encode_labels(y)[0][perm]
        train = np.concatenate([perm[codes == c][:train_per_class] for c in np.unique(codes)])
        rest = perm[~np.isin(perm, train)]
    else:
        k = int(round(n_train * perm.size)) if n_train < 1 else int(n_train)
        if not 2 <= k < perm.size:
            raise ValueError(f"n_train={n_train!r} gives {k} training samples out of {perm.size}")
        train, rest = perm[:k], perm[k:]
    if test_pool is not None:
        rest = test_pool
    if n_test is not None:
        k = int(round(n_test * n)) if n_test < 1 else int(n_test)
        if k > rest.size:
            raise ValueError(f"n_test={n_test!r} asks {k} test samples, only {rest.size} left")
        rest = rest[:k]
    return np.sort(train), np.sort(rest)


def binarize_labels(y, positive):
    """Two classes from many: 1 where ``y`` is one of ``positive``, 0 elsewhere.

    Wang's binarised USPS (Ramona et al., Table V): digits 0-4 against 5-9.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
    positive : sequence
        The original labels of the first class.

    Returns
    -------
    ndarray of shape (n_samples,), int
    """
    y = np.asarray(y)
    found = np.isin(np.asarray(positive), y)
    if not found.all():
        missing = np.asarray(positive)[~found].tolist()
        raise ValueError(f"binarize: labels {missing} do not occur in the data")
    y2 = np.isin(y, positive).astype(int)
    if np.unique(y2).size < 2:
        raise ValueError("binarize: every sample falls in the same class")
    return y2


def selection_subset(train, y, rng, per_class):
    """``per_class`` random training samples of every class (a feature-selection subset).

    Wang's protocol (Ramona et al., Section V-C2, Table V): the features are selected on m = 7
    samples of each class, the SVM is trained on the whole training sample.

    Parameters
    ----------
    train : ndarray of int
        Training indices.
    y : ndarray of shape (n_samples,)
    rng : numpy Generator
    per_class : int

    Returns
    -------
    ndarray of int
        Sorted indices, a subset of ``train``.
    """
    perm = rng.permutation(train)
    labels = y[perm]
    parts = []
    for c in np.unique(labels):
        members = perm[labels == c]
        if members.size < per_class:
            raise ValueError(
                f"select_per_class={per_class}: class {c!r} has {members.size} training samples"
            )
        parts.append(members[:per_class])
    return np.sort(np.concatenate(parts))


def pairwise_errors(
    X,
    y,
    train,
    select,
    test,
    *,
    method: str,
    kernel: str,
    n_selected,
    degree: int = 3,
    standardize: bool = True,
    method_options=None,
    random_state=None,
):
    """Errors of the pairwise protocol (Section V-B4) for every S: one ranking and one SVM per
    pair of classes, class posteriors by pairwise coupling.

    For each of the C(C−1)/2 pairs (a, b) the method ranks the features on the pair's samples
    of ``select``; an SVM with Platt-scaled probabilities (:func:`fit_svm`) is trained on the
    pair's samples of ``train`` restricted to that pair's S best features and gives
    r_ab = P(a | a or b) at every test point; :func:`~rlsbench.studies.ramona.coupling.
    pairwise_coupling` (weights n_ab = the pair's training samples) turns the r_ab into class
    posteriors, and a test point goes to its most probable class.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    train, select, test : ndarrays of int
        Training samples of the SVMs, samples the rankings see (a subset of ``train``), test
        samples.
    method, kernel : str
        As in :func:`rank`; "svm" keeps every feature.
    n_selected : sequence of int
        The S values.
    method_options : dict or None
        Options of the ranker (:func:`make_ranker`).
    random_state : int or None
        Seed of the SVMs' Platt scaling (its internal cross-validation).

    Returns
    -------
    results : list of (S, error, selected)
        error: fraction of misclassified test points; selected: sorted ndarray, the union of
        the pairs' S best features.
    seconds : float
        Wall time of the C(C−1)/2 rankings.
    """
    classes = np.unique(y[train])
    pairs = list(combinations(range(classes.size), 2))
    orders, seconds = {}, 0.0
    for a, b in pairs:
        mine = select[np.isin(y[select], classes[[a, b]])]
        orders[a, b], sec = rank(
            method,
            kernel,
            X[mine],
            np.where(y[mine] == classes[a], 1, -1),
            degree=degree,
            standardize=standardize,
            **(method_options or {}),
        )
        seconds += sec
    K, X_test = classes.size, X[test]
    results = []
    for S in n_selected:
        R = np.full((test.size, K, K), 0.5)
        weights = np.ones((K, K))
        union = set()
        for a, b in pairs:
            keep = orders[a, b][:S]
            mine = train[np.isin(y[train], classes[[a, b]])]
            svc, scaler = fit_svm(
                X[mine][:, keep],
                np.where(y[mine] == classes[a], 1, -1),
                kernel,
                degree=degree,
                standardize=standardize,
                probability=True,
                random_state=random_state,
            )
            Z = X_test[:, keep] if scaler is None else scaler.transform(X_test[:, keep])
            r = svc.predict_proba(Z)[:, list(svc.classes_).index(1)]
            R[:, a, b], R[:, b, a] = r, 1.0 - r
            weights[a, b] = weights[b, a] = mine.size
            union.update(keep.tolist())
        posterior = pairwise_coupling(R, weights)
        error = float(np.mean(classes[np.argmax(posterior, axis=1)] != y[test]))
        results.append((int(S), error, np.array(sorted(union), dtype=int)))
    return results, seconds


def realdata_rows(
    X,
    y,
    *,
    experiment: str,
    dataset: str,
    method: str,
    kernel: str,
    n_selected,
    n_train,
    n_test=None,
    train_per_class=None,
    pools=None,
    n_repeats=30,
    degree=3,
    standardize=True,
    binarize=None,
    select_per_class=None,
    method_options=None,
    multiclass="joint",
    seed=0,
    n_jobs=1,
) -> list[dict]:
    """Section V-B/C: error of an SVM on the S best-ranked features, for every S.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    binarize : sequence or None
        Original labels of the first class of a two-class version of the data (Table V:
        digits 0-4 of USPS against 5-9); the rows name the dataset ``<dataset>-binary``.
    select_per_class : int or None
        Rank the features on this many random training samples per class only, then train
        the SVM on the whole training sample (Table V, Wang's protocol); None: rank on the
        whole training sample (Section V-B).
    method_options : dict or None
        Options of this method's ranker: ``n_iter`` (fixed number of iterations, tolerance 0)
        and the method's own (SCSS ``epsilon``, R2W2 ``radius``, KFDS ``mu``;
        :func:`make_ranker`).
    multiclass : {"joint", "pairwise"}
        "joint": rank once on all classes, one SVM (sklearn's one-vs-one SVC, majority vote);
        "pairwise": a ranking and an SVM per pair of classes, coupled
        (:func:`pairwise_errors`, the paper's USPS protocol).
    n_jobs : int
        Threads: the repetitions run on up to ``n_jobs`` joblib workers of one BLAS thread each
        (:func:`~rlsbench.benchmark.parallel.map_tasks`); the rows do not depend on it.
    Other parameters: see :func:`draw_split` and :func:`svm_error`.

    Returns
    -------
    list of dict
        One row per (repeat, S): experiment, dataset, kernel, method, repeat, n_selected,
        error, fit_seconds, n_train, n_test, n_select (samples the ranking saw); pairwise
        rows add multiclass and selected (the union of the pairs' S best features,
        space-separated).
    """
    if multiclass not in MULTICLASS:
        raise ValueError(f"multiclass must be one of {MULTICLASS}, got {multiclass!r}")
    if not method_applies(method, kernel):
        return []
    options = dict(method_options or {})
    unknown = set(options) - {"n_iter", *method_options_of(method)}
    if unknown:
        raise ValueError(f"method_options of {method!r}: unknown option(s) {sorted(unknown)}")
    D = X.shape[1]
    bad = [s for s in n_selected if not 1 <= s <= D]
    if bad:
        raise ValueError(f"n_selected {bad} out of range 1..{D} for dataset {dataset!r}")
    if binarize is not None:
        y = binarize_labels(y, binarize)
        dataset = f"{dataset}-binary"
    settings = dict(
        experiment=experiment,
        dataset=dataset,
        method=method,
        kernel=kernel,
        n_selected=list(n_selected) if method != "svm" else [D],
        n_train=n_train,
        n_test=n_test,
        train_per_class=train_per_class,
        pools=pools,
        degree=degree,
        standardize=standardize,
        select_per_class=select_per_class,
        options=options,
        multiclass=multiclass,
        seed=seed,
    )
    # the repetitions are independent (each draws its split from its own seed), so they run
    # side by side on the job's threads with the same rows as one after another
    per_repeat = map_tasks(
        _repeat_rows,
        [(X, y, r, settings) for r in range(n_repeats)],
        n_jobs=n_jobs,
        what="repetition",
        label=lambda task: f"{method} repetition {task[2]}",
    )
    return [row for rows in per_repeat for row in rows]


def _repeat_rows(X, y, r, settings, *, n_jobs=1):
    """The rows of repetition ``r`` of :func:`realdata_rows` (``settings``: its arguments);
    ``n_jobs``: the threads :func:`~rlsbench.benchmark.parallel.map_tasks` gives it (its
    BLAS pools are already capped to them)."""
    s = settings
    method, kernel, degree, standardize = s["method"], s["kernel"], s["degree"], s["standardize"]
    # the split depends on (seed, dataset, repeat) only: the same for every method/kernel
    rng = np.random.default_rng(
        np.random.SeedSequence([int(s["seed"]), r, *map(ord, s["dataset"])])
    )
    tr, te = draw_split(
        y,
        rng,
        n_train=s["n_train"],
        n_test=s["n_test"],
        train_per_class=s["train_per_class"],
        pools=s["pools"],
    )
    per_class = s["select_per_class"]
    sel = tr if per_class is None else selection_subset(tr, y, rng, per_class)
    common = dict(
        experiment=s["experiment"], dataset=s["dataset"], kernel=kernel, method=method, repeat=r
    )
    sizes = dict(n_train=int(tr.size), n_test=int(te.size), n_select=int(sel.size))
    if s["multiclass"] == "pairwise":
        results, sec = pairwise_errors(
            X,
            y,
            tr,
            sel,
            te,
            method=method,
            kernel=kernel,
            n_selected=s["n_selected"],
            degree=degree,
            standardize=standardize,
            method_options=s["options"],
            random_state=int(rng.integers(2**31 - 1)),
        )
        return [
            dict(
                **common,
                n_selected=S,
                error=err,
                fit_seconds=sec,
                **sizes,
                multiclass=s["multiclass"],
                selected=" ".join(map(str, union)),
            )
            for S, err, union in results
        ]
    order, sec = rank(
        method, kernel, X[sel], y[sel], degree=degree, standardize=standardize, **s["options"]
    )
    rows = []
    for S in s["n_selected"]:
        keep = order[:S]
        err = svm_error(
            X[tr][:, keep],
            y[tr],
            X[te][:, keep],
            y[te],
            kernel,
            degree=degree,
            standardize=standardize,
        )
        rows.append(dict(**common, n_selected=int(S), error=err, fit_seconds=sec, **sizes))
    return rows


# -- Section VI-C: CPU time -------------------------------------------------------------------
def timing_problem(n_samples: int, n_features: int, seed=0):
    """Two Gaussian classes, the first min(5, D) features shifted by ±0.5 (timing data)."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n_samples) % 2 == 0, 1.0, -1.0)
    X = rng.normal(size=(n_samples, n_features))
    X[:, : min(5, n_features)] += 0.5 * y[:, None]
    return X, y


def cputime_rows(
    axis: str,
    grid,
    *,
    fixed: int = 30,
    methods=("arom", "rfe", "sas", "kfds"),
    n_iter: int = 10,
    n_repeats: int = 5,
    method_options=None,
    seed=0,
) -> list[dict]:
    """Tables VIII (axis "N": samples grow, D = fixed) and IX (axis "D": features grow).

    Every iterative method runs exactly ``n_iter`` iterations (Section VI-C), so the work of a
    cell is fixed by its (method, N, D) and no time decides what is computed. A cell's time
    is the median over ``n_repeats`` runs (robust to a run slowed by other load on the
    machine; the minimum is kept beside it). Run with one BLAS thread by the caller.
    ``method_options``: method -> its ranker's options (:func:`make_ranker`; ``n_iter`` is
    this function's own and wins).

    Returns
    -------
    list of dict
        axis, N, D, method, seconds (median over repeats), seconds_min, repeats.
    """
    if axis not in ("N", "D"):
        raise ValueError(f"axis must be 'N' or 'D', got {axis!r}")
    rows = []
    for v in grid:
        N, D = (int(v), fixed) if axis == "N" else (fixed, int(v))
        X, y = timing_problem(N, D, seed=seed)
        for method in methods:
            kernel = "rbf" if method in ("sas", "scss", "sfs", "r2w2") else "linear"
            times = []
            for _ in range(n_repeats):
                options = {**(method_options or {}).get(method, {}), "n_iter": n_iter}
                ranker = make_ranker(method, kernel, **options)
                with Stopwatch() as clock:
                    ranker.fit(X, y)
                times.append(clock.wall_s)
            rows.append(
                dict(
                    axis=axis,
                    N=N,
                    D=D,
                    method=method,
                    seconds=float(np.median(times)),
                    seconds_min=float(np.min(times)),
                    repeats=n_repeats,
                )
            )
    return rows
