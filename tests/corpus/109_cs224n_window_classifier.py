# In the style of: CS224n's PyTorch tutorial notebook (a word-window classifier: an embedding
# lookup, unfold into windows, a hidden layer and a sigmoid per word, BCE loss)
# Family: stanford-cs231n-cs224n
import torch
import torch.nn as nn

corpus = ["We always come to Paris", "The professor is from Australia", "I live in Stanford"]
locations = {"paris", "australia", "stanford"}
sentences = [s.lower().split() for s in corpus]
vocab = sorted({w for s in sentences for w in s}) + ["<pad>"]
word_to_ix = {w: i for i, w in enumerate(vocab)}
window = 1


def pad_window(sentence, size):
    return ["<pad>"] * size + sentence + ["<pad>"] * size


torch.manual_seed(0)
embed = nn.Embedding(len(vocab), 5)
hidden = nn.Sequential(nn.Linear(5 * (2 * window + 1), 4), nn.Tanh())
out = nn.Sequential(nn.Linear(4, 1), nn.Sigmoid())
optimizer = torch.optim.SGD([*embed.parameters(), *hidden.parameters(), *out.parameters()], lr=1)
padded = [pad_window(s, window) for s in sentences]
longest = max(len(s) for s in padded)
padded = [s + ["<pad>"] * (longest - len(s)) for s in padded]
ids = torch.tensor([[word_to_ix[w] for w in s] for s in padded])
labels = torch.tensor([[1.0 if w in locations else 0.0 for w in s[window:len(s) - window]]
                       for s in padded])
for epoch in range(3):
    windows = ids.unfold(1, 2 * window + 1, 1)
    scores = out(hidden(embed(windows).view(3, windows.shape[1], -1))).squeeze(2)
    loss = nn.BCELoss()(scores, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.5f}")
print(windows.shape, (scores > 0.5).int()[0])
