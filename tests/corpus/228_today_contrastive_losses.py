# In the style of: CLIP-style symmetric InfoNCE with learnable logit_scale + metric-learning losses (triplet, cosine embedding, margin ranking) (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: blogs-and-qa
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
img_enc = nn.Linear(10, 6); txt_enc = nn.Linear(8, 6)
logit_scale = nn.Parameter(torch.ones([]) * math.log(1 / 0.07))
imgs = torch.randn(5, 10); txts = torch.randn(5, 8)
ie = F.normalize(img_enc(imgs), dim=-1); te = F.normalize(txt_enc(txts), dim=-1)
logits = logit_scale.exp() * ie @ te.t()
labels = torch.arange(5)
loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels, label_smoothing=0.1)) / 2
loss.backward()
print(f"clip loss {loss.item():.5f}", logit_scale.grad.round(decimals=5), logit_scale)
print(logits.argmax(1), (logits.argmax(1) == labels).float().mean())
a, p, n = (torch.randn(4, 6, requires_grad=True) for _ in range(3))
tl = nn.TripletMarginLoss(margin=1.0, p=2, swap=True)
print(tl(a, p, n), F.triplet_margin_with_distance_loss(a, p, n, distance_function=lambda x, y: 1 - F.cosine_similarity(x, y), margin=0.5))
y = torch.tensor([1, -1, 1, -1])
print(nn.CosineEmbeddingLoss(margin=0.2)(a, p, y), F.margin_ranking_loss(a[:, 0], p[:, 0], y.float(), margin=0.1))
print(F.hinge_embedding_loss(a[:, 0], y.float()), F.soft_margin_loss(a[:, 0], y.float()), F.multilabel_soft_margin_loss(a, (p > 0).float()))
print(F.multi_margin_loss(a, torch.tensor([0, 3, 5, 1])), F.multilabel_margin_loss(a[:, :3], torch.tensor([[0, 2, -1], [1, -1, 0], [2, 1, 0], [-1, 0, 0]])))
total = tl(a, p, n) + F.cosine_embedding_loss(a, p, y)
total.backward()
print(a.grad[0].round(decimals=4))
feats = F.normalize(torch.randn(6, 4), dim=1)
lab = torch.tensor([0, 0, 1, 1, 2, 2])
sim = feats @ feats.T / 0.1
self_mask = torch.eye(6, dtype=torch.bool)
sim = sim.masked_fill(self_mask, -1e9)
pos = (lab[:, None] == lab[None, :]) & ~self_mask
logp = sim - torch.logsumexp(sim, dim=1, keepdim=True)
supcon = -(logp * pos).sum(1) / pos.sum(1)
print("supcon", supcon.mean().round(decimals=5))
print(F.pairwise_distance(a, p).detach().round(decimals=4), torch.cdist(a, p, p=1).detach()[0].round(decimals=4))
print(F.gaussian_nll_loss(a[:, 0], p[:, 0], torch.ones(4)), F.poisson_nll_loss(a[:, 0], p[:, 0].abs(), log_input=True))
