"""The derivative table's rows for complex tensors' ops (_complex.py, fft.py, the eigen
decomposition's), passed the table's ``_row``: _family_rules.py adds them to the table. Their
formulas already follow torch's convention for complex numbers, so the engine runs them as
written (COMPLEX_AWARE), not with the saved values conjugated as for holomorphic ops."""

from __future__ import annotations


def complex_rows(row, element_wise) -> tuple:
    return (
        row("view_as_real", "ViewAsRealBackward0", "self", "", "k.as_complex_pairs(grad)"),
        row("view_as_complex", "ViewAsComplexBackward0", "self", "", "k.as_real_pairs(grad)"),
        row("complex", "ComplexBackward0", "real imag", "", "k.real_part(grad)",
            "k.imag_part(grad)"),
        row("polar", "PolarBackward0", "abs angle", "result",
            "k.polar_grads(grad, result, True)", "k.polar_grads(grad, result, False)"),
        row("conj", "ConjBackward0", "self", "", "k.conjugate(grad)"),
        row("conj_physical", "ConjPhysicalBackward0", "self", "", "k.conjugate(grad)"),
        row("angle", "AngleBackward0", "self", "self", "k.angle_grad(grad, self)"),
        row("sgn_complex", "SgnBackward0", "self", "self result",
            "k.sgn_grad(grad, self, result)"),
        row("vdot_complex", "VdotBackward0", "self other", "self other",
            "k.conjugate(grad) * other", "grad * self"),
        # fft.py's three transforms
        row("fft_c2c", "FftC2CBackward0", "self", "dims normalization forward",
            "k.c2c_grad(grad, dims, normalization, forward)"),
        row("fft_r2c", "FftR2CBackward0", "self", "dims normalization onesided size",
            "k.r2c_grad(grad, dims, normalization, onesided, size)"),
        row("fft_c2r", "FftC2RBackward0", "self", "dims normalization",
            "k.c2r_grad(grad, dims, normalization)"),
    )


# Ops whose formulas are written for complex numbers (or that never see them)
COMPLEX_AWARE = frozenset({"view_as_real", "view_as_complex", "complex", "polar", "conj",
                           "conj_physical", "angle", "sgn_complex", "vdot_complex", "abs", "norm",
                           "dist", "fft_c2c", "fft_r2c", "fft_c2r", "linalg_eig", "linalg_eigh",
                           "linalg_slogdet", "linalg_svd"})
# Ops whose real formulas are wrong for complex numbers even with the saved values conjugated
# (the factorisations' transposes would be conjugate transposes): they refuse to differentiate
COMPLEX_REFUSED = frozenset({"linalg_qr", "linalg_cholesky",
                             "cholesky_solve", "linalg_householder_product"})
