# In the style of: the "optimizer step in backward" recipe (a post-accumulate-grad hook per
# parameter steps it and frees its gradient at once)
# Family: pytorch-func-and-recipes
import torch

torch.manual_seed(7)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
optimizers = {p: torch.optim.SGD([p], lr=0.1) for p in model.parameters()}
order = []


def step_now(parameter):
    order.append(tuple(parameter.shape))
    optimizers[parameter].step()
    optimizers[parameter].zero_grad()


for parameter in model.parameters():
    parameter.register_post_accumulate_grad_hook(step_now)
x, y = torch.randn(5, 4), torch.randn(5, 1)
for step in range(3):
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    print(step, f"{loss.item():.5f}", all(p.grad is None for p in model.parameters()))
print(order[:4])
