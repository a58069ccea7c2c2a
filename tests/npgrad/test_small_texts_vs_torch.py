"""Small texts pasted code prints, on npgrad against real torch run here: torch.__version__,
finfo's resolution, an optimizer's groups, a scheduler's state_dict (torch's flags), the
error of an integer Parameter, the warnings of torch.tensor/new_tensor of a tensor, and
Normal's checks of the values given to log_prob and cdf, a module's plain dicts, and the
attributes of MultiheadAttention that code reads."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r'''
import torch
print(torch.__version__, torch.finfo(torch.float16), torch.finfo(torch.float32).resolution)
a, b = torch.nn.Parameter(torch.ones(1)), torch.nn.Parameter(torch.ones(1))
opt = torch.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.5}], lr=0.1)
print(opt)
scheduler = torch.optim.lr_scheduler.StepLR(opt, 2)
print(scheduler.state_dict())
opt.step()
scheduler.step()
print(scheduler.state_dict())
for make in [lambda: torch.nn.Parameter(torch.tensor([1, 2])),
             lambda: torch.ones(2, dtype=torch.long).requires_grad_(),
             lambda: setattr(torch.ones(2, dtype=torch.long), "requires_grad", True),
             lambda: torch.zeros(2, dtype=torch.long, requires_grad=True)]:
    try:
        make()
    except RuntimeError as error:
        print(error)
t = torch.ones(2)
print(torch.tensor(t), torch.FloatTensor(t), t.new_tensor(t), t.new_tensor([1, 2]))
print(torch.as_tensor(torch.ones(2, requires_grad=True), dtype=torch.float64))
from torch.distributions import Normal
n = Normal(0.0, 1.0)
nan = torch.tensor([float("nan")])
for f in [lambda: n.log_prob(0.5), lambda: n.log_prob(torch.tensor([float("nan"), 1.])),
          lambda: n.cdf(nan), lambda: Normal(0., 1., validate_args=False).log_prob(nan),
          lambda: n.log_prob(torch.tensor([float("inf")])),
          lambda: Normal(torch.zeros(3), 1.).log_prob(torch.zeros(2))]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
m = torch.nn.Linear(2, 2)
print(m._parameters.keys(), type(m._modules), torch.nn.ModuleDict({"a": torch.nn.ReLU()}).keys(),
      type(m.state_dict()))
torch.manual_seed(0)
m = torch.nn.MultiheadAttention(4, 2)
print(m._qkv_same_embed_dim, m.kdim, m.vdim, m.bias_k, m.add_zero_attn, m.q_proj_weight,
      list(m.state_dict()), [n for n, _ in m.named_parameters()])
x = torch.randn(3, 1, 4)
print(m(x, x, x)[0].sum())
'''


def test_small_texts_print_as_torchs(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
