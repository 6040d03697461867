"""Criteria of Ramona et al. (2012): analytic gradients, block-by-block sums, targets."""

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

from rlsbench.numerics.kernel.alignment import (
    alignment,
    alignment_grad,
    encode_labels,
    target_class_matrix,
    target_matrix,
    target_norm_sq,
)
from rlsbench.numerics.kernel.blockwise import gram_sums
from rlsbench.numerics.kernel.kernels import ScaledKernel
from rlsbench.numerics.kernel.selectors import criterion_value_grad
from rlsbench.numerics.kernel.separability import (
    class_separability,
    class_separability_grad,
    scatter_traces,
    scatter_weights,
)


@pytest.fixture(autouse=True)
def _one_blas_thread():
    # small matrices: BLAS threads only add contention on the shared CI machine
    with threadpool_limits(limits=1):
        yield


KERNELS = [
    ScaledKernel("linear"),
    ScaledKernel("rbf", sigma=1.7),
    ScaledKernel("poly", degree=3, coef=0.3),
]
KERNEL_IDS = ["linear", "rbf", "poly"]


def _problem(n=23, d=5, n_classes=2, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.arange(n) % n_classes  # every class present, uneven counts when n % C != 0
    rng.shuffle(y)
    X[:, 0] += y  # one informative feature so the criteria are not flat
    w = rng.uniform(0.5, 1.5, size=d)
    return X, y, w


def _fd(fun, w, h=1e-6):
    g = np.empty_like(w)
    for d in range(w.size):
        e = np.zeros_like(w)
        e[d] = h
        g[d] = (fun(w + e) - fun(w - e)) / (2 * h)
    return g


@pytest.mark.parametrize("kernel", KERNELS, ids=KERNEL_IDS)
def test_feature_wise_derivative_matrices_match_finite_differences(kernel):
    X, _, w = _problem(n=9, d=4)
    dK = kernel.grad_gram(X, X, w)
    for d in range(w.size):
        e = np.zeros_like(w)
        e[d] = 1e-6
        fd = (kernel.gram(X, X, w + e) - kernel.gram(X, X, w - e)) / 2e-6
        np.testing.assert_allclose(dK[d], fd, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("kernel", KERNELS, ids=KERNEL_IDS)
def test_contraction_equals_frobenius_product_with_derivative_matrices(kernel):
    X, _, w = _problem(n=11, d=4)
    Xb = X[:7] + 0.1
    M = np.random.default_rng(1).normal(size=(11, 7))
    expected = np.einsum("dij,ij->d", kernel.grad_gram(X, Xb, w), M)
    np.testing.assert_allclose(kernel.grad_contract(X, Xb, w, M), expected, rtol=1e-10)


@pytest.mark.parametrize("kernel", KERNELS, ids=KERNEL_IDS)
@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("target", ["plain", "balanced"])
def test_alignment_gradient_matches_finite_differences(kernel, n_classes, target):
    X, y, w = _problem(n_classes=n_classes)
    codes, _, counts = encode_labels(y)
    T = target_matrix(y, target)

    def dense(v):
        return alignment(kernel.gram(X, X, v), T)

    value, grad = criterion_value_grad(
        X, codes, counts, w, kernel, "alignment", target=target, block_size=6
    )
    assert value == pytest.approx(dense(w), rel=1e-12)
    np.testing.assert_allclose(grad, _fd(dense, w), rtol=1e-5, atol=1e-8)
    # the dense reference of eq. 7-9 agrees as well
    ref = alignment_grad(kernel.gram(X, X, w), kernel.grad_gram(X, X, w), T)
    np.testing.assert_allclose(grad, ref, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kernel", KERNELS, ids=KERNEL_IDS)
@pytest.mark.parametrize("n_classes", [2, 4])
def test_separability_gradient_matches_finite_differences(kernel, n_classes):
    X, y, w = _problem(n_classes=n_classes)
    codes, _, counts = encode_labels(y)
    eps = 0.5

    def dense(v):
        return class_separability(kernel.gram(X, X, v), y, eps)

    value, grad = criterion_value_grad(
        X, codes, counts, w, kernel, "separability", epsilon=eps, block_size=5
    )
    assert value == pytest.approx(dense(w), rel=1e-11)
    np.testing.assert_allclose(grad, _fd(dense, w), rtol=1e-5, atol=1e-8)
    ref = class_separability_grad(kernel.gram(X, X, w), kernel.grad_gram(X, X, w), y, eps)
    np.testing.assert_allclose(grad, ref, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("kernel", KERNELS, ids=KERNEL_IDS)
def test_frobenius_gradient_matches_finite_differences(kernel):
    X, y, w = _problem(n_classes=3)
    codes, _, counts = encode_labels(y)
    T = target_matrix(y)
    value, grad = criterion_value_grad(X, codes, counts, w, kernel, "frobenius", block_size=4)
    assert value == pytest.approx(np.vdot(kernel.gram(X, X, w), T), rel=1e-12)
    np.testing.assert_allclose(
        grad, _fd(lambda v: np.vdot(kernel.gram(X, X, v), T), w), rtol=1e-5, atol=1e-7
    )


@pytest.mark.parametrize("kernel", KERNELS, ids=KERNEL_IDS)
@pytest.mark.parametrize("block_size", [1, 4, 10, None])
def test_blockwise_sums_equal_dense_formulas(kernel, block_size):
    X, y, w = _problem(n=31, n_classes=3)
    codes, _, counts = encode_labels(y)
    Tc = target_class_matrix(counts, "plain")
    s = gram_sums(X, codes, counts, w, kernel, target_classes=Tc, block_size=block_size)
    K = kernel.gram(X, X, w)
    dK = kernel.grad_gram(X, X, w)
    T = target_matrix(y)
    Mb, Mw = scatter_weights(y)
    sb, sw = scatter_traces(K, y)
    assert s.kt == pytest.approx(np.vdot(K, T), rel=1e-12, abs=1e-10)
    assert s.kk == pytest.approx(np.vdot(K, K), rel=1e-12)
    assert s.sb == pytest.approx(sb, rel=1e-10, abs=1e-10)
    assert s.sw == pytest.approx(sw, rel=1e-12)
    for name, M in [("kt", T), ("kk", K), ("sb", Mb), ("sw", Mw)]:
        np.testing.assert_allclose(
            getattr(s, "d_" + name), np.einsum("dij,ij->d", dK, M), rtol=1e-9, atol=1e-9
        )
    n_row_blocks = 1 if block_size is None else -(-31 // block_size)
    expected_blocks = n_row_blocks * (n_row_blocks + 1) // 2  # upper triangle only
    assert s.n_blocks == expected_blocks


def test_scatter_traces_are_feature_space_scatters():
    # With the linear kernel the feature space is the input space: check eq. 15-16 against
    # the scatter matrices of eq. 12-13 (S_b without its 1/n, see separability.py).
    X, y, _ = _problem(n=40, d=3, n_classes=3)
    K = X @ X.T
    m = X.mean(axis=0)
    sb_ref = sum((y == c).sum() * np.sum((X[y == c].mean(0) - m) ** 2) for c in range(3))
    sw_ref = sum(np.sum((X[y == c] - X[y == c].mean(0)) ** 2) for c in range(3))
    sb, sw = scatter_traces(K, y)
    assert sb == pytest.approx(sb_ref, rel=1e-12)
    assert sw == pytest.approx(sw_ref, rel=1e-12)


def test_balanced_alignment_numerator_is_scaled_between_class_scatter():
    # eq. 19-20: <K, K̂*>_F = n/(n1 n2) tr S_b and ||K̂*||_F = n/(n1 n2)
    X, y, _ = _problem(n=25, n_classes=2)
    K = np.exp(-0.1 * ((X[:, None] - X[None]) ** 2).sum(-1))
    T = target_matrix(y, "balanced")
    _, _, counts = encode_labels(y)
    n1, n2 = counts
    n = n1 + n2
    assert np.linalg.norm(T) == pytest.approx(n / (n1 * n2), rel=1e-12)
    assert np.vdot(K, T) == pytest.approx(n / (n1 * n2) * scatter_traces(K, y)[0], rel=1e-12)


@pytest.mark.parametrize("n_classes", [2, 3, 5, 10])
@pytest.mark.parametrize("kind", ["plain", "balanced"])
def test_multiclass_target_is_positive_semidefinite(n_classes, kind):
    y = np.random.default_rng(n_classes).integers(0, n_classes, size=60)
    y[:n_classes] = np.arange(n_classes)
    T = target_matrix(y, kind)
    eig = np.linalg.eigvalsh(T)
    assert eig.min() > -1e-10 * eig.max()
    _, _, counts = encode_labels(y)
    assert np.vdot(T, T) == pytest.approx(target_norm_sq(counts, target_class_matrix(counts, kind)))


def test_naive_multiclass_target_is_not_a_kernel():
    # The reason for eq. 10: with −1 across classes the target is indefinite for C ≥ 3.
    y = np.repeat(np.arange(3), 4)
    naive = np.where(y[:, None] == y[None, :], 1.0, -1.0)
    assert np.linalg.eigvalsh(naive).min() < -1.0
    eq11 = target_matrix(y)
    assert eq11[0, 4] == pytest.approx(-0.5) and eq11[0, 1] == 1.0


def test_binary_plain_target_is_outer_product_of_labels():
    y = np.array([1.0, -1.0, -1.0, 1.0, -1.0])
    np.testing.assert_array_equal(target_matrix(y), np.outer(y, y))
    # one-vs-rest ±1 columns encode the same classes as integer labels
    Y = np.where(np.arange(3)[None, :] == np.array([0, 2, 1, 2])[:, None], 1.0, -1.0)
    np.testing.assert_array_equal(encode_labels(Y)[0], [0, 2, 1, 2])


def test_bad_inputs_name_the_parameter():
    with pytest.raises(ValueError, match="kernel name"):
        ScaledKernel("sigmoid")
    with pytest.raises(ValueError, match="target"):
        target_class_matrix([3, 4], "weird")
    with pytest.raises(ValueError, match="two classes"):
        encode_labels(np.ones(5))
    X, y, w = _problem()
    codes, _, counts = encode_labels(y)
    with pytest.raises(ValueError, match="block_size"):
        gram_sums(X, codes, counts, w, ScaledKernel(), needs=("kk",), block_size=0)
    with pytest.raises(ValueError, match="epsilon"):
        criterion_value_grad(X, codes, counts, w, ScaledKernel(), "separability", epsilon=-1.0)
    with pytest.raises(ValueError, match="criterion"):
        criterion_value_grad(X, codes, counts, w, ScaledKernel(), "margin")


def test_blockwise_never_forms_more_than_a_block():
    # Section VI.A: the n × n Gram matrix is never held; every kernel evaluation is one block.
    shapes = []

    class SpyKernel(ScaledKernel):
        def gram(self, Xa, Xb, w):
            shapes.append((Xa.shape[0], Xb.shape[0]))
            return super().gram(Xa, Xb, w)

    X, y, w = _problem(n=50, n_classes=3)
    codes, _, counts = encode_labels(y)
    kernel = SpyKernel("rbf", sigma=2.0)
    s = gram_sums(
        X, codes, counts, w, kernel, target_classes=target_class_matrix(counts), block_size=8
    )
    assert max(max(sh) for sh in shapes) == 8
    assert s.kk == pytest.approx(np.vdot(kernel.gram(X, X, w), kernel.gram(X, X, w)))
