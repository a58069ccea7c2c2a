"""Max pooling's edges on npgrad against real torch, run here: an unbatched image's own node
(no unsqueeze and squeeze around it) and its second derivative, max unpooling's gradient of
an unbatched image, the last NaN of a window taking the maximum (1-d to 3-d), empty batches,
and torch's words for inputs of the wrong rank or empty past their batch."""

from __future__ import annotations

from tests.oracle import SHOW, assert_playground_prints_as_torch

UNBATCHED = """
import torch, torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 6, 6, dtype=torch.float64, requires_grad=True)
y, i = F.max_pool2d(x, 2, return_indices=True)
print(y.grad_fn.name(), [n.name() for n, _ in y.grad_fn.next_functions], i[1])
g = torch.randn_like(y, requires_grad=True)
gx, = torch.autograd.grad(y, x, g, create_graph=True)
gg, = torch.autograd.grad((gx * gx.detach()).sum(), g)
print(gx.grad_fn.name(), gg)
low = y.detach().requires_grad_()
u = F.max_unpool2d(low, i, 2)
u.backward(torch.arange(u.numel(), dtype=torch.float64).reshape(u.shape))
print(u.grad_fn.name(), low.grad)
y = F.max_pool2d(x, 3, 2, 1, ceil_mode=True)
y.sum().backward()
print(y.shape, x.grad[0])
"""

NANS = """
import torch, torch.nn.functional as F
n = float("nan")
x = torch.tensor([[[[1., n, 3., n], [n, 2., 0., 1.], [0., 0., 5., 5.], [1., 1., 5., 5.]]]],
                 requires_grad=True)
y, i = F.max_pool2d(x, 2, return_indices=True)
y.sum().backward()
print(y, i, x.grad)
print(F.max_pool2d(x, 2, 1, 1, return_indices=True)[1])
print(F.max_pool1d(x[0], 2, return_indices=True)[1])
print(F.max_pool3d(x, (1, 2, 2), return_indices=True)[1])
print(F.adaptive_max_pool2d(x, 2, return_indices=True)[1])
"""

SHAPES = SHOW + """
import torch, torch.nn.functional as F
def pooled(pool, shape):
    x = torch.randn(*shape, requires_grad=True)
    y, i = pool(x, 2, return_indices=True)
    y.sum().backward()
    return y.shape, x.grad.shape, i.shape, y.grad_fn.name()
for shape in [(0, 2, 4, 4), (0, 2, 4), (6, 6), (1, 1, 2, 6, 6), (2, 0, 4, 4), (0, 4, 4),
              (2, 3, 0, 4), (2, 3, 4, 0), (3, 0, 0)]:
    show(f"2d {shape}", lambda: pooled(F.max_pool2d, shape))
for shape in [(0, 2, 4, 4, 4), (6, 6, 6), (1, 1, 1, 2, 6, 6), (2, 0, 4, 4, 4), (0, 4, 4, 4),
              (2, 3, 0, 4, 4), (3, 4, 4, 0)]:
    show(f"3d {shape}", lambda: pooled(F.max_pool3d, shape))
for shape in [(0, 3, 4), (2, 0, 4), (0, 4), (4,), (1, 2, 3, 4)]:
    show(f"1d {shape}", lambda: pooled(F.max_pool1d, shape))
    show(f"1d, no indices {shape}", lambda: F.max_pool1d(torch.randn(*shape), 2).shape)
show("module", lambda: torch.nn.MaxPool2d(2)(torch.randn(2, 0, 4, 4)))
"""


def test_an_unbatched_image_has_torchs_own_node_and_gradients(tmp_path):
    assert_playground_prints_as_torch(UNBATCHED, tmp_path)


def test_the_last_nan_of_a_window_is_its_maximum(tmp_path):
    assert_playground_prints_as_torch(NANS, tmp_path)


def test_empty_batches_pool_and_bad_shapes_are_refused_in_torchs_words(tmp_path):
    assert_playground_prints_as_torch(SHAPES, tmp_path)
