"""float32 batch norm bit for bit as torch's CPU kernels compute it (_batch_norm_kernel.py),
against torch run here: the training statistics, the running ones, the output, and the
three gradients, for (N, C) rows of every width from 1 to 40 (whole vectors and the
channels after them), images of every plane size from 1 to 40, channels-last images,
eval mode, and the strided path torch takes for a sum's expanded gradient; then a training
step of BatchNorm layers printed as torch prints it. Where torch runs other kernels within
its rounding."""

from __future__ import annotations

import pytest

import playground.npgrad as npgrad
from tests.oracle import assert_playground_prints_as_torch, assert_torchs_bits

torch = pytest.importorskip("torch")


@pytest.fixture(autouse=True)
def _same_threads():
    """Both engines split rows among as many threads (earlier tests may have set either)."""
    before = npgrad.get_num_threads()
    npgrad.set_num_threads(torch.get_num_threads())
    yield
    npgrad.set_num_threads(before)


def _pair(shape, seed: int, memory_format=None):
    """The same input, weight, bias and running statistics on both engines."""
    generator = torch.Generator().manual_seed(seed)
    channels = shape[1]
    values = [torch.randn(shape, generator=generator) * 3 + 1,
              *(torch.randn(channels, generator=generator) for _ in range(3)),
              torch.rand(channels, generator=generator) + 0.5,
              torch.randn(shape, generator=generator)]
    if memory_format is not None:
        values[0] = values[0].contiguous(memory_format=memory_format)
        values[5] = values[5].contiguous(memory_format=memory_format)
    theirs = [value.clone() for value in values]
    mine = [npgrad.tensor(value.numpy()) for value in values]
    if memory_format is not None:
        mine[0] = mine[0].contiguous(memory_format=npgrad.channels_last)
        mine[5] = mine[5].contiguous(memory_format=npgrad.channels_last)
    return theirs, mine


def _step(library, values, training: bool, strided: bool):
    """Forward and backward; the output, running statistics and the three gradients."""
    x, weight, bias, running_mean, running_var, incoming = values
    for leaf in (x, weight, bias):
        leaf.requires_grad_()
    out = library.nn.functional.batch_norm(x, running_mean, running_var, weight, bias,
                                           training=training, momentum=0.3)
    if strided:
        out.sum().backward()
    else:
        out.backward(incoming)
    return [value.detach().numpy() for value in (out, running_mean, running_var, x.grad,
                                                 weight.grad, bias.grad)]


def _assert_as_torch(shape, seed: int, training: bool = True, strided: bool = False,
                     memory_format=None) -> None:
    theirs, mine = _pair(shape, seed, memory_format)
    for want, got in zip(_step(torch, theirs, training, strided),
                         _step(npgrad, mine, training, strided), strict=True):
        assert_torchs_bits(got, want, torch, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("width", [*range(1, 41), 64, 100])
def test_rows_as_torch(width: int) -> None:
    _assert_as_torch((11, width), width)
    _assert_as_torch((3, width), width + 100)


@pytest.mark.parametrize("plane", range(1, 41))
def test_planes_as_torch(plane: int) -> None:
    _assert_as_torch((3, 4, 1, plane), plane)
    _assert_as_torch((2, 3, plane, 2), plane + 100)


@pytest.mark.parametrize("shape", [(6, 5), (4, 3, 5, 5), (2, 17, 3, 1), (3, 2, 4, 3, 2)])
def test_eval_mode_and_a_sums_gradient_as_torch(shape) -> None:
    _assert_as_torch(shape, 1, training=False)
    _assert_as_torch(shape, 2, strided=True)
    _assert_as_torch(shape, 3, training=False, strided=True)


@pytest.mark.parametrize("shape", [(4, 6, 5, 3), (2, 19, 2, 2)])
def test_channels_last_as_torch(shape) -> None:
    _assert_as_torch(shape, 4, memory_format=torch.channels_last)


TRAINING = r"""
import torch, torch.nn as nn
torch.manual_seed(0)
net = nn.Sequential(nn.BatchNorm1d(6), nn.ReLU(), nn.BatchNorm1d(6, momentum=None))
conv_bn = nn.BatchNorm2d(3)
opt = torch.optim.Adam([*net.parameters(), *conv_bn.parameters()], lr=0.01)
for step in range(3):
    x = torch.randn(10, 6) * 2 + 1
    images = torch.randn(4, 3, 5, 5)
    loss = net(x).pow(2).mean() + conv_bn(images).pow(3).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item(), net[0].weight.grad.tolist(), conv_bn.bias.grad.tolist())
print(net[0].running_mean.tolist(), net[2].running_var.tolist(), net[2].num_batches_tracked)
print(conv_bn.running_var.tolist(), conv_bn.weight.tolist())
net.eval()
print(net(torch.randn(3, 6)))
"""


def test_a_training_step_prints_as_torch(tmp_path) -> None:
    assert_playground_prints_as_torch(TRAINING, tmp_path)


@pytest.mark.parametrize("width", [1, 8, 13, 40])
def test_rows_without_the_c_kernels_as_torch(width: int, monkeypatch) -> None:
    from playground.npgrad import _compiled

    monkeypatch.setattr(_compiled, "kernels", None)  # (the NumPy twin of its FMA)
    _assert_as_torch((21, width), width + 7)


def test_the_shared_kernel_call_keeps_nothing_alive_after_backward() -> None:
    """The node's three rows share one kernel call; once the backward is done the arrays it
    read (an image's worth) are not held by that cache."""
    import gc
    import weakref

    from playground.npgrad import _norm_grads

    norm = npgrad.nn.BatchNorm2d(3)
    x = npgrad.randn(4, 3, 5, 5, requires_grad=True)
    upstream = npgrad.randn(4, 3, 5, 5)
    out = norm(x)
    out.backward(upstream)
    assert x.grad is not None and norm.weight.grad is not None
    seen = weakref.ref(upstream._data)
    del out, upstream
    gc.collect()
    assert seen() is None
    assert _norm_grads._LAST_KERNEL_CALL == []
