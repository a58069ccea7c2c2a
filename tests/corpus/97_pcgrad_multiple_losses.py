# In the style of: multi-task learning posts (gradients of two losses with autograd.grad and
# retain_graph, a conflict projected away as PCGrad does, then written into .grad)
# Family: blogs-and-qa
# tolerance: 1e-6 (the cosine of two gradients made orthogonal is float32 noise about 0:
#   torch prints 0.0000 where its last bits fall one way, -0.0000 the other)
import torch

torch.manual_seed(1)
shared = torch.nn.Linear(3, 3)
head_a, head_b = torch.nn.Linear(3, 1), torch.nn.Linear(3, 1)
x = torch.randn(8, 3)
features = torch.tanh(shared(x))
loss_a = head_a(features).pow(2).mean()
loss_b = (head_b(features) - 1).pow(2).mean()
params = list(shared.parameters())
grads_a = torch.autograd.grad(loss_a, params, retain_graph=True)
grads_b = torch.autograd.grad(loss_b, params, retain_graph=True, allow_unused=True)
flat_a = torch.cat([g.flatten() for g in grads_a])
flat_b = torch.cat([g.flatten() for g in grads_b])
dot = torch.dot(flat_a, flat_b)
if dot < 0:
    flat_a = flat_a - dot / flat_b.norm() ** 2 * flat_b
print(f"cosine {torch.nn.functional.cosine_similarity(flat_a, flat_b, dim=0).item():.4f}")
combined = flat_a + flat_b
offset = 0
for p in params:
    p.grad = combined[offset:offset + p.numel()].view_as(p).clone()
    offset += p.numel()
print(shared.weight.grad, shared.bias.grad)
print(torch.autograd.grad(loss_a, [head_b.weight], allow_unused=True))
