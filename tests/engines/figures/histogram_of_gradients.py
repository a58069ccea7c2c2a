# how the gradients of a random linear layer are spread
import torch
import matplotlib.pyplot as plt

torch.manual_seed(0)
layer = torch.nn.Linear(64, 32)
inputs = torch.randn(128, 64)
loss = layer(inputs).pow(2).mean()
loss.backward()

plt.figure(figsize=(6, 4))
plt.hist(layer.weight.grad.flatten().numpy(), bins=40, alpha=0.7, color="steelblue",
         edgecolor="black", label="weight.grad")
plt.axvline(0.0, color="red", linestyle="--")
plt.xlabel("gradient")
plt.ylabel("count")
plt.title("Gradients of a linear layer's weights")
plt.legend()
