# In the style of: blog posts on variational inference in PyTorch (Bayesian linear regression:
# a Gaussian posterior q(w) = MultivariateNormal(mu, L L^T) fitted by maximising the ELBO with
# reparameterised samples and an analytic KL to the prior, torch.distributions throughout)
# Family: blogs-and-qa
import torch
from torch.distributions import MultivariateNormal, Normal, kl_divergence

torch.manual_seed(1)
n, d = 40, 2
X = torch.cat([torch.ones(n, 1), torch.linspace(-2, 2, n).unsqueeze(1)], dim=1).double()
true_w = torch.tensor([0.5, -1.25], dtype=torch.float64)
y = X @ true_w + 0.3 * torch.randn(n, dtype=torch.float64)

prior = MultivariateNormal(torch.zeros(d, dtype=torch.float64),
                           covariance_matrix=4.0 * torch.eye(d, dtype=torch.float64))
mu = torch.zeros(d, dtype=torch.float64, requires_grad=True)
raw_scale = torch.full((d,), -1.0, dtype=torch.float64, requires_grad=True)
off_diagonal = torch.zeros(1, dtype=torch.float64, requires_grad=True)
optimizer = torch.optim.Adam([mu, raw_scale, off_diagonal], lr=0.05)

for step in range(201):
    scale_tril = torch.diag(raw_scale.exp())
    scale_tril = scale_tril + torch.zeros(d, d, dtype=torch.float64).index_put(
        (torch.tensor([1]), torch.tensor([0])), off_diagonal)
    posterior = MultivariateNormal(mu, scale_tril=scale_tril)
    w = posterior.rsample((8,))
    log_likelihood = Normal(w @ X.T, 0.3).log_prob(y).sum(-1).mean()
    elbo = log_likelihood - kl_divergence(posterior, prior)
    optimizer.zero_grad()
    (-elbo).backward()
    optimizer.step()
    if step % 50 == 0:
        print(f"step {step:3d}  ELBO {elbo.item():9.3f}")

print("posterior mean:", [round(v, 3) for v in mu.tolist()])
print("posterior std:", [round(v, 3) for v in posterior.variance.sqrt().tolist()])
exact_cov = torch.linalg.inv(X.T @ X / 0.09 + torch.eye(d, dtype=torch.float64) / 4.0)
print("exact std:", [round(v, 3) for v in exact_cov.diagonal().sqrt().tolist()])
