# In the style of: PyTorch "Word Embeddings" tutorial (nn.Embedding looked up by index, and the
# gradient landing only on the rows used)
# Family: pytorch-tutorials
import torch
from torch import nn

torch.manual_seed(1)
word_to_ix = {"hello": 0, "world": 1, "again": 2}
embeds = nn.Embedding(3, 4)
lookup = torch.tensor([word_to_ix["hello"]], dtype=torch.long)
print(embeds(lookup))
print(embeds.weight.shape)

idx = torch.tensor([[0, 2], [2, 2]])
vectors = embeds(idx)
print(vectors.shape, vectors.grad_fn.name())
vectors.sum().backward()
print(embeds.weight.grad)

pad = nn.Embedding(4, 2, padding_idx=0)
print(pad.weight[0])
