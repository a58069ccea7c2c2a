"""The derivative table's rows for torch.linalg (the table's ``_row`` is passed in: _rules.py
adds these to its own). The factorisations' gradients are in _factorization_grads.py."""

from __future__ import annotations


def linalg_rows(row) -> tuple:
    return (
        row("linalg_det", "LinalgDetBackward0", "A", "A result", "k.det_grad(grad, A, result)"),
        row("linalg_slogdet", "LinalgSlogdetBackward0", "A", "A", "k.slogdet_grad(grad, A)"),
        row("linalg_inv", "LinalgInvExBackward0", "A", "result",
            "-k.matmul(k.matmul(k.mT(result), grad), k.mT(result))"),
        row("linalg_solve", "LinalgSolveExBackward0", "A B", "A result vector",
            "k.solve_grad(grad, A, result, vector, True)",
            "k.solve_grad(grad, A, result, vector, False)"),
        row("linalg_cholesky", "LinalgCholeskyExBackward0", "A", "result upper",
            "k.cholesky_grad(grad, result, upper)"),
        row("linalg_qr", "LinalgQrBackward0", "A", "Q R mode", "k.qr_grad(grad, Q, R, mode)"),
        row("linalg_eigh", "LinalgEighBackward0", "A", "eigenvalues eigenvectors",
            "k.eigh_grad(grad, eigenvalues, eigenvectors)"),
        row("linalg_svd", "LinalgSvdBackward0", "A", "U S Vh full_matrices",
            "k.svd_grad(grad, U, S, Vh, full_matrices)"),
    )
