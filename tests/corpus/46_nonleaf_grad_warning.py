# In the style of: forum answers on "why is .grad None" (the non-leaf .grad warning, and
# retain_grad as the fix)
# Family: blogs-and-qa
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
z = (y**2).sum()
z.backward()
print(x.grad)
print(y.grad)

x.grad = None
y = x * 3
y.retain_grad()
(y**2).sum().backward()
print(y.grad, x.grad)
