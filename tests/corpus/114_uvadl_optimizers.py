# In the style of: UvA DL notebooks, "Optimization and Initialization" (an OptimizerTemplate and
# SGD with momentum written on it, on a pathological curvature function)
# Family: uvadl
import torch


class OptimizerTemplate:
    def __init__(self, params, lr):
        self.params, self.lr = list(params), lr

    def zero_grad(self):
        for p in self.params:
            if p.grad is not None:
                p.grad.detach_()
                p.grad.zero_()

    @torch.no_grad()
    def step(self):
        for p in self.params:
            if p.grad is not None:
                self.update_param(p)


class SGDMomentum(OptimizerTemplate):
    def __init__(self, params, lr, momentum=0.0):
        super().__init__(params, lr)
        self.momentum = momentum
        self.param_momentum = {p: torch.zeros_like(p.data) for p in self.params}

    def update_param(self, p):
        self.param_momentum[p] = ((1 - self.momentum) * p.grad
                                  + self.momentum * self.param_momentum[p])
        p.add_(-self.lr * self.param_momentum[p])


def pathological_curve_loss(w1, w2):
    x1_loss = torch.tanh(w1) ** 2 + 0.01 * torch.abs(w1)
    x2_loss = torch.sigmoid(w2)
    return x1_loss + x2_loss


weights = torch.tensor([5.0, 5.0], requires_grad=True)
optimizer = SGDMomentum([weights], lr=1, momentum=0.9)
for step in range(30):
    optimizer.zero_grad()
    loss = pathological_curve_loss(weights[0], weights[1])
    loss.backward()
    optimizer.step()
    if step % 10 == 0:
        rounded = [round(w, 4) for w in weights.tolist()]
        print(f"step {step:2d} loss {loss.item():.5f} weights {rounded}")
