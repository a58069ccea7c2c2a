# In the style of: makemore lecture part 2 (train/dev/test splits, a learning-rate search with
# lre = torch.linspace(-3, 0, n) and lrs = 10**lre, lri/lossi bookkeeping, a learning-rate
# decay, dev loss under no_grad, and sampling names with torch.multinomial)
# Family: karpathy
import random

import torch
import torch.nn.functional as F

words = ["emma", "olivia", "ava", "isabella", "sophia", "charlotte", "mia", "amelia",
         "harper", "evelyn", "abigail", "emily", "elizabeth", "mila", "ella", "avery",
         "sofia", "camila", "aria", "scarlett", "victoria", "madison", "luna", "grace"]
print(len(words), max(len(w) for w in words))
chars = sorted(list(set(''.join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi['.'] = 0
itos = {i: s for s, i in stoi.items()}
vocab_size = len(itos)
print(vocab_size, itos[1], itos[vocab_size - 1])

block_size = 3


def build_dataset(words):
    X, Y = [], []
    for w in words:
        context = [0] * block_size
        for ch in w + '.':
            ix = stoi[ch]
            X.append(context)
            Y.append(ix)
            context = context[1:] + [ix]  # crop and append
    X = torch.tensor(X)
    Y = torch.tensor(Y)
    print(X.shape, Y.shape)
    return X, Y


random.seed(42)
random.shuffle(words)
n1 = int(0.8 * len(words))
n2 = int(0.9 * len(words))
Xtr, Ytr = build_dataset(words[:n1])
Xdev, Ydev = build_dataset(words[n1:n2])
Xte, Yte = build_dataset(words[n2:])

g = torch.Generator().manual_seed(2147483647)
C = torch.randn((vocab_size, 10), generator=g)
W1 = torch.randn((30, 64), generator=g)
b1 = torch.randn(64, generator=g)
W2 = torch.randn((64, vocab_size), generator=g)
b2 = torch.randn(vocab_size, generator=g)
parameters = [C, W1, b1, W2, b2]
print(sum(p.nelement() for p in parameters))  # number of parameters in total
for p in parameters:
    p.requires_grad = True

steps = 200
lre = torch.linspace(-3, 0, steps)
lrs = 10**lre
print(lre[:3], lrs[-3:])

lri = []
lossi = []
stepi = []
for i in range(steps):
    # minibatch construct
    ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)
    # forward pass
    emb = C[Xtr[ix]]  # (32, 3, 10)
    h = torch.tanh(emb.view(-1, 30) @ W1 + b1)  # (32, 64)
    logits = h @ W2 + b2  # (32, vocab_size)
    loss = F.cross_entropy(logits, Ytr[ix])
    # backward pass
    for p in parameters:
        p.grad = None
    loss.backward()
    # update
    lr = lrs[i]
    for p in parameters:
        p.data += -lr * p.grad
    # track stats
    lri.append(lre[i])
    stepi.append(i)
    lossi.append(loss.log10().item())
    if i % 40 == 0:
        print(f'{i:4d} lr {lr.item():.5f} loss {loss.item():.4f}')

smooth = torch.tensor(lossi).view(-1, 20).mean(1)
print(smooth)
best = torch.tensor(lri).view(-1, 20).mean(1)[smooth.argmin()]
print(f'exponent with the lowest loss {best.item():.3f}, lr {10**best.item():.4f}')

for i in range(100):
    ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)
    emb = C[Xtr[ix]]
    h = torch.tanh(emb.view(-1, 30) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Ytr[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1 if i < 50 else 0.01  # step learning rate decay
    for p in parameters:
        p.data += -lr * p.grad
print(f'last minibatch loss {loss.item():.4f}')


@torch.no_grad()
def split_loss(X, Y):
    emb = C[X]
    h = torch.tanh(emb.view(emb.shape[0], -1) @ W1 + b1)
    logits = h @ W2 + b2
    return F.cross_entropy(logits, Y)


print('train', split_loss(Xtr, Ytr))
print('dev', split_loss(Xdev, Ydev))

g = torch.Generator().manual_seed(2147483647 + 10)
for _ in range(5):
    out = []
    context = [0] * block_size
    while True:
        emb = C[torch.tensor([context])]  # (1, block_size, d)
        h = torch.tanh(emb.view(1, -1) @ W1 + b1)
        logits = h @ W2 + b2
        probs = F.softmax(logits, dim=1)
        ix = torch.multinomial(probs, num_samples=1, generator=g).item()
        context = context[1:] + [ix]
        out.append(ix)
        if ix == 0 or len(out) > 12:
            break
    print(''.join(itos[i] for i in out))
