# In the style of: CS224n's word2vec assignment (skip-gram with negative sampling: logsigmoid of dot
# products, gradients of the centre and outside vectors)
# Family: stanford-cs231n-cs224n
import torch
import torch.nn.functional as F

torch.manual_seed(3)
vocab, dim = 10, 4
center_vectors = torch.randn(vocab, dim, requires_grad=True)
outside_vectors = torch.randn(vocab, dim, requires_grad=True)
center, outside = 2, 7
negatives = torch.tensor([1, 4, 4, 9])
v_c = center_vectors[center]
u_o = outside_vectors[outside]
u_k = outside_vectors[negatives]
loss = -F.logsigmoid(u_o @ v_c) - F.logsigmoid(-(u_k @ v_c)).sum()
loss.backward()
print(f"loss {loss.item():.5f}")
print(center_vectors.grad[center])
print(outside_vectors.grad[[outside, 4, 9]])
print(outside_vectors.grad[[0, 3]].abs().sum().item())
