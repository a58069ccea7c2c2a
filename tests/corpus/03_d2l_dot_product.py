# In the style of: Dive into Deep Learning, "Automatic Differentiation" (a simple function)
# Family: d2l
import torch

x = torch.arange(4.0)
print(x)
x.requires_grad_(True)
print(x.grad)

y = 2 * torch.dot(x, x)
print(y)
y.backward()
print(x.grad)
print(x.grad == 4 * x)

# gradients accumulate: reset before the next function
x.grad.zero_()
y = x.sum()
y.backward()
print(x.grad)
print(y.grad_fn.name())
