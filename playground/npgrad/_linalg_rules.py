"""The derivative table's rows for torch.linalg and the products and distances beside it
(the table's ``_row`` is passed in: _rules.py adds these to its own). The factorisations'
gradients are in _factorization_grads.py, cdist's in _products.py."""

from __future__ import annotations

# torch's: xlogy(grad, other), 0 where self is 0 and other is not positive
_XLOGY_SELF = ("k.where((self == 0) & (other <= 0), 0, "
               "k.where(grad == 0, 0, grad * k.log(other)))")


def linalg_rows(row) -> tuple:
    return (
        row("linalg_det", "LinalgDetBackward0", "A", "A result", "k.det_grad(grad, A, result)"),
        row("linalg_slogdet", "LinalgSlogdetBackward0", "A", "A", "k.slogdet_grad(grad, A)"),
        row("linalg_inv", "LinalgInvExBackward0", "A", "result",
            "-k.matmul(k.mT(result), k.matmul(grad, k.mT(result)))"),
        row("linalg_solve", "LinalgSolveExBackward0", "A B", "A result vector left",
            "k.solve_grad(grad, A, result, vector, left, True)",
            "k.solve_grad(grad, A, result, vector, left, False)"),
        row("linalg_cross", "LinalgCrossBackward0", "self other", "self other dim",
            "k.cross(other, grad, dim)", "k.cross(grad, self, dim)"),
        row("cdist", "CdistBackward0", "x1 x2", "x1 x2 p result",
            "k.cdist_grad(grad, x1, x2, p, result, True)",
            "k.cdist_grad(grad, x1, x2, p, result, False)"),
        row("euclidean_dist", "EuclideanDistBackward0", "x1 x2", "x1 x2 result",
            "k.euclidean_dist_grad(grad, x1, x2, result, True)",
            "k.euclidean_dist_grad(grad, x1, x2, result, False)"),
        row("cdist_backward", "CdistBackwardBackward0", "grad x1 x2 cdist", "",
            "k.no_derivative('_cdist_backward')", "k.no_derivative('_cdist_backward')",
            "k.no_derivative('_cdist_backward')", "k.no_derivative('_cdist_backward')"),
        row("xlogy", "XlogyBackward0", "self other", "self other", _XLOGY_SELF,
            "grad * self / other"),
        row("xlogy_scalar_self", "XlogyBackward1", "other", "self other", "grad * self / other"),
        row("xlogy_scalar_other", "XlogyBackward2", "self", "self other", _XLOGY_SELF),
        row("linalg_cholesky", "LinalgCholeskyExBackward0", "A", "result upper",
            "k.cholesky_grad(grad, result, upper)"),
        row("cholesky", "CholeskyBackward0", "self", "result upper",
            "k.cholesky_grad(grad, result, upper)"),
        row("cholesky_solve", "CholeskySolveBackward0", "self input2",
            "self input2 result upper",
            "k.cholesky_solve_grad(grad, self, input2, result, upper, True)",
            "k.cholesky_solve_grad(grad, self, input2, result, upper, False)"),
        row("linalg_qr", "LinalgQrBackward0", "A", "Q R mode", "k.qr_grad(grad, Q, R, mode)"),
        row("linalg_eigh", "LinalgEighBackward0", "A", "eigenvalues eigenvectors",
            "k.eigh_grad(grad, eigenvalues, eigenvectors)"),
        row("linalg_householder_product", "LinalgHouseholderProductBackward0", "A tau",
            "A tau", "k.householder_product_grad(grad, A, tau, True)",
            "k.householder_product_grad(grad, A, tau, False)"),
        row("geqrf", "GeqrfBackward0", "self", "a tau", "k.no_derivative('geqrf')"),
        row("linalg_svd", "LinalgSvdBackward0", "A", "U S Vh full_matrices",
            "k.svd_grad(grad, U, S, Vh, full_matrices)"),
        row("linalg_eig", "LinalgEigBackward0", "self", "eigenvalues eigenvectors",
            "k.eig_grad(grad, eigenvalues, eigenvectors)"),
        # _lu.py's
        row("linalg_lu_factor", "LinalgLuFactorExBackward0", "A", "LU pivots",
            "k.lu_factor_grad(grad, LU, pivots)"),
        row("linalg_lu", "LinalgLuBackward0", "A", "P L U", "k.lu_pieces_grad(grad, P, L, U)"),
        row("lu_unpack", "LuUnpackBackward0", "LU_data", "shape", "k.lu_unpack_grad(grad, shape)"),
        row("linalg_lu_solve", "LinalgLuSolveBackward0", "LU B", "LU pivots result adjoint",
            "k.lu_solve_grad(grad, LU, pivots, result, adjoint, True)",
            "k.lu_solve_grad(grad, LU, pivots, result, adjoint, False)"),
    )
