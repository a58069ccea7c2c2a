# In the style of: ARENA's DQN exercises (a QNetwork, a replay buffer sampled with randint,
# epsilon-greedy actions, Q-values picked with gather, a target network copied with
# load_state_dict, a TD loss with inference_mode targets, and a probe environment check)
# Family: arena
import torch as t
import torch.nn.functional as F
from torch import Tensor, nn


class QNetwork(nn.Module):
    layers: nn.Sequential

    def __init__(self, obs_shape: tuple[int], num_actions: int, hidden_sizes=[12, 10]):
        super().__init__()
        assert len(obs_shape) == 1, "Expecting a single vector of observations"
        in_features_list = [obs_shape[0]] + hidden_sizes
        out_features_list = hidden_sizes + [num_actions]
        layers = []
        for i, (in_f, out_f) in enumerate(zip(in_features_list, out_features_list)):
            layers.append(nn.Linear(in_f, out_f))
            if i < len(in_features_list) - 1:
                layers.append(nn.ReLU())
        self.layers = nn.Sequential(*layers)

    def forward(self, x: Tensor) -> Tensor:
        return self.layers(x)


class ReplayBuffer:
    def __init__(self, num_envs: int, obs_shape: tuple[int], buffer_size: int, seed: int):
        self.num_envs, self.obs_shape, self.buffer_size = num_envs, obs_shape, buffer_size
        self.rng = t.Generator().manual_seed(seed)
        self.obs = t.empty((0, *obs_shape), dtype=t.float32)
        self.actions = t.empty(0, dtype=t.int64)
        self.rewards = t.empty(0, dtype=t.float32)
        self.terminated = t.empty(0, dtype=t.bool)
        self.next_obs = t.empty((0, *obs_shape), dtype=t.float32)

    def add(self, obs, actions, rewards, terminated, next_obs) -> None:
        for name, new in zip(["obs", "actions", "rewards", "terminated", "next_obs"],
                             [obs, actions, rewards, terminated, next_obs]):
            old = getattr(self, name)
            setattr(self, name, t.cat((old, new))[-self.buffer_size:])

    def sample(self, sample_size: int) -> tuple[Tensor, ...]:
        indices = t.randint(0, len(self.obs), (sample_size,), generator=self.rng)
        return (self.obs[indices], self.actions[indices], self.rewards[indices],
                self.terminated[indices], self.next_obs[indices])


def linear_schedule(current_step, start_e, end_e, exploration_fraction, total_timesteps):
    return start_e + (end_e - start_e) * min(current_step / (exploration_fraction
                                                             * total_timesteps), 1)


def epsilon_greedy_policy(q_network, obs: Tensor, epsilon: float) -> Tensor:
    num_envs = obs.shape[0]
    with t.inference_mode():
        greedy = q_network(obs).argmax(dim=-1)
    random_actions = t.randint(0, q_network.layers[-1].out_features, (num_envs,))
    explore = t.rand(num_envs) < epsilon
    return t.where(explore, random_actions, greedy)


t.manual_seed(0)
net = QNetwork((4,), 2)
print(net)
n_params = sum(p.nelement() for p in net.parameters())
print("parameters:", n_params)
print([round(linear_schedule(s, 1.0, 0.1, 0.5, 100), 3) for s in (0, 10, 25, 50, 90)])

# a tiny made-up environment: the state drifts, action 1 pushes it back, reward = 1 - |x0|
num_envs, gamma = 3, 0.9
obs = t.randn(num_envs, 4) * 0.1
buffer = ReplayBuffer(num_envs, (4,), buffer_size=20, seed=1)
for step in range(8):
    actions = epsilon_greedy_policy(net, obs, epsilon=0.5)
    next_obs = obs + 0.05 * t.randn(num_envs, 4)
    next_obs[:, 0] += t.where(actions == 1, -0.1, 0.1)
    rewards = 1.0 - next_obs[:, 0].abs()
    terminated = next_obs[:, 0].abs() > 0.25
    buffer.add(obs, actions, rewards, terminated, next_obs)
    obs = t.where(terminated[:, None], t.zeros_like(next_obs), next_obs)
print(buffer.obs.shape, buffer.actions.dtype, buffer.terminated.sum().item())
print(buffer.actions)

target_network = QNetwork((4,), 2)
print(target_network.load_state_dict(net.state_dict()))
target_network.requires_grad_(False)
optimizer = t.optim.Adam(net.parameters(), lr=1e-2)
for step in range(5):
    s_obs, s_actions, s_rewards, s_terminated, s_next_obs = buffer.sample(6)
    with t.inference_mode():
        target_max = target_network(s_next_obs).max(-1).values
    predicted_q_vals = net(s_obs).gather(1, s_actions.unsqueeze(1)).squeeze(1)
    td_target = s_rewards + gamma * target_max * (1 - s_terminated.float())
    loss = F.mse_loss(predicted_q_vals, td_target)
    optimizer.zero_grad()
    loss.backward()
    norm = nn.utils.clip_grad_norm_(net.parameters(), max_norm=1.0)
    optimizer.step()
    print(f"step {step} td_loss {loss.item():.4f} grad_norm {norm.item():.4f}",
          predicted_q_vals.grad_fn.name(), target_max.requires_grad)

print(target_max.is_inference(), predicted_q_vals.is_inference())
try:
    target_max.add_(1.0)
    print("in-place on an inference tensor outside inference_mode worked")
except RuntimeError as e:
    print(type(e).__name__ + ":", e)
same = [t.equal(a, b) for a, b in zip(net.parameters(), target_network.parameters())]
print("target == online net:", same)
target_network.load_state_dict(net.state_dict())
print("after copy:", all(t.equal(a, b) for a, b in zip(net.parameters(),
                                                         target_network.parameters())))

# the Huber loss from the Nature DQN paper, and a soft (Polyak) target update
q, target = t.tensor([0.5, 2.0, -1.0, 3.0]), t.tensor([0.0, 0.0, 0.0, 0.0])
print(F.smooth_l1_loss(q, target), F.huber_loss(q, target, delta=2.0, reduction="none"))
tau = 0.1
with t.no_grad():
    for tp, p in zip(target_network.parameters(), net.parameters()):
        tp.lerp_(p + 1.0, tau)
print(target_network.layers[-1].bias, net.layers[-1].bias)

# ARENA's Probe1: one observation [0.0], reward 1, episode ends at once: Q must learn 1.0
t.manual_seed(1)
probe_net = QNetwork((1,), 1, hidden_sizes=[4])
opt = t.optim.SGD(probe_net.parameters(), lr=0.1)
zero_obs = t.zeros(4, 1)
for _ in range(60):
    q_vals = probe_net(zero_obs).gather(1, t.zeros(4, 1, dtype=t.long)).squeeze(1)
    loss = F.mse_loss(q_vals, t.ones(4))
    opt.zero_grad()
    loss.backward()
    opt.step()
print(probe_net(t.tensor([[0.0]])), f"{loss.item():.6f}")
