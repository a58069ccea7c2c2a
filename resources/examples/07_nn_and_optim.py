# %% [markdown]
# A small model from torch.nn, trained with torch.optim. In the graph, each nn.Linear is an
# AddmmBackward0 node, and its weight and bias are named after the model (model.0.weight).
# %%
import torch

model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(), torch.nn.Linear(3, 2))
print(model)
# %% [markdown]
# Fixed starting weights, so that both engines print the same numbers. Then learn XOR.
# %%
with torch.no_grad():
    for param in model.parameters():
        param.copy_(torch.arange(param.numel()).reshape(param.shape) * 0.3 - 0.5)
points = torch.tensor([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
labels = torch.tensor([1, 1, 0, 0])
optimizer = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.5)
for step in range(61):
    optimizer.zero_grad()
    loss = torch.nn.functional.cross_entropy(model(points), labels)
    loss.backward()
    optimizer.step()
    if step % 20 == 0:
        print(f"step {step:2d}  loss {loss.item():.4f}")
print("predicted", model(points).argmax(dim=1).tolist(), "labels", labels.tolist())
