"""Complex tensors on npgrad against real torch, run here: complex64/complex128 and their
promotion, repr, parts and views (real, imag, view_as_real/complex, conj, angle, polar), random
complex numbers from torch's generator, gradients by complex leaves (dL/dRe + i dL/dIm) through
holomorphic and non-holomorphic ops, torch.fft's transforms and torch.linalg.eig/eigvals."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

PARTS_AND_PRINTING = r"""
import torch
z = torch.tensor([1+2j, -3.5-0.25j, 0j])
print(z)
print(z.dtype, z.dtype.is_complex, z.is_complex(), z.dtype.to_real())
print(torch.tensor(1+2j), torch.tensor(1+2j).item())
print(torch.tensor([[1e-5+2j, 3e6j]]))
print(torch.tensor([1.5, 2j]))
print(torch.zeros(2, dtype=torch.complex128), torch.ones(2, 2, dtype=torch.cfloat))
print((torch.ones(2) * 1j).dtype, (torch.ones(2, dtype=torch.float64) * 1j).dtype)
print(torch.promote_types(torch.float64, torch.complex64))
print(z + 1, z * 2, z - z, z * z, z / (z + 1))
print(z.sum(), z.mean(), z.prod())
print(torch.exp(z), torch.log(z + 1), torch.sin(z), torch.cos(z), torch.sqrt(z), torch.tanh(z))
print(z ** 2, z.reciprocal() if False else 1 / (z + 1), -z)
print(z.real, z.imag, z.abs(), z.angle(), z.conj(), z.conj().is_conj(), z.conj_physical())
c = torch.complex(torch.tensor([1., 2.]), torch.tensor([3., 4.]))
print(c, torch.polar(torch.tensor([1., 2.]), torch.tensor([0.5, -1.])))
r = torch.view_as_real(c)
print(r, r.shape)
print(torch.view_as_complex(torch.tensor([[1., 2.], [3., 4.]])))
torch.manual_seed(0)
print(torch.randn(3, dtype=torch.cfloat))
print(torch.rand(2, 2, dtype=torch.complex128))
A = torch.tensor([[1+1j, 2], [0, 1j]])
print(A @ A, A.T, A.mH, A.H, A.t().conj())
print(torch.matmul(A, torch.tensor([1j, 1])))
print(torch.isreal(z), z == z.conj(), torch.is_complex(z))
print(z.to(torch.complex128), z.cdouble(), c.to(torch.float32) if False else c.real)
print(torch.arange(4).to(torch.cfloat))
print(torch.linalg.norm(z), z.norm(), torch.vdot(z, z))
print(torch.stack([z, z]).shape, torch.cat([z, z]), z.reshape(3, 1), z[1:], z.flip(0))
print(z.sgn(), torch.sgn(z))
"""

GRADIENTS = r"""
import torch
z = torch.tensor([1 + 2j, -0.5 + 0.25j, 3 - 1j], requires_grad=True)
w = torch.tensor([0.5 - 1j, 2 + 0j, -1 + 1j], requires_grad=True)
x = torch.tensor([0.3, -1.2, 2.0], requires_grad=True)
def show(loss, *leaves):
    for leaf in leaves:
        leaf.grad = None
    loss.backward()
    print(type(loss.grad_fn).__name__, [leaf.grad for leaf in leaves])
show((z * w).abs().sum(), z, w)
show((z * w).real.sum(), z, w)
show((z / w).imag.sum(), z, w)
show((torch.exp(z) * w).real.sum(), z, w)
show(torch.exp(z.cdouble()).imag.sum(), z)
show(torch.sin(z * x).angle().sum(), z, x)
show((z * z.conj()).real.sum(), z)
show(torch.view_as_real(z * 2).pow(2).sum(), z)
show(torch.view_as_complex(torch.stack([x, x * 2], -1)).abs().sum(), x)
show(torch.complex(x, x * x).abs().sum(), x)
show(torch.polar(x.abs() + 1, x).real.sum(), x)
show((z ** 2 + 1j * z).abs().sum(), z)
show(torch.sgn(z * w).imag.sum(), z)
show(torch.vdot(z, w).real, z, w)
show(torch.log(z).imag.sum() + torch.sqrt(w).real.sum(), z, w)
show(torch.tanh(z).abs().sum() + torch.sigmoid(w).abs().sum(), z, w)
A = torch.tensor([[1 + 1j, 2], [0.5j, 1 - 1j]], requires_grad=True)
show((A @ A.mH).abs().sum() + (A.T @ z[:2]).abs().sum(), A, z)
show(torch.linalg.norm(z) + (x * 1j).abs().sum() + z.sum().abs(), z, x)
show((x.to(torch.cfloat) * w).abs().mean(), x, w)
show(torch.cat([z, w]).reshape(2, 3).sum(0).abs().sum(), z, w)
y = z * w
print(type(y.grad_fn).__name__, [type(f).__name__ for f, _ in y.grad_fn.next_functions])
try:
    (z * 2).sum().backward()
except RuntimeError as e:
    print(e)
g, = torch.autograd.grad((z * w).sum(), z, torch.tensor(1 + 1j))
print(g)
"""

FOURIER = r"""
import torch
F = torch.fft
x = torch.tensor([0.5, -1.0, 2.0, 0.25, 3.0, -0.75], dtype=torch.float64, requires_grad=True)
z = torch.tensor([1 + 2j, -0.5 + 0.25j, 3 - 1j, 0.5j, -2.0, 1 + 1j], dtype=torch.complex128,
                 requires_grad=True)
w = torch.linspace(-1, 1, 6, dtype=torch.float64)
# c2r's gradients differ from torch's below 1e-14 (MKL's transforms, not pocketfft's)
QUIET = ("irfft z", "irfft2", "irfftn s", "hfft", "irfft z n7")


def show(name, y):
    print(name, y, type(y.grad_fn).__name__)
    if y.is_complex():
        weighted = y.dim() == 1 and y.shape[-1] <= 6
        loss = (y.abs() * w[: y.shape[-1]] if weighted else y.abs()).sum()
    else:
        loss = (y * y).sum()
    x.grad = z.grad = None
    loss.backward()
    if name not in QUIET:
        print(" grads", x.grad, z.grad)
show("fft x", F.fft(x))
show("fft z", F.fft(z))
show("ifft x", F.ifft(x))
show("ifft z", F.ifft(z, norm="ortho"))
show("rfft x", F.rfft(x))
show("rfft x n5", F.rfft(x, n=5))
show("irfft z", F.irfft(z))
show("irfft z n7", F.irfft(z, n=7, norm="forward"))
show("fft x n8", F.fft(x, n=8))
show("fft x n4", F.fft(x, n=4, norm="forward"))
show("fft2", F.fft2(x.reshape(2, 3)))
show("ifft2", F.ifft2(z.reshape(3, 2)))
show("rfft2", F.rfft2(x.reshape(2, 3)))
show("irfft2", F.irfft2(z.reshape(2, 3)))
show("fftn", F.fftn(z.reshape(2, 3), norm="ortho"))
show("rfftn", F.rfftn(x.reshape(3, 2)))
show("irfftn s", F.irfftn(z.reshape(2, 3), s=(2, 4)))
show("hfft", F.hfft(z))
show("ihfft", F.ihfft(x))
show("fftshift", F.fftshift(z))
show("ifftshift", F.ifftshift(x.reshape(2, 3), dim=1))
print(F.fftfreq(5), F.rfftfreq(6, d=0.5), F.fftfreq(4, dtype=torch.float64), F.fftfreq(7, 0.1))
print(F.fft(torch.arange(4)))
print(F.fft(torch.tensor([1., 2., 3., 4.])))
for bad in (lambda: F.rfft(z), lambda: F.fft(x, norm="bad"), lambda: F.irfft(z, n=0)):
    try:
        bad()
    except RuntimeError as e:
        print(e)
t = torch.arange(64, dtype=torch.float64) / 64
signal = torch.sin(2 * torch.pi * 5 * t) + 0.5 * torch.cos(2 * torch.pi * 12 * t)
spectrum = F.rfft(signal)
print(spectrum.abs().topk(2).indices, F.irfft(spectrum, n=64).sub(signal).abs().max() < 1e-12)
"""

EIGEN = r"""
import torch
A = torch.tensor([[2., 1., 0.], [1., 3., 1.], [0., 1., 4.]], dtype=torch.float64)
w, v = torch.linalg.eig(A)
print(w, v.dtype, torch.linalg.eigvals(A))
R = torch.tensor([[0., -1.], [1., 0.]])
print(torch.linalg.eig(R))
B = torch.tensor([[1., 2., 0.5], [-1., 0.5, 2.], [0.3, -2., 1.]], dtype=torch.float64,
                 requires_grad=True)
L, V = torch.linalg.eig(B)
print(L, type(L.grad_fn).__name__)
(L.real.sum() + L.imag.pow(2).sum()).backward()
print(B.grad)
B.grad = None
L, V = torch.linalg.eig(B)
(V.abs().sum()).backward()
print(B.grad)
B.grad = None
ev = torch.linalg.eigvals(B)
ev.abs().sum().backward()
print(type(ev.grad_fn).__name__, B.grad)
try:
    L, V = torch.linalg.eig(B)
    V.real.sum().backward()
except RuntimeError as e:
    print(e)
M = B.detach().to(torch.complex128).requires_grad_()
L, V = torch.linalg.eig(M @ M)
L.abs().sum().backward()
print(M.grad.real)
print(torch.linalg.eigvals(torch.eye(2)))
"""

EDGES = r"""
import torch
for bad in ("torch.view_as_complex(torch.ones(3))", "torch.view_as_complex(torch.ones(2, 2).t())",
            "torch.view_as_complex(torch.ones(3, 2, dtype=torch.int64))",
            "torch.view_as_real(torch.ones(2))", "torch.ones(2).imag",
            "torch.complex(torch.ones(2), torch.ones(2, dtype=torch.float64))",
            "torch.complex(torch.ones(2, dtype=torch.int64), torch.ones(2, dtype=torch.int64))",
            "torch.fft.rfft(torch.ones(4, dtype=torch.cfloat))",
            "torch.fft.fft(torch.ones(4), norm='x')"):
    try:
        eval(bad)
    except RuntimeError as error:
        print(error)
z = torch.zeros(3, dtype=torch.cfloat)
z.real[0] = 5
z.imag[1:] = torch.tensor([1.5, -2.0])
print(z)
z.mul_(1 + 1j)
z += 2
print(z, z.is_complex(), z.element_size(), z.real.stride(), torch.view_as_real(z).stride())
print(torch.randn(40, dtype=torch.cfloat).shape, torch.linspace(0, 1, 2000).to(torch.cdouble))
torch.set_default_dtype(torch.float64)
print(torch.tensor([1 + 1j]), torch.tensor([1.0]) * 1j, torch.ones(1, dtype=torch.cfloat))
torch.set_default_dtype(torch.float32)
x = torch.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
h = torch.complex(x, x.t() * 0)
print(torch.linalg.eigvalsh(h))
try:
    torch.linalg.eigvalsh(h).sum().backward()
except Exception as error:
    print(type(error).__name__)
y = torch.fft.fft(torch.arange(8.0))
print(y.abs(), y.angle(), y.real.dtype, torch.fft.ifft(y).real)
print(torch.fft.fftshift(torch.fft.fftfreq(8)))
print(torch.tensor([1 + 2j]).tolist(), torch.tensor(3 - 4j).abs().item(),
      complex(torch.tensor(1 + 1j)))
print(torch.exp(1j * torch.pi * torch.arange(4) / 2))
print(torch.tensor([1 + 2j, 3j]) == torch.tensor([1 + 2j, 3 + 0j]))
print(torch.zeros(2, 2, dtype=torch.complex64).mT,
      torch.eye(2, dtype=torch.cfloat) @ torch.ones(2, dtype=torch.cfloat))
print(torch.stack([torch.tensor(1j), torch.tensor(2.0 + 0j)]),
      torch.tensor([[1j, 2], [3, 4j]]).sum(dim=1))
print(torch.allclose(torch.tensor([1j]), torch.tensor([1j + 1e-9])),
      torch.isclose(torch.tensor([1j]), torch.tensor([1j])))
hx = torch.tensor([[2.0, 1.0 - 1j], [1.0 + 1j, 3.0]], dtype=torch.complex128, requires_grad=True)
values, vectors = torch.linalg.eigh(hx)
(values.pow(2).sum() + (vectors.abs() ** 2 * torch.tensor([1.0, 2.0])).sum()).backward()
print(values, hx.grad.real, hx.grad[0, 1].imag, hx.grad[1, 0].imag)
"""


def test_complex_tensors_print_and_compute_as_torchs(tmp_path):
    assert_playground_prints_as_torch(PARTS_AND_PRINTING, tmp_path)


def test_gradients_by_complex_tensors_are_torchs(tmp_path):
    assert_playground_prints_as_torch(GRADIENTS, tmp_path)


def test_fourier_transforms_and_their_gradients_are_torchs(tmp_path):
    assert_playground_prints_as_torch(FOURIER, tmp_path)


def test_eigen_decompositions_of_general_matrices_are_torchs(tmp_path):
    assert_playground_prints_as_torch(EIGEN, tmp_path)


def test_complex_edges_errors_and_writes_are_torchs(tmp_path):
    assert_playground_prints_as_torch(EDGES, tmp_path)


IN_PLACE = r"""
import torch
z = torch.tensor([1 + 2j, -0.5 + 0.25j], requires_grad=True)
y = z * 2
y.mul_(1 - 1j)
y.add_(z)
w = y[0:1] * 3
y.abs().sum().backward()
print(z.grad, type(y.grad_fn).__name__)
"""


def test_in_place_writes_to_complex_tensors_record_torchs_gradients(tmp_path):
    assert_playground_prints_as_torch(IN_PLACE, tmp_path)


LINEAR_ALGEBRA = r"""
import torch
A = torch.tensor([[2 + 1j, 1 - 0.5j, 0.3j], [0.5, 3 - 1j, 1], [1j, -1, 4 + 0.5j]],
                 dtype=torch.complex128, requires_grad=True)
b = torch.tensor([1 + 1j, -2, 0.5j], dtype=torch.complex128, requires_grad=True)
x = torch.linalg.solve(A, b)
d = torch.linalg.det(A)
inv = torch.linalg.inv(A)
n = torch.linalg.norm(A)
sl = torch.linalg.slogdet(A)
print(x, d, n, sl)
loss = x.abs().sum() + d.abs() + inv.real.sum() + n + sl.logabsdet + torch.linalg.matrix_norm(A)
loss.backward()
print(A.grad, b.grad)
print(torch.linalg.eigvalsh(A @ A.mH), torch.linalg.matrix_exp(A * 0.1))
A.grad = None
sign, logabsdet = torch.linalg.slogdet(A)
(sign.real + 2 * sign.imag + logabsdet).backward()
print(sign, logabsdet, A.grad)
A.grad = None
torch.linalg.matrix_exp(A * 0.1).abs().sum().backward()
print(A.grad)
A.grad = None
(torch.linalg.inv(A) @ b).abs().sum().backward()
print(A.grad)
print(torch.linalg.svdvals(A), torch.linalg.qr(A).R.diagonal().abs(),
      torch.linalg.cholesky(A @ A.mH).diagonal().real)
try:
    torch.linalg.svdvals(A).sum().backward()
    print(A.grad.shape)
except Exception as error:
    print(type(error).__name__, error)
"""


def test_linear_algebra_of_complex_matrices_is_torchs(tmp_path):
    """solve, det, inv, norms, slogdet (its sign's gradient too), eigvalsh, matrix_exp, svdvals,
    qr and cholesky of a complex128 matrix, with gradients."""
    assert_playground_prints_as_torch(LINEAR_ALGEBRA, tmp_path)


COMPLEX_LAYERS = r"""
import torch
torch.manual_seed(0)
lin = torch.nn.Linear(3, 2, dtype=torch.cfloat)
print(lin.weight, lin.bias)
x = torch.randn(4, 3, dtype=torch.cfloat)
y = lin(x)
print(y)
y.abs().sum().backward()
print(lin.weight.grad, lin.bias.grad)
print(torch.empty(2, 3, dtype=torch.cdouble).normal_(1.0, 2.0))
print(torch.empty(3, 2, dtype=torch.cfloat).t().uniform_(-1, 1))
t = torch.empty(5, 5, dtype=torch.cfloat)
torch.nn.init.xavier_normal_(t)
print(t, torch.empty(20, dtype=torch.cfloat).normal_())
"""


def test_complex_layers_are_initialised_from_torchs_generator(tmp_path):
    """nn.Linear(dtype=torch.cfloat), and uniform_/normal_/xavier_normal_ of complex tensors:
    torch fills their view_as_real, each part of a normal with half the variance."""
    assert_playground_prints_as_torch(COMPLEX_LAYERS, tmp_path)
