# In the style of: PyTorch "Learning PyTorch with Examples", defining new autograd functions
# (a Legendre polynomial P3 as a torch.autograd.Function); fewer steps
# Family: pytorch-tutorials
import math

import torch


class LegendreP3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input**3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        (input,) = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input**2 - 1)


x = torch.linspace(-math.pi, math.pi, 200)
y = torch.sin(x)

a = torch.full((), 0.0, requires_grad=True)
b = torch.full((), -1.0, requires_grad=True)
c = torch.full((), 0.0, requires_grad=True)
d = torch.full((), 0.3, requires_grad=True)

learning_rate = 5e-6
for t in range(200):
    P3 = LegendreP3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 50 == 49:
        print(t, round(loss.item(), 3))
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c, d):
            p -= learning_rate * p.grad
            p.grad = None

print(f"Result: y = {a.item():.4f} + {b.item():.4f} * P3({c.item():.4f} + {d.item():.4f} x)")
out = LegendreP3.apply(torch.tensor([0.5, 1.0], requires_grad=True))
print(out, type(out.grad_fn).__name__)
