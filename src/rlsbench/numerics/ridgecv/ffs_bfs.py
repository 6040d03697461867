"""Forward (FFS) and backward (BFS) feature selection with λ re-chosen for every candidate set.

Buteneers et al., Section 3. A candidate set S is scored by the K-fold validation error of
ridge regression on S at its own best λ of the grid (Section 2). Two variants score the
candidates:

* ``covariance``: take the sub-matrices of the fold covariances for S and solve one linear
  system per (fold, λ) (Section 3, first paragraph): O(R K N N_s³) per step.
* ``eigen``: decompose the current set's training covariance once per fold and score every
  candidate and every λ by a low-rank update in the eigen basis: removal by the
  Sherman-Morrison limit (Section 3.1, W_Ctr) and addition by the rank-2 update of Section 3.2:
  O(K N_s³ + R K N N_s²) per step.

Both score the same sets with the same numbers, so they make the same choices; the eigen
variant is the fast one. Selection stops, as in the paper, at the first step that does not
improve the validation error; by default the path is nevertheless recorded to the end, so that
the evaluation protocol can score every size. A run can be given a budget in steps
(``step_budget``): a deterministic cut, so that what a run returns depends on its inputs alone,
never on the speed of the machine.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rlsbench.numerics.ridgecv.kfold_lambda import (
    FoldStats,
    _check_lambdas,
    cv_errors_covariance,
    cv_errors_eigen,
    ridge_weights,
    shifted_eigh,
)
from rlsbench.numerics.selection._common import pick_winner

VARIANTS = ("covariance", "eigen")


@dataclass(frozen=True)
class SelectionResult:
    """Record of a forward or backward run.

    Shapes use ``J`` = number of steps taken.

    Attributes
    ----------
    direction : {"forward", "backward"}
    variant : {"covariance", "eigen"}
    order : ndarray of shape (J,), int
        Feature added (forward) or removed (backward) at each step.
    cv_sse : ndarray of shape (J + 1,)
        Validation squared error (summed over folds, rows, outputs) of the set after 0..J steps,
        each at its own best λ.
    lambda_index : ndarray of shape (J + 1,), int
        Index into ``lambdas`` of that best λ.
    lambdas : ndarray of shape (R,)
    stop_step : int
        Number of steps after which the validation error stopped improving (the paper's model).
    fixed : ndarray of shape (f,), int
        Features always in the model (e.g. a bias column); never added nor removed.
    n_features : int
    complete : bool
        The run went to the end (forward: ``max_features``; backward: no selectable feature left).
    cut_by_budget : bool
        Stopped by ``step_budget`` before the stopping rule fired (or, with ``run_to_end``,
        before the end was reached).
    n_samples : int
    """

    direction: str
    variant: str
    order: np.ndarray
    cv_sse: np.ndarray
    lambda_index: np.ndarray
    lambdas: np.ndarray
    stop_step: int
    fixed: np.ndarray
    n_features: int
    complete: bool
    cut_by_budget: bool
    n_samples: int

    def set_after(self, step: int) -> np.ndarray:
        """Feature indices (fixed ones first) of the model after ``step`` steps."""
        if self.direction == "forward":
            return np.concatenate([self.fixed, self.order[:step]]).astype(np.intp)
        gone = set(self.order[:step].tolist())
        return np.array([j for j in range(self.n_features) if j not in gone], dtype=np.intp)

    @property
    def selected(self) -> np.ndarray:
        """Features of the model at ``stop_step``."""
        return self.set_after(self.stop_step)

    @property
    def alpha(self) -> float:
        return float(self.lambdas[self.lambda_index[self.stop_step]])

    @property
    def cv_mse(self) -> np.ndarray:
        return self.cv_sse / self.n_samples


# ---------------------------------------------------------------------------------------------
# scoring of candidate sets: every function returns errors of shape (R, n_candidates)


def _set_errors(stats: FoldStats, idx, lambdas, variant: str) -> np.ndarray:
    sub = stats.subset(idx)
    return (
        cv_errors_covariance(sub, lambdas)
        if variant == "covariance"
        else cv_errors_eigen(sub, lambdas)
    )


def candidate_sets(direction: str, S, cands):
    """The feature sets one step scores: S ∪ {c} (forward) or S \\ {c} (backward) per candidate.

    Parameters
    ----------
    direction : {"forward", "backward"}
    S : list of int
        The current set.
    cands : list of int
        The features that may be added (forward) or removed (backward).

    Returns
    -------
    list of list of int
    """
    if direction == "forward":
        return [S + [c] for c in cands]
    return [[j for j in S if j != c] for c in cands]


def _covariance_scores(stats, sets, lambdas):
    return np.stack([cv_errors_covariance(stats.subset(idx), lambdas) for idx in sets], axis=1)


def _forward_covariance(stats, S, cands, lambdas):
    return _covariance_scores(stats, candidate_sets("forward", S, cands), lambdas)


def _backward_covariance(stats, S, removable, lambdas):
    return _covariance_scores(stats, candidate_sets("backward", S, removable), lambdas)


def _fold_basis(stats: FoldStats, k: int, S, lambdas):
    """Eigen basis of fold k's training covariance on S and the weights of every λ (eq. 6-7)."""
    s = len(S)
    ix = np.ix_(S, S)
    if s:
        D, C = shifted_eigh(stats.At[k][ix], lambdas.max())
    else:
        D, C = np.empty(0), np.empty((0, 0))
    ACv = C.T @ stats.Av[k][ix] @ C
    BCt = C.T @ stats.Bt[k][S]
    BCv = C.T @ stats.Bv[k][S]
    Dl = D[None, :] + lambdas[:, None]  # (R, s)
    W = BCt[None] / Dl[..., None]  # W_Ct for every λ, (R, s, t)
    AW = np.matmul(ACv, W)
    WAW = np.einsum("rst,rst->rt", W, AW)
    WB = np.einsum("rst,st->rt", W, BCv)
    return C, Dl, ACv, BCv, BCt, W, AW, WAW, WB


def _forward_eigen(stats, S, cands, lambdas):
    """Errors of S ∪ {c} for every candidate c and λ by the rank-2 update (Section 3.2).

    Appending feature n to S changes the regularized training matrix by the symmetric rank-2
    term U R Uᵀ of Section 3.2. Written in closed form on the eigen basis C of S (the
    Woodbury identity with the padded inverse's γ → ∞ limit taken), with q = Cᵀ A_t[S, n],
    h = q / (D + λ):
        σ   = A_t[n, n] + λ − qᵀ h                 (Schur complement)
        w_n = (B_t[n] − hᵀ B_Ct) / σ               (weight of the new feature)
        W_Cte = W_Ct − h w_n                       (weights of S in the eigen basis)
    and the validation error (eq. 4) of the extended weights needs only O(N_s) per
    (candidate, λ) beyond the products with A_Cv.
    """
    R = lambdas.shape[0]
    err = np.zeros((R, len(cands)))
    for k in range(stats.n_folds):
        C, Dl, ACv, BCv, BCt, W, AW, WAW, WB = _fold_basis(stats, k, S, lambdas)
        Q = C.T @ stats.At[k][np.ix_(S, cands)]  # (s, n_c)
        P = C.T @ stats.Av[k][np.ix_(S, cands)]
        d = stats.At[k][cands, cands]
        bn = stats.Bt[k][cands]  # (n_c, t)
        avnn = stats.Av[k][cands, cands]
        bvn = stats.Bv[k][cands]
        H = Q.T[None] / Dl[:, None, :]  # (R, n_c, s)
        sigma = d[None] + lambdas[:, None] - np.einsum("rcs,sc->rc", H, Q)
        wn = (bn[None] - np.matmul(H, BCt)) / sigma[..., None]  # (R, n_c, t)
        HAW = np.matmul(H, AW)
        HAH = np.einsum("rcs,rcs->rc", np.matmul(H, ACv), H)
        Wp = np.einsum("sc,rst->rct", P, W)
        hp = np.einsum("rcs,sc->rc", H, P)
        HB = np.matmul(H, BCv)
        VAV = WAW[:, None] - 2.0 * wn * HAW + wn**2 * HAH[..., None]
        Vp = Wp - wn * hp[..., None]
        VB = WB[:, None] - wn * HB
        e = VAV + 2.0 * wn * Vp + wn**2 * avnn[None, :, None] - 2.0 * (VB + wn * bvn[None])
        err += e.sum(axis=2) + stats.cv[k].sum()
    return err


def _backward_eigen(stats, S, removable, lambdas):
    """Errors of S \\ {n} for every removable n and λ by the Sherman-Morrison limit (Section 3.1).

    With c_n the n-th row of C and W_Ct the weights of S in the eigen basis,
        W_Ctr = W_Ct − (D + λI)⁻¹ c_nᵀ (c_n W_Ct) / (c_n (D + λI)⁻¹ c_nᵀ),
    i.e. the limit γ → ∞ of a γ u uᵀ added to the n-th diagonal element.
    """
    R = lambdas.shape[0]
    pos = [S.index(n) for n in removable]
    err = np.zeros((R, len(removable)))
    for k in range(stats.n_folds):
        C, Dl, ACv, BCv, BCt, W, AW, WAW, WB = _fold_basis(stats, k, S, lambdas)
        Crows = C[pos]  # (n_c, s)
        G = Crows[None] / Dl[:, None, :]  # (R, n_c, s)
        a = np.einsum("cs,rst->rct", Crows, W) / np.einsum("rcs,cs->rc", G, Crows)[..., None]
        GAW = np.matmul(G, AW)
        GAG = np.einsum("rcs,rcs->rc", np.matmul(G, ACv), G)
        GB = np.matmul(G, BCv)
        e = WAW[:, None] - 2.0 * a * GAW + a**2 * GAG[..., None] - 2.0 * (WB[:, None] - a * GB)
        err += e.sum(axis=2) + stats.cv[k].sum()
    return err


_STEP = {
    ("forward", "covariance"): _forward_covariance,
    ("forward", "eigen"): _forward_eigen,
    ("backward", "covariance"): _backward_covariance,
    ("backward", "eigen"): _backward_eigen,
}


def _run(direction, stats, lambdas, variant, fixed, max_steps, run_to_end, step_budget):
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
    lambdas = _check_lambdas(lambdas)
    N = stats.n_features
    fixed = sorted({int(j) for j in fixed})
    if any(not 0 <= j < N for j in fixed):
        raise ValueError(f"fixed feature indices must lie in [0, {N}), got {fixed}")
    free = [j for j in range(N) if j not in set(fixed)]
    if max_steps is None:
        max_steps = len(free)
    if not 0 <= max_steps <= len(free):
        raise ValueError(f"max_features must be in [0, {len(free)}], got {max_steps}")
    if step_budget is not None and not (
        isinstance(step_budget, (int, np.integer))
        and not isinstance(step_budget, bool)
        and step_budget >= 0
    ):
        raise ValueError(f"step_budget must be a non-negative integer or None, got {step_budget!r}")
    S = list(fixed) if direction == "forward" else list(range(N))
    e0 = _set_errors(stats, S, lambdas, variant)
    sse, lam_idx, order = [float(e0.min())], [int(np.argmin(e0))], []
    stop_step = None
    step = _STEP[direction, variant]
    while len(order) < max_steps:
        if step_budget is not None and len(order) >= step_budget:
            break
        cands = (
            [j for j in free if j not in set(S)]
            if direction == "forward"
            else [j for j in S if j not in set(fixed)]
        )
        err = step(stats, S, cands, lambdas)  # (R, n_c)
        # a non-finite error (overflow at extreme scales) never wins; exact argmin otherwise
        err = np.where(np.isfinite(err), err, np.inf)
        best_per_cand = err.min(axis=0)
        c = pick_winner(
            best_per_cand, (), len(order), rtol=0.0, alpha="its λ grid", method=direction
        )
        chosen = cands[c]
        order.append(chosen)
        sse.append(float(best_per_cand[c]))
        lam_idx.append(int(np.argmin(err[:, c])))
        S = S + [chosen] if direction == "forward" else [j for j in S if j != chosen]
        if stop_step is None and not sse[-1] < sse[-2]:
            stop_step = len(order) - 1
            if not run_to_end:
                break
    complete = len(order) == max_steps
    finished = stop_step is not None and not run_to_end
    cut = not (complete or finished)
    if stop_step is None:
        stop_step = len(order)
    return SelectionResult(
        direction=direction,
        variant=variant,
        order=np.array(order, dtype=np.intp),
        cv_sse=np.array(sse),
        lambda_index=np.array(lam_idx, dtype=np.intp),
        lambdas=lambdas,
        stop_step=int(stop_step),
        fixed=np.array(fixed, dtype=np.intp),
        n_features=N,
        complete=complete,
        cut_by_budget=cut,
        n_samples=stats.n_samples,
    )


def forward_selection(
    stats: FoldStats,
    lambdas,
    *,
    variant: str = "eigen",
    fixed=(),
    max_features: int | None = None,
    run_to_end: bool = True,
    step_budget: int | None = None,
) -> SelectionResult:
    """Forward feature selection with λ chosen per candidate set (Section 3.2).

    Parameters
    ----------
    stats : FoldStats
        Fold covariances of X of shape (n_samples, N) (see
        :func:`~rlsbench.numerics.ridgecv.kfold_lambda.fold_statistics`).
    lambdas : ndarray of shape (R,)
    variant : {"covariance", "eigen"}
    fixed : sequence of int
        Features in every model (e.g. a constant bias column).
    max_features : int, optional
        Number of additions to record (default: all features).
    run_to_end : bool
        Keep recording the path after the validation error stopped improving.
    step_budget : int, optional
        Deterministic budget: at most this many steps are taken; a run it stops before the
        stopping rule fired (or before the end, with ``run_to_end``) has ``cut_by_budget``.

    Returns
    -------
    SelectionResult
    """
    return _run("forward", stats, lambdas, variant, fixed, max_features, run_to_end, step_budget)


def backward_selection(
    stats: FoldStats,
    lambdas,
    *,
    variant: str = "eigen",
    fixed=(),
    run_to_end: bool = True,
    step_budget: int | None = None,
) -> SelectionResult:
    """Backward feature elimination with λ chosen per candidate set (Section 3.1).

    Parameters
    ----------
    stats : FoldStats
    lambdas : ndarray of shape (R,)
    variant : {"covariance", "eigen"}
    fixed : sequence of int
        Features never removed.
    run_to_end : bool
        Keep removing until no selectable feature is left, after the stopping point.
    step_budget : int, optional
        At most this many removals (see :func:`forward_selection`).

    Returns
    -------
    SelectionResult
    """
    return _run("backward", stats, lambdas, variant, fixed, None, run_to_end, step_budget)


def refit(stats: FoldStats, idx, lam: float) -> np.ndarray:
    """Ridge weights on features ``idx`` trained on all rows (eq. 2), shape (len(idx), t)."""
    sub = stats.subset(idx)
    return ridge_weights(sub.A, sub.B, lam)


def run_for_protocol(
    X,
    y,
    *,
    k: int,
    bias: float,
    seed: int,
    direction: str,
    n_folds: int = 10,
    n_lambdas: int = 50,
    variant: str = "eigen",
):
    """FFS/BFS as a selector of the evaluation protocol, returning its forward path.

    λ is chosen by the method itself (K-fold, per candidate set) instead of the protocol's LOO
    search. A non-zero ``bias`` appends a constant column of that value that every model keeps.
    The backward run goes down to one feature; its path lists the features in reverse order of
    removal, the model of size j being the set BFS kept at that size.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,) or (n_samples, t)
    k : int
        Path length.
    bias : float
    seed : int
        Seed of the fold assignment.
    direction : {"forward", "backward"}
    n_folds, n_lambdas : int
        K and R (λ grid from 1e-8 to 1e2 times tr(A)/N).
    variant : {"covariance", "eigen"}

    Returns
    -------
    rlsbench.numerics.path.SelectionPath
    """
    from rlsbench.numerics.path import SelectionPath
    from rlsbench.numerics.ridgecv.kfold_lambda import fold_statistics, lambda_grid, make_folds

    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    m, n = X.shape
    if not 1 <= k <= n:
        raise ValueError(f"k must be in [1, n_features={n}], got {k}")
    fixed = []
    if bias != 0:
        X = np.hstack([X, np.full((m, 1), float(bias))])
        fixed = [n]
    stats = fold_statistics(X, y, make_folds(m, min(n_folds, m), seed=seed))
    lambdas = lambda_grid(stats.A, n_lambdas)
    if direction == "forward":
        res = forward_selection(stats, lambdas, variant=variant, fixed=fixed, max_features=k)
        selected = res.order[:k]
        steps = np.arange(1, k + 1)
    else:
        res = backward_selection(stats, lambdas, variant=variant, fixed=fixed)
        selected = res.order[::-1][:k]
        steps = n - np.arange(1, k + 1)  # BFS steps after which j features are left
    t = y.shape[1] if y.ndim == 2 else None
    coef = np.zeros((k, k) + ((t,) if t else ()))
    intercept = np.zeros((k,) + ((t,) if t else ()))
    alphas = np.empty(k)
    for s, step in enumerate(steps):
        lam = float(lambdas[res.lambda_index[step]])
        idx = list(selected[: s + 1]) + fixed
        w = refit(stats, idx, lam)
        coef[s, : s + 1] = w[: s + 1] if t else w[: s + 1, 0]
        if fixed:
            intercept[s] = bias * (w[-1] if t else w[-1, 0])
        alphas[s] = lam
    cv_mse = res.cv_mse[steps]
    stop_size = len(res.set_after(res.stop_step)) - len(fixed)
    return SelectionPath(
        selected=np.asarray(selected, dtype=np.intp),
        criterion=cv_mse,
        loo_mse=np.full(k, np.nan),
        coef_path=coef,
        intercept_path=intercept,
        alphas=alphas,
        info={
            "validation": f"{min(n_folds, m)}-fold squared error at each set's own λ",
            "stop_size": int(stop_size),
            "variant": variant,
            "n_lambdas": n_lambdas,
        },
    )
