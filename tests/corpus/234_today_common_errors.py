# In the style of: Stack Overflow "common errors" compilation: what message do users see (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: blogs-and-qa
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
def show(name, fn):
    try:
        r = fn(); print(name, "-> ok", r)
    except Exception as e:
        print(name, "->", type(e).__name__ + ":", str(e).split("\n")[0])
show("matmul", lambda: torch.randn(2, 3) @ torch.randn(2, 3))
show("linear", lambda: nn.Linear(4, 2)(torch.randn(3, 5)))
show("mm", lambda: torch.mm(torch.randn(2, 3), torch.randn(4, 2)))
show("bmm", lambda: torch.bmm(torch.randn(2, 3, 4), torch.randn(3, 4, 5)))
show("add broadcast", lambda: torch.ones(2, 3) + torch.ones(4))
show("cat", lambda: torch.cat([torch.ones(2, 3), torch.ones(2, 4)]))
show("stack", lambda: torch.stack([torch.ones(2), torch.ones(3)]))
show("view", lambda: torch.randn(4, 3).t().view(12))
show("view size", lambda: torch.randn(4, 3).view(5, -1))
show("numpy", lambda: torch.ones(2, requires_grad=True).numpy())
show("item", lambda: torch.ones(2).item())
show("bool ambiguous", lambda: bool(torch.ones(2)))
show("dtype mm", lambda: torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.float64))
show("long linear", lambda: nn.Linear(2, 2)(torch.ones(1, 2, dtype=torch.long)))
show("ce target float", lambda: F.cross_entropy(torch.randn(3, 4), torch.tensor([1.0, 2.0, 0.0])))
show("ce target range", lambda: F.cross_entropy(torch.randn(3, 4), torch.tensor([1, 2, 7])))
show("nll shape", lambda: F.nll_loss(torch.randn(3, 4), torch.tensor([[1], [2], [0]])))
show("mse size", lambda: F.mse_loss(torch.randn(3), torch.randn(3, 1)).shape)
show("index", lambda: torch.arange(3)[5])
show("embedding oob", lambda: nn.Embedding(3, 2)(torch.tensor([3])))
show("conv input", lambda: nn.Conv2d(3, 4, 3)(torch.randn(1, 1, 5, 5)))
show("conv small", lambda: nn.Conv2d(1, 1, 5)(torch.randn(1, 1, 3, 3)))
def twice():
    x = torch.ones(2, requires_grad=True); y = (x * x).sum(); y.backward(); y.backward()
show("backward twice", twice)
def saved_inplace():
    x = torch.ones(3, requires_grad=True); y = x.tanh(); z = y * 2; y.add_(1); z.sum().backward()
show("saved inplace (tanh output)", saved_inplace)
def saved_inplace2():
    x = torch.ones(3, requires_grad=True); a = x * 1; b = a ** 2; a.mul_(3); b.sum().backward()
show("saved inplace (pow input)", saved_inplace2)
def relu_inplace():
    x = torch.randn(3, requires_grad=True); y = torch.sigmoid(x); F.relu(y, inplace=True); y.sum().backward()
show("relu inplace after sigmoid", relu_inplace)
show("grad nonscalar", lambda: torch.autograd.grad(torch.ones(2, requires_grad=True) * 2, torch.ones(1)))
def unused():
    a = torch.ones(2, requires_grad=True); b = torch.ones(2, requires_grad=True); return torch.autograd.grad((a * 2).sum(), [a, b])
show("unused input", unused)
show("requires_grad on non-leaf", lambda: (torch.ones(2, requires_grad=True) * 2).requires_grad_(False))
show("long requires grad", lambda: torch.arange(3).requires_grad_())
show("optim empty", lambda: torch.optim.SGD([], lr=0.1))
show("state dict type", lambda: nn.Linear(2, 2).load_state_dict({"weight": torch.ones(2, 2)}))
show("expand", lambda: torch.ones(2, 3).expand(4, 3))
show("reshape", lambda: torch.ones(2, 3).reshape(4, 2))
show("permute", lambda: torch.ones(2, 3).permute(0))
show("squeeze dim", lambda: torch.ones(2, 3).squeeze(5))
