"""What old and terse code calls, against torch run here: torch 1.x's removed linear algebra
(torch.solve, lstsq, eig, symeig, matrix_rank) refused in torch's words, torch.qr (its
warning, its return type, linalg.qr's factors and gradients), torch.cholesky (its warning,
CholeskyBackward0 and its second derivative, its errors), gcd and lcm, nextafter
(NextafterBackward0), in-place methods called as torch's functions (torch.clamp_,
torch.selu_, torch.dropout_...), torch.rsub (RsubBackward0 of
two tensors), torch.asarray and empty_strided, constant_pad_nd, split_with_sizes, rms_norm,
pixel_unshuffle, and xlogy with a number on either side (XlogyBackward1, XlogyBackward2,
torch's gradient where self is 0)."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")

SCRIPTS = {
    "asarray_empty_strided_and_aliases": r'''
import numpy as np
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
p = torch.constant_pad_nd(x, (1, 2), 9.0)
print(p, torch.constant_pad_nd(x, [2, 0]), torch.autograd.grad(p.sum(), x))
print(torch.split_with_sizes(x, [1, 2]), x.split_with_sizes([2, 1]))
a = np.arange(3.0)
t = torch.asarray(a); a[0] = 7; print(t, t.dtype)
print(torch.asarray([1, 2]).dtype, torch.asarray([1.5, 2]).dtype, torch.asarray(3.0),
      torch.asarray(x) is x, torch.asarray(x, dtype=torch.float64).dtype)
print(torch.asarray([1.0, 2.0], requires_grad=True),
      torch.asarray(a, copy=True).data_ptr() != t.data_ptr())
print(torch.asarray(a, dtype=torch.float32), torch.asarray(True),
      torch.asarray([[1, 2], [3, 4]], dtype=torch.float16))
e = torch.empty_strided((2, 3), (1, 2)); print(e.stride(), e.shape, e.is_contiguous(), e.dtype)
e2 = torch.empty_strided((2, 3), (3, 1), dtype=torch.float64, requires_grad=True)
print(e2.stride(), e2.dtype, e2.requires_grad, e2.is_leaf, e2.is_contiguous())
print(torch.empty_strided((2, 0, 3), (1, 2, 3)).shape)
try:
    torch.empty_strided((2, 3), (1,))
except RuntimeError as error:
    print(error)
r = torch.rms_norm(x, [3]); print(r.grad_fn.name(), torch.rms_norm(x, (3,), torch.ones(3), 1e-6))
print(torch.pixel_unshuffle(torch.arange(16.).reshape(1, 1, 4, 4), 2))
y = torch.tensor([1., 2.], requires_grad=True)
c = torch.asarray(y, dtype=torch.float64); print('3', c.requires_grad, c.grad_fn.name())
d = torch.asarray(y, requires_grad=False); print('4', d is y, d.requires_grad, y.requires_grad)
''',
    "rsub": r'''
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = torch.tensor([[0.5], [2.0]], requires_grad=True)
for f in (lambda: torch.rsub(x, 2), lambda: torch.rsub(x, 2, alpha=3), lambda: torch.rsub(x, y),
          lambda: torch.rsub(x, y, alpha=0.5), lambda: 5 - x,
          lambda: torch.rsub(torch.tensor([1, 2]), 3)):
    r = f()
    grads = torch.autograd.grad(r.sum(), [x, y], allow_unused=True) if r.requires_grad else ""
    print(r, r.dtype, grads)
''',
    "removed_and_qr": r'''
import warnings
import torch
warnings.simplefilter("always")
A = torch.eye(2)
for n, args in [("solve", (A, A)), ("lstsq", (A, A)), ("eig", (A,)), ("symeig", (A,)),
                ("matrix_rank", (A,)), ("eig", (A, True))]:
    try:
        getattr(torch, n)(*args)
    except Exception as e:
        print(f"=== {n} {type(e).__name__}\n{e!r}")
for n in ["solve", "lstsq", "eig", "symeig", "matrix_rank"]:
    print(n, hasattr(torch.Tensor, n))
    try:
        getattr(A, n)(*([A] if n in ("solve", "lstsq") else []))
    except Exception as e:
        print(f"=== Tensor.{n} {type(e).__name__}\n{e!r}")
B = torch.tensor([[2.0, 1.0], [1.0, 3.0], [0.5, 1.0]], requires_grad=True)
q = torch.qr(B, some=False)
print(type(q).__name__, q)
q2 = B.qr()
print(q2.Q.grad_fn.name(), q2.R)
(q2.Q.sum() + q2.R.sum()).backward()
print(B.grad)
''',
    "cholesky": r'''
import warnings
import torch
warnings.simplefilter("always")
torch.manual_seed(0)
a = torch.randn(3, 3, dtype=torch.float64)
A = (a @ a.mT + 3 * torch.eye(3, dtype=torch.float64)).requires_grad_()
L = torch.cholesky(A)
U = A.cholesky(upper=True)
print(L, U.grad_fn.name(), torch.allclose(L, torch.linalg.cholesky(A)))
g, = torch.autograd.grad((L.sin().sum() + U.square().sum()), A, create_graph=True)
print(g)
print(torch.autograd.grad(g.sum(), A)[0])
print(torch.cholesky(torch.eye(2)).dtype)
for bad in (torch.tensor([[1., 2.], [2., 1.]]), torch.ones(3), torch.ones(2, 3),
            torch.eye(2).half(), torch.ones(2, 2, dtype=torch.int64)):
    try:
        torch.cholesky(bad)
    except Exception as error:
        print(type(error).__name__, error)
''',
    "gcd_lcm_and_nextafter": r'''
import torch
a = torch.tensor([4, -6, 0, 7]); b = torch.tensor([6, 9, 5, 0])
print(torch.gcd(a, b), torch.lcm(a, b), a.gcd(b), a.clone().lcm_(b), a.clone().gcd_(b))
print(torch.gcd(a, torch.tensor(4, dtype=torch.int32)).dtype, torch.lcm(a.int(), b.int()))
for x, y in ((torch.tensor([1., 2.]),) * 2, (torch.tensor([True, False]),) * 2,
             (a, torch.tensor([1., 2., 3., 4.]))):
    try:
        torch.gcd(x, y)
    except Exception as error:
        print(type(error).__name__, error)
x = torch.tensor([1., 2.], requires_grad=True)
o = torch.tensor([[2.], [0.]], requires_grad=True)
y = torch.nextafter(x, o)
q = torch.tensor([1., 2., 3., 0., float("inf"), float("nan"), -1.], requires_grad=True)
r = torch.tensor([2., 2., 0., 0., 5., 1., float("nan")])
torch.nextafter(q, r).backward(torch.arange(1., 8.))
print(q.grad)
print(y, y.grad_fn.name(), (y - x).abs().max().item() > 0)
y.sum().backward()
print(x.grad, o.grad)
z = x.detach().clone().requires_grad_()
w = z * 1
w.nextafter_(torch.tensor([5., 5.]))
print(w.grad_fn.name(), torch.autograd.grad(w.sum(), z))
one, two = torch.tensor([1.], dtype=torch.float64), torch.tensor([2.], dtype=torch.float64)
print(torch.nextafter(one, two).item())
print(torch.nextafter(torch.tensor([1.]), torch.tensor([2.], dtype=torch.float64)).item())
print(torch.nextafter(torch.tensor(0.), torch.tensor(1.)).item())
for bad in ((torch.tensor([1, 2]), torch.tensor([2, 3])), (x, 2.0)):
    try:
        torch.nextafter(*bad)
    except Exception as error:
        print(type(error).__name__, error)
''',
    "bitwise_gcd_lcm_refusals": r'''
import torch
a, f, b = torch.tensor([1, 6]), torch.tensor([1., 2.]), torch.tensor([True, False])
for name in ("bitwise_and", "bitwise_or", "bitwise_xor", "gcd", "lcm"):
    for x, y in ((a, a), (a, f), (f, f), (b, b), (a, b)):
        try:
            print(name, getattr(torch, name)(x, y))
        except Exception as error:
            print(name, type(error).__name__, error)
print(a & 3, a | b, b ^ b, a.bitwise_and(2))
''',
    "in_place_function_forms": r'''
import torch
torch.manual_seed(0)
x = torch.tensor([0.5, 1.0, 2.0, -1.0], requires_grad=True)
for name, args in [("clamp_", (0.0, 1.5)), ("clamp_min_", (0.7,)), ("clamp_max_", (0.7,)),
                   ("clip_", (0.0, 1.0)), ("fill_", (3.0,)), ("zero_", ()), ("nan_to_num_", ()),
                   ("sinc_", ()), ("deg2rad_", ()), ("rad2deg_", ()), ("square_", ()),
                   ("selu_", ()), ("celu_", (0.5,)), ("threshold_", (0.7, -2.0)),
                   ("dropout_", (0.5, True)), ("xlogy_", (2.0,))]:
    y = x * 1
    out = getattr(torch, name)(y, *args)
    print(name, out is y, y, torch.autograd.grad(y.sum(), x)[0])
z = torch.ones(3)
torch.detach_(z); print(z.requires_grad)
''',
    "xlogy_with_numbers": r'''
import torch
x = torch.tensor([0.5, 1.0, 0.0], requires_grad=True)
for f in (lambda: x.xlogy(2.0), lambda: torch.xlogy(2.0, x), lambda: x.xlogy(x),
          lambda: torch.special.xlogy(x, 3), lambda: torch.xlogy(torch.tensor([1, 2]), 2),
          lambda: torch.xlogy(0, x), lambda: x.double().xlogy(2.0)):
    y = f()
    grads = torch.autograd.grad(y.sum(), x, allow_unused=True) if y.requires_grad else None
    print(y, y.dtype, grads)
y = x * 1
y.xlogy_(2.0); print(y)
''',
}


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_runs_as_on_torch(name, tmp_path):
    assert_playground_prints_as_torch(SCRIPTS[name], tmp_path)
