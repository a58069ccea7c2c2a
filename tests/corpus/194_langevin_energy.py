# In the style of: UvA DL tutorial 8 (energy-based models): Langevin sampling through autograd.grad (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: uvadl
import torch
import torch.nn as nn

torch.manual_seed(9)

def log_density(x):
    # mixture of two gaussians
    m1 = torch.tensor([-2.0, 0.0]); m2 = torch.tensor([2.0, 0.5])
    l1 = -0.5 * ((x - m1) ** 2).sum(-1)
    l2 = -0.5 * ((x - m2) ** 2).sum(-1) / 0.5
    return torch.logsumexp(torch.stack([l1 + torch.log(torch.tensor(0.3)), l2 + torch.log(torch.tensor(0.7))], -1), -1)

x = torch.randn(200, 2)
step = 0.05
for i in range(50):
    x = x.detach().requires_grad_(True)
    lp = log_density(x).sum()
    score, = torch.autograd.grad(lp, x)
    x = x + step * score + (2 * step) ** 0.5 * torch.randn_like(x)
    if i % 10 == 0:
        print(f"iter {i} mean {x.mean(0).tolist()} logp {lp.item():.5f}")
print("frac right", (x[:, 0] > 0).float().mean().item())

# denoising score matching with a small net
net = nn.Sequential(nn.Linear(2, 32), nn.Softplus(), nn.Linear(32, 32), nn.Softplus(), nn.Linear(32, 2))
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
sigma = 0.3
data = x.detach()
for it in range(5):
    noise = torch.randn_like(data) * sigma
    target = -noise / sigma ** 2
    pred = net(data + noise)
    loss = 0.5 * ((pred - target) ** 2).sum(-1).mean() * sigma ** 2
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"dsm {it} {loss.item():.6f}")

# sliced / exact score matching: trace of Jacobian via autograd
energy = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))
xs = torch.randn(5, 2, requires_grad=True)
E = energy(xs).sum()
s = -torch.autograd.grad(E, xs, create_graph=True)[0]
tr = 0
for d in range(2):
    tr = tr + torch.autograd.grad(s[:, d].sum(), xs, create_graph=True)[0][:, d]
sm_loss = (tr + 0.5 * (s ** 2).sum(-1)).mean()
sm_loss.backward()
print("sm loss", sm_loss.item(), sm_loss.grad_fn.name())
print(energy[0].weight.grad)
