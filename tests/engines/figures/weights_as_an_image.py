# a weight matrix and its gradient as images, with colour bars
import torch
import matplotlib.pyplot as plt

torch.manual_seed(1)
layer = torch.nn.Linear(12, 8)
out = layer(torch.randn(5, 12)).sum()
out.backward()

fig, axes = plt.subplots(1, 2, figsize=(9, 3.5))
shown = axes[0].imshow(layer.weight.detach(), cmap="viridis", aspect="auto")
fig.colorbar(shown, ax=axes[0])
axes[0].set_title("weight")
shown = axes[1].imshow(layer.weight.grad, cmap="RdBu", interpolation="nearest")
fig.colorbar(shown, ax=axes[1], orientation="horizontal")
axes[1].set_title("weight.grad")
