"""What a fresh sample of today's pasted code did that the NumPy engine did not (stop 78's 45
scripts: casts in copy_, ``out=``, strict mode's words, a node's metadata, mvlgamma's node,
scatter's reduce=, torch.library by name, torch.compiler, load_state_dict(assign=True)),
printed as torch prints it."""

from __future__ import annotations

import pytest

from tests.oracle import assert_prints_as_torch, run_printing

SCRIPTS = {
    "copy_ casts into another dtype as torch does": """
for source in (torch.tensor([1.5, -2.7]), torch.tensor(2.5),
               torch.tensor([1.0, 2.0], dtype=torch.float64)):
    for dtype in (torch.long, torch.int32, torch.bool, torch.float16):
        print(torch.zeros(2, dtype=dtype).copy_(source))
print(torch.zeros(3, dtype=torch.bool).copy_(torch.tensor([0.0, float('nan'), -0.5])))
print(torch.zeros(2, dtype=torch.complex64).copy_(torch.tensor([1.5, 2.0])))
w = torch.tensor([1.5, 2.0], requires_grad=True)
c = torch.zeros(2, dtype=torch.float64)
c.copy_(w)
print(c)
c.sum().backward()
print(w.grad)
d = torch.zeros(2, dtype=torch.long)
d.copy_(w * 2)
print(d, d.requires_grad, d.grad_fn)
t = torch.tensor(3)
print(t.copy_(t * 0.9))
""",
    "out= writes into the tensor given, resizes it, refuses autograd": """
import warnings
x = torch.ones(2, requires_grad=True)
for name, call in [("multiply", lambda o: torch.multiply(x, 2, out=o)),
                   ("clip", lambda o: torch.clip(x, 0, 1, out=o)),
                   ("concat", lambda o: torch.concat([x, x], out=o)),
                   ("matmul", lambda o: torch.matmul(x, x, out=o)),
                   ("sum", lambda o: torch.sum(x, 0, out=o)),
                   ("true_divide", lambda o: torch.true_divide(x, 2, out=o))]:
    try:
        call(torch.empty(0))
    except RuntimeError as error:
        print(name, error)
with torch.no_grad():
    o = torch.empty(0)
    print(torch.mul(x, 3, out=o), o.requires_grad)
o = torch.empty(2)
r = torch.sort(torch.tensor([2., 1.]), out=(o, torch.empty(2, dtype=torch.long)))
print(r, r.values is o)
print(torch.max(torch.tensor([[2., 1.], [0., 5.]]), 1,
                out=(torch.empty(2), torch.empty(2, dtype=torch.long))))
o = torch.empty(2, 2)
torch.add(torch.ones(2), 5, out=o[0])
print(o[0])
o = torch.zeros(4)
torch.add(torch.ones(2), 1, out=o[:2])
print(o)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    o = torch.zeros(1)
    print(torch.add(torch.ones(2), 1, out=o), o.shape)
print([str(warning.message)[:60] for warning in caught])
try:
    torch.add(torch.ones(2), 1, out=torch.empty(0, dtype=torch.long))
except RuntimeError as error:
    print(error)
print(torch.add(torch.ones(2), 1, out=torch.empty(2, dtype=torch.float64)))
o = torch.empty(0)
print(torch.arange(3, out=o) is o, o, torch.arange(3, out=torch.empty(3, dtype=torch.long)))
o = torch.empty(0)
torch.exp(torch.zeros(3), out=o)
print(o, o._version)
for call in (lambda o: torch.linspace(0, 1, 3, out=o), lambda o: torch.zeros(2, 2, out=o),
             lambda o: torch.cat([torch.ones(1), torch.zeros(2)], out=o),
             lambda o: torch.linalg.inv(torch.tensor([[4., 1.], [1., 3.]]), out=o),
             lambda o: torch.linalg.cholesky(torch.tensor([[4., 1.], [1., 3.]]), out=o),
             lambda o: torch.special.expit(torch.tensor([0.0, 2.0]), out=o)):
    o = torch.empty(0)
    call(o)
    print(o)
o = torch.empty(0, dtype=torch.bool)
torch.gt(torch.tensor([1., 2.]), 1.5, out=o)
print(o)
""",
    "strict mode refuses outputs that do not depend on the inputs, in torch's words": """
from torch.autograd.functional import jacobian, hessian, hvp, vhp, jvp, vjp
z = torch.tensor([0.5, -0.3, 1.2])
v = torch.ones(3)
cases = [
    ("jacobian detached", lambda: jacobian(lambda a: a.detach() * 2, z, strict=True)),
    ("jacobian const", lambda: jacobian(lambda a: torch.ones(2), z, strict=True)),
    ("vjp detached", lambda: vjp(lambda a: a.detach().sum(), z, strict=True)),
    ("jvp detached", lambda: jvp(lambda a: a.detach() * 2, z, v, strict=True)),
    ("jvp linear", lambda: jvp(lambda a: a * 2, z, v, strict=True)),
    ("hessian linear", lambda: hessian(lambda a: (a * 2).sum(), z, strict=True)),
    ("hessian detached", lambda: hessian(lambda a: (a.detach() ** 2).sum(), z, strict=True)),
    ("hessian quadratic", lambda: hessian(lambda a: (a ** 2).sum(), z, strict=True)),
    ("vhp linear", lambda: vhp(lambda a: (a * 2).sum(), z, v, strict=True)),
    ("hvp linear", lambda: hvp(lambda a: (a * 2).sum(), z, v, strict=True)),
    ("hvp detached", lambda: hvp(lambda a: a.detach().sum(), z, v, strict=True)),
    ("vjp unused", lambda: vjp(lambda a, b: (a * 2).sum(), (z, z.clone()), strict=True)),
    ("jacobian unused", lambda: jacobian(lambda a, b: a * 2, (z, z.clone()), strict=True)),
]
for name, case in cases:
    try:
        print(name, case())
    except RuntimeError as error:
        print(name, error)
""",
    "a node keeps what is written into its metadata": """
x = torch.ones(2, requires_grad=True)
y = (x * 2).sum()
print(y.grad_fn.metadata)
y.grad_fn.metadata["tag"] = "loss"
print(y.grad_fn.metadata, y.grad_fn.next_functions[0][0].metadata)
y.grad_fn.next_functions[0][0].metadata["step"] = 3
print(y.grad_fn.next_functions[0][0].metadata)
""",
    "mvlgamma is one MvlgammaBackward0 node": """
x = torch.tensor([2.5, 3.0, 7.25], dtype=DTYPE, requires_grad=True)
y = torch.mvlgamma(x, 3)
print(y, torch.special.multigammaln(x, 2), x.mvlgamma(1))
y.sum().backward()
print(x.grad)
g, = torch.autograd.grad(torch.mvlgamma(x, 2).sum(), x, create_graph=True)
print(g)
print(torch.mvlgamma(torch.tensor([2, 3]), 2))
""",
    "scatter with reduce= adds or multiplies, without a derivative": """
t = torch.zeros(3, 4, dtype=DTYPE)
index = torch.tensor([[0, 1], [2, 2], [3, 0]])
print(t.scatter_(1, index, torch.ones(3, 2, dtype=DTYPE) * 2, reduce='add'))
print(torch.ones(3, dtype=DTYPE).scatter_(0, torch.tensor([0, 0]), 5.0, reduce='multiply'))
print(torch.ones(3, dtype=DTYPE).scatter(0, torch.tensor([0, 0]),
                                         torch.tensor([2., 3.], dtype=DTYPE), reduce='multiply'))
print(torch.scatter(torch.ones(2, 3, dtype=DTYPE), 0, torch.tensor([[1, 0, 1]]), 4.0,
                    reduce='add'))
x = torch.ones(3, dtype=DTYPE, requires_grad=True)
y = x * 1
y.scatter_(0, torch.tensor([0]), torch.tensor([2.], dtype=DTYPE), reduce='add')
print(y)
for result in (y, x.scatter(0, torch.tensor([0]), torch.tensor([2.], dtype=DTYPE),
                            reduce='add'), x.scatter(0, torch.tensor([0]), 2.0, reduce='add')):
    try:
        result.sum().backward()
    except RuntimeError as error:
        print(result, error)
try:
    torch.ones(3).scatter_(0, torch.tensor([0]), 1.0, reduce='mean')
except RuntimeError as error:
    print(error)
""",
    "torch.library's register functions take the operator's name": """
@torch.library.custom_op("today::muladd", mutates_args=())
def muladd(a: torch.Tensor, b: torch.Tensor, c: float) -> torch.Tensor:
    return a * b + c

def set_up(ctx, inputs, output):
    a, b, c = inputs
    ctx.save_for_backward(a, b)

def backward(ctx, grad):
    a, b = ctx.saved_tensors
    return grad * b, grad * a, None

torch.library.register_autograd("today::muladd", backward, setup_context=set_up)
torch.library.register_fake("today::muladd")(lambda a, b, c: torch.empty_like(a))
a = torch.tensor([1.0, 2.0], dtype=DTYPE, requires_grad=True)
b = torch.tensor([3.0, -1.0], dtype=DTYPE, requires_grad=True)
out = muladd(a, b, 0.5)
out.sum().backward()
print(out, type(out.grad_fn).__name__, a.grad, b.grad)
try:
    torch.library.register_autograd("today::nothing", backward)
except AttributeError as error:
    print(error)
""",
    "torch.compile's neighbours: Module.compile, torch.compiler, torch._dynamo": """
model = torch.nn.Linear(3, 2)
print(model.compile(backend="eager"), model)
print(model(torch.ones(1, 3, dtype=torch.float32)).shape)
print(torch.compiler.is_compiling(), torch.compiler.is_dynamo_compiling())
print(torch.compiler.disable(len)([1, 2]), torch.compiler.disable()(len)([1]))
torch.compiler.reset()
torch._dynamo.reset()
torch._dynamo.config.cache_size_limit = 16
print(torch._dynamo.config.cache_size_limit, torch._dynamo.config.suppress_errors)
torch._dynamo.mark_dynamic(torch.ones(2), 0)
""",
    "load_state_dict(assign=True) puts the checkpoint's tensors in the module": """
source = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2)).to(DTYPE)
with torch.device('meta'):
    model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2)).to(DTYPE)
print(model.load_state_dict(source.state_dict()), model[0].weight.is_meta)
model.load_state_dict(source.state_dict(), assign=True)
print(model[0].weight.is_meta, type(model[0].weight).__name__, model[0].weight.requires_grad)
print(torch.equal(model(torch.ones(3, 2, dtype=DTYPE)), source(torch.ones(3, 2, dtype=DTYPE))))
frozen = torch.nn.Linear(2, 2).to(DTYPE)
frozen.weight.requires_grad_(False)
frozen.load_state_dict(source[0].state_dict(), assign=True)
print(frozen.weight.requires_grad, type(frozen.weight).__name__)
state = source[0].state_dict()
shared = torch.nn.Linear(2, 2).to(DTYPE)
shared.load_state_dict(state, assign=True)
with torch.no_grad():
    state["weight"][0, 0] = 100.0
print(shared.weight[0, 0].item())
""",
    "a custom Function's jvp gives a plain tangent (forward AD is off inside it)": """
import torch.autograd.forward_ad as fwAD

class Square(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_forward(inputs[0])

    @staticmethod
    def backward(ctx, grad):
        return grad

    @staticmethod
    def jvp(ctx, tangent):
        (x,) = ctx.saved_tensors
        return 2 * x * tangent

x = torch.tensor([1.0, 2.0], dtype=DTYPE)
with fwAD.dual_level():
    dual = fwAD.make_dual(x, torch.tensor([1.0, 0.5], dtype=DTYPE))
    tangent = fwAD.unpack_dual(Square.apply(dual)).tangent
    print(tangent, fwAD.unpack_dual(tangent).tangent, fwAD.unpack_dual(dual * 3).tangent)
""",
    "RelaxedOneHotCategorical draws with torch's generator and gradients": """
import torch.distributions as D
torch.manual_seed(3)
logits = torch.tensor([0.1, 1.0, -0.3], dtype=DTYPE, requires_grad=True)
relaxed = D.RelaxedOneHotCategorical(torch.tensor(0.5, dtype=DTYPE), logits=logits)
sample = relaxed.rsample((2,))
print(sample, sample.sum(-1), relaxed.log_prob(sample), relaxed.temperature, relaxed.probs)
(sample[:, 0].sum() + relaxed.log_prob(sample).sum()).backward()
print(logits.grad)
logged = D.relaxed_categorical.ExpRelaxedCategorical(
    torch.tensor(2.0, dtype=DTYPE), probs=torch.tensor([[0.2, 0.8], [0.5, 0.5]], dtype=DTYPE))
x = logged.rsample()
print(x, logged.log_prob(x), logged.batch_shape, logged.event_shape, relaxed.event_shape)
print(relaxed.sample().shape, relaxed.expand((4,)).rsample().shape)
""",
    "interpolate's nearest-exact and area modes": """
import torch.nn.functional as F
x = torch.arange(2 * 1 * 5 * 7, dtype=DTYPE).reshape(2, 1, 5, 7).sin().requires_grad_()
for mode in ('nearest-exact', 'area'):
    y = F.interpolate(x, size=(3, 4), mode=mode)
    print(mode, y.grad_fn.name(), y[0, 0])
    y = F.interpolate(x, scale_factor=1.7, mode=mode)
    print(mode, y.grad_fn.name(), y.shape, y.sum())
    y.sum().backward()
    print(x.grad[0, 0, :2])
    x.grad = None
y = F.interpolate(x[:, :, 0], scale_factor=1.5, mode='nearest-exact')
print(y.grad_fn.name(), y)
y = F.interpolate(x[:, :, 0], size=3, mode='area')
print(y.grad_fn.name(), y)
y = F.interpolate(x, scale_factor=(0.6, 2.3), mode='nearest-exact')
print(y.shape, y[1, 0, :, :3])
print(torch.nn.Upsample(scale_factor=2, mode='nearest-exact')(x[:1, :, :2, :2]))
try:
    F.interpolate(x, size=(3, 4), mode='area', align_corners=True)
except ValueError as error:
    print(error)
""",
    "MultiheadAttention with kdim, vdim, add_bias_kv and add_zero_attn": """
torch.manual_seed(0)
for options in ({"kdim": 6, "vdim": 4}, {"add_bias_kv": True}, {"add_zero_attn": True},
                {"kdim": 6, "vdim": 4, "add_bias_kv": True, "add_zero_attn": True,
                 "batch_first": True}):
    attention = torch.nn.MultiheadAttention(8, 2, dtype=DTYPE, **options)
    print([(name, tuple(p.shape)) for name, p in attention.named_parameters()])
    first = options.get("batch_first", False)
    query = torch.randn((2, 3, 8) if first else (3, 2, 8), dtype=DTYPE)
    shape = (2, 5) if first else (5, 2)
    key = torch.randn(*shape, options.get("kdim", 8), dtype=DTYPE)
    value = torch.randn(*shape, options.get("vdim", 8), dtype=DTYPE)
    padding = torch.tensor([[False, False, False, True, True], [False] * 5])
    mask = torch.zeros(3, 5, dtype=DTYPE)
    mask[:, 0] = float("-inf")
    out, weights = attention(query, key, value, key_padding_mask=padding, attn_mask=mask)
    print(out.sum(), weights.shape, weights[0].sum(-1), out.grad_fn.name())
    out2, none = attention(query, key, value, key_padding_mask=padding, need_weights=False)
    print(none, out2.sum(), (out * 2 + out2).sum().backward())
    print([round(p.grad.abs().sum().item(), 3) for p in attention.parameters()])
    if not first:
        single, w = attention(query[:, 0], key[:, 0], value[:, 0])
        print(single.shape, w.shape, single.sum())
""",
    "sparse CSR matrices: made, printed, taken apart, multiplied": """
c = torch.tensor([[0.0, 2.0, 0.0], [3.0, 0.0, 4.0]], dtype=DTYPE).to_sparse_csr()
print(c, c.to_dense(), c.layout, c.is_sparse, c.is_sparse_csr, c._nnz(), c.shape, c.dtype)
print(c @ torch.ones(3, 2, dtype=DTYPE), torch.mm(c, torch.ones(3, 1, dtype=DTYPE)))
print(c.to_sparse_csr() is c, c.crow_indices(), c.col_indices(), c.values(), c.to_sparse())
d = torch.sparse_csr_tensor(torch.tensor([0, 2, 3]), torch.tensor([0, 2, 1]),
                            torch.tensor([1., 2., 3.], dtype=DTYPE), size=(2, 3))
print(d, d.to_dense(), torch.tensor([[1, 0], [0, 0]]).to_sparse_csr())
print(torch.sparse_csr_tensor([0, 1, 2], [1, 0], [5., 6.]), c.to_sparse_coo())
for call in (lambda: c.indices(), lambda: torch.ones(2, 2).crow_indices()):
    try:
        call()
    except RuntimeError as error:
        print(error)
print(torch.zeros(2, 2).to_sparse(layout=torch.sparse_csr).layout, torch.sparse_csc)
print(torch.arange(40., dtype=DTYPE).view(2, 20).to_sparse_csr())
""",
    "F.interpolate antialiased: shrinking, growing, its refusals": """
import torch.nn.functional as F
torch.manual_seed(0)
image = torch.randn(2, 3, 11, 9, dtype=DTYPE, requires_grad=True)
for mode in ("bilinear", "bicubic"):
    for kw in ({"size": (4, 5)}, {"scale_factor": 0.3}, {"size": (15, 4)},
               {"size": (5, 3), "align_corners": True}):
        out = F.interpolate(image, mode=mode, antialias=True, **kw)
        print(mode, kw, out.shape, out.sum(), out.grad_fn.name())
        out.pow(2).sum().backward()
        print(image.grad.abs().sum())
        image.grad = None
for mode, x in (("nearest", image), ("area", image), ("linear", image[0])):
    try:
        F.interpolate(x, scale_factor=0.5, mode=mode, antialias=True)
    except ValueError as error:
        print(error)
""",
    "iterating a tensor, in, format, outer: torch's nodes and words": """
x = torch.randn(3, 2, dtype=DTYPE, requires_grad=True)
rows = [r for r in x]
print([r.grad_fn.name() for r in rows], rows[0].grad_fn is rows[1].grad_fn, rows[0]._base is x)
sum(r.sum() * i for i, r in enumerate(x)).backward()
print(x.grad)
y = x.clone()
try:
    for r in y:
        r.add_(1)
except RuntimeError as error:
    print(error)
with torch.no_grad():
    z = torch.zeros(2, 2, dtype=DTYPE)
    for r in z:
        r.add_(1)
print(z, list(torch.arange(3)), 1.0 in torch.tensor([1., 2.]), torch.tensor(2.) in x)
for element in ("a", None):
    try:
        element in x
    except RuntimeError as error:
        print(error)
try:
    print(f"{torch.nn.Parameter(torch.tensor(1.5, dtype=DTYPE)):.2f}")
except TypeError as error:
    print(error)
print(f"{torch.tensor(1.5, dtype=DTYPE):.2f}")
v = torch.randn(4, dtype=DTYPE, requires_grad=True)
o = torch.outer(v, v[:3])
print(o.grad_fn.name(), [n[0].name() for n in o.grad_fn.next_functions if n[0] is not None])
""",
    "common mistakes are told in torch's words": """
import torch.nn as nn
torch.manual_seed(0)
x = torch.randn(3, 4, dtype=DTYPE, requires_grad=True)
def attempt(call):
    try:
        call()
    except (RuntimeError, ValueError, TypeError, IndexError) as error:
        print(type(error).__name__, str(error).split("\\n")[0])
index = torch.tensor([[0.0]])
for call in (lambda: torch.autograd.grad(torch.ones(1).sum(), torch.ones(1)),
             lambda: x.gather(1, index), lambda: x.scatter(1, index, 1.0),
             lambda: x.scatter_add(1, index, x[:1, :1]), lambda: x.detach().scatter_(1, index, 1.0),
             lambda: x.scatter_reduce(1, index, x[:1, :1], "sum"),
             lambda: x.index_select(0, torch.tensor([0.])), lambda: x.take(torch.tensor([0.])),
             lambda: x.index_add(0, torch.tensor([0.]), x[:1]),
             lambda: x.index_copy(0, torch.tensor([0.]), x[:1]),
             lambda: x.index_fill(0, torch.tensor([0.]), 1.0),
             lambda: nn.LSTM(4, 2, dtype=DTYPE)(torch.randn(5, 3, dtype=DTYPE)),
             lambda: nn.GRU(4, 2, dtype=DTYPE)(torch.randn(5, 2, 3, dtype=DTYPE)),
             lambda: nn.RNN(4, 2, dtype=DTYPE)(torch.randn(5, 2, 3, dtype=DTYPE)),
             lambda: nn.LSTMCell(4, 2, dtype=DTYPE)(torch.randn(5, 3, dtype=DTYPE)),
             lambda: nn.GRUCell(4, 2, dtype=DTYPE)(torch.randn(3, dtype=DTYPE)),
             lambda: nn.RNNCell(4, 2, dtype=DTYPE)(torch.randn(5, 3, dtype=DTYPE))):
    attempt(call)
print(x.gather(1, torch.tensor([[1]], dtype=torch.int32)))
""",
    "older names and 3-D layers (upsample, selu_, Dropout3d, ZeroPad3d, kaiser_window)": """
import warnings
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.arange(16., dtype=DTYPE).view(1, 1, 4, 4).requires_grad_()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for call in (lambda: F.upsample(x, scale_factor=2),
                 lambda: F.upsample(x, scale_factor=2, mode="bilinear"),
                 lambda: F.upsample_bilinear(x, scale_factor=2),
                 lambda: F.upsample_nearest(x, size=(3, 5))):
        y = call()
        print(y.shape, y.grad_fn.name(), y[0, 0, 1])
    print(nn.NLLLoss2d()(F.log_softmax(torch.randn(2, 3, 2, 2, dtype=DTYPE), 1),
                         torch.zeros(2, 2, 2, dtype=torch.long)))
print([(w.category.__name__, str(w.message)[:50]) for w in caught])
print(F.has_torch_function((x,)), F.has_torch_function_unary(x), F.has_torch_function_variadic(x))
z = torch.randn(5, dtype=DTYPE)
print(F.selu_(z.clone()), F.celu_(z.clone()), F.threshold_(z.clone(), 0.1, 20.0))
out, idx = F.max_pool2d_with_indices(x, 2)
print(out, idx, F.max_pool1d_with_indices(x[0], 2)[1].shape,
      F.adaptive_max_pool2d_with_indices(x, 2)[1])
v = torch.randn(2, 3, 2, 2, 2, dtype=DTYPE, requires_grad=True)
d = nn.Dropout3d(0.5)(v)
print(nn.Dropout3d(0.5), d.grad_fn.name(), (d == 0).all(dim=(2, 3, 4)), F.dropout3d(v[0]).shape)
for m in (nn.ZeroPad3d(1), nn.ConstantPad3d((1, 0, 0, 1, 1, 1), 2.5), nn.ReflectionPad3d(1),
          nn.ReplicationPad3d((1, 0, 1, 0, 0, 1)), nn.CircularPad3d(1)):
    y = m(v)
    y.pow(2).sum().backward()
    print(m, y.shape, y.grad_fn.name(), round(y.sum().item(), 4), v.grad.abs().sum())
    v.grad = None
print(torch.kaiser_window(6, dtype=DTYPE), torch.kaiser_window(5, periodic=False, beta=8.0,
                                                               dtype=DTYPE))
""",
    "norm layers without a bias, SyncBatchNorm in one process, LazyBatchNorm3d": """
import torch.nn as nn
torch.manual_seed(0)
kw = {"dtype": DTYPE}
for m in (nn.InstanceNorm2d(4, **kw), nn.InstanceNorm2d(4, affine=True, bias=False, **kw),
          nn.GroupNorm(2, 4, bias=False, **kw), nn.BatchNorm1d(3, bias=False, **kw),
          nn.BatchNorm2d(4, affine=False, **kw), nn.LazyBatchNorm1d(bias=False, **kw),
          nn.SyncBatchNorm(4, **kw), nn.SyncBatchNorm(4, bias=False, **kw)):
    print(m, [n for n, _ in m.named_parameters()])
x = torch.randn(2, 4, 3, 3, dtype=DTYPE)
for m in (nn.InstanceNorm2d(4, affine=True, bias=False, **kw), nn.GroupNorm(2, 4, bias=False, **kw),
          nn.BatchNorm2d(4, bias=False, **kw)):
    y = m(x)
    y.pow(2).sum().backward()
    print(y.grad_fn.name(), m.weight.grad)
net = nn.Sequential(nn.Conv2d(3, 4, 3, **kw), nn.BatchNorm2d(4, bias=False, **kw),
                    nn.Sequential(nn.BatchNorm1d(2, **kw)))
synced = nn.SyncBatchNorm.convert_sync_batchnorm(net)
print(synced, synced[1].weight is net[1].weight, synced[1].bias)
y = synced[:2](torch.randn(2, 3, 5, 5, dtype=DTYPE))
print(y.grad_fn.name(), synced[1].running_mean, synced[1].num_batches_tracked)
try:
    synced[1](torch.randn(3, dtype=DTYPE))
except ValueError as error:
    print(error)
lazy = nn.LazyBatchNorm3d(**kw)
print(lazy(torch.randn(2, 3, 2, 2, 2, dtype=DTYPE)).shape, lazy, lazy.weight.shape)
""",
}


@pytest.mark.parametrize("dtype", ["torch.float32", "torch.float64"])
@pytest.mark.parametrize("name", list(SCRIPTS))
def test_todays_pasted_code_prints_what_torch_prints(name, dtype):
    import playground.npgrad as npgrad

    torch = pytest.importorskip("torch")
    code = SCRIPTS[name].replace("DTYPE", dtype)
    assert_prints_as_torch(run_printing(code, npgrad), run_printing(code, torch), torch, 1e-4)
