# In the style of: the torch reference docs' signatures, typed out with keyword names
# (input=, other=, size=, dim=, keepdims=)
# Family: pytorch-docs
import torch

x = torch.arange(6.0).reshape(2, 3)
y = torch.ones(2, 3)
print(torch.sum(input=x, dim=0, keepdims=True))
print(torch.add(input=x, other=y, alpha=2))
print(torch.mul(x, other=y * 3))
print(torch.zeros(size=(2, 2)))
print(torch.ones(size=(3,), dtype=torch.int64))
print(torch.matmul(input=x, other=y.t()))
print(torch.mean(input=x, dim=1, keepdim=True))
print(torch.max(input=x, dim=1))
print(x.sum(dim=1, keepdims=True).shape)
print(torch.full(size=(2,), fill_value=7.0))
print(torch.clamp(input=x, min=1.0, max=4.0))
print(torch.pow(input=x, exponent=2))
print(torch.where(condition=x > 2, input=x, other=y))
