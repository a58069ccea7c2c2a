# In the style of: Dive into Deep Learning, "Attention Scoring Functions" (a masked softmax with
# repeat_interleave, additive attention with nn.Linear and tanh)
# Family: d2l
import torch
from torch import nn


def sequence_mask(X, valid_len, value=0):
    maxlen = X.size(1)
    mask = torch.arange((maxlen), dtype=torch.float32,
                        device=X.device)[None, :] < valid_len[:, None]
    X[~mask] = value
    return X


def masked_softmax(X, valid_lens):
    if valid_lens is None:
        return nn.functional.softmax(X, dim=-1)
    shape = X.shape
    if valid_lens.dim() == 1:
        valid_lens = torch.repeat_interleave(valid_lens, shape[1])
    else:
        valid_lens = valid_lens.reshape(-1)
    X = sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
    return nn.functional.softmax(X.reshape(shape), dim=-1)


torch.manual_seed(0)
print(masked_softmax(torch.rand(2, 2, 4), torch.tensor([2, 3])))
print(masked_softmax(torch.rand(2, 2, 4), torch.tensor([[1, 3], [2, 4]])))
W_k, W_q = nn.Linear(2, 8, bias=False), nn.Linear(20, 8, bias=False)
w_v = nn.Linear(8, 1, bias=False)
queries, keys = torch.normal(0, 1, (2, 1, 20)), torch.ones((2, 10, 2))
values = torch.arange(40, dtype=torch.float32).reshape(1, 10, 4).repeat(2, 1, 1)
features = torch.tanh(W_q(queries).unsqueeze(2) + W_k(keys).unsqueeze(1))
scores = w_v(features).squeeze(-1)
attention_weights = masked_softmax(scores, torch.tensor([2, 6]))
out = torch.bmm(attention_weights, values)
out.sum().backward()
print(out, W_q.weight.grad.norm() < 1e-5)  # (keys all alike: a zero gradient, to rounding)
