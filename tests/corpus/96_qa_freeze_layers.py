# In the style of: Q&A answers on freezing layers (requires_grad_(False), an optimizer over the
# trainable parameters only, and what stays unchanged after a step)
# Family: blogs-and-qa
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
for param in model[0].parameters():
    param.requires_grad_(False)
trainable = filter(lambda p: p.requires_grad, model.parameters())
optimizer = torch.optim.SGD(trainable, lr=0.1)
before = [p.clone() for p in model.parameters()]
loss = model(torch.randn(5, 3)).pow(2).mean()
loss.backward()
optimizer.step()
print([p.grad is None for p in model.parameters()])
print([torch.equal(a, b) for a, b in zip(before, model.parameters(), strict=True)])
print(sum(p.numel() for p in model.parameters() if p.requires_grad), "trainable")
print(len(optimizer.param_groups[0]["params"]))
