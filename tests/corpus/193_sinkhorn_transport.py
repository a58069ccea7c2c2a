# In the style of: an optimal-transport post: Sinkhorn iterations in log space with logsumexp and cdist (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: blogs-and-qa
# tolerance: 3e-5 (cdist's square roots and float32 matrix products (MKL): the costs' last digits; on an AMD EPYC torch's moved a gradient's norm by 1.04e-5)
import torch

torch.manual_seed(8)

def sinkhorn_log(C, a, b, eps=0.1, n_iters=50):
    log_a, log_b = a.log(), b.log()
    f = torch.zeros_like(a)
    g = torch.zeros_like(b)
    for _ in range(n_iters):
        f = eps * (log_a - torch.logsumexp((g[None, :] - C) / eps, dim=1))
        g = eps * (log_b - torch.logsumexp((f[:, None] - C) / eps, dim=0))
    P = torch.exp((f[:, None] + g[None, :] - C) / eps)
    return P, f, g

n, m = 7, 5
x = torch.randn(n, 2, requires_grad=True)
yv = torch.randn(m, 2) + 1.0
a = torch.full((n,), 1.0 / n)
b = torch.softmax(torch.randn(m), 0)
C = torch.cdist(x, yv) ** 2
P, f, g = sinkhorn_log(C, a, b)
cost = (P * C).sum()
print("P row sums", P.sum(1))
print("P col sums", P.sum(0), b)
print("cost", cost.item(), cost.grad_fn.name())
cost.backward()
print("x.grad", x.grad)

# gradient flow: move x toward y
x2 = x.detach().clone().requires_grad_(True)
opt = torch.optim.SGD([x2], lr=0.5)
for it in range(5):
    C2 = ((x2[:, None, :] - yv[None, :, :]) ** 2).sum(-1)
    P2, _, _ = sinkhorn_log(C2, a, b, eps=0.05, n_iters=30)
    w = (P2.detach() * C2).sum()
    opt.zero_grad()
    w.backward()
    opt.step()
    print(f"it {it} W {w.item():.6f} max|grad| {x2.grad.abs().max().item():.6f}")

# entropic regulariser + KL
P3 = P.detach().clamp_min(1e-30)
ent = -(P3 * P3.log()).sum()
kl = torch.nn.functional.kl_div(P3.log(), (a[:, None] * b[None, :]), reduction="sum", log_target=False)
print(ent.item(), kl.item())
print(torch.logsumexp(torch.tensor([[-float('inf'), -float('inf')], [0.0, 1.0]]), dim=1))
