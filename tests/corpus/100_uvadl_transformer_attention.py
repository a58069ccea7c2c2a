# In the style of: UvA DL notebooks, "Transformers and Multi-Head Attention" (attention by hand
# with masked_fill(mask == 0, -9e15) and a sinusoidal positional encoding kept as a buffer)
# Family: uvadl
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def scaled_dot_product(q, k, v, mask=None):
    d_k = q.size()[-1]
    attn_logits = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        attn_logits = attn_logits.masked_fill(mask == 0, -9e15)
    attention = F.softmax(attn_logits, dim=-1)
    return torch.matmul(attention, v), attention


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=16):
        super().__init__()
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe.unsqueeze(0), persistent=False)

    def forward(self, x):
        return x + self.pe[:, : x.size(1)]


torch.manual_seed(42)
seq_len, d_k = 3, 2
q, k, v = (torch.randn(seq_len, d_k, requires_grad=True) for _ in range(3))
values, attention = scaled_dot_product(q, k, v, mask=torch.tril(torch.ones(3, 3)))
print("Values\n", values, "\nAttention\n", attention)
values.sum().backward()
print(q.grad, k.grad.abs().sum())
encoding = PositionalEncoding(d_model=4)
print(encoding(torch.zeros(1, 3, 4)), list(encoding.state_dict()))
