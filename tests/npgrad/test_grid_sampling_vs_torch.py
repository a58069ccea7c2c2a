"""F.affine_grid and F.grid_sample as a spatial transformer network uses them: every mode
(bilinear, nearest) and padding (zeros, border, reflection), corners aligned or not, the
values and both gradients (the image's and, through the grid, theta's), as python with real
torch prints them."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SAMPLING = """import torch
import torch.nn.functional as F

torch.manual_seed(0)
for align in (False, True):
    theta = torch.eye(2, 3, dtype=torch.float64).repeat(2, 1, 1)
    theta = (theta + 0.3 * torch.randn(2, 2, 3, dtype=torch.float64)).requires_grad_()
    grid = F.affine_grid(theta, (2, 3, 4, 5), align_corners=align)
    print(grid.grad_fn.name(), grid[0, :2].flatten())
    image = torch.randn(2, 3, 6, 7, dtype=torch.float64, requires_grad=True)
    for padding in ("zeros", "border", "reflection"):
        for mode in ("bilinear", "nearest"):
            out = F.grid_sample(image, grid * 1.4, mode=mode, padding_mode=padding,
                                align_corners=align)
            weights = torch.linspace(-1, 1, out.numel(), dtype=out.dtype).view_as(out)
            by_image, by_theta = torch.autograd.grad((out * weights).sum(), (image, theta))
            print(align, padding, mode, out.grad_fn.name(), out[0, 0, 0].round(decimals=6),
                  by_image.abs().sum().round(decimals=6), by_theta.flatten().round(decimals=6))
"""


def test_affine_grid_and_grid_sample_match_torch(tmp_path):
    assert_playground_prints_as_torch(SAMPLING, tmp_path)
