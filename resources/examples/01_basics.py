# %% [markdown]
# Basics: a tensor that requires grad records every operation done with it.
# %%
import torch

a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
b = a * 2 + 1
out = (b * b).mean()
print(out)            # grad_fn shows the last operation
print(b.grad_fn)      # each result remembers the function that made it
# %%
out.backward()        # d(out)/da for every element of a
print(a.grad)         # 2 * b * 2 / 4 = b
