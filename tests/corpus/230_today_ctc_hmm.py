# In the style of: speech tutorials (nn.CTCLoss with log_softmax, greedy decode) + HMM forward/Viterbi with logsumexp/logcumsumexp (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: pytorch-tutorials
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
T, N, C, S = 12, 2, 5, 4
logits = torch.randn(T, N, C, requires_grad=True)
log_probs = logits.log_softmax(2)
targets = torch.randint(1, C, (N, S), dtype=torch.long)
input_lengths = torch.full((N,), T, dtype=torch.long)
target_lengths = torch.tensor([4, 3])
ctc = nn.CTCLoss(blank=0, reduction="mean", zero_infinity=True)
loss = ctc(log_probs, targets, input_lengths, target_lengths)
print(targets, f"ctc {loss.item():.5f}", loss.grad_fn.name())
loss.backward()
print(logits.grad[0].round(decimals=4))
flat = torch.cat([targets[0, :4], targets[1, :3]])
l2 = F.ctc_loss(log_probs.detach(), flat, input_lengths, target_lengths, reduction="none")
print(l2.round(decimals=4))
best = log_probs.argmax(-1).T
dec = [torch.unique_consecutive(b)[torch.unique_consecutive(b) != 0].tolist() for b in best]
print(best, dec)
# HMM forward algorithm and Viterbi in log space
K = 3
log_A = torch.randn(K, K).log_softmax(-1)
log_pi = torch.randn(K).log_softmax(-1)
em = torch.randn(6, K, requires_grad=True)
alpha = log_pi + em[0]
for t in range(1, 6):
    alpha = torch.logsumexp(alpha[:, None] + log_A, dim=0) + em[t]
logZ = torch.logsumexp(alpha, 0)
logZ.backward()
print(f"logZ {logZ.item():.5f}", em.grad.sum(1), em.grad[2].round(decimals=4))
score = log_pi + em[0].detach(); bp = []
for t in range(1, 6):
    s, idx = (score[:, None] + log_A).max(0)
    bp.append(idx); score = s + em[t].detach()
best_last = score.argmax().item(); path = [best_last]
for idx in reversed(bp):
    path.append(idx[path[-1]].item())
print(path[::-1], score.max().round(decimals=4))
x = torch.tensor([0.5, -1.0, 2.0, 0.1], requires_grad=True)
lc = torch.logcumsumexp(x, 0)
lc.sum().backward()
print(lc.detach(), x.grad, torch.logaddexp(x, x.flip(0)).detach())
print(torch.special.logsumexp(torch.tensor([[-float("inf"), -float("inf")]]), 1))
