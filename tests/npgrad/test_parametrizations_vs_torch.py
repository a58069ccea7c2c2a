"""nn.Parameter as a class of its own, torch.nn.utils.parametrizations (orthogonal in its
three maps, weight_norm, spectral_norm) and the pieces under them (geqrf,
householder_product, torch._weight_norm, finfo): each script printed by python with real
torch and by ``playground run``."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

PARAMETER_CLASS = """import copy
import io

import torch
from torch import nn

p = nn.Parameter(torch.ones(2))
print(type(p), type(p).__name__, isinstance(p, torch.Tensor), isinstance(p, nn.Parameter))
print(nn.Parameter, nn.parameter.Parameter is nn.Parameter, nn.Parameter.__module__)
made = {"sum": p + 1, "detach": p.detach(), "data": p.data, "clone": p.clone(),
        "deepcopy": copy.deepcopy(p), "view": p.view(2), "index": p[0], "neg": -p,
        "same dtype": p.to(torch.float32), "double": p.double(), "contiguous": p.contiguous(),
        "requires_grad_": p.requires_grad_(), "wrapped again": nn.Parameter(p),
        "product with a tensor": torch.ones(2) * p, "power": 2 ** p, "p ** p": p ** p}
print({name: type(t).__name__ for name, t in made.items()})
print(isinstance(torch.ones(1), nn.Parameter), nn.Parameter(torch.zeros(1), requires_grad=False))
print(type(nn.Parameter()).__name__, nn.Parameter().shape)
with torch.no_grad():
    p -= 1
    p.mul_(3)
print(type(p).__name__, p)
model = nn.Linear(2, 3)
model.double()
print([type(t).__name__ for t in model.parameters()], type(model.state_dict()["weight"]))
buffer = io.BytesIO()
torch.save([p, model.weight, p.detach()], buffer)
buffer.seek(0)
print([type(t).__name__ for t in torch.load(buffer)])
w = nn.Parameter(torch.linspace(-1, 1, 6).view(3, 2))
(w @ torch.ones(2)).pow(2).sum().backward()
print(w.grad, w.is_leaf, w.grad_fn)
print(torch.finfo(torch.float32), torch.finfo(), torch.finfo(torch.float64).eps,
      torch.iinfo(torch.int64), torch.iinfo(torch.uint8).max, torch.finfo(torch.float16).tiny)
print(torch.contiguous_format, w.clone(memory_format=torch.contiguous_format).shape)
print(w.H.shape, w.mH.grad_fn.name(), w.is_complex(), torch.is_complex(w))
for call in (lambda: torch.finfo(torch.int32), lambda: torch.iinfo(torch.float32),
             lambda: torch.ones(2, 2, 2).H):
    try:
        call()
    except (TypeError, RuntimeError) as error:
        print(type(error).__name__, error)
"""

ORTHOGONAL = """import torch
from torch import nn
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import orthogonal

torch.manual_seed(0)


def gap(Q):
    small = Q if Q.shape[-2] >= Q.shape[-1] else Q.mT
    return round((small.mT @ small - torch.eye(small.shape[-1])).abs().max().item(), 4)


for shape, how in [((6, 4), None), ((4, 6), None), ((5, 5), None), ((5, 5), "cayley"),
                   ((6, 3), "matrix_exp"), ((3, 6), "cayley"), ((4, 4), "householder")]:
    layer = orthogonal(nn.Linear(*shape), orthogonal_map=how)
    chain = layer.parametrizations.weight
    print(layer.weight.shape, chain[0].orthogonal_map.name, gap(layer.weight),
          sorted(name for name, _ in layer.named_buffers()))
    opt = torch.optim.SGD(layer.parameters(), lr=0.1)
    for _ in range(3):
        opt.zero_grad()
        loss = layer(torch.linspace(-1, 1, shape[0])).pow(2).sum()
        loss.backward()
        opt.step()
    print(f"{loss.item():.4f}", gap(layer.weight), layer.weight.grad_fn.name(),
          chain.original.grad.abs().sum().item() > 0)

plain = orthogonal(nn.Linear(3, 5), use_trivialization=False)
print(plain.parametrizations.weight.original.round(decimals=4), gap(plain.weight))
(plain.weight * torch.arange(15.).view(5, 3)).sum().backward()
print(plain.parametrizations.weight.original.grad.round(decimals=4))
square = orthogonal(nn.Linear(3, 3), use_trivialization=False)
print(square.parametrizations.weight.original.round(decimals=4), gap(square.weight))
try:
    square.weight = torch.eye(3)
except NotImplementedError as error:
    print("NotImplementedError", error)
for name, how in (("bias", None), ("weight", "nope"), ("scale", None)):
    try:
        orthogonal(nn.Linear(2, 2), name, how)
    except ValueError as error:
        print("ValueError", error)

a = torch.randn(5, 3, dtype=torch.float64)
compact, tau = torch.geqrf(a)
q = torch.linalg.householder_product(compact, tau)
print(torch.allclose(q @ compact.triu()[:3], a), torch.allclose(torch.orgqr(compact, tau), q))
print(type(torch.geqrf(a)).__name__, torch.geqrf(a.requires_grad_()).a.grad_fn.name())
try:
    torch.geqrf(a)[0].sum().backward()
except NotImplementedError as error:
    print("NotImplementedError", error)
"""

WEIGHT_AND_SPECTRAL_NORM = """import torch
from torch import nn
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import spectral_norm, weight_norm

torch.manual_seed(0)
for dim in (0, 1, None):
    layer = weight_norm(nn.Linear(4, 3), dim=dim)
    chain = layer.parametrizations.weight
    print(layer)
    print(chain.original0.shape, chain.original1.shape, layer.weight.grad_fn.name())
    layer(torch.linspace(-2, 2, 8).view(2, 4)).pow(2).sum().backward()
    print(chain.original0.grad, chain.original1.grad.round(decimals=5))
conv = weight_norm(nn.Conv2d(2, 3, 2))
print(conv.parametrizations.weight.original0.shape, conv.weight.grad_fn.name())
state = {"weight_g": torch.ones(3, 1), "weight_v": torch.full((3, 4), 2.0), "bias": torch.zeros(3)}
old = weight_norm(nn.Linear(4, 3))
print(old.load_state_dict(state), old.weight)
parametrize.remove_parametrizations(old, "weight")
print(type(old).__name__, [name for name, _ in old.named_parameters()])

torch.manual_seed(1)
for layer in (nn.Linear(5, 4), nn.Conv2d(2, 3, 2), nn.ConvTranspose2d(2, 3, 2)):
    layer = spectral_norm(layer)
    chain = layer.parametrizations.weight
    print(type(layer).__name__, chain[0]._u.shape, chain[0]._v.shape)
    print(torch.linalg.matrix_norm(layer.weight.flatten(1), 2).round(decimals=4))
    for _ in range(3):
        layer.weight.sum().backward()
    print(chain.original.grad.flatten()[:5], chain[0]._u[:3])
    layer.eval()
    before = chain[0]._u.clone()
    print(layer.weight.grad_fn.name(), torch.equal(before, chain[0]._u))
print(torch.randn(2))
"""


def test_parameter_is_a_class_of_its_own(tmp_path):
    assert_playground_prints_as_torch(PARAMETER_CLASS, tmp_path)


def test_orthogonal_parametrizations(tmp_path):
    assert_playground_prints_as_torch(ORTHOGONAL, tmp_path)


def test_weight_norm_and_spectral_norm(tmp_path):
    assert_playground_prints_as_torch(WEIGHT_AND_SPECTRAL_NORM, tmp_path)


HOOKED_NORMS = """import warnings

import torch
from torch import nn

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    m = nn.utils.weight_norm(nn.Linear(3, 2))
print([type(w.message).__name__ for w in caught], str(caught[0].message))
print([n for n, _ in m.named_parameters()], m.weight_g.shape, m.weight.grad_fn.name(), m)
x = torch.randn(4, 3)
m(x).pow(2).sum().backward()
print(m.weight_g.grad, m.weight_v.grad)
c = nn.utils.weight_norm(nn.Conv1d(2, 3, 2), dim=None)
print(c.weight_g, c(torch.randn(1, 2, 5)).shape)
nn.utils.remove_weight_norm(m)
print([n for n, _ in m.named_parameters()], type(m.weight).__name__, m.weight)
s = nn.utils.spectral_norm(nn.Linear(4, 3))
print(sorted(s.state_dict().keys()), s.weight_u, s.weight_v)
for _ in range(3):
    s(x.repeat(1, 2)[:, :4]).sum().backward()
print(s.weight_orig.grad, s.weight_u, s.weight)
s.eval()
print(s(torch.ones(1, 4)))
nn.utils.remove_spectral_norm(s)
print([n for n, _ in s.named_parameters()], s.weight, sorted(s.state_dict()))
print(nn.utils.spectral_norm(nn.ConvTranspose2d(2, 3, 2)).weight_v.shape)
for call in (lambda: nn.utils.remove_weight_norm(s), lambda: nn.utils.weight_norm(c)):
    try:
        call()
    except (ValueError, RuntimeError) as error:
        print(type(error).__name__, error)
"""


def test_the_hook_based_weight_norm_and_spectral_norm(tmp_path):
    assert_playground_prints_as_torch(HOOKED_NORMS, tmp_path)
