# In the style of: a Gaussian-process regression post: Cholesky solves and the marginal likelihood's gradients (float64) (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: scientific-ml
import math
import torch

torch.manual_seed(6)
torch.set_default_dtype(torch.float64)

def rbf(x1, x2, ls, var):
    d = torch.cdist(x1 / ls, x2 / ls, p=2) ** 2
    return var * torch.exp(-0.5 * d)

X = torch.rand(20, 1) * 6
y = torch.sin(X).squeeze(-1) + 0.1 * torch.randn(20)
Xs = torch.linspace(0, 6, 7).unsqueeze(-1)

log_ls = torch.tensor(0.0, requires_grad=True)
log_var = torch.tensor(0.0, requires_grad=True)
log_noise = torch.tensor(-2.0, requires_grad=True)
opt = torch.optim.LBFGS([log_ls, log_var, log_noise], lr=0.5, max_iter=5)

def nll():
    K = rbf(X, X, log_ls.exp(), log_var.exp()) + (log_noise.exp() + 1e-6) * torch.eye(20)
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y.unsqueeze(-1), L)
    return 0.5 * (y.unsqueeze(0) @ alpha).squeeze() + L.diagonal().log().sum() + 0.5 * 20 * math.log(2 * math.pi)

for i in range(4):
    def closure():
        opt.zero_grad()
        l = nll()
        l.backward()
        return l
    l = opt.step(closure)
    print(f"round {i} nll {l.item():.8f} ls {log_ls.exp().item():.6f} var {log_var.exp().item():.6f} noise {log_noise.exp().item():.6f}")
print("grads", log_ls.grad, log_var.grad, log_noise.grad)

with torch.no_grad():
    K = rbf(X, X, log_ls.exp(), log_var.exp()) + log_noise.exp() * torch.eye(20)
    Ks = rbf(X, Xs, log_ls.exp(), log_var.exp())
    Kss = rbf(Xs, Xs, log_ls.exp(), log_var.exp())
    L = torch.linalg.cholesky(K)
    v = torch.linalg.solve_triangular(L, Ks, upper=False)
    a = torch.linalg.solve_triangular(L.T, torch.linalg.solve_triangular(L, y.unsqueeze(-1), upper=False), upper=True)
    mean = (Ks.T @ a).squeeze(-1)
    cov = Kss - v.T @ v
    std = cov.diagonal().clamp_min(0).sqrt()
print("mean", mean)
print("std", std)

# gradient through triangular solve and logdet
A = torch.randn(4, 4)
A = A @ A.T + 4 * torch.eye(4)
A.requires_grad_(True)
b = torch.randn(4, 2)
Lc = torch.linalg.cholesky(A)
z = torch.linalg.solve_triangular(Lc, b, upper=False)
out = (z ** 2).sum() + torch.logdet(A)
out.backward()
print(out.grad_fn.name(), A.grad)
print(torch.allclose(A.grad, A.grad.T))
