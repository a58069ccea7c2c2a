# In the style of: Dive into Deep Learning, "Backward for Non-Scalar Variables"
# Family: d2l
import torch

x = torch.arange(4.0, requires_grad=True)
y = x * x

try:
    y.backward()
except RuntimeError as e:
    print(type(e).__name__, e)

y.backward(gradient=torch.ones(len(y)))
print(x.grad)

x.grad.zero_()
y = x * x
y.sum().backward()
print(x.grad)

x.grad = None
z = x.reshape(2, 2) ** 3
z.backward(torch.tensor([[1.0, 0.0], [0.5, 2.0]]))
print(x.grad)
