# In the style of: SimCLR / contrastive-learning blog posts (the NT-Xent loss: normalised
# embeddings, a cosine-similarity matrix, the diagonal masked out, cross-entropy over pairs)
# Family: blogs-and-qa
import torch
import torch.nn.functional as F

torch.manual_seed(0)
batch, dim, temperature = 4, 8, 0.5
z_i = torch.randn(batch, dim, requires_grad=True)
z_j = torch.randn(batch, dim, requires_grad=True)
z = F.normalize(torch.cat([z_i, z_j], dim=0), dim=1)
similarity = z @ z.T / temperature
mask = torch.eye(2 * batch, dtype=torch.bool)
similarity = similarity.masked_fill(mask, float("-inf"))
targets = torch.cat([torch.arange(batch, 2 * batch), torch.arange(batch)])
loss = F.cross_entropy(similarity, targets)
loss.backward()
print(f"NT-Xent loss {loss.item():.4f}")
print(F.cosine_similarity(z_i, z_j, dim=1))
print(z_i.grad.norm(dim=1))
