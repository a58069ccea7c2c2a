# In the style of: AMP recipe pasted on CPU: torch.autocast(device_type="cpu", dtype=torch.bfloat16) + GradScaler (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: pytorch-func-and-recipes
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu", enabled=False)
x = torch.randn(5, 4); y = torch.randint(0, 2, (5,))
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    out = model(x)
    print(out.dtype, torch.is_autocast_enabled("cpu"))
    loss = nn.functional.cross_entropy(out, y)
print(loss.dtype, round(loss.item(), 2))
scaler.scale(loss).backward()
scaler.step(opt); scaler.update()
print(model[0].weight.grad.dtype, scaler.get_scale(), scaler.is_enabled())
with torch.autocast("cpu", enabled=False):
    print(model(x).dtype)
with torch.autocast(device_type="cpu", dtype=torch.float16):
    print(model(x).dtype)
print(torch.get_autocast_dtype("cpu"))
