"""torch.amp, torch.cuda.amp and torch.jit's markers as a CPU build of torch has them:
autocast to CUDA steps aside with torch's warning, GradScaler on the CPU scales, unscales,
skips a step whose gradients are not finite and grows or backs off its scale, for CUDA it is
disabled; the deprecated torch.cuda.amp names say so; is_scripting and the decorators of
model code answer as eager torch. Checked against torch, live. (torch warns of a disabled
torch.cuda.amp.autocast from its own file; the engine, at the user's line.)"""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch_within, run_printing, same_within

CODE = """
import warnings
for kind in (UserWarning, FutureWarning):
    warnings.simplefilter("always", kind)
caught = []
warnings.showwarning = lambda message, category, filename, lineno, *rest: caught.append(
    (category.__name__, str(message)))
from torch.cuda.amp import GradScaler as OldScaler, autocast as old_autocast
print(torch.cuda.is_available(), torch.cuda.is_bf16_supported(), torch.cuda.memory_allocated())
old = OldScaler(enabled=False)
print(type(old).__name__, old.is_enabled(), old.get_scale(), old.state_dict())
cuda = torch.amp.GradScaler("cuda")
print(cuda.is_enabled(), cuda.get_scale())
model = torch.nn.Linear(3, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -0.25, 1.0]])); model.bias.fill_(0.1)
x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]])
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scaler = torch.amp.GradScaler("cpu", init_scale=1024.0, growth_interval=2)
print(scaler.state_dict())
for step in range(5):
    optimizer.zero_grad()
    with torch.autocast(device_type="cuda", dtype=torch.float16):
        loss = model(x).pow(2).mean()
    scaled = scaler.scale(loss)
    print(step, scaled, scaled.grad_fn.name())
    scaled.backward()
    if step == 2:
        model.bias.grad.fill_(float("inf"))
    scaler.unscale_(optimizer)
    print(model.weight.grad, model.bias.grad)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    print(scaler.step(optimizer))
    scaler.update()
    print(scaler.get_scale(), scaler.state_dict()["_growth_tracker"], model.weight)
try:
    scaler.unscale_(optimizer); scaler.unscale_(optimizer)
except RuntimeError as error:
    print(error)
with torch.autocast("cpu", dtype=torch.float32):
    print(torch.is_autocast_enabled())
with torch.autocast(device_type="cuda", enabled=False):
    print("off")
with old_autocast():
    print("old autocast")
@torch.autocast(device_type="cuda")
def f(a):
    return a * 2
print(f(torch.ones(2)))
try:
    torch.autocast(device_type="gpu")
except RuntimeError as error:
    print(error)
again = torch.amp.GradScaler("cpu")
again.load_state_dict(scaler.state_dict())
print(again.get_scale(), again.state_dict())
for c in caught:
    print(c)
"""


def test_mixed_precision_prints_what_torch_prints():
    import playground.npgrad as npgrad

    torch = pytest.importorskip("torch")
    assert run_printing(CODE, npgrad) == run_printing(CODE, torch)


AUTOCAST = """
import torch.nn.functional as F
torch.manual_seed(0)
lin = torch.nn.Linear(3, 2)
x = torch.randn(4, 3)
target = torch.tensor([0, 1, 0, 1])
state = lambda: (torch.is_autocast_enabled(), torch.is_autocast_enabled("cpu"),
                 torch.get_autocast_dtype("cpu"))
print(state())
with torch.autocast("cpu"):
    print(state())
    y = lin(x)
    print(y.dtype, y.grad_fn.name(), [f and f.name() for f, _ in y.grad_fn.next_functions])
    print(lin(x).grad_fn.next_functions[0][0] is y.grad_fn.next_functions[0][0])
    loss = F.cross_entropy(y, target)
    print(loss, loss.grad_fn.name(), loss.grad_fn.next_functions[0][0].name())
    print(y.relu().dtype, F.mse_loss(y, torch.zeros(4, 2)).dtype, (y + x[:, :2]).dtype,
          (y * 2).dtype)
    d = torch.randn(3, 3, dtype=torch.float64)
    print((d @ d).dtype, (x @ x.t()).dtype, torch.mm(x, x.t()).dtype,
          torch.cat([y, x[:, :2]]).dtype)
    print(y.softmax(-1).dtype, y.sum().dtype, y.float().dtype)
    with torch.autocast("cpu", enabled=False):
        print(lin(x).dtype, torch.is_autocast_enabled("cpu"))
    loss.backward()
    print(lin.weight.grad.dtype, lin.weight.grad, lin.bias.grad)
with torch.autocast("cpu", dtype=torch.float16):
    h = lin(x)
    print(h.dtype, torch.get_autocast_dtype("cpu"), F.cross_entropy(h, target).dtype)
with torch.autocast("cpu", dtype=torch.float64):
    print(lin(x).dtype)
@torch.autocast("cpu")
def product(a):
    return a @ a.t()
print(product(x).dtype, torch.autocast("cpu").fast_dtype, torch.is_autocast_enabled("cpu"))
"""


def test_autocast_on_the_cpu_casts_as_torch_does():
    """bfloat16 (the default) and float16 on the CPU: matrix products in it, losses in
    float32, the casts of the weights cached (torch's ToCopyBackward0 nodes), nested and
    disabled regions, the decorator form."""
    import playground.npgrad as npgrad

    torch = pytest.importorskip("torch")
    theirs, mine = run_printing(AUTOCAST, torch), run_printing(AUTOCAST, npgrad)
    # (a bfloat16 gradient summed over the batch may round to the neighbouring bfloat16)
    assert same_within(theirs, mine, 2 * 2.0 ** -7, last_place=True), (theirs, mine)


JIT = """
import warnings
warnings.simplefilter("always", FutureWarning)
warnings.showwarning = lambda message, category, *rest: print(category.__name__, message)


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale: torch.jit.Final[float] = 2.0

    @torch.jit.ignore
    def note(self, x):
        return x.sum()

    @torch.jit.unused
    def unused(self, x):
        return x

    @torch.jit.export
    def forward(self, x):
        if not torch.jit.is_scripting() and not torch.jit.is_tracing():
            x = x * self.scale
        kept = torch.jit.annotate(list, [])
        kept.append(x)
        return kept[0]


block = Block()
x = torch.ones(2, requires_grad=True)
print(block(x), block.note(x), torch.jit.ignore(drop=True)(lambda v: len(v))([1, 2]))
try:
    torch.jit.ignore(drop=3)
except RuntimeError as error:
    print(error)
"""


def test_model_code_asking_torch_jit_runs_as_in_eager_torch():
    import playground.npgrad as npgrad

    torch = pytest.importorskip("torch")
    assert run_printing(JIT, npgrad) == run_printing(JIT, torch)


def test_torch_jit_names_what_it_lacks_and_what_to_do():
    import playground.npgrad as npgrad

    with pytest.raises(AttributeError, match="module 'torch.jit' has no attribute "
                                             "'CompilationUnit'.*switch the engine to torch"):
        npgrad.jit.CompilationUnit  # noqa: B018 - the lookup is what raises


CUSTOM = r'''
import warnings
import torch
warnings.simplefilter("always")
warnings.showwarning = lambda message, category, *rest: print(category.__name__, message)

class Scale(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        print("forward", x.dtype, w.dtype, torch.is_autocast_enabled("cpu"))
        return x @ w

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        print("backward", grad.dtype, torch.is_autocast_enabled("cpu"))
        return grad @ w.t(), x.t() @ grad

class Plain(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu")
    def forward(ctx, x):
        print("plain forward", x.dtype, torch.is_autocast_enabled("cpu"))
        return x * 2

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, grad):
        print("plain backward", torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"))
        return grad * 2

torch.manual_seed(0)
x = torch.randn(3, 2, requires_grad=True)
w = torch.randn(2, 2, requires_grad=True)
with torch.autocast("cpu", dtype=torch.bfloat16):
    y = Scale.apply(x.bfloat16(), w)
    z = Plain.apply(x)
print(y.dtype, y.grad_fn.name(), z.grad_fn.name())
(y.sum() + z.sum()).backward()
print(x.grad, w.grad.dtype)
print(Scale.apply(x, w).dtype)

@torch.cuda.amp.custom_fwd
def f(ctx, a):
    return a
print(torch.autocast_increment_nesting(), torch.autocast_decrement_nesting(),
      torch.is_autocast_cache_enabled())
torch.set_autocast_enabled("cpu", True)
print(torch.is_autocast_enabled("cpu"))
torch.set_autocast_enabled("cpu", False)
torch.set_autocast_dtype("cpu", torch.float16)
print(torch.get_autocast_dtype("cpu"))
torch.set_autocast_dtype("cpu", torch.bfloat16)
torch.set_autocast_enabled(True)
print(torch.is_autocast_enabled())
torch.set_autocast_enabled(False)
torch.clear_autocast_cache()
torch.set_autocast_cache_enabled(False)
print(torch.is_autocast_cache_enabled())
torch.set_autocast_cache_enabled(True)
'''


def test_custom_functions_under_autocast_as_torchs(tmp_path):
    """torch.amp.custom_fwd (cast_inputs, autocast off inside) and custom_bwd (the forward's
    autocast state), the deprecated torch.cuda.amp form, and the autocast state's setters."""
    assert_playground_prints_as_torch_within(CUSTOM, tmp_path, 2 * 2.0 ** -7, last_place=True)


LAYERS = r'''
import torch
import torch.nn.functional as F
torch.manual_seed(0)
lstm = torch.nn.LSTM(3, 4, batch_first=True).bfloat16()
o, (h, c) = lstm(torch.randn(2, 5, 3).bfloat16())
print(o.dtype, h.dtype, c.dtype, o.grad_fn.name(), h.grad_fn.name())
o.float().sum().backward()
print(lstm.weight_ih_l0.grad.dtype)
lstm = torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True)
with torch.autocast("cpu"):
    o, (h, c) = lstm(torch.randn(5, 2, 3))
print(o.dtype, h.dtype, o.grad_fn.name(),
      [f.name() if f else None for f, _ in o.grad_fn.next_functions])
loss = o.float().pow(2).mean()
loss.backward()
print(loss, lstm.weight_hh_l1.grad.dtype)
for shape in ((2, 5, 8), (5, 8), (1, 1, 2, 5, 8)):
    q = torch.randn(*shape).bfloat16().requires_grad_()
    o = F.scaled_dot_product_attention(q, q, q, is_causal=True)
    m = F.scaled_dot_product_attention(q, q, q, attn_mask=torch.ones(5, 5, dtype=torch.bool).tril())
    print(o.dtype, o.shape, m.dtype, o.grad_fn.name())
with torch.autocast("cpu", dtype=torch.bfloat16):
    print(F.scaled_dot_product_attention(q.float(), q.float(), q.float(), is_causal=True).dtype)
'''


def test_recurrent_and_attention_layers_in_bfloat16_and_under_autocast(tmp_path):
    """An LSTM in bfloat16, and under autocast (torch's mkldnn_rnn_layer is on its lower
    precision list); attention's math on bfloat16 inputs in float32 (its ToCopyBackward0)."""
    assert_playground_prints_as_torch_within(LAYERS, tmp_path, 2 * 2.0 ** -7, last_place=True)
