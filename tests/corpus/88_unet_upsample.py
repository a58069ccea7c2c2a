# In the style of: U-Net tutorials (a down path with max pooling, an up path with F.interpolate
# and skip connections joined by torch.cat, padded to match)
# Family: blogs-and-qa
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
down = nn.Conv2d(1, 4, 3, padding=1)
bottom = nn.Conv2d(4, 4, 3, padding=1)
up = nn.Conv2d(8, 2, 3, padding=1)
x = torch.randn(1, 1, 7, 7)
skip = F.relu(down(x))
h = F.relu(bottom(F.max_pool2d(skip, 2)))
h = F.interpolate(h, scale_factor=2, mode="nearest")
diff_y, diff_x = skip.size(2) - h.size(2), skip.size(3) - h.size(3)
h = F.pad(h, [diff_x // 2, diff_x - diff_x // 2, diff_y // 2, diff_y - diff_y // 2])
out = up(torch.cat([skip, h], dim=1))
print(h.shape, out.shape)
out.mean().backward()
print(f"{down.weight.grad.norm():.5f} {bottom.weight.grad.norm():.5f} {up.weight.grad.norm():.5f}")
upsample = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
print(upsample, upsample(torch.arange(4.0).reshape(1, 1, 2, 2)))
