"""Greedy RLS (Pahikkala, Airola & Salakoski, Algorithm 3): forward selection by LOO in O(kmn)."""

from __future__ import annotations

import contextlib
import dataclasses
import numbers
import time
import warnings

import numpy as np
from array_api_compat import device
from threadpoolctl import threadpool_limits

from rlsbench.numerics.array_api import (
    check_finite_xp,
    check_X_y_xp,
    is_cuda_array,
    non_numpy_namespace,
    to_numpy,
)
from rlsbench.numerics.criteria import best_index, loo_mse
from rlsbench.numerics.rls import _ridge_prefix_path, _ridge_prefix_path_xp
from rlsbench.numerics.selection._common import (
    PathRecorder,
    all_tied,
    bias_shrink,
    check_loo_precision,
    check_sample_weight,
    check_scale,
    check_target_scale,
    initial_dual,
    pick_winner,
    prepare,
    scale_rows,
    warn_tied,
    zero_one_targets,
)
from rlsbench.numerics.selection._scoring import HAVE_NUMBA, get_backend
from rlsbench.numerics.validation import check_alpha, check_bias, check_k

#: Below this many entries of X the numba kernels run on one thread unless ``n_jobs`` says
#: otherwise: a round then takes well under a millisecond, less than waking (or, on a busy
#: machine, waiting for) a second thread at every parallel region.
PARALLEL_MIN_ELEMENTS = 1 << 22


def _check_n_jobs(n_jobs):
    """None or an int >= 1 (the estimators' constraint); 0, -1 would silently mean 1 thread."""
    if n_jobs is None:
        return None
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs < 1:
        raise ValueError(f"n_jobs must be None or an integer >= 1 (threads), got {n_jobs!r}")
    return int(n_jobs)


@contextlib.contextmanager
def _numba_threads(n_jobs):
    if not HAVE_NUMBA or n_jobs is None:
        yield
        return
    import numba

    old = numba.get_num_threads()
    numba.set_num_threads(max(1, min(int(n_jobs), numba.config.NUMBA_NUM_THREADS)))
    try:
        yield
    finally:
        numba.set_num_threads(old)


def greedy_rls(
    X,
    y,
    k,
    alpha,
    *,
    bias=0.0,
    criterion="squared",
    backend="auto",
    n_jobs=None,
    max_pending=None,
    sample_weight=None,
):
    """Greedy forward selection for RLS with the LOO criterion in O(kmn) time, O(mn) memory.

    Starting from the empty set (plus the bias feature, if any), each round adds the feature
    whose addition gives the lowest LOO criterion; ties go to the lower mean squared LOO
    error, then the lower feature index. The selection equals that of the standard wrapper
    (Algorithm 1) and of the low-rank updated LS-SVM (Algorithm 2).

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
        A NumPy array, or an array of another array-API library (CuPy, PyTorch, ...): the
        selection then runs in that library's namespace and on its device (see Notes).
    y : array of shape (n_samples,) or (n_samples, n_targets)
        Real targets, ±1 labels, or one-vs-rest ±1 columns; one feature set serves all outputs.
    k : int
        Number of features to select, ``1 <= k <= n_features``.
    alpha : float
        Regularization parameter λ > 0.
    bias : float, default=0.0
        Value of the constant bias feature (0 = none); always in the model, regularized,
        never a candidate.
    criterion : {"squared", "zero_one"}, default="squared"
        Mean squared LOO error summed over outputs, or LOO zero-one error (sign for one
        output, arg-max for several).
    backend : {"auto", "numba", "numpy", "array_api", "cuda"}, default="auto"
        Implementation of the scoring pass; all give the same selections. NumPy input:
        "auto" = "numba" (else "numpy"). Other arrays: "cuda" = the numba-cuda kernels
        (CUDA arrays; ``rlsbench.numerics.selection.cuda``), "array_api" = array-API
        functions only (any namespace and device); "auto" picks "cuda" for CUDA arrays when
        numba's CUDA target is installed, "array_api" otherwise.
    n_jobs : int or None, default=None
        Threads of the numba kernels, >= 1 (None = numba's default, or one thread for small
        X).
    max_pending : None
        Deprecated and ignored: the rank-one cache update of a round is now applied inside
        the next round's scoring pass, so the cache is written back every round.
    sample_weight : ndarray of shape (n_samples,) or None, default=None
        Weights ``w_j >= 0`` of the examples (not all zero; NumPy input, backend "auto",
        "numba" or "numpy", ``criterion="squared"``). Weighted least squares is the same
        algorithm on the rows scaled by ``sqrt(w_j)``: the squared loss of example j counts
        ``w_j`` times, the penalty ``λ‖w‖²`` (bias weight included) is not weighted, and the
        bias feature becomes the column ``bias·sqrt(w)`` (in the model from the start). The
        LOO criterion is the weighted LOO squared error ``Σ_j w_j (y_j - p_j)² / Σ_j w_j``,
        where ``p_j`` is the prediction of the weighted model trained without example j (all
        of its weight). A zero weight is then the same as dropping the example; an integer
        weight fits the same model as repeating the row, but leaves all copies out at once
        where repeated rows leave one copy out, so the selections may differ.

    Returns
    -------
    SelectionPath

    Raises
    ------
    SelectionError
        X, the bias or y is scaled so that the LOO scores would over- or underflow float64
        (the message names which), or a round has no candidate with a finite score.

    Warns
    -----
    LOOPrecisionWarning
        The LOO MSE of a step differs from a direct solve on the same features
        (:func:`rlsbench.numerics.rls.ridge_prefix_path`, computed with the weights) by more
        than :data:`~rlsbench.numerics.selection._common.LOO_RTOL` relative: float64 lost
        more than 10 digits to a tiny λ for the scale of X. The selection is returned as is.
    TiedCriteriaWarning
        In some round every open candidate had the same criterion (and LOO MSE), so the
        lowest index won (X scaled far below 1, λ huge, constant or duplicate columns).

    Notes
    -----
    State (Algorithm 3, transposed to X of shape (m, n)): dual variables ``a = G y`` (m, t),
    ``d = diag(G)`` (m,), cache ``C = G X`` (m, n, eq. 13, stored as Cᵀ), and per feature
    ``s_i = x_iᵀ G x_i`` and ``x_iᵀ a``. One round:

    1. one pass over the candidates' cache columns applies the previous round's rank-one
       update ``C ← C - u wᵀ`` with ``w = Cᵀ x_b`` (column by column, so X is not read) and
       scores every candidate (eq. 14-17 and eq. 8, see ``_scoring``);
    2. for the winner ``b`` with cache column ``c``: ``γ = 1 / (1 + x_bᵀ c)``, ``u = γ c``
       (eq. 14), ``a -= u (x_bᵀ a)`` (eq. 15), ``d -= u ∘ c`` (eq. 17).

    The weights of every prefix of the selection (Algorithm 3 line 37) are computed once at
    the end from a Cholesky factor of the selected columns' Gram matrix
    (:func:`rlsbench.numerics.rls.ridge_prefix_path`, O(m k²) at BLAS-3 speed), instead of
    ``X_Sᵀ a`` in every round.

    Memory: X, the cache (same size as X) and O(m + n) vectors; never an m×m matrix.

    Other array libraries (``_greedy_rls_xp``): the same rounds with the cache stored
    sample-major like X, ``w = Xᵀ c_b`` by one GEMV instead of the column-wise products, and
    the rank-one updates kept pending (applied on the fly by the next passes, written back
    every few rounds). Each round's winner is chosen on the host by the same tie rule as the
    NumPy path; a round whose best candidate is not finite raises ``FloatingPointError``.
    The path's ``coef_path`` and ``intercept_path`` stay on the input's device, the other
    fields are NumPy arrays.

    References
    ----------
    T. Pahikkala, A. Airola, T. Salakoski. Linear time feature selection for regularized
    least-squares. arXiv:1003.3570.
    """
    t_start = time.perf_counter()
    xp = non_numpy_namespace(X, y)
    if xp is not None or backend in ("array_api", "cuda"):
        if sample_weight is not None:
            raise ValueError(
                "greedy_rls: sample_weight is supported for NumPy input with backend 'auto', "
                f"'numba' or 'numpy' only (got backend={backend!r}"
                + ("" if xp is None else f" and {type(X).__module__} arrays")
                + ")"
            )
        return _greedy_rls_xp(X, y, k, alpha, bias, criterion, backend, xp, t_start)
    if max_pending is not None:
        warnings.warn(
            "greedy_rls: max_pending is deprecated and ignored (the cache update of a round "
            "is applied in the next round's scoring pass)",
            FutureWarning,
            stacklevel=2,
        )
    n_jobs = _check_n_jobs(n_jobs)
    with _numba_threads(n_jobs):  # the input checks' pass over X (``_scan``) too
        X, y2, single, k, alpha, bias, criterion = prepare(
            X, y, k, alpha, bias, criterion, method="greedy_rls"
        )
    backend_name, init, fused_pass = get_backend(backend)
    m, n = X.shape
    t = y2.shape[1]
    zero_one = criterion == "zero_one"
    ycls = zero_one_targets(y2)

    update = None
    weights = check_sample_weight(sample_weight, m, criterion, method="greedy_rls")
    if weights is None:
        total_weight = m
        beta0 = bias_shrink(m, alpha, bias)
        a, d = initial_dual(y2, alpha, beta0)
    else:
        X, y2, bias_column = scale_rows(X, y2, weights, bias)
        check_scale(X, alpha, bias=float(np.max(np.abs(bias_column))), method="greedy_rls")
        total_weight = float(weights.sum())
        beta0 = 0.0
        a, d = initial_dual(y2, alpha, beta0)
        if bias != 0.0:
            # the bias column b·sqrt(w) enters G as a selected feature would (eq. 14-17):
            # its rank-one update is applied by the first round's pass
            update = _bias_column_update(bias_column, a, d, alpha)
    if n_jobs is None and X.size < PARALLEL_MIN_ELEMENTS:
        n_jobs = 1
    rec = PathRecorder(k, t, single, alpha, criterion, start=t_start)
    # The rounds' BLAS calls are vector products: on one thread, so that idle BLAS threads
    # do not spin against the numba threads of the passes.
    with _numba_threads(n_jobs), threadpool_limits(limits=1, user_api="blas"):
        # cache Cᵀ = (G X)ᵀ (eq. 13), s_i = x_iᵀ G x_i, x_iᵀ a; G holds the bias feature.
        cache_t, s, xta = init(X, y2, alpha, beta0)
        round_ends = [time.perf_counter()]
        active = np.arange(n)
        tied_rounds = []
        for step in range(k):
            sq, err = fused_pass(cache_t, active, update, s, xta, a, d, y2, ycls, zero_one)
            mse = sq / total_weight
            crit = err / m if zero_one else mse
            if all_tied(crit, mse, active):
                tied_rounds.append(step)
            b = pick_winner(
                crit,
                rec.selected[:step],
                step,
                tiebreak=mse,
                x_scale=X,
                alpha=alpha,
                method="greedy_rls",
            )
            active = active[active != b]

            c = cache_t[b].copy()
            x_b = np.ascontiguousarray(X[:, b])
            gamma = 1.0 / (1.0 + x_b @ c)  # s_b afresh, eq. 14
            u = c * gamma
            xta_b = x_b @ a
            a -= np.outer(u, xta_b)  # eq. 15
            d -= u * c  # eq. 17
            update = (x_b, u, gamma, xta_b)
            if weights is None:
                rec.add(b, y2, a / d[:, None])
            else:  # the scaled residuals' squares are w_j (y_j - p_j)²; no zero-one here
                r = a / d[:, None]
                rec.add_errors(b, np.vdot(r, r) / total_weight, np.nan)
            round_ends.append(time.perf_counter())
    del cache_t
    if weights is None:
        coef, intercept, residuals = _ridge_prefix_path(X, y2, rec.selected, alpha, bias=bias)
    else:
        coef, intercept, residuals = _weighted_prefix_path(
            X, y2, rec.selected, alpha, bias, bias_column
        )
    rec.set_weights(coef, intercept)
    # the LOO MSE of every prefix once more by a direct solve (O(m k²), as the weights): a
    # gap shows the digits the rank-one updates lost
    if weights is None:
        reference = [loo_mse(r) for r in residuals]
    else:
        reference = [np.vdot(r, r) / total_weight for r in residuals]
    check_loo_precision(rec.loo_mse, reference, alpha, x_scale=X, method="greedy_rls")
    warn_tied(tied_rounds, k, alpha, x_scale=X, method="greedy_rls")
    return rec.path(
        method="greedy_rls",
        backend=backend_name,
        init_seconds=round_ends[0] - t_start,
        round_seconds=np.diff(round_ends).tolist(),
        weights_seconds=time.perf_counter() - round_ends[-1],
    )


def _bias_column_update(bias_column, a, d, alpha):
    """Put the bias column ``v`` into the empty model as a round puts its winner (eq. 14-17):
    with ``G = I / λ``, ``c = v / λ``, ``γ = 1 / (1 + vᵀc)`` and ``u = γ c``, ``a`` and ``d``
    are updated in place; returns the pending ``(v, u, γ, vᵀa)`` the next pass applies to
    the cache."""
    c = bias_column / alpha
    gamma = 1.0 / (1.0 + bias_column @ c)
    u = c * gamma
    xta_b = bias_column @ a
    a -= np.outer(u, xta_b)
    d -= u * c
    return bias_column, u, gamma, xta_b


def _weighted_prefix_path(X, y2, order, alpha, bias, bias_column):
    """:func:`~rlsbench.numerics.rls.ridge_prefix_path` on rows scaled by ``sqrt(w)``: the
    bias is the column ``bias_column = b·sqrt(w)`` at the head of the order (always in the
    model), so the prefix of the bias alone is dropped; intercepts are ``b·w_bias``."""
    if bias == 0.0:
        return _ridge_prefix_path(X, y2, order, alpha)
    Z = np.empty((X.shape[0], len(order) + 1))
    Z[:, 0] = bias_column
    Z[:, 1:] = X[:, order]
    coef, _, residuals = _ridge_prefix_path(Z, y2, np.arange(Z.shape[1]), alpha)
    next(residuals)  # the bias-only model
    return coef[1:, 1:], bias * coef[1:, 0], residuals


# ---------------------------------------------------------------------------------------------
# Namespace-generic greedy RLS (CuPy, PyTorch, array-api-strict): the same algorithm with the
# cache stored sample-major (m, n) like X, the scoring pass by an array-API scorer (below) or
# the numba-cuda kernels (``cuda``), and the choice of each round on the host by the same
# ``best_index`` as the NumPy path.
# ---------------------------------------------------------------------------------------------
#: Upper bound on the elements of one temporary (rows × candidates) of the array-API scorer.
XP_BLOCK_ELEMENTS = 1 << 22


class ArrayAPIScorer:
    """The scoring pass of greedy RLS in array-API functions only (any namespace, any device).

    The cache is stored as ``C`` of shape (m, n); the updates of the rounds since its last
    write-back are pending as ``C_true = C - U Wᵀ`` with ``U`` (m, p) and ``W`` (n, p).
    Candidates are processed in column blocks of at most :data:`XP_BLOCK_ELEMENTS` entries
    (three temporaries of that size), so no m×n temporary is allocated.
    """

    name = "array_api"
    #: The write-back happens in every pass: a block is already a temporary here.
    max_pending = 1

    def __init__(self, xp):
        self.xp = xp

    def init_cache(self, X, shift, alpha):
        """``C = (X - 1 shiftᵀ) / λ`` (eq. 13 with the bias feature in G), a new (m, n) array."""
        C = X - shift[None, :]
        C *= 1.0 / alpha
        return C

    def column_sums(self, X):
        """(1ᵀ X, column sums of squares), each of shape (n,)."""
        xp = self.xp
        return xp.sum(X, axis=0), xp.linalg.vecdot(X, X, axis=-2)

    def score(self, C, U, W, npend, write_back, s, xta, a, d, y2, ycls, zero_one):
        """LOO sums of every candidate (see ``_scoring``, step 3), for all n columns.

        Parameters
        ----------
        C : array of shape (n_samples, n_features)
            Stored cache; ``C - U Wᵀ`` is written into it when ``write_back``.
        U, W : arrays of shape (n_samples, max_pending) and (n_features, max_pending)
            Pending rank-one updates (``u = γ c_b`` and ``w = Xᵀ c_b`` of each round) in
            their first ``npend`` columns.
        npend : int
        s, xta, a, d, y2, ycls, zero_one
            As in :func:`rlsbench.numerics.selection._scoring.pass_numpy` (current values).

        Returns
        -------
        sq, err : arrays of shape (n_features,)
            Sum of squared LOO residuals, number of zero-one LOO errors (zeros unless
            ``zero_one``); selected features are not masked here.
        """
        xp = self.xp
        m, n = C.shape
        t = a.shape[1]
        beta = 1.0 / (1.0 + s)
        alphas = xta * beta[:, None]
        block = max(1, XP_BLOCK_ELEMENTS // m)
        sq_parts, err_parts = [], []
        for lo in range(0, n, block):
            hi = min(n, lo + block)
            Cb = C[:, lo:hi]
            if npend:
                Cb = Cb - U[:, :npend] @ W[lo:hi, :npend].T
                if write_back:
                    C[:, lo:hi] = Cb
            den = d[:, None] - Cb * Cb * beta[lo:hi][None, :]  # d̃ (eq. 17)
            sq = xp.zeros(hi - lo, dtype=C.dtype, device=device(C))
            err = xp.zeros(hi - lo, dtype=C.dtype, device=device(C))
            best_p = best_t = None
            for tt in range(t):
                R = (a[:, tt : tt + 1] - Cb * alphas[lo:hi, tt][None, :]) / den  # eq. 15, 8
                sq = sq + xp.sum(R * R, axis=0)
                if not zero_one:
                    continue
                P = y2[:, tt : tt + 1] - R
                if t == 1:
                    wrong = (P > 0) != (y2[:, 0:1] > 0)
                    err = xp.sum(xp.astype(wrong, C.dtype), axis=0)
                elif best_p is None:
                    best_p, best_t = P, xp.zeros(P.shape, dtype=xp.int64, device=device(C))
                else:
                    better = P > best_p  # strict: the first maximum wins, as argmax
                    best_p = xp.where(better, P, best_p)
                    best_t = xp.where(better, xp.full_like(best_t, tt), best_t)
            if zero_one and t > 1:
                err = xp.sum(xp.astype(best_t != ycls[:, None], C.dtype), axis=0)
            sq_parts.append(sq)
            err_parts.append(err)
        return xp.concat(sq_parts), xp.concat(err_parts)


def _scorer_for(backend, X, xp):
    if backend not in ("auto", "array_api", "cuda", "numba", "numpy"):
        raise ValueError(
            f"backend must be 'auto', 'numba', 'numpy', 'array_api' or 'cuda', got {backend!r}"
        )
    if backend in ("numba", "numpy"):
        raise ValueError(
            f"backend={backend!r} runs on NumPy arrays only; for {type(X).__module__} arrays "
            "use backend='auto', 'array_api' or 'cuda'"
        )
    if backend == "array_api":
        return ArrayAPIScorer(xp)
    from rlsbench.numerics.selection import cuda

    if backend == "cuda":
        return cuda.CudaScorer.for_array(X, xp)
    if is_cuda_array(X) and cuda.available():
        return cuda.CudaScorer(xp)
    return ArrayAPIScorer(xp)


def _check_winner(crit, b, chosen, round_):
    """The winner of a round must have a finite criterion and not be selected already."""
    if not np.isfinite(crit[b]) or chosen[b]:
        raise FloatingPointError(
            f"greedy_rls: round {round_ + 1} has no candidate with a finite LOO criterion "
            "(X or λ too ill-conditioned for float64)"
        )


def _greedy_rls_xp(X, y, k, alpha, bias, criterion, backend, xp, t_start):
    """:func:`greedy_rls` for arrays of namespace ``xp`` (None: NumPy through
    ``array_api_compat.numpy``, for ``backend='array_api'`` or the CUDA simulator).

    One round: the scorer's pass (pending updates applied on the fly, written back every
    ``scorer.max_pending`` rounds), the winner chosen on the host by :func:`best_index` from
    the candidates' sums (one device-to-host copy of n values), then ``w = Xᵀ c_b`` by one
    GEMV and O(m + n) vector updates that stay on the device (no other synchronisation).
    """
    if xp is None:
        import array_api_compat.numpy as xp
    X, y = check_X_y_xp(X, y, xp, criterion=criterion, finite_X=False)
    m, n = X.shape
    k = check_k(k, n)
    alpha = check_alpha(alpha)
    bias = check_bias(bias)
    scorer = _scorer_for(backend, X, xp)
    single = y.ndim == 1
    y2 = xp.reshape(y, (m, -1))
    t = y2.shape[1]
    check_target_scale(float(xp.max(xp.abs(y2))), m, t, method="greedy_rls")
    zero_one = criterion == "zero_one"
    dev = device(X)
    if t == 1:
        ycls = xp.astype(y2[:, 0] > 0, xp.int64)
    else:
        ycls = xp.argmax(y2, axis=1)

    colsum, sumsq = scorer.column_sums(X)
    if not bool(xp.all(xp.isfinite(colsum)) and xp.all(xp.isfinite(sumsq))):
        check_finite_xp(X, "X", xp)  # NaN/inf in X, or only an overflow of the sums
    beta0 = bias_shrink(m, alpha, bias)
    # a = G y, d = diag(G), cache C = G X (eq. 13), s_i = x_iᵀ G x_i, x_iᵀ a: G holds the bias.
    ysum = xp.sum(y2, axis=0)
    a = (y2 - beta0 * ysum[None, :]) / alpha
    d = xp.full((m,), (1.0 - beta0) / alpha, dtype=xp.float64, device=dev)
    shift = beta0 * colsum
    s = (sumsq - shift * colsum) / alpha
    xta = (X.T @ y2 - shift[:, None] * ysum[None, :]) / alpha
    C = scorer.init_cache(X, shift, alpha)
    P = scorer.max_pending
    U = xp.zeros((m, P), dtype=xp.float64, device=dev)  # pending u = γ c_b (eq. 14)
    W = xp.zeros((n, P), dtype=xp.float64, device=dev)  # pending w = Xᵀ c_b
    npend = 0

    round_ends = [time.perf_counter()]
    chosen = np.zeros(n, dtype=bool)
    selected, errors, tied_rounds = [], [], []
    for r in range(k):
        write_back = npend == P
        sq, err = scorer.score(C, U, W, npend, write_back, s, xta, a, d, y2, ycls, zero_one)
        if zero_one:
            sq, err = to_numpy(xp.stack([sq, err]))
        else:
            sq = to_numpy(sq)
        sq = np.where(chosen, np.inf, sq)
        mse = sq / m
        crit = np.where(chosen, np.inf, err / m) if zero_one else mse
        if all_tied(crit, mse, np.flatnonzero(~chosen)):
            tied_rounds.append(r)
        b = best_index(crit, mse)
        _check_winner(crit, b, chosen, r)
        chosen[b] = True
        selected.append(b)

        c = C[:, b]
        if write_back:  # the pass stored C - U Wᵀ
            npend = 0
        elif npend:
            c = c - U[:, :npend] @ W[b, :npend]
        x_b = X[:, b]
        gamma = 1.0 / (1.0 + xp.sum(x_b * c))  # s_b afresh (eq. 14); a 0-d device array
        u = c * gamma
        w = X.T @ c  # w_i = x_iᵀ G x_b: one GEMV over X, the cache is not read
        xta_b = x_b @ a
        s = s - gamma * w * w
        xta = xta - gamma * (w[:, None] * xta_b[None, :])
        a = a - u[:, None] * xta_b[None, :]  # eq. 15
        d = d - u * c  # eq. 17
        U[:, npend] = u
        W[:, npend] = w
        npend += 1
        errors.append(_loo_errors_device(y2, a / d[:, None], xp))
        round_ends.append(time.perf_counter())
    del C, U, W
    rec = PathRecorder(k, t, single, alpha, criterion, start=t_start)
    for b, (mse_b, zo_b) in zip(selected, to_numpy(xp.stack(errors)).tolist()):
        rec.add_errors(b, mse_b, zo_b)
    rec.elapsed[:] = np.asarray(round_ends[1:]) - t_start
    coef, intercept, reference = _ridge_prefix_path_xp(
        X, y2, rec.selected, alpha, xp, bias=bias, residuals="mse"
    )

    # as in the NumPy path: a direct solve's LOO MSE shows the digits the updates lost
    def x_scale():  # one more pass over X, only if a warning is given
        return float(xp.max(xp.abs(X)))

    reference = to_numpy(reference)
    check_loo_precision(
        rec.loo_mse, reference, alpha, x_scale=x_scale, method="greedy_rls", stacklevel=4
    )
    warn_tied(tied_rounds, k, alpha, x_scale=x_scale, method="greedy_rls", stacklevel=4)
    path = rec.path(
        method="greedy_rls",
        backend=scorer.name,
        init_seconds=round_ends[0] - t_start,
        round_seconds=np.diff(round_ends).tolist(),
        weights_seconds=time.perf_counter() - round_ends[-1],
    )
    if single:
        coef, intercept = coef[:, :, 0], intercept[:, 0]
    # weights stay in the input's namespace and device (scikit-learn's array API convention)
    return dataclasses.replace(path, coef_path=coef, intercept_path=intercept)


def _loo_errors_device(y2, r, xp):
    """(mean squared LOO error, zero-one LOO error) of residuals ``r`` (m, t) as a device
    array of shape (2,): :func:`rlsbench.numerics.rls._loo_errors_xp` without a
    synchronisation (read back once, after the last round)."""
    m = r.shape[0]
    p = y2 - r
    if y2.shape[1] == 1:
        wrong = (p[:, 0] > 0) != (y2[:, 0] > 0)
    else:
        wrong = xp.argmax(p, axis=1) != xp.argmax(y2, axis=1)
    return xp.stack([xp.sum(r * r), xp.sum(xp.astype(wrong, r.dtype))]) / m
