# In the style of: UvA DL tutorial 11 (normalizing flows): RealNVP affine coupling layers and log-det-Jacobians (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: uvadl
# tolerance: 1e-5 (float32 matrix products (MKL) and logdet: the log-determinants' last digits)
import torch
import torch.nn as nn

torch.manual_seed(3)

class Coupling(nn.Module):
    def __init__(self, d, mask, h=32):
        super().__init__()
        self.register_buffer("mask", mask)
        self.s = nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.Linear(h, d), nn.Tanh())
        self.t = nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.Linear(h, d))
    def forward(self, x):
        xm = x * self.mask
        s = self.s(xm) * (1 - self.mask)
        t = self.t(xm) * (1 - self.mask)
        y = xm + (1 - self.mask) * (x * torch.exp(s) + t)
        return y, s.sum(dim=1)
    def inverse(self, y):
        ym = y * self.mask
        s = self.s(ym) * (1 - self.mask)
        t = self.t(ym) * (1 - self.mask)
        return ym + (1 - self.mask) * ((y - t) * torch.exp(-s))

class RealNVP(nn.Module):
    def __init__(self, d=2, n=4):
        super().__init__()
        masks = [torch.tensor([1.0, 0.0]) if i % 2 == 0 else torch.tensor([0.0, 1.0]) for i in range(n)]
        self.layers = nn.ModuleList([Coupling(d, m) for m in masks])
        self.prior = torch.distributions.MultivariateNormal(torch.zeros(d), torch.eye(d))
    def forward(self, x):
        logdet = torch.zeros(x.shape[0])
        for l in self.layers:
            x, ld = l(x)
            logdet = logdet + ld
        return x, logdet
    def log_prob(self, x):
        z, ld = self(x)
        return self.prior.log_prob(z) + ld

flow = RealNVP()
opt = torch.optim.Adam(flow.parameters(), lr=1e-3)
for step in range(5):
    theta = torch.rand(64) * 2 * 3.14159
    x = torch.stack([torch.cos(theta), torch.sin(theta)], 1) * 2 + 0.1 * torch.randn(64, 2)
    nll = -flow.log_prob(x).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    print(f"step {step} nll {nll.item():.6f} {nll.grad_fn.name()}")
print(flow.layers[0].s[0].weight.grad[:3])

x = torch.randn(5, 2)
z, ld = flow(x)
xr = x
for l in reversed(flow.layers):
    z = l.inverse(z)
print("recon err", (z - x).abs().max().item() < 1e-5)
# check logdet via jacobian
xx = torch.randn(1, 2)
J = torch.autograd.functional.jacobian(lambda v: flow(v)[0], xx).reshape(2, 2)
print("jac logdet", torch.logdet(J).item(), "flow logdet", flow(xx)[1].item())
print("slogdet", torch.linalg.slogdet(J))
