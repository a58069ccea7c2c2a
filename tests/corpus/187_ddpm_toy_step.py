# In the style of: an annotated-diffusion post: a toy DDPM training step with a sinusoidal time embedding (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: blogs-and-qa
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(2)

T = 100
betas = torch.linspace(1e-4, 0.02, T)
alphas = 1.0 - betas
alphas_cumprod = torch.cumprod(alphas, dim=0)
sqrt_ac = alphas_cumprod.sqrt()
sqrt_1mac = (1 - alphas_cumprod).sqrt()
print("alphas_cumprod", alphas_cumprod[[0, 10, 50, 99]])

def timestep_embedding(t, dim, max_period=10000):
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(0, half, dtype=torch.float32) / half)
    args = t[:, None].float() * freqs[None]
    emb = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
    return emb

class Denoiser(nn.Module):
    def __init__(self, d=2, temb=16, h=64):
        super().__init__()
        self.temb = temb
        self.t_mlp = nn.Sequential(nn.Linear(temb, h), nn.SiLU(), nn.Linear(h, h))
        self.inp = nn.Linear(d, h)
        self.out = nn.Sequential(nn.SiLU(), nn.Linear(h, h), nn.SiLU(), nn.Linear(h, d))
    def forward(self, x, t):
        e = self.t_mlp(timestep_embedding(t, self.temb))
        return self.out(self.inp(x) + e)

model = Denoiser()
opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-2)

def extract(a, t, shape):
    out = a.gather(-1, t)
    return out.reshape(t.shape[0], *((1,) * (len(shape) - 1)))

for step in range(6):
    x0 = torch.randn(32, 2) * torch.tensor([1.0, 0.3]) + torch.tensor([0.5, -0.5])
    t = torch.randint(0, T, (32,))
    noise = torch.randn_like(x0)
    xt = extract(sqrt_ac, t, x0.shape) * x0 + extract(sqrt_1mac, t, x0.shape) * noise
    pred = model(xt, t)
    loss = F.mse_loss(pred, noise)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    print(f"step {step} loss {loss.item():.6f} gradnorm {gn.item():.6f} {loss.grad_fn.name()}")

emb = timestep_embedding(torch.tensor([0, 5, 99]), 8)
print(emb)
# one reverse sampling step
with torch.no_grad():
    x = torch.randn(4, 2)
    for i in reversed(range(95, 100)):
        tt = torch.full((4,), i, dtype=torch.long)
        eps = model(x, tt)
        coef = betas[i] / sqrt_1mac[i]
        mean = (x - coef * eps) / alphas[i].sqrt()
        x = mean + betas[i].sqrt() * torch.randn_like(x) if i > 0 else mean
    print("sample", x, x.requires_grad)
