# a training loop's loss and its learning rate on one plot, two y axes
import torch
import matplotlib.pyplot as plt

torch.manual_seed(3)
model = torch.nn.Linear(3, 1)
data = torch.randn(32, 3)
target = data @ torch.tensor([[1.0], [-2.0], [0.5]])
optimizer = torch.optim.SGD(model.parameters(), lr=0.2)
schedule = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10, gamma=0.5)
losses, rates = [], []
for step in range(40):
    optimizer.zero_grad()
    loss = torch.nn.functional.mse_loss(model(data), target)
    loss.backward()
    optimizer.step()
    schedule.step()
    losses.append(loss.item())
    rates.append(optimizer.param_groups[0]["lr"])

fig, ax = plt.subplots()
ax.plot(losses, color="tab:red")
ax.set_xlabel("step")
ax.set_ylabel("loss", color="tab:red")
other = ax.twinx()
other.step(range(len(rates)), rates, color="tab:blue", where="post")
other.set_ylabel("learning rate", color="tab:blue")
fig.suptitle("loss and learning rate")
