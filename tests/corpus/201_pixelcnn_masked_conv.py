# In the style of: UvA DL tutorial 12 (autoregressive image modelling): masked convolutions and BatchNorm2d (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: uvadl
# tolerance: 1e-5 (float32 convolutions (oneDNN) and batch norm's sums: the losses' last digits)
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(16)

class MaskedConv2d(nn.Conv2d):
    def __init__(self, mask_type, *args, **kwargs):
        super().__init__(*args, **kwargs)
        assert mask_type in ("A", "B")
        self.register_buffer("mask", self.weight.data.clone())
        _, _, kH, kW = self.weight.size()
        self.mask.fill_(1)
        self.mask[:, :, kH // 2, kW // 2 + (mask_type == "B"):] = 0
        self.mask[:, :, kH // 2 + 1:] = 0
    def forward(self, x):
        self.weight.data *= self.mask
        return super().forward(x)

class PixelCNN(nn.Module):
    def __init__(self, c=16, levels=4):
        super().__init__()
        self.net = nn.Sequential(
            MaskedConv2d("A", 1, c, 5, padding=2, bias=False), nn.BatchNorm2d(c), nn.ReLU(True),
            MaskedConv2d("B", c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c), nn.ReLU(True),
            nn.Conv2d(c, levels, 1))
    def forward(self, x):
        return self.net(x)

levels = 4
model = PixelCNN(levels=levels)
print(model.net[0].mask[0, 0])
print(model.net[3].mask[0, 0])
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
data = torch.randint(0, levels, (4, 1, 8, 8))
for it in range(4):
    inp = data.float() / (levels - 1)
    logits = model(inp)
    loss = F.cross_entropy(logits, data.squeeze(1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"it {it} loss {loss.item():.6f} bits/dim {loss.item() / 0.6931471805599453:.6f}")
print(logits.shape, loss.grad_fn.name())
print(model.net[0].weight.grad[0, 0])

# check causality: gradient of output pixel wrt input
x = torch.rand(1, 1, 8, 8, requires_grad=True)
model.eval()
out = model(x)
out[0, :, 4, 4].sum().backward()
print((x.grad[0, 0] != 0).int())

# sampling
with torch.no_grad():
    sample = torch.zeros(2, 1, 4, 4)
    for i in range(4):
        for j in range(4):
            probs = F.softmax(model(sample)[:, :, i, j], dim=1)
            sample[:, :, i, j] = torch.multinomial(probs, 1).float() / (levels - 1)
print(sample[0, 0])
print(F.conv2d(torch.ones(1, 1, 3, 3), model.net[0].mask[:1], padding=2).shape)
