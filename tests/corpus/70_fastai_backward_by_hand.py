# In the style of: fast.ai "from the foundations" lessons (a linear-relu-linear net with a hand-
# written backward pass, checked against autograd)
# Family: fastai
import torch

torch.manual_seed(42)
x = torch.randn(20, 4)
y = torch.randn(20, 1)
w1, b1 = torch.randn(4, 8) / 2, torch.zeros(8)
w2, b2 = torch.randn(8, 1) / 3, torch.zeros(1)


def forward(x, w1, b1, w2, b2):
    l1 = x @ w1 + b1
    l2 = l1.clamp_min(0.0)
    out = l2 @ w2 + b2
    return l1, l2, out


l1, l2, out = forward(x, w1, b1, w2, b2)
loss = (out - y).pow(2).mean()
# by hand
out_g = 2.0 * (out - y) / out.shape[0]
w2_g = l2.t() @ out_g
b2_g = out_g.sum(0)
l2_g = out_g @ w2.t()
l1_g = (l1 > 0).float() * l2_g
w1_g = x.t() @ l1_g
b1_g = l1_g.sum(0)
# by autograd
for p in (w1, b1, w2, b2):
    p.requires_grad_()
_, _, out = forward(x, w1, b1, w2, b2)
(out - y).pow(2).mean().backward()
print(f"loss {loss:.5f}")
for name, mine, auto in (("w1", w1_g, w1.grad), ("b1", b1_g, b1.grad), ("w2", w2_g, w2.grad),
                         ("b2", b2_g, b2.grad)):
    print(name, torch.allclose(mine, auto, atol=1e-6), f"{auto.abs().sum():.5f}")
