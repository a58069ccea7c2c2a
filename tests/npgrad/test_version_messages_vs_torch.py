"""torch's message when a value saved for backward was written in place since: a saved
input is named by its grad_fn as it is after the write (Add after add_, Exp after exp_,
CopySlices for a base written through a view, AsStrided for a view whose base was written),
a saved output by the node that saved it and its place among the node's outputs, and a
write autograd did not record (no_grad, through detach) changes nothing; against torch run
here."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r'''
import torch

CASES = {
    "a saved output, written": "b = a.sigmoid(); b.mul_(2); loss = b.sum()",
    "a saved input, written": "c = a * 1; d = c.sin(); c.add_(1); loss = d.sum()",
    "written twice": "c = a * 1; d = c.sin(); c.add_(1); c.exp_(); loss = d.sum()",
    "a leaf without grad": "x = torch.ones(2); d = a * x; x.add_(1); loss = d.sum()",
    "a view, its base written through others":
        "c = a * 1; v = c[:1]; d = v.sin(); c[1:].mul_(2); c[:1].add_(1); loss = d.sum()",
    "an output, relu_": "b = a.exp(); torch.relu_(b); loss = b.sum()",
    "a base, written through a view": "c = a * 1; d = c.sin(); c[:1].add_(1); loss = d.sum()",
    "a view, written itself": "c = a * 1; v = c[:1]; d = v.sin(); v.mul_(3); loss = d.sum()",
    "sin_ then add_": "c = a * 1; d = c.sin(); c.sin_(); c.add_(2); loss = d.sum()",
    "through detach()": "c = a * 1; d = c.sin(); c.detach().add_(1); loss = d.sum()",
    "under no_grad":
        "c = a * 1; d = c.sin()\nwith torch.no_grad():\n    c.add_(1)\nloss = d.sum()",
    "two saves between writes":
        "c = a * 1; d = c.sin(); c.add_(1); e = c.cos(); c.mul_(2); loss = d.sum()",
    "output 1 of several, written":
        "m = torch.stack([a, a.flip(0) + 1]); q, r = torch.linalg.qr(m); r.mul_(2); "
        "loss = r.sum()",
    "output 1 of several, written through a view":
        "m = torch.stack([a, a.flip(0) + 1]); q, r = torch.linalg.qr(m); r[0].mul_(2); "
        "loss = r.sum() + q.sum()",
    "output 0 of several, written":
        "m = torch.stack([a, a.flip(0) + 1]); w, v = torch.linalg.eigh(m @ m.T); w.mul_(2); "
        "loss = w.sum()",
    "output 1 of eigh, written": "m = torch.stack([a, a.flip(0) + 1]); "
        "w, v = torch.linalg.eigh(m @ m.T); v.add_(1); loss = w.sum() + v.sum()",
    "output 1 of slogdet, written": "m = torch.stack([a, a.flip(0) + 1]); "
        "s, l = torch.linalg.slogdet(m); l.add_(1); loss = l",
}
for label, code in CASES.items():
    namespace = {"torch": torch, "a": torch.tensor([1.0, 2.0], requires_grad=True)}
    exec(code, namespace)
    try:
        namespace["loss"].backward()
        print(label, "ran")
    except RuntimeError as error:
        print(label, "|", error)
'''


def test_the_modified_by_an_inplace_operation_message_names_the_grad_fn_as_torch(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
