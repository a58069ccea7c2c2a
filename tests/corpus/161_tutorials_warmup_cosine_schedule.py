# In the style of: PyTorch's learning-rate scheduling recipes and vision transformer training
# code (weights drawn with nn.init.trunc_normal_ and a zero-initialised bias, AdamW with a
# linear warm-up followed by cosine decay through SequentialLR, and RAdam/NAdam compared)
# Family: pytorch-tutorials
import torch
from torch import nn
from torch.optim.lr_scheduler import CosineAnnealingLR, LinearLR, SequentialLR

torch.manual_seed(0)


def make_model():
    model = nn.Sequential(nn.Linear(4, 16), nn.GELU(), nn.Linear(16, 1))
    for module in model:
        if isinstance(module, nn.Linear):
            nn.init.trunc_normal_(module.weight, std=0.2)
            nn.init.zeros_(module.bias)
    return model


inputs = torch.randn(32, 4)
targets = (inputs[:, :1] * 2 - inputs[:, 1:2]).tanh()

model = make_model()
print("init std:", round(model[0].weight.std().item(), 4),
      "max |w|:", round(model[0].weight.abs().max().item(), 4))
optimizer = torch.optim.AdamW(model.parameters(), lr=0.01, weight_decay=0.05)
warmup = LinearLR(optimizer, start_factor=0.1, total_iters=5)
cosine = CosineAnnealingLR(optimizer, T_max=25, eta_min=1e-4)
scheduler = SequentialLR(optimizer, [warmup, cosine], milestones=[5])
for epoch in range(30):
    loss = nn.functional.mse_loss(model(inputs), targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    scheduler.step()
    if epoch % 6 == 0 or epoch == 29:
        print(f"epoch {epoch:2d} lr {scheduler.get_last_lr()[0]:.5f} loss {loss.item():.4f}")

for optimizer_class in (torch.optim.RAdam, torch.optim.NAdam, torch.optim.Adamax):
    torch.manual_seed(1)
    model = make_model()
    optimizer = optimizer_class(model.parameters(), lr=0.02)
    for step in range(40):
        loss = nn.functional.mse_loss(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"{optimizer_class.__name__:7s} final loss {loss.item():.3f}")
