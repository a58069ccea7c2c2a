"""The derivative table's rows for _more_math.py's ops (the table's ``_row`` and ELEMENT_WISE
mark are passed in: _family_rules.py adds these to the table)."""

from __future__ import annotations

_HEAVISIDE = "k.not_implemented('aten::heaviside')"
_HEAVISIDE_ = "k.not_implemented('aten::heaviside_')"


_SOFT_MARGIN_BACKWARD = ("k.recorded_backward('soft_margin_loss_backward', 'soft_margin_loss', "
                         "grad, self, target, reduction)")


def _margin_loss_rows(row) -> tuple:
    """nn/margin_losses.py's: soft margin's differentiates twice, the others' once."""
    return (
        row("soft_margin_loss", "SoftMarginLossBackward0", "self", "self target reduction",
            "k.soft_margin_grad(grad, self, target, reduction)", graph=(_SOFT_MARGIN_BACKWARD,)),
        row("soft_margin_loss_backward", "SoftMarginLossBackwardBackward0", "grad_output self",
            "grad_output self target reduction",
            "k.soft_margin_grad_output(grad, grad_output, self, target, reduction)",
            "k.soft_margin_double(grad * grad_output, self, target, reduction)"),
        row("multi_margin_loss", "MultiMarginLossBackward0", "self",
            "self target p margin weight reduction",
            "k.multi_margin_grad(grad, self, target, p, margin, weight, reduction)"),
        row("multilabel_margin_loss", "MultilabelMarginLossBackward0", "self",
            "self target reduction", "k.multilabel_margin_grad(grad, self, target, reduction)"),
        *(row(f"{loss}_backward", "NotImplemented", "grad_output self", "",
              *[f"k.not_implemented('aten::{loss}_backward')"] * 2)
          for loss in ("multi_margin_loss", "multilabel_margin_loss")),
        # nn/ctc.py's
        row("ctc_loss", "CtcLossBackward0", "self",
            "self primes inputs wanted blank zero_infinity losses alpha",
            "k.ctc_grad(grad, self, primes, inputs, wanted, blank, zero_infinity, losses, "
            "alpha)"),
        row("ctc_loss_backward", "NotImplemented", "grad_output self", "",
            *["k.not_implemented('aten::_ctc_loss_backward')"] * 2),
    )


def _grid_sampler_rows(row, dims: int) -> tuple:
    """grid_sample of images (2) or volumes (3): its node and its backward's (create_graph)."""
    return (
        row(f"grid_sampler_{dims}d", f"GridSampler{dims}DBackward0", "input grid",
            "input grid mode padding align",
            "k.grid_sample_grad(grad, input, grid, mode, padding, align, True)",
            "k.grid_sample_grad(grad, input, grid, mode, padding, align, False)"),
        *(row(f"grid_sampler_{dims}d_{part}_backward", f"GridSampler{dims}DBackwardBackward0",
              "grad_output input grid", "grad_output input grid mode padding align",
              *(f"k.grid_sample_second(grad, grad_output, input, grid, mode, padding, align, "
                f"{part == 'input'}, {which})" for which in range(3)))
          for part in ("input", "grid")))


def more_math_rows(row, element_wise) -> tuple:
    return _margin_loss_rows(row) + (
        row("scatter_reduce", "ScatterReduceBackward0", "self src",
            "self src dim index reduce include_self result",
            "k.scatter_reduce_self_grad(grad, self, src, dim, index, reduce, include_self, "
            "result)",
            "k.scatter_reduce_src_grad(grad, self, src, dim, index, reduce, include_self, "
            "result)"),
        row("index_reduce", "IndexReduceBackward0", "self source",
            "self source dim index reduce include_self result",
            "k.scatter_reduce_self_grad(grad, self, source, dim, index, reduce, include_self, "
            "result)",
            "k.scatter_reduce_src_grad(grad, self, source, dim, index, reduce, include_self, "
            "result)"),
        # the rarer random fills (_random_fills.py): the old values no longer matter
        row("cauchy_", "CauchyBackward0", "self", "", "k.zeros_like(grad)", inplace="cauchy_"),
        row("log_normal_", "LogNormalBackward0", "self", "", "k.zeros_like(grad)",
            inplace="log_normal_"),
        row("geometric_", "GeometricBackward0", "self", "", "k.zeros_like(grad)",
            inplace="geometric_"),
        # the gamma family's draws (_gamma_ops.py): a gamma draw's gradient is its own
        row("standard_gamma", "StandardGammaBackward0", "self", "self result",
            "grad * k.standard_gamma_grad(grad, self, result)"),
        row("standard_gamma_grad", "StandardGammaGradBackward0", "self output", "",
            *["k.no_derivative('_standard_gamma_grad')"] * 2),
        row("poisson", "PoissonBackward0", "self", "", "k.zeros_like(grad)"),
        row("binomial", "NotImplemented", "count prob", "",
            *["k.not_implemented('aten::binomial')"] * 2),
        row("sample_dirichlet", "NotImplemented", "self", "",
            "k.not_implemented('aten::_sample_dirichlet')"),
        row("dirichlet_grad", "NotImplemented", "x alpha total", "",
            *["k.not_implemented('aten::_dirichlet_grad')"] * 3),
        # torch's older triangular helpers (_triangular_solve.py)
        row("triangular_solve", "TriangularSolveBackward0", "self A",
            "self A x upper transpose unitriangular",
            "k.triangular_solve_grad(grad, self, A, x, upper, transpose, unitriangular, False)",
            "k.triangular_solve_grad(grad, self, A, x, upper, transpose, unitriangular, True)"),
        row("cholesky_inverse", "CholeskyInverseBackward0", "self", "self upper result",
            "k.cholesky_inverse_grad(grad, self, upper, result)"),
        # cumulative ops
        row("cumprod", "CumprodBackward0", "self", "self dim result",
            "k.cumprod_grad(grad, self, dim, result)"),
        row("cummax", "CummaxBackward0", "self", "shape dim indices",
            "k.scatter_add_into(grad, shape, dim, indices)"),
        row("cummin", "CumminBackward0", "self", "shape dim indices",
            "k.scatter_add_into(grad, shape, dim, indices)"),
        row("logcumsumexp", "LogcumsumexpBackward0", "self", "self result dim",
            "k.logcumsumexp_grad(grad, self, result, dim)"),
        # torch's div(Tensor, Scalar) inside its composites (trapezoid)
        row("div_by_number", "DivBackward1", "self", "other", "k.divided(grad, other)",
            forward=element_wise),
        row("sub_scalar", "SubBackward1", "self", "", "grad", forward=element_wise),
        # masked writes and NaN-aware extremes (_masked.py)
        row("masked_scatter", "MaskedScatterBackward0", "self source", "mask shape",
            "k.masked_fill(grad, mask, 0)", "k.masked_scatter_grad(grad, mask, shape)",
            inplace="masked_scatter_"),
        row("masked_scatter_backward", "MaskedScatterBackwardBackward0", "grad_output",
            "mask shape", "k.masked_scatter_double(grad, mask)"),
        *(row(op, f"{op.title()}Backward0", "self other", "self other",
              f"k.fmax_grad(grad, self, other, {op == 'fmin'}, True)",
              f"k.fmax_grad(grad, self, other, {op == 'fmin'}, False)", forward=element_wise)
          for op in ("fmax", "fmin")),
        # the gamma function's family (_gamma.py)
        row("lgamma", "LgammaBackward0", "self", "self", "grad * k.digamma(self)",
            forward=element_wise, inplace="lgamma_"),
        row("digamma", "DigammaBackward0", "self", "self", "grad * k.polygamma(1, self)",
            forward=element_wise, inplace="digamma_"),
        row("polygamma", "PolygammaBackward0", "self", "n self",
            "grad * k.polygamma(n + 1, self)", forward=element_wise),
        row("polygamma_", "PolygammaBackward1", "self", "n self",
            "grad * k.polygamma(n + 1, self)", forward=element_wise),
        row("mvlgamma", "MvlgammaBackward0", "self", "self p", "k.mvlgamma_grad(grad, self, p)"),
        row("mvlgamma_", "MvlgammaBackward0", "self", "self p", "k.mvlgamma_grad(grad, self, p)"),
        row("foreach_powsum", "NotImplemented", "tensors", "",
            "k.not_implemented('aten::_foreach_powsum')", variadic=True),
        # the incomplete gamma functions (_incomplete_gamma.py): torch differentiates x only
        *(row(op, f"{op.title()}Backward0", "self other", "self other",
              f"k.no_derivative('{op}: input')",
              f"{sign}grad * k.exp((self - 1) * k.log(other) - other - k.lgamma(self))")
          for op, sign in (("igamma", ""), ("igammac", "-"))),
        # the larger (smaller) of two: its gradient, halved on ties, masked off elsewhere (+0)
        row("maximum", "MaximumBackward0", "self other", "self other",
            "k.masked_fill(k.where(self == other, grad / 2, grad), self < other, 0)",
            "k.masked_fill(k.where(self == other, grad / 2, grad), self > other, 0)",
            forward=element_wise),
        row("minimum", "MinimumBackward0", "self other", "self other",
            "k.masked_fill(k.where(self == other, grad / 2, grad), self > other, 0)",
            "k.masked_fill(k.where(self == other, grad / 2, grad), self < other, 0)",
            forward=element_wise),
        # shapes and diagonals
        row("rot90", "Rot90Backward0", "self", "turns dims", "k.rot90(grad, -turns, dims)"),
        row("block_diag", "BlockDiagBackward0", "tensors", "rows cols",
            "k.block_piece(grad, rows[i], cols[i])", variadic=True),
        row("diag_embed", "DiagEmbedBackward0", "self", "offset dim1 dim2",
            "k.diagonal(grad, offset, dim1, dim2)"),
        # torch.diag of a matrix: a copy of its diagonal, under torch 2.13's name for the node
        row("diag_copy", "DiagonalBackward0_copy", "self", "shape offset",
            "k.diagonal_backward(grad, shape, offset, 0, 1)"),
        row("narrow_copy", "NarrowCopyBackward0", "self", "shape dim start end",
            "k.slice_backward(grad, shape, dim, start, end, 1)"),
        # special functions
        row("logaddexp", "LogaddexpBackward0", "self other", "self other",
            "grad / (1 + k.exp(other - self))", "grad / (1 + k.exp(self - other))",
            forward=element_wise),
        row("logaddexp2", "Logaddexp2Backward0", "self other", "self other",
            "grad / (1 + k.exp2(other - self))", "grad / (1 + k.exp2(self - other))",
            forward=element_wise),
        # √π / 2 is 0.886226925452758
        row("erfinv", "ErfinvBackward0", "self", "self",
            "k.times(k.exp(k.erfinv(self) ** 2), 0.886226925452758) * grad",
            forward=element_wise),
        row("sinc", "SincBackward0", "self", "self", "k.sinc_grad(grad, self)",
            forward=element_wise),
        row("logit", "LogitBackward0", "self", "self eps", "k.logit_grad(grad, self, eps)",
            forward=element_wise),
        row("heaviside", "NotImplemented", "self values", "", _HEAVISIDE, _HEAVISIDE),
        # (torch passes self's gradient where self is not other already; other gets none)
        row("nextafter", "NextafterBackward0", "self other", "self other",
            "k.where(self == other, 0, grad)", "k.zeros_like(grad)"),
        row("rsub_tensor", "RsubBackward0", "self other", "alpha", "-k.scale(grad, alpha)",
            "grad", forward=element_wise),
        # (the in-place twins of ops without a derivative name themselves: _inplace_twins.py)
        row("heaviside_", "NotImplemented", "self values", "", _HEAVISIDE_, _HEAVISIDE_),
        row("floor_divide_", "NotImplemented", "self other", "",
            "k.not_implemented('aten::floor_divide_')", "k.not_implemented('aten::floor_divide_')"),
        row("deg2rad", "Deg2RadBackward0", "self", "", "k.times(grad, 0.017453292519943295)",
            forward=element_wise),
        row("rad2deg", "Rad2DegBackward0", "self", "", "k.times(grad, 57.29577951308232)",
            forward=element_wise),
        # _everyday_ops.py's, and acosh and atanh (_pointwise.py)
        row("acosh", "AcoshBackward0", "self", "self", "grad * k.rsqrt(self * self - 1)",
            forward=element_wise),
        row("acosh_", "AcoshBackward1", "self", "",
            "k.no_derivative('inplace version of acosh')", inplace="acosh_ arccosh_"),
        row("atanh", "AtanhBackward0", "self", "self", "grad / (1 - self * self)",
            forward=element_wise),
        row("atanh_", "AtanhBackward1", "self", "",
            "k.no_derivative('inplace version of atanh')", inplace="atanh_ arctanh_"),
        row("take", "TakeBackward0", "self", "shape index", "k.take_grad(grad, shape, index)"),
        row("copysign", "CopysignBackward0", "self other", "self result",
            "k.copysign_grad(grad, self, result)", "k.zeros_like(grad)"),
        row("copysign_scalar", "CopysignBackward1", "self", "self result",
            "k.copysign_grad(grad, self, result)"),
        row("frexp", "FrexpBackward0", "self", "exponent", "k.frexp_grad(grad, exponent)",
            forward=element_wise),
        row("ldexp", "LdexpBackward0", "self other", "self other",
            "k.ldexp_grad(grad, self, other, True)", "k.ldexp_grad(grad, self, other, False)",
            forward=element_wise),
        row("index_fill", "IndexFillBackward0", "self", "dim index",
            "k.index_filled(grad, dim, index)"),
        row("index_copy", "IndexCopyBackward0", "self source", "dim index",
            "k.index_filled(grad, dim, index)", "k.index_select_of(grad, dim, index)"),
        row("index_put_accumulate", "IndexPutBackward0", "self values", "index", "grad",
            "k.getitem(grad, index)", inplace="index_put_"),
        # torch.special's own (_special_functions.py)
        row("special_entr", "SpecialEntrBackward0", "self", "self",
            "grad * -(1 + k.log(self))"),
        row("special_erfcx", "SpecialErfcxBackward0", "self", "self result",
            "(2.0 * self * result - 2.0 / k.sqrt_pi) * grad"),
        row("special_log_ndtr", "SpecialLogNdtrBackward0", "self", "self result",
            "grad / k.sqrt_2pi * k.exp(-(result + self * self / 2))"),
        row("special_ndtri", "SpecialNdtriBackward0", "self", "result",
            "grad * k.sqrt_2pi * k.exp(result * result / 2)"),
        row("i0", "I0Backward0", "self", "self", "grad * k.bessel_of(self, 1, False)"),
        row("special_i0e", "SpecialI0EBackward0", "self", "self result",
            "grad * (k.bessel_of(self, 1, True) - k.sgn(self) * result)"),
        row("special_i1", "SpecialI1Backward0", "self", "self result",
            "k.i1_grad(grad, self, result, False)"),
        row("special_i1e", "SpecialI1EBackward0", "self", "self result",
            "k.i1_grad(grad, self, result, True)"),
        row("special_xlog1py", "SpecialXlog1PyBackward0", "self other", "self other",
            "k.xlog1py_grad(grad, self, other)", "grad * self / (other + 1)"),
        row("special_xlog1py_other_scalar", "SpecialXlog1PyBackward2", "self", "self other",
            "k.xlog1py_grad(grad, self, other)"),
        row("special_xlog1py_self_scalar", "SpecialXlog1PyBackward1", "other", "self other",
            "grad * self / (other + 1)"),
        # sgn of a real tensor is sign: flat, a gradient of zeros
        row("sgn", "SgnBackward0", "self", "", "k.zeros_like(grad)", forward=element_wise),
        # products
        row("vdot", "VdotBackward0", "self other", "self other", "grad * other", "grad * self"),
        row("addmv", "AddmvBackward0", "self mat vec", "mat vec beta alpha",
            "k.scaled(grad, beta)", "k.scaled(k.outer(grad, vec), alpha)",
            "k.scaled(k.matmul(k.mT(mat), grad), alpha)"),
        row("addbmm", "AddbmmBackward0", "self batch1 batch2", "batch1 batch2 beta alpha",
            "k.scaled(grad, beta)", "k.addbmm_grad(grad, batch1, batch2, alpha, True)",
            "k.addbmm_grad(grad, batch1, batch2, alpha, False)"),
        row("addr", "AddrBackward0", "self vec1 vec2", "vec1 vec2 beta alpha",
            "k.scaled(grad, beta)", "k.scaled(k.matmul(grad, vec2), alpha)",
            "k.scaled(k.matmul(k.mT(grad), vec1), alpha)"),
        row("renorm", "RenormBackward0", "self", "self p dim maxnorm",
            "k.renorm_grad(grad, self, p, dim, maxnorm)"),
        # _view_scatters.py's: a view's values replaced, and values put at flat positions
        *(row(f"{view}_scatter", f"{view.capitalize()}ScatterBackward0", "self src", "args",
              *(f"k.scatter_view_grad(grad, '{view}_scatter', args, {for_self})"
                for for_self in (True, False)))
          for view in ("select", "slice", "diagonal")),
        row("put", "PutBackward0", "self source", "positions accumulate shape",
            *(f"k.put_grad(grad, positions, accumulate, shape, {for_self})"
              for for_self in (True, False))),
        # clamps by tensors (torch's clamp.Tensor overloads): the bounds get gradients too
        row("clamp_tensor", "ClampBackward0", "self min max", "self min max",
            "k.where(k.between(self, min, max), grad, 0)",
            "k.clamp_low_grad(grad, self, min, max)", "k.clamp_high_grad(grad, self, min, max)"),
        row("clamp_min_tensor", "ClampMinBackward1", "self min", "self min",
            "k.where(self >= min, grad, 0)", "k.where(self < min, grad, 0)"),
        row("clamp_max_tensor", "ClampMaxBackward1", "self max", "self max",
            "k.where(self <= max, grad, 0)", "k.where(self > max, grad, 0)"),
        # torch._foreach_*'s writes that have no derivative (_foreach.py)
        *(row(f"_foreach_{op}_", "NotImplemented", "self", "",
              f"k.not_implemented('_foreach_{op}_')") for op in ("maximum", "minimum")),
        row("_foreach_copy_", "NotImplemented", "self src", "",
            *["k.not_implemented('_foreach_copy_')"] * 2),
        # torch.norm_except_dim's at::norm, and torch._weight_norm along a first or last dim
        row("norm_no_dim", "NormBackward0", "self", "self ord dims keepdim result",
            "k.norm_grad(grad, self, ord, dims, keepdim, result)"),
        row("norm_dim", "NormBackward1", "self", "self ord dims keepdim result",
            "k.norm_grad(grad, self, ord, dims, keepdim, result)"),
        row("weight_norm_interface", "WeightNormInterfaceBackward0", "v g", "v g norms others",
            "k.weight_norm_grad(grad, v, g, norms, others, True)",
            "k.weight_norm_grad(grad, v, g, norms, others, False)"),
        # an embedding bag's sums, means or maxima of rows (nn/embedding_bag.py)
        row("embedding_bag", "EmbeddingBagBackward0", "weight per_sample_weights",
            "weight indices starts mode scales padding counts chosen",
            *(f"k.embedding_bag_grad(grad, weight, indices, starts, mode, scales, padding, "
              f"counts, chosen, {for_weight})" for for_weight in (True, False))),
        row("embedding_bag_backward", "EmbeddingBagBackwardBackward0", "grad per_sample_weights",
            "", *["k.no_derivative('_embedding_bag_backward')"] * 2),
        row("embedding_bag_per_sample_weights_backward", "NotImplemented", "grad weight", "",
            *["k.not_implemented('aten::_embedding_bag_per_sample_weights_backward')"] * 2),
        # a bilinear layer's one product of three (nn/bilinear.py)
        row("trilinear", "TrilinearBackward0", "i1 i2 i3", "i1 i2 i3 pattern",
            *(f"k.trilinear_grad(grad, i1, i2, i3, pattern, {which})" for which in range(3))),
        # a spatial transformer's grid and its sampling (nn/grid_sampling.py)
        row("affine_grid", "AffineGridGeneratorBackward0", "theta", "base",
            "k.affine_grid_grad(grad, base)"),
        *(rule for dims in (2, 3) for rule in _grid_sampler_rows(row, dims)),
        # linear algebra
        row("linalg_matrix_exp", "LinalgMatrixExpBackward0", "self", "self",
            "k.matrix_exp_grad(grad, self)"),
        row("linalg_solve_triangular", "LinalgSolveTriangularBackward0", "A B",
            "A result upper left unitriangular",
            "k.solve_triangular_grad(grad, A, result, upper, left, unitriangular, True)",
            "k.solve_triangular_grad(grad, A, result, upper, left, unitriangular, False)"),
        # one node for the solution and the residuals
        row("linalg_lstsq", "LinalgLstsqBackward0", "A B", "A B solution vector",
            "k.lstsq_grad(grad, A, B, solution, vector, True)",
            "k.lstsq_grad(grad, A, B, solution, vector, False)"),
        row("linalg_pinv", "LinalgPinvBackward0", "A", "A result",
            "k.pinv_grad(grad, result, A)"),
    )
