# In the style of: PyTorch "Spatial Transformer Networks" tutorial: affine_grid + grid_sample, plus F.interpolate variants (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: pytorch-tutorials
import math
import torch
import torch.nn.functional as F
torch.manual_seed(0)
img = torch.randn(2, 3, 6, 6)
ang = torch.tensor([0.3, -0.5], requires_grad=True)
scale = torch.tensor(0.9, requires_grad=True)
theta = torch.stack([
    torch.stack([scale * ang.cos(), -ang.sin(), torch.zeros(2)], -1),
    torch.stack([ang.sin(), scale * ang.cos(), torch.full((2,), 0.1)], -1)], 1)
print(theta.shape, theta.grad_fn.name())
grid = F.affine_grid(theta, img.size(), align_corners=False)
print(grid.shape, grid[0, 0, :2].detach().round(decimals=4))
for mode in ["bilinear", "nearest", "bicubic"]:
    for pm in ["zeros", "border", "reflection"]:
        out = F.grid_sample(img, grid, mode=mode, padding_mode=pm, align_corners=False)
        print(mode, pm, round(out.sum().item(), 4))
out = F.grid_sample(img, grid, align_corners=True)
out.pow(2).mean().backward()
print(ang.grad.round(decimals=5), scale.grad.round(decimals=5))
x = torch.arange(16.).view(1, 1, 4, 4).requires_grad_()
for mode, kw in [("nearest", {}), ("nearest-exact", {}), ("bilinear", {"align_corners": False}), ("bicubic", {"align_corners": True}), ("area", {})]:
    y = F.interpolate(x, size=(6, 5) if mode != "area" else (2, 2), mode=mode, **kw)
    print(mode, y.shape, y[0, 0, 1].detach().round(decimals=3))
y = F.interpolate(x, scale_factor=0.5, mode="bilinear", antialias=True)
print("antialias", y.detach().round(decimals=4))
y.sum().backward()
print(x.grad.round(decimals=4))
print(F.interpolate(torch.arange(5.).view(1, 1, 5), scale_factor=1.7, mode="linear", recompute_scale_factor=True))
