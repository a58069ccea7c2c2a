# %% [markdown]
# The chain rule on weights: dL/dw follows every path from L back to w.
#   b = w1 * a, c = w2 * a, d = w3 * b + w4 * c, L = 10 - d
# %%
import torch

a = torch.tensor([4.0])
weights = [torch.tensor([v], requires_grad=True) for v in (2.0, 5.0, 9.0, 7.0)]
w1, w2, w3, w4 = weights
b = w1 * a
c = w2 * a
d = w3 * b + w4 * c
L = 10 - d
L.backward()
for index, weight in enumerate(weights, start=1):
    print(f"dL/dw{index} = {weight.grad.item()}")   # e.g. dL/dw1 = -w3 * a = -36
