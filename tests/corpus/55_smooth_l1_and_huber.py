# In the style of: a blog post comparing regression losses (MSE, L1, smooth L1, Huber) and the
# gradients each sends back for small and large errors
# Family: blogs-and-qa
import torch
import torch.nn.functional as F

prediction = torch.linspace(-3, 3, 7, requires_grad=True)
target = torch.zeros(7)
for name, loss_fn in [("mse", F.mse_loss), ("l1", F.l1_loss),
                      ("smooth_l1", lambda p, t: F.smooth_l1_loss(p, t, beta=1.0)),
                      ("huber", lambda p, t: F.huber_loss(p, t, delta=2.0))]:
    loss = loss_fn(prediction, target)
    (grad,) = torch.autograd.grad(loss, prediction)
    print(f"{name:10s}", round(loss.item(), 4), grad, type(loss.grad_fn).__name__)
print(torch.nn.SmoothL1Loss(reduction="none", beta=0.5)(prediction, target))
print(torch.nn.HuberLoss(reduction="sum")(prediction, target))
