"""Distances, similarities and resampling on npgrad against real torch, run here:
F.normalize, F.cosine_similarity, torch.cdist (both of torch's ways), F.kl_div, cross, kron,
tensordot, F.interpolate/nn.Upsample (images and sequences), F.pad, F.unfold/F.fold: values,
gradients, reprs, torch's warnings and errors."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = """
import warnings
import torch
import torch.nn.functional as F

torch.manual_seed(0)
a = torch.randn(5, 3, requires_grad=True)
b = torch.randn(4, 3, requires_grad=True)
print(F.normalize(a, dim=0).sum(0), F.normalize(a, p=1, dim=1)[0])
print(F.cosine_similarity(a[:4], b), torch.nn.CosineSimilarity(dim=0)(a[:4], b))
print(torch.cdist(a, b), torch.cdist(a, b, p=1).sum(), torch.cdist(a, b, p=float("inf")).sum())
many = torch.randn(30, 3, requires_grad=True)
near = torch.cdist(many, b)
print(near.grad_fn.name(), near.grad_fn.next_functions[0][0].name(), near.shape)
(near.sum() + torch.cdist(a, b).sum()).backward()
print(a.grad.norm(), b.grad.norm(), many.grad.norm())
batched = torch.cdist(many, torch.randn(2, 4, 3))  # one side 2-d, the other batched
print(batched.shape, batched.grad_fn.next_functions[0][0].name(), batched.sum())
log_p = F.log_softmax(torch.randn(3, 4), dim=1)
target = F.softmax(torch.randn(3, 4), dim=1)
for reduction in ("batchmean", "sum", "none", "mean"):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        print(reduction, F.kl_div(log_p, target, reduction=reduction),
              [str(warning.message)[:40] for warning in caught])
print(torch.nn.KLDivLoss(reduction="batchmean", log_target=True)(log_p, target.log()))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(torch.cross(a[:2], b[:2]), str(caught[0].message).splitlines()[0])
print(torch.linalg.cross(a[:2], b[:2]), torch.kron(torch.eye(2), b[:2, :2]).shape)
print(torch.tensordot(a, b.T, dims=1).shape,
      torch.tensordot(a.reshape(5, 3, 1), b.T.reshape(3, 4), dims=([1], [0])).shape)
image = torch.arange(12.0).reshape(1, 1, 3, 4).requires_grad_()
for mode, options in (("nearest", {}), ("bilinear", {"align_corners": False}),
                      ("bilinear", {"align_corners": True})):
    print(F.interpolate(image, size=(4, 6), mode=mode, **options)[0, 0, 1])
    print(F.interpolate(image, scale_factor=1.5, mode=mode, **options).shape)
up = torch.nn.Upsample(scale_factor=2)
print(up, up(image).sum(), torch.nn.Upsample(size=(5, 5), mode="bilinear"))
print(F.pad(image, (1, 1, 2, 0), value=-1.0)[0, 0], F.pad(image, (-1, 0)).shape)
columns = F.unfold(image, kernel_size=2, stride=1)
print(columns.shape, F.fold(columns, (3, 4), 2)[0, 0])
(F.interpolate(image, scale_factor=2, mode="bilinear").pow(2).sum() + columns.sum()).backward()
print(image.grad)
wave = torch.linspace(-1, 1, 5).reshape(1, 1, 5).requires_grad_()
for options in ({"scale_factor": 2, "mode": "linear"}, {"size": 3, "mode": "linear"},
                {"size": 8, "mode": "linear", "align_corners": True}, {"scale_factor": 1.5}):
    stretched = F.interpolate(wave, **options)
    print(stretched, torch.nn.Upsample(**options))
    stretched.pow(3).sum().backward()
print(wave.grad)
for bad in ("F.interpolate(image, size=4, mode='nearest', align_corners=True)",
            "F.interpolate(wave, scale_factor=2, mode='bilinear')",
            "F.interpolate(image, scale_factor=2, mode='linear')",
            "torch.cdist(a, torch.randn(2, 4))", "torch.cross(a[:, :2], b[:5, :2], dim=1)"):
    try:
        eval(bad)
    except Exception as error:
        print(type(error).__name__, error)
"""


def test_distances_and_resampling_print_what_torch_prints(tmp_path):
    """python with real torch against ``playground run`` (the NumPy engine's kernel)."""
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
