# In the style of: makemore lecture part 1 (a torch.Generator seeded with 2147483647) and the
# reproducibility notes (saving and restoring the RNG state)
# Family: karpathy
import torch

g = torch.Generator().manual_seed(2147483647)
p = torch.rand(3, generator=g)
p = p / p.sum()
print(p)
print(torch.multinomial(p, num_samples=20, replacement=True, generator=g))

g = torch.Generator().manual_seed(2147483647)
print(torch.randn((2, 4), generator=g))
print(torch.randint(0, 27, (5,), generator=g))

torch.manual_seed(3)
state = torch.get_rng_state()
first = torch.rand(3)
torch.set_rng_state(state)
second = torch.rand(3)
print(first, second, torch.equal(first, second))
print(state.dtype, state.shape)

g1 = torch.Generator()
g1.manual_seed(7)
saved = g1.get_state()
a = torch.randn(2, generator=g1)
g1.set_state(saved)
b = torch.randn(2, generator=g1)
print(torch.equal(a, b), g1.initial_seed())
