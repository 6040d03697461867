"""scikit-learn selectors around the RLS forward-selection core and every installed method.

Thin classes: they validate parameters (``_parameter_constraints``), map labels to ±1 columns,
optionally choose λ by the LOO grid search on all features, call a function of
:mod:`rlsbench.numerics.selection` (or, for :class:`PluginSelector`, any method of the
``rlsbench.methods`` entry-point group), and store the fitted state. ``predict`` and
``decision_function`` use the RLS model on the selected features after the last addition.

A selector declares its task to scikit-learn before it sees data: ``task="auto"`` (the
default) and ``task="classification"`` make it a classifier (``is_classifier`` is True), so
``GridSearchCV(selector, cv=5)`` and ``cross_val_score`` split with ``StratifiedKFold`` when
``y`` holds class labels, and with a plain ``KFold`` when ``y`` holds real values (scikit-learn's
``check_cv`` stratifies binary and multiclass targets only); ``task="regression"`` makes it a
regressor. ``task="auto"`` still decides the model from ``y`` at fit time: real targets are fitted
as regression (``predict`` returns values, ``score`` is R²), which scikit-learn's classifier checks
``check_classifiers_regression_target`` and ``check_classifier_multioutput`` (2-d 0/1 targets
are real outputs side by side here) do not expect; pass ``task="regression"`` for a regressor.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from array_api_compat import device
from sklearn import get_config
from sklearn.base import BaseEstimator, _fit_context
from sklearn.feature_selection import SelectorMixin
from sklearn.preprocessing import LabelBinarizer, StandardScaler
from sklearn.utils import ClassifierTags, RegressorTags, check_random_state
from sklearn.utils._param_validation import (
    Interval,
    InvalidParameterError,
    RealNotInt,
    StrOptions,
    validate_parameter_constraints,
)
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from rlsbench.benchmark.methods import distribution_of, get_method, method_names
from rlsbench.benchmark.protocol_settings import DEFAULT_LAMBDA_GRID
from rlsbench.errors import RLSBenchError
from rlsbench.numerics.array_api import non_numpy_namespace, to_numpy
from rlsbench.numerics.ridgecv.loo_grid import choose_alpha_gram
from rlsbench.numerics.selection import greedy_rls, lowrank_lssvm, ridge_path, wrapper
from rlsbench.numerics.selection.lowrank import DEFAULT_MAX_MEMORY_BYTES
from rlsbench.numerics.validation import check_k

__all__ = [
    "GreedyRLS",
    "LowRankLSSVM",
    "WrapperRLS",
    "RandomSelector",
    "PluginSelector",
    "UnsupportedTaskError",
    "DEFAULT_ALPHAS",
]

try:  # scikit-learn >= 1.8: the error of a predict/transform in another array namespace
    from sklearn.utils._array_api import check_same_namespace as _check_same_namespace
except ImportError:  # pragma: no cover - older scikit-learn: no such check

    def _check_same_namespace(X, estimator, *, attribute, method):
        return None


#: λ grid of ``alpha="loo"`` when ``alphas`` is None: 2^-15 … 2^15, the protocol's default grid.
DEFAULT_ALPHAS = DEFAULT_LAMBDA_GRID.values()


#: Steps of the first run of ``n_features_to_select="auto"`` with a ``tol`` (doubled until the
#: criterion stops falling by ``tol``).
_AUTO_FIRST_STEPS = 8


def _steps_before_tol(criterion, tol):
    """Steps kept by the ``tol`` rule: the first addition always, then each one while the LOO
    criterion (lower is better) falls by at least ``tol``; a NaN criterion stops the path."""
    fall = np.asarray(criterion[:-1]) - np.asarray(criterion[1:])
    below = np.flatnonzero(~(fall >= tol))
    return int(below[0]) + 1 if below.size else int(len(criterion))


class _RLSSelector(SelectorMixin, BaseEstimator):
    """Common parameters, label handling and prediction of the RLS selectors."""

    _parameter_constraints: dict = {
        "n_features_to_select": [
            None,
            StrOptions({"auto"}),
            Interval(Integral, 1, None, closed="left"),
            Interval(RealNotInt, 0, 1, closed="right"),
        ],
        "alpha": [Interval(Real, 0, None, closed="neither"), StrOptions({"loo"})],
        "alphas": ["array-like", None],
        "criterion": [StrOptions({"squared", "zero_one"})],
        "bias": [Interval(Real, None, None, closed="neither")],
        "task": [StrOptions({"auto", "classification", "regression"})],
        "tol": [None, Interval(Real, 0, None, closed="neither")],
    }

    def __init__(
        self,
        n_features_to_select=None,
        *,
        alpha=1.0,
        alphas=None,
        criterion="squared",
        bias=1.0,
        task="auto",
        tol=None,
    ):
        self.n_features_to_select = n_features_to_select
        self.alpha = alpha
        self.alphas = alphas
        self.criterion = criterion
        self.bias = bias
        self.task = task
        self.tol = tol

    #: Whether ``fit`` takes arrays of other array-API libraries (CuPy, PyTorch) under
    #: ``sklearn.config_context(array_api_dispatch=True)``; only greedy RLS has such a path.
    _array_api_support = False
    #: Whether ``y`` may hold several real targets (the RLS numerics fit them side by side).
    _multi_output = True

    # -- hooks -------------------------------------------------------------------------
    def _select(self, X, Y, k, alpha):  # pragma: no cover - abstract
        raise NotImplementedError

    def _namespace(self, X):
        """The array-API namespace of ``X`` under ``array_api_dispatch`` (None: NumPy code)."""
        xp = non_numpy_namespace(X) if get_config()["array_api_dispatch"] else None
        if xp is not None and not self._array_api_support:
            raise TypeError(
                f"{type(self).__name__} supports NumPy input only; GreedyRLS (greedy_rls) runs "
                f"on other array libraries (got {type(X).__module__}.{type(X).__name__})"
            )
        return xp

    # -- fitting ---------------------------------------------------------------------
    def _is_classification(self, y):
        if self.task != "auto":
            return self.task == "classification"
        kind = type_of_target(y)
        if kind == "binary":
            return True
        # Integer-valued floats (e.g. counts) stay regression unless asked otherwise.
        return kind == "multiclass" and (self.criterion == "zero_one" or y.dtype.kind not in "fc")

    def _encode_targets(self, y):
        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] == 1:
            y = y[:, 0]
        if y.ndim == 1 and self._is_classification(y):
            binarizer = LabelBinarizer(neg_label=-1, pos_label=1)
            Y = binarizer.fit_transform(y).astype(np.float64)
            if binarizer.classes_.size < 2:
                # every feature set "classifies" a single class perfectly (accuracy 1.000)
                raise ValueError(
                    f"y has a single class ({binarizer.classes_[0]}): classification needs "
                    "at least two classes; pass task='regression' for a constant real target"
                )
            self.classes_ = binarizer.classes_
            if Y.shape[1] == 1:
                Y = Y[:, 0]
            return Y
        if self.task == "classification":
            raise ValueError("task='classification' needs y of shape (n_samples,)")
        return np.asarray(y, dtype=np.float64)

    def _n_features(self, n_features):
        k = self.n_features_to_select
        if k is None or k == "auto":
            return max(1, n_features // 2)
        if isinstance(k, Integral):
            return check_k(k, n_features, name="n_features_to_select")
        return max(1, int(k * n_features))

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Select features on ``(X, y)`` and fit the RLS model on them.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_targets)
            Class labels (mapped to ±1, one-vs-rest for more than two classes) or real
            targets.

        Returns
        -------
        self
        """
        return self._fit(X, y)

    def _fit(self, X, y, sample_weight=None):
        """:meth:`fit`; ``sample_weight`` (validated here) only from a selector whose
        ``fit`` takes it (:class:`GreedyRLS`)."""
        grid = self._alpha_grid()
        xp = self._namespace(X)
        X, y = validate_data(
            self,
            X,
            y,
            dtype=np.float64 if xp is None else xp.float64,
            multi_output=self._takes_multi_output(),
            ensure_min_samples=2,
            y_numeric=False,
        )
        if hasattr(self, "classes_"):
            del self.classes_
        if xp is None:
            Y = self._encode_targets(y)
        else:  # labels are encoded on the host (m values); X stays on its device
            Y = xp.asarray(self._encode_targets(to_numpy(y)), device=device(X))
        weights = self._sample_weight(X, y, sample_weight, xp)
        k = self._n_features(X.shape[1])
        X = self._prepare(X, Y)
        if self.alpha == "loo":
            self.alpha_ = choose_alpha_gram(
                X, Y, grid, bias=self.bias, criterion=self.criterion, sample_weight=weights
            )
        else:
            self.alpha_ = float(self.alpha)
        path = self._select_path(X, Y, k, self.alpha_, weights)
        self.path_ = path
        self.n_features_to_select_ = path.n_steps
        self.selected_ = path.selected.copy()
        self.loo_path_ = path.criterion.copy()
        self.loo_mse_path_ = path.loo_mse.copy()
        weights = path.coef_path[-1, ...]  # (k,) or (k, t)
        if xp is not None:
            self._set_weights_xp(X, path, weights, xp)
            # every fitted array in the input's namespace and device (scikit-learn's rule)
            for name in ("selected_", "loo_path_", "loo_mse_path_"):
                setattr(self, name, xp.asarray(getattr(self, name), device=device(X)))
            return self
        if weights.ndim == 1:
            self.coef_ = np.zeros(X.shape[1])
            self.coef_[self.selected_] = weights
        else:
            self.coef_ = np.zeros((weights.shape[1], X.shape[1]))
            self.coef_[:, self.selected_] = weights.T
        intercept = path.intercept_path[-1]
        self.intercept_ = float(intercept) if np.ndim(intercept) == 0 else intercept.copy()
        self._to_input_units()
        return self

    def _alpha_grid(self):
        """The λ grid of ``alpha="loo"`` as a 1-d float64 array of finite values > 0.

        scikit-learn's "array-like" lets through what this refuses: a set (no order), nested
        lists (flattened by NumPy into a grid nobody wrote) and text. The message names the
        estimator (and, for :class:`PluginSelector`, its method) and the parameter.
        """
        if self.alphas is None:
            return DEFAULT_ALPHAS
        owner = self._owner()
        if isinstance(self.alphas, (set, frozenset, dict, str, bytes)):
            raise InvalidParameterError(
                f"The 'alphas' parameter of {owner} must be a 1-d array-like of λ values > 0, "
                f"got a {type(self.alphas).__name__}: {self.alphas!r}"
            )
        try:
            grid = np.asarray(self.alphas, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise InvalidParameterError(
                f"The 'alphas' parameter of {owner} must hold real numbers: {exc}"
            ) from exc
        if grid.ndim != 1 or grid.size == 0:
            raise InvalidParameterError(
                f"The 'alphas' parameter of {owner} must be a non-empty 1-d array-like of λ "
                f"values, got shape {grid.shape}"
            )
        bad = grid[~(np.isfinite(grid) & (grid > 0))]
        if bad.size:
            raise InvalidParameterError(
                f"The 'alphas' parameter of {owner} must hold finite λ values > 0, got "
                f"{float(bad[0])!r}"
            )
        return grid

    def _owner(self):
        """The estimator as parameter errors name it."""
        return type(self).__name__

    def _sample_weight(self, X, y, sample_weight, xp):
        """The examples' weights (None: unweighted) from ``sample_weight`` and, where the
        selector has one, ``class_weight``; a ValueError naming the parameter otherwise."""
        class_weight = getattr(self, "class_weight", None)
        if sample_weight is None and class_weight is None:
            return None
        if xp is not None:
            raise ValueError(
                f"{type(self).__name__}: sample_weight and class_weight take NumPy input only "
                f"(got {type(X).__module__}.{type(X).__name__})"
            )
        if self.criterion == "zero_one":
            raise ValueError(
                f"{type(self).__name__}: sample_weight and class_weight need "
                "criterion='squared' (the zero-one LOO criterion counts examples, not weights)"
            )
        try:
            weights = _check_sample_weight(
                sample_weight, X, dtype=np.float64, ensure_non_negative=True
            )
        except ValueError as exc:  # scikit-learn's messages do not all name the parameter
            raise ValueError(f"{type(self).__name__}: sample_weight: {exc}") from exc
        if class_weight is not None:
            if not hasattr(self, "classes_"):
                raise ValueError(
                    f"{type(self).__name__}: class_weight needs class labels, and y was fitted "
                    "as real targets (regression); pass task='classification' for labels or "
                    "leave class_weight=None"
                )
            weights = weights * compute_sample_weight(class_weight, np.asarray(y))
        if hasattr(self, "classes_"):
            labels = np.asarray(y)[weights > 0]
            if np.unique(labels).size < 2:
                raise ValueError(
                    f"{type(self).__name__}: the examples of positive sample_weight hold a "
                    f"single class ({labels[0]}): classification needs at least two classes"
                )
        return weights

    def _select_path(self, X, Y, k, alpha, sample_weight=None):
        """The path of ``k`` steps, or with ``n_features_to_select="auto"`` and a ``tol`` the
        path that stops where the LOO criterion falls by less than ``tol``.

        The stopping step is unknown before the run, so runs of 8, 16, 32, ... steps (at most
        all features) go until one holds a step whose fall is below ``tol``; the kept prefix
        is then selected afresh, so that ``path_`` is the run of that many steps. The runs
        cost at most about five times the kept selection (four in the runs, one afresh).
        """
        weighted = {} if sample_weight is None else {"sample_weight": sample_weight}
        if self.n_features_to_select != "auto" or self.tol is None:
            return self._select(X, Y, k, alpha, **weighted)
        n_features = X.shape[1]
        steps = min(n_features, _AUTO_FIRST_STEPS)
        while True:
            path = self._select(X, Y, steps, alpha, **weighted)
            kept = _steps_before_tol(to_numpy(path.criterion), self.tol)
            if kept < path.n_steps or steps == n_features:
                break
            steps = min(n_features, 2 * steps)
        return path if kept == path.n_steps else self._select(X, Y, kept, alpha, **weighted)

    def _takes_multi_output(self):
        # class labels are one column; several columns can only be real targets
        return self._multi_output and self.task != "classification"

    def _prepare(self, X, Y):
        """The X the selection runs on (hook: :class:`PluginSelector` standardises)."""
        return X

    def _to_input_units(self):
        """Map ``coef_`` and ``intercept_`` to the units of the X given to ``fit`` (hook)."""

    def _set_weights_xp(self, X, path, weights, xp):
        """``coef_`` and ``intercept_`` in the namespace and on the device of X: the selected
        weights scattered by a one-hot product (the standard has no scatter)."""
        n = X.shape[1]
        dev = device(X)
        sel = xp.asarray(np.asarray(self.selected_, dtype=np.int64), device=dev)
        onehot = xp.astype(
            xp.arange(n, dtype=xp.int64, device=dev)[:, None] == sel[None, :], X.dtype
        )
        coef = onehot @ weights  # (n,) or (n, t): each row one weight or zero
        self.coef_ = coef if coef.ndim == 1 else coef.T
        self.intercept_ = path.intercept_path[-1, ...]

    def transform(self, X):
        """The selected columns of ``X`` (in the order of the columns, not of selection).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        array of shape (n_samples, n_selected)
        """
        check_is_fitted(self)
        _check_same_namespace(X, self, attribute="coef_", method="transform")
        return super().transform(X)

    def inverse_transform(self, X):
        """Columns of ``X`` put back at the selected positions, zeros elsewhere.

        Parameters
        ----------
        X : array of shape (n_samples, n_selected)

        Returns
        -------
        array of shape (n_samples, n_features)
        """
        check_is_fitted(self)
        _check_same_namespace(X, self, attribute="coef_", method="inverse_transform")
        xp = self._namespace(X)
        if xp is None:
            return super().inverse_transform(X)
        # scikit-learn's version allocates with NumPy; a one-hot product scatters on the device
        dev = device(X)
        cols = xp.asarray(np.flatnonzero(self._get_support_mask()), device=dev)
        onehot = xp.astype(
            cols[:, None] == xp.arange(self.n_features_in_, dtype=cols.dtype, device=dev)[None, :],
            X.dtype,
        )
        return X @ onehot

    def _get_support_mask(self):
        check_is_fitted(self)
        mask = np.zeros(self.n_features_in_, dtype=bool)
        mask[to_numpy(self.selected_)] = True
        return mask

    # -- prediction ------------------------------------------------------------------
    def _decision_values(self, X, method):
        """``X @ coef_.T + intercept_``, shape (n_samples,) or (n_samples, n_targets);
        ``method`` names the public caller in errors."""
        check_is_fitted(self)
        _check_same_namespace(X, self, attribute="coef_", method=method)
        xp = self._namespace(X)
        X = validate_data(self, X, dtype=np.float64 if xp is None else xp.float64, reset=False)
        if xp is not None and self.coef_.ndim == 1:
            return X @ self.coef_ + self.intercept_
        return X @ self.coef_.T + self.intercept_

    # scikit-learn's contract: a regressor (task="regression") has no decision_function
    @available_if(lambda self: self.task != "regression")
    def decision_function(self, X):
        """Decision values of the final RLS model (absent when ``task="regression"``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_targets)
        """
        return self._decision_values(X, "decision_function")

    def predict(self, X):
        """Class labels (sign or arg-max of the decision values) or regression values.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_targets)
        """
        check_is_fitted(self)
        _check_same_namespace(X, self, attribute="coef_", method="predict")
        scores = self._decision_values(X, "predict")
        if not hasattr(self, "classes_"):
            return scores
        xp = non_numpy_namespace(scores)
        if xp is not None:  # class indices on the device; labels mapped there when numeric
            idx = xp.astype(scores > 0, xp.int64) if scores.ndim == 1 else xp.argmax(scores, axis=1)
            if self.classes_.dtype.kind in "biuf":
                return xp.take(xp.asarray(self.classes_, device=device(scores)), idx)
            return self.classes_[to_numpy(idx)]
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]

    def score(self, X, y, sample_weight=None):
        """Accuracy for classification, R² for regression: what ``GridSearchCV`` maximises
        when it is given no ``scoring``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_targets)
            True labels (classification) or values (regression).
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        float
            ``accuracy_score(y, predict(X))`` when the estimator was fitted on class labels,
            ``r2_score(y, predict(X))`` (averaged uniformly over outputs) otherwise.
        """
        from sklearn.metrics import accuracy_score, r2_score

        y_pred = self.predict(X)
        if hasattr(self, "classes_"):
            return float(accuracy_score(y, y_pred, sample_weight=sample_weight))
        return float(r2_score(y, y_pred, sample_weight=sample_weight))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.target_tags.multi_output = self._takes_multi_output()
        # is_classifier() reads estimator_type; check_cv stratifies an integer cv on it, and
        # only for binary or multiclass y: "auto" is a classifier so that labels are stratified
        # while real targets still get a plain KFold (tags are per estimator, not per data)
        if self.task in ("auto", "classification"):
            tags.estimator_type = "classifier"
            tags.classifier_tags = ClassifierTags()
        elif self.task == "regression":
            tags.estimator_type = "regressor"
            tags.regressor_tags = RegressorTags()
        return tags


class GreedyRLS(_RLSSelector):
    """Greedy RLS feature selection (Pahikkala et al., Algorithm 3), O(kmn).

    Parameters
    ----------
    n_features_to_select : int, float, "auto" or None, default=None
        Number of features (int), fraction of the features (float in (0, 1]), or None for
        half of them. "auto" (as scikit-learn's ``SequentialFeatureSelector``): half of them
        when ``tol`` is None, else the stopping rule of ``tol``.
    alpha : float > 0 or "loo", default=1.0
        λ of RLS; "loo" picks it from ``alphas`` by the LOO criterion on all features.
    alphas : array-like of shape (R,) or None, default=None
        Grid for ``alpha="loo"``; None = ``2.0 ** np.arange(-15, 16)``.
    criterion : {"squared", "zero_one"}, default="squared"
        LOO criterion minimised at each addition.
    bias : float, default=1.0
        Value of the constant bias feature (0 = none); regularized like the others.
    task : {"auto", "classification", "regression"}, default="auto"
        "auto": binary targets and non-float multiclass labels are classification (labels
        mapped to ±1, one-vs-rest), everything else regression. The task is declared to
        scikit-learn before any data is seen: "auto" and "classification" make a classifier
        (``is_classifier`` is True), so an integer ``cv`` (``GridSearchCV``,
        ``cross_val_score``) is a ``StratifiedKFold`` when ``y`` holds class labels and a
        plain ``KFold`` when it holds real values (scikit-learn's ``check_cv`` looks at
        ``y``); "regression" makes a regressor.
    tol : float > 0 or None, default=None
        With ``n_features_to_select="auto"``: stop adding features when an addition lowers
        the LOO criterion by less than ``tol`` (the first feature is always added). The
        criterion is an error, lower is better: scikit-learn's ``tol`` is a rise of a score,
        this one a fall of an error, both required > 0 for forward selection. Ignored for
        other ``n_features_to_select``.
    backend : {"auto", "numba", "numpy", "array_api", "cuda"}, default="auto"
        Implementation (see :func:`rlsbench.numerics.selection.greedy_rls`); "auto" runs the
        numba kernels on NumPy input and, on CUDA arrays, the numba-cuda kernels. "numba"
        and "numpy" apply to NumPy input and mean "auto" for other arrays.
    n_jobs : int or None, default=None
        Threads of the numba kernel.
    class_weight : dict, "balanced" or None, default=None
        Weights of the classes (class labels only): each example's weight is multiplied by
        its class's, as scikit-learn's ``compute_sample_weight(class_weight, y)`` gives them
        ("balanced": ``n_samples / (n_classes * count of the class)``).

    Notes
    -----
    Weights (``fit``'s ``sample_weight``, times the class weights) make it weighted least
    squares, run as the same algorithm on the rows of X and of the ±1 (or real) targets
    scaled by ``sqrt(w_j)``: example j's squared loss counts ``w_j`` times; the penalty
    ``λ‖w‖²``, the bias weight's included, is not weighted (so scaling all weights by c is
    λ divided by c); the bias feature is the column ``bias·sqrt(w)``, in the model from the
    start (there is no centering). The LOO criterion, ``loo_path_``, ``loo_mse_path_`` and the
    ``alpha="loo"`` search use the weighted LOO squared error
    ``Σ_j w_j (y_j - p_j)² / Σ_j w_j``, with ``p_j`` the weighted model trained without
    example j (all of its weight). So a zero weight is the same as dropping the example, and
    weights of ones are no weights. An integer weight fits the same RLS model on given
    features as repeating the row, but its LOO leaves all the copies out together where the
    repeated rows leave one copy out: the selections (hence ``coef_``) may differ.
    ``criterion="zero_one"`` (a count of examples) and input of other array libraries do not
    take weights.

    Follows scikit-learn's array API support: inside
    ``sklearn.config_context(array_api_dispatch=True)`` (with ``SCIPY_ARRAY_API=1`` in the
    environment), ``fit`` takes CuPy arrays, PyTorch tensors (on ``cuda`` or the CPU) and any
    other array-API array, runs greedy RLS (and the LOO λ search) on their device, and keeps
    its fitted arrays (``coef_``, ``intercept_``, ``selected_``, the LOO paths) there;
    ``path_`` holds NumPy arrays but for its weights.

    Attributes
    ----------
    selected_ : ndarray of shape (k,)
        Selected feature indices in selection order.
    loo_path_ : ndarray of shape (k,)
        LOO criterion after each addition.
    loo_mse_path_ : ndarray of shape (k,)
        Mean squared LOO error after each addition.
    coef_ : ndarray of shape (n_features,) or (n_targets, n_features)
        Final weights, zero outside the selection.
    intercept_ : float or ndarray of shape (n_targets,)
    alpha_ : float
    classes_ : ndarray of shape (n_classes,)
        Only for classification.
    path_ : SelectionPath
    n_features_in_ : int
    n_features_to_select_ : int

    References
    ----------
    T. Pahikkala, A. Airola, T. Salakoski. Linear time feature selection for regularized
    least-squares. arXiv:1003.3570.
    """

    _parameter_constraints: dict = {
        **_RLSSelector._parameter_constraints,
        "backend": [StrOptions({"auto", "numba", "numpy", "array_api", "cuda"})],
        "n_jobs": [None, Interval(Integral, 1, None, closed="left")],
        "class_weight": [dict, StrOptions({"balanced"}), None],
    }
    _array_api_support = True

    def __init__(
        self,
        n_features_to_select=None,
        *,
        alpha=1.0,
        alphas=None,
        criterion="squared",
        bias=1.0,
        task="auto",
        tol=None,
        backend="auto",
        n_jobs=None,
        class_weight=None,
    ):
        super().__init__(
            n_features_to_select,
            alpha=alpha,
            alphas=alphas,
            criterion=criterion,
            bias=bias,
            task=task,
            tol=tol,
        )
        self.backend = backend
        self.n_jobs = n_jobs
        self.class_weight = class_weight

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.array_api_support = True
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Select features on ``(X, y)`` and fit the RLS model on them.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_targets)
            Class labels (mapped to ±1, one-vs-rest for more than two classes) or real
            targets.
        sample_weight : array-like of shape (n_samples,) or None, default=None
            Weights ``>= 0`` of the examples, not all zero (see Notes: weighted least
            squares and the weighted LOO criterion); multiplied by ``class_weight``'s.

        Returns
        -------
        self
        """
        return self._fit(X, y, sample_weight)

    def _select(self, X, Y, k, alpha, sample_weight=None):
        backend = self.backend
        if backend in ("numba", "numpy") and non_numpy_namespace(X) is not None:
            backend = "auto"  # the CPU kernels' choice means nothing for other arrays
        return greedy_rls(
            X,
            Y,
            k,
            alpha,
            bias=self.bias,
            criterion=self.criterion,
            backend=backend,
            n_jobs=self.n_jobs,
            sample_weight=sample_weight,
        )


class LowRankLSSVM(_RLSSelector):
    """Low-rank updated LS-SVM feature selection (Ojeda et al.; Algorithm 2), O(km²n).

    Same parameters and attributes as :class:`GreedyRLS` (without ``backend``/``n_jobs``;
    NumPy input only: a CuPy or PyTorch array raises ``TypeError``, only GreedyRLS runs on
    other array libraries),
    plus

    Parameters
    ----------
    max_memory_bytes : int or None, default=2 GiB
        Refuse to fit when the m×m working memory exceeds this budget (None = no limit).
    """

    _parameter_constraints: dict = {
        **_RLSSelector._parameter_constraints,
        "max_memory_bytes": [None, Interval(Integral, 1, None, closed="left")],
    }

    def __init__(
        self,
        n_features_to_select=None,
        *,
        alpha=1.0,
        alphas=None,
        criterion="squared",
        bias=1.0,
        task="auto",
        tol=None,
        max_memory_bytes=DEFAULT_MAX_MEMORY_BYTES,
    ):
        super().__init__(
            n_features_to_select,
            alpha=alpha,
            alphas=alphas,
            criterion=criterion,
            bias=bias,
            task=task,
            tol=tol,
        )
        self.max_memory_bytes = max_memory_bytes

    def _select(self, X, Y, k, alpha):
        return lowrank_lssvm(
            X,
            Y,
            k,
            alpha,
            bias=self.bias,
            criterion=self.criterion,
            max_memory_bytes=self.max_memory_bytes,
        )


class WrapperRLS(_RLSSelector):
    """Standard wrapper forward selection with RLS (Algorithm 1).

    Same parameters and attributes as :class:`GreedyRLS` (without ``backend``/``n_jobs``;
    NumPy input only: a CuPy or PyTorch array raises ``TypeError``, only GreedyRLS runs on
    other array libraries),
    plus

    Parameters
    ----------
    loo : {"shortcut", "blackbox"}, default="shortcut"
        LOO of each candidate set by the shortcut (eq. 7/8) or by m retrainings.
    """

    _parameter_constraints: dict = {
        **_RLSSelector._parameter_constraints,
        "loo": [StrOptions({"shortcut", "blackbox"})],
    }

    def __init__(
        self,
        n_features_to_select=None,
        *,
        alpha=1.0,
        alphas=None,
        criterion="squared",
        bias=1.0,
        task="auto",
        tol=None,
        loo="shortcut",
    ):
        super().__init__(
            n_features_to_select,
            alpha=alpha,
            alphas=alphas,
            criterion=criterion,
            bias=bias,
            task=task,
            tol=tol,
        )
        self.loo = loo

    def _select(self, X, Y, k, alpha):
        return wrapper(X, Y, k, alpha, bias=self.bias, criterion=self.criterion, loo=self.loo)


class RandomSelector(_RLSSelector):
    """Random feature selection with the RLS model on the drawn features (sanity baseline).

    Same parameters and attributes as :class:`GreedyRLS` (without ``backend``/``n_jobs``;
    NumPy input only, as the other selectors but GreedyRLS);
    ``criterion`` only defines ``loo_path_``. Plus

    Parameters
    ----------
    random_state : int, RandomState instance or None, default=None
    """

    _parameter_constraints: dict = {
        **_RLSSelector._parameter_constraints,
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        n_features_to_select=None,
        *,
        alpha=1.0,
        alphas=None,
        criterion="squared",
        bias=1.0,
        task="auto",
        tol=None,
        random_state=None,
    ):
        super().__init__(
            n_features_to_select,
            alpha=alpha,
            alphas=alphas,
            criterion=criterion,
            bias=bias,
            task=task,
            tol=tol,
        )
        self.random_state = random_state

    def _select(self, X, Y, k, alpha):
        order = check_random_state(self.random_state).permutation(X.shape[1])[:k]
        path = ridge_path(X, Y, order, alpha, bias=self.bias, criterion=self.criterion)
        path.info.update(method="random")
        return path


class UnsupportedTaskError(ValueError, RLSBenchError):
    """A target a method does not support (its ``Method.tasks``); the message names the
    method, its distribution, the target's task and the tasks the method supports."""


class PluginSelector(_RLSSelector):
    """Any installed selection method (entry-point group ``rlsbench.methods``) as a
    scikit-learn selector.

    ``fit`` runs the method as the evaluation protocol does
    (:func:`rlsbench.benchmark.protocol.run_select_job`): features standardised on the data
    given to ``fit`` (``standardize=True``), class labels mapped to ±1 (one-vs-rest ±1 columns
    for more than two classes), λ fixed or chosen by the LOO grid search of RLS on all
    features, then :meth:`rlsbench.benchmark.methods.Method.select`. ``predict`` and
    ``decision_function`` use the method's RLS model after its last step, mapped back to the
    units of the X given to ``fit``.

    Parameters
    ----------
    method : str, default="greedy_rls"
        Name of an installed method (:func:`rlsbench.benchmark.methods.method_names`),
        checked when ``fit`` runs: importing rlsbench reads no entry point.
    n_features_to_select : int, float, "auto" or None, default=None
        Number of features (int), fraction of the features (float in (0, 1]), or None for
        half of them. "auto" (as scikit-learn's ``SequentialFeatureSelector``): half of them
        when ``tol`` is None, else the stopping rule of ``tol``.
    alpha : float > 0 or "loo", default=1.0
        λ given to the method; "loo" picks it from ``alphas`` by the LOO criterion on all
        (standardised) features, as the protocol does. A method with ``own_alpha`` chooses
        its own; ``alpha_`` is then the λ of its last step.
    alphas : array-like of shape (R,) or None, default=None
        Grid for ``alpha="loo"``; None = ``2.0 ** np.arange(-15, 16)``.
    criterion : {"squared", "zero_one"}, default="squared"
        LOO criterion of the wrapper methods.
    bias : float, default=1.0
        Value of the constant bias feature (0 = none); regularized like the others.
    task : {"auto", "classification", "regression"}, default="auto"
        As for :class:`GreedyRLS`: "auto" and "classification" declare a classifier to
        scikit-learn (stratified folds for an integer ``cv`` on class labels), "regression"
        a regressor.
    tol : float > 0 or None, default=None
        As for :class:`GreedyRLS` (the method's criterion after each step; a method without
        one, NaN, stops after its first feature).
    standardize : bool, default=True
        Centre and scale each feature on the data given to ``fit`` before selection: the
        methods' interface assumes standardised features (the protocol's step 2). With False
        the method sees X as given, as the four RLS selectors always do.
    random_state : int, RandomState instance or None, default=None
        Seed of a randomized method: an int is passed as the method's ``seed`` (the same
        features as the protocol's run with that seed), otherwise one integer is drawn.
    n_jobs : int or None, default=1
        Threads the method may use (None = 1).

    Attributes
    ----------
    selected_ : ndarray of shape (k,)
        Selected feature indices in selection order.
    loo_path_, loo_mse_path_ : ndarray of shape (k,)
        The method's criterion and mean squared LOO error after each step.
    coef_ : ndarray of shape (n_features,) or (n_classes, n_features)
        Final weights in the units of the X given to ``fit``, zero outside the selection.
    intercept_ : float or ndarray of shape (n_classes,)
    alpha_ : float
    classes_ : ndarray of shape (n_classes,)
        Only for classification.
    task_ : {"binary", "multiclass", "regression"}
        The target's task, one of the method's ``tasks``.
    path_ : SelectionPath
        The method's path, on the standardised features when ``standardize``.
    scaler_ : StandardScaler or None
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Only when X has column names.
    n_features_to_select_ : int

    Raises
    ------
    UnsupportedTaskError
        At fit, when the target's task is not one of the method's ``tasks``.

    Notes
    -----
    One real target only (``y`` of shape (n_samples,)): the method interface takes several
    columns only as one-vs-rest classes. NumPy input only.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from rlsbench import PluginSelector
    >>> X, y = make_classification(n_samples=60, n_features=8, random_state=0)
    >>> sel = PluginSelector("fisher_score", n_features_to_select=3, task="classification")
    >>> sel.fit(X, y).transform(X).shape
    (60, 3)
    """

    _parameter_constraints: dict = {
        **_RLSSelector._parameter_constraints,
        # the installed names are added by _validate_params when fit runs
        "method": [str],
        "standardize": ["boolean"],
        "random_state": ["random_state"],
        "n_jobs": [None, Interval(Integral, 1, None, closed="left")],
    }
    _multi_output = False

    def __init__(
        self,
        method="greedy_rls",
        n_features_to_select=None,
        *,
        alpha=1.0,
        alphas=None,
        criterion="squared",
        bias=1.0,
        task="auto",
        tol=None,
        standardize=True,
        random_state=None,
        n_jobs=1,
    ):
        super().__init__(
            n_features_to_select,
            alpha=alpha,
            alphas=alphas,
            criterion=criterion,
            bias=bias,
            task=task,
            tol=tol,
        )
        self.method = method
        self.standardize = standardize
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _validate_params(self):
        constraints = {**self._parameter_constraints, "method": [StrOptions(set(method_names()))]}
        validate_parameter_constraints(
            constraints, self.get_params(deep=False), caller_name=type(self).__name__
        )

    def _owner(self):
        return f"PluginSelector(method={self.method!r})"

    def _prepare(self, X, Y):
        method = get_method(self.method)
        if hasattr(self, "classes_"):
            self.task_ = "binary" if self.classes_.size == 2 else "multiclass"
        else:
            self.task_ = "regression"
        if self.task_ not in method.tasks:
            raise UnsupportedTaskError(
                f"method {self.method!r} of {distribution_of(self.method)} does not support "
                f"{self.task_} targets (it supports {', '.join(method.tasks)}); pass "
                "task='classification' or task='regression' if y was read as the wrong task"
            )
        self.scaler_ = StandardScaler().fit(X) if self.standardize else None
        return X if self.scaler_ is None else self.scaler_.transform(X)

    def _select(self, X, Y, k, alpha):
        method = get_method(self.method)
        seed = self.random_state
        if not isinstance(seed, Integral):
            seed = int(check_random_state(seed).randint(np.iinfo(np.int32).max))
        path = method.select(
            X,
            Y,
            alpha=alpha,
            k=k,
            criterion=self.criterion,
            bias=self.bias,
            seed=int(seed),
            n_jobs=1 if self.n_jobs is None else self.n_jobs,
        )
        if method.own_alpha:
            self.alpha_ = float(np.asarray(path.alphas)[-1])
        return path

    def _to_input_units(self):
        # z = (x - mean) / scale, so w·z + b = (w / scale)·x + (b - (w / scale)·mean)
        if self.scaler_ is None:
            return
        self.coef_ = self.coef_ / self.scaler_.scale_
        self.intercept_ = self.intercept_ - self.coef_ @ self.scaler_.mean_
        if np.ndim(self.intercept_) == 0:
            self.intercept_ = float(self.intercept_)
