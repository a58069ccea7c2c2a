# In the style of: pytorch/examples' actor-critic: Categorical policies, advantages, entropy and KL terms (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: pytorch-examples
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical, Normal

torch.manual_seed(13)

class ActorCritic(nn.Module):
    def __init__(self, obs=4, act=2):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs, 32), nn.Tanh())
        self.pi = nn.Linear(32, act)
        self.v = nn.Linear(32, 1)
    def forward(self, s):
        h = self.body(s)
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)

def discount(rewards, dones, gamma=0.99):
    R = 0.0
    out = []
    for r, d in zip(reversed(rewards), reversed(dones)):
        R = r + gamma * R * (1 - d)
        out.insert(0, R)
    return torch.tensor(out)

ac = ActorCritic()
opt = torch.optim.Adam(ac.parameters(), lr=3e-3)
for ep in range(4):
    states = torch.randn(10, 4)
    dist, values = ac(states)
    actions = dist.sample()
    logp = dist.log_prob(actions)
    rewards = (actions == (states[:, 0] > 0).long()).float().tolist()
    dones = [0] * 9 + [1]
    returns = discount(rewards, dones)
    adv = returns - values.detach()
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    policy_loss = -(logp * adv).mean()
    value_loss = F.smooth_l1_loss(values, returns)
    entropy = dist.entropy().mean()
    loss = policy_loss + 0.5 * value_loss - 0.01 * entropy
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(ac.parameters(), 0.5)
    opt.step()
    print(f"ep {ep} actions {actions.tolist()} loss {loss.item():.6f} ent {entropy.item():.6f}")
print(dist.probs[:2], logp.grad_fn.name())

# continuous policy, REINFORCE with Normal
mu_net = nn.Linear(3, 2)
log_std = nn.Parameter(torch.zeros(2) - 0.5)
s = torch.randn(6, 3)
d = Normal(mu_net(s), log_std.exp())
a = d.sample()
lp = d.log_prob(a).sum(-1)
r = -(a ** 2).sum(-1)
loss = -(lp * (r - r.mean())).mean() - 1e-3 * d.entropy().sum(-1).mean()
loss.backward()
print("a", a)
print("lp", lp, lp.grad_fn.name())
print("log_std.grad", log_std.grad, mu_net.weight.grad.shape)
ra = d.rsample()
print("rsample grad_fn", ra.grad_fn.name(), d.cdf(torch.zeros(6, 2))[0])
kl = torch.distributions.kl_divergence(d, Normal(torch.zeros(2), torch.ones(2))).sum()
print("kl", kl.item())
