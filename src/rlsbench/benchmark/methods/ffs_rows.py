"""Buteneers et al.'s forward selection (FFS) from the covariance rows of the selected features.

The criterion of :mod:`.ffs` (``ffs``, kept as it is): each candidate set S ∪ {c} is scored by
its 10-fold validation squared error at its own best λ of a 50-point grid (Buteneers et al.,
Sections 2 and 3.2), the same folds, grid and stopping record. ``ffs`` forms the N × N fold
covariances A_v = X_vᵀX_v of every fold before the first step (O(N²M) operations and K + 2
matrices of N² numbers: 8 GB for K = 10 folds of 10⁴ features). A forward step only reads
the covariances between the selected features and every feature (Section 3.2: the rank-2
update of S's eigen basis needs A_t[S, c], A_v[S, c] and the diagonals), so this variant
computes the rows of a feature when it is selected, one product X_vᵀ x_j per fold: O(kMN)
operations and K·k·N numbers of memory.

The step itself is the closed form of :func:`rlsbench.numerics.ridgecv.ffs_bfs._forward_eigen`
regrouped into matrix products. With q_c = Cᵀ A_t[S, c], p_c = Cᵀ A_v[S, c] in fold k's eigen
basis C (A_t[S, S] = C D Cᵀ) and 1 / (D + λ_r) on the diagonal, every term that sums over the
s basis vectors is one product of an (R·t) × s matrix with the s × N matrix Q (or P); the
validation term hᵀ A_Cv h uses a factor A_Cv = Fᵀ F of rank at most min(s, M_v), the fold's
validation rows. The error of S ∪ {c} at λ_r is then, with u = b_t[c] − hᵀB_Ct (t outputs)
and g = hᵀ(B_Cv − A_Cv W) + p_cᵀ W:

    e = Σ_t W(A_Cv W − 2 B_Cv) + 2 uᵀ(g − b_v[c]) / σ + ‖u‖² (hᵀA_Cv h − 2 hᵀp_c + a_v[c, c]) / σ²

where σ = a_t[c, c] + λ − hᵀq_c is the Schur complement of Section 3.2, evaluated for a block
of candidates in one compiled pass (numba) over the products. The numbers are the same as
``ffs``'s up to rounding (the products are grouped differently), so the two make the same
choices wherever two candidates' errors are not within rounding of each other
(``tests/benchmark/methods/test_ffs_rows.py`` compares their orders and errors; on the
training splits of sonar, wine, machine-cpu, ionosphere, musk and colon-cancer, k = 50 or all
features, the orders are the same and the errors agree to 3e-13, 5e-5 on colon-cancer, whose
last sets hold nearly as many features as a fold has training rows).

References
----------
P. Buteneers, K. Caluwaerts, J. Dambre, D. Verstraeten and B. Schrauwen. Optimized parameter
search for large datasets of the regularization parameter and feature selection for ridge
regression. Neural Processing Letters 38(3):403–416, 2013.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
from numba import njit

from rlsbench.benchmark.methods import Method, as_float64, int_seed
from rlsbench.numerics.ridgecv.kfold_lambda import (
    as_2d_targets,
    make_folds,
    ridge_weights,
    shifted_eigh,
)
from rlsbench.numerics.selection import pick_winner

#: K and R of :mod:`.ffs` (``run_for_protocol``'s defaults).
N_FOLDS = 10
N_LAMBDAS = 50

#: Work arrays of one block of candidates (the products with Q and P) stay under this size.
BLOCK_BYTES = 2**20


class _FoldCovariances:
    """What the forward steps read of the fold covariances (Buteneers et al., eq. 4-5).

    The rows are sorted by fold once, so fold ``k``'s rows are one contiguous block.

    Attributes
    ----------
    diag_v : ndarray of shape (K, N)
        Diagonal of every fold's validation covariance A_v.
    diag_t : ndarray of shape (K, N)
        Diagonal of its training covariance A − A_v.
    Bv, Bt : ndarray of shape (K, N, t)
        Validation and training cross-covariances.
    cv : ndarray of shape (K,)
        Validation output energy summed over outputs.
    rows_v : ndarray of shape (K, capacity, N)
        Row ``p`` of fold ``k``'s A_v for the p-th feature of :attr:`members`.
    rows : ndarray of shape (capacity, N)
        The same rows of A (the sum over folds).
    """

    def __init__(self, X, Y, folds, capacity, bias):
        order = np.argsort(folds, kind="stable")
        K = int(folds.max()) + 1
        bounds = np.searchsorted(folds[order], np.arange(K + 1))
        self.blocks = [slice(int(bounds[k]), int(bounds[k + 1])) for k in range(K)]
        # one copy of X, with the bias column, written fold by fold
        m, n = X.shape
        self.X = np.empty((m, n + (bias != 0)))
        for b in self.blocks:
            self.X[b, :n] = X[order[b]]
        if bias != 0:
            self.X[:, n] = float(bias)
        Y = Y[order]
        N, t = self.X.shape[1], Y.shape[1]
        self.diag_v = np.stack([np.einsum("ij,ij->j", self.X[b], self.X[b]) for b in self.blocks])
        self.Bv = np.stack([self.X[b].T @ Y[b] for b in self.blocks])
        self.cv = np.array([np.einsum("it,it->", Y[b], Y[b]) for b in self.blocks])
        self.diag_A = self.diag_v.sum(axis=0)
        self.B = self.Bv.sum(axis=0)
        self.diag_t = self.diag_A[None] - self.diag_v
        self.Bt = self.B[None] - self.Bv
        # the same, one row per output: what the candidate loop reads along the features
        self.Bt_rows = np.ascontiguousarray(self.Bt.transpose(0, 2, 1))
        self.Bv_rows = np.ascontiguousarray(self.Bv.transpose(0, 2, 1))
        self.rows_v = np.empty((K, capacity, N))
        self.rows = np.empty((capacity, N))
        self.members: list[int] = []
        self.n_outputs = t

    @property
    def n_folds(self):
        return len(self.blocks)

    def add(self, j):
        """Compute the rows of feature ``j``: one product X_vᵀ x_j per fold (O(MN))."""
        p = len(self.members)
        for k, b in enumerate(self.blocks):
            self.rows_v[k, p] = self.X[b].T @ self.X[b, j]
        self.rows[p] = self.rows_v[:, p].sum(axis=0)
        self.members.append(int(j))


def _fold_basis(cov, k, lambdas):
    """Fold ``k``'s eigen basis of A_t[S, S] and the λ-wise arrays every candidate shares."""
    S = cov.members
    s = len(S)
    R, t = lambdas.shape[0], cov.n_outputs
    Av_SS = cov.rows_v[k, :s][:, S]
    if s:
        D, C = shifted_eigh(cov.rows[:s][:, S] - Av_SS, lambdas.max())
    else:
        D, C = np.empty(0), np.empty((0, 0))
    ACv = C.T @ Av_SS @ C
    BCt = C.T @ cov.Bt[k][S]
    BCv = C.T @ cov.Bv[k][S]
    Dl = D[None, :] + lambdas[:, None]  # (R, s)
    W = BCt[None] / Dl[..., None]  # eq. 7 for every λ, (R, s, t)
    AW = np.matmul(ACv, W)
    base = np.einsum("rst,rst->r", W, AW - 2.0 * BCv[None])  # Σ_t W(A_Cv W − 2 B_Cv), (R,)
    # A_Cv = Fᵀ F: its eigenvalues above round-off (rank at most the fold's validation rows)
    if s:
        ev, U = scipy.linalg.eigh(ACv, check_finite=False)
        keep = ev > max(ev.max(), 0.0) * s * np.finfo(np.float64).eps
        F = np.sqrt(ev[keep])[:, None] * U[:, keep].T
    else:
        F = np.empty((0, 0))
    inv = 1.0 / Dl
    M_bt = W.transpose(0, 2, 1).reshape(R * t, s)  # [(r, t), i] = B_Ct[i, t] / (D_i + λ_r)
    M_g = ((BCv[None] - AW) / Dl[..., None]).transpose(0, 2, 1).reshape(R * t, s)
    M_g = np.hstack([M_g, M_bt])  # g = M_g [Q; P]
    rank = F.shape[0]
    if 2 * rank <= s + 1:  # hᵀA_Cv h = ‖F h‖²: rank · s products per (λ, candidate)
        M_h = (F[None] / Dl[:, None, :]).reshape(R * rank, s)
    else:  # Σ_{i ≤ l} q_i q_l G_il, G = diag(1/Dl) A_Cv diag(1/Dl) (off-diagonal twice)
        G = inv[:, :, None] * ACv[None] * inv[:, None, :]
        upper = np.triu_indices(s)
        M_h = G[:, upper[0], upper[1]] * np.where(upper[0] == upper[1], 1.0, 2.0)
        rank = None
    return C, inv, base, M_bt, M_g, M_h, rank


def _step_errors(cov, lambdas):
    """Validation error (summed over folds) of S ∪ {c} for every λ and every feature c.

    Returns
    -------
    ndarray of shape (R, N)
        Meaningless in the columns of S (the caller masks them).
    """
    S = cov.members
    s = len(S)
    R, t, N = lambdas.shape[0], cov.n_outputs, cov.X.shape[1]
    err = np.zeros((R, N))
    for k in range(cov.n_folds):
        C, inv, base, M_bt, M_g, M_h, rank = _fold_basis(cov, k, lambdas)
        err += base[:, None] + cov.cv[k]
        upper = np.triu_indices(s) if rank is None else None
        rows = R * (2 * t + 4) + (s * (s + 1) if rank is None else R * rank) + 2 * s
        width = max(1, BLOCK_BYTES // (8 * rows))
        for lo in range(0, N, width):
            J = slice(lo, min(N, lo + width))
            Pv = cov.rows_v[k, :s, J]
            Q = C.T @ (cov.rows[:s, J] - Pv)  # Cᵀ A_t[S, c], (s, n_J)
            P = C.T @ Pv  # Cᵀ A_v[S, c]
            if rank is None:  # hᵀ A_Cv h, (R, n_J)
                H = M_h @ (Q[upper[0]] * Q[upper[1]])
            else:  # F h, (R·rank, n_J)
                H = M_h @ Q
            _add_candidate_errors(
                err[:, J],
                lambdas,
                inv @ (Q * Q),  # hᵀ q_c, (R, n_J)
                inv @ (Q * P),  # hᵀ p_c
                M_bt @ Q,  # hᵀ B_Ct, (R·t, n_J)
                M_g @ np.vstack([Q, P]),  # g, (R·t, n_J)
                H,
                -1 if rank is None else rank,
                cov.Bt_rows[k][:, J],
                cov.Bv_rows[k][:, J],
                cov.diag_t[k, J],
                cov.diag_v[k, J],
            )
    return err


@njit(cache=True, nogil=True)
def _add_candidate_errors(
    err, lambdas, qq, qp, hBt, g, H, rank, bt, bv, dt, dv
):  # pragma: no cover
    # the module docstring's e for every (λ, candidate) of a block, in one pass over the
    # products (NumPy would write and read an (R, t, n_J) array for each of u, g − b_v, u∘g, u²)
    R, n_J = qq.shape
    t = bt.shape[0]
    uv = np.empty(n_J)
    uu = np.empty(n_J)
    hah = np.empty(n_J)
    for r in range(R):
        uv[:] = 0.0
        uu[:] = 0.0
        for c in range(t):
            row = r * t + c
            for j in range(n_J):
                u = bt[c, j] - hBt[row, j]
                v = g[row, j] - bv[c, j]
                uv[j] += u * v
                uu[j] += u * u
        if rank < 0:
            hah[:] = H[r]
        else:
            hah[:] = 0.0
            for l in range(rank):
                row = r * rank + l
                for j in range(n_J):
                    hah[j] += H[row, j] * H[row, j]
        lam = lambdas[r]
        for j in range(n_J):
            sigma = dt[j] + lam - qq[r, j]
            err[r, j] += 2.0 * uv[j] / sigma + uu[j] / (sigma * sigma) * (
                hah[j] - 2.0 * qp[r, j] + dv[j]
            )


def _set_errors(cov, lambdas):
    """Validation error of S itself for every λ, shape (R,)."""
    err = np.zeros(lambdas.shape[0])
    for k in range(cov.n_folds):
        err += _fold_basis(cov, k, lambdas)[2] + cov.cv[k]
    return err


def forward_rows(X, y, k, *, bias, seed, n_folds=N_FOLDS, n_lambdas=N_LAMBDAS):
    """The first ``k`` steps of FFS (the module docstring) and what each step scored.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, t)
    k : int
        Steps, 1 <= k <= n_features.
    bias : float
        A non-zero value appends a constant column of it that every model keeps.
    seed : int
        Seed of the fold assignment (:func:`~rlsbench.numerics.ridgecv.kfold_lambda.make_folds`).
    n_folds, n_lambdas : int
        K (at most the number of rows) and R (λ from 1e-8 to 1e2 times tr(A)/N).

    Returns
    -------
    order : ndarray of shape (k,), int
    cv_sse : ndarray of shape (k + 1,)
        Validation squared error of the set after 0..k steps at its best λ.
    lambda_index : ndarray of shape (k + 1,), int
    lambdas : ndarray of shape (R,)
    cov : _FoldCovariances
        With the rows of the fixed and selected features (for the refits).
    """
    X = np.asarray(X, dtype=np.float64)
    Y = as_2d_targets(y)
    m, n = X.shape
    if not 1 <= k <= n:
        raise ValueError(f"k must be in [1, n_features={n}], got {k}")
    fixed = [n] if bias != 0 else []
    folds = make_folds(m, min(n_folds, m), seed=seed)
    cov = _FoldCovariances(X, Y, folds, k + len(fixed), bias)
    N = cov.X.shape[1]
    scale = cov.diag_A.sum() / N
    if not scale > 0:
        raise ValueError("covariance has zero trace: all features are zero")
    lambdas = scale * np.logspace(-8.0, 2.0, int(n_lambdas))
    for j in fixed:
        cov.add(j)
    e0 = _set_errors(cov, lambdas)
    sse, lam_idx, order = [float(e0.min())], [int(np.argmin(e0))], []
    chosen = np.zeros(N, dtype=bool)
    chosen[fixed] = True
    for step in range(k):
        err = _step_errors(cov, lambdas)
        err = np.where(np.isfinite(err), err, np.inf)
        err[:, chosen] = np.inf
        best = err.min(axis=0)
        c = pick_winner(best, chosen, step, rtol=0.0, alpha="its λ grid", method="ffs_rows")
        order.append(int(c))
        sse.append(float(best[c]))
        lam_idx.append(int(np.argmin(err[:, c])))
        chosen[c] = True
        cov.add(c)
    return (
        np.array(order, dtype=np.intp),
        np.array(sse),
        np.array(lam_idx, dtype=np.intp),
        lambdas,
        cov,
    )


def run(X, y, *, alpha, k, criterion, bias, seed, n_jobs):
    """Path of FFS; ``alpha`` and ``criterion`` are ignored (own 10-fold squared-error λ search),
    the same path as :mod:`.ffs`'s (``run_for_protocol``) up to rounding."""
    from rlsbench.numerics.path import SelectionPath

    X, y = as_float64(X, "X", "ffs_rows"), as_float64(y, "y", "ffs_rows")
    order, sse, lam_idx, lambdas, cov = forward_rows(X, y, k, bias=bias, seed=int_seed(seed))
    n_fixed = len(cov.members) - k
    t = y.shape[1] if y.ndim == 2 else None
    coef = np.zeros((k, k) + ((t,) if t else ()))
    intercept = np.zeros((k,) + ((t,) if t else ()))
    alphas = lambdas[lam_idx[1:]]
    for s in range(k):
        # the model of size s + 1: the selected features, then the fixed ones (ffs's refit)
        pos = list(range(n_fixed, n_fixed + s + 1)) + list(range(n_fixed))
        idx = [cov.members[p] for p in pos]
        w = ridge_weights(cov.rows[pos][:, idx], cov.B[idx], float(alphas[s]))
        coef[s, : s + 1] = w[: s + 1] if t else w[: s + 1, 0]
        if n_fixed:
            intercept[s] = bias * (w[-1] if t else w[-1, 0])
    improved = sse[1:] < sse[:-1]
    stop_size = int(np.argmin(improved)) if not improved.all() else k
    return SelectionPath(
        selected=order,
        criterion=sse[1:] / X.shape[0],
        loo_mse=np.full(k, np.nan),
        coef_path=coef,
        intercept_path=intercept,
        alphas=np.asarray(alphas, dtype=np.float64),
        info={
            "validation": f"{min(N_FOLDS, X.shape[0])}-fold squared error at each set's own λ",
            "stop_size": stop_size,
            "variant": "rows",
            "n_lambdas": N_LAMBDAS,
        },
    )


def _flops(m, n, k, t):
    # Per step with s features in the model (the bias column counted), per fold and per
    # candidate: Q and P (4 s²), the products with Q and P of the (R·t) × s and R × s matrices
    # (R s (4 + 6 t)) and the validation term (2 R s h, h = min(s, M/K, (s + 1) / 2)), at dgemm
    # speed on panels of inner size s (about 6x the nominal rate); the candidate-wise
    # arithmetic, one compiled pass over the (R, t, N) products (about 4 t + 20 nominal
    # operations per λ and candidate);
    # about 1 ms of fixed cost per fold and step; and per step one pass over X for the new
    # rows. Measured points: MEASURED_S.
    K, R = N_FOLDS, N_LAMBDAS
    N = n + 1
    total = 4.0 * m * n * t + k * (4.0 * m * N + 2e6 * K)
    for s in range(1, k + 1):
        h = min(s, m / K, (s + 1) / 2)
        gemm = 4.0 * s * s + R * s * (4.0 + 6.0 * t + 2.0 * h)
        total += K * N * (gemm / 6.0 + R * (4.0 * t + 20.0))
    return total


def _memory(m, n, k):
    # the caller's X and the copy sorted by fold, the rows of A_v per fold and of A (k + 1 of
    # each), the fold diagonals and cross-covariances (4 K N, times t outputs for the latter:
    # a few MB on the wide sets), and the work arrays of a block of candidates (BLOCK_BYTES
    # each)
    N = n + 1
    return 8 * (2 * m * N + (N_FOLDS + 1) * (k + 1) * N + 4 * N_FOLDS * N) + 16 * BLOCK_BYTES


#: CPU seconds of one run, measured with ``benchmarks/bench_cost_models.py`` (one thread, the
#: protocol's 10-fold training split of each set, k = 50, under a load of 7-10 on two cores):
#: (data, m, n, k, t, seconds); ``tests/benchmark/methods/test_cost_models.py`` holds each
#: estimate within a factor 3. ``ffs`` needs 8 GB for arcene's fold covariances alone.
MEASURED_S = {
    "ffs_rows": (
        ("madelon", 2340, 500, 50, 1, 2.59),
        ("Yale", 148, 1024, 50, 15, 6.82),
        ("GLIOMA", 45, 4434, 50, 4, 10.4),
        ("Prostate_GE", 91, 5966, 50, 1, 15.6),
        ("Isolet", 1404, 617, 50, 26, 7.81),
        ("TOX_171", 153, 5748, 50, 4, 15.8),
        ("arcene", 180, 10000, 50, 1, 22.6),
        ("nci9", 54, 9712, 50, 9, 33.9),
        ("ALLAML", 64, 7129, 50, 1, 10.2),
    ),
}


# One entry point in pyproject.toml ([project.entry-points."rlsbench.methods"]).
method = Method(
    name="ffs_rows",
    run=run,
    description=(
        "Buteneers et al. forward selection, 10-fold CV λ per candidate set, from the "
        "covariance rows of the selected features (O(kMN) memory and work before the steps)"
    ),
    own_alpha=True,
    flops=_flops,
    memory_bytes=_memory,
    tags={"constant_columns": "scored", "label": "FFS (rows)"},
)
