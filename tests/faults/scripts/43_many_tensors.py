# expect: ok
# note: 10,000 graph nodes, four per tensor
import torch
kept = [torch.ones(2, requires_grad=True) * i for i in range(2500)]
print(len(kept))
