"""torch.nn.utils.fusion against torch run here: a convolution (plain and transposed) or a
linear layer folded with its BatchNorm for inference, to torch's bits (the folded values are
printed whole), the fused layer computing what the two did, the weights-only functions with
missing parts and another dtype, and torch's refusals. (The statistics are set, not
learned: a learned running mean carries the convolution's own last bits, MKL-DNN's.)"""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r'''
import torch
from torch import nn
from torch.nn.utils.fusion import (fuse_conv_bn_eval, fuse_conv_bn_weights,
                                   fuse_linear_bn_eval, fuse_linear_bn_weights)

def with_statistics(bn):
    with torch.no_grad():
        bn.running_mean.uniform_(-1, 1)
        bn.running_var.uniform_(0.5, 2)
        if bn.affine:
            bn.weight.uniform_(0.5, 1.5)
            bn.bias.uniform_(-0.5, 0.5)
    return bn.eval()

torch.manual_seed(8)
conv, bn = nn.Conv2d(2, 3, 3).eval(), with_statistics(nn.BatchNorm2d(3))
fused = fuse_conv_bn_eval(conv, bn)
print(fused, fused is conv, type(fused.weight).__name__, fused.weight.requires_grad)
print(fused.weight.flatten().tolist()[:9], fused.bias.tolist())
x = torch.randn(1, 2, 5, 5)
print(torch.allclose(fused(x), bn(conv(x)), atol=1e-5))
linear, bn1 = nn.Linear(4, 3).eval(), with_statistics(nn.BatchNorm1d(3))
folded = fuse_linear_bn_eval(linear, bn1)
print(folded.weight.flatten().tolist(), folded.bias.tolist())
shared = fuse_linear_bn_eval(nn.Linear(4, 2).eval(), with_statistics(nn.BatchNorm1d(1)))
print(shared.weight.tolist(), shared.bias.tolist())
up, bn2 = nn.ConvTranspose1d(3, 2, 2, bias=False).eval(), with_statistics(
    nn.BatchNorm1d(2, affine=False))
turned = fuse_conv_bn_eval(up, bn2, transpose=True)
print(turned.weight.flatten().tolist(), turned.bias.tolist(), turned.bias.requires_grad)
w, b = fuse_conv_bn_weights(conv.weight.double(), None, bn.running_mean.double(),
                            bn.running_var.double(), 1e-3, None, None)
print(w.dtype, b.dtype, b.tolist(), type(b).__name__)
w, b = fuse_linear_bn_weights(linear.weight, None, bn1.running_mean, bn1.running_var, 1e-5,
                              bn1.weight, bn1.bias)
print(w.flatten().tolist()[:4], b.tolist(), w.requires_grad, b.requires_grad)
for refused in (lambda: fuse_conv_bn_eval(nn.Conv2d(1, 1, 1), nn.BatchNorm2d(1)),
                lambda: fuse_linear_bn_eval(nn.Linear(2, 3).eval(), nn.BatchNorm1d(2).eval()),
                lambda: fuse_conv_bn_eval(nn.Conv2d(1, 1, 1).eval(),
                                          nn.BatchNorm2d(1, track_running_stats=False).eval())):
    try:
        refused()
    except AssertionError as e:
        print("AssertionError", e)
'''


def test_fusion_folds_as_torch(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
