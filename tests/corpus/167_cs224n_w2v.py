# In the style of: CS224n word2vec skip-gram with negative sampling (a fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: stanford-cs231n-cs224n
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(4)

corpus = "the quick brown fox jumps over the lazy dog the fox".split()
vocab = sorted(set(corpus))
w2i = {w: i for i, w in enumerate(vocab)}
V, D, K = len(vocab), 8, 3
ids = torch.tensor([w2i[w] for w in corpus])
pairs = []
for i in range(len(ids)):
    for j in range(max(0, i - 2), min(len(ids), i + 3)):
        if i != j:
            pairs.append((ids[i].item(), ids[j].item()))
pairs = torch.tensor(pairs)
print(pairs.shape, pairs[:5].tolist())
counts = torch.bincount(ids, minlength=V).float()
noise = counts.pow(0.75)
noise = noise / noise.sum()
print('noise', noise)

class SGNS(nn.Module):
    def __init__(self):
        super().__init__()
        self.in_embed = nn.Embedding(V, D)
        self.out_embed = nn.Embedding(V, D)
        self.in_embed.weight.data.uniform_(-1, 1)
        self.out_embed.weight.data.uniform_(-1, 1)
    def forward(self, center, context, negs):
        v = self.in_embed(center)                  # B,D
        u = self.out_embed(context)                # B,D
        un = self.out_embed(negs)                  # B,K,D
        pos = F.logsigmoid((v * u).sum(-1))
        neg = F.logsigmoid(-torch.bmm(un, v.unsqueeze(2)).squeeze(2)).sum(1)
        return -(pos + neg).mean()

model = SGNS()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(20):
    negs = torch.multinomial(noise, pairs.shape[0] * K, replacement=True).view(-1, K)
    loss = model(pairs[:, 0], pairs[:, 1], negs)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 5 == 0:
        print(epoch, f"{loss.item():.6f}")
E = F.normalize(model.in_embed.weight.detach(), dim=1)
sims = E @ E[w2i['fox']]
vals, idx = sims.topk(3)
print([vocab[i] for i in idx.tolist()], vals)
print(model.in_embed.weight.grad.shape, (model.in_embed.weight.grad != 0).any(1).sum())
print(torch.cosine_similarity(E[0:1], E[1:2]))
