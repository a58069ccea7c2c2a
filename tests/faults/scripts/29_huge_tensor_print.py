# expect: ok
import torch
print(torch.ones(1000, 1000))
