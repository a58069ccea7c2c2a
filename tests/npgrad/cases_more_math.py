"""The cases (tests/npgrad/cases.py's Case) for _more_math.py's rows."""

from __future__ import annotations

from tests.npgrad.cases import Case, _random_fill, _second


def _eye(m, a, scale=3.0):
    return scale * m.eye(a.shape[-1], dtype=a.dtype)


def _upper(m, a):
    """A well-conditioned upper triangle."""
    return a.triu() + _eye(m, a)


def _fixed(m, a, *values):
    return m.tensor(values, dtype=a.dtype)


def _sparse_leaf(m, a):
    """A fixed sparse (2, 3) matrix (a coordinate repeated, out of order) needing grad."""
    return m.sparse_coo_tensor(m.tensor([[1, 0, 1, 1], [2, 2, 0, 2]]),
                               m.tensor([3.0, 4.0, 5.0, 1.0], dtype=a.dtype), (2, 3),
                               requires_grad=True, check_invariants=False)


def _unpacked_primal(m, a):
    """forward AD's unpack_dual of a tensor with history: its primal, torch's Identity."""
    forward_ad = m.autograd.forward_ad
    with forward_ad.dual_level():
        dual = forward_ad.make_dual(a * 1, m.ones_like(a))
        return forward_ad.unpack_dual(dual.sin()).primal * 2


def _seeded(m, draw, a):
    m.manual_seed(5)
    return draw(a)


MORE_MATH_CASES: list = [
    # torch.special's own (_special_functions.py)
    Case("special_entr", ((2, 3),), lambda m, a: m.special.entr(a), domain="positive"),
    Case("special_erfcx", ((2, 3),), lambda m, a: m.special.erfcx(a)),
    Case("special_log_ndtr", ((2, 3),), lambda m, a: m.special.log_ndtr(a * 3)),
    Case("special_ndtri", ((2, 3),), lambda m, a: m.special.ndtri(a.sigmoid())),
    Case("i0", ((2, 3),), lambda m, a: m.special.i0(a * 2)),
    Case("special_i0e", ((2, 3),), lambda m, a: m.special.i0e(a * 2)),
    Case("special_i1", ((2, 3),), lambda m, a: m.special.i1(a * 2)),
    Case("special_i1e", ((2, 3),), lambda m, a: m.special.i1e(a * 2)),
    Case("special_xlog1py", ((2, 3), (2, 3)), lambda m, a, b: m.special.xlog1py(a, b.abs())),
    Case("special_xlog1py_other_scalar", ((2, 3),), lambda m, a: m.special.xlog1py(a, 1.5)),
    Case("special_xlog1py_self_scalar", ((2, 3),), lambda m, a: m.special.xlog1py(2.0, a),
         domain="positive"),
    # _everyday_ops.py's rows, and acosh and atanh
    Case("acosh", ((2, 3),), lambda m, a: m.acosh(a + 1.5), domain="positive"),
    Case("acosh_", ((3,),), lambda m, a: (a + 1.5).acosh_(), domain="positive",
         label="name-only"),
    Case("atanh", ((2, 3),), lambda m, a: m.atanh(a), domain="unit"),
    Case("atanh_", ((3,),), lambda m, a: (a * 0.5).arctanh_(), domain="unit", label="name-only"),
    Case("take", ((3, 4),), lambda m, a: m.take(a, m.tensor([[0, 5], [11, 5]]))),
    Case("copysign", ((3, 4), (4,)), lambda m, a, b: m.copysign(a, b)),
    Case("copysign_scalar", ((3, 4),), lambda m, a: a.copysign(-1.5)),
    Case("frexp", ((3, 4),), lambda m, a: m.frexp(a * 5).mantissa),
    Case("ldexp", ((3, 4),), lambda m, a: m.ldexp(a, m.tensor([1, -2, 3, 0]))),
    Case("index_fill", ((3, 4),), lambda m, a: a.index_fill(1, m.tensor([0, 2]), -2.0)),
    Case("index_fill", ((3, 4),), lambda m, a: (a * 1).index_fill_(0, m.tensor([1]), 0.5),
         label="inplace"),
    Case("index_copy", ((3, 4), (2, 4)), lambda m, a, b: a.index_copy(0, m.tensor([2, 0]), b)),
    Case("index_copy", ((3, 4), (3, 2)), lambda m, a, b: (a * 1).index_copy_(
        1, m.tensor([3, 1]), b), label="inplace"),
    Case("index_put", ((3, 4), (2,)), lambda m, a, b: a.index_put(
        (m.tensor([2, 0]), m.tensor([1, 3])), b), label="out-of-place"),
    Case("index_put_accumulate", ((3, 4), (3,)), lambda m, a, b: a.index_put(
        (m.tensor([2, 0, 2]), m.tensor([1, 3, 1])), b, accumulate=True)),
    Case("index_put_accumulate", ((3, 4), (3, 4)), lambda m, a, b: (a * 1).index_put_(
        (m.tensor([1, 1, 0]),), b, True), label="inplace"),
    Case("scatter", ((3, 4), (1, 4)), lambda m, a, b: (a * 1).scatter_(
        0, m.tensor([[0, 1, 2, 0]]), b), label="inplace"),
    Case("scatter_add", ((2, 4), (2, 3)), lambda m, a, b: (a * 1).scatter_add_(
        1, m.tensor([[0, 1, 0], [3, 3, 3]]), b), label="inplace"),
    # the rarer random fills: torch's numbers for the seed, and a zero gradient for the old
    Case("cauchy_", ((2, 3),), _random_fill("cauchy_", 0.5, 2.0)),
    Case("log_normal_", ((2, 3),), _random_fill("log_normal_", 0.25, 0.5)),
    Case("geometric_", ((2, 3),), _random_fill("geometric_", 0.3)),
    # max_unpool2d: a pool's values back at their places (indices from the pool, no gradient)
    Case("max_unpool2d", ((1, 2, 4, 4),), lambda m, a: m.nn.functional.max_unpool2d(
        *m.nn.functional.max_pool2d(a.detach(), 2, return_indices=True), 2) * a,
         domain="distinct"),
    Case("max_unpool2d", ((1, 2, 4, 4),), _second(lambda m, a: m.nn.functional.max_unpool2d(
        a[:, :, ::2, ::2] * 2, m.nn.functional.max_pool2d(a.detach(), 2,
                                                         return_indices=True)[1], 2)),
         domain="distinct", label="second"),
    # torch's older triangular helpers
    Case("triangular_solve", ((3, 3), (3, 2)),
         lambda m, a, b: m.triangular_solve(b, _upper(m, a)).solution),
    Case("triangular_solve", ((3, 3), (3, 2)), lambda m, a, b: (lambda r: r.solution * 2 +
         r.cloned_coefficient[:, :2])(m.triangular_solve(b, _upper(m, a).mT, upper=False,
                                                            transpose=True)), label="copy"),
    Case("cholesky_inverse", ((3, 3),), lambda m, a: m.cholesky_inverse(a.tril() + _eye(m, a))),
    Case("cholesky_inverse", ((3, 3),), _second(
        lambda m, a: m.cholesky_inverse(a.triu() + _eye(m, a), upper=True)), label="second"),
    # the gamma family's draws, seeded: torch's numbers, and a gamma draw's gradient
    Case("standard_gamma", ((2, 3),), lambda m, a: _seeded(m, m._standard_gamma, a * 2),
         domain="positive"),
    Case("standard_gamma", ((8,),), lambda m, a: _seeded(m, m._standard_gamma, a - 0.45),
         domain="positive", label="below-one"),
    Case("standard_gamma_grad", ((2, 3), (2, 3)),
         lambda m, a, b: m._standard_gamma_grad(a * 3, b * 2), domain="positive",
         label="name-only"),
    Case("poisson", ((2, 3),), lambda m, a: _seeded(m, m.poisson, a * 9), domain="positive"),
    Case("binomial", ((2, 3),), lambda m, a: _seeded(
        m, lambda p: m.binomial(m.full_like(p, 12.0), p / 3), a), domain="positive",
         label="name-only"),
    Case("sample_dirichlet", ((2, 3),), lambda m, a: _seeded(m, m._sample_dirichlet, a),
         domain="positive", label="name-only"),
    Case("dirichlet_grad", ((2, 3), (2, 3)), lambda m, a, b: m._dirichlet_grad(
        a / (a + 2), b, b.sum(-1, True).expand(2, 3) + 1), domain="positive",
         label="name-only"),
    # scatter_reduce: each reduction, with self's values and without, in place
    *[Case("scatter_reduce", ((2, 4), (2, 3)), lambda m, a, b, r=reduce, i=own: a.scatter_reduce(
        1, m.tensor([[0, 1, 0], [3, 3, 3]]), b, r, include_self=i), label=f"{reduce}-{own}")
      for reduce in ("sum", "mean", "prod", "amax", "amin") for own in (True, False)],
    Case("scatter_reduce", ((3, 2), (2, 2)), lambda m, a, b: (a * 1).scatter_reduce_(
        0, m.tensor([[2, 0], [2, 2]]), b, "prod"), label="inplace"),
    Case("scatter_reduce", ((3, 2), (3, 2)), lambda m, a, b: a.scatter_reduce(
        0, m.tensor([[0, 0], [0, 1], [2, 1]]), b * (b > 0), "prod", include_self=False),
         label="zeros"),
    *[Case("scatter_reduce", ((2, 5),), _second(lambda m, a, r=reduce: a.scatter_reduce(
        1, m.tensor([[0, 0, 1], [4, 2, 4]]), a[:, :3] * 2, r)), label=f"second-{reduce}")
      for reduce in ("sum", "mean", "amax", "prod")],
    *[Case("index_reduce", ((3, 2), (4, 2)), lambda m, a, b, r=reduce, i=own: a.index_reduce(
        0, m.tensor([2, 0, 2, 2]), b, r, include_self=i), label=f"{reduce}-{own}")
      for reduce in ("mean", "prod", "amax", "amin") for own in (True, False)],
    Case("index_reduce", ((2, 4), (2, 3)), lambda m, a, b: (a * 1).index_reduce_(
        1, m.tensor([3, 0, 3]), b, "mean"), label="inplace"),
    Case("index_reduce", ((3, 2),), _second(lambda m, a: a.index_reduce(
        0, m.tensor([1, 1]), a[:2] * 3, "amax")), label="second"),

    # cumulative ops
    Case("cumprod", ((3, 4),), lambda m, a: a.cumprod(1)),
    Case("cumprod", ((2, 3),), lambda m, a: m.cumprod(a, dim=0), label="dim0"),
    Case("cumprod", ((2, 4),), lambda m, a: (a * (a > 0)).cumprod(-1), label="zeros"),
    Case("cumprod", ((3, 4),), _second(lambda m, a: a.cumprod(1)), label="second"),
    Case("cummax", ((3, 4),), lambda m, a: a.cummax(1).values),
    Case("cummax", ((3, 4),), lambda m, a: m.cummax(a, dim=0)[0], label="function"),
    Case("cummax", ((3, 4),), _second(lambda m, a: a.cummax(1)[0]), label="second"),
    Case("cummin", ((3, 4),), lambda m, a: m.cummin(a, -1).values),
    Case("logcumsumexp", ((3, 4),), lambda m, a: a.logcumsumexp(1)),
    Case("logcumsumexp", ((5,),), lambda m, a: m.logcumsumexp(a, dim=0), label="vector"),
    Case("logcumsumexp", ((3, 4),), _second(lambda m, a: a.logcumsumexp(0)), label="second"),
    Case("masked_scatter", ((3, 4), (9,)), lambda m, a, b: a.masked_scatter(
        m.tensor([[True, False, True, True]] * 3), b)),
    Case("masked_scatter", ((3, 4), (5,)), lambda m, a, b: (a * 1).masked_scatter_(
        m.tensor([True, False, True, False]), b[:2].expand(3, 2).reshape(-1)),
         label="in-place"),
    Case("masked_scatter_backward", ((3, 4), (9,)), lambda m, a, b: m.autograd.grad(
        (a.masked_scatter(m.tensor([[True, False, True, True]] * 3), b) ** 3).sum(), b,
        create_graph=True)[0]),
    Case("fmax", ((3, 4), (4,)), lambda m, a, b: m.fmax(a, b)),
    Case("fmin", ((3, 4), (3, 4)), lambda m, a, b: m.fmin(a, b.masked_fill(b > 1, m.nan))),
    Case("rrelu_with_noise", ((3, 4),), lambda m, a: m.nn.functional.rrelu(a, 0.1, 0.3)),
    Case("rrelu_with_noise_", ((3, 4),), lambda m, a: m.rrelu_(a * 2, 0.2, 0.4)),
    Case("rrelu_with_noise_backward", ((3, 4),), lambda m, a: m.autograd.grad(
        (m.rrelu(a) ** 3).sum(), a, create_graph=True)[0]),
    Case("adaptive_max_pool2d", ((2, 3, 5, 7),), lambda m, a: m.nn.functional.adaptive_max_pool2d(
        a, (2, 3)), domain="distinct"),
    Case("adaptive_max_pool2d", ((3, 4, 4),), lambda m, a: m.nn.functional.adaptive_max_pool2d(
        a, 3), domain="distinct", label="one-image"),
    Case("adaptive_max_pool2d_backward", ((1, 2, 4, 5),), lambda m, a: m.autograd.grad(
        (m.nn.functional.adaptive_max_pool2d(a, (3, 2)) ** 3).sum(), a, create_graph=True)[0],
         domain="distinct"),
    Case("conv_transpose3d", ((2, 4, 3, 2, 3), (4, 3, 2, 2, 3), (6,)), lambda m, x, w, b:
         m.nn.functional.conv_transpose3d(x, w, b, (2, 1, 2), (0, 1, 1), (1, 0, 1), 2)),
    Case("conv_transpose3d", ((2, 3, 2, 2), (2, 2, 2, 1, 2)), lambda m, x, w:
         m.nn.functional.conv_transpose3d(x, w, dilation=(1, 2, 1)), label="one-volume"),
    Case("conv_transpose3d_input_backward", ((1, 2, 3, 2, 2), (2, 3, 2, 2, 2)), lambda m, x, w:
         m.autograd.grad((m.nn.functional.conv_transpose3d(x, w, None, 2, 1, 1) ** 2).sum(), x,
                         create_graph=True)[0]),
    Case("conv_transpose3d_weight_backward", ((1, 4, 2, 3, 2), (4, 1, 2, 2, 2)), lambda m, x, w:
         m.autograd.grad((m.nn.functional.conv_transpose3d(x, w, None, 1, 0, 0, 2) ** 2).sum(),
                         w, create_graph=True)[0]),
    Case("conv_transpose2d_input_backward", ((1, 2, 3, 3), (2, 3, 2, 2)), lambda m, x, w:
         m.autograd.grad((m.nn.functional.conv_transpose2d(x, w, None, 2, 1, 1) ** 2).sum(), x,
                         create_graph=True)[0]),
    *(Case("convolution_bias_backward", (shape, filters, (3,)), lambda m, x, w, b, f=f:
           m.autograd.grad((getattr(m.nn.functional, f)(x, w, b) ** 2).sum(), b,
                           create_graph=True)[0], label=f)
      for f, shape, filters in (("conv1d", (2, 2, 5), (3, 2, 2)),
                                ("conv2d", (1, 2, 4, 4), (3, 2, 2, 2)),
                                ("conv3d", (1, 2, 3, 3, 3), (3, 2, 2, 2, 2)),
                                ("conv_transpose2d", (1, 2, 3, 3), (2, 3, 2, 2)))),
    Case("upsample_trilinear3d", ((1, 2, 3, 4, 3),), lambda m, a: m.nn.functional.interpolate(
        a, scale_factor=(1.5, 2, 0.7), mode="trilinear")),
    Case("upsample_trilinear3d", ((2, 1, 2, 3, 4),), lambda m, a: m.nn.functional.interpolate(
        a, size=(3, 5, 2), mode="trilinear", align_corners=True), label="corners"),
    Case("upsample_trilinear3d_backward", ((1, 1, 2, 3, 3),), _second(
        lambda m, a: m.nn.functional.interpolate(a, size=(3, 4, 2), mode="trilinear"))),
    Case("upsample_nearest3d", ((1, 2, 3, 2, 3),), lambda m, a: m.nn.functional.interpolate(
        a, size=(4, 3, 5))),
    Case("upsample_nearest3d_backward", ((1, 1, 2, 3, 2),), _second(
        lambda m, a: m.nn.functional.interpolate(a, scale_factor=2))),
    Case("upsample_nearest_exact3d", ((1, 2, 3, 2, 3),), lambda m, a:
         m.nn.functional.interpolate(a, size=(5, 3, 4), mode="nearest-exact")),
    Case("upsample_nearest_exact3d_backward", ((1, 1, 3, 2, 2),), _second(
        lambda m, a: m.nn.functional.interpolate(a, size=(2, 3, 3), mode="nearest-exact"))),
    Case("adaptive_max_pool3d", ((2, 3, 5, 4, 6),), lambda m, a:
         m.nn.functional.adaptive_max_pool3d(a, (2, None, 4)), domain="distinct"),
    Case("adaptive_max_pool3d", ((2, 4, 4, 3),), lambda m, a:
         m.nn.functional.adaptive_max_pool3d(a, 3), domain="distinct", label="one-volume"),
    Case("adaptive_max_pool3d_backward", ((1, 2, 4, 5, 3),), lambda m, a: m.autograd.grad(
        (m.nn.functional.adaptive_max_pool3d(a, (3, 2, 2)) ** 3).sum(), a,
        create_graph=True)[0], domain="distinct"),
    Case("max_unpool3d", ((1, 2, 4, 4, 4),), lambda m, a: m.nn.functional.max_unpool3d(
        *m.nn.functional.max_pool3d(a.detach(), 2, return_indices=True), 2) * a,
         domain="distinct"),
    Case("max_unpool3d", ((1, 2, 4, 4, 4),), _second(lambda m, a: m.nn.functional.max_unpool3d(
        a[:, :, ::2, ::2, ::2] * 2, m.nn.functional.max_pool3d(a.detach(), 2,
                                                               return_indices=True)[1], 2)),
         domain="distinct", label="second"),
    Case("pdist", ((4, 3),), lambda m, a: m.nn.functional.pdist(a)),
    Case("pdist", ((5, 2),), lambda m, a: m.pdist(a, 1.5), label="p"),
    Case("pdist_backward", ((4, 3),), lambda m, a: m.autograd.grad(
        (m.pdist(a) ** 2).sum(), a, create_graph=True)[0], label="name-only"),
    Case("conv3d", ((2, 4, 4, 5, 3), (6, 2, 2, 3, 2), (6,)), lambda m, x, w, b:
         m.nn.functional.conv3d(x, w, b, (1, 2, 1), 1, (1, 1, 2), 2)),
    Case("conv3d_input_backward", ((1, 2, 4, 4, 3), (3, 2, 2, 2, 2)), lambda m, x, w:
         m.autograd.grad((m.nn.functional.conv3d(x, w, None, 2, 1) ** 2).sum(), x,
                         create_graph=True)[0]),
    Case("conv3d_weight_backward", ((1, 2, 4, 4, 3), (3, 2, 2, 2, 2)), lambda m, x, w:
         m.autograd.grad((m.nn.functional.conv3d(x, w) ** 2).sum(), w, create_graph=True)[0]),
    *(Case(f"fractional_max_pool{dims}d", (shape,), lambda m, a, dims=dims, size=size: _seeded(
        m, lambda x: getattr(m.nn.functional, f"fractional_max_pool{dims}d")(x, 2, size), a),
        domain="distinct") for dims, shape, size in ((2, (1, 2, 7, 6), (3, 4)),
                                                      (3, (2, 5, 6, 5), (3, 3, 2)))),
    *(Case(f"fractional_max_pool{dims}d_backward", (shape,),
           lambda m, a, dims=dims: m.autograd.grad((_seeded(
               m, lambda x: getattr(m.nn.functional, f"fractional_max_pool{dims}d")(x, 2, 3),
               a) ** 3).sum(), a, create_graph=True)[0], domain="distinct")
      for dims, shape in ((2, (1, 2, 6, 6)), (3, (1, 2, 5, 5, 5)))),
    Case("max_pool3d", ((1, 2, 4, 5, 6),), lambda m, a: m.nn.functional.max_pool3d(
        a, (2, 3, 2), 1, 1, (1, 1, 2)), domain="distinct"),
    Case("max_pool3d_backward", ((1, 2, 4, 4, 4),), lambda m, a: m.autograd.grad(
        (m.nn.functional.max_pool3d(a, 2) ** 3).sum(), a, create_graph=True)[0],
         domain="distinct"),
    *(Case(op, ((1, 2, 4, 5, 6),), lambda m, a, op=op, size=size: getattr(
        m.nn.functional, op)(a, size)) for op, size in (("avg_pool3d", 2),
                                                         ("adaptive_avg_pool3d", (2, 3, 4)))),
    *(Case(f"{op}_backward", ((1, 2, 4, 5, 6),), lambda m, a, op=op: m.autograd.grad(
        (getattr(m.nn.functional, op)(a, 2) ** 3).sum(), a, create_graph=True)[0])
      for op in ("avg_pool3d", "adaptive_avg_pool3d")),
    Case("lgamma", ((3, 4),), lambda m, a: m.lgamma(a * 3 + 0.1), domain="positive"),
    Case("lgamma", ((3, 4),), lambda m, a: m.autograd.grad(
        m.special.gammaln(a - 2.5).sum(), a, create_graph=True)[0], domain="positive",
         label="second-order-negative"),
    Case("digamma", ((3, 4),), lambda m, a: m.special.psi(a * 20 - 8.5), domain="positive"),
    Case("polygamma", ((3, 4),), lambda m, a: m.polygamma(1, a * 4 - 2.3), domain="positive"),
    Case("polygamma_", ((3, 4),), lambda m, a: (a + 0.5).polygamma_(1), domain="positive"),
    Case("mvlgamma_", ((3, 4),), lambda m, a: (a + 1.5).mvlgamma_(3), domain="positive"),
    Case("mvlgamma", ((3, 4),), lambda m, a: (a + 1.5).mvlgamma(3), domain="positive"),
    Case("polygamma", ((3, 4),), lambda m, a: a.polygamma(3), domain="positive",
         label="zeta"),
    Case("igamma", ((3, 4), (3, 4)), lambda m, a, b: m.igamma(a.detach() * 3, b * 2),
         domain="positive"),
    Case("igamma", ((3, 4),), lambda m, a: m.autograd.grad(
        m.special.gammainc(m.full_like(a, 2.5), a * 3).sum(), a, create_graph=True)[0],
         domain="positive", label="second-order"),
    Case("igammac", ((3, 4), (4,)), lambda m, a, b: m.special.gammaincc(a.detach() + 0.5, b),
         domain="positive", label="broadcast"),
    Case("sub_scalar", ((3, 4), (3, 4)), lambda m, a, b: m.nn.functional.cosine_embedding_loss(
        a, b, m.tensor([1, -1, -1]), margin=0.1, reduction="none")),
    Case("soft_margin_loss", ((3, 4),), lambda m, a: m.nn.functional.soft_margin_loss(
        a, m.tensor([[1.0, -1.0, 1.0, 1.0]] * 3))),
    Case("soft_margin_loss", ((3, 4),), lambda m, a: m.nn.functional.soft_margin_loss(
        a, m.tensor([[1.0, -1.0, 1.0, 1.0]] * 3), reduction="none"), label="none"),
    Case("soft_margin_loss_backward", ((3, 4),), lambda m, a: m.autograd.grad(
        m.nn.functional.soft_margin_loss(a * a, m.tensor([[1.0, -1.0, 1.0, 1.0]] * 3),
                                         reduction="sum"), a, create_graph=True)[0]),
    Case("multi_margin_loss", ((3, 4),), lambda m, a: m.nn.functional.multi_margin_loss(
        a, m.tensor([0, 3, 1]), reduction="none")),
    Case("multi_margin_loss", ((3, 4),), lambda m, a: m.nn.functional.multi_margin_loss(
        a, m.tensor([0, 3, 1]), p=2, margin=0.7, weight=m.tensor([0.5, 1.0, 2.0, 1.5],
                                                                 dtype=a.dtype)), label="p2"),
    Case("multilabel_margin_loss", ((3, 4),), lambda m, a: m.nn.functional.multilabel_margin_loss(
        a, m.tensor([[0, 3, -1, 0], [1, -1, 0, 0], [2, 1, 0, 3]]))),
    *(Case(f"{loss}_backward", ((3, 4),), lambda m, a, loss=loss, target=target: m.autograd.grad(
        getattr(m.nn.functional, loss)(a, m.tensor(target)), a, create_graph=True)[0],
        label="name-only")
      for loss, target in (("multi_margin_loss", [0, 3, 1]),
                           ("multilabel_margin_loss", [[0, 3, -1, 0]] * 3))),
    Case("ctc_loss", ((6, 2, 4),), lambda m, a: m.nn.functional.ctc_loss(
        a.log_softmax(2), m.tensor([[1, 2, 2], [3, 1, 0]]), [6, 5], [3, 2], reduction="none")),
    Case("ctc_loss_backward", ((6, 2, 4),), lambda m, a: m.autograd.grad(
        m.nn.functional.ctc_loss(a, m.tensor([[1, 2], [3, 3]]), [6, 6], [2, 2]), a,
        create_graph=True)[0], label="name-only"),
    Case("div_by_number", ((3, 4), (4,)), lambda m, y, x: m.trapezoid(y, x)),
    Case("div_by_number", ((3, 4), (3, 4)), lambda m, y, x: m.trapezoid(y, x, dim=0),
         label="grid"),
    Case("trapezoid", ((3, 4),), lambda m, a: m.trapezoid(a, dx=0.5)),
    Case("cumulative_trapezoid", ((3, 4),), lambda m, a: m.cumulative_trapezoid(a, dim=0)),
    Case("diff", ((3, 4), (1, 4)), lambda m, a, b: m.diff(a, n=2, dim=0, prepend=b)),
    # shapes and diagonals
    Case("rot90", ((3, 4),), lambda m, a: a.rot90()),
    Case("rot90", ((2, 3, 4),), lambda m, a: m.rot90(a, -3, [2, 0]), label="dims"),
    Case("rot90", ((3, 4),), lambda m, a: a.rot90(2), label="twice"),
    Case("rot90", ((3, 4),), _second(lambda m, a: a.rot90(3)), label="second"),
    Case("block_diag", ((2, 3), (3,), ()), lambda m, a, b, c: m.block_diag(a, b, c)),
    Case("block_diag", ((2, 2),), _second(lambda m, a: m.block_diag(a, a * 2)),
         label="second"),
    Case("diag_embed", ((3, 4),), lambda m, a: a.diag_embed()),
    Case("diag_embed", ((2, 3),), lambda m, a: m.diag_embed(a, 1, 0, 2), label="offset"),
    Case("diag_embed", ((4,),), lambda m, a: m.diag(a, -1), label="diag"),
    Case("diag_embed", ((2, 2),), lambda m, a: a.diagflat(1), label="diagflat"),
    Case("diag_embed", ((3, 4),), _second(lambda m, a: a.diag_embed()), label="second"),
    Case("diag_copy", ((3, 4),), lambda m, a: a.diag(1)),
    Case("diag_copy", ((4, 3),), lambda m, a: m.diag(a, -1), label="below"),
    Case("diag_copy", ((3, 3),), _second(lambda m, a: a.diag()), label="second"),
    Case("narrow_copy", ((3, 4),), lambda m, a: a.narrow_copy(1, 1, 2)),
    Case("narrow_copy", ((3, 4),), _second(lambda m, a: m.narrow_copy(a, 0, 1, 2)),
         label="second"),
    # special functions
    Case("logaddexp", ((3, 4), (4,)), lambda m, a, b: m.logaddexp(a, b)),
    Case("logaddexp", ((3, 4),), _second(lambda m, a: a.logaddexp(a * 2)), label="second"),
    Case("logaddexp2", ((3, 4), (3, 4)), lambda m, a, b: a.logaddexp2(b)),
    Case("erfinv", ((3, 4),), lambda m, a: a.erfinv(), domain="unit"),
    Case("erfinv", ((3, 4),), _second(lambda m, a: m.erfinv(a)), domain="unit",
         label="second"),
    Case("sinc", ((3, 4),), lambda m, a: a.sinc()),
    Case("sinc", ((3, 4),), _second(lambda m, a: m.sinc(a)), label="second"),
    Case("logit", ((3, 4),), lambda m, a: a.abs().logit(), domain="unit"),
    Case("logit", ((3, 4),), lambda m, a: m.logit(a, eps=0.2), domain="unit", label="eps"),
    Case("logit", ((3, 4),), _second(lambda m, a: m.logit(a, 0.1)), domain="unit",
         label="second"),
    Case("heaviside", ((3, 4), (4,)), lambda m, a, b: m.heaviside(a, b), label="name-only"),
    Case("heaviside_", ((3, 4), (4,)), lambda m, a, b: (a * 1).heaviside_(b), label="name-only"),
    Case("floor_divide_", ((3,),), lambda m, a: (a * 1).floor_divide_(2), label="name-only"),
    Case("rsub_tensor", ((2, 3), (3,)), lambda m, a, b: m.rsub(a, b, alpha=2)),
    Case("nextafter", ((2, 3), (3,)), lambda m, a, b: m.nextafter(a, b)),
    Case("nextafter", ((3,), (3,)), lambda m, a, b: m.nextafter(a, a.detach() * 1) + b,
         label="at-other"),
    Case("deg2rad", ((3, 4),), lambda m, a: a.deg2rad()),
    Case("deg2rad", ((3, 4),), _second(lambda m, a: m.deg2rad(a)), label="second"),
    Case("rad2deg", ((3, 4),), lambda m, a: m.rad2deg(a)),
    # (torch's gradient is a ZeroTensor, which has no values to compare)
    Case("sgn", ((3, 4),), lambda m, a: a.sgn(), label="name-only"),
    Case("float_power", ((3, 4), (4,)), lambda m, a, b: a.abs().float_power(b)),
    # products
    Case("vdot", ((4,), (4,)), lambda m, a, b: m.vdot(a, b)),
    Case("vdot", ((4,),), _second(lambda m, a: a.vdot(a.exp())), label="second"),
    Case("vdot", ((4,), (4,)), lambda m, a, b: m.linalg.vecdot(a, b), label="vecdot"),
    Case("addmv", ((3,), (3, 4), (4,)), lambda m, s, a, b: m.addmv(s, a, b)),
    Case("addmv", ((1,), (3, 4), (4,)), lambda m, s, a, b: s.addmv(a, b, beta=0.5, alpha=2),
         label="scaled"),
    Case("addbmm", ((3, 5), (2, 3, 4), (2, 4, 5)), lambda m, s, a, b: m.addbmm(s, a, b)),
    Case("addbmm", ((3, 5), (2, 3, 4), (2, 4, 5)),
         lambda m, s, a, b: s.addbmm(a, b, beta=2, alpha=0.5), label="scaled"),
    Case("addr", ((3, 4), (3,), (4,)), lambda m, s, a, b: m.addr(s, a, b)),
    Case("addr", ((1,), (3,), (4,)), lambda m, s, a, b: s.addr(a, b, beta=0.5, alpha=2),
         label="scaled"),
    Case("addr", ((3, 4), (3,), (4,)), lambda m, s, a, b: (s * 1).addr_(a, b, alpha=3),
         label="in-place"),
    Case("renorm", ((3, 4),), lambda m, a: m.renorm(a * 3, 2, 0, 1.5)),
    Case("renorm", ((3, 4),), lambda m, a: a.renorm(1, -1, 0.5), label="p1"),
    Case("renorm", ((2, 3, 4),), lambda m, a: (a * 1).renorm_(3, 1, 1.0), label="in-place"),
    Case("select_scatter", ((3, 4), (4,)), lambda m, a, b: m.select_scatter(a, b * 2, 0, 1)),
    Case("slice_scatter", ((3, 4), (3, 2)),
         lambda m, a, b: a.slice_scatter(b, dim=1, start=0, end=4, step=2)),
    Case("diagonal_scatter", ((3, 4), (3,)), lambda m, a, b: m.diagonal_scatter(a, b, 1)),
    Case("put", ((2, 3), (3,)), lambda m, a, b: a.put(m.tensor([0, 4, -1]), b)),
    Case("put", ((2, 3), (3,)), lambda m, a, b: m.put(a, m.tensor([0, 4, 0]), b, True),
         label="accumulate"),
    Case("put", ((2, 3), (2,)), lambda m, a, b: (a * 1).put_(m.tensor([[5], [1]]), b),
         label="in-place"),
    Case("clamp_tensor", ((2, 3), (3,), (2, 3)), lambda m, a, lo, hi: a.clamp(lo, hi + 1)),
    Case("clamp_tensor", ((2, 3), (2, 3)), lambda m, a, hi: (a * 1).clamp_(max=hi),
         label="in-place-max"),
    Case("clamp_min_tensor", ((2, 3), (3,)), lambda m, a, b: m.clamp_min(a, b)),
    Case("clamp_max_tensor", ((2, 3), (2, 3)), lambda m, a, b: (a * 1).clamp_max_(b),
         label="in-place"),
    Case("_foreach_maximum_", ((2, 3),), lambda m, a: m._foreach_maximum_([a * 1], 0.1)[0],
         label="name-only"),
    Case("_foreach_minimum_", ((2, 3),), lambda m, a: m._foreach_minimum_([a * 1], [0.1])[0],
         label="name-only"),
    Case("_foreach_copy_", ((2, 3), (3,)), lambda m, a, b: m._foreach_copy_([a * 1], [b])[0],
         label="name-only"),
    Case("foreach_powsum", ((2, 3), (3,)), lambda m, a, b: m._foreach_powsum([a, b], 1)[1],
         label="name-only"),
    Case("inner", ((3, 4), (2, 4)), lambda m, a, b: m.inner(a, b)),
    Case("inner", ((4,), (4,)), lambda m, a, b: a.inner(b), label="vectors"),
    Case("ger", ((3,), (4,)), lambda m, a, b: a.ger(b)),
    Case("multi_dot", ((3, 4), (4, 5), (5,)), lambda m, a, b, c: m.linalg.multi_dot([a, b, c])),
    Case("multi_dot", ((2, 3), (3, 4), (4, 5), (5, 2)),
         lambda m, a, b, c, d: m.linalg.multi_dot((a, b, c, d)), label="four"),
    # linear algebra
    Case("norm_dim", ((3, 4),), lambda m, a: m.norm_except_dim(a, 2, 0)),
    Case("norm_dim", ((2, 3, 4),), lambda m, a: m.norm_except_dim(a, 3, 1), label="middle"),
    Case("norm_dim", ((2, 3, 4),), lambda m, a: m.autograd.grad(
        (m.norm_except_dim(a, 3, 1) ** 3).sum(), a, create_graph=True)[0], label="second-order"),
    Case("norm_no_dim", ((3, 4),), lambda m, a: m.norm_except_dim(a, 2, -1)),
    Case("norm_no_dim", ((3, 4),), lambda m, a: m.autograd.grad(
        m.norm_except_dim(a, 2, -1) ** 3, a, create_graph=True)[0], label="second-order"),
    Case("weight_norm_interface", ((4, 3), (4, 1)), lambda m, v, g: m._weight_norm(v, g, 0)),
    Case("weight_norm_interface", ((2, 3, 4), (1, 1, 4)),
         lambda m, v, g: m._weight_norm(v, g, 2), label="last"),
    Case("weight_norm_interface", ((4, 3), (4, 1)), lambda m, v, g: m.autograd.grad(
        (m._weight_norm(v, g, 0) ** 3).sum(), v, create_graph=True)[0], label="second-order"),
    Case("embedding_bag", ((5, 3),), lambda m, w: m.nn.functional.embedding_bag(
        m.tensor([1, 2, 0, 3, 3]), w, m.tensor([0, 2]))),
    Case("embedding_bag", ((5, 3), (4,)), lambda m, w, p: m.nn.functional.embedding_bag(
        m.tensor([[1, 2], [4, 4]]), w, mode="sum", per_sample_weights=p.view(2, 2)),
        label="weighted"),
    Case("embedding_bag_backward", ((5, 3),), lambda m, w: m.autograd.grad(
        (m.nn.functional.embedding_bag(m.tensor([1, 2, 0, 3]), w, m.tensor([0, 2]),
                                       mode="mean") ** 2).sum(), w, create_graph=True)[0],
        label="name-only"),
    Case("embedding_bag_per_sample_weights_backward", ((5, 3), (4,)), lambda m, w, p:
         m.autograd.grad((m.nn.functional.embedding_bag(
             m.tensor([[1, 2], [4, 4]]), w, mode="sum", per_sample_weights=p.view(2, 2)) ** 2
         ).sum(), p, create_graph=True)[0], label="name-only"),
    Case("trilinear", ((4, 3), (4, 2), (5, 3, 2)), lambda m, a, b, w:
         m.nn.functional.bilinear(a, b, w)),
    Case("trilinear", ((4, 3), (4, 2), (5, 3, 2)), lambda m, a, b, w: m.autograd.grad(
        (m.nn.functional.bilinear(a, b, w) ** 2).sum(), (a, w), create_graph=True)[1],
         label="second-order"),
    Case("affine_grid", ((2, 2, 3),), lambda m, t: m.nn.functional.affine_grid(
        t, (2, 1, 3, 4), align_corners=False)),
    Case("grid_sampler_2d", ((1, 2, 4, 5), (1, 3, 2, 2)), lambda m, a, g:
         m.nn.functional.grid_sample(a, g * 0.9, align_corners=False)),
    *(Case(f"grid_sampler_2d_{part}_backward", ((1, 2, 4, 5), (1, 3, 2, 2)),
           lambda m, a, g, which=which: m.autograd.grad((m.nn.functional.grid_sample(
               a, g * 0.9, align_corners=False) ** 2).sum(), (a, g), create_graph=True)[which])
      for which, part in enumerate(("input", "grid"))),
    Case("grid_sampler_2d", ((1, 2, 4, 5), (1, 3, 2, 2)), lambda m, a, g:
         m.nn.functional.grid_sample(a, g * 1.3, padding_mode="reflection",
                                     align_corners=True), label="reflection"),
    Case("grid_sampler_2d", ((1, 2, 4, 5), (1, 3, 2, 2)), lambda m, a, g:
         m.nn.functional.grid_sample(a, g * 1.3, mode="bicubic", padding_mode="border",
                                     align_corners=False), label="bicubic"),
    Case("affine_grid", ((2, 3, 4),), lambda m, t: m.nn.functional.affine_grid(
        t, (2, 1, 2, 3, 4), align_corners=True), label="volume"),
    Case("grid_sampler_3d", ((1, 2, 3, 4, 5), (1, 2, 3, 2, 3)), lambda m, a, g:
         m.nn.functional.grid_sample(a, g * 0.9, align_corners=False)),
    *(Case(f"grid_sampler_3d_{part}_backward", ((1, 2, 3, 4, 5), (1, 2, 3, 2, 3)),
           lambda m, a, g, which=which: m.autograd.grad((m.nn.functional.grid_sample(
               a, g * 0.9, align_corners=False) ** 2).sum(), (a, g), create_graph=True)[which])
      for which, part in enumerate(("input", "grid"))),
    # sparse tensors under autograd (_sparse_ops.py)
    Case("to_dense", ((2, 3),), lambda m, a: _sparse_leaf(m, a).to_dense() * a),
    Case("sparse_coalesce", ((3,),), lambda m, a: _sparse_leaf(m, a).coalesce().values() * a),
    Case("sparse_values", ((3,),), lambda m, a: _sparse_leaf(m, a).coalesce().values() + a),
    Case("sparse_sum", ((2,),), lambda m, a: m.sparse.sum(_sparse_leaf(m, a), 1).to_dense()
         * a),
    Case("sparse_coo_tensor", ((4,),), lambda m, v: m.sparse_coo_tensor(
        m.tensor([[1, 0, 1, 1], [2, 2, 0, 2]]), v * 2, (2, 3), check_invariants=False
    ).to_dense() * m.arange(6.0, dtype=v.dtype).reshape(2, 3)),
    Case("sparse_addmm", ((2, 2), (3, 2)), lambda m, b, w: m.sparse.addmm(
        b, _sparse_leaf(m, b), w, beta=0.5, alpha=2)),
    Case("unpack_dual", ((3,),), _unpacked_primal),
    Case("linalg_matrix_exp", ((3, 3),), lambda m, a: m.linalg.matrix_exp(a)),
    Case("linalg_matrix_exp", ((2, 3, 3),), lambda m, a: a.matrix_exp(), label="batched"),
    Case("linalg_matrix_exp", ((3, 3),), _second(lambda m, a: m.matrix_exp(a)), label="second"),
    Case("linalg_solve_triangular", ((3, 3), (3, 2)),
         lambda m, a, b: m.linalg.solve_triangular(_upper(m, a), b, upper=True)),
    Case("linalg_solve_triangular", ((3, 3), (2, 3)),
         lambda m, a, b: m.linalg.solve_triangular(a.tril() + _eye(m, a), b, upper=False,
                                                   left=False), label="right"),
    Case("linalg_solve_triangular", ((3, 3), (3, 2)),
         lambda m, a, b: m.linalg.solve_triangular(a, b, upper=True, unitriangular=True),
         label="unit"),
    Case("linalg_solve_triangular", ((3, 3),), _second(
        lambda m, a: m.linalg.solve_triangular(a, _fixed(m, a, [1.0], [2.0], [-1.0]),
                                               upper=False, unitriangular=True)),
         label="second"),
    Case("linalg_lstsq", ((4, 3), (4,)), lambda m, a, b: m.linalg.lstsq(a, b).solution),
    Case("linalg_lstsq", ((4, 2), (4, 3)), lambda m, a, b: m.linalg.lstsq(a, b)[0],
         label="matrix"),
    Case("linalg_lstsq", ((4, 3),), _second(
        lambda m, a: m.linalg.lstsq(a, _fixed(m, a, 1.0, -2.0, 0.5, 3.0)).solution),
         label="second"),
    Case("linalg_pinv", ((3, 4),), lambda m, a: m.linalg.pinv(a)),
    Case("linalg_pinv", ((4, 3),), lambda m, a: a.pinverse(), label="tall"),
    Case("linalg_pinv", ((2, 3, 4),), lambda m, a: m.pinverse(a), label="batched"),
    Case("linalg_pinv", ((3, 4),), _second(lambda m, a: m.linalg.pinv(a)), label="second"),
    Case("linalg_pinv", ((4, 3),), _second(lambda m, a: m.linalg.pinv(a)), label="second-tall"),
    Case("matrix_power", ((3, 3),), lambda m, a: m.linalg.matrix_power(a, 5)),
    Case("matrix_power", ((3, 3),), lambda m, a: (a + _eye(m, a)).matrix_power(-2),
         label="inverse"),
    Case("cond", ((3, 3),), lambda m, a: m.linalg.cond(a + _eye(m, a))),
    # (torch's backward fails: its masked_fill_ changed the inverse its inv_ex node saved)
    Case("cond", ((3, 3),), lambda m, a: m.linalg.cond(a + _eye(m, a), "fro"),
         label="name-only"),
    Case("matrix_norm", ((3, 4),), lambda m, a: m.linalg.matrix_norm(a, "nuc")),
    Case("matrix_norm", ((3, 4),), lambda m, a: m.linalg.matrix_norm(a, -1), label="one"),
    Case("matrix_norm", ((2, 3, 4),), lambda m, a: m.linalg.matrix_norm(
        a, float("inf"), dim=(2, 0), keepdim=True), label="inf"),
    Case("matrix_norm", ((3, 4),), lambda m, a: m.linalg.norm(a, 2), label="two"),
    Case("cov", ((3, 5),), lambda m, a: m.cov(a)),
    Case("corrcoef", ((3, 5),), lambda m, a: a.corrcoef()),
    # (torch's backward fails: its copy_ overwrites the values its cumprod saved)
    Case("vander", ((4,),), lambda m, a: m.vander(a, 3), label="name-only"),
]
