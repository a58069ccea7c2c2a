# %% [markdown]
# Gradients accumulate: each backward() adds into .grad until you zero it.
# %%
import torch

w = torch.tensor([1.0, -1.0], requires_grad=True)
(w * 3).sum().backward()
print(w.grad)          # tensor([3., 3.])
(w * 3).sum().backward()
print(w.grad)          # tensor([6., 6.]): added, not replaced
# %%
w.grad.zero_()
(w ** 2).sum().backward()
print(w.grad)          # 2 * w
