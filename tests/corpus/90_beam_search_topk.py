# In the style of: beam-search and sampling posts (topk over log-probabilities, sort, gather,
# top-p filtering with cumsum, and torch.multinomial)
# Family: blogs-and-qa
import torch
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(2, 6, requires_grad=True)
log_probs = F.log_softmax(logits, dim=-1)
top_values, top_indices = log_probs.topk(3, dim=-1)
print(top_values, top_indices)
sorted_logits, sorted_indices = torch.sort(logits, descending=True, dim=-1)
cumulative = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
remove = cumulative > 0.8
remove[..., 1:] = remove[..., :-1].clone()
remove[..., 0] = False
filtered = sorted_logits.masked_fill(remove, float("-inf"))
print(filtered)
picked = torch.multinomial(F.softmax(filtered, dim=-1), 1)
print(picked, sorted_indices.gather(-1, picked))
top_values.sum().backward()
print(logits.grad)
