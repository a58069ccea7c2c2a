# In the style of: torch.func's per-sample-gradients tutorial: vmap over grad, jacrev, functional_call (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: pytorch-func-and-recipes
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap, jacrev, hessian

torch.manual_seed(22)

model = nn.Sequential(nn.Linear(5, 7), nn.Tanh(), nn.Linear(7, 3))
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
x = torch.randn(8, 5)
y = torch.randint(0, 3, (8,))

def loss_fn(p, b, xi, yi):
    out = functional_call(model, (p, b), (xi.unsqueeze(0),))
    return F.cross_entropy(out, yi.unsqueeze(0))

per_sample = vmap(grad(loss_fn), in_dims=(None, None, 0, 0))(params, buffers, x, y)
for k, g in per_sample.items():
    print(k, tuple(g.shape), round(g.norm().item(), 6))

# compare with a loop
loop = []
for i in range(8):
    model.zero_grad()
    F.cross_entropy(model(x[i:i + 1]), y[i:i + 1]).backward()
    loop.append(model[0].weight.grad.clone())
print("max diff", (torch.stack(loop) - per_sample["0.weight"]).abs().max().item() < 1e-6)

# DP-SGD style clip + noise
norms = torch.stack([g.flatten(1).norm(dim=1) for g in per_sample.values()], 1).norm(dim=1)
factor = (1.0 / (norms + 1e-6)).clamp(max=1.0)
print("norms", norms)
for k, g in per_sample.items():
    clipped = (g * factor.view(-1, *[1] * (g.dim() - 1))).sum(0)
    noisy = (clipped + 0.1 * torch.randn_like(clipped)) / 8
    params[k] = params[k] - 0.5 * noisy
print(params["2.bias"])

f = lambda v: (v.sin() * v.pow(2)).sum()
v = torch.randn(4)
print(grad(f)(v))
print(jacrev(lambda v: v.sin() * v)(v).diagonal())
print(hessian(f)(v).shape, hessian(f)(v).diagonal())
jac = vmap(jacrev(lambda xi: model(xi)))(x[:2])
print(jac.shape, jac[0, :, 0])
