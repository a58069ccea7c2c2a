"""Where an op's result lies in memory for an input that is not row-major (a permute, a
transpose), against real torch run here: ``stride()``, ``is_contiguous()`` and so whether
``view(-1)`` takes the result. Reductions, scans, normalisations and copies such as roll and
cat are row-major in torch; elementwise ops, sort and flip keep the input's order; batch and
group norms and roll keep channels-last."""

from __future__ import annotations

import pytest

import playground.npgrad as npgrad
from tests.oracle import run_printing

torch = pytest.importorskip("torch")

SHOWN = """
def show(label, t):
    try:
        t.view(-1)
        viewed = "views"
    except RuntimeError as error:
        viewed = str(error)[:40]
    name = type(t.grad_fn).__name__ if t.grad_fn is not None else None
    print(label, tuple(t.shape), t.stride(), t.is_contiguous(), viewed, name)
"""

INPUTS = {"permuted": "torch.arange(60.).reshape(4, 3, 5).permute(2, 0, 1)",
          "transposed": "torch.arange(12.).reshape(3, 4).t()",
          "a transposed slice": "torch.arange(20.).reshape(4, 5).t()[1:]",
          "channels-last": "torch.arange(72.).reshape(2, 4, 3, 3)"
                           ".to(memory_format=torch.channels_last)"}

OPS = {
    "softmax": "x.softmax(0)", "log_softmax": "x.log_softmax(-1)",
    "layer_norm": "torch.nn.functional.layer_norm(x, x.shape[-1:])",
    "group_norm": "torch.nn.functional.group_norm(x, 1)",
    "batch_norm": "torch.nn.functional.batch_norm(x, None, None, training=True)",
    "logsigmoid": "torch.nn.functional.logsigmoid(x)",
    "rrelu in eval": "torch.nn.functional.rrelu(x, training=False)",
    "cumsum": "x.cumsum(0)", "cumprod": "x.cumprod(-1)", "logcumsumexp": "x.logcumsumexp(0)",
    "var": "x.var(-1)", "std": "x.std(-1)", "amin": "x.amin(-1)", "amax": "x.amax(-1)",
    "max over a dimension": "x.max(-1).values", "logsumexp": "x.logsumexp(-1)",
    "norm over a dimension": "x.norm(dim=-1)", "prod over a dimension": "x.prod(-1)",
    "all": "(x > 3).all(-1)", "any": "(x > 3).any(-1)",
    "roll": "x.roll(1, 0)", "masked_fill": "x.masked_fill(x > 3, 0.)",
    "cat": "torch.cat([x, x])", "stack": "torch.stack([x, x])", "tril": "x.tril()",
    "triu": "x.triu()", "gather": "x.gather(0, torch.zeros_like(x, dtype=torch.long))",
    "repeat": "x.repeat(*[1] * x.dim())", "renorm": "x.renorm(2, 0, 1.)",
    "gelu": "torch.nn.functional.gelu(x)", "lerp": "torch.lerp(x, x * 2, 0.5)",
    "addcmul": "torch.addcmul(x, x, x)", "addcdiv": "torch.addcdiv(x, x, x + 1)",
    "sort": "x.sort(-1).values", "sort's indices": "x.sort(-1).indices",
    "argsort": "x.argsort(-1)", "flip": "x.flip(0)", "exp": "x.exp()", "sum": "x.sum(-1)",
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("source", INPUTS)
@pytest.mark.parametrize("op", OPS)
def test_result_laid_out_as_torch(op: str, source: str, dtype: str) -> None:
    code = SHOWN + (f"x = {INPUTS[source]}.to(torch.{dtype}).requires_grad_()\n"
                    f"show({op!r}, {OPS[op]})\n")
    assert run_printing(code, npgrad) == run_printing(code, torch)


def test_cat_and_stack_of_channels_last() -> None:
    """torch's cat keeps channels-last (2-d and 3-d) when every input has it, else makes a
    row-major result; its stack along a new first dimension keeps each image's layout."""
    code = ("c = torch.ones(2, 3, 2, 2).to(memory_format=torch.channels_last)\n"
            "print(torch.cat([c, c], 1).stride(), torch.cat([c, torch.ones(2, 3, 2, 2)]).stride(),"
            " torch.stack([c, c]).stride(), torch.stack([c, torch.ones(2, 3, 2, 2)]).stride())\n"
            "d = torch.ones(2, 4, 3, 3, 5).to(memory_format=torch.channels_last_3d)\n"
            "print(torch.cat([d, d]).stride(), torch.cat([d, d], 2).stride(),"
            " torch.cat([d, torch.ones(2, 4, 3, 3, 5)]).stride(), torch.stack([d, d]).stride())\n")
    assert run_printing(code, npgrad) == run_printing(code, torch)
