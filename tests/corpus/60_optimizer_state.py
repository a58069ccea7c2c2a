# In the style of: "saving and loading a checkpoint" recipes (optimizer state_dict, resuming
# training, a learning-rate schedule) and ARENA's optimiser exercises (Adadelta by hand)
# Family: pytorch-func-and-recipes
import torch

torch.manual_seed(6)
model = torch.nn.Linear(3, 1)
data, target = torch.randn(16, 3), torch.randn(16, 1)
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
scheduler = torch.optim.lr_scheduler.MultiplicativeLR(optimizer, lambda epoch: 0.9)
for _ in range(3):
    optimizer.zero_grad()
    torch.nn.functional.mse_loss(model(data), target).backward()
    optimizer.step()
    scheduler.step()
state = optimizer.state_dict()
print(state["param_groups"][0]["lr"], state["state"][0]["step"], list(state["state"][1]))
resumed = torch.optim.Adam(model.parameters(), lr=1.0)
resumed.load_state_dict(state)
print(resumed.param_groups[0]["lr"], resumed.state[model.bias]["exp_avg"])
adadelta = torch.optim.Adadelta(model.parameters(), rho=0.95)
for step in range(3):
    adadelta.zero_grad()
    loss = torch.nn.functional.mse_loss(model(data), target)
    loss.backward()
    adadelta.step()
    print(step, f"{loss.item():.6f}")
print(adadelta.state_dict()["state"][0]["acc_delta"])
