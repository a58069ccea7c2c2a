# In the style of: annotated-diffusion / DDIM blog: cosine beta schedule, extract() with gather, sinusoidal time embedding, DDIM sampling, CFG (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: blogs-and-qa
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
def cosine_beta_schedule(timesteps, s=0.008):
    steps = timesteps + 1
    x = torch.linspace(0, timesteps, steps, dtype=torch.float64)
    ac = torch.cos(((x / timesteps) + s) / (1 + s) * math.pi * 0.5) ** 2
    ac = ac / ac[0]
    betas = 1 - (ac[1:] / ac[:-1])
    return torch.clip(betas, 0.0001, 0.9999)
T = 50
betas = cosine_beta_schedule(T).float()
alphas = 1.0 - betas
acp = torch.cumprod(alphas, axis=0)
acp_prev = F.pad(acp[:-1], (1, 0), value=1.0)
post_var = betas * (1.0 - acp_prev) / (1.0 - acp)
print(betas[:3], betas[-2:], acp[[0, 25, 49]], post_var[1:3])
def extract(a, t, x_shape):
    b, *_ = t.shape
    out = a.gather(-1, t.cpu())
    return out.reshape(b, *((1,) * (len(x_shape) - 1))).to(t.device)
class SinusoidalPositionEmbeddings(nn.Module):
    def __init__(self, dim):
        super().__init__(); self.dim = dim
    def forward(self, time):
        half = self.dim // 2
        emb = math.log(10000) / (half - 1)
        emb = torch.exp(torch.arange(half) * -emb)
        emb = time[:, None] * emb[None, :]
        return torch.cat((emb.sin(), emb.cos()), dim=-1)
class Den(nn.Module):
    def __init__(self):
        super().__init__()
        self.t = nn.Sequential(SinusoidalPositionEmbeddings(8), nn.Linear(8, 16), nn.GELU())
        self.c = nn.Embedding(3, 16)
        self.net = nn.Sequential(nn.Linear(2 + 16, 32), nn.Mish(), nn.Linear(32, 2))
    def forward(self, x, t, y):
        return self.net(torch.cat([x, self.t(t) + self.c(y)], -1))
model = Den()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
x0 = torch.randn(16, 2) * 0.5 + 1.0
yb = torch.randint(0, 3, (16,))
for it in range(4):
    t = torch.randint(0, T, (16,)).long()
    noise = torch.randn_like(x0)
    xt = extract(acp.sqrt(), t, x0.shape) * x0 + extract((1 - acp).sqrt(), t, x0.shape) * noise
    drop = torch.rand(16) < 0.2
    loss = F.smooth_l1_loss(model(xt, t, torch.where(drop, 2, yb)), noise)
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"it {it} loss {loss.item():.5f}")
@torch.no_grad()
def ddim_sample(n, steps=5, eta=0.0, w=2.0):
    x = torch.randn(n, 2)
    ts = torch.linspace(T - 1, 0, steps).long()
    for i, t in enumerate(ts):
        tt = t.repeat(n)
        eps_c = model(x, tt, torch.zeros(n, dtype=torch.long)); eps_u = model(x, tt, torch.full((n,), 2))
        eps = (1 + w) * eps_c - w * eps_u
        a_t = acp[t]; a_prev = acp[ts[i + 1]] if i + 1 < len(ts) else torch.tensor(1.0)
        x0_hat = ((x - (1 - a_t).sqrt() * eps) / a_t.sqrt()).clamp(-3, 3)
        sigma = eta * ((1 - a_prev) / (1 - a_t) * (1 - a_t / a_prev)).sqrt()
        x = a_prev.sqrt() * x0_hat + (1 - a_prev - sigma ** 2).sqrt() * eps + sigma * torch.randn_like(x)
    return x
s = ddim_sample(4)
print(s.round(decimals=4), s.requires_grad)
print(ddim_sample(2, eta=1.0).round(decimals=4))
