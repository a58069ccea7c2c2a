"""The gradients of torch.linalg's factorisations (cholesky, qr, eigh, svd), as torch derives
them; methods of the formula kit (``k.qr_grad``...), added to it here. Cholesky's, qr's, eigh's
and svd's are written in the kit's own ops, so they differentiate again under create_graph;
householder_product's runs on arrays only (its second derivative is torch's to take)."""

from __future__ import annotations

import numpy as np

from ._formula_kit import Kit, writable_diagonal

ONLY_FIRST_ORDER = ("the derivative of {} under create_graph=True is not in the built-in NumPy "
                    "engine; switch the engine to torch")


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


def _diagonal_of(X):
    """X's diagonal as a view to write through: an array's (X is fresh), or a tensor's
    (written in place under create_graph, torch's CopySlices)."""
    if isinstance(X, np.ndarray):
        return writable_diagonal(X, 0, -2, -1)
    return X.diagonal(0, -2, -1)


def _gaps(values):
    """E_ij = values_j - values_i with ones on the diagonal (written in place, as torch)."""
    gaps = values[..., None, :] - values[..., :, None]
    diagonal = _diagonal_of(gaps)
    if isinstance(diagonal, np.ndarray):
        diagonal[...] = 1
    else:
        diagonal.fill_(1)
    return gaps


def _diag_embed(vector):
    if isinstance(vector, np.ndarray):
        matrix = np.zeros(vector.shape + vector.shape[-1:], vector.dtype)
        writable_diagonal(matrix, 0, -2, -1)[...] = vector
        return matrix
    return vector.diag_embed()


def _narrow(X, dim: int, length: int):
    """The first ``length`` along ``dim`` (torch's narrow: a SliceBackward0 even when whole)."""
    if isinstance(X, np.ndarray):
        return X[(Ellipsis, slice(0, length)) + (slice(None),) * (-1 - dim)]
    return X.narrow(dim, 0, length)


def _cat(pieces: list, dim: int):
    if isinstance(pieces[0], np.ndarray):
        return np.concatenate(pieces, axis=dim)
    from ._shapes import cat

    return cat(pieces, dim)


# The three below are written in the kit's ops, in torch's order and with its in-place steps
# (FunctionsManual's linalg_qr_backward, linalg_eig_backward, svd_backward): under create_graph
# they record torch's graph and differentiate again.

def qr_grad(k, grad, Q, R, mode):
    """A = QR. With m >= n: gA = (gQ + Q sym(triu(M))) R⁻ᴴ, M = gR Rᴴ - Qᴴ gQ and sym
    adding the transpose with the diagonal once; with m < n the first m columns of R as a
    square QR and Q gR for the rest."""
    if mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when "
                           "mode='r'. Please use linalg.qr(A, mode='reduced') if you are going "
                           "to differentiate through linalg.qr.")
    m, n = Q.shape[-2], R.shape[-1]
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and "
                           "nrows > ncols.")
    g_q, g_r = grad[0], grad[1]
    if g_q is not None:
        g_a = -k.matmul(k.mT(Q), g_q) if g_r is None else \
            k.matmul(g_r, k.mT(R)) - k.matmul(k.mT(Q), g_q)
    else:
        g_a = k.matmul(g_r, k.mT(R))
    if m >= n:
        upper = k.triu(g_a, 0)
        upper = upper + k.mT(upper)
        halved = _diagonal_of(upper)
        if isinstance(halved, np.ndarray):
            halved *= 0.5
        else:
            halved.mul_(0.5)
        g_a = k.matmul(Q, upper)
        if g_q is not None:
            g_a = g_a + g_q
        return k.solve_triangular(k.mT(R), g_a, False, False, False)
    flipped = -g_a
    lower = k.tril(flipped - k.mT(flipped), 0)
    g_a = k.solve_triangular(k.mT(R[..., :m]), k.matmul(Q, lower), False, False, False)
    g_a = _cat([g_a, k._zeros(g_a, tuple(R.shape[:-1]) + (n - m,))], -1)
    return g_a if g_r is None else g_a + k.matmul(Q, g_r)


def eigh_grad(k, grad, eigenvalues, eigenvectors):
    """A = V diag(L) Vᴴ: gA = V (diag(gL) + skew(Vᴴ gV) / E) Vᴴ, E_ij = L_j - L_i."""
    g_values, g_vectors = grad[0], grad[1]
    V = eigenvectors
    Vh = k.mH(V)
    if g_vectors is None:
        return k.matmul(V * g_values[..., None, :], Vh)
    inner = k.matmul(Vh, g_vectors)
    if isinstance(inner, np.ndarray) and inner.dtype.kind == "c":
        _check_phase_free(inner)
    g_a = k.times(inner - k.mH(inner), 0.5)
    gaps = _gaps(eigenvalues)
    if isinstance(g_a, np.ndarray):
        g_a /= gaps
    else:
        g_a.div_(gaps)
    if g_values is not None:  # (the skew part's diagonal is zero: replaced by gL)
        diagonal = _diagonal_of(g_a)
        if isinstance(diagonal, np.ndarray):
            diagonal[...] = g_values
        else:
            diagonal.copy_(g_values)
    return k.matmul(V, k.matmul(g_a, k.mH(V)))  # (torch takes Vᴴ anew here: a node of its own)


def _check_phase_free(inner: np.ndarray) -> None:
    """torch refuses a loss that depends on the phases of complex eigenvectors."""
    if not np.allclose(np.diagonal(inner, axis1=-2, axis2=-1).imag, 0, rtol=1e-2, atol=1e-2):
        raise RuntimeError("linalg_eigh_backward: The eigenvectors in the complex case are "
                           "specified up to multiplication by e^{i phi}. The specified loss "
                           "function depends on this quantity, so it is ill-defined.")


def svd_grad(k, grad, U, S, Vh, full_matrices):
    """A = U diag(S) Vh, torch's svd_backward (distinct singular values assumed)."""
    g_u, g_s, g_vh = grad[0], grad[1], grad[2]
    if np.asarray(getattr(U, "_data", U)).dtype.kind == "c" and (
            g_u is not None or g_vh is not None):
        raise NotImplementedError("the derivative of a complex SVD through its singular vectors "
                                  "is not in the built-in NumPy engine; switch the engine to "
                                  "torch")
    count = S.shape[-1]
    if full_matrices:  # only the first columns of U and rows of Vh carry a gradient
        U, Vh = _narrow(U, -1, count), _narrow(Vh, -2, count)
        g_u = None if g_u is None else _narrow(g_u, -1, count)
        g_vh = None if g_vh is None else _narrow(g_vh, -2, count)
    m, n = U.shape[-2], Vh.shape[-1]
    if g_u is None and g_vh is None:
        return k.matmul(U, g_s[..., :, None] * Vh) if m >= n else \
            k.matmul(U * g_s[..., None, :], Vh)
    return _svd_vectors_grad(k, U, S, Vh, g_u, g_s, g_vh, m, n)


def _svd_vectors_grad(k, U, S, Vh, g_u, g_s, g_vh, m, n):
    def skew(X):
        return X - k.mT(X)

    gaps = _gaps(S * S)
    if g_u is not None and g_vh is not None:
        g_a = (skew(k.matmul(k.mT(U), g_u)) * S[..., None, :] +
               S[..., :, None] * skew(k.matmul(Vh, k.mT(g_vh)))) / gaps
    elif g_u is not None:
        g_a = (skew(k.matmul(k.mT(U), g_u)) / gaps) * S[..., None, :]
    else:
        g_a = S[..., :, None] * (skew(k.matmul(Vh, k.mT(g_vh))) / gaps)
    if g_s is not None:
        g_a = g_a + _diag_embed(g_s)
    if m > n and g_u is not None:
        g_a = k.matmul(U, g_a)
        scaled = g_u / S[..., None, :]
        g_a = g_a + scaled - k.matmul(U, k.matmul(k.mT(U), scaled))
        return k.matmul(g_a, Vh)
    if m < n and g_vh is not None:
        g_a = k.matmul(g_a, Vh)
        scaled = g_vh / S[..., :, None]
        g_a = g_a + scaled - k.matmul(k.matmul(scaled, k.mT(Vh)), Vh)
        return k.matmul(U, g_a)
    return k.matmul(U, k.matmul(g_a, Vh)) if m >= n else k.matmul(k.matmul(U, g_a), Vh)


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
