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


SECOND_ORDER = """import torch
import torch.nn.functional as F

def second(image, grid, **options):
    out = F.grid_sample(image, grid, **options)
    weights = torch.linspace(-1, 1, out.numel(), dtype=out.dtype).view_as(out)
    by_image, by_grid = torch.autograd.grad((out * weights).sum(), (image, grid),
                                            create_graph=True)
    mix = torch.linspace(0.5, 2, by_grid.numel(), dtype=out.dtype).view_as(by_grid)
    twice = torch.autograd.grad((by_grid * mix).sum() + by_image.pow(2).sum(), (image, grid))
    return (out.grad_fn.name(), by_grid.grad_fn.name(), out.flatten()[:4].round(decimals=6),
            by_image.abs().sum().round(decimals=6), by_grid.flatten()[:6].round(decimals=6),
            [t.abs().sum().round(decimals=5) for t in twice])

torch.manual_seed(0)
image = torch.randn(2, 3, 5, 6, dtype=torch.float64, requires_grad=True)
grid = (torch.rand(2, 4, 3, 2, dtype=torch.float64) * 2.6 - 1.3).requires_grad_()
volume = torch.randn(2, 2, 3, 4, 5, dtype=torch.float64, requires_grad=True)
theta = torch.eye(3, 4, dtype=torch.float64).repeat(2, 1, 1)
theta = (theta + 0.3 * torch.randn(2, 3, 4, dtype=torch.float64)).requires_grad_()
for align in (False, True):
    points = F.affine_grid(theta, (2, 2, 2, 3, 4), align_corners=align)
    print(points.grad_fn.name(), points[1, 1, 2])
    by_theta, = torch.autograd.grad(points.pow(2).sum(), theta)
    print(by_theta.round(decimals=6))
    for padding in ("zeros", "border", "reflection"):
        print(align, padding, second(image, grid, mode="bicubic", padding_mode=padding,
                                     align_corners=align))
        for mode in ("bilinear", "nearest"):
            if mode == "nearest":
                out = F.grid_sample(volume, points * 1.3, mode=mode, padding_mode=padding,
                                    align_corners=align)
                print(mode, out.grad_fn.name(), out.flatten()[:5].round(decimals=6))
                continue
            print(align, padding, mode, second(volume, (points * 1.3).detach().requires_grad_(),
                                               mode=mode, padding_mode=padding,
                                               align_corners=align))
for wrong in [lambda: F.grid_sample(volume, points, mode="bicubic", align_corners=False),
              lambda: F.grid_sample(image, grid, mode="area", align_corners=False),
              lambda: F.affine_grid(theta, (2, 1, 3, 4), align_corners=False),
              lambda: F.affine_grid(theta[:, :2, :3], (2, 1, 3, 4, 5), align_corners=False),
              lambda: F.affine_grid(theta, (2, 1, 3), align_corners=False)]:
    try:
        wrong()
    except (RuntimeError, ValueError, NotImplementedError) as error:
        print(type(error).__name__, error)
"""


def test_bicubic_images_and_trilinear_volumes_match_torch_to_second_order(tmp_path):
    """Bicubic sampling of images and sampling of volumes (5-D affine grids), each padding,
    corners aligned or not: values, both gradients and both second derivatives."""
    assert_playground_prints_as_torch(SECOND_ORDER, tmp_path)
