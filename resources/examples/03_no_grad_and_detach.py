# %% [markdown]
# Stopping the recording: no_grad() for a block, detach() for one tensor.
# %%
import torch

x = torch.tensor([0.5, 1.5, 2.5], requires_grad=True)
print((x ** 2).requires_grad)
with torch.no_grad():
    print((x ** 2).requires_grad)   # nothing recorded inside
# %%
y = x.detach()                       # same values, no history
print(y.requires_grad, torch.equal(x.detach(), y))
