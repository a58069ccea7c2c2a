"""What pasted code of today met that the engine lacked, against torch run here: an LSTM with a
projection (its repr, weights, states, oneDNN's warning and torch's checks of given states),
clamp_'s refusal of a leaf before its bounds, what autograd records of sparse tensors
(torch.sparse.sum, mm and addmm, to_dense, coalesce, values) with their sparse gradients and
how a second one adds to the first, SGD with momentum and Adagrad on sparse gradients, and
tangents with a graph of their own where autograd records (forward-over-reverse), and a
leaf's tensor hooks running before torch.autograd.grad captures its gradient, and integer
division rounded toward zero staying in integers (a zero divisor refused), and addmm's beta
and alpha (torch.sparse.addmm of dense matrices too), and a sparse tensor built of values
that require grad (SparseCooTensorWithDimsAndTensorsBackward0), printed as torch wraps it,
and a sparse sum's refusal of a dense gradient."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")

SCRIPTS = {
    "lstm_projection": r'''
import warnings
import torch
from torch.nn.utils.rnn import pack_padded_sequence
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    torch.manual_seed(0)
    lstm = torch.nn.LSTM(4, 6, num_layers=2, proj_size=3, batch_first=True, bidirectional=True)
    print(lstm)
    for name, p in lstm.named_parameters():
        print(name, tuple(p.shape))
    x = torch.randn(2, 5, 4)
    out, (h, c) = lstm(x)
    print(out.shape, h.shape, c.shape, out.grad_fn.name(), h.grad_fn.name())
    print(out[0, 0], h[0, 0], c[0, 0])
    out.sum().backward()
    print(lstm.weight_hr_l0.grad)
    lstm(x)
    packed = pack_padded_sequence(torch.randn(3, 4, 4), [4, 2, 1], batch_first=True)
    ends = lstm(packed)[1]
    print([tuple(end.shape) for end in ends])
print([str(w.message)[:46] for w in caught])
print(torch.nn.LSTM(3, 4, proj_size=2, bias=False))
print([name for name, _ in torch.nn.LSTM(3, 4, proj_size=2, bias=False).named_parameters()])
x = torch.randn(5, 2, 3)
for make in [lambda: torch.nn.LSTM(3, 5, proj_size=5), lambda: torch.nn.LSTM(3, 4, proj_size=-1),
             lambda: torch.nn.GRU(3, 4, proj_size=2), lambda: torch.nn.RNN(3, 4, proj_size=2),
             lambda: torch.nn.LSTM(3, 4)(x, (torch.zeros(1, 2, 3), torch.zeros(1, 2, 4))),
             lambda: torch.nn.LSTM(3, 4)(x, (torch.zeros(1, 2, 4), torch.zeros(1, 3, 4))),
             lambda: torch.nn.LSTM(3, 4, proj_size=2, num_layers=2)(
                 x, (torch.zeros(2, 2, 2), torch.zeros(2, 2, 2))),
             lambda: torch.nn.GRU(3, 4)(x, torch.zeros(2, 2, 4)),
             lambda: torch.nn.RNN(3, 4, batch_first=True)(x, torch.zeros(1, 2, 4)),
             lambda: torch.nn.RNN(3, 4)(x, torch.zeros(1, 4)),
             lambda: torch.nn.LSTM(3, 4)(x[0], (torch.zeros(1, 1, 4), torch.zeros(1, 4))),
             lambda: torch.nn.LSTM(3, 4, proj_size=2)(
                 torch.randn(5, 3), (torch.zeros(1, 2), torch.zeros(1, 4)))[0].shape]:
    try:
        print(make())
    except Exception as e:
        print(type(e).__name__, e)
''',
    "clamp_leaf": r'''
import torch
x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
for f in [lambda: x.clamp(), lambda: torch.clamp(x), lambda: x.clamp_(), lambda: x.clip(),
          lambda: x.clip_(), lambda: x.detach().clamp_()]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
''',
    "sparse_autograd": r'''
import warnings
import torch
warnings.simplefilter("ignore")
i = torch.tensor([[1, 0, 1, 1], [2, 2, 0, 2]])
def fresh():
    return torch.sparse_coo_tensor(i, torch.tensor([3.0, 4.0, 5.0, 1.0]), (2, 3),
                                   requires_grad=True)
w = torch.arange(6.0).reshape(3, 2).requires_grad_()
weights = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
for name, f in [("torch.mm", lambda s: torch.mm(s, w)), ("matmul", lambda s: s @ w),
                ("sparse.mm", lambda s: torch.sparse.mm(s, w)),
                ("spmm", lambda s: torch.spmm(s, w)),
                ("sparse.addmm", lambda s: torch.sparse.addmm(torch.ones(2, 2), s, w)),
                ("scaled", lambda s: torch.sparse.addmm(torch.ones(2, 2), s, w, beta=0.5,
                                                        alpha=2))]:
    s = fresh()
    w.grad = None
    y = f(s)
    print(name, y.grad_fn.name(), [n.name() if n else None for n, _ in y.grad_fn.next_functions])
    print(y)
    (y * weights).sum().backward()
    print(s.grad, s.grad.layout, w.grad)
s = fresh()
d = s.to_dense()
print(d.grad_fn.name())
(d * torch.arange(6.0).reshape(2, 3)).sum().backward()
print(s.grad, s.grad.is_coalesced())
s.grad = None
v = s.coalesce().values()
print(v, v.grad_fn.next_functions[0][0].name(), s.coalesce().coalesce().grad_fn.name())
(v * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(s.grad, s.grad.is_coalesced())
total = torch.sparse.sum(s)
print(total, total.grad_fn.next_functions[0][0].name(), torch.sparse.sum(s, dtype=torch.float64))
for dims in [0, 1, (0, 1), -1]:
    r = torch.sparse.sum(s, dims)
    print(r, r.grad_fn.name(), r.is_sparse)
s3 = torch.sparse_coo_tensor(torch.tensor([[0, 1], [1, 0]]),
                             torch.tensor([[1., 2.], [3., 4.]]), (2, 2, 2))
print(torch.sparse.sum(s3, 0), torch.sparse.sum(s3, 2))
try:
    torch.sparse.sum(torch.ones(2, 3))
except RuntimeError as e:
    print(e)
ones = torch.ones(3, 2)
by_mm = lambda s: torch.sparse.mm(s, ones).sum()
by_sum = lambda s: torch.sparse.sum(s)
by_dim = lambda s: torch.sparse.sum(s, 1).to_dense().pow(2).sum()
by_dense = lambda s: s.to_dense().sum()
for first, second in [(by_mm, by_mm), (by_sum, by_sum), (by_mm, by_sum), (by_sum, by_mm),
                      (by_dim, by_dim), (by_dense, by_mm), (by_sum, by_dense)]:
    s = fresh()
    first(s).backward()
    second(s).backward()
    print(s.grad, s.grad.is_coalesced())
e = torch.nn.Embedding(5, 2, sparse=True)
for lookup in ([1, 3], [1, 3], [3, 1, 3]):
    e(torch.tensor(lookup)).sum().backward()
print(e.weight.grad._nnz(), e.weight.grad.is_coalesced())
''',
    "sparse_optimizers": r'''
import torch
torch.set_printoptions(precision=8)
for options in [dict(momentum=0.9), dict(momentum=0.9, nesterov=True),
                dict(momentum=0.5, dampening=0.3, maximize=True)]:
    torch.manual_seed(0)
    e = torch.nn.Embedding(4, 3, sparse=True)
    opt = torch.optim.SGD(e.parameters(), lr=0.1, **options)
    for step in range(5):
        opt.zero_grad()
        e(torch.tensor([[0, 3, 0], [1, 3, 3]][step % 2])).pow(2).sum().backward()
        opt.step()
        buffer = opt.state[e.weight]["momentum_buffer"]
        print(buffer._indices().tolist(), buffer.is_coalesced())
    print(e.weight, buffer)
for options in [dict(), dict(lr_decay=0.1, initial_accumulator_value=0.5),
                dict(maximize=True, eps=1e-3)]:
    torch.manual_seed(0)
    e = torch.nn.Embedding(4, 3, sparse=True)
    opt = torch.optim.Adagrad(e.parameters(), lr=0.1, **options)
    for step in range(4):
        opt.zero_grad()
        e(torch.tensor([[0, 3, 0], [1, 3, 3]][step % 2])).pow(2).sum().backward()
        opt.step()
    print(e.weight, opt.state[e.weight]["sum"])
for make in [lambda p: torch.optim.Adagrad(p, weight_decay=0.1),
             lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, weight_decay=0.1)]:
    opt = make(e.parameters())
    e(torch.tensor([1])).sum().backward()
    try:
        opt.step()
    except RuntimeError as error:
        print(error)
''',
    "tangents_with_a_graph": r'''
import torch
import torch.autograd.forward_ad as fwAD
from torch.func import functional_call
torch.manual_seed(0)
x = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
t = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    for name, f in [("sin", lambda d: (d.sin() * d).sum()), ("exp", lambda d: d.exp().mean()),
                    ("pow", lambda d: (d ** 3 / 2).sum()),
                    ("cat", lambda d: torch.cat([d, d * 2]).sum()),
                    ("matmul", lambda d: d @ torch.arange(3.0)),
                    ("outer", lambda d: (d.unsqueeze(1) * d.unsqueeze(0)).sum())]:
        y = f(d)
        primal, tangent = fwAD.unpack_dual(y)
        print(name, primal, tangent, primal.grad_fn.name(), tangent.grad_fn.name())
        x.grad = t.grad = None
        tangent.backward()
        print(x.grad, t.grad)
model = torch.nn.Linear(3, 2)
inputs = torch.randn(4, 3)
params = dict(model.named_parameters())
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    dual = {name: fwAD.make_dual(p, tangents[name]) for name, p in params.items()}
    out = functional_call(model, dual, (inputs,))
    tangent = fwAD.unpack_dual(out).tangent
    print(tangent, tangent.grad_fn.next_functions[0][0].name())
    tangent.pow(2).sum().backward()
    print(model.weight.grad, model.bias.grad)
    plain = fwAD.make_dual(inputs, torch.ones_like(inputs))
    print(fwAD.unpack_dual(model(plain)).tangent)
    with torch.no_grad():
        print(fwAD.unpack_dual(model(plain)).tangent)
    print(fwAD.unpack_dual(torch.sin(plain * 2)).tangent)
''',
    "leaf_hooks_in_grad": r'''
import torch
z = torch.tensor([1.0, 2.0], requires_grad=True)
z.register_hook(lambda g: print("leaf hook", g) or g * 2)
print(torch.autograd.grad((z ** 2).sum(), z))
w = z * 1
w.register_hook(lambda g: print("non-leaf hook", g) or g * 3)
print(torch.autograd.grad((w ** 2).sum(), w))
print(torch.autograd.grad((w ** 2).sum(), z))
z.register_post_accumulate_grad_hook(lambda t: print("post", t.grad))
print(torch.autograd.grad((z ** 2).sum(), z, create_graph=True))
(z * 3).sum().backward()
print(z.grad)
''',
    "integer_division": r'''
import torch
a = torch.tensor([7, -7, 6, -1], dtype=torch.int32)
print(torch.div(a, 2, rounding_mode="trunc"), torch.div(a, torch.tensor([2, 2, -4, 3]),
                                                        rounding_mode="trunc"))
print(a.div(2.0, rounding_mode="trunc"),
      torch.div(torch.tensor([7, -7]), torch.tensor(2, dtype=torch.int8),
                rounding_mode="trunc").dtype,
      torch.div(torch.tensor([5], dtype=torch.uint8), 2, rounding_mode="trunc"))
print(torch.div(a, 2, rounding_mode="floor"), a // 3,
      torch.tensor([7.5, -7.5]).div(2, rounding_mode="trunc"))
for divide in [lambda: torch.div(a, 0, rounding_mode="trunc"), lambda: a // 0,
               lambda: torch.floor_divide(a, torch.tensor([1, 0, 1, 1], dtype=torch.int32)),
               lambda: torch.tensor([1.0]) // 0]:
    try:
        print(divide())
    except RuntimeError as e:
        print(e)
''',
    "addmm_scaled": r'''
import torch
torch.manual_seed(0)
b = torch.randn(2, 2, requires_grad=True)
m1 = torch.randn(2, 3, requires_grad=True)
m2 = torch.randn(3, 2, requires_grad=True)
for beta, alpha in [(1, 1), (0.5, 2), (0, 1), (1, -1.5)]:
    y = torch.addmm(b, m1, m2, beta=beta, alpha=alpha)
    print(y, y.grad_fn.name())
    b.grad = m1.grad = m2.grad = None
    (y * torch.arange(4.0).view(2, 2)).sum().backward()
    print(b.grad, m1.grad, m2.grad)
print(b.addmm(m1, m2, alpha=3), torch.addmm(torch.ones(2), m1, m2, beta=2))
print(torch.sparse.addmm(b, m1, m2, beta=0.5).grad_fn.name())
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    d = fwAD.make_dual(m1.detach(), torch.ones(2, 3))
    print(fwAD.unpack_dual(torch.addmm(b.detach(), d, m2.detach(), beta=2, alpha=0.5)).tangent)
    d2 = fwAD.make_dual(m1, torch.ones(2, 3))
    print(fwAD.unpack_dual(torch.addmm(b, d2, m2, beta=2, alpha=0.5)).tangent)
''',
    "sparse_from_values": r'''
import warnings
import torch
warnings.simplefilter("ignore")
i = torch.tensor([[0, 1, 0], [2, 0, 2]])
v = torch.tensor([3., 4., 5.], requires_grad=True)
s = torch.sparse_coo_tensor(i, v, (2, 3))
print(s)
print(s.requires_grad, s.is_leaf, s.grad_fn.name())
(s.to_dense() * torch.arange(6.).reshape(2, 3)).sum().backward()
print(v.grad)
v.grad = None
torch.sparse.sum(torch.sparse_coo_tensor(i, v, (2, 3))).backward()
print(v.grad)
v.grad = None
r = torch.sparse.sum(torch.sparse_coo_tensor(i, v, (2, 3)), dim=1)
r.backward(torch.tensor([1., 10.]).to_sparse())
print(r.grad_fn.next_functions[0][0].name(), v.grad)
v.grad = None
torch.sparse.mm(torch.sparse_coo_tensor(i, v, (2, 3)), torch.ones(3, 2)).sum().backward()
print(v.grad)
rows = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
hybrid = torch.sparse_coo_tensor(torch.tensor([[0, 1]]), rows, (3, 2))
(hybrid.to_dense() * torch.arange(6.).reshape(3, 2)).sum().backward()
print(hybrid, rows.grad)
s = torch.sparse_coo_tensor(i, v * 2, (2, 3), dtype=torch.float64)
print(s, [f[0].name() for f in s.grad_fn.next_functions])
with torch.no_grad():
    print(torch.sparse_coo_tensor(i, v, (2, 3)).requires_grad)
print(torch.sparse_coo_tensor(i, v, (2, 3), requires_grad=True).is_leaf)
print(torch.sparse_coo_tensor(i, v, (2, 3)).coalesce())
# a sparse sum's gradient must be sparse: backward(dense) and .sum() are refused
for name, finish in [("dense", lambda r: r.backward(torch.ones(2))),
                     ("to_dense", lambda r: (r.to_dense() * 2).sum().backward()),
                     ("sum", lambda r: r.sum().backward()),
                     ("sparse.sum", lambda r: torch.sparse.sum(r).backward())]:
    v.grad = None
    try:
        finish(torch.sparse.sum(torch.sparse_coo_tensor(i, v, (2, 3)), dim=1))
        print(name, v.grad)
    except RuntimeError as error:
        print(name, error)
leaf = torch.ones(3, requires_grad=True)
leaf.backward(torch.tensor([1., 0., 2.]).to_sparse())  # a sparse gradient given: kept sparse
print(leaf.grad)
''',
    # arithmetic that keeps a sparse tensor sparse: by a number or a dense tensor, negated,
    # sparse plus or minus sparse; its gradient stays sparse (a sparse leaf's .grad)
    "sparse_arithmetic": r'''
import warnings
import torch
warnings.simplefilter("ignore")
i = torch.tensor([[0, 1, 1, 0], [2, 0, 2, 2]])
v = torch.tensor([3., 4., 5., 1.], requires_grad=True)
s = torch.sparse_coo_tensor(i, v, (2, 3))
made = [s * 2, 3 * s, s / 4, -s, s + s, s - s * 2, s.mul(0.5), torch.mul(s, 2), torch.neg(s),
        torch.add(s, s, alpha=2), torch.sub(s, s), s * torch.tensor(2.), s / torch.tensor(2.),
        s * torch.arange(6.).reshape(2, 3), torch.ones(2, 3) * s, s * torch.ones(3),
        s.coalesce() * 3 + s.coalesce(), torch.ones(2, 3) + s, s * 2.5]
for t in made:
    print(t.layout, t.grad_fn.name(), t._nnz() if t.is_sparse else "",
          t.is_coalesced() if t.is_sparse else "", t.dtype, type(t))
print(made[4], made[5], made[13], made[16])
print((-(s * 0.5)).to_dense(), s * torch.full((2, 3), float("inf")))
print([f[0] is None for f in (torch.ones(2, 3) * s).grad_fn.next_functions])
d = torch.arange(6.).reshape(3, 2).requires_grad_()
total = (torch.sparse.mm(s * 2, d).sum() + torch.mm((s / 3).coalesce(), d).sum()
         + torch.sparse.sum(made[16]) + torch.sparse.sum(made[9] - made[5]))
total.backward()
print(v.grad, d.grad)
k = torch.sparse_coo_tensor(torch.tensor([[0, 2]]), torch.tensor([2, 5]), (4,))
print(k * 2, k / 2, -k)
leaf = torch.sparse_coo_tensor(i, torch.tensor([1., 2., 3., 4.]), (2, 3), requires_grad=True)
torch.sparse.sum(leaf * 3).backward()
print(leaf.grad)
leaf.grad = None
(-(leaf / 2)).to_dense().sum().backward()
print(leaf.grad)
try:
    s / torch.ones(2, 3)
except RuntimeError as error:
    print(error)
''',
    # ops that give another sparse tensor of the same rows: transposed, cloned, detached,
    # cast, deep-copied (a hybrid tensor's t() refused in torch's words)
    "sparse_layout_kept": r'''
import copy
import warnings
import torch
warnings.simplefilter("ignore")
i = torch.tensor([[0, 1, 1, 0], [2, 0, 2, 2]])
v = torch.tensor([3., 4., 5., 1.], requires_grad=True)
s = torch.sparse_coo_tensor(i, v, (2, 3))
for name, t in [("t", s.t()), ("transpose", s.transpose(0, 1)), ("clone", s.clone()),
                ("detach", s.detach()), ("deepcopy", copy.deepcopy(s.detach())),
                ("double", s.double()), ("to", s.to(torch.float64)), ("float", s.float()),
                ("T", s.T if s.dim() == 2 else s)]:
    print(name, t.layout, t.grad_fn.name() if t.grad_fn else None, t._nnz(), t.is_coalesced(),
          t.dtype)
print(s.t())
print(s.double())
print(s.clone())
(torch.sparse.sum(s.t() * 2) + torch.sparse.sum(s.double())
 + torch.sparse.sum(s.clone())).backward()
print(v.grad)
i = torch.tensor([[0, 1], [2, 0]])
s = torch.sparse_coo_tensor(i, torch.tensor([1., 2.]), (2, 3)).coalesce()
print(s.is_coalesced(), s.t().is_coalesced(), s.clone().is_coalesced(), s.detach().is_coalesced(),
      s.double().is_coalesced(), s.transpose(1, 0).is_coalesced(), s.transpose(-1, -2).layout)
h = torch.sparse_coo_tensor(torch.tensor([[0, 1]]), torch.ones(2, 3), (2, 3))
try:
    h.t()
except RuntimeError as error:
    print(error)
print(h.clone(), h.double().dtype)
leaf = torch.sparse_coo_tensor(i, torch.tensor([1., 2.]), (2, 3), requires_grad=True)
torch.sparse.sum(leaf.clone() * 2).backward()
print(leaf.grad)
c = copy.deepcopy(leaf)
print(c, c.requires_grad, c.is_leaf)
print(s.to(torch.float64).to_dense(), s.float() is s, s.to(torch.float32) is s)
''',
    # forward-mode AD (torch.autograd.forward_ad) through reductions, normalizations, losses
    # and sorting, as torch's jvp formulas give the tangents
    "forward_ad_reductions": r'''
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F
for dtype in (torch.float32, torch.float64):
    x = torch.tensor([[0.3, -1.2, 2.0], [0.5, 0.1, -0.4]], dtype=dtype)
    t = torch.tensor([[1.0, 0.5, -0.25], [0.0, 2.0, 1.0]], dtype=dtype)
    z = torch.tensor([[0.0, 3.0, 2.0], [1.5, 0.0, 0.0]], dtype=dtype)
    w = torch.tensor([2.0, -1.0, 0.5], dtype=dtype)
    b = torch.tensor([0.1, 0.2, 0.3], dtype=dtype)
    ops = {
        "norm": lambda v: v.norm(dim=1), "norm all": lambda v: v.norm(),
        "norm 1": lambda v: v.norm(p=1, dim=0), "norm inf": lambda v: v.norm(p=float("inf")),
        "norm 3": lambda v: torch.linalg.vector_norm(v, 3, dim=1),
        "var": lambda v: v.var(1), "var all": lambda v: v.var(), "std": lambda v: v.std(0),
        "var unbiased off": lambda v: v.var(1, unbiased=False),
        "logsumexp": lambda v: v.logsumexp(1),
        "max dim": lambda v: v.max(dim=1).values, "min dim": lambda v: v.min(0, keepdim=True)[0],
        "max": lambda v: v.max(), "amax": lambda v: v.amax(1), "amin": lambda v: v.amin(0),
        "sort": lambda v: v.sort(1, descending=True).values, "topk": lambda v: v.topk(2).values,
        "mse": lambda v: F.mse_loss(v, t * 2),
        "mse sum": lambda v: F.mse_loss(v, t, reduction="sum"),
        "cross_entropy": lambda v: F.cross_entropy(v, torch.tensor([0, 2])),
        "nll none": lambda v: F.nll_loss(v, torch.tensor([1, 0]), reduction="none"),
        "prod": lambda v: v.prod(), "prod dim": lambda v: v.prod(1),
        "cumprod": lambda v: v.cumprod(1),
        "layer_norm": lambda v: F.layer_norm(v, (3,)),
        "layer_norm affine": lambda v: F.layer_norm(v, (3,), w, b),
        # (over three rows: two rows normalise to ±1 whatever they hold, a tangent of 0 up to
        # rounding noise)
        "batch_norm": lambda v: F.batch_norm(torch.cat([v, v.flip(1) * 0.5]), None, None,
                                             training=True),
        "batch_norm eval": lambda v: F.batch_norm(v, torch.zeros(3, dtype=dtype),
                                                  torch.ones(3, dtype=dtype) * 2),
    }
    for name, f in ops.items():
        with fwAD.dual_level():
            print(name, fwAD.unpack_dual(f(fwAD.make_dual(x, t))).tangent)
    for name, f in (("prod zeros", lambda v: v.prod(1)), ("cumprod zeros", lambda v: v.cumprod(1))):
        with fwAD.dual_level():
            print(name, fwAD.unpack_dual(f(fwAD.make_dual(z, t))).tangent)
    with fwAD.dual_level():  # a tangent on the weight too
        out = F.layer_norm(x, (3,), fwAD.make_dual(w, torch.ones(3, dtype=dtype)), b)
        print("layer_norm weight", fwAD.unpack_dual(out).tangent)
''',
    # forward-mode AD through ops without a forward rule of their own (their tangent from
    # their backward formulas), split pieces, in-place writes (a view's into its base's
    # tangent), and torch's own refusals in its words
    "forward_ad_everywhere": r'''
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F
for dtype in (torch.float32, torch.float64):
    x = torch.tensor([[0.3, -1.2, 2.0], [0.5, 0.1, -0.4]], dtype=dtype)
    t = torch.tensor([[1.0, 0.5, -0.25], [0.0, 2.0, 1.0]], dtype=dtype)
    y = torch.tensor([[0.2, 0.9, 0.6], [0.1, 0.4, 0.7]], dtype=dtype)
    square = torch.tensor([[2.0, 0.5], [1.0, 3.0]], dtype=dtype)
    ops = {
        "scatter": lambda v: torch.zeros(2, 4, dtype=dtype).scatter(
            1, torch.tensor([[0, 1, 2], [1, 2, 3]]), v),
        "index_put": lambda v: v.index_put((torch.tensor([0]),), torch.zeros(3, dtype=dtype)),
        "cross": lambda v: torch.linalg.cross(v[0], v[1]), "kron": lambda v: torch.kron(v, v),
        "det": lambda v: torch.linalg.det(v[:, :2]),
        "inv": lambda v: torch.linalg.inv(v[:, :2] + 2 * torch.eye(2, dtype=dtype)),
        "solve": lambda v: torch.linalg.solve(square, v),
        "group_norm": lambda v: F.group_norm(v.unsqueeze(-1), 1),
        "huber": lambda v: F.huber_loss(v, y), "smooth_l1": lambda v: F.smooth_l1_loss(v, y),
        "bce": lambda v: F.binary_cross_entropy(torch.sigmoid(v), y),
        "bce_logits": lambda v: F.binary_cross_entropy_with_logits(v, y),
        "avg_pool": lambda v: F.avg_pool1d(v.unsqueeze(0), 2),
        "max_pool": lambda v: F.max_pool1d(v.unsqueeze(0), 2),
        "interpolate": lambda v: F.interpolate(v.unsqueeze(0), scale_factor=2, mode="linear"),
        "pad": lambda v: F.pad(v, (1, 1)), "embedding": lambda v: F.embedding(
            torch.tensor([1, 0, 1]), v), "median": lambda v: v.median(1).values,
        "cummax": lambda v: v.cummax(1).values, "trace": lambda v: torch.trace(v[:, :2]),
        "roll": lambda v: v.roll(1, 1), "masked_select": lambda v: v.masked_select(v > 0),
        "xlogy": lambda v: torch.xlogy(y, v.abs()), "glu": lambda v: F.glu(torch.cat([v, v], 1)),
        "logsigmoid": F.logsigmoid, "unfold": lambda v: v.unfold(1, 2, 1),
        "cosine_similarity": lambda v: F.cosine_similarity(v, y),
        "margin_ranking": lambda v: F.margin_ranking_loss(v[0], v[1], torch.ones(3, dtype=dtype)),
        "chunk": lambda v: v.chunk(3, 1)[1], "split": lambda v: v.split(2, 1)[0],
        "unbind": lambda v: v.unbind(0)[1],
    }
    for name, f in ops.items():
        with fwAD.dual_level():
            print(name, fwAD.unpack_dual(f(fwAD.make_dual(x, t))).tangent)
    with fwAD.dual_level():  # in-place writes
        d = fwAD.make_dual(x[0], t[0])
        w = d * 1
        w.mul_(2)
        w.add_(d, alpha=3)
        w.clamp_(-1, 5).sin_().div_(3)
        z = torch.zeros(3, dtype=dtype)
        z.add_(d)
        z.mul_(d)
        v = d * 1
        v[1:].mul_(2)
        print(fwAD.unpack_dual(w), fwAD.unpack_dual(z).tangent, fwAD.unpack_dual(v).tangent)
    for name, f in (("cdist", lambda v: torch.cdist(v, y)), ("pdist", F.pdist),
                    ("histogram", lambda v: torch.histogram(v.reshape(-1), 3))):
        try:
            with fwAD.dual_level():
                f(fwAD.make_dual(x, t))
        except NotImplementedError as error:
            print(name, error)
''',
}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_runs_as_on_torch(name, tmp_path):
    assert_playground_prints_as_torch(SCRIPTS[name], tmp_path)
