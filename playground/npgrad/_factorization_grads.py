"""The gradients of torch.linalg's factorisations (cholesky, qr, eigh, svd), as torch derives
them; methods of the formula kit (``k.qr_grad``...), added to it here. Cholesky's is written in
the kit's own ops, so it differentiates again under create_graph; the others, whose nodes have
several outputs, run on arrays only (a second derivative through them is torch's to take)."""

from __future__ import annotations

import numpy as np

from ._formula_kit import Kit

ONLY_FIRST_ORDER = ("the derivative of {} under create_graph=True is not in the built-in NumPy "
                    "engine; switch the engine to torch")


def _eye(square: np.ndarray) -> np.ndarray:
    return np.eye(square.shape[-1], dtype=square.dtype)


def cholesky_grad(k, grad, L, upper):
    """A = L Lᴴ: gA = L⁻ᴴ Φ(Lᴴ gL) L⁻¹, Φ keeping the lower triangle with its diagonal
    halved (Murray, 2016)."""
    if upper:
        L, grad = k.mT(L), k.mT(grad)
    lower = k.tril(k.matmul(k.mT(L), grad), 0)
    lower = (lower + k.mT(k.tril(lower, -1))) * 0.5
    inverse = k.inverse(L)
    return k.matmul(k.matmul(k.mT(inverse), lower), inverse)


def cholesky_solve_grad(k, grad, B, factor, result, upper, for_b: bool):
    """X = (L Lᵀ)⁻¹ B: dB = (L Lᵀ)⁻¹ g; dL = -(C L) with C = dB Xᵀ + X dBᵀ (-L C for U)."""
    grad_b = k.cholesky_solve(grad, factor, upper)
    if for_b:
        return grad_b
    common = k.matmul(grad_b, k.mT(result))
    common = common + k.mT(common)
    return -k.matmul(factor, common) if upper else -k.matmul(common, factor)


def _cholesky_solve_of(k, B, factor, upper):
    from ._factorizations import cholesky_solve, solve_by_factor

    if isinstance(B, np.ndarray):
        return solve_by_factor(B, factor, upper)
    return cholesky_solve(B, factor, upper)


def _arrays_only(k, name: str) -> None:
    from ._formula_numpy import NUMPY_KIT

    if k is not NUMPY_KIT:
        raise NotImplementedError(ONLY_FIRST_ORDER.format(name))


def qr_grad(k, grad, Q, R, mode):
    """A = QR. With m >= n: gA = (gQ + Q copyltu(M)) R⁻ᵀ, M = R gRᵀ - gQᵀ Q; with m < n the
    first m columns as a square QR, the rest through Q."""
    _arrays_only(k, "linalg.qr")
    if mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when "
                           "mode='r'. Please use linalg.qr(A, mode='reduced') if you are going "
                           "to differentiate through linalg.qr.")
    m, n = Q.shape[-2], R.shape[-1]
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and "
                           "nrows > ncols.")
    g_q, g_r = grad[0], grad[1]
    g_q = np.zeros_like(Q) if g_q is None else g_q
    g_r = np.zeros_like(R) if g_r is None else g_r
    if m >= n:
        return _tall_qr_grad(g_q, g_r, Q, R)
    left, right = R[..., :m], R[..., m:]
    y = Q @ right
    g_left = _tall_qr_grad(g_q + y @ np.swapaxes(g_r[..., m:], -1, -2), g_r[..., :m], Q, left)
    return np.concatenate([g_left, Q @ g_r[..., m:]], axis=-1)


def _tall_qr_grad(g_q, g_r, Q, R):
    M = R @ np.swapaxes(g_r, -1, -2) - np.swapaxes(g_q, -1, -2) @ Q
    lower = np.tril(M, -1)
    copied = lower + np.swapaxes(lower, -1, -2) + M * np.eye(M.shape[-1], dtype=M.dtype)
    return np.swapaxes(np.linalg.solve(R, np.swapaxes(g_q + Q @ copied, -1, -2)), -1, -2)


def eigh_grad(k, grad, eigenvalues, eigenvectors):
    """A = V diag(L) Vᴴ: gA = V (diag(gL) + skew(Vᴴ gV) / E) Vᴴ, E_ij = L_j - L_i."""
    _arrays_only(k, "linalg.eigh")
    g_values, g_vectors = grad[0], grad[1]
    V = eigenvectors
    Vt = np.swapaxes(V, -1, -2)
    if g_vectors is None:
        return V @ (g_values[..., :, None] * Vt)
    inner = Vt @ g_vectors
    inner = (inner - np.swapaxes(inner, -1, -2)) * 0.5
    gaps = eigenvalues[..., None, :] - eigenvalues[..., :, None] + _eye(V)
    inner = inner / gaps
    if g_values is not None:  # (the skew part's diagonal is zero)
        inner = inner + g_values[..., :, None] * _eye(V)
    return V @ (inner @ Vt)


def svd_grad(k, grad, U, S, Vh, full_matrices):
    """A = U diag(S) Vh, torch's svd_backward (distinct singular values assumed)."""
    _arrays_only(k, "linalg.svd")
    g_u, g_s, g_vh = grad[0], grad[1], grad[2]
    count = S.shape[-1]
    if full_matrices:  # only the first columns of U and rows of Vh carry a gradient
        U, Vh = U[..., :count], Vh[..., :count, :]
        g_u = None if g_u is None else g_u[..., :count]
        g_vh = None if g_vh is None else g_vh[..., :count, :]
    m, n = U.shape[-2], Vh.shape[-1]
    if g_u is None and g_vh is None:
        return U @ (g_s[..., :, None] * Vh) if m >= n else (U * g_s[..., None, :]) @ Vh
    return _svd_vectors_grad(U, S, Vh, g_u, g_s, g_vh, m, n)


def _svd_vectors_grad(U, S, Vh, g_u, g_s, g_vh, m, n):
    def skew(X):
        return X - np.swapaxes(X, -1, -2)

    squares = S * S
    gaps = squares[..., None, :] - squares[..., :, None] + np.eye(S.shape[-1], dtype=S.dtype)
    if g_u is not None and g_vh is not None:
        g_a = (skew(np.swapaxes(U, -1, -2) @ g_u) * S[..., None, :] +
               S[..., :, None] * skew(Vh @ np.swapaxes(g_vh, -1, -2))) / gaps
    elif g_u is not None:
        g_a = skew(np.swapaxes(U, -1, -2) @ g_u) * (S[..., None, :] / gaps)
    else:
        g_a = S[..., :, None] * (skew(Vh @ np.swapaxes(g_vh, -1, -2)) / gaps)
    if g_s is not None:
        g_a = g_a + g_s[..., :, None] * _eye(gaps)
    if m > n and g_u is not None:
        g_a = U @ g_a
        scaled = g_u / S[..., None, :]
        g_a = g_a + scaled - U @ (np.swapaxes(U, -1, -2) @ scaled)
        return g_a @ Vh
    if m < n and g_vh is not None:
        g_a = g_a @ Vh
        scaled = g_vh / S[..., :, None]
        g_a = g_a + scaled - (scaled @ np.swapaxes(Vh, -1, -2)) @ Vh
        return U @ g_a
    return U @ (g_a @ Vh) if m >= n else (U @ g_a) @ Vh


def householder_product_grad(k, grad, A, tau, for_a: bool):
    """Q = H₁ … H_k E. With B_i = (H₁ … H_{i-1})ᵀ G and R_i = H_{i+1} … H_k E, the loss
    reads H_i = I - τ vvᵀ through B_i R_iᵀ: dτ = -vᵀ B_i R_iᵀ v and dv = -τ (B_i R_iᵀ +
    R_i B_iᵀ) v, of which A takes the part below the diagonal."""
    _arrays_only(k, "linalg.householder_product")
    from ._factorizations import reflections_of, reflectors

    grad_a, grad_tau = np.zeros(A.shape, grad.dtype), np.zeros(tau.shape, grad.dtype)
    for index in np.ndindex(A.shape[:-2]):
        count = tau.shape[-1]
        _, partial = reflections_of(A[index], tau[index])
        vectors, behind = reflectors(A[index], count), grad[index]
        for i in range(count):
            v, scale, ahead = vectors[:, i], tau[index][i], partial[i + 1]
            w, u = ahead.T @ v, behind.T @ v
            grad_tau[index + (i,)] = -(v @ behind @ w)
            grad_v = -scale * (behind @ w + ahead @ u)
            grad_a[index][i + 1:, i] = grad_v[i + 1:]
            behind = behind - scale * np.outer(v, u)
    return grad_a if for_a else grad_tau


for _grad in (cholesky_grad, cholesky_solve_grad, qr_grad, eigh_grad, svd_grad,
              householder_product_grad):
    setattr(Kit, _grad.__name__, _grad)
Kit.cholesky_solve = _cholesky_solve_of
