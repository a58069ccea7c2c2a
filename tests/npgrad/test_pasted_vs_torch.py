"""Small things pasted tutorials do, printed as torch prints them (issue 23's list)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.oracle import assert_prints_as_torch, kernels_reproduced, run_printing

SCRIPTS = {
    "in-place functions of one tensor, and the leaf's error": """
x = torch.tensor([0.5, 1.0, 2.0], dtype=DTYPE, requires_grad=True)
y = x * 1
y.sin_()
print(y.grad_fn)
y.exp_()
print(y, y.grad_fn, y._version)
torch.tanh_(y)  # overwrites the result exp_ saved: backward refuses, as torch does
try:
    y.sum().backward()
except RuntimeError as error:
    print(error)
u = x * 1
u.cos_()
torch.sigmoid_(u)
u.sum().backward()
print(x.grad)
try:
    x.sin_()
except RuntimeError as error:
    print(error)
try:
    torch.tensor([1, 2]).exp_()
except RuntimeError as error:
    print(error)
with torch.no_grad():
    z = x.clone()
    z.relu_().sqrt_()
print(z)
""",
    "writing into a detached tensor changes the original": """
w = torch.tensor([1.0, 2.0, 3.0], dtype=DTYPE, requires_grad=True)
d = w.detach()
d[0] = 100.0
d.mul_(2)
print(w, d, d.requires_grad, d._base is None, w._version)
""",
    "Variable, one_hot, torch's keyword names": """
from torch.autograd import Variable
import torch.nn.functional as F
v = Variable(torch.ones(2, dtype=DTYPE), requires_grad=True)
print(v, isinstance(v, Variable), v.is_leaf)
(v * 3).sum().backward()
print(v.grad)
print(F.one_hot(torch.tensor([0, 2, 1])), F.one_hot(torch.tensor([[1], [3]]), num_classes=5).shape)
for bad in (torch.tensor([0.0, 1.0]), torch.tensor([-1, 2])):
    try:
        F.one_hot(bad)
    except RuntimeError as error:
        print(error)
m = torch.arange(6, dtype=DTYPE).reshape(2, 3)
print(torch.sum(input=m, dim=1, keepdims=True), m.mean(0, keepdims=True))
print(torch.add(input=m, other=m, alpha=2), torch.zeros(size=(2, 2), dtype=DTYPE))
""",
    "gradcheck and gradgradcheck, passing and failing": """
from torch.autograd import gradcheck, gradgradcheck

class Wrong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a ** 2

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        return grad * a

x = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
y = torch.tensor([2.0, -1.0], dtype=torch.float64, requires_grad=True)
print(gradcheck(torch.tanh, (x,)), gradgradcheck(torch.tanh, (x,)))
print(gradcheck(lambda a, b: (a * b).sum(), (x, y)), gradgradcheck(lambda a, b: a * b, (x, y)))
print(gradcheck(Wrong.apply, (x,), raise_exception=False))
try:
    gradcheck(Wrong.apply, (x,))
except RuntimeError as error:
    print(type(error).__name__, error)
""",
    "module hooks: forward, pre-forward, full backward": """
layer = torch.nn.Linear(2, 1).to(DTYPE)
with torch.no_grad():
    layer.weight.copy_(torch.tensor([[0.5, -1.0]]))
    layer.bias.fill_(0.25)
seen = []
pre = layer.register_forward_pre_hook(lambda m, args: seen.append(("pre", len(args))))
after = layer.register_forward_hook(lambda m, args, out: out * 2)
back = layer.register_full_backward_hook(
    lambda m, grad_input, grad_output: print("backward", type(m).__name__,
                                             grad_input, grad_output))
x = torch.tensor([[1.0, 2.0], [3.0, -1.0]], dtype=DTYPE, requires_grad=True)
y = layer(x)
print(y, y.grad_fn.name(), y.grad_fn.next_functions[0][0].name(), seen)
y.sum().backward()
print(x.grad, layer.weight.grad)
z = layer(torch.ones(1, 2, dtype=DTYPE))
z.sum().backward()
scaled = layer.register_full_backward_hook(lambda m, gi, go: (gi[0] * 10,))
layer(x).sum().backward()
print(x.grad)
for handle in (pre, after, back, scaled):
    handle.remove()
print(layer(x).grad_fn.name(), seen)
""",
    "Embedding lookups and their gradient, legacy loss arguments": """
table = torch.nn.Embedding(5, 3, padding_idx=0)
with torch.no_grad():
    table.weight.copy_(torch.arange(15.0).reshape(5, 3))
print(table, table.weight.dtype)
rows = table(torch.tensor([[1, 3, 1], [0, 2, 0]]))
print(rows.shape, rows.grad_fn)
(rows * torch.arange(18.0).reshape(2, 3, 3)).sum().backward()
print(table.weight.grad)
print(torch.nn.functional.embedding(torch.tensor([4, 4]), table.weight))
loss = torch.nn.MSELoss(size_average=False)
print(loss.reduction, loss(torch.ones(3), torch.zeros(3)))
print(torch.nn.MSELoss(reduce=False).reduction, torch.nn.NLLLoss(size_average=True).reduction)
""",
    "Dropout in eval mode, accelerator and default device": """
drop = torch.nn.Dropout(0.25)
print(drop, torch.nn.functional.dropout(torch.ones(2, dtype=DTYPE), 0.5, training=False))
model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Dropout(0.5)).eval()
x = torch.ones(1, 2, dtype=DTYPE)
print(model[1](x) is x, model.training, model[1].training)
try:
    torch.nn.Dropout(1.5)
except ValueError as error:
    print(error)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() \
    else "cpu"
torch.set_default_device(device)
print(device, torch.ones(1).device, torch.get_default_device())
torch.set_default_device(None)  # (the suite's later tests run in this process)
""",
    "linspace through sin and a sum": """
x = torch.linspace(-3.0, 3.0, 101, dtype=DTYPE)
print(x[45:56])
print((x * x).sum().item(), x.mean().item(), (x ** 3).sum())
""",
    "meshgrid in both indexings, its graph and gradients, and its errors": """
a = torch.tensor([1.0, 2.0, 3.0], dtype=DTYPE, requires_grad=True)
b = torch.tensor([4.0, 5.0], dtype=DTYPE, requires_grad=True)
for indexing in ("ij", "xy"):
    u, v = torch.meshgrid(a, b, indexing=indexing)
    print(u.shape, u.grad_fn, u.grad_fn.next_functions[0][0], v.grad_fn.name())
    (u * v * v).sum().backward()
    print(a.grad, b.grad)
print(torch.meshgrid([torch.tensor(2.0, dtype=DTYPE), b], indexing="ij")[0].shape)
for bad in (lambda: torch.meshgrid(a, b, indexing="zz"), lambda: torch.meshgrid(indexing="ij"),
            lambda: torch.meshgrid(a, b.int(), indexing="ij")):
    try:
        bad()
    except RuntimeError as error:
        print(error)
""",
    "module and parameter containers, clipping and flattening gradients": """
from torch import nn
ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)] + [nn.Tanh()])
print(ml)
print(ml[1:3], type(ml[1:3]).__name__, ml[-1])
ml.append(nn.ReLU()); ml.extend([nn.Tanh()]); ml.insert(0, nn.Sigmoid())
print(len(ml), ml[-1], ml[0])
del ml[0]; print(len(ml), [name for name, _ in ml.named_children()])
md = nn.ModuleDict({"a": nn.Linear(1, 1), "b": nn.ReLU()})
print(md, list(md.keys()), "a" in md, len(md))
md["c"] = nn.Tanh(); print(md.pop("c"), list(md))
pl = nn.ParameterList([nn.Parameter(torch.ones(2, 3)), torch.zeros(4)])
print(pl, pl[1].requires_grad, isinstance(pl[1], nn.Parameter))
pd = nn.ParameterDict({"w": nn.Parameter(torch.ones(2)), "b": torch.zeros(1)})
print(pd, pd.keys(), "w" in pd)
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 1)])
        self.p = nn.ParameterList([nn.Parameter(torch.ones(1))])
    def forward(self, x):
        for layer in self.layers:
            x = torch.tanh(layer(x))
        return x * self.p[0]
torch.manual_seed(0)
m = M(); print([n for n, _ in m.named_parameters()])
print(m)
loss = m(torch.randn(5, 2)).pow(2).sum() * 100
loss.backward()
print(torch.nn.utils.clip_grad_norm_(m.parameters(), max_norm=0.5))
print(m.layers[0].weight.grad)
torch.nn.utils.clip_grad_value_(m.parameters(), 0.01)
print(m.layers[1].weight.grad)
v = torch.nn.utils.parameters_to_vector(m.parameters()); print(v.shape, v.grad_fn)
torch.nn.utils.vector_to_parameters(v * 2, m.parameters()); print(m.p[0])
for bad in (lambda: ml[10], lambda: md["zz"], lambda: nn.ModuleList()(1)):
    try:
        bad()
    except Exception as error:
        print(type(error).__name__, error)
""",
    "split and chunk: one node for the pieces, double backward, the in-place refusal": """
x = torch.arange(12, dtype=DTYPE).reshape(3, 4).requires_grad_()
q, k, v = (x * 1.5).split(1, dim=0)
print(q, q.grad_fn, q.grad_fn.next_functions, q._version)
a, b = x.chunk(2, dim=1)
print(a.shape, b.shape, a.grad_fn, a.grad_fn is b.grad_fn)
out = (q * k.sin() + v).sum() + (a * b).pow(2).sum()
out.backward(create_graph=True)
print(x.grad)
x.grad.sum().backward()
print(x.grad)
y = torch.linspace(-1, 1, 7, dtype=DTYPE, requires_grad=True)
pieces = torch.split(y, [2, 0, 5])
print([p.shape for p in pieces], pieces[2].grad_fn)
pieces[0].sum().backward()
print(y.grad)
z = y * 2
first, rest = z.split([3, 4])
try:
    first.add_(1)
except RuntimeError as error:
    print(error)
with torch.no_grad():
    print(torch.ones(5, dtype=DTYPE).chunk(3))
for bad in (lambda: y.split(0), lambda: y.split([1, 2]), lambda: y.chunk(0),
            lambda: y.split(-1)):
    try:
        bad()
    except RuntimeError as error:
        print(error)
""",
    "GELU (both), SiLU, ELU and LayerNorm: values, nodes, first and second derivatives": """
import torch.nn.functional as F
from torch import nn
x = torch.tensor([[-2.5, -0.3, 0.0, 0.7, 2.0], [1.0, -1.0, 0.25, 1.5, -1.75]], dtype=DTYPE,
                 requires_grad=True)
for name, f in (("gelu", F.gelu), ("gelu tanh", lambda t: F.gelu(t, approximate="tanh")),
                ("silu", F.silu), ("elu", lambda t: F.elu(t, alpha=0.5))):
    y = f(x)
    print(name, y, y.grad_fn)
    grad, = torch.autograd.grad(y.sum(), x, create_graph=True)
    print(grad)
    second, = torch.autograd.grad(grad.sum(), x)
    print(second)
print(nn.GELU(), nn.GELU("tanh"), nn.SiLU(), nn.ELU(), nn.ELU(0.5, inplace=True))
norm = nn.LayerNorm(5).to(DTYPE)
print(norm, nn.LayerNorm([2, 5], elementwise_affine=False), nn.LayerNorm(5, bias=False))
with torch.no_grad():
    norm.weight.copy_(torch.linspace(0.5, 1.5, 5))
    norm.bias.copy_(torch.linspace(-0.2, 0.2, 5))
out = norm(x * 3)
print(out, out.grad_fn)
(out * torch.arange(10, dtype=DTYPE).reshape(2, 5)).sum().backward()
print(x.grad, norm.weight.grad, norm.bias.grad)
x.grad = None
plain = F.layer_norm(x, (2, 5))
g, = torch.autograd.grad((plain ** 3).sum(), x, create_graph=True)
print(plain, g.detach())  # (torch records NativeLayerNormBackwardBackward0; not yet here)
print(torch.autograd.grad((g * torch.arange(10, dtype=DTYPE).reshape(2, 5)).sum(), x))
try:
    F.layer_norm(x, (3,))
except RuntimeError as error:
    print(error)
try:
    F.gelu(x, approximate="fast")
except RuntimeError as error:
    print(error)
""",
    "GELU, SiLU and ELU under forward-mode AD": """
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F
x = torch.tensor([-1.5, 0.3, 2.0], dtype=DTYPE)
t = torch.tensor([1.0, 2.0, -1.0], dtype=DTYPE)
for f in (F.gelu, lambda v: F.gelu(v, approximate="tanh"), F.silu, F.elu):
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t)
        print(fwAD.unpack_dual(f(d)).tangent)
""",
    "nan_to_num, logical and/or/xor/not, masked_fill_ before a softmax, type_as": """
x = torch.tensor([1.0, float("nan"), float("inf"), -float("inf"), 2.0], dtype=DTYPE,
                 requires_grad=True)
y = x.nan_to_num()
print(y, y.grad_fn)
(y * 2).sum().backward()
print(x.grad)
print(torch.nan_to_num(x, nan=0.5, posinf=9.0, neginf=-9.0))
print(torch.logical_and(torch.tensor([1, 0, 2]), torch.tensor([True, True, False])),
      torch.tensor([0.0, 1.0]).logical_not(),
      torch.logical_or(torch.tensor([0, 1]), torch.tensor([0.0, 0.0])),
      torch.tensor([1, 1]).logical_xor(torch.tensor([0, 1])))
try:
    torch.logical_or(torch.tensor([0, 1]), 0)
except TypeError as error:
    print(error)
a = torch.ones(3, dtype=DTYPE, requires_grad=True)
scores = a * torch.tensor([1.0, 2.0, 3.0], dtype=DTYPE)
scores.masked_fill_(torch.tensor([False, True, False]), float("-inf"))
weights = scores.softmax(dim=0)
print(scores, scores.grad_fn, weights)
weights[0].backward()
print(a.grad)
print(a.type_as(torch.ones(1, dtype=torch.float16)).grad_fn, a.type_as(a) is a,
      a.type_as(torch.ones(1, dtype=torch.float16)).dtype)
try:
    scores.masked_fill_(torch.tensor([1, 0, 0]), 0.0)
except RuntimeError as error:
    print(error)
""",
    "torch.backends: cuDNN and TF32 switches kept, MPS never there": """
import torch.backends.cudnn as cudnn
cudnn.deterministic = True
cudnn.benchmark = False
torch.backends.cuda.matmul.allow_tf32 = True
print(torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark,
      torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32,
      torch.backends.mps.is_available(), torch.backends.mps.is_built(),
      torch.backends.cudnn.enabled, torch.backends.cudnn.is_available(),
      torch.backends.mkldnn.is_available())
device = "mps" if torch.backends.mps.is_available() else "cpu"
print(torch.ones(2, dtype=DTYPE, device=device) * 2)
cudnn.deterministic = False  # (as they were: the oracle's torch shares this process)
torch.backends.cuda.matmul.allow_tf32 = False
""",
    "scaled_dot_product_attention: the fused node and the math path, masks, causal": """
import torch.nn.functional as F
torch.manual_seed(0)
q = torch.randn(2, 3, 4, 5, dtype=DTYPE, requires_grad=True)
k = torch.randn(2, 3, 6, 5, dtype=DTYPE, requires_grad=True)
v = torch.randn(2, 3, 6, 2, dtype=DTYPE, requires_grad=True)
out = F.scaled_dot_product_attention(q, k, v)
print(out[0, 0], out.grad_fn)
(out * torch.arange(4 * 2, dtype=DTYPE).reshape(4, 2)).sum().backward()
print(q.grad[1, 2], k.grad[0, 1], v.grad[1, 0])
q.grad = k.grad = v.grad = None
causal = F.scaled_dot_product_attention(q, k[:, :, :4], v[:, :, :4], is_causal=True)
causal.sum().backward()
print(causal[1, 1], q.grad[0, 0], k.grad[0, 0])
keep = torch.tensor([[True, False, True, True, False, True]]).expand(4, 6)
masked = F.scaled_dot_product_attention(q, k, v, attn_mask=keep, scale=0.3)
print(masked[0, 2], masked.grad_fn)
x = torch.randn(4, 5, dtype=DTYPE, requires_grad=True)
flat = F.scaled_dot_product_attention(x, x, x, is_causal=True)
print(flat, flat.grad_fn, flat.grad_fn.next_functions[0][0].name())
flat.pow(2).sum().backward()
print(x.grad)
same = F.scaled_dot_product_attention(q, k, k, is_causal=True)  # one feature size: fused
print(same[1, 0], same.grad_fn)
same.sum().backward()
# (a causal first query's gradient is 0 exactly; torch's kernels leave rounding noise there,
# 1e-17 on some CPUs and 0 on others, so its rows from the second on)
print(q.grad[1, 1, 1:], k.grad[0, 2])
again = F.scaled_dot_product_attention(q, k, k)
g, = torch.autograd.grad(again.sum(), k, create_graph=True)
try:
    torch.autograd.grad(g.sum(), q)
except RuntimeError as error:
    print(error)
""",
    "environment checks and legacy conversions": """
import torch.version
print(torch.__version__, torch.version.__version__, torch.version.cuda, torch.version.hip,
      torch.version.debug, len(torch.version.git_version))
print(f"PyTorch {torch.__version__}, CUDA {torch.version.cuda}, {torch.cuda.is_available()}")
x = torch.arange(3, dtype=DTYPE)
print(x[:, torch.newaxis].shape, x[None, torch.newaxis].shape, x.char(), (x * 100).char())
print(x.new(2, 3).shape, x.new([1, 2]), x.new(3).dtype, x.new().shape)
""",
}


# Sums that cancel to rounding noise (1e-9 or 0, and torch prints the whole tensor in another
# format): the noise is the kernel's own bits.
CHECKS_TORCHS_OWN_BITS = {"linspace through sin and a sum"}


@pytest.mark.parametrize("dtype", ["torch.float32", "torch.float64"])
@pytest.mark.parametrize("name", list(SCRIPTS))
def test_pasted_snippets_print_what_torch_prints(name, dtype):
    import playground.npgrad as npgrad

    torch = pytest.importorskip("torch")
    if name in CHECKS_TORCHS_OWN_BITS and not kernels_reproduced(torch):
        pytest.skip("checks the bits of torch's AVX2/AVX-512 kernels, which torch does not "
                    "run here (tests/oracle.py)")
    code = SCRIPTS[name].replace("DTYPE", dtype)
    # torch's other CPU kernels (tests/oracle.py) round float32 sums and sines differently
    assert_prints_as_torch(run_printing(code, npgrad), run_printing(code, torch), torch, 1e-4)


def test_saved_values_are_read_as_torch_names_them():
    import playground.npgrad as npgrad

    torch = pytest.importorskip("torch")
    seen = []
    for engine in (torch, npgrad):
        x = engine.tensor([1.0, 2.0], requires_grad=True)
        w = engine.tensor([3.0, 4.0], requires_grad=True)
        y, e, p = x * w, x.sqrt(), x ** 3  # sqrt: correctly rounded in both
        row = [y.grad_fn._saved_self is x, y.grad_fn._saved_other.tolist(),
               e.grad_fn._saved_result.tolist(), str(e.grad_fn._saved_result.grad_fn.name()),
               int(p.grad_fn._saved_exponent), tuple(x.sum().grad_fn._saved_self_sym_sizes)]
        y.sum().backward()
        with pytest.raises(RuntimeError, match="backward through the graph a second time"):
            _ = y.grad_fn._saved_self
        seen.append(row)
    assert seen[0] == seen[1]


def test_dropout_while_training_zeroes_and_scales():
    import playground.npgrad as npgrad

    x = npgrad.ones(1000, requires_grad=True)
    y = npgrad.nn.Dropout(0.25)(x)
    kept = y.detach().numpy()
    assert set(np.unique(kept).tolist()) <= {0.0, float(np.float32(4 / 3))}
    assert 0.6 < (kept > 0).mean() < 0.9
    assert y.grad_fn.name() == "MulBackward0"
    y.sum().backward()
    assert np.array_equal(x.grad.numpy(), kept)


def test_generators_reproduce_their_own_streams():
    """Not torch's numbers yet (the README says so), but torch's API: a Generator seeded
    twice draws the same, manual_seed returns the default one, random_ and randperm fill as
    torch's do."""
    import playground.npgrad as npgrad

    first = npgrad.Generator().manual_seed(2147483647)
    again = npgrad.Generator().manual_seed(2147483647)
    assert npgrad.randn(5, generator=first).tolist() == npgrad.randn(5, generator=again).tolist()
    assert npgrad.manual_seed(3) is npgrad.default_generator and npgrad.initial_seed() == 3
    assert sorted(npgrad.randperm(10).tolist()) == list(range(10))
    drawn = npgrad.empty(200).random_(2, 5).numpy()
    assert set(np.unique(drawn).tolist()) == {2.0, 3.0, 4.0}
    assert npgrad.empty((), dtype=npgrad.int64).random_().item() >= 0
    assert npgrad.randint(0, 3, (4,), generator=first).dtype == npgrad.int64
