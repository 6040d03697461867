"""The hot loop of greedy RLS: one pass over the cache per round updates and scores every
candidate.

The cache ``C = G X`` (m, n, eq. 13) is stored by feature, as ``cache_t = Cᵀ`` of shape
(n, m), so that candidate ``i``'s cache column ``c_i`` is contiguous. Round ``t + 1`` first
applies the rank-one update of round ``t`` (Algorithm 3 line 33, winner ``b`` with
``γ = 1 / (1 + s_b)`` and ``u = γ c_b``) and then scores, both in one pass over ``c_i``:

1. ``w_i = c_iᵀ x_b`` (equal to ``x_iᵀ G x_b``, so X itself is never read in the pass);
2. ``c_i ← c_i - u w_i``, ``s_i ← s_i - γ w_i²`` and ``x_iᵀa ← x_iᵀa - γ w_i (x_bᵀa)``;
3. with ``β_i = 1 / (1 + s_i)`` and ``α_i = (x_iᵀ a) β_i`` the tentative dual variables are
   ``ã = a - c_i α_i`` and ``d̃ = d - c_i² β_i`` (eq. 14-17), the LOO residuals ``ã / d̃``
   (eq. 8); their squares and zero-one errors are summed.

Step 1 reads ``c_i`` from memory and step 3 re-reads it from the cache hierarchy (one column
is m doubles), so a round moves one read and one write of the live part of the cache.
Columns of selected features are skipped (dropped from the pass). Candidates are processed
four at a time, sharing the loads of the m-vectors ``x_b, u, a, d, y``.

Every candidate's sums run over all m rows within one thread, so the results do not depend
on the number of threads. Two implementations give the same numbers up to rounding: numba
kernels (parallel over candidates) and a numpy fallback (BLAS and blocked temporaries).
"""

from __future__ import annotations

import numpy as np
import scipy.linalg

#: Rows per partial sum of the set-up pass (fixed, so that sums do not depend on threads).
CHUNK = 512
#: Rows per block of the transposing copy X → cache_t.
TRANSPOSE_ROWS = 256
#: Upper bound on the elements of one numpy temporary (rows × candidates per block).
NUMPY_BLOCK_ELEMENTS = 1 << 18

try:  # numba is a declared dependency, but the numpy path keeps working without it
    from numba import njit, prange

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    HAVE_NUMBA = False


def n_chunks(m, chunk=CHUNK):
    return (m + chunk - 1) // chunk


# ---------------------------------------------------------------------------------------------
# numpy fallback
# ---------------------------------------------------------------------------------------------
def init_numpy(X, y2, alpha, beta0):
    """Cache and per-feature sums of the empty (bias-only) model (Algorithm 3 lines 1-3).

    With the bias feature already in the model, ``G = (I - β 1 1ᵀ) / λ`` and

    - ``C = G X = (X - β 1 (1ᵀ X)) / λ`` (eq. 13), stored transposed;
    - ``s_i = x_iᵀ G x_i = (x_iᵀ x_i - β (1ᵀ x_i)²) / λ``;
    - ``x_iᵀ a`` for ``a = G y``: ``(x_iᵀ y - β (1ᵀ x_i)(1ᵀ y)) / λ``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), C-contiguous
    y2 : ndarray of shape (n_samples, n_targets)
    alpha, beta0 : float
        λ and the bias shrinkage β (0 without a bias).

    Returns
    -------
    cache_t : ndarray of shape (n_features, n_samples), C-contiguous
    s : ndarray of shape (n_features,)
    xta : ndarray of shape (n_features, n_targets)
    """
    m, n = X.shape
    colsum = X.sum(axis=0)
    shift = beta0 * colsum
    cache_t = np.empty((n, m))
    block = max(1, NUMPY_BLOCK_ELEMENTS // m)
    for lo in range(0, n, block):
        hi = min(n, lo + block)
        np.subtract(X[:, lo:hi].T, shift[lo:hi, None], out=cache_t[lo:hi])
        cache_t[lo:hi] *= 1.0 / alpha
    sq = np.einsum("ij,ij->j", X, X)
    s = (sq - shift * colsum) / alpha
    xta = (X.T @ y2 - np.outer(shift, y2.sum(axis=0))) / alpha
    return cache_t, s, xta


def pass_numpy(cache_t, active, update, s, xta, a, d, y2, ycls, zero_one):
    """Apply the previous round's update to every candidate and score it (module docstring).

    Parameters
    ----------
    cache_t : ndarray of shape (n_features, n_samples)
        Updated in place.
    active : ndarray of shape (n_candidates,), int
        Candidates (features not selected yet), ascending.
    update : tuple (x_b, u, gamma, xta_b) or None
        The previous round's winner: its feature column x_b (m,), ``u = γ c_b`` (m,),
        ``γ = 1 / (1 + s_b)`` and ``x_bᵀ a`` before the round's update (t,); None in round 1.
    s : ndarray of shape (n_features,)
        ``x_iᵀ G x_i``, updated in place for the candidates.
    xta : ndarray of shape (n_features, n_targets)
        ``x_iᵀ a``, updated in place for the candidates.
    a : ndarray of shape (n_samples, n_targets)
        Dual variables after the previous round's update.
    d : ndarray of shape (n_samples,)
        ``diag(G)`` after the previous round's update.
    y2 : ndarray of shape (n_samples, n_targets)
    ycls : ndarray of shape (n_samples,), int
        Class of each example for the zero-one criterion (sign or arg-max).
    zero_one : bool

    Returns
    -------
    sq : ndarray of shape (n_features,)
        Sum of squared LOO residuals (over examples and outputs) of each candidate; +inf
        for the others.
    err : ndarray of shape (n_features,)
        Number of zero-one LOO errors of each candidate (zeros unless ``zero_one``); +inf
        for the others.
    """
    n, m = cache_t.shape
    t = a.shape[1]
    sq = np.full(n, np.inf)
    err = np.full(n, np.inf)
    err[active] = 0.0
    aT = np.ascontiguousarray(a.T)
    # Three (block, m) temporaries; a quarter of the candidates at most keeps them below the
    # size of the cache on small problems.
    block = max(1, min(NUMPY_BLOCK_ELEMENTS // m, active.size // 4))
    for lo in range(0, active.size, block):
        idx = active[lo : lo + block]
        Cb = cache_t[idx]
        if update is not None:
            x_b, u, gamma, xta_b = update
            w = Cb @ x_b
            Cb = scipy.linalg.blas.dger(-1.0, u, w, a=Cb.T, overwrite_a=True).T  # Cb -= w uᵀ
            cache_t[idx] = Cb
            s[idx] -= gamma * w * w
            xta[idx] -= np.outer(gamma * w, xta_b)
        beta = 1.0 / (1.0 + s[idx])
        alphas = xta[idx] * beta[:, None]  # (B, t)
        den = np.multiply(Cb, Cb)
        den *= beta[:, None]
        np.subtract(d, den, out=den)  # d̃ (eq. 17)
        R = np.empty_like(Cb)
        if t == 1:
            np.multiply(Cb, alphas[:, :1], out=R)
            np.subtract(aT[0], R, out=R)  # ã (eq. 15)
            R /= den  # LOO residuals (eq. 8)
            sq[idx] = np.einsum("ij,ij->i", R, R)
            if zero_one:
                np.subtract(y2[:, 0], R, out=R)
                err[idx] = np.count_nonzero((R > 0) != (y2[:, 0] > 0), axis=1)
            continue
        inv = np.divide(1.0, den, out=den)
        total = np.zeros(idx.size)
        best_p = np.full(Cb.shape, -np.inf)
        best_t = np.zeros(Cb.shape, dtype=np.int64)
        for tt in range(t):
            np.multiply(Cb, alphas[:, tt, None], out=R)
            np.subtract(aT[tt], R, out=R)
            R *= inv
            total += np.einsum("ij,ij->i", R, R)
            if zero_one:
                P = y2[:, tt] - R
                better = P > best_p
                best_p[better] = P[better]
                best_t[better] = tt
        sq[idx] = total
        if zero_one:
            err[idx] = np.count_nonzero(best_t != ycls, axis=1)
    return sq, err


# ---------------------------------------------------------------------------------------------
# numba kernels
# ---------------------------------------------------------------------------------------------
if HAVE_NUMBA:
    # Reassociation lets LLVM vectorize the sums along the m rows of a column; the order of
    # the additions is then fixed by the compiled code, not by the threads.
    _FASTMATH = {"reassoc", "contract", "nsz"}
    _JIT = dict(parallel=True, cache=True, nogil=True, fastmath=_FASTMATH, error_model="numpy")

    @njit(**_JIT)
    def _init_sums_kernel(X, y2, chunk, colsum_part, sq_part, xty_part):  # pragma: no cover
        m, n = X.shape
        t = y2.shape[1]
        for ch in prange(colsum_part.shape[0]):
            cs = colsum_part[ch]
            sq = sq_part[ch]
            xty = xty_part[ch]
            for i in range(n):
                cs[i] = 0.0
                sq[i] = 0.0
                for tt in range(t):
                    xty[tt, i] = 0.0
            for j in range(ch * chunk, min(m, (ch + 1) * chunk)):
                for i in range(n):
                    x = X[j, i]
                    cs[i] += x
                    sq[i] += x * x
                for tt in range(t):
                    yjt = y2[j, tt]
                    for i in range(n):
                        xty[tt, i] += X[j, i] * yjt

    @njit(**_JIT)
    def _transpose_kernel(X, shift, inv_alpha, rows, cache_t):  # pragma: no cover - compiled
        # 8×8 tiles within blocks of ``rows`` rows: both X's and the cache's pages are
        # walked a few kilobytes at a time (a column at a time would touch a page per row).
        m, n = X.shape
        n8 = n - n % 8
        for rb in prange((m + rows - 1) // rows):
            j0 = rb * rows
            j1 = min(m, j0 + rows)
            j8 = j0 + (j1 - j0) - (j1 - j0) % 8
            for i0 in range(0, n8, 8):
                for j in range(j0, j8, 8):
                    for jj in range(8):
                        for ii in range(8):
                            i = i0 + ii
                            cache_t[i, j + jj] = (X[j + jj, i] - shift[i]) * inv_alpha
                for i in range(i0, i0 + 8):
                    for j in range(j8, j1):
                        cache_t[i, j] = (X[j, i] - shift[i]) * inv_alpha
            for i in range(n8, n):
                for j in range(j0, j1):
                    cache_t[i, j] = (X[j, i] - shift[i]) * inv_alpha

    def init_numba(X, y2, alpha, beta0, chunk=CHUNK):
        """Numba version of :func:`init_numpy`: one pass for the sums (fixed row chunks),
        one transposing pass that writes the cache from the threads that will read it."""
        m, n = X.shape
        t = y2.shape[1]
        nch = n_chunks(m, chunk)
        colsum_part = np.empty((nch, n))
        sq_part = np.empty((nch, n))
        xty_part = np.empty((nch, t, n))
        _init_sums_kernel(X, y2, chunk, colsum_part, sq_part, xty_part)
        colsum = colsum_part.sum(axis=0)
        shift = beta0 * colsum
        cache_t = np.empty((n, m))
        _transpose_kernel(X, shift, 1.0 / alpha, TRANSPOSE_ROWS, cache_t)
        s = (sq_part.sum(axis=0) - shift * colsum) / alpha
        xta = (xty_part.sum(axis=0).T - np.outer(shift, y2.sum(axis=0))) / alpha
        return cache_t, s, np.ascontiguousarray(xta)

    def _make_single_output_kernel(zero_one):
        """Fused update-and-score pass for one output; ``zero_one`` is a compile-time constant
        (a branch on it inside the row loop would keep LLVM from vectorizing the loop)."""

        @njit(**_JIT)
        def kernel(
            cache_t, active, do_update, x_b, u, sqrt_gamma, sg_xta_b, s, xta, a, d, y, sq, err
        ):  # pragma: no cover - compiled
            # The downdates s_i -= γ w_i² and x_iᵀa -= γ w_i (x_bᵀa) are products of two
            # factors, (√γ w_i)², (√γ w_i)(√γ x_bᵀa): reassociated (fastmath) as γ (w_i w_i)
            # the three-factor form overflows once |w_i| ≈ ‖x‖²/λ passes 1e154.
            m = cache_t.shape[1]
            n_act = active.shape[0]
            n_quad = n_act // 4
            for unit in prange(n_quad + n_act - 4 * n_quad):
                if unit < n_quad:
                    i0 = active[4 * unit]
                    i1 = active[4 * unit + 1]
                    i2 = active[4 * unit + 2]
                    i3 = active[4 * unit + 3]
                    c0 = cache_t[i0]
                    c1 = cache_t[i1]
                    c2 = cache_t[i2]
                    c3 = cache_t[i3]
                    w0 = 0.0
                    w1 = 0.0
                    w2 = 0.0
                    w3 = 0.0
                    if do_update:
                        for j in range(m):
                            xj = x_b[j]
                            w0 += c0[j] * xj
                            w1 += c1[j] * xj
                            w2 += c2[j] * xj
                            w3 += c3[j] * xj
                        g0 = w0 * sqrt_gamma
                        s[i0] -= g0 * g0
                        g1 = w1 * sqrt_gamma
                        s[i1] -= g1 * g1
                        g2 = w2 * sqrt_gamma
                        s[i2] -= g2 * g2
                        g3 = w3 * sqrt_gamma
                        s[i3] -= g3 * g3
                        xta[i0] -= g0 * sg_xta_b
                        xta[i1] -= g1 * sg_xta_b
                        xta[i2] -= g2 * sg_xta_b
                        xta[i3] -= g3 * sg_xta_b
                    b0 = 1.0 / (1.0 + s[i0])
                    b1 = 1.0 / (1.0 + s[i1])
                    b2 = 1.0 / (1.0 + s[i2])
                    b3 = 1.0 / (1.0 + s[i3])
                    al0 = xta[i0] * b0
                    al1 = xta[i1] * b1
                    al2 = xta[i2] * b2
                    al3 = xta[i3] * b3
                    q0 = 0.0
                    q1 = 0.0
                    q2 = 0.0
                    q3 = 0.0
                    e0 = 0.0
                    e1 = 0.0
                    e2 = 0.0
                    e3 = 0.0
                    for j in range(m):
                        uj = u[j]
                        aj = a[j]
                        dj = d[j]
                        v0 = c0[j] - uj * w0
                        v1 = c1[j] - uj * w1
                        v2 = c2[j] - uj * w2
                        v3 = c3[j] - uj * w3
                        c0[j] = v0
                        c1[j] = v1
                        c2[j] = v2
                        c3[j] = v3
                        r0 = (aj - v0 * al0) / (dj - v0 * v0 * b0)
                        r1 = (aj - v1 * al1) / (dj - v1 * v1 * b1)
                        r2 = (aj - v2 * al2) / (dj - v2 * v2 * b2)
                        r3 = (aj - v3 * al3) / (dj - v3 * v3 * b3)
                        q0 += r0 * r0
                        q1 += r1 * r1
                        q2 += r2 * r2
                        q3 += r3 * r3
                        if zero_one:
                            yj = y[j]
                            ypos = yj > 0
                            e0 += 1.0 if ((yj - r0) > 0) != ypos else 0.0
                            e1 += 1.0 if ((yj - r1) > 0) != ypos else 0.0
                            e2 += 1.0 if ((yj - r2) > 0) != ypos else 0.0
                            e3 += 1.0 if ((yj - r3) > 0) != ypos else 0.0
                    sq[i0] = q0
                    sq[i1] = q1
                    sq[i2] = q2
                    sq[i3] = q3
                    err[i0] = e0
                    err[i1] = e1
                    err[i2] = e2
                    err[i3] = e3
                else:
                    i0 = active[4 * n_quad + unit - n_quad]
                    c0 = cache_t[i0]
                    w0 = 0.0
                    if do_update:
                        for j in range(m):
                            w0 += c0[j] * x_b[j]
                        g0 = w0 * sqrt_gamma
                        s[i0] -= g0 * g0
                        xta[i0] -= g0 * sg_xta_b
                    b0 = 1.0 / (1.0 + s[i0])
                    al0 = xta[i0] * b0
                    q0 = 0.0
                    e0 = 0.0
                    for j in range(m):
                        v0 = c0[j] - u[j] * w0
                        c0[j] = v0
                        r0 = (a[j] - v0 * al0) / (d[j] - v0 * v0 * b0)
                        q0 += r0 * r0
                        if zero_one:
                            yj = y[j]
                            e0 += 1.0 if ((yj - r0) > 0) != (yj > 0) else 0.0
                    sq[i0] = q0
                    err[i0] = e0

        return kernel

    _single_output_squared = _make_single_output_kernel(False)
    _single_output_zero_one = _make_single_output_kernel(True)

    @njit(**_JIT)
    def _multi_output_kernel(
        cache_t,
        active,
        do_update,
        x_b,
        u,
        sqrt_gamma,
        sg_xta_b,
        s,
        xta,
        aT,
        d,
        yT,
        ycls,
        zero_one,
        sq,
        err,
    ):  # pragma: no cover - compiled
        m = cache_t.shape[1]
        t = aT.shape[0]
        for idx in prange(active.shape[0]):
            i = active[idx]
            col = cache_t[i]
            w = 0.0
            if do_update:
                for j in range(m):
                    w += col[j] * x_b[j]
                g = w * sqrt_gamma
                s[i] -= g * g
                for tt in range(t):
                    xta[i, tt] -= g * sg_xta_b[tt]
            beta = 1.0 / (1.0 + s[i])
            inv = np.empty(m)
            for j in range(m):
                v = col[j] - u[j] * w
                col[j] = v
                inv[j] = 1.0 / (d[j] - v * v * beta)
            total = 0.0
            best_p = np.empty(m)
            best_t = np.zeros(m, dtype=np.int64)
            if zero_one:
                best_p[:] = -np.inf
            for tt in range(t):
                al = xta[i, tt] * beta
                at = aT[tt]
                yt = yT[tt]
                for j in range(m):
                    r = (at[j] - col[j] * al) * inv[j]
                    total += r * r
                if zero_one:
                    for j in range(m):
                        p = yt[j] - (at[j] - col[j] * al) * inv[j]
                        if p > best_p[j]:
                            best_p[j] = p
                            best_t[j] = tt
            sq[i] = total
            e = 0.0
            if zero_one:
                for j in range(m):
                    if best_t[j] != ycls[j]:
                        e += 1.0
            err[i] = e

    def pass_numba(cache_t, active, update, s, xta, a, d, y2, ycls, zero_one):
        """Numba version of :func:`pass_numpy` (same arguments and results)."""
        n, m = cache_t.shape
        t = a.shape[1]
        sq = np.full(n, np.inf)
        err = np.full(n, np.inf)
        if update is None:
            x_b, u, gamma, xta_b = np.zeros(m), np.zeros(m), 0.0, np.zeros(t)
        else:
            x_b, u, gamma, xta_b = update
        active = np.ascontiguousarray(active, dtype=np.int64)
        sqrt_gamma = float(np.sqrt(gamma))  # γ = 1 / (1 + s_b) > 0
        if t == 1:
            kernel = _single_output_zero_one if zero_one else _single_output_squared
            xta1 = np.ascontiguousarray(xta[:, 0])
            kernel(
                cache_t,
                active,
                update is not None,
                x_b,
                u,
                sqrt_gamma,
                sqrt_gamma * float(xta_b[0]),
                s,
                xta1,
                np.ascontiguousarray(a[:, 0]),
                d,
                np.ascontiguousarray(y2[:, 0]),
                sq,
                err,
            )
            xta[:, 0] = xta1
        else:
            _multi_output_kernel(
                cache_t,
                active,
                update is not None,
                x_b,
                u,
                sqrt_gamma,
                sqrt_gamma * np.ascontiguousarray(xta_b, dtype=np.float64),
                s,
                xta,
                np.ascontiguousarray(a.T),
                d,
                np.ascontiguousarray(y2.T),
                ycls,
                bool(zero_one),
                sq,
                err,
            )
        return sq, err


def get_backend(backend):
    """(name, init, fused pass) for ``backend`` in {"auto", "numba", "numpy"}."""
    if backend not in ("auto", "numba", "numpy"):
        raise ValueError(f"backend must be 'auto', 'numba' or 'numpy', got {backend!r}")
    if backend == "numpy" or (backend == "auto" and not HAVE_NUMBA):
        return "numpy", init_numpy, pass_numpy
    if not HAVE_NUMBA:
        raise ValueError("backend='numba' requested but numba is not installed")
    return "numba", init_numba, pass_numba
