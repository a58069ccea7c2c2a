# In the style of: model-building recipes: nn.init zoo, OrderedDict Sequential, get_submodule, LazyLinear, torch.nn.utils.prune, RNG fork (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: pytorch-func-and-recipes
import collections
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune
torch.manual_seed(0)
net = nn.Sequential(collections.OrderedDict([("fc1", nn.Linear(4, 6)), ("act", nn.LeakyReLU(0.2)), ("fc2", nn.Linear(6, 2))]))
print(net)
print(net.get_submodule("fc2"), net.fc1.weight.shape)
def init(m):
    if isinstance(m, nn.Linear):
        nn.init.kaiming_uniform_(m.weight, a=0.2, mode="fan_out", nonlinearity="leaky_relu")
        nn.init.trunc_normal_(m.bias, std=0.02, a=-0.04, b=0.04)
net.apply(init)
print(net.fc1.weight[0].detach().round(decimals=4), net.fc2.bias.detach().round(decimals=4))
w = torch.empty(3, 5)
for fn, kw in [(nn.init.xavier_normal_, {"gain": nn.init.calculate_gain("tanh")}), (nn.init.orthogonal_, {"gain": 2.0}),
               (nn.init.sparse_, {"sparsity": 0.5}), (nn.init.eye_, {}), (nn.init.constant_, {"val": 0.3}),
               (nn.init.kaiming_normal_, {"mode": "fan_in", "nonlinearity": "relu"}), (nn.init.uniform_, {"a": -1, "b": 1}), (nn.init.normal_, {"mean": 1.0, "std": 0.1})]:
    fn(w, **kw)
    print(fn.__name__, w[0].round(decimals=4))
c = torch.empty(2, 2, 3, 3); nn.init.dirac_(c); print(c[1, 1], c[0, 1].sum())
print(nn.init.calculate_gain("leaky_relu", 0.2), nn.init.calculate_gain("selu"), nn.init._calculate_fan_in_and_fan_out(c))
lazy = nn.Sequential(nn.LazyLinear(3), nn.ReLU(), nn.LazyLinear(1))
print(lazy)
y = lazy(torch.randn(2, 7))
print(lazy, lazy[0].weight.shape, y.shape)
p = nn.Linear(4, 3)
prune.l1_unstructured(p, name="weight", amount=0.5)
print(sorted(n for n, _ in p.named_parameters()), sorted(n for n, _ in p.named_buffers()))
print(p.weight_mask, (p.weight == 0).sum())
prune.remove(p, "weight")
print(sorted(n for n, _ in p.named_parameters()), (p.weight == 0).sum())
prune.random_unstructured(p, "bias", amount=1)
print(p.bias_mask)
with torch.random.fork_rng():
    torch.manual_seed(123); a = torch.rand(2)
b = torch.rand(2)
torch.manual_seed(0)
print(a, b, torch.initial_seed())
st = torch.get_rng_state(); r1 = torch.randn(2); torch.set_rng_state(st); r2 = torch.randn(2); print(torch.equal(r1, r2))
print(torch.empty(3).exponential_(2.0), torch.empty(3).geometric_(0.3), torch.poisson(torch.tensor([1.0, 5.0])), torch.empty(4).bernoulli_(0.5), torch.empty(2).cauchy_(), torch.empty(2).log_normal_())
net.fc1.requires_grad_(False)
print([n for n, p_ in net.named_parameters() if p_.requires_grad], net.fc1.training)
net.add_module("out", nn.Softmax(dim=-1)); net.register_module("extra", nn.Identity())
print([n for n, _ in net.named_children()], net(torch.ones(1, 4)).sum().round(decimals=4))
