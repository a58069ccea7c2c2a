"""nn.MultiheadAttention and nn.TransformerEncoderLayer against torch: the same graph, op by
op (torch's multi_head_attention_forward), outputs and gradients."""

from __future__ import annotations

import numpy as np
import pytest

from tests.oracle import node_names, run_printing

CALLS = {
    "self-attention with weights": lambda m, a, x: a(x, x, x),
    "masks, averaged per head": lambda m, a, x: a(
        x, x, x, attn_mask=m.triu(m.ones(5, 5, dtype=m.bool), diagonal=1),
        key_padding_mask=m.tensor([[False] * 4 + [True], [False] * 5, [False] * 3 + [True] * 2]),
        average_attn_weights=False),
    "no weights: the fused kernel": lambda m, a, x: a(x, x, x, need_weights=False,
                                                      attn_mask=m.zeros(5, 5, dtype=x.dtype)),
    "cross-attention": lambda m, a, x: a(x, x[:3] * 2, x[:3] * 2),
    "unbatched": lambda m, a, x: a(x[:, 0], x[:, 0], x[:, 0]),
    "encoder layer": lambda m, a, x: (m.nn.TransformerEncoderLayer(
        8, 2, 16, dropout=0.0, dtype=x.dtype)(x), None),
    "encoder layer, norm first, gelu, batch first": lambda m, a, x: (m.nn.TransformerEncoderLayer(
        8, 2, 16, dropout=0.0, activation="gelu", norm_first=True, batch_first=True,
        dtype=x.dtype)(x), None),
}


def _run(module, name, dtype_name):
    module.manual_seed(0)
    dtype = getattr(module, dtype_name)
    attention = module.nn.MultiheadAttention(8, 2, dtype=dtype)
    x = module.tensor(np.random.default_rng(1).normal(size=(5, 3, 8)), dtype=dtype,
                      requires_grad=True)
    out, weights = CALLS[name](module, attention, x)
    total = out.pow(2).sum() + (0 if weights is None else weights.sum())
    total.backward()
    names = node_names(out) + ([] if weights is None else node_names(weights))
    values = [out.detach().numpy()] + ([] if weights is None else [weights.detach().numpy()])
    return names, values, [x.grad.numpy(), attention.in_proj_weight.grad] if \
        attention.in_proj_weight.grad is not None else [x.grad.numpy()]


@pytest.mark.parametrize("dtype_name", ["float32", "float64"])
@pytest.mark.parametrize("name", list(CALLS))
def test_attention_matches_torch(name, dtype_name, torch, engine):
    expected, actual = _run(torch, name, dtype_name), _run(engine, name, dtype_name)
    assert actual[0] == expected[0]
    tolerance = {"rtol": 2e-5, "atol": 2e-6} if dtype_name == "float32" else \
        {"rtol": 1e-10, "atol": 1e-12}
    for mine, theirs in zip(actual[1] + actual[2], expected[1] + expected[2], strict=True):
        mine = mine.numpy() if hasattr(mine, "numpy") else mine
        theirs = theirs.numpy() if hasattr(theirs, "numpy") else theirs
        np.testing.assert_allclose(mine, theirs, **tolerance)


def test_modules_print_and_name_their_parameters_as_torchs(torch, engine):
    texts = []
    for module in (torch, engine):
        module.manual_seed(0)
        layer = module.nn.TransformerEncoderLayer(8, 2, 16)
        texts.append((repr(layer), [name for name, _ in layer.named_parameters()],
                      layer.self_attn.in_proj_weight.detach().numpy()[0]))
    assert texts[1][:2] == texts[0][:2]
    np.testing.assert_array_equal(texts[1][2], texts[0][2])  # torch's draws, in its order


DROPOUT = """
torch.manual_seed(0)
q = torch.randn(2, 2, 3, 4, requires_grad=True)
k = torch.randn(2, 2, 5, 4, requires_grad=True)
v = torch.randn(2, 2, 5, 4, requires_grad=True)
causal = torch.ones(3, 5, dtype=torch.bool).tril()
for options in ({"dropout_p": 0.5}, {"dropout_p": 0.1, "attn_mask": causal}):
    torch.manual_seed(1)
    out = torch.nn.functional.scaled_dot_product_attention(q, k, v, **options)
    print(out.grad_fn.name(), out[0, 0])
    out.pow(2).sum().backward()
    print(q.grad.norm(), k.grad.norm(), v.grad.norm())
attention = torch.nn.MultiheadAttention(4, 2, dropout=0.3, batch_first=True)
x = torch.randn(1, 3, 4)
torch.manual_seed(2)
print(*attention(x, x, x), sep="\\n")
"""


def test_attention_with_dropout_draws_torchs_mask(torch, engine):
    """Dropout takes torch's math path (no fused kernel): its mask is torch's bernoulli draw,
    so the outputs and gradients after a seed are torch's."""
    assert run_printing(DROPOUT, engine) == run_printing(DROPOUT, torch)
    graphs = []
    for module in (torch, engine):
        module.manual_seed(0)
        q = module.randn(1, 2, 3, 4, requires_grad=True)
        graphs.append(node_names(module.nn.functional.scaled_dot_product_attention(
            q, q, q, dropout_p=0.5)))  # (the transposed key's batch is a _reshape_alias)
    assert graphs[0] == graphs[1]


@pytest.mark.parametrize(("left", "right"), [((2, 3, 4), (4,)), ((2, 5, 3, 4), (4,)),
                                             ((2, 3, 4), (4, 5)), ((2, 3, 4), (2, 4, 5))])
def test_a_batch_times_a_vector_or_matrix_folds_as_torchs(left, right, torch, engine):
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=left), rng.normal(size=right)
    results = []
    for module in (torch, engine):
        x, w = (module.tensor(v, requires_grad=True) for v in (a, b))
        y = x @ w
        y.sum().backward()
        results.append((node_names(y), y.detach().numpy(), x.grad.numpy(), w.grad.numpy()))
    assert results[0][0] == results[1][0]
    for got, want in zip(results[1][1:], results[0][1:], strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-10)


TRANSFORMER = """
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=2,
                       dim_feedforward=16, dropout=0.0, batch_first=True)
print(model.decoder.layers[0])
print(sum(p.numel() for p in model.parameters()), [n for n, _ in model.named_parameters()][26:34])
src, tgt = torch.randn(3, 5, 8), torch.randn(3, 4, 8)
mask = nn.Transformer.generate_square_subsequent_mask(4)
print(mask)
out = model(src, tgt, tgt_mask=mask)
print(out[0, :2], out.grad_fn.name())
(out * torch.linspace(-1, 1, 8)).sum().backward()
print(model.decoder.layers[1].multihead_attn.in_proj_weight.grad[:2, :4])
print(model.encoder.layers[0].linear1.weight.grad[0, :4])
layer = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, norm_first=True, activation="gelu")
stack = nn.TransformerDecoder(layer, 2, norm=nn.LayerNorm(8))
memory = torch.randn(5, 2, 8)
padding = torch.tensor([[False, False, False, True, True], [False] * 5])
y = stack(torch.randn(4, 2, 8), memory, tgt_mask=mask, memory_key_padding_mask=padding)
print(y[:, 0, :3], y.grad_fn.name())
try:
    model(src, tgt[:2])
except RuntimeError as error:
    print(error)
"""


def test_the_transformer_and_its_decoder_match_torch(torch, engine):
    assert run_printing(TRANSFORMER, engine) == run_printing(TRANSFORMER, torch)
