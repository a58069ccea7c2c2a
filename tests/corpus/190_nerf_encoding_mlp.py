# In the style of: a NeRF walkthrough: positional encoding and a small MLP with volume-rendering weights (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: blogs-and-qa
import torch
import torch.nn as nn

torch.manual_seed(5)

def positional_encoding(x, L=4, include_input=True):
    freq = 2.0 ** torch.arange(L, dtype=x.dtype) * torch.pi
    xb = x[..., None, :] * freq[:, None]
    enc = torch.cat([torch.sin(xb), torch.cos(xb)], dim=-1).flatten(-2)
    return torch.cat([x, enc], -1) if include_input else enc

class TinyNeRF(nn.Module):
    def __init__(self, L=4, h=32):
        super().__init__()
        d = 3 + 3 * 2 * L
        self.L = L
        self.mlp = nn.Sequential(nn.Linear(d, h), nn.ReLU(True), nn.Linear(h, h), nn.ReLU(True))
        self.sigma = nn.Linear(h, 1)
        self.rgb = nn.Sequential(nn.Linear(h, 3), nn.Sigmoid())
    def forward(self, p):
        f = self.mlp(positional_encoding(p, self.L))
        return self.rgb(f), torch.relu(self.sigma(f)).squeeze(-1)

def render(model, rays_o, rays_d, n_samples=16, near=2.0, far=6.0):
    t = torch.linspace(near, far, n_samples)
    t = t.expand(rays_o.shape[0], n_samples)
    pts = rays_o[:, None, :] + rays_d[:, None, :] * t[..., None]
    rgb, sigma = model(pts)
    delta = torch.cat([t[:, 1:] - t[:, :-1], torch.full_like(t[:, :1], 1e10)], -1)
    alpha = 1 - torch.exp(-sigma * delta)
    trans = torch.cumprod(torch.cat([torch.ones_like(alpha[:, :1]), 1 - alpha + 1e-10], -1), -1)[:, :-1]
    w = alpha * trans
    color = (w[..., None] * rgb).sum(-2)
    depth = (w * t).sum(-1)
    return color, depth, w

model = TinyNeRF()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
rays_o = torch.zeros(8, 3)
rays_d = nn.functional.normalize(torch.randn(8, 3) + torch.tensor([0, 0, 3.0]), dim=-1)
target = torch.rand(8, 3)
for it in range(5):
    color, depth, w = render(model, rays_o, rays_d)
    loss = ((color - target) ** 2).mean()
    psnr = -10.0 * torch.log10(loss)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"it {it} loss {loss.item():.6f} psnr {psnr.item():.4f} depth0 {depth[0].item():.4f}")
print(w.shape, w.sum(-1))
print(color.grad_fn.name(), depth.grad_fn.name())
print(model.sigma.weight.grad.norm(), model.rgb[0].bias.grad)
print(positional_encoding(torch.tensor([[0.1, 0.2, 0.3]]), L=2))
