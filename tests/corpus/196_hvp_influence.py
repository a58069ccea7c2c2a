# In the style of: an influence-functions post: Hessian-vector products, conjugate gradients, eigvalsh (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: blogs-and-qa
# tolerance: 1e-5 (torch's eigvalsh is LAPACK's (MKL) values-only driver, and float32 matrix products (MKL): the conditioning's last digits)
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd.functional import hvp, hessian, vhp

torch.manual_seed(11)

X = torch.randn(40, 3)
w_true = torch.tensor([1.0, -2.0, 0.5])
y = (X @ w_true + 0.3 * torch.randn(40) > 0).float()

model = nn.Linear(3, 1)
opt = torch.optim.LBFGS(model.parameters(), lr=1, max_iter=50)
def closure():
    opt.zero_grad()
    l = F.binary_cross_entropy_with_logits(model(X).squeeze(-1), y) + 0.01 * model.weight.pow(2).sum()
    l.backward()
    return l
opt.step(closure)
print("trained w", model.weight.data, model.bias.data)

params = [p for p in model.parameters()]
def flat_loss(theta, Xb, yb):
    w, b = theta[:3], theta[3]
    return F.binary_cross_entropy_with_logits(Xb @ w + b, yb) + 0.01 * (w ** 2).sum()

theta = torch.cat([model.weight.detach().view(-1), model.bias.detach()])
H = hessian(lambda t: flat_loss(t, X, y), theta)
print("H", H)
v = torch.ones(4)
_, Hv = hvp(lambda t: flat_loss(t, X, y), theta, v)
_, vH = vhp(lambda t: flat_loss(t, X, y), theta, v)
print("Hv", Hv, torch.allclose(Hv, H @ v, atol=1e-6), torch.allclose(Hv, vH))

# manual HVP through double backward
th = theta.clone().requires_grad_(True)
g = torch.autograd.grad(flat_loss(th, X, y), th, create_graph=True)[0]
Hv2 = torch.autograd.grad(g @ v, th)[0]
print("Hv2", Hv2)

# influence of each training point on a test loss
x_test, y_test = torch.randn(1, 3), torch.tensor([1.0])
th = theta.clone().requires_grad_(True)
g_test = torch.autograd.grad(flat_loss(th, x_test, y_test), th)[0]
s_test = torch.linalg.solve(H, g_test)
infl = []
for i in range(5):
    gi = torch.autograd.grad(flat_loss(th, X[i:i+1], y[i:i+1]), th)[0]
    infl.append(-(gi @ s_test).item())
print("influences", [round(v, 6) for v in infl])
evals = torch.linalg.eigvalsh(H)
print("eigvals", evals, "cond", (evals.max() / evals.min()).item())
# conjugate gradient for H^-1 g
xk = torch.zeros(4); r = g_test.clone(); p = r.clone()
for k in range(4):
    Ap = H @ p
    a_k = (r @ r) / (p @ Ap)
    xk = xk + a_k * p
    r_new = r - a_k * Ap
    p = r_new + (r_new @ r_new) / (r @ r) * p
    r = r_new
print("cg", xk, s_test)
