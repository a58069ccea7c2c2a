# In the style of: L-BFGS on the Rosenbrock function (optimisation course notes and blog posts)
# Family: scientific-ml
import torch


def rosenbrock(point):
    x, y = point
    return (1 - x) ** 2 + 100 * (y - x ** 2) ** 2


point = torch.tensor([-1.2, 1.0], dtype=torch.float64, requires_grad=True)
optimizer = torch.optim.LBFGS([point], lr=1, max_iter=10, line_search_fn="strong_wolfe")
evaluations = 0


def closure():
    global evaluations
    evaluations += 1
    optimizer.zero_grad()
    loss = rosenbrock(point)
    loss.backward()
    return loss


for step in range(4):
    loss = optimizer.step(closure)
    print(f"step {step}: loss {loss.item():.6f} at ({point[0].item():.4f}, {point[1].item():.4f})")
print(f"minimum near {point.detach().round(decimals=4).tolist()} after {evaluations} evaluations")
print(optimizer.state[point]["n_iter"], "iterations")
