# In the style of: Q&A: gradient accumulation over micro-batches, clamp vs relu grad at 0, abs/max/sign at ties (a fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: blogs-and-qa
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(18)
model = nn.Sequential(nn.Linear(6, 8), nn.LayerNorm(8), nn.GELU(), nn.Dropout(0.5), nn.Linear(8, 3))
X = torch.randn(16, 6); Y = torch.randint(0, 3, (16,))
Y[3] = -100
model.eval()
full = F.cross_entropy(model(X), Y, ignore_index=-100, label_smoothing=0.1)
full.backward()
g_full = model[0].weight.grad.clone()
model.zero_grad()
accum = 4
valid = (Y != -100)
for i in range(accum):
    xb, yb = X[i*4:(i+1)*4], Y[i*4:(i+1)*4]
    loss = F.cross_entropy(model(xb), yb, ignore_index=-100, label_smoothing=0.1, reduction='sum') / valid.sum()
    loss.backward()
print(full.item(), torch.allclose(g_full, model[0].weight.grad, atol=1e-6))
print(model[0].weight.grad[0])
model.train()
print(model.training, model[3].training)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
opt.zero_grad(set_to_none=True)
print(model[0].weight.grad)
x = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
for name, fn in [('relu', torch.relu), ('clamp', lambda t: t.clamp(min=0)), ('clamp_min', lambda t: torch.clamp_min(t, 0.0)),
                 ('max0', lambda t: torch.max(t, torch.zeros_like(t))), ('abs', torch.abs), ('F.relu6', F.relu6),
                 ('hardtanh', lambda t: F.hardtanh(t, 0.0, 1.0)), ('leaky', lambda t: F.leaky_relu(t, 0.1)),
                 ('maximum', lambda t: torch.maximum(t, torch.tensor(0.0))), ('sign', torch.sign), ('elu', F.elu),
                 ('softplus', F.softplus), ('silu', F.silu)]:
    x.grad = None
    fn(x).sum().backward()
    print(f"{name:10s}", x.grad.tolist())
t = torch.tensor([1.0, 3.0, 3.0, 2.0], requires_grad=True)
t.max().backward(); print('max ties', t.grad)
t.grad = None; t.amax().backward(); print('amax ties', t.grad)
t.grad = None; torch.max(t, dim=0).values.backward(); print('max dim', t.grad)
t.grad = None; t.median().backward(); print('median', t.grad)
t.grad = None; t.norm(p=1).backward(); print('l1', t.grad)
t.grad = None; torch.sort(t, descending=True).values[0].backward(); print('sort', t.grad)
t.grad = None; t.logsumexp(0).backward(); print('lse', t.grad)
logits = torch.randn(4, 5)
print(F.cross_entropy(logits, torch.tensor([0, 1, -100, 3]), ignore_index=-100))
print(F.cross_entropy(logits, F.softmax(torch.randn(4, 5), 1)), F.nll_loss(F.log_softmax(logits, 1), torch.tensor([1, 1, 2, 2]), reduction='none'))
print(F.one_hot(torch.tensor([2, 0, 1]), 4).dtype, F.binary_cross_entropy_with_logits(logits, torch.ones(4, 5), pos_weight=torch.full((5,), 2.0)))
