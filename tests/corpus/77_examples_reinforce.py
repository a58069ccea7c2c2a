# In the style of: pytorch/examples' REINFORCE (a policy network, Categorical sampling, log_prob
# and the discounted-return loss)
# Family: pytorch-examples
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(543)
policy = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Dropout(p=0.6), nn.Linear(16, 2))
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
states = torch.randn(6, 4)
log_probs, rewards = [], []
for state in states:
    probs = F.softmax(policy(state), dim=-1)
    m = Categorical(probs)
    action = m.sample()
    log_probs.append(m.log_prob(action))
    rewards.append(1.0 if action.item() == 0 else 0.5)
R, returns = 0.0, []
for r in rewards[::-1]:
    R = r + 0.99 * R
    returns.insert(0, R)
returns = torch.tensor(returns)
returns = (returns - returns.mean()) / (returns.std() + 1e-8)
policy_loss = torch.stack([-lp * R for lp, R in zip(log_probs, returns, strict=True)]).sum()
optimizer.zero_grad()
policy_loss.backward()
optimizer.step()
print([round(x, 4) for x in returns.tolist()])
print(f"policy loss {policy_loss.item():.4f}")
