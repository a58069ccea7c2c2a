# In the style of: a Bayes-by-backprop post: a reparameterised Bayesian linear layer and its KL term (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: blogs-and-qa
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(14)

class BayesLinear(nn.Module):
    def __init__(self, i, o, prior_sigma=1.0):
        super().__init__()
        self.w_mu = nn.Parameter(torch.empty(o, i).uniform_(-0.2, 0.2))
        self.w_rho = nn.Parameter(torch.full((o, i), -3.0))
        self.b_mu = nn.Parameter(torch.zeros(o))
        self.b_rho = nn.Parameter(torch.full((o,), -3.0))
        self.prior_sigma = prior_sigma
    def forward(self, x):
        w_sigma = F.softplus(self.w_rho)
        b_sigma = F.softplus(self.b_rho)
        w = self.w_mu + w_sigma * torch.randn_like(w_sigma)
        b = self.b_mu + b_sigma * torch.randn_like(b_sigma)
        self.kl = self._kl(self.w_mu, w_sigma) + self._kl(self.b_mu, b_sigma)
        return F.linear(x, w, b)
    def _kl(self, mu, sigma):
        ps = self.prior_sigma
        return (torch.log(ps / sigma) + (sigma ** 2 + mu ** 2) / (2 * ps ** 2) - 0.5).sum()

class BNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = BayesLinear(1, 16)
        self.l2 = BayesLinear(16, 1)
    def forward(self, x):
        return self.l2(torch.relu(self.l1(x)))
    def kl(self):
        return sum(m.kl for m in self.modules() if isinstance(m, BayesLinear))

x = torch.linspace(-2, 2, 30).unsqueeze(1)
y = x ** 3 * 0.5 + 0.2 * torch.randn_like(x)
net = BNN()
opt = torch.optim.Adam(net.parameters(), lr=0.02)
for ep in range(6):
    nll = 0
    for s in range(3):
        pred = net(x)
        nll = nll + F.gaussian_nll_loss(pred, y, torch.full_like(pred, 0.04), reduction="sum") / 3
    elbo = nll + net.kl() / 30
    opt.zero_grad()
    elbo.backward()
    opt.step()
    print(f"ep {ep} -elbo {elbo.item():.5f} kl {net.kl().item():.5f}")
print(net.l1.w_rho.grad[:3].squeeze(), net.l2.b_mu.grad)
with torch.no_grad():
    preds = torch.stack([net(x[::10]) for _ in range(20)])
print("pred mean", preds.mean(0).squeeze(), "std", preds.std(0).squeeze())
# reparam check with distributions
q = torch.distributions.Normal(net.l2.b_mu, F.softplus(net.l2.b_rho))
p = torch.distributions.Normal(0.0, 1.0)
z = q.rsample((4,))
mc_kl = (q.log_prob(z) - p.log_prob(z)).mean()
print(z.shape, mc_kl.grad_fn.name(), torch.distributions.kl_divergence(q, p))
print(F.softplus(torch.tensor([-30.0, 0.0, 25.0]), beta=2, threshold=10))
