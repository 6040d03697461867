"""The scoring pass of greedy RLS as numba-cuda kernels (CuPy arrays, torch tensors on cuda).

Why numba-cuda: numba is already a dependency, its kernels take any array that exposes
``__cuda_array_interface__`` (CuPy, PyTorch, Numba's own), and numba's CUDA simulator
(``NUMBA_ENABLE_CUDASIM=1``) runs the very same kernel source on the CPU, so CI checks the
kernels without a GPU. CuPy's ``RawKernel`` or Triton would tie the code to one library and
leave CI with nothing to run.

One round of :class:`CudaScorer` (the array-API loop of ``greedy._greedy_rls_xp`` calls it):

1. the scoring kernel (:func:`_score_kernel` compiles one per case: number of pending
   updates, write-back or not, one output or several, zero-one errors or not): one read of
   the cache ``C`` (m, n), stored sample-major like X. Blocks of 32 × 8 threads over a tile of
   rows; a thread owns :data:`COLS_PER_THREAD` columns 32 apart (a warp's loads are 32
   consecutive doubles of a row: coalesced; four independent loads in flight per thread) and
   every 8th row of the tile. It applies the pending rank-one updates
   ``c_ij ← c_ij - Σ_q U[j, q] W[i, q]`` in registers (stored back only on a write-back
   round, every :data:`MAX_PENDING` rounds) and sums the squared LOO residuals (and zero-one
   errors) of its columns (eq. 14-17 and eq. 8, see ``_scoring``). The 8 row lanes are added
   in lane order in shared memory; the block writes one partial sum per column and row tile.
2. ``reduce_kernel``: the row tiles' partial sums of each column added in a fixed order.
   The number of row tiles depends on (m, n) only, so the sums, hence the selections, do not
   depend on scheduling or on the GPU model.
3. (in the caller) ``w = Xᵀ c_b`` by one GEMV (cuBLAS through the array library).

Memory traffic per round: one read of C, one read of X (the GEMV) and a write of C every
:data:`MAX_PENDING` rounds; memory: X, C and O(m · MAX_PENDING + n · row tiles) besides.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import warnings

from array_api_compat import device

from rlsbench.numerics.array_api import is_cuda_array

try:  # numba's CUDA target: built in up to numba 0.6x, the numba-cuda package since
    from numba import cuda, float64
    from numba.core.errors import NumbaPerformanceWarning

    HAVE_NUMBA_CUDA = True
except ImportError:  # pragma: no cover - depends on the installed numba
    HAVE_NUMBA_CUDA = False

#: Columns per block (one warp wide) and row lanes per block.
TILE_COLS = 32
ROW_LANES = 8
#: Columns per thread of the scoring pass (TILE_COLS apart) and columns per block.
COLS_PER_THREAD = 4
BLOCK_COLS = COLS_PER_THREAD * TILE_COLS
#: Rank-one updates kept pending before the cache is written back (size of a local array).
MAX_PENDING = 4
#: Aim for about this many blocks per pass (a few waves on a 132-SM GPU).
TARGET_BLOCKS = 4096
#: Fewest rows a lane walks in a tile (fewer tiles on small problems, less reduction work).
MIN_ROWS_PER_LANE = 16


def simulator_enabled():
    """Whether numba runs CUDA kernels in its CPU simulator (``NUMBA_ENABLE_CUDASIM=1``)."""
    return os.environ.get("NUMBA_ENABLE_CUDASIM", "0") == "1"


@functools.cache
def available():
    """Whether the kernels can run: ``numba.cuda`` imports and finds a GPU (or the simulator)."""
    if not HAVE_NUMBA_CUDA:
        return False
    try:
        return bool(cuda.is_available())
    except Exception:  # noqa: BLE001 - any failure of the CUDA stack means "not available"
        return False


def gpu_unavailable_reason():
    """None when greedy RLS can run on a CUDA GPU here (numba's CUDA target sees one and CuPy,
    which holds the arrays of the workflow's jobs, is installed), else the reason, in words."""
    if simulator_enabled():
        return "NUMBA_ENABLE_CUDASIM=1 selects numba's CUDA simulator (no GPU)"
    if not HAVE_NUMBA_CUDA:
        return "numba has no CUDA target (pip install 'rlsbench[gpu]')"
    try:
        cupy = _cupy()
    except RuntimeError as exc:
        return str(exc)
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # noqa: BLE001 - no driver or no device: report it
        return f"CuPy finds no CUDA GPU ({type(exc).__name__}: {exc})"
    if count < 1 or not available():
        return "no CUDA GPU is visible"
    return None


def _cupy():
    """The CuPy module (it holds the workflow's device arrays), or RuntimeError saying so."""
    try:
        import cupy
    except ImportError:
        raise RuntimeError("CuPy is not installed (pip install 'rlsbench[gpu]')") from None
    return cupy


def to_device(a):
    """A CuPy copy of the NumPy array ``a`` on the current GPU."""
    return _cupy().asarray(a)


def device_name():
    """``cuda:<id> (<GPU model>)`` of the current CuPy device, for provenance columns."""
    cupy = _cupy()
    dev = cupy.cuda.Device()
    return f"cuda:{dev.id} ({cupy.cuda.runtime.getDeviceProperties(dev.id)['name'].decode()})"


def row_tiles(m, n, block_cols=BLOCK_COLS):
    """Number of row tiles of a pass: a function of the shape only (determinism)."""
    col_tiles = math.ceil(n / block_cols)
    by_rows = math.ceil(m / (ROW_LANES * MIN_ROWS_PER_LANE))
    return max(1, min(by_rows, math.ceil(TARGET_BLOCKS / col_tiles)))


# The kernels are module-level functions: the simulator swaps the module global ``cuda``.
if HAVE_NUMBA_CUDA:

    @cuda.jit(device=True, inline=True)
    def _loo_terms(v, b, i, j, a, d, y2, ycls, xta, zero_one):  # pragma: no cover - compiled
        """Squared LOO residuals (summed over outputs) and zero-one error of candidate i at
        example j, from its updated cache entry v = c_ij and β_i = b."""
        den = d[j] - v * v * b  # d̃ (eq. 17)
        t = a.shape[1]
        e = 0.0
        if t == 1:
            r = (a[j, 0] - v * (xta[i, 0] * b)) / den  # ã / d̃ (eq. 15, 8)
            if zero_one:
                yj = y2[j, 0]
                if ((yj - r) > 0) != (yj > 0):
                    e = 1.0
            return r * r, e
        inv = 1.0 / den
        q = 0.0
        best = -math.inf
        best_t = 0
        for tt in range(t):
            r = (a[j, tt] - v * (xta[i, tt] * b)) * inv
            q += r * r
            pv = y2[j, tt] - r
            if pv > best:  # strict: the first maximum wins, as argmax
                best = pv
                best_t = tt
        if zero_one and best_t != ycls[j]:
            e = 1.0
        return q, e

    @cuda.jit
    def colsum_kernel(X, rows, ps, pss):
        tx = cuda.threadIdx.x
        ty = cuda.threadIdx.y
        i = cuda.blockIdx.x * TILE_COLS + tx
        rb = cuda.blockIdx.y
        m = X.shape[0]
        sh_s = cuda.shared.array((ROW_LANES, TILE_COLS), float64)
        sh_ss = cuda.shared.array((ROW_LANES, TILE_COLS), float64)
        s = 0.0
        ss = 0.0
        if i < X.shape[1]:
            for j in range(rb * rows + ty, min(m, (rb + 1) * rows), ROW_LANES):
                x = X[j, i]
                s += x
                ss += x * x
        sh_s[ty, tx] = s
        sh_ss[ty, tx] = ss
        cuda.syncthreads()
        if ty == 0 and i < X.shape[1]:
            ts = 0.0
            tss = 0.0
            for lane in range(ROW_LANES):
                ts += sh_s[lane, tx]
                tss += sh_ss[lane, tx]
            ps[rb, i] = ts
            pss[rb, i] = tss

    @cuda.jit
    def reduce_kernel(pa, pb, a, b):
        i = cuda.grid(1)
        if i < a.shape[0]:
            sa = 0.0
            sb = 0.0
            for rb in range(pa.shape[0]):
                sa += pa[rb, i]
                sb += pb[rb, i]
            a[i] = sa
            b[i] = sb

    @cuda.jit
    def cache_kernel(X, shift, inv_alpha, C):
        i = cuda.blockIdx.y * TILE_COLS + cuda.threadIdx.x
        j = cuda.blockIdx.x * ROW_LANES + cuda.threadIdx.y
        if i < X.shape[1] and j < X.shape[0]:
            C[j, i] = (X[j, i] - shift[i]) * inv_alpha


@functools.cache
def _score_kernel(npend, write_back, single, zero_one):
    """The scoring pass compiled for one case: ``npend`` pending updates, write-back or not,
    one output or several, zero-one errors or not, all compile-time constants (the loops over
    the pending updates unroll into registers, the unused branches vanish)."""

    @cuda.jit
    def score_kernel(C, U, W, beta, xta, a, d, y2, ycls, rows, pq, pe):  # pragma: no cover
        # A thread owns COLS_PER_THREAD columns TILE_COLS apart (each load of a warp stays
        # one coalesced row segment) and walks every ROW_LANES-th row of the block's tile:
        # four independent loads in flight per thread keep the memory system busy.
        tx = cuda.threadIdx.x
        ty = cuda.threadIdx.y
        base = cuda.blockIdx.x * BLOCK_COLS + tx
        rb = cuda.blockIdx.y
        m = C.shape[0]
        n = C.shape[1]
        i0 = min(base, n - 1)
        i1 = min(base + TILE_COLS, n - 1)
        i2 = min(base + 2 * TILE_COLS, n - 1)
        i3 = min(base + 3 * TILE_COLS, n - 1)
        wl = cuda.local.array((COLS_PER_THREAD, MAX_PENDING), float64)
        for p in range(npend):
            wl[0, p] = W[i0, p]
            wl[1, p] = W[i1, p]
            wl[2, p] = W[i2, p]
            wl[3, p] = W[i3, p]
        b0 = beta[i0]
        b1 = beta[i1]
        b2 = beta[i2]
        b3 = beta[i3]
        al0 = xta[i0, 0] * b0
        al1 = xta[i1, 0] * b1
        al2 = xta[i2, 0] * b2
        al3 = xta[i3, 0] * b3
        q0 = q1 = q2 = q3 = 0.0
        e0 = e1 = e2 = e3 = 0.0
        for j in range(rb * rows + ty, min(m, (rb + 1) * rows), ROW_LANES):
            v0 = C[j, i0]
            v1 = C[j, i1]
            v2 = C[j, i2]
            v3 = C[j, i3]
            for p in range(npend):
                up = U[j, p]
                v0 -= up * wl[0, p]
                v1 -= up * wl[1, p]
                v2 -= up * wl[2, p]
                v3 -= up * wl[3, p]
            if write_back:
                if base < n:
                    C[j, i0] = v0
                if base + TILE_COLS < n:
                    C[j, i1] = v1
                if base + 2 * TILE_COLS < n:
                    C[j, i2] = v2
                if base + 3 * TILE_COLS < n:
                    C[j, i3] = v3
            if single:
                aj = a[j, 0]
                dj = d[j]
                r0 = (aj - v0 * al0) / (dj - v0 * v0 * b0)  # ã / d̃ (eq. 15, 17, 8)
                r1 = (aj - v1 * al1) / (dj - v1 * v1 * b1)
                r2 = (aj - v2 * al2) / (dj - v2 * v2 * b2)
                r3 = (aj - v3 * al3) / (dj - v3 * v3 * b3)
                q0 += r0 * r0
                q1 += r1 * r1
                q2 += r2 * r2
                q3 += r3 * r3
                if zero_one:
                    yj = y2[j, 0]
                    ypos = yj > 0
                    e0 += 1.0 if ((yj - r0) > 0) != ypos else 0.0
                    e1 += 1.0 if ((yj - r1) > 0) != ypos else 0.0
                    e2 += 1.0 if ((yj - r2) > 0) != ypos else 0.0
                    e3 += 1.0 if ((yj - r3) > 0) != ypos else 0.0
            else:
                dq, de = _loo_terms(v0, b0, i0, j, a, d, y2, ycls, xta, zero_one)
                q0 += dq
                e0 += de
                dq, de = _loo_terms(v1, b1, i1, j, a, d, y2, ycls, xta, zero_one)
                q1 += dq
                e1 += de
                dq, de = _loo_terms(v2, b2, i2, j, a, d, y2, ycls, xta, zero_one)
                q2 += dq
                e2 += de
                dq, de = _loo_terms(v3, b3, i3, j, a, d, y2, ycls, xta, zero_one)
                q3 += dq
                e3 += de
        sh_q = cuda.shared.array((ROW_LANES, BLOCK_COLS), float64)
        sh_e = cuda.shared.array((ROW_LANES, BLOCK_COLS), float64)
        sh_q[ty, tx] = q0
        sh_q[ty, tx + TILE_COLS] = q1
        sh_q[ty, tx + 2 * TILE_COLS] = q2
        sh_q[ty, tx + 3 * TILE_COLS] = q3
        sh_e[ty, tx] = e0
        sh_e[ty, tx + TILE_COLS] = e1
        sh_e[ty, tx + 2 * TILE_COLS] = e2
        sh_e[ty, tx + 3 * TILE_COLS] = e3
        cuda.syncthreads()
        # the ROW_LANES partial sums of a column, in lane order (fixed)
        col = ty * TILE_COLS + tx
        while col < BLOCK_COLS:
            i = cuda.blockIdx.x * BLOCK_COLS + col
            if i < n:
                tq = 0.0
                te = 0.0
                for lane in range(ROW_LANES):
                    tq += sh_q[lane, col]
                    te += sh_e[lane, col]
                pq[rb, i] = tq
                pe[rb, i] = te
            col += ROW_LANES * TILE_COLS

    return score_kernel


@contextlib.contextmanager
def _quiet():
    """Small problems launch few blocks: numba's low-occupancy warning says nothing useful."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumbaPerformanceWarning)
        yield


class CudaScorer:
    """The scoring pass of greedy RLS by the kernels above (same interface as
    :class:`rlsbench.numerics.selection.greedy.ArrayAPIScorer`).

    Parameters
    ----------
    xp : namespace
        Array-API namespace of the CUDA arrays (CuPy, PyTorch) or of NumPy in the simulator.
    """

    name = "cuda"
    max_pending = MAX_PENDING

    def __init__(self, xp):
        self.xp = xp
        self._buffers = {}

    @classmethod
    def for_array(cls, X, xp):
        """A scorer for ``X``, or a one-line error saying why the kernels cannot run."""
        if not (is_cuda_array(X) or simulator_enabled()):
            raise ValueError(
                "backend='cuda' needs X in GPU memory (a CuPy array or a torch tensor on "
                f"cuda), got {type(X).__module__}.{type(X).__name__}"
            )
        if not available():
            raise RuntimeError(
                "backend='cuda' needs numba's CUDA target and an NVIDIA GPU (pip install "
                "'rlsbench[gpu]'), or NUMBA_ENABLE_CUDASIM=1 for the simulator"
            )
        return cls(xp)

    def _buffer(self, name, shape, like, dtype=None):
        key = (name, shape)
        if key not in self._buffers:
            xp = self.xp
            self._buffers[key] = xp.empty(shape, dtype=dtype or like.dtype, device=device(like))
        return self._buffers[key]

    @staticmethod
    def _grid(m, n, block_cols=BLOCK_COLS):
        tiles = row_tiles(m, n, block_cols)
        return (math.ceil(n / block_cols), tiles), (TILE_COLS, ROW_LANES), math.ceil(m / tiles)

    def _sums(self, pa, pb, like):
        n = pa.shape[1]
        a = self.xp.empty((n,), dtype=like.dtype, device=device(like))
        b = self.xp.empty((n,), dtype=like.dtype, device=device(like))
        with _quiet():
            reduce_kernel[math.ceil(n / 128), 128](pa, pb, a, b)
        return a, b

    def column_sums(self, X):
        m, n = X.shape
        grid, block, rows = self._grid(m, n, TILE_COLS)
        ps = self._buffer("pa", (grid[1], n), X)
        pss = self._buffer("pb", (grid[1], n), X)
        with _quiet():
            colsum_kernel[grid, block](X, rows, ps, pss)
        return self._sums(ps, pss, X)

    def init_cache(self, X, shift, alpha):
        m, n = X.shape
        C = self.xp.empty((m, n), dtype=X.dtype, device=device(X))
        grid = (math.ceil(m / ROW_LANES), math.ceil(n / TILE_COLS))  # rows on x: 2³¹ blocks
        with _quiet():
            cache_kernel[grid, (TILE_COLS, ROW_LANES)](X, shift, 1.0 / alpha, C)
        return C

    def score(self, C, U, W, npend, write_back, s, xta, a, d, y2, ycls, zero_one):
        xp = self.xp
        m, n = C.shape
        grid, block, rows = self._grid(m, n)
        if npend > MAX_PENDING:  # pragma: no cover - the caller writes back before
            raise ValueError(f"at most {MAX_PENDING} pending updates, got {npend}")
        beta = 1.0 / (1.0 + s)
        pq = self._buffer("pa", (grid[1], n), C)
        pe = self._buffer("pb", (grid[1], n), C)
        kernel = _score_kernel(int(npend), bool(write_back), a.shape[1] == 1, bool(zero_one))
        with _quiet():
            kernel[grid, block](
                C,
                U,
                W,
                beta,
                xp.reshape(xta, (n, -1)),
                a,
                d,
                y2,
                ycls,
                rows,
                pq,
                pe,
            )
        return self._sums(pq, pe, C)
