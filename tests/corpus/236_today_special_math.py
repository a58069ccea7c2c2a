# In the style of: scientific/probabilistic code using torch.special and elementwise math with gradients (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: scientific-ml
import torch
import torch.special as sp
torch.manual_seed(0)
torch.set_printoptions(precision=5)
x = torch.tensor([0.2, 0.5, 0.9], requires_grad=True)
vals = {
    "erfinv": sp.erfinv(x), "logit": sp.logit(x, eps=1e-6), "ndtri": sp.ndtri(x), "log_ndtr": sp.log_ndtr(x),
    "xlogy": sp.xlogy(x, x + 1), "xlog1py": sp.xlog1py(x, x), "entr": sp.entr(x), "sinc": sp.sinc(x),
    "i0e": sp.i0e(x), "i1": sp.i1(x), "digamma": sp.digamma(x + 1), "polygamma1": sp.polygamma(1, x + 1),
    "gammaln": sp.gammaln(x + 1), "expit": sp.expit(x), "erfcx": sp.erfcx(x), "ndtr": sp.ndtr(x),
    "log1p": sp.log1p(x), "expm1": sp.expm1(x), "exp2": sp.exp2(x), "multigammaln": sp.multigammaln(x + 2, 2),
    "softmax": sp.softmax(x, 0), "bessel_j0": sp.bessel_j0(x), "zeta": sp.zeta(x.detach() + 2, torch.tensor(1.0)),
}
for k, v in vals.items():
    print(k, v.detach(), v.grad_fn.name() if v.grad_fn is not None else None)
total = sum(v.sum() for k, v in vals.items() if v.requires_grad)
total.backward()
print(x.grad)
a = torch.tensor([1.0, -2.0, 3.0], requires_grad=True); b = torch.tensor([2.0, 2.0, -1.0], requires_grad=True)
r = torch.atan2(a, b) + torch.hypot(a, b) + torch.copysign(a, b) + torch.logaddexp2(a, b) + torch.lerp(a, b, 0.3)
r.sum().backward()
print(r.detach(), a.grad, b.grad, torch.heaviside(a.detach(), b.detach()))
print(torch.frexp(torch.tensor([8.0, 0.3])), torch.ldexp(torch.tensor([1.0]), torch.tensor([3])), torch.nextafter(torch.tensor([1.0]), torch.tensor([2.0])) - 1)
print(torch.lgamma(torch.tensor([0.5, 10.0])), torch.mvlgamma(torch.tensor([2.5]), 3), torch.igamma(torch.tensor([2.0]), torch.tensor([1.0])), torch.igammac(torch.tensor([2.0]), torch.tensor([1.0])))
print(torch.sgn(torch.tensor([3 + 4j, 0j])), torch.signbit(torch.tensor([-0.0, 1.0])), torch.float_power(torch.tensor([2]), 0.5), torch.true_divide(torch.tensor([3]), 2))
print(torch.round(torch.tensor([0.5, 1.5, 2.5, -0.5])), torch.round(torch.tensor([1.2345]), decimals=2), torch.trunc(torch.tensor([-1.7])), torch.frac(torch.tensor([-1.7])))
print(torch.clamp(torch.tensor([1.0, 5.0]), min=torch.tensor([2.0, 2.0]), max=torch.tensor([3.0, 4.0])), torch.deg2rad(torch.tensor([180.0])), torch.logit(torch.tensor([0.0, 1.0])))
