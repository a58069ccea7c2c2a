# In the style of: WGAN-GP write-ups (a gradient penalty: the critic's gradient with respect to
# interpolated inputs, its norm pushed towards 1, backpropagated to the critic's weights)
# Family: blogs-and-qa
import torch
from torch import nn

torch.manual_seed(0)
critic = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

real = torch.randn(4, 3)
fake = torch.randn(4, 3)
alpha = torch.rand(4, 1)
interpolates = (alpha * real + (1 - alpha) * fake).requires_grad_(True)

scores = critic(interpolates)
gradients = torch.autograd.grad(outputs=scores, inputs=interpolates,
                                grad_outputs=torch.ones_like(scores),
                                create_graph=True, retain_graph=True)[0]
print(gradients.shape)
penalty = ((gradients.norm(2, dim=1) - 1) ** 2).mean()
print(f"{penalty.item():.6f}")
penalty.backward()
print(critic[0].weight.grad.abs().sum() > 0)
print(critic[2].weight.grad)
print(interpolates.grad is None)
