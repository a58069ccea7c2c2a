"""NAdam, RAdam and Adamax (with their weight decays and maximize), trunc_normal_ (both of
torch 2.13's ways of drawing), gumbel_softmax (soft and hard) and nn.Buffer on npgrad against
real torch, run here."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

OPTIMIZERS = r"""
import torch
torch.manual_seed(0)
target = torch.randn(5)
scale = torch.rand(5) + 0.5
settings = [(torch.optim.NAdam, {}), (torch.optim.NAdam, dict(weight_decay=0.1)),
            (torch.optim.NAdam, dict(weight_decay=0.1, decoupled_weight_decay=True, lr=0.01)),
            (torch.optim.RAdam, {}), (torch.optim.RAdam, dict(lr=0.05, weight_decay=0.01)),
            (torch.optim.RAdam, dict(decoupled_weight_decay=True, weight_decay=0.1)),
            (torch.optim.Adamax, {}), (torch.optim.Adamax, dict(lr=0.05, weight_decay=0.01)),
            (torch.optim.NAdam, dict(maximize=True))]
for optimizer_class, options in settings:
    w = torch.zeros(5, requires_grad=True)
    opt = optimizer_class([w], **options)
    for step in range(30):
        loss = (scale * (w - target) ** 2).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    # (torch's float32 sqrt is Sleef's, off by an ulp now and then: rounded to 6 places)
    print(optimizer_class.__name__, options, round(loss.item(), 6),
          [round(v, 6) for v in w.tolist()])
    print(sorted(opt.state[w]), opt.state[w]["step"], opt.state[w].get("mu_product"))
print(torch.optim.Adam([w], lr=0.1).param_groups[0].keys())
print(torch.optim.SGD([{"params": [w], "lr": 0.5, "momentum": 0.9}]).param_groups[0].keys())
print(torch.optim.NAdam([w]))
print(torch.optim.RAdam([w]).param_groups[0].keys(), torch.optim.Adamax([w]).defaults)
try:
    torch.optim.RAdam([w], betas=(1.0, 0.9))
except ValueError as error:
    print(error)
"""

INIT_AND_NOISE = r"""
import torch
import torch.nn.functional as F
torch.manual_seed(0)
w = torch.empty(3, 5)
torch.nn.init.trunc_normal_(w, std=0.02)
print(w)
torch.nn.init.trunc_normal_(w, mean=0.0, std=1.0, a=-0.5, b=0.5)
print(w)
torch.nn.init.trunc_normal_(w, mean=0.3, std=2.0, a=0.0, b=0.4)
print(w)
print(torch.nn.init.trunc_normal_(torch.empty(40), std=0.5)[-4:])
logits = torch.tensor([[1.0, 2.0, 0.5], [0.1, 0.1, 3.0]], requires_grad=True)
soft = F.gumbel_softmax(logits, tau=0.5)
hard = F.gumbel_softmax(logits, tau=1.0, hard=True)
print(soft, hard)
(soft[:, 0].sum() + (hard * torch.tensor([1.0, 2.0, 3.0])).sum()).backward()
print(logits.grad)
buffer = torch.nn.Buffer(torch.zeros(2))
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.running = torch.nn.Buffer(torch.ones(3))
        self.lin = torch.nn.Linear(3, 1)
m = M()
print(buffer, type(buffer).__name__, [n for n, _ in m.named_buffers()], list(m.state_dict()))
"""


def test_more_optimizers_step_as_torchs(tmp_path):
    assert_playground_prints_as_torch(OPTIMIZERS, tmp_path)


def test_truncated_normals_gumbel_softmax_and_buffers_are_torchs(tmp_path):
    assert_playground_prints_as_torch(INIT_AND_NOISE, tmp_path)
