# %% [markdown]
# Non-scalar outputs: backward(v) computes the vector-Jacobian product v^T J.
# %%
import torch

x = torch.tensor([3.0, 2.0, 1.0], requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
print(y)
v = torch.tensor([0.1, 1.0, 0.0001])
y.backward(v)          # y = 2^k x, so the product is 2^k v
print(x.grad)
