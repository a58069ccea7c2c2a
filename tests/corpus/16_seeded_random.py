# In the style of: PyTorch reproducibility notes and tutorials' first cells (manual_seed, then
# the random factories and in-place samplers)
# Family: pytorch-docs
import torch

torch.manual_seed(42)
print(torch.randn(2, 3))
print(torch.rand(4))
print(torch.randint(0, 10, (6,)))
print(torch.randperm(8))
print(torch.normal(mean=0.0, std=2.0, size=(3,)))
print(torch.normal(torch.zeros(2), torch.ones(2)))

w = torch.empty(2, 2)
w.uniform_(-1, 1)
print(w)
w.normal_(0, 0.5)
print(w)

probs = torch.tensor([0.1, 0.5, 0.9, 0.3])
print(torch.bernoulli(probs))
print(torch.multinomial(torch.tensor([0.2, 0.3, 0.5]), 5, replacement=True))
print(torch.multinomial(torch.tensor([1.0, 2.0, 3.0, 4.0]), 3))

torch.manual_seed(42)
print(torch.randn(2, 3))
print(torch.randint(5, (3, 2)))
print(torch.rand(2, dtype=torch.float64))
print(torch.randn(3).dtype, torch.randint(3, (1,)).dtype)
