# In the style of: a MAML post: inner SGD steps on functional weights, second-order meta-gradients (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: blogs-and-qa
import torch
import torch.nn.functional as F

torch.manual_seed(1)

def forward(params, x):
    h = F.linear(x, params[0], params[1])
    h = torch.tanh(h)
    return F.linear(h, params[2], params[3])

def sample_task():
    amp = torch.rand(1) * 4 + 1
    phase = torch.rand(1) * 3.14
    xs = torch.rand(10, 1) * 10 - 5
    xq = torch.rand(10, 1) * 10 - 5
    return xs, amp * torch.sin(xs + phase), xq, amp * torch.sin(xq + phase)

params = [torch.randn(20, 1) * 0.5, torch.zeros(20), torch.randn(1, 20) * 0.2, torch.zeros(1)]
params = [p.requires_grad_() for p in params]
meta_opt = torch.optim.Adam(params, lr=1e-3)
inner_lr = 0.01

for it in range(5):
    meta_opt.zero_grad()
    meta_loss = 0.0
    for t in range(3):
        xs, ys, xq, yq = sample_task()
        fast = params
        for k in range(2):
            loss = F.mse_loss(forward(fast, xs), ys)
            grads = torch.autograd.grad(loss, fast, create_graph=True)
            fast = [w - inner_lr * g for w, g in zip(fast, grads)]
        qloss = F.mse_loss(forward(fast, xq), yq)
        meta_loss = meta_loss + qloss
    meta_loss = meta_loss / 3
    meta_loss.backward()
    print(f"iter {it} meta_loss {meta_loss.item():.5f} fn {type(meta_loss.grad_fn).__name__}")
    print("  grad norms", [round(p.grad.norm().item(), 5) for p in params])
    print("  fast[0] grad_fn", fast[0].grad_fn.name(), fast[0].shape)
    meta_opt.step()

# first-order vs second-order difference
xs, ys, xq, yq = sample_task()
loss = F.mse_loss(forward(params, xs), ys)
g1 = torch.autograd.grad(loss, params, create_graph=True)
gsum = sum((g ** 2).sum() for g in g1)
hv = torch.autograd.grad(gsum, params)
print("hv", [h.shape for h in hv])
print(hv[3], hv[1][:5])
